"""Exact baccarat analysis: published figures, an engine brute force, the command line.

Published figures are cited in each test's docstring. Counts are the numbers of ordered six-card
sequences (the convention of those tables); house edges are per coup, a tie pushing player and
banker. Percentages quoted to a few places are compared after exact half-even rounding.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from croupier.baccarat import tableau
from croupier.baccarat.presets import baccarat_rules
from croupier.baccarat.rules import Rules
from croupier.baccarat.settle import CoupCards, settle_bet
from croupier.cards import RANKS, Card, parse_cards
from croupier.cli import app
from croupier.math import CompositionError, check_composition, decimal_text, full_shoe, parse_remaining
from croupier.math.baccarat import (
    BaccaratAnalysis,
    analysis_document,
    analyze_baccarat,
    analyze_from_options,
    count_coups,
    falling,
    percent_text,
)

MACAU = baccarat_rules("macau")
SIDE_BETS = baccarat_rules("macau", {"commission": "none_super6", "tie_pays": "9:1", "lucky_6": "true"})
TWELVE_DECKS = baccarat_rules("macau", {"decks": "12"})


def by_rank(**counts: int) -> tuple[int, ...]:
    """13 counts by rank from keywords such as ``A=2, K=1`` (``_2`` for rank 2, and so on)."""
    return tuple(counts.get(rank if rank.isalpha() else "_" + rank, 0) for rank in RANKS)


def micro(value: Fraction) -> int:
    """``value`` in millionths, rounded half-even: compares with a figure published to six decimals."""
    return round(value * 10**6)


# --------------------------------------------------------------------------------------------------
# the anchor and the main bets


def test_eight_deck_counts_are_the_anchor() -> None:
    """The anchor figures, as in the table "Probabilities in 8-deck Baccarat" of casinoexploit.com,
    http://www.casinoexploit.com/baccarat.html: banker 2,292,252,566,437,888, player
    2,230,518,282,592,256, tie 475,627,426,473,216 of 4,998,398,275,503,360 = 416·415·…·411."""
    counts = analyze_baccarat(MACAU).counts
    assert counts.banker == 2_292_252_566_437_888
    assert counts.player == 2_230_518_282_592_256
    assert counts.tie == 475_627_426_473_216
    assert counts.total == 4_998_398_275_503_360 == falling(416, 6)
    assert counts.banker + counts.player + counts.tie == counts.total


def test_eight_deck_house_edges() -> None:
    """uscasinosonline.com, "Baccarat Odds", http://www.uscasinosonline.com/casino-games/baccarat/calculating-odds.php:
    banker 1.0579%, player 1.2351% (8 decks). excelpunks.com, "Concepts 13: Baccarat Vs. Non-Commission
    Baccarat", https://excelpunks.com/2018/05/12/concepts-13-baccarat-vs-non-commission-baccarat-why-does-a-banker-win-on-6-pay-half/:
    house edge player 0.012351, banker 0.010579, tie 0.143596. Wizard of Odds, "Probability of a Win at
    Various Mid-game Stages", https://wizardofodds.com/games/baccarat/appendix/3: totals player 0.446247,
    banker 0.458597, tie 0.095156."""
    analysis = analyze_baccarat(MACAU)
    edge = analysis.house_edge
    assert percent_text(edge["banker"]) == "1.0579%"
    assert percent_text(edge["player"]) == "1.2351%"
    assert (micro(edge["player"]), micro(edge["banker"]), micro(edge["tie"])) == (12_351, 10_579, 143_596)
    p = analysis.probabilities
    assert (micro(p["player"]), micro(p["banker"]), micro(p["tie"])) == (446_247, 458_597, 95_156)
    assert set(edge) == {"player", "banker", "tie", "player_pair", "banker_pair"}  # no lucky_6 unless offered


# Wizard of Odds, "Baccarat Odds for 1 to 12 Decks", table "Combinations" (player, banker, tie, total).
WIZARD_ONE_TO_TWELVE = {
    1: (6_548_674_432, 6_737_232_640, 1_372_227_328, 14_658_134_400),
    2: (487_816_735_232, 501_543_728_128, 103_154_274_240, 1_092_514_737_600),
    3: (5_837_305_562_496, 6_000_349_195_008, 1_238_768_922_816, 13_076_423_680_320),
    4: (33_608_344_225_792, 34_543_624_867_840, 7_145_601_996_928, 75_297_571_090_560),
    5: (130_087_780_016_000, 133_700_037_548_800, 27_690_387_926_400, 291_478_205_491_200),
    6: (392_220_492_728_832, 403_095_751_234_560, 83_552_962_932_288, 878_869_206_895_680),
    7: (995_884_732_700_032, 1_023_469_376_328_440, 212_268_385_833_280, 2_231_622_494_861_750),
    8: (2_230_518_282_592_250, 2_292_252_566_437_880, 475_627_426_473_216, 4_998_398_275_503_350),
    9: (4_540_095_442_933_630, 4_665_676_262_757_120, 968_435_421_769_728, 10_174_207_127_460_500),
    10: (8_570_454_841_408_000, 8_807_402_586_035_200, 1_828_629_499_384_000, 19_206_486_926_827_200),
    11: (15_222_978_065_896_800, 15_643_682_376_129_200, 3_248_754_169_011_640, 34_115_414_611_037_600),
    12: (25_714_619_121_272_800, 26_425_038_379_143_100, 5_488_795_281_294_720, 57_628_452_781_710_600),
}


@pytest.mark.parametrize("decks", sorted(WIZARD_ONE_TO_TWELVE))
def test_counts_for_one_to_twelve_decks(decks: int) -> None:
    """Wizard of Odds, "Baccarat Odds for 1 to 12 Decks", https://wizardofodds.com/games/baccarat/one-to-twelve-decks/,
    table "Combinations". The page warns that Excel shows 15 significant digits: up to 6 decks every
    published figure has at most 15 digits and must match exactly; beyond, to 1 part in 10^14."""
    counts = count_coups(full_shoe(decks))
    ours = (counts.player, counts.banker, counts.tie, counts.total)
    for mine, published in zip(ours, WIZARD_ONE_TO_TWELVE[decks], strict=True):
        if decks <= 6:
            assert mine == published
        else:
            assert abs(mine - published) * 10**14 <= published


def test_six_decks() -> None:
    """casinoexploit.com, http://www.casinoexploit.com/baccarat.html, "Probabilities in 6-deck Baccarat":
    banker 403,095,751,234,560 (house edge 1.06%), player 392,220,492,728,832 (1.24%), tie
    83,552,962,932,288 (14.44%)."""
    analysis = analyze_baccarat(baccarat_rules("macau", {"decks": "6"}))
    counts = analysis.counts
    assert (counts.banker, counts.player, counts.tie) == (403_095_751_234_560, 392_220_492_728_832, 83_552_962_932_288)
    edge = analysis.house_edge
    assert [percent_text(edge[s], 2) for s in ("banker", "player", "tie")] == ["1.06%", "1.24%", "14.44%"]


def test_four_decks() -> None:
    """casinoexploit.com, http://www.casinoexploit.com/baccarat.html, "Probabilities in 4-deck Baccarat":
    banker 34,543,624,867,840 (1.05%), player 33,608,344,225,792."""
    analysis = analyze_baccarat(MACAU, full_shoe(4))
    assert (analysis.counts.banker, analysis.counts.player) == (34_543_624_867_840, 33_608_344_225_792)
    assert percent_text(analysis.house_edge["banker"], 2) == "1.05%"


def test_one_deck() -> None:
    """Wizard of Odds, "Baccarat Odds for 1 to 12 Decks" (above) for the counts; baccarat.guru, "The
    Complete Baccarat Wiki", https://baccarat.guru/wiki.html: the banker edge "improves to 1.01 percent
    with a single-deck game", the player's payout rate "drops slightly to 98.71 percent in a single-deck
    game". 1 deck is below the Macau rule set's 6-12 (Art. 1), so it is a remaining composition."""
    analysis = analyze_baccarat(MACAU, full_shoe(1))
    counts = analysis.counts
    assert (counts.player, counts.banker, counts.tie, counts.total) == WIZARD_ONE_TO_TWELVE[1]
    assert percent_text(analysis.house_edge["banker"], 2) == "1.01%"
    assert percent_text(1 - analysis.house_edge["player"], 2) == "98.71%"


