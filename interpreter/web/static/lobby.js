// The lobby: make a table (players, who sits where, the host's seat, seed, expansions, a role pinned to a seat): the
// host's own seat link, the invitations to hand out (each good once), the referee's log link, kept in this browser
// and shown again after a reload (你开的桌); and the list of tables.
"use strict";
let KINDS = ["human"];
const KIND_ZH = { human: "human（人：链接发给你）", open: "open（空座：大厅里谁都可以加入）", heuristic: "heuristic（机器人）", random: "random（随机机器人）", search: "search（搜索机器人，较慢）" };

function seatRows() {
  const n = Number(document.getElementById("players").value);
  const body = document.getElementById("seats");
  const old = Array.from(body.querySelectorAll("select")).map((s) => s.value);
  body.replaceChildren();
  for (let s = 0; s < n; s++) {
    const pick = el("select", { id: "seat-" + s, "data-seat": s },
      KINDS.map((k) => el("option", { value: k }, KIND_ZH[k] || k + "（机器人）")));
    const bot = KINDS.find((k) => k !== "human" && k !== "open") || "human";
    pick.value = old[s] || (s === 0 ? "human" : bot);
    pick.addEventListener("change", hostSeats);
    body.append(el("tr", {}, el("td", {}, "P" + s), el("td", {}, pick)));
  }
  hostSeats();
}

// the seat the host plays: one of the human (reserved) seats, or none
function hostSeats() {
  const pick = document.getElementById("host-seat");
  const was = pick.value;
  const humans = Array.from(document.querySelectorAll("#seats select")).filter((s) => s.value === "human")
    .map((s) => s.dataset.seat);
  pick.replaceChildren(...humans.map((s) => el("option", { value: s }, "P" + s)), el("option", { value: "" }, "我不坐"));
  pick.value = humans.includes(was) || (was === "" && pick.dataset.touched) ? was : (humans[0] ?? "");
  roleSeats();
}

// the seat a pinned role is dealt to: the host's own (the server's default), or any seat of the table
function roleSeats() {
  const pick = document.getElementById("role-seat");
  const was = pick.value;
  const n = Number(document.getElementById("players").value);
  const seats = Array.from({ length: n }, (_, s) => String(s));
  pick.replaceChildren(el("option", { value: "" }, "我坐的座位"), ...seats.map((s) => el("option", { value: s }, "P" + s)));
  pick.value = seats.includes(was) ? was : "";
}

// a table this browser made, as its host sees it: its own seat's link, the invitations (`status`, the server's
// answer of which are still unused: hostStatus; null right after the table was made, when none is used), the open
// seats and the referee's log link; `fresh`: the table just made on this page. A table the server keeps but could
// not restore (status.unrestored) is said so, its links shown as they were kept (none can be replaced meanwhile)
function drawMade(made, status, fresh) {
  const tid = made.table.id;
  const unrestored = Boolean(status && status.unrestored);
  const used = new Set(status && status.used ? status.used : []);
  const over = Boolean(status && status.over);
  return [
    el("p", {}, `桌 ${tid} ${fresh ? "开好了" : "是你开的"}。`, made.chosen_seed
      ? "种子是你指定的：你能算出所有的牌，每个座位都会看到这张桌的种子是开桌的人指定的。"
      : "种子是服务器随机抽的，谁都不知道（包括你）。", over ? "这局已经结束了。" : ""),
    unrestored ? el("p", { class: "unrestored banner error" }, NOT_RESTORED) : "",
    made.seat ? el("p", { class: "my-seat", "data-seat": made.seat.seat }, `你的座位是 P${made.seat.seat}：`,
      el("a", { href: made.seat.url, target: "_blank", class: "join-link mine", "data-seat": made.seat.seat }, "入座"),
      "（这个链接是你自己的，别发给别人）") : el("p", { class: "my-seat" }, "你不在这张桌上坐。"),
    made.invites.length && !over ? el("div", { class: "invites" },
      el("p", {}, "邀请链接：发给你请的人，每个座位一个，每个链接只能用一次——第一个打开它的浏览器坐下，之后这个链接就失效了。" +
        "所以你自己别打开；如果有人说链接已经用过了，那就是别人先打开了它。" +
        (unrestored ? "这张桌恢复之前，看不出哪些邀请已经用过。" : "")),
      el("ul", { class: "links" }, made.invites.map((l) => used.has(l.seat)
        ? el("li", { "data-seat": l.seat, class: "used" }, `P${l.seat} 的邀请已经用过了：有人入座了。`)
        : inviteItem(l, unrestored ? null : made)))) : "",
    made.open.length && !over ? el("p", { class: "open-seats" }, made.open.map((s) => "P" + s).join("、") +
      (unrestored ? " 是空座：这张桌恢复之后，大厅里的人点「加入」就能坐下（先到先得）。"
        : " 是空座：没有链接，大厅里的人点「加入」就能坐下（先到先得）。")) : "",
    made.pin ? el("p", { class: "pin", "data-seat": made.pin.seat }, `角色 ${made.pin.role} 固定发给 P${made.pin.seat}` +
      "（只有你知道：大厅、其他座位和观战的人都看不到它发到了哪个座位）。") : "",
    el("p", { class: "muted" }, "整局的日志（裁判视角，含种子和每个人的每一步）游戏结束后才能下载：",
      el("a", { href: made.log, class: "host-log" }, "裁判日志"), "（fengsheng replay 能重放它；游戏进行中打开会被拒绝）"),
  ];
}

