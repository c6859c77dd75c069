"""``/api/ratings``: the leaderboards and players' rating histories, read by anyone.

What a rating shows (numbers only: no deal, table, time or fellow player, so a private table's
deals show nowhere) is said in ``server/ratings.py``; the numbers are the rating store's.
"""

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query
from sqlalchemy.orm import Session

from stichwerk.games import game_names, get_game
from stichwerk.rating import PROVISIONAL_DEALS, ordinal
from stichwerk.server.deps import RatingsDep
from stichwerk.server.jsonsafe import StrictJSONRoute
from stichwerk.storage.ratings import names_of

PLAYER_PATTERN = r"^(u:[0-9]{1,12}|b:[A-Za-z0-9:_.-]{1,60})$"
"""A player key: ``u:<account id>`` or ``b:<bot name>``."""
NAME = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[a-z0-9_-]+$")]


def _check_board(game: str, profile: str) -> None:
    if game not in game_names():
        raise HTTPException(404, f"no such game {game!r}")
    if profile not in get_game(game).profiles:
        raise HTTPException(404, f"no such profile {profile!r} of {game}")


def router() -> APIRouter:
    """``/api/ratings``: the leaderboards and players' rating histories."""
    api = APIRouter(prefix="/api/ratings", route_class=StrictJSONRoute)

    @api.get("")
    async def boards(ratings: RatingsDep) -> dict[str, Any]:
        """Every game and profile, with how many players are rated in each."""
        store = ratings.store
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
        ratings: RatingsDep,
        game: NAME,
        profile: NAME,
        limit: Annotated[int, Query(ge=1, le=500)] = 100,
    ) -> dict[str, Any]:
        """The leaderboard: best conservative rating (mu - 3 sigma) first."""
        _check_board(game, profile)
        store = ratings.store

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
        ratings: RatingsDep,
        game: NAME,
        profile: NAME,
        player: Annotated[str, Query(min_length=3, max_length=64, pattern=PLAYER_PATTERN)],
    ) -> dict[str, Any]:
        """A player's rating after each of their rated deals: numbers only (no deal, no time,
        no table), so a private table's deals show nowhere."""
        _check_board(game, profile)
        store = ratings.store

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
