"""`durak match`: two policies play whole games from seeded deals (docs/hint.md)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from solver.cli.common import (ExitCode, ProgressBar, Seconds, emit_json, handles_errors,
                               read_input, stdout_console)
from solver.errors import OptionError
from solver.game.rules import parse_rules
from solver.i18n import NUMBER_FORMATS, _, current, ngettext, percent
from solver.inputs.jsonin import NumberTooLong, loads
from solver.notation.people import rules_text
from solver.play.match import (ENGINE_CONFIGS, MAX_GAMES, POLICY_NAMES, MatchResult, MatchSpec,
                               game_record, match, paired, parse_budget)
from solver.play.sprt import parse_sprt
from solver.run.outfile import write_whole


class PolicyName(click.Choice):
    """A policy's name, ``NAME=FILE`` for the policies of a model file
    (``hint-learn``, ``hint-fast-learn``, ``learned``: docs/learn.md), or
    ``hint@DEALS[xITERATIONS]``, the engine at a fixed amount of work."""

    def convert(self, value: str, param: click.Parameter | None, ctx: click.Context | None) -> str:
        engine, at, budget = str(value).partition("@")
        if at and engine in ENGINE_CONFIGS:
            try:
                parse_budget(budget)
            except OptionError as e:
                self.fail(str(e).removeprefix("policy: "), param, ctx)
            return str(value)
        base, eq, path = str(value).partition("=")
        if eq and base in MODEL_POLICIES and path:
            return str(value)
        return str(super().convert(value, param, ctx))


#: The policies that take a model file as ``NAME=FILE``.
MODEL_POLICIES = ("hint-learn", "hint-fast-learn", "learned")


@click.command("match")
@click.option("--a", "a", type=PolicyName(POLICY_NAMES), required=True,
              help="Policy A (hint-learn=FILE etc.: with that model file; hint@1024x600: "
                   "the engine at 1,024 deals of 600 iterations a decision).")
@click.option("--b", "b", type=PolicyName(POLICY_NAMES), required=True,
              help="Policy B (every seat A does not take).")
@click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), default=100, show_default=True,
              help="Games to play (rounded up to whole deals: each deal is played with A in "
                   "every seat).")
@click.option("--players", type=click.IntRange(2, 6), default=2, show_default=True)
@click.option("--rules", default="", help="Rule options, comma-separated (docs/rules.md).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--workers", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to spread the games over (same games for any number).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Play on a Dask cluster: tcp://HOST:8786, or 'local' for a LocalCluster of "
                   "--workers workers (needs durak-solver[cluster]).")
@click.option("--hint-samples", type=click.IntRange(min=1), default=None,
              help="Deals per decision of the hint policies (default 256 with two players, "
                   "512 with more; hint-fast: 128).")
@click.option("--hint-time", type=Seconds(), default=None,
              help="Seconds per decision of the hint policy (stops scoring new deals).")
@click.option("--record", "record_dir", default=None, metavar="DIR",
              help="Write every game as a full game record (docs/game-record.md) into DIR.")
@click.option("--sprt", "sprt_text", default=None, metavar="S0,S1",
              help="Stop as soon as a sequential test decides between A's expected score "
                   "S0 and S1 (win 1, draw 1/2), e.g. 0.5,0.55; --games is then the most "
                   "it plays (docs/hint.md).")
@click.option("--sprt-alpha", type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
              default=0.05, show_default=True, help="The test's chance of a false H1.")
@click.option("--sprt-beta", type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
              default=0.05, show_default=True, help="The test's chance of a false H0.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@handles_errors
def match_command(a: str, b: str, games: int, players: int, rules: str, seed: int, workers: int,
                  scheduler: str | None, hint_samples: int | None, hint_time: float | None,
                  record_dir: str | None, sprt_text: str | None, sprt_alpha: float,
                  sprt_beta: float, as_json: bool) -> None:
    """Play policy A against policy B: each seeded deal once with A in every seat.

    Reports A's wins, draws and losses (a loss: A is the durak), a 95% interval
    of A's share of the decided games, and the time per decision (mean, median,
    99th percentile).  With --sprt, stops once a sequential test over the deals
    accepts one of two expected scores of A.
    """
    sprt = parse_sprt(sprt_text, sprt_alpha, sprt_beta) if sprt_text is not None else None
    spec = MatchSpec(a=a, b=b, players=players, rules=parse_rules(rules), seed=seed,
                     hint_samples=hint_samples, hint_time=hint_time)
    with ProgressBar(_("games")) as bar:
        res = match(spec, games, workers=workers, progress=bar.callback, scheduler=scheduler,
                    sprt=sprt)
    if record_dir is not None:
        write_records(spec, res, Path(record_dir))
    obj = res.to_json()
    if as_json:
        emit_json(obj)
        _exit_if_interrupted(res)
        return
    print_match(obj)
    _exit_if_interrupted(res)


def _num(text: str) -> str:
    """A number formatted the English way (``52.3``, ``1,735``) in the separators of the
    player's language (``52,3``, ``1 735``)."""
    group, point, _pct = NUMBER_FORMATS.get(current(), NUMBER_FORMATS["en"])
    return text.replace(",", "\0").replace(".", point).replace("\0", group)


