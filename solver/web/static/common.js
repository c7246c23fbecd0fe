// What every page of the web board shares: the API, job polling, the answers'
// tables, the rule options.  Like the pages, it draws what the server answers;
// it knows no rule of the game.
"use strict";

const { cardEl, prettyCard, SUIT_SYMBOL, SUIT_NAME, el, ruleWord } = window.DurakCards;
const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------ the API
async function api(path, body, method) {
  const opts = { method: method || (body === undefined ? "GET" : "POST"), headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let resp;
  try {
    resp = await fetch(path, opts);
  } catch (e) {
    return { ok: false, status: 0, data: { error: gt("the server does not answer (is `durak serve` running?)") } };
  }
  let data = null;
  try { data = await resp.json(); } catch (e) { data = { error: `HTTP ${resp.status}` }; }
  return { ok: resp.ok, status: resp.status, data, headers: resp.headers };
}

function pct(x) { return (100 * x).toFixed(1) + "%"; }
// a move or a line of moves for people: 10♠/A♠ (the rank letters of the page's language),
// take and pass in its words; the notation itself stays what is sent and kept
function prettyMove(m) {
  return m.replace(/\b([2-9TJQKA])([SHDC])\b/g, (_, r, s) => prettyCard(r + s))
    .replace(/(^|[\s:])(take|pass)\b/g, (_, pre, w) => pre + pgt("move", w));
}

function setUrl(params) {
  const u = new URL(window.location.href);
  u.search = "";
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) u.searchParams.set(k, v);
  window.history.replaceState(null, "", u.toString());
}

function verdict(ans) {
  const d = el("div", "verdict");
  const seat = ans.player;
  let text, cls;
  const word = { win: gt("Seat {seat} wins", { seat }), draw: gt("Seat {seat} draws", { seat }),
                 loss: gt("Seat {seat} loses", { seat }) };
  if (ans.exact || ans.lower === ans.upper) {
    const v = ans.exact ? ans.value : ans.lower;
    cls = "value-" + v;
    text = word[v];
    if (ans.distance !== null && ans.distance !== undefined) text += " " + ngt("in {n} ply", "in {n} plies", ans.distance);
    else if (ans.distance_bounds) {
      const [lo, hi] = ans.distance_bounds;
      text += " " + (hi === null ? ngt("in {n} ply or more", "in {n} plies or more", lo)
                                 : gt("in {lo}-{hi} plies", { lo, hi }));
    }
    if (!ans.exact) text += " " + gt("(value proven; not everything finished)");
  } else {
    cls = "value-unknown";
    text = gt("Seat {seat}: not proven (between {lower} and {upper})",
              { seat, lower: valueWord(ans.lower), upper: valueWord(ans.upper) });
  }
  d.classList.add(cls);
  d.textContent = text;
  return d;
}

// the engine's strength in words (durak play --vs)
const STRENGTH_WORDS = { greedy: gt("greedy"), hint: gt("hint engine"), strong: gt("strong"), random: gt("random") };
function strengthWord(s) { return STRENGTH_WORDS[s] || s; }

// a value for people: win, draw, loss in the page's language (the data keeps the English)
const VALUE_WORDS = { win: gt("win"), draw: gt("draw"), loss: gt("loss") };
function valueWord(v) { return VALUE_WORDS[v] || v; }

// a review's labels in words (solver/games/review.py): the data keeps the English
const LABEL_WORDS = {
  best: pgt("review label", "best"), good: pgt("review label", "good"),
  inaccuracy: pgt("review label", "inaccuracy"), mistake: pgt("review label", "mistake"),
  blunder: pgt("review label", "blunder"), unclear: pgt("review label", "unclear"),
};
function labelWord(l) { return LABEL_WORDS[l] || l; }
// how many decisions had each label: "18 best, 1 mistake"
function labelCounts(labels) {
  const forms = {
    best: (n) => ngt("{n} best", "{n} best", n), good: (n) => ngt("{n} good", "{n} good", n),
    inaccuracy: (n) => ngt("{n} inaccuracy", "{n} inaccuracies", n),
    mistake: (n) => ngt("{n} mistake", "{n} mistakes", n),
    blunder: (n) => ngt("{n} blunder", "{n} blunders", n),
    unclear: (n) => ngt("{n} unclear", "{n} unclear", n),
  };
  return Object.entries(labels).filter(([, k]) => k)
    .map(([l, k]) => (forms[l] ? forms[l](k) : `${k} ${l}`)).join(", ");
}

