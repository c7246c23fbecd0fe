// The board component: draws one board view (solver/web/board.py's JSON) and
// reports clicks.  It knows no rule of the game: which cards may be clicked and
// what a click plays come from the view's `moves`, each with the hand cards it
// plays (`cards`) and, for a cover, the attack card it covers (`target`).
// In the spirit of lichess's chessground: state is passed in, nothing fetched.
(function () {
"use strict";

const SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const SUIT_NAME = { S: gt("spades"), H: gt("hearts"), D: gt("diamonds"), C: gt("clubs") };
// the rank letters players of the page's language write (Russian В Д К Т): i18n.js
const RANK_TEXT = { T: "10", J: pgt("card rank", "J"), Q: pgt("card rank", "Q"),
                    K: pgt("card rank", "K"), A: pgt("card rank", "A") };
// a seat's markers (solver/game/outcome.py), in words
const ROLE_WORDS = { attacker: gt("attacker"), defender: gt("defender"), out: gt("out"),
                     "to move": gt("to move") };

// a rule option's name on the board's badge, in words (the option itself is notation)
const RULE_WORDS = {
  transfer: gt("transfer"), transfer_by_trump_show: gt("transfer by showing a trump"),
  "throw_in=neighbours": gt("only neighbours throw in"), "first_bout_limit=5": gt("first bout at most 5"),
  trump_swap: gt("swap the trump six"), first_out_wins: gt("first out wins"), "teams=2v2": gt("teams 2 v 2"),
};
function ruleWord(name) {
  const deck = /^deck=(\d+)$/.exec(name);
  if (deck) return gt("deck of {n}", { n: deck[1] });
  return RULE_WORDS[name] || name;
}

function cardParts(card) {
  const rank = card.slice(0, -1), suit = card.slice(-1);
  return { rank: RANK_TEXT[rank] || rank, suit };
}

function prettyCard(card) {
  const p = cardParts(card);
  return p.rank + SUIT_SYMBOL[p.suit];
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

// One card face: rank and suit, red for hearts and diamonds, a star on trumps.
function cardEl(card, opts = {}) {
  const p = cardParts(card);
  const red = p.suit === "H" || p.suit === "D";
  const e = el("button", "card " + (red ? "red" : "black"));
  e.type = "button";
  e.dataset.card = card;
  const words = { rank: p.rank, suit: SUIT_NAME[p.suit] };
  e.setAttribute("aria-label", opts.trump ? gt("{rank} of {suit} (trump)", words) : gt("{rank} of {suit}", words));
  if (opts.trump) e.classList.add("trump");
  e.appendChild(el("span", "rank", p.rank));
  e.appendChild(el("span", "suit", SUIT_SYMBOL[p.suit]));
  if (opts.trump) e.appendChild(el("span", "trump-mark", "\u2605"));
  if (!opts.clickable) e.tabIndex = -1;
  return e;
}

// a chance printed on a card or a button (solver/web/chances.py: the hint table's number,
// or an exact value): the recommended move's filled and ringed, a move as good as the best
// within the noise outlined
const CHANCE_WORDS = { win: gt("win"), draw: gt("draw"), loss: gt("loss"), "only move": gt("only move") };
function chanceMark(e, ch) {
  if (!ch.text) return;
  e.classList.add("has-chance");
  const good = !ch.best && ch.as_good;
  if (ch.best) e.classList.add("recommended-move");
  else if (good) e.classList.add("as-good-move");
  const m = el("span", "chance" + (ch.best ? " best" : good ? " as-good" : ""), CHANCE_WORDS[ch.text] || ch.text);
  m.title = ch.best ? gt("chance of not being the durak: the recommended move")
    : good ? gt("chance of not being the durak: as good as the best within the noise")
    : gt("chance of not being the durak");
  e.title = m.title;
  if (ch.chance !== null && ch.chance !== undefined) e.dataset.chance = String(ch.chance);
  e.appendChild(m);
}

function backEl(label) {
  const e = el("div", "card back");
  if (label !== undefined) e.appendChild(el("span", "count", label));
  return e;
}

class DurakBoard {
  // root: the element to draw into; onMove(moveText): a move chosen by clicks.
  constructor(root, { onMove } = {}) {
    this.root = root;
    this.onMove = onMove || (() => {});
    this.view = null;
    this.selected = [];
    this.interactive = true;
    this.bottomSeat = 1;
    this.highlight = null;  // a move text to mark (the variation's next move)
    this.chances = null;    // a hint's chances: {moves: {move: c}, cards: {card: c}}
    root.classList.add("durak-board");
  }

  // view: board.py's JSON; opts.interactive: the seat to move plays by clicks;
  // opts.bottomSeat: the seat drawn at the bottom (the player's own);
  // opts.highlight: a move text whose cards are marked; opts.chances: a hint's
  // chances (solver/web/chances.py), printed on the playable cards and the buttons.
  set(view, opts = {}) {
    this.view = view;
    this.selected = [];
    this.interactive = opts.interactive !== undefined ? opts.interactive : true;
    this.bottomSeat = opts.bottomSeat || this.bottomSeat || 1;
    this.highlight = opts.highlight || null;
    this.chances = opts.chances || null;
    this.draw();
  }

  // the chances of a hint on the board as it stands (null: none)
  setChances(chances) {
    this.chances = chances;
    this.draw();
  }

  moves() {
    return (this.interactive && this.view && this.view.moves) || [];
  }

  isTrump(card) {
    return this.view && card.slice(-1) === this.view.trump;
  }

  // the moves whose hand cards include every selected card
  candidates() {
    const sel = this.selected;
    return this.moves().filter(m => sel.every(c => m.cards.includes(c)));
  }

  exact() {
    const sel = this.selected;
    return this.moves().filter(m => m.cards.length === sel.length &&
                                    sel.every(c => m.cards.includes(c)));
  }

  clickHand(card) {
    const moves = this.moves();
    if (!moves.some(m => m.cards.includes(card))) return;
    if (this.selected.includes(card)) {
      this.selected = this.selected.filter(c => c !== card);
    } else {
      const wider = this.selected.concat([card]);
      const fits = moves.some(m => wider.every(c => m.cards.includes(c)));
      this.selected = fits ? wider : [card];
    }
    const cands = this.candidates(), exact = this.exact();
    if (this.selected.length && cands.length === 1 && exact.length === 1) {
      this.play(exact[0].move);
      return;
    }
    this.draw();
  }

  clickTable(attack) {
    const m = this.exact().find(m => m.kind === "cover" && m.target === attack);
    if (m) this.play(m.move);
  }

  play(move) {
    this.selected = [];
    this.onMove(move);
  }

  draw() {
    const v = this.view, root = this.root;
    root.textContent = "";
    if (!v) return;
    root.appendChild(this.drawInfo());
    const others = v.seats.filter(s => s.seat !== this.bottomSeat);
    const bottom = v.seats.find(s => s.seat === this.bottomSeat) || v.seats[0];
    const top = el("div", "seats-top");
    for (const s of others) top.appendChild(this.drawSeat(s, true));
    root.appendChild(top);
    root.appendChild(this.drawTable());
    root.appendChild(this.drawSeat(bottom, false));
    root.appendChild(this.drawActions());
  }

  drawInfo() {
    const v = this.view;
    const info = el("div", "board-info");
    const trump = el("div", "info-item trump-info");
    trump.appendChild(el("span", "label", gt("Trump")));
    const sym = el("span", "trump-suit " + (v.trump === "H" || v.trump === "D" ? "red" : "black"),
                   SUIT_SYMBOL[v.trump]);
    sym.title = SUIT_NAME[v.trump];
    trump.appendChild(sym);
    info.appendChild(trump);

    const pile = el("div", "info-item pile-info");
    pile.appendChild(el("span", "label", gt("Pile")));
    const stack = el("div", "pile-stack");
    if (v.pile.count > (v.pile.face_up ? 1 : 0)) stack.appendChild(backEl());
    if (v.pile.face_up) {
      const up = cardEl(v.pile.face_up, { trump: true });
      up.title = gt("the face-up trump, drawn last");
      stack.appendChild(up);
    }
    pile.appendChild(stack);
    pile.appendChild(el("span", "pile-count", v.pile.count ? ngt("{n} card", "{n} cards", v.pile.count) : gt("empty")));
    info.appendChild(pile);

    const out = el("details", "info-item out-info");
    const sum = el("summary", null, gt("Discards: {n}", { n: v.out.length }));
    out.appendChild(sum);
    const outCards = el("div", "mini-cards");
    for (const c of v.out) outCards.appendChild(cardEl(c, { trump: this.isTrump(c) }));
    out.appendChild(outCards);
    info.appendChild(out);

    info.appendChild(el("span", "info-item legend", gt("\u2605 = trump")));
    if (v.rules && v.rules.length) {
      const r = el("div", "info-item rules-info");
      for (const name of v.rules) r.appendChild(el("span", "badge", ruleWord(name)));
      info.appendChild(r);
    }
    return info;
  }

  drawSeat(s, compact) {
    const v = this.view;
    const box = el("section", "seat" + (s.to_move ? " to-move" : "") + (compact ? " compact" : ""));
    box.dataset.seat = s.seat;
    const head = el("div", "seat-head");
    const name = el("span", "seat-name", gt("Seat {seat}", { seat: s.seat }));
    if (s.name) name.appendChild(el("span", "seat-who", ` (${s.name})`));
    head.appendChild(name);
    for (const r of s.roles) head.appendChild(el("span", "role role-" + r, ROLE_WORDS[r] || r));
    if (s.me) head.appendChild(el("span", "role role-me", gt("me")));
    if (s.to_move) head.appendChild(el("span", "role role-turn", gt("to move")));
    head.appendChild(el("span", "seat-size", ngt("{n} card", "{n} cards", s.size)));
    box.appendChild(head);
    const hand = el("div", "hand");
    const playable = s.to_move ? new Set(this.moves().flatMap(m => m.cards)) : new Set();
    const hl = this.highlightMove();
    for (const c of s.cards) {
      const clickable = playable.has(c);
      const e = cardEl(c, { trump: this.isTrump(c), clickable });
      if (clickable) {
        e.classList.add("playable");
        e.addEventListener("click", () => this.clickHand(c));
      }
      if (this.selected.includes(c)) e.classList.add("selected");
      if (hl && hl.cards.includes(c) && s.to_move) e.classList.add("hl");
      const ch = clickable && this.chances && this.chances.cards[c];
      if (ch) chanceMark(e, ch);
      hand.appendChild(e);
    }
    if (s.hidden) hand.appendChild(backEl(`?${s.hidden}`));  // one back: how many, not a fan
    if (!s.size) hand.appendChild(el("span", "muted", gt("no cards")));
    box.appendChild(hand);
    return box;
  }

  highlightMove() {
    if (!this.highlight || !this.view || !this.view.moves) return null;
    return this.view.moves.find(m => m.move === this.highlight) || null;
  }

  drawTable() {
    const v = this.view;
    const t = el("section", "table-area");
    const head = el("div", "table-head");
    head.appendChild(el("span", "label", gt("Table")));
    if (v.limit) head.appendChild(el("span", "muted", ngt("{n} of at most {limit} attack card", "{n} of at most {limit} attack cards", v.limit, { n: v.table.length, limit: v.limit })));
    if (v.take) head.appendChild(el("span", "role role-take", gt("defender takes")));
    t.appendChild(head);
    const pairs = el("div", "pairs");
    const exact = this.exact();
    const coverable = new Set(exact.filter(m => m.kind === "cover").map(m => m.target));
    const hl = this.highlightMove();
    for (const p of v.table) {
      const pair = el("div", "pair");
      const a = cardEl(p.attack, { trump: this.isTrump(p.attack), clickable: coverable.has(p.attack) });
      a.classList.add("attack");
      if (coverable.has(p.attack)) {
        a.classList.add("target");
        a.addEventListener("click", () => this.clickTable(p.attack));
      }
      if (hl && hl.target === p.attack) a.classList.add("hl");
      pair.appendChild(a);
      if (p.cover) {
        const c = cardEl(p.cover, { trump: this.isTrump(p.cover) });
        c.classList.add("cover");
        pair.appendChild(c);
      }
      pairs.appendChild(pair);
    }
    if (!v.table.length) pairs.appendChild(el("span", "muted", gt("empty")));
    t.appendChild(pairs);
    t.appendChild(el("div", "status", v.status));
    if (v.moves_unknown) t.appendChild(el("div", "muted", gt("Moves unknown: the hand to move holds hidden cards.")));
    return t;
  }

  // buttons: the moves the selected cards could make, and the card-less moves
  drawActions() {
    const bar = el("div", "actions");
    const moves = this.moves();
    if (!moves.length) return bar;
    const shown = [];
    let more = false;
    if (this.selected.length) {
      for (const m of this.exact()) shown.push(m);
      more = this.candidates().some(m => m.cards.length > this.selected.length);
    }
    for (const m of moves) if (!m.cards.length) shown.push(m);
    for (const m of shown) {
      const b = el("button", "action action-" + m.kind, m.label);
      b.type = "button";
      b.dataset.move = m.move;
      if (this.highlight === m.move) b.classList.add("hl");
      const ch = this.chances && this.chances.moves[m.move];
      if (ch) chanceMark(b, ch);
      b.addEventListener("click", () => this.play(m.move));
      bar.appendChild(b);
    }
    if (more) bar.appendChild(el("span", "muted", gt("or pick more cards of this rank")));
    if (this.selected.length) {
      const c = el("button", "action action-clear", gt("Clear selection"));
      c.type = "button";
      c.addEventListener("click", () => { this.selected = []; this.draw(); });
      bar.appendChild(c);
    } else if (moves.some(m => m.cards.length)) {
      bar.appendChild(el("span", "muted hint-text", gt("Click a highlighted card to play it.")));
    }
    return bar;
  }
}

window.DurakBoard = DurakBoard;
window.DurakCards = { cardEl, backEl, prettyCard, SUIT_SYMBOL, SUIT_NAME, el, ruleWord };
})();
