"""Fixtures of the amp tests: FLAGS_amp_on_cpu for the CPU, and a float16 CPU matmul kernel.

PaddlePaddle's CPU matmul has no float16 kernel (nor has phiops's, which registers PaddlePaddle's
CPU dtypes), and auto_cast runs a white-listed op without one in float32. ``half_matmul`` registers
a float16 CPU matmul (numpy in float16) for the test's duration, standing in for the GPU's, so
that the casts a GPU would see can be checked here.
"""

from __future__ import annotations

from typing import Iterator

import pytest

from phiops.runtime import flags
from phiops.runtime.common import DataType
from phiops.runtime.kernels import Array, KernelContext
from phiops.runtime.kernels.impl.matmul_grad_kernel import matmul_grad_kernel
from phiops.runtime.kernels.impl.matmul_kernel import matmul_kernel
from phiops.runtime.kernels.registration import register_kernel, unregister_kernel

F16 = (DataType.FLOAT16, DataType.BFLOAT16)


def _half_matmul(
    ctx: KernelContext, x: Array, y: Array, transpose_x: bool, transpose_y: bool
) -> Array:
    return matmul_kernel(ctx, x, y, transpose_x, transpose_y).astype(x.dtype)


def _half_matmul_grad(
    ctx: KernelContext, x: Array, y: Array, out_grad: Array, transpose_x: bool, transpose_y: bool
) -> tuple[Array, Array]:
    x_grad, y_grad = matmul_grad_kernel(ctx, x, y, out_grad, transpose_x, transpose_y)
    return tuple(
        None if grad is None else grad.astype(like.dtype)
        for grad, like in ((x_grad, x), (y_grad, y))
    )


@pytest.fixture
def amp_on_cpu() -> Iterator[None]:
    with flags.flags_guard({"amp_on_cpu": True}):
        yield


@pytest.fixture
def half_matmul(amp_on_cpu: None) -> Iterator[None]:
    register_kernel("matmul", dtypes=F16, backends=("CPU",))(_half_matmul)
    register_kernel("matmul_grad", dtypes=F16, backends=("CPU",))(_half_matmul_grad)
    try:
        yield
    finally:
        unregister_kernel("matmul_grad", _half_matmul_grad)
        unregister_kernel("matmul", _half_matmul)
