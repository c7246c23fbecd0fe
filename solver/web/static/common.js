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
    if (typeof DurakLive !== "undefined") DurakLive.seen(false);
    return { ok: false, status: 0, data: { error: gt("the server does not answer (is `durak serve` running?)") } };
  }
  if (typeof DurakLive !== "undefined") DurakLive.seen(true);
  let data = null;
  const text = await resp.text().catch(() => "");
  // an answer that is not the app's JSON: the server's own refusals (solver/web/server.py)
  // in the page's words, a refusal of the pairing check (solver/web/lan.py) as its one line
  try { data = JSON.parse(text); } catch (e) {
    const line = text.trim().split("\n")[0];
    data = { error: [503, 408, 431].includes(resp.status) || !line ? httpError(resp.status) : gt(line) };
  }
  return { ok: resp.ok, status: resp.status, data, headers: resp.headers };
}
// an answer that is not the app's JSON -- the server refused the connection before the
// request reached it (solver/web/server.py) -- in the page's words
function httpError(status) {
  if (status === 503) return gt("too many connections at once; try again in a moment");
  if (status === 408) return gt("the request did not arrive in time; try again");
  if (status === 431) return gt("the request's headers are over 16 KB");
  return gt("the server answered HTTP {status}", { status });
}

// numbers in the page's language, as the terminal writes them (solver.i18n.number and
// percent): 1,024 / 1 024; a share as a percentage with `digits` decimals, 72% / 72 %.
// The percentage is rounded as Python rounds 100 * share (to even where the binary value
// lies exactly halfway; toFixed rounds such a tie up), so a chance reads the same here,
// on the cards (solver/web/chances.py) and at the terminal.
function numberText(x, digits) {
  const d = digits || 0;
  // past 2^53 a number read from JSON has lost its last digits: said as about 1.51 × 10^25,
  // not as 15,123,429,792,247,711,000,000,000
  if (Math.abs(x) > Number.MAX_SAFE_INTEGER) {
    const e = Math.floor(Math.log10(Math.abs(x)));
    const sup = String(e).replace(/\d/g, (c) => "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"[c]);
    return "\u2248\u00a0" + numberText(x / 10 ** e, 2) + "\u00a0\u00d7\u00a010" + sup;
  }
  return new Intl.NumberFormat(DurakI18n.lang, { minimumFractionDigits: d, maximumFractionDigits: d }).format(x);
}
function percentText(share, digits) {
  const d = digits || 0, v = 100 * share;
  let n = Math.round(Number(Math.abs(v).toFixed(d)) * 10 ** d);
  if (Number.isInteger(Math.abs(v) * 2 ** (d + 1)) && (Math.abs(v) * 2 ** (d + 1)) % 2 === 1 && n % 2 === 1) n -= 1;
  return new Intl.NumberFormat(DurakI18n.lang, { style: "percent", minimumFractionDigits: d, maximumFractionDigits: d })
    .format(Math.sign(v) * n / 10 ** d / 100);
}
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

// The hint table, as `durak hint` prints it (solver/cli/hinttable.py): one number per
// move, its chance of not being the durak (a draw counts half) with its 95% interval, to
// the decimals the answer's intervals support (`digits`); the rows in the answer's order,
// best for the seat to move first; ★ the recommended move, = the moves as good as the best
// within the noise.  Under it the recommendation, how close the call is and what the
// others' moves told (the server's sentences), a footnote, and the engine's own figures
// behind a toggle.  onPick(move) plays a move clicked in it.
function hintTable(ans, onPick) {
  const box = el("div", "hint-answer");
  const d = ans.digits || 0, mine = ans.mine !== false;
  const cells = (m) => {
    const [lo, hi] = m.chance_ci95;
    return [percentText(m.chance, d), hi - lo < 1e-9 ? "" : `${percentText(lo, d)}\u2013${percentText(hi, d)}`];
  };
  box.appendChild(el("div", "muted small hint-title", gt("seat {seat} asks, seat {to_move} to move: {how} (seed {seed})",
    { seat: ans.player, to_move: ans.to_move, how: hintHow(ans), seed: ans.seed })));
  const t = el("table", "moves hint-table");
  const head = headRow(["", gt("move"), gt("chance") + " " + (mine ? "\u25bc" : "\u25b2"), gt("95% interval")]);
  const ths = head.querySelectorAll("th");
  ths[2].className = "num sorted";
  ths[2].title = gt("chance of not being the durak");
  ths[3].className = "num ci";
  t.appendChild(head);
  const tb = el("tbody");
  for (const m of ans.moves) {
    const rec = m.move === ans.best, good = !rec && m.as_good;
    const tr = el("tr", (onPick ? "clickable" : "") + (rec ? " recommended" : good ? " as-good" : ""));
    tr.dataset.move = m.move;
    const mark = el("td", "mark", rec ? "\u2605" : good ? "=" : "");
    if (rec) mark.title = gt("the recommended move");
    else if (good) mark.title = gt("as good as the best within the noise");
    tr.appendChild(mark);
    tr.appendChild(el("td", "move", prettyMove(m.move)));
    const [chance, interval] = cells(m);
    tr.appendChild(el("td", "num chance", chance));
    tr.appendChild(el("td", "num ci", interval));
    if (onPick) tr.addEventListener("click", () => onPick(m.move));
    tb.appendChild(tr);
  }
  t.appendChild(tb);
  box.appendChild(t);
  const best = ans.moves.find(m => m.move === ans.best);
  if (best) {
    const [chance, interval] = cells(best);
    const whose = mine ? "" : " " + gt("(seat {seat} moves: its best is your lowest chance)", { seat: ans.to_move });
    const within = interval ? " (" + interval + ")" : "";  // (not a template string: the extractor reads gt's arguments)
    box.appendChild(el("div", "verdict hint-recommended", gt("recommended: {best} ({star}), your chance {chance}{interval}{whose}",
      { best: prettyMove(ans.best), star: "\u2605", chance, interval: within, whose })));
  }
  if (ans.call) box.appendChild(el("div", "hint-call", ans.call));
  for (const note of ans.learned || []) box.appendChild(el("div", "hint-learned", note.text));
  box.appendChild(el("div", "muted small hint-foot", gt("The chance of not being the durak (a draw counts half), over the deals of the cards you cannot see; = marks a move as good as the best within the noise.")));
  box.appendChild(hintDetails(ans));
  return box;
}

