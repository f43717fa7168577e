// The replay viewer: the server reads the uploaded log (the same reader as fengsheng replay) and returns its
// records as one view may read them — the referee's, the public's, or one seat's — in Chinese; the page steps.
"use strict";
let logText = null;
let fileName = "the log";
let steps = [];
let boards = []; // a seat's screen after each decision (a seat's view of a referee's log)
let at = 0;
let summary = null; // a finished game's reveal (the referee's and each seat's view of a referee's log)
for (const b of document.querySelectorAll("button[data-glyph]")) {
  // glyphs drawn inline: no system font needed for ⏮ ◀ ▶ ⏭
  const g = glyph(b.dataset.glyph);
  if (b.dataset.glyph === "next" || b.dataset.glyph === "last") b.append(" ", g); else b.prepend(g, " ");
}

function banner(text) {
  document.getElementById("banner").replaceChildren(text ? el("div", { class: "banner error" }, text) : "");
}

async function load(game, view) {
  const q = new URLSearchParams({ name: fileName, game: String(game) });
  if (view) q.set("view", view);
  let data;
  try {
    data = await api("/api/replay?" + q, { method: "POST", headers: { "content-type": "application/jsonl" }, body: logText });
  } catch (e) {
    banner(String(e.message || e));
    document.getElementById("player").hidden = true;
    return;
  }
  banner(data.note || "");
  boards = data.boards || [];
  summary = data.summary || null;
  const games = document.getElementById("game");
  games.replaceChildren(...data.games.map((g, i) => el("option", { value: i }, `${i}（index ${g.index ?? "?"}，${g.players} 人）`)));
  games.value = String(data.game);
  const views = document.getElementById("view");
  views.replaceChildren(...data.views.map((v) => el("option", { value: v }, v === "referee" ? "裁判（全部）" : v === "public" ? "旁观者" : v)));
  views.value = data.view;
  steps = data.steps;
  at = 0;
  const h = data.header;
  document.getElementById("summary").textContent =
    `${h.players} 人局 · 视角 ${data.view}` + (h.seed !== undefined ? ` · 种子 ${h.seed}` : "") + ` · ${steps.length} 步`;
  const box = document.getElementById("steps");
  box.replaceChildren(...steps.map((s, i) =>
    el("div", { class: s.decision ? "decision" : "", "data-step": i, onclick: () => go(i) }, `${i + 1}. ${s.text}`)));
  document.getElementById("player").hidden = false;
  go(0);
}

function go(i) {
  if (!steps.length) return;
  at = Math.max(0, Math.min(steps.length - 1, i));
  document.getElementById("position").textContent = `第 ${at + 1} / ${steps.length} 步`;
  document.getElementById("current").textContent = steps[at].text;
  const rows = document.querySelectorAll("#steps div");
  rows.forEach((row, j) => { row.className = (steps[j].decision ? "decision " : "") + (j === at ? "at" : j > at ? "later" : ""); });
  rows[at].scrollIntoView({ block: "nearest" });
  const board = document.getElementById("board");
  const b = steps[at].board !== undefined ? boards[steps[at].board] : null;
  board.hidden = !b;
  if (b) {
    document.getElementById("board-head").textContent = b.head;
    drawPlayers(document.getElementById("board-players"), b.players);
    drawMine(document.getElementById("board-me"), b);
    document.getElementById("board-transit").textContent = b.transit ? "传递中的情报：" + b.transit : "";
  }
  // at the last step of a finished game: every identity, task and role
  document.getElementById("reveal").replaceChildren(summary && at === steps.length - 1 ? drawSummary(summary) : "");
  if (!b && summary && at === steps.length - 1) { board.hidden = false; }
}

document.getElementById("file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  fileName = file.name;
  logText = await file.text();
  load(0, null);
});
const LOG_REFUSED = {
  404: "这台服务器上没有这张桌：链接可能不完整，或者这张桌已经不在了（结束的桌只保留一段时间）。",
  410: NOT_RESTORED, // (common.js: kept by the server, not restored at its start)
  403: "这个链接打不开这张桌的记录：要用你座位自己的链接（邀请链接不行），或者开桌的人的裁判日志链接。",
  409: "这局还没有结束：记录里有所有暗牌，终局后才能看。",
};
// opened from a finished table (#table=…&view=…&token=…): the log is fetched with the seat's or referee's key,
// which stays in the fragment (never sent to the server as part of the page's address)
(async () => {
  const params = new URLSearchParams(location.hash.slice(1));
  const table = params.get("table");
  if (!table) return;
  try {
    const res = await fetch(`/api/tables/${encodeURIComponent(table)}/log?` +
      new URLSearchParams({ token: params.get("token") || "", view: "referee" }));
    // the server's reasons are English (for scripts); the page says the ones a player meets in Chinese
    if (!res.ok) { banner(LOG_REFUSED[res.status] || (await res.json()).error || "这张桌的记录打不开"); return; }
    logText = await res.text();
    fileName = `桌 ${table}`;
    load(0, params.get("view") || "referee");
  } catch (e) {
    banner(String(e.message || e));
  }
})();
document.getElementById("game").addEventListener("change", (e) => load(Number(e.target.value), null));
document.getElementById("view").addEventListener("change", (e) => load(Number(document.getElementById("game").value), e.target.value));
document.getElementById("first").addEventListener("click", () => go(0));
document.getElementById("prev").addEventListener("click", () => go(at - 1));
document.getElementById("next").addEventListener("click", () => go(at + 1));
document.getElementById("last").addEventListener("click", () => go(steps.length - 1));
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") go(at + 1);
  if (e.key === "ArrowLeft") go(at - 1);
});
