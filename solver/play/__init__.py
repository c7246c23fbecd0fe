"""The engine's seats and matches: bots that search (the hint engine in a seat,
the learned policy's own move), bot matches with seat-swapped seeded deals, the
sequential test that stops one (SPRT), the paired comparison, and the engine's
seat in a game session (:mod:`solver.play.seats`).  Uses the game records of
:mod:`solver.games`; nothing below imports it."""