# --------------------------------------------------------------------------------------------------
# side bets


def test_tie_pays_eight_and_nine_to_one() -> None:
    """practicalwebtools.com, "Baccarat Tie Bet Calculator", https://www.practicalwebtools.com/gambling-tools/baccarat-tie-bet:
    8 decks, tie 8:1 house edge 14.36%, 9:1 4.84% (casinoexploit.com rounds the 9:1 edge to 4.80%,
    which is 10·475,627,426,473,216/4,998,398,275,503,360 − 1 = −4.844%, not 4.80%)."""
    eight = analyze_baccarat(MACAU).house_edge["tie"]
    nine = analyze_baccarat(baccarat_rules("macau", {"tie_pays": "9:1"})).house_edge["tie"]
    assert (percent_text(eight, 2), percent_text(nine, 2)) == ("14.36%", "4.84%")
    tie = Fraction(475_627_426_473_216, 4_998_398_275_503_360)
    assert eight == 1 - 9 * tie
    assert nine == 1 - 10 * tie


def test_pairs() -> None:
    """Eliot Jacobson, "Computer Perfect Play Against the Baccarat Pairs Bet", 888casino.com,
    https://www.888casino.com/blog/side-bets/computer-perfect-play-against-the-baccarat-pairs-bet/:
    8 decks, pays 11:1, house edge 10.361%, hit frequency 7.470%. practicalwebtools.com, "Baccarat Pair
    Bet Calculator", https://www.practicalwebtools.com/gambling-tools/baccarat-pair-bet: pair probability
    1 deck 5.88%, 2 decks 6.80%, 6 decks 7.40%, 8 decks 7.47%; player and banker pairs alike."""
    eight = analyze_baccarat(MACAU)
    assert percent_text(eight.house_edge["player_pair"], 3) == "10.361%"
    assert percent_text(eight.probabilities["player_pair"], 3) == "7.470%"
    assert eight.house_edge["banker_pair"] == eight.house_edge["player_pair"] == Fraction(43, 415)
    for decks, published in ((1, "5.88%"), (2, "6.80%"), (6, "7.40%"), (8, "7.47%")):
        probabilities = analyze_baccarat(MACAU, full_shoe(decks)).probabilities
        assert percent_text(probabilities["player_pair"], 2) == published
        assert probabilities["banker_pair"] == probabilities["player_pair"]


