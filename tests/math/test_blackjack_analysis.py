"""The exact blackjack analysis: anchors, published figures, an independent brute-force
reference on tiny shoes, properties and bad input.

Figures are EVs in percent of the initial bet. Published figures come from analyzers whose split
algorithms differ (see each docstring); this analysis plays split hands as the same cards unsplit
(CDZ-) and computes split EVs exactly for that strategy.
"""

from __future__ import annotations

import math
from functools import cache

import pytest
from rich.console import Console

from croupier.blackjack import actions as op
from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.rules import DOUBLE_TOTALS, Rules
from croupier.blackjack.state import Table
from croupier.cards import Card
from croupier.errors import CroupierError, RulesError
from croupier.math import CompositionError
from croupier.math.blackjack import (
    BlackjackAnalysis,
    analysis_document,
    analyze_blackjack,
    cards_a_round_may_need,
    cards_text,
    dealer_outcomes,
    parse_decks,
)
from croupier.shoe import Shoe
from croupier.terminal.render import render_blackjack_analysis

US = {  # a US game: hole card, peek with an ace or a ten, a natural takes only the original bet
    "hole_card": "peek",
    "dealer_blackjack_takes": "original",
    "double_on": "any_two",
    "surrender": "none",
    "bonus_678_suited": "none",
    "bonus_777": "none",
    "resplit_aces": False,
    "split_aces_one_card": True,
}


def us_rules(**changes: object) -> Rules:
    return blackjack_rules("live-online", {**US, **changes}, floors=False)  # a what-if game, 6:5 included


def percent(analysis: BlackjackAnalysis) -> float:
    return 100 * analysis.ev


# --------------------------------------------------------------------------------------------------
# anchors and published figures


def test_anchor_six_decks_s17_das_split_to_four() -> None:
    """An anchor game: 6 decks, S17, DOA, DAS, split to 4 hands, no resplit of aces, no surrender, peek: -0.4029%."""
    rules = us_rules(decks=6, dealer_hits_soft_17=False, double_after_split=True, max_split_hands=4)
    assert percent(analyze_blackjack(rules)) == pytest.approx(-0.4029, abs=0.002)


def test_anchor_infinite_deck_s17_no_das_one_split() -> None:
    """An anchor game: infinite deck, S17, DOA, no DAS, one split only: -0.6902%."""
    rules = us_rules(dealer_hits_soft_17=False, double_after_split=False, max_split_hands=2)
    assert percent(analyze_blackjack(rules, decks=math.inf)) == pytest.approx(-0.6902, abs=0.002)


@pytest.mark.parametrize(("das", "published"), [(True, -0.72705), (False, -0.86975)])
def test_wizard_appendix_9_six_decks_h17_no_hole_card(das: bool, published: float) -> None:
    """Wizard of Odds, Blackjack Appendix 9, "Six deck, dealer hits on soft 17, no hole card"
    (https://wizardofodds.com/games/blackjack/appendix/9/euro-6dh17r4/): 6 decks, H17, no hole card, the
    player loses everything to a dealer natural, resplit to four except aces, no drawing to split aces.
    Expected return -0.0072705 with DAS, -0.0086975 without. Ours: -0.72694% and -0.86957%. The Wizard's
    split values count the hands already split but not their other cards (close to CDZ-)."""
    rules = blackjack_rules(
        "macau-1983",
        {
            "dealer_hits_soft_17": True,
            "double_on": "any_two",
            "double_after_split": das,
            "surrender": "none",
            "bonus_678_suited": "none",
            "bonus_777": "none",
        },
    )
    assert percent(analyze_blackjack(rules)) == pytest.approx(published, abs=0.002)


@pytest.mark.parametrize(
    ("decks", "h17", "das", "published"),
    [
        (1, False, True, 0.1839),
        (1, False, False, 0.0423),
        (1, True, True, -0.0072),
        (1, True, False, -0.1513),
        (2, True, True, -0.3797),
        (2, True, False, -0.5252),
    ],
)
def test_wizard_appendix_9_hole_card_games(decks: int, h17: bool, das: bool, published: float) -> None:
    """Wizard of Odds, Blackjack Appendix 9 (https://wizardofodds.com/games/blackjack/appendix/9/1ds17r4/ and
    the 1dh17r4, 2dh17r4 pages): hole card, resplit to four except aces, no drawing to split aces, DOA.
    1 deck S17: +0.1839% DAS, +0.0423% no DAS; 1 deck H17: -0.0072%, -0.1513%; 2 decks H17: -0.3797%,
    -0.5252%. Ours: +0.18193, +0.04125, -0.00873, -0.15214, -0.38045, -0.52542: 0.0002-0.0020 points
    below, the most in single deck, where the Wizard's post-split play (optimal per split hand, knowing
    only how many hands were split) gains a little over CDZ-."""
    rules = us_rules(decks=decks, dealer_hits_soft_17=h17, double_after_split=das, max_split_hands=4)
    assert percent(analyze_blackjack(rules)) == pytest.approx(published, abs=0.002)


def test_geditcom_two_deck_stand_values_against_an_ace() -> None:
    """geditcom.com "Two Deck Blackjack Expected Values" (http://www.geditcom.com/Blackjack/TwoDeck.html),
    dealer ace up, S17, standing, conditioned on no dealer natural: A,A -0.665322; A,2 -0.664614;
    2,2 -0.663878; A,3 -0.664036; 3,3 -0.663014; A,5 -0.66264. Reproduced to all six digits."""
    analysis = analyze_blackjack(us_rules(decks=2, dealer_hits_soft_17=False, max_split_hands=1))
    stand = {hand.cards: hand.ev["stand"] for hand in analysis.hands if hand.up == "A"}
    published = {
        "A,A": -0.665322,
        "A,2": -0.664614,
        "2,2": -0.663878,
        "A,3": -0.664036,
        "3,3": -0.663014,
        "A,5": -0.66264,
    }
    for cards, value in published.items():
        assert stand[cards] == pytest.approx(value, abs=1.5e-6), cards


