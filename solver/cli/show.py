"""`durak show`: being written."""
