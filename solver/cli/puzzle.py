"""`durak puzzle`: being written."""
