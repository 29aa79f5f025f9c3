"""What a request becomes at a table: a :class:`Command` on its actor's queue, or :class:`Refused`."""

from __future__ import annotations

import asyncio
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from croupier.errors import CroupierError
from croupier.server.auth import Identity


class Refused(CroupierError):
    """A command the table refuses; ``status`` is the HTTP status to answer with; ``code`` and ``params``
    name the refusal for a page that says it in its own language (``croupier.server.codes``: when not
    given, the code is found from the English text)."""

    def __init__(
        self, message: str, status: int = 409, code: str | None = None, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.params = params


@dataclass
class Command:
    kind: str  # bet, act, card, void
    identity: Identity
    payload: dict[str, Any]
    key: str | None = None
    future: asyncio.Future[dict[str, Any]] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


def request_digest(kind: str, payload: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps([kind, payload], sort_keys=True, default=str).encode()).hexdigest()
