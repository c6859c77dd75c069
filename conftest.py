"""Pytest's settings for the whole tree (tests and the package's doctests).

While the compiled engine is imported (``stichwerk.native``), pytest cannot collect the
doctests of the compiled modules from their ``.py`` files (the module imported is another
file); ``tests/cego/test_native.py`` runs those doctests on the Python modules instead.
"""

from stichwerk import native

collect_ignore = (
    [f"src/{name.replace('.', '/')}.py" for name in native.COMPILED] if native.active() else []
)