def test_wizard_appendix_2b_dealer_probabilities_one_deck() -> None:
    """Wizard of Odds, Blackjack Appendix 2B (https://wizardofodds.com/games/blackjack/appendix/2b/): one deck,
    S17, before the peek: up ace 17 0.126128, 18 0.131003, 19 0.129486, 20 0.131553, 21 0.0515646, BJ 0.313726,
    bust 0.11654; up 6: 0.166948 … bust 0.420823; up ten: BJ 0.0784314, bust 0.214264."""
    table = dealer_outcomes(False, decks=1)
    published = {
        "A": (0.126128, 0.131003, 0.129486, 0.131553, 0.0515646, 0.313726, 0.11654),
        "6": (0.166948, 0.106454, 0.107192, 0.100705, 0.0978785, 0.0, 0.420823),
        "T": (0.114418, 0.112879, 0.114662, 0.328879, 0.0364661, 0.0784314, 0.214264),
    }
    for up, row in published.items():
        got = [table[up][k] for k in ("17", "18", "19", "20", "21", "blackjack", "bust")]
        assert got == pytest.approx(row, abs=1e-6), up


# --------------------------------------------------------------------------------------------------
# an independent reference: brute force over a tiny shoe, dealt in the engine's order
#
# Cards are "kinds": a value 0-9 (A..T) and, for 6/7/8 when a suit matters, a suit. The reference deals
# as the engine does (procedure.py): the hole card, where one is dealt before play, is a real card out of
# the shoe that the player does not see; the player's next card is drawn from the shoe less that unseen
# card, with the hole card's posterior given what the player saw (its value uniform over the unseen
# cards, less a natural where the dealer peeked). Split hands are played one after the other from the
# real shoe, each taking its second card in turn, resplitting whenever allowed; every split hand plays
# as the same cards unsplit would (the reference's own optimum). No martingale or pattern shortcut.

OUTCOMES = ("17", "18", "19", "20", "21", "bj", "bust")


