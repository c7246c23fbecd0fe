// The review page: a game record's moves, the board before any of them, and
// `durak review`'s verdict on each decision of a seat -- the labels, exact
// values apart from estimates, the win chance over the game (an SVG chart
// drawn here from the review's JSON) and the move after which the game was
// lost (the review's `lost_after`, the one definition of docs/guide/games.md).
// The review runs as a job on the server and fills in as each decision is
// scored; the server keeps its answer by the record's content, so coming back
// (Back, a reload, /review?id=...) is instant.
"use strict";

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

function chanceText(d, which) {
  const v = which === "best" ? d.best_value : d.played_value;
  const c = which === "best" ? d.best_chance : d.played_chance;
  if (c === null || c === undefined) return "?";
  return v ? `${c.toFixed(2)} (${v})` : c.toFixed(2);
}

// how a decision was valued: exact, an estimate, or every card placed but the solve ran out
function howText(d) {
  if (d.exact) return "exact";
  if (d.how === "unsolved") return "ran out";
  return d.every_deal ? `all ${d.deals}` : `est. ${d.deals}`;  // the hint on N deals (all: every one there is)
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
      if (f.size > MAX_FILE) { $("rv-error").textContent = `record: the file has ${f.size.toLocaleString()} bytes; at most ${MAX_FILE.toLocaleString()}`; return; }
      $("rv-text").value = await f.text();
      this.start($("rv-text").value);
    });
    $("rv-first").addEventListener("click", () => this.go(0));
    $("rv-prev").addEventListener("click", () => this.go(this.idx - 1));
    $("rv-next").addEventListener("click", () => this.go(this.idx + 1));
    $("rv-last").addEventListener("click", () => this.go(this.rec.moves.length));
    document.addEventListener("keydown", (e) => {
      if (!this.rec || e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT") return;
      if (e.key === "ArrowLeft") this.go(this.idx - 1);
      if (e.key === "ArrowRight") this.go(this.idx + 1);
    });
  },

  // the record's moves and boards, then the review
  async start(text) {
    $("rv-error").textContent = "";
    if (!text.trim()) { $("rv-error").textContent = "game: paste a game record, or open a file"; return; }
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
    for (const s of this.rec.seats) sel.appendChild(new Option(`seat ${s}`, String(s)));
    sel.value = this.rec.seats.includes(parseInt(old, 10)) ? old : String(this.rec.me);
  },

  seat() { return parseInt($("rv-seat").value, 10) || this.rec.me; },

  async review() {
    const body = { task: "review", game: this.text, seat: this.seat() };
    const t = parseFloat($("rv-time").value);
    if (t > 0) body.max_time = t;
    $("rv-title").textContent = `Win chance of seat ${body.seat}'s moves`;
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
    if (job.budget) $("rv-error").textContent = "Budget: " + job.budget;
    if (job.cached) $("rv-kept").textContent = "The server's answer from an earlier review of this record.";
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

  go(i) {
    if (!this.rec) return;
    const n = this.rec.moves.length;
    if (i < 0 || i > n) return;
    this.idx = i;
    const next = this.rec.moves[i];
    this.board.set(this.rec.boards[i], { interactive: false, bottomSeat: this.seat(),
                                         highlight: next ? next.move : null });
    $("rv-where").textContent = next
      ? `before move ${next.number} of ${n}: seat ${next.seat} plays ${prettyMove(next.move)}`
      : `the end, after move ${n}`;
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
    t.appendChild(el("thead")).innerHTML = "<tr><th>#</th><th>seat</th><th>move</th><th>chance</th><th>how</th><th>label</th></tr>";
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
      tr.appendChild(el("td", d && d.exact ? "exact" : null, d ? chanceText(d, "played") : ""));
      tr.appendChild(el("td", "muted small how", d ? howText(d) : ""));
      const lab = el("td");
      if (d) lab.appendChild(el("span", "label label-" + d.label, d.label));
      tr.appendChild(lab);
      // one tag, beside the label: the decisive move is where the game was lost, by its own drop
      if (decisive.has(m.number)) lab.appendChild(el("span", "tag-decisive", "decisive"));
      else if (lost === m.number) lab.appendChild(el("span", "tag-lost", "lost after"));
      if (lost === m.number) lab.title = "the game was lost after this move: the best chance never reached one half again";
      tr.addEventListener("click", () => this.go(m.number - 1));
      tb.appendChild(tr);
    }
    t.appendChild(tb);
  },

  drawChart() {
    const box = $("rv-chart");
    box.textContent = "";
    const n = Math.max(2, this.rec.moves.length);
    const W = 640, H = 210, L = 38, R = 12, T = 14, B = 26;
    const x = (m) => L + (m - 1) / (n - 1) * (W - L - R);
    const y = (c) => T + (1 - c) * (H - T - B);
    const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
                           "aria-label": "win chance of the moves played over the game" });
    for (const [c, dash] of [[0, ""], [0.5, "5 4"], [1, ""]]) {
      s.appendChild(svg("line", { x1: L, x2: W - R, y1: y(c), y2: y(c), stroke: c === 0.5 ? "#8c959f" : "#d0d7de",
                                  "stroke-dasharray": dash }));
      s.appendChild(svg("text", { x: 4, y: y(c) + 4 }, `${Math.round(c * 100)}%`));
    }
    s.appendChild(svg("text", { x: W - R, y: H - 6, "text-anchor": "end" }, `move ${this.rec.moves.length}`));
    s.appendChild(svg("text", { x: L, y: H - 6 }, "move 1"));
    const ds = Object.values(this.decisions).sort((a, b) => a.move - b.move);
    const lost = this.lostAfter();
    if (lost) {
      s.appendChild(svg("line", { x1: x(lost), x2: x(lost), y1: T, y2: H - B, stroke: "#cf222e",
                                  "stroke-dasharray": "3 3" }));
      const right = x(lost) > W * 0.6;
      s.appendChild(svg("text", { x: x(lost) + (right ? -4 : 4), y: T + 9, fill: "#cf222e", class: "lost-label",
                                  "text-anchor": right ? "end" : "start" }, `lost after move ${lost}`));
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
      u.appendChild(svg("title", {}, `move ${d.move}: ${d.played}, unclear: ${d.note}`));
      u.addEventListener("click", () => this.go(d.move - 1));
      s.appendChild(u);
    }
    for (const d of known) {
      const cx = x(d.move), cy = y(d.played_chance);
      if (decisive.has(d.move)) {
        s.appendChild(svg("circle", { cx, cy, r: 9, fill: "none", stroke: "#cf222e", "stroke-width": 2 }));
        const right = cx > W * 0.6;
        s.appendChild(svg("text", { x: cx + (right ? -10 : 10), y: cy + (cy < H / 2 ? 14 : -6), fill: "#cf222e",
                                    "text-anchor": right ? "end" : "start" }, "decisive"));
      }
      const common = { fill: LABEL_COLOURS[d.label] || "#999", stroke: "#222", "stroke-width": 0.8,
                       class: "pt", "data-move": d.move };
      const pt = d.exact ? svg("rect", { ...common, x: cx - 4.5, y: cy - 4.5, width: 9, height: 9 })
                         : svg("circle", { ...common, cx, cy, r: 4.5 });
      pt.appendChild(svg("title", {}, `move ${d.move}: ${d.played} ${chanceText(d, "played")}, ${d.label}` +
                                      (d.exact ? " (exact)" : " (estimate)")));
      pt.addEventListener("click", () => this.go(d.move - 1));
      s.appendChild(pt);
    }
    box.appendChild(s);
    const leg = $("rv-legend");
    leg.textContent = "";
    const used = new Set(ds.map(d => d.label));
    for (const [name, colour] of Object.entries(LABEL_COLOURS)) {
      if (!used.has(name)) continue;
      const sp = el("span");
      const dot = el("span", "dot"); dot.style.background = colour;
      sp.appendChild(dot); sp.appendChild(document.createTextNode(name));
      leg.appendChild(sp);
    }
    const sq = el("span"); sq.appendChild(el("span", "sq")); sq.appendChild(document.createTextNode("exact"));
    const ci = el("span"); ci.appendChild(el("span", "dot")); ci.appendChild(document.createTextNode("estimate"));
    leg.appendChild(sq); leg.appendChild(ci);
    if (known.length < ds.length) leg.appendChild(el("span", null, "? exact solve ran out"));
    leg.appendChild(el("span", null, "dashed: even chance (50%) · click a point for its move"));
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
    const head = el("div", "verdict", `Move ${m.number}: seat ${m.seat} plays ${prettyMove(m.move)}`);
    box.appendChild(head);
    if (d) {
      const line = el("div", "detail");
      line.appendChild(el("span", "label label-" + d.label, d.label));
      line.appendChild(document.createTextNode(d.played_chance === null
        ? ` ${d.note}: no value is given rather than one from a single deal.`
        : ` chance ${chanceText(d, "played")}; best ${prettyMove(d.best)}: ${chanceText(d, "best")}; loss ${d.loss.toFixed(2)}`));
      box.appendChild(line);
      const basis = el("div", "muted small", d.exact
        ? "Exact: every card is placed; the solver's values with best play (win 1, draw \u00bd, loss 0)."
        : d.how === "unsolved" ? "Every card is placed, but the exact solve ran out of the review's time (raise it above, or analyse the position exactly)."
        : `Estimate: the hint seat ${d.seat} could have asked then, on ${d.every_deal ? "every one of the " : ""}${d.deals} deals of the hidden cards` +
          (d.kept ? `; ${d.kept}` : ""));
      basis.id = "rv-basis";
      box.appendChild(basis);
      if (this.lostAfter() === m.number) {
        const drop = this.decisive().has(m.number);
        box.appendChild(el("div", "budget-note", drop
          ? `Decisive: the game was lost after this move. The best move had ${chanceText(d, "best")}, the move played ${chanceText(d, "played")}, and seat ${d.seat}'s best chance never reached one half again.`
          : `The game was lost after this move: seat ${d.seat}'s best chance never reached one half at any later decision (the move played kept ${chanceText(d, "played")}; the drop came after it).`));
      }
    } else if (this.answer || this.job) {
      box.appendChild(el("div", "muted small", m.seat === this.seat()
        ? "Not a decision: the only legal move, or not scored yet." : "The other side's move."));
    }
    const b = this.rec.boards[this.idx];
    const a = el("a", "button", b.seats.some(s => s.hidden) ? "Analyse this position (the hint)" : "Analyse this position exactly");
    a.href = `/?position=${encodeURIComponent(b.position)}&analyse=1`;
    a.target = "_blank";  // a tab of its own, the analysis started: the review stays here
    a.rel = "noopener";
    a.title = "opens the board in a new tab, the analysis started; this review stays";
    a.id = "rv-analyse";
    box.appendChild(a);
  },

  drawSummary() {
    const out = $("rv-summary"), r = this.answer;
    out.textContent = "";
    for (const s of r.summary) {
      const counts = Object.entries(s.labels).filter(([, k]) => k).map(([l, k]) => `${k} ${l}`).join(", ");
      out.appendChild(el("div", "status-line", `Seat ${s.seat}: ${s.decisions} decisions (${s.exact} exact): ${counts}; mean loss ${s.mean_loss.toFixed(3)}`));
    }
    if (r.lost_after) {
      const d = this.decisions[r.lost_after], drop = this.decisive().has(r.lost_after);
      const a = el("a", null, `Lost after move ${r.lost_after}: seat ${d.seat} played ${prettyMove(d.played)} ` +
        `(${chanceText(d, "played")}; best ${prettyMove(d.best)} ${chanceText(d, "best")}, ${d.exact ? "exact" : "estimated"})` +
        (drop ? " \u2014 decisive" : ""));
      a.href = "#"; a.className = drop ? "decisive-link" : "lost-link"; a.dataset.move = r.lost_after;
      a.addEventListener("click", (e) => { e.preventDefault(); this.go(r.lost_after - 1); });
      const div = el("div"); div.appendChild(a); out.appendChild(div);
      out.appendChild(el("div", "muted small", "Lost after: the last decision whose best move still had an even chance; " +
        "after it the best chance never reached one half again."));
    }
    const unsolved = r.decisions.filter(d => d.how === "unsolved");
    if (unsolved.length) out.appendChild(el("div", "muted", `Unclear: move(s) ${unsolved.map(d => d.move).join(", ")}: ${unsolved[0].note}.`));
    if (!r.decisions.length) out.appendChild(el("div", "muted", "No decisions: every move was forced."));
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
    else $("rv-error").textContent = `no game ${q.get("id")} on this server`;
  }
  if (q.get("seat")) {
    const o = new Option(`seat ${q.get("seat")}`, q.get("seat"));
    $("rv-seat").appendChild(o);
    $("rv-seat").value = q.get("seat");
  }
  const nav = (performance.getEntriesByType("navigation")[0] || {}).type;
  if (!text && !q.get("id") && (nav === "back_forward" || nav === "reload")) {
    try {  // Back to this page, or a reload: the record reviewed in this tab
      const saved = JSON.parse(window.sessionStorage.getItem(SAVED) || "null");
      if (saved) {
        text = saved.text;
        if (saved.seat && !q.get("seat")) { $("rv-seat").appendChild(new Option(`seat ${saved.seat}`, saved.seat)); $("rv-seat").value = saved.seat; }
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
