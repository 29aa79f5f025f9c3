"""Compact builders for blackjack rule tests: a transcript from a few cards, replayed."""

from __future__ import annotations

from typing import Any

from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.replay import replay_blackjack
from croupier.blackjack.state import Round, Table
from croupier.cards import parse_cards
from croupier.shoe import Shoe

Bet = tuple[str, int, int | str]


def burns_for(preset: str, overrides: dict[str, Any] | None = None) -> list[str]:
    """Filler cards for the shoe-start burns of the rule set."""
    rules = blackjack_rules(preset, overrides)
    return ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC"][: rules.shoe_start_burns]


def transcript(
    preset: str,
    cards: str,
    bets: list[Bet] | None = None,
    actions: list[dict[str, Any]] | None = None,
    overrides: dict[str, Any] | None = None,
    seated: dict[str, str] | None = None,
    rounds: list[dict[str, Any]] | None = None,
    cut_card: int | None = None,
) -> dict[str, Any]:
    """A transcript whose shoe is the shoe-start burns followed by ``cards``."""
    shoe = burns_for(preset, overrides) + cards.split()
    if rounds is None:
        spec: dict[str, Any] = {
            "bets": [{"player": p, "box": b, "amount": a} for p, b, a in (bets or [("ana", 1, 100)])],
            "actions": actions or [],
        }
        if seated:
            spec["seated"] = seated
        rounds = [spec]
    doc: dict[str, Any] = {"game": "blackjack", "rules": preset, "shoe": shoe, "rounds": rounds}
    if overrides:
        doc["overrides"] = overrides
    if cut_card is not None:
        doc["cut_card"] = cut_card
    return doc


def replay(preset: str, cards: str, **kwargs: Any) -> dict[str, Any]:
    """Replay and return the first round's result."""
    result: dict[str, Any] = replay_blackjack(transcript(preset, cards, **kwargs))["rounds"][0]
    return result


def act(kind: str, box: int = 1, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "box": box, **fields}


def dealt_round(
    preset: str, cards: str, bets: list[Bet] | None = None, overrides: dict[str, Any] | None = None
) -> Round:
    """A round after the deal, for tests that drive the engine directly."""
    rules = blackjack_rules(preset, overrides)
    shoe = Shoe.stacked(rules.decks, parse_cards(burns_for(preset, overrides) + cards.split()))
    table = Table(rules, shoe)
    current = table.new_round()
    for player, box, amount in bets or [("ana", 1, 100)]:
        current.bet(player, box, amount)
    current.deal()
    return current


def hand(result: dict[str, Any], box: int = 1, index: int = 0) -> dict[str, Any]:
    for entry in result["boxes"]:
        if entry["box"] == box:
            found: dict[str, Any] = entry["hands"][index]
            return found
    raise KeyError(box)
