"""Accounts and signing in: open an account, sign in and out (here or everywhere), change the password;
a supervisor disables and enables accounts (docs/api.md, "Accounts").

Signing in is throttled per name and per address (croupier.server.throttle), checks the password in
argon2's worker threads with no database transaction open (croupier.server.auth), and writes only in
a short transaction at the end: the token, or the failure. Revoking tokens also tells the account's
open WebSockets, which close with 4401 (docs/protocol.md).
"""

import logging
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, Header, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, Field
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from croupier.server import ledger, throttle
from croupier.server.auth import (
    AuthError,
    Identity,
    create_account,
    digest,
    disabled_message,
    find_account,
    hash_off_loop,
    issue_token,
    name_taken,
    revoke,
    revoke_all,
    taken_message,
    verify_off_loop,
)
from croupier.server.commands import Refused
from croupier.server.models import Account
from croupier.server.names import BadName, check_name, name_key
from croupier.server.passwords import MAX_PASSWORD, MIN_PASSWORD, WeakPassword, check_password
from croupier.server.routes_tables import signed_in

if TYPE_CHECKING:
    from croupier.server.service import Service

log = logging.getLogger("croupier.server")

BAD_CREDENTIALS = "sign in: unknown name or wrong password"


class SignIn(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=256)


class NewAccount(BaseModel):
    name: str = Field(min_length=1, max_length=64, description="Letters of one script, digits, - and _ (NFKC)")
    password: str = Field(
        min_length=1, max_length=256, description=f"{MIN_PASSWORD}-{MAX_PASSWORD} characters, not a common one"
    )
    role: str = "player"


class PasswordChange(BaseModel):
    old_password: str = Field(min_length=1, max_length=256)
    new_password: str = Field(min_length=1, max_length=256)


class Disable(BaseModel):
    reason: str = Field(default="", max_length=200)


def address(request: Request) -> str:
    """The client's address (behind a reverse proxy, the proxy's: docs/api.md says so)."""
    return request.client.host if request.client else "unknown"


def bearer(authorization: str | None) -> str:
    assert authorization is not None and authorization.lower().startswith("bearer ")  # the caller was identified
    return authorization[7:].strip()


