"""Blackjack transcripts (docs/transcript.md): replay one, and write one from rounds played.

:func:`replay_blackjack` runs a parsed transcript through :class:`~croupier.blackjack.state.Table`
and returns the result document; :func:`to_transcript` writes rounds played by the engine as a
transcript that replays to the same result.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from functools import partial
from typing import Any, TypeVar

from croupier.blackjack import actions as op
from croupier.blackjack import moves
from croupier.blackjack.actions import describe_pending
from croupier.blackjack.hand import total
from croupier.blackjack.presets import PRESETS, blackjack_rules
from croupier.blackjack.rules import PARAMS, Rules
from croupier.blackjack.state import AUTOMATIONS, Round, Table
from croupier.cards import Card, parse_cards
from croupier.errors import CroupierError, TranscriptError
from croupier.money import ZERO, format_amount
from croupier.ruleset import describe
from croupier.shoe import Shoe

T = TypeVar("T")

PLAY_DECISIONS = tuple(cls.kind for cls in moves.PLAYS)
ACTION_TYPES = (moves.Insure.kind, moves.TakeEvenMoney.kind, *PLAY_DECISIONS)
"""The action types a transcript holds (closing the offer is not one: the first play decision closes it)."""


def _at(where: str, call: Callable[[], T]) -> T:
    """Run ``call``; a croupier error becomes a one-line :class:`TranscriptError` prefixed by ``where``."""
    try:
        return call()
    except TranscriptError:
        raise
    except CroupierError as error:
        raise TranscriptError(f"{where}: {error}") from None


def load_rules(doc: Mapping[str, Any]) -> Rules:
    preset = doc.get("rules")
    if not isinstance(preset, str):
        raise TranscriptError(f"transcript: rules must name a preset ({', '.join(PRESETS)})")
    overrides = doc.get("overrides") or {}
    if not isinstance(overrides, dict):
        raise TranscriptError("transcript: overrides must be an object of rule parameters")
    return _at("transcript", lambda: blackjack_rules(preset, overrides))


def load_shoe(doc: Mapping[str, Any], decks: int) -> Shoe:
    cards = doc.get("shoe")
    if not isinstance(cards, list):
        raise TranscriptError('transcript: shoe must be a list of cards such as ["7H", "TS"]')
    parsed = _at("transcript: shoe", lambda: parse_cards(cards))
    cut = doc.get("cut_card")
    if cut is not None and (isinstance(cut, bool) or not isinstance(cut, int) or cut < 0):
        raise TranscriptError(f"transcript: cut_card must be a count of cards (0 or more), got {cut!r}")
    return _at("transcript: shoe", lambda: Shoe.stacked(decks, parsed, cut))


def replay_blackjack(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Replay a blackjack transcript; return docs/transcript.md's result document."""
    rules = load_rules(doc)
    table = Table(rules, load_shoe(doc, rules.decks))
    rounds = doc.get("rounds")
    if not isinstance(rounds, list):
        raise TranscriptError("transcript: rounds must be a list")
    results = []
    total_net: dict[str, Decimal] = {}
    for number, spec in enumerate(rounds, start=1):
        played = play_round(table, spec, number)
        result = round_result(played)
        for player, amount in played.net().items():
            total_net[player] = total_net.get(player, ZERO) + amount
        results.append(result)
    return {"rounds": results, "net": {player: format_amount(amount) for player, amount in total_net.items()}}


