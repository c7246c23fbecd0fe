// What the two game pages share (the board's Play tab and the follow page): the game
// log as it is told at a table, a hint's answer with the win chance of each card,
// the setting that asks for the chances on every move, a finished game's review.
// Every line and every number comes from the server (solver/games/narration.py,
// solver/web/chances.py); nothing is decided here.
"use strict";

// The game's narration (the view's `log`): moves, bouts beaten or taken, draws,
// who is out, who leads next -- newest at the bottom, the last bout's lines marked.
function drawLog(box, log) {
  box.textContent = "";
  if (!log || !log.length) return;
  let lastEnd = -1;
  log.forEach((t, i) => { if (t.kind === "beaten" || t.kind === "taken") lastEnd = i; });
  log.forEach((t, i) => {
    const line = el("div", "told told-" + t.kind + (i > lastEnd ? " told-now" : ""), t.text);
    line.dataset.kind = t.kind;
    line.dataset.entry = t.entry;
    box.appendChild(line);
  });
  box.scrollTop = box.scrollHeight;
}

// A game's hint: the one legal move, the hint table or the exact values; onPick(move)
// plays a move chosen in it.
function hintAnswer(ans, onPick) {
  if (ans.only) {
    const box = el("div", "verdict", gt("One legal move: {move}", { move: prettyMove(ans.best) }) + " ");
    const b = el("button", "primary", gt("Play it"));
    b.type = "button";
    b.addEventListener("click", () => onPick(ans.best));
    box.appendChild(b);
    return box;
  }
  return ans.samples !== undefined ? hintTable(ans, onPick) : exactTable(ans, onPick);
}

// The setting "win chances on every move": a checkbox kept in this browser.
const ChanceSetting = {
  key: "durak.chances",
  bind(box, onChange) {
    box.checked = window.localStorage.getItem(this.key) === "1";
    box.addEventListener("change", () => {
      window.localStorage.setItem(this.key, box.checked ? "1" : "0");
      onChange(box.checked);
    });
  },
  on() { return window.localStorage.getItem(this.key) === "1"; },
};

// A finished game's review (`durak review` of the player's decisions), in `out`.
function reviewAnswer(out, r, me) {
  out.appendChild(el("div", "verdict", gt("Review of seat {seat}'s decisions", { seat: me })));
  for (const n of r.decisive || []) {
    const d = r.decisions.find(x => x.move === n);
    if (d) out.appendChild(el("div", "budget-note", gt("Decisive: move {n}, you played {played}: {before} \u2192 {after} (best {best})",
      { n, played: prettyMove(d.played), before: valueWord(d.best_value), after: valueWord(d.played_value), best: prettyMove(d.best) })));
  }
  const sum = (r.summary || []).find(x => x.seat === me);
  if (sum) out.appendChild(el("div", "muted small", labelCounts(sum.labels) +
    "; " + gt("mean loss {loss}", { loss: sum.mean_loss.toFixed(3) })));
  const t = el("table", "moves");
  t.appendChild(headRow(["#", gt("played"), gt("chance"), gt("best"), gt("best chance"), gt("label")]));
  const tb = el("tbody");
  const fmt = (x, v) => v ? valueWord(v) : x.toFixed(2);
  for (const d of r.decisions) {
    const tr = el("tr");
    for (const v of [String(d.move), prettyMove(d.played), fmt(d.played_chance, d.played_value),
                     prettyMove(d.best), fmt(d.best_chance, d.best_value), labelWord(d.label)]) tr.appendChild(el("td", null, v));
    tr.lastChild.className = { best: "value-win", good: "value-win", blunder: "value-loss", mistake: "value-loss" }[d.label] || "";
    tb.appendChild(tr);
  }
  t.appendChild(tb);
  const scroll = el("div", "table-scroll");  // a phone scrolls the table, not the page
  scroll.appendChild(t);
  out.appendChild(scroll);
}

// Keep the board in view on a phone after a move made far below it (a row of the
// hint table, say): the page scrolls back to the board when its top is out of sight.
function boardInView(root) {
  const r = root.getBoundingClientRect();
  if (r.top < 0 || r.top > window.innerHeight * 0.5) root.scrollIntoView({ block: "start" });
}

// On a phone the board docks at the top of the screen while the page below it is read
// (style.css, .docked) -- where it leaves room for that: at most 3/4 of the window.
(function dockBoards() {
  const docks = [...document.querySelectorAll(".board-dock")];
  const fit = () => {
    for (const d of docks) d.classList.toggle("docked", d.scrollHeight <= 0.75 * window.innerHeight);
  };
  if (window.ResizeObserver) {
    const watch = new ResizeObserver(fit);
    for (const d of docks) watch.observe(d);
  }
  window.addEventListener("resize", fit);
  fit();
})();
