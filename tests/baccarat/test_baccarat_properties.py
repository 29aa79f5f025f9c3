"""Properties: cards and money conserved, replay deterministic and equal to the engine, and the
long-run frequencies of an 8-deck shoe."""

from __future__ import annotations

import math
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.baccarat.rules import Rules, Spot
from croupier.baccarat.state import (
    BaccaratTable,
    BetCarried,
    BetPlaced,
    CardBurned,
    CardDealt,
    CoupSettled,
    FirstCardTurned,
    Phase,
    ShoeLoaded,
    shuffled_shoes,
)
from croupier.cards import new_shoe_order
from croupier.money import ZERO, format_amount
from croupier.rng import seeded

from .helpers import replay_doc, rules

PLAYERS = ("ana", "bo", "cy")

rule_sets = st.builds(
    lambda commission, lucky, at_cut, burn, burn_each, decks, tie_bets: rules(
        commission=commission,
        lucky_6=lucky,
        at_cut_card=at_cut,
        burn=burn,
        burn_each_coup=burn_each,
        decks=decks,
        tie_bets=tie_bets,
    ),
    st.sampled_from(["5pct", "none_super6"]),
    st.booleans(),
    st.sampled_from(["one_more", "last"]),
    st.sampled_from(["first_card_value", "decks", 3]),
    st.integers(0, 1),
    st.sampled_from([6, 8]),
    st.sampled_from(["push", "increase_only"]),
)
amounts = st.integers(1, 50_000).map(lambda cents: Decimal(cents).scaleb(-2))


def _play_shoe(rule_set: Rules, seed: int, bets_per_coup: list[list[tuple[str, int, Decimal]]], demos: int):  # type: ignore[no-untyped-def]
    """Play one whole shoe; return the table and the rounds as a transcript would give them."""
    table = BaccaratTable(rule_set, shoe_source=shuffled_shoes(rule_set, seeded(seed)))
    shoe = table.shoe
    assert shoe is not None
    order = [str(card) for card in shoe.drawn() + shoe.remaining_cards()]
    rounds: list[dict[str, Any]] = [{"demo": True} for _ in range(demos)]
    for _ in range(demos):
        table.start_coup(demo=True)
    coup = 0
    while table.shoe is shoe and table.phase is Phase.BETTING:
        placed = []
        for player, spot_index, amount in bets_per_coup[coup % len(bets_per_coup)]:
            spot: Spot = rule_set.spots[spot_index % len(rule_set.spots)]
            table.place_bet(player, spot, amount)
            placed.append({"player": player, "on": spot, "amount": str(amount)})
        rounds.append({"bets": placed})
        table.start_coup()
        coup += 1
    assert table.shoe is not shoe, "the shoe ran out before its last coup"
    doc = {
        "game": "baccarat",
        "rules": "macau",
        "overrides": {name: value for name, value in rule_set.describe().items() if name != "cut_card"},
        "shoe": order,
        "cut_card": shoe.cut_card,
        "rounds": rounds,
    }
    return table, shoe, doc


