"""Bad input to ``croupier replay`` (docs/transcript.md "Errors").

Each case is a blackjack transcript with exactly one problem. The CLI must exit with status 2, print
exactly one line on stderr naming the round, the action and the rule (with its article), print
nothing on stdout and never a traceback. Each case also carries its repaired twin, which must replay
cleanly: that proves the named problem is the only one.

Deal orders, traced from docs/rules.md §3: ``macau-1983`` burns 6 (``decks``) at the shoe's start, deals
a first card to each box, a second to each box, then the dealer's up-card (with an ace up, the hole
card face down at once); the dealer's second card otherwise comes after play, after 1 burn.
``live-online`` burns 6, then box, dealer up, box, dealer hole.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.blackjack import actions as op
from croupier.blackjack import autoplay
from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.state import Table
from croupier.cards import parse_cards
from croupier.cli import app
from croupier.errors import CroupierError, IllegalActionError
from croupier.money import format_amount, half, parse_amount
from croupier.shoe import Shoe

BURNS = ["2C", "3C", "4C", "5C", "6C", "7C"]
"""The six shoe-start burns of both presets (macau-1983: ``decks`` = 6; live-online: 6)."""


def doc(
    preset: str,
    cards: str,
    actions: list[dict[str, Any]] | None = None,
    bets: list[tuple[str, int, Any]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A one-round transcript whose shoe is the six burns followed by ``cards``."""
    round_: dict[str, Any] = {
        "bets": [{"player": p, "box": b, "amount": a} for p, b, a in (bets or [("ana", 1, 100)])],
        "actions": actions or [],
    }
    result: dict[str, Any] = {"game": "blackjack", "rules": preset, "shoe": BURNS + cards.split(), "rounds": [round_]}
    result.update(extra)
    return result


def act(kind: str, box: int = 1, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "box": box, **fields}


@dataclass
class Result:
    code: int
    stdout: str
    stderr: str


def replay(document: dict[str, Any] | str, *options: str) -> Result:
    text = document if isinstance(document, str) else json.dumps(document)
    outcome = CliRunner().invoke(app, ["replay", "-", *options], input=text)
    return Result(outcome.exit_code, outcome.stdout, outcome.stderr)


def assert_one_line_error(result: Result, *fragments: str) -> str:
    """Exit 2, nothing on stdout, exactly one line on stderr holding every fragment."""
    assert result.code == 2, (result.code, result.stdout, result.stderr)
    assert result.stdout == ""
    assert result.stderr.endswith("\n") and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr
    line = result.stderr.strip()
    for fragment in fragments:
        assert fragment in line, f"{fragment!r} not in {line!r}"
    return line


def assert_replays(document: dict[str, Any] | str) -> dict[str, Any]:
    result = replay(document, "--json")
    assert result.code == 0, result.stderr
    assert result.stderr == ""
    parsed: dict[str, Any] = json.loads(result.stdout)
    return parsed


@dataclass
class Case:
    """A transcript with one problem, its repaired twin, and what the error line must name."""

    bad: dict[str, Any] | str
    good: dict[str, Any] | str
    names: tuple[str, ...]
    marks: list[Any] = field(default_factory=list)


def _without(document: dict[str, Any], index: int) -> dict[str, Any]:
    """``document`` with action ``index`` (0-based) of round 1 removed."""
    fixed = copy.deepcopy(document)
    del fixed["rounds"][0]["actions"][index]
    return fixed


def _with(document: dict[str, Any], **changes: Any) -> dict[str, Any]:
    fixed = copy.deepcopy(document)
    fixed.update(changes)
    return fixed


PLAIN = doc("macau-1983", "TH 9D 7S 2D TS", [act("stand")])
"""ana 19 against the dealer's 7S, burn 2D, TS: 17. Replays cleanly."""

MALFORMED = json.dumps(PLAIN)[:-7]

SEVEN_ACES = doc("macau-1983", "TH 9D 7S 2D AS", [act("stand")])
SEVEN_ACES["shoe"][:6] = ["AS"] * 6  # six burns of AS, and a seventh AS as the dealer's second card

DOUBLE_ON_10 = doc("macau-1983", "6H 4D 7S 9C 2D TS", [act("double"), act("stand")])
"""Box 1 holds 6-4 = 10 against a 7; macau-1983 doubles only on 11 (Art. 11)."""

SURRENDER_AGAINST_ACE = doc("macau-1983", "TH 6D AS KH", [act("surrender"), act("stand")])
"""16 against an ace (hole card KH dealt face down at once, Art. 3.1a); Art. 12 forbids surrender."""

