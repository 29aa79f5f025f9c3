"""docs/rules.md §1 and §5: cards, shoes, card sources, randomness, exact money."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.cards import DECK, Card, parse_cards
from croupier.errors import CardError, MoneyError, RulesError, ShoeError
from croupier.money import Ratio, exact, format_amount, parse_amount
from croupier.rng import HmacStream, SystemRandom, commitment, fisher_yates, seeded
from croupier.shoe import Shoe, parse_cut_card_range, place_cut_card


def test_card_text_form_rank_then_suit_section_1() -> None:
    """§1: two characters, rank then suit; accept 10D on input, print TD."""
    assert str(Card.parse("AS")) == "AS"
    assert Card.parse("10D") is Card.parse("TD")
    assert str(Card.parse("10d")) == "TD"
    assert Card.parse("KH").pretty() == "K♥"
    assert len(DECK) == 52 and len(set(DECK)) == 52


@pytest.mark.parametrize("text", ["1S", "AX", "", "ASS", "11H"])
def test_unknown_cards_are_named(text: str) -> None:
    with pytest.raises(CardError, match="unknown card"):
        Card.parse(text)


def test_parse_cards_names_the_position() -> None:
    with pytest.raises(CardError, match="card 2: unknown card 'ZZ'"):
        parse_cards(["AS", "ZZ"])


def test_shoe_holds_decks_times_52_and_no_more_copies_section_1() -> None:
    """§1: a shoe holds decks × 52 cards; a list holding more copies of a card than the decks contain is an error."""
    shoe = Shoe.shuffled(6, None, seeded(1))
    assert shoe.size == 312
    assert Counter(shoe.remaining_cards()) == Counter(list(DECK) * 6)
    with pytest.raises(ShoeError, match="more copies of AS than 1 deck"):
        Shoe.stacked(1, parse_cards(["AS", "AS"]))


def test_cut_card_comes_out_with_the_draw_at_its_position_transcript() -> None:
    """docs/transcript.md: the cut card comes out with the draw of the card at 0-based position cut_card."""
    shoe = Shoe.stacked(1, parse_cards(["AS", "2S", "3S"]), cut_card=1)
    shoe.draw()
    assert not shoe.cut_card_out
    shoe.draw()
    assert shoe.cut_card_out


def test_a_short_shoe_runs_out_with_a_clear_error() -> None:
    shoe = Shoe.stacked(1, parse_cards(["AS"]))
    shoe.draw()
    with pytest.raises(ShoeError, match="no card left"):
        shoe.draw()


def test_live_shoe_takes_cards_one_at_a_time_section_1() -> None:
    """§1: a live dealer's card reader supplies cards one at a time."""
    shoe = Shoe.live(1)
    assert not shoe.can_draw()
    shoe.supply(Card.parse("AS"))
    assert shoe.draw() == Card.parse("AS")
    with pytest.raises(ShoeError, match="more copies"):
        shoe.supply(Card.parse("AS"))
    with pytest.raises(ShoeError, match="only to a live shoe"):
        Shoe.stacked(1, []).supply(Card.parse("2S"))


def test_cut_card_settings() -> None:
    assert parse_cut_card_range("20-30") == (20, 30)
    assert parse_cut_card_range(300) == 300
    assert parse_cut_card_range("none") is None
    with pytest.raises(RulesError, match="cut_card"):
        parse_cut_card_range("30-20")
    for seed in range(50):
        place = place_cut_card((20, 30), 312, seeded(seed))
        assert place is not None and 282 <= place <= 292


def test_hmac_stream_is_the_provably_fair_stream_of_section_5() -> None:
    """§5: HMAC-SHA256(server_seed, client_seed:nonce:counter), read as unbiased integers."""
    key = bytes(range(32))
    stream = HmacStream(key, "client", 7)
    digest = hmac.new(key, b"client:7:0", hashlib.sha256).digest()
    first = int.from_bytes(digest[:4], "big")
    limit = 2**32 - 2**32 % 52
    assert first < limit  # this vector is not rejected
    assert stream.randbelow(52) == first % 52
    assert commitment(key) == hashlib.sha256(key).hexdigest()


def test_seeded_shuffles_are_reproducible_and_differ_by_seed() -> None:
    one = fisher_yates(list(DECK), seeded(42))
    two = fisher_yates(list(DECK), seeded(42))
    three = fisher_yates(list(DECK), seeded(43))
    assert one == two != three
    assert sorted(one, key=lambda c: c.index) == list(DECK)


def test_fisher_yates_is_uniform_over_permutations_of_three() -> None:
    """No modulo bias: every ordering of three cards is about equally likely (chi-square, 5 dof)."""
    source = seeded("uniformity")
    counts: Counter[tuple[int, ...]] = Counter()
    trials = 12000
    for _ in range(trials):
        counts[tuple(fisher_yates([0, 1, 2], source))] += 1
    expected = trials / 6
    chi2 = sum((counts[p] - expected) ** 2 / expected for p in counts)
    assert len(counts) == 6
    assert chi2 < 20.5  # p ≈ 0.001 for 5 degrees of freedom


def test_system_random_is_the_os_csprng() -> None:
    values = {SystemRandom().randbelow(1000) for _ in range(50)}
    assert len(values) > 1 and all(0 <= v < 1000 for v in values)


def test_money_is_exact() -> None:
    """Money is exact: never float."""
    assert parse_amount("142.50") == Decimal("142.5")
    assert format_amount(Decimal("142.50")) == "142.5"
    assert format_amount(Decimal("-50")) == "-50"
    assert format_amount(Decimal("1E+2")) == "100"
    assert format_amount(Decimal("0.00")) == "0"
    with pytest.raises(MoneyError, match="exact decimal"):
        parse_amount(0.1)
    with pytest.raises(MoneyError):
        parse_amount("ten")
    assert Ratio.parse("3:2", name="x").of(Decimal("15")) == Decimal("22.5")
    assert Ratio.parse("19:20", name="x").of(Decimal("100")) == Decimal(95)
    with pytest.raises(RulesError, match="no exact decimal form"):
        Ratio.parse("1:3", name="x")
    with pytest.raises(MoneyError):
        exact(Fraction(1, 3))


@given(st.integers(min_value=0, max_value=10**12), st.sampled_from(["3:2", "6:5", "2:1", "8:1", "19:20", "1:2"]))
def test_ratio_payments_are_exact(cents: int, text: str) -> None:
    stake = Decimal(cents).scaleb(-2)
    ratio = Ratio.parse(text, name="x")
    assert Fraction(ratio.of(stake)) == Fraction(stake) * ratio.fraction
