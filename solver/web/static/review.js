// The review page: a game record's moves, the board before any of them, and
// `durak review`'s verdict on each decision of a seat -- the labels, exact
// values apart from estimates, the chance over the game (an SVG chart
// drawn here from the review's JSON) and the move after which the game was
// lost (the review's `lost_after`, the one definition of docs/guide/games.md).
// The review runs as a job on the server and fills in as each decision is
// scored; the server keeps its answer by the record's content, so coming back
// (Back, a reload, /review?id=...) is instant.  The switch *Every card seen* asks the
// review's hindsight too (`durak review --hindsight`): every position's exact value for
// the seat with every hand and the pile's order seen -- a column of the move list, a
// line on the chart and the move that decided the game double dummy; positions its
// share of the time did not reach say so, never a guess.
"use strict";

const SEEN_COLOUR = "#8250df";  // the chart's line of the values with every card seen
const LABEL_COLOURS = { best: "#2da44e", good: "#7cb342", inaccuracy: "#d4a017", mistake: "#f0883e",
                        blunder: "#cf222e", unclear: "#9aa0a6" };
const SVG = "http://www.w3.org/2000/svg";
const MAX_FILE = 1000000;

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// a decision's chance as `durak review` prints it: the exact value in words, else the
// chance of not being the durak as a percentage -- the server's numbers, nothing derived;
// in a sentence (`full`) an exact value has its chance too: 0% (loss)
function chanceText(d, which, full) {
  const v = which === "best" ? d.best_value : d.played_value;
  const c = which === "best" ? d.best_chance : d.played_chance;
  if (c === null || c === undefined) return "?";
  if (d.exact && v) return full ? `${percentText(c)} (${valueWord(v)})` : valueWord(v);
  return percentText(c);
}
function lossText(d) { return d.loss === null || d.loss === undefined ? "" : percentText(d.loss); }

// `1-15, 17`: move numbers, runs of them as their ends (as `durak review` writes them)
function pliesText(plies) {
  const runs = [];
  for (const p of plies) {
    if (runs.length && p === runs[runs.length - 1][1] + 1) runs[runs.length - 1][1] = p;
    else runs.push([p, p]);
  }
  return runs.map(([a, b]) => a === b ? String(a) : `${a}\u2013${b}`).join(", ");
}

// how a decision was valued: exact, an estimate, or every card placed but the solve ran out
function howText(d) {
  if (d.exact) return gt("exact");
  if (d.how === "unsolved") return gt("ran out");
  return d.every_deal ? gt("all {n}", { n: d.deals }) : gt("est. {n}", { n: d.deals });  // the hint on N deals (all: every one there is)
}

const SAVED = "durak.review";  // the record reviewed in this tab: Back and reload come back to it

