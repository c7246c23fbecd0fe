"""Position notation: parse and format positions (docs/notation.md).

Three equivalent forms of one position: the **string**
``trump H; hands 6S 7S KH | 8C 9C AH; table 6S/8S 8C; attacker 1``, the
**JSON** object, and a :class:`Position` (a game state plus the ``me`` seat).

Reading is two steps in two modules: :mod:`~solver.notation.syntax` turns
text or JSON into a record of located tokens (which field, which token,
where); :mod:`~solver.notation.build` gives them meaning and checks the
position can occur.  :mod:`~solver.notation.format` writes the canonical
forms.  Every problem is a :class:`~solver.errors.PositionError` naming the
field and quoting the token, with its column (text) or JSON path.
"""
from solver.notation.build import build_position, parse_position
from solver.notation.format import format_position, position_to_json
from solver.notation.position import Position

__all__ = ["Position", "build_position", "format_position", "parse_position",
           "position_to_json"]
