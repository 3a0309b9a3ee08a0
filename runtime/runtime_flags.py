"""The runtime's own flags, and the switches dispatch reads from them.

Dispatch reads ``SWITCHES`` only when it plans a call (once per cache key); a change of one of
these flags updates ``SWITCHES`` and clears every dispatch cache, so the hot path never looks a
flag up.
"""

from __future__ import annotations

from typing import Callable

from phiops.runtime import flags

__all__ = ["SWITCHES", "on_dispatch_flag_change", "dispatch_changed"]

flags.define_bool(
    "check_nan_inf",
    False,
    "After each kernel, raise an error naming the op and output when a floating output holds NaN or Inf.",
)
flags.define_bool(
    "enable_api_kernel_fallback",
    True,
    "When no kernel is registered for the requested backend, fall back to the CPU kernel.",
)
flags.define_bool(
    "log_dispatch",
    False,
    "Log every dispatch (op, kernel key, input shapes) to the 'phiops.dispatch' logger at INFO level.",
)
flags.define_int64(
    "max_alloc_bytes",
    0,
    "Largest output, in bytes, an op may allocate; a larger one is an error before it is "
    "allocated. 0: no limit but the machine's.",
    minimum=0,
)
flags.define_int32(
    "blas_threads",
    -1,
    "Threads for numpy's BLAS in phiops's matrix products (runtime/kernels/blas.py): -1 one "
    "thread, and the BLAS's default count for products of at least 2^23 multiply-adds; 0 leave "
    "the BLAS's threading alone; N > 0 always N threads.",
)
flags.define_bool(
    "use_native_kernels",
    True,
    "Run layer_norm, layer_norm_grad, Adam's step and conv2d's im2col and col2im on numpy "
    "float32/float64 arrays with "
    "the compiled kernels of runtime.kernels._native when it is built "
    "(runtime/kernels/native.py); false: always the numpy kernels.",
)

flags.define_bool(
    "amp_on_cpu",
    False,
    "Let paddle.amp.auto_cast, decorate(level='O2') and GradScaler act on CPU tensors (phiops "
    "only; PaddlePaddle 3.3.1 ignores them on the CPU with a warning, as phiops does by default).",
)


class _Switches:
    __slots__ = ("check_nan_inf", "enable_api_kernel_fallback", "log_dispatch", "max_alloc_bytes")

    def __init__(self) -> None:
        for name in self.__slots__:
            setattr(self, name, flags.flag_value(name))


SWITCHES = _Switches()
_CACHE_CLEARERS: list[Callable[[], None]] = []


def on_dispatch_flag_change(clear: Callable[[], None]) -> None:
    """Call ``clear`` whenever one of the dispatch switches changes."""
    _CACHE_CLEARERS.append(clear)


def dispatch_changed() -> None:
    """Drop every plan made so far (dispatch's and the executors'): something they recorded
    changed (a kernel overriding another, the default place)."""
    for clear in _CACHE_CLEARERS:
        clear()


def _flag_changed(name: str, old: object, new: object) -> None:
    if name in _Switches.__slots__:
        setattr(SWITCHES, name, new)
        for clear in _CACHE_CLEARERS:
            clear()


flags.add_listener(_flag_changed)
