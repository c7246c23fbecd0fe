// What every page of the web board shares: the API, job polling, the answers'
// tables, the rule options.  Like the pages, it draws what the server answers;
// it knows no rule of the game.
"use strict";

const { cardEl, prettyCard, SUIT_SYMBOL, el } = window.DurakCards;
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
    return { ok: false, status: 0, data: { error: "the server does not answer (is `durak serve` running?)" } };
  }
  let data = null;
  try { data = await resp.json(); } catch (e) { data = { error: `HTTP ${resp.status}` }; }
  return { ok: resp.ok, status: resp.status, data, headers: resp.headers };
}

function pct(x) { return (100 * x).toFixed(1) + "%"; }
function prettyMove(m) {
  return m.replace(/\b([2-9TJQKA])([SHDC])\b/g, (_, r, s) => (r === "T" ? "10" : r) + SUIT_SYMBOL[s]);
}

function setUrl(params) {
  const u = new URL(window.location.href);
  u.search = "";
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) u.searchParams.set(k, v);
  window.history.replaceState(null, "", u.toString());
}

function verdict(ans) {
  const d = el("div", "verdict");
  const who = `Seat ${ans.player}`;
  let text, cls;
  const word = { win: "wins", draw: "draws", loss: "loses" };
  if (ans.exact || ans.lower === ans.upper) {
    const v = ans.exact ? ans.value : ans.lower;
    cls = "value-" + v;
    text = `${who} ${word[v]}`;
    if (ans.distance !== null && ans.distance !== undefined) text += ` in ${ans.distance} plies`;
    else if (ans.distance_bounds) {
      const [lo, hi] = ans.distance_bounds;
      text += hi === null ? ` in ${lo} plies or more` : ` in ${lo}-${hi} plies`;
    }
    if (!ans.exact) text += " (value proven; not everything finished)";
  } else {
    cls = "value-unknown";
    text = `${who}: not proven (between ${ans.lower} and ${ans.upper})`;
  }
  d.classList.add(cls);
  d.textContent = text;
  return d;
}

// an exact answer's verdict and its moves' table (a game's hint once every card is known)
function exactTable(ans, onPick) {
  const box = el("div");
  box.appendChild(verdict(ans));
  box.appendChild(el("div", "muted small", "Exact: every card is placed; each move's value with best play by everybody."));
  const t = el("table", "moves");
  t.innerHTML = `<thead><tr><th>move</th><th>value for seat ${ans.player}</th><th>distance (plies)</th></tr></thead>`;
  const tb = el("tbody");
  for (const m of ans.moves || []) {
    const tr = el("tr", onPick ? "clickable" : "");
    tr.appendChild(el("td", null, prettyMove(m.move)));
    tr.appendChild(el("td", "value-" + m.value, m.value));
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
  box.appendChild(el("div", "verdict", `Best for seat ${ans.player}: ${prettyMove(ans.best)}` +
    (kept ? " (the greedy player's move, kept)" : "")));
  box.appendChild(el("div", "muted small", `Estimate: ${ans.samples} deals of the hidden cards (seed ${ans.seed}); ` +
    "green: win, grey: draw, red: loss; 95% interval of the win share"));
  const sign = ans.mine === false ? -1 : 1;
  const moves = ans.moves.slice().sort((a, b) => sign * (b.utility - a.utility) || b.best_share - a.best_share);
  const t = el("table", "moves hint-table");
  t.innerHTML = "<thead><tr><th></th><th>move</th><th>win / draw / loss</th><th>win</th><th class=\"ci\">interval</th>" +
    `<th class="sorted" title="the order of the table: mean score plus card margin / 60">utility ${sign > 0 ? "\u25bc" : "\u25b2"}</th></tr></thead>`;
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
      const c = el("td", "muted small", `\u2605 kept: the greedy player's move; ${prettyMove(kept.over)}'s utility is ` +
        `${kept.advantage >= 0 ? "+" : ""}${kept.advantage.toFixed(3)} higher on the same deals, within ` +
        `${kept.z === 1 ? "one standard error" : kept.z + " standard errors"}` +
        (kept.se === null ? "" : ` (${kept.se.toFixed(3)})`));
      c.colSpan = 6;
      why.appendChild(c);
      tb.appendChild(why);
    }
  }
  t.appendChild(tb);
  box.appendChild(t);
  box.appendChild(el("div", "muted small", `Ordered by utility${sign > 0 ? "" : ` (seat ${ans.to_move} to move: lowest first)`}: ` +
    "the mean score (+1 win, 0 draw, \u22121 loss) plus the mean card margin at the end / 60. \u2605 the recommended move."));
  return box;
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
        ui.text.textContent = `${p.done} of ${p.total} ${ui.unit || "deals"}`;
      } else if (p.budget) {
        ui.fill.classList.remove("indeterminate");
        ui.fill.style.width = Math.min(100, 100 * p.elapsed / p.budget) + "%";
        ui.text.textContent = job.state === "queued" ? "waiting for a worker…" : `searching… ${p.elapsed.toFixed(1)} s of at most ${p.budget} s`;
      } else {
        ui.fill.classList.add("indeterminate");
        ui.text.textContent = job.state === "queued" ? "waiting for a worker…" : `working… ${p.elapsed.toFixed(1)} s`;
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
  ["transfer", "transfer (perevodnoy)"],
  ["transfer_by_trump_show", "transfer by showing a trump"],
  ["throw_in=neighbours", "only neighbours throw in"],
  ["first_bout_limit=5", "first bout at most 5"],
  ["trump_swap", "swap the trump six"],
  ["first_out_wins", "first out wins"],
  ["teams=2v2", "teams 2 v 2"],
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
