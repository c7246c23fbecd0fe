"""`durak serve`: the local web app -- see, set up, solve and play positions in a browser.

A thin command: it opens the game store (a damaged one is one line, exit 4,
before anything is served), binds the port, builds the app of
:mod:`solver.web.app` and runs it with uvicorn in this process, within the
bounds of :mod:`solver.web.server` (docs/web.md).  Ctrl-C or SIGTERM stops it:
requests in flight are answered 503, one goodbye line, exit 0; a second signal
while it stops changes none of that (:mod:`solver.cli.launch`'s promise for a
signal after the command's work is over holds from the moment it has stopped).
"""
from __future__ import annotations

import os
import socket
import threading
import time
import webbrowser
from urllib.parse import quote

import click

from solver.cli.common import ExitCode, Seconds, fail, handles_errors
from solver.cli.launch import command_ended
from solver.search import DEFAULT_MAX_TIME
from solver.web import server
from solver.web.api import Limits
from solver.web.app import create_app
from solver.web.jobs import check_workers, default_workers, unavailable_message
from solver.web.store import DATA_DIR_ENV, GameStore, default_data_dir


def _url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def _open_when_up(host: str, port: int, url: str) -> None:
    def wait_and_open() -> None:
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1" if host == "0.0.0.0" else host,
                                               port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.1)
        webbrowser.open(url)

    threading.Thread(target=wait_and_open, daemon=True).start()


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; only this machine by default.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--open", "open_browser", is_flag=True, help="Open the board in the browser.")
@click.option("--workers", "-j", type=click.IntRange(1, 64), default=None,
              help="Processes for solve, analyse, hint and the engine's moves "
                   "(default: one per core).")
@click.option("--max-time", type=Seconds(), default=DEFAULT_MAX_TIME, show_default=True,
              help="The most seconds one solve, analyse or hint may take, whatever it asks.")
@click.option("--data-dir", type=click.Path(file_okay=False), default=None,
              help=f"Where games are kept (a SQLite file); default ${DATA_DIR_ENV}, else "
                   "$XDG_DATA_HOME/durak or ~/.local/share/durak.")
@click.option("--position", default=None, metavar="POSITION",
              help="With --open: open the board on this position.")
@handles_errors
def serve_command(host: str, port: int, open_browser: bool, workers: int | None,
                  max_time: float, data_dir: str | None, position: str | None) -> None:
    """Serve the web board on http://127.0.0.1:8000/ until Ctrl-C.

    The page draws a position, edits one by clicks, solves and analyses it, and
    plays games against the engine; its API answers what the commands print
    with --json (docs/web.md).
    """
    data = data_dir or os.environ.get(DATA_DIR_ENV) or str(default_data_dir())
    GameStore(data).close()  # a store that cannot be used: one line, exit 4, nothing served
    sock = server.bind(host, port)
    port = sock.getsockname()[1]  # --port 0: the one the system chose
    allowed = None if host in ("0.0.0.0", "::") else ["127.0.0.1", "localhost", "[::1]", host]
    app = create_app(workers=workers, limits=Limits(max_time=max_time), data_dir=data,
                     allowed_hosts=allowed)
    reason = check_workers()  # a board whose every solve would fail is not served
    if reason:
        fail(unavailable_message(reason), ExitCode.INTERNAL)
    url = _url(host, port)
    click.echo(f"durak: serving the board on {url} (Ctrl-C stops; games are kept in {data})",
               err=True)
    if open_browser:
        _open_when_up(host, port, url + (f"?position={quote(position)}" if position else ""))
    bounds = server.Bounds(server.connection_cap(workers or default_workers()))
    with sock:  # once stopped, a late signal must not interrupt the goodbye (launch)
        stopped = server.run(app, sock, bounds, after_stop=command_ended)
    jobs = (f"; {stopped.jobs_stopped} job(s) in flight stopped, their requests answered 503"
            if stopped.jobs_stopped else "")
    click.echo(f"durak: stopped serving the board ({stopped.stopped_by_name}{jobs})", err=True)
