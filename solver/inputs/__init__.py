"""What a user hands in, read so that a bad input is bad input: JSON with its
numbers checked (:mod:`~solver.inputs.jsonin`), the text of a file a user named
(:mod:`~solver.inputs.files`).

Every layer from the notation up reads something a user gave -- positions, game
records, batch lines, request bodies, match answers, model files, learning data
-- and refuses it as a :class:`~solver.errors.DurakError` naming where it went
wrong, never as an internal error.  It imports nothing of durak but the errors."""
