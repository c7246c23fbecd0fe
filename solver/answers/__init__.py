"""The commands' answers as JSON: `durak solve`, `durak analyse`, `durak hint` and
the review, one function each (:mod:`~solver.answers.commands`).

Every front end answers through here -- the commands, the web board's workers and
``durak batch`` -- so what a person reads, a batch line and a web answer never
differ.  Above the game review and the hint engine (which it loads when an answer
needs them), below ``durak batch`` and the front ends."""
