"""The shuffle's compiled twin (croupier.sim.shuffle) deals the game's orders, card for card, from the same bytes.

The game's default shuffle is :meth:`croupier.shoe.Shoe.shuffled` over :class:`croupier.rng.SystemRandom`
(``secrets.randbelow``, which reads ``os.urandom`` through ``random._urandom``); the provably fair and the
seeded shoes use :class:`croupier.rng.HmacStream`. Here the game's own code runs on a fixed byte stream (the
OS's bytes replaced by a SHAKE-256 stream) and on HMAC streams, and the twin must give the same orders.
"""

from __future__ import annotations

import hashlib
import io
import random

import numpy as np
import pytest

from croupier.cards import new_shoe_order
from croupier.rng import HmacStream, seeded
from croupier.server.fair import build_shoe
from croupier.shoe import Shoe
from croupier.sim import shuffle as kernel


def stream(label: str, size: int) -> bytes:
    return hashlib.shake_256(label.encode()).digest(size)


def cards(order: np.ndarray, decks: int) -> list[object]:
    shoe = new_shoe_order(decks)
    return [shoe[int(c)] for c in order]


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_os_twin_deals_the_games_orders_from_the_same_bytes(decks: int, monkeypatch: pytest.MonkeyPatch) -> None:
    data = stream(f"os-{decks}", 30_000)
    reader = io.BytesIO(data)
    monkeypatch.setattr(random, "_urandom", reader.read)  # what secrets.randbelow reads os.urandom through
    games = [Shoe.shuffled(decks, None) for _ in range(4)]
    orders, read = kernel.orders_bytes(np.frombuffer(data, dtype=np.uint8), decks * 52, 4)
    assert [cards(order, decks) for order in orders] == [shoe.remaining_cards() for shoe in games]
    assert read == reader.tell()  # the same bytes, no more, no fewer


@pytest.mark.parametrize("decks", [6, 8])
def test_hmac_twin_deals_the_seeded_and_fair_orders(decks: int) -> None:
    server_seed = hashlib.sha256(b"twin").digest()
    inner, outer, prefix = kernel.hmac_key(server_seed, "croupier-seeded")
    for first in (0, 9, 99, 12_345):  # nonces across a change in their number of digits
        orders = kernel.orders_hmac(inner, outer, prefix, first, 2, decks * 52)
        for i, order in enumerate(orders):
            game = Shoe.shuffled(decks, None, HmacStream(server_seed, "croupier-seeded", first + i))
            assert cards(order, decks) == game.remaining_cards()
    documented = kernel.hmac_key(hashlib.sha256(b"7").digest(), "croupier-seeded")  # croupier.rng.seeded(7)
    assert (
        cards(kernel.orders_hmac(*documented, 0, 1, 416)[0], 8) == Shoe.shuffled(8, None, seeded(7)).remaining_cards()
    )
    fair_seed = bytes(range(32))
    fair = build_shoe(decks, None, fair_seed, "table-1", 3)  # a provably fair shoe of the server
    order = kernel.orders_hmac(*kernel.hmac_key(fair_seed, "table-1"), 3, 1, decks * 52)[0]
    assert cards(order, decks) == fair.remaining_cards()


def test_fused_kernels_tally_the_twins_orders() -> None:
    size = 416
    key = kernel.hmac_key(hashlib.sha256(b"fused").digest(), "croupier-seeded")
    fused, plain = kernel.new_tallies(size), kernel.new_tallies(size)
    kernel.tally_hmac(*key, 5, 30, size, *fused)
    kernel.tally_orders(kernel.orders_hmac(*key, 5, 30, size), *plain)
    assert all(np.array_equal(a, b) for a, b in zip(fused, plain, strict=True))
    data = np.frombuffer(stream("fused", 40_000), dtype=np.uint8)
    orders, read = kernel.orders_bytes(data, size, 30)
    fused, plain = kernel.new_tallies(size), kernel.new_tallies(size)
    kernel.tally_orders(orders, *plain)
    done, at = kernel.tally_bytes(data[: read // 2], 0, size, 30, *fused)  # the bytes run out mid-shoe …
    assert 0 < done < 30
    more, at = kernel.tally_bytes(data, at, size, 30 - done, *fused)  # … and the shoe starts again from `at`
    assert (done + more, at) == (30, read)
    assert all(np.array_equal(a, b) for a, b in zip(fused, plain, strict=True))


def test_tally_counts_positions_successors_fixed_points_and_runs() -> None:
    positions, adjacency, fixed, runs = kernel.new_tallies(4)
    kernel.tally_orders(np.array([[0, 2, 1, 3], [3, 2, 1, 0]], dtype=np.int64), positions, adjacency, fixed, runs)
    assert positions.tolist() == [[1, 0, 0, 1], [0, 0, 2, 0], [0, 2, 0, 0], [1, 0, 0, 1]]
    assert adjacency.tolist() == [[0, 0, 1, 0], [1, 0, 0, 1], [0, 2, 0, 0], [0, 0, 1, 0]]
    assert fixed.tolist() == [1, 0, 1, 0, 0]  # 3 2 1 0 has none; 0 2 1 3 has two (0 and 3)
    assert runs.tolist() == [0, 0, 1, 0, 1]  # 0 2 | 1 3: two runs; 3 | 2 | 1 | 0: four


def test_bytes_per_shoe_counts_each_draws_bytes_and_tries() -> None:
    assert kernel.bytes_per_shoe(2) == 2.0  # n = 2: two bits from one byte, accepted half the time: two tries
    assert kernel.bytes_per_shoe(3) == 2.0 + 4 / 3  # and n = 3: two bits, accepted 3 times in 4
    assert 800 < kernel.bytes_per_shoe(416) < 900
