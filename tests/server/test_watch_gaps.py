"""A viewer's socket misses no event: neither one published while its snapshot was being made, nor those of
a table started again (in this process or another) while the socket stayed open.

The browser applies a snapshot, then each event whose ``seq`` is above the snapshot's (docs/protocol.md,
"The WebSocket"): an event that falls between the snapshot and the subscription is lost for good, and a
table whose new actor numbers its events from 1 again would have every event it publishes ignored."""

from __future__ import annotations

from typing import Any

from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import Server
from tests.server.test_seats import restart_with

ONLINE = 2


def test_an_event_published_while_the_snapshot_is_made_reaches_the_viewer(sqlite_server: Server) -> None:
    """Regression: the socket took the snapshot (awaiting the table, or another process through Redis) and
    accepted the connection before it subscribed, so an event published meanwhile never reached it."""
    server = sqlite_server
    service = server.service
    original = service.snapshot

    async def snapshot_then_an_event(table_id: int, viewer: str | None, staff: bool = False) -> dict[str, Any]:
        view = await original(table_id, viewer, staff)
        # what the table publishes while this socket is being opened, after its snapshot was made
        await service.hub.publish(
            f"table:{table_id}",
            {"table": table_id, "seq": view["seq"] + 1, "at": "2026-01-01T00:00:00+00:00", "event": {"type": "probe"}},
        )
        return view

    service.snapshot = snapshot_then_an_event  # type: ignore[method-assign]
    ana = server.login("ana")
    with server.client.websocket_connect(f"/ws/tables/{ONLINE}") as socket:
        first = socket.receive_json()
        assert first["type"] == "snapshot"
        service.snapshot = original  # type: ignore[method-assign]
        assert server.bet(ana, ONLINE, "1", "10").status_code == 200  # an event to read up to
        seen: list[str] = []
        while "bet" not in seen:
            seen.append(socket.receive_json()["event"]["type"])
        assert "probe" in seen, f"the event published after the snapshot was lost: the viewer saw {seen}"
    server.advance(10)
    server.play_out(ONLINE, {"ana": ana})


def test_events_up_to_the_snapshot_are_not_sent_again(sqlite_server: Server) -> None:
    """The socket subscribes before its snapshot is made: an event the snapshot holds already is not sent
    after it (every event after the snapshot has a higher ``seq``)."""
    server = sqlite_server
    service = server.service
    original = service.snapshot

    async def an_event_then_the_snapshot(table_id: int, viewer: str | None, staff: bool = False) -> dict[str, Any]:
        actor = service.actors[table_id]
        await service.hub.publish(
            f"table:{table_id}",
            {"table": table_id, "seq": actor.seq, "at": "2026-01-01T00:00:00+00:00", "event": {"type": "old"}},
        )
        return await original(table_id, viewer, staff)

    service.snapshot = an_event_then_the_snapshot  # type: ignore[method-assign]
    ana = server.login("ana")
    with server.client.websocket_connect(f"/ws/tables/{ONLINE}") as socket:
        snapshot = socket.receive_json()["snapshot"]
        service.snapshot = original  # type: ignore[method-assign]
        assert server.bet(ana, ONLINE, "1", "10").status_code == 200
        while True:
            message = socket.receive_json()
            assert message["seq"] > snapshot["seq"], f"an event the snapshot holds was sent after it: {message}"
            if message["event"]["type"] == "bet":
                break
    server.advance(10)
    server.play_out(ONLINE, {"ana": ana})


def test_a_table_started_again_makes_its_viewers_resync(sqlite_server: Server) -> None:
    """Regression: a table's new actor (a restart, or a takeover by another process) numbers its events from
    1 again, and the open sockets went on sending them: a browser ignores every event whose ``seq`` is not
    above its snapshot's, so its view froze. The sockets are now closed with 4408, and the reconnected
    viewer's fresh snapshot carries the new numbering."""
    server = sqlite_server
    ana = server.login("ana")
    with server.client.websocket_connect(f"/ws/tables/{ONLINE}") as socket:
        snapshot = socket.receive_json()["snapshot"]
        assert snapshot["seq"] >= 1
        restart_with(server, ONLINE)
        assert server.bet(ana, ONLINE, "1", "10").status_code == 200
        try:
            while True:
                message = socket.receive_json()
                assert message["seq"] > snapshot["seq"], f"the socket sent an event its viewer ignores: {message}"
                if message["event"]["type"] == "bet":
                    break
        except WebSocketDisconnect as closed:
            assert closed.code == 4408
            assert "reconnect" in closed.reason
    with server.client.websocket_connect(f"/ws/tables/{ONLINE}") as socket:
        again = socket.receive_json()["snapshot"]
        assert again["round"]["boxes"][0]["bets"] == {"ana": "10"}
    server.advance(10)
    server.play_out(ONLINE, {"ana": ana})


def _events(message: dict[str, Any]) -> list[dict[str, Any]]:
    return list(message["events"]) if message["type"] == "events" else [message]


def test_a_socket_opened_with_batch_gets_the_events_that_came_together_in_one_message(sqlite_server: Server) -> None:
    """``?batch=1``: the events waiting for a socket together go as one message, in order; a socket without
    it gets each as a message of its own; a signed-in viewer's own legal actions are in its events either way."""
    server = sqlite_server
    service = server.service
    ana = server.login("ana")
    token = ana["Authorization"].split()[1]

    async def burst() -> None:
        seq = service.actors[ONLINE].seq
        for n in range(1, 4):  # published in one go, as a deal's cards are
            message = {"table": ONLINE, "seq": seq + n, "at": "2026-01-01T00:00:00+00:00", "event": {"type": f"p{n}"}}
            await service.hub.publish(f"table:{ONLINE}", message)

    with (
        server.client.websocket_connect(f"/ws/tables/{ONLINE}?batch=1") as batched,
        server.client.websocket_connect(f"/ws/tables/{ONLINE}") as plain,
        server.client.websocket_connect(f"/ws/tables/{ONLINE}?batch=true&token={token}") as own,
    ):
        for socket in (batched, plain, own):
            assert socket.receive_json()["type"] == "snapshot"
        server.client.portal.call(burst)
        together = batched.receive_json()
        assert together["type"] == "events"
        assert [event["event"]["type"] for event in together["events"]] == ["p1", "p2", "p3"]
        assert [plain.receive_json()["event"]["type"] for _ in range(3)] == ["p1", "p2", "p3"]
        assert [event["event"]["type"] for event in _events(own.receive_json())] == ["p1", "p2", "p3"]
        assert server.bet(ana, ONLINE, "1", "10").status_code == 200
        seen: list[dict[str, Any]] = []
        while not any(event["event"]["type"] == "bet" for event in seen):
            seen.extend(_events(own.receive_json()))
        bet = next(event for event in seen if event["event"]["type"] == "bet")
        assert isinstance(bet["your_actions"], list)
        assert "actions" not in bet
        for socket in (batched, plain):  # the anonymous viewers: the bet, without anyone's actions
            seen = []
            while not any(event["event"]["type"] == "bet" for event in seen):
                seen.extend(_events(socket.receive_json()))
            assert all("your_actions" not in event and "actions" not in event for event in seen)
    server.advance(10)
    server.play_out(ONLINE, {"ana": ana})
