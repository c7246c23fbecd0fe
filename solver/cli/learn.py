"""`durak learn`: self-play data, training and evaluation of the learned playout policy
(docs/learn.md)."""
from __future__ import annotations

import sys

import click

from solver.cli.common import ExitCode, ProgressBar, emit_json, handles_errors, stdout_console
from solver.cli.match import print_match
from solver.game.rules import parse_rules
from solver.learn.generate import GenSpec, generate, shard_path
from solver.learn.train import TrainSpec, train
from solver.play.match import MatchSpec, match
from solver.policy.model import load_model


@click.group("learn")
def learn_group() -> None:
    """The learned playout policy: self-play data, training, evaluation (docs/learn.md)."""


@learn_group.command("generate")
@click.option("--games", "-n", type=click.IntRange(1, 10_000_000), required=True,
              help="Self-play games to play.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--out", "out", required=True, metavar="DIR", help="The data folder (shards).")
@click.option("--players", type=click.IntRange(2, 6), default=2, show_default=True)
@click.option("--rules", "rules", multiple=True, default=("", "transfer"),
              show_default="podkidnoy and transfer in turn",
              help="Rule options of the games, in turn (repeat the option; '' is podkidnoy).")
@click.option("--samples", type=click.IntRange(min=1), default=64, show_default=True,
              help="Deals per decision of the engine that plays.")
@click.option("--model", default=None, metavar="FILE",
              help="The engine plays with this model's learned playouts (expert iteration; "
                   "'shipped': the package's model). Default: greedy playouts.")
@click.option("--iterations", type=click.IntRange(min=0), default=None,
              help="Tree-search iterations per deal of the engine that plays (default: its "
                   "default; 0: greedy playouts only, fast).")
@click.option("--shard-games", type=click.IntRange(min=1), default=10, show_default=True,
              help="Games per shard file.")
@click.option("--resume", is_flag=True, help="Keep the shards already in DIR; play the rest.")
@click.option("--workers", "-j", type=click.IntRange(min=1), default=None,
              help="Processes (default: all cores).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="A Dask scheduler, or 'local' (needs durak-solver[cluster]).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@handles_errors
def generate_command(games: int, seed: int, out: str, players: int, rules: tuple[str, ...],
                     samples: int, model: str | None, iterations: int | None,
                     shard_games: int, resume: bool,
                     workers: int | None, scheduler: str | None, as_json: bool) -> None:
    """Play GAMES self-play games with the hint engine and write training examples.

    Each decision with a choice gives one example: the mover's features, its
    legal moves, the engine's move and per-move scores, and the game's outcome.
    The same seed gives the same data for any number of workers.
    """
    for r in rules:
        parse_rules(r)  # a bad option is exit 2 before any work
    spec = GenSpec(games=games, seed=seed, players=players, rules=tuple(rules), samples=samples,
                   model=model, shard_games=shard_games, iterations=iterations)
    try:
        with ProgressBar("shards") as bar:
            written = generate(spec, out, workers=workers, scheduler=scheduler, resume=resume,
                               progress=bar.callback,
                               log=lambda line: click.echo(f"durak: {line}", err=True))
    except KeyboardInterrupt:
        # every shard on disk is whole (written by the parent as a worker returns it)
        kept = sum(1 for i in range(spec.shards()) if shard_path(out, i).exists())
        if as_json:
            emit_json({"out": out, "shards": spec.shards(), "kept": kept, "interrupted": True,
                       "spec": spec.to_json()})
        click.echo(f"durak: interrupted: {kept} of {spec.shards()} shard(s) in {out}; "
                   "--resume plays the rest", err=True)
        sys.exit(int(ExitCode.INTERRUPTED))
    obj = {"out": out, "shards": spec.shards(), "written": written, "spec": spec.to_json()}
    if as_json:
        emit_json(obj)
        return
    stdout_console().print(f"{out}: {spec.shards()} shard(s) of {games} games, "
                           f"{written} written now")


@learn_group.command("train")
@click.argument("data", nargs=-1, required=True)
@click.option("--out", "out", required=True, metavar="FILE", help="The model file to write.")
@click.option("--epochs", type=click.IntRange(1, 10_000), default=TrainSpec.epochs,
              show_default=True)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--lr", type=click.FloatRange(0, 10, min_open=True), default=TrainSpec.lr,
              show_default=True, help="Adam's step size.")
