"""Blackjack rule parameters (docs/rules.md §3), by the names docs/rules.md gives them.

:class:`Rules` is frozen; :data:`PARAMS` reads each parameter from text or JSON. Presets are in
:mod:`croupier.blackjack.presets`.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from croupier.errors import RulesError
from croupier.money import Ratio
from croupier.ruleset import Param, amount_or_none, boolean, choice, describe, integer, ratio
from croupier.shoe import parse_cut_card_range

HoleCard = Literal["none", "peek", "peek_ace"]
Takes = Literal["all", "original"]
DoubleOn = Literal["any_two", "9_11", "10_11", "11"]
Surrender = Literal["none", "early_not_ace", "late"]

DOUBLE_TOTALS: dict[str, frozenset[int]] = {
    "any_two": frozenset(range(2, 22)),
    "9_11": frozenset({9, 10, 11}),
    "10_11": frozenset({10, 11}),
    "11": frozenset({11}),
}


@dataclass(frozen=True)
class Rules:
    """A blackjack rule set: a preset plus overrides. Every field is a docs/rules.md §3 parameter."""

    preset: str
    decks: int
    boxes: int
    dealer_hits_soft_17: bool
    hole_card: HoleCard
    dealer_blackjack_takes: Takes
    double_on: DoubleOn
    double_after_split: bool
    double_for_less: bool
    max_split_hands: int
    split_aces_one_card: bool
    resplit_aces: bool
    surrender: Surrender
    blackjack_pays: Ratio
    insurance_pays: Ratio | None
    even_money: bool
    bonus_678_suited: Ratio | None
    bonus_777: Ratio | None
    bet_behind: bool
    max_boxes_per_player: int
    dealer_draws_when_moot: bool
    burn_at_shoe_start: int | Literal["decks"]
    burn_each_round: int
    burn_before_dealer_second: int
    burn_after_misdeal: int
    """Cards burned before a misdealt round is dealt again with its bets standing (Art. 2.1; online §3.5:
    3, with the supervisor's approval)."""
    cut_card: tuple[int, int] | int | None
    min_bet: Decimal | None = None
    max_bet: Decimal | None = None
    box_cards_face_down: bool = False
    """Art. 3.1a: each box's first two cards are dealt face down (a live view shows them to the box's
    bettors, and to everyone once the box has played). A property of the preset, not an override:
    docs/rules.md names no such parameter."""

    def __post_init__(self) -> None:
        if self.min_bet is not None and self.max_bet is not None and self.min_bet > self.max_bet:
            raise RulesError(f"min_bet {self.min_bet} is above max_bet {self.max_bet}")

    # derived procedure --------------------------------------------------------------------------
    @property
    def metal_box(self) -> bool:
        """Macau's single deck (Art. 1b, 2.2, 3.1b): no-hole-card rules dealt from one deck.

        The dealer takes a face-down second card in the initial deal, one round per shuffle, one
        box per player, and no burns but the one at the start.
        """
        return self.hole_card == "none" and self.decks == 1

    @property
    def shoe_start_burns(self) -> int:
        """Cards burned after each shuffle (Art. 2.1: as many as decks; online §3.5: 6)."""
        return self.decks if self.burn_at_shoe_start == "decks" else self.burn_at_shoe_start

    @property
    def boxes_per_player(self) -> int:
        """Art. 2.3: with one deck, one box each."""
        return 1 if self.metal_box else self.max_boxes_per_player

    def describe(self) -> dict[str, str]:
        """Every parameter as the user would write it."""
        return {name: describe(getattr(self, name)) for name in PARAMS}


PARAMS: dict[str, Param] = {
    p.name: p
    for p in (
        Param("decks", integer(1, 8), "1-8", "Art. 1; online §1.6"),
        Param("boxes", integer(1, 7), "1-7", "Art. 2.3; online §1.2.1"),
        Param("dealer_hits_soft_17", boolean, "true, false", "Art. 3.2a; online §4.4"),
        Param("hole_card", choice("none", "peek", "peek_ace"), "none, peek, peek_ace", "Art. 3.1a; online §3.8"),
        Param("dealer_blackjack_takes", choice("all", "original"), "all, original", "Art. 8; online §2.6"),
        Param("double_on", choice(*DOUBLE_TOTALS), "any_two, 9_11, 10_11, 11", "Art. 11; online §2.6"),
        Param("double_after_split", boolean, "true, false", "Art. 11; online §2.6"),
        Param("double_for_less", boolean, "true, false", "Art. 11; online §2.6"),
        Param("max_split_hands", integer(1, 4), "1-4", "Art. 10; online §2.7"),
        Param("split_aces_one_card", boolean, "true, false", "Art. 10; online §2.7"),
        Param("resplit_aces", boolean, "true, false", "Art. 10"),
        Param("surrender", choice("none", "early_not_ace", "late"), "none, early_not_ace, late", "Art. 12"),
        Param("blackjack_pays", ratio(optional=False), "a ratio such as 3:2, 6:5, 1:1", "Art. 6; online §2.3"),
        Param("insurance_pays", ratio(optional=True), "a ratio such as 2:1, or none", "Art. 8; online §2.5"),
        Param("even_money", boolean, "true, false", "Art. 6"),
        Param("bonus_678_suited", ratio(optional=True), "a ratio such as 3:1, or none", "Art. 9"),
        Param("bonus_777", ratio(optional=True), "a ratio such as 3:1, or none", "Art. 9"),
        Param("bet_behind", boolean, "true, false", "Art. 13; online §4.5"),
        Param("max_boxes_per_player", integer(1, 7), "1-7", "Art. 2.3; online §4.5"),
        Param("dealer_draws_when_moot", boolean, "true, false", "Art. 3.2a; online §4.4"),
        Param(
            "burn_at_shoe_start",
            lambda raw: "decks" if raw == "decks" else integer(0, 10)(raw),
            "decks or 0-10",
            "Art. 2.1; online §3.5",
        ),
        Param("burn_each_round", integer(0, 2), "0-2", "Art. 2.4"),
        Param("burn_before_dealer_second", integer(0, 2), "0-2", "Art. 2.4, 3.1a"),
        Param("burn_after_misdeal", integer(0, 10), "0-10", "Art. 2.1; online §3.5"),
        Param(
            "cut_card",
            parse_cut_card_range,
            "a count of cards above the cut card, a range of cards from the end ('20-30'), or none",
            "Art. 2.1, 2.2; online §3.2.2",
        ),
        Param("min_bet", amount_or_none, "a positive amount, or none", "table limits: online §2.1.4; Macau names none"),
        Param("max_bet", amount_or_none, "a positive amount, or none", "table limits: online §2.1.4; Macau names none"),
    )
}