INSURANCE_ABOVE_HALF = doc("macau-1983", "TH 6D AS KH", [act("insurance", player="ana", amount="50.01"), act("stand")])

HIT_ON_21 = doc("macau-1983", "5H 6D 9S TD 2D 8C", [act("hit"), act("hit")])
"""5-6 hits TD: 21, stood by the engine (online §4.4); a second hit asks a card on 21."""

HIT_ON_21_TWO_BOXES = doc(
    "macau-1983",
    "5H TC 6D 9C 9S TD 2D 8C",
    [act("hit", 1), act("hit", 1), act("stand", 2)],
    bets=[("ana", 1, 100), ("bo", 2, 100)],
)
"""Box 1: 5H 6D hits TD (21); box 2: TC 9C stands; dealer 9S, burn 2D, 8C: 17."""

SECOND_SPLIT_LIVE = doc("live-online", "8H TC 8D 7S 8C 9D", [act("split"), act("split"), act("stand"), act("stand")])
"""8-8 against TC (hole 7S) splits; hand 0 takes 8C at once (Art. 12 note) and may not split again (§2.7)."""

NOT_ENTITLED = doc(
    "macau-1983",
    "TH 9D 7S 2D TS",
    [act("stand", player="ana")],
    bets=[("ana", 1, 100), ("bo", 1, 200)],
)
"""bo's 200 behind ana's 100: the highest bet decides (Art. 13), so ana may not stand."""

BET_BEHIND_LIVE = doc("live-online", "TH 7S 9D TS", [act("stand")], bets=[("ana", 1, 100), ("bo", 1, 50)])

ENDS_WAITING = doc("macau-1983", "TH 9D 7S 2D TS", [])

AFTER_LAST_ROUND = doc("macau-1983", "TH 9D 7S 2D TS 9H 8H 6S 2H TD", [act("stand")], cut_card=6)
AFTER_LAST_ROUND["rounds"].append({"bets": [{"player": "ana", "box": 1, "amount": 100}], "actions": [act("stand")]})
"""The cut card lies above the first card after the burns: round 1 is the shoe's last (Art. 2.2)."""