def play_round(table: Table, spec: object, number: int) -> Round:
    """Play one transcript round on ``table``; errors name the round and the action."""
    where = f"round {number}"
    if not isinstance(spec, dict):
        raise TranscriptError(f"{where}: a round must be an object with bets and actions")
    if table.shoe_finished:
        raise TranscriptError(
            f"{where}: the cut card came out in round {number - 1}, the shoe's last round (Art. 2.2; online §3.2.2)"
        )
    seated = _seated(spec.get("seated"), where)
    misdeals = _misdeals(spec, where)
    chores = AUTOMATIONS - {"burn", "deal"} if misdeals else None
    current = _at(where, lambda: table.new_round(seated, automations=chores))
    bets = spec.get("bets")
    if not isinstance(bets, list) or not bets:
        raise TranscriptError(f"{where}: bets must be a non-empty list")
    for index, bet in enumerate(bets, start=1):
        if not isinstance(bet, dict):
            raise TranscriptError(f"{where}, bet {index}: a bet is an object with player, box and amount")
        player, box = bet.get("player"), bet.get("box")
        label = f"{where}, bet {index} ({player}, box {box})"
        if not isinstance(player, str) or not isinstance(box, int) or isinstance(box, bool):
            raise TranscriptError(f"{label}: a bet names a player (a string) and a box (an integer)")
        if "amount" not in bet:
            raise TranscriptError(f"{label}: a bet needs an amount")
        _at(label, partial(current.bet, player, box, bet["amount"]))
    _at(where, current.deal)
    burn = spec.get("burn_after_misdeal", 0)
    for number_of_misdeal, after in enumerate(misdeals, start=1):
        label = f"{where}, misdeal {number_of_misdeal}"
        while current.cards_drawn < after:
            pending = current.pending
            if not isinstance(pending, op.AwaitChore) or pending.chore not in ("burn", "deal"):
                raise TranscriptError(
                    f"{label}: the deal gives {current.cards_drawn} card(s) before {describe_pending(pending)}; "
                    f"misdeal_after_cards is {after}"
                )
            _at(label, current.burn_card if pending.chore == "burn" else current.deal_card)
            _check_cards(current, label)
        current.void("misdeal (Art. 2.1)")
        last = number_of_misdeal == len(misdeals)
        current = _at(label, partial(table.replay_voided, current, burn, None if last else chores))
        _at(label, current.deal)
    _check_cards(current, where)
    actions = spec.get("actions") or []
    if not isinstance(actions, list):
        raise TranscriptError(f"{where}: actions must be a list")
    for index, action in enumerate(actions, start=1):
        label = f"{where}, action {index}"
        if not isinstance(action, dict):
            raise TranscriptError(f"{label}: an action is an object with a type")
        kind = action.get("type")
        label = f"{label} ({kind}, box {action.get('box')})"
        if kind not in ACTION_TYPES:
            raise TranscriptError(f"{label}: unknown action type; the types are {', '.join(ACTION_TYPES)}")
        _at(label, partial(_apply_action, current, action))
        _check_cards(current, label)
    if isinstance(current.pending, op.AwaitInsurance):
        current.close_insurance()
        _check_cards(current, where)
    if not current.ended:
        raise TranscriptError(
            f"{where}: the transcript ends while the round waits for {describe_pending(current.pending)}"
        )
    return current


def _misdeals(spec: Mapping[str, Any], where: str) -> list[int]:
    """``misdeal_after_cards``: the deal was voided after so many cards of the round (Art. 2.1)."""
    raw = spec.get("misdeal_after_cards")
    burn = spec.get("burn_after_misdeal", 0)
    if isinstance(burn, bool) or not isinstance(burn, int) or not 0 <= burn <= 10:
        raise TranscriptError(f"{where}: burn_after_misdeal must be 0-10 cards (online §3.5 burns 3), got {burn!r}")
    if raw is None:
        return []
    counts = raw if isinstance(raw, list) else [raw]
    if not counts or any(isinstance(n, bool) or not isinstance(n, int) or n < 1 for n in counts):
        raise TranscriptError(f"{where}: misdeal_after_cards must be a count of cards (1 or more), or a list of them")
    return [int(n) for n in counts]


def _seated(raw: object, where: str) -> dict[int, str]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise TranscriptError(f"{where}: seated must map box numbers to players")
    seated: dict[int, str] = {}
    for key, player in raw.items():
        if not str(key).isdigit() or not isinstance(player, str):
            raise TranscriptError(f"{where}: seated maps box numbers to player names, got {key!r}: {player!r}")
        seated[int(key)] = player
    return seated


