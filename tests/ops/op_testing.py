"""Shared helpers for op tests: dtype lists from the KernelFactory and coverage declarations.

Every op in ops/api.yaml needs a forward test over each registered dtype (``kind="dtypes"``)
and an edge-case test (``kind="edge"``: 0-D, empty, broadcasting, negative axes, as they apply);
``tests/ops/test_coverage.py`` fails when one is missing.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable

import numpy as np

from phiops.runtime.common import Backend, DataType
from phiops.runtime.kernels.kernel_factory import KERNEL_FACTORY

OP_TESTS: dict[str, set[str]] = defaultdict(set)


def op_test(*ops: str, kind: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare that the decorated test covers ``kind`` ("dtypes" or "edge") of ``ops``."""
    if kind not in ("dtypes", "edge"):
        raise ValueError(f"unknown coverage kind {kind!r}")

    def declare(fn: Callable[..., Any]) -> Callable[..., Any]:
        for op in ops:
            OP_TESTS[op].add(kind)
        return fn

    return declare


def cpu_dtypes(kernel_name: str) -> list[DataType]:
    """The dtypes ``kernel_name`` is registered for on CPU, sorted."""
    return sorted(
        {key.dtype for key in KERNEL_FACTORY.kernels_of(kernel_name) if key.backend is Backend.CPU}
    )


def sample(
    shape: tuple[int, ...],
    dtype: DataType,
    *,
    seed: int = 0,
    low: float = -3,
    high: float = 3,
    nonzero: bool = False,
) -> np.ndarray:
    """Deterministic sample data of ``dtype``: integers in [low, high], floats uniform, bools random."""
    rng = np.random.default_rng(seed)
    np_dtype = dtype.numpy_dtype
    if dtype is DataType.BOOL:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if dtype.is_integer:
        info = np.iinfo(np_dtype)
        lo, hi = max(int(low), int(info.min)), min(int(high), int(info.max))
        values = rng.integers(lo, hi + 1, size=shape)
        if nonzero:
            values[values == 0] = 1
        return values.astype(np_dtype)
    values = rng.uniform(low, high, size=shape)
    if nonzero:
        values[np.abs(values) < 0.1] = 0.5
    if dtype.is_complex:
        values = values + 1j * rng.uniform(low, high, size=shape)
    return values.astype(np_dtype)


def tolerance(dtype: DataType) -> dict[str, float]:
    """rtol/atol for comparing a result of ``dtype`` with a float64 reference."""
    if dtype is DataType.FLOAT16:
        return {"rtol": 2e-3, "atol": 2e-3}
    if dtype is DataType.BFLOAT16:  # 8 mantissa bits
        return {"rtol": 1.6e-2, "atol": 1.6e-2}
    if dtype in (DataType.FLOAT32, DataType.COMPLEX64):
        return {"rtol": 1e-5, "atol": 1e-6}
    return {"rtol": 1e-12, "atol": 1e-12}


def non_floating_dtypes_beyond_paddles(name: str) -> set[str]:
    """The integer and bool dtypes kernel ``name`` is registered for on CPU that PaddlePaddle
    3.3.1 does not register it for (runtime/kernels/paddle_3_3_1_cpu.json): a gradient kernel
    may take those dtypes where PaddlePaddle's does, for the static programs that carry them,
    and nowhere else."""
    from phiops.runtime.kernels.coverage import paddle_data

    ours = {d.name.lower() for d in cpu_dtypes(name) if not (d.is_floating_point or d.is_complex)}
    return ours - set(paddle_data()["kernels"].get(name, ()))
