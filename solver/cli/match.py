"""`durak match`: being written."""
