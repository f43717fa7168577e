// A seat at a table: the server sends this seat's observation, its legal actions and its screen in Chinese;
// the page draws them and sends back the chosen action id with the seat's seq it answers (the server checks both).
"use strict";
const tid = location.pathname.split("/").pop();
const params = new URLSearchParams(location.hash.slice(1));
// an invitation is exchanged once for the seat's key; this browser keeps the key (and the address bar shows the
// seat's own link from then on), so opening the invitation again here still sits at the seat. The page makes that
// key itself and keeps it before it asks (the server takes it with the invitation): a connection lost between the
// server's spending the invitation and the page's hearing of it would otherwise lose the seat for good
const invite = params.get("invite") || "";
const inviteKey = `fengsheng:${tid}:${invite}`;
let kept = null;
if (invite) {
  try { kept = localStorage.getItem(inviteKey); } catch (e) { /* private mode */ }
  if (!kept) {
    kept = newSeatKey();
    try { localStorage.setItem(inviteKey, kept); } catch (e) { /* private mode: this page still holds it */ }
  }
}
let token = params.get("token") || kept || "";
const watching = !token && !invite && params.has("watch"); // a spectator: the public view only
let ws = null;
let state = null; // the last state message
let closedForGood = false;
// coming back after a socket closed: later and later (RETRY_FIRST s, twice that, … never over RETRY_MOST s; each a
// fifth shorter or longer at random, so that the pages of a restarted server do not all come back in one moment),
// saying when; at once when the browser is online again or its person asks (现在重连). A person on a flaky link is
// not stuck, a server that is busy (too many connections, a full spectators' gallery) is not asked every second.
// A close the server says is final (a forged or spent key, a table gone, another window took the seat's place: its
// message says which; guard.py CLOSE_RETRY are the others) stops it: asked again, it would only refuse again
const FINAL_CLOSES = new Set([1008, 1009, 4400, 4403, 4404, 4409]);
// of those, the one its person may undo: a newer window of this seat took this one's place. Never tried again by
// itself (two windows would take the seat from each other for ever), but 在这里继续 connects again at once, and this
// window takes the seat back (the server then closes the oldest of the others, which is told so in turn)
const CLOSE_REPLACED = 4409;
const RETRY_FIRST = 1, RETRY_MOST = 30; // seconds
let retries = 0; // tries since a state last came (a socket that opens and is refused at once is no way back yet)
let retry = null; // the try to come: {handle, tick}
let closeWords = ""; // what the server said as it closed the socket (a busy server, a full gallery: why)
// what changed since this seat's last decision: the players' rows as they were then (by seat), and the log lines
// that came since stay highlighted until the seat answers again
let rowsAtDecision = null;
// the host's optional move timer: counted down by this page only (the server and the engine read no clock for
// it); at 0 the page answers the first option of the menu (docs/play.md)
let countdown = null; // {seq, deadline, handle}
// the seq shown when the server said the table waits (a bot's move it could not write): its banner stays until
// a state with another seq comes (the table moved on), whatever state messages come meanwhile
let stalledAt = null;

function banner(text, kind) {
  const box = document.getElementById("banner");
  box.replaceChildren(text ? el("div", { class: "banner " + (kind || "info") }, text) : "");
}

