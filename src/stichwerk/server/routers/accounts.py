"""``/api`` accounts: register, log in (or play as a guest), log out, change the password, who
am I. Logins, registrations, guests and password changes are rate-limited per address by the
gate, before their bodies are read."""

from typing import Any

from fastapi import APIRouter, HTTPException, Request

from stichwerk.server import auth
from stichwerk.server.deps import CurrentUser, ServicesDep, signed_in
from stichwerk.server.jsonsafe import StrictJSONRoute
from stichwerk.server.schemas import Credentials, PasswordChange
from stichwerk.storage.repo import UserInfo


def user_json(user: UserInfo) -> dict[str, Any]:
    return {"id": user.id, "username": user.username, "guest": user.is_guest}


def router() -> APIRouter:
    """``/api/register``, ``/api/login``, ``/api/guest``, ``/api/logout``,
    ``/api/logout_everywhere``, ``/api/password``, ``/api/me``."""
    api = APIRouter(prefix="/api", route_class=StrictJSONRoute)

    async def logged_in(request: Request, svc: ServicesDep, user: UserInfo) -> dict[str, Any]:
        await svc.sessions.start(request, user)
        return {"user": user_json(user)}

    @api.post("/register")
    async def register(request: Request, body: Credentials, svc: ServicesDep) -> dict[str, Any]:
        try:
            user = await auth.register(svc.repo, body.username, body.password)
        except auth.AuthError as exc:
            raise HTTPException(400, str(exc)) from None
        return await logged_in(request, svc, user)

    @api.post("/login")
    async def login(request: Request, body: Credentials, svc: ServicesDep) -> dict[str, Any]:
        try:
            user = await auth.login(svc.repo, body.username, body.password)
        except auth.AuthError as exc:
            raise HTTPException(401, str(exc)) from None
        return await logged_in(request, svc, user)

    @api.post("/guest")
    async def guest(request: Request, svc: ServicesDep) -> dict[str, Any]:
        try:
            user = await auth.guest(svc.repo)
        except auth.AuthError as exc:
            raise HTTPException(503, str(exc)) from None
        return await logged_in(request, svc, user)

    @api.post("/logout")
    async def logout(request: Request, svc: ServicesDep) -> dict[str, Any]:
        """This browser's session ends on the server (a copy of the cookie stops working)."""
        await svc.sessions.end(request)
        return {"user": None}

    @api.post("/logout_everywhere")
    async def logout_everywhere(
        request: Request, svc: ServicesDep, user: CurrentUser
    ) -> dict[str, Any]:
        """Every session of the account ends, this one included, and their websockets close."""
        me = signed_in(user)
        ended = await svc.sessions.end_all(me.id)
        request.session.clear()
        return {"user": None, "ended": ended}

    @api.post("/password")
    async def password(
        request: Request, body: PasswordChange, svc: ServicesDep, user: CurrentUser
    ) -> dict[str, Any]:
        """A new password ends every session of the account; this browser gets a new one."""
        me = signed_in(user)
        try:
            await auth.change_password(svc.repo, me, body.old_password, body.new_password)
        except auth.AuthError as exc:
            raise HTTPException(400, str(exc)) from None
        ended = await svc.sessions.end_all(me.id)
        await svc.sessions.start(request, me)
        return {"user": user_json(me), "ended": ended}

    @api.get("/me")
    async def me(user: CurrentUser) -> dict[str, Any]:
        if user is None:
            return {"user": None}
        return {"user": user_json(user)}

    return api
