"""Ratings in the web app: taken in as deals finish, leaderboards and rating histories.

The numbers come from ``stichwerk.storage.ratings`` (the rows, the deals in a fixed order)
and ``stichwerk.rating`` (the maths, openskill). A worker thread takes finished deals in off
the event loop: table actors only ring its bell (``notify``) when a deal ends, and the server
rings it once at start to catch up with deals finished while it was down.

What a rating shows, to anyone (anonymous included): the players of a game and profile with
their mu, sigma, conservative rating (mu - 3 sigma) and number of rated deals; and a player's
rating after each of their rated deals, as numbers only: no deal, table, time or fellow player,
so a private table's deals show nowhere (``docs/web.md``, threat model).

``python -m stichwerk.server.ratings rebuild`` recomputes every rating from scratch.
"""

import argparse
import asyncio
import logging
import sys
import threading
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query, Request
from sqlalchemy.orm import Session

from stichwerk.core.errors import UnknownDealKind, one_line
from stichwerk.games import game_names, get_game
from stichwerk.rating import PROVISIONAL_DEALS, ordinal
from stichwerk.server.jsonsafe import StrictJSONRoute
from stichwerk.storage.db import Database
from stichwerk.storage.ratings import RatingStore, names_of

log = logging.getLogger("stichwerk.ratings")

PLAYER_PATTERN = r"^(u:[0-9]{1,12}|b:[A-Za-z0-9:_.-]{1,60})$"
"""A player key: ``u:<account id>`` or ``b:<bot name>``."""
NAME = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[a-z0-9_-]+$")]


class RatingService:
    """Takes finished deals in on a thread of its own; ``notify`` after a deal has finished."""

    def __init__(self, store: RatingStore) -> None:
        self.store = store
        self._cond = threading.Condition()
        self._asked = 0
        """Bells rung so far."""
        self._done = 0
        """The bell number the last finished update began after."""
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="ratings", daemon=True)
        self._thread.start()
        self.notify()

    def notify(self) -> int:
        """A deal has finished (or the server started): take new deals in soon. Returns the
        bell's number (``wait_idle`` waits for it)."""
        with self._cond:
            self._asked += 1
            self._cond.notify_all()
            return self._asked

    def ring(self) -> None:
        """``notify`` for callers that want nothing back (a table actor)."""
        self.notify()

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Wait until every deal finished before the call has been taken in."""
        bell = self.notify()
        with self._cond:
            return self._cond.wait_for(lambda: self._done >= bell, timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._stop or self._asked > self._done)
                if self._stop:
                    return
                bell = self._asked
            try:
                taken = self.store.update()
            except UnknownDealKind as exc:
                # A deal the engine cannot say the sides of: one line, and the ratings wait
                # for an engine that knows it (taking it in unrated would skew every number).
                log.error("ratings stopped at a deal: %s", one_line(str(exc)))
            except Exception:
                log.exception("could not take finished deals into the ratings (tried again later)")
            else:
                if taken:
                    log.info("ratings: took in %d deal(s)", taken)
            with self._cond:
                self._done = bell
                self._cond.notify_all()

    def close(self) -> None:
        """Stop the thread after the update under way."""
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        self._thread.join(timeout=30)


def _check_board(game: str, profile: str) -> None:
    if game not in game_names():
        raise HTTPException(404, f"no such game {game!r}")
    if profile not in get_game(game).profiles:
        raise HTTPException(404, f"no such profile {profile!r} of {game}")


def _store(request: Request) -> RatingStore:
    from stichwerk.server.app import services

    return services(request).ratings.store


def router() -> APIRouter:
    """``/api/ratings``: the leaderboards and players' rating histories."""
    api = APIRouter(prefix="/api/ratings", route_class=StrictJSONRoute)

    @api.get("")
    async def boards(request: Request) -> dict[str, Any]:
        """Every game and profile, with how many players are rated in each."""
        store = _store(request)
        counts = {(g, p): n for g, p, n in await asyncio.to_thread(store.boards)}
        return {
            "provisional_deals": PROVISIONAL_DEALS,
            "boards": [
                {"game": g, "profile": p, "players": counts.get((g, p), 0)}
                for g in game_names()
                for p in get_game(g).profiles
            ],
        }

    @api.get("/{game}/{profile}")
    async def board(
        request: Request,
        game: NAME,
        profile: NAME,
        limit: Annotated[int, Query(ge=1, le=500)] = 100,
    ) -> dict[str, Any]:
        """The leaderboard: best conservative rating (mu - 3 sigma) first."""
        _check_board(game, profile)
        store = _store(request)

        def read() -> list[dict[str, Any]]:
            entries = store.board(game, profile)[:limit]
            with Session(store.db.read) as session:
                names = names_of(session, [e.player for e in entries])
            return [
                {
                    "rank": index + 1,
                    "player": e.player,
                    "name": names.get(e.player, (e.player, False))[0],
                    "bot": names.get(e.player, (e.player, e.player.startswith("b:")))[1],
                    "mu": round(e.mu, 3),
                    "sigma": round(e.sigma, 3),
                    "rating": round(e.ordinal, 3),
                    "deals": e.deals,
                    "provisional": e.provisional,
                }
                for index, e in enumerate(entries)
            ]

        return {
            "game": game,
            "profile": profile,
            "provisional_deals": PROVISIONAL_DEALS,
            "players": await asyncio.to_thread(read),
        }

    @api.get("/{game}/{profile}/history")
    async def history(
        request: Request,
        game: NAME,
        profile: NAME,
        player: Annotated[str, Query(min_length=3, max_length=64, pattern=PLAYER_PATTERN)],
    ) -> dict[str, Any]:
        """A player's rating after each of their rated deals: numbers only (no deal, no time,
        no table), so a private table's deals show nowhere."""
        _check_board(game, profile)
        store = _store(request)

        def read() -> tuple[list[Any], tuple[str, bool] | None]:
            points = store.history(game, profile, player)
            with Session(store.db.read) as session:
                name = names_of(session, [player]).get(player)
            return points, name

        points, name = await asyncio.to_thread(read)
        if not points or name is None:
            raise HTTPException(404, "no rating for this player in this game and profile")
        return {
            "game": game,
            "profile": profile,
            "player": player,
            "name": name[0],
            "bot": name[1],
            "provisional_deals": PROVISIONAL_DEALS,
            "points": [
                {
                    "deals": p.deals,
                    "mu": round(p.mu, 3),
                    "sigma": round(p.sigma, 3),
                    "rating": round(ordinal(p.mu, p.sigma), 3),
                }
                for p in points
            ],
        }

    return api


def main(argv: list[str] | None = None) -> None:
    """``python -m stichwerk.server.ratings rebuild``: recompute every rating from the deals."""
    parser = argparse.ArgumentParser(prog="python -m stichwerk.server.ratings", description=__doc__)
    parser.add_argument("command", choices=["rebuild", "update"])
    parser.add_argument("--database", help="database URL (default: STICHWERK_DATABASE_URL)")
    args = parser.parse_args(argv)
    try:
        db = Database(args.database)
        db.migrate()
        store = RatingStore(db)
        taken = store.rebuild() if args.command == "rebuild" else store.update()
    except Exception as exc:
        print(f"stichwerk.server.ratings: {one_line(str(exc))}", file=sys.stderr)
        raise SystemExit(2) from None
    print(f"ratings: took in {taken} deal(s)")
    db.dispose()


if __name__ == "__main__":
    main()