CASES: dict[str, Case] = {
    "malformed JSON": Case(MALFORMED, json.dumps(PLAIN), ("transcript", "not valid JSON")),
    "unknown card": Case(
        _with(PLAIN, shoe=[*BURNS, "TH", "9D", "1X", "2D", "TS"]), PLAIN, ("transcript", "card 9", "'1X'")
    ),
    "unknown preset": Case(
        _with(PLAIN, rules="macau-1984"), PLAIN, ("unknown blackjack preset 'macau-1984'", "macau-1983, live-online")
    ),
    "unknown parameter": Case(
        _with(PLAIN, overrides={"decks_in_shoe": 6}),
        _with(PLAIN, overrides={"decks": 6}),
        ("unknown blackjack rule parameter 'decks_in_shoe'", "decks"),
    ),
    "bad parameter value": Case(
        _with(PLAIN, overrides={"double_on": "12"}),
        _with(PLAIN, overrides={"double_on": "11"}),
        ("double_on", "Art. 11", "'12'", "any_two, 9_11, 10_11, 11"),
    ),
    "bad ratio value": Case(
        _with(PLAIN, overrides={"blackjack_pays": "3-2"}),
        _with(PLAIN, overrides={"blackjack_pays": "6:5"}),
        ("blackjack_pays", "Art. 6", "3:2"),
    ),
    "too many copies of a card": Case(
        SEVEN_ACES, _with(SEVEN_ACES, shoe=[*["AS"] * 6, "TH", "9D", "7S", "2D", "AH"]), ("AS", "6 deck")
    ),
    "shoe too short": Case(
        _with(PLAIN, shoe=[*BURNS, "TH", "9D", "7S"]), PLAIN, ("round 1", "action 1", "stand", "no card left")
    ),
    "double on 10 under macau-1983": Case(
        DOUBLE_ON_10, _without(DOUBLE_ON_10, 0), ("round 1", "action 1", "double", "box 1", "Art. 11", "10")
    ),
    "surrender against an ace": Case(
        SURRENDER_AGAINST_ACE,
        _without(SURRENDER_AGAINST_ACE, 0),
        ("round 1", "action 1", "surrender", "box 1", "Art. 12", "AS"),
    ),
    "insurance above half the bet": Case(
        INSURANCE_ABOVE_HALF,
        _with(
            INSURANCE_ABOVE_HALF,
            rounds=[
                {
                    **INSURANCE_ABOVE_HALF["rounds"][0],
                    "actions": [act("insurance", player="ana", amount=50), act("stand")],
                }
            ],
        ),
        ("round 1", "action 1", "insurance", "box 1", "Art. 8", "50.01", "at most 50"),
    ),
    "a hit on 21, two boxes": Case(
        HIT_ON_21_TWO_BOXES,
        _without(HIT_ON_21_TWO_BOXES, 1),
        ("round 1", "action 2", "hit", "box 1", "21", "§4.4"),
    ),
    "a second split under live-online": Case(
        SECOND_SPLIT_LIVE,
        _without(SECOND_SPLIT_LIVE, 1),
        ("round 1", "action 2", "split", "box 1", "§2.7", "max_split_hands=2"),
    ),
    "a decision by a bettor who is not entitled": Case(
        NOT_ENTITLED,
        _with(NOT_ENTITLED, rounds=[{**NOT_ENTITLED["rounds"][0], "actions": [act("stand", player="bo")]}]),
        ("round 1", "action 1", "stand", "box 1", "Art. 13", "bo", "ana"),
    ),
    "a bet behind under live-online": Case(
        BET_BEHIND_LIVE,
        _with(
            BET_BEHIND_LIVE, rounds=[{**BET_BEHIND_LIVE["rounds"][0], "bets": BET_BEHIND_LIVE["rounds"][0]["bets"][:1]}]
        ),
        ("round 1", "bet 2", "bo", "box 1", "§4.5", "bet_behind=false"),
    ),
    "a transcript that ends while a hand waits": Case(ENDS_WAITING, PLAIN, ("round 1", "ends", "box 1", "ana")),
    "a round after the shoe's last round": Case(
        AFTER_LAST_ROUND,
        _with(AFTER_LAST_ROUND, rounds=AFTER_LAST_ROUND["rounds"][:1]),
        ("round 2", "cut card", "round 1", "Art. 2.2"),
    ),
    # more of the same contract
    "even money under live-online": Case(
        doc("live-online", "AH AS KD 9C", [act("even_money", player="ana")]),
        doc("live-online", "AH AS KD 9C", [act("insurance", player="ana", amount=50)]),
        ("round 1", "action 1", "even_money", "box 1", "even_money=false"),
    ),
    "double for less under macau-1983": Case(
        doc("macau-1983", "6H 5D 7S 9C 2D TS", [act("double", amount=50)]),
        doc("macau-1983", "6H 5D 7S 9C 2D TS", [act("double", amount=100)]),
        ("round 1", "action 1", "double", "Art. 11", "double_for_less=false"),
    ),
    "split of unequal values": Case(
        doc("macau-1983", "TH 9D 7S 2D TS", [act("split"), act("stand")]),
        PLAIN,
        ("round 1", "action 1", "split", "Art. 10", "TH 9D"),
    ),
    "surrender after a hit": Case(
        doc("macau-1983", "5H 6D 7S 2C 2D TS", [act("hit"), act("surrender"), act("stand")]),
        doc("macau-1983", "5H 6D 7S 2C 2D TS", [act("hit"), act("stand")]),
        ("round 1", "action 2", "surrender", "Art. 12"),
    ),
    "a box out of turn": Case(
        doc(
            "macau-1983",
            "TH TC 9D 9C 7S 2D TS",
            [act("stand", 2), act("stand", 1)],
            bets=[("ana", 1, 100), ("bo", 2, 100)],
        ),
        doc(
            "macau-1983",
            "TH TC 9D 9C 7S 2D TS",
            [act("stand", 1), act("stand", 2)],
            bets=[("ana", 1, 100), ("bo", 2, 100)],
        ),
        ("round 1", "action 1", "stand", "box 2", "Art. 3.2c"),
    ),
    "a bet on a box the table does not have": Case(
        doc("macau-1983", "TH 9D 7S 2D TS", [act("stand", 8)], bets=[("ana", 8, 100)]),
        PLAIN,
        ("round 1", "bet 1", "box 8", "Art. 2.3"),
    ),
    "a bet that is not a number": Case(
        doc("macau-1983", "TH 9D 7S 2D TS", [act("stand")], bets=[("ana", 1, "lots")]),
        PLAIN,
        ("round 1", "bet 1", "ana", "'lots'"),
    ),
    "an unknown action type": Case(
        doc("macau-1983", "TH 9D 7S 2D TS", [act("double_down")]), PLAIN, ("round 1", "action 1", "double_down")
    ),
    "an unknown game": Case(_with(PLAIN, game="poker"), PLAIN, ("unknown game 'poker'", "blackjack")),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_is_one_line_on_stderr_with_exit_2(name: str) -> None:
    case = CASES[name]
    assert_one_line_error(replay(case.bad), *case.names)
    assert_one_line_error(replay(case.bad, "--json"), *case.names)
    assert_replays(case.good)  # the repaired twin: the named problem was the only one


def test_a_hit_on_21_names_the_rule_when_the_round_is_already_over() -> None:
    """One box: the engine stands the 21 and plays the dealer at once, so the round is over when the
    hit arrives. The line must still say why: a hand with 21 takes no more cards (online §4.4)."""
    assert_replays(_without(HIT_ON_21, 1))
    assert_one_line_error(replay(HIT_ON_21), "round 1", "action 2", "hit", "box 1", "21", "§4.4")


def test_an_illegal_decision_while_insurance_is_offered_names_its_own_rule() -> None:
    bad = doc("live-online", "TH AS 6D KH", [act("surrender")])
    assert_replays(doc("live-online", "TH AS 6D KH", []))
    assert_one_line_error(replay(bad), "round 1", "action 1", "surrender", "surrender=none")


def test_the_error_contract_holds_for_the_installed_command(tmp_path: Path) -> None:
    """The console script (``croupier.cli:main``): same line, exit 2, no traceback; a missing file too."""
    script = Path(sys.executable).with_name("croupier")
    source = tmp_path / "double.json"
    source.write_text(json.dumps(DOUBLE_ON_10), encoding="utf-8")
    done = subprocess.run([str(script), "replay", str(source)], capture_output=True, text=True, timeout=60)
    assert_one_line_error(Result(done.returncode, done.stdout, done.stderr), "round 1", "action 1", "Art. 11")
    missing = subprocess.run(
        [str(script), "replay", str(tmp_path / "nowhere.json")], capture_output=True, text=True, timeout=60
    )
    assert_one_line_error(Result(missing.returncode, missing.stdout, missing.stderr), "nowhere.json")


def test_a_bet_of_absurd_precision_is_refused_at_once() -> None:
    """An amount finer than any table unit is refused rather than carried (and never hangs)."""
    for amount in ("1e-100000", "0.000000001"):
        bad = doc("macau-1983", "AH KD 9S 2D 8S", [], bets=[("ana", 1, amount)])
        assert_one_line_error(replay(bad), "round 1", "bet 1", "ana")


def test_an_amount_above_the_stated_digit_limit_is_refused() -> None:
    bad = doc("macau-1983", "TH 9D 7S 2D TS", [act("stand")], bets=[("ana", 1, "1234567890123456")])
    assert_one_line_error(replay(bad), "round 1", "bet 1", "15 digits")


# ---------------------------------------------------------------------------------------------------
# the engine's own faces (no CLI): refusals that must not change the round


def _dealt(preset: str, cards: str, bets: list[tuple[str, int, Any]], **overrides: Any) -> Any:
    rules = blackjack_rules(preset, overrides)
    table = Table(rules, Shoe.stacked(rules.decks, parse_cards(BURNS[: rules.shoe_start_burns] + cards.split())))
    current = table.new_round()
    for player, box, amount in bets:
        current.bet(player, box, amount)
    current.deal()
    return current


def test_a_refused_decision_leaves_the_insurance_offer_open() -> None:
    current = _dealt("macau-1983", "TH 6D AS KH", [("ana", 1, 100)])
    assert isinstance(current.pending, op.AwaitInsurance)
    for decide in (current.surrender, current.hit, current.stand, current.double):
        with pytest.raises(IllegalActionError):
            decide(1)
        assert isinstance(current.pending, op.AwaitInsurance)
    assert current.can_insure("ana", 1, 50)
    assert not any(isinstance(o, op.InsuranceClosed | op.Decision) for o in current.operations)


def test_do_face_agrees_with_verify_face_while_insurance_is_offered() -> None:
    current = _dealt("macau-1983", "TH 6D AS KH 2D 3D", [("ana", 1, 100)])
    assert not current.can_stand(1)
    with pytest.raises(IllegalActionError):
        current.verify_stand(1)
    with pytest.raises(IllegalActionError):
        current.stand(1)


def test_offered_double_for_less_minimum_is_accepted() -> None:
    """Art. 13: a double for less adds the same fraction of every bettor's stake."""
    current = _dealt("macau-1983", "6H 5D 7S 9C 2D TS", [("ana", 1, 7), ("bo", 1, 1)], double_for_less=True)
    (double,) = [action for action in current.legal_actions() if action.kind == "double"]
    assert double.min_amount is not None
    current.verify_double(1, 0, "ana", double.min_amount)


def test_a_replayed_void_round_is_still_the_shoes_last() -> None:
    rules = blackjack_rules("live-online")
    cards = parse_cards([*BURNS, *"TH 9S 7D 8S TD 9D 8D 7S TS 9H 6D 8H KS QS".split()])
    table = Table(rules, Shoe.stacked(8, cards, cut_card=7))
    voided = table.new_round()
    voided.bet("ana", 1, 100)
    voided.deal()
    assert voided.last_round  # the cut card (position 7) came out in the deal
    voided.void("misdeal (Art. 2.1)")
    fresh = table.replay_voided(voided)
    fresh.deal()
    fresh.stand(1)
    assert fresh.ended
    assert fresh.last_round and table.shoe_finished


def test_new_shoe_checks_the_deck_count() -> None:
    rules = blackjack_rules("macau-1983")
    table = Table(rules, Shoe.stacked(6, parse_cards(BURNS)))
    with pytest.raises(CroupierError, match="deck"):
        table.new_shoe(Shoe.stacked(1, parse_cards(BURNS)))


def test_every_offered_action_can_be_taken_when_the_shoe_runs_dry() -> None:
    """A stacked shoe that runs out mid-round offers what can be done: void the round (Art. 2.1)."""
    current = _dealt("macau-1983", "TH 9D 7S", [("ana", 1, 100)])
    current.stand(1)  # the dealer needs the burn and a second card; the shoe has none
    assert isinstance(current.pending, op.AwaitCard) and not current.shoe.is_live
    offered = current.legal_actions()
    assert [action.kind for action in offered] == ["void"]
    autoplay.perform(current, offered[0])
    assert current.voided and current.payments == [] and current.legal_actions() == ()


@pytest.mark.parametrize(
    ("bet", "asked", "limit"),
    [
        ("1.1", "0.6", "0.55"),
        ("0.00000003", "0.00000002", "0.000000015"),  # binary floating point prints 1.5e-08, Decimal 1.5E-8
        ("999999999999999.99999999", "500000000000000", "499999999999999.999999995"),  # a float holds 5e14
    ],
)
def test_amounts_in_refusals_are_exact(bet: str, asked: str, limit: str) -> None:
    """The insurance limit in the message is the bet's exact half, as the transcript wrote the bet: no binary
    floating point, no exponent, no digit lost (docs/transcript.md)."""
    bad = doc("macau-1983", "TH 6D AS KH", [act("insurance", player="ana", amount=asked)], bets=[("ana", 1, bet)])
    line = assert_one_line_error(replay(bad), "round 1", "action 1", "Art. 8")
    assert line.endswith(f"ana's bet on box 1 is {bet}, so at most {limit}; asked {asked}"), line


def test_amounts_are_read_and_written_exactly() -> None:
    """The project's money code: a float is refused, decimal text is read as written, a half is exact and is
    printed without an exponent."""
    with pytest.raises(CroupierError, match="exact decimal"):
        parse_amount(1.1)
    assert parse_amount("1.1") == Decimal("1.1") and parse_amount(" 1E+2 ") == 100
    assert format_amount(half(parse_amount("0.00000003"))) == "0.000000015"
    assert format_amount(half(parse_amount("999999999999999.99999999"))) == "499999999999999.999999995"
    assert format_amount(parse_amount("-50.00")) == "-50" and format_amount(parse_amount("0.000")) == "0"


def test_insurance_is_offered_whenever_some_insurance_is_legal() -> None:
    current = _dealt("macau-1983", "TH 6D AS KH", [("ana", 1, "0.00000003")])
    assert current.can_insure("ana", 1, "0.00000001")
    (offer,) = [action for action in current.legal_actions() if action.kind == "insurance"]
    assert offer.max_amount is not None
    current.verify_insurance("ana", 1, offer.max_amount)


def test_deeply_nested_json_is_one_line_with_exit_2() -> None:
    nested = "[" * 100_000 + "]" * 100_000
    assert_one_line_error(replay(nested), "transcript")
    assert_one_line_error(replay('{"game": "blackjack", "rules": ' + nested + "}"), "transcript")


def test_insurance_against_a_non_ace_names_art_8() -> None:
    bad = doc("macau-1983", "TH 9D 7S 2D TS", [act("insurance", player="ana", amount=50), act("stand")])
    assert_replays(_without(bad, 0))
    assert_one_line_error(replay(bad), "round 1", "action 1", "insurance", "Art. 8")