// the tables this browser made earlier (kept in it: common.js keepHosted), shown again with their links, each
// asked of the server (which invitations are still unused; a table it no longer knows is forgotten, one it keeps
// but could not restore is said so); redrawn only
// when that changed, so a link being selected to copy is not lost to a redraw
let shownMade = null; // the table just made, shown above the list (as it was last drawn: shownMadeStatus)
let shownMadeStatus = "null";
let shownHosted = null;
// each table's last answer: one the server did not answer this time (a request lost on a bad link) is shown as it
// was, not hidden until the tables change again (only then is the panel redrawn)
const hostedAnswers = {};
const showHosted = oneAtATime(drawHosted);
async function drawHosted() {
  const panel = document.getElementById("hosted-panel");
  const found = [];
  for (const h of hostedTables()) {
    const tid = h.made.table.id;
    const status = (await hostStatus(h.made)) ?? hostedAnswers[tid] ?? null;
    if (!status) { delete hostedAnswers[tid]; continue; }
    hostedAnswers[tid] = status;
    if (tid !== shownMade) { found.push([h.made, status]); continue; }
    if (JSON.stringify(status) === shownMadeStatus) continue; // (the table just made: above, redrawn if it changed)
    shownMadeStatus = JSON.stringify(status);
    document.getElementById("created").replaceChildren(...drawMade(h.made, status, true));
  }
  const seen = JSON.stringify(found);
  if (seen === shownHosted) return;
  shownHosted = seen;
  panel.hidden = !found.length;
  document.getElementById("hosted").replaceChildren(...found.map(([made, status]) =>
    el("div", { class: "hosted", "data-table": made.table.id }, ...drawMade(made, status))));
}

async function create(event) {
  event.preventDefault();
  const n = Number(document.getElementById("players").value);
  const seats = [];
  for (let s = 0; s < n; s++) seats.push(document.getElementById("seat-" + s).value);
  const seed = document.getElementById("seed").value.trim();
  const expansions = document.getElementById("expansions").value;
  const host = document.getElementById("host-seat").value;
  const timer = document.getElementById("timer").value.trim(); // the optional move timer, in seconds
  // the pinned role: an id typed; else none, or (left out) the server's default, serve --role
  const role = document.getElementById("role").value.trim();
  const roleSeat = document.getElementById("role-seat").value;
  const pin = role ? { role } : document.getElementById("no-role").checked ? { role: null } : {};
  const out = document.getElementById("created");
  try {
    const made = await api("/api/tables", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ seats, seed: seed === "" ? null : seed, expansions: expansions || null,
        host_seat: host === "" ? null : Number(host), timer: timer === "" ? null : Number(timer),
        ...pin, role_seat: roleSeat === "" ? null : Number(roleSeat) }),
    });
    keepHosted(made); // (before it is shown: a reload from now on shows it again)
    shownMade = made.table.id;
    shownMadeStatus = "null";
    out.replaceChildren(...drawMade(made, null, true));
    refresh();
  } catch (e) {
    out.replaceChildren(el("div", { class: "banner error" }, String(e.message || e)));
  }
}

// the key this browser asks an open seat with, made and kept before it asks (one a table): were the answer lost on
// its way (the seat taken, its link never here), asking again with it answers the same seat, not a second one
const claimKeys = {}; // (this page's, where the browser keeps nothing: private mode)
function claimKey(tid) {
  const where = `fengsheng:claim:${location.host}:${tid}`;
  let key = claimKeys[where] || null;
  try { key = key || localStorage.getItem(where); } catch (e) { /* private mode */ }
  if (!key) {
    key = newSeatKey();
    try { localStorage.setItem(where, key); } catch (e) { /* private mode: a retry from this page still has it */ }
  }
  claimKeys[where] = key;
  return key;
}

