"""`durak playout`: being written."""
