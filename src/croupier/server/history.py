"""History and recall: a player's rounds, a round's transcript, a shoe's verification document."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from croupier.errors import CroupierError
from croupier.server import ledger
from croupier.server.drivers import game_of, table_rules
from croupier.server.models import BetRecord, GameTable, RoundRecord, Settlement, ShoeRecord


class HistoryError(CroupierError):
    """A record that does not exist, or may not be shown to this account yet."""

    def __init__(self, message: str, status: int = 404) -> None:
        super().__init__(message)
        self.status = status


def dealt_under(table: GameTable, shoe: ShoeRecord) -> GameTable:
    """The table as it was when ``shoe`` was dealt: a supervisor may change its rules between shoes."""
    if not shoe.rules:
        return table
    return GameTable(
        game=table.game,
        preset=shoe.rules["preset"],
        overrides=dict(shoe.rules["overrides"]),
        min_bet=int(shoe.rules["min_bet"]),
        max_bet=int(shoe.rules["max_bet"]),
    )


async def player_history(
    session: AsyncSession, account_id: int, limit: int, before: int | None = None
) -> list[dict[str, Any]]:
    """The account's latest settled or voided rounds, newest first: bets, cards, decisions with their
    times, payments, and the balance before and after. ``before``: only rounds older than that round
    (the next page: pass the last round of the page before)."""
    query = select(BetRecord.round_id).where(BetRecord.account_id == account_id)
    if before is not None:
        query = query.where(BetRecord.round_id < before)
    round_ids = (
        await session.scalars(query.group_by(BetRecord.round_id).order_by(BetRecord.round_id.desc()).limit(limit))
    ).all()
    result = []
    for round_id in round_ids:
        record = await session.get(RoundRecord, round_id)
        if record is None or record.status not in ("settled", "voided"):
            continue
        table = await session.get(GameTable, record.table_id)
        bets = (
            await session.scalars(
                select(BetRecord).where(BetRecord.round_id == round_id, BetRecord.account_id == account_id)
            )
        ).all()
        settlement = await session.scalar(
            select(Settlement).where(Settlement.round_id == round_id, Settlement.account_id == account_id)
        )
        first = min(bets, key=lambda b: b.id) if bets else None
        before = settlement.balance_before if settlement else (first.balance_after + first.amount if first else None)
        result.append(
            {
                "round": record.id,
                "table": table.name if table else record.table_id,
                "game": table.game if table else None,
                "shoe": record.shoe_id,
                "number": record.number,
                "status": record.status,
                "started_at": iso(record.started_at),
                "ended_at": iso(record.ended_at) if record.ended_at else None,
                "bets": [
                    {
                        "kind": b.kind,
                        "spot": b.spot,
                        "amount": ledger.money_text(b.amount),
                        "at": iso(b.created_at),
                    }
                    for b in bets
                ],
                "events": [e for e in (record.log or []) if e.get("type") not in ("betting_open",)],
                "result": _public_result(record.result),
                "staked": ledger.money_text(settlement.staked) if settlement else None,
                "returned": ledger.money_text(settlement.returned) if settlement else None,
                "balance_before": None if before is None else ledger.money_text(before),
                "balance_after": ledger.money_text(settlement.balance_after) if settlement else None,
            }
        )
    return result


def iso(moment: datetime) -> str:
    """A stored time as ISO 8601 in UTC (SQLite returns it without its zone)."""
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()


def _public_result(result: dict[str, Any] | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {k: v for k, v in result.items() if k != "burned"}  # burned cards are never shown face up


async def round_document(session: AsyncSession, round_id: int, account_id: int, role: str) -> dict[str, Any]:
    record = await session.get(RoundRecord, round_id)
    if record is None:
        raise HistoryError(f"round {round_id}: no such round")
    await _may_see(session, record, account_id, role)
    return {
        "round": record.id,
        "table": record.table_id,
        "shoe": record.shoe_id,
        "number": record.number,
        "status": record.status,
        "events": record.log,
        "result": _public_result(record.result),
    }


async def _may_see(session: AsyncSession, record: RoundRecord, account_id: int, role: str) -> None:
    if role == "supervisor":
        return
    took_part = await session.scalar(
        select(BetRecord.id).where(BetRecord.round_id == record.id, BetRecord.account_id == account_id).limit(1)
    )
    if took_part is None:
        raise HistoryError(f"round {record.id}: you had no bet in it", 403)


async def transcript(session: AsyncSession, round_id: int, account_id: int, role: str) -> dict[str, Any]:
    """The transcript (docs/transcript.md) that replays the round: its shoe from the start, with every earlier
    round of that shoe. A player gets it once the shoe has ended (its burned cards and order are then
    no secret, docs/rules.md §5); a supervisor at once."""
    record = await session.get(RoundRecord, round_id)
    if record is None:
        raise HistoryError(f"round {round_id}: no such round")
    await _may_see(session, record, account_id, role)
    if record.status != "settled":
        raise HistoryError(f"round {round_id} is {record.status}; only a settled round has a transcript", 409)
    shoe = await session.get(ShoeRecord, record.shoe_id)
    table = await session.get(GameTable, record.table_id)
    assert shoe is not None and table is not None
    if shoe.ended_at is None and role != "supervisor":
        raise HistoryError(
            f"round {round_id}: its shoe is still in play; the transcript is yours when the shoe ends "
            "(docs/rules.md §5)",
            409,
        )
    earlier = (
        await session.scalars(
            select(RoundRecord)
            .where(RoundRecord.shoe_id == record.shoe_id, RoundRecord.id <= record.id)
            .order_by(RoundRecord.id)
        )
    ).all()
    cards: list[str] = list(shoe.start_cards or [])  # the shoe's start (baccarat Art. 2.1), before any round
    specs: list[dict[str, Any]] = []
    for played in earlier:
        if played.status != "settled" or played.spec is None:
            raise HistoryError(
                f"round {round_id}: round {played.id} of the same shoe was {played.status}, so the shoe cannot be "
                "replayed past it",
                409,
            )
        cards.extend(played.cards or [])
        specs.append(played.spec)
    rules = table_rules(dealt_under(table, shoe))
    document: dict[str, Any] = {"game": table.game, "rules": rules.preset}
    overrides = game_of(table.game).rule_overrides(rules)
    if overrides:
        document["overrides"] = overrides
    document["shoe"] = cards
    if shoe.cut_card is not None:
        document["cut_card"] = shoe.cut_card
    document["rounds"] = specs
    return document


async def shoe_document(session: AsyncSession, shoe_id: int) -> dict[str, Any]:
    """What ``croupier verify`` and the page's fairness check rebuild and compare (docs/protocol.md, "History and
    fairness"): the commitment; once the shoe ended, its seed, the cut card's setting and place, the cards drawn
    before the first round (``start_cards``: baccarat's turned first card and its burns, Art. 2.1) and every
    round's cards in the order drawn. Before the end nothing of the order is shown (docs/rules.md §5)."""
    shoe = await session.get(ShoeRecord, shoe_id)
    if shoe is None:
        raise HistoryError(f"shoe {shoe_id}: no such shoe")
    table = await session.get(GameTable, shoe.table_id)
    assert table is not None
    rules = table_rules(dealt_under(table, shoe))
    rounds = (
        await session.scalars(select(RoundRecord).where(RoundRecord.shoe_id == shoe_id).order_by(RoundRecord.id))
    ).all()
    ended = shoe.ended_at is not None
    document: dict[str, Any] = {
        "shoe": shoe.id,
        "table": table.name,
        "game": table.game,
        "rules": rules.preset,
        "overrides": game_of(table.game).rule_overrides(rules),
        "decks": rules.decks,
        "mode": shoe.mode,
        "commitment": shoe.commitment,
        "server_seed": shoe.server_seed if ended else None,
        "client_seed": shoe.client_seed,
        "nonce": shoe.nonce,
        "ended": ended,
        "cut_setting": _cut_setting(table.game, rules) if ended else None,
        "cut_card": shoe.cut_card if ended else None,
        "start_cards": list(shoe.start_cards or []) if ended else [],
        "rounds": [
            {"round": r.id, "number": r.number, "status": r.status, "cards": r.cards}
            for r in rounds
            if ended and r.cards is not None
        ],
    }
    return document


def _cut_setting(game: str, rules: Any) -> list[int] | int | None:
    """How the shoe's cut card was placed: ``[low, high]`` cards from the end (one draw of the seed's stream
    before the shuffle), a fixed count of cards above it, or none (:func:`croupier.shoe.place_cut_card`)."""
    setting = game_of(game).cut_setting(rules)
    return list(setting) if isinstance(setting, tuple) else setting
