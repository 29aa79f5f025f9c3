"""Random legal play: a driver for property tests, benchmarks and simulations.

Every choice is drawn from a :class:`~croupier.rng.RandomSource` (use :func:`croupier.rng.seeded`
for a reproducible run), never from the global ``random`` module, and every action is one the round
itself offers: :func:`play_out` chooses uniformly among :meth:`Round.legal_actions`, with a random
legal amount for insurance and for a double where ``double_for_less`` allows one.
:func:`place_random_bets` places bets on one to seven boxes, bets behind included where the rules
allow them, and leaves every Art. 2.3 check and table limit to the round (:meth:`Round.bet`).

The driver also performs the chores that a round built with fewer ``automations`` hands back
(:class:`~croupier.blackjack.actions.AwaitChore`), and supplies the cards a live shoe waits for
(:class:`~croupier.blackjack.actions.AwaitCard`) through a ``supply`` callback.

>>> from croupier.blackjack.presets import blackjack_rules
>>> from croupier.rng import seeded
>>> rng = seeded(7)
>>> table = Table.shuffled(blackjack_rules("macau-1983"), rng)
>>> played = random_round(table, rng, boxes=3)
>>> played.ended
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import TypeVar

from croupier.blackjack import actions as op
from croupier.blackjack import moves
from croupier.blackjack.rules import Rules
from croupier.blackjack.state import Round, Table
from croupier.cards import Card
from croupier.errors import CroupierError, MoneyError, ShoeError
from croupier.money import exact, parse_amount
from croupier.rng import RandomSource

T = TypeVar("T")

PLAYERS: tuple[str, ...] = ("ana", "bo", "cy", "di", "ed", "fay", "gus")
"""Players who take boxes (one each, more where ``max_boxes_per_player`` allows)."""

BACKERS: tuple[str, ...] = ("hal", "ivy", "jo")
"""Players without a box of their own, who bet behind (Art. 13) where the rules allow it."""

AMOUNTS: tuple[Decimal, ...] = tuple(Decimal(text) for text in ("1", "2", "5", "10", "25", "100", "2.5", "0.5", "7"))
"""Bet sizes drawn from: whole and fractional table units, odd and even."""

SupplyCard = Callable[[Round], Card]
"""Gives the next card for a live shoe (a dealer's card reader, in a simulation)."""

_STEPS = 20
"""Amounts for insurance and doubles for less are drawn as ``k/20`` of the largest allowed."""


# ---------------------------------------------------------------------------------------------------
# small random helpers


def chance(rng: RandomSource, numerator: int, denominator: int) -> bool:
    """True with probability ``numerator/denominator``."""
    return rng.randbelow(denominator) < numerator


def pick(rng: RandomSource, items: Sequence[T]) -> T:
    """One item, uniformly; a single item draws nothing, so chores and forced moves use no randomness."""
    return items[rng.randbelow(len(items))] if len(items) > 1 else items[0]


def sample(rng: RandomSource, items: Sequence[T], count: int) -> list[T]:
    """``count`` distinct items in random order (a partial Fisher–Yates)."""
    drawn = shuffled(rng, items)
    return [item for item, _ in zip(drawn, range(count), strict=False)]


def shuffled(rng: RandomSource, items: Sequence[T]) -> Iterator[T]:
    """The items in random order, drawn one at a time: a caller that stops early pays only for what it took."""
    pool = list(items)
    for i in range(len(pool)):
        j = i + rng.randbelow(len(pool) - i) if i < len(pool) - 1 else i
        pool[i], pool[j] = pool[j], pool[i]
        yield pool[i]


def random_bet_amount(rng: RandomSource, rules: Rules) -> Decimal:
    """A bet size from :data:`AMOUNTS`, moved inside the table limits when ``min_bet``/``max_bet`` are set."""
    amount = pick(rng, AMOUNTS)
    if rules.min_bet is not None and amount < rules.min_bet:
        amount = rules.min_bet
    if rules.max_bet is not None and amount > rules.max_bet:
        amount = rules.max_bet
    return amount


def fraction_of(rng: RandomSource, largest: Decimal, smallest: Decimal | None = None) -> Decimal:
    """``k/20`` of ``largest`` for a random ``k`` in 1..20, at least ``smallest``; always exact.

    Where that amount needs more decimal places than an amount may hold (:func:`parse_amount`),
    ``largest`` itself is taken.
    """
    value = exact(Fraction(largest) * (1 + rng.randbelow(_STEPS)) / _STEPS)
    if smallest is not None and value < smallest:
        value = smallest
    try:
        parse_amount(value)
    except MoneyError:
        return largest
    return value


# ---------------------------------------------------------------------------------------------------
# seats and bets


def random_seated(rules: Rules, rng: RandomSource, players: Sequence[str] = PLAYERS) -> dict[int, str]:
    """Seat a random few of ``players`` at random boxes (docs/transcript.md ``seated``); often nobody."""
    if chance(rng, 1, 2):
        return {}
    count = 1 + rng.randbelow(rules.boxes)
    boxes = sample(rng, range(1, rules.boxes + 1), count)
    seated: dict[int, str] = {}
    for box in boxes:
        player = pick(rng, players)
        if list(seated.values()).count(player) < rules.boxes_per_player:
            seated[box] = player
    return seated


def place_random_bets(
    current: Round,
    rng: RandomSource,
    *,
    boxes: int | None = None,
    behind: bool = True,
    players: Sequence[str] = PLAYERS,
    backers: Sequence[str] = BACKERS,
) -> list[op.BetPlaced]:
    """Place random legal bets on ``boxes`` boxes (random 1..``rules.boxes`` when ``None``).

    Each chosen box is taken by its seated player or by a random player who may still bet (the
    round refuses the rest: ``max_boxes_per_player``, one deck one box each, Art. 2.3). With
    ``behind`` and ``bet_behind``, other players then bet behind on some boxes where Art. 2.3 lets
    them. At least one bet is placed whenever any is possible.
    """
    rules = current.rules
    wanted = min(boxes if boxes is not None else 1 + rng.randbelow(rules.boxes), rules.boxes)
    placed: list[op.BetPlaced] = []
    taken = Counter(player for bets in current.bets.values() for player in bets)
    free_boxes = shuffled(rng, [box for box in range(1, rules.boxes + 1) if box not in current.bets])
    while len(current.bets) < wanted:
        box = next(free_boxes, None)
        if box is None:
            break
        seat = current.seated.get(box)
        if seat is not None:
            candidates: Iterable[str] = [seat]
        else:  # players with a box to spare (max_boxes_per_player; one deck, one box each: Art. 2.3)
            candidates = shuffled(rng, [player for player in players if taken[player] < rules.boxes_per_player])
        for player in candidates:
            try:  # the round checks Art. 2.3 and the table limits (one check: bet, not can_bet then bet)
                placed.append(current.bet(player, box, random_bet_amount(rng, rules)))
            except CroupierError:
                continue
            taken[player] += 1
            break
    if behind and rules.bet_behind:
        everyone = list(players) + list(backers)
        for box in sorted(current.bets):
            while chance(rng, 1, 3):
                player = pick(rng, everyone)
                amount = random_bet_amount(rng, rules)
                if current.can_bet(player, box, amount):
                    placed.append(current.bet(player, box, amount))
    if not current.bets:  # every random try was refused: take the first bet the rules allow
        for box in range(1, rules.boxes + 1):
            for player in [*players, *backers]:
                amount = random_bet_amount(rng, rules)
                if current.can_bet(player, box, amount):
                    placed.append(current.bet(player, box, amount))
                    return placed
    return placed


# ---------------------------------------------------------------------------------------------------
# playing


def choose_amount(rng: RandomSource, action: op.LegalAction) -> Decimal | None:
    """A random legal amount for an insurance or a double; ``None`` (the default) for the rest."""
    if action.type is moves.Insure:
        assert action.max_amount is not None
        return action.max_amount if chance(rng, 1, 2) else fraction_of(rng, action.max_amount, action.min_amount)
    if action.type is moves.Double and action.max_amount is not None:
        if action.min_amount is None or action.min_amount >= action.max_amount or chance(rng, 1, 2):
            return None  # the full bet
        return fraction_of(rng, action.max_amount, action.min_amount)
    return None


def perform(current: Round, action: op.LegalAction, amount: Decimal | None = None) -> None:
    """Carry out one action of :meth:`Round.legal_actions` (``amount`` for insurance and doubles)."""
    kind = action.kind
    if action.is_player_action:
        current.apply(action.action(amount))
    elif kind in _CHORES:
        _CHORES[kind](current)
    elif kind == "void":  # a stacked shoe ran out in the middle of the round (Art. 2.1)
        current.void("the shoe ran out of cards")
    else:
        raise ValueError(f"autoplay cannot perform {kind!r} here: the round waits for {current.pending}")


_CHORES: Mapping[str, Callable[[Round], None]] = {
    "burn": Round.burn_card,
    "deal": Round.deal_card,
    "dealer_hit": Round.dealer_hit,
    "dealer_stand": Round.dealer_stand,
    "settle": Round.settle,
}


def step(current: Round, rng: RandomSource, supply: SupplyCard | None = None) -> op.LegalAction | None:
    """Take one random legal action (or supply one card to a live shoe); return the action taken.

    A round that waits for a card its shoe does not hold raises :class:`~croupier.errors.ShoeError`
    unless ``supply`` gives one: what to do then (void the round, shuffle) is the table's choice, not
    a player's, so the driver never draws it at random.
    """
    pending = current.pending
    if isinstance(pending, op.AwaitCard):
        if supply is None:
            raise ShoeError(
                f"the shoe has no card left for {pending.purpose}: {current.shoe.position} card(s) drawn of "
                f"{current.shoe.size}"
            )
        current.supply_card(supply(current))
        return None
    if isinstance(pending, op.AwaitBets):
        raise ValueError("autoplay plays a round after deal(): place the bets and deal first")
    legal = current.legal_actions()
    action = pick(rng, legal)
    perform(current, action, choose_amount(rng, action))
    return action


def play_out(current: Round, rng: RandomSource, supply: SupplyCard | None = None, *, max_steps: int = 10_000) -> Round:
    """Play a dealt round to its end with random legal actions; return it.

    A shoe that runs out of cards raises :class:`~croupier.errors.ShoeError` unless ``supply`` gives
    the next card.
    """
    for _ in range(max_steps):
        if current.ended or current.voided:
            return current
        step(current, rng, supply)
    raise RuntimeError(f"the round did not end in {max_steps} steps; it waits for {current.pending}")


def random_round(
    table: Table,
    rng: RandomSource,
    *,
    boxes: int | None = None,
    behind: bool = True,
    seat: bool = False,
    supply: SupplyCard | None = None,
) -> Round:
    """Open the table's next round, place random bets, deal and play it out."""
    seated = random_seated(table.rules, rng) if seat else None
    current = table.new_round(seated)
    place_random_bets(current, rng, boxes=boxes, behind=behind)
    current.deal()
    return play_out(current, rng, supply)


def play_shoe(
    table: Table,
    rng: RandomSource,
    *,
    boxes: int | None = None,
    behind: bool = True,
    seat: bool = False,
    max_rounds: int | None = None,
) -> list[Round]:
    """Play random rounds until the shoe's last round (or ``max_rounds``); return them in order."""
    rounds: list[Round] = []
    while not table.shoe_finished and (max_rounds is None or len(rounds) < max_rounds):
        rounds.append(random_round(table, rng, boxes=boxes, behind=behind, seat=seat))
    return rounds
