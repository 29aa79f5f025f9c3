"""``croupier play blackjack``: one player at a table of their own, in the terminal.

The engine (:mod:`croupier.blackjack.state`) decides everything; this module only shows the table and
asks. A :class:`Session` takes an ``ask`` callable (prompt → answer) and a :class:`rich.console.Console`,
so a test can script the player; :func:`play` is the thin wrapper the CLI calls.

What the player sees (docs/rules.md §2–3): cards as ``A♠`` (hearts and diamonds in red), the dealer's
hole card face down as ``??`` until the dealer turns it, only the actions the engine's
:meth:`~croupier.blackjack.state.Round.legal_actions` offers (and the player's balance can cover),
insurance and even money when the dealer shows an ace, every payment as it is made, the round's
result and the running balance, the cards left before the cut card, the last round of the shoe and
the new shoe shuffled after it.

Leaving: ``q``, end of input or Ctrl-C at any prompt. Between rounds the player leaves at once; in
the middle of a round the player's hands stand and insurance is declined, as for a player who does
not answer (online §3.6), and the round is played out so that the final balance is settled money.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from rich.console import Console
from rich.text import Text

from croupier.blackjack import actions as op
from croupier.blackjack import moves
from croupier.blackjack.actions import describe_pending
from croupier.blackjack.hand import is_678_suited, is_natural, total
from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.rules import Rules
from croupier.blackjack.state import Round, Table
from croupier.cards import Card
from croupier.errors import CroupierError, MoneyError
from croupier.money import ZERO, format_amount, parse_amount
from croupier.rng import RandomSource, SystemRandom, seeded
from croupier.ruleset import parse_assignments
from croupier.shoe import Shoe, place_cut_card

PLAYER = "you"
"""The player's name at the table; the engine's messages read "you bet 5 on box 1"."""

Ask = Callable[[str], str]

QUIT = frozenset({"q", "quit", "exit", "leave"})
KEYS: dict[type[moves.Play], str] = {
    moves.Hit: "h",
    moves.Stand: "s",
    moves.Double: "d",
    moves.Split: "p",
    moves.Surrender: "r",
}
"""Each play decision's key at the prompt."""
CHOICES: dict[str, type[moves.Play]] = {answer: cls for cls, key in KEYS.items() for answer in (key, cls.kind)}
"""What the player may type for each play decision: its key or its name."""
ORDER: tuple[type[moves.Play], ...] = moves.PLAYS
DEFAULT_FIRST_BET = Decimal(10)
HIDDEN_CARD = "??"


class _Quit(Exception):
    """The player leaves: ``q``, end of input or Ctrl-C."""


def play(rules: str, overrides: list[str], bankroll: str, seed: str | None) -> None:
    """Sit at a blackjack table in the terminal (``croupier play blackjack``)."""
    table_rules = blackjack_rules(rules, parse_assignments(overrides))
    start = parse_bankroll(bankroll)
    source: RandomSource = seeded(seed) if seed is not None else SystemRandom()
    console = Console(highlight=False)

    def ask(prompt: str) -> str:
        return console.input(prompt, markup=False)

    Session(table_rules, start, ask, console, shuffler(table_rules, source)).run()


MAX_DIGITS = 15
MAX_PLACES = 6


def read_amount(raw: str, *, what: str) -> Decimal:
    """An amount typed by the player: exact, at most 15 digits before the point and 6 after.

    :func:`~croupier.money.parse_amount` takes any finite decimal, but ``1e999999999999`` cannot be
    printed (``format_amount`` raises :class:`decimal.Overflow`) and ``1e-999999999`` would make
    exact payouts build a billion-digit fraction; a person at a table never means either.
    """
    value = parse_amount(raw, what=what)
    exponent = value.as_tuple().exponent
    if value != 0 and (value.adjusted() >= MAX_DIGITS or (isinstance(exponent, int) and exponent < -MAX_PLACES)):
        raise MoneyError(
            f"{what} {raw!r}: amounts have at most {MAX_DIGITS} digits before the point and {MAX_PLACES} after"
        )
    return value


def parse_bankroll(raw: str) -> Decimal:
    """The starting bankroll: an exact positive decimal."""
    value = read_amount(raw, what="bankroll")
    if value <= 0:
        raise MoneyError(f"bankroll must be a positive amount, got {format_amount(value)}")
    return value


