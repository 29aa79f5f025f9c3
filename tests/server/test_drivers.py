"""drivers.GAMES: the one place a game picks its rules, its engine driver and its procedures."""

import ast
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from croupier.blackjack.replay import overrides_of
from croupier.server import drivers
from croupier.server.baccarat_round import BaccaratDriver, baccarat_cut_setting
from croupier.server.games import BlackjackDriver


def row(game: str, preset: str, **fields: Any) -> Any:
    return SimpleNamespace(game=game, preset=preset, overrides={}, min_bet=1000, max_bet=100000, chip=100, **fields)


def test_each_game_has_its_rules_and_driver() -> None:
    blackjack = drivers.table_rules(row("blackjack", "live-online"))
    baccarat = drivers.table_rules(row("baccarat", "macau"))
    assert blackjack.burn_after_misdeal == 3 and blackjack.min_bet == Decimal(10)
    assert isinstance(drivers.driver_for("blackjack", blackjack), BlackjackDriver)
    assert isinstance(drivers.driver_for("baccarat", baccarat), BaccaratDriver)
    assert drivers.game_of("blackjack").shared_boxes and not drivers.game_of("baccarat").shared_boxes
    assert drivers.game_of("blackjack").default_preset == "macau-1983"
    assert drivers.game_of("baccarat").default_preset == "macau"


GAME_CLASSES = {"BlackjackRound", "BaccaratRound", "BlackjackDriver", "BaccaratDriver"}
GAME_MODULES = {"drivers.py", "games.py", "baccarat_round.py"}


def game_class_uses(source: str) -> list[int]:
    """The lines of ``source`` that name a game's own round or driver class."""
    return sorted(
        {
            node.lineno
            for node in ast.walk(ast.parse(source))
            if (isinstance(node, ast.Name) and node.id in GAME_CLASSES)
            or (isinstance(node, ast.alias) and node.name in GAME_CLASSES)
            or (isinstance(node, ast.Attribute) and node.attr in GAME_CLASSES)
        }
    )


def test_no_shared_server_module_names_a_games_round_or_driver() -> None:
    """The shared modules ask the round and driver interface (game_round.py), never which game it is."""
    package = Path(drivers.__file__).parent
    found = {
        path.name: lines
        for path in sorted(package.glob("*.py"))
        if path.name not in GAME_MODULES and (lines := game_class_uses(path.read_text(encoding="utf-8")))
    }
    assert found == {}, f"give the round or driver a method instead: {found}"


def test_the_check_sees_a_game_class_named() -> None:
    source = "from x import BaccaratRound\nif isinstance(r, games.BlackjackRound):\n    pass\nok = round_.misdeal\n"
    assert game_class_uses(source) == [1, 2]


def test_each_game_says_which_errors_of_the_dealer_it_refuses() -> None:
    assert drivers.game_of("blackjack").void_card_refusal is None
    assert "Art. 10" in (drivers.game_of("baccarat").void_card_refusal or "")


def test_each_game_shows_its_boxes_in_the_lobby() -> None:
    blackjack = drivers.table_rules(row("blackjack", "live-online"))
    assert drivers.game_of("blackjack").boxes(blackjack) == blackjack.boxes
    assert drivers.game_of("baccarat").boxes(drivers.table_rules(row("baccarat", "macau"))) is None


def test_each_game_places_its_cut_card_as_its_driver_builds_the_shoe() -> None:
    blackjack = drivers.table_rules(row("blackjack", "live-online"))
    baccarat = drivers.table_rules(row("baccarat", "macau"))
    assert drivers.game_of("blackjack").cut_setting(blackjack) == blackjack.cut_card
    assert drivers.game_of("baccarat").cut_setting(baccarat) == baccarat_cut_setting(baccarat)


def test_each_game_writes_its_overrides_against_its_preset() -> None:
    blackjack = drivers.table_rules(row("blackjack", "live-online"))
    assert drivers.game_of("blackjack").rule_overrides(blackjack) == overrides_of(blackjack)
    lucky = SimpleNamespace(**{**vars(row("baccarat", "macau")), "overrides": {"lucky_6": "true"}})
    overrides = drivers.game_of("baccarat").rule_overrides(drivers.table_rules(lucky))
    assert overrides["lucky_6"] == "true" and "decks" not in overrides


def test_each_game_lists_a_rounds_bets_by_its_spots() -> None:
    boxes = {"boxes": [{"box": 1, "bets": {"ana": "10.00"}}, {"box": 3}]}
    assert drivers.game_of("blackjack").bets_by_spot(boxes) == {"1": {"ana": "10.00"}, "3": {}}
    layout = {"bets": {"banker": {"ben": "5.00"}}}
    assert drivers.game_of("baccarat").bets_by_spot(layout) == {"banker": {"ben": "5.00"}}
    assert drivers.game_of("baccarat").bets_by_spot({}) == {}