// an exact answer's verdict and its moves' table (a game's hint once every card is known)
function exactTable(ans, onPick) {
  const box = el("div");
  box.appendChild(verdict(ans));
  box.appendChild(el("div", "muted small", gt("Exact: every card is placed; each move's value with best play by everybody.")));
  const t = el("table", "moves");
  t.appendChild(headRow([gt("move"), gt("value for seat {seat}", { seat: ans.player }), gt("distance (plies)")]));
  const tb = el("tbody");
  for (const m of ans.moves || []) {
    const tr = el("tr", onPick ? "clickable" : "");
    tr.appendChild(el("td", null, prettyMove(m.move)));
    tr.appendChild(el("td", "value-" + m.value, valueWord(m.value)));
    tr.appendChild(el("td", null, m.distance === null || m.distance === undefined ? "" : String(m.distance)));
    if (onPick) tr.addEventListener("click", () => onPick(m.move));
    tb.appendChild(tr);
  }
  t.appendChild(tb);
  box.appendChild(t);
  return box;
}

// the hint's moves in the order of their utility (the engine's ranking: mean score plus
// card margin / 60), best for the seat to move first; the recommended move is marked
function hintTable(ans, onPick) {
  const box = el("div");
  const kept = ans.kept;
  box.appendChild(el("div", "verdict", gt("Best for seat {seat}: {move}", { seat: ans.player, move: prettyMove(ans.best) }) +
    (kept ? " " + gt("(the greedy player's move, kept)") : "")));
  box.appendChild(el("div", "muted small",
    ngt("Estimate: {n} deal of the hidden cards (seed {seed}); green: win, grey: draw, red: loss; 95% interval of the win share",
        "Estimate: {n} deals of the hidden cards (seed {seed}); green: win, grey: draw, red: loss; 95% interval of the win share",
        ans.samples, { seed: ans.seed })));
  const sign = ans.mine === false ? -1 : 1;
  const moves = ans.moves.slice().sort((a, b) => sign * (b.utility - a.utility) || b.best_share - a.best_share);
  const t = el("table", "moves hint-table");
  const head = headRow(["", gt("move"), gt("win / draw / loss"), gt("win"), gt("interval"),
                        gt("utility") + " " + (sign > 0 ? "\u25bc" : "\u25b2")]);
  const ths = head.querySelectorAll("th");
  ths[4].className = "ci";
  ths[5].className = "sorted";
  ths[5].title = gt("the order of the table: mean score plus card margin / 60");
  t.appendChild(head);
  const tb = el("tbody");
  for (const m of moves) {
    const rec = m.move === ans.best;
    const tr = el("tr", (onPick ? "clickable" : "") + (rec ? " recommended" : ""));
    tr.dataset.move = m.move;
    tr.appendChild(el("td", "mark", rec ? "\u2605" : ""));
    tr.appendChild(el("td", null, prettyMove(m.move)));
    const bar = el("div", "wdl");
    for (const [k, v] of [["w", m.win], ["d", m.draw], ["l", m.loss]]) {
      const s = el("span", k); s.style.width = (100 * v) + "%"; bar.appendChild(s);
    }
    const td = el("td"); td.appendChild(bar); tr.appendChild(td);
    tr.appendChild(el("td", null, pct(m.win)));
    tr.appendChild(el("td", "muted ci", `${pct(m.ci95[0])}\u2013${pct(m.ci95[1])}`));
    tr.appendChild(el("td", "utility", (m.utility >= 0 ? "+" : "") + m.utility.toFixed(3)));
    if (onPick) tr.addEventListener("click", () => onPick(m.move));
    tb.appendChild(tr);
    if (rec && kept) {  // why the starred move is not the top row: one line beside it
      const why = el("tr", "kept-note");
      const words = { over: prettyMove(kept.over), advantage: (kept.advantage >= 0 ? "+" : "") + kept.advantage.toFixed(3) };
      const c = el("td", "muted small", (kept.z === 1
        ? gt("\u2605 kept: the greedy player's move; {over}'s utility is {advantage} higher on the same deals, within one standard error", words)
        : gt("\u2605 kept: the greedy player's move; {over}'s utility is {advantage} higher on the same deals, within {z} standard errors",
             Object.assign({ z: kept.z }, words))) +
        (kept.se === null ? "" : ` (${kept.se.toFixed(3)})`));
      c.colSpan = 6;
      why.appendChild(c);
      tb.appendChild(why);
    }
  }
  t.appendChild(tb);
  box.appendChild(t);
  box.appendChild(el("div", "muted small", sign > 0
    ? gt("Ordered by utility: the mean score (+1 win, 0 draw, \u22121 loss) plus the mean card margin at the end / 60. \u2605 the recommended move.")
    : gt("Ordered by utility (seat {seat} to move: lowest first): the mean score (+1 win, 0 draw, \u22121 loss) plus the mean card margin at the end / 60. \u2605 the recommended move.",
         { seat: ans.to_move })));
  return box;
}