async function join(tid) {
  try {
    const got = await api(`/api/tables/${tid}/claim`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ key: claimKey(tid) }) });
    location.href = got.url;
  } catch (e) {
    alert(e.message || e);
    refresh();
  }
}

// the seat this browser sits at, at table `t` (common.js keepSeat; or the host's own seat of a table it made, not
// opened yet): a link back to it
function mine(t) {
  const s = seatAt(t.id);
  const made = hostedTable(t.id);
  const link = s ? { seat: s.seat, url: `/table/${t.id}#seat=${s.seat}&token=${s.token}` } : made && made.seat;
  if (!link) return "";
  return [el("a", { href: link.url, class: "my-seat-link", "data-seat": link.seat }, `回到我的座位 P${link.seat}`), " "];
}

let shownTables = null; // the list as last drawn: redrawn only when it changed, so a click is not lost to a redraw

async function refresh() {
  const box = document.getElementById("tables");
  let data;
  try { data = await api("/api/tables"); } catch (e) { return; }
  const unrestored = data.unrestored || []; // kept by the server, not restored at its start: their seats stay kept
  for (const tid of seatsKept()) { // (a table the server no longer holds: its seat is no more)
    if (!data.tables.some((t) => t.id === tid) && !unrestored.includes(tid)) forgetSeat(tid, (seatAt(tid) || {}).token);
  }
  const seen = JSON.stringify([data.tables, unrestored, seatsKept(), hostedTables().map((h) => h.made.table.id)]);
  if (seen === shownTables) return;
  shownTables = seen;
  showHosted(); // (a table's seats changed: an invitation may have been used)
  // of the tables kept but not restored, those this browser sits at or made: said so, with the way back to its seat
  const mineKept = unrestored.filter((tid) => seatAt(tid) || hostedTable(tid));
  if (!data.tables.length && !mineKept.length) { box.replaceChildren("还没有桌子。"); box.className = "muted"; return; }
  box.className = "";
  box.replaceChildren(el("table", { class: "grid" },
    el("thead", {}, el("tr", {}, el("th", {}, "桌"), el("th", {}, "座位"), el("th", {}, "扩展"), el("th", {}, "进度"), el("th", {}, ""))),
    el("tbody", {}, data.tables.map((t) => el("tr", { "data-table": t.id },
      el("td", {}, t.id),
      el("td", {}, t.seats.map((s) => `P${s.seat} ${s.kind}${s.kind === "human" ? (s.connected ? "（在线）" : s.open ? "（空座）" : s.reserved ? "（留座：凭链接）" : "（已有人）") : ""}`).join("，")),
      el("td", {}, (t.expansions || "（服务器默认）") + (t.chosen_seed ? "；种子由开桌的人指定" : "")),
      el("td", {}, t.over ? "已结束" : `第 ${t.turn} 回合`),
      el("td", {}, mine(t),
        !t.over && t.seats.some((s) => s.open) ? el("button", { class: "action", onclick: () => join(t.id) }, "加入") : "",
        " ", el("a", { href: `/table/${t.id}#watch`, class: "watch-link" }, "观战")),
    )), mineKept.map((tid) => el("tr", { "data-table": tid, class: "unrestored" },
      el("td", {}, tid),
      el("td", { colspan: 3 }, "还保存在服务器上，但服务器这次启动时没能恢复它，现在打不开：服务器的主人修好后重启，就从原处接着打。"),
      el("td", {}, mine({ id: tid })))))));
}

async function start() {
  const opts = await api("/api/options");
  KINDS = opts.kinds;
  const players = document.getElementById("players");
  // the counts the server's content plays (its identity table), not a range of the page's own
  for (const n of opts.players) players.append(el("option", { value: n }, n));
  players.value = opts.players.includes(5) ? "5" : String(opts.players[0]);
  players.addEventListener("change", seatRows);
  const exp = document.getElementById("expansions");
  exp.append(el("option", { value: "" }, "服务器默认" + (opts.default_expansions ? `（${opts.default_expansions}）` : "（全部）")));
  exp.append(el("option", { value: "all" }, "全部"), el("option", { value: "none" }, "无（基础游戏）"));
  for (const id of opts.expansions) exp.append(el("option", { value: id }, id));
  document.getElementById("host-seat").addEventListener("change", (e) => { e.target.dataset.touched = "1"; });
  if (opts.role_by_default) { // (the server pins a role by default: which, it does not tell a page anyone may open)
    document.getElementById("role").placeholder = "服务器默认的角色";
    document.getElementById("no-role-label").hidden = false;
  }
  seatRows();
  document.getElementById("create").addEventListener("submit", create);
  refresh();
  setInterval(refresh, 3000);
}
start();
