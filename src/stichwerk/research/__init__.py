"""Research interfaces on the validated engines: PettingZoo, Gymnasium, OpenSpiel, batch data.

- :func:`env`: a PettingZoo AEC environment (``stichwerk.research.aec``);
- :class:`~stichwerk.research.gym.SeatEnv`: one seat learns against the project's bots;
- :mod:`stichwerk.research.spiel`: both games as OpenSpiel Python games;
- :mod:`stichwerk.research.simulate`: many deals between bots into Parquet files.

The action and observation encodings (``actions``, ``observation``) are shared by all of them;
``docs/research.md`` lists them table by table. The research libraries (``pip install
stichwerk[research]``) are imported only here, never by the web app or the plain commands.
"""

from typing import Any

EXTRA = "pip install 'stichwerk[research]'"


def missing_extra(exc: ImportError, what: str) -> ModuleNotFoundError:
    """The one line a research interface raises when its library is not installed: the base
    package leaves PettingZoo, Gymnasium, OpenSpiel, pyarrow, polars and Ray to the extra."""
    name = getattr(exc, "name", None) or "a research library"
    return ModuleNotFoundError(f"{what} needs the research extra: {EXTRA} ({name} is missing)",
                               name=name)  # fmt: skip


def env(game: str = "cego", **kwargs: Any) -> Any:
    """A PettingZoo AEC environment of ``game``: see :func:`stichwerk.research.aec.env`."""
    from stichwerk.research.aec import env as make_env

    return make_env(game, **kwargs)
