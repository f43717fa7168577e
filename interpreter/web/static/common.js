// Shared by the pages of fengsheng serve: small DOM helpers (no framework, no build step).
"use strict";
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}
const COLOR_ZH = { red: "红", blue: "蓝", black: "黑" };
function cardChip(c) {
  // a card as the server describes it (view.card_chip): name#id, its colors, arrow, lock
  if (c.hidden) return el("span", { class: "card hidden" }, c.text);
  return el("span", { class: "card", title: c.text },
    c.text, "(", c.colors.map((x) => el("span", { class: "c-" + x }, COLOR_ZH[x] || x)), c.arrow, c.lock ? "锁" : "", ")");
}
function newSeatKey() {
  // a seat's key made by the page that will hold it (the server takes it: links.py PROPOSED_KEY): 16 random bytes,
  // URL-safe base64 without padding, as the server's own keys (secrets.token_urlsafe(16))
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
// The tables this browser made, each as its host was answered (POST /api/tables: its own seat's link, the
// invitations, the referee's links), kept in this browser alone: the server keeps only digests of keys and
// invitations (a copy of its database opens no seat), so it cannot give them again, and a host who reloads the
// lobby or closes its tab would otherwise have lost the invitations not yet sent. Shown again by the lobby and by
// the table's own pages in this browser; forgotten once the server no longer knows the table by its referee token.
// A table the server keeps but could not restore when it started (410; its list's `unrestored`) is not one it no
// longer knows: its links are kept here, and work again once its owner has put its content back and restarted it
const NOT_RESTORED = "这张桌还保存在服务器上，但服务器这次启动时没能恢复它，现在打不开。请告诉服务器的主人" +
  "（服务器的输出写了原因）：内容改回原样后重启服务器，这张桌就从原处接着打，原来的链接照旧能用。";
const HOSTED = "fengsheng:hosted:";
const HOSTED_KEPT = 20; // the newest tables made in this browser are kept
function keepHosted(made) {
  try {
    localStorage.setItem(HOSTED + made.table.id, JSON.stringify({ made, at: Date.now() }));
    const old = hostedTables().slice(HOSTED_KEPT);
    for (const h of old) forgetHosted(h.made.table.id);
  } catch (e) { /* private mode: the lobby shows them until it is reloaded */ }
}
// the names of this browser's localStorage items that start with `prefix` ([] in private mode)
function storedNames(prefix) {
  const found = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith(prefix)) found.push(k);
    }
  } catch (e) { /* private mode */ }
  return found;
}
function hostedTables() {
  // newest first
  const found = [];
  for (const k of storedNames(HOSTED)) {
    try { found.push(JSON.parse(localStorage.getItem(k))); } catch (e) { forgetHosted(k.slice(HOSTED.length)); }
  }
  return found.filter((h) => h && h.made && h.made.table).sort((a, b) => b.at - a.at);
}
function hostedTable(tid) {
  try { const h = JSON.parse(localStorage.getItem(HOSTED + tid)); return h && h.made ? h.made : null; } catch (e) { return null; }
}
function forgetHosted(tid) {
  try { localStorage.removeItem(HOSTED + tid); } catch (e) { /* private mode */ }
}
// which of a hosted table's invitations are still unused (POST /api/tables/<id>/host with its referee token, in the
// body): {unused, used, over}; {unrestored: true} if the server keeps the table but could not restore it (410: kept
// here); false if the server does not know the table by that token (404: gone; 403: a table of the same id on a
// server that lost its tables: forgotten here); null if it did not answer
async function hostStatus(made) {
  const token = new URL(made.log, location.origin).searchParams.get("token") || "";
  let res;
  try {
    res = await fetch(`/api/tables/${encodeURIComponent(made.table.id)}/host`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }) });
  } catch (e) { return null; }
  if (res.status === 403 || res.status === 404) { forgetHosted(made.table.id); return false; }
  if (res.status === 410) return { unrestored: true };
  if (!res.ok) return null;
  try { return await res.json(); } catch (e) { return null; }
}
// the seat this browser sits at, at each table (its key, whichever way it came: the host's own link, an invitation,
// the lobby's 加入), kept when the server first showed the seat: the lobby offers it again (回到我的座位), so a closed
// tab is not a seat lost for whoever took it from the lobby and never saw its link. Forgotten when the server says
// the key opens no seat (a table gone, another under the same id); kept while the table is kept but not restored
const SAT = "fengsheng:seat:";
function keepSeat(tid, seat, token) {
  try { localStorage.setItem(SAT + tid, JSON.stringify({ seat, token })); } catch (e) { /* private mode */ }
}
function seatAt(tid) {
  try { const s = JSON.parse(localStorage.getItem(SAT + tid)); return s && s.token ? s : null; } catch (e) { return null; }
}
function forgetSeat(tid, token) {
  const s = seatAt(tid);
  if (s && s.token === token) try { localStorage.removeItem(SAT + tid); } catch (e) { /* private mode */ }
}
function seatsKept() {
  return storedNames(SAT).map((k) => k.slice(SAT.length));
}
// an invitation as its host is shown it (the lobby's tables made here, the host's own seat page): the whole link to
// copy, its path in data-href; with `made` (the hosted table, common.js keepHosted), a button that replaces it
function inviteItem(l, made) {
  const item = el("li", { "data-seat": l.seat }, `P${l.seat} 的邀请：`,
    el("code", { class: "invite-link", "data-seat": l.seat, "data-href": l.url }, location.origin + l.url));
  if (made) {
    item.append(" ", el("button", { class: "action renew-invite", "data-seat": l.seat, type: "button",
      title: "链接丢了、发错了人：换一个新的，旧的从此打不开", onclick: (e) => renewInvite(made, l.seat, item, e.target) },
    "换一个新链接"));
  }
  return item;
}
// a new invitation for a seat nobody took yet (POST /api/tables/<id>/invite with the referee token, in the body): the
// one lost or sent to the wrong person opens nothing from then on. Kept in this browser before it is shown (a reload
// shows it again), and shown in place of the old one
async function renewInvite(made, seat, item, button) {
  const token = new URL(made.log, location.origin).searchParams.get("token") || "";
  button.disabled = true;
  for (const old of item.querySelectorAll(".renewed, .renew-error")) old.remove();
  try {
    const got = await api(`/api/tables/${encodeURIComponent(made.table.id)}/invite`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token, seat }) });
    for (const l of made.invites) if (l.seat === seat) l.url = got.url;
    try {
      const h = JSON.parse(localStorage.getItem(HOSTED + made.table.id));
      if (h && h.made) {
        for (const l of h.made.invites) if (l.seat === seat) l.url = got.url;
        localStorage.setItem(HOSTED + made.table.id, JSON.stringify(h));
      }
    } catch (e) { /* private mode: this page shows it until it is reloaded */ }
    const code = item.querySelector(".invite-link");
    code.dataset.href = got.url;
    code.textContent = location.origin + got.url;
    item.append(el("span", { class: "renewed muted" }, "（新链接：旧的已经作废了）"));
  } catch (e) {
    item.append(el("span", { class: "renew-error" }, `（没换成：${e.message || e}）`));
  } finally {
    button.disabled = false;
  }
}
// `draw` run one at a time: a call while one runs makes it run once more when that one is done (a redraw asked
// during a redraw is not lost, and two never interleave their awaits)
function oneAtATime(draw) {
  let running = null;
  const run = async () => {
    if (running) { running.again = true; return; }
    running = { again: false };
    try { await draw(); } finally {
      const again = running.again;
      running = null;
      if (again) run();
    }
  };
  return run;
}
async function api(path, options) {
  const res = await fetch(path, options);
  const type = res.headers.get("content-type") || "";
  const body = type.includes("json") ? await res.json() : await res.text();
  if (!res.ok) throw new Error(body && body.error ? body.error : String(body));
  return body;
}

