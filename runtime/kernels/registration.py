"""The ``register_kernel`` decorator and the dtype groups kernels register for."""

from __future__ import annotations

from typing import Any, Callable, Iterable

from phiops.runtime.common import Backend, DataLayout, DataType
from phiops.runtime.device import cupy
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Kernel, args_def_from_signature
from phiops.runtime.kernels.kernel_factory import KERNEL_FACTORY, KernelFactory
from phiops.runtime.kernels.kernel_key import KernelKey

__all__ = [
    "register_kernel",
    "FLOATING",
    "FLOATING_AND_COMPLEX",
    "INTEGRAL",
    "SIGNED_INTEGRAL",
    "ARITHMETIC",
    "ALL_TYPES",
]

D = DataType
FLOATING = (D.FLOAT16, D.FLOAT32, D.FLOAT64)
COMPLEX = (D.COMPLEX64, D.COMPLEX128)
FLOATING_AND_COMPLEX = FLOATING + COMPLEX
SIGNED_INTEGRAL = (D.INT8, D.INT16, D.INT32, D.INT64)
INTEGRAL = (D.UINT8,) + SIGNED_INTEGRAL
ARITHMETIC = INTEGRAL + FLOATING
# bfloat16 arrays are numpy arrays of ml_dtypes.bfloat16.
ALL_TYPES = (D.BOOL,) + ARITHMETIC + (D.BFLOAT16,) + COMPLEX


def register_kernel(
    name: str,
    *,
    dtypes: Iterable[DataType],
    backends: Iterable[str] = ("CPU", "GPU"),
    layout: str = "ALL_LAYOUT",
    configure: Callable[[Kernel], Any] | None = None,
    factory: KernelFactory = KERNEL_FACTORY,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as kernel ``name``, one Kernel per backend and dtype.

    ``configure(kernel)`` runs for each registration and may override single argument
    definitions, as PHI's registration body does, e.g.
    ``lambda k: k.output_at(0).set_dtype(DataType.BOOL)``. GPU registrations are skipped
    when CuPy is not importable.
    """
    try:
        backend_list = [Backend[b] for b in backends]
        layout_value = DataLayout[layout]
    except KeyError as error:
        raise InvalidArgumentError(
            f"register_kernel({name!r}): unknown backend or layout {error}"
        ) from None
    dtype_list = list(dtypes)

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        for backend in backend_list:
            if backend is Backend.GPU and cupy is None:
                continue
            for dtype in dtype_list:
                key = KernelKey(backend, layout_value, dtype)
                kernel = Kernel(name, fn, key, args_def_from_signature(fn, key))
                if configure is not None:
                    configure(kernel)
                factory.register(kernel)
        return fn

    return decorate
