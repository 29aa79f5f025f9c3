"""The live view: a WebSocket per table viewer, with the table's events and, for a signed-in player,
their own private events and legal actions. Documented close codes: 4401, 4404, 4408, 4000 + status."""

from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from croupier.server import actor
from croupier.server.auth import AuthError, Identity, identify
from croupier.server.auth import digest as auth_digest
from croupier.server.commands import Refused
from croupier.server.deps import MAX_ID, STAFF
from croupier.server.hub import Subscription

if TYPE_CHECKING:
    from croupier.server.service import Service

ACTION_EVENTS = actor.ACTION_EVENTS
"""Events after which a signed-in viewer is sent their legal actions."""
RESTARTED = actor.RESTARTED
RESTART_REASON = "the table started again: reconnect for a fresh snapshot"
BATCH_MOST = 100
"""Events sent as one message to a socket opened with ``?batch=1``, at most: a table's deal is a burst of
events, and thousands of watchers cost a server a write (and a wakeup of each socket's task) per message,
not per event."""


async def refuse_socket(websocket: WebSocket, code: int, reason: str) -> None:
    """Refuse a WebSocket with one of the documented close codes (4401, 4404, …) and the reason: it is
    accepted first, then closed, since a close before the handshake reaches the client as a bare HTTP 403
    with neither. A close frame's reason holds at most 123 bytes: a longer one is cut at a character."""
    await websocket.accept()
    await websocket.close(code=code, reason=reason.encode()[:123].decode(errors="ignore"))


def revoked(signed_out: dict[str, Any], token: str) -> bool:
    """Whether a ``signed_out`` message (its ``tokens``, else all but ``keep``) revoked ``token``."""
    mine = auth_digest(token)
    if signed_out.get("tokens") is not None:
        return mine in signed_out["tokens"]
    return bool(mine != signed_out.get("keep"))


async def _viewer(service: "Service", websocket: WebSocket, token: str | None) -> tuple[bool, Identity | None]:
    """Who watches (None: no one signed in); False when the socket was refused."""
    if not token:
        return True, None
    try:
        async with service.reader() as session:
            return True, await identify(session, token, service.clock.now())
    except AuthError as error:
        await refuse_socket(websocket, 4401, str(error))
        return False, None


async def _stream(
    service: "Service",
    websocket: WebSocket,
    table_id: int,
    identity: Identity | None,
    token: str | None,
    subscription: Subscription,
    snapshot: dict[str, Any],
    batch: bool,
) -> None:
    """Send the snapshot, then the table's (and the viewer's own) events until the viewer goes, is too
    slow, or signs out. ``subscription`` was made before the snapshot, so that no event falls between: an
    event the snapshot holds already (its ``seq`` not above the snapshot's) is not sent again. ``batch``:
    the events waiting together go as one message (``{"type": "events", "events": [...]}``), a lone one
    as itself."""
    held = int(snapshot.get("seq") or 0)
    try:
        await websocket.send_json({"type": "snapshot", "snapshot": snapshot})
        async for deliveries in subscription.batches(BATCH_MOST if batch else 1):
            frames: list[str] = []
            for delivery in deliveries:
                message = delivery.message
                if "signed_out" in message:  # tokens of this account were revoked (routes_accounts)
                    if token and revoked(message["signed_out"], token):
                        await _send(websocket, frames)
                        await websocket.close(code=4401, reason="the token was revoked; sign in again")
                        return
                    continue
                if RESTARTED in message:  # a new actor numbers its events from 1 again: the view starts afresh
                    await _send(websocket, frames)
                    await websocket.close(code=4408, reason=RESTART_REASON)
                    return
                if message.get("seq", held + 1) <= held:  # in the snapshot already (the browser skips it too)
                    continue
                if identity is None or actor.ACTIONS not in message:  # the same text for every such viewer
                    frames.append(delivery.frame(actor.ACTIONS))
                else:  # the table (in whichever process runs it) sent every player's legal actions: theirs only
                    frames.append(delivery.frame_for(actor.ACTIONS, identity.name))
            await _send(websocket, frames)
        await websocket.close(code=4408, reason=subscription.reason)  # too slow, or a resync after an outage
    except WebSocketDisconnect:
        pass


async def _send(websocket: WebSocket, frames: list[str]) -> None:
    """The frames as one message: an event alone, several as ``{"type": "events", "events": [...]}``."""
    if len(frames) == 1:
        await websocket.send_text(frames[0])
    elif frames:
        await websocket.send_text('{"type":"events","events":[' + ",".join(frames) + "]}")


def live_router(service: "Service") -> APIRouter:
    router = APIRouter()

    @router.websocket("/ws/tables/{table_id}")
    async def watch(websocket: WebSocket, table_id: int, token: str | None = None, batch: bool = False) -> None:
        if not 1 <= table_id <= MAX_ID:
            await refuse_socket(websocket, 4404, f"table {table_id}: no such table")
            return
        known, identity = await _viewer(service, websocket, token)
        if not known:
            return
        channels = [f"table:{table_id}"]
        if identity is not None:
            channels.append(f"account:{identity.id}")
        subscription = service.hub.subscribe(*channels)  # before the snapshot: nothing published falls between
        try:
            try:
                snapshot = await service.snapshot(
                    table_id, identity.name if identity else None, staff=identity is not None and identity.role in STAFF
                )
            except Refused as refused:
                await refuse_socket(websocket, 4000 + refused.status, str(refused))
                return
            await websocket.accept()
            service.metrics.sockets.inc()
            try:
                await _stream(service, websocket, table_id, identity, token, subscription, snapshot, batch)
            finally:
                service.metrics.sockets.dec()
        finally:
            subscription.close()

    return router