class Reference:
    def __init__(self, rules: Rules, kinds: list[tuple[int, int]], counts: list[int]) -> None:
        self.rules = rules
        self.kinds = kinds
        self.counts = tuple(counts)
        self.bj = rules.blackjack_pays.pays / rules.blackjack_pays.per
        self.r678 = 0.0 if rules.bonus_678_suited is None else rules.bonus_678_suited.pays / rules.bonus_678_suited.per
        self.r777 = 0.0 if rules.bonus_777 is None else rules.bonus_777.pays / rules.bonus_777.per
        self.cache: dict[object, object] = {}

    # cards and totals
    def value(self, k: int) -> int:
        return self.kinds[k][0]

    def total(self, cards: tuple[int, ...]) -> int:
        hard = sum(self.value(k) + 1 for k in cards)
        return hard + 10 if any(self.value(k) == 0 for k in cards) and hard <= 11 else hard

    def bonus(self, cards: tuple[int, ...]) -> float:
        if len(cards) != 3:
            return 0.0
        values = sorted(self.value(k) for k in cards)
        if values == [6, 6, 6] and self.r777:
            return self.r777
        if values == [5, 6, 7] and self.r678 and len({self.kinds[k][1] for k in cards}) == 1:
            return self.r678
        return 0.0

    @staticmethod
    def without(shoe: tuple[int, ...], k: int) -> tuple[int, ...]:
        return (*shoe[:k], shoe[k] - 1, *shoe[k + 1 :])

    # the dealer
    def dealer(self, shoe: tuple[int, ...], cards: tuple[int, ...]) -> dict[str, float]:
        key = ("dealer", shoe, tuple(sorted(self.value(k) for k in cards)), len(cards))
        if key in self.cache:
            return self.cache[key]  # type: ignore[return-value]
        hard = sum(self.value(k) + 1 for k in cards)
        ace = any(self.value(k) == 0 for k in cards)
        soft = ace and hard <= 11
        points = hard + 10 if soft else hard
        result = dict.fromkeys(OUTCOMES, 0.0)
        if len(cards) >= 2 and (points > 17 or (points == 17 and not (soft and self.rules.dealer_hits_soft_17))):
            name = "bust" if points > 21 else ("bj" if points == 21 and len(cards) == 2 else str(points))
            result[name] = 1.0
        else:
            n = sum(shoe)
            for k, c in enumerate(shoe):
                if c:
                    for name, p in self.dealer(self.without(shoe, k), (*cards, k)).items():
                        result[name] += c / n * p
        self.cache[key] = result
        return result

    # the hole card
    def mode(self, up: int) -> str:
        """'after': no hole card during play; 'peeked': dealt and checked; 'hidden': dealt, not checked."""
        hole = self.rules.hole_card
        u = self.value(up)
        if hole == "none":
            return "hidden" if u == 0 else "after"
        if (hole == "peek" and u in (0, 9)) or (hole == "peek_ace" and u == 0):
            return "peeked"
        return "hidden"

    def natural_hole(self, up: int, h: int) -> bool:
        return {self.value(up), self.value(h)} == {0, 9}

    def holes(self, up: int, shoe: tuple[int, ...]) -> list[tuple[int, float]]:
        """The hole card's posterior: uniform over the unseen cards, less a natural if the dealer peeked."""
        mode = self.mode(up)
        if mode == "after":
            return []
        allowed = [(h, c) for h, c in enumerate(shoe) if c and not (mode == "peeked" and self.natural_hole(up, h))]
        weight = sum(c for _, c in allowed)
        return [(h, c / weight) for h, c in allowed]

    def next_cards(self, up: int, shoe: tuple[int, ...]) -> list[tuple[int, float]]:
        holes = self.holes(up, shoe)
        n = sum(shoe)
        if self.mode(up) == "after":
            return [(k, c / n) for k, c in enumerate(shoe) if c]
        result = []
        for k in range(len(shoe)):
            p = sum(w * (shoe[k] - (h == k)) / (n - 1) for h, w in holes)
            if p > 0:
                result.append((k, p))
        return result

    def dealer_given(self, up: int, shoe: tuple[int, ...]) -> dict[str, float]:
        """The dealer's outcome once the player is done, averaged over the hole card's posterior."""
        if self.mode(up) == "after":
            return self.dealer(shoe, (up,))
        result = dict.fromkeys(OUTCOMES, 0.0)
        for h, w in self.holes(up, shoe):
            for name, p in self.dealer(self.without(shoe, h), (up, h)).items():
                result[name] += w * p
        return result

    def settle(self, points: int, stake: float, name: str) -> float:
        if name == "bj":
            return -stake if self.rules.dealer_blackjack_takes == "all" else -1.0
        if name == "bust":
            return stake
        dealer = int(name)
        return stake if points > dealer else (-stake if points < dealer else 0.0)

    # one hand unsplit: every option's value (conditional on no natural where the dealer peeked)
    def options(
        self, up: int, cards: tuple[int, ...], shoe: tuple[int, ...], split_hand: bool = False
    ) -> dict[str, float]:
        key = ("options", up, tuple(sorted(cards)), shoe, split_hand)
        if key in self.cache:
            return self.cache[key]  # type: ignore[return-value]
        rules = self.rules
        points = self.total(cards)
        out = {"stand": sum(p * self.settle(points, 1.0, name) for name, p in self.dealer_given(up, shoe).items())}
        if points < 21:
            hit = 0.0
            for k, p in self.next_cards(up, shoe):
                grown = (*cards, k)
                if self.total(grown) > 21:
                    hit -= p
                elif self.bonus(grown):
                    hit += p * self.bonus(grown)
                else:
                    hit += p * max(self.options(up, grown, self.without(shoe, k)).values())
            out["hit"] = hit
        if (
            len(cards) == 2
            and points in DOUBLE_TOTALS[rules.double_on]
            and (rules.double_after_split or not split_hand)
        ):
            double = 0.0
            for k, p in self.next_cards(up, shoe):
                grown = (*cards, k)
                pts = self.total(grown)
                if pts > 21:
                    double -= 2 * p
                else:
                    dealer = self.dealer_given(up, self.without(shoe, k))
                    double += p * sum(q * self.settle(pts, 2.0, name) for name, q in dealer.items())
            out["double"] = double
        self.cache[key] = out
        return out

    def decision(self, up: int, cards: tuple[int, ...], start: tuple[int, ...]) -> str:
        """What these cards do as a split hand: their best unsplit option among those a split hand has."""
        shoe = start
        for k in cards:
            shoe = self.without(shoe, k)
        values = self.options(up, cards, shoe, split_hand=len(cards) == 2)
        return max(values, key=lambda name: values[name])

    # a split box, played hand after hand from the real shoe; a hand is (cards, status)
    def split(self, up: int, pair: int, start: tuple[int, ...], shoe: tuple[int, ...]) -> float:
        hands = (((pair,), "open"), ((pair,), "open"))
        if self.mode(up) == "after":
            return self.box(up, pair, start, hands, 0, shoe, None)
        return sum(w * self.box(up, pair, start, hands, 0, self.without(shoe, h), h) for h, w in self.holes(up, shoe))

    def box(
        self, up: int, pair: int, start: tuple[int, ...], hands: tuple, i: int, shoe: tuple[int, ...], hole: int | None
    ) -> float:  # type: ignore[type-arg]
        key = ("box", up, pair, hands, i, shoe, hole)
        if key in self.cache:
            return self.cache[key]  # type: ignore[return-value]
        rules = self.rules
        if i == len(hands):
            result = self.settle_box(up, hands, shoe, hole)
        elif hands[i][1] != "open":
            result = self.box(up, pair, start, hands, i + 1, shoe, hole)
        else:
            cards = hands[i][0]
            result = 0.0
            n = sum(shoe)
            if len(cards) == 1:  # the split hand's second card, when its turn comes (online §2.7)
                aces = self.value(pair) == 0
                can_resplit = len(hands) < rules.max_split_hands and (not aces or rules.resplit_aces)
                for k, c in enumerate(shoe):
                    if not c:
                        continue
                    if self.value(k) == self.value(pair) and can_resplit:
                        grown = (*hands[: i + 1], ((k,), "open"), *hands[i + 1 :])
                    else:
                        status = "stood" if aces and rules.split_aces_one_card else "open"
                        grown = (*hands[:i], (self.after_card((*cards, k), status)), *hands[i + 1 :])
                    result += c / n * self.box(up, pair, start, grown, i, self.without(shoe, k), hole)
            else:
                choice = self.decision(up, cards, start)
                if choice == "stand":
                    result = self.box(
                        up, pair, start, (*hands[:i], (cards, "stood"), *hands[i + 1 :]), i + 1, shoe, hole
                    )
                for k, c in enumerate(shoe):
                    if not c or choice == "stand":
                        continue
                    if choice == "double":
                        grown_hand = ((*cards, k), "doubled" if self.total((*cards, k)) <= 21 else "bust2")
                    else:
                        grown_hand = self.after_card((*cards, k), "open")
                    grown = (*hands[:i], grown_hand, *hands[i + 1 :])
                    result += c / n * self.box(up, pair, start, grown, i, self.without(shoe, k), hole)
        self.cache[key] = result
        return result

    def after_card(self, cards: tuple[int, ...], status: str) -> tuple[tuple[int, ...], str]:
        """Bust, bonus, or 21: what a new card settles (procedure._after_card)."""
        points = self.total(cards)
        if points > 21:
            return cards, "bust"
        if self.bonus(cards):
            return cards, "bonus"
        if points == 21:
            return cards, "stood"
        return cards, status

    def settle_box(self, up: int, hands: tuple, shoe: tuple[int, ...], hole: int | None) -> float:  # type: ignore[type-arg]
        dealer = self.dealer(shoe, (up,) if hole is None else (up, hole))
        result = 0.0
        for name, p in dealer.items():
            if not p:
                continue
            owed = 1.0
            box = 0.0
            for cards, status in hands:
                stake = 2.0 if status in ("doubled", "bust2") else 1.0
                if status in ("bust", "bust2"):
                    box -= stake
                elif status == "bonus":
                    box += self.bonus(cards)
                elif name == "bj" and self.rules.dealer_blackjack_takes == "original":
                    box -= min(owed, stake)
                    owed = 0.0
                else:
                    box += self.settle(self.total(cards), stake, name)
            result += p * box
        return result

    # the two-card hands
    def hand(self, up: int, x: int, y: int) -> tuple[dict[str, float], float]:
        """Every option of the hand x, y against up (conditional where peeked), and P(dealer natural)."""
        shoe = self.without(self.without(self.without(self.counts, up), x), y)
        p_natural = sum(c for k, c in enumerate(shoe) if self.natural_hole(up, k)) / sum(shoe)
        if {self.value(x), self.value(y)} == {0, 9}:
            return {"stand": self.bj * (1 - p_natural)}, p_natural
        rules = self.rules
        out = dict(self.options(up, (x, y), shoe))
        if rules.surrender != "none" and (rules.surrender == "late" or self.value(up) != 0):
            out["surrender"] = -0.5  # after the peek where the dealer peeks, else whatever the hole card
        if self.value(x) == self.value(y) and rules.max_split_hands >= 2:
            out["split"] = self.split(up, x, self.without(self.counts, up), shoe)
        return out, p_natural


