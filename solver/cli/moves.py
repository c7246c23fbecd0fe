"""`durak moves`: being written."""
