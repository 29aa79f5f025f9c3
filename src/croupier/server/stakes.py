"""The money a table actor moves: bets, the stakes a decision adds, settlement, and bets standing after a
tie. Each movement is one database transaction with its records (and the request's idempotency
record); the engine moves only after it is committed.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from croupier.money import format_amount
from croupier.server import ledger
from croupier.server.commands import Command, Refused
from croupier.server.db import retrying
from croupier.server.models import BetRecord, LedgerTransaction, RoundRecord, Settlement, Wallet

if TYPE_CHECKING:
    from croupier.server.actor import TableActor
    from croupier.server.game_round import GameRound


async def player_wallet(actor: TableActor, session: AsyncSession, account_id: int) -> int:
    """The wallet of ``account_id`` (a player's wallet is theirs for good: found once, then remembered)."""
    wallet = actor.player_wallets.get(account_id)
    if wallet is None:
        wallet = actor.player_wallets[account_id] = await ledger.player_wallet(session, account_id)
    return wallet


async def _stake(
    actor: TableActor,
    session: AsyncSession,
    round_id: int,
    account_id: int,
    player: str,
    cents: int,
    *,
    ledger_kind: str,
    kind: str,
    spot: str,
    memo: str,
) -> int:
    """Move ``cents`` from the player's wallet onto the table for ``round_id``, with its bet record; the
    wallet's balance after it."""
    wallet = await player_wallet(actor, session, account_id)
    in_play = actor.own_wallets().in_play
    transaction, after = await ledger.post(
        session,
        ledger_kind,
        [(wallet, -cents), (in_play, cents)],
        round_id=round_id,
        memo=memo,
        who=player,
        now=actor.clock.now(),
    )
    session.add(
        BetRecord(
            round_id=round_id,
            account_id=account_id,
            kind=kind,
            spot=spot,
            amount=cents,
            balance_after=after[wallet],
            transaction_id=transaction.id,
            created_at=actor.clock.now(),
        )
    )
    return after[wallet]


def _next_record(actor: TableActor, shoe_id: int | None, number: int) -> RoundRecord:
    return RoundRecord(
        table_id=actor.table_id,
        shoe_id=shoe_id,
        number=number,
        status="betting",
        started_at=actor.clock.now(),
        log=[],
    )


async def round_record(actor: TableActor, session: AsyncSession) -> int:
    """The id of the round record the bets are taken on: the round's, made by its first bet."""
    if actor.round_id is not None:
        return actor.round_id
    record = _next_record(actor, actor.shoe_id, actor.round_number + 1)
    session.add(record)
    await session.flush()
    return record.id


async def lock_bettors(actor: TableActor, session: AsyncSession, account_ids: list[int]) -> None:
    """The wallets a group of bets moves, locked at once, in one order (no deadlock with another table's
    group that shares a player)."""
    wallets = [await player_wallet(actor, session, account_id) for account_id in sorted(set(account_ids))]
    await ledger.lock_wallets(session, [actor.own_wallets().in_play, *wallets])


async def cannot_cover(actor: TableActor, money: dict[str, int], decider: str) -> set[str]:
    """The bettors other than ``decider`` whose balance is below their matching stake (Art. 13)."""
    short: set[str] = set()
    async with actor.readers() as session:
        for player, cents in money.items():
            account_id = actor.accounts.get(player)
            if player != decider and account_id is not None and await ledger.balance(session, account_id) < cents:
                short.add(player)
    return short


async def take_stakes(
    actor: TableActor, command: Command, money: dict[str, int], declined: frozenset[str], *, matched: bool = False
) -> tuple[dict[str, Any], dict[int, int]]:
    """A decision's added stakes, each bettor's, in one transaction with its idempotency record; ``matched``:
    the decision asks the box's other bettors to match it (``GameRound.others_match``), and the answer
    names those who declined."""
    action = command.payload
    answer: dict[str, Any] = {"accepted": True, "action": action.get("type")}
    if declined and matched:
        answer["declined_by"] = sorted(declined)
    balances: dict[int, int] = {}
    if not money:
        return answer, balances
    assert actor.round_id is not None
    round_id = actor.round_id

    async def store() -> None:
        balances.clear()
        async with actor.sessions() as session, session.begin():
            wallets = [actor.own_wallets().in_play]
            for player in money:
                if player in actor.accounts:
                    wallets.append(await player_wallet(actor, session, actor.accounts[player]))
            await ledger.lock_wallets(session, wallets)  # the whole set first, in one order (no deadlock)
            for player, cents in sorted(money.items()):
                account_id = actor.accounts.get(player)
                if account_id is None:
                    raise Refused(f"{player} is not at this table")
                balances[account_id] = await _stake(
                    actor,
                    session,
                    round_id,
                    account_id,
                    player,
                    cents,
                    ledger_kind="stake",
                    kind=str(action.get("type")),
                    spot=str(action.get("box")),
                    memo=f"{action.get('type')} on box {action.get('box')}",
                )
            answer["staked"] = {p: ledger.money_text(c) for p, c in money.items()}
            actor.remember(session, command, answer)

    await retrying(store, pause=actor.pause)  # a deadlock rolled it back whole: again
    return answer, balances


async def carry(actor: TableActor, session: AsyncSession, record: RoundRecord, carried: dict[str, Decimal]) -> None:
    """Ties under ``tie_bets=increase_only`` (Art. 18): the tied bets stay on their spots for the next
    coup. The settlement just paid them back; in the same transaction they are staked again on the next
    coup's record, so money in play always belongs to an unfinished round (recovery returns it)."""
    following = _next_record(actor, record.shoe_id, record.number + 1)
    session.add(following)
    await session.flush()
    accounts: dict[str, int] = {}
    before: dict[int, int] = {}
    for player, amount in sorted(carried.items()):
        account_id = actor.accounts[player]
        cents = ledger.to_minor(amount, f"{player}'s bet standing after the tie")
        balance = await _stake(
            actor,
            session,
            following.id,
            account_id,
            player,
            cents,
            ledger_kind="bet",
            kind="carried",
            spot="tie-standing",
            memo="bet standing after a tie (Art. 18)",
        )
        accounts[player] = account_id
        before[account_id] = balance + cents
    actor.carry = (following.id, accounts, before)


async def settle(actor: TableActor, session: AsyncSession, record: RoundRecord, round_: GameRound) -> dict[int, int]:
    """Each bettor's stake back with their result, from the table's money in play and house (``ledger.Postings``:
    a few statements for the whole table), with their settlement records; each account's balance after."""
    bets = (await session.scalars(select(BetRecord).where(BetRecord.round_id == record.id))).all()
    staked_db: dict[int, int] = {}
    for bet in bets:
        staked_db[bet.account_id] = staked_db.get(bet.account_id, 0) + bet.amount
    net = round_.net()
    own = actor.own_wallets()
    wallets = {account_id: await player_wallet(actor, session, account_id) for account_id in actor.accounts.values()}
    # every wallet of the settlement (the players', the house's, the money in play), locked at once in one
    # global order: a push moves no house money, yet the house is locked with the rest (no deadlock)
    every = [own.in_play, own.house, *wallets.values()]
    postings = ledger.Postings(session, "settle", actor.clock.now(), [own.in_play, own.house])
    bettors = sorted(actor.accounts.items())
    moves: list[tuple[int, int, int, list[tuple[int, int]]]] = []
    for player, account_id in bettors:
        staked = staked_db.get(account_id, 0)
        gain = ledger.to_minor(net.get(player, Decimal(0)), f"{player}'s result")
        moves.append(
            (
                staked,
                staked + gain,
                gain,
                [(own.in_play, -staked), (wallets[account_id], staked + gain), (own.house, -gain)],
            )
        )
    memo = f"round {record.id} settled"
    posted = await postings.post_all([(each, record.id, memo) for *_sums, each in moves], lock=every)
    if posted is None:  # a wallet past the most it holds: posted one by one, the refusal names whose
        await ledger.lock_wallets(session, every)
        posted = [
            await postings.post(each, round_id=record.id, memo=memo, who=player)
            for (player, _id), (*_sums, each) in zip(bettors, moves, strict=True)
        ]
    results: list[tuple[int, int, int, int, LedgerTransaction, int | None]] = [
        (account_id, staked, returned, gain, transaction, after.get(wallets[account_id]))
        for (_player, account_id), (staked, returned, gain, _each), (transaction, after) in zip(
            bettors, moves, posted, strict=True
        )
    ]
    unmoved = [wallets[account_id] for account_id, *_rest, balance in results if balance is None]
    found: dict[int, int] = {}
    if unmoved:  # a bettor who lost all: their wallet did not move, its balance is read (one query for all)
        found = dict((await session.execute(select(Wallet.id, Wallet.balance).where(Wallet.id.in_(unmoved)))).all())
    balances: dict[int, int] = {}
    rows = []
    for account_id, staked, returned, gain, transaction, balance in results:
        balance_after = balance if balance is not None else int(found[wallets[account_id]])
        balances[account_id] = balance_after
        rows.append(
            {
                "round_id": record.id,
                "account_id": account_id,
                "staked": staked,
                "returned": returned,
                "balance_before": actor.balance_before.get(account_id, balance_after - gain),
                "balance_after": balance_after,
                "transaction_id": transaction,
            }
        )
    await postings.write([(Settlement.__table__, rows)])  # type: ignore[list-item]
    record.status = "settled"
    record.ended_at = actor.clock.now()
    record.spec = round_.spec()
    record.result = round_.result()
    return balances


def watch_edge(actor: TableActor, player: str, spot: str, amount: Decimal) -> None:
    """Surveillance: a bet (baccarat's) placed when its spot's exact edge for the cards left favoured the
    player (a negative house edge) is kept for the supervisor's pit view."""
    if actor.round is None:
        return
    edge = actor.round.house_edge().get(spot)  # a game that shows no live edge has none to watch
    if edge is not None and Decimal(edge) < 0:
        actor.alerts.append(
            {
                "at": actor.clock.now().isoformat(),
                "round": actor.round_id,
                "player": player,
                "spot": spot,
                "amount": format_amount(amount),
                "house_edge": edge,
            }
        )