bets_strategy = st.lists(
    st.lists(st.tuples(st.sampled_from(PLAYERS), st.integers(0, 5), amounts), max_size=4), min_size=1, max_size=5
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rule_set=rule_sets, seed=st.integers(0, 10**9), bets=bets_strategy, demos=st.integers(0, 3))
def test_cards_and_money_conserved_and_replay_equals_engine(
    rule_set: Rules, seed: int, bets: list[list[tuple[str, int, Decimal]]], demos: int
) -> None:
    table, shoe, doc = _play_shoe(rule_set, seed, bets, demos)
    operations = table.operations
    second_shoe = [i for i, op in enumerate(operations) if isinstance(op, ShoeLoaded)][1]
    shoe_ops = operations[:second_shoe]

    # cards: every card drawn is turned, burned or dealt, once, in the order drawn; none made or lost
    seen = [op.card for op in shoe_ops if isinstance(op, FirstCardTurned | CardBurned | CardDealt)]
    assert seen == shoe.drawn()
    assert Counter(shoe.drawn() + shoe.remaining_cards()) == Counter(new_shoe_order(rule_set.decks))
    settled = [op.result for op in shoe_ops if isinstance(op, CoupSettled)]
    dealt = [op.card for op in shoe_ops if isinstance(op, CardDealt)]
    assert [c for r in settled for c in _dealt_order(r.cards.player, r.cards.banker)] == dealt
    assert settled[-1].last_coup and not any(r.last_coup for r in settled[:-1])

    # money: each player's chips and the house's cash together are unchanged by every coup
    chips: dict[str, Decimal] = {}
    house = ZERO
    placed = ZERO
    for op in shoe_ops:
        if isinstance(op, BetPlaced):
            chips[op.player] = chips.get(op.player, ZERO) - op.amount
            house += op.amount
            placed += op.amount
        elif isinstance(op, BetCarried):  # Art. 18: it stays in play for the next coup, not paid back
            placed += op.amount
        elif isinstance(op, CoupSettled):
            assert sum((s.stake for s in op.result.settlements), ZERO) == placed
            placed = ZERO
            for s in op.result.settlements:
                assert s.returned >= 0
                assert s.gain > 0 if s.outcome == "win" else s.gain == (-s.stake if s.outcome == "lose" else ZERO)
                chips[s.player] += s.returned
                house -= s.returned
            assert sum(chips.values(), ZERO) + house == 0
    assert placed == ZERO  # no bet is left on the table when the shoe ends (a carried one is returned)
    net = {p: sum((r.net.get(p, ZERO) for r in settled), ZERO) for p in chips}
    assert net == chips

    assert (rule_set.describe()["tie_pays"], rule_set.describe()["pair_pays"]) == ("8:1", "11:1")  # the oracle's
    # the oracle: every coup's cards drawn by the tableau of docs/rules.md §4 and every stake paid as §4 says,
    # worked out here from the cards in the order the shoe dealt them, not by the engine's code
    standing: dict[tuple[str, str], Fraction] = {}
    placed_now: dict[tuple[str, str], Fraction] = {}
    dealt_now: list[str] = []
    for op in shoe_ops:
        if isinstance(op, BetPlaced):
            key = (op.player, op.spot)
            placed_now[key] = placed_now.get(key, Fraction(0)) + Fraction(op.amount)
        elif isinstance(op, CardDealt):
            dealt_now.append(str(op.card))
        elif isinstance(op, CoupSettled):
            result = op.result
            player, banker = _oracle_coup(dealt_now)
            assert ([str(c) for c in result.cards.player], [str(c) for c in result.cards.banker]) == (player, banker)
            stakes = dict(placed_now)
            for key, amount in standing.items():
                stakes[key] = stakes.get(key, Fraction(0)) + amount
            engine: dict[tuple[str, str], tuple[Fraction, Fraction, Fraction]] = {}
            for s in result.settlements:
                stake, returned, carried = engine.get((s.player, s.spot), (Fraction(0),) * 3)
                engine[(s.player, s.spot)] = (
                    stake + Fraction(s.stake),
                    returned + Fraction(s.returned),
                    carried + Fraction(s.carried),
                )
            expected = {
                key: (stake, *_oracle_payout(rule_set, key[1], stake, player, banker)) for key, stake in stakes.items()
            }
            if result.last_coup:  # docs/baccarat.md: a bet left standing by the shoe's last coup is returned
                expected = {key: (s, back + left, Fraction(0)) for key, (s, back, left) in expected.items()}
            assert engine == expected, (player, banker)
            standing = {key: carried for key, (_stake, _returned, carried) in expected.items() if carried}
            placed_now, dealt_now = {}, []

    # replay: the transcript of this shoe gives the engine's cards and money, twice the same
    replayed = replay_doc(doc)
    assert replayed == replay_doc(doc)
    assert len(replayed["rounds"]) == len(settled)
    for document, result in zip(replayed["rounds"], settled, strict=True):
        assert document["player"]["cards"] == [str(c) for c in result.cards.player]
        assert document["banker"]["cards"] == [str(c) for c in result.cards.banker]
        assert document["net"] == {p: format_amount(g) for p, g in result.net.items()}
        assert document["last_round"] == result.last_coup
    assert replayed["net"] == {p: format_amount(g) for p, g in net.items() if any(p in r.net for r in settled)}


def _value(card: str) -> int:
    """docs/rules.md §4: A=1, 2-9 face, T/J/Q/K = 0."""
    return 0 if card[0] in "TJQK" else 1 if card[0] == "A" else int(card[0])


