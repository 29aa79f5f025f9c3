"""Baccarat transcripts (docs/transcript.md): replay a parsed document through :class:`BaccaratTable`.

:func:`replay_baccarat` returns the result document of ``croupier replay --json``;
:func:`render_baccarat` the readable account. Every problem is one
:class:`~croupier.errors.TranscriptError` line: ``transcript: …`` for the document as a whole,
``round R: …`` for a round, ``round R, bet B (player, spot amount): …`` for a bet.

Two optional round keys go beyond docs/transcript.md (docs/baccarat.md): ``seated``, the players seated
at the table for the squeeze (Art. 16; default every bettor), and ``misdeal_after_cards``, a misdeal
found after that many cards of the coup were dealt, which voids the coup (Art. 10). With an
automatic shuffler (Art. 2.3, 7.2) every coup is dealt from its own shuffle: ``shoe`` is then a list
of orders, one per coup (a single flat list is the first coup's).

Under ``tie_bets = increase_only`` (Art. 18) a round after a tie starts with the tied player and
banker bets already on their spots: the round's ``bets`` add to them (never re-list them). The tie
round's output shows those stakes with outcome ``stand`` and lists them under ``carried``; a tie in
the shoe's last round returns them instead (``returned``, with the reason).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, cast

from croupier.baccarat.moves import PlaceBet
from croupier.baccarat.presets import baccarat_rules
from croupier.baccarat.rules import Rules
from croupier.baccarat.state import (
    Automation,
    BaccaratTable,
    BetCarried,
    BetReturned,
    CardBurned,
    CoupResult,
    CoupVoided,
    CutCardOut,
    FirstCardTurned,
    Operation,
    Phase,
    SqueezeHolderNamed,
)
from croupier.cards import parse_cards
from croupier.errors import CroupierError, IllegalActionError, TranscriptError
from croupier.money import ZERO, format_amount, parse_amount
from croupier.shoe import Shoe

TOP_LEVEL_KEYS = ("game", "rules", "overrides", "shoe", "cut_card", "rounds")
ROUND_KEYS = ("bets", "demo", "seated", "misdeal_after_cards")
BET_KEYS = ("player", "on", "amount")
COUP_CHORES = frozenset({Automation.BURNING, Automation.DEALING, Automation.SETTLING})


def replay_baccarat(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Replay a baccarat transcript; return the result document (docs/transcript.md, "Output")."""
    rules = _read_rules(doc)
    shoes = _read_shoes(doc, rules)
    rounds = doc.get("rounds")
    if not isinstance(rounds, list):
        raise TranscriptError("transcript: rounds must be a list of rounds")
    table = BaccaratTable(rules, automations=())
    results: list[dict[str, Any]] = []
    total: dict[str, Decimal] = {}
    for number, round_doc in enumerate(rounds, start=1):
        try:
            result, net = _replay_round(table, shoes, number, round_doc)
        except TranscriptError:
            raise
        except CroupierError as error:
            raise TranscriptError(f"round {number}: {error}") from None
        for player, gain in net.items():
            total[player] = total.get(player, ZERO) + gain
        results.append(result)
    return {
        "game": "baccarat",
        "rules": rules.preset,
        "parameters": rules.describe(),
        "rounds": results,
        "net": {player: format_amount(gain) for player, gain in total.items()},
    }


# --------------------------------------------------------------------------------------------------
# the document


def _read_rules(doc: Mapping[str, Any]) -> Rules:
    unknown = [key for key in doc if key not in TOP_LEVEL_KEYS]
    if unknown:
        raise TranscriptError(
            f"transcript: unknown key {unknown[0]!r}; a baccarat transcript holds {', '.join(TOP_LEVEL_KEYS)}"
        )
    preset = doc.get("rules")
    if not isinstance(preset, str):
        raise TranscriptError("transcript: rules must name a preset (macau)")
    overrides = doc.get("overrides") or {}
    if not isinstance(overrides, dict):
        raise TranscriptError("transcript: overrides must be an object of rule parameters by name")
    try:
        return baccarat_rules(preset, overrides)
    except CroupierError as error:
        raise TranscriptError(f"transcript: {error}") from None


def _read_shoes(doc: Mapping[str, Any], rules: Rules) -> list[Shoe]:
    """The shoe, or with an automatic shuffler one order per coup; card and copy errors are the document's."""
    raw_shoe = doc.get("shoe")
    cut_card = doc.get("cut_card")
    if cut_card is not None and (isinstance(cut_card, bool) or not isinstance(cut_card, int) or cut_card < 0):
        raise TranscriptError(f"transcript: cut_card must be a count of cards above the cut card, got {cut_card!r}")
    if not isinstance(raw_shoe, list):
        raise TranscriptError('transcript: shoe must be a list of cards from the top, such as ["7H", "TS"]')
    if rules.automatic_shuffler:
        if cut_card is not None:
            raise TranscriptError("transcript: an automatic shuffler uses no cut card (Art. 2.3); drop cut_card")
        orders = raw_shoe if raw_shoe and all(isinstance(order, list) for order in raw_shoe) else [raw_shoe]
        return [
            _stacked(order, rules, None, f"shoe {i}: " if len(orders) > 1 else "")
            for i, order in enumerate(orders, start=1)
        ]
    return [_stacked(raw_shoe, rules, cut_card, "")]


