"""The baccarat table's vocabulary: its phases, the chores it may automate, the shoes it loads, and
when a shoe ends (Art. 3.1, 7.2).

:class:`~croupier.baccarat.state.BaccaratTable` moves through :class:`Phase` s, performs the
:class:`Automation` s the caller leaves to it, and loads shoes from a :data:`ShoeSource`
(:func:`shuffled_shoes`). Every name here is re-exported by :mod:`croupier.baccarat.state`.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from croupier.baccarat.rules import Rules
from croupier.rng import RandomSource, SystemRandom
from croupier.shoe import Shoe, place_cut_card

__all__ = ["ALL_AUTOMATIONS", "Automation", "Phase", "ShoeSource", "is_last_coup", "shoe_end_reason", "shuffled_shoes"]


class Phase(Enum):
    AWAITING_SHOE = "awaiting a shoe"
    SHOE_START = "starting the shoe"
    BETTING = "betting"
    DEALING = "dealing"
    SETTLING = "settling"


class Automation(Enum):
    """Chores the engine performs by itself unless the caller takes them over."""

    SHUFFLING = "load the next shuffled shoe (needs a shoe source)"
    BURNING = "turn the first card and burn"
    DEALING = "deal the cards the tableau calls for"
    SETTLING = "settle a complete coup"


ALL_AUTOMATIONS = frozenset(Automation)

ShoeSource = Callable[[], Shoe]


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
