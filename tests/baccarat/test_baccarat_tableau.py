"""Art. 9: every cell of the tableau, dealt through the engine.

The expectations are written out here from docs/rules.md §4, independently of the tables in
``croupier.baccarat.tableau``: for each banker two-card total, one letter per value of the player's
third card 0-9, ``D`` the banker draws, ``S`` the banker stands.
"""

from __future__ import annotations

import pytest

from croupier.baccarat import tableau
from croupier.baccarat.state import CardDealt
from croupier.cards import Card

from .helpers import RANK_OF_VALUE, coup, table_for, two_cards

# banker total -> the banker's decision for the player's third card worth 0, 1, ..., 9 (Art. 9.3-9.4)
BANKER_AFTER_PLAYER_THIRD = {
    0: "DDDDDDDDDD",  # Art. 9.3(1): 0, 1, 2 draw whatever the player's card
    1: "DDDDDDDDDD",
    2: "DDDDDDDDDD",
    3: "DDDDDDDDSD",  # Art. 9.3(2), 9.4(1): 3 stands only on an 8
    4: "SSDDDDDDSS",  # Art. 9.3(3), 9.4(2): 4 draws on 2-7
    5: "SSSSDDDDSS",  # Art. 9.3(4), 9.4(3): 5 draws on 4-7
    6: "SSSSSSDDSS",  # Art. 9.3(5), 9.4(4): 6 draws on 6-7
    7: "SSSSSSSSSS",  # Art. 9.4(5): 7 stands
}

THIRD_CARD_CELLS = [(banker, third) for banker in range(10) for third in range(10)]


def _cell_id(cell: tuple[int, int]) -> str:
    banker, third = cell
    if banker >= 8:
        return f"Art9-banker{banker}-natural-no-third-card"
    verdict = "draws" if BANKER_AFTER_PLAYER_THIRD[banker][third] == "D" else "stands"
    return f"Art9.3-9.4-banker{banker}-player_third{third}-banker_{verdict}"


@pytest.mark.parametrize("cell", THIRD_CARD_CELLS, ids=[_cell_id(c) for c in THIRD_CARD_CELLS])
def test_tableau_banker_total_by_player_third_card_art_9(cell: tuple[int, int]) -> None:
    """Art. 9.3-9.4: the player (on 3) draws; the banker's draw follows its total and the player's third card.

    A banker two-card 8 or 9 is a natural: nobody draws (Art. 9.2, 9.4(5)).
    """
    banker_total, third_value = cell
    player = [*two_cards(3, "S"), RANK_OF_VALUE[third_value] + "C"]
    banker = two_cards(banker_total, "D")
    banker_third = "9H"
    if banker_total >= 8:
        result = coup(player[:2], banker)
        assert result.cards.natural
        assert len(result.cards.player) == 2 and len(result.cards.banker) == 2
        return
    draws = BANKER_AFTER_PLAYER_THIRD[banker_total][third_value] == "D"
    result = coup(player, [*banker, banker_third] if draws else banker)
    assert len(result.cards.player) == 3
    assert len(result.cards.banker) == (3 if draws else 2)
    assert tableau.banker_draws(banker_total, Card.parse(player[2])) is draws


TWO_CARD_CELLS = [(player, banker) for player in range(10) for banker in range(10)]


def _first_decision(player_total: int, banker_total: int) -> str:
    """docs/rules.md §4 written out: naturals stand; the player draws on 0-5; a standing player leaves the
    banker to draw on 0-5."""
    if player_total >= 8 or banker_total >= 8:
        return "natural"
    if player_total <= 5:
        return "player_draws"
    return "banker_draws" if banker_total <= 5 else "both_stand"


@pytest.mark.parametrize(
    "cell",
    TWO_CARD_CELLS,
    ids=[f"Art9-player{p}-banker{b}-{_first_decision(p, b)}" for p, b in TWO_CARD_CELLS],
)
def test_tableau_two_card_totals_art_9(cell: tuple[int, int]) -> None:
    """Art. 9.1-9.2, 9.3(6), 9.4: naturals stand; the player draws on 0-5, stands on 6-7; when the player
    stands, the banker draws on 0-5 and stands on 6-7."""
    player_total, banker_total = cell
    player = two_cards(player_total, "S")
    banker = two_cards(banker_total, "D")
    decision = _first_decision(player_total, banker_total)
    if decision == "player_draws":
        player = [*player, "KC"]  # a ten-value third card, worth 0
        banker_draws = banker_total <= 3  # Art. 9.3(1)-(2), 9.4(2)-(5): on a 0, only 0-3 draw
        result = coup(player, [*banker, "9H"] if banker_draws else banker)
        assert len(result.cards.player) == 3
        return
    if decision == "banker_draws":
        result = coup(player, [*banker, "9H"])
        assert len(result.cards.player) == 2 and len(result.cards.banker) == 3
        return
    result = coup(player, banker)
    assert len(result.cards.player) == 2 and len(result.cards.banker) == 2
    assert result.cards.natural is (decision == "natural")


@pytest.mark.parametrize(
    ("text", "total"),
    [("AS KD", 1), ("9S 9D", 8), ("5S 5D", 0), ("TS JD QC", 0), ("7S 8D 9C", 4), ("AS 2D", 3)],
)
def test_values_and_totals_mod_10_art_5(text: str, total: int) -> None:
    """Art. 5: A = 1, 2-9 face value, T/J/Q/K = 0; a total is the sum modulo 10."""
    assert tableau.total([Card.parse(t) for t in text.split()]) == total


def test_card_values_art_5() -> None:
    """Art. 5: each rank's value."""
    values = {rank: tableau.card_value(Card(rank, "S")) for rank in "A23456789TJQK"}
    assert values == {"A": 1, **{str(v): v for v in range(2, 10)}, "T": 0, "J": 0, "Q": 0, "K": 0}


def test_natural_only_on_two_cards_art_9() -> None:
    """Art. 9: a natural is a two-card 8 or 9; a three-card 8 is not."""
    assert tableau.is_natural([Card.parse("4S"), Card.parse("4D")])
    assert tableau.is_natural([Card.parse("9S"), Card.parse("KD")])
    assert not tableau.is_natural([Card.parse("4S"), Card.parse("2D"), Card.parse("2C")])
    assert not tableau.is_natural([Card.parse("4S"), Card.parse("3D")])


def test_winner_higher_total_and_tie_art_11_12() -> None:
    """Art. 11: the higher total wins; Art. 12: equal totals tie."""
    assert tableau.winner(7, 6) == "player"
    assert tableau.winner(0, 9) == "banker"
    assert tableau.winner(5, 5) == "tie"


def test_deal_order_player_banker_player_banker_art_7() -> None:
    """Art. 7: one card at a time, the player's side first: P, B, P, B."""
    table = table_for(["6S", "7D", "KS", "QD"])
    table.start_coup()
    cards = table.results[-1].cards
    assert [str(c) for c in cards.player] == ["6S", "KS"]
    assert [str(c) for c in cards.banker] == ["7D", "QD"]
    dealt = [(op.side, str(op.card)) for op in table.operations if isinstance(op, CardDealt)]
    assert dealt == [("player", "6S"), ("banker", "7D"), ("player", "KS"), ("banker", "QD")]


def test_player_third_card_before_banker_third_card_art_9() -> None:
    """Art. 9: each side takes at most one more card, the player first."""
    table = table_for(["AS", "2D", "KS", "QD", "4C", "5H"])
    table.start_coup()
    dealt = [(op.side, str(op.card)) for op in table.operations if isinstance(op, CardDealt)]
    assert dealt[4:] == [("player", "4C"), ("banker", "5H")]
