"""The board on the local network (`durak serve --lan`, issue 72): a pairing token, the
check every request passes, and the machine's own addresses and names.

In the manner of Jupyter's server: the address printed (and shown as a QR code) carries
a token, ``http://192.168.1.5:8000/?token=...``; the first request that brings it gets a
cookie in exchange (HttpOnly, SameSite=Strict) and is sent on to the same address
without the token, so the token does not stay in the address bar, the history or a
bookmark.  From then on the cookie is the device's pass.  :class:`TokenGuard` is one
ASGI middleware around the whole app, so every route -- pages, static files, the API,
the OpenAPI document, and any route added later -- is behind it without anyone
remembering to.

**What counts as this machine.** A request that arrived at ``127.0.0.1`` or ``::1``
(the address the connection was made *to*, the server's side of it) from a loopback
client needs no token, as before ``--lan``: the laptop's own browser keeps working.
Every other address the server answers on needs the token -- the network addresses
and any other loopback address, such as ``127.0.0.2``, which the kernel routes to this
machine but which the tests use to play a phone on the network.

**Wrong tokens** are slowed and capped per client address (:class:`WrongTries`): the
n-th wrong token within :data:`WRONG_WINDOW` seconds is answered after
``n * WRONG_DELAY`` seconds (at most :data:`WRONG_DELAY_MAX`), and past
:data:`WRONG_LIMIT` wrong tokens the client is refused at once (429) until the window
has passed.  Tokens and cookies are compared in constant time
(:func:`hmac.compare_digest`).  The cookie is an HMAC of the token under a secret made
afresh at every start, so a cookie cannot be computed from a guessed token, and no
cookie of an earlier run is good after a restart.
"""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import ipaddress
import re
import secrets
import socket
import struct
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, urlencode

from starlette.types import ASGIApp, Receive, Scope, Send

from solver.errors import OptionError
from solver.i18n import _

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

#: The environment variable that fixes the token (``--token``).
TOKEN_ENV = "DURAK_TOKEN"
#: The cookie a paired device keeps.
COOKIE = "durak_pair"
#: The query parameter that carries the token.
PARAM = "token"
#: The addresses a request must have arrived at to need no token.
LOCAL_ADDRESSES = frozenset({"127.0.0.1", "::1"})
#: A token fixed by hand: 8 to 128 of the characters a URL carries as they are.
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_.~-]{8,128}")
#: Wrong tokens a client may send within :data:`WRONG_WINDOW` seconds.
WRONG_LIMIT = 10
WRONG_WINDOW = 600.0
#: Seconds the n-th wrong token waits for its answer (times n), and the most.
WRONG_DELAY = 0.5
WRONG_DELAY_MAX = 3.0
#: Clients whose wrong tries are remembered (the oldest forgotten first).
WRONG_CLIENTS = 4096
#: Days a pairing cookie lasts (it is good only as long as this run of the server).
COOKIE_DAYS = 30


def new_token() -> str:
    """A fresh pairing token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def check_token(token: str) -> str:
    """A token fixed with ``--token`` or ``$DURAK_TOKEN``, checked (one line, exit 2)."""
    if not TOKEN_PATTERN.fullmatch(token):
        raise OptionError(f"--token: {len(token)} character(s); a token is 8 to 128 letters, "
                          "digits or the characters _ . ~ - (unset $DURAK_TOKEN, or leave "
                          "--token out, for a fresh one)")
    return token


def is_local(scope: Scope) -> bool:
    """Whether a request is this machine's own: it arrived at ``127.0.0.1`` or ``::1``
    from a loopback address (see the module docstring)."""
    server = scope.get("server")
    client = scope.get("client")
    if not server or not client or server[0] not in LOCAL_ADDRESSES:
        return False
    try:
        return ipaddress.ip_address(client[0]).is_loopback
    except ValueError:
        return False


# ------------------------------------------------------------ the machine

def interface_addresses() -> list[str]:
    """The IPv4 address of each network interface (Linux's ``SIOCGIFADDR``; elsewhere
    none), loopback left out.  Asks the kernel only: nothing is sent."""
    if fcntl is None:  # pragma: no cover - not POSIX
        return []
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _index, name in socket.if_nameindex():
            try:
                raw = fcntl.ioctl(s.fileno(), 0x8915,  # SIOCGIFADDR
                                  struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue  # no IPv4 address on it, or it is down
            addr = socket.inet_ntoa(raw[20:24])
            if not ipaddress.ip_address(addr).is_loopback and addr not in found:
                found.append(addr)
    return found


def route_address() -> str | None:
    """The address this machine would use towards other machines: a UDP socket
    "connected" to a documentation address (TEST-NET-1), which sends nothing."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            addr = str(s.getsockname()[0])
    except OSError:
        return None
    return None if ipaddress.ip_address(addr).is_loopback or addr == "0.0.0.0" else addr


def network_addresses() -> list[str]:
    """This machine's network addresses, the one of its default route first."""
    first = route_address()
    rest = [a for a in interface_addresses() if a != first]
    return ([first] if first else []) + rest


def machine_names() -> list[str]:
    """The names a device on the network may know this machine by: its host name and
    the same with ``.local`` (mDNS).  Nothing is looked up."""
    name = socket.gethostname().strip().lower()
    if not name:
        return []
    return [name] if name.endswith(".local") else [name, f"{name}.local"]