def test_pairs_count_rank_not_value() -> None:
    """Art. 13(4): J-J is a pair, J-Q is not, though both are worth 0. A shoe of J, Q and four 9s:
    the first and third cards (player) are one rank in 4·3 + 0 of the 6·5 ordered pairs."""
    counts = count_coups(by_rank(J=1, Q=1, _9=4))
    assert Fraction(counts.player_pair, counts.total) == Fraction(4 * 3, 6 * 5)


def test_super_6() -> None:
    """Eliot Jacobson, "Card Counting the Super Six Baccarat Side Bet", 888casino.com,
    https://www.888casino.com/blog/card-counting-the-super-six-baccarat-side-bet/: commission-free
    variation #2 (a winning banker 6 pays half) has house edge 1.4581%, against 1.0579% with the 5%
    commission. excelpunks.com, "Concepts 13" (above): banker wins on 6 in 269,232,304,455,680
    permutations, house edge 0.014581045."""
    analysis = analyze_baccarat(baccarat_rules("macau", {"commission": "none_super6"}))
    counts = analysis.counts
    assert counts.banker_six_two_cards + counts.banker_six_three_cards == 269_232_304_455_680
    assert percent_text(analysis.house_edge["banker"]) == "1.4581%"
    assert round(analysis.house_edge["banker"] * 10**9) == 14_581_045
    assert analysis.house_edge["banker"] == Fraction(counts.player - counts.banker, counts.total) + Fraction(
        269_232_304_455_680, 2 * counts.total
    )


