"""Blackjack as a table actor drives it, and the driver of each game (see :mod:`game_round`).

Events never hold a card before it is face up to the viewer they go to: a burn is announced without
its card, a hole card as "face down" until it is turned, and the shoe's order is never read. Where the
rules deal the boxes' cards face down (Macau 1983, Art. 3.1a) a box's first two cards go to that box's
bettors only, and to everyone once the box has finished its play.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal
from typing import Any

from croupier.blackjack import actions as op
from croupier.blackjack import moves
from croupier.blackjack.hand import total
from croupier.blackjack.replay import round_result, round_spec
from croupier.blackjack.rules import Rules as BlackjackRules
from croupier.blackjack.state import Round, Table
from croupier.cards import Card
from croupier.errors import CroupierError, IllegalActionError
from croupier.money import format_amount
from croupier.server.baccarat_round import BaccaratDriver, BaccaratRound, baccarat_cut_setting
from croupier.server.game_round import (
    NOBODY,
    ActionError,
    GameDriver,
    GameRound,
    Misdeal,
    Pending,
    UnreadableRequest,
    cut_card_position,
)
from croupier.server.game_round import amount_or_none as _amount
from croupier.shoe import Shoe

__all__ = [
    "ActionError",
    "BaccaratDriver",
    "BaccaratRound",
    "BlackjackDriver",
    "BlackjackRound",
    "GameDriver",
    "GameRound",
    "Pending",
    "baccarat_cut_setting",
    "read_card",
]


WIRE_ACTIONS: tuple[str, ...] = ("hit", "stand", "double", "split", "surrender", "insurance", "even_money")
"""The blackjack action types a player sends, besides ``no_insurance`` (docs/protocol.md)."""

NO_INSURANCE = "no_insurance"
"""The answer that declines an insurance or even-money offer: the table keeps it, the engine records none."""

OFFERS = frozenset({moves.Insure.kind, moves.TakeEvenMoney.kind})
"""The engine's legal-action kinds that are an offer to a bettor (insurance, even money), open until answered."""


