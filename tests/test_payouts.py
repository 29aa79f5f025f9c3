"""Money a payout cannot express (docs/rules.md §4, Art. 18; docs/rules.md §2-3 for blackjack's payouts).

A table's chip and minimum must make every payout of its rule set a whole number of the currency's
smallest unit; a table that cannot is refused when it is created, with the reason.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.baccarat.presets import baccarat_rules
from croupier.baccarat.rules import Rules as BaccaratRules
from croupier.baccarat.settle import CoupCards, settle_bet
from croupier.blackjack.presets import blackjack_rules
from croupier.cards import parse_cards
from croupier.errors import RulesError
from croupier.money import Ratio, half
from croupier.payouts import Payout, payout_ratios, ratio_text, smallest_chip, verify_table_money

CENT = Decimal("0.01")

# coups that exercise every baccarat payout: a player win, a banker win on 7, a two- and a
# three-card banker 6 (Super 6, Lucky 6), a tie with both pairs
COUPS = [
    CoupCards(tuple(parse_cards(["9S", "KD"])), tuple(parse_cards(["7D", "QD"]))),
    CoupCards(tuple(parse_cards(["6S", "KS"])), tuple(parse_cards(["7D", "QD"]))),
    CoupCards(tuple(parse_cards(["5S", "KS"])), tuple(parse_cards(["6D", "QD"]))),
    CoupCards(tuple(parse_cards(["2S", "KS", "3H"])), tuple(parse_cards(["3D", "QD", "3C"]))),
    CoupCards(tuple(parse_cards(["7S", "7H", "TD"])), tuple(parse_cards(["KD", "KC", "4C"]))),
]


def _whole(amount: Decimal, unit: Decimal = CENT) -> bool:
    return amount % unit == 0


# --------------------------------------------------------------------------------------------------
# the defect: a 0.10 chip at a 5% commission table


def test_a_010_chip_is_refused_at_a_commission_table_art_18() -> None:
    """Regression: a baccarat table with a 0.10 chip stopped on its first banker win (0.095 is not a
    whole number of cents); it is now refused when it is created, naming the payout and the amount."""
    macau = baccarat_rules("macau")
    outcome, gain = settle_bet(macau, "banker", Decimal("0.10"), COUPS[1])
    assert (outcome, gain) == ("win", Decimal("0.095"))  # what the engine would have owed
    with pytest.raises(RulesError) as refused:
        verify_table_money(macau, Decimal("0.10"), None)
    assert str(refused.value) == (
        "a banker win pays 0.95:1 (Art. 18); a bet of 0.10 (one chip) would be paid 0.095, not a whole "
        "number of 0.01 (the currency's smallest unit); use a chip that is a multiple of 0.20"
    )
    verify_table_money(macau, Decimal("0.20"))
    assert smallest_chip(macau) == Decimal("0.20")


def test_banker_bets_stepped_by_the_minimum_are_checked_on_it_art_18() -> None:
    """Art. 18: banker bets are multiples of the minimum, so a 0.10 chip works with a minimum of 20 but
    not with a minimum of 0.50 (0.475)."""
    macau = baccarat_rules("macau")
    verify_table_money(macau, Decimal("0.10"), Decimal(20))
    with pytest.raises(RulesError, match=r"a bet of 0\.50 \(the minimum; banker bets are multiples of it, Art\. 18\) "
                       r"would be paid 0\.475.*use a minimum that is a multiple of 0\.20"):  # fmt: skip
        verify_table_money(macau, Decimal("0.10"), Decimal("0.50"))
    free = baccarat_rules("macau", {"banker_bet_multiple_of_min": False})
    with pytest.raises(RulesError, match=r"a bet of 0\.10 \(one chip\) would be paid 0\.095"):
        verify_table_money(free, Decimal("0.10"), Decimal(20))
    with_min = baccarat_rules("macau", {"min_bet": 20})
    verify_table_money(with_min, Decimal("0.10"))  # the rule set's own minimum


def test_super_6_half_pay_needs_an_even_chip_art_17_18() -> None:
    """docs/rules.md §4 (Art. 17, 18): Super 6 pays a winning banker 6 1:2."""
    super6 = baccarat_rules("macau", {"commission": "none_super6", "banker_bet_multiple_of_min": False})
    with pytest.raises(RulesError, match=r"a winning banker 6 \(Super 6\) pays 1:2 \(Art\. 17, 18\); a bet of 0\.01 "
                       r"\(one chip\) would be paid 0\.005.*multiple of 0\.02"):  # fmt: skip
        verify_table_money(super6, CENT)
    verify_table_money(super6, Decimal("0.02"))
    assert smallest_chip(super6, Decimal(1)) == Decimal(2)  # a currency of whole units


def test_the_minimum_is_a_whole_number_of_chips_and_the_chip_of_units() -> None:
    macau = baccarat_rules("macau")
    with pytest.raises(RulesError, match="the minimum bet 25 is not a whole number of chips of 10"):
        verify_table_money(macau, Decimal(10), Decimal(25))
    with pytest.raises(RulesError, match=r"the chip must be a positive whole number of 0\.01.*got 0\.005"):
        verify_table_money(macau, Decimal("0.005"))
    with pytest.raises(RulesError, match="smallest unit must be positive"):
        verify_table_money(macau, Decimal(1), unit=Decimal(0))


# --------------------------------------------------------------------------------------------------
# blackjack


def test_blackjack_3_to_2_needs_an_even_chip_art_6() -> None:
    """Art. 6, online §2.3: a blackjack pays 3:2."""
    online = blackjack_rules("live-online")
    with pytest.raises(RulesError, match=r"a blackjack pays 3:2 \(Art\. 6; online §2\.3\); a bet of 0\.01 "
                       r"\(one chip\) would be paid 0\.015"):  # fmt: skip
        verify_table_money(online, CENT)
    verify_table_money(online, Decimal("0.02"))
    six_five = blackjack_rules("live-online", {"blackjack_pays": "6:5"}, floors=False)  # a what-if below §2.3
    with pytest.raises(RulesError, match=r"a blackjack pays 6:5.*multiple of 0\.10"):
        verify_table_money(six_five, Decimal("0.02"))
    verify_table_money(six_five, Decimal("0.10"))


def test_insurance_of_half_a_bet_and_surrenders_half_art_8_12() -> None:
    """Art. 8: insurance is at most half a bet, paid 2:1; Art. 12: a surrender gives back half."""
    macau = blackjack_rules("macau-1983", {"blackjack_pays": "1:1"})
    with pytest.raises(RulesError) as refused:
        verify_table_money(macau, CENT)
    assert str(refused.value).startswith(
        "insurance is at most half a bet and pays 2:1 (Art. 8; online §2.5); a bet of 0.01 (one chip) could be "
        "insured for 0.005, not a whole number of 0.01"
    )
    no_insurance = blackjack_rules("macau-1983", {"blackjack_pays": "1:1", "insurance_pays": "none"})
    with pytest.raises(RulesError, match=r"a surrender gives back half the bet \(Art\. 12\); a bet of 0\.01 "
                       r"\(one chip\) would get back 0\.005"):  # fmt: skip
        verify_table_money(no_insurance, CENT)
    bare = blackjack_rules("macau-1983", {"blackjack_pays": "1:1", "insurance_pays": "none", "surrender": "none"})
    verify_table_money(bare, CENT)
    odd_insurance = blackjack_rules("live-online", {"insurance_pays": "3:2"}, floors=False)  # below §2.5.3
    with pytest.raises(RulesError, match=r"insurance of half a bet of 0\.02 \(one chip\) would be paid 0\.015"):
        verify_table_money(odd_insurance, Decimal("0.02"))


def test_bonuses_are_listed_art_9() -> None:
    """Art. 9: the suited 6-7-8 and 7-7-7 pay 3:1 in Macau 1983, and are not offered online."""
    names = [p.name for p in payout_ratios(blackjack_rules("macau-1983"))]
    assert names == [
        "a win", "a blackjack", "even money", "insurance", "a suited 6-7-8", "a 7-7-7", "a surrender",
    ]  # fmt: skip
    online = payout_ratios(blackjack_rules("live-online"))
    assert [(p.name, p.shown) for p in online] == [("a win", "1:1"), ("a blackjack", "3:2"), ("insurance", "2:1")]


def test_payout_ratios_of_baccarat_art_13_17_18() -> None:
    assert payout_ratios(baccarat_rules("macau")) == [
        Payout("a player win", Fraction(1), "Art. 17.1"),
        Payout("a banker win", Fraction(19, 20), "Art. 18"),
        Payout("a tie", Fraction(8), "Art. 17.2"),
        Payout("a player pair", Fraction(11), "Art. 13, 17.3"),
        Payout("a banker pair", Fraction(11), "Art. 13, 17.3"),
    ]
    lucky = baccarat_rules("macau", {"commission": "none_super6", "lucky_6": True, "tie_pays": "9:1"})
    assert [(p.name, p.shown, p.article) for p in payout_ratios(lucky)] == [
        ("a player win", "1:1", "Art. 17.1"),
        ("a banker win", "1:1", "Art. 17.1"),
        ("a winning banker 6 (Super 6)", "1:2", "Art. 17, 18"),
        ("a tie", "9:1", "Art. 17.2"),
        ("a player pair", "11:1", "Art. 13, 17.3"),
        ("a banker pair", "11:1", "Art. 13, 17.3"),
        ("Lucky 6 on a two-card banker 6", "12:1", "2018 amendment"),
        ("Lucky 6 on a three-card banker 6", "20:1", "2018 amendment"),
    ]
    assert [ratio_text(Fraction(n, d)) for n, d in ((3, 2), (6, 5), (1, 2), (19, 20), (8, 1))] == [
        "3:2", "6:5", "1:2", "0.95:1", "8:1",
    ]  # fmt: skip


# --------------------------------------------------------------------------------------------------
# the check agrees with the engine's own payments


BACCARAT_SETS = [
    baccarat_rules("macau", {"banker_bet_multiple_of_min": False}),
    baccarat_rules("macau", {"commission": "none_super6", "lucky_6": True, "banker_bet_multiple_of_min": False}),
    baccarat_rules("macau", {"tie_pays": "9:1", "pair_pays": "5:2", "banker_bet_multiple_of_min": False}),
]


def _baccarat_pays_whole(rules: BaccaratRules, stake: Decimal) -> bool:
    for spot in rules.spots:
        for cards in COUPS:
            _, gain = settle_bet(rules, spot, stake, cards)
            if not _whole(gain):
                return False
    return True


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(BACCARAT_SETS), st.integers(1, 120))
def test_a_chip_is_accepted_exactly_when_the_engine_pays_every_bet_whole_art_18(
    rules: BaccaratRules, cents: int
) -> None:
    """Accepted: every bet of 1 to 5 chips is paid in whole cents by the engine's own settlement.
    Refused: a bet of one or two chips is paid a fraction of a cent (so one chip decides)."""
    chip = CENT * cents
    try:
        verify_table_money(rules, chip)
    except RulesError:
        assert not (_baccarat_pays_whole(rules, chip) and _baccarat_pays_whole(rules, 2 * chip))
        assert chip % smallest_chip(rules) != 0
    else:
        assert all(_baccarat_pays_whole(rules, k * chip) for k in range(1, 6))
        assert chip % smallest_chip(rules) == 0


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["macau-1983", "live-online"]), st.sampled_from(["3:2", "6:5", "1:1", "7:5"]), st.integers(1, 60)
)
def test_blackjack_chips_against_each_payout(preset: str, blackjack_pays: str, cents: int) -> None:
    rules = blackjack_rules(preset, {"blackjack_pays": blackjack_pays}, floors=False)  # what-ifs too
    chip = CENT * cents
    amounts = [Ratio.parse(blackjack_pays, name="blackjack_pays").of(chip)]
    if rules.insurance_pays is not None:
        amounts += [half(chip), rules.insurance_pays.of(half(chip))]
    if rules.surrender != "none":
        amounts.append(half(chip))
    if rules.bonus_678_suited is not None:
        amounts.append(rules.bonus_678_suited.of(chip))
    whole = all(_whole(amount) for amount in amounts)
    try:
        verify_table_money(rules, chip)
    except RulesError:
        assert not whole
    else:
        assert whole