function draw(msg) {
  const v = msg.view;
  const who = v.seat === null ? "观战" : `你是 P${v.seat}`;
  document.title = `风声 · ${v.seat === null ? "观战" : "P" + v.seat} · 桌 ${msg.table}`;
  document.getElementById("title").textContent = `风声 · 桌 ${msg.table} · ${who}`;
  document.getElementById("head").textContent = v.head;
  document.body.dataset.seat = v.seat;
  document.body.dataset.seq = msg.seq;
  document.body.dataset.over = msg.over ? "1" : "";

  const changed = new Set();
  if (rowsAtDecision) {
    for (const p of v.players) if (rowsAtDecision[p.seat] !== rowKey(p)) changed.add(p.seat);
  }
  drawPlayers(document.getElementById("players"), v.players, changed);
  drawTurn(v, msg);
  document.getElementById("mine-title").textContent = who;
  document.getElementById("mine").hidden = !v.me; // a spectator has no panel of its own
  if (v.me) drawMine(document.getElementById("me"), v);
  const transit = document.getElementById("transit-panel");
  transit.hidden = !v.transit;
  document.getElementById("transit").textContent = v.transit || "";

  const log = document.getElementById("log");
  if (msg.history_from === 0) log.replaceChildren();
  const fresh = rowsAtDecision ? "new" : ""; // (before the seat's first answer nothing is "since" it)
  for (const line of v.events) log.append(el("div", { class: fresh + (line.startsWith("——") ? " turn" : "") }, line));
  log.scrollTop = log.scrollHeight;

  const result = document.getElementById("result");
  result.hidden = !v.result;
  if (v.result) {
    // the logs a click away: the referee's whole record and each seat's copy, opened in the replay viewer (the key
    // stays in the fragment: the viewer fetches the log with it), and this seat's own copy to download; a
    // spectator has no key: it sees the reveal only
    const open = (view) => `/replay#table=${msg.table}&view=${view}&token=${encodeURIComponent(token)}`;
    const seats = Array.from({ length: msg.players }, (_, s) => s);
    result.replaceChildren(el("div", { class: "verdict" }, v.result),
      msg.summary ? drawSummary(msg.summary) : "",
      watching ? "" : el("p", { class: "logs" }, "完整记录：", el("a", { href: open("referee"), id: "referee-replay" }, "裁判的完整记录"),
        seats.flatMap((s) => [" · ", el("a", { href: open("P" + s), class: "seat-replay" }, `P${s} 的记录`)]),
        " · ", el("a", { href: `/api/tables/${msg.table}/log?token=${encodeURIComponent(token)}`, id: "seat-log" }, "下载你这一席的日志")));
  }
  const decision = document.getElementById("decision");
  decision.hidden = !v.decision;
  document.getElementById("waiting").hidden = Boolean(v.decision || v.result || msg.stopped);
  // the engine stopped the game (a safety limit): its public words (the referee's log holds the whole message)
  if (msg.stopped) banner(`引擎中止了这局游戏：${msg.stopped}`, "error");
  if (v.decision) {
    document.getElementById("decision-title").textContent = v.decision.title;
    document.getElementById("prompt").textContent = v.decision.prompt;
    const why = document.getElementById("why-box"); // the asking skill's or card's text, a click away
    why.hidden = !v.decision.why.length;
    document.getElementById("why-title").textContent = `${v.decision.asker} 的规则文字`;
    document.getElementById("why").replaceChildren(...v.decision.why.map((r) => el("div", {}, r)));
    document.getElementById("options").replaceChildren(...v.decision.options.map((o) =>
      el("button", { "data-action": o.id, onclick: () => choose(o.id) }, o.label)));
    document.getElementById("rules").replaceChildren(...v.rules.map((r) => el("div", {}, r)));
  } else {
    document.getElementById("options").replaceChildren();
  }
  runTimer(msg);
}

function runTimer(msg) {
  const v = msg.view;
  if (!msg.timer || !v.decision || msg.over) {
    if (countdown) clearInterval(countdown.handle);
    countdown = null;
    return;
  }
  if (countdown && countdown.seq === msg.seq) return tick(); // the same decision: keep counting
  if (countdown) clearInterval(countdown.handle);
  countdown = { seq: msg.seq, deadline: Date.now() + msg.timer * 1000, handle: setInterval(tick, 250) };
  tick();
}

function tick() {
  if (!countdown) return;
  const left = Math.max(0, Math.ceil((countdown.deadline - Date.now()) / 1000));
  let box = document.getElementById("timer");
  if (!box) { box = el("span", { id: "timer", class: "timer" }); document.getElementById("turn").append(" ", box); }
  box.textContent = `剩余 ${left} 秒`;
  if (left > 0 || !state || state.seq !== countdown.seq) return;
  clearInterval(countdown.handle);
  const first = state.view.decision && state.view.decision.options[0];
  countdown = null;
  // (said until the seat's next answer: the states that follow at once would clear a plain info banner unread)
  // (not sent while the connection is down: the state that comes back starts the count again)
  if (first && choose(first.id)) banner(`时间到：替你选了第一项「${first.label}」。`, "info timed");
}

