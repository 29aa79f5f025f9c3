"""A blackjack table for the environments: seeded shoes one after another, and what a counter saw.

:class:`TableSession` holds a :class:`~croupier.blackjack.state.Table` whose shoes are shuffled from
one :func:`croupier.rng.seeded` stream: the seed given to ``reset(seed=…)`` fixes every shoe that
follows, so a run of episodes replays exactly from its seed and its actions. A shoe carries over
from episode to episode until its last round (the cut card, Art. 2.2; online §3.2.2); then the next
shoe is shuffled from the same stream. The rounds of the shoe in play are kept so that they can be
written as a transcript (docs/transcript.md) that ``croupier replay`` reproduces.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from croupier.blackjack.replay import to_transcript
from croupier.blackjack.rules import Rules
from croupier.blackjack.state import Round, Table
from croupier.cards import RANKS
from croupier.errors import IllegalActionError
from croupier.rl.encoding import Obs, count_seen
from croupier.rng import HmacStream, SystemRandom, seeded
from croupier.shoe import Shoe, place_cut_card


def shuffled_shoe(rules: Rules, rng: HmacStream) -> Shoe:
    """A shoe for ``rules`` as :meth:`Table.shuffled` makes one: the cut card's place, then Fisher–Yates."""
    cut = place_cut_card(rules.cut_card, rules.decks * 52, rng)
    return Shoe.shuffled(rules.decks, cut, rng)


def fresh_seed() -> int:
    """A seed from the operating system's CSPRNG, for a first ``reset()`` without one."""
    return SystemRandom().randbelow(2**32)


class TableSession:
    """A table, its seeded stream of shoes, the rounds of the shoe in play and the cards seen face up."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.seed: int | None = None
        self.shoe_number = 0
        self.rounds: list[Round] = []
        self.seen: Obs = np.zeros(len(RANKS), dtype=np.int64)
        self._rng: HmacStream | None = None
        self._table: Table | None = None
        self._read = 0
        self._spent = False

    @property
    def table(self) -> Table:
        if self._table is None:
            raise IllegalActionError("the environment has not been reset yet")
        return self._table

    @property
    def started(self) -> bool:
        return self._table is not None

    def start(self, seed: int) -> None:
        """Begin a new stream of shoes from ``seed`` (a fresh shuffle, whatever was in play)."""
        self.seed = seed
        self._rng = seeded(seed)
        self.shoe_number = 0
        self.new_shoe()

    def new_shoe(self) -> None:
        assert self._rng is not None
        shoe = shuffled_shoe(self.rules, self._rng)
        if self._table is None:
            self._table = Table(self.rules, shoe)
        else:
            current = self._table.round
            if current is not None and not (current.ended or current.voided):
                current.void("the environment shuffles a new shoe")
            self._table.new_shoe(shoe)
        self.shoe_number += 1
        self.rounds = []
        self.seen[:] = 0
        self._spent = False

    def open_round(self, seated: Mapping[int, str]) -> Round:
        """The next round of the shoe in play, or of a new shoe after the last round (or a shoe that ran out).

        A round still in play (a ``reset`` in the middle of an episode) is voided first; if it had
        drawn cards, the next round comes from a new shoe, so that every transcript stays whole.
        """
        table = self.table
        current = table.round
        if current is not None and current.ended:
            self.update_seen(current)  # a round settled without a look (inside reset)
        if current is not None and not (current.ended or current.voided):
            self.abandon(current, "the episode was abandoned")
        if table.shoe_finished or self._spent:
            self.new_shoe()
        self._read = 0
        return table.new_round(seated)

    def abandon(self, current: Round, reason: str) -> None:
        """Void a round in play (Art. 2.1: every stake is returned); if it drew cards, the next round comes
        from a new shoe, so that the shoe's transcript stays whole."""
        dealt = current.cards_drawn > 0
        current.void(reason)
        self._spent = self._spent or dealt

    def update_seen(self, current: Round) -> None:
        """Count the cards turned face up since the last call."""
        self._read = count_seen(current.operations, self._read, self.seen)

    def finished(self, current: Round) -> None:
        """Keep a settled round for the shoe's transcript."""
        if current.ended:
            self.rounds.append(current)

    def ran_out(self, current: Round) -> None:
        """The shoe has no card for the round: void it (Art. 2.1); the next round comes from a new shoe."""
        current.void("the shoe ran out of cards (Art. 2.1)")
        self._spent = True

    def transcript(self) -> dict[str, Any]:
        """The shoe in play, from its shuffle to its latest settled round, as a transcript (docs/transcript.md)."""
        shoe = self.table.shoe
        order = shoe.drawn() + shoe.remaining_cards()
        return to_transcript(self.rules, order, self.rounds, shoe.cut_card)
