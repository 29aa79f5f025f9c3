"""Idempotency keys: a request sent again with the same ``Idempotency-Key`` gets its first answer.

A key is an account's, within a *scope*: a table's operation (``table:7:bet``) or the cashier's
(``cashier:deposit``); the same key in another scope is another request. The answer is stored in the
same database transaction as the money it moved (``IdempotencyRecord``), so a key is kept exactly when
its request was; a key sent again for a different request is refused (422).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from croupier.server.commands import Refused, request_digest
from croupier.server.models import IdempotencyRecord


def table_scope(table_id: int, kind: str) -> str:
    """A table's operation: the same key sent to another table, or for another operation, is another request."""
    return f"table:{table_id}:{kind}"


def cashier_scope(kind: str) -> str:
    """The cashier's operation: never a table's bet or decision."""
    return f"cashier:{kind}"


def reused(key: str) -> Refused:
    return Refused(f"Idempotency-Key {key!r} was used for a different request; use a new key", 422)


class Keyed:
    """One request under a key: who sent it, in which scope, and what it asks (its digest)."""

    def __init__(self, account_id: int, scope: str, key: str, kind: str, payload: dict[str, Any]) -> None:
        self.account_id = account_id
        self.scope = scope
        self.key = key
        self.digest = request_digest(kind, payload)

    async def replayed(self, session: AsyncSession) -> dict[str, Any] | None:
        """The answer this key was first given, or None when it is new; a key kept for a different
        request is refused (:func:`reused`)."""
        record = await session.scalar(
            select(IdempotencyRecord).where(
                IdempotencyRecord.account_id == self.account_id,
                IdempotencyRecord.scope == self.scope,
                IdempotencyRecord.key == self.key,
            )
        )
        if record is None:
            return None
        if record.request_digest != self.digest:
            raise reused(self.key)
        return dict(record.response)

    def remember(self, session: AsyncSession, answer: dict[str, Any], now: datetime) -> None:
        """Keep ``answer`` for this key, in the caller's transaction (it commits with the money)."""
        session.add(IdempotencyRecord(**self.row(answer, now)))

    def row(self, answer: dict[str, Any], now: datetime) -> dict[str, Any]:
        """The record that keeps ``answer`` for this key, as a row (for a group's one insert)."""
        return {
            "account_id": self.account_id,
            "scope": self.scope,
            "key": self.key,
            "request_digest": self.digest,
            "status": 200,
            "response": answer,
            "created_at": now,
        }


async def replayed_all(session: AsyncSession, requests: list[Keyed]) -> list[dict[str, Any] | Refused | None]:
    """:meth:`Keyed.replayed` for each of ``requests`` (one scope), by one query: each one's first answer,
    its refusal (:func:`reused`), or None when it is new."""
    if not requests:
        return []
    scope = requests[0].scope
    records = (
        await session.scalars(
            select(IdempotencyRecord).where(
                IdempotencyRecord.scope == scope,
                IdempotencyRecord.key.in_(sorted({request.key for request in requests})),
            )
        )
    ).all()
    found = {(record.account_id, record.key): record for record in records}
    answers: list[dict[str, Any] | Refused | None] = []
    for request in requests:
        record = found.get((request.account_id, request.key))
        if record is None:
            answers.append(None)
        elif record.request_digest != request.digest:
            answers.append(reused(request.key))
        else:
            answers.append(dict(record.response))
    return answers


class Remembered:
    """Answers kept in a process's memory under their keys (account, key), at most ``most`` of them, the
    oldest forgotten first: a table's decisions, which its process answers again from here without a read
    of the database (``croupier.server.decisions``)."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._answers: dict[tuple[int, str], tuple[str, dict[str, Any]]] = {}  # in the order kept

    def __len__(self) -> int:
        return len(self._answers)

    def __contains__(self, account_and_key: object) -> bool:
        return account_and_key in self._answers

    def recall(self, request: Keyed) -> dict[str, Any] | None:
        """The answer kept for ``request``'s key, or None; a key kept for a different request is refused."""
        kept = self._answers.get((request.account_id, request.key))
        if kept is None:
            return None
        digest, answer = kept
        if digest != request.digest:
            raise reused(request.key)
        return dict(answer)

    def keep(self, request: Keyed, answer: dict[str, Any]) -> None:
        self._answers[(request.account_id, request.key)] = (request.digest, dict(answer))
        while len(self._answers) > self.most:
            del self._answers[next(iter(self._answers))]

    def clear(self) -> None:
        self._answers.clear()
