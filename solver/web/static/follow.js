// The follow page: a game at a real table, entered by clicks as it happens.
// The server's game session judges every entry and says what to ask next
// (solver/web/follow.py over solver/games/session.py); this script only draws
// that and turns clicks into entry texts (2:6D, 2:6S/7H, 3:+8C, 2:take, draw 7H KD).
"use strict";

const SUITS = "SHDC", RANKS = "6789TJQKA";
const MAX_FILE = 1000000;  // a record file is read in the browser and sent as text

// where a card is, in words short enough for a card's tag on a phone: the server's places
// (you, seat N, table, out: the discards, face-up)
const PLACE_WORDS = { yours: gt("yours"), out: pgt("card place", "out"), table: gt("table"),
                      trump: pgt("card place", "trump") };
function placeWord(place) {
  const seat = /^seat (\d+)$/.exec(place);
  return seat ? pgt("card place", "seat {seat}").replace("{seat}", seat[1]) : PLACE_WORDS[place] || place;
}

function gridCard(card, place, opts = {}) {
  const e = cardEl(card, { trump: opts.trump, clickable: opts.clickable });
  if (place) {
    e.classList.add("placed");
    e.appendChild(el("span", "where", placeWord(place)));
  }
  if (opts.picked) e.classList.add("picked");
  if (opts.clickable) {
    e.classList.add("playable");
    e.addEventListener("click", opts.onClick);
  } else {
    e.disabled = true;
  }
  return e;
}

// ================================================================== set-up
const Setup = {
  step: "trump", trump: null, suit: null, hand: [],

  init() {
    rulesBox($("fs-rules"));
    $("fs-players").addEventListener("change", () => this.seats());
    for (const b of $("fs-steps").querySelectorAll("button")) {
      b.addEventListener("click", () => { this.step = b.dataset.step; this.draw(); });
    }
    for (const s of SUITS) {
      const b = el("button", s === "H" || s === "D" ? "red" : "", SUIT_SYMBOL[s]);
      b.type = "button"; b.dataset.suit = s; b.title = gt("trump suit, no card face up");
      b.addEventListener("click", () => { this.suit = this.suit === s ? null : s; this.trump = null; this.draw(); });
      $("fs-suits").appendChild(b);
    }
    $("fs-start").addEventListener("click", () => this.start());
    $("fs-open").addEventListener("click", () => this.openRecord($("fs-record").value));
    $("fs-file").addEventListener("change", async (e) => {
      const f = e.target.files[0];
      e.target.value = "";
      if (!f) return;
      if (f.size > MAX_FILE) { $("fs-record-error").textContent = gt("record: the file has {size} bytes; at most {most}", { size: numberText(f.size), most: numberText(MAX_FILE) }); return; }
      const text = await f.text();
      $("fs-record").value = text;
      this.openRecord(text);
    });
    this.seats();
  },

  seats() {
    const n = parseInt($("fs-players").value, 10);
    for (const [id, extra] of [["fs-seat", null], ["fs-attacker", null]]) {
      const sel = $(id), old = sel.value;
      sel.textContent = "";
      if (extra) sel.appendChild(new Option(extra, ""));
      for (let s = 1; s <= n; s++) sel.appendChild(new Option(id === "fs-seat" ? String(s) : gt("seat {seat}", { seat: s }), String(s)));
      sel.value = [...sel.options].some(o => o.value === old) ? old : sel.options[0].value;
    }
    this.draw();
  },

  async show() {
    $("setup").hidden = false;
    $("game").hidden = true;
    this.draw();
    const r = await api("/api/follow");
    const box = $("fs-recent");
    box.textContent = "";
    if (r.ok && r.data.games.length) {
      $("fs-recent-panel").hidden = false;
      for (const g of r.data.games.slice(0, 8)) {
        const a = el("a", null, [ngt("{n} player", "{n} players", g.players), gt("seat {seat}", { seat: g.me }),
                                      ngt("{n} move", "{n} moves", g.moves)].join(", ")
                                     + (g.over ? " " + gt("(over)") : ""));
        a.href = `/follow?id=${encodeURIComponent(g.id)}`;
        box.appendChild(a);
      }
    }
  },

  click(card) {
    if (this.step === "trump") {
      this.hand = this.hand.filter(c => c !== card);
      this.trump = this.trump === card ? null : card;
      this.suit = null;
      if (this.trump && this.hand.length < 6) this.step = "hand";
    } else if (this.hand.includes(card)) {
      this.hand = this.hand.filter(c => c !== card);
    } else if (this.hand.length < 6) {
      if (this.trump === card) this.trump = null;
      this.hand.push(card);
      if (this.hand.length === 6 && !this.trump && !this.suit) this.step = "trump";
    }
    this.draw();
  },

  draw() {
    for (const b of $("fs-steps").querySelectorAll("button")) b.classList.toggle("on", b.dataset.step === this.step);
    for (const b of $("fs-suits").querySelectorAll("button")) b.classList.toggle("on", b.dataset.suit === this.suit);
    const trumpSuit = this.trump ? this.trump.slice(-1) : this.suit;
    $("fs-prompt").textContent = this.step === "trump"
      ? gt("Click the face-up trump (the card lying under the pile)")
      : gt("Click your six cards ({n} of 6)", { n: this.hand.length });
    const grid = $("fs-grid");
    grid.textContent = "";
    for (const s of SUITS) {
      for (const r of RANKS) {
        const c = r + s;
        const place = c === this.trump ? "trump" : this.hand.includes(c) ? "yours" : null;
        const e = gridCard(c, place, { trump: s === trumpSuit, clickable: true, picked: Boolean(place),
                                       onClick: () => this.click(c) });
        grid.appendChild(e);
      }
    }
    const t = $("fs-trump");
    t.textContent = "";
    if (this.trump) t.appendChild(cardEl(this.trump, { trump: true }));
    else if (this.suit) t.appendChild(el("span", "", SUIT_SYMBOL[this.suit]));
    else t.appendChild(el("span", "muted small", gt("not yet")));
    const h = $("fs-hand");
    h.textContent = "";
    for (const c of this.hand) h.appendChild(cardEl(c, { trump: c.slice(-1) === trumpSuit }));
    if (!this.hand.length) h.appendChild(el("span", "muted small", gt("none yet")));
    $("fs-start").disabled = !(this.hand.length === 6 && (this.trump || this.suit));
  },

  async start() {
    $("fs-error").textContent = "";
    const body = { players: parseInt($("fs-players").value, 10), seat: parseInt($("fs-seat").value, 10),
                   rules: rulesOf($("fs-rules")), trump: this.trump || this.suit, deal: this.hand };
    body.attacker = parseInt($("fs-attacker").value, 10);
    const r = await api("/api/follow", body);
    if (!r.ok) { $("fs-error").textContent = r.data.error; return; }
    Follow.show(r.data);
  },

  async openRecord(text) {
    $("fs-record-error").textContent = "";
    if (!text.trim()) { $("fs-record-error").textContent = gt("record: paste a game record, or open a file"); return; }
    const r = await api("/api/follow", { record: text });
    if (!r.ok) { $("fs-record-error").textContent = r.data.error; return; }
    Follow.show(r.data);
  },
};

