"""A table actor: one task per table drives its game from a queue of commands, with timers.

The actor is the only writer of its table's rounds. A request (a bet, a decision, a dealer's card)
becomes a command on the queue; the actor verifies it against the engine, writes its money and its
record in one database transaction, and only then makes the move in the engine, so the database and
the engine never disagree about what was accepted. Timers come from an injectable clock: the betting
window closes with "No more bets", and a decision not made in time gets the answer the rules give
(the hand stands, insurance is declined).

Recovery: when an actor starts, a round its table left unfinished (the process stopped or crashed) is
voided and every bet of it returned, in one transaction, and the shoe it was dealt from is ended (its
seed revealed); play goes on from a new shoe.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from croupier.errors import CroupierError
from croupier.server import (
    betting,
    decisions,
    drivers,
    faults,
    idempotency,
    ledger,
    liveshoe,
    seating,
    settlement,
    shoes,
)
from croupier.server.clock import Clock, Sleeper
from croupier.server.commands import Command, Refused
from croupier.server.db import ANSWERED, answered
from croupier.server.fair import new_seed
from croupier.server.fence import LeaseLost
from croupier.server.games import (
    GameRound,
    Pending,
    read_card,
)
from croupier.server.hub import Hub
from croupier.server.models import GameTable, RoundRecord
from croupier.server.seats import BACCARAT_SEATS, Seats

log = logging.getLogger("croupier.server")

ALERTS_KEPT = 50
"""Surveillance alerts a table keeps for the pit view (the newest)."""

ACTION_EVENTS = ("await", "card", "card_turned", "bet", "hit", "stand", "double", "split", "surrender")
"""Events after which a signed-in viewer is sent their legal actions (``your_actions``)."""

ACTIONS = "actions"
"""The key of a table message that carries every player's legal actions (:meth:`TableActor.legal_actions`):
read by the sockets, never sent to a viewer."""

RESTARTED = "restarted"
"""The key of the message an actor publishes on its table's channel as it starts: it numbers its events from
1, so a socket opened on an earlier actor's numbering is closed (4408) and its viewer reconnects for a fresh
snapshot, rather than be sent events that its view (which skips every ``seq`` not above its snapshot's) would
ignore. A table starts again after a restart, a fault's watchdog, or a takeover by another process."""

HANDED_OFF = "handed_off"
"""The phase of an actor that stopped between rounds so that another process may run its table (its process
held more than its share of the tables: ``Service``)."""


class TableActor:
    """Runs one table; see the module docstring.

    Its collaborators (liveshoe, seating, settlement, stakes, shoes, faults, tables_admin) change its state
    and call its public methods only: :meth:`publish` and :meth:`publish_engine_events` (what the table
    sees), :meth:`tell_balance` (a player's balance), :meth:`new_shoe` and :meth:`end_shoe`, :meth:`refund`
    (a round void, its bets returned), :meth:`set_timer` and :meth:`serve_until` (a timed wait), and
    :meth:`remember` (a request's idempotent answer).
    """

    def __init__(
        self,
        row: GameTable,
        sessions: async_sessionmaker[AsyncSession],
        hub: Hub,
        clock: Clock,
        seeds: Callable[[int], bytes] | None = None,
        readers: async_sessionmaker[AsyncSession] | None = None,
        pause: Sleeper = asyncio.sleep,
    ) -> None:
        self.readers = readers or sessions
        self.pause = pause  # the pause between two tries while the database is away (faults.patiently)
        self.seeds = seeds or (lambda _shoe: new_seed())
        self.table_id = row.id
        self.name = row.name
        self.game = row.game
        self.row = row
        self.stopped_reason: str | None = None
        self.idle = asyncio.Event()
        self.faults = faults.new_log()
        self.alerts: deque[dict[str, Any]] = deque(maxlen=ALERTS_KEPT)  # surveillance, for the pit
        self.fault_streak = 0
        self.first_pause = faults.FIRST_PAUSE
        self.end_shoe_after_round = False  # the dealer ended the shoe: the round in play is its last
        self.sessions = sessions
        self.hub = hub
        self.clock = clock
        self.queue: asyncio.Queue[Command] = asyncio.Queue()
        self.backlog: deque[Command] = deque()  # taken from the queue to see what waits, in its order
        self.task: asyncio.Task[None] | None = None
        self.phase = "starting"
        self.deadline: float | None = None
        self.deadline_at: str | None = None
        self.window_late: Callable[[float], None] = lambda _seconds: None  # how late a window closed (metrics)
        self.round: GameRound | None = None
        self.round_id: int | None = None
        self.round_number = 0
        self.shoe_id: int | None = None
        self.commitment: str | None = None
        try:
            self.rules = drivers.table_rules(row)
            self.driver = drivers.driver_for(row.game, self.rules)
        except Exception as error:  # a table that cannot be set up is stopped, with the reason, not a crash
            log.error("table %s cannot start: %s", row.name, error)
            self.rules = None
            self.stopped_reason = f"its rules cannot be set up: {error}"
            self.phase = "stopped"
            self.idle.set()
        self.wallets: ledger.TableWallets | None = None  # the table's own (settlement.recover finds them)
        self.player_wallets: dict[int, int] = {}  # account id -> its wallet's id (stakes.player_wallet)
        self.seq = 0
        self.ops_seen = 0
        self.log: list[dict[str, Any]] = []
        self.accounts: dict[str, int] = {}  # player name -> account id, this round
        self.balance_before: dict[int, int] = {}
        self.misdeals: list[int] = []
        self.voided_cards: list[str] = []
        self.misdeal_burn = 0
        self.last_round: dict[str, Any] | None = None  # what the last round showed, for a viewer who comes after
        self.seats = Seats(getattr(self.rules, "boxes", BACCARAT_SEATS))
        self.carry: tuple[int, dict[str, int], dict[int, int]] | None = None  # the next coup's standing bets
        self.cutter: str | None = None  # who may cut the shoe now (Art. 2.1)
        self.cut_seed: str | None = None
        self.matching: dict[tuple[str, int], bool] = {}  # (bettor, box) -> matches the decider (Art. 13)
        self.decided = idempotency.Remembered(decisions.DECISIONS_REMEMBERED)  # keyed decisions' answers
        self.closing = False  # a supervisor closed the table: it finishes the round in play, then stops
        self.lease_lost = False  # another process took the table over (fence.py): this actor has stopped
        self.stopping = False  # stop() was called: the task ends on purpose
        self.handing_off = False  # the process holds more than its share: the table goes to another after this round
        self.first_window_extra = 0.0  # seconds added to the first betting window (Service.start_table)
        self.timers_fired = 0
        self.timer_late_max = 0.0  # seconds, by the table's clock: how late its latest-firing timer fired
        shared = {**seating.COMMANDS, **liveshoe.COMMANDS}
        self._handlers: dict[str, Callable[[Command], Awaitable[dict[str, Any]]]] = {
            "close": self._close, "act": functools.partial(decisions.act, self), "card": self._card, "void": self._void,
            "misdeal": self._misdeal, **{kind: functools.partial(handle, self) for kind, handle in shared.items()},
        }  # fmt: skip
        """Each command's procedure, by the command's kind (commands.Command)."""

    # --------------------------------------------------------------------------------------------
    # running

    def start(self) -> None:
        if self.stopped_reason is not None:
            return
        self.task = asyncio.create_task(self._run(), name=f"table-{self.table_id}")

    async def stop(self) -> None:
        self.stopping = True  # asked to stop: the watchdog does not start it again
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        for command in self.waiting():
            if not command.future.done():
                command.future.set_exception(Refused("the table is closing", 503))

    async def submit(self, command: Command) -> dict[str, Any]:
        if self.phase in ("fault", "stopped"):
            raise faults.unavailable(self)
        if self.task is None or self.task.done():
            raise Refused(f"table {self.name} is not running", 503)
        await self.queue.put(command)
        return await command.future

    async def _run(self) -> None:
        # The task was made with a copy of its maker's context: a table started by a request (a table's
        # opening, a takeover) must not take the request's mark of a write someone waits on for its own
        # settlements and records. Only the commands it serves are marked (serve_until).
        ANSWERED.set(False)
        try:
            await self.hub.publish(f"table:{self.table_id}", {"table": self.table_id, RESTARTED: True})
            await faults.patiently(self, "recovering the table's unfinished rounds", self.recover)
            while self.phase not in ("closed", HANDED_OFF):
                try:
                    await self._play_one_round()
                except asyncio.CancelledError:
                    raise
                except LeaseLost:
                    raise
                except Exception as error:  # no rule ever stops a table: the round is void, the table deals on
                    await faults.contain(self, error)
        except LeaseLost as lost:  # another process runs the table now: stop here, moving no money
            log.warning("table %s: %s; stopping here", self.name, lost)
            self.lease_lost = True
            self.stopped_reason = "it runs in another process now"
            self.phase = "stopped"
            self.round = None
            faults.refuse_waiting(self)
            self.idle.set()

    async def publish(self, event: dict[str, Any]) -> None:
        """``event`` on the table's channel, numbered, and in the round's log."""
        self.seq += 1
        message = {"table": self.table_id, "seq": self.seq, "at": self.clock.now().isoformat(), "event": event}
        self.log.append({"at": message["at"], **event})
        if event.get("type") in ACTION_EVENTS and self.round is not None:
            message[ACTIONS] = self.legal_actions()
        await self.hub.publish(f"table:{self.table_id}", message)

    def legal_actions(self) -> dict[str, list[dict[str, Any]]]:
        """Each player's legal actions now, by name, for the sockets of every process (a socket adds its own
        player's as ``your_actions`` and sends no one else's); ``""``: those of anyone else, who has no stake
        and no seat here (a baccarat bettor's spots while betting is open)."""
        assert self.round is not None
        names = set(self.accounts) | set(self.seats.names().values())
        return self.round.legal_by_player([*sorted(names), ""])  # no account has an empty name

    async def publish_engine_events(self) -> None:
        """What the round did since the last call, each event to whom may see it (a private one privately)."""
        if self.round is None:
            return
        self.ops_seen, events = self.round.events_since(self.ops_seen)
        for event in events:
            audience = event.pop("to", None)
            if audience is None:
                await self.publish(event)
            else:
                await self._tell(audience, event)

    async def _tell(self, players: list[str], event: dict[str, Any]) -> None:
        """A private event (a face-down card, a squeezed card) to these players' own sockets only: never
        on the table's channel, never in the round's public log."""
        message = {"table": self.table_id, "seq": self.seq, "at": self.clock.now().isoformat()}
        for player in players:
            account_id = self.accounts.get(player)
            if account_id is not None:
                await self.hub.publish(f"account:{account_id}", {**message, "event": {**event, "private": True}})

    async def tell_balance(self, account_id: int, cents: int) -> None:
        """The account's balance after a movement, to its own sockets."""
        await self.hub.publish(
            f"account:{account_id}",
            {"table": self.table_id, "event": {"type": "balance", "balance": ledger.money_text(cents)}},
        )

    # --------------------------------------------------------------------------------------------
    # shoes

    async def new_shoe(self) -> None:
        """Begin a new shoe (shoes.py): its record, its commitment and, where a player cuts, the cut."""
        await shoes.new_shoe(self)

    async def end_shoe(self) -> None:
        """End the shoe in play (shoes.py): its record ended, its seed revealed."""
        await shoes.end_shoe(self)

    # --------------------------------------------------------------------------------------------
    # recovery

    async def recover(self) -> None:
        """Void what a stopped process left unfinished and return its bets; end its shoes (settlement.py)."""
        await settlement.recover(self)

    def own_wallets(self) -> ledger.TableWallets:
        """The table's own ``in_play`` and ``house`` wallets (found when the actor starts, by :meth:`recover`)."""
        if self.wallets is None:
            raise RuntimeError(f"table {self.name}: its wallets are not known before its recovery")
        return self.wallets

    async def refund(self, session: AsyncSession, record: RoundRecord, reason: str) -> dict[int, int]:
        """Void ``record`` and return every bet of it, in ``session`` (settlement.py); the balances after."""
        return await settlement.refund(self, session, record, reason)

    # --------------------------------------------------------------------------------------------
    # a round

    async def _play_one_round(self) -> None:
        from croupier.server.tables_admin import before_round

        if self.handing_off and self.carry is None:  # between rounds, no bet standing: the table moves on
            self.phase = HANDED_OFF
            self.round = None
            self.idle.set()
            return
        if await before_round(self):  # the table closed, or took its pending changes for a new shoe
            await self._return_carry("the table closed with the bet standing after a tie (Art. 18); it is returned")
            return
        if self.shoe_id is None or self.driver.needs_shoe():
            await self._return_carry("the shoe ended with the bet standing after a tie (Art. 18); it is returned")
            await self.end_shoe()
            await self.new_shoe()
        drivers.game_of(self.game).before_round(self.driver, self.row)
        self.round = self.driver.next_round()
        self.round.set_seated(self.seats.names())
        self.matching = {}
        self.round_id = None
        self.ops_seen = 0
        self.log = []
        self.accounts = {}
        self.balance_before = {}
        if self.carry is not None:  # bets standing after a tie play this coup (Art. 18)
            self.round_id, self.accounts, self.balance_before = self.carry
            self.carry = None
        self.misdeals = []
        self.voided_cards = []
        self.phase = "betting"
        self.set_timer(self.row.betting_seconds + self.first_window_extra)
        self.first_window_extra = 0.0
        await self.publish({"type": "betting_open", "closes_at": self.deadline_at, "round": self.round_number + 1})
        await self.serve_until(lambda: self.deadline is not None and self.clock.monotonic() >= self.deadline)
        if self.deadline is not None:
            self.window_late(max(0.0, self.clock.monotonic() - self.deadline))
        round_: GameRound = self.round
        if not round_.has_bets:
            round_.void("no bets")
            self.phase = "idle"
            self.round = None
            return
        await self.publish({"type": "no_more_bets"})
        self.phase = "playing"
        round_.close_betting()
        await self.publish_engine_events()
        async with self.sessions() as session, session.begin():
            await session.execute(
                update(RoundRecord).where(RoundRecord.id == self.round_id).values(status="playing", log=self.log)
            )
        while True:
            round_ = self._current()  # a misdeal replaces the round with its redeal
            pending = round_.pending()
            if pending.kind == "over":
                break
            if pending.kind == "void":  # a shoe that ran dry: void and replay from a new shoe (Art. 2.1)
                round_.void("the shoe ran out of cards")
                await self.publish_engine_events()
                break
            if pending.kind in ("insurance", "decision", "squeeze"):
                self.set_timer(self._squeeze_seconds() if pending.kind == "squeeze" else self.row.decision_seconds)
                await self.publish({"type": "await", **pending.document(), "closes_at": self.deadline_at})
                # each decision has its own timer: a hit that leaves the same hand to act is a new wait;
                # the insurance offer keeps one timer however many take it (online §3.6)
                progress = round_.progress() if pending.kind == "decision" else None
                expired = await self.serve_until(self._changed(round_, pending, progress))
                if expired and not self._changed(round_, pending, progress)():
                    await self.publish({"type": "timeout", **pending.document()})
                    round_.timeout()
                await self.publish_engine_events()
            elif pending.kind == "card":
                self.deadline = None
                self.deadline_at = None
                await self.publish({"type": "await", **pending.document()})
                # each card is a wait of its own: a second burn, or the next card of a coup, waits for the
                # same kind of card as the last one and gets its own "await" on the dealer's console
                await self.serve_until(self._changed(round_, pending, round_.progress()))
                await self.publish_engine_events()
        await self._finish_round()

    async def _return_carry(self, reason: str) -> None:
        await settlement.return_carry(self, reason)

    def _squeeze_seconds(self) -> float:
        """How long the holders may squeeze before the dealer turns the cards (Art. 16)."""
        seconds = getattr(self.row, "squeeze_seconds", None)
        return float(seconds) if seconds else float(self.row.decision_seconds)

    def _current(self) -> GameRound:
        assert self.round is not None
        return self.round

    def _changed(self, round_: GameRound, pending: Pending, progress: int | None = None) -> Callable[[], bool]:
        """Done waiting: the round was replaced (a misdeal), waits for something else now, or (with
        ``progress``) has moved on since, even to an equal wait (the same hand to act again)."""
        return lambda: (
            self.round is not round_
            or round_.pending() != pending
            or (progress is not None and round_.progress() != progress)
        )

    def set_timer(self, seconds: float) -> None:
        """The wait now ends ``seconds`` from now by the table's clock (what :meth:`serve_until` times)."""
        self.deadline = self.clock.monotonic() + seconds
        self.deadline_at = (self.clock.now() + _seconds(seconds)).isoformat()

    async def serve_until(self, done: Callable[[], bool], *, timed: bool = True) -> bool:
        """Handle commands until ``done()``; returns True when the timer ran out first."""
        while not done():
            command = await self._next_command(self.deadline if timed else None)
            if command is None:
                return True
            with answered():  # a player waits on it: on SQLite its writes go before the other tables' chores
                if command.kind == "bet":  # with the bets that waited behind it: one transaction (betting.py)
                    await betting.handle(self, [command, *self._waiting_bets()])
                else:
                    await self._handle(command)
        return False

    def _waiting_bets(self) -> list[Command]:
        """The bets at the head of the queue now (at most ``betting.GROUP_MOST`` in all with the one taken)."""
        while not self.queue.empty():
            self.backlog.append(self.queue.get_nowait())
        bets: list[Command] = []
        while self.backlog and self.backlog[0].kind == "bet" and len(bets) < betting.GROUP_MOST - 1:
            bets.append(self.backlog.popleft())
        return bets

    def waiting(self) -> list[Command]:
        """Every command waiting for the actor, taken from its queue (to be refused: the table stops)."""
        while not self.queue.empty():
            self.backlog.append(self.queue.get_nowait())
        commands = list(self.backlog)
        self.backlog.clear()
        return commands

    async def _next_command(self, deadline: float | None) -> Command | None:
        if self.backlog:
            return self.backlog.popleft()
        if not self.queue.empty():
            return self.queue.get_nowait()
        self.idle.set()
        getter = asyncio.ensure_future(self.queue.get())
        if deadline is None:
            command = await getter
            self.idle.clear()
            return command
        sleeper = asyncio.ensure_future(self.clock.sleep_until(deadline))
        finished, _pending = await asyncio.wait({getter, sleeper}, return_when=asyncio.FIRST_COMPLETED)
        self.idle.clear()
        if getter in finished:
            sleeper.cancel()
            return getter.result()
        self.timers_fired += 1
        self.timer_late_max = max(self.timer_late_max, self.clock.monotonic() - deadline)
        # The timer ran out. A get that has not finished is cancelled without being awaited: awaiting it
        # here could swallow a cancellation of the actor itself (stop() would then wait for ever). A
        # cancelled get takes nothing from the queue: the command stays for the next wait.
        getter.cancel()
        return None

    async def _handle(self, command: Command) -> None:
        try:
            handler = self._handlers.get(command.kind)
            if handler is None:
                raise Refused(f"unknown command {command.kind!r}", 400)
            answer = await handler(command)
        except Exception as error:
            if await self.fail(command, error):
                raise
            return
        if not command.future.done():
            command.future.set_result(answer)

    async def fail(self, command: Command, error: Exception) -> bool:
        """Answer ``command`` with what ``error`` means for it; True when the error is a fault the actor ends
        the round on (or, the lease lost, stops on), which the caller raises again."""
        refusal: Refused
        if isinstance(error, Refused):
            refusal = error
        elif isinstance(error, CroupierError):
            refusal = Refused(str(error), 409)
        elif isinstance(error, SQLAlchemyError):
            # nothing of the request was kept (its transaction rolled back, the engine was not touched);
            # the same key raced in by another process (its table's scope) lands here: its first answer stands
            refusal = Refused("the request could not be stored; nothing was changed", 503)
            try:
                stored = await self.stored_answer(command) if isinstance(error, IntegrityError) else None
            except Refused as reused:  # the key was kept, at that moment, for a different request
                stored, refusal = None, reused
            except SQLAlchemyError:  # the database is away: the request is refused, the table deals on
                stored = None
            if stored is not None:
                if not command.future.done():
                    command.future.set_result(stored)
                return False
            if refusal.status == 503:
                log.warning("table %s: a request could not be stored", self.name, exc_info=error)
        elif isinstance(error, LeaseLost):  # nothing of the request was kept; the table's new process answers it
            refusal = Refused(f"table {self.name} moved to another process; nothing was changed: try again", 503)
        else:  # a fault, not a refusal: the round is void and every bet returned (faults.contain)
            refusal = Refused("internal error: the round in play is void and every bet of it is returned", 500)
        if not command.future.done():
            command.future.set_exception(refusal)
        return not isinstance(error, Refused | CroupierError | SQLAlchemyError)

    # --------------------------------------------------------------------------------------------
    # idempotency (croupier.server.idempotency)

    def keyed(self, command: Command) -> idempotency.Keyed | None:
        """The command under its key, in this table's scope for its operation; None without a key."""
        if command.key is None:
            return None
        scope = idempotency.table_scope(self.table_id, command.kind)
        return idempotency.Keyed(command.identity.id, scope, command.key, command.kind, command.payload)

    def remember(self, session: AsyncSession, command: Command, answer: dict[str, Any]) -> None:
        keyed = self.keyed(command)
        if keyed is not None:
            keyed.remember(session, answer, self.clock.now())

    async def stored_answer(self, command: Command) -> dict[str, Any] | None:
        keyed = self.keyed(command)
        if keyed is None:
            return None
        async with self.readers() as session:
            return await keyed.replayed(session)

    async def stored_answers(self, commands: list[Command]) -> list[dict[str, Any] | Refused | None]:
        """:meth:`stored_answer` for each of ``commands`` (one operation), by one read."""
        keyed = [self.keyed(command) for command in commands]
        asked = [one for one in keyed if one is not None]
        if not asked:
            return [None] * len(commands)
        async with self.readers() as session:
            answers = iter(await idempotency.replayed_all(session, asked))
        return [None if one is None else next(answers) for one in keyed]

    # --------------------------------------------------------------------------------------------
    # commands

    async def _close(self, command: Command) -> dict[str, Any]:
        """A supervisor closed the table (the route checked the role and marked it closing): no new bets;
        a betting window with no bets in it ends now, a round with bets is played out, then the table stops."""
        self.closing = True
        if self.phase == "betting" and self.round is not None and not self.round.has_bets:
            self.deadline = self.clock.monotonic()
        return {"accepted": True, "status": "closing"}

    async def _card(self, command: Command) -> dict[str, Any]:
        who = command.identity
        if who.role not in ("dealer", "supervisor"):
            raise Refused("only the table's dealer supplies cards", 403)
        if who.role == "dealer" and self.row.dealer_id not in (None, who.id):
            raise Refused(f"{who.name} is not the dealer of table {self.name}", 403)
        if self.row.mode != "live":
            raise Refused(f"table {self.name} deals from its own shuffled shoe; it takes no cards")
        if self.round is None or self.round.pending().kind != "card":
            raise Refused("the table is not waiting for a card")
        card = read_card(command.payload.get("card"))
        self.round.supply_card(card)
        await self.publish_engine_events()
        return {"accepted": True, "card": str(card)}

    async def _void(self, command: Command) -> dict[str, Any]:
        who = command.identity
        if who.role != "supervisor":
            raise Refused("voiding a round needs a supervisor (Art. 2.1; online §3.5)", 403)
        if self.round is None or self.phase != "playing":
            raise Refused("no round in play to void")
        reason = str(command.payload.get("reason") or "void by the supervisor")
        self.round.void(reason)
        await self.publish_engine_events()
        return {"accepted": True, "voided": reason}

    async def _misdeal(self, command: Command) -> dict[str, Any]:
        """A misdeal that cannot be corrected (Art. 2.1): every card of the deal is void, the bets stand,
        and the round is dealt again from the same shoe, after the rules' ``burn_after_misdeal`` burns (online
        §3.5: 3); baccarat Art. 10 (each round's ``misdeal``: ``liveshoe.misdeal``)."""
        who = command.identity
        if who.role != "supervisor":
            raise Refused("a misdeal needs a supervisor's approval (Art. 2.1; online §3.5)", 403)
        return await liveshoe.misdeal(self, self.round)

    # --------------------------------------------------------------------------------------------
    # settlement

    async def _finish_round(self) -> None:
        await settlement.finish_round(self)

    # --------------------------------------------------------------------------------------------
    # what a viewer sees

    def snapshot(self, viewer: str | None = None, *, staff: bool = False) -> dict[str, Any]:
        """What ``viewer`` may see now: never a card face down to them. Baccarat's exact live house edges
        are surveillance: staff see them, players only at a table set to show them (``live_edges``), since
        a player who saw them could wait for the coups where a bet favours them."""
        round_ = self.round
        document: dict[str, Any] = {
            "table": self.table_id,
            "name": self.name,
            "game": self.game,
            "seq": self.seq,
            "phase": self.phase,
            "closes_at": self.deadline_at,
            "shoe": {"id": self.shoe_id, "commitment": self.commitment},
            "rules": None if self.rules is None else {"preset": self.rules.preset, **self.rules.describe()},
            "round": None,
            "last_round": self.last_round,
            "seats": self.seats.document(),
            "cutter": self.cutter,
            "faults": [fault.document() for fault in self.faults],
            **({"alerts": list(self.alerts)} if staff else {}),
        }
        if self.stopped_reason is not None:
            document["stopped"] = self.stopped_reason
        if round_ is not None:
            document["round"] = {"id": self.round_id, "number": self.round_number + 1, **round_.view(viewer)}
            if not (staff or getattr(self.row, "live_edges", False)):
                document["round"].pop("house_edge", None)
            document["pending"] = round_.pending().document()
            if viewer is not None:
                document["your_actions"] = round_.legal_for(viewer)
        return document


def _seconds(value: float) -> timedelta:
    return timedelta(seconds=value)
