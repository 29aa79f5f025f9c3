"""A table's shoes: a new one's commitment published first, then the cut, then the shoe built and
dealt from (docs/rules.md §5, Art. 2.1); an ended one's seed revealed (``ended_at``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import update

from croupier.rng import commitment
from croupier.server import seating
from croupier.server.models import ShoeRecord
from croupier.shoe import Shoe

if TYPE_CHECKING:
    from croupier.server.actor import TableActor


async def new_shoe(actor: TableActor) -> None:
    """A new shoe: its commitment is published first; then the first seated player may cut (supply
    the client seed, docs/rules.md §5, Art. 2.1 "a player cuts"); then the shoe is built and dealt from."""
    rules = actor.rules
    live = actor.row.mode == "live"
    seed = b""
    async with actor.sessions() as session, session.begin():
        record = ShoeRecord(
            table_id=actor.table_id,
            mode="live" if live else "fair",
            client_seed=f"table-{actor.table_id}",
            rules={k: getattr(actor.row, k) for k in ("preset", "overrides", "min_bet", "max_bet")},
            started_at=actor.clock.now(),
        )
        session.add(record)
        await session.flush()
        record.nonce = record.id
        if not live:
            seed = actor.seeds(record.id)
            record.server_seed = seed.hex()
            record.commitment = commitment(seed)
        shoe_id, nonce, client_seed = record.id, record.nonce, record.client_seed
        actor.commitment = record.commitment
    actor.shoe_id = shoe_id  # stored: a fault from here on ends it
    actor.round_number = 0
    await actor.publish({"type": "new_shoe", "shoe": shoe_id, "commitment": actor.commitment})
    if live:
        shoe = Shoe.live(rules.decks)
    else:
        cut = await seating.await_cut(actor)
        if cut is not None:
            client_seed = cut
        shoe = actor.driver.build(seed, client_seed, nonce)
        actor.driver.load(shoe)
        # what the shoe's start procedure drew at once (baccarat Art. 2.1: the turned first card and its
        # burns): no round's, so kept with the shoe for croupier verify (shown once the shoe has ended)
        async with actor.sessions() as session, session.begin():
            await session.execute(
                update(ShoeRecord)
                .where(ShoeRecord.id == shoe_id)
                .values(
                    client_seed=client_seed,
                    cut_card=shoe.cut_card,
                    start_cards=[str(card) for card in shoe.drawn()],
                )
            )
        return
    actor.driver.load(shoe)


async def end_shoe(actor: TableActor) -> None:
    if actor.shoe_id is None:
        return
    async with actor.sessions() as session, session.begin():
        await session.execute(
            update(ShoeRecord).where(ShoeRecord.id == actor.shoe_id).values(ended_at=actor.clock.now())
        )
    await actor.publish({"type": "shoe_ended", "shoe": actor.shoe_id})
    actor.shoe_id = None
