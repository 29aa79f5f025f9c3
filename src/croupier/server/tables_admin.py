"""Tables that supervisors open, change and close (docs/protocol.md, "Running the tables").

A table's settings are its game, preset and rule overrides, limits, chip, timers, mode (the server's
shoe or a dealer's card reader), dealer, and whether staff see the live house edges. Every setting is
checked before anything is stored, with the reason named: the rules' own messages for a preset or an
override, the table limits, the chip, and the money every payout of the rule set takes (docs/rules.md §4,
"Money a payout cannot express", Art. 18).

A change never alters a round in play: it is stored as a pending :class:`TableChange`, and the table's
actor applies every pending change when it starts its next shoe (:func:`before_round`). A closed table
takes a change at once. Closing lets the round in play finish; the table takes no new bets and its
actor stops. A closed table stays in the lobby as ``closed`` and may be reopened. Every opening, change,
closing and reopening is kept in ``table_changes``: who, when asked, when applied, what it replaced.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from croupier.errors import CroupierError, RulesError
from croupier.money import parse_amount
from croupier.payouts import verify_table_money
from croupier.server import ledger
from croupier.server.auth import Identity
from croupier.server.commands import Refused
from croupier.server.drivers import GAMES, driver_for, table_rules
from croupier.server.models import Account, GameTable, TableChange

if TYPE_CHECKING:
    from croupier.server.actor import TableActor

MODES = ("rng", "live")
CENT = Decimal("0.01")
SETTINGS = (
    "preset",
    "overrides",
    "min_bet",
    "max_bet",
    "chip",
    "betting_seconds",
    "decision_seconds",
    "squeeze_seconds",
    "mode",
    "dealer",
    "live_edges",
    "insurance_to_chip",
)
"""What a change may set (a table's name and game are fixed when it is opened)."""


def refuse(message: str, status: int = 422) -> Refused:
    return Refused(message, status)


def supervisor_only(identity: Identity, what: str) -> None:
    if identity.role != "supervisor":
        raise refuse(f"only a supervisor may {what}; {identity.name} is a {identity.role}", 403)


# --------------------------------------------------------------------------------------------------
# settings as the API writes them, and as a table row holds them


@dataclass
class Checked:
    """Settings that passed every check, as a row stores them (money in cents)."""

    document: dict[str, Any]
    min_bet: int
    max_bet: int
    chip: int
    dealer_id: int | None
    rules: Any


def settings_document(row: GameTable, dealer: str | None) -> dict[str, Any]:
    """A table's settings in the API's words (money as decimal text)."""
    return {
        "name": row.name,
        "game": row.game,
        "preset": row.preset,
        "overrides": dict(row.overrides),
        "min_bet": ledger.money_text(row.min_bet),
        "max_bet": ledger.money_text(row.max_bet),
        "chip": ledger.money_text(row.chip),
        "betting_seconds": row.betting_seconds,
        "decision_seconds": row.decision_seconds,
        "squeeze_seconds": row.squeeze_seconds,
        "mode": row.mode,
        "dealer": dealer,
        "live_edges": bool(row.live_edges),
        "insurance_to_chip": bool(row.insurance_to_chip),
    }


def lobby_fields(row: GameTable) -> dict[str, Any]:
    """What the lobby adds for every table: its status and timers."""
    return {
        "status": row.status,
        "betting_seconds": row.betting_seconds,
        "decision_seconds": row.decision_seconds,
        "squeeze_seconds": row.squeeze_seconds,
        "live_edges": bool(row.live_edges),
        "insurance_to_chip": bool(row.insurance_to_chip),
    }


def _money(document: dict[str, Any], name: str) -> Decimal:
    raw = document.get(name)
    if raw is None:
        raise refuse(f'{name}: give an amount, e.g. "10"')
    try:
        value = parse_amount(raw, what=name)
    except CroupierError as error:
        raise refuse(str(error)) from None
    if not value.is_finite() or value <= 0:
        raise refuse(f"{name}: {raw!r} is not a positive amount")
    if value % CENT:
        raise refuse(f"{name}: {raw} is not a whole number of cents")
    if value > Decimal(10) ** 12:
        raise refuse(f"{name}: {raw} is above the largest amount a table takes (1,000,000,000,000)")
    return value


def _seconds(document: dict[str, Any], name: str, *, optional: bool = False) -> float | None:
    raw = document.get(name)
    if raw is None and optional:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not 1 <= raw <= 3600:
        raise refuse(f"{name}: a number of seconds from 1 to 3600, got {raw!r}")
    return float(raw)


def _text_overrides(raw: object) -> dict[str, str]:
    if not isinstance(raw, dict):
        raise refuse('overrides: an object of rule parameters, e.g. {"decks": "6"}')
    result: dict[str, str] = {}
    for name, value in raw.items():
        if name in ("min_bet", "max_bet"):
            raise refuse(f"overrides.{name}: the table limits are set with min_bet and max_bet")
        if isinstance(value, bool):
            value = "true" if value else "false"
        if not isinstance(value, str | int) or len(str(value)) > 64:
            raise refuse(f'overrides.{name}: give the value as text, e.g. "true" or "3:2"')
        result[str(name)] = str(value)
    return result


async def check_settings(session: AsyncSession, document: dict[str, Any]) -> Checked:
    """Every check a table's settings must pass; the refusal names the setting and the reason."""
    game = document.get("game")
    if game not in GAMES:
        raise refuse(f"game: {game!r} is not a game here; the games are {', '.join(GAMES)}")
    mode = document.get("mode")
    if mode not in MODES:
        raise refuse(f"mode: {mode!r}; a table deals from the server's shoe (rng) or a dealer's card reader (live)")
    overrides = _text_overrides(document.get("overrides") or {})
    min_bet, max_bet, chip = _money(document, "min_bet"), _money(document, "max_bet"), _money(document, "chip")
    if min_bet > max_bet:
        raise refuse(f"min_bet {min_bet:.2f} is above max_bet {max_bet:.2f}")
    for name, limit in (("min_bet", min_bet), ("max_bet", max_bet)):
        if limit % chip:
            raise refuse(f"{name} {limit:.2f} is not a whole number of the table's {chip:.2f} chips")
    _seconds(document, "betting_seconds")
    _seconds(document, "decision_seconds")
    squeeze_seconds = _seconds(document, "squeeze_seconds", optional=True)
    probe = GameTable(
        game=game,
        preset=str(document.get("preset") or GAMES[game].default_preset),
        overrides=overrides,
        min_bet=ledger.to_minor(min_bet),
        max_bet=ledger.to_minor(max_bet),
    )
    try:
        rules = table_rules(probe)
    except CroupierError as error:  # an unknown preset, an unknown parameter, a value the rules refuse
        raise refuse(str(error)) from None
    if squeeze_seconds is not None and not getattr(rules, "squeeze", False):
        raise refuse("squeeze_seconds: only a baccarat table with squeeze = true has a squeeze time (Art. 16)")
    try:
        verify_table_money(rules, chip, ledger.from_minor(probe.min_bet))
    except RulesError as error:
        raise refuse(str(error)) from None
    dealer_id = None
    dealer = document.get("dealer")
    if dealer is not None:
        account = await session.scalar(select(Account).where(Account.name == str(dealer)))
        if account is None:
            raise refuse(f"dealer: no account {dealer!r}")
        if account.role != "dealer":
            raise refuse(f"dealer: {account.name} is a {account.role}, not a dealer")
        dealer_id = account.id
    clean = {
        **document,
        "preset": probe.preset,
        "overrides": overrides,
        "min_bet": f"{min_bet:.2f}",
        "max_bet": f"{max_bet:.2f}",
        "chip": f"{chip:.2f}",
        "live_edges": bool(document.get("live_edges", False)),
        "insurance_to_chip": bool(document.get("insurance_to_chip", False)),
    }
    return Checked(clean, probe.min_bet, probe.max_bet, ledger.to_minor(chip), dealer_id, rules)


# --------------------------------------------------------------------------------------------------
# what the routes do


async def dealer_name(session: AsyncSession, dealer_id: int | None) -> str | None:
    if dealer_id is None:
        return None
    return await session.scalar(select(Account.name).where(Account.id == dealer_id))


async def pending_changes(session: AsyncSession, table_id: int) -> list[TableChange]:
    return list(
        (
            await session.scalars(
                select(TableChange)
                .where(
                    TableChange.table_id == table_id,
                    TableChange.kind == "change",
                    TableChange.applied_at.is_(None),
                )
                .order_by(TableChange.id)
            )
        ).all()
    )


async def table_document(session: AsyncSession, row: GameTable) -> dict[str, Any]:
    """A table's settings, status and the settings it will have once its pending changes apply."""
    document = {"id": row.id, **settings_document(row, await dealer_name(session, row.dealer_id))}
    document["status"] = row.status
    pending = await pending_changes(session, row.id)
    document["pending"] = [{"change": c.id, "settings": dict(c.settings)} for c in pending]
    return document


async def _row(session: AsyncSession, table_id: int) -> GameTable:
    row = await session.get(GameTable, table_id)
    if row is None:
        raise refuse(f"table {table_id}: no such table", 404)
    return row


def _store(row: GameTable, checked: Checked) -> None:
    document = checked.document
    row.preset = document["preset"]
    row.overrides = dict(document["overrides"])
    row.min_bet, row.max_bet, row.chip = checked.min_bet, checked.max_bet, checked.chip
    row.betting_seconds = float(document["betting_seconds"])
    row.decision_seconds = float(document["decision_seconds"])
    row.squeeze_seconds = None if document.get("squeeze_seconds") is None else float(document["squeeze_seconds"])
    row.mode = document["mode"]
    row.dealer_id = checked.dealer_id
    row.live_edges = bool(document["live_edges"])
    row.insurance_to_chip = bool(document.get("insurance_to_chip", False))


async def create_table(session: AsyncSession, identity: Identity, body: dict[str, Any], now: datetime) -> GameTable:
    """Open a table (in the caller's transaction); its actor starts with the next lease round."""
    supervisor_only(identity, "open a table")
    name = str(body.get("name", "")).strip()
    if not name:
        raise refuse("name: give the table a name")
    document = {k: body.get(k) for k in ("game", *SETTINGS)}
    document["overrides"] = _with_squeeze(body, dict(body.get("overrides") or {}))
    checked = await check_settings(session, document)
    taken = await session.scalar(select(GameTable.id).where(GameTable.name == name))
    if taken is not None:
        raise refuse(f"name: a table named {name!r} exists already (table {taken})", 409)
    row = GameTable(name=name, game=document["game"], status="open")
    _store(row, checked)
    session.add(row)
    await session.flush()
    session.add(
        TableChange(
            table_id=row.id,
            account_id=identity.id,
            kind="create",
            settings={"name": name, **checked.document},
            previous=None,
            requested_at=now,
            applied_at=now,
        )
    )
    return row


async def change_table(
    session: AsyncSession, identity: Identity, table_id: int, body: dict[str, Any], now: datetime
) -> TableChange:
    """Record a change; a running table applies it at its next shoe, a closed one at once."""
    supervisor_only(identity, "change a table")
    row = await _row(session, table_id)
    for fixed in ("name", "game"):
        if body.get(fixed) is not None:
            raise refuse(f"{fixed}: a table's {fixed} is fixed when it is opened; open another table")
    asked = {k: v for k, v in body.items() if k in SETTINGS}
    if row.status == "closing":
        raise refuse(f"table {row.name} is closing; change it once it is closed", 409)
    current = settings_document(row, await dealer_name(session, row.dealer_id))
    upcoming = dict(current)
    for change in await pending_changes(session, row.id):
        upcoming.update(change.settings)
    before = dict(upcoming)
    if body.get("squeeze") is not None:
        asked["overrides"] = _with_squeeze(body, dict(asked.get("overrides", upcoming["overrides"])))
    upcoming.update(asked)
    checked = await check_settings(session, upcoming)
    changed = {k: checked.document[k] for k in asked if checked.document[k] != before.get(k)}
    if not changed:
        raise refuse("nothing to change: the table has (or will have at its next shoe) these settings")
    change = TableChange(
        table_id=row.id, account_id=identity.id, kind="change", settings=changed, requested_at=now, previous=None
    )
    if row.status == "closed":
        change.previous = {k: current.get(k) for k in changed}
        change.applied_at = now
        _store(row, checked)
    session.add(change)
    await session.flush()
    return change


async def close_table(session: AsyncSession, identity: Identity, table_id: int, now: datetime) -> GameTable:
    """Mark a table closing (its actor finishes the round in play, then stops), or closed at once where
    no process runs it."""
    supervisor_only(identity, "close a table")
    row = await _row(session, table_id)
    if row.status != "open":
        raise refuse(f"table {row.name} is {row.status} already", 409)
    change = TableChange(table_id=row.id, account_id=identity.id, kind="close", settings={}, requested_at=now)
    if row.owner is None or row.lease_until is None or _aware(row.lease_until) < now:
        row.status = "closed"
        row.owner = None
        row.lease_until = None
        change.applied_at = now
    else:
        row.status = "closing"
    session.add(change)
    return row


async def reopen_table(session: AsyncSession, identity: Identity, table_id: int, now: datetime) -> GameTable:
    supervisor_only(identity, "reopen a table")
    row = await _row(session, table_id)
    if row.status != "closed":
        raise refuse(f"table {row.name} is {row.status}; only a closed table may be reopened", 409)
    row.status = "open"
    session.add(
        TableChange(
            table_id=row.id, account_id=identity.id, kind="reopen", settings={}, requested_at=now, applied_at=now
        )
    )
    return row


async def change_log(session: AsyncSession, identity: Identity, table_id: int) -> list[dict[str, Any]]:
    supervisor_only(identity, "read a table's changes")
    await _row(session, table_id)
    rows = (
        await session.execute(
            select(TableChange, Account.name)
            .join(Account, Account.id == TableChange.account_id)
            .where(TableChange.table_id == table_id)
            .order_by(TableChange.id)
        )
    ).all()
    return [
        {
            "change": change.id,
            "kind": change.kind,
            "by": name,
            "settings": dict(change.settings),
            "previous": None if change.previous is None else dict(change.previous),
            "requested_at": _aware(change.requested_at).isoformat(),
            "applied_at": None if change.applied_at is None else _aware(change.applied_at).isoformat(),
        }
        for change, name in rows
    ]


def _with_squeeze(body: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """``squeeze`` in a body is the baccarat rule parameter of that name (Art. 16), set with the overrides."""
    if body.get("squeeze") is not None:
        overrides["squeeze"] = "true" if body["squeeze"] else "false"
    return overrides


def _takes_changes_now(actor: TableActor) -> bool:
    """Whether the table's next round begins a shoe (or none was dealt from it yet): pending changes apply."""
    return actor.shoe_id is None or actor.driver.needs_shoe() or actor.round_number == 0


async def _anything_before_round(actor: TableActor) -> bool:
    """Whether the table is to close, or has pending changes to take now (:func:`before_round`, which reads
    both again in its writing transaction: what is read here only spares the rounds that have nothing)."""
    if actor.closing:
        return True
    new_shoe = _takes_changes_now(actor)
    async with actor.readers() as session:
        status = await session.scalar(select(GameTable.status).where(GameTable.id == actor.table_id))
        if status is None:
            return False
        if status in ("closing", "closed"):
            return True
        return new_shoe and bool(await pending_changes(session, actor.table_id))


def _aware(moment: datetime) -> datetime:
    from datetime import UTC

    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


# --------------------------------------------------------------------------------------------------
# the actor's side


async def before_round(actor: TableActor) -> bool:
    """Between two rounds: close the table if it is closing (returns True: the actor stops), and apply the
    pending changes where the table starts a new shoe now, or has dealt no round from its shoe yet. Whether
    there is anything to do is read first, outside any writing transaction: most rounds have nothing, and
    on SQLite a writing transaction waits for its turn at the write gate, and holds every other table's
    writes back while it reads."""
    now = actor.clock.now()
    if not await _anything_before_round(actor):
        return False
    async with actor.sessions() as session, session.begin():
        row = await session.get(GameTable, actor.table_id)
        if row is None:
            return False
        if actor.closing or row.status in ("closing", "closed"):
            row.status = "closed"
            row.owner = None
            row.lease_until = None
            for change in (
                await session.scalars(
                    select(TableChange).where(
                        TableChange.table_id == row.id, TableChange.kind == "close", TableChange.applied_at.is_(None)
                    )
                )
            ).all():
                change.applied_at = now
            closing = True
        else:
            closing = False
            pending = await pending_changes(session, row.id)
            new_shoe = _takes_changes_now(actor)
            if not pending or not new_shoe:
                return False
            current = settings_document(row, await dealer_name(session, row.dealer_id))
            upcoming = dict(current)
            for change in pending:
                change.previous = {k: upcoming.get(k) for k in change.settings}
                change.applied_at = now
                upcoming.update(change.settings)
            try:
                checked = await check_settings(session, upcoming)
            except Refused:  # checked when asked; it can fail now only if an account changed since: they wait
                for change in pending:
                    change.applied_at = None
                    change.previous = None
                return False
            _store(row, checked)
            applied = [c.id for c in pending]
    if closing:
        actor.phase = "closed"
        await actor.end_shoe()
        await actor.publish({"type": "table_closed"})
        actor.idle.set()  # it waits for nothing any more
        return True
    actor.row = row
    actor.rules = table_rules(row)
    actor.driver = driver_for(actor.game, actor.rules)
    await actor.publish({"type": "table_changed", "changes": applied})
    return False
