"""Each decision has its own timer (docs/rules.md, live online details), found while writing benchmarks/load.py.

After a hit that leaves the hand to act, the player makes a new decision: it gets a fresh timer and an
``await`` event naming the player, like the first. (The table once treated it as the same wait, since
the pending decision compares equal: same player, box and hand; it published no ``await`` and stood the
hand when the first decision's timer ran out.)
"""

from __future__ import annotations

from typing import Any

from tests.server.conftest import Server

ONLINE = 2
DECISION_SECONDS = 10  # conftest's tables


def first_hit_that_leaves_the_hand_to_act(server: Server, ana: dict[str, str]) -> dict[str, Any] | None:
    """Play rounds until ana's hand, hit once, is still to act; return the view then (None: no such round)."""
    for _ in range(40):
        assert server.bet(ana, ONLINE, "1", "10").status_code == 200
        server.advance(10)  # "No more bets"
        view = server.view(ONLINE, ana)
        waits_for_ana = view.get("pending", {}).get("player") == "ana"
        if view["phase"] == "playing" and waits_for_ana and any(a["type"] == "hit" for a in view["your_actions"]):
            server.advance(DECISION_SECONDS * 0.6)  # ana thinks for 6 of her 10 seconds, then hits
            answer = server.act(ana, ONLINE, {"type": "hit", "box": 1, "hand": 0})
            assert answer.status_code == 200, answer.text
            view = server.view(ONLINE, ana)
            if view.get("pending") == {"kind": "decision", "player": "ana", "box": 1, "hand": 0}:
                return view
        server.play_out(ONLINE, {"ana": ana})
        server.advance(0)
    return None


def test_the_decision_after_a_hit_has_a_fresh_timer_and_an_await(sqlite_server: Server) -> None:
    server = sqlite_server
    ana = server.login("ana")
    view = first_hit_that_leaves_the_hand_to_act(server, ana)
    assert view is not None, "no round in 40 where a hit left ana's hand to act"
    actor = server.service.actors[ONLINE]
    after_hit = [e["type"] for e in actor.log][[e["type"] for e in actor.log].index("hit") :]
    server.advance(DECISION_SECONDS * 0.6)  # 12 s after the first 'await', 6 s after the hit
    still = server.view(ONLINE, ana)
    try:
        assert "await" in after_hit, f"no 'await' for the decision after the hit: {after_hit}"
        assert still.get("pending") == {"kind": "decision", "player": "ana", "box": 1, "hand": 0}, still
    finally:
        server.play_out(ONLINE, {"ana": ana})
