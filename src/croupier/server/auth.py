"""Accounts, passwords (argon2) and bearer tokens (only their SHA-256 is stored).

Hashing and verifying a password is argon2's deliberate work (about 50-300 ms and 64 MiB): it runs in
a small pool of worker threads (:data:`HASH_THREADS`) at the lowest scheduling priority
(:data:`HASH_NICENESS`), never on the event loop, so that a storm of sign-ins slows only the sign-ins.
A name that has no account is verified against a dummy hash made once, so that it costs what a wrong
password costs and the answer's time does not tell whether a name exists (docs/api.md, "Signing in").

A token lives :data:`TOKEN_LIFETIME`; an account keeps at most :data:`MAX_TOKENS` (a sign-in beyond
that revokes its oldest), and expired tokens are deleted as others sign in. Signing out revokes the
token; signing out everywhere, changing the password and a supervisor's disabling revoke every token
of the account. A disabled account's tokens stop working at once (:func:`identify` refuses them even
were one left), its money stays where it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from croupier.errors import CroupierError
from croupier.server.clock import SystemClock
from croupier.server.ledger import ensure_system_wallets
from croupier.server.models import ROLES, Account, Token, Wallet
from croupier.server.names import check_name, name_key
from croupier.server.passwords import check_password

TOKEN_LIFETIME = timedelta(hours=12)
MAX_TOKENS = 20
"""Tokens one account may hold at once (sign-ins on that many devices); the oldest goes beyond."""
HASH_THREADS = 2
"""argon2 hashes at once: each takes 64 MiB and a core while it runs."""
HASH_NICENESS = 19
"""The worker threads' scheduling priority (Linux: nice, per thread): the lowest, so that the event loop
that drives the tables' timers takes a core from a password check at once, however many sign-ins come
(on a machine with as few cores as workers, a storm of sign-ins would otherwise share the cores with it
as equals). A sign-in waits; a table does not."""


def _lower_priority() -> None:
    """The worker thread's initializer: lower its own priority (where the system allows; else as it is)."""
    import os
    import threading

    with contextlib.suppress(AttributeError, OSError):  # no setpriority, or not allowed: the default priority
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASH_NICENESS)


class Hasher(Protocol):
    def hash(self, password: str) -> str: ...
    def verify(self, hash: str, password: str) -> bool: ...


_HASHER: Hasher = PasswordHasher()
_POOL = ThreadPoolExecutor(max_workers=HASH_THREADS, thread_name_prefix="argon2", initializer=_lower_priority)
_DUMMY: tuple[Hasher, str] | None = None
"""The hasher the dummy hash was made with, and the hash (the hasher itself, not its id: an id is reused
once its object is gone, and a hash another hasher made would then be checked without its work)."""


class AuthError(CroupierError):
    """Not signed in, a bad password or token, or a role that may not do this."""


@dataclass(frozen=True)
class Identity:
    """Who is asking: an account's id, name and role."""

    id: int
    name: str
    role: str


def hash_password(password: str) -> str:
    """argon2 in the calling thread: for code off the event loop (use :func:`hash_off_loop` on it)."""
    return _HASHER.hash(password)


def password_ok(stored: str, password: str) -> bool:
    try:
        return _HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def _dummy_hash() -> str:
    """A hash of a random password no one knows, made once per hasher: what an unknown name is checked
    against."""
    global _DUMMY
    hasher = _HASHER
    if _DUMMY is None or _DUMMY[0] is not hasher:
        _DUMMY = (hasher, hasher.hash(secrets.token_urlsafe(24)))
    return _DUMMY[1]


def _verify_or_dummy(stored: str | None, password: str) -> bool:
    if stored is None:
        password_ok(_dummy_hash(), password)  # the same work as a real account's, and always False
        return False
    return password_ok(stored, password)