def _check_cards(current: Round, where: str) -> None:
    if isinstance(current.pending, op.AwaitCard):
        raise TranscriptError(
            f"{where}: the shoe has no card left for {current.pending.purpose}: the transcript's shoe holds "
            f"{current.shoe.size} card(s)"
        )


def _apply_action(current: Round, action: Mapping[str, Any]) -> None:
    kind = action["type"]
    box = action.get("box")
    if not isinstance(box, int) or isinstance(box, bool):
        raise TranscriptError("an action names its box (an integer)")
    player = action.get("player")
    if player is not None and not isinstance(player, str):
        raise TranscriptError("player must be a name (a string)")
    named = moves.type_of(kind)
    offer = named is moves.Insure or named is moves.TakeEvenMoney
    if named is moves.Insure and (player is None or "amount" not in action):
        raise TranscriptError("insurance needs a player and an amount (docs/transcript.md)")
    if named is moves.TakeEvenMoney and player is None:
        raise TranscriptError("even money needs a player (docs/transcript.md)")
    hand = action.get("hand")
    if not offer and hand is not None and (not isinstance(hand, int) or isinstance(hand, bool)):
        raise TranscriptError("hand must be an integer (0 is the first)")
    declined = _declined_by(action) if not offer else []
    typed = moves.parse(kind, box=box, hand=hand, player=player, amount=action.get("amount"), declined_by=declined)
    if isinstance(typed, moves.Play) and isinstance(current.pending, op.AwaitInsurance):
        current.verify_first(typed)  # the first play decision closes the offer
        current.close_insurance()
    current.apply(typed)


def _declined_by(action: Mapping[str, Any]) -> list[str]:
    """A ``double`` or ``split``'s optional ``declined_by``: the bettors who add no matching stake (Art. 13)."""
    raw = action.get("declined_by")
    if raw is None:
        return []
    if moves.type_of(action["type"]) not in (moves.Double, moves.Split):
        raise TranscriptError("declined_by belongs to a double or a split (Art. 13)")
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        raise TranscriptError("declined_by must be a list of player names (Art. 13)")
    return list(raw)


def round_result(played: Round) -> dict[str, Any]:
    """One round of the result document (docs/transcript.md "Output")."""
    dealer = played.dealer_cards
    boxes = []
    for box in played.boxes:
        hands = []
        for hand in played.hands.get(box, []):
            entry: dict[str, Any] = {
                "cards": [str(card) for card in hand.cards],
                "total": hand.total,
                "outcome": hand.outcome,
                "stakes": {player: format_amount(stake) for player, stake in hand.stakes.items()},
            }
            if len(set(hand.results.values())) > 1:
                entry["results"] = dict(hand.results)
            hands.append(entry)
        boxes.append({"box": box, "hands": hands})
    result: dict[str, Any] = {
        "burned": [str(card) for card in played.burned],
        "dealer": {"cards": [str(card) for card in dealer], "total": total(dealer)[0]},
        "boxes": boxes,
    }
    if played.insurance:
        result["insurance"] = [
            {"player": player, "box": box, "amount": format_amount(amount)}
            for (player, box), amount in played.insurance.items()
        ]
    if played.even_money:
        result["even_money"] = [{"player": player, "box": box} for player, box in sorted(played.even_money)]
    if played.returned:  # Art. 2.3: bets returned when betting closed, never played
        result["returned"] = [
            {
                "player": r.player,
                "box": r.box,
                "amount": format_amount(r.amount),
                "outcome": "returned",
                "reason": r.reason,
            }
            for r in played.returned
        ]
    result["net"] = {player: format_amount(amount) for player, amount in played.net().items()}
    result["last_round"] = played.last_round
    return result


