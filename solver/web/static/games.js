// What the two game pages share (the board's Play tab and the follow page): the game
// log as it is told at a table, a hint's answer with the chance of each card,
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

// The setting "chances on every move": a checkbox kept in this browser.
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

// A finished game's review (`durak review` of the player's decisions), in `out`: each
// decision's chance, exact values (every card placed, the solver's) apart from estimates
// (the hint on N deals), the label, and the move after which the game was lost (the
// review's one definition, docs/guide/games.md).
function reviewAnswer(out, r, me) {
  const box = el("div", "review-table");
  box.appendChild(el("div", "verdict", gt("Review of seat {seat}'s decisions", { seat: me })));
  const sum = (r.summary || []).find(x => x.seat === me);
  if (sum) box.appendChild(el("div", "muted small",
    ngt("{n} decision, {exact} exact: ", "{n} decisions, {exact} exact: ", sum.decisions, { exact: sum.exact }) +
    labelCounts(sum.labels) + "; " + gt("mean loss {loss}", { loss: percentText(sum.mean_loss, 1) })));
  const byMove = Object.fromEntries(r.decisions.map(d => [d.move, d]));
  if (r.lost_after && byMove[r.lost_after]) {
    const d = byMove[r.lost_after], decisive = (r.decisive || []).includes(d.move);
    const fmt = (c, v) => v ? valueWord(v) : percentText(c);
    const words = { n: d.move, played: prettyMove(d.played), chance: fmt(d.played_chance, d.played_value),
                    best: prettyMove(d.best), best_chance: fmt(d.best_chance, d.best_value) };
    const note = el("div", "budget-note", decisive
      ? gt("Lost after move {n}: you played {played} ({chance}; best {best} {best_chance}); your best chance never reached one half again \u2014 the decisive move.", words)
      : gt("Lost after move {n}: you played {played} ({chance}; best {best} {best_chance}); your best chance never reached one half again.", words));
    note.id = "play-lost-after";
    box.appendChild(note);
  }
  // five columns, each a decision's facts stacked, so that the table fits a phone and a
  // laptop's side column in every language: the move played and its chance, the best
  // move and its chance, the loss, the label and how the chances were found
  const t = el("table", "moves review-moves");
  const head = headRow(["#", gt("played"), gt("best"), pgt("review column", "loss"), pgt("review column", "label")]);
  const ths = head.querySelectorAll("th");
  ths[1].appendChild(el("div", "sub", gt("chance")));
  ths[2].appendChild(el("div", "sub", gt("best chance")));
  ths[3].className = "num";
  ths[4].appendChild(el("div", "sub", gt("how")));
  t.appendChild(head);
  const tb = el("tbody");
  // the server's numbers as `durak review` prints them: exact, the value (bold); else a percentage
  const chance = (c, v) => c === null ? "?" : v ? valueWord(v) : percentText(c);
  const colour = { best: "value-win", good: "value-win", blunder: "value-loss", mistake: "value-loss" };
  const stacked = (cls, move, chanceText, exact) => {
    const td = el("td", cls, prettyMove(move));
    td.appendChild(el("div", exact ? "chance exact" : "chance", chanceText));
    return td;
  };
  for (const d of r.decisions) {
    const tr = el("tr", d.move === r.lost_after ? "current" : "");
    const how = d.exact ? gt("exact") : d.how === "unsolved" ? gt("ran out")
      : d.every_deal ? gt("all {n}", { n: d.deals }) : gt("est. {n}", { n: d.deals });
    tr.appendChild(el("td", null, String(d.move)));
    const played = stacked("played", d.played, chance(d.played_chance, d.played_value), d.exact);
    tr.appendChild(played);
    tr.appendChild(stacked("best", d.best || "?", chance(d.best_chance, d.best_value), d.exact));
    tr.appendChild(el("td", "num loss", d.loss === null ? "" : percentText(d.loss)));
    const label = el("td", "label-cell " + (colour[d.label] || ""), labelWord(d.label));
    label.appendChild(el("div", "muted small how", how));
    tr.appendChild(label);
    if (d.as_good && d.best !== d.played) {  // labelled best though another move has the highest chance
      tr.classList.add("as-good");
      const eq = el("span", "as-good-tag", "=");
      eq.title = gt("as good as the best within the noise");
      played.querySelector(".chance").appendChild(eq);
    }
    if (d.note) tr.title = d.note;
    tb.appendChild(tr);
  }
  t.appendChild(tb);
  const scroll = el("div", "table-scroll");  // a phone scrolls the table, not the page
  scroll.appendChild(t);
  box.appendChild(scroll);
  box.appendChild(el("div", "muted small", gt("exact: every card placed, the solver's value with best play (win, draw, loss); est. N: the hint you could have asked, on N deals of the hidden cards; ran out: every card placed, the exact solve ran out (no value given).")));
  if (r.decisions.some(d => d.as_good && d.best !== d.played))
    box.appendChild(el("div", "as-good-note", "= " + gt("as good as the best within the noise")));
  out.appendChild(box);
}

// Keep the board in view on a phone after a move made far below it (a row of the
// hint table, say): the page scrolls back to the board when its top is out of sight.
function boardInView(root) {
  const r = root.getBoundingClientRect();
  if (r.top < 0 || r.top > window.innerHeight * 0.5) root.scrollIntoView({ block: "start" });
}

// On a phone the board docks at the top of the screen while the page below it is read
// (style.css, .docked) -- where it leaves room for that: at most 3/4 of the window --
// while there is a move to make: a finished game's board (data-over) stays in the page
// and leaves the screen to its review.  fitDocks() again after a game ends or goes on.
function fitDocks() {
  for (const d of document.querySelectorAll(".board-dock"))
    d.classList.toggle("docked", d.dataset.over !== "1" && d.scrollHeight <= 0.75 * window.innerHeight);
}
(function dockBoards() {
  if (window.ResizeObserver) {
    const watch = new ResizeObserver(fitDocks);
    for (const d of document.querySelectorAll(".board-dock")) watch.observe(d);
  }
  window.addEventListener("resize", fitDocks);
  fitDocks();
})();
