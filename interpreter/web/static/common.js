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
