"""The blackjack round: one state machine whose every change is a recorded operation.

A :class:`~croupier.blackjack.table.Table` holds a rule set and a shoe and opens :class:`Round` after
round until the round in which the cut card comes out (Art. 2.2; online §3.2.2); both are imported
from :mod:`croupier.blackjack.state`. A round takes bets, then :meth:`Round.deal`
closes betting and the engine runs the rules' procedure: burns, the deal in the rules' order, the
insurance offer, the peek, the boxes from box 1 up, the dealer, settlement.

Each player operation has three faces in the manner of pokerkit: ``verify_hit(...)`` raises
:class:`~croupier.errors.IllegalActionError` naming the rule, ``can_hit(...)`` answers yes or no,
``hit(...)`` performs it and returns the recorded :class:`~croupier.blackjack.actions.Decision`. The
same faces take a typed action (:mod:`croupier.blackjack.moves`): :meth:`Round.verify`,
:meth:`Round.can`, :meth:`Round.apply`; :meth:`Round.legal_actions` lists what is open now.

Chores are automated by default. A round built with fewer ``automations`` stops at each chore it may
not do itself (:class:`~croupier.blackjack.actions.AwaitChore`) until the caller performs it
(:meth:`Round.burn_card`, :meth:`Round.deal_card`, :meth:`Round.dealer_hit`,
:meth:`Round.dealer_stand`, :meth:`Round.settle`); a live shoe stops at every card until the
dealer's reader supplies it (:meth:`Round.supply_card`). The engine never reads the clock, never
prints and never draws randomness: it is a function of its inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Generator, Mapping
from decimal import Decimal
from typing import cast

from croupier.blackjack import actions as op
from croupier.blackjack import moves, offers, procedure, refusals
from croupier.blackjack.betting import decider, occupant, unbacked_bets, verify_bet
from croupier.blackjack.hand import Hand, total
from croupier.blackjack.rules import Rules
from croupier.cards import Card
from croupier.errors import IllegalActionError
from croupier.money import ZERO, parse_amount
from croupier.shoe import Shoe

AUTOMATIONS: frozenset[str] = frozenset(op.Automation)
"""Every chore the engine can perform itself (:class:`~croupier.blackjack.actions.Automation`); a round
automates all of them unless told otherwise."""

Script = Generator[op.Pending, object, None]


class Round:
    """One round at a blackjack table; see the module docstring."""

    def __init__(
        self,
        rules: Rules,
        shoe: Shoe,
        *,
        first_of_shoe: bool,
        seated: Mapping[int, str] | None = None,
        extra_burns: int = 0,
        automations: frozenset[str] = AUTOMATIONS,
        on_end: Callable[[Round], None] | None = None,
        insurance_chip: Decimal | None = None,
    ) -> None:
        unknown = set(automations) - AUTOMATIONS
        if unknown:
            names = ", ".join(sorted(str(a) for a in AUTOMATIONS))
            raise ValueError(f"unknown automations {sorted(map(str, unknown))}; they are {names}")
        self.rules = rules
        self.shoe = shoe
        self.first_of_shoe = first_of_shoe
        self.extra_burns = extra_burns
        self.automations = automations
        self._all_automated = automations == AUTOMATIONS
        self.seated: dict[int, str] = dict(seated or {})
        for box in self.seated:
            if not 1 <= box <= rules.boxes:
                raise IllegalActionError(f"{rules.preset} has boxes 1-{rules.boxes} (Art. 2.3); no box {box}")
        if insurance_chip is not None and (not isinstance(insurance_chip, Decimal) or insurance_chip <= 0):
            raise IllegalActionError(f"insurance_chip is a positive amount (online §2.5.1), got {insurance_chip!r}")
        self.insurance_chip = insurance_chip
        """The table's smallest chip: the insurance cap rounds half the bet up to it (online §2.5.1)."""
        self.bets: dict[int, dict[str, Decimal]] = {}
        self.returned: list[op.BetReturned] = []
        """Bets returned when betting closed, never played (Art. 2.3: the box's occupant did not bet)."""
        self.hands: dict[int, list[Hand]] = {}
        self.burned: list[Card] = []
        self.operations: list[op.Operation] = []
        self.payments: list[op.Payment] = []
        self.insurance: dict[tuple[str, int], Decimal] = {}
        self.even_money: set[tuple[str, int]] = set()
        self.pending: op.Pending = op.AwaitBets()
        self.peeked = False
        self.last_round = shoe.cut_card_out  # a misdeal's replay after the cut card came out (Art. 2.1, 2.2)
        self.ended = False
        self.voided = False
        self._dealer: list[Card] = []
        self._hole_hidden = False
        self._on_end = on_end
        self._script: Script | None = None
        self.decided_boxes: set[int] = set()
        """Boxes that have made a play decision."""
        self.asked_cards: set[int] = set()
        """Boxes that have taken a card the player asked for: a hit or a double's card (Art. 12)."""

    # -------------------------------------------------------------------------------------------
    # what anyone may see
    @property
    def dealer_cards(self) -> list[Card]:
        """The dealer's cards dealt face up (the hole card only once turned)."""
        if self._hole_hidden:
            return [card for i, card in enumerate(self._dealer) if i != 1]
        return list(self._dealer)

    @property
    def dealer_has_hole_card(self) -> bool:
        """A face-down card lies before the dealer."""
        return self._hole_hidden

    @property
    def up_card(self) -> Card | None:
        return self._dealer[0] if self._dealer else None

    @property
    def dealer_total(self) -> int:
        return total(self.dealer_cards)[0]

    @property
    def boxes(self) -> list[int]:
        return sorted(self.bets)

    def occupant(self, box: int) -> str | None:
        return occupant(box, self.seated, self.bets)

    def decider(self, box: int) -> str:
        """Who makes the box's play decisions (Art. 13)."""
        return decider(box, self.seated, self.bets[box], self.occupant(box))

    def net(self) -> dict[str, Decimal]:
        """Each bettor's gain (+) or loss (−) so far, every bettor of the round included."""
        result: dict[str, Decimal] = {}
        for box in self.boxes:
            for player in self.bets[box]:
                result.setdefault(player, ZERO)
        for returned in self.returned:  # Art. 2.3: a returned bet nets 0
            result.setdefault(returned.player, ZERO)
        for payment in self.payments:
            result[payment.player] = result.get(payment.player, ZERO) + payment.amount
        return result

    def at_risk(self, player: str) -> Decimal:
        """What ``player`` has on the table and not yet settled: open stakes and unsettled insurance."""
        amount = sum(
            (
                hand.stakes[player]
                for hands in self.hands.values()
                for hand in hands
                if player in hand.stakes and player not in hand.settled
            ),
            ZERO,
        )
        if not self.hands:
            amount = sum((bets[player] for bets in self.bets.values() if player in bets), ZERO)
        settled_insurance = {(p.player, p.box) for p in self.payments if p.hand is None}
        amount += sum(
            (a for (who, box), a in self.insurance.items() if who == player and (who, box) not in settled_insurance),
            ZERO,
        )
        return amount

    def staked(self) -> dict[str, Decimal]:
        """What each bettor has put on the table this round: bets, doubles, splits, insurance."""
        result: dict[str, Decimal] = {}
        for hands in self.hands.values():
            for hand in hands:
                for player, stake in hand.stakes.items():
                    result[player] = result.get(player, ZERO) + stake
        if not self.hands:
            for bets in self.bets.values():
                for player, stake in bets.items():
                    result[player] = result.get(player, ZERO) + stake
        for (player, _box), amount in self.insurance.items():
            result[player] = result.get(player, ZERO) + amount
        return result

    # -------------------------------------------------------------------------------------------
    # recording and driving the script
    @property
    def cards_drawn(self) -> int:
        """Cards this round has taken from the shoe: burns, deals and void cards."""
        return sum(isinstance(o, op.CardBurned | op.CardDealt | op.CardVoided) for o in self.operations)

    def _record(self, operation: op.Operation) -> None:
        self.operations.append(operation)

    def _resume(self, value: object = None) -> None:
        assert self._script is not None
        try:
            self.pending = self._script.send(value)
        except StopIteration:
            self.pending = None

    def _require(self, kind: type, what: str) -> None:
        if self.voided:
            raise IllegalActionError(f"{what}: the round was voided")
        if self.ended:
            raise IllegalActionError(f"{what}: the round is over")
        if not isinstance(self.pending, kind):
            raise IllegalActionError(f"{what}: the round waits for {op.describe_pending(self.pending)}")

    # -------------------------------------------------------------------------------------------
    # betting
    def verify_bet(self, player: str, box: int, amount: object) -> Decimal:
        self._require(op.AwaitBets, f"{player}'s bet on box {box}")
        value = parse_amount(amount, what=f"{player}'s bet on box {box}")
        verify_bet(self.rules, player, box, value, self.seated, self.bets)
        return value

    def can_bet(self, player: str, box: int, amount: object) -> bool:
        return _can(self.verify_bet, player, box, amount)

    def bet(self, player: str, box: int, amount: object) -> op.BetPlaced:
        """Place ``player``'s bet of ``amount`` on ``box`` (Art. 2.3, 13; online §4.5)."""
        value = self.verify_bet(player, box, amount)
        self.bets.setdefault(box, {})[player] = value
        record = op.BetPlaced(player, box, value)
        self._record(record)
        return record

    def verify_deal(self) -> None:
        self._require(op.AwaitBets, "deal")
        if not self.bets:
            raise IllegalActionError("deal: no bets are placed")

    def can_deal(self) -> bool:
        return _can(self.verify_deal)

    def deal(self) -> None:
        """Close betting ("No more bets", online §2.1.3) and run the round until it needs someone.

        Art. 2.3 is judged now, on the whole set of bets: a bet on a box whose occupant did not bet is
        returned (:class:`~croupier.blackjack.actions.BetReturned`, :attr:`returned`) and the round is
        played without it. Where no bet remains the round ends at once, nothing dealt.
        """
        self.verify_deal()
        for player, box, reason in unbacked_bets(self.seated, self.bets):
            amount = self.bets[box].pop(player)
            record = op.BetReturned(player, box, amount, reason)
            self.returned.append(record)
            self._record(record)
        for box in [box for box, on_box in self.bets.items() if not on_box]:
            del self.bets[box]
        if not self.bets:
            self.pending = None
            self.ended = True
            self._record(op.RoundEnded(self.last_round))
            if self._on_end is not None:
                self._on_end(self)
            return
        self._script = procedure.run(self)
        self._resume()

    # -------------------------------------------------------------------------------------------
    # cards and chores from outside
    def supply_card(self, card: Card) -> None:
        """A live dealer's reader supplies the next card (the round waits on :class:`AwaitCard`)."""
        self._require(op.AwaitCard, f"card {card}")
        self.shoe.supply(card)
        self._resume()

    def void_face_up_card(self, card: Card) -> op.CardVoided:
        """Art. 2.1: a card found face up in a live shoe is void; the round waits for the next card."""
        self._require(op.AwaitCard, f"void card {card}")
        self.shoe.supply(card)
        self.shoe.draw()
        record = op.CardVoided(card)
        self._record(record)
        return record

    def void_card(self, card: Card, reason: str) -> op.CardVoided:
        """Art. 2.1, 3.2a: a card the dealer drew by mistake from a live shoe is void.

        Allowed at any moment the round is in play (after the deal, before it ends); the card counts
        among :attr:`cards_drawn` and is never dealt to a hand. ``reason`` says what happened.
        """
        what = f"void card {card}"
        self._require_in_play(what)
        if not self.shoe.is_live:
            raise IllegalActionError(f"{what}: a dealer draws by mistake only from a live shoe (Art. 2.1)")
        if self.shoe.can_draw():
            raise IllegalActionError(f"{what}: the shoe holds a supplied card not yet dealt")
        self.shoe.supply(card)
        self.shoe.draw()
        record = op.CardVoided(card, reason)
        self._record(record)
        return record

    def move_card(self, card: Card, to_box: int, from_box: int | None = None) -> op.CardMoved:
        """Art. 2.1: a card the dealer placed at the wrong box is given to the box it belonged to.

        The engine dealt the card to its hand already; this checks that ``card`` was dealt this round
        to ``to_box`` (0: the dealer) and records the correction. ``from_box`` is where it lay by
        mistake. Where the card cannot be given back, :meth:`void` the round instead (bets stand:
        :meth:`~croupier.blackjack.table.Table.replay_voided`).
        """
        what = f"move card {card} to box {to_box}"
        self._require_in_play(what)
        if from_box is not None and from_box == to_box:
            raise IllegalActionError(f"{what}: the card was placed at box {from_box} already")
        dealt = [o for o in self.operations if isinstance(o, op.CardDealt) and o.card == card and o.box == to_box]
        if not dealt:
            where = "the dealer" if to_box == 0 else f"box {to_box}"
            raise IllegalActionError(
                f"{what}: a misplaced card goes to the box it belonged to (Art. 2.1), and {card} was not dealt to "
                f"{where} this round; where the misdeal cannot be corrected the round is void (Art. 2.1)"
            )
        record = op.CardMoved(card, to_box, dealt[-1].hand, from_box)
        self._record(record)
        return record

    def _require_in_play(self, what: str) -> None:
        if self.voided:
            raise IllegalActionError(f"{what}: the round was voided")
        if self.ended:
            raise IllegalActionError(f"{what}: the round is over")
        if isinstance(self.pending, op.AwaitBets):
            raise IllegalActionError(f"{what}: betting is still open; no card is dealt yet")

    def mark_cut_card(self) -> None:
        """A live dealer reports the cut card: this round is the shoe's last."""
        if not self.shoe.cut_card_out:
            self.shoe.mark_cut_card()
        if not self.last_round:
            self.last_round = True
            self._record(op.CutCardOut())

    def _perform_chore(self, chore: str) -> None:
        self._require(op.AwaitChore, chore.replace("_", " "))
        assert isinstance(self.pending, op.AwaitChore)
        if self.pending.chore != chore:
            raise IllegalActionError(f"{chore.replace('_', ' ')}: the round waits for {self.pending.chore}")
        self._resume()

    def burn_card(self) -> None:
        self._perform_chore("burn")

    def deal_card(self) -> None:
        self._perform_chore("deal")

    def dealer_hit(self) -> None:
        """The dealer draws (Art. 3.2a: to 16, and on a soft 17 where ``dealer_hits_soft_17``)."""
        if isinstance(self.pending, op.AwaitChore) and self.pending.chore == "dealer_stand":
            raise IllegalActionError(f"dealer hit: the dealer stands on {self.dealer_total} (Art. 3.2a)")
        self._perform_chore("dealer_hit")

    def dealer_stand(self) -> None:
        if isinstance(self.pending, op.AwaitChore) and self.pending.chore == "dealer_hit":
            raise IllegalActionError(f"dealer stand: the dealer must draw on {self.dealer_total} (Art. 3.2a)")
        self._perform_chore("dealer_stand")

    def settle(self) -> None:
        self._perform_chore("settle")

    # -------------------------------------------------------------------------------------------
    # insurance and even money (Art. 6, 8; online §2.5): rules in croupier.blackjack.offers
    def verify_insurance(self, player: str, box: int, amount: object) -> Decimal:
        what = f"insurance for {player} on box {box}"
        offers.require_offer(self, what)
        value = parse_amount(amount, what=what)
        offers.verify_insurance(self, player, box, value)
        return value

    def can_insure(self, player: str, box: int, amount: object) -> bool:
        return _can(self.verify_insurance, player, box, amount)

    def insure(self, player: str, box: int, amount: object) -> op.InsuranceTaken:
        """``player`` insures their bet on ``box`` against a dealer natural (Art. 8; online §2.5)."""
        value = self.verify_insurance(player, box, amount)
        self.insurance[(player, box)] = value
        record = op.InsuranceTaken(player, box, value)
        self._record(record)
        return record

    def verify_even_money(self, player: str, box: int) -> None:
        """Raise naming the rule unless ``player`` may take even money on ``box`` now: while insurance
        is offered, and with no hole card (Macau 1983, Art. 6) until the face-down card is turned."""
        offers.verify_even_money(self, player, box)

    def can_take_even_money(self, player: str, box: int) -> bool:
        return _can(self.verify_even_money, player, box)

    def take_even_money(self, player: str, box: int) -> op.EvenMoneyTaken:
        """``player`` takes 1:1 at once on a natural against an ace (Art. 6)."""
        self.verify_even_money(player, box)
        self.even_money.add((player, box))
        record = op.EvenMoneyTaken(player, box)
        self._record(record)
        hand = self.hands[box][0]
        stake = hand.stakes[player]
        self._pay(player, box, 0, "even_money", stake, stake)
        if not hand.open_bettors:
            hand.outcome = "even_money"
        return record

    def verify_close_insurance(self) -> None:
        self._require(op.AwaitInsurance, "close insurance")

    def close_insurance(self) -> None:
        """End the insurance offer: untaken offers are declined (docs/transcript.md; online §3.6 timer)."""
        self.verify_close_insurance()
        self._record(op.InsuranceClosed())
        self._resume()

    def bettor_stake(self, player: str, box: int, what: str) -> Decimal:
        """``player``'s bet on ``box``, or raise that there is none."""
        stake = self.bets.get(box, {}).get(player)
        if stake is None:
            raise IllegalActionError(f"{what}: {player} has no bet on box {box}")
        return stake

    # -------------------------------------------------------------------------------------------
    # play decisions
    # Why an action is refused for the hand to act: croupier.blackjack.refusals (None: allowed).
    def verify_hit(self, box: int, hand: int | None = None, player: str | None = None) -> None:
        target, _index, _ = refusals.hand_to_act(self, moves.Hit, box, hand, player)
        _raise(refusals.hit(self, box, target))

    def verify_stand(self, box: int, hand: int | None = None, player: str | None = None) -> None:
        refusals.hand_to_act(self, moves.Stand, box, hand, player)

    def verify_double(
        self,
        box: int,
        hand: int | None = None,
        player: str | None = None,
        amount: object = None,
        declined_by: Collection[str] = (),
    ) -> Decimal:
        """The amount the deciding bettor adds; raises naming the rule. ``declined_by``: the box's other
        bettors who do not add a matching stake (Art. 13)."""
        target, _index, entitled = refusals.hand_to_act(self, moves.Double, box, hand, player)
        _raise(refusals.double(self, box, target))
        declined = refusals.check_declined("double", box, target, entitled, declined_by)
        return refusals.double_amount(self, box, target, entitled, amount, declined)

    def verify_split(
        self, box: int, hand: int | None = None, player: str | None = None, declined_by: Collection[str] = ()
    ) -> None:
        target, _index, entitled = refusals.hand_to_act(self, moves.Split, box, hand, player)
        _raise(refusals.split(self, box, target))
        refusals.check_declined("split", box, target, entitled, declined_by)

    def verify_surrender(self, box: int, hand: int | None = None, player: str | None = None) -> None:
        target, _index, _ = refusals.hand_to_act(self, moves.Surrender, box, hand, player)
        _raise(refusals.surrender(self, box, target))

    def can_hit(self, box: int, hand: int | None = None, player: str | None = None) -> bool:
        return _can(self.verify_hit, box, hand, player)

    def can_stand(self, box: int, hand: int | None = None, player: str | None = None) -> bool:
        return _can(self.verify_stand, box, hand, player)

    def can_double(
        self,
        box: int,
        hand: int | None = None,
        player: str | None = None,
        amount: object = None,
        declined_by: Collection[str] = (),
    ) -> bool:
        return _can(self.verify_double, box, hand, player, amount, declined_by)

    def can_split(
        self, box: int, hand: int | None = None, player: str | None = None, declined_by: Collection[str] = ()
    ) -> bool:
        return _can(self.verify_split, box, hand, player, declined_by)

    def can_surrender(self, box: int, hand: int | None = None, player: str | None = None) -> bool:
        return _can(self.verify_surrender, box, hand, player)

    def verify(self, action: moves.Action) -> None:
        """Raise :class:`IllegalActionError` naming the rule unless ``action`` may be taken now; the
        round does not change (:mod:`croupier.blackjack.moves`); anything that is not a blackjack action
        is refused naming what was held."""
        match moves.require(action):
            case moves.Hit(box, hand, player):
                self.verify_hit(box, hand, player)
            case moves.Stand(box, hand, player):
                self.verify_stand(box, hand, player)
            case moves.Double(box, hand, player, amount, declined_by):
                self.verify_double(box, hand, player, amount, declined_by)
            case moves.Split(box, hand, player, declined_by):
                self.verify_split(box, hand, player, declined_by)
            case moves.Surrender(box, hand, player):
                self.verify_surrender(box, hand, player)
            case moves.Insure(player, box, amount):
                self.verify_insurance(player, box, amount)
            case moves.TakeEvenMoney(player, box):
                self.verify_even_money(player, box)
            case moves.CloseInsurance():
                self.verify_close_insurance()

    def can(self, action: moves.Action) -> bool:
        """Whether :meth:`verify` accepts ``action``."""
        return _can(self.verify, action)

    def apply(self, action: moves.Action) -> op.Operation | None:
        """Take ``action`` after :meth:`verify`; returns its record (None for closing insurance). A refused
        action (anything that is not a blackjack action too) changes nothing."""
        match moves.require(action):
            case moves.Insure(player, box, amount):
                return self.insure(player, box, amount)
            case moves.TakeEvenMoney(player, box):
                return self.take_even_money(player, box)
            case moves.CloseInsurance():
                self.close_insurance()
                return None
            case moves.Hit() | moves.Stand() | moves.Double() | moves.Split() | moves.Surrender() as play:
                return self._decide(play)
        raise AssertionError(action)  # pragma: no cover - moves.require admits the actions matched above

    def _decide(self, action: moves.Play) -> op.Decision:
        value: Decimal | None = None
        declined: tuple[str, ...] = ()
        if isinstance(action, moves.Double):
            value = self.verify_double(action.box, action.hand, action.player, action.amount, action.declined_by)
        else:
            self.verify(action)
        if isinstance(action, moves.Double | moves.Split):
            declined = tuple(sorted(set(action.declined_by)))
        assert isinstance(self.pending, op.AwaitDecision)
        record = op.Decision(action.kind, action.box, self.pending.hand, self.pending.player, value, declined)
        self.decided_boxes.add(action.box)
        if isinstance(action, moves.Hit | moves.Double):
            self.asked_cards.add(action.box)
        self._record(record)
        self._resume(procedure.Decided(action, record))
        return record

    def first_turn(self) -> op.AwaitDecision | None:
        """While insurance is offered: the decision that comes first if the dealer has no natural."""
        for box in self.boxes:
            if not self.hands[box][0].done:
                return op.AwaitDecision(box, 0, self.decider(box))
        return None

    def verify_first(self, action: moves.Play) -> None:
        """While insurance is offered, refuse a first play decision that the rules refuse whatever the
        hole card holds (a transcript's first decision closes the offer; docs/transcript.md). Nothing here
        depends on the dealer's face-down card."""
        kind, box = action.kind, action.box
        self._require(op.AwaitInsurance, f"{kind} on box {box}")
        turn = self.first_turn()
        if turn is None:
            raise IllegalActionError(f"{kind} on box {box}: no hand waits for a decision (every box holds a natural)")
        target, _index, entitled = refusals.hand_to_act(self, type(action), box, action.hand, action.player, turn)
        match action:
            case moves.Hit():
                _raise(refusals.hit(self, box, target))
            case moves.Double(amount=amount, declined_by=declined_by):
                _raise(refusals.double(self, box, target))
                declined = refusals.check_declined(kind, box, target, entitled, declined_by)
                refusals.double_amount(self, box, target, entitled, amount, declined)
            case moves.Split(declined_by=declined_by):
                _raise(refusals.split(self, box, target))
                refusals.check_declined(kind, box, target, entitled, declined_by)
            case moves.Surrender():
                _raise(refusals.surrender(self, box, target))

    def hit(self, box: int, hand: int | None = None, player: str | None = None) -> op.Decision:
        """Take a card."""
        return self._decide(moves.Hit(box, hand, player))

    def stand(self, box: int, hand: int | None = None, player: str | None = None) -> op.Decision:
        """Take no more cards."""
        return self._decide(moves.Stand(box, hand, player))

    def double(
        self,
        box: int,
        hand: int | None = None,
        player: str | None = None,
        amount: object = None,
        declined_by: Collection[str] = (),
    ) -> op.Decision:
        """Add up to the bet and take exactly one card (Art. 11; online §2.6). Each other bettor of the
        box adds the same fraction of their stake, except those in ``declined_by`` (Art. 13), whose
        stake stays as it was."""
        return self._decide(moves.Double(box, hand, player, cast(moves.Amount, amount), moves.names(declined_by)))

    def split(
        self, box: int, hand: int | None = None, player: str | None = None, declined_by: Collection[str] = ()
    ) -> op.Decision:
        """Split two cards of equal value into two hands, a matching stake on the new one (Art. 10).
        A bettor in ``declined_by`` adds none: their stake stays on the first hand only (Art. 13)."""
        return self._decide(moves.Split(box, hand, player, moves.names(declined_by)))

    def surrender(self, box: int, hand: int | None = None, player: str | None = None) -> op.Decision:
        """Give up half the bet (Art. 12): the box's first decision, or after a split every hand of the
        box together, before any card asked for; the box's play ends."""
        return self._decide(moves.Surrender(box, hand, player))

    def legal_actions(self) -> tuple[op.LegalAction, ...]:
        """What may be done now, as an immutable tuple. During a decision it also lists the even-money
        offers still open to naturals (Macau 1983, Art. 6), after the decider's actions."""
        pending = self.pending
        if isinstance(pending, op.AwaitInsurance):
            return (*offers.offers(self, insurance=True), op.LegalAction("close_insurance", 0))
        if isinstance(pending, op.AwaitDecision):
            box, index, player = pending.box, pending.hand, pending.player
            target = self.hands[box][index]
            result = [op.LegalAction("stand", box, index, player)]
            if refusals.hit(self, box, target) is None:
                result.insert(0, op.LegalAction("hit", box, index, player))
            if refusals.double(self, box, target) is None:
                least = refusals.least_double(self, target, player)
                result.append(op.LegalAction("double", box, index, player, least, target.stakes[player]))
            if refusals.split(self, box, target) is None:
                result.append(op.LegalAction("split", box, index, player))
            if refusals.surrender(self, box, target) is None:
                result.append(op.LegalAction("surrender", box, index, player))
            if offers.even_money_stays_open(self):
                result.extend(offers.offers(self, insurance=False))
            return tuple(result)
        if isinstance(pending, op.AwaitChore):
            return (op.LegalAction(pending.chore, 0),)
        if isinstance(pending, op.AwaitCard):
            return (op.LegalAction("supply_card" if self.shoe.is_live else "void", 0),)
        if isinstance(pending, op.AwaitBets):
            return (op.LegalAction("bet", 0), op.LegalAction("deal", 0)) if self.bets else (op.LegalAction("bet", 0),)
        return ()

    # -------------------------------------------------------------------------------------------
    # voiding (Art. 2.1 misdeal; online §3.5)
    def void(self, reason: str) -> op.RoundVoided:
        """Void every card of the round; every stake is returned and the bets stand for a new deal."""
        if self.ended:
            raise IllegalActionError("void: the round is already settled")
        if self.voided:
            raise IllegalActionError("void: the round is already void")
        self.voided = True
        self.payments.clear()
        self.pending = None
        if self._script is not None:
            self._script.close()
        record = op.RoundVoided(reason)
        self._record(record)
        return record

    def _pay(self, player: str, box: int, hand: int | None, kind: str, stake: Decimal, amount: Decimal) -> None:
        payment = op.Payment(player, box, hand, kind, stake, amount)
        self.payments.append(payment)
        self._record(payment)
        if hand is not None:
            target = self.hands[box][hand]
            target.settled.add(player)
            target.results[player] = kind

    def _end(self) -> None:
        if self.rules.metal_box:  # Art. 2.2: one round per shuffle from the metal box
            self.last_round = True
        self.ended = True
        self._record(op.RoundEnded(self.last_round))
        if self._on_end is not None:
            self._on_end(self)


def _raise(reason: str | None) -> None:
    if reason is not None:
        raise IllegalActionError(reason)


def _can(verify: Callable[..., object], *args: object) -> bool:
    try:
        verify(*args)
    except IllegalActionError:
        return False
    except ValueError:
        return False
    return True
