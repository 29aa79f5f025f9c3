"""The games as a table actor drives them: one round at a time, bets, decisions, timers, what is public.

A :class:`GameRound` wraps one engine round (blackjack :class:`~croupier.blackjack.state.Round`, or
a baccarat coup of :class:`~croupier.baccarat.state.BaccaratTable`) behind the few verbs a table
needs: verify and place a bet, close betting, what is pending and for whom, the money a decision
takes before it is made, make it, the answer a timer gives, and the events anyone may see.

Public events never hold a card before it is dealt face up: a burn is announced without its card, a
hole card as "face down" until it is turned, and the shoe's order is never read.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol

from croupier.baccarat.replay import round_document
from croupier.baccarat.roads import Coup, roads_document, scoreboard
from croupier.baccarat.rules import Rules as BaccaratRules
from croupier.baccarat.state import (
    BaccaratTable,
    CoupResult,
    CoupSettled,
    CoupStarted,
    CoupVoided,
    FirstCardTurned,
    SqueezeHolderNamed,
)
from croupier.baccarat.state import BetPlaced as BaccaratBet
from croupier.baccarat.state import CardBurned as BaccaratBurned
from croupier.baccarat.state import CardDealt as BaccaratDealt
from croupier.baccarat.state import CutCardOut as BaccaratCutCard
from croupier.baccarat.state import Phase as BaccaratPhase
from croupier.blackjack import actions as op
from croupier.blackjack.hand import total
from croupier.blackjack.replay import round_result, round_spec
from croupier.blackjack.rules import Rules as BlackjackRules
from croupier.blackjack.state import Round, Table
from croupier.cards import Card
from croupier.errors import CroupierError, IllegalActionError
from croupier.math.baccarat import analyze_baccarat
from croupier.money import format_amount
from croupier.shoe import Shoe


class ActionError(CroupierError):
    """A request the round refuses: the message names the rule."""


@dataclass(frozen=True)
class Pending:
    """What the round waits for: ``bets``, ``insurance``, ``decision`` (``player``, ``box``, ``hand``),
    ``card`` (a live dealer's next card), ``void`` (a shoe that ran dry) or ``over``."""

    kind: str
    player: str | None = None
    box: int | None = None
    hand: int | None = None
    purpose: str | None = None

    def document(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


class GameRound(Protocol):
    def progress(self) -> int: ...
    def verify_bet(self, player: str, spot: str, amount: Decimal) -> None: ...
    def bet(self, player: str, spot: str, amount: Decimal) -> None: ...
    def close_betting(self) -> None: ...
    def pending(self) -> Pending: ...
    def stakes_for(self, player: str, action: dict[str, Any]) -> dict[str, Decimal]: ...
    def act(self, player: str, action: dict[str, Any]) -> None: ...
    def timeout(self) -> None: ...
    def supply_card(self, card: Card) -> None: ...
    def void(self, reason: str) -> None: ...
    def staked(self) -> dict[str, Decimal]: ...
    def net(self) -> dict[str, Decimal]: ...
    def events_since(self, start: int) -> tuple[int, list[dict[str, Any]]]: ...
    def view(self) -> dict[str, Any]: ...
    def legal_for(self, player: str) -> list[dict[str, Any]]: ...
    def cards_drawn(self) -> list[str]: ...
    def spec(self) -> dict[str, Any]: ...
    def result(self) -> dict[str, Any]: ...
    @property
    def has_bets(self) -> bool: ...
    @property
    def finished(self) -> bool: ...
    @property
    def voided(self) -> bool: ...
    @property
    def last_of_shoe(self) -> bool: ...


def _amount(raw: object, what: str) -> Decimal | None:
    if raw is None:
        return None
    try:
        return Decimal(str(raw))
    except ArithmeticError:
        raise ActionError(f"{what}: {raw!r} is not an amount") from None


class BlackjackRound:
    """One blackjack round at a server table."""

    def __init__(self, table: Table, round_: Round) -> None:
        self.table = table
        self.round = round_
        self.declined: set[tuple[str, int]] = set()

    def _open_offers(self) -> set[tuple[str, int]]:
        """The (bettor, box) insurance or even-money offers not yet answered."""
        offers = {
            (a.player, a.box)
            for a in self.round.legal_actions()
            if a.kind in ("insurance", "even_money") and a.player is not None
        }
        return offers - self.declined

    def _close_when_answered(self) -> None:
        """Every offer answered (taken or declined): the insurance offer ends at once (online §3.6)."""
        if isinstance(self.round.pending, op.AwaitInsurance) and not self._open_offers():
            self.round.close_insurance()

    def progress(self) -> int:
        """How far the round has come: its operations so far."""
        return len(self.round.operations)

    # betting -------------------------------------------------------------------------------------
    @staticmethod
    def _box(spot: str) -> int:
        if not spot.isdigit():
            raise ActionError(f"bet: blackjack bets are on a box number, not {spot!r}")
        return int(spot)

    def verify_bet(self, player: str, spot: str, amount: Decimal) -> None:
        self.round.verify_bet(player, self._box(spot), amount)

    def bet(self, player: str, spot: str, amount: Decimal) -> None:
        self.round.bet(player, self._box(spot), amount)

    @property
    def has_bets(self) -> bool:
        return bool(self.round.bets)

    def close_betting(self) -> None:
        self.round.deal()

    # play ----------------------------------------------------------------------------------------
    def pending(self) -> Pending:
        pending = self.round.pending
        if self.round.voided or pending is None:
            return Pending("over")
        if isinstance(pending, op.AwaitBets):
            return Pending("bets")
        if isinstance(pending, op.AwaitInsurance):
            return Pending("insurance")
        if isinstance(pending, op.AwaitDecision):
            return Pending("decision", pending.player, pending.box, pending.hand)
        if isinstance(pending, op.AwaitCard):
            return Pending("card" if self.round.shoe.is_live else "void", purpose=pending.purpose)
        return Pending("over")

    def _target(self, action: dict[str, Any]) -> tuple[int, int | None]:
        box = action.get("box")
        hand = action.get("hand")
        if not isinstance(box, int) or isinstance(box, bool):
            raise ActionError(f"{action.get('type')}: name the box (a number)")
        if hand is not None and (not isinstance(hand, int) or isinstance(hand, bool)):
            raise ActionError(f"{action.get('type')}: the hand is a number")
        return box, hand

    def stakes_for(self, player: str, action: dict[str, Any]) -> dict[str, Decimal]:
        """Verify ``action`` for ``player`` and return the money each bettor must add before it is made."""
        kind = action.get("type")
        rd = self.round
        if kind == "insurance":
            box, _hand = self._target(action)
            amount = _amount(action.get("amount"), "insurance")
            if amount is None:
                raise ActionError("insurance: give the amount (at most half the bet, Art. 8)")
            return {player: rd.verify_insurance(player, box, amount)}
        if kind == "even_money":
            box, _hand = self._target(action)
            rd.verify_even_money(player, box)
            return {}
        if kind == "no_insurance":
            box, _hand = self._target(action)
            if (player, box) not in self._open_offers():
                raise ActionError(
                    f"no_insurance on box {box}: {player} has no insurance or even money offer to decline"
                )
            return {}
        box, hand = self._target(action)
        if kind == "double":
            amount = _amount(action.get("amount"), "double")
            added = rd.verify_double(box, hand, player, amount)
            target = rd.hands[box][hand if hand is not None else self._turn_hand()]
            decider = target.stakes[player]
            return {p: stake * added / decider for p, stake in target.stakes.items()}
        if kind == "split":
            rd.verify_split(box, hand, player)
            target = rd.hands[box][hand if hand is not None else self._turn_hand()]
            return {p: rd.bets[box][p] for p in target.stakes}
        if kind == "hit":
            rd.verify_hit(box, hand, player)
        elif kind == "stand":
            rd.verify_stand(box, hand, player)
        elif kind == "surrender":
            rd.verify_surrender(box, hand, player)
        else:
            raise ActionError(
                f"unknown action {kind!r}; the actions are hit, stand, double, split, surrender, insurance, even_money"
            )
        return {}

    def _turn_hand(self) -> int:
        pending = self.round.pending
        if isinstance(pending, op.AwaitDecision):
            return pending.hand
        raise IllegalActionError("no hand is to act")

    def act(self, player: str, action: dict[str, Any]) -> None:
        kind = action.get("type")
        rd = self.round
        box, hand = self._target(action)
        if kind == "insurance":
            rd.insure(player, box, _amount(action.get("amount"), "insurance"))
            self._close_when_answered()
        elif kind == "even_money":
            rd.take_even_money(player, box)
            self._close_when_answered()
        elif kind == "no_insurance":
            self.declined.add((player, box))
            self._close_when_answered()
        elif kind == "double":
            rd.double(box, hand, player, _amount(action.get("amount"), "double"))
        elif kind == "split":
            rd.split(box, hand, player)
        elif kind == "hit":
            rd.hit(box, hand, player)
        elif kind == "stand":
            rd.stand(box, hand, player)
        elif kind == "surrender":
            rd.surrender(box, hand, player)
        else:
            raise ActionError(f"unknown action {kind!r}")

    def timeout(self) -> None:
        """The timer ran out: insurance is declined, or the hand to act stands (RULES.md, live details)."""
        pending = self.round.pending
        if isinstance(pending, op.AwaitInsurance):
            self.round.close_insurance()
        elif isinstance(pending, op.AwaitDecision):
            self.round.stand(pending.box, pending.hand, pending.player)

    def supply_card(self, card: Card) -> None:
        self.round.supply_card(card)

    def void(self, reason: str) -> None:
        self.round.void(reason)

    def void_card(self, card: Card, reason: str) -> None:
        """Art. 3.2a: a card the dealer drew by mistake is void (the engine's ``Round.void_card``)."""
        voider = getattr(self.round, "void_card", None)
        if voider is None:
            raise ActionError(
                "this server's blackjack engine cannot void a drawn card yet (Art. 3.2a); declare a misdeal "
                "(Art. 2.1) or void the round"
            )
        voider(card, reason)

    def move_card(self, card: Card, box: int, hand: int) -> None:
        """Art. 2.1: a card dealt to the wrong box goes to the box it belonged to (``Round.move_card``)."""
        mover = getattr(self.round, "move_card", None)
        if mover is None:
            raise ActionError(
                "this server's blackjack engine cannot move a card yet (Art. 2.1); declare a misdeal instead"
            )
        mover(card, box, hand)

    # results -------------------------------------------------------------------------------------
    def staked(self) -> dict[str, Decimal]:
        return self.round.staked()

    def net(self) -> dict[str, Decimal]:
        return self.round.net()

    @property
    def finished(self) -> bool:
        return self.round.ended

    @property
    def voided(self) -> bool:
        return self.round.voided

    @property
    def last_of_shoe(self) -> bool:
        return self.round.last_round or self.table.shoe_finished

    def cards_drawn(self) -> list[str]:
        """The cards the round took from the shoe, burns included, in order; not a card found face up in
        the shoe (void, Art. 2.1: as if the shoe had not held it, so a transcript's shoe leaves it out)."""
        drawn = []
        for o in self.round.operations:
            if isinstance(o, op.CardBurned | op.CardDealt):
                drawn.append(str(o.card))
        return drawn

    def face_up_voided(self) -> list[str]:
        """The cards found face up in the shoe during the round, void (Art. 2.1)."""
        return [str(o.card) for o in self.round.operations if isinstance(o, op.CardVoided)]

    def spec(self) -> dict[str, Any]:
        return round_spec(self.round)

    def result(self) -> dict[str, Any]:
        return round_result(self.round)

    # what anyone may see ------------------------------------------------------------------------
    def events_since(self, start: int) -> tuple[int, list[dict[str, Any]]]:
        operations = self.round.operations
        return len(operations), [public_event(o) for o in operations[start:]]

    def legal_for(self, player: str) -> list[dict[str, Any]]:
        result = []
        open_offers = self._open_offers() if isinstance(self.round.pending, op.AwaitInsurance) else set()
        for action in self.round.legal_actions():
            if action.player != player or (
                action.kind in ("insurance", "even_money") and (player, action.box) not in open_offers
            ):
                continue
            entry: dict[str, Any] = {"type": action.kind, "box": action.box}
            if action.hand is not None:
                entry["hand"] = action.hand
            if action.min_amount is not None:
                entry["min_amount"] = format_amount(action.min_amount)
            if action.max_amount is not None:
                entry["max_amount"] = format_amount(action.max_amount)
            result.append(entry)
        for who, box in sorted(open_offers):
            if who == player:
                result.append({"type": "no_insurance", "box": box})
        return result

    def view(self) -> dict[str, Any]:
        rd = self.round
        dealer = rd.dealer_cards
        boxes = []
        for box in sorted(set(rd.bets) | set(rd.hands)):
            hands = []
            for hand in rd.hands.get(box, []):
                hands.append(
                    {
                        "cards": [str(c) for c in hand.cards],
                        "total": hand.total,
                        "soft": total(hand.cards)[1] if hand.cards else False,
                        "outcome": hand.outcome or None,
                        "stakes": {p: format_amount(s) for p, s in hand.stakes.items()},
                    }
                )
            boxes.append(
                {
                    "box": box,
                    "bets": {p: format_amount(a) for p, a in rd.bets.get(box, {}).items()},
                    "decider": rd.decider(box) if box in rd.bets else None,
                    "hands": hands,
                }
            )
        return {
            "dealer": {
                "cards": [str(c) for c in dealer],
                "hole_card": rd.dealer_has_hole_card,
                "total": total(dealer)[0] if dealer else 0,
            },
            "boxes": boxes,
            "insurance": [{"player": p, "box": b, "amount": format_amount(a)} for (p, b), a in rd.insurance.items()],
            "payments": [payment_document(p) for p in rd.payments],
        }


def payment_document(payment: op.Payment) -> dict[str, Any]:
    return {
        "player": payment.player,
        "box": payment.box,
        "hand": payment.hand,
        "kind": payment.kind,
        "stake": format_amount(payment.stake),
        "amount": format_amount(payment.amount),
    }


def public_event(operation: op.Operation) -> dict[str, Any]:
    """An engine operation as anyone at the table may see it: never a card before it is face up."""
    o = operation
    if isinstance(o, op.BetPlaced):
        return {"type": "bet", "player": o.player, "box": o.box, "amount": format_amount(o.amount)}
    if isinstance(o, op.CardBurned):
        return {"type": "burn"}
    if isinstance(o, op.CardDealt):
        if not o.face_up:
            return {"type": "card", "box": o.box, "hand": o.hand, "face_up": False}
        return {"type": "card", "box": o.box, "hand": o.hand, "face_up": True, "card": str(o.card)}
    if isinstance(o, op.CardVoided):
        return {"type": "card_voided", "card": str(o.card)}
    if isinstance(o, op.HoleCardTurned):
        return {"type": "hole_card", "card": str(o.card)}
    if isinstance(o, op.CutCardOut):
        return {"type": "cut_card"}
    if isinstance(o, op.InsuranceTaken):
        return {"type": "insurance", "player": o.player, "box": o.box, "amount": format_amount(o.amount)}
    if isinstance(o, op.EvenMoneyTaken):
        return {"type": "even_money", "player": o.player, "box": o.box}
    if isinstance(o, op.InsuranceClosed):
        return {"type": "insurance_closed"}
    if isinstance(o, op.DealerPeeked):
        return {"type": "peek", "natural": o.natural}
    if isinstance(o, op.Decision):
        entry: dict[str, Any] = {"type": o.kind, "player": o.player, "box": o.box, "hand": o.hand}
        if o.amount is not None:
            entry["amount"] = format_amount(o.amount)
        return entry
    if isinstance(o, op.HandStood):
        return {"type": "hand_stood", "box": o.box, "hand": o.hand, "reason": o.reason}
    if isinstance(o, op.DealerStood):
        return {"type": "dealer_stood", "total": o.total}
    if isinstance(o, op.Payment):
        return {"type": "payment", **payment_document(o)}
    if isinstance(o, op.RoundEnded):
        return {"type": "round_ended", "last_round": o.last_round}
    return {"type": "round_voided", "reason": o.reason}


def new_blackjack_round(table: Table) -> BlackjackRound:
    return BlackjackRound(table, table.new_round())


def blackjack_table(rules: BlackjackRules, shoe: Shoe) -> Table:
    return Table(rules, shoe)


def read_card(text: object) -> Card:
    if not isinstance(text, str):
        raise ActionError(f"card: {text!r} is not a card such as AS or TD")
    try:
        return Card.parse(text)
    except (CroupierError, ValueError):
        raise ActionError(f"card: {text!r} is not a card such as AS or TD") from None


# --------------------------------------------------------------------------------------------------
# baccarat


class BaccaratRound:
    """One coup at a server baccarat table. Ties return the player and banker bets (Art. 12: the bettor
    may take them back; the server always does, so every coup settles whole)."""

    def __init__(
        self, table: BaccaratTable, history: list[CoupResult], start: int | None = None, shoe_start: int = 0
    ) -> None:
        self.table = table
        self.history = history
        self.shoe_start = shoe_start
        self.start = table.operation_count if start is None else start  # the shoe's start goes with its first coup
        self._stakes: dict[tuple[str, str], Decimal] = {}
        self._voided = False
        self._result: CoupResult | None = None

    def progress(self) -> int:
        return self.table.operation_count

    def verify_bet(self, player: str, spot: str, amount: Decimal) -> None:
        self.table.verify_place_bet(player, spot, amount)

    def bet(self, player: str, spot: str, amount: Decimal) -> None:
        self.table.place_bet(player, spot, amount)  # type: ignore[arg-type]
        self._stakes[(player, spot)] = self._stakes.get((player, spot), Decimal(0)) + amount

    @property
    def has_bets(self) -> bool:
        return bool(self._stakes)

    def close_betting(self) -> None:
        self.table.start_coup()
        self._pick_result()

    def _pick_result(self) -> None:
        last = self.table.last_result
        if (
            last is not None
            and self._result is None
            and last.coup == self.table.coup
            and not last.demo
            and any(isinstance(o, CoupSettled) for o in self.table.operations_since(self.start))
        ):
            self._result = last
            self.history.append(last)

    def pending(self) -> Pending:
        if self._voided:
            return Pending("over")
        self._pick_result()
        if self._result is not None:
            return Pending("over")
        if self.table.phase is BaccaratPhase.BETTING:
            return Pending("bets")
        shoe = self.table.shoe
        if shoe is not None and shoe.is_live:
            return Pending("card", purpose=f"the next card of coup {self.table.coup}")
        return Pending("void", purpose="the shoe ran out of cards")

    def stakes_for(self, player: str, action: dict[str, Any]) -> dict[str, Decimal]:
        raise ActionError("baccarat takes no decisions after the bets (Art. 9: the tableau decides every card)")

    def act(self, player: str, action: dict[str, Any]) -> None:
        raise ActionError("baccarat takes no decisions after the bets (Art. 9: the tableau decides every card)")

    def timeout(self) -> None:
        return None

    def supply_card(self, card: Card) -> None:
        self.table.supply(card)
        self._pick_result()

    def void(self, reason: str) -> None:
        if self.table.can_void_coup():
            self.table.void_coup(reason)
        self._voided = True

    def staked(self) -> dict[str, Decimal]:
        result: dict[str, Decimal] = {}
        for (player, _spot), amount in self._stakes.items():
            result[player] = result.get(player, Decimal(0)) + amount
        return result

    def net(self) -> dict[str, Decimal]:
        return {} if self._result is None else self._result.net

    @property
    def finished(self) -> bool:
        return self._result is not None

    @property
    def voided(self) -> bool:
        return self._voided

    @property
    def last_of_shoe(self) -> bool:
        return self._result is not None and self._result.last_coup

    def cards_drawn(self) -> list[str]:
        drawn: list[str] = []
        for o in self.table.operations_since(self.start):
            if isinstance(o, BaccaratBurned | BaccaratDealt | FirstCardTurned):
                drawn.append(str(o.card))
            elif isinstance(o, CoupVoided):
                pass
        return drawn

    def spec(self) -> dict[str, Any]:
        return {"bets": [{"player": p, "on": s, "amount": format_amount(a)} for (p, s), a in self._stakes.items()]}

    def result(self) -> dict[str, Any]:
        if self._result is None:
            return {}
        return coup_document(self._result, self.table.operations_since(self.start))

    def events_since(self, start: int) -> tuple[int, list[dict[str, Any]]]:
        operations = self.table.operations_since(self.start)
        return len(operations), [e for e in (baccarat_event(o) for o in operations[start:]) if e is not None]

    def legal_for(self, player: str) -> list[dict[str, Any]]:
        if self.table.phase is BaccaratPhase.BETTING and self._result is None:
            return [{"type": "bet", "spot": spot} for spot in self.table.rules.spots]
        return []

    def view(self) -> dict[str, Any]:
        table = self.table
        bets: dict[str, dict[str, str]] = {}
        for (player, spot), amount in self._stakes.items():
            bets.setdefault(spot, {})[player] = format_amount(amount)
        return {
            "coup": table.coup,
            "player_cards": [str(c) for c in table.player_cards],
            "banker_cards": [str(c) for c in table.banker_cards],
            "bets": bets,
            "spots": list(table.rules.spots),
            "result": None if self._result is None else coup_document(self._result),
            "roads": roads_of(self.history),
            "house_edge": self.house_edge(),
            "squeeze": {
                o.side: o.player for o in self.table.operations_since(self.start) if isinstance(o, SqueezeHolderNamed)
            },
        }

    def house_edge(self) -> dict[str, str]:
        """Each bet's exact house edge for the cards not yet seen face up in this shoe (the burns unseen
        count as unseen: what anyone at the table can know). Counted once per card seen."""
        seen = [
            o.card
            for o in self.table.operations_since(self.shoe_start)
            if isinstance(o, BaccaratDealt | FirstCardTurned)
        ]
        key = (id(self.table), self.shoe_start, len(seen))
        cached = _EDGES.get(key)
        if cached is not None:
            return cached
        counts = [4 * self.table.rules.decks] * 13
        for card in seen:
            counts[card.rank_index] -= 1
        try:
            analysis = analyze_baccarat(self.table.rules, counts)
        except CroupierError:
            return {}
        edges: dict[str, str] = {spot: f"{float(edge):.6f}" for spot, edge in analysis.house_edge.items()}
        if len(_EDGES) > 64:
            _EDGES.clear()
        _EDGES[key] = edges
        return edges


def coup_document(result: CoupResult, operations: tuple[Any, ...] = ()) -> dict[str, Any]:
    """A settled coup as croupier replay writes it, less the burned cards (never shown face up)."""
    document = {k: v for k, v in round_document(result, operations).items() if k != "burned"}
    return {"coup": result.coup, **document}


def roads_of(history: list[CoupResult]) -> dict[str, Any]:
    """The five roads of this shoe's coups so far (bead plate, big road and the derived roads, with ask)."""
    coups = [
        Coup(
            {"banker": "B", "player": "P", "tie": "T"}[r.cards.winner],  # type: ignore[arg-type]
            banker_pair=r.cards.banker_pair,
            player_pair=r.cards.player_pair,
        )
        for r in history
        if not r.demo
    ]
    return roads_document(scoreboard(coups))


def baccarat_event(operation: object) -> dict[str, Any] | None:
    o = operation
    if isinstance(o, BaccaratBet):
        return {"type": "bet", "player": o.player, "spot": o.spot, "amount": format_amount(o.amount)}
    if isinstance(o, BaccaratBurned):
        return {"type": "burn"}
    if isinstance(o, FirstCardTurned):
        return {"type": "first_card", "card": str(o.card), "burns": o.burns}
    if isinstance(o, CoupStarted):
        return {"type": "coup_started", "coup": o.coup, "demo": o.demo}
    if isinstance(o, BaccaratDealt):
        return {"type": "card", "side": o.side, "card": str(o.card), "face_up": True}
    if isinstance(o, BaccaratCutCard):
        return {"type": "cut_card", "coup": o.coup}
    if isinstance(o, CoupVoided):
        return {"type": "coup_voided", "coup": o.coup, "reason": o.reason}
    if isinstance(o, SqueezeHolderNamed):
        return {"type": "squeeze_holder", "side": o.side, "player": o.player}
    if isinstance(o, CoupSettled):
        return {"type": "coup_result", **coup_document(o.result)}
    return None


_EDGES: dict[tuple[int, int, int], dict[str, str]] = {}
"""Baccarat house edges by (table, shoe, cards seen): counted once, shown to every viewer."""


class GameDriver(Protocol):
    """What a table actor needs of a game besides its rounds: shoes, and the next round."""

    decks: int

    def load(self, shoe: Shoe) -> None: ...
    def needs_shoe(self) -> bool: ...
    def next_round(self) -> GameRound: ...
    def build(self, seed: bytes, client_seed: str, nonce: int) -> Shoe: ...


class BlackjackDriver:
    def __init__(self, rules: BlackjackRules) -> None:
        self.rules = rules
        self.decks = rules.decks
        self.table: Table | None = None

    def load(self, shoe: Shoe) -> None:
        if self.table is None:
            self.table = Table(self.rules, shoe)
        else:
            self.table.new_shoe(shoe)

    def needs_shoe(self) -> bool:
        return self.table is None or self.table.shoe_finished

    def next_round(self) -> BlackjackRound:
        assert self.table is not None
        return BlackjackRound(self.table, self.table.new_round())

    def build(self, seed: bytes, client_seed: str, nonce: int) -> Shoe:
        from croupier.server.fair import build_shoe

        return build_shoe(self.decks, self.rules.cut_card, seed, client_seed, nonce)


class BaccaratDriver:
    def __init__(self, rules: BaccaratRules) -> None:
        self.rules = rules
        self.decks = rules.decks
        self.table = BaccaratTable(rules)
        self.history: list[CoupResult] = []
        self.shoe_start: int | None = None
        self.shoe_ops = 0

    def load(self, shoe: Shoe) -> None:
        if self.table.phase is not BaccaratPhase.AWAITING_SHOE:
            # the shoe ended before its last coup (a void, or the dealer ended it, online §3.2.3): the
            # engine starts afresh with the new shoe
            self.table = BaccaratTable(self.rules)
        self.history = []
        self.shoe_start = self.table.operation_count
        self.shoe_ops = self.table.operation_count
        self.table.load_shoe(shoe)

    def needs_shoe(self) -> bool:
        return self.table.phase is BaccaratPhase.AWAITING_SHOE

    def next_round(self) -> BaccaratRound:
        start, self.shoe_start = self.shoe_start, None
        return BaccaratRound(self.table, self.history, start, self.shoe_ops)

    def build(self, seed: bytes, client_seed: str, nonce: int) -> Shoe:
        from croupier.server.fair import build_shoe

        return build_shoe(self.decks, baccarat_cut_setting(self.rules), seed, client_seed, nonce)


def baccarat_cut_setting(rules: BaccaratRules) -> tuple[int, int] | int | None:
    """Where the cut card may go, as :func:`croupier.baccarat.state.shuffled_shoes` bounds it (Art. 2.1)."""
    if rules.automatic_shuffler:
        return None
    need = rules.cards_from_cut_card_to_end
    setting = rules.cut_card
    if isinstance(setting, tuple):
        return (max(setting[0], need), max(setting[1], need))
    if setting is not None:
        return min(setting, rules.decks * 52 - need)
    return None


def driver_for(rules: BlackjackRules | BaccaratRules) -> BlackjackDriver | BaccaratDriver:
    if isinstance(rules, BlackjackRules):
        return BlackjackDriver(rules)
    return BaccaratDriver(rules)
