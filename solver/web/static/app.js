// The page: tabs, the position box, the analysis, the editor and the games.
// It draws what the server answers and sends clicks; every rule, every check
// and every answer is the server's (solver/web/*.py over solver/batch/answers.py).
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
    if (!text) { $("position-error").textContent = "position: type a position, or set one up in the editor"; return false; }
    const r = await api("/api/board", { position: text });
    if (!r.ok) {
      $("position-error").textContent = r.data.error;
      $("position-text").classList.add("has-error");
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
    for (let s = 1; s <= n; s++) hero.appendChild(new Option(`seat ${s}`, s));
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
    $("nav-info").textContent = "link copied: " + u.toString();
  },

  clearResult() {
    this.ana = null;
    $("nav-pv").hidden = true;
    $("analysis-result").textContent = "";
    $("analysis-error").textContent = "";
  },

  async analyse() {
    const v = this.current();
    if (!v) { $("analysis-error").textContent = "load a position first"; return; }
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
    if (a.budget) out.appendChild(el("div", "budget-note", "Budget ran out: " + a.budget + ". The verdict and the values shown are what was proven" +
      (a.answer.estimate ? "; the estimate is labelled as one." : ".")));
    if (ans.samples !== undefined) { out.appendChild(hintTable(ans, (m) => this.playFrom(a.idx, m))); return; }
    out.appendChild(verdict(ans));
    out.appendChild(el("div", "muted small", `With best play by everybody; values are seat ${ans.player}'s` +
      " (win, draw or loss), a ply is one move of either side."));
    if (ans.best && ans.best.length) {
      const done = ans.exact || ans.best_complete;
      out.appendChild(el("div", null, (done ? "Best: " : "Best so far: ") + ans.best.map(prettyMove).join("  ")));
    }
    if (ans.recommended) {
      const r = el("div", "recommended", "Recommended: " + prettyMove(ans.recommended) + " ");
      r.id = "recommended";
      r.appendChild(el("span", "muted small", "(" + recommendedBasis(ans) + ")"));
      out.appendChild(r);
    }
    const est = {};
    if (ans.estimate) {
      for (const e of ans.estimate.moves) est[e.move] = e;
      out.appendChild(el("div", "muted small", `Estimate (not a proof): a UCT search against ` +
        `${ESTIMATE_MODEL[ans.estimate.model]}, ${ans.estimate.iterations.toLocaleString()} playouts, ` +
        `${ans.estimate.seconds.toFixed(2)} s; the hero's mean result, +1 win, 0 draw, \u22121 loss.`));
      if (!(ans.moves && ans.moves.length)) {
        out.appendChild(el("div", "estimate-line", "Estimate: " + ans.estimate.moves.slice(0, 8)
          .map((e) => `${prettyMove(e.move)} ${estimateText(e)}`).join(" \u00b7 ")));
      }
    }
    if (ans.pv && ans.pv.length) {
      $("nav-pv").hidden = false;  // the same steps under the board
      out.appendChild(el("div", "panel-title", "Variation from the analysed position (click to step through)"));
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
      t.innerHTML = `<thead><tr><th>move</th><th>value for seat ${ans.player}</th><th>distance (plies)</th>` +
        (ans.estimate ? "<th>estimate</th>" : "") + "</tr></thead>";
      const tb = el("tbody");
      for (const m of ans.moves) {
        const tr = el("tr", "clickable");
        tr.appendChild(el("td", null, prettyMove(m.move)));
        tr.appendChild(el("td", "value-" + m.value, m.value));
        tr.appendChild(el("td", null, m.distance === null || m.distance === undefined ? "" : String(m.distance)));
        if (ans.estimate) tr.appendChild(el("td", "muted", est[m.move] ? estimateText(est[m.move]) : ""));
        if (m.move === ans.recommended) tr.classList.add("current");
        tr.title = "play this move on the board";
        tr.addEventListener("click", () => this.playFrom(a.idx, m.move));
        tb.appendChild(tr);
      }
      t.appendChild(tb);
      out.appendChild(t);
    }
    out.appendChild(el("div", "muted small", `${(ans.nodes || 0).toLocaleString()} nodes, ${ans.seconds} s`));
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
const ESTIMATE_MODEL = { coalition: "the others as one coalition", independent: "independent players" };

function recommendedBasis(ans) {
  const model = ans.estimate ? " against " + ESTIMATE_MODEL[ans.estimate.model] : "";
  if (ans.recommended_by === "proof") return `proven to keep the ${ans.value}`;
  if (ans.recommended_by === "proof, estimate") return `every move proven to ${ans.value === "loss" ? "lose" : "keep the " + ans.value}; picked by the estimate${model}`;
  if (ans.recommended_by === "estimate") return `estimated${model}, not proven; no move proven worse ranks above it`;
  return "no move proven and no estimate: the first legal move";
}

function estimateText(e) {
  if (e.solved) return `${e.solved} (solved)`;
  return e.visits ? (e.score >= 0 ? "+" : "") + e.score.toFixed(2) : "";
}

// ================================================================== editor
const Editor = {
  players: 2, deck: 36, trump: "H", faceUp: null,
  hands: [[], []], hidden: [0, 0], table: [], out: [], place: "h1",
  timer: null, valid: null,

  init() {
    for (const s of "SHDC") {
      const b = el("button", s === "H" || s === "D" ? "red" : "", SUIT_SYMBOL[s]);
      b.type = "button"; b.dataset.suit = s; b.title = "trump " + s;
      b.addEventListener("click", () => { this.trump = s; if (this.faceUp && this.faceUp.slice(-1) !== s) this.faceUp = null; this.changed(); });
      $("ed-trump").appendChild(b);
    }
    rulesBox($("ed-rules"), () => this.changed());
    $("ed-players").addEventListener("change", () => this.setPlayers(parseInt($("ed-players").value, 10)));
    $("ed-deck").addEventListener("change", () => { this.deck = parseInt($("ed-deck").value, 10); this.dropOffDeck(); this.changed(); });
    for (const id of ["ed-take", "ed-pile", "ed-out-rest", "ed-attacker", "ed-defender", "ed-me", "ed-limit"]) {
      $(id).addEventListener("change", () => this.changed());
    }
    $("ed-use").addEventListener("click", async () => {
      if (!this.valid) return;
      showTab("analysis");
      await Analysis.load(this.valid);
    });
    $("ed-clear").addEventListener("click", () => {
      this.hands = this.hands.map(() => []); this.hidden = this.hidden.map(() => 0);
      this.table = []; this.out = []; this.faceUp = null; $("ed-pile").value = 0; this.changed();
    });
    this.setPlayers(2);
    this.touched = false;
  },

  ranks() {
    return { 24: "9TJQKA", 36: "6789TJQKA", 52: "23456789TJQKA" }[this.deck];
  },

  dropOffDeck() {
    const ok = (c) => this.ranks().includes(c[0]);
    this.hands = this.hands.map(h => h.filter(ok));
    this.table = this.table.filter(p => ok(p.a)).map(p => ({ a: p.a, c: p.c && ok(p.c) ? p.c : null }));
    this.out = this.out.filter(ok);
    if (this.faceUp && !ok(this.faceUp)) this.faceUp = null;
  },

  setPlayers(n) {
    this.players = n;
    while (this.hands.length < n) { this.hands.push([]); this.hidden.push(0); }
    this.hands.length = n; this.hidden.length = n;
    $("ed-players").value = String(n);
    for (const [id, extra] of [["ed-attacker", null], ["ed-defender", "next seat (auto)"], ["ed-me", "the seat to move"]]) {
      const sel = $(id), old = sel.value;
      sel.textContent = "";
      if (extra) sel.appendChild(new Option(extra, ""));
      for (let s = 1; s <= n; s++) sel.appendChild(new Option(`seat ${s}`, String(s)));
      sel.value = [...sel.options].some(o => o.value === old) ? old : sel.options[0].value;
    }
    if (this.place[0] === "h" && parseInt(this.place.slice(1), 10) > n) this.place = "h1";
    this.changed();
  },

  where(card) {
    for (let s = 0; s < this.hands.length; s++) if (this.hands[s].includes(card)) return "h" + (s + 1);
    for (const p of this.table) { if (p.a === card) return "ta"; if (p.c === card) return "tc"; }
    if (this.out.includes(card)) return "out";
    if (this.faceUp === card) return "pile";
    return null;
  },

  remove(card) {
    this.hands = this.hands.map(h => h.filter(c => c !== card));
    const t = [];
    for (const p of this.table) {
      if (p.a === card) continue;  // its cover goes back with it
      t.push({ a: p.a, c: p.c === card ? null : p.c });
    }
    this.table = t;
    this.out = this.out.filter(c => c !== card);
    if (this.faceUp === card) this.faceUp = null;
  },

  clickCard(card) {
    this.touched = true;
    const here = this.where(card);
    if (here === this.place) { this.remove(card); this.changed(); return; }
    this.remove(card);
    const p = this.place;
    if (p[0] === "h") this.hands[parseInt(p.slice(1), 10) - 1].push(card);
    else if (p === "ta") this.table.push({ a: card, c: null });
    else if (p === "tc") {
      const open = this.table.find(x => !x.c);
      if (!open) { this.note("cover: put an attack card on the table first; a cover goes on the first open attack card"); return; }
      open.c = card;
    } else if (p === "out") this.out.push(card);
    else if (p === "pile") {
      this.faceUp = card; this.trump = card.slice(-1);
      if (!(parseInt($("ed-pile").value, 10) > 0)) $("ed-pile").value = 1;
    }
    if (p === "out") $("ed-out-rest").checked = false;
    this.changed();
  },

  note(msg) { $("ed-general-error").textContent = msg; },

  // the position as the notation's JSON: the server checks it all
  json() {
    const pos = { trump: this.faceUp || this.trump };
    pos.hands = this.hands.map((h, s) => this.hidden[s] ? { known: h, unknown: this.hidden[s] } : (h.length ? h : []));
    if (this.table.length) pos.table = this.table.map(p => [p.a, p.c]);
    pos.attacker = parseInt($("ed-attacker").value, 10);
    if ($("ed-defender").value) pos.defender = parseInt($("ed-defender").value, 10);
    if ($("ed-take").checked) pos.take = true;
    const pile = parseInt($("ed-pile").value, 10) || 0;
    if (pile) pos.pile = pile;
    if (!$("ed-out-rest").checked || this.out.length) pos.out = this.out;
    if ($("ed-me").value) pos.me = parseInt($("ed-me").value, 10);
    const lim = parseInt($("ed-limit").value, 10);
    if (lim) pos.limit = lim;
    const rules = rulesOf($("ed-rules"));
    if (this.deck !== 36) rules.push(`deck=${this.deck}`);
    if (rules.length) pos.rules = rules;
    return pos;
  },

  // fill the editor from a position (its JSON form, or text the server reads)
  async fromPosition(src) {
    let j = src;
    if (typeof src === "string") {
      const r = await api("/api/show", { position: src });
      if (!r.ok) return;
      j = r.data.json;
    }
    const rules = j.rules || [];
    const deck = rules.find(r => r.startsWith("deck="));
    this.deck = deck ? parseInt(deck.slice(5), 10) : 36;
    $("ed-deck").value = String(this.deck);
    for (const c of $("ed-rules").querySelectorAll("input")) c.checked = rules.includes(c.value);
    const n = j.hands.length;
    this.hands = j.hands.map(h => Array.isArray(h) ? h.slice() : (h.known || []).slice());
    this.hidden = j.hands.map(h => Array.isArray(h) ? 0 : (h.unknown || 0));
    this.table = (j.table || []).map(p => Array.isArray(p) ? { a: p[0], c: p[1] } : { a: p.split("/")[0], c: p.split("/")[1] || null });
    this.out = (j.out || []).slice();
    $("ed-out-rest").checked = !j.out;
    const pile = Array.isArray(j.pile) ? j.pile.length : (j.pile || 0);
    $("ed-pile").value = pile;
    this.trump = j.trump.slice(-1);
    this.faceUp = j.trump.length > 1 ? j.trump : null;
    $("ed-take").checked = Boolean(j.take);
    $("ed-limit").value = j.limit || "";
    this.setPlayers(n);
    $("ed-attacker").value = String(j.attacker || 1);
    $("ed-defender").value = j.defender ? String(j.defender) : "";
    $("ed-me").value = j.me ? String(j.me) : "";
    this.changed();
    this.touched = false;  // filled from the board: the next position shown replaces it
  },

  refresh() { this.draw(); },

  changed() {
    this.touched = true;
    this.draw();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), 150);
  },

  async check() {
    const r = await api("/api/board", { position: this.json() });
    for (const e of document.querySelectorAll("#page-editor .field-error")) e.textContent = "";
    if (!r.ok) {
      this.valid = null;
      $("ed-use").disabled = true;
      const field = (r.data.field || "position").toLowerCase();
      const spot = document.querySelector(`#page-editor .field-error[data-field="${field}"]`) || $("ed-general-error");
      spot.textContent = r.data.error;
      $("ed-status").textContent = "Not a position yet:";
      $("ed-status").className = "status-line value-loss";
      $("ed-text").textContent = "";
      $("ed-preview").textContent = "";
      return;
    }
    this.valid = r.data.position;
    $("ed-use").disabled = false;
    const empty = r.data.board.seats.every(s => !s.size);
    $("ed-status").textContent = empty ? "No cards in any hand yet: pick a place above and click cards."
      : "\u2713 A position: " + r.data.board.status;
    $("ed-status").className = "status-line " + (empty ? "muted" : "value-win");
    $("ed-text").textContent = r.data.position;
    if (!this.preview) this.preview = new DurakBoard($("ed-preview"), {});
    this.preview.set(r.data.board, { interactive: false, bottomSeat: 1 });
  },

  draw() {
    for (const b of $("ed-trump").children) b.classList.toggle("on", b.dataset.suit === this.trump);
    // place buttons
    const places = $("ed-places");
    places.textContent = "";
    const list = [];
    for (let s = 1; s <= this.players; s++) list.push(["h" + s, `Seat ${s}'s hand`]);
    list.push(["ta", "Table: attack"], ["tc", "Table: cover"], ["pile", "Face-up trump (pile)"], ["out", "Discards"]);
    for (const [id, label] of list) {
      const b = el("button", this.place === id ? "on" : "", label);
      b.type = "button"; b.dataset.place = id;
      b.addEventListener("click", () => { this.place = id; this.draw(); });
      places.appendChild(b);
    }
    // the deck
    const grid = $("ed-grid");
    grid.textContent = "";
    const ranks = this.ranks();
    grid.style.gridTemplateColumns = `repeat(${ranks.length}, minmax(0, 52px))`;
    const tag = { ta: "table", tc: "cover", out: "out", pile: "face-up" };
    for (const s of "SHDC") {
      for (const r of ranks) {
        const c = r + s;
        const e = cardEl(c, { trump: s === this.trump, clickable: true });
        const w = this.where(c);
        if (w) {
          e.classList.add("placed");
          e.appendChild(el("span", "where", w[0] === "h" ? "seat " + w.slice(1) : tag[w]));
        }
        e.addEventListener("click", () => this.clickCard(c));
        grid.appendChild(e);
      }
    }
    // the seats
    const seats = $("ed-seats");
    seats.textContent = "";
    for (let s = 0; s < this.players; s++) {
      const row = el("div", "ed-seat");
      row.appendChild(el("b", null, `Seat ${s + 1}`));
      const cards = el("span", "mini-cards");
      for (const c of this.hands[s]) cards.appendChild(cardEl(c, { trump: c.slice(-1) === this.trump }));
      if (!this.hands[s].length && !this.hidden[s]) cards.appendChild(el("span", "muted small", "no cards"));
      row.appendChild(cards);
      const l = el("label", "small", "+ hidden ");
      const inp = el("input"); inp.type = "number"; inp.min = 0; inp.max = 40; inp.value = this.hidden[s];
      inp.dataset.seat = s + 1;
      inp.addEventListener("change", () => { this.hidden[s] = Math.max(0, parseInt(inp.value, 10) || 0); this.changed(); });
      l.appendChild(inp);
      row.appendChild(l);
      seats.appendChild(row);
    }
    const table = $("ed-table");
    table.textContent = "";
    for (const p of this.table) {
      table.appendChild(cardEl(p.a, { trump: p.a.slice(-1) === this.trump }));
      if (p.c) { table.appendChild(document.createTextNode("/")); table.appendChild(cardEl(p.c, { trump: p.c.slice(-1) === this.trump })); }
      table.appendChild(document.createTextNode(" "));
    }
    if (!this.table.length) table.appendChild(el("span", "muted small", "empty"));
    const fu = $("ed-faceup");
    fu.textContent = "";
    if (this.faceUp) fu.appendChild(cardEl(this.faceUp, { trump: true }));
    $("ed-pile-note").textContent = this.faceUp ? "the last card of the pile, face up" :
      "pick the face-up trump when the pile has cards";
    const out = $("ed-out");
    out.textContent = "";
    for (const c of this.out) out.appendChild(cardEl(c, { trump: c.slice(-1) === this.trump }));
  },
};