def _stacked(order: list[Any], rules: Rules, cut_card: int | None, where: str) -> Shoe:
    try:
        if not all(isinstance(card, str) for card in order):
            bad = next(card for card in order if not isinstance(card, str))
            raise TranscriptError(f'transcript: {where}shoe cards are strings such as "AS", got {bad!r}')
        return Shoe.stacked(rules.decks, parse_cards(order), cut_card)
    except TranscriptError:
        raise
    except CroupierError as error:
        raise TranscriptError(f"transcript: {where}shoe: {error}") from None


# --------------------------------------------------------------------------------------------------
# one round


def _replay_round(
    table: BaccaratTable, shoes: list[Shoe], number: int, round_doc: object
) -> tuple[dict[str, Any], dict[str, Decimal]]:
    if not isinstance(round_doc, dict):
        raise TranscriptError(f'round {number}: a round is an object with bets, or {{"demo": true}}')
    unknown = [key for key in round_doc if key not in ROUND_KEYS]
    if unknown:
        raise TranscriptError(
            f"round {number}: unknown key {unknown[0]!r}; a baccarat round holds {', '.join(ROUND_KEYS)}"
        )
    demo = round_doc.get("demo", False)
    if not isinstance(demo, bool):
        raise TranscriptError(f"round {number}: demo must be true or false")
    bets = round_doc.get("bets") or []
    if not isinstance(bets, list):
        raise TranscriptError(f"round {number}: bets must be a list")
    seated = _read_seated(number, round_doc.get("seated"))
    misdeal_after = _read_misdeal(number, round_doc.get("misdeal_after_cards"))

    start = table.operation_count
    _bring_shoe(table, shoes, number)
    if table.phase is Phase.AWAITING_SHOE or demo:
        table.verify_start_coup(demo)  # the shoe is over; a fourth or late demonstration coup
    for index, bet in enumerate(bets, start=1):
        _place(table, number, index, bet, demo)
    table.start_coup(demo, seated)
    if misdeal_after is not None:
        _void_after(table, misdeal_after)
    table.perform_chores(COUP_CHORES)
    table.verify_next_chore()
    result = table.last_result
    assert result is not None
    return round_document(result, table.operations_since(start)), result.net


def _read_seated(number: int, raw: object) -> list[str] | None:
    if raw is None:
        return None
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        raise TranscriptError(f"round {number}: seated must be a list of player names")
    return cast(list[str], raw)


def _read_misdeal(number: int, raw: object) -> int | None:
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1:
        raise TranscriptError(f"round {number}: misdeal_after_cards must be a count of cards dealt (1 or more)")
    return raw


def _bring_shoe(table: BaccaratTable, shoes: list[Shoe], number: int) -> None:
    """Load the shoe for round 1 (and, with an automatic shuffler, each coup's own shuffle)."""
    if table.rules.automatic_shuffler:
        if table.phase is Phase.AWAITING_SHOE:
            if number > len(shoes):
                raise TranscriptError(
                    f"round {number}: the automatic shuffler's order for this coup is missing; the transcript's "
                    f"shoe gives {len(shoes)} (Art. 2.3, 7.2: one shuffle per coup)"
                )
            table.load_shoe(shoes[number - 1])
    elif table.shoe is None:
        table.load_shoe(shoes[0])
        table.perform_chores(COUP_CHORES)  # Art. 2.1: the shoe-start burns belong to the first round
        table.verify_next_chore()


def _place(table: BaccaratTable, number: int, index: int, bet: object, demo: bool) -> None:
    where = f"round {number}, bet {index}"
    if not isinstance(bet, dict):
        raise TranscriptError(f"{where}: a bet is an object with player, on and amount")
    unknown = [key for key in bet if key not in BET_KEYS]
    if unknown:
        raise TranscriptError(f"{where}: unknown key {unknown[0]!r}; a bet holds {', '.join(BET_KEYS)}")
    player, spot, raw_amount = bet.get("player"), bet.get("on"), bet.get("amount")
    if not isinstance(player, str) or not player:
        raise TranscriptError(f"{where}: a bet names its player (a string)")
    if not isinstance(spot, str):
        raise TranscriptError(f"{where} ({player}): a bet names its spot in on (player, banker, tie, ...)")
    try:
        amount = parse_amount(raw_amount, what="amount")
    except CroupierError as error:
        raise TranscriptError(f"{where} ({player}, {spot} {raw_amount!s}): {error}") from None
    where = f"{where} ({player}, {spot} {format_amount(amount)})"
    try:
        if demo:
            raise TranscriptError("a demonstration coup takes no bets (Art. 2.2)")
        table.apply(PlaceBet(player, spot, amount))
    except CroupierError as error:
        raise TranscriptError(f"{where}: {error}") from None