def test_lucky_6() -> None:
    """Wizard of Odds, "Lucky 6", https://wizardofodds.com/games/baccarat/side-bets/lucky-6/ (8 decks):
    2-card winning banker 6 in 186,173,936,904,192 combinations, 3-card in 83,058,367,551,488; the
    Macau pay table (12:1 and 20:1) returns −0.166836, house edge 16.68%."""
    analysis = analyze_baccarat(SIDE_BETS)
    counts = analysis.counts
    assert (counts.banker_six_two_cards, counts.banker_six_three_cards) == (186_173_936_904_192, 83_058_367_551_488)
    assert micro(analysis.expected_value("lucky_6")) == -166_836
    assert percent_text(analysis.house_edge["lucky_6"], 2) == "16.68%"


# Wizard of Odds, "Card Counting the Lucky 6 Bet in Baccarat": the effect on the 12:1/23:1 bet's
# expected value of removing one card of each point value from a full eight-deck shoe.
LUCKY_6_EFFECT_OF_REMOVAL = {
    "T": -611,
    "A": -329,
    "2": -323,
    "3": -1131,
    "4": -393,
    "5": -278,
    "6": -5386,
    "7": 3907,
    "8": 3537,
    "9": 2838,
}


def test_composition_dependence_lucky_6_effect_of_removal() -> None:
    """Wizard of Odds, "Card Counting the Lucky 6 Bet in Baccarat", https://wizardofodds.com/games/baccarat/counting-lucky-6/:
    with the liberal pay table (12:1 two cards, 23:1 three cards), full 8 decks −0.116985 ("Lucky 6"
    page), and the effect of removal of one card of each value, to six decimals. This checks the
    analysis of a depleted shoe, card by card."""

    def liberal(counts_: tuple[int, ...]) -> Fraction:
        c = count_coups(counts_)
        wins = c.banker_six_two_cards + c.banker_six_three_cards
        return Fraction(12 * c.banker_six_two_cards + 23 * c.banker_six_three_cards - (c.total - wins), c.total)

    full = liberal(full_shoe(8))
    assert micro(full) == -116_985
    for rank, effect in LUCKY_6_EFFECT_OF_REMOVAL.items():
        shoe = list(full_shoe(8))
        shoe[RANKS.index(rank)] -= 1
        assert micro(liberal(tuple(shoe)) - full) == effect, rank


# --------------------------------------------------------------------------------------------------
# independent check: every ordered deal of a tiny shoe, through the engine's tableau and settlement


def deal(sequence: Iterable[Card]) -> CoupCards:
    """Deal a coup from ``sequence`` as the engine's tableau asks (Art. 7, 9): the cards it leaves are unused."""
    player: list[Card] = []
    banker: list[Card] = []
    cards = iter(sequence)
    while (side := tableau.next_side(player, banker)) is not None:
        (player if side == "player" else banker).append(next(cards))
    return CoupCards(tuple(player), tuple(banker))


def every_six_card_sequence(cards: Sequence[Card]) -> Counter[CoupCards]:
    """Each coup, with the number of ordered six-card sequences of the (distinct) cards that deal it."""
    return Counter(deal(sequence) for sequence in itertools.permutations(cards, 6))


def every_deal(cards: Sequence[Card]) -> Counter[CoupCards]:
    """Walk every ordered deal card by card; a coup of ``k`` cards stands for the orderings of ``6 - k`` unused ones."""
    tally: Counter[CoupCards] = Counter()
    n = len(cards)

    def walk(used: frozenset[int], player: tuple[Card, ...], banker: tuple[Card, ...]) -> None:
        side = tableau.next_side(player, banker)
        if side is None:
            dealt = len(player) + len(banker)
            tally[CoupCards(player, banker)] += falling(n - dealt, 6 - dealt)
            return
        for index, card in enumerate(cards):
            if index not in used:
                if side == "player":
                    walk(used | {index}, (*player, card), banker)
                else:
                    walk(used | {index}, player, (*banker, card))

    walk(frozenset(), (), ())
    return tally


