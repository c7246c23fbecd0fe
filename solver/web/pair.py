"""``/pair``: the pairing address of a board served with ``--lan``, as a QR code for a
phone's camera, on the laptop's own board (issue 72; :mod:`solver.web.lan`).

The token is shown only to this machine's own requests (:func:`~solver.web.lan.is_local`);
a paired device is told it is paired, and a board served on loopback only says how to
serve it to the network.  The QR code is drawn by ``segno`` (the ``lan`` extra); without
it the page gives the address as text and says what to install.
"""
from __future__ import annotations

import html
from typing import Any

from starlette.requests import Request

from solver.i18n import _
from solver.web.lan import Pairing, is_local

#: What to install for the QR codes.
EXTRA = "pip install 'durak-solver[lan]'"


def qr_svg(text: str, scale: int = 6) -> str | None:
    """``text`` as a QR code in inline SVG, or None without segno."""
    try:
        import segno
    except ImportError:
        return None
    return str(segno.make(text, error="m").svg_inline(scale=scale, border=4, dark="#1f2328",
                                                      light="#ffffff"))


def qr_terminal(text: str, out: Any) -> bool:
    """``text`` as a QR code drawn with block characters on ``out``; False without segno."""
    try:
        import segno
    except ImportError:
        return False
    segno.make(text, error="m").terminal(out=out, compact=True, border=2)
    return True


def _panel(body: str) -> str:
    title = html.escape(_("Pair a phone"))
    return f'<div class="panel"><div class="panel-title">{title}</div>{body}</div>'


def pair_html(request: Request) -> str:
    """The body of ``/pair`` for this request."""
    pairing: Pairing | None = getattr(request.app.state, "pairing", None)
    if pairing is None:
        here = _("This board is served to this computer only.")
        how = _("To follow a game from a phone on the same network, stop the server and "
                "start it with:")
        return _panel(f'<p>{here} {how}</p><pre translate="no">durak serve --lan</pre>')
    if not is_local(request.scope):
        done = _("This device is paired with the board.")
        follow = _("Follow a real game")
        return _panel(f'<p id="pair-done">{done}</p>'
                      f'<p><a class="button primary" href="/follow">{follow}</a></p>')
    url = pairing.url()
    svg = qr_svg(url)
    label = html.escape(_("QR code of the address"), quote=True)
    needs = _("The QR code needs segno:")
    code = (f'<div class="pair-qr" id="pair-qr" role="img" aria-label="{label}">{svg}</div>'
            if svg else
            f'<p class="field-error" id="pair-no-qr">{needs} <code>{html.escape(EXTRA)}</code></p>')
    scan = _("Scan the code with the phone's camera, or type the address into its browser. "
             "The phone keeps a pass (a cookie) and the address loses its token; then the "
             "phone sees the same games as this computer.")
    elsewhere = _("The same board at the computer's other addresses:")
    who = _("Whoever has this address can use the board until the server stops: show it "
            "only to your own devices. This computer needs no token.")
    others = "".join(f'<li><code>{html.escape(pairing.url(i=i))}</code></li>'
                     for i in range(1, len(pairing.urls)))
    more = (f'<p class="muted small">{elsewhere}</p><ul class="small">{others}</ul>'
            if others else "")
    return _panel(f'<p>{scan}</p>{code}<p class="pair-url"><code id="pair-url" translate="no">'
                  f'{html.escape(url)}</code></p>{more}<p class="muted small">{who}</p>')


__all__ = ["EXTRA", "pair_html", "qr_svg", "qr_terminal"]
