"""No rule ever stops a table: a fault inside a round voids the round, and the table deals on.

A table actor runs one round after another. Anything unexpected that goes wrong while it does (an
engine that refuses what the table asks of it during the deal or the settlement, a payout that is
not a whole number of cents, a shoe that cannot be loaded, an event that cannot be published, a bug)
is a **fault**. A fault never ends the actor's task. :func:`contain`:

1. refuses the commands waiting on the table (503: the table is recovering) and takes no new ones
   until it is done (the phase reads ``fault``);
2. voids the round in play, if one was, and returns every stake of it, in one database transaction
   (:meth:`~croupier.server.actor.TableActor.refund`: the same as after a crash, Art. 2.1); the
   reason and the fault are recorded on the round (``result.voided``, ``result.fault``). While the
   database is away the refund is tried again, with a growing pause, for as long as it takes: no
   money is left in play, none is returned twice (the round's status is read in the same
   transaction);
3. logs the fault, publishes it (``fault``, and ``round_voided`` with ``"fault": true``) and keeps it
   in the table's last faults, which the snapshot shows to the supervisor's console;
4. ends the shoe and starts the game afresh (a new shoe: after a fault the engine's state is
   doubtful), and the table deals on.

A table that cannot even be set up (its stored rules are no longer valid) does not start: it is
``stopped``, with the reason in its view and in every refusal.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import update

from croupier.server.drivers import driver_for
from croupier.server.fence import LeaseLost
from croupier.server.models import RoundRecord, ShoeRecord

if TYPE_CHECKING:
    from croupier.server.actor import TableActor

log = logging.getLogger("croupier.server")

T = TypeVar("T")

KEPT = 10
"""How many of a table's last faults its snapshot shows."""

FIRST_PAUSE = 0.05
LONGEST_PAUSE = 5.0
"""The pause between two tries of a refund (or of the shoe's end) while the database is away, in
seconds: doubled after each failure, up to the longest."""


class RoundFault(Exception):
    """A request's money was stored, and then the engine failed to make its move: the round is void.

    Deliberately not a :class:`~croupier.errors.CroupierError`: it is not the rules refusing a
    request (409), but a fault the table must contain."""


@dataclass(frozen=True)
class Fault:
    """A fault as the table keeps and shows it."""

    at: str
    during: str  # betting, playing, between rounds, starting
    round: int | None  # the round voided for it; None when no bet was in play
    error: str  # the exception's kind; its message is in the server's log and on the round record
    reason: str

    def document(self) -> dict[str, Any]:
        return {"at": self.at, "during": self.during, "round": self.round, "error": self.error, "reason": self.reason}


def new_log() -> deque[Fault]:
    return deque(maxlen=KEPT)


@contextlib.contextmanager
def after_commit(what: str) -> Iterator[None]:
    """Around an engine move made after its request's money was stored: any failure is a fault
    (the round is void and the money returned), never a refusal that would leave the money taken."""
    try:
        yield
    except Exception as error:
        raise RoundFault(
            f"{what}: the engine failed after the money was taken: {type(error).__name__}: {error}"
        ) from error


def during(phase: str) -> str:
    return {"betting": "betting", "playing": "playing"}.get(phase, "between rounds")


def reason_for(phase: str) -> str:
    return (
        f"a fault of the server while {during(phase)}: the round is void and every bet is returned "
        "(Art. 2.1; online §3.5)"
    )


async def patiently(actor: TableActor, what: str, operation: Callable[[], Awaitable[T]]) -> T:
    """``operation()``, tried again with a growing pause until it succeeds (the database may be away)."""
    pause = actor.first_pause
    while True:
        try:
            return await operation()
        except (asyncio.CancelledError, LeaseLost):  # another process runs the table now: no retry
            raise
        except Exception:
            log.warning("table %s: %s failed; trying again in %.2f s", actor.name, what, pause, exc_info=True)
            await actor.pause(pause)
            pause = min(pause * 2, LONGEST_PAUSE)