// a seat's screen (view.seat_view): the players' rows, and the seat's own panel. `changed`: the seats whose row
// differs from what the seat saw at its last decision (highlighted). A referee's board (view.referee_board) adds
// each player's secret (identity, task) and hand cards: every card open.
const PLAYER_COLUMNS = ["座位", "角色", "手牌", "红/蓝/黑", "情报区", "状态"];
function drawPlayers(tbody, players, changed) {
  const cell = (i, ...children) => el("td", { "data-label": PLAYER_COLUMNS[i] }, ...children);
  tbody.replaceChildren(...players.map((p) =>
    el("tr", { class: [p.me ? "me" : "", p.current ? "current" : "", changed && changed.has(p.seat) ? "changed" : ""].join(" "),
      "data-seat": p.seat },
      cell(0, p.name, p.current ? el("span", { class: "turn-mark", title: "当前回合" }, "回合中") : ""),
      cell(1, el("span", { class: "role" }, p.role), p.secret ? el("div", { class: "secret" }, p.secret) : ""),
      cell(2, String(p.hand), p.hand_cards ? el("div", {}, p.hand_cards.map(cardChip)) : ""),
      cell(3, el("span", { class: "c-red" }, p.counts[0]), "/", el("span", { class: "c-blue" }, p.counts[1]), "/",
        el("span", { class: "c-black" }, p.counts[2])),
      cell(4, p.intel.length ? p.intel.map(cardChip) : "—"),
      cell(5, p.states.join("、") || "—"))));
}
function playersHead() {
  return el("thead", {}, el("tr", {}, PLAYER_COLUMNS.map((h) => el("th", {}, h))));
}
// the end of a game (summary.game_summary): every identity, secret task and role; how and why it ended
function drawSummary(s) {
  const cols = ["座位", "角色", "身份", "秘密任务", "情报", "结局"];
  const cell = (i, ...children) => el("td", { "data-label": cols[i] }, ...children);
  return el("div", { class: "summary", id: "summary-box" },
    el("h2", {}, "终局：全部揭晓"),
    el("p", { class: "ended" }, s.ended), el("p", { class: "why" }, s.why),
    el("table", { class: "grid reveal" }, el("thead", {}, el("tr", {}, cols.map((h) => el("th", {}, h)))),
      el("tbody", {}, s.seats.map((p) => el("tr", { class: p.winner ? "winner" : "", "data-seat": p.seat },
        cell(0, `P${p.seat}`, p.winner ? el("span", { class: "win-mark" }, "胜") : ""),
        cell(1, el("span", { class: "role" }, p.role)), cell(2, p.identity),
        cell(3, p.task ? el("span", { title: p.task_text }, `${p.task}：${p.task_text}`) : "—"),
        cell(4, p.intel || "—"), cell(5, p.fate))))));
}
// glyphs drawn inline (no system font needed): first, previous, next, last
const GLYPH_PATHS = {
  first: "M3 3h2v10H3zM14 3v10L6 8z", prev: "M12 3v10L4 8z", next: "M4 3v10l8-5z", last: "M11 3h2v10h-2zM2 3v10l8-5z",
};
function glyph(name) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "glyph");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", GLYPH_PATHS[name]);
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}
function drawMine(box, v) {
  const me = v.me;
  box.replaceChildren(el("div", {},
    el("div", {}, me.identity),
    me.task ? el("div", {}, me.task) : "",
    me.role ? el("div", {}, me.role) : "",
    me.rule_skills ? el("div", {}, me.rule_skills) : "",
    el("div", { class: "hand" }, "手牌：", me.hand.length ? me.hand.map(cardChip) : "—"),
    me.known.map((k) => el("div", { class: "muted" }, k)),
    v.in_use.length ? el("div", {}, "使用中：" + v.in_use.join(" ")) : "",
    v.staging.length ? el("div", {}, "翻开的牌：", v.staging.map(cardChip)) : "",
    (v.zones || []).map((z) => el("div", {}, z)),
  ));
}
