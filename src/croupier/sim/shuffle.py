"""Twins of the game's shuffle in numba, with the tallies ``croupier certify`` tests (docs/certify.md).

The game shuffles a shoe with :func:`croupier.rng.fisher_yates` (Durstenfeld: for ``i`` from the last index
down to 1, swap item ``i`` with item ``randbelow(i + 1)``) over one of two generators. Each has a twin
here that takes the *same bytes* and makes the *same order*, card for card (tests/sim/test_shuffle.py):

* the OS CSPRNG (:class:`croupier.rng.SystemRandom`, ``secrets.randbelow``): CPython draws ``k =
  n.bit_length()`` bits from ``ceil(k / 8)`` bytes of ``os.urandom`` read big-endian (the top ``k`` bits)
  and rejects values ``>= n`` (``random.SystemRandom.getrandbits``, ``_randbelow_with_getrandbits``).
  :func:`orders_bytes` and :func:`tally_bytes` read such bytes from a buffer the caller fills from
  ``os.urandom``;
* the HMAC-SHA256 stream (:class:`croupier.rng.HmacStream`: provably fair shoes, and
  :func:`croupier.rng.seeded`): the words of ``HMAC-SHA256(server_seed, "client_seed:nonce:counter")``,
  big-endian 32-bit, a word rejected when ``w >= 2**32 - 2**32 % n``, else ``w % n``.
  :func:`orders_hmac` and :func:`tally_hmac` compute the HMAC here (SHA-256 in numba); shoe ``i`` of a
  run is the stream with nonce ``first_nonce + i``.

A card is its place in the new shoe (``decks`` new decks one after another, :func:`croupier.cards.new_shoe_order`):
an order is an array ``order[position] = card``. :func:`tally_orders` counts, over many orders, what
the certification tests: each card's positions, which card directly follows which, the fixed points of
each shoe, and its ascending runs.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

IntArray = npt.NDArray[np.int64]

_M32 = 0xFFFFFFFF
_K = np.array(
    [
        0x428A2F98, 0x71374491, 0xB5C0FBCF, 0xE9B5DBA5, 0x3956C25B, 0x59F111F1, 0x923F82A4, 0xAB1C5ED5,
        0xD807AA98, 0x12835B01, 0x243185BE, 0x550C7DC3, 0x72BE5D74, 0x80DEB1FE, 0x9BDC06A7, 0xC19BF174,
        0xE49B69C1, 0xEFBE4786, 0x0FC19DC6, 0x240CA1CC, 0x2DE92C6F, 0x4A7484AA, 0x5CB0A9DC, 0x76F988DA,
        0x983E5152, 0xA831C66D, 0xB00327C8, 0xBF597FC7, 0xC6E00BF3, 0xD5A79147, 0x06CA6351, 0x14292967,
        0x27B70A85, 0x2E1B2138, 0x4D2C6DFC, 0x53380D13, 0x650A7354, 0x766A0ABB, 0x81C2C92E, 0x92722C85,
        0xA2BFE8A1, 0xA81A664B, 0xC24B8B70, 0xC76C51A3, 0xD192E819, 0xD6990624, 0xF40E3585, 0x106AA070,
        0x19A4C116, 0x1E376C08, 0x2748774C, 0x34B0BCB5, 0x391C0CB3, 0x4ED8AA4A, 0x5B9CCA4F, 0x682E6FF3,
        0x748F82EE, 0x78A5636F, 0x84C87814, 0x8CC70208, 0x90BEFFFA, 0xA4506CEB, 0xBEF9A3F7, 0xC67178F2,
    ],
    dtype=np.int64,
)  # fmt: skip
_H0 = np.array(
    [0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19], dtype=np.int64
)
MAX_PREFIX = 32
"""The longest ``client_seed + ":"`` the kernel takes: the message then fits one SHA-256 block."""


# --------------------------------------------------------------------------------------------------
# the OS CSPRNG: CPython's secrets.randbelow over a byte stream


@njit(cache=True)
def _below_bytes(buf, at, n):  # type: ignore[no-untyped-def]
    """``(value, next read)``: CPython's ``SystemRandom._randbelow(n)`` from ``buf[at:]``; ``(-1, at)`` if short."""
    k = 0
    m = n
    while m:
        k += 1
        m >>= 1
    size = (k + 7) // 8
    shift = size * 8 - k
    while True:
        if at + size > buf.shape[0]:
            return -1, at
        r = np.int64(0)
        for b in range(size):
            r = (r << 8) | np.int64(buf[at + b])
        at += size
        r >>= shift
        if r < n:
            return r, at


@njit(cache=True)
def _shuffle_bytes(buf, at, order):  # type: ignore[no-untyped-def]
    """Fisher–Yates of a new shoe into ``order`` from ``buf[at:]``; the next read, or -1 if the bytes ran out."""
    n = order.shape[0]
    for p in range(n):
        order[p] = p
    for i in range(n - 1, 0, -1):
        j, at = _below_bytes(buf, at, i + 1)
        if j < 0:
            return -1
        order[i], order[j] = order[j], order[i]
    return at


