"""The commands' answers as JSON, shared by the commands, the web board and
``durak batch`` (:mod:`~solver.batch.answers`), and ``durak batch`` itself: JSON-lines
items answered in chunks on the executor layer (:mod:`~solver.batch.lines`)."""