def _total(cards: list[str]) -> int:
    return sum(_value(card) for card in cards) % 10


def _oracle_coup(dealt: list[str]) -> tuple[list[str], list[str]]:
    """The two sides' cards from a coup's cards in the order dealt, by docs/rules.md §4 (Art. 7, 9): player, banker,
    player, banker; a natural stands both; the player draws on 0-5; the banker by the drawing table.
    Every card the coup dealt must be used, and no more."""
    cards = iter(dealt)
    player = [next(cards)]
    banker = [next(cards)]
    player.append(next(cards))
    banker.append(next(cards))
    if _total(player) < 8 and _total(banker) < 8:
        banker_total = _total(banker)
        if _total(player) <= 5:
            player.append(next(cards))
            p = _value(player[2])
            draws = {0: True, 1: True, 2: True, 3: p != 8, 4: 2 <= p <= 7, 5: 4 <= p <= 7, 6: p in (6, 7)}
            banker_draws = draws.get(banker_total, False)
        else:
            banker_draws = banker_total <= 5
        if banker_draws:
            banker.append(next(cards))
    assert next(cards, None) is None, f"the coup dealt {dealt}; the tableau uses {player} and {banker}"
    return player, banker


def _oracle_payout(
    rule_set: Rules, spot: str, stake: Fraction, player: list[str], banker: list[str]
) -> tuple[Fraction, Fraction]:
    """What goes back to the bettor now and what stays on the spot, by docs/rules.md §4 (Art. 12, 13, 17, 18; the 2018
    amendment): player 1:1; banker 0.95:1, or 1:1 and a winning 6 1:2 under none_super6; player and banker
    returned on a tie, or left standing under increase_only; tie 8:1; pairs 11:1 on the first two cards'
    rank; lucky 6 12:1 on a two-card banker 6 win, 20:1 on a three-card one."""
    p, b = _total(player), _total(banker)
    winner = "player" if p > b else "banker" if b > p else "tie"
    if spot in ("player", "banker"):
        if winner == "tie":
            return (Fraction(0), stake) if rule_set.tie_bets == "increase_only" else (stake, Fraction(0))
        if winner != spot:
            return Fraction(0), Fraction(0)
        if spot == "player":
            ratio = Fraction(1)
        elif rule_set.commission == "5pct":
            ratio = Fraction(95, 100)
        else:
            ratio = Fraction(1, 2) if b == 6 else Fraction(1)
        return stake * (1 + ratio), Fraction(0)
    side = {"player_pair": player, "banker_pair": banker}.get(spot)
    if side is not None:
        return (stake * 12 if side[0][0] == side[1][0] else Fraction(0)), Fraction(0)
    if spot == "tie":
        return (stake * 9 if winner == "tie" else Fraction(0)), Fraction(0)
    assert spot == "lucky_6", spot
    if winner == "banker" and b == 6:
        return stake * (13 if len(banker) == 2 else 21), Fraction(0)
    return Fraction(0), Fraction(0)


def _dealt_order(player: tuple[Any, ...], banker: tuple[Any, ...]) -> list[Any]:
    order = [player[0], banker[0], player[1], banker[1]]
    return order + list(player[2:]) + list(banker[2:])


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_seeded_shuffle_is_deterministic(seed: int) -> None:
    rule_set = rules()
    first, second = (shuffled_shoes(rule_set, seeded(seed))() for _ in range(2))
    assert first.remaining_cards() == second.remaining_cards() and first.cut_card == second.cut_card


def test_long_run_frequencies_8_decks() -> None:
    """Over a long seeded run of 8-deck shoes: banker 0.4586, player 0.4462, tie 0.0952, within 4 standard errors."""
    rule_set = rules()
    table = BaccaratTable(rule_set, shoe_source=shuffled_shoes(rule_set, seeded("frequencies")))
    coups = 30_000
    for _ in range(coups):
        table.start_coup()
    counts = Counter(result.cards.winner for result in table.results)
    assert sum(counts.values()) == coups
    for winner, p in (("banker", 0.4586), ("player", 0.4462), ("tie", 0.0952)):
        standard_error = math.sqrt(p * (1 - p) / coups)
        assert abs(counts[winner] / coups - p) <= 4 * standard_error, (winner, counts[winner] / coups)
