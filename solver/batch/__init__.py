"""``durak batch``: JSON-lines items answered in chunks on the executor layer
(:mod:`~solver.batch.lines`), each item the answer of its command
(:mod:`solver.answers.commands`)."""
