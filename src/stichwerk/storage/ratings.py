"""Ratings of people and bots, computed from the finished deals (openskill's Plackett-Luce).

**The maths** (``sides``, ``rate_deal``): a deal is a game between *sides*. Cego's contracts are
the declarer against the defenders (1 against 2, 3 or 4), Doppelkopf's the Re party against the
Kontra party (2 against 2, or a soloist 1 against 3); Räuber, Drescher and a Doppelkopf deal
lost by a forfeit (*Verwerfen*) are every seat for itself. A side's score is its seats' mean
settlement: openskill ranks the sides by it (equal scores tie), and the difference, the margin
of victory, scales every player's step (``margin_factor``): a narrow win moves ratings less
than a typical one, a decisive one more, whoever was the favourite. (openskill's own
``margin`` option is not used: it pulls the two sides' ratings together before the update, so
a decisive upset moved the underdog less than a narrow one, and a win just above its margin
less than one just below; ``docs/bots.md``.) Sides of unequal size weigh the same: a lone
declarer or soloist stands in its side as many times as the other side has members (openskill
adds a side's members up, which would make three defenders the favourites against any
soloist), and moves by the step of all its stand-ins, so what one side gains the other loses,
as in the settlement. A seat that sits out (the dealer at a 5-table) is no side's member and
is not rated for the deal, though it settles.

**Which deals count** (``participants``): every finished deal of any table, public or private,
that counts in its list (a redeal does not), where at least one seat is held by an account
that is not a guest (a person or a bot account). Built-in and the operator's outside bots are
rated by the name they play under (``b:heuristic``); accounts by their id (``u:17``). Guests are
not rated: in the maths a guest's seat is a newcomer (openskill's prior) every time, and nothing
is stored for it. Deals among bots and guests only are not rated, so nobody can move a bot's
rating with unattended tables. A person whose stand-in bot played part of the deal is rated as
if they had played it all (leaving does not dodge a lost deal).

**The order**: within a game and profile, by ``(finished_at, deal id)``. The server takes new
deals in as they finish (``RatingStore.update``); a deal that finished earlier than one already
taken in (two tables finishing at once, committed in the other order) rolls that game and
profile back to before it and takes the deals in again, so the stored numbers are always those
of a rebuild from scratch (``RatingStore.rebuild``), bit for bit.
"""

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy import and_, delete, func, not_, select
from sqlalchemy.orm import Session

from stichwerk.storage.db import Database
from stichwerk.storage.models import (
    Deal,
    RatedDeal,
    Rating,
    RatingHistory,
    Table,
    TableSeat,
    User,
)

PROVISIONAL_DEALS = 30
"""A rating is provisional until this many rated deals: about one evening's list. In a
2-against-2 game sigma falls from 8.3 to about 5.3 over 30 deals (two thirds of the prior)."""
TYPICAL_MARGIN: dict[str, float] = {"cego": 80.0, "doppelkopf": 10.0}
"""The typical margin of victory per game, in settlement points between the sides' means: the
median between the heuristic bots over 150 deals each (Cego schwarzwald and titisee 80,
Doppelkopf ddv 10). A win by this much moves ratings by openskill's own step."""
MARGIN_FACTORS = (0.5, 2.0)
"""The least and the most a margin of victory scales a step by."""
BATCH = 500
"""Deals taken in per transaction."""

MU = 25.0
SIGMA = 25.0 / 3.0


def model(game: str) -> PlackettLuce:
    """The rating model of ``game``: openskill's defaults (mu 25, sigma 25/3).

    Plackett-Luce is openskill's recommended model: it rates any number of sides with ties
    (Räuber's three winners), is the fastest of the five, and with two sides it agrees with
    Bradley-Terry; the Thurstone-Mosteller models handle ties worse and cost more.
    """
    return PlackettLuce(mu=MU, sigma=SIGMA)