def check_against_engine(coups: Counter[CoupCards], cards: Sequence[Card], rule_sets: Sequence[Rules]) -> None:
    """The analysis of the shoe ``cards`` equals, exactly, what the engine settles over ``coups``."""
    shoe = tuple(sum(1 for card in cards if card.rank == rank) for rank in RANKS)
    total = sum(coups.values())
    # A payout can only depend on what the coup shows: settle one coup for each such picture.
    pictures: dict[tuple[object, ...], CoupCards] = {}
    weights: Counter[tuple[object, ...]] = Counter()
    for coup, weight in coups.items():
        key = (
            len(coup.player),
            len(coup.banker),
            coup.player_total,
            coup.banker_total,
            coup.player_pair,
            coup.banker_pair,
        )
        pictures.setdefault(key, coup)
        weights[key] += weight
    coups = Counter({pictures[key]: weight for key, weight in weights.items()})
    winners: Counter[str] = Counter()
    for coup, weight in coups.items():
        winners[coup.winner] += weight
    for rules in rule_sets:
        analysis = analyze_baccarat(rules, shoe)
        counts = analysis.counts
        assert counts.total == total
        assert (counts.banker, counts.player, counts.tie) == (winners["banker"], winners["player"], winners["tie"])
        assert counts.player_pair == sum(w for coup, w in coups.items() if coup.player_pair)
        assert counts.banker_pair == sum(w for coup, w in coups.items() if coup.banker_pair)
        for spot in rules.spots:
            gain = sum(
                (Fraction(settle_bet(rules, spot, Decimal(1), coup)[1]) * weight for coup, weight in coups.items()),
                Fraction(0),
            )
            assert analysis.expected_value(spot) == gain / total, spot


TINY_SHOE = parse_cards("AS AH 3S 6S 6H 7S 9S KS QS".split())
SMALL_SHOE = parse_cards("AS AH 2S 3S 4S 5S 6S 6H 7S 8S 9S KS".split())


def test_brute_force_every_six_card_sequence() -> None:
    """All 9·8·7·6·5·4 = 60,480 ordered six-card sequences of nine cards, each dealt by the engine's
    tableau and settled by the engine for every spot, under 5% commission and under Super 6 / tie 9:1 /
    Lucky 6: no closed forms, no weighting, and the analysis must agree exactly."""
    coups = every_six_card_sequence(TINY_SHOE)
    assert sum(coups.values()) == 60_480
    check_against_engine(coups, TINY_SHOE, [MACAU, SIDE_BETS])


def test_brute_force_walk_of_every_deal() -> None:
    """Every ordered deal of a dozen cards (every value 0-9, two aces, two sixes), walked card by card
    through the engine's tableau (a coup of k cards weighted by the (12-k)·…·7 orderings of the 6-k
    cards it leaves unused), settled by the engine, under both banker payouts and every side bet."""
    check_against_engine(every_deal(SMALL_SHOE), SMALL_SHOE, [MACAU, SIDE_BETS])


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(RANKS), min_size=6, max_size=8))
def test_brute_force_random_tiny_shoes(ranks: list[str]) -> None:
    """Random shoes of six to eight cards (any ranks, repeats allowed), walked through the engine."""
    suits = itertools.cycle("SHDC")
    cards = [Card(rank, next(suits)) for rank in ranks]
    check_against_engine(every_deal(cards), cards, [SIDE_BETS])


def test_six_cards_exactly() -> None:
    """The smallest shoe: six cards, 720 orderings, every coup complete."""
    counts = count_coups(by_rank(A=1, _2=1, _3=1, _4=1, _5=1, _6=1))
    assert counts.total == 720 == counts.banker + counts.player + counts.tie


# --------------------------------------------------------------------------------------------------
# compositions and numbers as text


