"""A table's event to thousands of watchers is handed on a share at a time, so that the process's other
work (a bet's request, its database's answers, a table's timer) is not kept waiting behind all of them;
every subscriber still gets every event, in the order the events were published."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from croupier.server.hub import DELIVER_TURN, Delivery, Hub, Subscription


def _held(subscription: Subscription) -> list[Any]:
    """What waits in ``subscription``'s queue, in order (left there)."""
    items = list(subscription.queue._queue)  # type: ignore[attr-defined]
    return [item.message["n"] for item in items]


def test_an_event_to_many_watchers_lets_other_work_run_before_the_last_of_them_has_it() -> None:
    async def run() -> tuple[int, int, list[list[Any]]]:
        hub = Hub()
        watchers = [hub.subscribe("table:1") for _ in range(3 * DELIVER_TURN + 1)]
        seen_by_then: list[int] = []
        await hub.publish("table:1", {"n": 1})
        # a callback ready right after the event was published: a bet's request, a database's answer
        asyncio.get_running_loop().call_soon(lambda: seen_by_then.append(sum(bool(_held(w)) for w in watchers)))
        for _ in range(10):
            await asyncio.sleep(0)
        return seen_by_then[0], len(watchers), [_held(w) for w in watchers]

    seen, everyone, held = asyncio.run(run())
    assert seen < everyone  # the others' work ran before the last watchers had the event
    assert held == [[1]] * everyone  # and then every watcher had it, once


def test_a_few_watchers_get_an_event_at_once() -> None:
    async def run() -> list[list[Any]]:
        hub = Hub()
        watchers = [hub.subscribe("table:1") for _ in range(DELIVER_TURN)]
        await hub.publish("table:1", {"n": 1})
        return [_held(w) for w in watchers]  # no turn of the event loop yet

    assert asyncio.run(run()) == [[1]] * DELIVER_TURN


def test_every_watcher_gets_the_events_in_their_order_across_channels() -> None:
    """Events that came together for the same watchers are handed on together (each watcher's task woken
    once for them); an event of another channel published between them (a player's balance) keeps its
    place for a watcher of both; one who subscribes later gets only what comes after."""

    async def run() -> tuple[list[list[Any]], list[list[Any]], list[Any], list[Any]]:
        hub = Hub()
        watchers = [hub.subscribe("table:1") for _ in range(2 * DELIVER_TURN)]
        player = hub.subscribe("table:1", "account:7")
        await hub.publish("table:1", {"n": 1})
        await hub.publish("table:1", {"n": 2})
        await hub.publish("account:7", {"n": 3})  # few subscribers, but after events still being handed on
        await hub.publish("table:1", {"n": 4})
        await asyncio.sleep(0)  # one turn of the event loop
        after_one_turn = [_held(w) for w in watchers]
        late = hub.subscribe("table:1")
        await hub.publish("table:1", {"n": 5})
        for _ in range(40):
            await asyncio.sleep(0)
        return after_one_turn, [_held(w) for w in watchers], _held(player), _held(late)

    first, held, player, late = asyncio.run(run())
    assert [] in first and [1, 2] in first  # a share of the watchers, each with both events at once
    assert all(one in ([], [1, 2]) for one in first)
    assert held == [[1, 2, 4, 5]] * len(held)
    assert player == [1, 2, 3, 4, 5]
    assert late == [5]


def test_a_players_frame_is_the_shared_frame_with_their_own_actions_last() -> None:
    """A player's socket gets the event's one shared text with their own legal actions added, not the whole
    event encoded again for each player; the other players' actions are never in it."""
    actions = {"zoë": [{"type": "stand", "box": 2, "hand": 0}], "": [{"type": "bet"}]}
    delivery = Delivery({"table": 1, "seq": 4, "event": {"type": "await", "player": "zoë"}, "actions": actions})
    shared = delivery.frame("actions")
    for name, expected in (("zoë", actions["zoë"]), ("ana", actions[""])):
        text = delivery.frame_for("actions", name)
        assert text.startswith(shared[:-1])
        body = json.loads(text)
        assert list(body)[-1] == "your_actions" and body["your_actions"] == expected
        assert body == {
            "type": "event",
            "table": 1,
            "seq": 4,
            "event": json.loads(shared)["event"],
            "your_actions": expected,
        }
    assert delivery.frame("actions") is shared  # made once
