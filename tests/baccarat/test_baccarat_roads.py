"""The scoreboard roads against boards drawn by hand (the rule in the module docstring of roads.py).

Letters in the hand-drawn boards: R red, U blue ("blUe", so B stays banker).
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from croupier.baccarat.roads import RoadsInputError, build_roads, roads_document
from croupier.cli import app

COLOURS = {"R": "red", "U": "blue"}


def drawn(*columns: str) -> list[list[str]]:
    """A hand-drawn derived road: one string per column, R red, U blue."""
    return [[COLOURS[mark] for mark in column] for column in columns]


def winners(document: dict[str, object]) -> list[str]:
    """The big road as one string per column, e.g. ``["BB", "PPP"]``."""
    return ["".join(entry["winner"] for entry in column) for column in document["big_road"]]  # type: ignore[index, union-attr, attr-defined]


def test_worked_example_all_roads() -> None:
    """B B P P P B P P B B B: big road columns 2, 3, 1, 2, 3.

    Big eye boy (k=1) starts at column 2 row 2: c2r2 red (row 2 <= 2), c2r3 blue (3 = 2+1),
    c3r1 blue (3 != 2), c4r1 blue (1 != 3), c4r2 blue (2 = 1+1), c5r1 blue (2 != 1), c5r2 red, c5r3 blue.
    Small road (k=2) starts at column 4 row 1: c4r1 blue (1 != 2), c4r2 red (2 <= 3), c5r1 blue (2 != 3),
    c5r2 blue (2 = 1+1), c5r3 red (3 > 2). Cockroach pig (k=3) starts at column 4 row 2: c4r2 red,
    c5r1 red (2 = 2), c5r2 red, c5r3 red.
    """
    document = roads_document(build_roads("BBPPPBPPBBB"))
    assert winners(document) == ["BB", "PPP", "B", "PP", "BBB"]
    assert document["big_eye_boy"] == drawn("R", "UUUUU", "R", "U")
    assert document["small_road"] == drawn("U", "R", "UU", "R")
    assert document["cockroach_pig"] == drawn("RRRR")
    # a banker next would be c5r4: k=1 p=2 -> red; k=2 p=1 -> red; k=3 p=3 -> 4 = p+1 blue
    # a player next would be c6r1: 3 vs 2 blue; 3 vs 1 blue; 3 vs 3 red
    assert document["ask"] == {
        "B": {"big_eye_boy": "red", "small_road": "red", "cockroach_pig": "blue"},
        "P": {"big_eye_boy": "blue", "small_road": "blue", "cockroach_pig": "red"},
    }
    assert document["held_ties"] == 0
    assert document["bead_plate"] == [list("BBPPPB"), list("PPBBB")]


def test_leading_ties_are_counted_on_the_first_entry() -> None:
    document = roads_document(build_roads("T T B P T"))
    assert document["big_road"] == [
        [{"winner": "B", "ties": 2, "banker_pair": False, "player_pair": False}],
        [{"winner": "P", "ties": 1, "banker_pair": False, "player_pair": False}],
    ]
    assert document["held_ties"] == 0
    assert document["bead_plate"] == [["T", "T", "B", "P", "T"]]
    assert document["big_eye_boy"] == document["small_road"] == document["cockroach_pig"] == []
    # banker next: c3r1, columns 2 and 1 equal -> red; player next: c2r2, 2 = len(c1)+1 -> blue
    assert document["ask"]["B"] == {"big_eye_boy": "red", "small_road": None, "cockroach_pig": None}
    assert document["ask"]["P"] == {"big_eye_boy": "blue", "small_road": None, "cockroach_pig": None}


def test_only_ties_are_held() -> None:
    document = roads_document(build_roads("TTT"))
    assert document["big_road"] == [] and document["held_ties"] == 3
    assert document["ask"] == {
        "B": {"big_eye_boy": None, "small_road": None, "cockroach_pig": None},
        "P": {"big_eye_boy": None, "small_road": None, "cockroach_pig": None},
    }


def test_long_streak_stays_in_one_logical_column() -> None:
    """Eight bankers: one big-road column of eight (no dragon tail); the bead plate wraps at six."""
    document = roads_document(build_roads("BBBBBBBBP"))
    assert winners(document) == ["BBBBBBBB", "P"]
    assert document["bead_plate"] == [list("BBBBBB"), list("BBP")]
    assert document["big_eye_boy"] == []
    assert document["ask"]["B"]["big_eye_boy"] == "blue"  # c3r1: 1 vs 8
    assert document["ask"]["P"]["big_eye_boy"] == "red"  # c2r2: 2 <= 8


def test_first_entries_of_each_derived_road() -> None:
    """Each road's first mark: big eye boy at c2r2, small road at c3r2, cockroach pig at c4r2."""
    assert roads_document(build_roads("BP"))["big_eye_boy"] == []
    assert roads_document(build_roads("BPP"))["big_eye_boy"] == drawn("U")  # c2r2: 2 = 1+1
    assert roads_document(build_roads("BBPP"))["big_eye_boy"] == drawn("R")  # c2r2: 2 <= 2
    assert roads_document(build_roads("BPB"))["big_eye_boy"] == drawn("R")  # c3r1: 1 = 1
    small = roads_document(build_roads("BPBB"))
    assert small["small_road"] == drawn("U") and small["cockroach_pig"] == []  # c3r2: 2 = 1+1
    assert roads_document(build_roads("BPBP"))["small_road"] == drawn("R")  # c4r1: 1 = 1 (c3, c1)
    assert roads_document(build_roads("BBPBP"))["small_road"] == drawn("U")  # c4r1: 1 != 2 (c3, c1)
    pig = roads_document(build_roads("BPBPP"))
    assert pig["cockroach_pig"] == drawn("U")  # c4r2: 2 = len(c1)+1
    assert roads_document(build_roads("BPBPB"))["cockroach_pig"] == drawn("R")  # c5r1: c4 = c1
    assert roads_document(build_roads("BPBP"))["cockroach_pig"] == []


