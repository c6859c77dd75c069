"""The one line a research interface gives when the research extra is not installed.

Apart from the package's ``__init__`` so that the interfaces (``aec``, ``gym``, ``spiel``,
``simulate``) import it without importing the package that lazily imports them.
"""

EXTRA = "pip install 'stichwerk[research]'"


def missing_extra(exc: ImportError, what: str) -> ModuleNotFoundError:
    """The one line a research interface raises when its library is not installed: the base
    package leaves PettingZoo, Gymnasium, OpenSpiel, pyarrow, polars and Ray to the extra."""
    name = getattr(exc, "name", None) or "a research library"
    return ModuleNotFoundError(f"{what} needs the research extra: {EXTRA} ({name} is missing)",
                               name=name)  # fmt: skip