async def _off_loop(function: Any, *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(_POOL, function, *args)


async def hash_off_loop(password: str) -> str:
    """argon2's hash in the worker pool."""
    return str(await _off_loop(hash_password, password))


async def verify_off_loop(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from, in the worker pool; ``stored`` None (no
    such account) checks a dummy hash instead, so that it takes as long, and answers False."""
    return bool(await _off_loop(_verify_or_dummy, stored, password))


def at(now: datetime | None) -> datetime:
    """``now`` as the caller's clock gives it (the server passes its injected clock's); None, for tools and
    scripts outside a server, is the system clock."""
    return now if now is not None else SystemClock().now()


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def find_account(session: AsyncSession, name: str) -> Account | None:
    """The account ``name`` signs in as: its exact name, else the one whose key it has (``ANA``: ana)."""
    account = await session.scalar(select(Account).where(Account.name == name))
    if account is None:
        account = await session.scalar(select(Account).where(Account.name_key == name_key(name)))
    return account


async def name_taken(session: AsyncSession, name: str) -> str | None:
    """The existing account's name that ``name`` is, or looks like; None when it is free."""
    return await session.scalar(
        select(Account.name).where((Account.name == name) | (Account.name_key == name_key(name))).limit(1)
    )


def taken_message(name: str, existing: str) -> str:
    if existing == name:
        return f"account name {name!r} is taken"
    return f"account name {name!r} is taken: it reads as {existing!r}, an existing account"


async def create_account(
    session: AsyncSession,
    name: str,
    password: str,
    role: str = "player",
    *,
    password_hash: str | None = None,
    policy: bool = True,
    now: datetime | None = None,
) -> Account:
    """Open an account. ``password_hash``: already hashed (off the loop) by the caller; ``policy``:
    whether the password policy applies (False only for the demo's published accounts); ``now``: the
    server's clock (:func:`at`)."""
    if role not in ROLES:
        raise AuthError(f"role {role!r}: the roles are {', '.join(ROLES)}")
    check_name(name)
    if policy:
        check_password(password, name)
    existing = await name_taken(session, name)
    if existing is not None:
        raise AuthError(taken_message(name, existing))
    account = Account(
        name=name,
        name_key=name_key(name),
        role=role,
        password_hash=password_hash or hash_password(password),
        created_at=at(now),
    )
    session.add(account)
    await session.flush()
    await ensure_system_wallets(session)
    if role == "player":
        session.add(Wallet(kind="player", account_id=account.id, balance=0))
        await session.flush()
    return account


async def issue_token(session: AsyncSession, account: Account, now: datetime | None = None) -> str:
    """A new token for ``account``; expired tokens (anyone's) and this account's beyond
    :data:`MAX_TOKENS` are deleted; ``now``: the server's clock (:func:`at`)."""
    now = at(now)
    await session.execute(delete(Token).where(Token.expires_at < now))
    token = secrets.token_urlsafe(32)
    session.add(Token(digest=digest(token), account_id=account.id, expires_at=now + TOKEN_LIFETIME))
    await session.flush()
    keep = select(Token.digest).where(Token.account_id == account.id).order_by(Token.expires_at.desc())
    await session.execute(
        delete(Token).where(Token.account_id == account.id, Token.digest.not_in(keep.limit(MAX_TOKENS)))
    )
    return token


async def sign_in(session: AsyncSession, name: str, password: str, now: datetime | None = None) -> tuple[str, Identity]:
    """Sign in with no throttling, in one transaction: for tools and tests; the server's route throttles
    (croupier.server.routes_accounts)."""
    account = await find_account(session, name)
    if not await verify_off_loop(account.password_hash if account else None, password) or account is None:
        raise AuthError("sign in: unknown name or wrong password")
    if account.disabled_at is not None:
        raise AuthError(disabled_message(account.name))
    return await issue_token(session, account, now), Identity(account.id, account.name, account.role)


def disabled_message(name: str) -> str:
    return f"account {name} is disabled by a supervisor; ask the cashier or a supervisor"


async def identify(session: AsyncSession, token: str, now: datetime | None = None) -> Identity:
    """Who ``token`` signs in; an expired one (by ``now``, the server's clock: :func:`at`) is refused."""
    identity, _expires = await lookup(session, token, now)
    return identity


async def lookup(session: AsyncSession, token: str, now: datetime | None = None) -> tuple[Identity, datetime]:
    """Who ``token`` signs in, and when the token expires (:func:`identify`)."""
    row = (
        await session.execute(
            select(Account.id, Account.name, Account.role, Token.expires_at, Account.disabled_at)
            .join(Token, Token.account_id == Account.id)
            .where(Token.digest == digest(token))
        )
    ).first()
    if row is None:
        raise AuthError("unknown or revoked token; sign in again")
    expires = row[3] if row[3].tzinfo else row[3].replace(tzinfo=UTC)
    if expires < at(now):
        raise AuthError("the token has expired; sign in again")
    if row[4] is not None:
        raise AuthError(disabled_message(row[1]))
    return Identity(row[0], row[1], row[2]), expires


async def revoke(session: AsyncSession, token: str) -> None:
    """Sign out: the token's row is deleted, so that it identifies no one any more."""
    await session.execute(delete(Token).where(Token.digest == digest(token)))


async def revoke_all(session: AsyncSession, account_id: int, keep: str | None = None) -> int:
    """Every token of the account but ``keep`` (a token) is revoked; how many were."""
    query = delete(Token).where(Token.account_id == account_id)
    if keep is not None:
        query = query.where(Token.digest != digest(keep))
    result = await session.execute(query)
    return int(result.rowcount)  # type: ignore[attr-defined]
