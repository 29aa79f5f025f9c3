"""Provably fair shoes (RULES.md §5) and their verification (``croupier verify``).

Per shoe a 32-byte server seed from the OS CSPRNG; its SHA-256 (the commitment) is published before
the shoe's first bet; the shoe is built from ``HMAC-SHA256(server_seed, "client_seed:nonce:counter")``
read as unbiased integers (:class:`croupier.rng.HmacStream`): first the cut card's place (where the
rules give a range), then a Fisher–Yates shuffle of the decks in new-deck order, exactly as
:meth:`croupier.blackjack.state.Table.shuffled` does with any source. The seed is revealed when the
shoe ends; :func:`verify_shoe` rebuilds the shoe and checks every round's cards against it.

A verification document (``GET /api/shoes/{id}``, the input of ``croupier verify``)::

    {"game": "blackjack", "rules": "live-online", "overrides": {...}, "decks": 8,
     "commitment": "…", "server_seed": "…" (hex, once the shoe ended), "client_seed": "table-1",
     "nonce": 3, "cut_card": 350, "rounds": [{"number": 1, "cards": ["7H", "…"]}, …]}
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


def verify_shoe(document: Mapping[str, Any], cut_setting: tuple[int, int] | int | None, decks: int) -> dict[str, Any]:
    """Check a shoe's verification document; return a summary, or raise :class:`FairnessError`."""
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
            f"verify: SHA-256 of the revealed seed is {commitment(seed)}, not the commitment {committed} (RULES.md §5)"
        )
    client_seed = str(document.get("client_seed", ""))
    nonce = document.get("nonce", 0)
    if not isinstance(nonce, int):
        raise FairnessError("verify: nonce must be a whole number")
    shoe = build_shoe(decks, cut_setting, seed, client_seed, nonce)
    if document.get("cut_card") is not None and document["cut_card"] != shoe.cut_card:
        raise FairnessError(
            f"verify: the seed places the cut card at {shoe.cut_card}, the shoe says {document['cut_card']}"
        )
    order = [str(card) for card in shoe.remaining_cards()]
    position = 0
    rounds = document.get("rounds", [])
    if not isinstance(rounds, list):
        raise FairnessError("verify: rounds must be a list")
    for entry in rounds:
        number = entry.get("number") if isinstance(entry, Mapping) else None
        cards = entry.get("cards") if isinstance(entry, Mapping) else None
        if not isinstance(cards, list):
            raise FairnessError(f"verify: round {number}: no list of cards")
        for index, card in enumerate(cards):
            expected = order[position] if position < len(order) else None
            if card != expected:
                raise FairnessError(
                    f"verify: round {number}, card {index + 1}: the shoe dealt {card}, the seed gives {expected} "
                    f"at position {position}"
                )
            position += 1
    return {
        "commitment": committed,
        "rounds": len(rounds),
        "cards_checked": position,
        "cut_card": shoe.cut_card,
        "ok": True,
    }


def verify_document(document: Mapping[str, Any]) -> dict[str, Any]:
    """Verify a shoe document with its own rules (``game``, ``rules``, ``overrides``)."""
    game = document.get("game")
    preset = document.get("rules")
    overrides = document.get("overrides") or {}
    if not isinstance(preset, str) or not isinstance(overrides, Mapping):
        raise FairnessError("verify: the document names no rule set (rules, overrides)")
    if game == "blackjack":
        from croupier.blackjack.presets import blackjack_rules

        rules: Any = blackjack_rules(preset, dict(overrides))
        cut_setting = rules.cut_card
    elif game == "baccarat":
        from croupier.baccarat.presets import baccarat_rules

        rules = baccarat_rules(preset, dict(overrides))
        cut_setting = getattr(rules, "cut_card", None)
    else:
        raise FairnessError(f"verify: unknown game {game!r}; blackjack or baccarat")
    return verify_shoe(document, cut_setting, rules.decks)