def allowed_hosts(addresses: list[str]) -> list[str]:
    """The ``Host`` header's values a LAN server accepts: loopback, its own
    ``addresses`` and names, and nothing else (no DNS rebinding)."""
    hosts = ["127.0.0.1", "localhost", "[::1]"]
    for a in addresses + machine_names():
        shown = f"[{a}]" if ":" in a else a
        if shown not in hosts:
            hosts.append(shown)
    return hosts


# ------------------------------------------------------------ pairing

@dataclass
class Pairing:
    """One run's pairing: the token, the URLs that carry it, the cookie it buys."""

    token: str
    #: The addresses to pair by (``http://ADDRESS:PORT/``), the first one the QR code's.
    urls: list[str]
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32))

    @property
    def cookie_value(self) -> str:
        return hmac.new(self.secret, self.token.encode(), hashlib.sha256).hexdigest()

    def url(self, path: str = "/", i: int = 0) -> str:
        """The pairing URL: the address with the token (``path`` on it)."""
        return f"{self.urls[i].rstrip('/')}{path}?{urlencode({PARAM: self.token})}"

    def token_is(self, given: str) -> bool:
        return hmac.compare_digest(given.encode("utf-8", "replace"), self.token.encode())

    def cookie_is(self, given: str) -> bool:
        return hmac.compare_digest(given.encode("utf-8", "replace"),
                                   self.cookie_value.encode())


class WrongTries:
    """Wrong tokens per client address within a window (see the module docstring)."""

    def __init__(self) -> None:
        self.limit, self.window = WRONG_LIMIT, WRONG_WINDOW
        self.delay, self.most = WRONG_DELAY, WRONG_DELAY_MAX
        self._tries: OrderedDict[str, list[float]] = OrderedDict()

    def _recent(self, client: str) -> list[float]:
        now = time.monotonic()
        tries = [t for t in self._tries.get(client, []) if now - t < self.window]
        if tries:
            self._tries[client] = tries
        else:
            self._tries.pop(client, None)
        return tries

    def capped(self, client: str) -> bool:
        """Whether ``client`` has used up its wrong tries."""
        return len(self._recent(client)) >= self.limit

    def wrong(self, client: str) -> float:
        """Count a wrong token; the seconds its answer waits."""
        tries = self._recent(client) + [time.monotonic()]
        self._tries[client] = tries
        self._tries.move_to_end(client)
        while len(self._tries) > WRONG_CLIENTS:
            self._tries.popitem(last=False)
        return min(self.most, self.delay * len(tries))


def _cookie(scope: Scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # noqa: BLE001 -- a cookie header that cannot be read: none
                continue
            if COOKIE in jar:
                return jar[COOKIE].value
    return None


async def _answer(send: Send, status: int, line: str,
                  headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = (line + "\n").encode("utf-8")
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()), (b"cache-control", b"no-store"),
        *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


class TokenGuard:
    """Every request that is not this machine's own (:func:`is_local`) brings the
    pairing cookie, or the token in the URL (exchanged for the cookie by a redirect
    that drops it from the address), or is refused with one line: 401 without a
    token, 403 with a wrong one (slowed), 429 past the cap on wrong tries."""

    def __init__(self, app: ASGIApp, pairing: Pairing, tries: WrongTries | None = None):
        self.app = app
        self.pairing = pairing
        self.tries = tries or WrongTries()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or is_local(scope):
            if scope["type"] == "websocket" and not is_local(scope):
                await send({"type": "websocket.close", "code": 1008})  # none is served
                return
            await self.app(scope, receive, send)
            return
        scope.setdefault("state", {})
        cookie = _cookie(scope)
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"),
                          keep_blank_values=True)
        given = [v for k, v in query if k == PARAM]
        if not given:
            if cookie is not None and self.pairing.cookie_is(cookie):
                scope["state"]["paired"] = True
                await self.app(scope, receive, send)
                return
            await _answer(send, 401, _(
                "durak serve: this board needs its pairing token: open the address "
                "`durak serve --lan` printed, or scan the QR code on the board's /pair page "
                "on the computer that serves it"))
            return
        client = (scope.get("client") or ("?", 0))[0]
        if self.tries.capped(client):
            await _answer(send, 429, _("durak serve: too many wrong tokens from this "
                                       "address; try again in 10 minutes"))
            return
        if not self.pairing.token_is(given[-1]):
            await asyncio.sleep(self.tries.wrong(client))
            await _answer(send, 403, _("durak serve: wrong pairing token; open the address "
                                       "`durak serve --lan` printed, as it is"))
            return
        rest = urlencode([(k, v) for k, v in query if k != PARAM])
        where = scope.get("root_path", "") + scope["path"] + (f"?{rest}" if rest else "")
        cookie_line = (f"{COOKIE}={self.pairing.cookie_value}; Path=/; HttpOnly; "
                       f"SameSite=Strict; Max-Age={COOKIE_DAYS * 86400}")
        await _answer(send, 303, _("paired: on to {where}").format(where=where), [
            (b"location", where.encode("latin-1", "replace")),
            (b"set-cookie", cookie_line.encode()), (b"referrer-policy", b"no-referrer")])


__all__ = ["COOKIE", "LOCAL_ADDRESSES", "PARAM", "TOKEN_ENV", "Pairing", "TokenGuard",
           "WrongTries", "allowed_hosts", "check_token", "interface_addresses", "is_local",
           "machine_names", "network_addresses", "new_token", "route_address"]