// ================================================================== play
const Play = {
  id: null, game: null, timer: null, hintJob: null,

  init() {
    this.board = new DurakBoard($("play-board"), { onMove: (m) => this.move(m) });
    rulesBox($("pl-rules"));
    $("pl-start").addEventListener("click", () => this.create());
    $("play-again").addEventListener("click", () => this.newPanel());
    $("play-undo").addEventListener("click", () => this.undo());
    $("play-hint").addEventListener("click", () => this.hint());
    $("play-analyse").addEventListener("click", async () => {
      if (!this.game || !this.game.snapshot.position) return;
      showTab("analysis");
      await Analysis.load(this.game.snapshot.position);
    });
    $("play-hint-cancel").addEventListener("click", () => { if (this.hintJob) api(`/api/jobs/${this.hintJob}`, undefined, "DELETE"); });
    $("play-review").addEventListener("click", () => this.review());
    ChanceSetting.bind($("play-chances"), (on) => { if (on) this.hint(); else this.board.setChances(null); });
  },

  async shown() {
    if (this.id) return;
    const q = new URLSearchParams(window.location.search);
    const saved = q.get("game") || window.localStorage.getItem("durak.game");
    if (saved && await this.open(saved, true)) return;
    this.newPanel();
  },

  async newPanel() {
    $("play-new-panel").hidden = false;
    const r = await api("/api/games");
    const box = $("pl-recent");
    box.textContent = "";
    if (r.ok && r.data.games.length) {
      box.className = "recent";
      box.appendChild(el("div", "panel-title", "Your games"));
      for (const g of r.data.games.slice(0, 8)) {
        const a = el("a", null, `${g.players} players, ${g.engine}${g.over ? " (over)" : ""}`);
        a.href = `/?game=${g.id}`;
        a.addEventListener("click", (e) => { e.preventDefault(); this.open(g.id); });
        box.appendChild(a);
      }
    }
  },

  async create() {
    $("pl-error").textContent = "";
    const body = { players: parseInt($("pl-players").value, 10), engine: $("pl-engine").value,
                   rules: rulesOf($("pl-rules")) };
    const seed = $("pl-seed").value;
    if (seed !== "") body.seed = parseInt(seed, 10);
    $("pl-start").disabled = true;
    const r = await api("/api/games", body);
    $("pl-start").disabled = false;
    if (!r.ok) { $("pl-error").textContent = r.data.error; return; }
    this.show(r.data);
  },

  async open(id, quiet) {
    const r = await api(`/api/games/${encodeURIComponent(id)}`);
    if (!r.ok) {
      if (!quiet) $("pl-error").textContent = r.data.error;
      window.localStorage.removeItem("durak.game");
      return false;
    }
    this.show(r.data);
    return true;
  },

  show(g) {
    this.id = g.id;
    this.game = g;
    window.localStorage.setItem("durak.game", g.id);
    if (document.getElementById("page-play").classList.contains("active")) setUrl({ game: g.id });
    $("play-new-panel").hidden = true;
    $("play-game-panel").hidden = false;
    $("play-actions").hidden = false;
    const mine = !g.thinking && !g.over && g.board.to_move === g.me;
    this.board.set(g.board, { interactive: mine, bottomSeat: g.me });
    const st = $("play-status");
    st.textContent = g.board.status;
    st.className = "status-line" + (g.over ? (g.outcome.scores[g.me - 1] > 0 ? " value-win" :
      g.outcome.scores[g.me - 1] < 0 ? " value-loss" : " value-draw") : "");
    $("play-error").textContent = g.engine_error || "";
    $("play-hint").disabled = !mine;
    $("play-analyse").disabled = !g.snapshot.position;
    $("play-review").hidden = !g.over;
    $("play-review-page").hidden = !g.over;
    $("play-review-page").href = `/review?id=${encodeURIComponent(g.id)}`;
    $("play-undo").disabled = g.thinking || !g.snapshot.history.some(e => e.startsWith(`${g.me}:`));
    $("play-record").href = `/api/games/${g.id}/record`;
    $("play-record").setAttribute("download", `durak-game-${g.id}.txt`);
    $("play-info").textContent = `Seat ${g.me} is you; the engine (${g.strength}) plays the others.` +
      (g.snapshot.exact ? " Every card is known now: Analyse gives the exact values." : "");
    drawLog($("play-log"), g.log);
    clearTimeout(this.timer);
    if (g.thinking) this.timer = setTimeout(() => this.open(g.id, true), 300);
    else if (mine && ChanceSetting.on()) this.hint();
  },

  async move(m) {
    $("play-error").textContent = "";
    $("play-hint-result").textContent = "";
    const r = await api(`/api/games/${this.id}/play`, { move: m });
    if (!r.ok) { $("play-error").textContent = r.data.error; this.board.draw(); return; }
    this.show(r.data);
    boardInView($("play-dock"));
  },

  async undo() {
    $("play-hint-result").textContent = "";
    const r = await api(`/api/games/${this.id}/undo`, {});
    if (!r.ok) { $("play-error").textContent = r.data.error; return; }
    this.show(r.data);
  },

  // `durak review` of the finished game, the player's decisions
  async review() {
    $("play-hint-result").textContent = "";
    const rec = await fetch(`/api/games/${this.id}/record`);
    if (!rec.ok) { $("play-error").textContent = "the record could not be read"; return; }
    const job = await runJob({ task: "review", game: await rec.text(), seat: this.game.me }, {
      progress: $("play-progress"), fill: $("play-progress-fill"), text: $("play-progress-text"),
      cancel: $("play-hint-cancel"), start: $("play-review"), error: $("play-error"),
      setJob: (j) => { this.hintJob = j; },
    });
    if (!job) return;
    if (job.budget) $("play-hint-result").appendChild(el("div", "budget-note", "Budget ran out: " + job.budget));
    reviewAnswer($("play-hint-result"), job.answer, this.game.me);
  },

  // the hint: its table, and each move's win chance on the board -- the board it was
  // asked on: one asked before a move is not shown, and with the setting on the
  // position now is asked again
  async hint() {
    if (this.hinting) return;
    this.hinting = true;
    $("play-hint-result").textContent = "";
    const at = this.game.moves_played;
    let job = null;
    try {
      job = await runJob(null, {
        starter: () => api(`/api/games/${this.id}/hint`, {}),
        progress: $("play-progress"), fill: $("play-progress-fill"), text: $("play-progress-text"),
        cancel: $("play-hint-cancel"), start: $("play-hint"), error: $("play-error"),
        setJob: (j) => { this.hintJob = j; },
      });
    } finally { this.hinting = false; }
    const g = this.game;
    if (g.moves_played !== at) {
      if (ChanceSetting.on() && !g.thinking && !g.over && g.board.to_move === g.me) this.hint();
      return;
    }
    if (!job) return;
    const ans = job.answer, pick = (m) => this.move(m);
    if (job.budget) $("play-hint-result").appendChild(el("div", "budget-note", "Budget ran out: " + job.budget));
    $("play-hint-result").appendChild(hintAnswer(ans, pick));
    this.board.setChances(ans.chances);
  },
};

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
