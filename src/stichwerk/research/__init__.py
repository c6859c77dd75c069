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

from stichwerk.research.extra import EXTRA, missing_extra

__all__ = ["EXTRA", "env", "missing_extra"]


def env(game: str = "cego", **kwargs: Any) -> Any:
    """A PettingZoo AEC environment of ``game``: see :func:`stichwerk.research.aec.env`."""
    from stichwerk.research.aec import env as make_env

    return make_env(game, **kwargs)
