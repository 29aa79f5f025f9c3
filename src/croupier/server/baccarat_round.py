"""A baccarat coup as a table actor drives it, with the squeeze (Art. 16) kept private.

Where the table allows the squeeze, the seated player with the largest bet on a side handles that
side's cards (Art. 16). A squeezed card is face down to everyone but its holder until the holder turns
it or the squeeze time runs out: its public event says only "a card, face down"; the holder alone gets
it privately. The cards are squeezed in the order the tableau deals them: the first four together,
then the player's third card, then the banker's. Nothing dealt after the cards under a squeeze (the
third cards the tableau then draws, the result) leaves the server before they are turned, since the
public would read the totals from it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from croupier.baccarat.moves import PlaceBet
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
from croupier.cards import Card
from croupier.errors import CroupierError
from croupier.math.baccarat import analyze_baccarat
from croupier.money import format_amount
from croupier.server.game_round import NOBODY, ActionError, Misdeal, Pending, UnreadableRequest, cut_card_position
from croupier.shoe import Shoe

FACE_UP_CARD_STAYS = "in baccarat a card found face up in the shoe stays valid (Art. 4): deal it as the next card"
"""Why baccarat refuses to void a card found face up in the shoe."""

VOID_CARD_REFUSED = "baccarat corrects a misdeal or voids the coup (Art. 10): use misdeal"
"""Why baccarat refuses to void one card the dealer drew by mistake."""

FIRST_GROUP = 4
"""The first four cards are squeezed together; each third card after them on its own."""


def _group(index: int) -> int:
    return 0 if index < FIRST_GROUP else index - FIRST_GROUP + 1


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
        self.own = table.operation_count  # the coup's own cards: drawn from here (a fair shoe's start is the shoe's)
        self._stakes: dict[tuple[str, str], Decimal] = {}
        self._voided = False
        self._result: CoupResult | None = None
        self._seated: list[str] | None = None  # None: no seats known (every bettor may squeeze)
        self._squeezed_groups = 0  # squeeze groups turned so far
        self._turned_sides: set[str] = set()  # sides turned in the group under the squeeze now
        self._turns: list[dict[str, Any]] = []  # card_turned events not yet sent
        self._carried_in = dict(table.carried_bets)  # bets standing after a tie (Art. 18, increase_only)

    def progress(self) -> int:
        return self.table.operation_count + self._squeezed_groups

    def set_seated(self, seated: dict[int, str]) -> None:
        self._seated = list(seated.values())

    def trial(self) -> BaccaratRound:
        """A copy of the round to try bets on (betting.py: a group's bets, each against those before it);
        nothing done to it touches this round. The shoe, the shoe's coups so far and the rules are shared,
        not copied: a bet draws no card and ends no coup, and the rules are frozen."""
        shared: list[object] = [self.table.shoe, self.history, self.table.rules]
        return copy.deepcopy(self, {id(kept): kept for kept in shared if kept is not None})

    def verify_bet(self, player: str, spot: str, amount: Decimal) -> None:
        self.table.verify(PlaceBet(player, spot, amount))

    def bet(self, player: str, spot: str, amount: Decimal) -> None:
        self.table.apply(PlaceBet(player, spot, amount))
        self._stakes[(player, spot)] = self._stakes.get((player, spot), Decimal(0)) + amount

    @property
    def has_bets(self) -> bool:
        return bool(self._stakes) or bool(self._carried_in)

    def carried_out(self) -> dict[str, Decimal]:
        """The stakes that stay on their spots for the next coup after a tie (Art. 18)."""
        return {} if self._result is None else self._result.carried

    def close_betting(self) -> None:
        self.table.start_coup(seated=self._seated)
        self._pick_result()

    # the squeeze ---------------------------------------------------------------------------------
    def _operations(self) -> tuple[Any, ...]:
        return self.table.operations_since(self.start)

    def holders(self) -> dict[str, str]:
        """Who squeezes each side this coup (sides the dealer turns are absent)."""
        return {o.side: o.player for o in self._operations() if isinstance(o, SqueezeHolderNamed) and o.player}

    def _dealt(self) -> list[tuple[int, BaccaratDealt]]:
        """This coup's cards in dealing order, with their positions among its operations."""
        return [(i, o) for i, o in enumerate(self._operations()) if isinstance(o, BaccaratDealt)]

    def _under_squeeze(self) -> tuple[int, set[str], int] | None:
        """The squeeze group waiting to be turned: (group, its squeezed sides, the operation after its
        last card), once all of its cards are dealt; None when nothing waits."""
        holders = self.holders()
        if not holders:
            return None
        dealt = self._dealt()
        group = self._squeezed_groups
        members = [(i, o) for k, (i, o) in enumerate(dealt) if _group(k) == group]
        complete = len(members) == (FIRST_GROUP if group == 0 else 1)
        if not complete:
            return None
        sides: set[str] = {o.side for _i, o in members if o.side in holders}
        if not sides:  # nothing of this group is squeezed: it is turned as it is dealt
            self._squeezed_groups += 1
            return self._under_squeeze()
        return group, sides, members[-1][0] + 1

    def _hidden(self, index: int, side: str) -> bool:
        """Whether the coup's ``index``-th card is still face down under a squeeze."""
        return side in self.holders() and _group(index) >= self._squeezed_groups

    def _turn_group(self, sides: set[str]) -> None:
        self._turned_sides |= sides
        waiting = self._under_squeeze()
        if waiting is None:
            return
        group, squeezed, _gate = waiting
        for k, (_i, o) in enumerate(self._dealt()):
            if _group(k) == group and o.side in sides:
                self._turns.append({"type": "card_turned", "side": o.side, "index": k, "card": str(o.card)})
        if squeezed <= self._turned_sides:
            self._squeezed_groups += 1
            self._turned_sides = set()
        self._pick_result()

    # play ----------------------------------------------------------------------------------------
    def _pick_result(self) -> None:
        last = self.table.last_result
        if (
            last is not None
            and self._result is None
            and last.coup == self.table.coup
            and not last.demo
            and any(isinstance(o, CoupSettled) for o in self._operations())
            and self._under_squeeze() is None
            and not any(self._hidden(k, o.side) for k, (_i, o) in enumerate(self._dealt()))
        ):
            self._result = last
            self.history.append(last)

    def pending(self) -> Pending:
        if self._voided:
            return Pending("over")
        self._pick_result()
        if self._result is not None:
            return Pending("over")
        waiting = self._under_squeeze()
        if waiting is None and self.table.phase is BaccaratPhase.BETTING:
            return Pending("bets")
        if waiting is not None:
            holders = self.holders()
            sides = sorted(waiting[1] - self._turned_sides)
            names = sorted({holders[side] for side in sides})
            return Pending(
                "squeeze",
                player=names[0] if len(names) == 1 else None,
                purpose="; ".join(f"{side}: {holders[side]}" for side in sides),
            )
        shoe = self.table.shoe
        if shoe is not None and shoe.is_live:
            return Pending("card", purpose=f"the next card of coup {self.table.coup}")
        return Pending("void", purpose="the shoe ran out of cards")

    def _turnable(self, player: str, action: dict[str, Any]) -> set[str]:
        if action.get("type") != "turn":
            raise ActionError(
                "baccarat takes no decisions after the bets (Art. 9: the tableau decides every card); "
                "a squeeze holder may only turn the cards (Art. 16)"
            )
        waiting = self._under_squeeze()
        if waiting is None:
            raise ActionError("turn: no card is under a squeeze now (Art. 16)")
        holders = self.holders()
        mine = {side for side in waiting[1] - self._turned_sides if holders.get(side) == player}
        side = action.get("side")
        if side is not None:
            mine &= {side}
        if not mine:
            raise ActionError(f"turn: {player} holds no card under the squeeze (Art. 16: the largest seated bet)")
        return mine

    def stakes_for(
        self, player: str, action: dict[str, Any], declined_by: frozenset[str] = NOBODY
    ) -> dict[str, Decimal]:
        self._turnable(player, action)
        return {}

    def act(self, player: str, action: dict[str, Any], declined_by: frozenset[str] = NOBODY) -> None:
        self._turn_group(self._turnable(player, action))

    def timeout(self) -> None:
        """The squeeze time ran out: the dealer turns the cards (Art. 16)."""
        waiting = self._under_squeeze()
        if waiting is not None:
            self._turn_group(set(waiting[1]))

    def supply_card(self, card: Card) -> None:
        if self._under_squeeze() is not None:
            raise ActionError("card: the cards under the squeeze are turned first (Art. 16)")
        self.table.supply(card)
        self._pick_result()

    def void(self, reason: str) -> None:
        if self.table.can_void_coup():
            self.table.void_coup(reason)
        self._voided = True

    def others_match(self, player: str, action: dict[str, Any]) -> bool:
        """No baccarat action stakes another bettor's money."""
        return False

    # the live shoe and the dealer's errors (liveshoe.py) ---------------------------------------------
    def report_cut_card(self) -> int:
        """The dealer saw the cut card come out: the rule set's ``at_cut_card`` plays (Art. 3.1); where a
        transcript puts it."""
        table = self.table
        if table.shoe is None or table.cut_card_coup is not None:
            raise ActionError("the cut card has already come out of this shoe (Art. 3.1)")
        shoe = table.shoe
        dealt = bool(table.player_cards or table.banker_cards)
        drew = table.coup >= 1 and (table.phase is BaccaratPhase.BETTING or dealt)
        table.report_cut_card()
        return cut_card_position(shoe, drew)

    def void_face_up_card(self, card: Card) -> None:
        raise ActionError(FACE_UP_CARD_STAYS)

    def void_card(self, card: Card, reason: str) -> None:
        raise ActionError(VOID_CARD_REFUSED)

    def move_misdealt(self, card: Card, payload: Mapping[str, Any]) -> dict[str, Any]:
        """Art. 10, a misdeal corrected: the card goes back to the side the request names."""
        side = payload.get("side")
        if side not in ("player", "banker"):
            raise UnreadableRequest("move_card: name the side the card belongs to, player or banker (Art. 10)")
        self.table.move_card(card, side)
        return {"side": side}

    def misdeal(self, *, in_play: bool, earlier: int) -> Misdeal:
        """Art. 10: a misdeal that cannot be corrected voids the coup; its cards are discarded, the bets
        stand, and the coup is dealt again from the same shoe (the shoe does not end), once."""
        table = self.table
        if not in_play or not table.can_void_coup():
            raise ActionError("only a coup being dealt, before its settlement, can be voided (Art. 10)")
        if earlier:
            raise ActionError("this coup was voided once already (Art. 10); void the round to return its bets")
        dealt = len(table.player_cards) + len(table.banker_cards)
        table.void_coup("misdeal (Art. 10)")
        return Misdeal(dealt, (), 0, redeals=False)

    def redeal(self) -> BaccaratRound:
        """A voided coup is dealt again in place: the round is its own redeal."""
        return self

    def misdeal_spec(self, misdeals: list[int], burn: int) -> dict[str, Any]:
        """The record of the coup's one misdeal: the cards dealt before it was voided (Art. 10)."""
        return {"misdeal_after_cards": misdeals[0]}

    # results -------------------------------------------------------------------------------------
    def face_up_voided(self) -> list[str]:
        """None: a card found face up in the shoe stays valid (Art. 4)."""
        return []

    def staked(self) -> dict[str, Decimal]:
        result: dict[str, Decimal] = {}
        for (player, _spot), amount in [*self._stakes.items(), *self._carried_in.items()]:
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
        """The cards drawn for this coup, in order. A shuffled shoe's start (Art. 2.1) is drawn when it is
        loaded, before any coup, and kept with the shoe (``ShoeRecord.start_cards``); a live shoe's start
        cards come from the dealer during its first coup's betting and are that coup's."""
        drawn: list[str] = []
        for o in self.table.operations_since(self.own):
            if isinstance(o, BaccaratBurned | BaccaratDealt | FirstCardTurned):
                drawn.append(str(o.card))
        return drawn

    def spec(self) -> dict[str, Any]:
        return {"bets": [{"player": p, "on": s, "amount": format_amount(a)} for (p, s), a in self._stakes.items()]}

    def result(self) -> dict[str, Any]:
        if self._result is None:
            return {}
        return coup_document(self._result, self._operations())

    # what each viewer may see --------------------------------------------------------------------
    def events_since(self, start: int) -> tuple[int, list[dict[str, Any]]]:
        operations = self._operations()
        waiting = self._under_squeeze()
        gate = len(operations) if waiting is None else waiting[2]
        holders = self.holders()
        order = {i: k for k, (i, _o) in enumerate(self._dealt())}
        events: list[dict[str, Any]] = self._turns
        self._turns = []
        for i in range(start, max(start, gate)):
            o = operations[i]
            if isinstance(o, BaccaratDealt) and self._hidden(order[i], o.side):
                holder = holders[o.side]
                events.append({"type": "card", "side": o.side, "index": order[i], "face_up": False, "holder": holder})
                events.append(
                    {"type": "card", "side": o.side, "index": order[i], "face_up": True, "card": str(o.card)}
                    | {"to": [holder]}
                )
                continue
            event = baccarat_event(o)
            if event is not None:
                if isinstance(o, BaccaratDealt):
                    event["index"] = order[i]
                events.append(event)
        return max(start, gate), events

    def legal_for(self, player: str) -> list[dict[str, Any]]:
        waiting = self._under_squeeze()
        if waiting is None and self.table.phase is BaccaratPhase.BETTING and self._result is None:
            return [{"type": "bet", "spot": spot} for spot in self.table.rules.spots]
        if waiting is not None:
            holders = self.holders()
            return [
                {"type": "turn", "side": side}
                for side in sorted(waiting[1] - self._turned_sides)
                if holders.get(side) == player
            ]
        return []

    def legal_by_player(self, players: list[str]) -> dict[str, list[dict[str, Any]]]:
        return {player: self.legal_for(player) for player in players}

    def _cards(self, side: str, viewer: str | None) -> list[str | None]:
        operations = self._operations()
        waiting = self._under_squeeze()
        gate = len(operations) if waiting is None else waiting[2]
        holders = self.holders()
        shown: list[str | None] = []
        for k, (i, o) in enumerate(self._dealt()):
            if o.side != side or i >= gate:
                continue
            hidden = self._hidden(k, o.side) and holders.get(o.side) != viewer
            shown.append(None if hidden else str(o.card))
        return shown

    def view(self, viewer: str | None = None) -> dict[str, Any]:
        table = self.table
        summed: dict[str, dict[str, Decimal]] = {}
        for (player, spot), amount in [*self._carried_in.items(), *self._stakes.items()]:
            on_spot = summed.setdefault(str(spot), {})
            on_spot[player] = on_spot.get(player, Decimal(0)) + amount
        bets = {spot: {p: format_amount(a) for p, a in players.items()} for spot, players in summed.items()}
        return {
            "coup": table.coup,
            "player_cards": self._cards("player", viewer),
            "banker_cards": self._cards("banker", viewer),
            "bets": bets,
            "spots": list(table.rules.spots),
            "result": None if self._result is None else coup_document(self._result),
            "roads": roads_of(self.history),
            "house_edge": self.house_edge(),
            "squeeze": {o.side: o.player for o in self._operations() if isinstance(o, SqueezeHolderNamed)},
        }

    def house_edge(self) -> dict[str, str]:
        """Each bet's exact house edge for the cards not yet seen face up in this shoe (the burns and the
        cards under a squeeze count as unseen: what anyone at the table can know). Counted once per card
        seen."""
        seen = [
            o.card
            for o in self.table.operations_since(self.shoe_start)[: self.start - self.shoe_start]
            if isinstance(o, BaccaratDealt | FirstCardTurned)
        ]
        seen += [card for side in ("player", "banker") for card in self._face_up(side)]
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

    def _face_up(self, side: str) -> list[Card]:
        return [Card.parse(text) for text in self._cards(side, None) if text is not None]


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

    def stats(self) -> dict[str, int]:
        """This shoe's coups so far (demo coups left out): how many, and how often each side won or paired."""
        coups = [r for r in self.history if not r.demo]
        return {
            "coups": len(coups),
            "banker": sum(r.cards.winner == "banker" for r in coups),
            "player": sum(r.cards.winner == "player" for r in coups),
            "tie": sum(r.cards.winner == "tie" for r in coups),
            "banker_pair": sum(r.cards.banker_pair for r in coups),
            "player_pair": sum(r.cards.player_pair for r in coups),
        }

    def lobby(self, round_view: Mapping[str, Any]) -> dict[str, Any]:
        """The shoe so far, for the lobby: the roads and how often each side won or paired."""
        return {"shoe_stats": self.stats(), "roads": round_view.get("roads")}

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
