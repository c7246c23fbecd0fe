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


def pair_html(request: Request) -> str:
    """The body of ``/pair`` for this request."""
    pairing: Pairing | None = getattr(request.app.state, "pairing", None)
    if pairing is None:
        return (f'<div class="panel"><div class="panel-title">{_("Pair a phone")}</div>'
                f'<p>{_("This board is served to this computer only.")} '
                f'{_("To follow a game from a phone on the same network, stop the server and start it with:")}'
                f'</p><pre translate="no">durak serve --lan</pre></div>')
    if not is_local(request.scope):
        return (f'<div class="panel"><div class="panel-title">{_("Pair a phone")}</div>'
                f'<p id="pair-done">{_("This device is paired with the board.")}</p>'
                f'<p><a class="button primary" href="/follow">{_("Follow a real game")}</a></p>'
                '</div>')
    url = pairing.url()
    svg = qr_svg(url)
    code = (f'<div class="pair-qr" id="pair-qr" role="img" aria-label="{html.escape(_("QR code of the address"), quote=True)}">{svg}</div>'
            if svg else
            f'<p class="field-error" id="pair-no-qr">{_("The QR code needs segno:")} '
            f'<code>{html.escape(EXTRA)}</code></p>')
    scan = _("Scan the code with the phone's camera, or type the address into its browser. "
              "The phone keeps a pass (a cookie) and the address loses its token; then the "
              "phone sees the same games as this computer.")
    elsewhere = _("The same board at the computer's other addresses:")
    others = "".join(f'<li><code>{html.escape(pairing.url(i=i))}</code></li>'
                     for i in range(1, len(pairing.urls)))
    more = (f'<p class="muted small">{elsewhere}</p>'
            f'<ul class="small">{others}</ul>') if others else ""
    return (f'<div class="panel"><div class="panel-title">{_("Pair a phone")}</div>'
            f'<p>{scan}</p>'
            f'{code}<p class="pair-url"><code id="pair-url">{html.escape(url)}</code></p>{more}'
            f'<p class="muted small">{_("Whoever has this address can use the board until the server stops: show it only to your own devices. This computer needs no token.")}</p>'
            '</div>')


__all__ = ["EXTRA", "pair_html", "qr_svg", "qr_terminal"]
