// The board page's analysis tab: the position box, the board, `analyse`/`solve`/`hint`
// answers and their tables (index.html; the server answers, this draws).
"use strict";

// ================================================================== analysis
const Analysis = {
  base: null,       // the position loaded (canonical text)
  line: [],         // moves made from it
  boards: [],       // board views: boards[i] after line[:i]
  idx: 0,           // the board shown
  highlight: null,  // the next move of the variation being stepped
  job: null,
  ana: null,        // {idx, answer, pv, pvBoards} of the last analysis

  init() {
    this.board = new DurakBoard($("board"), { onMove: (m) => this.move(m) });
    $("position-show").addEventListener("click", () => this.load($("position-text").value));
    $("position-text").addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey || !e.shiftKey)) { e.preventDefault(); this.load($("position-text").value); }
    });
    $("position-link").addEventListener("click", () => this.copyLink());
    $("position-edit").addEventListener("click", () => { if (this.current()) { Editor.fromPosition(this.current().json || this.current().position); showTab("editor"); } });
    $("goto-editor").addEventListener("click", (e) => { e.preventDefault(); showTab("editor"); });
    $("nav-back").addEventListener("click", () => this.go(this.idx - 1));
    $("nav-start").addEventListener("click", () => this.go(0));
    $("nav-pv-prev").addEventListener("click", () => this.stepPv(this.pvStep() - 1));
    $("nav-pv-next").addEventListener("click", () => this.stepPv(this.pvStep() + 1));
    $("analyse-btn").addEventListener("click", () => this.analyse());
    $("analyse-cancel").addEventListener("click", () => this.cancel());
  },

  current() { return this.boards[this.idx] || null; },

  async load(text, quiet) {
    text = (text || "").trim();
    $("position-error").textContent = "";
    $("position-text").classList.remove("has-error");
    if (!text) { $("position-error").textContent = gt("position: type a position, or set one up in the editor"); return false; }
    const r = await api("/api/board", { position: text });
    if (!r.ok) {
      $("position-error").textContent = r.data.error;
      $("position-text").classList.add("has-error");
      // a refused position from a link: into the box, where the error's columns are
      if (!quiet) $("position-text").value = text;
      return false;
    }
    this.base = r.data.position;
    this.line = [];
    this.boards = [{ ...r.data.board, json: r.data.json }];
    this.go(0);
    if (!quiet) $("position-text").value = r.data.position;
    setUrl({ position: r.data.position });
    const hero = $("analyse-hero");
    hero.textContent = "";
    const n = r.data.board.players;
    $("hero-label").hidden = n < 3;
    for (let s = 1; s <= n; s++) hero.appendChild(new Option(gt("seat {seat}", { seat: s }), s));
    const me = r.data.board.seats.find(s => s.me);
    hero.value = String(me ? me.seat : (r.data.board.to_move || 1));
    this.clearResult();
    return true;
  },

  go(i) {
    if (i < 0 || i >= this.boards.length) return;
    this.idx = i;
    const v = this.current();
    this.highlight = null;
    if (this.ana && this.ana.pv && i >= this.ana.idx && i < this.ana.idx + this.ana.pv.length &&
        this.line.slice(this.ana.idx, i).join(" ") === this.ana.pv.slice(0, i - this.ana.idx).join(" ")) {
      this.highlight = this.ana.pv[i - this.ana.idx];
    }
    const bottom = (v.seats.find(s => s.me) || {}).seat || 1;
    this.board.set(v, { interactive: true, bottomSeat: bottom, highlight: this.highlight });
    $("nav-info").textContent = this.line.length
      ? `move ${i} of ${this.line.length}: ${this.line.slice(0, i).map(prettyMove).join(" ") || "(start)"}`
      : "";
    $("position-text").value = v.position;
    $("nav-back").disabled = i === 0;
    $("nav-start").disabled = i === 0;
    this.markPv();
  },

  async move(m) {
    const line = this.line.slice(0, this.idx).concat([m]);
    const r = await api("/api/line", { position: this.base, moves: line });
    if (!r.ok) { $("position-error").textContent = r.data.error; return; }
    this.line = line;
    this.boards = r.data.boards;
    this.go(line.length);
    $("position-text").value = this.current().position;
  },

  copyLink() {
    const v = this.current();
    if (!v) return;
    const u = new URL(window.location.href);
    u.search = "";
    u.searchParams.set("position", v.position);
    setUrl({ position: v.position });
    if (navigator.clipboard) navigator.clipboard.writeText(u.toString()).catch(() => {});
    $("position-error").textContent = "";
    $("nav-info").textContent = gt("link copied: {url}", { url: u.toString() });
  },

  clearResult() {
    this.ana = null;
    $("nav-pv").hidden = true;
    $("analysis-result").textContent = "";
    $("analysis-error").textContent = "";
  },

  async analyse() {
    const v = this.current();
    if (!v) { $("analysis-error").textContent = gt("load a position first"); return; }
    this.clearResult();
    const body = { task: "analyse", position: v.position };
    const t = parseFloat($("analyse-time").value);
    if (t > 0) body.max_time = t;
    if (v.players > 2) body.hero = parseInt($("analyse-hero").value, 10);
    const idx = this.idx;
    const answer = await runJob(body, {
      progress: $("analysis-progress"), fill: $("progress-fill"), text: $("progress-text"),
      cancel: $("analyse-cancel"), start: $("analyse-btn"), error: $("analysis-error"),
      setJob: (j) => { this.job = j; },
    });
    if (!answer) return;
    this.ana = { idx, answer: answer.answer, pv: answer.answer.pv || null, budget: answer.budget };
    if (this.ana.pv && this.ana.pv.length) {
      const r = await api("/api/line", { position: v.position, moves: this.ana.pv });
      if (r.ok) this.ana.pvBoards = r.data.boards;
    }
    this.renderResult();
    this.go(this.idx);
  },

  cancel() { if (this.job) api(`/api/jobs/${this.job}`, undefined, "DELETE"); },

  // step the variation: the board after k of its moves
  stepPv(k) {
    const a = this.ana;
    if (!a || !a.pvBoards) return;
    k = Math.max(0, Math.min(k, a.pv.length));
    this.line = this.line.slice(0, a.idx).concat(a.pv);
    this.boards = this.boards.slice(0, a.idx + 1).concat(a.pvBoards.slice(1));
    this.go(a.idx + k);
  },

  markPv() {
    const a = this.ana;
    for (const b of document.querySelectorAll("#pv-moves button")) {
      const k = parseInt(b.dataset.k, 10);
      const on = a && this.line.slice(a.idx, a.idx + k + 1).join(" ") === a.pv.slice(0, k + 1).join(" ");
      b.classList.toggle("current", Boolean(on) && this.idx === a.idx + k + 1);
    }
  },

  renderResult() {
    const a = this.ana, ans = a.answer, out = $("analysis-result");
    out.textContent = "";
    if (a.budget) out.appendChild(el("div", "budget-note", a.answer.estimate
      ? gt("Budget ran out: {what}. The verdict and the values shown are what was proven; the estimate is labelled as one.", { what: a.budget })
      : gt("Budget ran out: {what}. The verdict and the values shown are what was proven.", { what: a.budget })));
    if (ans.samples !== undefined) { out.appendChild(hintTable(ans, (m) => this.playFrom(a.idx, m))); return; }
    out.appendChild(verdict(ans));
    out.appendChild(el("div", "muted small", gt("With best play by everybody; values are seat {seat}'s (win, draw or loss), a ply is one move of either side.", { seat: ans.player })));
    if (ans.best && ans.best.length) {
      const done = ans.exact || ans.best_complete;
      out.appendChild(el("div", null, (done ? gt("Best: {moves}", { moves: ans.best.map(prettyMove).join("  ") })
                                             : gt("Best so far: {moves}", { moves: ans.best.map(prettyMove).join("  ") }))));
    }
    if (ans.recommended) {
      const r = el("div", "recommended", gt("Recommended: {move}", { move: prettyMove(ans.recommended) }) + " ");
      r.id = "recommended";
      r.appendChild(el("span", "muted small", "(" + recommendedBasis(ans) + ")"));
      out.appendChild(r);
    }
    const est = {};
    if (ans.estimate) {
      for (const e of ans.estimate.moves) est[e.move] = e;
      out.appendChild(el("div", "muted small", gt("Estimate (not a proof): a UCT search against {model}, {n} playouts, {seconds} s; the hero's mean result, +1 win, 0 draw, \u22121 loss.",
        { model: ESTIMATE_MODEL[ans.estimate.model], n: numberText(ans.estimate.iterations), seconds: numberText(ans.estimate.seconds, 2) })));
      if (!(ans.moves && ans.moves.length)) {
        out.appendChild(el("div", "estimate-line", gt("Estimate: {moves}", { moves: ans.estimate.moves.slice(0, 8)
          .map((e) => `${prettyMove(e.move)} ${estimateText(e)}`).join(" \u00b7 ") })));
      }
    }
    if (ans.pv && ans.pv.length) {
      $("nav-pv").hidden = false;  // the same steps under the board
      out.appendChild(el("div", "panel-title", gt("Variation from the analysed position (click to step through)")));
      const row = el("div", "row");
      const prev = el("button", null, "\u25C0"); prev.type = "button"; prev.id = "pv-prev";
      const next = el("button", null, "\u25B6"); next.type = "button"; next.id = "pv-next";
      prev.addEventListener("click", () => this.stepPv(this.pvStep() - 1));
      next.addEventListener("click", () => this.stepPv(this.pvStep() + 1));
      row.appendChild(prev); row.appendChild(next);
      out.appendChild(row);
      const pv = el("div", "pv"); pv.id = "pv-moves";
      ans.pv.forEach((m, k) => {
        const b = el("button", null, `${k + 1}. ${prettyMove(m)}`);
        b.type = "button"; b.dataset.k = k;
        b.addEventListener("click", () => this.stepPv(k + 1));
        pv.appendChild(b);
      });
      out.appendChild(pv);
    }
    if (ans.moves && ans.moves.length) {
      const t = el("table", "moves");
      t.appendChild(headRow([gt("move"), gt("value for seat {seat}", { seat: ans.player }), gt("distance (plies)")]
        .concat(ans.estimate ? [gt("estimate")] : [])));
      const tb = el("tbody");
      for (const m of ans.moves) {
        const tr = el("tr", "clickable");
        tr.appendChild(el("td", null, prettyMove(m.move)));
        tr.appendChild(el("td", "value-" + m.value, valueWord(m.value)));
        tr.appendChild(el("td", null, m.distance === null || m.distance === undefined ? "" : String(m.distance)));
        if (ans.estimate) tr.appendChild(el("td", "muted", est[m.move] ? estimateText(est[m.move]) : ""));
        if (m.move === ans.recommended) tr.classList.add("current");
        tr.title = gt("play this move on the board");
        tr.addEventListener("click", () => this.playFrom(a.idx, m.move));
        tb.appendChild(tr);
      }
      t.appendChild(tb);
      out.appendChild(t);
    }
    out.appendChild(el("div", "muted small", gt("{nodes} nodes, {seconds} s", { nodes: numberText(ans.nodes || 0), seconds: numberText(ans.seconds, 3) })));
  },

  pvStep() {
    const a = this.ana;
    if (!a) return 0;
    return Math.max(0, Math.min(this.idx - a.idx, a.pv.length));
  },

  playFrom(idx, move) {
    this.go(idx);
    this.move(move);
  },
};

// The anytime answer (issue 54): how the recommended move was chosen, as `durak analyse` says it.
const ESTIMATE_MODEL = { coalition: gt("the others as one coalition"), independent: gt("independent players") };

function recommendedBasis(ans) {
  const model = ans.estimate ? " " + gt("against {model}", { model: ESTIMATE_MODEL[ans.estimate.model] }) : "";
  if (ans.recommended_by === "proof") return gt("proven to keep the {value}", { value: valueWord(ans.value) });
  if (ans.recommended_by === "proof, estimate") return (ans.value === "loss" ? gt("every move proven to lose") : gt("every move proven to keep the {value}", { value: valueWord(ans.value) }))
    + "; " + gt("picked by the estimate") + model;
  if (ans.recommended_by === "estimate") return gt("estimated{model}, not proven; no move proven worse ranks above it", { model });
  return gt("no move proven and no estimate: the first legal move");
}

function estimateText(e) {
  if (e.solved) return gt("{value} (solved)", { value: valueWord(e.solved) });
  return e.visits ? (e.score >= 0 ? "+" : "") + numberText(e.score, 2) : "";
}