NAMES = "A23456789T"


def reference_check(
    rules: Rules,
    values: list[int],
    hands: list[tuple[int, int, int]],
    *,
    suits: bool = False,
    split_tolerance: float = 1e-12,
) -> None:
    """Compare every option of the given (up, x, y) hands with the reference (x, y value indices; with
    ``suits``, 6/7/8 carry four suits and y's suit is x's (suited) or the next one (unsuited))."""
    kinds: list[tuple[int, int]] = []
    counts: list[int] = []
    for v, c in enumerate(values):
        if suits and v in (5, 6, 7):
            kinds += [(v, s) for s in range(4)]
            counts += [c // 4] * 4
        else:
            kinds.append((v, -1))
            counts.append(c)
    index = {k: i for i, k in enumerate(kinds)}
    analysis = analyze_blackjack(rules, composition=values)
    got = {(h.up, h.cards, h.suited): h.ev for h in analysis.hands}
    reference = Reference(rules, kinds, counts)
    for up, x, y in hands:
        for suited in (True, False) if suits and len({x, y}) == 2 and {x, y} <= {5, 6, 7} else (None,):
            sx, sy = ((0, 0) if suited else (0, 1)) if suits and x in (5, 6, 7) and y in (5, 6, 7) else (0, 0)
            kx = index[(x, sx)] if (x, sx) in index else index[(x, -1)]
            ky = index[(y, sy)] if (y, sy) in index else index[(y, -1)]
            expected, _ = reference.hand(index[(up, -1)], kx, ky)
            mine = got[(NAMES[up], cards_text(x, y), suited)]
            assert set(mine) == set(expected), (up, x, y)
            for option, value in expected.items():
                tolerance = split_tolerance if option == "split" else 1e-12
                assert mine[option] == pytest.approx(value, abs=tolerance), (NAMES[up], x, y, suited, option)


TINY = [2, 1, 1, 1, 1, 2, 1, 2, 1, 4]  # 16 cards: A A 2 3 4 5 6 6 7 8 8 9 T T T T


def all_hands(ups: tuple[int, ...], values: list[int]) -> list[tuple[int, int, int]]:
    result = []
    for up in ups:
        for x in range(10):
            for y in range(x, 10):
                left = list(values)
                for v in (up, x, y):
                    left[v] -= 1
                if min(left) >= 0:
                    result.append((up, x, y))
    return result


def test_reference_peek_game_every_hand() -> None:
    """A US game (peek, S17, DOA, DAS, one split) from 16 cards: every option of every hand against an ace
    (the peek's conditioning) and a 6 equals the brute force."""
    rules = us_rules(decks=1, dealer_hits_soft_17=False, double_after_split=True, max_split_hands=2)
    reference_check(rules, TINY, all_hands((0, 5), TINY))


def test_reference_no_hole_card_early_surrender() -> None:
    """No hole card (the second card after play, face down at once under an ace), a natural takes all,
    H17, early surrender not against an ace: every hand against a ten and an ace equals the brute force."""
    rules = blackjack_rules(
        "macau-1983",
        {
            "decks": 1,
            "double_on": "any_two",
            "dealer_hits_soft_17": True,
            "max_split_hands": 2,
            "bonus_678_suited": "none",
            "bonus_777": "none",
            "double_after_split": True,
        },
    )
    reference_check(rules, TINY, all_hands((9, 0), TINY))


def test_reference_peek_ace_original_bet_late_surrender() -> None:
    """peek_ace with a ten up (a natural found after play takes the original bet once), late surrender,
    H17, no DAS. Every option but split is exact; for a split, the chance that every split hand is
    already closed when the dealer has a natural is taken as if the hands were independent: in this
    16-card shoe that moves a split's EV by at most 0.004 (in a 6-8 deck shoe, ~1e-4 at most)."""
    rules = us_rules(
        decks=1,
        hole_card="peek_ace",
        dealer_hits_soft_17=True,
        surrender="late",
        double_after_split=False,
        max_split_hands=2,
    )
    reference_check(rules, TINY, all_hands((9,), TINY), split_tolerance=0.005)


def test_reference_resplit_to_four_hands() -> None:
    """Resplitting to four hands (four 8s in a 20-card shoe): the exact split EV of the CDZ- strategy,
    computed from pair/non-pair patterns, equals the brute force that plays the hands one after the other."""
    values = [2, 1, 1, 1, 1, 1, 1, 4, 1, 7]
    rules = us_rules(decks=1, dealer_hits_soft_17=False, double_after_split=True, max_split_hands=4)
    reference_check(rules, values, [(5, 7, 7)])


def test_reference_suited_678_and_777_bonus() -> None:
    """Macau's bonus (Art. 9) with explicit suits in the reference (four 6s, 7s and 8s, one of each suit):
    suited and unsuited 6-7, 6-8 and 7-8 against a ten (no hole card), and 7-7, whose split hands may
    make 7-7-7 or a suited 6-7-8."""
    rules = blackjack_rules("macau-1983", {"decks": 1, "max_split_hands": 2})
    reference_check(rules, [2, 1, 1, 1, 1, 4, 4, 4, 1, 6], [(9, 5, 6), (9, 6, 7), (9, 5, 7), (1, 5, 6)], suits=True)
    reference_check(rules, [1, 1, 1, 1, 1, 4, 4, 4, 0, 7], [(9, 6, 6)], suits=True)


# --------------------------------------------------------------------------------------------------
# the engine itself: every card it asks a live shoe for, enumerated
#
# The round is replayed from the start for each prefix of supplied cards (a live shoe,
# croupier.blackjack.state); the box's two cards and the up-card are forced, its first decision too,
# later decisions are the reference's CDZ- strategy and resplits are taken whenever the engine allows
# them. Where the dealer peeks, hole cards that make a natural are left out (the option EVs are
# conditional on no natural). The expectation of the box's net result is then exact.

RANKS_OF_VALUE = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "TJQK")


