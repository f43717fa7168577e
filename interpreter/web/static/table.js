// A seat at a table: the server sends this seat's observation, its legal actions and its screen in Chinese;
// the page draws them and sends back the chosen action id with the seat's seq it answers (the server checks both).
"use strict";
const tid = location.pathname.split("/").pop();
const params = new URLSearchParams(location.hash.slice(1));
// an invitation is exchanged once for the seat's key; this browser keeps the key (and the address bar shows the
// seat's own link from then on), so opening the invitation again here still sits at the seat
const invite = params.get("invite") || "";
const kept = invite ? localStorage.getItem(`fengsheng:${tid}:${invite}`) : null;
let token = params.get("token") || kept || "";
const watching = !token && !invite && params.has("watch"); // a spectator: the public view only
if (kept) history.replaceState(null, "", `#seat=${params.get("seat") || ""}&token=${kept}`);
let ws = null;
let state = null; // the last state message
let closedForGood = false;

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

  drawPlayers(document.getElementById("players"), v.players);
  document.getElementById("mine-title").textContent = who;
  document.getElementById("mine").hidden = !v.me; // a spectator has no panel of its own
  if (v.me) drawMine(document.getElementById("me"), v);
  const transit = document.getElementById("transit-panel");
  transit.hidden = !v.transit;
  document.getElementById("transit").textContent = v.transit || "";

  const log = document.getElementById("log");
  if (msg.history_from === 0) log.replaceChildren();
  for (const old of log.querySelectorAll(".new")) old.classList.remove("new");
  for (const line of v.events) log.append(el("div", { class: "new" + (line.startsWith("——") ? " turn" : "") }, line));
  log.scrollTop = log.scrollHeight;

  const result = document.getElementById("result");
  result.hidden = !v.result;
  if (v.result) {
    result.replaceChildren(el("div", {}, v.result), watching ? "" :
      el("p", {}, el("a", { href: `/api/tables/${msg.table}/log?token=${encodeURIComponent(token)}`, id: "seat-log" }, "下载你这一席的日志"),
        "（在 ", el("a", { href: "/replay" }, "回放"), " 里打开）"));
  }
  const decision = document.getElementById("decision");
  decision.hidden = !v.decision;
  document.getElementById("waiting").hidden = Boolean(v.decision || v.result);
  if (v.decision) {
    document.getElementById("decision-title").textContent = v.decision.title;
    document.getElementById("prompt").textContent = v.decision.prompt;
    document.getElementById("options").replaceChildren(...v.decision.options.map((o) =>
      el("button", { "data-action": o.id, onclick: () => choose(o.id) }, o.label)));
    document.getElementById("rules").replaceChildren(...v.rules.map((r) => el("div", {}, r)));
  } else {
    document.getElementById("options").replaceChildren();
  }
}

function choose(action) {
  if (!ws || ws.readyState !== WebSocket.OPEN || !state) return;
  for (const b of document.querySelectorAll("#options button")) b.disabled = true;
  ws.send(JSON.stringify({ type: "act", seq: state.seq, action }));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  ws = new WebSocket(scheme + location.host + "/ws/" + tid);
  ws.onopen = () => { ws.send(JSON.stringify({ type: "join", ...(token ? { token } : invite ? { invite } : { watch: true }), ...joining() })); };
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "key") { // the invitation was ours: from now on this seat's key is
      token = msg.token;
      try { localStorage.setItem(`fengsheng:${tid}:${invite}`, token); } catch (e) { /* private mode: the link below still works */ }
      history.replaceState(null, "", `#seat=${msg.seat}&token=${token}`);
    } else if (msg.type === "state") {
      state = msg;
      if (document.querySelector("#banner .info")) banner("");
      draw(msg);
      document.getElementById("chosen-seed").hidden = !msg.chosen_seed;
    } else if (msg.type === "people" || msg.type === "chat") {
      peopleMessage(msg); // people.js
    } else if (msg.type === "error") {
      banner(msg.message, "error");
      if (msg.fatal) closedForGood = true;
    }
  };
  ws.onclose = () => {
    if (closedForGood) return;
    banner("与服务器的连接断开了，正在重新连接……", "info");
    setTimeout(connect, 1000);
  };
}
if (!token && !invite && !watching) {
  banner("这个链接缺少座位的密钥（#token=… 或 #invite=…）：请用大厅或开桌的人给你的链接。", "error");
} else {
  connect();
}