def margin_factor(game: str, margin: float) -> float:
    """How much a win by ``margin`` settlement points scales the players' steps: the square
    root of the margin over the game's typical one, within ``MARGIN_FACTORS`` (1 for a game
    without a typical margin).

    >>> margin_factor("doppelkopf", 10.0), margin_factor("doppelkopf", 2.0)
    (1.0, 0.5)
    >>> margin_factor("doppelkopf", 22.5), margin_factor("cego", 1000.0)
    (1.5, 2.0)
    """
    typical = TYPICAL_MARGIN.get(game)
    if typical is None:
        return 1.0
    low, high = MARGIN_FACTORS
    return min(high, max(low, math.sqrt(margin / typical)))


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating the leaderboards sort by: mu - 3 sigma (openskill's ordinal).

    >>> ordinal(25.0, 25.0 / 3.0)
    0.0
    """
    return mu - 3.0 * sigma


def sides(record: Mapping[str, Any], result: Mapping[str, Any]) -> list[tuple[int, ...]] | None:
    """The sides of a finished deal as seats, or ``None`` for a deal that is no game between
    sides (a redeal, a deal without a settlement).

    >>> sides({"game": "cego", "hands": [[1], [2], [3], [4]]},
    ...       {"contract": "eine", "declarer": 2, "score": {"settlement": [1, 1, -3, 1]}})
    [(2,), (0, 1, 3)]
    >>> sides({"game": "doppelkopf", "hands": [[1]] * 4},
    ...       {"re": [0, 2], "kontra": [1, 3], "score": {"settlement": [2, -2, 2, -2]}})
    [(0, 2), (1, 3)]
    """
    score = result.get("score")
    settlement = score.get("settlement") if isinstance(score, dict) else None
    if not isinstance(settlement, list) or result.get("counts") is False:
        return None
    hands = record.get("hands")
    playing = [
        s
        for s in range(len(settlement))
        if not (isinstance(hands, list) and s < len(hands) and hands[s] == [])
    ]
    alone: list[tuple[int, ...]] = [(s,) for s in playing]
    game = record.get("game")
    if game == "cego":
        if result.get("contract") in ("raeuber", "drescher"):
            return alone
        declarer = result.get("declarer")
        if isinstance(declarer, int) and declarer in playing:
            return [(declarer,), tuple(s for s in playing if s != declarer)]
        return None
    if game == "doppelkopf":
        if result.get("forfeit") is not None:
            return alone  # Verwerfen: the one who forfeited pays each seat alone
        re, kontra = result.get("re") or [], result.get("kontra") or []
        if re and kontra:
            return [tuple(sorted(re)), tuple(sorted(kontra))]
        return None
    return alone if len(alone) >= 2 else None


@dataclass(frozen=True)
class Standing:
    """A rating: openskill's mu and sigma and how many deals it has taken in."""

    mu: float = MU
    sigma: float = SIGMA
    deals: int = 0


def rate_deal(
    game: str,
    record: Mapping[str, Any],
    result: Mapping[str, Any],
    players: Sequence[str | None],
    standings: Mapping[str, Standing],
) -> dict[str, Standing] | None:
    """The new standing of every rated player of a deal, or ``None`` if the deal is not rated.

    ``players[seat]`` is the seat's player key, ``None`` for a guest (a newcomer every time);
    ``standings`` holds the players' standings before the deal (missing: a newcomer).
    """
    teams = sides(record, result)
    if teams is None or len(teams) < 2:
        return None
    members = [players[s] for team in teams for s in team]
    if not any(p is not None and p.startswith("u:") for p in members):
        return None
    settlement = result["score"]["settlement"]
    scores = [sum(float(settlement[s]) for s in team) / len(team) for team in teams]
    if not all(math.isfinite(x) for x in scores):
        return None
    rater = model(game)
    # Sides of unequal size weigh the same: each member of a side stands in it as often as it
    # takes to make every side as large as the largest (a soloist three times against three),
    # just as a lone player settles with each of the others.
    size = math.lcm(*(len(team) for team in teams))
    reps = [size // len(team) for team in teams]
    ratings = [
        [_rating(rater, _standing(standings, players[s])) for s in team for _ in range(r)]
        for team, r in zip(teams, reps, strict=True)
    ]
    rated = rater.rate(ratings, scores=scores)
    factor = margin_factor(game, max(scores) - min(scores))
    # A bot seated twice plays with itself (the same step twice: counted once) or against
    # itself (the deal says nothing about it: not rated for it).
    sides_of: dict[str, set[int]] = {}
    for number, team in enumerate(teams):
        for seat in team:
            if players[seat] is not None:
                sides_of.setdefault(str(players[seat]), set()).add(number)
    out: dict[str, Standing] = {}
    for team, r, after in zip(teams, reps, rated, strict=True):
        for index, seat in enumerate(team):
            key = players[seat]
            if key is None or len(sides_of[key]) > 1 or key in out:
                continue
            before = standings.get(key, Standing())
            new = after[index * r]
            # Each stand-in moved by the same step; the player moves by all of them (so a side's
            # gain is the other side's loss, as in the settlement), its sigma as one deal's.
            mu = before.mu + factor * r * (float(new.mu) - before.mu)
            out[key] = Standing(mu, float(new.sigma), before.deals + 1)
    return out


def _standing(standings: Mapping[str, Standing], key: str | None) -> Standing | None:
    return None if key is None else standings.get(key)


def _rating(rater: PlackettLuce, standing: Standing | None) -> PlackettLuceRating:
    if standing is None:
        return rater.rating()
    return rater.rating(mu=standing.mu, sigma=standing.sigma)


def player_key(kind: str, bot: str | None, user_id: int | None, is_guest: bool) -> str | None:
    """A seat's player key: ``b:<bot>`` for a bot seat, ``u:<id>`` for an account, ``None``
    for a guest or an empty seat.

    >>> player_key("bot", "heuristic", None, False), player_key("human", "random", 7, False)
    ('b:heuristic', 'u:7')
    >>> player_key("human", "random", 8, True) is None
    True
    """
    if kind == "bot":
        return f"b:{bot}" if bot else None
    if user_id is None or is_guest:
        return None
    return f"u:{user_id}"


# -- storage ----------------------------------------------------------------------------------


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes (stored in UTC); PostgreSQL aware ones."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class _Pending:
    deal_id: int
    table_id: str
    game: str
    profile: str
    finished_at: datetime
    record: dict[str, Any]
    result: dict[str, Any] | None
    counts: bool

    @property
    def key(self) -> tuple[datetime, int]:
        return (self.finished_at, self.deal_id)


@dataclass(frozen=True)
class Entry:
    """One row of a leaderboard."""

    player: str
    mu: float
    sigma: float
    deals: int

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.deals < PROVISIONAL_DEALS


class RatingStore:
    """The ratings in the database: taken in as deals finish, rebuilt from scratch on demand."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # -- taking deals in ----------------------------------------------------------------------

    def update(self) -> int:
        """Take in every finished deal not yet taken in, in rating order; returns how many
        deals were taken in (those of a rolled-back game and profile again included)."""
        total = 0
        while True:
            with Session(self.db.write) as session, session.begin():
                done = self._step(session)
            if done == 0:
                return total
            total += done

    def rebuild(self) -> int:
        """Forget every rating and take every finished deal in again; returns how many."""
        with Session(self.db.write) as session, session.begin():
            session.execute(delete(RatingHistory))
            session.execute(delete(Rating))
            session.execute(delete(RatedDeal))
        return self.update()

    def _pending(self, session: Session) -> list[_Pending]:
        taken = select(RatedDeal.deal_id)
        finished = func.coalesce(Deal.finished_at, Deal.created_at)
        rows = session.execute(
            select(
                Deal.id,
                Deal.table_id,
                Table.game,
                Table.profile,
                finished,
                Deal.record,
                Deal.result,
                Deal.counts,
            )
            .join(Table, Table.id == Deal.table_id)
            .where(Deal.status == "finished", not_(Deal.id.in_(taken)))
            .order_by(finished, Deal.id)
            .limit(BATCH)
        ).all()
        return [
            _Pending(
                deal_id=r[0],
                table_id=r[1],
                game=r[2],
                profile=r[3],
                finished_at=_aware(r[4]),
                record=dict(r[5]),
                result=None if r[6] is None else dict(r[6]),
                counts=bool(r[7]),
            )
            for r in rows
        ]

    def _step(self, session: Session) -> int:
        pending = self._pending(session)
        if not pending:
            return 0
        first: dict[tuple[str, str], tuple[datetime, int]] = {}
        for deal in pending:
            first.setdefault((deal.game, deal.profile), deal.key)
        rolled = False
        for (game, profile), key in first.items():
            last = session.execute(
                select(RatedDeal.finished_at, RatedDeal.deal_id)
                .where(RatedDeal.game == game, RatedDeal.profile == profile)
                .order_by(RatedDeal.finished_at.desc(), RatedDeal.deal_id.desc())
                .limit(1)
            ).first()
            if last is not None and (_aware(last[0]), last[1]) > key:
                self._roll_back(session, game, profile, key)
                rolled = True
        if rolled:
            pending = self._pending(session)
        rows: dict[tuple[str, str], dict[str, Rating | None]] = {}
        seats: dict[str, list[str | None]] = {}
        for deal in pending:
            self._take_in(session, deal, rows, seats)
        return len(pending)

    def _roll_back(
        self, session: Session, game: str, profile: str, key: tuple[datetime, int]
    ) -> None:
        """Forget the deals of ``game``/``profile`` from ``key`` on (they are taken in again)."""
        moment, deal_id = key
        later = select(RatedDeal.deal_id).where(
            RatedDeal.game == game,
            RatedDeal.profile == profile,
            (RatedDeal.finished_at > moment)
            | and_(RatedDeal.finished_at == moment, RatedDeal.deal_id >= deal_id),
        )
        ids = list(session.scalars(later).all())
        session.execute(delete(RatingHistory).where(RatingHistory.deal_id.in_(ids)))
        session.execute(delete(RatedDeal).where(RatedDeal.deal_id.in_(ids)))
        session.execute(delete(Rating).where(Rating.game == game, Rating.profile == profile))
        latest = (
            select(func.max(RatingHistory.id))
            .where(RatingHistory.game == game, RatingHistory.profile == profile)
            .group_by(RatingHistory.player)
        )
        for row in session.scalars(select(RatingHistory).where(RatingHistory.id.in_(latest))):
            session.add(
                Rating(
                    game=game,
                    profile=profile,
                    player=row.player,
                    mu=row.mu,
                    sigma=row.sigma,
                    deals=row.deals,
                )
            )
        session.flush()

    def _players(self, session: Session, table_id: str) -> list[str | None]:
        rows = session.execute(
            select(TableSeat.seat, TableSeat.kind, TableSeat.bot, TableSeat.user_id, User.is_guest)
            .outerjoin(User, User.id == TableSeat.user_id)
            .where(TableSeat.table_id == table_id)
            .order_by(TableSeat.seat)
        ).all()
        out: list[str | None] = [None] * (max((r[0] for r in rows), default=-1) + 1)
        for seat, kind, bot, user_id, is_guest in rows:
            out[seat] = player_key(kind, bot, user_id, bool(is_guest))
        return out

    def _take_in(
        self,
        session: Session,
        deal: _Pending,
        rows: dict[tuple[str, str], dict[str, Rating | None]],
        seats: dict[str, list[str | None]],
    ) -> None:
        """Rate one deal. ``rows`` keeps the batch's rating rows (``None``: none yet), so each
        is read once per batch and held (the session's identity map holds rows weakly)."""
        new: dict[str, Standing] | None = None
        if deal.counts and deal.result is not None:
            if deal.table_id not in seats:
                seats[deal.table_id] = self._players(session, deal.table_id)
            players = seats[deal.table_id]
            known = rows.setdefault((deal.game, deal.profile), {})
            missing = [p for p in players if p is not None and p not in known]
            if missing:
                known.update(dict.fromkeys(missing))
                for row in session.scalars(
                    select(Rating).where(
                        Rating.game == deal.game,
                        Rating.profile == deal.profile,
                        Rating.player.in_(missing),
                    )
                ):
                    known[row.player] = row
            standings = {
                p: Standing(held.mu, held.sigma, held.deals)
                for p in players
                if p is not None and (held := known.get(p)) is not None
            }
            try:
                new = rate_deal(deal.game, deal.record, deal.result, players, standings)
            except (KeyError, IndexError, TypeError, ValueError):
                new = None  # a result of a shape the ratings do not know: not rated
            for key, standing in (new or {}).items():
                stored = known.get(key)
                if stored is None:
                    stored = Rating(game=deal.game, profile=deal.profile, player=key)
                    session.add(stored)
                    known[key] = stored
                stored.mu, stored.sigma, stored.deals = standing.mu, standing.sigma, standing.deals
                session.add(
                    RatingHistory(
                        deal_id=deal.deal_id,
                        game=deal.game,
                        profile=deal.profile,
                        player=key,
                        mu=standing.mu,
                        sigma=standing.sigma,
                        deals=standing.deals,
                    )
                )
        session.add(
            RatedDeal(
                deal_id=deal.deal_id,
                game=deal.game,
                profile=deal.profile,
                finished_at=deal.finished_at,
                rated=bool(new),
            )
        )

    # -- reading ------------------------------------------------------------------------------

    def board(self, game: str, profile: str) -> list[Entry]:
        """Every rating of a game and profile, best conservative rating first."""
        with Session(self.db.read) as session:
            rows = session.scalars(
                select(Rating).where(Rating.game == game, Rating.profile == profile)
            ).all()
            entries = [Entry(r.player, r.mu, r.sigma, r.deals) for r in rows]
        entries.sort(key=lambda e: (-e.ordinal, -e.deals, e.player))
        return entries

    def history(self, game: str, profile: str, player: str) -> list[Standing]:
        """A player's standing after each rated deal, in rating order."""
        with Session(self.db.read) as session:
            rows = session.execute(
                select(RatingHistory.mu, RatingHistory.sigma, RatingHistory.deals)
                .where(
                    RatingHistory.game == game,
                    RatingHistory.profile == profile,
                    RatingHistory.player == player,
                )
                .order_by(RatingHistory.id)
            ).all()
        return [Standing(mu, sigma, deals) for mu, sigma, deals in rows]

    def boards(self) -> list[tuple[str, str, int]]:
        """Each game and profile with ratings, and how many players it has."""
        with Session(self.db.read) as session:
            rows = session.execute(
                select(Rating.game, Rating.profile, func.count())
                .group_by(Rating.game, Rating.profile)
                .order_by(Rating.game, Rating.profile)
            ).all()
        return [(g, p, int(n)) for g, p, n in rows]

    def snapshot(self) -> dict[str, Any]:
        """Every stored number (ratings, history, deals taken in), for comparing two runs."""
        with Session(self.db.read) as session:
            ratings = sorted(
                (r.game, r.profile, r.player, r.mu, r.sigma, r.deals)
                for r in session.scalars(select(Rating))
            )
            history = [
                (h.game, h.profile, h.player, h.deal_id, h.mu, h.sigma, h.deals)
                for h in session.scalars(select(RatingHistory).order_by(RatingHistory.id))
            ]
            taken = sorted((d.deal_id, d.rated) for d in session.scalars(select(RatedDeal)))
        # History in rating order per game and profile and player (ids differ after a
        # roll-back; the order within each does not).
        by_player: dict[tuple[str, str, str], list[tuple[int, float, float, int]]] = {}
        for game, profile, player, deal_id, mu, sigma, deals in history:
            by_player.setdefault((game, profile, player), []).append((deal_id, mu, sigma, deals))
        return {"ratings": ratings, "history": sorted(by_player.items()), "taken": taken}


def names_of(session: Session, players: Iterable[str]) -> dict[str, tuple[str, bool]]:
    """Each player key's name and whether it is a bot (a bot seat or a bot account)."""
    ids = [int(p[2:]) for p in players if p.startswith("u:") and p[2:].isdigit()]
    out: dict[str, tuple[str, bool]] = {}
    if ids:
        for uid, name, owner in session.execute(
            select(User.id, User.username, User.bot_owner_id).where(User.id.in_(ids))
        ):
            out[f"u:{uid}"] = (name, owner is not None)
    for p in players:
        if p.startswith("b:"):
            out[p] = (p[2:], True)
    return out
