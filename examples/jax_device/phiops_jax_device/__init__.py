"""The device type ``jax`` for phiops: tensors whose arrays are JAX arrays, on JAX's default
device (``jax:0``; this example serves that one device).

``paddle.set_device('jax')`` (or ``paddle.CustomPlace('jax', 0)``) puts new tensors on it; the
kernels phiops writes against ``ctx.xp`` run on it with ``ctx.xp`` = ``jax.numpy``. JAX arrays
are immutable, so the kernels that write into an array in place (or scatter with
``phiops.runtime.backends.scatter_at``) cannot run on it: ``JAX_KERNELS`` lists the kernels
checked to run here (tests/extending/test_custom_device_jax.py compares each with the CPU), and
every other op falls back to phiops's CPU kernel under ``FLAGS_enable_api_kernel_fallback``, its
inputs copied to the host and its outputs copied back, as PHI does.

phiops loads ``DEVICE`` through the ``phiops.devices`` entry point of this package.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.device import CustomDevice
from phiops.runtime.errors import UnimplementedError
from phiops.runtime.kernels import Array, register_kernel
from phiops.runtime.kernels.registration import FLOATING

__all__ = ["DEVICE", "JAX_KERNELS", "jax_full_kernel"]

# phiops's xp-generic kernels that run unchanged on jax.numpy (forward and grad kernels).
JAX_KERNELS = frozenset(
    """
    abs abs_grad add add_grad cast cos cross_entropy_with_softmax
    cross_entropy_with_softmax_grad divide divide_grad exp exp_grad full_like log
    log_grad log_softmax log_softmax_grad matmul matmul_grad maximum maximum_grad mean
    mean_grad minimum multiply multiply_grad relu relu_grad reshape scale sigmoid sigmoid_grad
    sin softmax_grad sqrt sqrt_grad square subtract subtract_grad sum sum_grad tanh
    tanh_grad transpose transpose_grad unsqueeze sgd
    """.split()
)


def _load_jax_numpy() -> ModuleType:
    """``jax.numpy`` with the two numpy functions phiops's kernels use that it lacks, as a
    module of its own (``jax_device.numpy``)."""
    try:
        import jax
    except ImportError:
        raise UnimplementedError(
            "device type 'jax' needs JAX: pip install jax jaxlib (or phiops's dev extra)"
        ) from None
    # phiops's int64 and float64 tensors must stay 64-bit on the device (JAX's default is 32)
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp

    module = ModuleType("jax_device.numpy", "jax.numpy for phiops's kernels")
    module.__dict__.update(
        {name: getattr(jnp, name) for name in dir(jnp) if not name.startswith("_")}
    )
    module.ndarray = jnp.ndarray
    # JAX arrays are immutable: an array is its own contiguous copy, and no two arrays share
    # memory that a write could reach through the other
    module.ascontiguousarray = jnp.asarray
    module.may_share_memory = _shares_no_memory
    return module


def _shares_no_memory(a: Any, b: Any) -> bool:
    return False


def _array_types(module: ModuleType) -> tuple[type, ...]:
    return (type(module.zeros(())),)


def _to_host(array: Any) -> np.ndarray:
    return np.array(array)  # a writable copy: numpy users may write into .numpy()'s result


def _from_host(module: ModuleType, array: Any, device_id: int) -> Any:
    return module.asarray(array)  # on JAX's default device: this example serves that one only


def _no_scatter(module: ModuleType, op: str, array: Any, indices: Any, values: Any) -> None:
    raise UnimplementedError(
        "device type 'jax': arrays are immutable, an in-place scatter cannot run on them"
    )


def _takes_kernel(name: str) -> bool:
    return name in JAX_KERNELS


def jax_full_kernel(
    ctx: Any, shape: tuple[int, ...], value: float, dtype: DataType
) -> Array:
    """``full`` without phiops's fill-in-place: ``jnp.full``."""
    return ctx.xp.full(shape, value, dtype=dtype.numpy_dtype)


def _register_kernels(backend_name: str) -> None:
    """The device's own kernels, for what phiops's xp-generic ones do in place: ``full`` for the
    floating dtypes and bool (integer ``full`` falls back to phiops's CPU kernel, which checks
    the value fits)."""
    register_kernel("full", dtypes=(*FLOATING, DataType.BOOL), backends=(backend_name,))(
        jax_full_kernel
    )


DEVICE = CustomDevice(
    device_type="jax",
    priority=5,  # between CPU (0) and GPU (10)
    load_module=_load_jax_numpy,
    array_types=_array_types,
    to_host=_to_host,
    from_host=_from_host,
    takes_kernel=_takes_kernel,
    register_kernels=_register_kernels,
    scatter=_no_scatter,
    writable=False,  # an in-place op's result becomes the tensor's new array
    missing_hint="JAX is not installed: pip install jax jaxlib",
)
