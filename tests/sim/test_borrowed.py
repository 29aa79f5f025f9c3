"""Borrowed views (croupier.sim.borrowed): the same data as the array, read and written through."""

import numpy as np
from numba import njit

from croupier.sim.borrowed import borrow


@njit
def _fill_through_a_borrowed_view(owner, value):  # type: ignore[no-untyped-def]
    view = borrow(owner)
    for i in range(view.shape[0]):
        for j in range(view.shape[1]):
            view[i, j] = value * i + j
    return view.sum() + view.shape[0] * 1000 + view.strides[0]


def test_a_borrowed_view_reads_and_writes_the_arrays_data() -> None:
    owner = np.zeros((3, 4), dtype=np.int64)
    result = _fill_through_a_borrowed_view(owner, 10)
    assert owner.tolist() == [[10 * i + j for j in range(4)] for i in range(3)]
    assert result == owner.sum() + 3 * 1000 + owner.strides[0]