def accounts_router(service: "Service") -> APIRouter:
    router = APIRouter(prefix="/api", tags=["accounts"])
    Me = Annotated[Identity, Depends(signed_in(service))]
    Authorization = Annotated[str | None, Header()]
    Name = Annotated[str, PathParam(min_length=1, max_length=64, description="An account's name")]

    def now() -> datetime:
        return service.clock.now()

    async def signed_out(account_id: int, tokens: list[str] | None = None, keep: str | None = None) -> None:
        """Tell the account's open WebSockets that tokens were revoked (``tokens``: these; else all but
        ``keep``): they close with 4401; and every process forgets the account's tokens it remembered
        (croupier.server.identities). The revocation itself is in the database already."""
        message = {"signed_out": {"tokens": tokens, "keep": keep}}
        try:
            await service.forget_tokens(account_id)
            await service.hub.publish(f"account:{account_id}", message)
        except Exception:  # a socket left open is refused at its next reconnect; the tokens are revoked
            log.warning("could not tell the sockets of account %s that it signed out", account_id, exc_info=True)

    @router.get("/me")
    async def me(identity: Me) -> dict[str, Any]:
        async with service.reader() as session:
            balance = await ledger.balance(session, identity.id) if identity.role == "player" else None
        return {
            "id": identity.id,
            "name": identity.name,
            "role": identity.role,
            "balance": None if balance is None else ledger.money_text(balance),
        }

    @router.post("/accounts", status_code=201)
    async def register(body: NewAccount, request: Request) -> dict[str, Any]:
        """Open a player account (other roles are made by a supervisor: ``croupier serve --demo`` makes some).

        The name and password rules come first; then the password is hashed whether or not the name is
        free, so that "taken" takes as long as an opening. Openings are throttled per address."""
        if body.role != "player":
            raise AuthError("only player accounts may be opened here")
        try:
            check_name(body.name)
            check_password(body.password, body.name)
        except (BadName, WeakPassword) as error:
            raise Refused(str(error), 422) from None
        where = address(request)
        async with service.reader() as session:
            await throttle.check(session, [(throttle.REGISTER, where)], now(), what="register")
        hashed = await hash_off_loop(body.password)
        taken: str | None = None
        try:
            async with service.session() as session, session.begin():
                await throttle.failed(session, throttle.REGISTER, where, now())
                taken = await name_taken(session, body.name)
                if taken is None:
                    account = await create_account(session, body.name, body.password, password_hash=hashed, now=now())
                    answer = {"id": account.id, "name": account.name, "role": account.role}
        except IntegrityError:  # the same name (or one like it) opened at this very moment
            taken = body.name
        if taken is not None:
            raise Refused(taken_message(body.name, taken), 409)
        return answer

    @router.post("/login")
    async def login(body: SignIn, request: Request) -> dict[str, Any]:
        """Sign in: a bearer token for 12 hours. Throttled per name and per address: a few failures, then
        a lockout that grows (429, Retry-After); during it even the right password is refused."""
        keys = [(throttle.NAME, name_key(body.name)), (throttle.ADDRESS, address(request))]
        async with service.reader() as session:
            await throttle.check(session, keys, now())
            account = await find_account(session, body.name)
        ok = await verify_off_loop(account.password_hash if account else None, body.password)
        async with service.session() as session, session.begin():
            if ok and account is not None:
                await throttle.check(session, keys, now())  # a lock placed while the password was checked
                if account.disabled_at is not None:
                    raise Refused(disabled_message(account.name), 403)
                token = await issue_token(session, account, now())
                await throttle.succeeded(session, throttle.NAME, keys[0][1])
            else:
                for rule, key in keys:
                    await throttle.failed(session, rule, key, now())
        if not ok or account is None:
            raise AuthError(BAD_CREDENTIALS)
        await service.forget_tokens(account.id)  # a token past the account's most was revoked, maybe
        return {"token": token, "account": {"id": account.id, "name": account.name, "role": account.role}}

    @router.post("/logout")
    async def logout(identity: Me, authorization: Authorization = None) -> dict[str, Any]:
        """Sign out: the token is revoked (its row deleted); a later request with it is answered 401, and
        a WebSocket opened with it closes with 4401."""
        token = bearer(authorization)
        async with service.session() as session, session.begin():
            await revoke(session, token)
        await signed_out(identity.id, tokens=[digest(token)])
        return {"signed_out": identity.name}

    @router.post("/logout/everywhere")
    async def logout_everywhere(identity: Me) -> dict[str, Any]:
        """Sign out everywhere: every token of the account is revoked, this one too."""
        async with service.session() as session, session.begin():
            count = await revoke_all(session, identity.id)
        await signed_out(identity.id)
        return {"signed_out": identity.name, "tokens_revoked": count}

    @router.put("/me/password")
    async def change_password(
        body: PasswordChange, identity: Me, request: Request, authorization: Authorization = None
    ) -> dict[str, Any]:
        """Change the password: the old one is required (a wrong one counts as a failed sign-in), the new
        one meets the policy; every other token of the account is revoked, the one used here stays."""
        keys = [(throttle.NAME, name_key(identity.name)), (throttle.ADDRESS, address(request))]
        async with service.reader() as session:
            await throttle.check(session, keys, now(), what="change password")
            stored = await session.scalar(select(Account.password_hash).where(Account.id == identity.id))
        if not await verify_off_loop(stored, body.old_password):
            async with service.session() as session, session.begin():
                for rule, key in keys:
                    await throttle.failed(session, rule, key, now())
            raise Refused("change password: the old password is wrong", 403)
        try:
            check_password(body.new_password, identity.name)
        except WeakPassword as error:
            raise Refused(str(error), 422) from None
        if body.new_password == body.old_password:
            raise Refused("password: the new password is the old one", 422)
        hashed = await hash_off_loop(body.new_password)
        token = bearer(authorization)
        async with service.session() as session, session.begin():
            await session.execute(update(Account).where(Account.id == identity.id).values(password_hash=hashed))
            count = await revoke_all(session, identity.id, keep=token)
        await signed_out(identity.id, keep=digest(token))
        return {"changed": identity.name, "tokens_revoked": count}

    async def set_disabled(name: str, identity: Identity, disabled: bool, reason: str = "") -> dict[str, Any]:
        if identity.role != "supervisor":
            raise AuthError(f"only a supervisor may disable or enable accounts; {identity.name} is a {identity.role}")
        async with service.session() as session, session.begin():
            account = await session.scalar(select(Account).where(Account.name == name))
            if account is None:
                raise Refused(f"account {name!r}: no such account", 404)
            if account.id == identity.id:
                raise Refused("a supervisor may not disable their own account", 409)
            account.disabled_at = now() if disabled else None
            account.disabled_reason = (reason or None) if disabled else None
            count = await revoke_all(session, account.id) if disabled else 0
            answer = {"account": account.name, "role": account.role, "disabled": disabled, "tokens_revoked": count}
        if disabled:
            await signed_out(account.id)
            log.info("account %s disabled by %s: %s", name, identity.name, reason or "-")
        return answer

    @router.post("/accounts/{name}/disable")
    async def disable(name: Name, identity: Me, body: Disable | None = None) -> dict[str, Any]:
        """A supervisor disables an account: its tokens are revoked at once, its sockets close (4401), it
        cannot sign in. Its money stays in its wallet, the cashier still sees it, and a bet it has in
        play settles as any other."""
        return await set_disabled(name, identity, True, body.reason if body else "")

    @router.post("/accounts/{name}/enable")
    async def enable(name: Name, identity: Me) -> dict[str, Any]:
        """A supervisor enables a disabled account again: it may sign in."""
        return await set_disabled(name, identity, False)

    return router