@click.option("--l2", type=click.FloatRange(0, 1), default=TrainSpec.l2, show_default=True)
@click.option("--soft", type=click.FloatRange(0, 1), default=TrainSpec.soft, show_default=True,
              help="Weight of the engine's per-move scores in the target (the rest: its move).")
@click.option("--score-temp", type=click.FloatRange(0, 10, min_open=True),
              default=TrainSpec.score_temp, show_default=True,
              help="Temperature of the softmax of the engine's scores.")
@click.option("--valid", type=click.FloatRange(0, 0.9), default=TrainSpec.valid,
              show_default=True, help="Share of the games held out.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@handles_errors
def train_command(data: tuple[str, ...], out: str, epochs: int, seed: int, lr: float, l2: float,
                  soft: float, score_temp: float, valid: float, as_json: bool) -> None:
    """Train the move-scoring model on DATA folders (needs durak-solver[train])."""
    spec = TrainSpec(epochs=epochs, seed=seed, lr=lr, l2=l2, soft=soft, score_temp=score_temp,
                     valid=valid)
    log = None if as_json else (lambda s: click.echo(s, err=True))
    model, report = train(list(data), spec, log=log)
    model.save(out)
    if as_json:
        emit_json(dict(report, out=out))
        return
    stdout_console().print(
        f"{out}: {report['examples']} decisions ({report['train']} trained, {report['valid']} "
        f"held out), {report['seconds']} s; the model picks the engine's move in "
        f"{report['agreement_valid']:.1%} of the held-out decisions (the greedy player "
        f"{report['greedy_agreement_valid']:.1%})")


@learn_group.command("evaluate")
@click.argument("model", default="shipped")
@click.option("--against", default="hint-uct", show_default=True,
              help="Policy B (a `durak match` policy).")
@click.option("--policy", type=click.Choice(["hint-learn", "learned"]), default="hint-learn",
              show_default=True, help="A: the engine with the model's playouts, or the model alone.")
@click.option("--games", "-n", type=click.IntRange(1, 1_000_000), default=200, show_default=True)
@click.option("--players", type=click.IntRange(2, 6), default=2, show_default=True)
@click.option("--rules", default="", help="Rule options, comma-separated.")
@click.option("--seed", type=click.IntRange(min=0), default=1_000_001, show_default=True,
              help="Deals' seed (fresh: not the seeds the data was played on).")
@click.option("--workers", "-j", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--hint-time", type=click.FloatRange(0, min_open=True), default=None,
              help="Seconds per decision of the hint policies.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@handles_errors
def evaluate_command(model: str, against: str, policy: str, games: int, players: int, rules: str,
                     seed: int, workers: int, hint_time: float | None, as_json: bool) -> None:
    """A match of MODEL (default: the shipped one) against today's engine on fresh seeds."""
    load_model(model)  # a bad file: exit 2 before any game
    a = f"{policy}={model}" if model != "shipped" else policy
    spec = MatchSpec(a=a, b=against, players=players, rules=parse_rules(rules), seed=seed,
                     hint_time=hint_time)
    with ProgressBar("games") as bar:
        res = match(spec, games, workers=workers, progress=bar.callback)
    obj = res.to_json()
    if as_json:
        emit_json(obj)
    else:
        print_match(obj)
    if res.interrupted:
        click.echo(f"durak: interrupted after {len(res.games)} games", err=True)
        sys.exit(int(ExitCode.INTERRUPTED))

