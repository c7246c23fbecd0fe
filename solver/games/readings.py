"""MOVED FROM session.py"""

_WORDS = {"take": "take", "pass": "pass", "swap": "swap"}


def split_entries(line: str) -> list[str]:
    """A typed line cut into entries: at each word with a seat prefix (``2:6S``) and
    at each ``draw``; a ``#`` starts a comment."""
    words = line.split("#", 1)[0].split()
    items: list[list[str]] = []
    for w in words:
        if not items or re.match(r"\d+:", w) or w.lower() == "draw":
            items.append([w])
        else:
            items[-1].append(w)
    return [" ".join(i) for i in items]


def _readings(body: str, state: GameState, deck: int) -> list[str]:
    """Every move text that ``body`` may mean here: a bare card may be a lead, a
    throw-in (``+``), a transfer (``>``, ``>!``) or a cover of an open attack
    card (``A/C``); several bare cards a lead; other forms are taken as typed."""
    low = body.strip().lower()
    if low in _WORDS:
        return [_WORDS[low]]
    parts = [p for p in re.split(r"[\s,]+", body.strip()) if p]
    if parts and all(_is_card(p, deck) for p in parts):
        cards = [parse_card(p, deck) for p in parts]
        names = [card_name(c) for c in cards]
        if len(cards) > 1:
            return [",".join(names)]
        c = names[0]
        out = [c, f"+{c}", f">{c}", f">!{c}"]
        out += [f"{card_name(a)}/{c}" for a in state.open_attacks]
        return out
    try:
        _, mv = parse_move_with_seat(body, deck)
    except DurakError as e:
        raise MoveError(f"{body!r} is not a move: {e}") from None
    return [str(mv)]


#: The kinds of move each phase of the turn asks for (P1-P4; a swap at any time, F12).
_PHASE_KINDS = {Phase.LEAD: (Kind.LEAD,), Phase.DEFEND: (Kind.COVER, Kind.TAKE, Kind.TRANSFER,
                                                        Kind.SHOW),
                Phase.THROW: (Kind.THROW, Kind.PASS), Phase.TAKEN: (Kind.THROW, Kind.PASS)}


def _fits(token: str, state: GameState) -> bool:
    """Whether ``token`` is a move of the seat to move of the kind its turn asks for
    (not one that needs the seats asked to throw in to pass first)."""
    seat, mv = parse_move_with_seat(token)
    return (seat == state.to_move + 1
            and (mv.kind is Kind.SWAP or mv.kind in _PHASE_KINDS.get(state.phase, ())))


def _is_card(text: str, deck: int) -> bool:
    try:
        parse_card(text, deck)
    except DurakError:
        return False
    return True


def _all_cards(words: str, deck: int) -> bool:
    parts = [p for p in re.split(r"[\s,]+", words) if p]
    return bool(parts) and all(_is_card(p, deck) for p in parts)


def _either(tokens: list[str]) -> str:
    return " or ".join(tokens)


def _example_draw(n: int) -> str:
    return " ".join(["7H", "KD", "6S", "9C", "TS", "QH"][:max(1, min(n, 6))])



# the session's methods
    def _resolve(self, words: str) -> str:
        """The one record token (``seat:move``) a typed move means; see :meth:`enter`."""
        deck = self.game.rules.deck
        s = self.state
        seat: int | None = None
        body = words
        m = re.fullmatch(r"(\d+)\s*:\s*(.+)", words)
        if m:
            seat, body = int(m.group(1)), m.group(2)
        if self.game.engine is not None:
            if seat is not None and seat != self.me:
                raise MoveError(f"you play seat {self.me}; the engine plays seat {seat}")
            if s.to_move != self.game.me:
                raise MoveError(f"it is seat {s.to_move + 1}'s turn (the engine's)")
            seat = self.me
        asked = seat if seat is not None else s.to_move + 1
        if asked == self.me and not s.hidden[self.game.me]:
            # his own cards are known to him: say so, not where the card lies (a secret)
            named = [parse_card(p, deck) for p in re.split(r"[\s,/+>!]+", body)
                     if _is_card(p, deck)]
            lacking = [c for c in named if not (s.hands[self.game.me] | s.table_mask) >> c & 1]
            if lacking:
                raise MoveError("you don't hold " + " ".join(card_name(c) for c in lacking))
        readings = _readings(body, s, deck)
        good = self._valid(readings, [asked])
        if len(good) > 1:  # the reading of the turn now before one implying passes first
            now = [g for g in good if _fits(g, s)]
            good = now if len(now) == 1 else good
        if len(good) == 1:
            return good[0]
        if len(good) > 1:
            raise MoveError(f"{words!r} can mean {_either(good)}: type the one you mean")
        # nothing fits the seat asked; in a followed game a hidden thrower asked now
        # may have passed, and another thrower played it
        others: list[int] = []
        if seat is None and self.game.engine is None and s.phase in (Phase.THROW, Phase.TAKEN):
            others = [t + 1 for t in s.throw_order() if t != s.to_move]
        alt = self._valid(readings, others)
        if alt:
            raise MoveError(f"{words!r} is not a move of seat {asked} here; did you mean "
                            f"{_either(alt)}?")
        # the error of the reading the turn asks for (a throw-in in P3, a cover in P2)
        first = next((r for r in readings if _fits(f"{asked}:{r}", s)), readings[0])
        err = self._try(f"{asked}:{first}")
        problem = getattr(err, "problem", str(err))
        raise MoveError(f"{words!r}: {problem}")

    def _valid(self, readings: list[str], seats: list[int]) -> list[str]:
        out = []
        for st in seats:
            for r in readings:
                tok = f"{st}:{r}"
                if not isinstance(self._try(tok), DurakError) and tok not in out:
                    out.append(tok)
        return out

