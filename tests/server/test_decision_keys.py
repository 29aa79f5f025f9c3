"""A decision sent again under its Idempotency-Key gets its first answer and is not made twice
(docs/protocol.md, Idempotency), found by sending a hit again after a connection that broke.

A decision that moves no money (a hit, a stand) was never stored with its key: a hit sent again read no
stored answer and was taken as new, so the player's hand drew a second card for one click. The process
that runs the table now remembers its decisions' answers under their keys; a decision that adds a stake
is also kept with its key in the database, in the transaction of its money, which answers it once the
table's process has changed (its memory gone). No read of the database goes before a new decision."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from croupier.server.actor import TableActor
from croupier.server.decisions import DECISIONS_REMEMBERED
from croupier.server.idempotency import Keyed, table_scope
from tests.server.conftest import Server, statements
from tests.server.stacked import ONLINE_BURNS, deal_from

ONLINE = 2


def hand(server: Server) -> list[str]:
    """The cards of box 1's first hand (in play, or in the last round once it ended)."""
    view = server.view(ONLINE)
    [box] = [b for b in (view.get("round") or view["last_round"])["boxes"] if b["box"] == 1]
    return list(box["hands"][0]["cards"])


def playing(server: Server, cards: list[str]) -> dict[str, str]:
    """ana alone at the online table, 10 on box 1, the cards ``cards`` dealt: her decision is pending."""
    deal_from(server, ONLINE, [*ONLINE_BURNS, *cards])
    ana = server.login("ana")
    assert server.bet(ana, ONLINE, "1", "10").status_code == 200
    server.advance(10)  # "No more bets"
    pending = server.view(ONLINE)["pending"]
    assert (pending["kind"], pending["player"]) == ("decision", "ana"), pending
    return ana


def test_a_hit_sent_again_under_its_key_gets_its_first_answer_and_draws_no_card(server: Server) -> None:
    """ana's TS 4D against 9H (8C face down): she hits (2C, 16, still to act); the hit sent again with its
    key answers the first answer and leaves her hand as it was (the 5S stays in the shoe); the key sent
    for a stand is refused; after the round the hit sent again still gets its first answer."""
    ana = playing(server, ["TS", "9H", "4D", "8C", "2C", "5S"])
    key = uuid.uuid4().hex
    first = server.act(ana, ONLINE, {"type": "hit", "box": 1, "hand": 0}, key=key)
    assert first.status_code == 200, first.text
    assert hand(server) == ["TS", "4D", "2C"]
    again = server.act(ana, ONLINE, {"type": "hit", "box": 1, "hand": 0}, key=key)
    assert (again.status_code, again.json()) == (200, first.json())
    assert hand(server) == ["TS", "4D", "2C"]
    other = server.act(ana, ONLINE, {"type": "stand", "box": 1, "hand": 0}, key=key)
    assert other.status_code == 422 and "different request" in other.json()["error"], other.text
    assert hand(server) == ["TS", "4D", "2C"]
    stand = server.act(ana, ONLINE, {"type": "stand", "box": 1, "hand": 0})
    assert stand.status_code == 200, stand.text
    assert server.view(ONLINE)["phase"] == "betting"
    late = server.act(ana, ONLINE, {"type": "hit", "box": 1, "hand": 0}, key=key)  # after the round: remembered
    assert (late.status_code, late.json()) == (200, first.json())


def test_a_new_decision_reads_nothing_before_it_is_made(server: Server) -> None:
    ana = playing(server, ["TS", "9H", "4D", "8C", "2C", "5S"])
    with statements() as seen:
        answer = server.act(ana, ONLINE, {"type": "hit", "box": 1, "hand": 0})
    assert answer.status_code == 200, answer.text
    assert not [s for s in seen if "FROM idempotency" in s], seen
    server.play_out(ONLINE, {"ana": ana})


def forget_decisions(server: Server) -> None:
    """What a process that takes the table over knows of its decisions: nothing."""
    server.service.actors[ONLINE].decided.clear()


def test_a_double_sent_again_after_the_tables_process_changed_gets_its_stored_answer(server: Server) -> None:
    """ana doubles her 5D 6H against 9H 8C, draws TC (the round ends: she was alone); sent again once the table's memory
    of its decisions is gone, the double answers its first answer from the database and moves no money."""
    ana = playing(server, ["5D", "9H", "6H", "8C", "TC"])
    key = uuid.uuid4().hex
    body: dict[str, Any] = {"type": "double", "box": 1, "hand": 0, "amount": "10"}
    first = server.act(ana, ONLINE, body, key=key)
    assert first.status_code == 200, first.text
    assert first.json()["staked"] == {"ana": "10.00"}
    after = server.balance(ana)
    forget_decisions(server)
    again = server.act(ana, ONLINE, body, key=key)
    assert (again.status_code, again.json()) == (200, first.json())
    forget_decisions(server)
    other = server.act(ana, ONLINE, {**body, "amount": "5"}, key=key)
    assert other.status_code == 422 and "different request" in other.json()["error"], other.text
    assert server.balance(ana) == after


def test_the_decisions_remembered_are_bounded(server: Server) -> None:
    """The oldest go first: a table's memory of its decisions stays the same size however long it deals."""
    actor = server.service.actors[ONLINE]
    for n in range(DECISIONS_REMEMBERED + 50):
        keyed = Keyed(1, table_scope(ONLINE, "act"), f"k{n}", "act", {"type": "stand", "box": 1})
        actor.decided.keep(keyed, {"accepted": True, "action": "stand"})
    assert len(actor.decided) == DECISIONS_REMEMBERED
    assert (1, f"k{DECISIONS_REMEMBERED + 49}") in actor.decided and (1, "k49") not in actor.decided
    assert (1, "k50") in actor.decided


def test_a_refused_decision_is_refused_by_the_rules_while_the_database_is_away(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A decision the rules refuse reads its key's stored answer; the database away, the rules' refusal
    is the answer (409), not a request that could not be stored (503)."""
    ana = server.login("ana")

    async def away(self: object, command: object) -> None:
        raise OperationalError("SELECT", {}, ConnectionError("the database went away"))

    monkeypatch.setattr(TableActor, "stored_answer", away)
    answer = server.act(ana, ONLINE, {"type": "hit", "box": 1, "hand": 0})
    assert answer.status_code == 409 and "no decision to make now" in answer.json()["error"], answer.text
