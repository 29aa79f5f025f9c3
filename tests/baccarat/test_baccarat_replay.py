"""The replay's result document and readable account (docs/transcript.md, "Output")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.baccarat.replay import render_baccarat
from croupier.cli import app
from croupier.errors import TranscriptError

from .helpers import baccarat_doc, replay_doc

STAND = ["6S", "7D", "KS", "QD"]  # player 6, banker 7: both stand
TIE = ["7S", "7D", "KS", "QD"]


def _bet(player: str, on: str, amount: Any) -> dict[str, Any]:
    return {"player": player, "on": on, "amount": amount}


def test_round_document_fields() -> None:
    doc = baccarat_doc(["3D", "4C", "5C", "6C", *STAND], [{"bets": [_bet("ana", "banker", 100)]}])
    result = replay_doc(doc)
    assert result["rounds"] == [
        {
            "demo": False,
            "player": {"cards": ["6S", "KS"], "total": 6},
            "banker": {"cards": ["7D", "QD"], "total": 7},
            "winner": "banker",
            "player_pair": False,
            "banker_pair": False,
            "natural": False,
            "bets": [{"player": "ana", "on": "banker", "stake": "100", "outcome": "win", "net": "95"}],
            "net": {"ana": "95"},
            "burned": ["3D", "4C", "5C", "6C"],
            "cut_card_out": False,
            "last_round": False,
        }
    ]
    assert result["net"] == {"ana": "95"}
    assert result["rules"] == "macau" and result["parameters"]["commission"] == "5pct"


def test_demo_round_has_cards_winner_and_empty_net_art_2_2() -> None:
    doc = baccarat_doc(["AH", "2H", *TIE, *STAND], [{"demo": True}, {"bets": [_bet("ana", "player", 10)]}])
    first, second = replay_doc(doc)["rounds"]
    assert first["demo"] is True and first["net"] == {} and first["winner"] == "tie"
    assert first["burned"] == ["AH", "2H"] and second["burned"] == []
    assert second["net"] == {"ana": "-10"}


def test_net_names_every_bettor_zero_included_and_adds_up() -> None:
    doc = baccarat_doc(
        ["AH", "2H", *TIE, *STAND],
        [
            {"bets": [_bet("ana", "player", 100), _bet("bo", "tie", 10)]},
            {"bets": [_bet("ana", "banker", 20), _bet("ana", "banker", "20.00"), _bet("cy", "player", "12.5")]},
        ],
    )
    result = replay_doc(doc)
    assert result["rounds"][0]["net"] == {"ana": "0", "bo": "80"}
    assert result["rounds"][1]["net"] == {"ana": "38", "cy": "-12.5"}
    assert result["rounds"][1]["bets"][0]["stake"] == "40"  # two bets on one spot add up
    assert result["net"] == {"ana": "38", "bo": "80", "cy": "-12.5"}


def test_last_round_and_cut_card_out_art_3_1() -> None:
    doc = baccarat_doc(["AH", "2H", *STAND, *STAND, *STAND], [{}, {}], cut_card=4)
    rounds = replay_doc(doc)["rounds"]
    assert [r["cut_card_out"] for r in rounds] == [True, False]
    assert [r["last_round"] for r in rounds] == [False, True]


def test_burn_each_coup_in_round_burned_art_8() -> None:
    doc = baccarat_doc(["AH", "2H", *STAND, "9C", *STAND], [{}, {}], overrides={"burn_each_coup": 1})
    assert [r["burned"] for r in replay_doc(doc)["rounds"]] == [["AH", "2H"], ["9C"]]


def test_misdeal_after_cards_voids_and_redeals_art_10() -> None:
    doc = baccarat_doc(
        ["AH", "2H", "4S", "4D", "4C", *STAND],
        [{"bets": [_bet("ana", "banker", 100)], "misdeal_after_cards": 3}],
    )
    (coup,) = replay_doc(doc)["rounds"]
    assert coup["voided"] == [["4S", "4D", "4C"]]
    assert coup["player"]["cards"] == ["6S", "KS"] and coup["net"] == {"ana": "95"}


def test_misdeal_after_more_cards_than_the_coup_holds_art_10() -> None:
    doc = baccarat_doc(["AH", "2H", *STAND, *STAND], [{"misdeal_after_cards": 5}])
    with pytest.raises(TranscriptError, match=r"^round 1: misdeal_after_cards 5: the coup is complete after 4 cards"):
        replay_doc(doc)


def test_squeeze_holders_recorded_art_16() -> None:
    doc = baccarat_doc(
        ["AH", "2H", *STAND],
        [
            {
                "bets": [_bet("ana", "player", 100), _bet("bo", "player", 300), _bet("cy", "banker", 50)],
                "seated": ["ana"],
            }
        ],
        overrides={"squeeze": True},
    )
    (coup,) = replay_doc(doc)["rounds"]
    assert coup["squeeze"] == {"player": "ana", "banker": None}


def test_automatic_shuffler_one_order_per_coup_art_2_3_7_2() -> None:
    doc = baccarat_doc([STAND, TIE], [{"bets": [_bet("ana", "banker", 100)]}, {}], overrides={"shuffler": "automatic"})
    rounds = replay_doc(doc)["rounds"]
    assert [r["burned"] for r in rounds] == [[], []]
    assert [r["last_round"] for r in rounds] == [True, True]
    assert rounds[1]["winner"] == "tie"
    single = baccarat_doc(STAND, [{}], overrides={"shuffler": "automatic"})
    assert replay_doc(single)["rounds"][0]["winner"] == "banker"
    with pytest.raises(TranscriptError, match=r"^round 2: the automatic shuffler's order for this coup is missing"):
        replay_doc(baccarat_doc(STAND, [{}, {}], overrides={"shuffler": "automatic"}))
    with pytest.raises(TranscriptError, match=r"^transcript: an automatic shuffler uses no cut card"):
        replay_doc(baccarat_doc(STAND, [{}], overrides={"shuffler": "automatic"}, cut_card=3))


def test_replay_is_deterministic() -> None:
    doc = baccarat_doc(["KH", *[f"{r}C" for r in "A23456789T"], *TIE, *STAND], [{"bets": [_bet("a", "tie", 5)]}, {}])
    assert replay_doc(doc) == replay_doc(doc)


def test_render_is_a_readable_account() -> None:
    doc = baccarat_doc(["AH", "2H", *STAND], [{"bets": [_bet("ana", "banker", 100), _bet("bo", "player", 50)]}])
    text = render_baccarat(replay_doc(doc))
    assert "Round 1  burned AH 2H" in text
    assert "Player  6S KS      6" in text and "Banker  7D QD      7" in text
    assert "Banker wins" in text
    assert text.endswith("Net: ana +95, bo -50")


def test_cli_replay_json_and_text() -> None:
    doc = baccarat_doc(["AH", "2H", *STAND], [{"bets": [_bet("ana", "banker", 100)]}])
    as_json = CliRunner().invoke(app, ["replay", "--json", "-"], input=json.dumps(doc))
    assert as_json.exit_code == 0 and json.loads(as_json.stdout)["net"] == {"ana": "95"}
    as_text = CliRunner().invoke(app, ["replay", "-"], input=json.dumps(doc))
    assert as_text.exit_code == 0 and "Net: ana +95" in as_text.stdout


def test_empty_transcript_has_no_rounds() -> None:
    assert replay_doc(baccarat_doc(["AH"], []))["rounds"] == []