def test_parse_remaining() -> None:
    assert parse_remaining("4,4,4,4,4,4,4,4,4,4,4,4,4") == full_shoe(1)
    assert parse_remaining(" 1, 2,3,4,5,6,7,8,9,10,11,12,0 ") == tuple([*range(1, 13), 0])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4,4,4", "remaining: expected 13 comma-separated counts, one for each rank A,2,3,4,5,6,7,8,9,T,J,Q,K; got 3"),
        ("4,4,4,4,4,x,4,4,4,4,4,4,4", "remaining: the count for rank 6 must be a whole number, got 'x'"),
        ("4,4,4,4,4,4,4,4,4,4.5,4,4,4", "remaining: the count for rank T must be a whole number, got '4.5'"),
        ("4,4,4,4,4,4,4,4,4,4,4,4,", "remaining: the count for rank K must be a whole number, got ''"),
    ],
)
def test_parse_remaining_errors(text: str, message: str) -> None:
    with pytest.raises(CompositionError) as caught:
        parse_remaining(text)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("counts", "decks", "message"),
    [
        ((33, *[32] * 12), 8, "remaining: rank A has 33 cards, more than the 32 that 8 decks hold"),
        ((*[0] * 12, 5), 1, "remaining: rank K has 5 cards, more than the 4 that 1 deck hold"),
        ((4, -1, *[4] * 11), 8, "remaining: rank 2 has -1 cards; a count cannot be negative"),
        ((1, 1, 1, 1, 1, *[0] * 8), 8, "remaining: 5 cards left; a round may need 6, so none can be dealt"),
        ((4,) * 12, 8, "remaining: expected 13 counts"),
    ],
)
def test_impossible_compositions(counts: tuple[int, ...], decks: int, message: str) -> None:
    with pytest.raises(CompositionError) as caught:
        check_composition(counts, decks=decks, min_cards=6)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_analysis_checks_the_composition_against_the_rules() -> None:
    """A full 8-deck shoe cannot be what is left of a 6-deck rule set (Art. 1)."""
    with pytest.raises(CompositionError, match="more than the 24 that 6 decks hold"):
        analyze_baccarat(baccarat_rules("macau", {"decks": "6"}), full_shoe(8))


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(0), "0"),
        (Fraction(5), "5"),
        (Fraction(1, 8), "0.125"),
        (Fraction(-43, 400), "-0.1075"),
        (Fraction(1, 3), "0.333333333333"),
        (Fraction(-2, 3), "-0.666666666667"),
        (Fraction(43, 415), "0.103614457831"),
        (Fraction(10**20, 3), "33333333333300000000"),
        (Fraction(1, 3 * 10**9), "0.000000000333333333333"),
    ],
)
def test_decimal_text(value: Fraction, text: str) -> None:
    assert decimal_text(value) == text


def test_percent_text() -> None:
    assert percent_text(Fraction(1, 8)) == "12.5000%"
    assert percent_text(Fraction(-1, 3), 2) == "-33.33%"
    assert percent_text(Fraction(1, 800), 1) == "0.1%"  # 0.125 → 0.1, half to even


def test_document_shape() -> None:
    document = analysis_document(analyze_baccarat(SIDE_BETS))
    assert set(document["counts"]) >= {"banker", "player", "tie", "total"}
    assert set(document["house_edge"]) == {"player", "banker", "tie", "player_pair", "banker_pair", "lucky_6"}
    assert set(document["probabilities"]) >= {"banker", "player", "tie", "player_pair", "banker_pair"}
    assert all(isinstance(value, str) for value in document["counts"].values())
    assert all(isinstance(value, str) for value in document["house_edge"].values())
    edge = Fraction(document["exact"]["house_edge"]["lucky_6"])
    assert decimal_text(edge) == document["house_edge"]["lucky_6"]


def test_analyze_from_options_reads_the_command_line() -> None:
    analysis = analyze_from_options("macau", ["lucky_6=true", "decks=6"], None)
    assert isinstance(analysis, BaccaratAnalysis)
    assert analysis.remaining == full_shoe(6)
    assert "lucky_6" in analysis.house_edge


