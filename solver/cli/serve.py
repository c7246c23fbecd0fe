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
import sys
import threading
import time
import webbrowser
from urllib.parse import quote

import click

from solver.cli.common import ExitCode, Seconds, fail, handles_errors
from solver.cli.launch import command_ended
from solver.errors import OptionError
from solver.i18n import _
from solver.search import DEFAULT_MAX_TIME
from solver.web import server
from solver.web.api import Limits
from solver.web.app import create_app
from solver.web.jobs import check_workers, default_workers, unavailable_message
from solver.web.lan import (LOCAL_ADDRESSES, TOKEN_ENV, Pairing, allowed_hosts, check_token,
                            network_addresses, new_token)
from solver.web.pair import EXTRA, qr_terminal
from solver.web.store import DATA_DIR_ENV, GameStore, default_data_dir

#: Every IPv4 address of the machine, loopback included (``--lan``).
EVERYWHERE = "0.0.0.0"


def _url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in (EVERYWHERE, "") else f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def _local(host: str) -> bool:
    """Whether ``host`` is this machine only, needing no token (docs/web.md)."""
    return host in LOCAL_ADDRESSES or host == "localhost"


def _listen(host: str, port: int, lan: bool) -> list[socket.socket]:
    """The listening sockets: ``host``'s, and with ``--lan`` on one address, 127.0.0.1's
    on the same port (the computer's own browser, no token)."""
    first = server.bind(host, port)
    socks = [first]
    if lan and host != EVERYWHERE and not _local(host):
        try:
            socks.append(server.bind("127.0.0.1", first.getsockname()[1]))
        except OptionError:
            first.close()
            raise
    return socks


def _pairing(host: str, port: int, token: str | None) -> Pairing:
    """The run's pairing: the token (fresh unless fixed) and the addresses to pair by."""
    addresses = network_addresses() if host in (EVERYWHERE, "::") else [host]
    urls = [_url(a, port) for a in addresses] or [_url("127.0.0.1", port)]
    return Pairing(check_token(token) if token else new_token(), urls)


def _say_pairing(pairing: Pairing, with_qr: bool = True) -> None:
    click.echo(_("durak: pair a phone on the same network: open {url} (or scan the QR code "
                 "below, or the one on /pair); whoever has this address can use the board")
               .format(url=pairing.url()), err=True)
    if with_qr and not qr_terminal(pairing.url(), sys.stderr):
        click.echo(_("durak: the QR code needs segno: {command}").format(command=EXTRA), err=True)


def _open_when_up(host: str, port: int, url: str) -> None:
    def wait_and_open() -> None:
        for _try in range(100):
            try:
                with socket.create_connection(("127.0.0.1" if host == EVERYWHERE else host,
                                               port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.1)
        webbrowser.open(url)

    threading.Thread(target=wait_and_open, daemon=True).start()


@click.command("serve")
@click.option("--host", default=None,
              help="Address to listen on; only this machine (127.0.0.1) by default, every "
                   "address with --lan.")
@click.option("--lan", is_flag=True,
              help="Serve the board to phones on the same network too: every route needs "
                   "the printed token (a QR code of it here and on /pair).")
@click.option("--token", envvar=TOKEN_ENV, default=None, show_envvar=True,
              help="The pairing token to use instead of a fresh one (8 to 128 letters, "
                   "digits, _ . ~ -).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--open", "open_browser", is_flag=True,
              help="Open the board in the browser (with --lan: the paired address).")
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
def serve_command(host: str | None, lan: bool, token: str | None, port: int,
                  open_browser: bool, workers: int | None, max_time: float,
                  data_dir: str | None, position: str | None) -> None:
    """Serve the web board on http://127.0.0.1:8000/ until Ctrl-C.

    The page draws a position, edits one by clicks, solves and analyses it, and
    plays games against the engine; its API answers what the commands print
    with --json (docs/web.md).  With --lan, phones on the same network reach it
    too, paired by the printed address (its token); every route is behind it.
    """
    data = data_dir or os.environ.get(DATA_DIR_ENV) or str(default_data_dir())
    GameStore(data).close()  # a store that cannot be used: one line, exit 4, nothing served
    if token is not None:
        check_token(token)
    host = host or (EVERYWHERE if lan else "127.0.0.1")
    socks = _listen(host, port, lan)
    port = socks[0].getsockname()[1]  # --port 0: the one the system chose
    # any address but this machine's own: every route behind the token (docs/web.md)
    pairing = None if _local(host) else _pairing(host, port, token)
    allowed = None
    if pairing is not None:
        allowed = allowed_hosts([u.split("//")[1].rsplit(":", 1)[0].strip("[]")
                                 for u in pairing.urls])
    elif host != "localhost":
        allowed = ["127.0.0.1", "localhost", "[::1]", host]
    app = create_app(workers=workers, limits=Limits(max_time=max_time), data_dir=data,
                     allowed_hosts=allowed, pairing=pairing)
    reason = check_workers()  # a board whose every solve would fail is not served
    if reason:
        fail(unavailable_message(reason), ExitCode.INTERNAL)
    url = _url(host, port) if pairing is None or host == EVERYWHERE else _url("127.0.0.1", port)
    where = (" " + _("and on the network at {urls}").format(urls=", ".join(pairing.urls))
             if pairing is not None else "")
    click.echo(_("durak: serving the board on {url}{where} (Ctrl-C stops; games are kept in "
                 "{data})").format(url=url, where=where, data=data), err=True)
    if pairing is not None:
        _say_pairing(pairing)
    if open_browser:
        query = f"?position={quote(position)}" if position else ""
        if pairing is not None:
            target = pairing.url() + (f"&position={quote(position)}" if position else "")
            _open_when_up(host, port, target)
        else:
            _open_when_up(host, port, url + query)
    bounds = server.Bounds(server.connection_cap(workers or default_workers()))
    try:  # once stopped, a late signal must not interrupt the goodbye (launch)
        stopped = server.run(app, socks, bounds, after_stop=command_ended)
    finally:
        for sock in socks:
            sock.close()
    jobs = (_("; {n} job(s) in flight stopped, their requests answered 503").format(
        n=stopped.jobs_stopped) if stopped.jobs_stopped else "")
    click.echo(_("durak: stopped serving the board ({why}{jobs})").format(
        why=stopped.stopped_by_name, jobs=jobs), err=True)
