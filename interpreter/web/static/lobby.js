// The lobby: make a table (players, who sits where, seed, expansions), hand out the seats' links, list tables.
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
    body.append(el("tr", {}, el("td", {}, "P" + s), el("td", {}, pick)));
  }
}

async function create(event) {
  event.preventDefault();
  const n = Number(document.getElementById("players").value);
  const seats = [];
  for (let s = 0; s < n; s++) seats.push(document.getElementById("seat-" + s).value);
  const seed = document.getElementById("seed").value;
  const expansions = document.getElementById("expansions").value;
  const out = document.getElementById("created");
  try {
    const made = await api("/api/tables", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ seats, seed: seed === "" ? null : Number(seed), expansions: expansions || null }),
    });
    const base = location.origin;
    out.replaceChildren(
      el("p", {}, `桌 ${made.table.id} 开好了（种子 ${made.seed}）。把每个座位的链接发给坐那里的人；链接里有这个座位的密钥，别给别人。`),
      el("ul", { class: "links" }, made.links.map((l) =>
        el("li", { "data-seat": l.seat }, `P${l.seat}：`, el("a", { href: l.url, target: "_blank", class: "join-link" }, "入座"), " ",
          el("code", {}, base + l.url)))),
      made.open.length ? el("p", { class: "open-seats" }, made.open.map((s) => "P" + s).join("、") +
        " 是空座：没有链接，大厅里的人点「加入」就能坐下（先到先得）。") : "",
      el("p", { class: "muted" }, "整局的日志（裁判视角，含种子）在游戏结束后可以下载：",
        el("a", { href: made.log, class: "host-log" }, "裁判日志"), "（fengsheng replay 能重放它）"),
    );
    refresh();
  } catch (e) {
    out.replaceChildren(el("div", { class: "banner error" }, String(e.message || e)));
  }
}

async function join(tid) {
  try {
    const got = await api(`/api/tables/${tid}/claim`, { method: "POST" });
    location.href = got.url;
  } catch (e) {
    alert(e.message || e);
    refresh();
  }
}

async function refresh() {
  const box = document.getElementById("tables");
  let data;
  try { data = await api("/api/tables"); } catch (e) { return; }
  if (!data.tables.length) { box.replaceChildren("还没有桌子。"); box.className = "muted"; return; }
  box.className = "";
  box.replaceChildren(el("table", { class: "grid" },
    el("thead", {}, el("tr", {}, el("th", {}, "桌"), el("th", {}, "座位"), el("th", {}, "扩展"), el("th", {}, "进度"), el("th", {}, ""))),
    el("tbody", {}, data.tables.map((t) => el("tr", { "data-table": t.id },
      el("td", {}, t.id),
      el("td", {}, t.seats.map((s) => `P${s.seat} ${s.kind}${s.kind === "human" ? (s.connected ? "（在线）" : s.open ? "（空座）" : s.reserved ? "（留座：凭链接）" : "（已有人）") : ""}`).join("，")),
      el("td", {}, t.expansions || "（服务器默认）"),
      el("td", {}, t.over ? "已结束" : `${t.ply} 步`),
      el("td", {}, !t.over && t.seats.some((s) => s.open) ? el("button", { class: "action", onclick: () => join(t.id) }, "加入") : ""),
    )))));
}

async function start() {
  const opts = await api("/api/options");
  KINDS = opts.kinds;
  const players = document.getElementById("players");
  for (let n = 2; n <= 10; n++) players.append(el("option", { value: n }, n));
  players.value = "5";
  players.addEventListener("change", seatRows);
  const exp = document.getElementById("expansions");
  exp.append(el("option", { value: "" }, "服务器默认" + (opts.default_expansions ? `（${opts.default_expansions}）` : "（全部）")));
  exp.append(el("option", { value: "all" }, "全部"), el("option", { value: "none" }, "无（基础游戏）"));
  for (const id of opts.expansions) exp.append(el("option", { value: id }, id));
  seatRows();
  document.getElementById("create").addEventListener("submit", create);
  refresh();
  setInterval(refresh, 3000);
}
start();