def _void_after(table: BaccaratTable, cards: int) -> None:
    """Art. 10: deal ``cards`` cards of the coup, then void it; the coup is dealt again."""
    table.perform_chores({Automation.BURNING})
    for dealt in range(cards):
        if table.phase is not Phase.DEALING:
            raise IllegalActionError(f"misdeal_after_cards {cards}: the coup is complete after {dealt} cards (Art. 10)")
        table.verify_next_chore()
        table.deal_card()
    table.void_coup("misdeal (Art. 10)")


# --------------------------------------------------------------------------------------------------
# output


def round_document(result: CoupResult, operations: tuple[Operation, ...] = ()) -> dict[str, Any]:
    """A settled coup as docs/transcript.md's output writes it; ``operations`` (the coup's records) add its burns,
    squeeze holders and voided deals."""
    cards = result.cards
    burned = [str(op.card) for op in operations if isinstance(op, FirstCardTurned | CardBurned)]
    document: dict[str, Any] = {
        "demo": result.demo,
        "player": {"cards": [str(card) for card in cards.player], "total": cards.player_total},
        "banker": {"cards": [str(card) for card in cards.banker], "total": cards.banker_total},
        "winner": cards.winner,
        "player_pair": cards.player_pair,
        "banker_pair": cards.banker_pair,
        "natural": cards.natural,
        "bets": [
            {
                "player": s.player,
                "on": s.spot,
                "stake": format_amount(s.stake),
                "outcome": s.outcome,
                "net": format_amount(s.gain),
            }
            for s in result.settlements
        ],
        "net": {player: format_amount(gain) for player, gain in result.net.items()},
        "burned": burned,
        "cut_card_out": any(isinstance(op, CutCardOut) for op in operations),
        "last_round": result.last_coup,
    }
    squeeze = [op for op in operations if isinstance(op, SqueezeHolderNamed)]
    if squeeze:
        document["squeeze"] = {op.side: op.player for op in squeeze}
    voided = [[str(card) for card in op.cards] for op in operations if isinstance(op, CoupVoided)]
    if voided:
        document["voided"] = voided
    carried = [_bet_line(op) for op in operations if isinstance(op, BetCarried)]
    if carried:
        document["carried"] = carried
    returned = [{**_bet_line(op), "reason": op.reason} for op in operations if isinstance(op, BetReturned)]
    if returned:
        document["returned"] = returned
    return document


def _bet_line(op: BetCarried | BetReturned) -> dict[str, Any]:
    return {"player": op.player, "on": op.spot, "amount": format_amount(op.amount)}


def render_baccarat(result: Mapping[str, Any]) -> str:
    """A readable account of a replay, round by round."""
    lines = [f"Baccarat, {result.get('rules', 'macau')} rules"]
    for number, coup in enumerate(result["rounds"], start=1):
        head = f"Round {number}" + (" (demonstration coup)" if coup.get("demo") else "")
        if coup.get("burned"):
            head += f"  burned {' '.join(coup['burned'])}"
        lines.append(head)
        for cards in coup.get("voided", []):
            lines.append(f"  misdeal, void: {' '.join(cards)} (Art. 10)")
        for side in ("player", "banker"):
            hand = coup[side]
            holder = coup.get("squeeze", {}).get(side)
            squeeze = f"  (squeezed by {holder})" if holder else ""
            lines.append(f"  {side.capitalize():<7} {' '.join(hand['cards']):<10} {hand['total']}{squeeze}")
        marks = [name for name in ("natural", "player_pair", "banker_pair") if coup.get(name)]
        outcome = "Tie" if coup["winner"] == "tie" else f"{coup['winner'].capitalize()} wins"
        lines.append(f"  {outcome}" + (f" ({', '.join(m.replace('_', ' ') for m in marks)})" if marks else ""))
        for bet in coup.get("bets", []):
            lines.append(f"    {bet['player']}: {bet['on']} {bet['stake']} {bet['outcome']} {_signed(bet['net'])}")
        for bet in coup.get("carried", []):
            lines.append(f"    {bet['player']}'s {bet['on']} bet of {bet['amount']} stays for the next round (Art. 18)")
        for bet in coup.get("returned", []):
            lines.append(f"    {bet['player']}'s {bet['on']} bet of {bet['amount']} returned: {bet['reason']}")
        if coup["net"]:
            lines.append("  net: " + ", ".join(f"{p} {_signed(v)}" for p, v in coup["net"].items()))
        if coup.get("cut_card_out"):
            lines.append("  the cut card is out")
        if coup.get("last_round"):
            lines.append("  last round of the shoe")
    lines.append("Net: " + (", ".join(f"{p} {_signed(v)}" for p, v in result["net"].items()) or "no bets"))
    return "\n".join(lines)


def _signed(amount: str) -> str:
    return amount if amount.startswith("-") or amount == "0" else f"+{amount}"