def shuffler(rules: Rules, source: RandomSource) -> Callable[[], Shoe]:
    """New shoes for ``rules``: a Fisher–Yates shuffle from ``source``, the cut card placed by the rules."""

    def shuffle() -> Shoe:
        cut = place_cut_card(rules.cut_card, rules.decks * 52, source)
        return Shoe.shuffled(rules.decks, cut, source)

    return shuffle


# -------------------------------------------------------------------------------------------------
# how things look


def card_text(card: Card) -> Text:
    """``A♠``; hearts and diamonds in red."""
    return Text(card.pretty(), style="bold red" if card.suit in "HD" else "bold")


def points_text(cards: list[Card], *, natural: bool | None = None) -> str:
    """``17``, ``soft 17``, ``22 bust``, ``blackjack``."""
    if natural if natural is not None else is_natural(cards):
        return "blackjack"
    points, soft = total(cards)
    if points > 21:
        return f"{points} bust"
    return f"soft {points}" if soft and points < 21 else str(points)


def signed(amount: Decimal) -> str:
    """``+150``, ``-100``, ``0``."""
    return ("+" if amount > 0 else "") + format_amount(amount)


def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def describe_rules(rules: Rules) -> str:
    """The rules a player should know before betting, in one line."""
    parts = [f"{plural(rules.decks, 'deck')}, boxes 1-{rules.boxes}", f"blackjack pays {rules.blackjack_pays}"]
    parts.append("dealer hits soft 17" if rules.dealer_hits_soft_17 else "dealer stands on all 17s")
    parts.append(
        {
            "none": "no hole card",
            "peek": "dealer peeks with an ace or a ten up",
            "peek_ace": "dealer peeks with an ace up",
        }[rules.hole_card]
    )
    parts.append(f"insurance pays {rules.insurance_pays}" if rules.insurance_pays else "no insurance")
    if rules.even_money:
        parts.append("even money")
    double = {"11": "on 11", "10_11": "on 10 or 11", "9_11": "on 9, 10 or 11", "any_two": "on any two cards"}
    parts.append(
        f"double {double[rules.double_on]}"
        + (" (for less too)" if rules.double_for_less else "")
        + (", after a split too" if rules.double_after_split else "")
    )
    parts.append(
        {
            "none": "no surrender",
            "early_not_ace": "surrender as the first decision, not against an ace",
            "late": "late surrender",
        }[rules.surrender]
    )
    if rules.bonus_678_suited:
        parts.append(f"6-7-8 suited pays {rules.bonus_678_suited}")
    if rules.bonus_777:
        parts.append(f"7-7-7 pays {rules.bonus_777}")
    if rules.min_bet is not None or rules.max_bet is not None:
        low = format_amount(rules.min_bet) if rules.min_bet is not None else "any"
        high = format_amount(rules.max_bet) if rules.max_bet is not None else "no maximum"
        parts.append(f"table limits {low} to {high}")
    return "; ".join(parts)


# -------------------------------------------------------------------------------------------------
# the session