# --------------------------------------------------------------------------------------------------
# the command line


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["analyze", "baccarat", *args])
    return result.exit_code, result.stdout, result.stderr


def test_cli_json() -> None:
    code, out, err = run("--json")
    assert code == 0, err
    document = json.loads(out)
    assert document["counts"] == {
        "banker": "2292252566437888",
        "player": "2230518282592256",
        "tie": "475627426473216",
        "total": "4998398275503360",
        "player_pair": "373374329013504",
        "banker_pair": "373374329013504",
        "banker_six_two_cards": "186173936904192",
        "banker_six_three_cards": "83058367551488",
    }
    assert document["house_edge"]["banker"] == "0.0105790578425"
    assert document["house_edge"]["player"] == "0.0123508132892"
    assert document["house_edge"]["player_pair"] == "0.103614457831"
    assert "lucky_6" not in document["house_edge"]
    assert document["probabilities"]["tie"] == "0.0951559680236"


def test_cli_json_with_overrides() -> None:
    code, out, err = run("--rules", "macau", "--set", "lucky_6=true", "--set", "commission=none_super6", "--json")
    assert code == 0, err
    edges = json.loads(out)["house_edge"]
    assert edges["banker"].startswith("0.014581")
    assert edges["lucky_6"].startswith("0.16683")


def test_cli_remaining() -> None:
    """One deck left, given as counts: Wizard of Odds' one-deck combinations (above)."""
    code, out, err = run("--remaining", ",".join(["4"] * 13), "--json")
    assert code == 0, err
    counts = json.loads(out)["counts"]
    player, banker, tie, total = WIZARD_ONE_TO_TWELVE[1]
    assert (counts["player"], counts["banker"], counts["tie"], counts["total"]) == tuple(
        str(n) for n in (player, banker, tie, total)
    )


def test_cli_table() -> None:
    code, out, err = run("--set", "lucky_6=true")
    assert code == 0, err
    for text in ("2,292,252,566,437,888", "4,998,398,275,503,360", "1.0579%", "1.2351%", "14.3596%", "Lucky 6"):
        assert text in out
    assert err == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--set", "nope=1"], "unknown baccarat rule parameter 'nope'"),
        (["--set", "decks=1"], "decks (Art. 1): '1' is not allowed"),
        (["--set", "novalue"], "--set expects NAME=VALUE"),
        (["--rules", "punto"], "unknown baccarat preset 'punto'"),
        (["--remaining", ",".join(["33"] + ["32"] * 12)], "remaining: rank A has 33 cards, more than the 32"),
        (
            ["--set", "decks=6", "--remaining", ",".join(["32"] * 13)],
            "remaining: rank A has 32 cards, more than the 24",
        ),
        (["--remaining", ",".join(["4"] * 4 + ["-1"] + ["4"] * 8)], "remaining: rank 5 has -1 cards"),
        (["--remaining", "4,4,4,4,4,4,4,4,4,4,4,4"], "remaining: expected 13 comma-separated counts"),
        (["--remaining", "4,4,4,4,4,4,4,4,4,4,4,4,four"], "remaining: the count for rank K must be a whole number"),
        (["--remaining", "1,1,1,1,1,0,0,0,0,0,0,0,0", "--json"], "remaining: 5 cards left"),
    ],
)
def test_cli_errors_are_one_line_exit_2(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert err.startswith(message)
    assert err.endswith("\n") and err.count("\n") == 1


def test_cli_error_through_the_installed_command() -> None:
    """The real entry point, in its own process: one line on stderr, nothing on stdout, status 2."""
    script = Path(sys.executable).with_name("croupier")
    command = [str(script)] if script.exists() else [sys.executable, "-c", "from croupier.cli import main; main()"]
    completed = subprocess.run(
        [*command, "analyze", "baccarat", "--remaining", "0,0,0,0,0,0,0,0,0,0,0,0,-3"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr == "remaining: rank K has -3 cards; a count cannot be negative\n"
