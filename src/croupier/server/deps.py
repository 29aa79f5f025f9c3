"""What the routers share: the request's database sessions, the caller, the path numbers and the
``Idempotency-Key`` header, each as a FastAPI dependency bound to the :class:`Service`."""

from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Annotated

from fastapi import Header
from fastapi import Path as PathParam
from sqlalchemy.ext.asyncio import AsyncSession

if TYPE_CHECKING:
    from croupier.server.service import Service

STAFF = ("dealer", "supervisor")
"""Roles that may see a table's surveillance figures (the live house edges, where the table shows them)."""

MAX_ID = 2**62
"""The largest record number a path may name (database integers are 64-bit)."""

TableId = Annotated[int, PathParam(ge=1, le=MAX_ID, description="A table's number")]
RoundId = Annotated[int, PathParam(ge=1, le=MAX_ID, description="A round's number")]
ShoeId = Annotated[int, PathParam(ge=1, le=MAX_ID, description="A shoe's number")]
Key = Annotated[str | None, Header(alias="Idempotency-Key", max_length=128)]


def read_session(service: "Service") -> Callable[[], AsyncIterator[AsyncSession]]:
    """The dependency that gives a route a session for reading, closed when the request ends."""

    async def read_db() -> AsyncIterator[AsyncSession]:
        async with service.reader() as session:
            yield session

    return read_db