class Session:
    """One player, one bankroll, rounds at one table until the player leaves or cannot bet.

    ``ask`` shows a prompt and returns the answer; it may raise :class:`EOFError` or
    :class:`KeyboardInterrupt`, which mean "leave". ``shuffle`` gives each new shoe.
    """

    def __init__(
        self, rules: Rules, bankroll: Decimal, ask: Ask, console: Console, shuffle: Callable[[], Shoe]
    ) -> None:
        self.rules = rules
        self.start = bankroll
        self.balance = bankroll
        self.console = console
        self.rounds: list[Round] = []
        self.box = 1
        self.last_bet: Decimal | None = None
        self.leaving = False
        self._ask_raw = ask
        self._shuffle = shuffle
        self._seen = 0
        self.table = Table(rules, shuffle())

    # ---------------------------------------------------------------------------------------------
    def run(self) -> Decimal:
        """Play until the player leaves; return the final balance."""
        self.say(Text(f"Blackjack, {self.rules.preset}", style="bold"))
        self.say(describe_rules(self.rules))
        self.say(f"Bankroll {format_amount(self.balance)}. Type q (or end the input, or Ctrl-C) to leave the table.")
        self._announce_shoe()
        try:
            while not self.leaving:
                if self.table.shoe_finished:
                    self.table.new_shoe(self._shuffle())
                    self._announce_shoe()
                if not self._can_bet():
                    break
                self._play_round()
        except _Quit:
            pass
        except KeyboardInterrupt:  # Ctrl-C between prompts: a round not yet settled is not counted
            self.console.print()
            if self.rounds and not self.rounds[-1].ended:
                self.say("The round in play was interrupted and is not counted.")
                self.rounds.pop()
        self.console.rule("Leaving the table")
        change = self.balance - self.start
        self.say(
            f"Final balance: {format_amount(self.balance)} (started with {format_amount(self.start)}; "
            f"{signed(change)} over {plural(len(self.rounds), 'round')})"
        )
        return self.balance

    def say(self, message: str | Text, style: str = "") -> None:
        self.console.print(message if isinstance(message, Text) else Text(message, style=style))

    def ask(self, prompt: str) -> str:
        """The player's answer, stripped and lower-cased; raises :class:`_Quit` on q, EOF or Ctrl-C."""
        try:
            answer = self._ask_raw(prompt)
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            raise _Quit from None
        answer = answer.strip().lower()
        if answer in QUIT:
            raise _Quit
        return answer

    def _leave(self) -> None:
        if not self.leaving:
            self.leaving = True
            self.say(
                "You leave after this round: your hands stand and insurance is declined, as for a player "
                "who does not answer (online §3.6)."
            )

    # ---------------------------------------------------------------------------------------------
    def _announce_shoe(self) -> None:
        shoe = self.table.shoe
        if self.rounds:
            self.say("The dealer shuffles a new shoe.", "bold")
        where = (
            "one round per shuffle (single deck)"
            if self.rules.metal_box
            else "no cut card"
            if shoe.cut_card is None
            else f"the cut card placed {shoe.size - shoe.cut_card} cards from the end"
        )
        self.say(f"Shoe: {plural(shoe.decks, 'deck')} shuffled, {where}.")

    def _shoe_line(self) -> str:
        shoe = self.table.shoe
        if self.rules.metal_box:
            return "single deck: this is the shoe's only round"
        if shoe.cut_card is None:
            return f"{plural(shoe.remaining, 'card')} left in the shoe"
        if shoe.cut_card_out:
            return "the cut card is out: last round of the shoe"
        return f"{plural(shoe.cut_card - shoe.position, 'card')} before the cut card"

    def _can_bet(self) -> bool:
        minimum = self.rules.min_bet
        if self.balance <= 0:
            self.say("You have nothing left to bet.")
            return False
        if minimum is not None and self.balance < minimum:
            self.say(
                f"Your balance of {format_amount(self.balance)} is below the table minimum of {format_amount(minimum)}."
            )
            return False
        return True

    def _play_round(self) -> None:
        number = len(self.rounds) + 1
        self.console.rule(f"Round {number}")
        self.say(f"Balance {format_amount(self.balance)} · {self._shoe_line()}")
        current = self.table.new_round()
        box, amount = self._take_bet(current)
        current.bet(PLAYER, box, amount)
        self.box, self.last_bet = box, amount
        self.rounds.append(current)
        self._seen = 0
        current.deal()
        self._narrate(current, cards=False)
        current = self._drive(current)
        self._show_table(current)
        net = current.net().get(PLAYER, ZERO)
        self.balance += net
        self.say(f"Round {number}: {signed(net)} · balance {format_amount(self.balance)}", "bold")
        if current.last_round:
            self.say("That was the last round of the shoe.")

    def _take_bet(self, current: Round) -> tuple[int, Decimal]:
        boxes = self.rules.boxes
        while True:
            answer = self.ask(f"Box (1-{boxes}) [{self.box}]: ")
            if answer == "":
                box = self.box
                break
            if answer.isdigit() and 1 <= int(answer) <= boxes:
                box = int(answer)
                break
            self.say(f"Choose a box from 1 to {boxes} ({self.rules.preset}, Art. 2.3).")
        default = self.last_bet if self.last_bet is not None else (self.rules.min_bet or DEFAULT_FIRST_BET)
        default = min(default, self.balance)
        while True:
            answer = self.ask(f"Bet on box {box} [{format_amount(default)}] (balance {format_amount(self.balance)}): ")
            try:
                amount = default if answer == "" else read_amount(answer, what="a bet")
                if amount > self.balance:
                    raise MoneyError(
                        f"a bet of {format_amount(amount)} is more than your balance of {format_amount(self.balance)}"
                    )
                current.verify_bet(PLAYER, box, amount)
            except CroupierError as error:
                self.say(f"Refused: {error}", "red")
                continue
            return box, amount

    # ---------------------------------------------------------------------------------------------
    def _drive(self, current: Round) -> Round:
        """Ask the player until the round is settled; returns the round (a new one if it was void)."""
        while not current.ended:
            pending = current.pending
            if isinstance(pending, op.AwaitInsurance):
                self._show_table(current)
                self._insurance(current)
            elif isinstance(pending, op.AwaitDecision):
                self._show_table(current)
                self._decision(current, pending)
            elif isinstance(pending, op.AwaitCard):
                current = self._redeal(current)
                continue
            else:  # every chore is automated
                raise AssertionError(f"the round waits for {describe_pending(pending)}")
            self._narrate(current, cards=True)
        return current

    def _redeal(self, current: Round) -> Round:
        """The shoe ran out (no cut card): the round is void, a new shoe, the bets stand (Art. 2.1)."""
        current.void("the shoe ran out of cards")
        self._narrate(current, cards=True)
        self.table.new_shoe(self._shuffle())
        self._announce_shoe()
        fresh = self.table.replay_voided(current)
        self.rounds[-1] = fresh
        self._seen = 0
        fresh.deal()
        self._narrate(fresh, cards=False)
        return fresh

    def _available(self, current: Round) -> Decimal:
        """Money the player has free now: the balance less stakes on the table, plus money paid back."""
        staked = current.staked().get(PLAYER, ZERO)
        returned = sum((p.stake + p.amount for p in current.payments if p.player == PLAYER), ZERO)
        return self.balance - staked + returned

    def _insurance(self, current: Round) -> None:
        mine = [action for action in current.legal_actions() if action.player == PLAYER]
        even = next((action for action in mine if action.type is moves.TakeEvenMoney), None)
        insurance = next((action for action in mine if action.type is moves.Insure), None)
        available = self._available(current)
        cap = min(insurance.max_amount or ZERO, available) if insurance is not None else ZERO
        if insurance is not None and cap <= 0:
            insurance = None
        if self.leaving or (even is None and insurance is None):
            current.apply(moves.CloseInsurance())
            return
        options = []
        if even is not None:
            options.append("e=even money (1:1 now)")
        if insurance is not None:
            options.append(f"i=insurance (up to {format_amount(cap)}, pays {self.rules.insurance_pays})")
        options.append("n=no")
        menu = ", ".join(options)
        question = "Even money or insurance?" if even is not None else "Insurance?"
        self.say("The dealer shows an ace.")
        try:
            while True:
                answer = self.ask(f"{question} {menu} [n]: ")
                if answer in ("", "n", "no"):
                    break
                if answer in ("e", "even", "even money"):
                    if even is None:
                        self.say(f"No even money: {self._even_money_reason(current)}", "red")
                        continue
                    current.apply(moves.TakeEvenMoney(PLAYER, even.box))
                    break
                if answer in ("i", "insurance", "y", "yes"):
                    if insurance is None:
                        self.say("Insurance is not offered: your balance cannot cover it.", "red")
                        continue
                    self._insure(current, insurance.box, cap, available)
                    break
                self.say(f"{answer!r} is not a choice here: {menu}.", "red")
        except _Quit:
            self._leave()
        current.apply(moves.CloseInsurance())

    def _even_money_reason(self, current: Round) -> str:
        try:
            current.verify(moves.TakeEvenMoney(PLAYER, self.box))
        except CroupierError as error:
            return str(error)
        return "your balance cannot cover it"  # pragma: no cover - offered whenever the engine allows it

    def _insure(self, current: Round, box: int, cap: Decimal, available: Decimal) -> None:
        while True:
            answer = self.ask(f"Insurance amount (up to {format_amount(cap)}) [{format_amount(cap)}]: ")
            try:
                amount = cap if answer == "" else read_amount(answer, what="insurance")
                if amount > available:
                    raise MoneyError(
                        f"insurance of {format_amount(amount)} is more than the {format_amount(available)} "
                        "you have free"
                    )
                current.apply(moves.Insure(PLAYER, box, amount))
            except CroupierError as error:
                message = str(error).replace(f"{PLAYER}'s", "your")
                self.say(f"Refused: {message}", "red")
                continue
            return

    def _shortfall(self, current: Round, action: op.LegalAction, available: Decimal) -> str | None:
        """Why the player's free money cannot cover ``action``, or ``None``."""
        if action.type is moves.Double:
            need = action.min_amount or ZERO
        elif action.type is moves.Split:
            need = current.bets[action.box][PLAYER]
        else:
            return None
        if need <= available:
            return None
        return f"{action.kind} needs {format_amount(need)} more; you have {format_amount(available)} free"

    def _decision(self, current: Round, pending: op.AwaitDecision) -> None:
        box, index = pending.box, pending.hand
        if self.leaving:
            current.apply(moves.Stand(box, index))
            return
        legal = {action.type: action for action in current.legal_actions() if action.type in ORDER}
        available = self._available(current)
        offered = [cls for cls in ORDER if cls in legal and self._shortfall(current, legal[cls], available) is None]
        menu = ", ".join(f"{KEYS[cls]}={cls.kind}" for cls in offered) + ", q=quit"
        where = self._label(current, box, index)
        try:
            while True:
                answer = self.ask(f"Your move on {where}: {menu}: ")
                chosen = CHOICES.get(answer)
                if chosen is None:
                    self.say(f"{answer!r} is not a choice here: {menu}.", "red")
                    continue
                if chosen not in legal:
                    self.say(f"You cannot {chosen.kind} now: {self._reason(current, chosen(box, index))}", "red")
                    continue
                short = self._shortfall(current, legal[chosen], available)
                if short is not None:
                    self.say(f"You cannot {chosen.kind} now: {short}.", "red")
                    continue
                if chosen is moves.Double:
                    current.apply(
                        moves.Double(box, index, amount=self._double_amount(current, legal[chosen], available))
                    )
                else:
                    current.apply(chosen(box, index))
                return
        except _Quit:
            self._leave()
            current.apply(moves.Stand(box, index))

    def _reason(self, current: Round, action: moves.Play) -> str:
        """The engine's reason an action is refused."""
        try:
            current.verify(action)
        except CroupierError as error:
            return str(error)
        return "it is not offered"  # pragma: no cover - legal_actions offers what verify allows

    def _double_amount(self, current: Round, action: op.LegalAction, available: Decimal) -> Decimal:
        low, high = action.min_amount or ZERO, action.max_amount or ZERO
        top = min(high, available)
        if low == high:
            return high
        while True:
            answer = self.ask(
                f"Double for how much ({format_amount(low)}-{format_amount(top)}) [{format_amount(top)}]: "
            )
            try:
                amount = top if answer == "" else read_amount(answer, what="the double")
                if amount > available:
                    raise MoneyError(
                        f"a double of {format_amount(amount)} is more than the {format_amount(available)} you have free"
                    )
                current.verify(moves.Double(action.box, action.hand, amount=amount))
                return amount
            except CroupierError as error:
                self.say(f"Refused: {error}", "red")

    # ---------------------------------------------------------------------------------------------
    def _label(self, current: Round, box: int, index: int | None) -> str:
        hands = current.hands.get(box, [])
        if index is None or len(hands) < 2:
            return f"box {box}"
        return f"box {box} hand {index + 1}"

    def _show_table(self, current: Round) -> None:
        dealer = current.dealer_cards
        line = Text("  Dealer    ")
        for card in dealer:
            line.append_text(card_text(card))
            line.append(" ")
        hidden = current.dealer_has_hole_card
        if hidden:
            line.append(HIDDEN_CARD, style="reverse")
            line.append(" ")
        if dealer:
            if hidden or len(dealer) == 1:
                line.append(f" {total(dealer)[0]} showing", style="dim")
                if hidden:
                    line.append(" (a card face down)", style="dim")
            else:
                line.append(f" = {points_text(dealer)}")
        self.say(line)
        for box in current.boxes:
            for index, hand in enumerate(current.hands.get(box, [])):
                label = self._label(current, box, index).capitalize()
                row = Text(f"  {label:<9} ")
                for card in hand.cards:
                    row.append_text(card_text(card))
                    row.append(" ")
                row.append(f" = {points_text(hand.cards, natural=hand.natural)}")
                stake = hand.stakes.get(PLAYER)
                if stake is not None:
                    row.append(f" · bet {format_amount(stake)}", style="dim")
                if hand.outcome:
                    row.append(f" · {hand.outcome.replace('_', ' ')}", style="dim")
                self.say(row)

    def _narrate(self, current: Round, *, cards: bool) -> None:
        """Say what happened since the last call: cards drawn (when ``cards``), payments, notices."""
        new = current.operations[self._seen :]
        self._seen = len(current.operations)
        burned = 0
        for record in new:
            if isinstance(record, op.CardBurned):
                burned += 1
                continue
            if burned:
                self.say(f"  ({plural(burned, 'card')} burned face down)", "dim")
                burned = 0
            self._narrate_one(current, record, cards)
        if burned:
            self.say(f"  ({plural(burned, 'card')} burned face down)", "dim")

    def _narrate_one(self, current: Round, record: op.Operation, cards: bool) -> None:
        if isinstance(record, op.CardDealt):
            if not cards:
                return
            if record.box == 0:
                self.say(
                    Text.assemble("  Dealer draws ", card_text(record.card))
                    if record.face_up
                    else Text("  Dealer takes a card face down")
                )
            else:
                where = self._label(current, record.box, record.hand).capitalize()
                self.say(Text.assemble(f"  {where} draws ", card_text(record.card)))
        elif isinstance(record, op.HoleCardTurned):
            self.say(Text.assemble("  Dealer turns the hole card: ", card_text(record.card)))
        elif isinstance(record, op.CutCardOut):
            self.say("The cut card is out: this is the last round of the shoe.", "bold yellow")
        elif isinstance(record, op.DealerPeeked):
            self.say(
                "  The dealer checks the hole card: " + ("blackjack!" if record.natural else "no blackjack."),
            )
        elif isinstance(record, op.HandStood):
            where = self._label(current, record.box, record.hand).capitalize()
            reason = {
                "natural": "blackjack!",
                "21": "21, stands",
                "split aces": "a split ace takes one card, stands",
                "double": "doubled, stands",
            }.get(record.reason, record.reason)
            self.say(f"  {where}: {reason}")
        elif isinstance(record, op.DealerStood):
            if record.total > 21:
                self.say(f"  Dealer busts with {record.total}.")
            elif self._dealer_stopped_early(current):
                self.say(
                    f"  Dealer stops on {points_text(current.dealer_cards)}: no hand is left to play against "
                    "(dealer_draws_when_moot=false, online §4.4)."
                )
            else:
                self.say(f"  Dealer stands on {points_text(current.dealer_cards)}.")
        elif isinstance(record, op.Payment) and record.player == PLAYER:
            self.say(self._payment_text(current, record), "green" if record.amount > 0 else "")
        elif isinstance(record, op.RoundVoided):
            self.say(f"The round is void ({record.reason}): every card is void and your bet stands (Art. 2.1).")

    def _dealer_stopped_early(self, current: Round) -> bool:
        points, soft = total(current.dealer_cards)
        return points < 17 or (points == 17 and soft and self.rules.dealer_hits_soft_17)

    def _payment_text(self, current: Round, payment: op.Payment) -> str:
        rules = self.rules
        where = "Insurance" if payment.hand is None else self._label(current, payment.box, payment.hand).capitalize()
        money = signed(payment.amount)
        if payment.kind == "bonus":
            assert payment.hand is not None
            cards = current.hands[payment.box][payment.hand].cards
            suited = is_678_suited(cards)
            name, ratio = ("6-7-8 suited", rules.bonus_678_suited) if suited else ("7-7-7", rules.bonus_777)
            return f"  {where}: {name}! bonus pays {ratio}: {money}"
        what = {
            "blackjack": f"blackjack pays {rules.blackjack_pays}",
            "win": "wins",
            "lose": "loses",
            "push": "push, the bet is returned",
            "bust": "busts",
            "surrender": "surrendered, half the bet is lost",
            "even_money": "even money, paid 1:1",
            "insurance_won": f"the dealer has blackjack: insurance pays {rules.insurance_pays}",
            "insurance_lost": "no dealer blackjack: insurance is lost",
        }.get(payment.kind, payment.kind)
        return f"  {where}: {what}: {money}"
