"""The baccarat table's vocabulary: its phases, the chores it may automate, the shoes it loads, and
when a shoe ends (Art. 3.1, 7.2).

:class:`~croupier.baccarat.state.BaccaratTable` moves through :class:`Phase` s, performs the
:class:`Automation` s the caller leaves to it, and loads shoes from a :data:`ShoeSource`
(:func:`shuffled_shoes`). Every name here is re-exported by :mod:`croupier.baccarat.state`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from enum import Enum, StrEnum

from croupier.baccarat.rules import Rules
from croupier.pending import AwaitBets, AwaitCard, AwaitChore, AwaitShoe, Waiting
from croupier.rng import RandomSource, SystemRandom
from croupier.shoe import Shoe, place_cut_card

__all__ = [
    "ALL_AUTOMATIONS",
    "Automation",
    "Phase",
    "ShoeSource",
    "automations_of",
    "is_last_coup",
    "shoe_end_reason",
    "shuffled_shoes",
    "waiting",
]


class Phase(Enum):
    AWAITING_SHOE = "awaiting a shoe"
    SHOE_START = "starting the shoe"
    BETTING = "betting"
    DEALING = "dealing"
    SETTLING = "settling"


class Automation(StrEnum):
    """Chores the engine performs by itself unless the caller takes them over (``automations=``). Each
    member is its name as text (``"burn"``), so a set of names serves as well, as for the blackjack
    round's :class:`~croupier.blackjack.actions.Automation`."""

    SHUFFLING = "shuffle"
    """Load the next shuffled shoe (needs a shoe source)."""
    BURNING = "burn"
    """Turn the first card and burn (Art. 2.1), and the burn before a coup (Art. 8)."""
    DEALING = "deal"
    """Deal the cards the tableau calls for (Art. 7, 9)."""
    SETTLING = "settle"
    """Settle a complete coup."""


def automations_of(names: Collection[str]) -> frozenset[Automation]:
    """The automations named (members or their names); a name that is none is refused, naming them all."""
    names = tuple(names)  # read once: a generator is used up by the first look
    unknown = sorted(str(name) for name in names if name not in ALL_NAMES)
    if unknown:
        raise ValueError(f"unknown automations {unknown}; they are {', '.join(sorted(ALL_NAMES))}")
    return frozenset(Automation(name) for name in names)


ALL_AUTOMATIONS = frozenset(Automation)
ALL_NAMES = frozenset(str(a) for a in Automation)

ShoeSource = Callable[[], Shoe]


def waiting(phase: Phase, rules: Rules, first_card_turned: bool, coup_burns: int, shoe: Shoe | None) -> Waiting:
    """What a table in ``phase`` waits for, in the records both engines share (:mod:`croupier.pending`): a
    shoe, bets, a live shoe's next card, or the chore due (by its automation's name), which the table
    performs by itself where it is automated and the shoe has the card."""
    if phase is Phase.AWAITING_SHOE:
        return AwaitShoe()
    if phase is Phase.BETTING:
        return AwaitBets()
    if phase is Phase.SETTLING:
        return AwaitChore("settle")
    if phase is Phase.SHOE_START:
        chore = "turn_first_card" if rules.burn == "first_card_value" and not first_card_turned else "burn"
    else:
        chore = "burn" if coup_burns else "deal"
    if shoe is not None and shoe.is_live and not shoe.can_draw():
        return AwaitCard(chore)
    return AwaitChore(chore)


def shuffled_shoes(rules: Rules, source: RandomSource | None = None) -> ShoeSource:
    """New shuffled shoes for ``rules``; none has a cut card with an automatic shuffler (Art. 2.3).

    The cut card goes where ``cut_card`` says (Art. 2.1), but never so near the end that the shoe could
    run out before its last coup (:attr:`Rules.cards_from_cut_card_to_end`: 12, or 14 with a burn
    before each coup).
    """
    random_source = source or SystemRandom()
    total = rules.decks * 52
    need = rules.cards_from_cut_card_to_end
    setting = rules.cut_card
    if isinstance(setting, tuple):
        setting = (max(setting[0], need), max(setting[1], need))
    elif setting is not None:
        setting = min(setting, total - need)

    def new_shoe() -> Shoe:
        cut = None if rules.automatic_shuffler else place_cut_card(setting, total, random_source)
        return Shoe.shuffled(rules.decks, cut, random_source)

    return new_shoe


def is_last_coup(rules: Rules, coup: int, cut_card_coup: int | None) -> bool:
    """Whether ``coup`` is the shoe's last: with an automatic shuffler every coup (Art. 7.2); else the
    coup the cut card came out in (``cut_card_coup``), or the one after it (Art. 3.1, ``at_cut_card``)."""
    if rules.automatic_shuffler:
        return True  # Art. 7.2: the cards go back into the machine after every coup
    if cut_card_coup is None:
        return False
    if rules.at_cut_card == "last":
        return coup >= cut_card_coup
    return coup >= cut_card_coup + 1


def shoe_end_reason(rules: Rules, cut_card_coup: int | None) -> str:
    """Why the shoe is over, citing the article (Art. 3.1, 7.2)."""
    if rules.automatic_shuffler:
        return "the automatic shuffler takes the cards back after every coup (Art. 7.2)"
    if rules.at_cut_card == "last":
        return f"the cut card came out in coup {cut_card_coup}, the shoe's last (Art. 3.1; at_cut_card = last)"
    return (
        f"the cut card came out in coup {cut_card_coup} and {rules.preset} plays one more coup "
        "after it (Art. 3.1; at_cut_card = one_more)"
    )