def engine_value(reference: Reference, up: int, x: int, y: int, first: str) -> float:
    """E[net of one box of one unit | cards x, y and up-card up, first decision ``first``] from the engine."""
    rules = reference.rules
    kinds = reference.kinds
    pool: list[list[Card]] = []
    for value, suit in kinds:
        suits = "SHDC" if suit < 0 else "SHDC"[suit]
        pool.append([Card(rank, s) for rank in RANKS_OF_VALUE[value] for s in suits])
    kind_of = {card: k for k, cards in enumerate(pool) for card in cards}
    start = reference.without(reference.counts, up)
    peeked = reference.mode(up) == "peeked"
    memo: dict[object, float] = {}

    def replay(prefix: tuple[int, ...]) -> tuple[str, object, float]:
        """Play the round on ``prefix``: the purpose and state where it needs another card, or its net."""
        table = Table(rules, Shoe.live(1))
        rd = table.new_round(seated={1: "p"})
        rd.bet("p", 1, 1)
        rd.deal()
        used = [0] * len(kinds)
        forced = [x, y]
        up_given = decided = False
        drawn = 0
        while not (rd.ended or rd.voided):
            pending = rd.pending
            if isinstance(pending, op.AwaitCard):
                if pending.purpose.startswith("box") and forced:
                    kind = forced.pop(0)
                elif pending.purpose == "dealer" and not up_given:
                    kind, up_given = up, True
                elif drawn < len(prefix):
                    kind, drawn = prefix[drawn], drawn + 1
                else:
                    hands = tuple(
                        (tuple(sorted(kind_of[c] for c in h.cards)), h.doubled, h.done, h.outcome, h.from_split)
                        for h in rd.hands[1]
                    )
                    dealer = [kind_of[c] for c in rd._dealer]
                    return pending.purpose, (pending.purpose, hands, dealer[:1], sorted(dealer[1:]), decided), 0.0
                rd.supply_card(pool[kind][used[kind]])
                used[kind] += 1
            elif isinstance(pending, op.AwaitInsurance):
                rd.close_insurance()
            elif isinstance(pending, op.AwaitDecision):
                cards = tuple(kind_of[card] for card in rd.hands[1][pending.hand].cards)
                if not decided:
                    choice, decided = first, True
                elif rd.can_split(1, pending.hand) and len(rd.hands[1]) > 1:
                    choice = "split"  # resplit whenever allowed, as the analysis does
                else:
                    choice = reference.decision(up, cards, start)
                getattr(rd, choice)(1, pending.hand)
            else:
                raise AssertionError(pending)
        return "", None, float(rd.net()["p"])

    def expectation(prefix: tuple[int, ...]) -> float:
        purpose, state, net = replay(prefix)
        if not purpose:
            return net
        shoe = start
        for kind in (x, y, *prefix):
            shoe = reference.without(shoe, kind)
        key = (repr(state), shoe)
        if key not in memo:
            choices = [(k, c) for k, c in enumerate(shoe) if c]
            if purpose == "dealer hole card" and peeked:
                choices = [(k, c) for k, c in choices if not reference.natural_hole(up, k)]
            weight = sum(c for _, c in choices)
            memo[key] = sum(c / weight * expectation((*prefix, k)) for k, c in choices)
        return memo[key]

    return expectation(())


