"""The compiled hot path's decorator and its small scratch arrays (imports numba).

``hot`` is ``njit(cache=True)`` without numba's reference counting (its ``_nrt=False`` option).
With it on, every array passed to a function, sliced or unpacked from a tuple costs an atomic
increment and decrement of its owner's count (measured: 20-30 ns per call of a two-array
kernel, most of a leaf's cost in a search); off, an array argument is a plain struct. The
price: a ``hot`` function cannot allocate (``np.empty`` does not compile there), so a hot
kernel takes its buffers from its caller, from ``stack_empty`` (fixed-size arrays on the call
stack), or calls a plain ``njit`` function that allocates (which counts its own references:
the two kinds call each other safely, every array involved being owned by the caller).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from numba import njit, types
from numba.core import cgutils, config
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

F = TypeVar("F", bound=Callable[..., Any])
#: ``njit`` as the untyped callable it is at run time (its stubs do not list ``_nrt``)
_njit: Any = njit


def hot(fn: F | None = None, *, inline: str = "never", error_model: str = "python") -> Any:
    """``njit(cache=True)`` without reference counting (module docstring); ``inline`` and
    ``error_model`` as njit's ("numpy": a float division by zero gives inf instead of raising,
    so a loop that divides has no branch out and LLVM may vectorise it)."""
    decorate = _njit(cache=True, _nrt=False, inline=inline, error_model=error_model)
    return decorate if fn is None else decorate(fn)


def allocating(fn: F) -> F:
    """``njit(cache=True)`` with reference counting on by name: a function that allocates and is
    called from ``hot`` code (an ``njit`` function without the option inherits its caller's)."""
    return _njit(cache=True, _nrt=True)(fn)


@intrinsic
def _float_bits(typingctx: Any, x: Any) -> Any:
    """The 64 bits of a float64 as an int64 (a bit cast, no conversion)."""
    if x != types.float64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.bitcast(args[0], context.get_value_type(types.int64))

    return types.int64(types.float64), codegen


@intrinsic
def _bits_float(typingctx: Any, x: Any) -> Any:
    """The float64 whose 64 bits are the int64 ``x`` (a bit cast, no conversion)."""
    if x != types.int64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.bitcast(args[0], context.get_value_type(types.float64))

    return types.float64(types.int64), codegen


@intrinsic
def _alloca(typingctx: Any, size: Any, dtype: Any) -> Any:
    """The compiled ``stack_empty``: one ``alloca`` in the function's entry block, no owner."""
    if not isinstance(size, types.IntegerLiteral):
        return None
    n = size.literal_value
    item = dtype.dtype if isinstance(dtype, types.DType) else dtype.instance_type
    arrty = types.Array(item, 1, "C")

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        lty = context.get_data_type(item)
        ptr = cgutils.alloca_once(builder, lty, size=n)
        ary = make_array(arrty)(context, builder)
        itemsize = context.get_abi_sizeof(lty)
        intp = types.intp
        populate_array(
            ary,
            data=ptr,
            shape=[context.get_constant(intp, n)],
            strides=[context.get_constant(intp, itemsize)],
            itemsize=context.get_constant(intp, itemsize),
            meminfo=None,
        )
        return ary._getvalue()

    return arrty(size, dtype), codegen


def _stack_empty_python(size: int, dtype: Any) -> np.ndarray:
    """``stack_empty`` with the JIT off: an ordinary array."""
    return np.empty(size, dtype=dtype)


#: ``stack_empty(size, dtype)``: a 1-d array of ``size`` (a compile-time constant: a literal or
#: a module-level int) uninitialised items on the calling function's stack, without an owner;
#: it lives until that function returns and must not be returned or kept. Called directly in
#: the function that uses it (a wrapper's stack would be gone when it returns).
stack_empty: Any = _stack_empty_python if config.DISABLE_JIT else _alloca  # type: ignore[attr-defined]


def _float_bits_python(x: float) -> int:
    """``float_bits`` with the JIT off."""
    return int(np.float64(x).view(np.int64))


def _bits_float_python(x: int) -> float:
    """``bits_float`` with the JIT off."""
    return float(np.int64(x).view(np.float64))


#: ``float_bits(x)``: the 64 bits of the float64 ``x`` as an int64; ``bits_float(n)`` the
#: reverse. Bit casts cost nothing and, unlike conversions to int64, vectorise on AVX2.
float_bits: Any = _float_bits_python if config.DISABLE_JIT else _float_bits  # type: ignore[attr-defined]
bits_float: Any = _bits_float_python if config.DISABLE_JIT else _bits_float  # type: ignore[attr-defined]
