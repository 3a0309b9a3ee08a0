"""Gradients through tensor arrays in static programs (``paddle.static.gradients``,
``append_backward``): an item's gradient flows from its reads back to its write, an overwritten
item's stops at the write that replaced it, and writes inside a ``while_loop`` to an array read
after it get theirs through the backward loop. Expected values: PaddlePaddle 3.3.1's
(tests/data/tarray/backward.npz, recorded by tests/tools/make_tarray_fixtures.py) and the
closed forms."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import UnimplementedError

RECORDED = np.load(Path(__file__).resolve().parents[1] / "data" / "tarray" / "backward.npz")
FEED = {"x": RECORDED["feed_x"], "y": RECORDED["feed_y"]}


@pytest.fixture(autouse=True)
def static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def straight():
    """As the recording tool's: writes at 0 and 1, a read of 0, an overwrite of 0, reads."""
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        y = paddle.static.data("y", [2, 3], "float32")
        y.stop_gradient = False
        arr = paddle.tensor.create_array("float32")
        i0, i1 = paddle.zeros([1], "int64"), paddle.ones([1], "int64")
        paddle.tensor.array_write(x * 2.0, i0, arr)
        paddle.tensor.array_write(y * 3.0, i1, arr)
        a = paddle.tensor.array_read(arr, i0)
        paddle.tensor.array_write(x * y, i0, arr)
        b = paddle.tensor.array_read(arr, i0)
        c = paddle.tensor.array_read(arr, i1)
        loss = paddle.sum(a * a) + paddle.sum(b * c)
        gx, gy = paddle.static.gradients([loss], [x, y])
    return main, [loss, gx, gy]


def in_while():
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        arr = paddle.tensor.create_array("float32")
        n = paddle.full([1], 3, "int64")

        def body(i):
            paddle.tensor.array_write(paddle.tanh(x) * (i.astype("float32") + 1.0), i, arr)
            return [i + 1]

        paddle.static.nn.while_loop(lambda i: i < n, body, [paddle.zeros([1], "int64")])
        r = paddle.tensor.array_read(arr, paddle.full([1], 1, "int64"))
        loss = paddle.sum(r * r)
        (gx,) = paddle.static.gradients([loss], [x])
    return main, [loss, gx]


def run(main, fetch, feed):
    return paddle.static.Executor().run(main, feed, fetch)


def test_gradients_through_writes_and_reads_match_paddles() -> None:
    main, fetch = straight()
    got = run(main, fetch, FEED)
    for position, value in enumerate(got):
        np.testing.assert_allclose(value, RECORDED[f"straight_{position}"], rtol=1e-5, atol=1e-6)


def test_an_overwritten_items_gradient_stops_at_the_overwrite() -> None:
    """loss = sum((2x)^2) + sum(xy * 3y): d/dx = 8x + 3y^2, d/dy = 6xy (the first write of
    item 0 is read once before the overwrite; the second is read after it)."""
    main, fetch = straight()
    _, gx, gy = run(main, fetch, FEED)
    x, y = FEED["x"], FEED["y"]
    np.testing.assert_allclose(gx, 8 * x + 3 * y * y, rtol=1e-5)
    np.testing.assert_allclose(gy, 6 * x * y, rtol=1e-5)


def test_gradients_of_writes_in_a_while_loop_match_paddles() -> None:
    main, fetch = in_while()
    loss, gx = run(main, fetch, {"x": FEED["x"]})
    np.testing.assert_allclose(loss, RECORDED["while_0"], rtol=1e-5)
    np.testing.assert_allclose(gx, RECORDED["while_1"], rtol=1e-5, atol=1e-6)
    t = np.tanh(FEED["x"])
    np.testing.assert_allclose(gx, 8 * t * (1 - t * t), rtol=1e-5, atol=1e-6)


def test_the_backward_loop_carries_the_gradient_array() -> None:
    main, _ = in_while()
    whiles = [op for op in main.global_block().ops if op.name == "pd_op.while"]
    assert len(whiles) == 2
    carried = [str(v.type) for v in whiles[1].operands[1:]]
    assert carried == ["tensor<2x3xf32>", "pd_op.tensor_array<f32>"]


def test_append_backward_reaches_a_parameter_through_an_array() -> None:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 3], "float32")
        w = paddle.static.create_parameter([2, 3], "float32", default_initializer=paddle.nn.initializer.Constant(0.5))
        arr = paddle.tensor.array_write(x * w, paddle.zeros([1], "int64"))
        loss = paddle.sum(paddle.tensor.array_read(arr, paddle.zeros([1], "int64")))
        ((param, grad),) = paddle.static.append_backward(loss)
    exe = paddle.static.Executor()
    exe.run(startup)
    (got,) = exe.run(main, {"x": FEED["x"]}, [grad])
    np.testing.assert_allclose(got, FEED["x"])


def test_a_carried_array_needing_a_gradient_is_unimplemented() -> None:
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        arr = paddle.tensor.array_write(x, paddle.zeros([1], "int64"))
        n = paddle.full([1], 2, "int64")

        def body(i, a):
            b = paddle.tensor.create_array("float32", [paddle.tensor.array_read(a, paddle.zeros([1], "int64")) * 2.0])
            return [i + 1, b]

        _, out = paddle.static.nn.while_loop(lambda i, a: i < n, body, [paddle.zeros([1], "int64"), arr])
        loss = paddle.sum(paddle.tensor.array_read(out, paddle.zeros([1], "int64")))
        with pytest.raises(UnimplementedError, match="carrying a tensor array as a loop variable"):
            paddle.static.gradients([loss], [x])


def test_gradients_through_array_to_tensor_match_paddles() -> None:
    """array_to_tensor's gradient is tensor_to_array: out's gradient cut back into items
    (concatenated along axis 0, stacked along axis 1)."""
    from phiops.tensor.manipulation import tensor_array_to_tensor

    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        concat, _ = tensor_array_to_tensor(paddle.tensor.create_array("float32", [x, x * 2.0]), axis=0)
        stacked, _ = tensor_array_to_tensor(
            paddle.tensor.create_array("float32", [x * x, x + 1.0]), axis=1, use_stack=True
        )
        weights = paddle.arange(12, dtype="float32").reshape([2, 2, 3])
        loss = paddle.sum(concat * concat) + paddle.sum(stacked * weights)
        (gx,) = paddle.static.gradients([loss], [x])
    got_loss, got = run(main, [loss, gx], {"x": FEED["x"]})
    np.testing.assert_allclose(got_loss, RECORDED["to_tensor_0"], rtol=1e-5)
    np.testing.assert_allclose(got, RECORDED["to_tensor_1"], rtol=1e-5, atol=1e-6)
    x_, w = FEED["x"], np.arange(12, dtype="float32").reshape(2, 2, 3)
    np.testing.assert_allclose(got, 10 * x_ + 2 * x_ * w[:, 0, :] + w[:, 1, :], rtol=1e-5, atol=1e-6)
