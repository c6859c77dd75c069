"""Accounts: Argon2 password hashes, guests, and the user behind a signed session cookie.

Hashing costs tens of milliseconds on purpose, so it runs in a worker thread, never on the loop.
The session cookie (Starlette's, signed with itsdangerous) holds only a random session token;
``sessions`` keeps its hash on the server, so a session can be ended there.
"""

import asyncio
import re
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from stichwerk.storage.repo import NameTaken, Repo, UserInfo

_HASHER = PasswordHasher()
USERNAME = re.compile(r"[\w.-]{3,24}")
"""A username, matched whole (``fullmatch``: ``$`` would let a final newline through)."""
MIN_PASSWORD = 8
MAX_PASSWORD = 128


class AuthError(ValueError):
    """Bad credentials or a bad new account; the message is safe to show."""


def check_new_account(username: str, password: str) -> None:
    """Refuse names and passwords we do not accept, with a reason.

    >>> check_new_account("Hansi", "geheim123")
    >>> check_new_account("a", "geheim123")
    Traceback (most recent call last):
    ...
    stichwerk.server.auth.AuthError: a username has 3 to 24 letters, digits, '.', '-' or '_'
    """
    if not USERNAME.fullmatch(username) or username.lower().startswith("gast-"):
        raise AuthError("a username has 3 to 24 letters, digits, '.', '-' or '_'")
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AuthError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")


async def register(repo: Repo, username: str, password: str) -> UserInfo:
    """A new account with an Argon2 hash of ``password``."""
    check_new_account(username, password)
    hashed = await asyncio.to_thread(_HASHER.hash, password)
    try:
        return await asyncio.to_thread(repo.create_user, username, hashed, False)
    except NameTaken:
        raise AuthError("that username is taken") from None


async def login(repo: Repo, username: str, password: str) -> UserInfo:
    """The account if ``password`` matches; the same error for an unknown name and a bad
    password, so the answer does not tell which names exist."""
    user = await asyncio.to_thread(repo.user_by_name, username)
    stored = user.password_hash if user is not None else None
    if user is None or stored is None:
        # Spend the same time as a real check.
        await asyncio.to_thread(_verify, _DUMMY_HASH, password)
        raise AuthError("wrong username or password")
    if not await asyncio.to_thread(_verify, stored, password):
        raise AuthError("wrong username or password")
    if _HASHER.check_needs_rehash(stored):
        rehashed = await asyncio.to_thread(_HASHER.hash, password)
        await asyncio.to_thread(repo.set_password_hash, user.id, rehashed)
    return user


async def change_password(repo: Repo, user: UserInfo, old: str, new: str) -> None:
    """Set a new password after checking the old one (the caller ends the sessions)."""
    if user.password_hash is None:
        raise AuthError("a guest account has no password; create an account instead")
    if not await asyncio.to_thread(_verify, user.password_hash, old):
        raise AuthError("the old password is wrong")
    if not MIN_PASSWORD <= len(new) <= MAX_PASSWORD:
        raise AuthError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    hashed = await asyncio.to_thread(_HASHER.hash, new)
    await asyncio.to_thread(repo.set_password_hash, user.id, hashed)


def _verify(stored: str, password: str) -> bool:
    try:
        return _HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


_DUMMY_HASH = _HASHER.hash(secrets.token_hex(8))


async def guest(repo: Repo) -> UserInfo:
    """A guest account with a fresh name (``Gast-1234``); guests have no password."""
    for _ in range(20):
        name = f"Gast-{secrets.randbelow(90000) + 10000}"
        try:
            return await asyncio.to_thread(repo.create_user, name, None, True)
        except NameTaken:
            continue
    raise AuthError("could not find a free guest name; try again")