def _pct(share: float) -> str:
    """A share as a percentage with one decimal (``98.3%``, ``98,3 %``)."""
    return percent(share, 1)


def _ms(x: float | None, fmt: str = ".2g") -> str:
    return "-" if x is None else _("{t} ms").format(t=_num(f"{x * 1000:{fmt}}"))


def print_match(obj: dict) -> None:
    """A match's answer for people, in the player's language; any of it may be missing
    (no game played yet when Ctrl-C came): a missing figure is shown as '-'."""
    con = stdout_console()
    con.print(ngettext("{a} (A) vs {b} (B), {players} players, {rules}, seed {seed}: {n} game",
                       "{a} (A) vs {b} (B), {players} players, {rules}, seed {seed}: {n} games",
                       obj["games"]).format(a=obj["a"], b=obj["b"], players=obj["players"],
                                            rules=rules_text(obj["rules"]), seed=obj["seed"],
                                            n=_num(f"{obj['games']:,}")))
    con.print(_("A wins {wins}, draws {draws}, losses {losses}").format(
        wins=obj["wins"], draws=obj["draws"], losses=obj["losses"])
              + (" " + _("({n} cut at the move limit, counted as draws)").format(
                  n=obj["truncated"]) if obj["truncated"] else ""))
    if obj["win_rate_decided"] is not None:
        lo, hi = obj["ci95_decided"]
        con.print(_("A won {rate} of decided games (95% interval {lo}-{hi})").format(
            rate=_pct(obj["win_rate_decided"]), lo=_pct(lo), hi=_pct(hi)))
    if obj["loss_rate"] is not None:
        lo, hi = obj["ci95_loss"]
        con.print(_("A lost (durak) {rate} of games (95% interval {lo}-{hi})").format(
            rate=_pct(obj["loss_rate"]), lo=_pct(lo), hi=_pct(hi)))
    spd = obj["seconds_per_decision"]
    con.print(_("mean time per decision: A {a}, B {b}").format(a=_ms(spd["a"], ".1f"),
                                                              b=_ms(spd["b"], ".1f")))
    cpu = obj.get("cpu_seconds_per_decision")
    if cpu is not None:
        con.print(_("mean processor time per decision: A {a}, B {b}").format(
            a=_ms(cpu["a"], ".1f"), b=_ms(cpu["b"], ".1f")))
    med, p99 = obj["seconds_per_decision_median"], obj["seconds_per_decision_p99"]
    if med["a"] is not None:
        con.print(_("A's time per decision: median {median}, 99th percentile {p99} "
                    "(quarter-octave bins)").format(median=_ms(med["a"]), p99=_ms(p99["a"])))
    if obj["sprt"] is not None:
        con.print(sprt_line(obj["sprt"]))


#: The most a match answer may hold (MAX_GAMES games of per-game results fit easily).
MAX_MATCH_JSON_BYTES = 64 * 1024 * 1024


