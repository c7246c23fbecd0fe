// The board page (index.html): its tabs and its start.  The tabs live in their own
// scripts, loaded before this one: analysis.js, editor.js, play.js.
// It draws what the server answers and sends clicks; every rule, every check
// and every answer is the server's (solver/web/*.py over solver/answers/commands.py).
"use strict";

// ------------------------------------------------------------------ tabs
function showTab(name) {
  for (const b of document.querySelectorAll(".tabs button")) b.classList.toggle("active", b.dataset.tab === name);
  for (const p of document.querySelectorAll(".page")) p.classList.toggle("active", p.id === "page-" + name);
  if (name === "editor") {
    const cur = Analysis.current();
    if (!Editor.touched && cur) Editor.fromPosition(cur.json || cur.position);
    else Editor.refresh();
  }
  if (name === "play") { Play.shown(); if (Play.id) setUrl({ game: Play.id }); }
  if (name === "analysis" && Analysis.current()) setUrl({ position: Analysis.current().position });
}
for (const b of document.querySelectorAll(".tabs button")) b.addEventListener("click", () => showTab(b.dataset.tab));

// ================================================================== start
async function start() {
  Analysis.init();
  Editor.init();
  Play.init();
  const st = await api("/api/status");
  if (st.ok) $("version").textContent = st.data.version;
  const q = new URLSearchParams(window.location.search);
  if (q.get("game")) {
    showTab("play");
  } else {
    const pos = q.get("position") || "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1";
    const shown = await Analysis.load(pos);
    if (q.get("tab")) showTab(q.get("tab"));
    if (shown && q.get("analyse")) Analysis.analyse();  // "Analyse this position" from a review
  }
  document.body.dataset.ready = "1";
}
start();
