"""The chance on each card: the hint's answer laid on the board (issues 61, 68).

After a hint the page prints, on each card the player may play and on each move
button, that move's chance -- of not being the durak, a draw counted half, the
one number the hint table shows (docs/rules.md) -- from the very answer the
table shows, to the same precision (the answer's ``digits``), the recommended
move marked and the moves as good as the best within the noise marked too.  A
card that several moves play (a lead alone or with its pair, a trump that may
cover either card) shows the best of them -- the chance of playing it well.
Exact answers (every card known) show the value (win, draw, loss) instead of a
share.

Only the answer and the board's moves (:func:`solver.web.board.move_view`: each
move with the hand cards it plays) are read; nothing is computed anew.
"""
from __future__ import annotations

from typing import Any

from solver.i18n import percent

#: An exact value as a chance (win 1, draw 1/2, loss 0), to compare moves by.
VALUE_CHANCE = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def recommended(answer: dict[str, Any]) -> str | None:
    """The move the answer recommends: the hint's ``best``, an exact answer's
    ``recommended`` (else its first best move)."""
    best = answer.get("best")
    if isinstance(best, str):
        return best
    if answer.get("recommended"):
        return str(answer["recommended"])
    return best[0] if best else None


def move_chances(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each move of a hint's answer (the JSON of a hint, an exact analysis or the one
    legal move): ``chance`` (0..1, None for the one legal move), ``text`` as the
    card shows it (``58%``, ``win``), ``best`` (the recommended move) and
    ``as_good`` (as good as the best within the noise, the recommended move
    included)."""
    rec = recommended(answer)
    digits = int(answer.get("digits") or 0)
    out: dict[str, dict[str, Any]] = {}
    for m in answer.get("moves") or []:
        if "chance" in m:  # a hint table's row: its chance, as the table prints it
            chance, text = float(m["chance"]), percent(float(m["chance"]), digits)
        elif m.get("value") in VALUE_CHANCE:
            chance, text = VALUE_CHANCE[m["value"]], str(m["value"])
        else:  # the one legal move, or a move the budget left unvalued
            chance, text = None, "only move" if answer.get("only") else ""
        best = m["move"] == rec
        out[m["move"]] = {"chance": chance, "text": text, "best": best,
                          "as_good": best or bool(m.get("as_good"))}
    return out


def card_chances(moves: dict[str, dict[str, Any]], board_moves: list[dict[str, Any]]
                 ) -> dict[str, dict[str, Any]]:
    """Each hand card the board's moves play: the best chance among the moves that
    play it (with that move), and whether the recommended move plays it."""
    out: dict[str, dict[str, Any]] = {}
    for bm in board_moves:
        c = moves.get(bm["move"])
        if c is None:
            continue
        for card in bm["cards"]:
            have = out.get(card)
            better = have is None or (c["chance"] or 0.0) > (have["chance"] or 0.0)
            if better:
                out[card] = {"chance": c["chance"], "text": c["text"], "move": bm["move"],
                             "best": bool(have and have["best"]),
                             "as_good": bool(have and have["as_good"])}
            if c["best"]:
                out[card]["best"] = True
            if c["as_good"]:
                out[card]["as_good"] = True
    return out


def chances(answer: dict[str, Any], board_moves: list[dict[str, Any]]) -> dict[str, Any]:
    """What the board shows after a hint: ``moves`` (by move text) and ``cards`` (by
    card), and the ``best`` move."""
    moves = move_chances(answer)
    return {"best": recommended(answer), "moves": moves, "cards": card_chances(moves, board_moves)}


__all__ = ["card_chances", "chances", "move_chances", "recommended"]