// how many deals the hint looked at, in words (hinttable.py's how_text)
function hintHow(ans) {
  const n = numberText(ans.samples);
  if (ans.kind === "exact" && ans.exhaustive) {
    return ngt("every card placed: {n} deal, solved exactly", "every possible deal of the unseen cards: {n} deals, each solved exactly", ans.samples, { n });
  }
  if (ans.exhaustive) return ngt("every possible deal of the unseen cards: {n} deal", "every possible deal of the unseen cards: {n} deals", ans.samples, { n });
  return ngt("{n} deal of the unseen cards looked at", "{n} deals of the unseen cards looked at", ans.samples, { n });
}

// the engine's figures behind a toggle (`durak hint --verbose`): the shares of deals won,
// drawn and lost, the mean score, the share of deals each move was best in, the card
// margin; how the deals were dealt, scored and weighed
function hintDetails(ans) {
  const box = el("details", "hint-details");
  box.appendChild(el("summary", null, gt("details")));
  // the shares of deals won, drawn and lost stacked in one column: the table fits a
  // phone and a laptop's side column in every language
  const t = el("table", "moves hint-engine");
  const head = headRow([gt("move"), gt("deals won"), gt("mean score"), gt("best in"), gt("card margin")]);
  head.querySelectorAll("th").forEach((th, i) => { if (i) th.className = "num"; });
  const wdl = head.querySelectorAll("th")[1];
  wdl.appendChild(el("div", null, gt("drawn")));
  wdl.appendChild(el("div", null, gt("lost")));
  t.appendChild(head);
  const signed = (x, d) => new Intl.NumberFormat(DurakI18n.lang, { minimumFractionDigits: d, maximumFractionDigits: d, signDisplay: "always" }).format(x);
  const tb = el("tbody");
  for (const m of ans.moves) {
    const tr = el("tr");
    tr.appendChild(el("td", null, prettyMove(m.move)));
    const shares = el("td", "num wdl-cell");
    shares.appendChild(el("div", "value-win", percentText(m.win, 1)));
    shares.appendChild(el("div", "value-draw", percentText(m.draw, 1)));
    shares.appendChild(el("div", "value-loss", percentText(m.loss, 1)));
    tr.appendChild(shares);
    for (const v of [signed(m.score, 3), percentText(m.deals_best_share), signed(m.card_margin, 2)])
      tr.appendChild(el("td", "num", v));
    tb.appendChild(tr);
  }
  t.appendChild(tb);
  const scroll = el("div", "table-scroll");
  scroll.appendChild(t);
  box.appendChild(scroll);
  for (const line of engineLines(ans)) box.appendChild(el("div", "muted small", line));
  return box;
}

function engineLines(ans) {
  const n = numberText;
  const by = ans.iterations ? gt("a {n}-iteration search averaged with a greedy playout", { n: n(ans.iterations) }) : gt("greedy playouts");
  const kind = ans.kind === "exact" ? gt("each solved exactly")
    : ans.kind === "mixed" ? gt("{exact} solved exactly, {rest} by {by} (an estimate)", { exact: n(ans.exact_deals), rest: n(ans.samples - ans.exact_deals), by })
    : gt("each scored by {by} (an estimate)", { by });
  const lines = [gt("{n} deals of {total} possible, {kind}", { n: n(ans.samples), total: n(ans.deals_total), kind })];
  if (ans.facts) {
    lines.push(gt("{facts} fact(s) from who was asked to throw in (F2): {rejected} deal(s) ruled out, {aside} set aside to follow their likelihood; {effective} effective deals",
      { facts: ans.facts, rejected: n(ans.rejected), aside: n(ans.set_aside), effective: n(ans.effective_deals) }));
  } else if (ans.inference !== "none" && ans.effective_deals) {
    lines.push(gt("{effective} effective deals: the deals weighed by the likelihood of the others' moves", { effective: n(ans.effective_deals) }));
  }
  if ((ans.not_greedy || []).length && ans.iterations) {
    lines.push(gt("seat(s) {seats} seen leaving the greedy player's move: the greedy playout weighs {weight} in a searched deal's score",
      { seats: ans.not_greedy.join(", "), weight: n(ans.playout_weight, 1) }));
  }
  return lines;
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
          : gt("searching… {elapsed} s of at most {budget} s", { elapsed: numberText(p.elapsed, 1), budget: numberText(p.budget, p.budget % 1 ? 1 : 0) });
      } else {
        ui.fill.classList.add("indeterminate");
        ui.text.textContent = job.state === "queued" ? gt("waiting for a worker…")
          : gt("working… {elapsed} s", { elapsed: numberText(p.elapsed, 1) });
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
