"""Provably fair shoes (docs/rules.md §5) and their verification (``croupier verify``).

Per shoe a 32-byte server seed from the OS CSPRNG; its SHA-256 (the commitment) is published before
the shoe's first bet; the shoe is built from ``HMAC-SHA256(server_seed, "client_seed:nonce:counter")``
read as unbiased integers (:class:`croupier.rng.HmacStream`): first the cut card's place (where the
rules give a range), then a Fisher–Yates shuffle of the decks in new-deck order, exactly as
:meth:`croupier.blackjack.state.Table.shuffled` does with any source. The seed is revealed when the
shoe ends; :func:`verify_shoe` rebuilds the shoe and checks every round's cards against it.

A verification document (``GET /api/shoes/{id}``, the input of ``croupier verify``)::

    {"game": "blackjack", "rules": "live-online", "overrides": {...}, "decks": 8,
     "commitment": "…", "server_seed": "…" (hex, once the shoe ended), "client_seed": "table-1",
     "nonce": 3, "cut_setting": [60, 75], "cut_card": 350, "start_cards": [],
     "rounds": [{"number": 1, "cards": ["7H", "…"]}, …]}

``start_cards`` are the cards a baccarat shoe's start procedure draws before its first coup (Art. 2.1: the
first card turned face up, then as many burned as its value); a blackjack shoe has none (its burns go with
its first round). ``docs/protocol.md`` ("History and fairness") describes the document and the check.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import Any

from croupier.errors import CroupierError
from croupier.rng import HmacStream, commitment, new_server_seed
from croupier.shoe import Shoe, place_cut_card


class FairnessError(CroupierError):
    """A shoe that does not verify: a seed that is not the committed one, or cards the seed did not deal."""


def new_seed() -> bytes:
    return new_server_seed()


def build_shoe(
    decks: int, cut_setting: tuple[int, int] | int | None, server_seed: bytes, client_seed: str, nonce: int
) -> Shoe:
    """The shoe a seed gives: the cut card's place, then the Fisher–Yates order."""
    source = HmacStream(server_seed, client_seed, nonce)
    cut = place_cut_card(cut_setting, decks * 52, source)
    return Shoe.shuffled(decks, cut, source)


def _expected(order: list[str], position: int) -> str:
    return order[position] if position < len(order) else "no card (the shoe has none left)"


def verify_shoe(document: Mapping[str, Any], cut_setting: tuple[int, int] | int | None, decks: int) -> dict[str, Any]:
    """Check a shoe's verification document; return a summary, or raise :class:`FairnessError`.

    The seed must be the committed one; the shoe it builds (with the document's client seed and nonce) must have
    dealt, in order, the shoe's start cards (``start_cards``) and then every round's cards; the cut card must be
    where the seed put it. The first card that differs is named: its round and its place in the round."""
    seed_hex = document.get("server_seed")
    if not isinstance(seed_hex, str):
        raise FairnessError("verify: the shoe's server seed is not revealed yet (it is, once the shoe ends)")
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        raise FairnessError(f"verify: server_seed {seed_hex[:16]!r}… is not hex") from None
    committed = document.get("commitment")
    if not isinstance(committed, str) or not hmac.compare_digest(commitment(seed), committed):
        raise FairnessError(
            f"verify: SHA-256 of the revealed seed is {commitment(seed)}, not the commitment {committed} "
            "(docs/rules.md §5)"
        )
    client_seed = document.get("client_seed", "")
    if not isinstance(client_seed, str):
        raise FairnessError("verify: client_seed must be a string")
    nonce = document.get("nonce", 0)
    if not isinstance(nonce, int) or isinstance(nonce, bool):
        raise FairnessError("verify: nonce must be a whole number")
    shoe = build_shoe(decks, cut_setting, seed, client_seed, nonce)
    order = [str(card) for card in shoe.remaining_cards()]
    start_cards = document.get("start_cards") or []
    rounds = document.get("rounds", [])
    if not isinstance(rounds, list) or not isinstance(start_cards, list):
        raise FairnessError("verify: start_cards and rounds must be lists")
    position = 0
    for index, card in enumerate(start_cards):
        if card != _expected(order, position):
            raise FairnessError(
                f"verify: shoe start, card {index + 1}: the shoe dealt {_expected(order, position)}, "
                f"the record shows {card} (position {position})"
            )
        position += 1
    for entry in rounds:
        number = entry.get("number") if isinstance(entry, Mapping) else None
        cards = entry.get("cards") if isinstance(entry, Mapping) else None
        if not isinstance(cards, list):
            raise FairnessError(f"verify: round {number}: no list of cards")
        for index, card in enumerate(cards):
            if card != _expected(order, position):
                raise FairnessError(
                    f"verify: round {number}, card {index + 1}: the shoe dealt {_expected(order, position)}, "
                    f"the record shows {card} (position {position})"
                )
            position += 1
    if document.get("cut_card") is not None and document["cut_card"] != shoe.cut_card:
        raise FairnessError(
            f"verify: the seed places the cut card at {shoe.cut_card}, the record shows {document['cut_card']}"
        )
    return {
        "commitment": committed,
        "rounds": len(rounds),
        "start_cards": len(start_cards),
        "cards_checked": position,
        "cut_card": shoe.cut_card,
        "ok": True,
    }


def verify_document(document: Mapping[str, Any]) -> dict[str, Any]:
    """Verify a shoe document with its own rules (``game``, ``rules``, ``overrides``)."""
    from croupier.server.drivers import GAMES

    game = document.get("game")
    preset = document.get("rules")
    overrides = document.get("overrides") or {}
    if not isinstance(preset, str) or not isinstance(overrides, Mapping):
        raise FairnessError("verify: the document names no rule set (rules, overrides)")
    if not isinstance(game, str) or game not in GAMES:
        raise FairnessError(f"verify: unknown game {game!r}; {' or '.join(GAMES)}")
    rules = GAMES[game].rules(preset, dict(overrides))
    setting = GAMES[game].cut_setting(rules)
    stated = document.get("cut_setting")
    if stated is not None and stated != (list(setting) if isinstance(setting, tuple) else setting):
        raise FairnessError(f"verify: the rules {preset} place the cut card by {setting}, the record says {stated}")
    return verify_shoe(document, setting, rules.decks)
