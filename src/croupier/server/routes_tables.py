"""The supervisor's routes for running the tables: open, read, change, close, reopen, the change log.

The work is in :mod:`croupier.server.tables_admin`; these routes sign the caller in, hold the database
transaction, and start or stop the table's actor once the transaction is kept.
"""

import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, Header
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import IntegrityError

from croupier.server import tables_admin
from croupier.server.auth import AuthError, Identity, digest, lookup
from croupier.server.commands import Command, Refused
from croupier.server.inputs import Amount as Money
from croupier.server.inputs import Seconds, StrictBool

if TYPE_CHECKING:
    from croupier.server.service import Service

MAX_ID = 2**62


class TableSettings(BaseModel):
    """The settings a change may set; in a change every field is optional."""

    model_config = ConfigDict(extra="forbid")

    preset: str | None = Field(default=None, max_length=32, description="macau-1983, live-online; baccarat: macau")
    overrides: dict[str, str | int | bool] | None = Field(
        default=None, description='Rule parameters by name (docs/rules.md §3, §4): {"decks": "6"}'
    )
    min_bet: Money | None = None
    max_bet: Money | None = None
    chip: Money | None = None
    betting_seconds: Seconds | None = None
    decision_seconds: Seconds | None = None
    squeeze_seconds: Seconds | None = Field(default=None, description="Baccarat with squeeze = true (Art. 16)")
    mode: str | None = Field(default=None, max_length=8, description="rng (the server's shoe) or live (a card reader)")
    dealer: str | None = Field(default=None, max_length=64, description="A dealer account's name")
    squeeze: StrictBool | None = Field(default=None, description="Baccarat's squeeze rule (Art. 16), as an override")
    live_edges: StrictBool | None = Field(
        default=None, description="Players see each bet's exact live house edge (staff always do)"
    )
    insurance_to_chip: StrictBool | None = Field(
        default=None,
        description="Blackjack: insurance may be half the bet rounded up to the next chip (online §2.5.1)",
    )


class NewTable(TableSettings):
    name: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9 ._-]*$")
    game: str = Field(min_length=1, max_length=16, description="blackjack or baccarat")
    min_bet: Money
    max_bet: Money
    chip: Money = "1"
    betting_seconds: Seconds = 15.0
    decision_seconds: Seconds = 20.0
    mode: str = "rng"
    live_edges: StrictBool = False
    insurance_to_chip: StrictBool = False


class TableChangeBody(TableSettings):
    name: str | None = Field(default=None, description="Fixed when the table is opened: refused")
    game: str | None = Field(default=None, description="Fixed when the table is opened: refused")


def signed_in(service: "Service") -> Callable[..., Awaitable[Identity]]:
    """The dependency that reads the caller's bearer token: from the process's memory of the tokens used in
    the last few seconds, else from the database (a session of its own, closed at once)."""

    async def who(authorization: Annotated[str | None, Header()] = None) -> Identity:
        if not authorization or not authorization.lower().startswith("bearer "):
            raise AuthError("sign in first: send Authorization: Bearer TOKEN")
        token = authorization[7:].strip()
        key = digest(token)
        known = service.identities.get(key)  # a token used in the last few seconds (croupier.server.identities)
        if known is not None:
            return known
        generation = service.identities.generation
        async with service.reader() as session:
            identity, expires = await lookup(session, token, service.clock.now())
        service.identities.put(key, identity, expires, generation)
        return identity

    return who


def tables_router(service: "Service") -> APIRouter:
    router = APIRouter(prefix="/api/tables", tags=["running the tables"])
    Me = Annotated[Identity, Depends(signed_in(service))]
    TableId = Annotated[int, PathParam(ge=1, le=MAX_ID, description="A table's number")]

    async def start_tables() -> None:
        """Start a table opened or reopened here at once, rather than at the next lease round."""
        if service.settings.run_tables:
            await service.lease_round()

    @router.post("", status_code=201)
    async def open_table(body: NewTable, identity: Me) -> dict[str, Any]:
        """Open a table (supervisor). It is in the lobby, and running, when this answers."""
        try:
            async with service.session() as session, session.begin():
                row = await tables_admin.create_table(
                    session, identity, body.model_dump(exclude_none=True), service.clock.now()
                )
                table_id = row.id
        except IntegrityError:  # the same name, raced
            raise Refused(f"name: a table named {body.name!r} exists already", 409) from None
        await start_tables()
        async with service.reader() as session:
            return await tables_admin.table_document(session, await _get(session, table_id))

    @router.get("/{table_id}/settings")
    async def table_settings(table_id: TableId, identity: Me) -> dict[str, Any]:
        """A table's settings, status and pending changes (supervisor)."""
        tables_admin.supervisor_only(identity, "read a table's settings")
        async with service.reader() as session:
            return await tables_admin.table_document(session, await _get(session, table_id))

    @router.patch("/{table_id}")
    async def change_table(table_id: TableId, body: TableChangeBody, identity: Me) -> dict[str, Any]:
        """Change a table (supervisor): it applies when the table starts its next shoe; a closed table's at once."""
        async with service.session() as session, session.begin():
            change = await tables_admin.change_table(
                session, identity, table_id, body.model_dump(exclude_unset=True), service.clock.now()
            )
            change_id, applied = change.id, change.applied_at is not None
        async with service.reader() as session:
            document = await tables_admin.table_document(session, await _get(session, table_id))
        return {"change": change_id, "applies": "now" if applied else "next_shoe", "table": document}

    @router.delete("/{table_id}", status_code=202)
    async def close_table(table_id: TableId, identity: Me) -> dict[str, Any]:
        """Close a table (supervisor): the round in play finishes, no new bets are taken, its actor stops."""
        async with service.session() as session, session.begin():
            row = await tables_admin.close_table(session, identity, table_id, service.clock.now())
            name, status = row.name, row.status
        if status == "closing":
            # where the process that ran it is gone, whoever takes the table over closes it at once
            with contextlib.suppress(Refused):
                await service.submit(table_id, Command("close", identity, {}))
        return {"id": table_id, "name": name, "status": status}

    @router.post("/{table_id}/reopen")
    async def reopen_table(table_id: TableId, identity: Me) -> dict[str, Any]:
        """Reopen a closed table (supervisor), with its settings and any change made while it was closed."""
        async with service.session() as session, session.begin():
            await tables_admin.reopen_table(session, identity, table_id, service.clock.now())
        await start_tables()
        async with service.reader() as session:
            return await tables_admin.table_document(session, await _get(session, table_id))

    @router.get("/{table_id}/changes")
    async def changes(table_id: TableId, identity: Me) -> list[dict[str, Any]]:
        """Every opening, change, closing and reopening of the table, oldest first (supervisor)."""
        async with service.reader() as session:
            return await tables_admin.change_log(session, identity, table_id)

    return router


async def _get(session: Any, table_id: int) -> Any:
    from croupier.server.models import GameTable

    row = await session.get(GameTable, table_id)
    if row is None:
        raise Refused(f"table {table_id}: no such table", 404)
    return row