// a table's head row of column names
function headRow(names) {
  const thead = el("thead"), tr = el("tr");
  for (const n of names) tr.appendChild(el("th", null, n));
  thead.appendChild(tr);
  return thead;
}

// Run a task as a job: progress bar, Cancel, the answer (or null).
async function runJob(body, ui) {
  ui.error.textContent = "";
  const r = ui.starter ? await ui.starter() : await api("/api/jobs", body);
  if (!r.ok) { ui.error.textContent = r.data.error; return null; }
  let job = r.data;
  ui.setJob(job.id);
  ui.progress.hidden = false; ui.cancel.hidden = false; ui.start.disabled = true;
  try {
    while (!["done", "error", "cancelled"].includes(job.state)) {
      const p = job.progress;
      if (p.total > 0) {
        ui.fill.classList.remove("indeterminate");
        ui.fill.style.width = (100 * p.done / p.total) + "%";
        ui.text.textContent = ui.unit === "moves reviewed"
          ? ngt("{done} of {n} move reviewed", "{done} of {n} moves reviewed", p.total, { done: p.done })
          : ngt("{done} of {n} deal", "{done} of {n} deals", p.total, { done: p.done });
      } else if (p.budget) {
        ui.fill.classList.remove("indeterminate");
        ui.fill.style.width = Math.min(100, 100 * p.elapsed / p.budget) + "%";
        ui.text.textContent = job.state === "queued" ? gt("waiting for a worker…")
          : gt("searching… {elapsed} s of at most {budget} s", { elapsed: p.elapsed.toFixed(1), budget: p.budget });
      } else {
        ui.fill.classList.add("indeterminate");
        ui.text.textContent = job.state === "queued" ? gt("waiting for a worker…")
          : gt("working… {elapsed} s", { elapsed: p.elapsed.toFixed(1) });
      }
      await new Promise(res => setTimeout(res, 250));
      const g = await api(`/api/jobs/${job.id}`);
      if (!g.ok) { ui.error.textContent = g.data.error; return null; }
      job = g.data;
      if (ui.onPoll) ui.onPoll(job);
    }
  } finally {
    ui.progress.hidden = true; ui.cancel.hidden = true; ui.start.disabled = false;
    if (ui.done) ui.done();
    ui.setJob(null);
  }
  if (job.state !== "done") { ui.error.textContent = job.error; return null; }
  return job;
}

// ================================================================== editor
const RULES = [
  ["transfer", gt("transfer (perevodnoy)")],
  ["transfer_by_trump_show", gt("transfer by showing a trump")],
  ["throw_in=neighbours", gt("only neighbours throw in")],
  ["first_bout_limit=5", gt("first bout at most 5")],
  ["trump_swap", gt("swap the trump six")],
  ["first_out_wins", gt("first out wins")],
  ["teams=2v2", gt("teams 2 v 2")],
];

function rulesBox(root, onChange) {
  root.textContent = "";
  for (const [name, label] of RULES) {
    const l = el("label");
    const c = el("input"); c.type = "checkbox"; c.value = name;
    if (onChange) c.addEventListener("change", onChange);
    l.appendChild(c); l.appendChild(document.createTextNode(" " + label));
    root.appendChild(l);
  }
}
function rulesOf(root) { return [...root.querySelectorAll("input:checked")].map(c => c.value); }
