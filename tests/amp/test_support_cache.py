"""auto_cast asks, on each op call, whether the op has a kernel for the low-precision dtype;
the answer is cached per (op, backend, dtype) and dropped when the kernel registry changes."""

from __future__ import annotations

from phiops.runtime.amp import mixed_precision
from phiops.runtime.common import Backend, DataType
from phiops.runtime.kernels import KERNEL_FACTORY
from phiops.runtime.kernels.registration import register_kernel, unregister_kernel
from tests.amp.conftest import _half_matmul


def test_a_kernel_registered_or_removed_changes_the_cached_answer() -> None:
    ask = lambda: mixed_precision._supports("matmul", Backend.CPU, DataType.FLOAT16)  # noqa: E731
    assert ask() is False  # PaddlePaddle's CPU matmul has no float16 kernel, nor has phiops's
    assert ask() is False  # now from the cache
    register_kernel("matmul", dtypes=(DataType.FLOAT16,), backends=("CPU",))(_half_matmul)
    try:
        assert ask() is True
    finally:
        unregister_kernel("matmul", _half_matmul)
    assert ask() is False


def test_the_answer_is_cached_until_the_registry_changes() -> None:
    mixed_precision._supports("matmul", Backend.CPU, DataType.BFLOAT16)
    key = ("matmul", Backend.CPU, DataType.BFLOAT16)
    assert key in mixed_precision._SUPPORTED
    assert mixed_precision._SUPPORTED_AT[0] == KERNEL_FACTORY.generation
    generation = KERNEL_FACTORY.generation
    register_kernel("matmul", dtypes=(DataType.FLOAT16,), backends=("CPU",))(_half_matmul)
    unregister_kernel("matmul", _half_matmul)
    assert KERNEL_FACTORY.generation == generation + 2
    mixed_precision._supports("add", Backend.CPU, DataType.BFLOAT16)
    assert key not in mixed_precision._SUPPORTED
