"""Borrowed views of arrays for the simulators' compiled steps: the same data, no reference count.

Numba counts references to every array a compiled function receives: each call of a function that
takes arrays increments and decrements a counter per array, with atomic instructions that also keep
the compiler from inlining and optimising across the call. The simulators' rounds are many small steps
over a few state arrays (:mod:`croupier.sim.kernels`, :mod:`croupier.sim.baccarat_kernels`), called
tens of times per round, so these counts would cost more than the round itself.

:func:`borrow` returns a view of an array whose reference-count pointer is null: numba's increments and
decrements of it are then a test of that pointer and nothing more. A borrowed view does not keep its
array alive, so it is taken only of a function's own arguments, which the caller holds until the
function returns, and never returned or stored.
"""

from __future__ import annotations

from typing import Any

from numba.core import cgutils, types
from numba.extending import intrinsic


def _borrow(typingctx: Any, array: types.Array) -> Any:
    if not isinstance(array, types.Array):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        view = context.make_array(signature.args[0])(context, builder, value=args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)  # type: ignore[no-untyped-call]
        view.parent = cgutils.get_null_value(view.parent.type)  # type: ignore[no-untyped-call]
        return view._getvalue()

    return array(array), codegen


borrow: Any = intrinsic(_borrow)
"""``borrow(array)`` in compiled code: a view of ``array`` (the same data, shape and strides) that numba
does not reference-count."""
