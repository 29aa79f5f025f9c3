"""Sign-in throttling: failures counted per name and per address, then a growing lockout.

Each *rule* lets a key (a name's key, an address) fail ``free`` times; every failure beyond that locks
the key for ``base`` seconds, doubling with each further failure up to ``cap``. A failure is forgotten
every ``forget`` seconds, so a key that stops failing is free again in time, and one that keeps
failing is held to about one try per ``forget`` seconds. While a key is locked every try is refused at
once, before any password is checked: the right password too, or the lockout would tell an attacker
when a guess was right. A successful sign-in forgets the name's failures (not the address's: one
account of one's own must not clear the way to guessing others').

The counts are rows of the database (``sign_in_failures``), not of a process's memory: every process
of a server shares them, on SQLite and on PostgreSQL alike, and they survive a restart. Redis would do
as well but is optional here, and the database is written on every sign-in anyway (the token). A row
is updated under a row lock (``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite's writers are serial), so
two failures at once are both counted. Rows idle for a day are deleted as failures come.

Registrations are counted per address with the same machinery (scope ``register``): each answer to an
account opening that gets as far as the name's check counts, so names cannot be probed for being
taken faster than the rule allows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, or_, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from croupier.server.commands import Refused
from croupier.server.models import SignInFailure


@dataclass(frozen=True)
class Rule:
    scope: str
    free: int
    """Failures allowed before the first lock."""
    forget: float
    """Seconds after which one failure is forgotten."""
    base: float = 2.0
    cap: float = 900.0


NAME = Rule("name", free=5, forget=600)
"""Per account name (its key, so ``Ana`` and ``ana`` count together; unknown names count alike)."""
ADDRESS = Rule("address", free=100, forget=30)
"""Per client address: many names tried from one place (a casino floor shares one, hence 100)."""
REGISTER = Rule("register", free=20, forget=180)
"""Account openings per client address."""

IDLE = timedelta(days=1)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def lock_seconds(rule: Rule, failures: int) -> float:
    """How long ``failures`` (counted, not yet forgotten) lock a key: 0 up to ``rule.free``."""
    if failures <= rule.free:
        return 0.0
    return float(min(rule.cap, rule.base * 2.0 ** min(failures - rule.free - 1, 30)))


class Throttled(Refused):
    """A sign-in (or an account opening) refused because its name or address is locked for a while."""

    def __init__(self, message: str, seconds: int) -> None:
        super().__init__(message, 429)
        self.seconds = seconds
        self.headers = {"Retry-After": str(seconds)}


async def check(session: AsyncSession, keys: list[tuple[Rule, str]], now: datetime, what: str = "sign in") -> None:
    """Refuse (429, :class:`Throttled`) when any of ``keys`` is locked at ``now``, naming the wait."""
    waits: dict[str, float] = {}
    for rule, key in keys:
        until = await session.scalar(
            select(SignInFailure.locked_until).where(SignInFailure.scope == rule.scope, SignInFailure.key == key)
        )
        if until is not None and _aware(until) > now:
            waits[rule.scope] = max(waits.get(rule.scope, 0.0), (_aware(until) - now).total_seconds())
    if not waits:
        return
    seconds = max(1, math.ceil(max(waits.values())))
    if what == "register":
        message = f"register: too many accounts opened from this address; try again in {seconds} s"
    else:
        whose = "this account" if "name" in waits else "this address"
        message = (
            f"{what}: too many failed attempts for {whose}; try again in {seconds} s "
            "(until then even the right password is refused)"
        )
    raise Throttled(message, seconds)


async def failed(session: AsyncSession, rule: Rule, key: str, now: datetime) -> float:
    """Count a failure of ``key`` under ``rule``; the lock it now has, in seconds (0: none)."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    await session.execute(
        dialect.insert(SignInFailure)
        .values(scope=rule.scope, key=key, failures=0, last_failure=now, locked_until=None)
        .on_conflict_do_nothing()
    )
    row = (
        await session.execute(
            select(SignInFailure)
            .where(SignInFailure.scope == rule.scope, SignInFailure.key == key)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
    ).scalar_one()
    forgotten = int(max(0.0, (now - _aware(row.last_failure)).total_seconds()) // rule.forget)
    row.failures = max(0, row.failures - forgotten) + 1
    row.last_failure = now
    seconds = lock_seconds(rule, row.failures)
    row.locked_until = now + timedelta(seconds=seconds) if seconds else None
    await session.execute(
        delete(SignInFailure).where(
            SignInFailure.last_failure < now - IDLE,
            or_(SignInFailure.locked_until.is_(None), SignInFailure.locked_until < now),
        )
    )
    await session.flush()
    return seconds


async def succeeded(session: AsyncSession, rule: Rule, key: str) -> None:
    """Forget ``key``'s failures (a sign-in with the right password, when nothing was locked)."""
    await session.execute(delete(SignInFailure).where(SignInFailure.scope == rule.scope, SignInFailure.key == key))
