"""The same ops on the GPU (CuPy) as on the CPU (numpy). Skipped without a GPU."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import Backend

pytestmark = pytest.mark.gpu


def gpu(array: np.ndarray) -> phi.Tensor:
    return phi.to_tensor(array, place="gpu")


def test_to_tensor_places_data_on_the_gpu() -> None:
    tensor = gpu(np.ones(3, np.float32))
    assert tensor.place.backend is Backend.GPU
    assert type(tensor._impl.array).__module__.startswith("cupy")


@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "divide", "maximum", "minimum"])
def test_binary_ops_match_numpy(op: str) -> None:
    rng = np.random.default_rng(0)
    x, y = (
        rng.standard_normal((3, 4)).astype(np.float32),
        rng.standard_normal((4,)).astype(np.float32) + 3,
    )
    out = getattr(phi, op)(gpu(x), gpu(y))
    reference = {
        "add": np.add,
        "subtract": np.subtract,
        "multiply": np.multiply,
        "divide": np.divide,
        "maximum": np.maximum,
        "minimum": np.minimum,
    }[op](x, y)
    assert out.place.backend is Backend.GPU
    np.testing.assert_allclose(out.numpy(), reference, rtol=1e-6)


def test_matmul_sum_softmax_match_numpy() -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal((5, 6)).astype(np.float64)
    np.testing.assert_allclose(
        phi.matmul(gpu(x), gpu(x), transpose_y=True).numpy(), x @ x.T, rtol=1e-10
    )
    np.testing.assert_allclose(phi.sum(gpu(x), [1]).numpy(), x.sum(1), rtol=1e-10)
    e = np.exp(x - x.max(-1, keepdims=True))
    np.testing.assert_allclose(
        phi.softmax(gpu(x), -1).numpy(), e / e.sum(-1, keepdims=True), rtol=1e-10
    )


def test_creation_on_the_gpu() -> None:
    out = phi.full([2, 3], 1.5, "float32", "gpu")
    assert out.place.backend is Backend.GPU
    assert out.numpy().tolist() == [[1.5] * 3] * 2


def test_cpu_and_gpu_inputs_run_on_the_gpu() -> None:
    out = phi.add(gpu(np.ones(2, np.float32)), phi.to_tensor(np.ones(2, np.float32)))
    assert out.place.backend is Backend.GPU
    assert out.numpy().tolist() == [2.0, 2.0]