@pytest.mark.parametrize(
    ("case", "up", "x", "y", "first"),
    [
        ("peek", 9, 5, 9, "hit"),
        ("peek", 0, 4, 5, "double"),
        ("peek", 4, 7, 7, "split"),
        ("no hole card", 9, 5, 9, "surrender"),
        ("no hole card", 9, 0, 0, "split"),
        ("no hole card", 0, 2, 6, "hit"),
        ("peek_ace original", 9, 0, 0, "split"),
        ("peek_ace original", 9, 2, 6, "double"),
    ],
)
def test_the_engine_agrees(case: str, up: int, x: int, y: int, first: str) -> None:
    """The engine's own settlement of every deal from a 16-card shoe gives each option's EV: the
    reference's exactly, the analysis's to 1e-12 (a split under ``original`` without a peek: to the
    documented approximation)."""
    rules = {
        "peek": us_rules(decks=1, dealer_hits_soft_17=False, double_after_split=True, max_split_hands=2),
        "no hole card": blackjack_rules(
            "macau-1983",
            {
                "decks": 1,
                "double_on": "any_two",
                "max_split_hands": 2,
                "bonus_678_suited": "none",
                "bonus_777": "none",
                "burn_at_shoe_start": 0,
                "burn_each_round": 0,
                "burn_before_dealer_second": 0,
            },
        ),
        "peek_ace original": us_rules(
            decks=1, hole_card="peek_ace", dealer_hits_soft_17=True, surrender="late", max_split_hands=2
        ),
    }[case]
    rules = blackjack_rules(
        rules.preset,
        {
            **rules.describe(),
            "burn_at_shoe_start": 0,
            "burn_each_round": 0,
            "burn_before_dealer_second": 0,
            "cut_card": "none",
        },
    )
    reference = Reference(rules, [(v, -1) for v in range(10)], TINY)
    engine = engine_value(reference, up, x, y, first)
    expected, _ = reference.hand(up, x, y)
    assert engine == pytest.approx(expected[first], abs=1e-12)
    analysis = analyze_blackjack(rules, composition=TINY)
    mine = next(h for h in analysis.hands if h.up == NAMES[up] and h.cards == cards_text(x, y)).ev[first]
    tolerance = 0.005 if case == "peek_ace original" and first == "split" else 1e-12
    assert mine == pytest.approx(engine, abs=tolerance)


def test_the_engine_agrees_on_the_suited_bonus() -> None:
    """Macau (no hole card, bonus 3:1): hitting a suited and an unsuited 6-7 against a ten, dealt by the engine
    with real suits (four 6s, 7s and 8s, one of each suit), equals the reference and the analysis."""
    rules = blackjack_rules(
        "macau-1983",
        {"decks": 1, "max_split_hands": 2, "burn_at_shoe_start": 0, "burn_each_round": 0,
         "burn_before_dealer_second": 0, "cut_card": "none"},
    )  # fmt: skip
    values = [2, 1, 1, 1, 1, 4, 4, 4, 1, 6]
    kinds = [(v, s) for v in range(10) for s in ((0, 1, 2, 3) if v in (5, 6, 7) else (-1,))]
    counts = [1 if suit >= 0 else values[v] for v, suit in kinds]
    reference = Reference(rules, kinds, counts)
    index = {kind: i for i, kind in enumerate(kinds)}
    analysis = analyze_blackjack(rules, composition=values)
    for suited, seven in ((True, (6, 0)), (False, (6, 1))):
        engine = engine_value(reference, index[(9, -1)], index[(5, 0)], index[seven], "hit")
        expected, _ = reference.hand(index[(9, -1)], index[(5, 0)], index[seven])
        mine = next(h for h in analysis.hands if h.up == "T" and h.cards == "7,6" and h.suited is suited)
        assert engine == pytest.approx(expected["hit"], abs=1e-12)
        assert mine.ev["hit"] == pytest.approx(engine, abs=1e-12)


# --------------------------------------------------------------------------------------------------
# an independent infinite-deck calculator: EV and SD of a peek game with one split
#
# In an infinite shoe every draw is independent, so the state is a total, its softness and whether the
# hand may still double; split hands are independent given the dealer's final outcome, which makes the
# round's second moment exact: E[(X1 + X2)^2] = 2 E[X^2] + 2 sum_d P(d) E[X | d]^2.

P_INF = [1 / 13] * 9 + [4 / 13]
Vector = tuple[float, ...]  # E[X | dealer outcome d] (or of X^2), d = 17, 18, 19, 20, 21, natural, bust


def add(total: Vector, weight: float, vector: Vector) -> Vector:
    return tuple(t + weight * v for t, v in zip(total, vector, strict=True))


def infinite_reference(h17: bool, das: bool) -> tuple[float, float]:
    ev = m2 = 0.0
    for up in range(10):
        dev, dm2 = infinite_up(up, h17, das)
        ev += P_INF[up] * dev
        m2 += P_INF[up] * dm2
    return ev, math.sqrt(m2 - ev * ev)