const Review = {
  text: null, rec: null, idx: 0, decisions: {}, answer: null, job: null,

  init() {
    this.board = new DurakBoard($("rv-board"), {});
    $("rv-go").addEventListener("click", () => this.start($("rv-text").value));
    $("rv-cancel").addEventListener("click", () => { if (this.job) api(`/api/jobs/${this.job}`, undefined, "DELETE"); });
    $("rv-file").addEventListener("change", async (e) => {
      const f = e.target.files[0];
      e.target.value = "";
      if (!f) return;
      if (f.size > MAX_FILE) { $("rv-error").textContent = gt("record: the file has {size} bytes; at most {most}", { size: numberText(f.size), most: numberText(MAX_FILE) }); return; }
      $("rv-text").value = await f.text();
      this.start($("rv-text").value);
    });
    $("rv-first").addEventListener("click", () => this.go(0));
    $("rv-prev").addEventListener("click", () => this.go(this.idx - 1));
    $("rv-next").addEventListener("click", () => this.go(this.idx + 1));
    $("rv-last").addEventListener("click", () => this.go(this.rec.moves.length));
    // the switch asks the same record again, with hindsight or without (each answer kept)
    $("rv-hindsight").addEventListener("change", () => { if (this.rec && !this.job) this.start(this.text); });
    document.addEventListener("keydown", (e) => {
      if (!this.rec || e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT") return;
      if (e.key === "ArrowLeft") this.go(this.idx - 1);
      if (e.key === "ArrowRight") this.go(this.idx + 1);
    });
  },

  // the record's moves and boards, then the review
  async start(text) {
    $("rv-error").textContent = "";
    if (!text.trim()) { $("rv-error").textContent = gt("game: paste a game record, or open a file"); return; }
    const r = await api("/api/record", { game: text });
    if (!r.ok) { $("rv-error").textContent = r.data.error; return; }
    const again = this.text === text && this.rec;
    this.text = text;
    this.rec = r.data;
    try { window.sessionStorage.setItem(SAVED, JSON.stringify({ text, seat: $("rv-seat").value })); } catch (e) { /* full */ }
    if (!again) this.fillSeats();
    this.decisions = {};
    this.answer = null;
    $("rv-summary").textContent = "";
    $("rv-nav").hidden = false;
    $("rv-moves-panel").hidden = false;
    $("rv-chart-panel").hidden = false;
    this.drawMoves();
    this.drawChart();
    this.go(again ? this.idx : Math.min(this.startAt || 0, this.rec.moves.length));
    this.startAt = 0;
    await this.review();
  },

  fillSeats() {
    const sel = $("rv-seat"), old = sel.value;
    sel.textContent = "";
    for (const s of this.rec.seats) sel.appendChild(new Option(gt("seat {seat}", { seat: s }), String(s)));
    sel.value = this.rec.seats.includes(parseInt(old, 10)) ? old : String(this.rec.me);
  },

  seat() { return parseInt($("rv-seat").value, 10) || this.rec.me; },

  async review() {
    const body = { task: "review", game: this.text, seat: this.seat() };
    const t = parseFloat($("rv-time").value);
    if (t > 0) body.max_time = t;
    if ($("rv-hindsight").checked) body.hindsight = true;
    const u = new URL(window.location.href);  // the switch, for Back and a reload
    if (body.hindsight) u.searchParams.set("hindsight", "1"); else u.searchParams.delete("hindsight");
    window.history.replaceState(null, "", u.toString());
    $("rv-title").textContent = gt("Chance of seat {seat}'s moves", { seat: body.seat });
    $("rv-kept").textContent = "";
    const job = await runJob(body, {
      progress: $("rv-progress"), fill: $("rv-progress-fill"), text: $("rv-progress-text"),
      cancel: $("rv-cancel"), start: $("rv-go"), error: $("rv-error"), unit: "moves reviewed",
      setJob: (j) => { this.job = j; },
      onPoll: (j) => this.partial(j.partial || []),
    });
    if (!job) return;
    this.answer = job.answer;
    this.decisions = {};
    for (const d of job.answer.decisions) this.decisions[d.move] = d;
    this.budget = job.budget;  // a budget that ran out: a note beside the summary, not an error
    if (job.cached) $("rv-kept").textContent = gt("The server's answer from an earlier review of this record.");
    this.drawSummary();
    this.drawMoves();
    this.drawChart();
    this.go(this.idx);
  },

  partial(list) {
    if (list.length === Object.keys(this.decisions).length) return;
    for (const d of list) this.decisions[d.move] = d;
    this.drawMoves();
    this.drawChart();
    this.drawDetail();
  },

  decisive() { return new Set((this.answer && this.answer.decisive) || []); },
  lostAfter() { return this.answer ? this.answer.lost_after : null; },
  // every card seen: the positions along the game (before each move, then the end), or null
  seen() { return this.answer && this.answer.hindsight && this.answer.hindsight.length ? this.answer.hindsight : null; },
  seenTurns() { return (this.answer && this.answer.hindsight_turns) || []; },
  // the value before / after move n with every card seen (null: not reached)
  seenBefore(n) { const h = this.seen(); return h && h[n - 1] ? h[n - 1].value : null; },
  seenAfter(n) { const h = this.seen(); return h && h[n] ? h[n].value : null; },

  go(i) {
    if (!this.rec) return;
    const n = this.rec.moves.length;
    if (i < 0 || i > n) return;
    this.idx = i;
    const next = this.rec.moves[i];
    this.board.set(this.rec.boards[i], { interactive: false, bottomSeat: this.seat(),
                                         highlight: next ? next.move : null });
    $("rv-where").textContent = next
      ? gt("before move {number} of {n}: seat {seat} plays {move}", { number: next.number, n, seat: next.seat, move: prettyMove(next.move) })
      : gt("the end, after move {n}", { n });
    for (const b of ["rv-first", "rv-prev"]) $(b).disabled = i === 0;
    for (const b of ["rv-next", "rv-last"]) $(b).disabled = i === n;
    const u = new URL(window.location.href);  // the move shown, for Back and a reload
    u.searchParams.set("move", String(i));
    window.history.replaceState(null, "", u.toString());
    for (const tr of document.querySelectorAll("#rv-moves tr[data-move]")) {
      const on = parseInt(tr.dataset.move, 10) === i + 1;
      tr.classList.toggle("current", on);
      if (on) tr.scrollIntoView({ block: "nearest" });
    }
    this.markChart();
    this.drawDetail();
  },

  drawMoves() {
    const t = $("rv-moves");
    t.textContent = "";
    const seen = this.seen();
    const head = headRow(["#", gt("seat"), gt("move"), gt("chance"), gt("how"), pgt("review column", "label")]);
    head.querySelectorAll("th")[4].className = "how";  // (a phone leaves it to the move's detail)
    this.drawSeenKey(!!seen);
    t.appendChild(head);
    const turns = new Set(this.seenTurns().map(x => x.ply));
    const tb = el("tbody");
    const decisive = this.decisive(), lost = this.lostAfter();
    for (const m of this.rec.moves) {
      const d = this.decisions[m.number];
      const tr = el("tr");
      tr.dataset.move = m.number;
      if (decisive.has(m.number)) tr.classList.add("decisive");
      tr.appendChild(el("td", null, String(m.number)));
      tr.appendChild(el("td", null, String(m.seat)));
      tr.appendChild(el("td", null, prettyMove(m.move)));
      const ch = el("td", d && d.exact ? "num exact" : "num", d ? chanceText(d, "played") : "");
      if (d && d.as_good && d.best !== d.played) {  // labelled best: as good as the highest chance
        const eq = el("span", "as-good-tag", "=");
        eq.title = gt("as good as the best within the noise");
        ch.appendChild(eq);
      }
      tr.appendChild(ch);
      tr.appendChild(el("td", "muted small how", d ? howText(d) : ""));
      const lab = el("td");
      if (d) lab.appendChild(el("span", "label label-" + d.label, labelWord(d.label)));
      tr.appendChild(lab);
      // one tag, beside the label: the decisive move is where the game was lost, by its own drop
      if (decisive.has(m.number)) lab.appendChild(el("span", "tag-decisive", gt("decisive")));
      else if (lost === m.number) lab.appendChild(el("span", "tag-lost", gt("lost after")));
      if (lost === m.number) lab.title = gt("the game was lost after this move: the best chance never reached one half again");
      if (seen) this.seenMark(tr, lab, m.number, turns.has(m.number));
      tr.addEventListener("click", () => this.go(m.number - 1));
      tb.appendChild(tr);
    }
    t.appendChild(tb);
  },

  // the key of the move list's marks with every card seen, above the list
  drawSeenKey(on) {
    let key = $("rv-seen-key");
    if (!on) { if (key) key.remove(); return; }
    if (!key) {
      key = el("div", "legend-row seen-key-row");
      key.id = "rv-seen-key";
      $("rv-moves-panel").insertBefore(key, $("rv-moves-panel").querySelector(".movelist-box"));
    }
    key.textContent = "";
    key.appendChild(el("span", null, gt("Every card seen, after each move:")));
    for (const v of ["win", "draw", "loss"]) {
      const sp = el("span"); sp.appendChild(el("span", "seen-mark seen-" + v));
      sp.appendChild(document.createTextNode(valueWord(v)));
      key.appendChild(sp);
    }
    const q = el("span"); q.appendChild(el("span", "seen-mark seen-none"));
    q.appendChild(document.createTextNode(gt("not reached")));
    key.appendChild(q);
  },

  // move n's mark in the move list with every card seen: a strip at the row's end in the
  // colour of the value after the move (hatched: not reached), so the rows read as one bar
  // along the game -- no column, which would not fit a phone in Lithuanian -- and where the
  // move changed the value, a tag beside its label, before -> after; the words in titles
  seenMark(tr, lab, n, turn) {
    const after = this.seenAfter(n), before = this.seenBefore(n);
    tr.dataset.seen = after || "";
    tr.classList.add("seen-" + (after || "none"));
    const words = after === null
      ? gt("not reached: the review's time ran out before this position was solved; no value is guessed")
      : gt("every card seen: {value} after this move", { value: valueWord(after) });
    if (!lab.title) lab.title = words;
    if (turn && before !== null && after !== null) {
      const tag = el("span", "seen-turn-tag");
      tag.appendChild(el("span", "seen-mark seen-" + before));
      tag.appendChild(el("span", "seen-arrow", "\u2192"));
      tag.appendChild(el("span", "seen-mark seen-" + after));
      tag.title = gt("every card seen: {before} before this move, {after} after it", { before: valueWord(before), after: valueWord(after) });
      tag.setAttribute("aria-label", tag.title);
      lab.appendChild(tag);
    }
  },

  drawChart() {
    const box = $("rv-chart");
    box.textContent = "";
    const n = Math.max(2, this.rec.moves.length);
    const W = 640, H = 210, L = 50, R = 12, T = 14, B = 26;  // L: room for "100 %"
    const x = (m) => L + (m - 1) / (n - 1) * (W - L - R);
    const y = (c) => T + (1 - c) * (H - T - B);
    const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
                           "aria-label": gt("chance of the moves played over the game") });
    for (const [c, dash] of [[0, ""], [0.5, "5 4"], [1, ""]]) {
      s.appendChild(svg("line", { x1: L, x2: W - R, y1: y(c), y2: y(c), stroke: c === 0.5 ? "#8c959f" : "#d0d7de",
                                  "stroke-dasharray": dash }));
      s.appendChild(svg("text", { x: 4, y: y(c) + 4 }, percentText(c)));
    }
    s.appendChild(svg("text", { x: W - R, y: H - 6, "text-anchor": "end" }, gt("move {n}", { n: this.rec.moves.length })));
    s.appendChild(svg("text", { x: L, y: H - 6 }, gt("move {n}", { n: 1 })));
    const ds = Object.values(this.decisions).sort((a, b) => a.move - b.move);
    const lost = this.lostAfter();
    const notes = [];  // the words on the chart, drawn over its points
    if (lost) {
      s.appendChild(svg("line", { x1: x(lost), x2: x(lost), y1: T, y2: H - B, stroke: "#cf222e",
                                  "stroke-dasharray": "3 3" }));
      const right = x(lost) > W * 0.6;
      notes.push(svg("text", { x: x(lost) + (right ? -4 : 4), y: T + 9, fill: "#cf222e", class: "lost-label",
                               "text-anchor": right ? "end" : "start" }, gt("lost after move {n}", { n: lost })));
    }
    const seen = this.seen();
    if (seen) {  // every card seen: the value after each move (win 100%, draw 50%, loss 0%)
      const at = { win: 1, draw: 0.5, loss: 0 };
      let run = [];
      const flush = () => {
        if (run.length) s.appendChild(svg("polyline", { points: run.join(" "), fill: "none", stroke: SEEN_COLOUR,
                                                        "stroke-width": 2.5, "stroke-opacity": 0.55, class: "seen-line" }));
        run = [];
      };
      for (let m = 1; m <= this.rec.moves.length; m++) {
        const v = this.seenAfter(m);
        if (v === null) { flush(); continue; }
        run.push(`${x(m)},${y(at[v])}`);
        if (run.length === 1) run.push(`${x(m) + 0.01},${y(at[v])}`);  // a lone position still shows
      }
      flush();
      const turns = this.seenTurns();
      const last = turns.length ? turns[turns.length - 1] : null;
      if (last) {
        s.appendChild(svg("line", { x1: x(last.ply), x2: x(last.ply), y1: T, y2: H - B, stroke: SEEN_COLOUR,
                                    "stroke-dasharray": "1 3", "stroke-width": 2 }));
        const right = x(last.ply) > W * 0.6;
        // a quarter of the way up: clear of "lost after" at the top and "decisive" at a point
        notes.push(svg("text", { x: x(last.ply) + (right ? -4 : 4), y: y(0.25), fill: SEEN_COLOUR, class: "seen-label",
                                 "text-anchor": right ? "end" : "start" }, gt("decided at move {n}, every card seen", { n: last.ply })));
      }
    }
    const known = ds.filter(d => d.played_chance !== null);
    if (known.length > 1) {
      s.appendChild(svg("polyline", { points: known.map(d => `${x(d.move)},${y(d.played_chance)}`).join(" "),
                                      fill: "none", stroke: "#4a7fb5", "stroke-width": 1.5 }));
    }
    const decisive = this.decisive();
    this.selMark = svg("circle", { r: 9, class: "sel", cx: -20, cy: -20 });
    s.appendChild(this.selMark);
    for (const d of ds.filter(d => d.played_chance === null)) {  // every card placed, the exact solve ran out
      const u = svg("text", { x: x(d.move), y: H - B - 2, "text-anchor": "middle", class: "pt unsolved",
                              "data-move": d.move, fill: "#6e7781" }, "?");
      u.appendChild(svg("title", {}, gt("move {n}: {move}, unclear: {note}", { n: d.move, move: prettyMove(d.played), note: d.note })));
      u.addEventListener("click", () => this.go(d.move - 1));
      s.appendChild(u);
    }
    for (const d of known) {
      const cx = x(d.move), cy = y(d.played_chance);
      if (decisive.has(d.move)) {
        s.appendChild(svg("circle", { cx, cy, r: 9, fill: "none", stroke: "#cf222e", "stroke-width": 2 }));
        const right = cx > W * 0.6;
        notes.push(svg("text", { x: cx + (right ? -10 : 10), y: cy + (cy < H / 2 ? 14 : -6), fill: "#cf222e",
                                 "text-anchor": right ? "end" : "start" }, gt("decisive")));
      }
      const common = { fill: LABEL_COLOURS[d.label] || "#999", stroke: "#222", "stroke-width": 0.8,
                       class: "pt", "data-move": d.move };
      const pt = d.exact ? svg("rect", { ...common, x: cx - 4.5, y: cy - 4.5, width: 9, height: 9 })
                         : svg("circle", { ...common, cx, cy, r: 4.5 });
      pt.appendChild(svg("title", {}, (d.exact ? gt("move {n}: {move} {chance}, {label} (exact)", { n: d.move, move: prettyMove(d.played), chance: chanceText(d, "played"), label: labelWord(d.label) })
                                               : gt("move {n}: {move} {chance}, {label} (estimate)", { n: d.move, move: prettyMove(d.played), chance: chanceText(d, "played"), label: labelWord(d.label) }))));
      pt.addEventListener("click", () => this.go(d.move - 1));
      s.appendChild(pt);
    }
    for (const n of notes) s.appendChild(n);
    box.appendChild(s);
    const leg = $("rv-legend");
    leg.textContent = "";
    const used = new Set(ds.map(d => d.label));
    for (const [name, colour] of Object.entries(LABEL_COLOURS)) {
      if (!used.has(name)) continue;
      const sp = el("span");
      const dot = el("span", "dot"); dot.style.background = colour;
      sp.appendChild(dot); sp.appendChild(document.createTextNode(labelWord(name)));
      leg.appendChild(sp);
    }
    const sq = el("span"); sq.appendChild(el("span", "sq")); sq.appendChild(document.createTextNode(gt("exact")));
    const ci = el("span"); ci.appendChild(el("span", "dot")); ci.appendChild(document.createTextNode(gt("estimate")));
    leg.appendChild(sq); leg.appendChild(ci);
    if (known.length < ds.length) leg.appendChild(el("span", null, gt("? exact solve ran out")));
    if (seen) {
      const li = el("span", "seen-key"); const sw = el("span", "seen-swatch"); sw.style.background = SEEN_COLOUR;
      li.appendChild(sw); li.appendChild(document.createTextNode(gt("every card seen (win 100%, draw 50%, loss 0%)")));
      leg.appendChild(li);
    }
    leg.appendChild(el("span", null, gt("dashed: even chance (50%) · click a point for its move")));
    this.chartX = x; this.chartY = y;
    this.markChart();
  },

  markChart() {
    if (!this.selMark) return;
    const d = this.decisions[this.idx + 1];
    if (d && d.played_chance !== null) {
      this.selMark.setAttribute("cx", this.chartX(d.move));
      this.selMark.setAttribute("cy", this.chartY(d.played_chance));
    } else {
      this.selMark.setAttribute("cx", -20);
    }
  },

  drawDetail() {
    const box = $("rv-detail");
    box.textContent = "";
    const m = this.rec.moves[this.idx];
    const panel = $("rv-detail-panel");
    panel.hidden = !m;
    if (!m) return;
    const d = this.decisions[m.number];
    const head = el("div", "verdict", gt("Move {n}: seat {seat} plays {move}", { n: m.number, seat: m.seat, move: prettyMove(m.move) }));
    box.appendChild(head);
    if (d) {
      const line = el("div", "detail");
      line.appendChild(el("span", "label label-" + d.label, labelWord(d.label)));
      line.appendChild(document.createTextNode(" " + (d.played_chance === null
        ? gt("{note}: no value is given rather than one from a single deal.", { note: d.note })
        : gt("chance {chance}; best {best}: {best_chance}; loss {loss}", { chance: chanceText(d, "played", true), best: prettyMove(d.best), best_chance: chanceText(d, "best", true), loss: lossText(d) }))));
      box.appendChild(line);
      if (d.as_good && d.best !== d.played) {  // labelled best: as good as the highest chance within the noise
        const note = el("div", "as-good-note", "= " + gt("as good as the best within the noise"));
        note.id = "rv-as-good";
        box.appendChild(note);
      }
      const basis = el("div", "muted small", d.exact
        ? gt("Exact: every card is placed; the solver's values with best play (win 1, draw \u00bd, loss 0).")
        : d.how === "unsolved" ? gt("Every card is placed, but the exact solve ran out of the review's time (raise it above, or analyse the position exactly).")
        : (d.every_deal ? ngt("Estimate: the hint seat {seat} could have asked then, on every one of the {n} deal of the hidden cards",
                              "Estimate: the hint seat {seat} could have asked then, on every one of the {n} deals of the hidden cards", d.deals, { seat: d.seat })
                        : ngt("Estimate: the hint seat {seat} could have asked then, on {n} deal of the hidden cards",
                              "Estimate: the hint seat {seat} could have asked then, on {n} deals of the hidden cards", d.deals, { seat: d.seat })));
      basis.id = "rv-basis";
      box.appendChild(basis);
      if (this.lostAfter() === m.number) {
        const drop = this.decisive().has(m.number);
        box.appendChild(el("div", "budget-note", drop
          ? gt("Decisive: the game was lost after this move. The best move had {best}, the move played {played}, and seat {seat}'s best chance never reached one half again.", { best: chanceText(d, "best", true), played: chanceText(d, "played", true), seat: d.seat })
          : gt("The game was lost after this move: seat {seat}'s best chance never reached one half at any later decision (the move played kept {played}; the drop came after it).", { seat: d.seat, played: chanceText(d, "played", true) })));
      }
    } else if (this.answer || this.job) {
      box.appendChild(el("div", "muted small", m.seat === this.seat()
        ? gt("Not a decision: the only legal move, or not scored yet.") : gt("The other side's move.")));
    }
    if (this.seen()) box.appendChild(this.seenDetail(m));
    const b = this.rec.boards[this.idx];
    const a = el("a", "button", b.seats.some(s => s.hidden) ? gt("Analyse this position (the hint)") : gt("Analyse this position exactly"));
    a.href = `/?position=${encodeURIComponent(b.position)}&analyse=1`;
    a.target = "_blank";  // a tab of its own, the analysis started: the review stays here
    a.rel = "noopener";
    a.title = gt("opens the board in a new tab, the analysis started; this review stays");
    a.id = "rv-analyse";
    box.appendChild(a);
  },

  // the move's detail with every card seen: the values before and after it, and whose
  // mistake it was in hindsight when it changed them
  seenDetail(m) {
    const before = this.seenBefore(m.number), after = this.seenAfter(m.number);
    const word = (v) => v === null ? gt("not reached") : valueWord(v);
    const seat = this.answer.hindsight_seat;
    const line = el("div", "seen-detail", gt("Every card seen (seat {seat}): {before} before this move, {after} after it.",
                                          { seat, before: word(before), after: word(after) }));
    line.id = "rv-seen-detail";
    if (before !== null && after !== null && before !== after) {
      line.appendChild(document.createTextNode(" " + (m.seat === seat
        ? gt("Seat {seat}'s own mistake in hindsight.", { seat: m.seat })
        : gt("Seat {seat}'s mistake in hindsight, a gift to seat {hero}.", { seat: m.seat, hero: seat }))));
      line.classList.add("seen-turn");
    }
    return line;
  },

  // the summary's lines with every card seen: the value along the game, the move that
  // decided it double dummy, the positions not reached -- or why there is none
  drawSeenSummary(out) {
    const r = this.answer;
    if (!("hindsight" in r)) return;
    const box = el("div", "seen-summary");
    box.id = "rv-seen-summary";
    out.appendChild(box);
    const seen = this.seen();
    if (!seen) { box.appendChild(el("div", "muted", r.hindsight_note || "")); return; }
    const valued = seen.filter(p => p.reached);
    if (!valued.length) {
      box.appendChild(el("div", "muted", gt("Every card seen: no position was valued within the review's time (raise the seconds above).")));
      return;
    }
    const turns = this.seenTurns();
    const parts = turns.map(t => gt("{value} until move {n} (seat {seat} played {move})",
      { value: valueWord(t.before), n: t.ply, seat: t.seat, move: prettyMove(t.move) }));
    const end = valued[valued.length - 1].value;
    parts.push(turns.length ? gt("{value} after it", { value: valueWord(end) })
                            : gt("{value} from move {first} on", { value: valueWord(end), first: valued[0].ply }));
    box.appendChild(el("div", "seen-story", gt("Every card seen, seat {seat}: {story}", { seat: r.hindsight_seat, story: parts.join(", ") })));
    const last = turns.length ? turns[turns.length - 1] : null;
    if (last) {
      const whose = last.seat === r.hindsight_seat
        ? gt("seat {seat}'s own mistake in hindsight", { seat: last.seat })
        : gt("seat {seat}'s mistake in hindsight, a gift to seat {hero}", { seat: last.seat, hero: r.hindsight_seat });
      const a = el("a", "seen-link", gt("Decided with every card seen: move {n}, seat {seat} played {move}: {before} \u2192 {after} ({whose})",
        { n: last.ply, seat: last.seat, move: prettyMove(last.move), before: valueWord(last.before), after: valueWord(last.after), whose }));
      a.href = "#"; a.dataset.move = last.ply;
      a.addEventListener("click", (e) => { e.preventDefault(); this.go(last.ply - 1); });
      const div = el("div"); div.appendChild(a); box.appendChild(div);
    }
    const missed = seen.filter(p => !p.reached).map(p => p.ply);
    if (missed.length) box.appendChild(el("div", "muted small not-reached", ngt(
      "Not reached with every card seen: move {moves}: its position was not solved in the review's time; no value is guessed.",
      "Not reached with every card seen: moves {moves}: their positions were not solved in the review's time; no value is guessed.",
      missed.length, { moves: pliesText(missed) })));
    box.appendChild(el("div", "muted small", gt("Every card seen: the exact value for the seat with every hand and the pile's order known (double dummy), beside the chance it could know then.")));
  },

  drawSummary() {
    const out = $("rv-summary"), r = this.answer;
    out.textContent = "";
    if (this.budget) out.appendChild(el("div", "budget-note", gt("Budget: {what}", { what: this.budget })));
    for (const s of r.summary) {
      out.appendChild(el("div", "status-line", ngt("Seat {seat}: {n} decision ({exact} exact): {counts}; mean loss {loss}",
        "Seat {seat}: {n} decisions ({exact} exact): {counts}; mean loss {loss}", s.decisions,
        { seat: s.seat, exact: s.exact, counts: labelCounts(s.labels), loss: percentText(s.mean_loss, 1) })));
    }
    if (r.lost_after) {
      const d = this.decisions[r.lost_after], drop = this.decisive().has(r.lost_after);
      const words = { n: r.lost_after, seat: d.seat, played: prettyMove(d.played), chance: chanceText(d, "played"),
                      best: prettyMove(d.best), best_chance: chanceText(d, "best") };
      const a = el("a", null, (d.exact
        ? gt("Lost after move {n}: seat {seat} played {played} ({chance}; best {best} {best_chance}, exact)", words)
        : gt("Lost after move {n}: seat {seat} played {played} ({chance}; best {best} {best_chance}, estimated)", words)) +
        (drop ? " \u2014 " + gt("decisive") : ""));
      a.href = "#"; a.className = drop ? "decisive-link" : "lost-link"; a.dataset.move = r.lost_after;
      a.addEventListener("click", (e) => { e.preventDefault(); this.go(r.lost_after - 1); });
      const div = el("div"); div.appendChild(a); out.appendChild(div);
      out.appendChild(el("div", "muted small", gt("Lost after: the last decision whose best move still had an even chance; after it the best chance never reached one half again.")));
    }
    const unsolved = r.decisions.filter(d => d.how === "unsolved");
    if (unsolved.length) out.appendChild(el("div", "muted", ngt("Unclear: move {moves}: {note}.", "Unclear: moves {moves}: {note}.", unsolved.length, { moves: unsolved.map(d => d.move).join(", "), note: unsolved[0].note })));
    const missed = r.not_reached || [];
    if (missed.length) out.appendChild(el("div", "muted not-reached", ngt(
      "Not reached: move {moves}: the review's time ran out before it (raise the seconds above).",
      "Not reached: moves {moves}: the review's time ran out before them (raise the seconds above).",
      missed.length, { moves: missed.join(", ") })));
    if (!r.decisions.length && !missed.length) out.appendChild(el("div", "muted", gt("No decisions: every move was forced.")));
    this.drawSeenSummary(out);
  },
};

