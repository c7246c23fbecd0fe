// The board page's editor tab: a position built card by card, sent to the analysis
// (index.html).
"use strict";

// ================================================================== editor
const Editor = {
  players: 2, deck: 36, trump: "H", faceUp: null,
  hands: [[], []], hidden: [0, 0], table: [], out: [], place: "h1",
  timer: null, valid: null,

  init() {
    for (const s of "SHDC") {
      const b = el("button", s === "H" || s === "D" ? "red" : "", SUIT_SYMBOL[s]);
      b.type = "button"; b.dataset.suit = s; b.title = gt("trump {suit}", { suit: SUIT_NAME[s] });
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
    for (const [id, extra] of [["ed-attacker", null], ["ed-defender", gt("next seat (auto)")], ["ed-me", gt("the seat to move")]]) {
      const sel = $(id), old = sel.value;
      sel.textContent = "";
      if (extra) sel.appendChild(new Option(extra, ""));
      for (let s = 1; s <= n; s++) sel.appendChild(new Option(gt("seat {seat}", { seat: s }), String(s)));
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
      if (!open) { this.note(gt("cover: put an attack card on the table first; a cover goes on the first open attack card")); return; }
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
      $("ed-status").textContent = gt("Not a position yet:");
      $("ed-status").className = "status-line value-loss";
      $("ed-text").textContent = "";
      $("ed-preview").textContent = "";
      return;
    }
    this.valid = r.data.position;
    $("ed-use").disabled = false;
    const empty = r.data.board.seats.every(s => !s.size);
    $("ed-status").textContent = empty ? gt("No cards in any hand yet: pick a place above and click cards.")
      : gt("\u2713 A position: {status}", { status: r.data.board.status });
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
    for (let s = 1; s <= this.players; s++) list.push(["h" + s, gt("Seat {seat}'s hand", { seat: s })]);
    list.push(["ta", gt("Table: attack")], ["tc", gt("Table: cover")], ["pile", gt("Face-up trump (pile)")], ["out", gt("Discards")]);
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
    // each place in a word short enough for a card's tag on a phone
    const tag = { ta: gt("table"), tc: pgt("card place", "cover"), out: pgt("card place", "out"),
                  pile: pgt("card place", "trump") };
    for (const s of "SHDC") {
      for (const r of ranks) {
        const c = r + s;
        const e = cardEl(c, { trump: s === this.trump, clickable: true });
        const w = this.where(c);
        if (w) {
          e.classList.add("placed");
          e.appendChild(el("span", "where", w[0] === "h" ? pgt("card place", "seat {seat}").replace("{seat}", w.slice(1)) : tag[w]));
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
      row.appendChild(el("b", null, gt("Seat {seat}", { seat: s + 1 })));
      const cards = el("span", "mini-cards");
      for (const c of this.hands[s]) cards.appendChild(cardEl(c, { trump: c.slice(-1) === this.trump }));
      if (!this.hands[s].length && !this.hidden[s]) cards.appendChild(el("span", "muted small", gt("no cards")));
      row.appendChild(cards);
      const l = el("label", "small", gt("+ hidden") + " ");
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
    if (!this.table.length) table.appendChild(el("span", "muted small", gt("empty")));
    const fu = $("ed-faceup");
    fu.textContent = "";
    if (this.faceUp) fu.appendChild(cardEl(this.faceUp, { trump: true }));
    $("ed-pile-note").textContent = this.faceUp ? gt("the last card of the pile, face up") :
      gt("pick the face-up trump when the pile has cards");
    const out = $("ed-out");
    out.textContent = "";
    for (const c of this.out) out.appendChild(cardEl(c, { trump: c.slice(-1) === this.trump }));
  },
};