def test_only_baccarat_keeps_a_card_found_face_up() -> None:
    assert drivers.game_of("blackjack").face_up_card_refusal is None
    assert "stays valid (Art. 4)" in (drivers.game_of("baccarat").face_up_card_refusal or "")


def test_an_unknown_game_is_refused_naming_the_games() -> None:
    with pytest.raises(ValueError, match="game 'poker': the games are blackjack, baccarat"):
        drivers.table_rules(row("poker", "macau"))


def test_a_blackjack_table_sets_its_insurance_chip_before_each_round() -> None:
    driver = drivers.driver_for("blackjack", drivers.table_rules(row("blackjack", "live-online")))
    drivers.game_of("blackjack").before_round(driver, row("blackjack", "live-online", insurance_to_chip=True))
    assert driver.insurance_chip == Decimal(1)
    drivers.game_of("blackjack").before_round(driver, row("blackjack", "live-online", insurance_to_chip=False))
    assert driver.insurance_chip is None


def game_name_checks(source: str) -> list[int]:
    """The lines of ``source`` that compare something with a game's name (``==``, ``!=``, ``in``)."""
    names = set(drivers.GAMES)
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Compare)
        and any(isinstance(side, ast.Constant) and side.value in names for side in [node.left, *node.comparators])
    ]


def test_no_server_module_but_drivers_picks_the_game_by_its_name() -> None:
    package = Path(drivers.__file__).parent
    found = {
        path.name: lines
        for path in sorted(package.glob("*.py"))
        if path.name != "drivers.py" and (lines := game_name_checks(path.read_text(encoding="utf-8")))
    }
    assert found == {}, f"ask drivers.game_of(game) instead of the game's name: {found}"


def test_the_check_sees_a_game_named_in_a_comparison() -> None:
    source = 'if game == "baccarat":\n    pass\nok = "blackjack" != other\nx = {"game": "blackjack"}\n'
    assert game_name_checks(source) == [1, 3]


@pytest.mark.parametrize(
    ("game", "preset", "first", "second"),
    [("blackjack", "live-online", "1", "2"), ("baccarat", "macau", "player", "banker")],
)
def test_a_trial_copy_takes_bets_apart_and_shares_the_shoe_and_rules(
    game: str, preset: str, first: str, second: str
) -> None:
    """betting.py tries a group's bets on a trial copy of the round: what it takes stays there, while the
    shoe (hundreds of cards, which no bet draws) and the frozen rules are the round's own, not copied."""
    driver = drivers.driver_for(game, drivers.table_rules(row(game, preset)))
    driver.load(driver.build(b"\x07" * 32, "client", 0))
    round_ = driver.next_round()
    round_.bet("ana", first, Decimal(10))
    trial = round_.trial()
    trial.bet("ben", second, Decimal(20))
    assert trial.staked() == {"ana": Decimal(10), "ben": Decimal(20)}
    assert round_.staked() == {"ana": Decimal(10)}
    assert trial.table is not round_.table
    assert trial.table.shoe is round_.table.shoe and trial.table.rules is round_.table.rules


@pytest.mark.parametrize("cards", [None, ["TS", "9S", "8S", "AS", "9D", "8D", "7D", "5C", "4C", "3C"]])
def test_every_players_legal_actions_come_from_one_reading_of_the_engine(
    monkeypatch: pytest.MonkeyPatch, cards: list[str] | None
) -> None:
    """The table sends every player's legal actions with each event (actor.legal_actions): the engine's
    legal actions are read once for all of them, and each player's are those of :meth:`legal_for`; in
    a decision, and (the dealer's ace: ``cards``) while insurance is offered."""
    from croupier.blackjack.state import Round
    from croupier.cards import Card
    from croupier.shoe import Shoe
    from tests.server.stacked import ONLINE_BURNS

    driver = drivers.driver_for("blackjack", drivers.table_rules(row("blackjack", "live-online")))
    if cards is None:
        driver.load(driver.build(b"\x07" * 32, "client", 0))
    else:
        driver.load(Shoe.stacked(8, [Card.parse(c) for c in [*ONLINE_BURNS, *cards]]))
    round_ = driver.next_round()
    for player, box in (("ana", "1"), ("ben", "2"), ("chen", "3")):
        round_.bet(player, box, Decimal(10))
    round_.close_betting()
    players = ["ana", "ben", "chen", "dora", ""]
    one_by_one = {player: round_.legal_for(player) for player in players}
    assert any(one_by_one.values())
    if cards is not None:
        assert {a["type"] for a in one_by_one["ana"]} >= {"insurance"}, one_by_one
    readings = 0
    real = Round.legal_actions

    def counted(self: Round) -> Any:
        nonlocal readings
        readings += 1
        return real(self)

    monkeypatch.setattr(Round, "legal_actions", counted)
    assert round_.legal_by_player(players) == one_by_one
    assert readings == 1
