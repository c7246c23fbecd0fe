"""How work runs and where its output goes: the executor layer (local processes or
a Dask cluster) and output files that are never half-written.  Below every package
that runs work or writes files; it imports nothing of durak but the errors."""