function rowKey(p) {
  return JSON.stringify([p.role, p.hand, p.counts, p.intel, p.states]);
}

function drawTurn(v, msg) {
  // whose turn it is (public), and whether this seat is to answer now
  const bar = document.getElementById("turn");
  const current = v.players.find((p) => p.current);
  if (msg.over) bar.replaceChildren(el("strong", {}, msg.stopped ? "游戏被中止" : "游戏结束"));
  else if (v.decision) bar.replaceChildren(el("strong", { class: "you" }, "轮到你决定"), " · ", v.decision.prompt);
  else bar.replaceChildren(current ? `${current.name} 的回合` : "", " · 等待其他玩家……");
  bar.className = "turn-bar" + (v.decision ? " yours" : "");
}

function choose(action) {
  if (!ws || ws.readyState !== WebSocket.OPEN || !state) return false;
  if (document.querySelector("#banner .timed")) banner(""); // the timer's word, read by now
  // from now on, what changes is new since this decision
  rowsAtDecision = Object.fromEntries(state.view.players.map((p) => [p.seat, rowKey(p)]));
  for (const old of document.querySelectorAll("#log .new")) old.classList.remove("new");
  for (const b of document.querySelectorAll("#options button")) b.disabled = true;
  ws.send(JSON.stringify({ type: "act", seq: state.seq, action }));
  return true;
}

// the invitations of this table not used yet, if this browser made it (common.js keepHosted): its host, back at the
// table from a reload or another tab, sees them again (the server cannot give them again: it keeps their digests
// only). Asked again whenever the table's people change (a guest who came used an invitation). On the host's own
// seat's page alone: not on the spectator's view (a screen an audience may watch) nor on another seat's page
// opened in this browser, where whoever sees an unused invitation could take its seat
const drawHosting = oneAtATime(async () => {
  const made = hostedTable(tid);
  const own = made && made.seat ? new URLSearchParams(made.seat.url.split("#")[1] || "").get("token") : null;
  if (!own || own !== token) return;
  const status = await hostStatus(made);
  if (status === null) return; // (no answer: as it was)
  const unused = status && status.unused ? made.invites.filter((l) => status.unused.includes(l.seat)) : [];
  document.getElementById("host-panel").hidden = !unused.length || status.over;
  document.getElementById("host-invites").replaceChildren(...unused.map((l) => inviteItem(l, made)));
});

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const sock = new WebSocket(scheme + location.host + "/ws/" + tid);
  ws = sock;
  // (with an invitation, both: the key this page made opens the seat once the invitation was taken with it)
  sock.onopen = () => { sock.send(JSON.stringify({ type: "join", ...(token ? { token } : { watch: true }), ...(invite ? { invite } : {}), ...joining() })); };
  sock.onmessage = (event) => {
    if (sock !== ws) return; // (a socket this page left: nothing it says is news)
    const msg = JSON.parse(event.data);
    if (msg.type === "key") { // the invitation was ours: from now on this seat's key is
      token = msg.token;
      try { localStorage.setItem(inviteKey, token); } catch (e) { /* private mode: the link below still works */ }
      history.replaceState(null, "", `#seat=${msg.seat}&token=${token}`);
    } else if (msg.type === "state") {
      retries = 0; // (back: the next loss starts again from the shortest wait)
      closeWords = "";
      // the invitation opened again in this browser: the address bar shows the seat's own link, once it is one
      if (invite && msg.seat !== null && location.hash.includes("invite=")) history.replaceState(null, "", `#seat=${msg.seat}&token=${token}`);
      // an info banner goes with the next state; a stall's ("until_moved") once the table has moved on
      const moved = stalledAt !== null && msg.seq !== stalledAt;
      if (moved) stalledAt = null;
      if (msg.seat !== null && token && !state) keepSeat(tid, msg.seat, token); // (the lobby's 回到我的座位)
      state = msg;
      if (document.querySelector("#banner .info:not(.timed)") || (moved && document.querySelector("#banner .until-moved"))) banner("");
      draw(msg);
      document.getElementById("chosen-seed").hidden = !msg.chosen_seed;
    } else if (msg.type === "people" || msg.type === "chat") {
      peopleMessage(msg); // people.js
      if (msg.type === "people") drawHosting();
    } else if (msg.type === "error" && msg.retry) {
      closeWords = msg.message; // (said with the wait before the next try, once the socket is closed)
    } else if (msg.type === "error") {
      banner(msg.message, msg.until_moved ? "error until-moved" : "error");
      if (msg.until_moved) stalledAt = state ? state.seq : -1;
      if (msg.fatal) closedForGood = true;
    }
  };
  sock.onclose = (event) => {
    if (sock !== ws) return;
    for (const b of document.querySelectorAll("#options button")) b.disabled = true; // (an answer now goes nowhere)
    if (event.code === 4403 && token) forgetSeat(tid, token); // (no seat of this table has this key)
    if (!closedForGood && FINAL_CLOSES.has(event.code)) { // (its message lost on the way: said here)
      banner(`服务器关闭了这个连接（${event.code}）：${event.reason || "请回大厅看看"}。`, "error");
      closedForGood = true;
    }
    if (event.code === CLOSE_REPLACED && token) offerContinue();
    if (closedForGood) return;
    reconnectLater(closeWords || "与服务器的连接断开了。");
    closeWords = "";
  };
}

