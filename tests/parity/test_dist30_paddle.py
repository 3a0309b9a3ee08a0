"""c_embedding and its gradient against PaddlePaddle 3.3.1 itself (its CPU kernels run in one
process): the same shard and ids on both, for every dtype PaddlePaddle registers and both id
dtypes, ids inside, outside (negative ones included) and repeated. p_send/p_recv have no case:
PaddlePaddle 3.3.1's CPU p_send/p_recv kernels raise "Do not support ... for cpu kernel now"
(tests/distributed/test_dist30_ops.py checks them against numpy on 2 MPI ranks). Runs only where
PaddlePaddle is installed.

PaddlePaddle's float64 gradient is compared on its first half only: its CPU kernel zeroes 4
bytes per element (sizeof(DataType), c_embedding_grad_kernel.cc), leaving the rest of a float64
buffer uninitialised; phiops' gradient is zero there, as the op's definition asks. For the same reason its float16
gradient writes 4 bytes per 2-byte element, past the buffer: the process aborts, so float16
gradients are compared with numpy only (tests/ops/test_dist30_ops.py)."""

from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops  # noqa: E402
import phiops._C_ops  # noqa: E402,F401  (phiops._C_ops as paddle._C_ops)

DTYPES = ["float16", "float32", "float64", "complex64", "complex128"]
IDS = np.array([[4, 5, 9], [-1, 7, 4], [0, 6, 12]])


def _shard(dtype: str) -> np.ndarray:
    values = np.arange(15, dtype=np.float64).reshape(5, 3) / 4 - 1
    if dtype.startswith("complex"):
        values = values + 1j * values[::-1]
    return values.astype(dtype)


def _forward(library, dtype: str, ids_dtype: str, start: int) -> np.ndarray:
    weight = library.to_tensor(_shard(dtype))
    out = library._C_ops.c_embedding(weight, library.to_tensor(IDS.astype(ids_dtype)), start, 16)
    return out.numpy()


def _gradient(library, dtype: str, start: int) -> np.ndarray:
    weight = library.to_tensor(_shard(dtype))
    weight.stop_gradient = False
    out = library._C_ops.c_embedding(weight, library.to_tensor(IDS), start, 16)
    scale = np.linspace(-1, 2, IDS.size * 3).reshape(3, 3, 3).astype(dtype)
    (out * library.to_tensor(scale)).sum().backward()
    return weight.grad.numpy()


@pytest.mark.parametrize("start", [0, 4])
@pytest.mark.parametrize("ids_dtype", ["int32", "int64"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_c_embedding_equals_paddles(dtype: str, ids_dtype: str, start: int) -> None:
    ours, theirs = _forward(phiops, dtype, ids_dtype, start), _forward(paddle, dtype, ids_dtype, start)
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("start", [0, 4])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_c_embedding_grad_equals_paddles(dtype: str, start: int) -> None:
    ours, theirs = _gradient(phiops, dtype, start), _gradient(paddle, dtype, start)
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    if dtype == "float64":
        # PaddlePaddle 3.3.1's CPU kernel zeroes numel * sizeof(DataType) bytes, 4 per element:
        # the second half of a float64 gradient is left uninitialised; compare the first half
        ours, theirs = ours.reshape(-1)[: ours.size // 2], theirs.reshape(-1)[: theirs.size // 2]
    np.testing.assert_allclose(ours, theirs, rtol=1e-3 if dtype == "float16" else 1e-12)
