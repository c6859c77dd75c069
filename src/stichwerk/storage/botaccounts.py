"""Bot accounts and their API tokens.

A bot account is an account without a password whose ``bot_owner_id`` names the person who
made it: a program hosted elsewhere plays its seats over the bot websocket. Its token is shown
once; only its SHA-256 is stored (``bot_token``), one per bot, so a new token replaces the old
and deleting the row revokes it. A token is 256 random bits, so a plain hash is enough (no
password hashing needed: nothing to guess).
"""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from stichwerk.storage.db import Database
from stichwerk.storage.models import BotToken, User
from stichwerk.storage.repo import NameTaken, UserInfo, user_info


@dataclass(frozen=True)
class BotAccount:
    """A bot account as its owner sees it."""

    id: int
    name: str
    owner_id: int
    token_hint: str | None
    """The first characters of its token, or ``None`` when it has none (revoked)."""
    token_made: datetime | None


class BotAccounts:
    """Queries on bot accounts and tokens of one :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def create(self, owner_id: int, name: str) -> BotAccount:
        """A new bot account of ``owner_id``; ``NameTaken`` if an account has the name."""
        with Session(self.db.write) as session:
            try:
                with session.begin():
                    clash = session.scalar(
                        select(User.id).where(func.lower(User.username) == name.lower())
                    )
                    if clash is not None:
                        raise NameTaken(name)
                    user = User(username=name, password_hash=None, is_guest=False)
                    user.bot_owner_id = owner_id
                    session.add(user)
                    session.flush()
                    return BotAccount(user.id, user.username, owner_id, None, None)
            except IntegrityError:
                raise NameTaken(name) from None

    def count(self, owner_id: int) -> int:
        """How many bot accounts ``owner_id`` has."""
        with Session(self.db.read) as session:
            return int(
                session.scalar(select(func.count()).where(User.bot_owner_id == owner_id)) or 0
            )

    def of_owner(self, owner_id: int) -> list[BotAccount]:
        """The bot accounts of ``owner_id``, by name."""
        with Session(self.db.read) as session:
            rows = session.execute(
                select(User, BotToken.hint, BotToken.created_at)
                .outerjoin(BotToken, BotToken.user_id == User.id)
                .where(User.bot_owner_id == owner_id)
                .order_by(User.username)
            ).all()
            return [BotAccount(u.id, u.username, owner_id, hint, made) for u, hint, made in rows]

    def owned(self, owner_id: int, name: str) -> BotAccount | None:
        """The bot account called ``name`` if ``owner_id`` owns it."""
        for bot in self.of_owner(owner_id):
            if bot.name.lower() == name.lower():
                return bot
        return None

    def set_token(self, bot_id: int, token_hash: str, hint: str) -> None:
        """Make ``token_hash`` the bot's token (the old one, if any, stops working)."""
        with Session(self.db.write) as session, session.begin():
            session.execute(delete(BotToken).where(BotToken.user_id == bot_id))
            session.add(BotToken(id=token_hash, user_id=bot_id, hint=hint))

    def revoke(self, bot_id: int) -> bool:
        """Revoke the bot's token; whether it had one."""
        with Session(self.db.write) as session, session.begin():
            done = session.execute(delete(BotToken).where(BotToken.user_id == bot_id))
            return bool(done.rowcount)  # type: ignore[attr-defined]

    def by_token(self, token_hash: str) -> UserInfo | None:
        """The bot account whose token has this hash."""
        with Session(self.db.read) as session:
            user = session.scalar(
                select(User)
                .join(BotToken, BotToken.user_id == User.id)
                .where(BotToken.id == token_hash)
            )
            return None if user is None or user.bot_owner_id is None else user_info(user)

    def has_token(self, bot_id: int, token_hash: str) -> bool:
        """Whether ``token_hash`` is still the bot's token."""
        with Session(self.db.read) as session:
            row = session.get(BotToken, token_hash)
            return row is not None and row.user_id == bot_id