function reconnectLater(words) {
  retries += 1;
  const wait = Math.min(RETRY_MOST, RETRY_FIRST * 2 ** Math.min(retries - 1, 10) * (0.8 + 0.4 * Math.random()));
  const at = Date.now() + wait * 1000;
  const tick = () => {
    const left = Math.max(0, Math.ceil((at - Date.now()) / 1000));
    const box = document.getElementById("banner");
    box.replaceChildren(el("div", { class: "banner info retry" }, words, " ",
      `${left} 秒后重新连接（第 ${retries} 次）……`, " ",
      el("button", { class: "action", id: "reconnect-now", onclick: reconnectNow }, "现在重连")));
  };
  retry = { handle: setTimeout(reconnectNow, wait * 1000), tick: setInterval(tick, 1000) };
  document.body.dataset.retries = retries; // (what the page waits, for its tests and for curious eyes)
  document.body.dataset.retryWait = Math.round(wait * 1000);
  tick();
}

// the button on the message of a window that gave way to a newer one of its seat (CLOSE_REPLACED)
function offerContinue() {
  const box = document.querySelector("#banner .banner");
  const button = el("button", { class: "action", id: "continue-here", onclick: continueHere }, "在这里继续");
  if (box) box.append(" ", button);
  else document.getElementById("banner").replaceChildren(el("div", { class: "banner error" }, button));
}

function continueHere() {
  if (ws && ws.readyState !== WebSocket.CLOSED) return; // (one socket at a time)
  closedForGood = false;
  retries = 0;
  closeWords = "";
  banner("");
  connect();
}

function reconnectNow() {
  if (!retry) return;
  clearTimeout(retry.handle);
  clearInterval(retry.tick);
  retry = null;
  connect();
}
// the browser back on a network: no reason to wait out the rest of the pause
window.addEventListener("online", reconnectNow);
// another link of this table opened in this tab (pasted into its address bar, clicked on a page of it) changes only
// the fragment: the browser keeps the page, its websocket and its seat. The page is loaded again for the link's
// (its own replaceState of the address fires no hashchange)
window.addEventListener("hashchange", () => location.reload());
if (!token && !invite && !watching) {
  banner("这个链接缺少座位的密钥（#token=… 或 #invite=…）：请用大厅或开桌的人给你的链接。", "error");
} else {
  connect();
}
