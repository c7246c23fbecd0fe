"""`durak hint`: being written."""
