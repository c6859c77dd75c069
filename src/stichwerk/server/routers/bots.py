"""``/api/bots``: a person's bot accounts (for programs hosted elsewhere) and their API tokens.

A token is shown once, when it is made; the server keeps only its SHA-256. A new token replaces
the old one and revoking it closes the bot's open sockets at once (``server/botsockets.py``).
"""

import asyncio
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path

from stichwerk.server.auth import USERNAME
from stichwerk.server.botsockets import TOKEN_PREFIX, BotSockets, token_hash
from stichwerk.server.deps import BotSocketsDep, CurrentUser, signed_in
from stichwerk.server.jsonsafe import StrictJSONRoute
from stichwerk.server.schemas import NewBot
from stichwerk.storage.botaccounts import BotAccount
from stichwerk.storage.repo import NameTaken, UserInfo

MAX_BOTS = 10
"""Bot accounts one person may own."""
BotName = Annotated[str, Path(min_length=3, max_length=24, pattern=r"^[\w.-]+$")]


def _bot_json(bot: BotAccount) -> dict[str, Any]:
    return {
        "name": bot.name,
        "token_hint": bot.token_hint,
        "token_made": None if bot.token_made is None else bot.token_made.isoformat(),
    }


def _new_token() -> tuple[str, str, str]:
    """A token, its hash and its hint (the first characters, shown to its owner)."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    return token, token_hash(token), token[: len(TOKEN_PREFIX) + 4]


def _owner(user: UserInfo | None) -> UserInfo:
    """The signed-in person, if they may have bots (an account with a password)."""
    owner = signed_in(user)
    if owner.is_guest or owner.bot_owner_id is not None:
        raise HTTPException(403, "only an account with a password can have bots")
    return owner


async def _owned(bots: BotSockets, user: UserInfo | None, name: str) -> BotAccount:
    owner = _owner(user)
    bot = await asyncio.to_thread(bots.accounts.owned, owner.id, name)
    if bot is None:
        raise HTTPException(404, "you have no bot of that name")
    return bot


def router() -> APIRouter:
    """``/api/bots``: a person's bot accounts and their tokens."""
    api = APIRouter(prefix="/api/bots", route_class=StrictJSONRoute)

    @api.get("")
    async def mine(bots: BotSocketsDep, user: CurrentUser) -> dict[str, Any]:
        owner = _owner(user)
        found = await asyncio.to_thread(bots.accounts.of_owner, owner.id)
        return {"bots": [_bot_json(b) for b in found]}

    @api.post("")
    async def create(body: NewBot, bots: BotSocketsDep, user: CurrentUser) -> dict[str, Any]:
        """A new bot account and its token (shown this once)."""
        owner = _owner(user)
        accounts = bots.accounts
        name = body.name.strip()
        if not USERNAME.fullmatch(name) or name.lower().startswith("gast-"):
            raise HTTPException(400, "a bot's name has 3 to 24 letters, digits, '.', '-' or '_'")
        if await asyncio.to_thread(accounts.count, owner.id) >= MAX_BOTS:
            raise HTTPException(409, f"an account may have at most {MAX_BOTS} bots")
        try:
            bot = await asyncio.to_thread(accounts.create, owner.id, name)
        except NameTaken:
            raise HTTPException(409, "that name is taken") from None
        token, digest, hint = _new_token()
        await asyncio.to_thread(accounts.set_token, bot.id, digest, hint)
        made = await asyncio.to_thread(accounts.owned, owner.id, name)
        return {"bot": _bot_json(made or bot), "token": token}

    @api.post("/{name}/token")
    async def new_token(name: BotName, bots: BotSocketsDep, user: CurrentUser) -> dict[str, Any]:
        """A new token for the bot; the old one stops working and its sockets close."""
        bot = await _owned(bots, user, name)
        token, digest, hint = _new_token()
        await asyncio.to_thread(bots.accounts.set_token, bot.id, digest, hint)
        bots.revoked(bot.id)
        fresh = await asyncio.to_thread(bots.accounts.owned, bot.owner_id, bot.name) or bot
        return {"bot": _bot_json(fresh), "token": token}

    @api.post("/{name}/revoke")
    async def revoke(name: BotName, bots: BotSocketsDep, user: CurrentUser) -> dict[str, Any]:
        """The bot's token stops working at once, and its open sockets close (4001)."""
        bot = await _owned(bots, user, name)
        had = await asyncio.to_thread(bots.accounts.revoke, bot.id)
        bots.revoked(bot.id)
        fresh = await asyncio.to_thread(bots.accounts.owned, bot.owner_id, bot.name) or bot
        return {"bot": _bot_json(fresh), "revoked": had}

    return api
