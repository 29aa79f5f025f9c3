"""Known cards at a server table: a table restarted with a stacked shoe deals exactly the cards a test needs,
so the test asserts exact outcomes (who won, every balance) instead of skipping on the cards it was dealt."""

from __future__ import annotations

from collections.abc import Sequence

from croupier.cards import DECK, Card
from croupier.server.models import GameTable
from croupier.shoe import Shoe
from tests.server.conftest import Server

ONLINE_BURNS = ("2C", "3C", "4C", "5C", "6C", "7C")
"""The six cards a live-online shoe burns at its start (online §3.5)."""
MACAU_BURNS = ("2C", "3C", "4C", "5C", "6C", "7C")
"""The start burns of a six-deck Macau 1983 shoe, as many as decks (Art. 2.1)."""


def stacked_shoe(decks: int, first: Sequence[str]) -> Shoe:
    """``decks`` full decks with ``first`` on top, in that order, and the rest in a fixed order."""
    top = [Card.parse(text) for text in first]
    rest = list(DECK * decks)
    for card in top:
        rest.remove(card)
    return Shoe.stacked(decks, top + rest)


def deal_from(server: Server, table_id: int, first: Sequence[str]) -> None:
    """Restart table ``table_id`` so that every shoe it builds from now on has ``first`` on top.

    The old actor stops (its shoe ends, as after a restart); the new one is given the stacked shoe before
    its task first runs, so it never deals from a shuffled one."""
    service = server.service

    async def go() -> None:
        actor = service.actors.pop(table_id)
        await actor.stop()
        async with service.session() as session:
            row = await session.get(GameTable, table_id)
            assert row is not None
        fresh = service.start_table(row)
        decks = fresh.driver.decks
        fresh.driver.build = lambda *_args: stacked_shoe(decks, first)  # type: ignore[method-assign]

    server.client.portal.call(go)
    server.quiet()
