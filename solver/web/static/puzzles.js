// The puzzles page: the collections, a puzzle played by clicks against the
// solver's best defence (solver/web/puzzles.py over solver/puzzles/train.py),
// the refutation of a wrong move, and a solved/failed tally kept in this browser.
// The tally keeps each puzzle's first try, as `durak puzzle train` counts it: a
// wrong move (or the solution shown) fails the puzzle whatever follows -- Start
// again, or opening it anew, is practice and changes nothing.  The first try of
// each opening (Start again aside) is sent to the rating (puzzleplayer.js).
"use strict";

const TALLY_KEY = "durak.puzzles";

const Tally = {
  get() {
    try { return JSON.parse(window.localStorage.getItem(TALLY_KEY) || "{}"); } catch (e) { return {}; }
  },
  // the puzzle's result, set by its first try only; returns the result kept
  record(id, result) {
    const t = this.get();
    if (!t[id]) {
      t[id] = result;
      window.localStorage.setItem(TALLY_KEY, JSON.stringify(t));
    }
    return t[id];
  },
  clear() { window.localStorage.removeItem(TALLY_KEY); },
};

const Puzzles = {
  list: [], order: [], p: null, line: [], clean: true, done: false, busy: false, sent: false,

  // the first try's result to the rating, once per opening
  rate(solved) {
    if (this.sent) return;
    this.sent = true;
    PuzzlePlayer.result(this.p.id, solved);
  },

  async init() {
    this.board = new DurakBoard($("pz-board"), { onMove: (m) => this.move(m) });
    $("pz-restart").addEventListener("click", () => this.open(this.p.id, true));
    $("pz-solution").addEventListener("click", () => this.solution());
    $("pz-clear").addEventListener("click", () => {
      if (window.confirm(gt("Forget every puzzle's result in this browser?"))) { Tally.clear(); this.drawList(); }
    });
    $("pz-next").addEventListener("click", () => {
      // a puzzle the player was served: the next one served (the streak goes on);
      // one opened from the list: the list's next
      if (PuzzlePlayer.served === this.p.id && !(PuzzlePlayer.mode === "daily")) { PuzzlePlayer.serve(); return; }
      const i = this.order.indexOf(this.p.id);
      this.open(this.order[(i + 1) % this.order.length]);
    });
    await PuzzlePlayer.init((id) => this.open(id));
    const r = await api("/api/puzzles");
    if (!r.ok) { $("pz-list").textContent = r.data.error; return; }
    this.list = r.data.collections;
    this.order = this.list.flatMap(c => c.puzzles.map(p => p.id));
  },

  drawList() {
    const box = $("pz-list"), tally = Tally.get();
    box.textContent = "";
    for (const c of this.list) {
      const d = el("details", "coll");
      d.open = Boolean(this.p && c.puzzles.some(p => p.id === this.p.id));
      const solved = c.puzzles.filter(p => tally[p.id] === "solved").length;
      d.appendChild(el("summary", null, ngt("{title} ({solved} of {n} solved)", "{title} ({solved} of {n} solved)", c.puzzles.length, { title: c.title, solved })));
      const ul = el("ul");
      for (const p of c.puzzles) {
        const li = el("li", this.p && p.id === this.p.id ? "current" : "");
        const mark = tally[p.id] === "solved" ? "\u2713" : tally[p.id] === "failed" ? "\u2717" : "\u00b7";
        li.appendChild(el("span", tally[p.id] ? "mark-" + tally[p.id] : "muted", mark));
        // the title may give the idea away: it is shown once the puzzle was answered
        const a = el("a", null, tally[p.id] ? `${p.id}: ${p.title}` : `${p.id}: ${p.task}`);
        a.href = `/puzzles?id=${encodeURIComponent(p.id)}`;
        a.addEventListener("click", (e) => { e.preventDefault(); this.open(p.id); });
        li.appendChild(a);
        if (p.plies) li.appendChild(el("span", "muted small", ngt("{n} ply", "{n} plies", p.plies)));
        ul.appendChild(li);
      }
      d.appendChild(ul);
      box.appendChild(d);
    }
    const all = Object.values(tally);
    $("pz-tally").textContent = ngt("Solved {solved} · failed {failed} of {n} puzzle", "Solved {solved} · failed {failed} of {n} puzzles",
      this.order.length, { solved: all.filter(x => x === "solved").length, failed: all.filter(x => x === "failed").length });
  },

  async open(id, practice) {
    const r = await api(`/api/puzzles/${encodeURIComponent(id)}`);
    if (!r.ok) { $("pz-list").prepend(el("div", "field-error", r.data.error)); this.drawList(); return; }
    this.p = r.data;
    this.line = [];
    this.clean = true;
    this.done = false;
    this.sent = Boolean(practice);
    setUrl({ id });
    $("pz-head").hidden = false;
    $("pz-panel").hidden = false;
    this.title(Boolean(Tally.get()[id]));
    $("pz-task").textContent = r.data.task_text + ". " + gt("Click your move.");
    $("pz-verdict").textContent = "";
    $("pz-error").textContent = "";
    this.board.set(r.data.board, { interactive: true, bottomSeat: r.data.hero });
    this.drawList();
  },

  // the puzzle's title once it was answered (solved, missed or its solution shown)
  title(shown) {
    $("pz-title").textContent = shown ? `${this.p.id}: ${this.p.title}` : this.p.id;
  },

  say(cls, text) {
    const d = el("div", cls, text);
    $("pz-verdict").textContent = "";
    $("pz-verdict").appendChild(d);
    return d;
  },

  async move(m) {
    if (this.busy || this.done) return;
    this.busy = true;
    $("pz-error").textContent = "";
    const r = await api(`/api/puzzles/${encodeURIComponent(this.p.id)}/move`, { line: this.line, move: m });
    this.busy = false;
    if (!r.ok) { $("pz-error").textContent = r.data.error; this.board.draw(); return; }
    const a = r.data;
    if (!a.ok) {  // failed, whatever follows (a retry is practice)
      Tally.record(this.p.id, "failed");
      this.rate(false);
      this.clean = false;
      const d = this.say("verdict-bad", (a.distance !== null && a.distance !== undefined
        ? ngt("\u2717 Wrong: after {move} {words} against best play ({n} ply).", "\u2717 Wrong: after {move} {words} against best play ({n} plies).",
              a.distance, { move: prettyMove(a.move), words: a.words })
        : gt("\u2717 Wrong: after {move} {words} against best play.", { move: prettyMove(a.move), words: a.words })));
      d.id = "pz-wrong";
      if (a.refutation.length) {
        const end = a.refutation_end ? ` \u2014 ${a.refutation_end.words || a.refutation_end.text}` : "";
        const ref = el("div", "refutation", gt("Refutation: {line}", { line: a.refutation.map(prettyMove).join("  ") }) + end);
        ref.id = "pz-refutation";
        $("pz-verdict").appendChild(ref);
      }
      $("pz-verdict").appendChild(el("div", "muted small", gt("Try again: the position is as it was. The puzzle counts as failed; solving it now is practice.")));
      this.title(true);
      this.board.draw();
      this.drawList();
      return;
    }
    this.line = a.line;
    const said = this.say("verdict-ok", `\u2713 ${prettyMove(a.move)}: ${a.good && a.good.length > 1 ? gt("good") : gt("correct")}.`);
    if (a.replies.length) said.appendChild(el("div", "muted", gt("The solver answers: {line}", { line: a.replies.map(prettyMove).join("  ") })));
    this.board.set(a.board, { interactive: !a.over, bottomSeat: this.p.hero });
    if (a.over) {
      this.done = true;
      const text = a.outcome ? gt("Game over: {how}", { how: a.outcome.words || a.outcome.text }) + ". " : "";
      const kept = this.clean ? Tally.record(this.p.id, "solved") : "failed";
      if (this.clean) this.rate(true);
      if (this.clean && kept === "solved") {
        const s = el("div", "verdict verdict-ok", text + gt("Solved!"));
        s.id = "pz-solved";
        $("pz-verdict").appendChild(s);
      } else {
        const f = el("div", "verdict", text + (this.clean
          ? gt("Solved on a retry: the tally keeps the first try, failed.")
          : gt("Finished, with a mistake on the way: counted failed.")));
        f.id = "pz-finished";
        $("pz-verdict").appendChild(f);
      }
      this.title(true);
      this.drawList();
    }
  },

  async solution() {
    const r = await api(`/api/puzzles/${encodeURIComponent(this.p.id)}?solution=1`);
    if (!r.ok) { $("pz-error").textContent = r.data.error; return; }
    if (!this.done) { Tally.record(this.p.id, "failed"); this.rate(false); }
    this.clean = false;
    const d = this.say("", gt("Solution: {moves}", { moves: r.data.solution.map(prettyMove).join(gt(" or ")) }));
    if (r.data.pv.length) d.appendChild(el("div", "muted", gt("Line: {line}", { line: r.data.pv.map(prettyMove).join("  ") })));
    if (r.data.comment) d.appendChild(el("div", "muted small", prettyMove(r.data.comment)));
    this.title(true);
    this.drawList();
  },
};

async function start() {
  await Puzzles.init();
  const q = new URLSearchParams(window.location.search);
  const id = q.get("id");
  if (id) await Puzzles.open(id);
  else if (Puzzles.order.length) await PuzzlePlayer.serve();  // by rating, a due one first
  else Puzzles.drawList();
  document.body.dataset.ready = "1";
}
start();
