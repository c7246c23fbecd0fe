// The board page's Play tab: a game against the engine, its board, hints and review
// (index.html; the game itself is the server's game session).
"use strict";

// ================================================================== play
const Play = {
  id: null, game: null, timer: null, hintJob: null,

  init() {
    this.board = new DurakBoard($("play-board"), { onMove: (m) => this.move(m) });
    // the same game on another device: its moves appear here within a second
    DurakLive.watch(() => (this.id && this.game && !this.game.thinking ? `/api/games/${encodeURIComponent(this.id)}/version` : null),
                    () => (this.game ? this.game.version : null), () => this.open(this.id, true));
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
      box.appendChild(el("div", "panel-title", gt("Your games")));
      for (const g of r.data.games.slice(0, 8)) {
        const a = el("a", null, (g.over ? gt("{n} players, {engine} (over)", { n: g.players, engine: strengthWord(g.engine) })
                                        : gt("{n} players, {engine}", { n: g.players, engine: strengthWord(g.engine) })));
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
    DurakLive.keepAwake(!g.over);
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
    $("play-dock").dataset.over = g.over ? "1" : "";
    fitDocks();
    $("play-review-page").hidden = !g.over;
    $("play-review-page").href = `/review?id=${encodeURIComponent(g.id)}`;
    $("play-undo").disabled = g.thinking || !g.snapshot.history.some(e => e.startsWith(`${g.me}:`));
    $("play-record").href = `/api/games/${g.id}/record`;
    $("play-record").setAttribute("download", `durak-game-${g.id}.txt`);
    $("play-info").textContent = gt("Seat {seat} is you; the engine ({strength}) plays the others.", { seat: g.me, strength: strengthWord(g.strength) }) +
      (g.snapshot.exact ? " " + gt("Every card is known now: Analyse gives the exact values.") : "");
    drawLog($("play-log"), g.log);
    clearTimeout(this.timer);
    if (g.thinking) this.timer = setTimeout(() => this.open(g.id, true), 300);
    else if (mine && ChanceSetting.on()) this.hint();
  },

  async move(m) {
    $("play-error").textContent = "";
    $("play-hint-result").textContent = "";
    const r = await api(`/api/games/${this.id}/play`, { move: m, version: this.game.version, entry_id: DurakLive.entryId() });
    if (r.status === 409 && r.data.game) { this.show(r.data.game); $("play-error").textContent = r.data.error; return; }
    if (!r.ok) { $("play-error").textContent = r.data.error; this.board.draw(); return; }
    this.show(r.data);
    boardInView($("play-dock"));
  },

  async undo() {
    $("play-hint-result").textContent = "";
    const r = await api(`/api/games/${this.id}/undo`, { version: this.game.version });
    if (r.status === 409 && r.data.game) { this.show(r.data.game); $("play-error").textContent = r.data.error; return; }
    if (!r.ok) { $("play-error").textContent = r.data.error; return; }
    this.show(r.data);
  },

  // `durak review` of the finished game, the player's decisions
  async review() {
    $("play-hint-result").textContent = "";
    const rec = await fetch(`/api/games/${this.id}/record`);
    if (!rec.ok) { $("play-error").textContent = gt("the record could not be read"); return; }
    const job = await runJob({ task: "review", game: await rec.text(), seat: this.game.me }, {
      progress: $("play-progress"), fill: $("play-progress-fill"), text: $("play-progress-text"),
      cancel: $("play-hint-cancel"), start: $("play-review"), error: $("play-error"),
      setJob: (j) => { this.hintJob = j; },
    });
    if (!job) return;
    if (job.budget) $("play-hint-result").appendChild(el("div", "budget-note", gt("Budget ran out: {what}", { what: job.budget })));
    reviewAnswer($("play-hint-result"), job.answer, this.game.me);
  },

  // the hint: its table, and each move's chance on the board -- the board it was
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
    if (job.budget) $("play-hint-result").appendChild(el("div", "budget-note", gt("Budget ran out: {what}", { what: job.budget })));
    $("play-hint-result").appendChild(hintAnswer(ans, pick));
    this.board.setChances(ans.chances);
  },
};
