"""logit, the op docs/adding_an_op.md adds. Expected edge values were read from PaddlePaddle
3.3.1 (paddle.logit and paddle.grad) by hand."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, NotFoundError
from tests.ops.op_testing import cpu_dtypes, op_test

NAN, INF = float("nan"), float("inf")
EDGE_X = [-0.5, 0.0, 1e-8, 0.3, 0.9999999, 1.0, 1.5]


@op_test("logit", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("logit"), ids=lambda d: d.name.lower())
def test_logit_matches_the_formula_for_each_dtype(dtype: DataType) -> None:
    x = np.linspace(0.05, 0.95, 12).reshape(3, 4).astype(dtype.numpy_dtype)
    out = phi.logit(phi.to_tensor(x))
    assert out.dtype is dtype
    tolerance = 2e-3 if dtype is DataType.FLOAT16 else 1e-6
    np.testing.assert_allclose(
        out.numpy().astype(np.float64), np.log(x / (1 - x)).astype(np.float64), rtol=tolerance
    )


@op_test("logit", kind="edge")
@pytest.mark.parametrize(
    "eps, expected",
    [
        (0.0, [NAN, -INF, -18.420680733952366, -0.8472978603872034, 16.11809555148467, INF, NAN]),
        (1e-6, [-13.815509557963773] * 3 + [-0.8472978603872034] + [13.815509557935018] * 3),
        (0.2, [-1.3862943611198906] * 3 + [-0.8472978603872034] + [1.3862943611198908] * 3),
    ],
)
def test_logit_clips_to_eps_or_gives_nan_outside_0_1_as_paddle(eps: float, expected: list) -> None:
    out = phi.logit(phi.to_tensor(np.array(EDGE_X)), eps)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12)


@op_test("logit", kind="edge")
@pytest.mark.parametrize(
    "eps, expected",
    [
        (0.0, [NAN, INF, 100000001.00000001, 4.761904761904762, 10000001.005263658, INF, NAN]),
        (1e-6, [0.0, 0.0, 0.0, 4.761904761904762, 0.0, 0.0, 0.0]),
    ],
)
def test_logit_grad_at_the_edges_as_paddle(eps: float, expected: list) -> None:
    x = phi.to_tensor(np.array(EDGE_X), stop_gradient=False)
    (grad,) = phi.grad(phi.sum(phi.logit(x, eps)), x)
    np.testing.assert_allclose(grad.numpy(), expected, rtol=1e-9)


@op_test("logit", kind="edge")
def test_logit_of_0d_and_empty_tensors() -> None:
    assert phi.logit(phi.to_tensor(0.5)).shape == []
    assert float(phi.logit(phi.to_tensor(0.5))) == 0.0
    assert phi.logit(phi.to_tensor(np.zeros((0, 3)))).shape == [0, 3]


@op_test("logit", kind="edge")
def test_logit_computes_integer_tensors_in_float32_and_rejects_bad_eps() -> None:
    out = phi.logit(phi.to_tensor([0, 1]))
    assert out.dtype is phi.DataType.FLOAT32
    np.testing.assert_allclose(
        out.numpy(), [-13.815511, 13.802318], rtol=1e-5
    )  # eps clipping in float32
    with pytest.raises(InvalidArgumentError, match=r"^logit\(\): argument 'eps'"):
        phi.logit(phi.to_tensor([0.5]), "small")
