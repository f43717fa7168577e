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
async function api(path, options) {
  const res = await fetch(path, options);
  const type = res.headers.get("content-type") || "";
  const body = type.includes("json") ? await res.json() : await res.text();
  if (!res.ok) throw new Error(body && body.error ? body.error : String(body));
  return body;
}

// a seat's screen (view.seat_view): the players' rows, and the seat's own panel
function drawPlayers(tbody, players) {
  tbody.replaceChildren(...players.map((p) =>
    el("tr", { class: [p.me ? "me" : "", p.current ? "current" : ""].join(" ") },
      el("td", {}, p.name), el("td", {}, p.role), el("td", {}, p.hand),
      el("td", {}, el("span", { class: "c-red" }, p.counts[0]), "/", el("span", { class: "c-blue" }, p.counts[1]), "/",
        el("span", { class: "c-black" }, p.counts[2])),
      el("td", {}, p.intel.length ? p.intel.map(cardChip) : "—"),
      el("td", {}, p.states.join("、") || "—"))));
}
function drawMine(box, v) {
  const me = v.me;
  box.replaceChildren(el("div", {},
    el("div", {}, me.identity),
    me.task ? el("div", {}, me.task) : "",
    me.role ? el("div", {}, me.role) : "",
    el("div", { class: "hand" }, "手牌：", me.hand.length ? me.hand.map(cardChip) : "—"),
    me.known.map((k) => el("div", { class: "muted" }, k)),
    v.in_use.length ? el("div", {}, "使用中：" + v.in_use.join(" ")) : "",
    v.staging.length ? el("div", {}, "翻开的牌：", v.staging.map(cardChip)) : "",
    (v.zones || []).map((z) => el("div", {}, z)),
  ));
}
