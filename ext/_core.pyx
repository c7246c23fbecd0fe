# cython: language_level=3
"""The compiled core of durak-solver: rules over bitmasks and the exact search.

One compilation unit (so that the C compiler inlines through dfs, gen_moves
and play), written in include files by concern; the declarations -- the
constants, the structs, the classes' fields -- are in ``_core.pxd``.

* ``bits.pxi``: C helpers, card sets, popcount, card tables
* ``seats.pxi``, ``movegen.pxi``: the rules twin of ``solver/engine.py``
  (seats, outcome, moves, play, settle, end_bout)
* ``key.pxi``: the canonical key and the canonical ranks
* ``table.pxi``: the transposition table and the side table
* ``ordering.pxi``: move ordering and the history heuristic
* ``prunings.pxi``: quick wins, equivalent cards, ply bounds, ...
* ``search.pxi``: the boolean proof search ``dfs``
* ``face.pxi``: the Python classes ``CState`` and ``Search``
* ``playout.pxi``: the greedy player and greedy playouts
* ``learn.pxi``: the learned playout policy's features and its linear model
* ``retrokey.pxi``: a retrograde graph's state as one word (its key) and back
* ``retrobuild.pxi``: expanding the graph's states, the build's helper thread
* ``retrosolve.pxi``: the attractor pass that values a built graph
* ``retro.pxi``: the class ``RetroGraph``, retrograde analysis of small games'
  whole state graphs (its hash, build, solve and Python face)
* ``uct.pxi``: a small tree search over one known deal (the hint engine)
* ``anytime.pxi``: the anytime estimate, a tree search with proven bounds for
  the exact solver when its budget runs out
* ``ismcts.pxi``: a tree search over the asking seat's information (the hint engine)
* ``deal.pxi``: dealing the unseen cards under the facts (the hint engine)
* ``chance.pxi``: exact expectimax over the last draws of one deal (the hint engine)

The design and its measurements: ``docs/solver.md``.
"""
from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int32_t, int64_t
from libc.stdlib cimport malloc, free, calloc, realloc
from libc.string cimport memset, memcpy

include "bits.pxi"
include "seats.pxi"
include "movegen.pxi"
include "key.pxi"
include "table.pxi"
include "ordering.pxi"
include "prunings.pxi"
include "search.pxi"
include "face.pxi"
include "playout.pxi"
include "learn.pxi"
include "retrokey.pxi"
include "retrobuild.pxi"
include "retrosolve.pxi"
include "retro.pxi"
include "uct.pxi"
include "anytime.pxi"
include "ismcts.pxi"
include "deal.pxi"
include "chance.pxi"
