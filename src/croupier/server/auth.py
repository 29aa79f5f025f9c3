"""Accounts, passwords (argon2) and bearer tokens (only their SHA-256 is stored)."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from croupier.errors import CroupierError
from croupier.server.ledger import ensure_system_wallets
from croupier.server.models import ROLES, Account, Token, Wallet

TOKEN_LIFETIME = timedelta(hours=12)
_HASHER = PasswordHasher()


class AuthError(CroupierError):
    """Not signed in, a bad password or token, or a role that may not do this."""


@dataclass(frozen=True)
class Identity:
    """Who is asking: an account's id, name and role."""

    id: int
    name: str
    role: str


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


def password_ok(stored: str, password: str) -> bool:
    try:
        return _HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def create_account(session: AsyncSession, name: str, password: str, role: str = "player") -> Account:
    if role not in ROLES:
        raise AuthError(f"role {role!r}: the roles are {', '.join(ROLES)}")
    if not name or len(name) > 64 or not name.replace("-", "").replace("_", "").isalnum():
        raise AuthError(f"account name {name!r}: 1-64 letters, digits, - or _")
    if await session.scalar(select(Account.id).where(Account.name == name)) is not None:
        raise AuthError(f"account name {name!r} is taken")
    account = Account(name=name, role=role, password_hash=hash_password(password), created_at=datetime.now(UTC))
    session.add(account)
    await session.flush()
    await ensure_system_wallets(session)
    if role == "player":
        session.add(Wallet(kind="player", account_id=account.id, balance=0))
        await session.flush()
    return account


async def sign_in(session: AsyncSession, name: str, password: str) -> tuple[str, Identity]:
    account = await session.scalar(select(Account).where(Account.name == name))
    if account is None or not password_ok(account.password_hash, password):
        raise AuthError("sign in: unknown name or wrong password")
    token = secrets.token_urlsafe(32)
    session.add(Token(digest=digest(token), account_id=account.id, expires_at=datetime.now(UTC) + TOKEN_LIFETIME))
    await session.flush()
    return token, Identity(account.id, account.name, account.role)


async def identify(session: AsyncSession, token: str) -> Identity:
    row = (
        await session.execute(
            select(Account.id, Account.name, Account.role, Token.expires_at)
            .join(Token, Token.account_id == Account.id)
            .where(Token.digest == digest(token))
        )
    ).first()
    if row is None:
        raise AuthError("unknown or revoked token; sign in again")
    expires = row[3] if row[3].tzinfo else row[3].replace(tzinfo=UTC)
    if expires < datetime.now(UTC):
        raise AuthError("the token has expired; sign in again")
    return Identity(row[0], row[1], row[2])


async def revoke(session: AsyncSession, token: str) -> None:
    """Sign out: the token's row is deleted, so that it identifies no one any more."""
    await session.execute(delete(Token).where(Token.digest == digest(token)))