def infinite_up(up: int, h17: bool, das: bool) -> tuple[float, float]:
    final = dealer_final(up + 1, up == 0, 1, h17)
    natural = final[5]
    cond = tuple(0.0 if i == 5 else f / (1 - natural) for i, f in enumerate(final))

    def mean(vector: Vector) -> float:
        return sum(c * x for c, x in zip(cond, vector, strict=True))

    def stand(points: int, stake: float) -> Vector:
        return tuple(stake * (1.0 if d == 6 else float((points > 17 + d) - (points < 17 + d))) for d in range(7))

    def squared(vector: Vector) -> Vector:
        return tuple(x * x for x in vector)

    @cache
    def moments(hard: int, ace: bool) -> tuple[Vector, Vector]:
        """The best of stand and hit from three cards on: (E[X | d], E[X^2 | d])."""
        points = hard + 10 if ace and hard <= 11 else hard
        standing = stand(points, 1.0)
        if points >= 21:
            return standing, squared(standing)
        hit = second = (0.0,) * 7
        for v in range(10):
            grown = hard + v + 1
            child, child2 = ((-1.0,) * 7, (1.0,) * 7) if grown > 21 else moments(grown, ace or v == 0)
            hit, second = add(hit, P_INF[v], child), add(second, P_INF[v], child2)
        return (hit, second) if mean(hit) > mean(standing) else (standing, squared(standing))

    def options(hard: int, ace: bool, doubles: bool) -> dict[str, tuple[Vector, Vector]]:
        points = hard + 10 if ace and hard <= 11 else hard
        standing = stand(points, 1.0)
        out = {"stand": (standing, squared(standing))}
        if points < 21:
            hit = second = dbl = dbl2 = (0.0,) * 7
            for v in range(10):
                grown, with_ace = hard + v + 1, ace or v == 0
                if grown > 21:
                    child, child2, doubled = (-1.0,) * 7, (1.0,) * 7, (-2.0,) * 7
                else:
                    child, child2 = moments(grown, with_ace)
                    doubled = stand(grown + 10 if with_ace and grown <= 11 else grown, 2.0)
                hit, second = add(hit, P_INF[v], child), add(second, P_INF[v], child2)
                dbl, dbl2 = add(dbl, P_INF[v], doubled), add(dbl2, P_INF[v], squared(doubled))
            out["hit"] = (hit, second)
            if doubles:
                out["double"] = (dbl, dbl2)
        return out

    ev = m2 = 0.0
    for x in range(10):
        for y in range(x, 10):
            p = P_INF[x] * P_INF[y] * (1 if x == y else 2)
            if {x, y} == {0, 9}:
                ev += p * 1.5 * (1 - natural)
                m2 += p * 2.25 * (1 - natural)
                continue
            opts = {k: (mean(a), mean(b)) for k, (a, b) in options(x + y + 2, x == 0, True).items()}
            if x == y:
                mu = mu2 = (0.0,) * 7
                for v in range(10):
                    hard, ace = x + v + 2, x == 0 or v == 0
                    split_opts, unsplit = options(hard, ace, das and x != 0), options(hard, ace, True)
                    choice = "stand" if x == 0 else max(split_opts, key=lambda k: mean(unsplit[k][0]))
                    mu, mu2 = add(mu, P_INF[v], split_opts[choice][0]), add(mu2, P_INF[v], split_opts[choice][1])
                opts["split"] = (2 * mean(mu), 2 * mean(mu2) + 2 * mean(squared(mu)))
            value, second = max(opts.values(), key=lambda o: o[0])
            ev += p * ((1 - natural) * value - natural)
            m2 += p * ((1 - natural) * second + natural)
    return ev, m2


@cache
def dealer_final(hard: int, ace: bool, cards: int, h17: bool) -> Vector:
    """Infinite deck: P(17, 18, 19, 20, 21, natural, bust); ``cards`` counts to 3 (only a natural needs it)."""
    soft = ace and hard <= 11
    points = hard + 10 if soft else hard
    if points >= 17 and not (h17 and points == 17 and soft):
        out = [0.0] * 7
        out[6 if points > 21 else (5 if points == 21 and cards == 2 else points - 17)] = 1.0
        return tuple(out)
    total: Vector = (0.0,) * 7
    for v in range(10):
        total = add(total, P_INF[v], dealer_final(hard + v + 1, ace or v == 0, min(cards + 1, 3), h17))
    return total


@pytest.mark.parametrize(("h17", "das"), [(False, False), (True, True)])
def test_infinite_deck_ev_and_sd_against_an_independent_calculator(h17: bool, das: bool) -> None:
    """EV and SD per initial hand of an infinite-deck peek game with one split, against a separate,
    total-based calculator (exact there: split hands are independent given the dealer's outcome)."""
    rules = us_rules(dealer_hits_soft_17=h17, double_after_split=das, max_split_hands=2)
    analysis = analyze_blackjack(rules, decks=math.inf)
    ev, sd = infinite_reference(h17, das)
    assert analysis.ev == pytest.approx(ev, abs=1e-13)
    assert analysis.sd == pytest.approx(sd, abs=1e-12)


# --------------------------------------------------------------------------------------------------
# properties


def test_stand_is_the_dealer_outcome_sum() -> None:
    """Standing on T,6 and on 9,9 equals the sum over the dealer's outcomes from the shoe less the two cards."""
    analysis = analyze_blackjack(us_rules(decks=6, dealer_hits_soft_17=True))
    hands = {(h.up, h.cards): h for h in analysis.hands}
    for cards, points in (((5, 9), 16), ((8, 8), 18)):
        left = [24] * 9 + [96]
        for v in cards:
            left[v] -= 1
        table = dealer_outcomes(True, composition=left)
        for up in ("7", "T", "A"):
            row = table[up]
            win = row["bust"] + sum(row[str(t)] for t in range(17, 22) if t < points)
            lose = sum(row[str(t)] for t in range(17, 22) if t > points)
            expected = (win - lose) / (1 - row["blackjack"])  # the dealer peeked: conditional
            hand = hands[(up, cards_text(*cards))]
            assert hand.ev["stand"] == pytest.approx(expected, abs=1e-12)


def test_probabilities_of_initial_hands_sum_to_one() -> None:
    for decks in (1, 8, math.inf):
        analysis = analyze_blackjack(blackjack_rules("macau-1983"), decks=decks)
        assert analysis.probability_total == pytest.approx(1.0, abs=1e-12)
        assert sum(h.probability for h in analysis.hands) == pytest.approx(1.0, abs=1e-12)


def test_many_decks_approach_the_infinite_shoe() -> None:
    rules = us_rules(dealer_hits_soft_17=False, double_after_split=False, max_split_hands=2)
    infinite = analyze_blackjack(rules, decks=math.inf).ev
    assert analyze_blackjack(rules, decks=10_000).ev == pytest.approx(infinite, abs=2e-6)


def test_a_composition_equals_its_decks() -> None:
    rules = blackjack_rules("live-online")
    by_decks = analyze_blackjack(rules, decks=2)
    by_ranks = analyze_blackjack(rules, composition=[8] * 13)
    by_values = analyze_blackjack(rules, composition=[8] * 9 + [32])
    assert by_ranks.ev == by_values.ev == pytest.approx(by_decks.ev, abs=1e-14)