def test_ties_and_pairs_on_the_big_road() -> None:
    """Pair marks are the entry's own coup's and those of the ties counted on it."""
    document = roads_document(build_roads("Bb Tp P Ppb TT"))
    assert document["big_road"] == [
        [{"winner": "B", "ties": 1, "banker_pair": True, "player_pair": True}],
        [
            {"winner": "P", "ties": 0, "banker_pair": False, "player_pair": False},
            {"winner": "P", "ties": 2, "banker_pair": True, "player_pair": True},
        ],
    ]
    assert document["bead_plate"] == [["B", "T", "P", "P", "T", "T"]]


def test_held_tie_pairs_go_to_the_first_entry() -> None:
    document = roads_document(build_roads("TbP"))
    assert document["big_road"] == [[{"winner": "P", "ties": 1, "banker_pair": True, "player_pair": False}]]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("BX", "roads: unexpected character 'X' at position 2"),
        ("bB", "roads: unexpected character 'b' at position 1"),
        ("Bbb", "roads: pair mark 'b' repeated at position 3"),
        ("Bt", "roads: unexpected character 't' at position 2"),
    ],
)
def test_bad_character_is_one_line_error(text: str, message: str) -> None:
    with pytest.raises(RoadsInputError) as caught:
        build_roads(text)
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)
    result = CliRunner().invoke(app, ["roads"], input=text)
    assert result.exit_code == 2 and result.stdout == "" and result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1


def test_cli_roads_json_and_drawing() -> None:
    as_json = CliRunner().invoke(app, ["roads", "--json"], input="B P\nP T\n")
    assert as_json.exit_code == 0
    document = json.loads(as_json.stdout)
    assert set(document) == {
        "bead_plate", "big_road", "held_ties", "big_eye_boy", "small_road", "cockroach_pig", "ask",
    }  # fmt: skip
    drawing = CliRunner().invoke(app, ["roads"], input="BBPPPBPPBBB")
    assert drawing.exit_code == 0
    for title in ("Bead plate", "Big road", "Big eye boy", "Small road", "Cockroach pig", "Ask"):
        assert title in drawing.stdout