async function start() {
  Review.init();
  const q = new URLSearchParams(window.location.search);
  Review.startAt = parseInt(q.get("move"), 10) || 0;
  let text = q.get("record");
  if (!text && q.get("id")) {
    const r = await fetch(`/api/records/${encodeURIComponent(q.get("id"))}`);
    if (r.ok) text = await r.text();
    else $("rv-error").textContent = gt("no game {id} on this server", { id: q.get("id") });
  }
  if (q.get("hindsight") === "1") $("rv-hindsight").checked = true;
  if (q.get("seat")) {
    const o = new Option(gt("seat {seat}", { seat: q.get("seat") }), q.get("seat"));
    $("rv-seat").appendChild(o);
    $("rv-seat").value = q.get("seat");
  }
  const nav = (performance.getEntriesByType("navigation")[0] || {}).type;
  if (!text && !q.get("id") && (nav === "back_forward" || nav === "reload")) {
    try {  // Back to this page, or a reload: the record reviewed in this tab
      const saved = JSON.parse(window.sessionStorage.getItem(SAVED) || "null");
      if (saved) {
        text = saved.text;
        if (saved.seat && !q.get("seat")) { $("rv-seat").appendChild(new Option(gt("seat {seat}", { seat: saved.seat }), saved.seat)); $("rv-seat").value = saved.seat; }
      }
    } catch (e) { /* nothing kept */ }
  }
  document.body.dataset.ready = "1";
  if (text) {
    $("rv-text").value = text;
    await Review.start(text);
  }
}
start();