// ================================================================== the game
const Follow = {
  id: null, view: null, sel: [], job: null, busy: false,

  init() {
    this.board = new DurakBoard($("fw-board"), { onMove: (m) => this.enter(`${this.view.me}:${m}`) });
    // the same game on another device: its entries appear here within a second
    DurakLive.watch(() => (this.id && !this.busy && !this.outbox().all().length ? `/api/follow/${encodeURIComponent(this.id)}/version` : null),
                    () => (this.view ? this.view.version : null), () => this.open(this.id));
    $("fw-undo").addEventListener("click", () => this.undo());
    $("fw-hint").addEventListener("click", () => this.hint());
    $("fw-hint-cancel").addEventListener("click", () => { if (this.job) api(`/api/jobs/${this.job}`, undefined, "DELETE"); });
    ChanceSetting.bind($("fw-chances"), (on) => { if (on && this.view.ask.kind === "mine") this.hint(); else if (!on) this.board.setChances(null); });
    $("fw-new").addEventListener("click", () => {
      window.localStorage.removeItem("durak.follow");
      setUrl({});
      this.id = null;
      Setup.show();
    });
  },

  async open(id) {
    const r = await api(`/api/follow/${encodeURIComponent(id)}`);
    if (!r.ok) {
      if (r.status === 404) window.localStorage.removeItem("durak.follow");
      return false;
    }
    this.show(r.data);
    if (this.outbox().all().length) this.flush();  // kept from before a reload or a lost connection
    return true;
  },

  // the entries made here and not yet answered, kept in the browser's storage
  outbox() { return DurakLive.outbox(`durak.follow.outbox.${this.id}`); },

  show(v, error) {
    this.id = v.id;
    this.view = v;
    DurakLive.keepAwake(!v.over);
    this.sel = [];
    window.localStorage.setItem("durak.follow", v.id);
    setUrl({ id: v.id });
    $("setup").hidden = true;
    $("game").hidden = false;
    const a = v.ask;
    this.board.set(v.board, { interactive: a.kind === "mine", bottomSeat: v.me });
    $("fw-dock").dataset.over = a.kind === "over" ? "1" : "";
    fitDocks();
    $("fw-error").textContent = error || "";
    $("fw-note").textContent = v.note || "";
    $("fw-hint").disabled = a.kind !== "mine";
    $("fw-undo").disabled = !v.entries.length && !v.held;
    $("fw-record").href = `/api/follow/${v.id}/record`;
    $("fw-record").setAttribute("download", `durak-follow-${v.id}.txt`);
    $("fw-review").href = `/review?id=${encodeURIComponent(v.id)}`;
    $("fw-info").textContent = (v.snapshot.rules.length
      ? gt("{n} players; rules: {rules}. You are seat {seat}.", { n: v.snapshot.players, rules: v.snapshot.rules.map(ruleWord).join(", "), seat: v.me })
      : gt("{n} players. You are seat {seat}.", { n: v.snapshot.players, seat: v.me })) +
      (v.exact ? " " + gt("Every card is placed now: the hint is the exact analysis.") : "");
    const ent = $("fw-entries");
    ent.textContent = v.entries.length ? v.entries.map(prettyMove).join("  ") : gt("nothing yet");
    ent.scrollTop = ent.scrollHeight;
    drawLog($("fw-log"), v.log);
    this.drawEntry();
    if (a.kind === "mine" && ChanceSetting.on()) this.hint();
  },

  clickable() {
    const a = this.view.ask;
    if (a.kind === "other") return new Set(Object.keys(a.options));
    if (a.kind === "draw") return new Set(a.cards);
    return new Set();
  },

  drawEntry() {
    const v = this.view, a = v.ask;
    const p = $("fw-prompt");
    p.textContent = a.kind === "over" ? v.board.status : a.prompt;
    p.className = "prompt" + (a.kind === "mine" ? " mine" : "");
    // the buttons: the choices of the picked card(s), and take / passed
    const bar = $("fw-buttons");
    bar.textContent = "";
    const button = (label, entry, cls) => {
      const b = el("button", cls || "", label);
      b.type = "button";
      b.dataset.entry = entry;
      b.addEventListener("click", () => this.enter(entry));
      bar.appendChild(b);
    };
    if (a.kind === "other") {
      if (this.sel.length > 1) {
        button(gt("Seat {seat} leads {cards}", { seat: a.seat, cards: this.sel.map(prettyCard).join(" ") }), `${a.seat}:${this.sel.join(",")}`, "confirm");
      } else if (this.sel.length === 1) {
        for (const o of a.options[this.sel[0]] || []) button(o.label, o.entry, "confirm");
      }
      if (this.sel.length && a.lead) bar.appendChild(el("span", "muted small", gt("or click more cards of this rank")));
      for (const b of a.buttons) button(b.label, b.entry, b.kind);
      if (this.sel.length) {
        const c = el("button", "", gt("Clear"));
        c.type = "button";
        c.addEventListener("click", () => { this.sel = []; this.drawEntry(); });
        bar.appendChild(c);
      }
    } else if (a.kind === "draw") {
      bar.appendChild(el("span", "muted", gt("picked {picked} of {n}", { picked: this.sel.length, n: a.count })));
    } else if (a.kind === "over") {
      const l = el("a", "button primary", gt("Review this game"));
      l.href = `/review?id=${encodeURIComponent(v.id)}`;
      bar.appendChild(l);
      const here = el("button", "", gt("Review here"));
      here.type = "button";
      here.id = "fw-review-here";
      here.addEventListener("click", () => this.review(here));
      bar.appendChild(here);
    }
    // the grid: every card with its place; the ones that may be entered now are outlined
    const ok = this.clickable();
    const grid = $("fw-grid");
    grid.textContent = "";
    const where = { you: "yours", out: "out", table: "table", "face-up": "trump" };
    for (const row of v.grid) {
      for (const g of row) {
        const clickable = ok.has(g.card) && !this.busy;
        grid.appendChild(gridCard(g.card, g.place ? (where[g.place] || g.place) : null, {
          trump: g.card.slice(-1) === v.board.trump, clickable, picked: this.sel.includes(g.card),
          onClick: () => this.clickCard(g.card),
        }));
      }
    }
    $("fw-grid-title").textContent = a.kind === "draw" ? gt("Click the cards you drew")
      : a.kind === "other" ? gt("Click the card seat {seat} played (outlined: the cards it may hold)", { seat: a.seat })
      : gt("Where every card is, as you know it (no tag: not seen yet)");
  },

  clickCard(card) {
    const a = this.view.ask;
    if (a.kind === "draw") {
      this.sel = this.sel.includes(card) ? this.sel.filter(c => c !== card) : this.sel.concat([card]);
      if (this.sel.length === a.count) { this.enter(`draw ${this.sel.join(" ")}`); return; }
      this.drawEntry();
      return;
    }
    if (a.kind !== "other") return;
    const opts = a.options[card] || [];
    if (a.lead) {
      if (this.sel.includes(card)) this.sel = this.sel.filter(c => c !== card);
      else if (this.sel.length && this.sel[0][0] !== card[0]) this.sel = [card];
      else this.sel = this.sel.concat([card]);
      const more = Object.keys(a.options).some(c => c[0] === card[0] && c !== card);
      if (this.sel.length === 1 && this.sel[0] === card && opts.length === 1 && !more) {
        this.enter(opts[0].entry);
        return;
      }
      this.drawEntry();
      return;
    }
    if (opts.length === 1) { this.enter(opts[0].entry); return; }
    this.sel = [card];
    this.drawEntry();
  },

  // an entry is kept on this device (with the game's version it was made on and an id)
  // until the server has answered it: a lost connection sends it again once it is back,
  // and the id keeps it from being entered twice
  async enter(entry) {
    if (this.busy) return;
    $("fw-hint-result").textContent = "";
    $("fw-hint-error").textContent = "";
    this.outbox().put({ entry, version: this.view.version, entry_id: DurakLive.entryId() });
    await this.flush();
  },

  async flush() {
    if (this.flushing) return;
    this.flushing = this.busy = true;
    const box = this.outbox();
    try {
      for (const item of box.all()) {
        const r = await api(`/api/follow/${this.id}/enter`, item);
        if (r.status === 0) {  // no answer: kept, sent again when the server is back
          this.drawEntry();
          DurakLive.whenBack(() => this.flush());
          return;
        }
        box.drop(item.entry_id);
        if (r.status === 409 && r.data.game) {  // another device was first: its game, ours dropped
          box.clear();
          this.busy = false;
          this.show(r.data.game, r.data.error);
          return;
        }
        if (!r.ok) {
          box.clear();
          this.busy = false;
          this.sel = [];
          $("fw-error").textContent = r.data.error;
          this.board.draw();
          this.drawEntry();
          return;
        }
        this.busy = false;
        this.show(r.data);
        this.busy = true;
      }
    } finally {
      this.flushing = false;
      this.busy = box.all().length > 0;
    }
  },

  async undo() {
    $("fw-hint-result").textContent = "";
    const r = await api(`/api/follow/${this.id}/undo`, { version: this.view.version });
    if (r.status === 409 && r.data.game) { this.show(r.data.game, r.data.error); return; }
    if (!r.ok) { $("fw-error").textContent = r.data.error; return; }
    this.show(r.data);
  },

  // `durak review` of the finished game, your decisions: exact values apart from estimates
  async review(button) {
    $("fw-hint-result").textContent = "";
    const rec = await fetch(`/api/follow/${this.id}/record`);
    if (!rec.ok) { $("fw-hint-error").textContent = gt("the record could not be read"); return; }
    const job = await runJob({ task: "review", game: await rec.text(), seat: this.view.me }, {
      progress: $("fw-progress"), fill: $("fw-progress-fill"), text: $("fw-progress-text"),
      cancel: $("fw-hint-cancel"), start: button, error: $("fw-hint-error"), unit: "moves reviewed",
      setJob: (j) => { this.job = j; },
    });
    if (!job) return;
    if (job.budget) $("fw-hint-result").appendChild(el("div", "budget-note", gt("Budget ran out: {what}", { what: job.budget })));
    reviewAnswer($("fw-hint-result"), job.answer, this.view.me);
  },

  // the hint, and each move's chance on the board it was asked on (see app.js's)
  async hint() {
    if (this.hinting) return;
    this.hinting = true;
    $("fw-hint-result").textContent = "";
    const at = this.view.entries.length;
    let job = null;
    try {
      job = await runJob(null, {
        starter: () => api(`/api/follow/${this.id}/hint`, {}),
        progress: $("fw-progress"), fill: $("fw-progress-fill"), text: $("fw-progress-text"),
        cancel: $("fw-hint-cancel"), start: $("fw-hint"), error: $("fw-hint-error"),
        setJob: (j) => { this.job = j; },
      });
    } finally { this.hinting = false; }
    if (this.view.entries.length !== at) {
      if (ChanceSetting.on() && this.view.ask.kind === "mine") this.hint();
      return;
    }
    if (!job) return;
    const me = this.view.me, pick = (m) => { this.enter(`${me}:${m}`); boardInView($("fw-dock")); };
    const out = $("fw-hint-result");
    if (job.budget) out.appendChild(el("div", "budget-note", gt("Budget ran out: {what}", { what: job.budget })));
    out.appendChild(hintAnswer(job.answer, pick));
    out.appendChild(el("div", "muted small", gt("Click a move to enter it as yours.")));
    this.board.setChances(job.answer.chances);
  },
};

async function start() {
  Setup.init();
  Follow.init();
  const q = new URLSearchParams(window.location.search);
  const id = q.get("id") || (q.has("new") ? null : window.localStorage.getItem("durak.follow"));
  if (!(id && await Follow.open(id))) await Setup.show();
  document.body.dataset.ready = "1";
}
start();
