"""Players that do not search: the random and greedy bots, and the learned playout
policy (its features and its model file, docs/learn.md).  The hint engine plays
them out, models the other seats by the greedy one and learns the learned one's
features; so they sit below :mod:`solver.hints`."""