def render_blackjack(result: Mapping[str, Any]) -> str:
    """A readable account of a replay."""
    lines = []
    for number, entry in enumerate(result["rounds"], start=1):
        lines.append(f"Round {number}" + ("  (last round of the shoe)" if entry["last_round"] else ""))
        if entry["burned"]:
            lines.append(f"  burned   {' '.join(entry['burned'])}")
        dealer = entry["dealer"]
        lines.append(f"  dealer   {' '.join(dealer['cards'])}  = {dealer['total']}")
        for box in entry["boxes"]:
            for index, hand in enumerate(box["hands"]):
                stakes = ", ".join(f"{p} {a}" for p, a in hand["stakes"].items())
                label = f"box {box['box']}" + (f".{index}" if len(box["hands"]) > 1 else "")
                lines.append(
                    f"  {label:<8} {' '.join(hand['cards']):<20} = {hand['total']:<3} {hand['outcome']:<10} ({stakes})"
                )
        for insured in entry.get("insurance", []):
            lines.append(f"  insurance {insured['player']} on box {insured['box']}: {insured['amount']}")
        for returned in entry.get("returned", []):
            lines.append(f"  returned {returned['player']}'s {returned['amount']} on box {returned['box']} (Art. 2.3)")
        lines.append("  net      " + ", ".join(f"{p} {a}" for p, a in entry["net"].items()))
    lines.append("Total    " + ", ".join(f"{p} {a}" for p, a in result["net"].items()))
    return "\n".join(lines)


# writing transcripts -----------------------------------------------------------------------------


def overrides_of(rules: Rules) -> dict[str, str]:
    """The parameters in which ``rules`` differs from its preset, as a transcript writes them."""
    base = PRESETS[rules.preset]
    return {name: describe(getattr(rules, name)) for name in PARAMS if getattr(rules, name) != getattr(base, name)}


def round_spec(played: Round) -> dict[str, Any]:
    """The transcript round that replays ``played``: its bets, seats and decisions."""
    bets = [
        {"player": o.player, "box": o.box, "amount": format_amount(o.amount)}
        for o in played.operations
        if isinstance(o, op.BetPlaced)
    ]
    actions: list[dict[str, Any]] = []
    for o in played.operations:
        if isinstance(o, op.InsuranceTaken):
            actions.append(
                {"type": moves.Insure.kind, "player": o.player, "box": o.box, "amount": format_amount(o.amount)}
            )
        elif isinstance(o, op.EvenMoneyTaken):
            actions.append({"type": moves.TakeEvenMoney.kind, "player": o.player, "box": o.box})
        elif isinstance(o, op.Decision):
            entry: dict[str, Any] = {"type": o.kind, "box": o.box, "hand": o.hand, "player": o.player}
            if moves.type_of(o.kind) is moves.Double and o.amount is not None:
                entry["amount"] = format_amount(o.amount)
            if o.declined_by:
                entry["declined_by"] = list(o.declined_by)
            actions.append(entry)
    spec: dict[str, Any] = {"bets": bets, "actions": actions}
    if played.seated:
        spec["seated"] = {str(box): player for box, player in sorted(played.seated.items())}
    return spec


def to_transcript(rules: Rules, cards: Sequence[Card], rounds: Sequence[Round], cut_card: int | None) -> dict[str, Any]:
    """A transcript of ``rounds`` played from a shoe whose order began with ``cards``."""
    doc: dict[str, Any] = {"game": "blackjack", "rules": rules.preset}
    overrides = overrides_of(rules)
    if overrides:
        doc["overrides"] = overrides
    doc["shoe"] = [str(card) for card in cards]
    if cut_card is not None:
        doc["cut_card"] = cut_card
    specs: list[dict[str, Any]] = []
    voided: list[Round] = []
    for played in rounds:
        if played.voided:
            voided.append(played)
            continue
        spec = round_spec(played)
        if voided:
            spec["misdeal_after_cards"] = [v.cards_drawn for v in voided]
            burns = {following.extra_burns for following in [*voided[1:], played]}
            if len(burns) > 1:
                raise TranscriptError("transcript: misdeals with different burns in one round cannot be written")
            if burns != {0}:
                spec["burn_after_misdeal"] = burns.pop()
            voided = []
        specs.append(spec)
    if voided:
        raise TranscriptError("transcript: a voided round must be followed by its replay to be written")
    doc["rounds"] = specs
    return doc