@click.command("compare")
@click.argument("first", metavar="MATCH1.json")
@click.argument("second", metavar="MATCH2.json")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@handles_errors
def compare_command(first: str, second: str, as_json: bool) -> None:
    """Compare two `durak match --json` answers on the same seeded deals, deal by deal.

    Typically A is a changed engine in one and the usual engine in the other,
    against the same B.  Reports both on the deals they share and the paired
    difference of A's mean score (win 1, draw 1/2, loss 0) with a 95% interval:
    the luck of the deal cancels, so it is much narrower than the two shares'.
    """
    res = paired(_read_match(first, "MATCH1"), _read_match(second, "MATCH2"))
    if as_json:
        emit_json(res)
        return
    con = stdout_console()
    con.print(ngettext("{n} deal in common ({games} games)", "{n} deals in common ({games} games)",
                       res["deals"]).format(n=_num(f"{res['deals']:,}"),
                                            games=_num(f"{res['games']:,}")))
    for name, path in (("first", first), ("second", second)):
        t = res[name]
        share = (", " + _("{rate} of decided").format(rate=_pct(t["win_rate_decided"]))
                 if t["win_rate_decided"] is not None else "")
        con.print(_("{path}: A won {wins}, drew {draws}, lost {losses}").format(
            path=path, wins=t["wins"], draws=t["draws"], losses=t["losses"]) + share)
    lo, hi = res["ci95"]
    con.print(_("A's mean score, first minus second: {diff} (95% interval {lo} to {hi})").format(
        diff=_num(f"{res['score_difference']:+.4f}"), lo=_num(f"{lo:+.4f}"),
        hi=_num(f"{hi:+.4f}")))


def _read_match(path: str, field: str) -> dict:
    """A match answer from a file, or a one-line error naming the file (exit 2)."""
    text = read_input(path, field, MAX_MATCH_JSON_BYTES + 1)  # FIFOs and <(...) too
    if len(text) > MAX_MATCH_JSON_BYTES:
        raise OptionError(f"{field}: {path!r} is larger than {MAX_MATCH_JSON_BYTES:,} bytes")
    try:
        obj = loads(text)
    except NumberTooLong as e:
        raise OptionError(f"{field}: {path!r}: {e}") from None
    except (ValueError, RecursionError) as e:
        raise OptionError(f"{field}: {path!r} is not JSON: {e}") from None
    need = ("players", "seed", "rules", "per_game")
    if not isinstance(obj, dict) or any(k not in obj for k in need):
        raise OptionError(f"{field}: {path!r} is not a `durak match --json` answer with "
                          "per-game results")
    return obj


def sprt_line(t: dict) -> str:
    """The sequential test's outcome in one line."""
    what = _("sequential test of A's score {s0} (H0) against {s1} (H1), alpha {alpha}, beta "
             "{beta}: ").format(s0=_num(f"{t['s0']:g}"), s1=_num(f"{t['s1']:g}"),
                                alpha=_num(f"{t['alpha']:g}"), beta=_num(f"{t['beta']:g}"))
    lo, hi = t["bounds"]
    where = _("LLR {llr}, bounds {lo} / {hi}").format(llr=_num(f"{t['llr']:+.2f}"),
                                                      lo=_num(f"{lo:+.2f}"), hi=_num(f"{hi:+.2f}"))
    if t["decision"] is None:
        return what + ngettext("no decision after {n} deal ({where})",
                               "no decision after {n} deals ({where})", t["deals"]).format(
                                   n=t["deals"], where=where)
    favoured, other = (t["s1"], t["s0"]) if t["decision"] == "H1" else (t["s0"], t["s1"])
    return what + ngettext("{decision} accepted (the deals favour a score of {favoured} over "
                           "{other}) after {n} deal ({where})",
                           "{decision} accepted (the deals favour a score of {favoured} over "
                           "{other}) after {n} deals ({where})", t["deals"]).format(
                               decision=t["decision"], favoured=_num(f"{favoured:g}"),
                               other=_num(f"{other:g}"), n=t["deals"], where=where)


def _exit_if_interrupted(res: MatchResult) -> None:
    if res.interrupted:
        click.echo("durak: " + ngettext("interrupted after {n} game", "interrupted after {n} games",
                                        len(res.games)).format(n=len(res.games)), err=True)
        sys.exit(int(ExitCode.INTERRUPTED))


def write_records(spec: MatchSpec, res: MatchResult, folder: Path) -> None:
    """One file per game, ``deal0003-a2.txt`` (deal 3, A in seat 2); every record is
    formatted before the first file is written, and each file is written whole
    or not at all (:func:`solver.run.outfile.write_whole`)."""
    texts = {f"deal{g.deal:04d}-a{g.seat_a + 1}.txt": game_record(spec, g).format()
             for g in res.games}
    if folder.exists() and not folder.is_dir():
        raise OptionError(f"record: {str(folder)!r} is not a directory")
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        write_whole(str(folder / name), text, option="--record")
