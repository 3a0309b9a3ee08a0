"""The dgrad24 family's double grads called directly (phiops.generated.backward): absent
optional gradients count as zeros, max pooling's double grad is rejected as PaddlePaddle
rejects it, float32 follows float64, channel-last layouts equal channel-first ones, empty
batches, and bad input named. Their values are checked against finite differences
(tests/autograd/cases_dgrad24.py) and PaddlePaddle 3.3.1 (test_dgrad24_paddle.py)."""

from __future__ import annotations

import numpy as np
import pytest

import phiops as paddle
import phiops.generated as phi
from phiops.generated import backward as B
from phiops.runtime.errors import InvalidArgumentError


def _values(shape: tuple[int, ...], seed: int, low: float = -1.0, high: float = 1.0) -> np.ndarray:
    return np.random.default_rng(seed).uniform(low, high, size=shape)


def _t(a: np.ndarray | None) -> paddle.Tensor | None:
    return None if a is None else paddle.to_tensor(a)


def _numpy_conv2d(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Stride 1, no padding, one group: out[n, m, i, j] = sum x[n, c, i+p, j+q] w[m, c, p, q]."""
    windows = np.lib.stride_tricks.sliding_window_view(x, w.shape[2:], axis=(2, 3))
    return np.einsum("ncijpq,mcpq->nmij", windows, w)


CONV = ([1, 1], [0, 0], "EXPLICIT", [1, 1], 1, "NCHW")


def test_conv2d_grad_grad_without_second_gradients_is_zeros() -> None:
    x, w, dout = _values((2, 2, 4, 4), 1), _values((3, 2, 2, 2), 2), _values((2, 3, 3, 3), 3)
    outs = B.conv2d_grad_grad(_t(x), _t(w), _t(dout), None, None, *CONV)
    assert [o.shape for o in outs] == [[2, 2, 4, 4], [3, 2, 2, 2], [2, 3, 3, 3]]
    assert all(not o.numpy().any() for o in outs)


def test_conv2d_grad_grad_with_grad_filter_grad_alone() -> None:
    x, w, dout = _values((1, 2, 4, 4), 4), _values((3, 2, 2, 2), 5), _values((1, 3, 3, 3), 6)
    ddw = _values((3, 2, 2, 2), 7)
    input_grad, filter_grad, grad_out_grad = B.conv2d_grad_grad(
        _t(x), _t(w), _t(dout), None, _t(ddw), *CONV
    )
    np.testing.assert_allclose(grad_out_grad.numpy(), _numpy_conv2d(x, ddw), rtol=1e-12)
    assert not filter_grad.numpy().any()
    # input_grad = d/dx <ddw, conv_filter_grad(x, dout)> = d/dx <dout, conv(x, ddw)>
    expected = np.zeros_like(x)
    for p in range(2):
        for q in range(2):
            expected[:, :, p : p + 3, q : q + 3] += np.einsum("nmij,mc->ncij", dout, ddw[:, :, p, q])
    np.testing.assert_allclose(input_grad.numpy(), expected, rtol=1e-12)


def test_conv3d_double_grad_of_an_empty_batch_is_empty() -> None:
    x, w, dout = np.zeros((0, 1, 2, 2, 2)), _values((2, 1, 1, 1, 1), 8), np.zeros((0, 2, 2, 2, 2))
    outs = B.conv3d_double_grad(
        _t(x), _t(w), _t(dout), _t(x), _t(w), [1, 1, 1], [0, 0, 0], "EXPLICIT", 1, [1, 1, 1],
        "NCDHW",
    )
    assert [o.shape for o in outs] == [[0, 1, 2, 2, 2], [2, 1, 1, 1, 1], [0, 2, 2, 2, 2]]
    assert not outs[1].numpy().any()


def test_conv2d_grad_grad_float32_follows_float64() -> None:
    arrays = [_values((1, 2, 4, 4), 9), _values((3, 2, 2, 2), 10), _values((1, 3, 3, 3), 11)]
    arrays += [_values((1, 2, 4, 4), 12), _values((3, 2, 2, 2), 13)]
    wide = B.conv2d_grad_grad(*(_t(a) for a in arrays), *CONV)
    narrow = B.conv2d_grad_grad(*(_t(a.astype(np.float32)) for a in arrays), *CONV)
    for got, want in zip(narrow, wide):
        assert got.numpy().dtype == np.float32
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-5)


def test_conv2d_grad_grad_names_a_grad_input_grad_of_the_wrong_shape() -> None:
    x, w, dout = _values((1, 2, 4, 4), 14), _values((3, 2, 2, 2), 15), _values((1, 3, 3, 3), 16)
    with pytest.raises(InvalidArgumentError, match="grad_input_grad.*\\[1, 2, 4, 4\\]"):
        B.conv2d_grad_grad(_t(x), _t(w), _t(dout), _t(x[:, :1]), None, *CONV)


def test_max_pool2d_double_grad_is_rejected_as_paddles_is() -> None:
    x = paddle.to_tensor(_values((1, 1, 4, 4), 17), stop_gradient=False)
    out = phi.pool2d(x, [2, 2], [2, 2], [0, 0], False, True, "NCHW", "max", False, False, "EXPLICIT")
    upstream = paddle.to_tensor(np.ones((1, 1, 2, 2)), stop_gradient=False)
    (first,) = paddle.grad(out, [x], grad_outputs=upstream, create_graph=True)
    with pytest.raises(InvalidArgumentError, match="pooling_type.*avg.*'max'"):
        paddle.grad(first, [upstream], grad_outputs=paddle.ones_like(first))


def test_pool2d_double_grad_pools_grad_x_grad_like_numpy() -> None:
    ddx = _values((1, 2, 4, 4), 18)
    got = B.pool2d_double_grad(
        _t(ddx), _t(ddx), [2, 2], [2, 2], [0, 0], False, True, "NCHW", "avg", False, False,
        "EXPLICIT",
    )
    np.testing.assert_allclose(got.numpy(), ddx.reshape(1, 2, 2, 2, 2, 2).mean(axis=(3, 5)))


BN_FLAGS = (0.9, 1e-5)


def _batch_norm_double_grad(data_format: str, arrays: dict, global_stats: bool = False):
    return B.batch_norm_double_grad(
        _t(arrays["x"]),
        _t(arrays.get("scale")),
        _t(arrays.get("mean")),
        _t(arrays.get("variance")),
        _t(arrays["saved_mean"]),
        _t(arrays["saved_variance"]),
        _t(arrays["dy"]),
        _t(arrays.get("ddx")),
        _t(arrays.get("ddscale")),
        _t(arrays.get("ddbias")),
        *BN_FLAGS,
        data_format,
        False,
        global_stats,
        False,
    )


def _bn_arrays(shape: tuple[int, ...], channels: int, dtype=np.float64) -> dict:
    arrays = {
        "x": _values(shape, 20),
        "scale": _values((channels,), 21, 0.5, 1.5),
        "mean": _values((channels,), 22),
        "variance": _values((channels,), 23, 0.5, 1.5),
        "saved_mean": _values((channels,), 24),
        "saved_variance": _values((channels,), 25, 0.5, 1.5),
        "dy": _values(shape, 26),
        "ddx": _values(shape, 27),
        "ddscale": _values((channels,), 28),
        "ddbias": _values((channels,), 29),
    }
    return {k: v.astype(dtype) for k, v in arrays.items()}


@pytest.mark.parametrize("global_stats", [False, True], ids=["batch-stats", "global-stats"])
def test_batch_norm_double_grad_nhwc_equals_nchw(global_stats: bool) -> None:
    nchw = _bn_arrays((2, 3, 2, 2), 3)
    nhwc = {
        k: (v.transpose(0, 2, 3, 1) if v.ndim == 4 else v) for k, v in nchw.items()
    }
    first = _batch_norm_double_grad("NCHW", nchw, global_stats)
    last = _batch_norm_double_grad("NHWC", nhwc, global_stats)
    for a, b in zip(first, last):
        want = a.numpy()
        got = b.numpy().transpose(0, 3, 1, 2) if want.ndim == 4 else b.numpy()
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)


def test_batch_norm_double_grad_without_second_gradients_is_zeros() -> None:
    arrays = _bn_arrays((2, 3, 2), 3)
    for key in ("ddx", "ddscale", "ddbias"):
        arrays.pop(key)
    outs = _batch_norm_double_grad("NCHW", arrays)
    assert [o.shape for o in outs] == [[2, 3, 2], [3], [2, 3, 2]]
    assert all(not o.numpy().any() for o in outs)


def test_batch_norm_double_grad_float32_follows_float64() -> None:
    wide = _batch_norm_double_grad("NCHW", _bn_arrays((2, 3, 2), 3))
    narrow = _batch_norm_double_grad("NCHW", _bn_arrays((2, 3, 2), 3, np.float32))
    for got, want in zip(narrow, wide):
        assert got.numpy().dtype == np.float32
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-4, atol=1e-5)


def test_batch_norm_double_grad_names_bad_input() -> None:
    arrays = _bn_arrays((2, 3, 2), 3)
    with pytest.raises(InvalidArgumentError, match="'scale'.*one value per channel \\(3\\)"):
        _batch_norm_double_grad("NCHW", dict(arrays, scale=np.ones(2)))
    with pytest.raises(InvalidArgumentError, match="out_mean"):
        _batch_norm_double_grad("NCHW", dict(arrays, mean=None), global_stats=True)


def _instance_norm_double_grad(arrays: dict, **changes):
    arrays = dict(arrays, **changes)
    return B.instance_norm_double_grad(
        *(_t(arrays.get(k)) for k in ("x", "scale", "saved_mean", "saved_variance", "dy")),
        *(_t(arrays.get(k)) for k in ("ddx", "ddscale", "ddbias")),
        1e-5,
    )


def _in_arrays() -> dict:
    return {
        "x": _values((2, 3, 4), 30),
        "scale": _values((3,), 31, 0.5, 1.5),
        "saved_mean": _values((6,), 32),
        "saved_variance": _values((6,), 33, 0.5, 1.5),
        "dy": _values((2, 3, 4), 34),
        "ddx": _values((2, 3, 4), 35),
        "ddscale": _values((3,), 36),
        "ddbias": _values((3,), 37),
    }


def test_instance_norm_double_grad_without_second_gradients_is_zeros() -> None:
    outs = _instance_norm_double_grad(_in_arrays(), ddx=None, ddscale=None, ddbias=None)
    assert [o.shape for o in outs] == [[2, 3, 4], [3], [2, 3, 4]]
    assert all(not o.numpy().any() for o in outs)


def test_instance_norm_double_grad_without_fwd_scale_takes_a_scale_of_ones() -> None:
    arrays = _in_arrays()
    with_ones = _instance_norm_double_grad(arrays, scale=np.ones(3))
    without = _instance_norm_double_grad(arrays, scale=None)
    for i in range(3):
        np.testing.assert_allclose(without[i].numpy(), with_ones[i].numpy(), rtol=1e-14)


def test_instance_norm_double_grad_names_bad_input() -> None:
    with pytest.raises(InvalidArgumentError, match="grad_y.*\\[2, 3, 4\\]"):
        _instance_norm_double_grad(_in_arrays(), dy=_values((2, 3, 5), 38))
    with pytest.raises(InvalidArgumentError, match="saved_mean.*one value per sample and channel"):
        _instance_norm_double_grad(_in_arrays(), saved_mean=np.zeros(3))
