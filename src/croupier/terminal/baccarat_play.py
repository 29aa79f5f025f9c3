"""``croupier play baccarat``: one player at a baccarat table in the terminal.

The baccarat engine does no I/O; this module does it for the terminal. Input and output are injected
(``ask``, ``console``) so a scripted session can be tested; the pace of the deal (``pause``) can be
set to nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from decimal import Decimal

from rich.console import Console
from rich.text import Text

from croupier.baccarat.moves import PlaceBet
from croupier.baccarat.presets import baccarat_rules
from croupier.baccarat.roads import Coup, Letter, scoreboard
from croupier.baccarat.rules import SPOT_LABELS, Rules, Spot
from croupier.baccarat.state import (
    BaccaratTable,
    CardBurned,
    CardDealt,
    CoupResult,
    CoupSettled,
    CutCardOut,
    FirstCardTurned,
    Operation,
    ShoeLoaded,
    shuffled_shoes,
)
from croupier.errors import CroupierError, MoneyError
from croupier.money import ZERO, format_amount, parse_amount
from croupier.rng import RandomSource, SystemRandom, seeded
from croupier.ruleset import parse_assignments
from croupier.terminal.render import render_roads

YOU = "you"

ROAD_LETTERS: dict[str, Letter] = {"banker": "B", "player": "P", "tie": "T"}


class Quit(Exception):
    """The player leaves the table."""


class DemoCoup(Exception):
    """The player asks for a demonstration coup instead of betting."""


def play(
    rules: str,
    overrides: list[str],
    bankroll: str,
    seed: str | None,
    *,
    console: Console | None = None,
    ask: Callable[[str], str] | None = None,
    pause: float = 0.4,
) -> None:
    """Sit at a baccarat table of your own until you quit or your bankroll is spent."""
    rule_set = baccarat_rules(rules, parse_assignments(overrides))
    balance = parse_amount(bankroll, what="bankroll")
    if balance <= 0:
        raise MoneyError(f"bankroll must be positive, got {bankroll}")
    source: RandomSource = seeded(seed) if seed is not None else SystemRandom()
    session = Session(rule_set, balance, source, console or Console(), ask, pause)
    session.run()


class Session:
    """A terminal session: the table, the player's balance, and the roads of the shoe in play."""

    def __init__(
        self,
        rules: Rules,
        balance: Decimal,
        source: RandomSource,
        console: Console,
        ask: Callable[[str], str] | None,
        pause: float,
    ) -> None:
        self.rules = rules
        self.start_balance = balance
        self.balance = balance
        self.console = console
        self.ask = ask or (lambda prompt: console.input(prompt))
        self.pause = pause
        self.history: list[Coup] = []
        self.table = BaccaratTable(rules, shoe_source=shuffled_shoes(rules, source))
        self.seen = 0

    def run(self) -> None:
        self._introduce()
        self._show_new_records()
        try:
            while self.balance > 0:
                self._coup()
        except Quit:
            pass
        net = self.balance - self.start_balance
        self.console.print(f"You leave the table with {format_amount(self.balance)} ({_signed(net)} over the session).")

    # one coup -----------------------------------------------------------------------------------
    def _coup(self) -> None:
        self.console.print(Text(f"\nBalance {format_amount(self.balance)}", style="bold"))
        try:
            self._take_bets()
        except DemoCoup:
            self.table.start_coup(demo=True)
            self._show_new_records()
            return
        if not self.table.stakes:
            self.console.print("No bets placed: the coup waits for a bet (or q to quit).")
            return
        try:
            self.table.start_coup()
        except CroupierError as error:
            self.console.print(Text(str(error), style="red"))
            return
        self._show_new_records()

    def _take_bets(self) -> None:
        table = self.table
        for (player, spot), amount in table.carried_bets.items():
            if player == YOU:
                self.console.print(
                    f"Your {SPOT_LABELS[spot]} bet of {format_amount(amount)} stands after the tie: it may be "
                    "increased, not reduced (Art. 18)."
                )
        demo_hint = ", d for a demonstration coup" if table.can_start_coup(demo=True) else ""
        self.console.print(f"Place your bets (an amount, Enter for none{demo_hint}, q to quit).")
        for spot in self.rules.spots:
            self._bet_on(spot, allow_demo=bool(demo_hint) and not table.stakes)

    def _bet_on(self, spot: Spot, *, allow_demo: bool) -> None:
        while True:
            try:
                answer = self.ask(f"  {SPOT_LABELS[spot]}: ").strip().lower()
            except EOFError:
                raise Quit from None
            if answer in ("q", "quit"):
                raise Quit
            if answer in ("d", "demo") and allow_demo:
                raise DemoCoup
            if answer in ("", "0"):
                return
            try:
                amount = parse_amount(answer)
                staked = sum(self.table.stakes.values(), ZERO)
                if staked + amount > self.balance:
                    raise MoneyError(f"you have {format_amount(self.balance - staked)} left to bet")
                self.table.apply(PlaceBet(YOU, spot, amount))
                return
            except CroupierError as error:
                self.console.print(Text(str(error), style="red"))

    # showing what happened ----------------------------------------------------------------------
    def _show_new_records(self) -> None:
        operations = self.table.operations_since(self.seen)
        self.seen += len(operations)
        for operation in operations:
            self._show(operation)

    def _show(self, operation: Operation) -> None:
        out = self.console
        if isinstance(operation, ShoeLoaded):
            if not self.rules.automatic_shuffler:  # the machine's shuffle per coup keeps the table's roads
                self.history = []
                out.print(Text("\nA new shoe is shuffled and loaded.", style="bold"))
        elif isinstance(operation, FirstCardTurned):
            out.print(f"First card turned: {operation.card.pretty()}; {operation.burns} more burned (Art. 2.1).")
        elif isinstance(operation, CardBurned) and operation.when == "coup":
            out.print("One card burned (Art. 8).")
        elif isinstance(operation, CardDealt):
            self._wait()
            out.print(f"  {operation.side.capitalize():<7} {operation.card.pretty()}")
        elif isinstance(operation, CutCardOut):
            out.print(Text("The cut card is out (Art. 3.1).", style="yellow"))
        elif isinstance(operation, CoupSettled):
            self._show_result(operation.result)

    def _show_result(self, result: CoupResult) -> None:
        out = self.console
        cards = result.cards
        out.print(
            f"Player {' '.join(c.pretty() for c in cards.player)} = {cards.player_total}   "
            f"Banker {' '.join(c.pretty() for c in cards.banker)} = {cards.banker_total}"
        )
        winner = "Tie" if cards.winner == "tie" else f"{cards.winner.capitalize()} wins"
        marks = [
            label
            for label, shown in (
                ("natural", cards.natural),
                ("player pair", cards.player_pair),
                ("banker pair", cards.banker_pair),
            )
            if shown
        ]
        out.print(Text(winner + (f" ({', '.join(marks)})" if marks else ""), style="bold"))
        if result.demo:
            out.print("That was a demonstration coup: no bets.")
        for settlement in result.settlements:
            out.print(
                f"  {SPOT_LABELS[settlement.spot]} {format_amount(settlement.stake)}: {settlement.outcome} "
                f"{_signed(settlement.gain)}"
            )
        self.balance += result.net.get(YOU, ZERO)
        self.history.append(Coup(ROAD_LETTERS[cards.winner], cards.banker_pair, cards.player_pair))
        render_roads(scoreboard(self.history), out)
        if result.last_coup and not self.rules.automatic_shuffler:
            out.print(Text("That was the last coup of the shoe.", style="yellow"))

    def _introduce(self) -> None:
        rules = self.rules
        banker = "0.95:1 (5% commission)" if rules.commission == "5pct" else "1:1, a winning 6 pays 1:2 (Super 6)"
        self.console.print(Text(f"Baccarat, {rules.preset} rules", style="bold"))
        self.console.print(
            f"Player 1:1, banker {banker}, tie {rules.tie_pays}, pairs {rules.pair_pays}"
            + (", Lucky 6 12:1 / 20:1" if rules.lucky_6 else "")
            + f"; {rules.decks} decks."
        )

    def _wait(self) -> None:
        if self.pause > 0:
            time.sleep(self.pause)


def _signed(amount: Decimal) -> str:
    text = format_amount(amount)
    return text if amount <= 0 else f"+{text}"