# --------------------------------------------------------------------------------------------------
# the HMAC-SHA256 stream


@njit(cache=True)
def _rotr(x, n):  # type: ignore[no-untyped-def]
    return ((x >> n) | (x << (32 - n))) & _M32


@njit(cache=True)
def _compress(state, w):  # type: ignore[no-untyped-def]
    """SHA-256's compression of one block (its 16 big-endian words in ``w[:16]``; ``w`` has 64) into ``state``."""
    for t in range(16, 64):
        x = w[t - 15]
        y = w[t - 2]
        s0 = _rotr(x, 7) ^ _rotr(x, 18) ^ (x >> 3)
        s1 = _rotr(y, 17) ^ _rotr(y, 19) ^ (y >> 10)
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) & _M32
    a, b, c, d, e, f, g, h = state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
    for t in range(64):
        t1 = (h + (_rotr(e, 6) ^ _rotr(e, 11) ^ _rotr(e, 25)) + ((e & f) ^ ((e ^ _M32) & g)) + _K[t] + w[t]) & _M32
        t2 = ((_rotr(a, 2) ^ _rotr(a, 13) ^ _rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) & _M32
        h = g
        g = f
        f = e
        e = (d + t1) & _M32
        d = c
        c = b
        b = a
        a = (t1 + t2) & _M32
    state[0] = (state[0] + a) & _M32
    state[1] = (state[1] + b) & _M32
    state[2] = (state[2] + c) & _M32
    state[3] = (state[3] + d) & _M32
    state[4] = (state[4] + e) & _M32
    state[5] = (state[5] + f) & _M32
    state[6] = (state[6] + g) & _M32
    state[7] = (state[7] + h) & _M32


@njit(cache=True)
def _key_state(key, pad):  # type: ignore[no-untyped-def]
    """SHA-256's state after the block ``key XOR pad`` (HMAC's inner or outer key block; ``len(key) <= 64``)."""
    block = np.zeros(64, dtype=np.int64)
    for i in range(key.shape[0]):
        block[i] = np.int64(key[i])
    w = np.zeros(64, dtype=np.int64)
    for t in range(16):
        word = 0
        for b in range(4):
            word = (word << 8) | (block[4 * t + b] ^ pad)
        w[t] = word
    state = _H0.copy()
    _compress(state, w)
    return state


@njit(cache=True)
def _digits(value, out, at):  # type: ignore[no-untyped-def]
    """Write ``value`` (>= 0) in decimal ASCII at ``out[at:]``; the next free index."""
    size = 1
    rest = value // 10
    while rest:
        size += 1
        rest //= 10
    for i in range(size - 1, -1, -1):
        out[at + i] = 48 + value % 10
        value //= 10
    return at + size


@njit(cache=True)
def _hmac_block(inner, outer, prefix, nonce, counter, words, message, w):  # type: ignore[no-untyped-def]
    """``words`` = the 8 big-endian words of ``HMAC-SHA256(key, prefix + "nonce:counter")``."""
    message[:] = 0
    size = prefix.shape[0]
    message[:size] = prefix
    size = _digits(nonce, message, size)
    message[size] = 58  # ':'
    size = _digits(counter, message, size + 1)
    message[size] = 0x80
    bits = (64 + size) * 8
    message[62] = bits >> 8
    message[63] = bits & 0xFF
    for t in range(16):
        w[t] = (message[4 * t] << 24) | (message[4 * t + 1] << 16) | (message[4 * t + 2] << 8) | message[4 * t + 3]
    words[:] = inner
    _compress(words, w)
    for t in range(8):
        w[t] = words[t]
    w[8] = 0x80000000
    for t in range(9, 15):
        w[t] = 0
    w[15] = (64 + 32) * 8
    words[:] = outer
    _compress(words, w)


@njit(cache=True)
def _shuffle_hmac(inner, outer, prefix, nonce, order, words, message, w):  # type: ignore[no-untyped-def]
    """Fisher–Yates of a new shoe into ``order`` from the HMAC stream with ``nonce`` (counter from 0)."""
    n = order.shape[0]
    for p in range(n):
        order[p] = p
    counter = 0
    used = 8
    for i in range(n - 1, 0, -1):
        bound = i + 1
        limit = 4294967296 - 4294967296 % bound
        word = limit
        while word >= limit:
            if used == 8:
                _hmac_block(inner, outer, prefix, nonce, counter, words, message, w)
                counter += 1
                used = 0
            word = words[used]
            used += 1
        j = word % bound
        order[i], order[j] = order[j], order[i]


def hmac_key(server_seed: bytes, client_seed: str) -> tuple[IntArray, IntArray, npt.NDArray[np.int64]]:
    """The kernel's form of an HMAC stream's key: inner and outer key states, and ``client_seed + ":"``."""
    if len(server_seed) > 64:
        raise ValueError("the kernel's HMAC takes a server seed of at most 64 bytes")
    prefix = (client_seed + ":").encode()
    if len(prefix) > MAX_PREFIX:
        raise ValueError(f"the kernel's HMAC takes a client seed of at most {MAX_PREFIX - 1} bytes")
    key = np.frombuffer(server_seed, dtype=np.uint8)
    inner: IntArray = _key_state(key, 0x36)
    outer: IntArray = _key_state(key, 0x5C)
    return inner, outer, np.frombuffer(prefix, dtype=np.uint8).astype(np.int64)


# --------------------------------------------------------------------------------------------------
# the tallies


@njit(cache=True)
def _tally(order, positions, adjacency, fixed, runs):  # type: ignore[no-untyped-def]
    """Count one order: ``positions[card, place]``, ``adjacency[card, next card]``, ``fixed[fixed points]``
    and ``runs[ascending runs]`` (a run ends where a card is lower than the one before it)."""
    n = order.shape[0]
    previous = order[0]
    positions[previous, 0] += 1
    points = 1 if previous == 0 else 0
    ascending = 1
    for p in range(1, n):
        card = order[p]
        positions[card, p] += 1
        adjacency[previous, card] += 1
        if card == p:
            points += 1
        if card < previous:
            ascending += 1
        previous = card
    fixed[points] += 1
    runs[ascending] += 1


def new_tallies(cards: int) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Empty tallies for shoes of ``cards`` cards: positions, adjacency, fixed points, runs."""
    return (
        np.zeros((cards, cards), dtype=np.int64),
        np.zeros((cards, cards), dtype=np.int64),
        np.zeros(cards + 1, dtype=np.int64),
        np.zeros(cards + 1, dtype=np.int64),
    )


@njit(cache=True, nogil=True)
def tally_orders(orders, positions, adjacency, fixed, runs):  # type: ignore[no-untyped-def]
    """Tally the given orders (one per row), whatever shuffled them."""
    for s in range(orders.shape[0]):
        _tally(orders[s], positions, adjacency, fixed, runs)


@njit(cache=True, nogil=True)
def tally_bytes(buf, at, cards, shoes, positions, adjacency, fixed, runs):  # type: ignore[no-untyped-def]
    """Shuffle and tally up to ``shoes`` shoes from OS bytes ``buf[at:]``; ``(shoes done, next read)``. A shoe
    the bytes do not finish is not counted: the next call starts it again from the returned read."""
    order = np.empty(cards, dtype=np.int64)
    done = 0
    while done < shoes:
        after = _shuffle_bytes(buf, at, order)
        if after < 0:
            break
        at = after
        _tally(order, positions, adjacency, fixed, runs)
        done += 1
    return done, at


@njit(cache=True, nogil=True)
def tally_hmac(inner, outer, prefix, first_nonce, shoes, cards, positions, adjacency, fixed, runs):  # type: ignore[no-untyped-def]
    """Shuffle and tally the shoes of nonces ``first_nonce`` … ``first_nonce + shoes - 1``."""
    order = np.empty(cards, dtype=np.int64)
    words = np.zeros(8, dtype=np.int64)
    message = np.zeros(64, dtype=np.int64)
    w = np.zeros(64, dtype=np.int64)
    for s in range(shoes):
        _shuffle_hmac(inner, outer, prefix, first_nonce + s, order, words, message, w)
        _tally(order, positions, adjacency, fixed, runs)


@njit(cache=True)
def orders_bytes(buf, cards, shoes):  # type: ignore[no-untyped-def]
    """The orders of ``shoes`` shoes shuffled from OS bytes ``buf`` (the twin test's view); ``(orders, bytes read)``.
    Raises when the bytes run out."""
    orders = np.empty((shoes, cards), dtype=np.int64)
    at = 0
    for s in range(shoes):
        at = _shuffle_bytes(buf, at, orders[s])
        if at < 0:
            raise ValueError("the bytes ran out before the last shoe")
    return orders, at


@njit(cache=True)
def orders_hmac(inner, outer, prefix, first_nonce, shoes, cards):  # type: ignore[no-untyped-def]
    """The orders of the shoes of nonces ``first_nonce`` … (the twin test's view)."""
    orders = np.empty((shoes, cards), dtype=np.int64)
    words = np.zeros(8, dtype=np.int64)
    message = np.zeros(64, dtype=np.int64)
    w = np.zeros(64, dtype=np.int64)
    for s in range(shoes):
        _shuffle_hmac(inner, outer, prefix, first_nonce + s, orders[s], words, message, w)
    return orders


def bytes_per_shoe(cards: int) -> float:
    """The OS bytes one shoe of ``cards`` cards reads on average (each draw: its bytes times its expected tries)."""
    total = 0.0
    for n in range(2, cards + 1):
        k = n.bit_length()
        total += (k + 7) // 8 * (1 << k) / n
    return total
