"""`durak solve`: being written."""
