"""The blackjack table: a rule set and a shoe, and the rounds dealt from it one after another.

A :class:`Table` opens :class:`~croupier.blackjack.round.Round` after round until the round in which
the cut card comes out (Art. 2.2; online §3.2.2), then waits for a new shoe; a voided round's bets
stand for a new deal (:meth:`Table.replay_voided`, Art. 2.1).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from croupier.blackjack import actions as op
from croupier.blackjack.round import AUTOMATIONS, Round
from croupier.blackjack.rules import Rules
from croupier.errors import IllegalActionError
from croupier.rng import RandomSource
from croupier.shoe import Shoe, place_cut_card


class Table:
    """A rule set and a shoe; rounds follow one another until the shoe's last round."""

    def __init__(
        self,
        rules: Rules,
        shoe: Shoe,
        *,
        automations: frozenset[str] = AUTOMATIONS,
        insurance_chip: Decimal | None = None,
    ) -> None:
        if shoe.decks != rules.decks:
            raise IllegalActionError(f"the shoe holds {shoe.decks} deck(s); the rules ask for {rules.decks}")
        self.rules = rules
        self.shoe = shoe
        self.automations = automations
        self.insurance_chip = insurance_chip
        """The table's smallest chip for insurance caps (online §2.5.1); None: the exact half."""
        self.rounds_in_shoe = 0
        self.shoe_finished = False
        self.round: Round | None = None

    @classmethod
    def shuffled(cls, rules: Rules, source: RandomSource | None = None) -> Table:
        """A table with a freshly shuffled shoe (the OS CSPRNG unless ``source`` is given)."""
        cut = place_cut_card(rules.cut_card, rules.decks * 52, source)
        return cls(rules, Shoe.shuffled(rules.decks, cut, source))

    def new_shoe(self, shoe: Shoe) -> None:
        if shoe.decks != self.rules.decks:
            raise IllegalActionError(f"new shoe: it holds {shoe.decks} deck(s); the rules ask for {self.rules.decks}")
        if self.round is not None and not (self.round.ended or self.round.voided):
            raise IllegalActionError("new shoe: a round is in progress")
        self.shoe = shoe
        self.rounds_in_shoe = 0
        self.shoe_finished = False

    def new_round(
        self,
        seated: Mapping[int, str] | None = None,
        *,
        extra_burns: int = 0,
        automations: frozenset[str] | None = None,
        insurance_chip: Decimal | None = None,
    ) -> Round:
        """Open betting on the next round of this shoe (``extra_burns`` first: online §3.5's 3 after an error)."""
        if self.round is not None and not (self.round.ended or self.round.voided):
            raise IllegalActionError("new round: the current round is not settled")
        if self.shoe_finished:
            raise IllegalActionError(
                "new round: the shoe's last round has been played; the shoe is shuffled now (Art. 2.2; online §3.2.2)"
            )
        self.round = Round(
            self.rules,
            self.shoe,
            first_of_shoe=self.shoe.position == 0,
            seated=seated,
            extra_burns=extra_burns,
            automations=self.automations if automations is None else automations,
            on_end=self._round_ended,
            insurance_chip=self.insurance_chip if insurance_chip is None else insurance_chip,
        )
        return self.round

    def replay_voided(self, voided: Round, burn: int = 0, automations: frozenset[str] | None = None) -> Round:
        """A voided round's bets, standing for a new deal (Art. 2.1); ``burn`` cards first (online §3.5)."""
        if not voided.voided:
            raise IllegalActionError("replay: the round was not voided")
        self.round = None
        fresh = self.new_round(
            voided.seated, extra_burns=burn, automations=automations, insurance_chip=voided.insurance_chip
        )
        for placed in voided.operations:  # in the order they arrived; Art. 2.3 is judged again at the deal
            if isinstance(placed, op.BetPlaced):
                fresh.bet(placed.player, placed.box, placed.amount)
        return fresh

    def _round_ended(self, finished: Round) -> None:
        self.rounds_in_shoe += 1
        if finished.last_round:
            self.shoe_finished = True
