"""How many threads the BLAS (numpy's OpenBLAS, MKL, ...) runs phiops's matrix products on.

With its default of one thread per core, OpenBLAS wakes its worker threads for every product of a
few hundred thousand multiply-adds and then lets them spin: on a small machine a training step of
small matrices runs several times slower than with one thread (examples/train_mlp.py: 7.3 s
instead of 1.0 s for five epochs on 2 cores). Large products do gain from threads.

``FLAGS_blas_threads`` says what phiops does:

- ``-1`` or any negative value (the default, "auto"): the BLAS runs one thread, except inside a phiops product of at
  least ``MULTITHREAD_MIN_MACS`` multiply-adds, which runs on the BLAS's own default count;
- ``0``: phiops leaves the BLAS's threading alone (numpy's defaults or the environment's);
- ``N`` > 0: the BLAS runs ``N`` threads.

The BLAS is found with threadpoolctl the first time a product runs (not at import), and only for
numpy arrays: CuPy's products are the GPU's business. The setting is process-wide, as the BLAS's
own is: numpy code outside phiops sees it too (``0`` opts out).
"""

from __future__ import annotations

import threading
from types import ModuleType
from typing import Any

import numpy

from phiops.runtime import flags, runtime_flags  # noqa: F401 (defines FLAGS_blas_threads)

__all__ = ["MULTITHREAD_MIN_MACS", "matmul", "blas_info"]

# From bench/blas_threads.py on a 2-core machine (float32, square products, best of 30): at
# 128^3 (2.1M) one thread is faster, from 192^3 (7.1M) two threads are.
MULTITHREAD_MIN_MACS = 1 << 23

_lock = threading.Lock()
_controllers: list[Any] | None = None  # threadpoolctl's BLAS controllers, found on first use
_default_threads = 1  # the BLAS's own count, as found before phiops changed it
_many = 1  # threads for a large product; 1 means products never switch
ready = False  # whether the policy was applied (kernels read it to skip a call)


def matmul(xp: ModuleType, x: Any, y: Any) -> Any:
    """``xp.matmul(x, y)``, on the BLAS threads ``FLAGS_blas_threads`` asks for."""
    if not ready:
        _apply(flags.flag_value("blas_threads"))
    # x.size * y.size bounds the multiply-adds from above: one product test for small operands
    if _many == 1 or x.size * y.size < MULTITHREAD_MIN_MACS or xp is not numpy:
        return xp.matmul(x, y)
    m = x.shape[-2] if x.ndim > 1 else 1
    n = y.shape[-1] if y.ndim > 1 else 1
    if max(x.size * n, y.size * m) < MULTITHREAD_MIN_MACS:
        return numpy.matmul(x, y)
    with _lock:
        _set_threads(_many)
        try:
            return numpy.matmul(x, y)
        finally:
            _set_threads(1)


def blas_info() -> dict[str, Any]:
    """What phiops found and set: the policy, the BLAS's default thread count, the threads a
    large product gets, and threadpoolctl's description of each BLAS library."""
    if not ready:
        _apply(flags.flag_value("blas_threads"))
    return {
        "blas_threads": flags.flag_value("blas_threads"),
        "default_threads": _default_threads,
        "large_product_threads": _many,
        "multithread_min_macs": MULTITHREAD_MIN_MACS,
        "libraries": [controller.info() for controller in _controllers or ()],
    }


def _find_controllers() -> list[Any]:
    global _controllers, _default_threads
    if _controllers is None:
        try:
            from threadpoolctl import ThreadpoolController
        except ImportError:  # installed without its dependency: leave the BLAS alone
            _controllers = []
        else:
            _controllers = list(ThreadpoolController().select(user_api="blas").lib_controllers)
        _default_threads = max((c.num_threads for c in _controllers), default=1)
    return _controllers


def _set_threads(count: int) -> None:
    for controller in _controllers or ():
        controller.set_num_threads(count)


def _apply(policy: int) -> None:
    """Put the BLAS in the state ``policy`` asks for."""
    global _many, ready
    with _lock:
        _find_controllers()
        if policy < 0:
            _set_threads(1)
            _many = _default_threads
        elif policy == 0:
            _set_threads(_default_threads)
            _many = 1
        else:
            _set_threads(policy)
            _many = 1
        ready = True


def _flag_changed(name: str, old: object, new: object) -> None:
    if name == "blas_threads" and ready:
        _apply(int(new))  # type: ignore[call-overload]


flags.add_listener(_flag_changed)
