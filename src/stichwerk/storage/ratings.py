"""The ratings in the database: which deals are taken in, in which order, and the rows they
leave (current ratings, each player's history, the deals taken in). The maths is
``stichwerk.rating``; this module keeps rows and transactions.

**Which deals count**: every finished deal of any table, public or private, that counts in its
list (a redeal does not), where at least one seat is held by an account that is not a guest (a
person or a bot account). Seats are rated by ``stichwerk.rating.player_key``: nothing is stored
for a guest. A person whose stand-in bot played part of the deal is rated as if they had played
it all (leaving does not dodge a lost deal). A deal whose result has a shape the maths cannot
read is taken in as not rated; a deal of a game or contract its engine does not know stops the
update with ``UnknownDealKind`` (one line, logged by the server), since taking it in unrated
would make every later number wrong without a word.

**The order**: within a game and profile, by ``(finished_at, deal id)``. The server takes new
deals in as they finish (``RatingStore.update``); a deal that finished earlier than one already
taken in (two tables finishing at once, committed in the other order) rolls that game and
profile back to before it and takes the deals in again, so the stored numbers are always those
of a rebuild from scratch (``RatingStore.rebuild``), bit for bit.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, delete, func, not_, select
from sqlalchemy.orm import Session

from stichwerk.core.errors import UnknownDealKind
from stichwerk.rating import BoardEntry, Skill, player_key, rate_deal
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

BATCH = 500
"""Deals taken in per transaction."""


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
        new: dict[str, Skill] | None = None
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
            skills = {
                p: Skill(held.mu, held.sigma, held.deals)
                for p in players
                if p is not None and (held := known.get(p)) is not None
            }
            try:
                new = rate_deal(deal.game, deal.record, deal.result, players, skills)
            except UnknownDealKind:
                raise  # the engine does not know this kind of deal: stop, rather than guess
            except (KeyError, IndexError, TypeError, ValueError):
                new = None  # a result of a shape the ratings do not know: not rated
            for key, skill in (new or {}).items():
                stored = known.get(key)
                if stored is None:
                    stored = Rating(game=deal.game, profile=deal.profile, player=key)
                    session.add(stored)
                    known[key] = stored
                stored.mu, stored.sigma, stored.deals = skill.mu, skill.sigma, skill.deals
                session.add(
                    RatingHistory(
                        deal_id=deal.deal_id,
                        game=deal.game,
                        profile=deal.profile,
                        player=key,
                        mu=skill.mu,
                        sigma=skill.sigma,
                        deals=skill.deals,
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

    def board(self, game: str, profile: str) -> list[BoardEntry]:
        """Every rating of a game and profile, best conservative rating first."""
        with Session(self.db.read) as session:
            rows = session.scalars(
                select(Rating).where(Rating.game == game, Rating.profile == profile)
            ).all()
            entries = [BoardEntry(r.player, r.mu, r.sigma, r.deals) for r in rows]
        entries.sort(key=lambda e: (-e.ordinal, -e.deals, e.player))
        return entries

    def history(self, game: str, profile: str, player: str) -> list[Skill]:
        """A player's skill after each rated deal, in rating order."""
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
        return [Skill(mu, sigma, deals) for mu, sigma, deals in rows]

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
