"""The ``stichwerk`` command (Typer)."""