def test_presets_with_and_without_the_bonus() -> None:
    """docs/math.md reports these: the bonus (3:1 each) is worth about 0.066 points to Macau's player."""
    macau = analyze_blackjack(blackjack_rules("macau-1983")).ev
    plain = analyze_blackjack(blackjack_rules("macau-1983", {"bonus_678_suited": "none", "bonus_777": "none"})).ev
    online = analyze_blackjack(blackjack_rules("live-online")).ev
    assert 100 * macau == pytest.approx(-0.97013, abs=1e-4)
    assert 100 * plain == pytest.approx(-1.03653, abs=1e-4)
    assert 100 * online == pytest.approx(-0.70453, abs=1e-4)


def test_insurance_and_even_money() -> None:
    analysis = analyze_blackjack(blackjack_rules("macau-1983"))
    p = 96 / 311  # tens left under an ace, six decks
    assert analysis.insurance.p_natural == pytest.approx(p, abs=1e-15)
    assert analysis.insurance.ev_per_unit == pytest.approx(3 * p - 1, abs=1e-15)
    assert analysis.insurance.even_money_ev == pytest.approx(1.5 * (1 - 95 / 309), abs=1e-15)


def test_document_and_render() -> None:
    analysis = analyze_blackjack(blackjack_rules("live-online"), decks=math.inf)
    document = analysis_document(analysis)
    assert float(document["ev"]) == pytest.approx(analysis.ev, abs=1e-10)
    assert float(document["house_edge"]) == pytest.approx(-analysis.ev, abs=1e-10)
    assert document["rules"]["decks"] == "inf"
    hard16 = [e for e in document["strategy"] if e["up"] == "T" and e["cards"] == "T,6"]
    assert hard16 and hard16[0]["hand"] == "16" and hard16[0]["kind"] == "hard" and hard16[0]["best"] == "hit"
    assert set(hard16[0]["ev"]) == {"stand", "hit", "double"}
    console = Console(record=True, width=120)
    render_blackjack_analysis(analysis, console)
    text = console.export_text()
    assert "Hard totals" in text and "Pairs" in text


# --------------------------------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: blackjack_rules("macau-1983", {"no_such_rule": 1}), RulesError),
        (lambda: analyze_blackjack(blackjack_rules("macau-1983"), composition=[4] * 12 + [-1]), CompositionError),
        (lambda: analyze_blackjack(blackjack_rules("macau-1983"), composition=[1] * 13), CompositionError),
        (lambda: analyze_blackjack(blackjack_rules("macau-1983"), composition=[4] * 11), CompositionError),
        (lambda: analyze_blackjack(blackjack_rules("macau-1983"), composition=[4.0] * 10), CompositionError),
        (lambda: analyze_blackjack(blackjack_rules("macau-1983"), decks=0), CompositionError),
        (lambda: analyze_blackjack(blackjack_rules("macau-1983"), decks=10_001), CompositionError),
        (lambda: analyze_blackjack(blackjack_rules("macau-1983"), decks=2.5), CompositionError),
        (lambda: analyze_blackjack(blackjack_rules("macau-1983"), decks=2, composition=[4] * 13), CompositionError),
        (lambda: parse_decks("six"), CompositionError),
        (lambda: analyze_blackjack("macau-1983"), RulesError),  # type: ignore[arg-type]
    ],
)
def test_bad_input_is_a_one_line_error(call, error) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error) as raised:
        call()
    assert isinstance(raised.value, CroupierError)
    assert "\n" not in str(raised.value)


def test_parse_decks_and_the_card_bound() -> None:
    assert parse_decks("inf") == math.inf
    assert parse_decks(" 8 ") == 8
    assert cards_a_round_may_need([4] * 9 + [16], 4) <= 52


# --------------------------------------------------------------------------------------------------
# published rule effects: early surrender, restricted doubles, and the rest of a rule-variation table

EFFECT_BASE = {  # blackjackreview.com's base game: 6 decks, S17, double any two, no DAS, resplit to 4 but aces
    "decks": 6,
    "dealer_hits_soft_17": False,
    "double_after_split": False,
    "max_split_hands": 4,
}


@pytest.mark.parametrize(
    ("changes", "published"),
    [
        # blackjackreview.com, "Blackjack Rule Variations and Odds" (https://www.blackjackreview.com/wp/
        # blackjack-rule-variations/), effects on the player's advantage, to two decimals:
        ({"hole_card": "peek_ace", "surrender": "early_not_ace"}, 0.24),  # ES10: early surrender against a ten
        ({"surrender": "late"}, 0.08),
        ({"double_after_split": True}, 0.14),
        ({"resplit_aces": True}, 0.07),
        ({"dealer_hits_soft_17": True}, -0.20),
        ({"max_split_hands": 2}, -0.04),
        ({"decks": 4}, 0.05),
        ({"decks": 8}, -0.02),
        ({"blackjack_pays": "6:5"}, -1.36),
        # Peter Griffin, The Theory of Blackjack, rule effects for a multi-deck game (as tabulated at
        # http://www.cliquiz.com/5): double on 10-11 only -0.18, on 9-10-11 only -0.09.
        ({"double_on": "10_11"}, -0.18),
        ({"double_on": "9_11"}, -0.09),
    ],
)
def test_published_rule_effects(changes: dict[str, object], published: float) -> None:
    """Each rule's effect in percentage points against the base game, within 0.02 (the tables round to
    two decimals and come from other analyzers). Early surrender against a ten is ``peek_ace`` with
    ``early_not_ace``: the dealer peeks only under an ace, so a ten up is surrendered before any check,
    and a natural found later takes the original bet (``original``) as the peek would have.

    Double on 11 only is not pinned: the two tables found disagree (-0.46 in the first, -0.69 from one
    deck in thecolorofblackjack.com's); ours is -0.633."""
    base = us_rules(**EFFECT_BASE)
    changed = us_rules(**{**EFFECT_BASE, **changes})
    effect = percent(analyze_blackjack(changed)) - percent(analyze_blackjack(base))
    assert effect == pytest.approx(published, abs=0.02)