async def contain(actor: TableActor, error: BaseException) -> None:
    """Void the round in play after ``error``, return its bets, and leave the table ready to deal on."""
    phase = actor.phase
    log.error("table %s: a fault while %s", actor.name, during(phase), exc_info=error)
    actor.phase = "fault"
    actor.deadline = None
    actor.deadline_at = None
    refuse_waiting(actor)
    reason = reason_for(phase)
    fault_record = {"during": during(phase), "error": f"{type(error).__name__}: {error}"}
    round_id = actor.round_id
    try:
        cards = list(actor.voided_cards) + (actor.round.cards_drawn() if actor.round is not None else [])
    except Exception:  # the round's own state may be what failed
        cards = list(actor.voided_cards)
    log_so_far = list(actor.log)

    async def refund() -> tuple[bool, dict[int, int]]:
        if round_id is None:
            return False, {}
        async with actor.sessions() as session, session.begin():
            record = await session.get(RoundRecord, round_id)
            if record is None or record.status not in ("betting", "playing"):
                return False, {}  # settled (or voided) before the fault: nothing is in play
            balances = await actor.refund(session, record, reason)
            record.result = {**(record.result or {}), "fault": fault_record}
            record.cards = cards
            record.log = [*log_so_far, {"at": actor.clock.now().isoformat(), **voided_event(reason)}]
            return True, balances

    voided, balances = await patiently(actor, "returning the bets of a round void after a fault", refund)
    fault = Fault(
        actor.clock.now().isoformat(),
        during(phase),
        round_id if voided else None,
        type(error).__name__,
        reason if voided else f"a fault of the server while {during(phase)}; no round in play was void for it",
    )
    actor.faults.append(fault)
    actor.fault_streak += 1
    await quietly(actor, {"type": "fault", **fault.document()})
    if voided:
        await quietly(actor, voided_event(reason))
        await quietly(actor, {"type": "round_over", "round": round_id, "voided": True})
        for account_id, cents in balances.items():
            with contextlib.suppress(Exception):
                await actor.tell_balance(account_id, cents)
    await end_shoe(actor)
    fresh_game(actor)
    if actor.fault_streak > 1:  # the same fault again and again: do not spin
        await actor.pause(min(actor.first_pause * 2**actor.fault_streak, LONGEST_PAUSE))
    actor.phase = "idle"


def voided_event(reason: str) -> dict[str, Any]:
    return {"type": "round_voided", "reason": reason, "fault": True}


def refuse_waiting(actor: TableActor) -> None:
    for command in actor.waiting():
        if not command.future.done():
            command.future.set_exception(unavailable(actor))


def unavailable(actor: TableActor) -> Exception:
    """The refusal a command gets while the table recovers from a fault (or has stopped)."""
    from croupier.server.commands import Refused

    if actor.stopped_reason is not None:
        return Refused(f"table {actor.name} is stopped: {actor.stopped_reason}", 503)
    return Refused(
        f"table {actor.name} is recovering from a fault: the round in play is void and its bets are being "
        "returned; try again in a moment",
        503,
    )


async def end_shoe(actor: TableActor) -> None:
    """End the shoe in play (tried until the database takes it); its end is published if it can be."""
    shoe_id = actor.shoe_id
    if shoe_id is None:
        return

    async def store() -> None:
        async with actor.sessions() as session, session.begin():
            await session.execute(update(ShoeRecord).where(ShoeRecord.id == shoe_id).values(ended_at=actor.clock.now()))

    await patiently(actor, "ending the shoe after a fault", store)
    actor.shoe_id = None
    await quietly(actor, {"type": "shoe_ended", "shoe": shoe_id})


def fresh_game(actor: TableActor) -> None:
    """Forget the round and the engine's state: the next round is dealt from a new shoe."""
    actor.round = None
    actor.round_id = None
    actor.shoe_id = None
    actor.log = []
    actor.accounts = {}
    actor.balance_before = {}
    actor.misdeals = []
    actor.voided_cards = []
    actor.ops_seen = 0
    actor.end_shoe_after_round = False
    actor.driver = driver_for(actor.game, actor.rules)


async def quietly(actor: TableActor, event: dict[str, Any]) -> None:
    """Publish ``event``; a publication that fails is logged (the table deals on)."""
    try:
        await actor.publish(event)
    except Exception:
        log.warning("table %s: could not publish %s", actor.name, event.get("type"), exc_info=True)
