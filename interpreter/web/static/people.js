// The people at a table: who sits where (a name each person took, online or not, bots), how many watch, and the
// table's chat. A name and a chat line are a person's own words: they are only ever put on the page as text
// (el() makes text nodes), never as markup.
"use strict";
const NAME_KEY = "fengsheng:name";

function joining() {
  // what the join message adds: this page wants the table's people and chat; the name this browser used last
  let name = "";
  try { name = localStorage.getItem(NAME_KEY) || ""; } catch (e) { /* private mode */ }
  return name ? { people: true, name } : { people: true };
}

function peopleMessage(msg) {
  if (msg.type === "people") {
    document.getElementById("people-panel").hidden = false;
    document.getElementById("people").replaceChildren(...msg.seats.map((p) => {
      const who = p.kind === "human" ? (p.name || "（还没有名字）") : `机器人 ${p.kind}`;
      const you = p.seat === msg.you ? "（你）" : "";
      const state = p.kind === "human" ? (p.online ? "在线" : "离线") : "";
      return el("li", { class: p.kind === "human" ? (p.online ? "online" : "offline") : "bot", "data-seat": p.seat },
        `P${p.seat}${you} ${who}${state ? " · " + state : ""}`);
    }), ...(msg.watching ? [el("li", { class: "muted" }, `${msg.watching} 人在观战`)] : []));
    const mine = msg.seats.find((p) => p.seat === msg.you);
    const input = document.getElementById("name");
    if (mine && document.activeElement !== input) input.value = mine.name || "";
    document.getElementById("chat-box").hidden = !msg.chat;
    for (const id of ["name-form", "chat-form"]) document.getElementById(id).hidden = msg.you === null; // a spectator reads
  } else if (msg.type === "chat") {
    const box = document.getElementById("chat");
    for (const line of msg.lines) {
      box.append(el("div", { class: "chat-line" }, el("b", {}, `P${line.seat} ${line.name}`), "：", line.text));
    }
    box.scrollTop = box.scrollHeight;
  }
}

function sendPeople(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

document.getElementById("name-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = document.getElementById("name").value.trim();
  if (!name) return;
  try { localStorage.setItem(NAME_KEY, name); } catch (e) { /* private mode: this table still hears it */ }
  sendPeople({ type: "name", name });
});

document.getElementById("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("chat-text");
  if (!input.value.trim()) return;
  sendPeople({ type: "chat", text: input.value });
  input.value = "";
});
