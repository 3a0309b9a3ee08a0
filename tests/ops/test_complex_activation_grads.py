"""hardswish, softsign, softplus and logsigmoid grads of complex inputs equal PaddlePaddle 3.3.1's
(tests/data/complex_activation_grads.json, written by tests/tools/make_complex_activation_grads.py),
through the grad kernels called directly and through autograd."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops.generated as phi
from phiops.generated import backward as grads

TABLE = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "complex_activation_grads.json").read_text()
)


def _complex(pairs: list[list[float]], dtype: str) -> np.ndarray:
    values = np.array(pairs, np.float64)
    return (values[:, 0] + 1j * values[:, 1]).astype(dtype)


def _tolerance(op: str, dtype: str) -> dict[str, float]:
    """PaddlePaddle's complex128 exp on CPU is good to about 1e-7 relative (numpy's to 1e-16), so
    the grads built on it (softplus, logsigmoid) are compared at 1e-6."""
    if dtype == "complex64" or op in ("softplus", "logsigmoid"):
        return {"rtol": 1e-6 if dtype == "complex128" else 1e-5, "atol": 1e-6}
    return {"rtol": 1e-12, "atol": 0}


@pytest.mark.parametrize("case", sorted(TABLE["cases"]))
def test_grad_kernel_equals_paddle(case: str) -> None:
    entry = TABLE["cases"][case]
    dtype = entry["dtype"]
    x = phi.to_tensor(_complex(TABLE["x"], dtype))
    out_grad = phi.to_tensor(_complex(TABLE["out_grad"], dtype))
    got = getattr(grads, entry["op"] + "_grad")(x, out_grad, *entry["attrs"]).numpy()
    assert got.dtype == np.dtype(dtype)
    assert np.array_equal(np.isnan(got), np.isnan(_complex(entry["x_grad"], dtype)))
    np.testing.assert_allclose(
        got, _complex(entry["x_grad"], dtype), **_tolerance(entry["op"], dtype)
    )


@pytest.mark.parametrize("case", [c for c in sorted(TABLE["cases"]) if c.endswith("128")])
def test_autograd_through_the_forward_op_equals_paddle(case: str) -> None:
    entry = TABLE["cases"][case]
    x = phi.to_tensor(_complex(TABLE["x"], "complex128"), stop_gradient=False)
    out = getattr(phi, entry["op"])(x, *entry["attrs"])
    (got,) = phi.grad(out, x, phi.to_tensor(_complex(TABLE["out_grad"], "complex128")))
    np.testing.assert_allclose(
        got.numpy(),
        _complex(entry["x_grad"], "complex128"),
        **_tolerance(entry["op"], "complex128"),
    )


@pytest.mark.parametrize("op, attrs", [("hardswish", []), ("softsign", []),
                                       ("softplus", [2.0, 3.0]), ("logsigmoid", [])])  # fmt: skip
def test_on_the_real_axis_the_complex_grad_is_the_real_one(op: str, attrs: list[float]) -> None:
    x = np.linspace(-5, 5, 22)  # not 0, where softsign's complex grad is nan as PaddlePaddle's
    out_grad = np.linspace(0.5, 1.5, 22)
    real = getattr(grads, op + "_grad")(phi.to_tensor(x), phi.to_tensor(out_grad), *attrs)
    as_complex = getattr(grads, op + "_grad")(
        phi.to_tensor(x.astype("complex128")), phi.to_tensor(out_grad.astype("complex128")), *attrs
    )
    np.testing.assert_allclose(as_complex.numpy(), real.numpy(), rtol=1e-12, atol=1e-15)


# PaddlePaddle 3.3.1, paddle.grad of exp / sigmoid at these complex128 inputs (read by hand).
_X = np.array([0.5 + 1j, -1 - 0.25j], "complex128")
_OUT_GRAD = np.array([1 - 2j, 0.5 + 0.5j], "complex128")
_PADDLE_X_GRAD = {
    "exp": np.array([-1.88389421 - 3.16896668j, 0.13271407 + 0.2237289j]),
    "sigmoid": np.array([0.44684503 - 0.4996489j, 0.08733449 + 0.11037287j]),
}


@pytest.mark.parametrize("op", sorted(_PADDLE_X_GRAD))
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_exp_and_sigmoid_have_complex_gradients_as_paddle(op: str, dtype: str) -> None:
    x = phi.to_tensor(_X.astype(dtype), stop_gradient=False)
    (x_grad,) = phi.grad([getattr(phi, op)(x)], [x], [phi.to_tensor(_OUT_GRAD.astype(dtype))])
    assert x_grad.numpy().dtype == np.dtype(dtype)
    np.testing.assert_allclose(
        x_grad.numpy(), _PADDLE_X_GRAD[op], rtol=1e-5 if dtype == "complex64" else 1e-7
    )
