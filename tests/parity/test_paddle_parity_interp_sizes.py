"""nearest_interp and bilinear_interp with the output size given as tensors (``out_size``,
``size_tensor``, ``scale_tensor``) against PaddlePaddle's generated ops
(``paddle._C_ops``): forward outputs and the gradient of ``sum(out * g)`` for x. Runs only where
PaddlePaddle is installed.

Not compared: an ``out_size`` larger than the scale implies (``out_size`` with ``scale``, where
the source positions come from the scale and can pass the input's end): PaddlePaddle 3.3.1's
nearest kernel then reads past the input (values such as 1e23); phiops takes the last row or
column, as PHI's bilinear kernel does.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops.generated as phi  # noqa: E402

RNG = np.random.default_rng(82)

I32, I64, F32 = np.int32, np.int64, np.float32

# (case id, op, x, out_size, size_tensor, scale_tensor, attributes after the tensors)
CASES: list[tuple[str, str, np.ndarray, Any, Any, Any, list[Any]]] = []


def add(case_id, op, x, out_size=None, size_tensor=None, scale_tensor=None, **attrs):
    method = "nearest" if op == "nearest_interp" else "bilinear"
    values = {
        "data_format": "NCHW",
        "out_h": 0,
        "out_w": 0,
        "scale": [],
        "align_corners": False,
        "align_mode": 1,
    }
    values.update(attrs)
    CASES.append(
        (
            case_id,
            op,
            x,
            out_size,
            size_tensor,
            scale_tensor,
            [
                values["data_format"],
                0,
                values["out_h"],
                values["out_w"],
                values["scale"],
                method,
                values["align_corners"],
                values["align_mode"],
            ],
        )
    )


x = RNG.uniform(-2, 2, (2, 3, 5, 4)).astype(F32)
x_nhwc = RNG.uniform(-2, 2, (1, 4, 5, 3)).astype(F32)
for op in ("bilinear_interp", "nearest_interp"):
    for corners in (False, True):
        add(
            f"{op}-out-size-{corners}", op, x, out_size=np.array([7, 9], I32), align_corners=corners
        )
        add(
            f"{op}-size-tensor-{corners}",
            op,
            x,
            size_tensor=[np.array([3], I64), np.array([6], I32)],
            align_corners=corners,
        )
    add(f"{op}-scale-tensor-1", op, x, scale_tensor=np.array([1.5], F32))
    add(f"{op}-scale-tensor-2", op, x, scale_tensor=np.array([0.6, 2.5], F32), align_mode=0)
    add(f"{op}-scale-tensor-0d", op, x, scale_tensor=np.array(1.7, F32))
    add(
        f"{op}-out-size-with-scale",
        op,
        x,
        out_size=np.array([7, 8], I32),
        scale=[1.5, 2.0],
    )
    add(
        f"{op}-out-size-with-scale-tensor",
        op,
        x,
        out_size=np.array([6, 5], I32),
        scale_tensor=np.array([1.3], F32),
    )
    add(
        f"{op}-size-tensor-over-out-size",
        op,
        x,
        out_size=np.array([2, 2], I32),
        size_tensor=[np.array(4, I32), np.array(7, I32)],
    )
    add(
        f"{op}-nhwc-out-size",
        op,
        x_nhwc,
        out_size=np.array([8, 3], I32),
        data_format="NHWC",
        align_mode=0,
    )
add(
    "bilinear_interp-float64-size-tensor",
    "bilinear_interp",
    RNG.uniform(-2, 2, (1, 2, 4, 3)),
    size_tensor=[np.array([5], I32), np.array([5], I32)],
)


def build(to_tensor, x, out_size, size_tensor, scale_tensor):
    tensors = [
        to_tensor(x.copy(), stop_gradient=False),
        None if out_size is None else to_tensor(out_size),
        None if size_tensor is None else [to_tensor(v) for v in size_tensor],
        None if scale_tensor is None else to_tensor(scale_tensor),
    ]
    return tensors


@pytest.mark.parametrize(
    "case_id, op, x, out_size, size_tensor, scale_tensor, attrs",
    CASES,
    ids=[c[0] for c in CASES],
)
def test_forward_and_gradient_equal_paddle(
    case_id, op, x, out_size, size_tensor, scale_tensor, attrs
):
    phi_in = build(phi.to_tensor, x, out_size, size_tensor, scale_tensor)
    pd_in = build(paddle.to_tensor, x, out_size, size_tensor, scale_tensor)
    phi_out = getattr(phi, op)(*phi_in, *attrs)
    pd_out = getattr(paddle._C_ops, op)(*pd_in, *attrs)
    got, want = phi_out.numpy(), pd_out.numpy()
    assert got.dtype == want.dtype and got.shape == want.shape
    tolerance = {"rtol": 2e-5, "atol": 2e-5} if x.dtype == F32 else {"rtol": 1e-10, "atol": 1e-10}
    np.testing.assert_allclose(got, want, **tolerance)
    g = RNG.standard_normal(want.shape).astype(x.dtype)
    (phi_out * phi.to_tensor(g)).sum().backward()
    (pd_out * paddle.to_tensor(g)).sum().backward()
    np.testing.assert_allclose(phi_in[0].grad.numpy(), pd_in[0].grad.numpy(), **tolerance)
