"""Convolution, pooling, normalization and interpolation against PaddlePaddle's generated ops
(``paddle._C_ops.<op>``) on the same inputs: forward outputs and the gradients of
``sum(out * g)`` for every float input. Runs only where PaddlePaddle is installed.

Known differences, not compared here:
- pool2d with ``adaptive=True`` and ``pooling_type="max"``: PaddlePaddle 3.3.1's CPU kernel
  ignores ``adaptive`` for max and slides a window of ``kernel_size`` with stride 1 (paddle's
  Python API never reaches it: ``adaptive_max_pool2d`` uses max_pool2d_with_index); phiops
  takes the adaptive windows, as its adaptive average does and as PaddlePaddle's does.
- group_norm without scale: PaddlePaddle 3.3.1's x gradient differs from finite differences
  (phiops' passes the float64 gradient check), so only its forward is compared.
- nearest_interp/bilinear_interp with out_size, size_tensor or scale_tensor: compared in
  test_paddle_parity_interp_sizes.py.
- batch_norm in inference (``is_test`` or ``use_global_stats``): PaddlePaddle leaves
  ``saved_mean``/``saved_variance`` uninitialised; phiops returns zeros.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops.generated as phi  # noqa: E402

RNG = np.random.default_rng(8)


def floats(*shape: int, dtype: str = "float32", low: float = -2, high: float = 2) -> np.ndarray:
    return RNG.uniform(low, high, shape).astype(dtype)


def distinct(*shape: int, dtype: str = "float32") -> np.ndarray:
    return (RNG.permutation(int(np.prod(shape))) * 0.01).reshape(shape).astype(dtype)


# (case id, op, tensor inputs (None for an absent optional), attributes, indices of the inputs
# whose gradients are compared, indices of the outputs compared)
CASES: list[tuple[str, str, list[Any], list[Any], tuple[int, ...], tuple[int, ...]]] = []


def add(case_id, op, inputs, attrs, grads=(0, 1), outputs=(0,)):
    CASES.append((case_id, op, inputs, attrs, grads, outputs))


x = floats(2, 4, 7, 6)
add(
    "conv2d-basic",
    "conv2d",
    [x, floats(6, 4, 3, 3)],
    [[1, 1], [1, 1], "EXPLICIT", [1, 1], 1, "NCHW"],
)
add(
    "conv2d-groups-stride-asym",
    "conv2d",
    [x, floats(6, 2, 3, 2)],
    [[2, 1], [1, 0, 2, 1], "EXPLICIT", [2, 1], 2, "NCHW"],
)
add("conv2d-same", "conv2d", [x, floats(3, 4, 3, 2)], [[2, 2], [0, 0], "SAME", [1, 1], 1, "NCHW"])
add("conv2d-valid", "conv2d", [x, floats(3, 4, 2, 2)], [[1, 2], [3, 3], "VALID", [1, 1], 1, "NCHW"])
add(
    "conv2d-nhwc",
    "conv2d",
    [floats(2, 5, 6, 4), floats(3, 4, 3, 3)],
    [[1, 2], [1, 1], "EXPLICIT", [1, 1], 1, "NHWC"],
)
add(
    "conv2d-float64",
    "conv2d",
    [floats(1, 2, 5, 5, dtype="float64"), floats(2, 2, 3, 3, dtype="float64")],
    [[1, 1], [2, 2], "EXPLICIT", [2, 2], 1, "NCHW"],
)
add(
    "depthwise_conv2d",
    "depthwise_conv2d",
    [x, floats(8, 1, 3, 3)],
    [[1, 1], [1, 1], "EXPLICIT", 4, [1, 1], "NCHW"],
)
add(
    "depthwise_conv2d-nhwc-stride",
    "depthwise_conv2d",
    [floats(1, 6, 5, 3), floats(3, 1, 2, 2)],
    [[2, 2], [0, 1], "EXPLICIT", 3, [1, 1], "NHWC"],
)
add(
    "conv3d",
    "conv3d",
    [floats(2, 2, 4, 5, 4), floats(4, 2, 2, 3, 2)],
    [[1, 2, 1], [1, 0, 1], "EXPLICIT", 1, [1, 1, 2], "NCDHW"],
)
add(
    "conv3d-ndhwc-groups",
    "conv3d",
    [floats(1, 4, 4, 3, 4), floats(4, 2, 2, 2, 2)],
    [[1, 1, 1], [0, 0, 0], "SAME", 2, [1, 1, 1], "NDHWC"],
)

p = distinct(2, 3, 7, 6)
for kind in ("max", "avg"):
    for exclusive in (True, False):
        tag = f"{kind}-{'excl' if exclusive else 'incl'}"
        add(
            f"pool2d-{tag}",
            "pool2d",
            [p],
            [[3, 2], [2, 2], [1, 1], False, exclusive, "NCHW", kind, False, False, "EXPLICIT"],
            (0,),
        )
        add(
            f"pool2d-{tag}-ceil-asym",
            "pool2d",
            [p],
            [[3, 3], [2, 2], [1, 0, 2, 1], True, exclusive, "NCHW", kind, False, False, "EXPLICIT"],
            (0,),
        )
    add(
        f"pool2d-{kind}-same",
        "pool2d",
        [p],
        [[3, 2], [2, 2], [0, 0], False, True, "NCHW", kind, False, False, "SAME"],
        (0,),
    )
    add(
        f"pool2d-{kind}-global",
        "pool2d",
        [p],
        [[1, 1], [1, 1], [0, 0], False, True, "NCHW", kind, True, False, "EXPLICIT"],
        (0,),
    )
    add(
        f"pool2d-{kind}-nhwc",
        "pool2d",
        [distinct(2, 6, 5, 3)],
        [[2, 2], [2, 1], [1, 1], False, True, "NHWC", kind, False, False, "EXPLICIT"],
        (0,),
    )
add(
    "pool2d-avg-adaptive",
    "pool2d",
    [p],
    [[3, 4], [1, 1], [0, 0], False, True, "NCHW", "avg", False, True, "EXPLICIT"],
    (0,),
)
add(
    "pool2d-max-ties",
    "pool2d",
    [RNG.integers(0, 3, (2, 2, 6, 6)).astype("float32")],
    [[3, 3], [1, 1], [1, 1], False, True, "NCHW", "max", False, False, "EXPLICIT"],
    (0,),
)
add(
    "pool2d-float16",
    "pool2d",
    [p.astype("float16")],
    [[2, 2], [2, 2], [0, 0], False, True, "NCHW", "avg", False, False, "EXPLICIT"],
    (),
)

p3 = distinct(2, 2, 5, 6, 4)
for kind in ("max", "avg"):
    add(
        f"pool3d-{kind}",
        "pool3d",
        [p3],
        [[2, 3, 2], [2, 2, 1], [1, 0, 1], False, True, "NCDHW", kind, False, False, "EXPLICIT"],
        (0,),
    )
    add(
        f"pool3d-{kind}-ndhwc-incl",
        "pool3d",
        [distinct(1, 4, 5, 3, 2)],
        [[2, 2, 2], [1, 1, 1], [0, 0, 0], False, False, "NDHWC", kind, False, False, "EXPLICIT"],
        (0,),
    )
add(
    "pool3d-avg-adaptive",
    "pool3d",
    [p3],
    [[2, 3, 2], [1, 1, 1], [0, 0, 0], False, True, "NCDHW", "avg", False, True, "EXPLICIT"],
    (0,),
)
add(
    "max_pool2d_with_index",
    "max_pool2d_with_index",
    [p],
    [[3, 2], [2, 2], [1, 1], False, False, False],
    (0,),
    (0, 1),
)
add(
    "max_pool2d_with_index-ceil",
    "max_pool2d_with_index",
    [p],
    [[3, 3], [2, 2], [1, 1], False, False, True],
    (0,),
    (0, 1),
)
add(
    "max_pool2d_with_index-adaptive",
    "max_pool2d_with_index",
    [p],
    [[3, 4], [1, 1], [0, 0], False, True, False],
    (0,),
    (0, 1),
)
add(
    "max_pool2d_with_index-global",
    "max_pool2d_with_index",
    [p],
    [[3, 4], [1, 1], [0, 0], True, False, False],
    (0,),
    (0, 1),
)
add(
    "max_pool2d_with_index-ties",
    "max_pool2d_with_index",
    [RNG.integers(0, 3, (2, 2, 6, 6)).astype("float32")],
    [[3, 3], [1, 1], [1, 1], False, False, False],
    (0,),
    (0, 1),
)

for fmt, shape in (("NCHW", (4, 3, 5, 2)), ("NHWC", (2, 4, 3, 3)), ("NCHW", (6, 3))):
    add(
        f"batch_norm-train-{fmt}-{len(shape)}d",
        "batch_norm",
        [floats(*shape), floats(3), floats(3, low=0.5), floats(3), floats(3)],
        [False, 0.9, 1e-5, fmt, False, False],
        (0, 3, 4),
        (0, 1, 2, 3, 4),
    )
add(
    "batch_norm-is_test",
    "batch_norm",
    [floats(4, 3, 2, 2), floats(3), floats(3, low=0.5), floats(3), floats(3)],
    [True, 0.9, 1e-5, "NCHW", False, False],
    (0, 3, 4),
    (0, 1, 2),
)
add(
    "batch_norm-use_global_stats",
    "batch_norm",
    [floats(4, 3, 2, 2), floats(3), floats(3, low=0.5), floats(3), floats(3)],
    [False, 0.9, 1e-5, "NCHW", True, False],
    (0, 3, 4),
    (0, 1, 2),
)
add(
    "batch_norm-float64-no-affine",
    "batch_norm",
    [
        floats(5, 2, 3, dtype="float64"),
        floats(2, dtype="float64"),
        floats(2, low=0.5, dtype="float64"),
        None,
        None,
    ],
    [False, 0.8, 1e-3, "NCHW", False, False],
    (0,),
    (0, 1, 2, 3, 4),
)
add(
    "batch_norm_-train",
    "batch_norm_",
    [floats(4, 3, 5), floats(3), floats(3, low=0.5), floats(3), floats(3)],
    [False, 0.9, 1e-5, "NCHW", False, False],
    (0, 3, 4),
    (0, 1, 2, 3, 4),
)

add(
    "layer_norm-axis1",
    "layer_norm",
    [floats(3, 4, 5), floats(20), floats(20)],
    [1e-5, 1],
    (0, 1, 2),
)
add("layer_norm-axis2", "layer_norm", [floats(2, 3, 8), floats(8), floats(8)], [1e-5, 2], (0, 1, 2))
add(
    "layer_norm-no-affine-float64",
    "layer_norm",
    [floats(4, 6, dtype="float64"), None, None],
    [1e-3, 1],
    (0,),
)

x4, c6 = floats(2, 6, 4, 3), floats(6)
add("group_norm", "group_norm", [x4, c6, floats(6)], [1e-5, 3, "NCHW"], (0, 1, 2))
add(
    "group_norm-nhwc",
    "group_norm",
    [floats(2, 4, 3, 6), c6, floats(6)],
    [1e-5, 2, "NHWC"],
    (0, 1, 2),
)
add("group_norm-no-affine-forward", "group_norm", [x4, None, None], [1e-5, 6, "NCHW"], ())
add("instance_norm", "instance_norm", [x4, c6, floats(6)], [1e-5], (0, 1, 2))
add(
    "instance_norm-float64-no-affine",
    "instance_norm",
    [floats(2, 3, 5, dtype="float64"), None, None],
    [1e-3],
    (0,),
)

xi = floats(2, 3, 5, 4)
for corners in (True, False):
    for mode in (0, 1):
        add(
            f"bilinear_interp-up-{corners}-{mode}",
            "bilinear_interp",
            [xi, None, None, None],
            ["NCHW", 0, 8, 7, [], "bilinear", corners, mode],
            (0,),
        )
        add(
            f"bilinear_interp-scale-{corners}-{mode}",
            "bilinear_interp",
            [xi, None, None, None],
            ["NCHW", 0, 0, 0, [1.7, 0.5], "bilinear", corners, mode],
            (0,),
        )
    add(
        f"nearest_interp-{corners}",
        "nearest_interp",
        [xi, None, None, None],
        ["NCHW", 0, 8, 3, [], "nearest", corners, 1],
        (0,),
    )
add(
    "bilinear_interp-nhwc",
    "bilinear_interp",
    [floats(1, 4, 5, 3), None, None, None],
    ["NHWC", 0, 7, 9, [], "bilinear", False, 0],
    (0,),
)
add(
    "nearest_interp-scale-nhwc",
    "nearest_interp",
    [floats(1, 4, 5, 3), None, None, None],
    ["NHWC", 0, 0, 0, [2.0, 1.5], "nearest", False, 1],
    (0,),
)
add(
    "bilinear_interp-uint8",
    "bilinear_interp",
    [RNG.integers(0, 255, (1, 2, 4, 4)).astype("uint8"), None, None, None],
    ["NCHW", 0, 7, 9, [], "bilinear", False, 0],
    (),
)
add(
    "nearest_interp-int64",
    "nearest_interp",
    [RNG.integers(-9, 9, (1, 2, 3, 4)), None, None, None],
    ["NCHW", 0, 6, 5, [], "nearest", True, 1],
    (),
)
add(
    "bilinear_interp-float64",
    "bilinear_interp",
    [floats(1, 2, 4, 3, dtype="float64"), None, None, None],
    ["NCHW", 0, 5, 5, [], "bilinear", False, 1],
    (0,),
)


def run_phi(op, inputs, attrs, grads):
    tensors = [
        None if a is None else phi.to_tensor(a.copy(), stop_gradient=i not in grads)
        for i, a in enumerate(inputs)
    ]
    outs = getattr(phi, op)(*tensors, *attrs)
    return tensors, outs if isinstance(outs, tuple) else (outs,)


def run_paddle(op, inputs, attrs, grads):
    tensors = [
        None if a is None else paddle.to_tensor(a.copy(), stop_gradient=i not in grads)
        for i, a in enumerate(inputs)
    ]
    # batch_norm_ is PaddlePaddle's static-graph name; its dygraph batch_norm updates in place
    outs = getattr(paddle._C_ops, op.rstrip("_"))(*tensors, *attrs)
    return tensors, tuple(outs) if isinstance(outs, (tuple, list)) else (outs,)


def tolerance(dtype, op: str = "") -> dict[str, float]:
    if np.dtype(dtype).kind in "iub":
        # bilinear of integers truncates a float32 sum of four products; PaddlePaddle's compiled
        # sum can round its last bit differently, which moves an exact integer by one
        return {"rtol": 0, "atol": 1 if op == "bilinear_interp" else 0}
    if dtype == np.float16:
        return {"rtol": 2e-3, "atol": 2e-3}
    if dtype == np.float32:
        return {"rtol": 2e-4, "atol": 2e-4}
    return {"rtol": 1e-10, "atol": 1e-10}


@pytest.mark.parametrize(
    "case_id, op, inputs, attrs, grads, outputs", CASES, ids=[c[0] for c in CASES]
)
def test_forward_and_gradients_equal_paddle(case_id, op, inputs, attrs, grads, outputs):
    phi_in, phi_out = run_phi(op, inputs, attrs, grads)
    pd_in, pd_out = run_paddle(op, inputs, attrs, grads)
    for index in outputs:
        got, want = phi_out[index].numpy(), pd_out[index].numpy()
        assert got.dtype == want.dtype and got.shape == want.shape, f"output {index}"
        np.testing.assert_allclose(
            got, want, **tolerance(want.dtype, op), err_msg=f"output {index}"
        )
    for index, array in enumerate(inputs):
        if (
            array is not None
            and index not in grads
            and op.startswith("batch_norm")
            and index in (1, 2)
        ):
            # running statistics are updated in place in both libraries
            np.testing.assert_allclose(
                phi_in[index].numpy(), pd_in[index].numpy(), **tolerance(array.dtype)
            )
    if not grads:
        return
    g = RNG.standard_normal(pd_out[0].shape).astype(inputs[0].dtype)
    (phi_out[0] * phi.to_tensor(g)).sum().backward()
    (pd_out[0] * paddle.to_tensor(g)).sum().backward()
    for index in grads:
        np.testing.assert_allclose(
            phi_in[index].grad.numpy(),
            pd_in[index].grad.numpy(),
            **tolerance(inputs[index].dtype),
            err_msg=f"grad of input {index}",
        )
