"""The convpool family against PaddlePaddle 3.3.1, live (runs only where PaddlePaddle is
installed): the max_pool3d_with_index op (outputs, int32 masks, input gradients) against
``paddle._C_ops.max_pool3d_with_index``, the unpool and unpool3d ops (outputs and gradients, each
registered dtype, int32 and int64 indices), and every function and layer case of
tests/tools/convpool_cases.py (outputs, masks, input and parameter gradients) against
paddle.nn.functional / paddle.nn with the same inputs and weights."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="PaddlePaddle is not installed")

import phiops as phi  # noqa: E402
import phiops.generated as phi_ops  # noqa: E402
from tests.tools.convpool_cases import cases, fill  # noqa: E402

RNG = np.random.default_rng(25)


def distinct(shape: tuple[int, ...], dtype: str) -> np.ndarray:
    return (RNG.permutation(int(np.prod(shape))) * 0.01 - 1.0).reshape(shape).astype(dtype)


OP_CASES = [
    ("plain", (2, 3, 4, 5, 6), [2, 2, 2], [2, 2, 2], [0, 0, 0], False, False, False),
    ("padded-overlapping", (1, 2, 5, 4, 6), [3, 2, 3], [1, 2, 2], [1, 1, 1], False, False, False),
    ("ceil", (1, 2, 5, 5, 5), [2, 2, 2], [2, 2, 2], [0, 0, 0], False, False, True),
    ("adaptive", (2, 2, 5, 7, 3), [2, 3, 2], [1, 1, 1], [0, 0, 0], False, True, False),
    ("global", (2, 2, 3, 4, 5), [1, 1, 1], [1, 1, 1], [0, 0, 0], True, False, False),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", OP_CASES, ids=[c[0] for c in OP_CASES])
def test_max_pool3d_with_index_equals_paddle(case: tuple, dtype: str) -> None:
    _, shape, *attrs = case
    x = distinct(shape, dtype)
    results = []
    for lib, ops in ((phi, phi_ops), (paddle, paddle._C_ops)):
        t = lib.to_tensor(x)
        t.stop_gradient = False
        out, mask = ops.max_pool3d_with_index(t, *attrs)
        g = np.linspace(-1.0, 1.0, out.size).astype(dtype).reshape(out.shape)
        (out * lib.to_tensor(g)).sum().backward()
        results.append((out.numpy(), mask.numpy(), t.grad.numpy()))
    (out, mask, grad), (want_out, want_mask, want_grad) = results
    assert out.dtype == want_out.dtype and mask.dtype == want_mask.dtype == np.int32
    np.testing.assert_array_equal(out, want_out)
    np.testing.assert_array_equal(mask, want_mask)
    np.testing.assert_allclose(grad, want_grad, rtol=1e-6, atol=1e-6)


def positions(shape: tuple[int, ...], plane: int) -> np.ndarray:
    rows, count = int(np.prod(shape[:2])), int(np.prod(shape[2:]))
    return np.stack([RNG.permutation(plane)[:count] for _ in range(rows)]).reshape(shape)


UNPOOL_CASES = [
    ("unpool-2x2", "unpool", (2, 3, 3, 4), [[2, 2], [2, 2], [0, 0], [6, 8], "NCHW"], "int32"),
    ("unpool-sized-int64", "unpool", (1, 2, 3, 3), [[3, 3], [2, 2], [1, 1], [6, 7], "NCHW"], "int64"),
    ("unpool3d", "unpool3d", (2, 2, 2, 3, 2), [[2, 2, 2], [2, 2, 2], [0, 0, 0], [4, 6, 4], "NCDHW"], "int32"),
    ("unpool3d-sized", "unpool3d", (1, 3, 2, 2, 3), [[2, 2, 2], [1, 2, 2], [0, 0, 0], [3, 5, 7], "NCDHW"], "int64"),
]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
@pytest.mark.parametrize("case", UNPOOL_CASES, ids=[c[0] for c in UNPOOL_CASES])
def test_unpool_equals_paddle(case: tuple, dtype: str) -> None:
    _, op, shape, attrs, index_dtype = case
    x = distinct(shape, "float64") * (100 if dtype == "int64" else 1)
    x = x.astype(dtype)
    indices = positions(shape, int(np.prod(attrs[3])), ).astype(index_dtype)
    results = []
    for lib, ops in ((phi, phi_ops), (paddle, paddle._C_ops)):
        t = lib.to_tensor(x)
        t.stop_gradient = dtype == "int64"
        out = getattr(ops, op)(t, lib.to_tensor(indices), *attrs)
        got = [out.numpy()]
        if dtype != "int64":
            g = np.linspace(-1.0, 1.0, out.size).astype(dtype).reshape(out.shape)
            (out * lib.to_tensor(g)).sum().backward()
            got.append(t.grad.numpy())
        results.append(got)
    for got, want in zip(*results):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


PHI_CASES = cases(phi)
PADDLE_CASES = cases(paddle)


def run(lib: Any, fn: Any, array: np.ndarray, layer: Any = None) -> dict:
    x = lib.to_tensor(array)
    x.stop_gradient = False
    result = fn(x)
    out, mask = result if isinstance(result, (tuple, list)) else (result, None)
    weights = lib.to_tensor(np.linspace(0.5, 1.5, out.size).astype(np.float32).reshape(out.shape))
    (out * weights).sum().backward()
    got = {"out": out.numpy(), "grad": x.grad.numpy()}
    if mask is not None:
        got["mask"] = mask.numpy()
    if layer is not None:
        got.update({f"grad:{k}": p.grad.numpy() for k, p in layer.named_parameters()})
    return got


def compare(got: dict, want: dict) -> None:
    assert set(got) == set(want)
    for key, value in want.items():
        assert got[key].shape == value.shape and got[key].dtype == value.dtype, key
        if key == "mask":
            np.testing.assert_array_equal(got[key], value)
        else:
            np.testing.assert_allclose(got[key], value, rtol=1e-5, atol=5e-5, err_msg=key)


@pytest.mark.parametrize("name", sorted(PHI_CASES[1]))
def test_function_equals_paddle(name: str) -> None:
    (fn, x), (pd_fn, _) = PHI_CASES[1][name], PADDLE_CASES[1][name]
    compare(run(phi, fn, PHI_CASES[0][x]), run(paddle, pd_fn, PADDLE_CASES[0][x]))


@pytest.mark.parametrize("name", sorted(PHI_CASES[2]))
def test_layer_equals_paddle(name: str) -> None:
    (make, x), (pd_make, _) = PHI_CASES[2][name], PADDLE_CASES[2][name]
    layer, pd_layer = make(), pd_make()
    assert list(layer.state_dict()) == list(pd_layer.state_dict())
    fill(pd_layer)
    # PaddlePaddle's state dict, as numpy arrays under its keys, loads into the phiops layer
    layer.set_state_dict({k: v.numpy() for k, v in pd_layer.state_dict().items()})
    compare(run(phi, layer, PHI_CASES[0][x], layer), run(paddle, pd_layer, PADDLE_CASES[0][x], pd_layer))
