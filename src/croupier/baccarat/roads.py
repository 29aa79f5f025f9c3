"""The scoreboards of a baccarat table: bead plate, big road, the three derived roads, and "ask".

Results are read as ``B``, ``P``, ``T`` (banker, player, tie), each optionally followed by ``b``
(banker pair) and/or ``p`` (player pair); whitespace is ignored.

* **Bead plate**: every result in order, six to a column.
* **Big road**: one entry per banker or player result, in logical columns: a new column at every
  change of winner, a streak stays in its column however long (no display wrapping). Ties make no
  entry: they are counted on the previous entry; ties before the first entry are held
  (``held_ties``) and counted on it when it comes. An entry's pair marks are those of its own coup
  and of the ties counted on it.
* **Derived roads** (big eye boy k = 1, small road k = 2, cockroach pig k = 3): for a new big-road
  entry at logical column n (1-based), row m: if m = 1, red when columns n−1 and n−1−k have equal
  length, else blue; if m ≥ 2, with p the length of column n−k, red when m ≤ p or m > p+1, blue when
  m = p+1. The road starts at column k+1 row 2, or else column k+2 row 1. Marks stand in logical
  columns, a new column at every change of colour.
* **Ask**: the mark a next banker (``B``) or player (``P``) result would add to each derived road,
  or ``None`` where it would add none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from croupier.errors import CroupierError

Letter = Literal["B", "P", "T"]
Colour = Literal["red", "blue"]

BEAD_PLATE_ROWS = 6
DERIVED_ROADS: tuple[tuple[str, int], ...] = (("big_eye_boy", 1), ("small_road", 2), ("cockroach_pig", 3))
"""Each derived road's name and the k of its rule."""


class RoadsInputError(CroupierError):
    """A results string holds something other than B, P, T and pair marks b, p."""


@dataclass(frozen=True, slots=True)
class Coup:
    """One result as the scoreboard sees it."""

    winner: Letter
    banker_pair: bool = False
    player_pair: bool = False


@dataclass(frozen=True, slots=True)
class BigRoadEntry:
    """A banker or player result on the big road, with the ties counted on it and its pair marks."""

    winner: Literal["B", "P"]
    ties: int = 0
    banker_pair: bool = False
    player_pair: bool = False


@dataclass(frozen=True)
class Scoreboard:
    """The five roads of a sequence of results, and the ask preview."""

    coups: tuple[Coup, ...]
    bead_plate: tuple[tuple[Letter, ...], ...]
    big_road: tuple[tuple[BigRoadEntry, ...], ...]
    held_ties: int
    derived: Mapping[str, tuple[tuple[Colour, ...], ...]]
    """Each derived road by name (``big_eye_boy``, ``small_road``, ``cockroach_pig``), in logical columns."""
    ask: Mapping[str, Mapping[str, Colour | None]]
    """For ``B`` and ``P``: the mark a next such result would add to each derived road, or ``None``."""


# --------------------------------------------------------------------------------------------------
# reading


def parse_results(text: str) -> list[Coup]:
    """Read ``B``/``P``/``T`` with optional ``b``/``p`` pair marks; whitespace ignored."""
    coups: list[Coup] = []
    for position, char in enumerate(text, start=1):
        if char.isspace():
            continue
        if char in "BPT":
            coups.append(Coup(char))  # type: ignore[arg-type]
            continue
        if char in "bp" and coups:
            last = coups[-1]
            already = last.banker_pair if char == "b" else last.player_pair
            if not already:
                coups[-1] = Coup(last.winner, last.banker_pair or char == "b", last.player_pair or char == "p")
                continue
            raise RoadsInputError(f"roads: pair mark {char!r} repeated at position {position}")
        raise RoadsInputError(
            f"roads: unexpected character {char!r} at position {position}; results are B, P or T, each optionally "
            "followed by b (banker pair) and/or p (player pair)"
        )
    return coups


# --------------------------------------------------------------------------------------------------
# building


def build_roads(text: str) -> Scoreboard:
    """The scoreboard of a results string (see the module docstring); a bad character raises."""
    return scoreboard(parse_results(text))


