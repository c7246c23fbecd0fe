"""The learned playout policy: features, the model file, self-play data and training (docs/learn.md)."""