class BlackjackRound:
    """One blackjack round at a server table."""

    def __init__(self, table: Table, round_: Round) -> None:
        self.table = table
        self.round = round_
        self.declined: set[tuple[str, int]] = set()
        self._shown: set[int] = set()  # boxes whose face-down cards everyone now sees (Art. 3.1a)

    def set_seated(self, seated: dict[int, str]) -> None:
        """The seats as betting goes on; the round keeps those it has when betting closes (Art. 2.3)."""
        if isinstance(self.round.pending, op.AwaitBets):
            self.round.seated = dict(seated)

    def _open_offers(self, legal: tuple[op.LegalAction, ...] | None = None) -> set[tuple[str, int]]:
        """The (bettor, box) insurance or even-money offers not yet answered (``legal``: the engine's legal
        actions, when they were just read)."""
        legal = self.round.legal_actions() if legal is None else legal
        offers = {(a.player, a.box) for a in legal if a.kind in OFFERS and a.player is not None}
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
        if not (spot.isascii() and spot.isdigit()):  # "²" and "①" are digits to str.isdigit, not to int()
            raise ActionError(f"bet: blackjack bets are on a box number, not {spot!r}")
        return int(spot)

    def trial(self) -> BlackjackRound:
        """A copy of the round to try bets on (betting.py: a group's bets, each against those before it);
        nothing done to it touches this round. The shoe and the rules are shared, not copied: a bet draws no
        card, and the rules are frozen."""
        shared: list[object] = [self.table.shoe, self.table.rules]
        return copy.deepcopy(self, {id(kept): kept for kept in shared})

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

    def _typed(self, player: str, action: dict[str, Any], declined_by: frozenset[str]) -> moves.Action | None:
        """The request as the engine's typed action (:mod:`croupier.blackjack.moves`, whose ``parse`` is the
        one place its text becomes an action); None for ``no_insurance``, an answer the table keeps and the
        engine does not record."""
        kind = action.get("type")
        box, hand = self._target(action)
        if kind == NO_INSURANCE:
            return None
        unknown = ActionError(f"unknown action {kind!r}; the actions are {', '.join(WIRE_ACTIONS)}")
        try:
            typed = moves.parse(kind, box=box, hand=hand, player=player, declined_by=declined_by)
        except IllegalActionError:
            raise unknown from None
        if isinstance(typed, moves.CloseInsurance):  # the table closes the offer (a timer), never a player
            raise unknown
        if isinstance(typed, moves.Insure | moves.Double):
            typed = replace(typed, amount=_amount(action.get("amount"), typed.kind))
        return typed

    def others_match(self, player: str, action: dict[str, Any]) -> bool:
        """Whether the action's stakes include the box's other bettors' (a double or a split, Art. 13)."""
        return isinstance(self._typed(player, action, NOBODY), moves.Double | moves.Split)

    def stakes_for(
        self, player: str, action: dict[str, Any], declined_by: frozenset[str] = NOBODY
    ) -> dict[str, Decimal]:
        """Verify ``action`` for ``player`` and return the money each bettor must add before it is made:
        on a double or split, the decider's and every other bettor's who matches (Art. 13)."""
        typed = self._typed(player, action, declined_by)
        rd = self.round
        if typed is None:
            box, _hand = self._target(action)
            if (player, box) not in self._open_offers():
                raise ActionError(
                    f"no_insurance on box {box}: {player} has no insurance or even money offer to decline"
                )
            return {}
        if isinstance(typed, moves.Insure):
            if typed.amount is None:
                raise ActionError("insurance: give the amount (at most half the bet, Art. 8)")
            return {player: rd.verify_insurance(player, typed.box, typed.amount)}
        if isinstance(typed, moves.Double):
            added = rd.verify_double(typed.box, typed.hand, player, typed.amount, declined_by)
            target = rd.hands[typed.box][typed.hand if typed.hand is not None else self._turn_hand()]
            decider = target.stakes[player]
            return {p: stake * added / decider for p, stake in target.stakes.items() if p not in declined_by}
        rd.verify(typed)
        if isinstance(typed, moves.Split):
            target = rd.hands[typed.box][typed.hand if typed.hand is not None else self._turn_hand()]
            return {p: rd.bets[typed.box][p] for p in target.stakes if p not in declined_by}
        return {}

    def _turn_hand(self) -> int:
        pending = self.round.pending
        if isinstance(pending, op.AwaitDecision):
            return pending.hand
        raise IllegalActionError("no hand is to act")

    def act(self, player: str, action: dict[str, Any], declined_by: frozenset[str] = NOBODY) -> None:
        typed = self._typed(player, action, declined_by)
        if typed is None:
            box, _hand = self._target(action)
            self.declined.add((player, box))
        else:
            self.round.apply(typed)
        if not isinstance(typed, moves.Play):  # insurance answered: taken, even money or declined
            self._close_when_answered()

    def timeout(self) -> None:
        """The timer ran out: insurance is declined, or the hand to act stands (docs/rules.md, live details)."""
        pending = self.round.pending
        if isinstance(pending, op.AwaitInsurance):
            self.round.close_insurance()
        elif isinstance(pending, op.AwaitDecision):
            self.round.apply(moves.Stand(pending.box, pending.hand, pending.player))

    def supply_card(self, card: Card) -> None:
        self.round.supply_card(card)

    def void(self, reason: str) -> None:
        self.round.void(reason)

    def void_card(self, card: Card, reason: str) -> None:
        """Art. 2.1, 3.2a: a card the dealer drew by mistake is void (the engine's ``Round.void_card``)."""
        self.round.void_card(card, reason)

    def move_card(self, card: Card, box: int, hand: int | None = None) -> None:
        """Art. 2.1: a card dealt to the wrong box goes to the box it belonged to (``Round.move_card``: the
        engine dealt it there; the hand is the one it was dealt to)."""
        moved = self.round.move_card(card, box)
        if hand is not None and moved.hand != hand:
            raise ActionError(f"move card {card}: it was dealt to box {box} hand {moved.hand}, not hand {hand}")

    # the live shoe and the dealer's errors (liveshoe.py) ---------------------------------------------
    def report_cut_card(self) -> int:
        """The dealer saw the cut card come out (Art. 2.2; online §3.2.2): where a transcript puts it."""
        shoe = self.round.shoe
        if shoe.cut_card_out:
            raise ActionError("the cut card has already come out of this shoe (Art. 2.2; online §3.2.2)")
        drew = bool(self.cards_drawn())
        self.round.mark_cut_card()
        return cut_card_position(shoe, drew)

    def void_face_up_card(self, card: Card) -> None:
        """Art. 2.1: a card found face up in the shoe is void; the round waits for the next card."""
        self.round.void_face_up_card(card)

    def move_misdealt(self, card: Card, payload: Mapping[str, Any]) -> dict[str, Any]:
        """Art. 2.1: the card goes to the box (and hand) the request names; where it went."""
        box, hand = payload.get("box"), payload.get("hand")
        if not isinstance(box, int) or isinstance(box, bool) or not (hand is None or isinstance(hand, int)):
            raise UnreadableRequest(
                "move_card: name the box the card belongs to (0: the dealer), and its hand if you will"
            )
        # the reader's order gave the card to its box: the dealer's card on the table is given back to it
        self.move_card(card, box, hand)
        moved = self.round.operations[-1]
        return {"box": box, "hand": getattr(moved, "hand", hand)}

    def misdeal(self, *, in_play: bool, earlier: int) -> Misdeal:
        """Art. 2.1: a misdeal that cannot be corrected voids every card of the deal; the bets stand and the
        round is dealt again (:meth:`redeal`) after the rules' ``burn_after_misdeal`` burns (online §3.5: 3).
        A deal may be voided again and again."""
        if not in_play:
            raise ActionError("no blackjack deal in play to void")
        drawn = self.cards_drawn()
        self.void("misdeal (Art. 2.1)")
        return Misdeal(len(drawn), tuple(drawn), int(self.table.rules.burn_after_misdeal), redeals=True)

    def redeal(self) -> BlackjackRound:
        """The voided deal dealt again from the same shoe, with the same bets, after its burns."""
        burn = int(self.table.rules.burn_after_misdeal)
        return BlackjackRound(self.table, self.table.replay_voided(self.round, burn=burn))

    def misdeal_spec(self, misdeals: list[int], burn: int) -> dict[str, Any]:
        """The record of the round's misdeals: the cards of each deal voided and the burns after each."""
        return {"misdeal_after_cards": list(misdeals), "burn_after_misdeal": burn}

    def house_edge(self) -> dict[str, str]:
        """Blackjack shows no exact live house edge: its edge depends on the play (nothing to watch)."""
        return {}

    # results -------------------------------------------------------------------------------------
    def staked(self) -> dict[str, Decimal]:
        return self.round.staked()

    def carried_out(self) -> dict[str, Decimal]:
        """Blackjack carries nothing from one round to the next."""
        return {}

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
        rd = self.round
        operations = rd.operations
        face_down = self.table.rules.box_cards_face_down
        first_dealer = next(
            (i for i, o in enumerate(operations) if isinstance(o, op.CardDealt) and o.box == 0), len(operations)
        )
        events: list[dict[str, Any]] = []
        for i in range(start, len(operations)):
            o = operations[i]
            initial = isinstance(o, op.CardDealt) and o.box > 0 and i < first_dealer
            if face_down and initial and isinstance(o, op.CardDealt) and o.box not in self._shown:
                events.append({"type": "card", "box": o.box, "hand": o.hand, "face_up": False})
                events.append(public_event(o) | {"to": sorted(rd.bets.get(o.box, {}))})
            else:
                events.append(public_event(o))
        if face_down:
            for box in sorted(rd.hands):
                if box not in self._shown and self._played(box):
                    self._shown.add(box)
                    events.append({"type": "box_shown", "box": box, "hands": self._hands(box, None)})
        return len(operations), events

    def _played(self, box: int) -> bool:
        """The box has finished its play: its face-down cards are shown to everyone (Art. 3.1a)."""
        rd = self.round
        hands = rd.hands.get(box) or []
        return bool(hands) and (rd.ended or rd.voided or all(hand.done for hand in hands))

    def _hidden_from(self, box: int, viewer: str | None) -> list[Card]:
        """The box's face-down cards that ``viewer`` may not see yet (Art. 3.1a)."""
        rd = self.round
        if not self.table.rules.box_cards_face_down or self._played(box) or viewer in rd.bets.get(box, {}):
            return []
        hidden = []
        for o in rd.operations:
            if isinstance(o, op.CardDealt) and o.box == 0:
                break
            if isinstance(o, op.CardDealt) and o.box == box:
                hidden.append(o.card)
        return hidden

    def _hands(self, box: int, viewer: str | None) -> list[dict[str, Any]]:
        hidden = self._hidden_from(box, viewer)
        hands = []
        for hand in self.round.hands.get(box, []):
            cards: list[str | None] = []
            for card in hand.cards:
                if card in hidden:
                    hidden.remove(card)
                    cards.append(None)
                else:
                    cards.append(str(card))
            secret = None in cards
            hands.append(
                {
                    "cards": cards,
                    "total": None if secret else hand.total,
                    "soft": None if secret else (total(hand.cards)[1] if hand.cards else False),
                    "outcome": hand.outcome or None,
                    "stakes": {p: format_amount(s) for p, s in hand.stakes.items()},
                }
            )
        return hands

    def legal_for(self, player: str) -> list[dict[str, Any]]:
        return self.legal_by_player([player])[player]

    def legal_by_player(self, players: list[str]) -> dict[str, list[dict[str, Any]]]:
        """:meth:`legal_for` of each of ``players``, from one reading of the engine's legal actions (a table
        sends every player's with each event)."""
        legal = self.round.legal_actions()
        offering = isinstance(self.round.pending, op.AwaitInsurance)
        open_offers = self._open_offers(legal) if offering else set()
        return {player: self._legal_entries(player, legal, offering, open_offers) for player in players}

    def _legal_entries(
        self, player: str, legal: tuple[op.LegalAction, ...], offering: bool, open_offers: set[tuple[str, int]]
    ) -> list[dict[str, Any]]:
        result = []
        for action in legal:
            # an offer answered "no" is closed for that bettor while the offer lasts; Macau's even money
            # stays open after it, until the dealer's face-down card is turned (Art. 6)
            if action.player != player or (
                offering and action.kind in OFFERS and (player, action.box) not in open_offers
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
                result.append({"type": NO_INSURANCE, "box": box})
        return result

    def view(self, viewer: str | None = None) -> dict[str, Any]:
        rd = self.round
        dealer = rd.dealer_cards
        boxes = []
        for box in sorted(set(rd.bets) | set(rd.hands)):
            hands = self._hands(box, viewer)
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
        return {"type": "card_voided", "card": str(o.card), "reason": o.reason}
    if isinstance(o, op.CardMoved):
        return {"type": "card_moved", "card": str(o.card), "box": o.to_box, "hand": o.hand, "from_box": o.from_box}
    if isinstance(o, op.BetReturned):
        return {
            "type": "bet_returned",
            "player": o.player,
            "box": o.box,
            "amount": format_amount(o.amount),
            "reason": o.reason,
        }
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
        if o.declined_by:
            entry["declined_by"] = list(o.declined_by)
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


def read_card(text: object) -> Card:
    if not isinstance(text, str):
        raise ActionError(f"card: {text!r} is not a card such as AS or TD")
    try:
        return Card.parse(text)
    except (CroupierError, ValueError):
        raise ActionError(f"card: {text!r} is not a card such as AS or TD") from None


class BlackjackDriver:
    def __init__(self, rules: BlackjackRules) -> None:
        self.rules = rules
        self.decks = rules.decks
        self.table: Table | None = None
        self.insurance_chip: Decimal | None = None
        """The table's chip where insurance may be half the bet rounded up to it (online §2.5.1)."""

    def load(self, shoe: Shoe) -> None:
        if self.table is None:
            self.table = Table(self.rules, shoe)
        else:
            self.table.new_shoe(shoe)

    def needs_shoe(self) -> bool:
        return self.table is None or self.table.shoe_finished

    def next_round(self) -> BlackjackRound:
        assert self.table is not None
        return BlackjackRound(self.table, self.table.new_round(insurance_chip=self.insurance_chip))

    def build(self, seed: bytes, client_seed: str, nonce: int) -> Shoe:
        from croupier.server.fair import build_shoe

        return build_shoe(self.decks, self.rules.cut_card, seed, client_seed, nonce)

    def lobby(self, round_view: Mapping[str, Any]) -> dict[str, Any]:
        """Blackjack adds nothing to its lobby entry."""
        return {}
