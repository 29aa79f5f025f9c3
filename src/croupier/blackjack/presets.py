"""The blackjack presets of docs/rules.md §3: ``macau-1983`` and ``live-online``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from croupier.blackjack.rules import PARAMS, Rules
from croupier.errors import RulesError
from croupier.money import Ratio
from croupier.ruleset import apply_overrides

MACAU_1983 = Rules(
    preset="macau-1983",
    decks=6,  # Art. 1: any 1-8
    boxes=7,  # Art. 2.3
    dealer_hits_soft_17=False,  # Art. 3.2a
    hole_card="none",  # Art. 3.1a, with the ace exception
    dealer_blackjack_takes="all",  # Art. 8
    double_on="11",  # Art. 11
    double_after_split=False,  # Art. 11 "first two cards"
    double_for_less=False,  # Art. 11 "加多一倍"
    max_split_hands=4,  # Art. 10 sets no limit; 4 is the house cap
    split_aces_one_card=True,  # Art. 10
    resplit_aces=False,
    surrender="early_not_ace",  # Art. 12
    blackjack_pays=Ratio(3, 2),  # Art. 6
    insurance_pays=Ratio(2, 1),  # Art. 8
    even_money=True,  # Art. 6
    bonus_678_suited=Ratio(3, 1),  # Art. 9
    bonus_777=Ratio(3, 1),  # Art. 9
    bet_behind=True,  # Art. 13
    max_boxes_per_player=7,  # Art. 2.3
    dealer_draws_when_moot=True,  # Art. 3.2a
    burn_at_shoe_start="decks",  # Art. 2.1
    burn_each_round=1,  # Art. 2.4
    burn_before_dealer_second=1,  # Art. 2.4, 3.1a
    burn_after_misdeal=0,  # Art. 2.1 names no burn before a misdealt round is dealt again
    cut_card=(20, 30),  # Art. 2.1, 2.2: between the last 20 and 30 cards
    box_cards_face_down=True,  # Art. 3.1a: each box's two cards face down, shown once the box has played
)

LIVE_ONLINE = Rules(
    preset="live-online",
    decks=8,  # §1.6
    boxes=7,  # §1.2.1
    dealer_hits_soft_17=True,  # §4.4
    hole_card="peek_ace",  # §3.4, §3.8
    dealer_blackjack_takes="original",  # §2.6
    double_on="any_two",  # §2.6
    double_after_split=True,  # §2.6
    double_for_less=True,  # §2.6 "不超過"
    max_split_hands=2,  # §2.7: one split per round
    split_aces_one_card=True,  # §2.7
    resplit_aces=False,
    surrender="none",
    blackjack_pays=Ratio(3, 2),  # §2.3
    insurance_pays=Ratio(2, 1),  # §2.5
    even_money=False,  # "保險": a natural may take insurance instead
    bonus_678_suited=None,
    bonus_777=None,
    bet_behind=False,  # §4.5
    max_boxes_per_player=1,  # §4.5
    dealer_draws_when_moot=False,  # §4.4
    burn_at_shoe_start=6,  # §3.5
    burn_each_round=0,
    burn_before_dealer_second=0,
    burn_after_misdeal=3,  # §3.5: after a game error, with the supervisor's approval, burn 3
    cut_card=(52, 78),  # §3.2.2: the house sets penetration; one to one and a half decks from the end
)

PRESETS: dict[str, Rules] = {MACAU_1983.preset: MACAU_1983, LIVE_ONLINE.preset: LIVE_ONLINE}


@dataclass(frozen=True)
class Floor:
    """A payout a preset's seed fixes: ``param`` pays ``at_least`` (a house may pay more) or
    ``exactly`` ``ratio``; an override that does not (``none`` included) is refused, naming ``clause``."""

    param: str
    bet: str
    ratio: Ratio
    kind: Literal["at_least", "exactly"]
    clause: str

    def refusal(self, rules: Rules) -> str | None:
        """Why ``rules`` breaks this floor, or None."""
        value = getattr(rules, self.param)
        if isinstance(value, Ratio) and (
            value.fraction >= self.ratio.fraction if self.kind == "at_least" else value.fraction == self.ratio.fraction
        ):
            return None
        words = "at least" if self.kind == "at_least" else "exactly"
        shown = "none" if value is None else str(value)
        below = value is None or (isinstance(value, Ratio) and value.fraction < self.ratio.fraction)
        return (
            f"{rules.preset} pays {self.bet} {words} {self.ratio} ({self.clause}); "
            f"{self.param}={shown} is {'below' if below else 'not'} it"
        )


FLOORS: dict[str, tuple[Floor, ...]] = {
    LIVE_ONLINE.preset: (
        Floor("blackjack_pays", "a blackjack", Ratio(3, 2), "at_least", "online §2.3"),
        Floor("insurance_pays", "insurance", Ratio(2, 1), "exactly", "online §2.5.3"),
    ),
}
"""Payouts a preset's seed fixes (docs/rules.md "Payout floors"); macau-1983 has none (Art. 6 and 8 state
the house's ratios, and overrides model other houses)."""


def blackjack_rules(preset: str, overrides: Mapping[str, object] | None = None, *, floors: bool = True) -> Rules:
    """The rule set ``preset`` with ``overrides`` by parameter name (docs/rules.md §3).

    The preset's payout floors (:data:`FLOORS`) refuse an override below them; ``floors=False`` is for
    analysis of rule sets no table of that preset may deal (a what-if 6:5 game), never for a table.
    """
    base = PRESETS.get(preset)
    if base is None:
        raise RulesError(f"unknown blackjack preset {preset!r}; the presets are: {', '.join(PRESETS)}")
    rules = apply_overrides(base, PARAMS, overrides or {}, game="blackjack")
    for floor in FLOORS.get(preset, ()) if floors else ():
        refusal = floor.refusal(rules)
        if refusal is not None:
            raise RulesError(refusal)
    return rules