def scoreboard(coups: list[Coup]) -> Scoreboard:
    """The scoreboard of a sequence of results."""
    bead_plate = tuple(
        tuple(coup.winner for coup in coups[start : start + BEAD_PLATE_ROWS])
        for start in range(0, len(coups), BEAD_PLATE_ROWS)
    )
    big_road, held_ties = _big_road(coups)
    lengths = [len(column) for column in big_road]
    derived = {name: _derived_road(lengths, k) for name, k in DERIVED_ROADS}
    ask: dict[str, dict[str, Colour | None]] = {}
    for letter in ("B", "P"):
        after = _lengths_after(big_road, letter)
        ask[letter] = {name: derived_mark(after, k) if after else None for name, k in DERIVED_ROADS}
    return Scoreboard(tuple(coups), bead_plate, big_road, held_ties, derived, ask)


def _big_road(coups: list[Coup]) -> tuple[tuple[tuple[BigRoadEntry, ...], ...], int]:
    columns: list[list[BigRoadEntry]] = []
    held = Coup("T")
    held_ties = 0
    for coup in coups:
        if coup.winner == "T":
            if columns:
                last = columns[-1][-1]
                columns[-1][-1] = BigRoadEntry(
                    last.winner,
                    last.ties + 1,
                    last.banker_pair or coup.banker_pair,
                    last.player_pair or coup.player_pair,
                )
            else:
                held_ties += 1
                held = Coup("T", held.banker_pair or coup.banker_pair, held.player_pair or coup.player_pair)
            continue
        entry = BigRoadEntry(
            coup.winner,
            held_ties,
            coup.banker_pair or held.banker_pair,
            coup.player_pair or held.player_pair,
        )
        held, held_ties = Coup("T"), 0
        if columns and columns[-1][-1].winner == coup.winner:
            columns[-1].append(entry)
        else:
            columns.append([entry])
    return tuple(tuple(column) for column in columns), held_ties


def derived_mark(lengths: list[int], k: int) -> Colour | None:
    """The mark of derived road ``k`` for the big road's newest entry: the last row of the last column.

    ``lengths`` are the big road's logical column lengths, the newest entry included.
    """
    n, m = len(lengths), lengths[-1]
    if n < k + 1 or (n == k + 1 and m < 2):
        return None  # the road starts at column k+1 row 2, or else column k+2 row 1
    if m == 1:
        return "red" if lengths[n - 2] == lengths[n - 2 - k] else "blue"
    p = lengths[n - 1 - k]
    return "blue" if m == p + 1 else "red"


def _derived_road(lengths: list[int], k: int) -> tuple[tuple[Colour, ...], ...]:
    marks: list[Colour] = []
    growing: list[int] = []
    for length in lengths:
        growing.append(0)
        for _ in range(length):
            growing[-1] += 1
            mark = derived_mark(growing, k)
            if mark is not None:
                marks.append(mark)
    return _columns_by_change(marks)


def _columns_by_change(marks: list[Colour]) -> tuple[tuple[Colour, ...], ...]:
    columns: list[list[Colour]] = []
    for mark in marks:
        if columns and columns[-1][-1] == mark:
            columns[-1].append(mark)
        else:
            columns.append([mark])
    return tuple(tuple(column) for column in columns)


def _lengths_after(big_road: tuple[tuple[BigRoadEntry, ...], ...], letter: str) -> list[int]:
    """Column lengths if the next result were ``letter``; empty when the big road is empty."""
    if not big_road:
        return []
    lengths = [len(column) for column in big_road]
    if big_road[-1][-1].winner == letter:
        lengths[-1] += 1
    else:
        lengths.append(1)
    return lengths


# --------------------------------------------------------------------------------------------------
# output


def roads_document(board: Scoreboard) -> dict[str, Any]:
    """The ``croupier roads --json`` document."""
    document: dict[str, Any] = {
        "bead_plate": [list(column) for column in board.bead_plate],
        "big_road": [
            [
                {
                    "winner": entry.winner,
                    "ties": entry.ties,
                    "banker_pair": entry.banker_pair,
                    "player_pair": entry.player_pair,
                }
                for entry in column
            ]
            for column in board.big_road
        ],
        "held_ties": board.held_ties,
    }
    for name, _ in DERIVED_ROADS:
        document[name] = [list(column) for column in board.derived[name]]
    document["ask"] = {letter: dict(marks) for letter, marks in board.ask.items()}
    return document
