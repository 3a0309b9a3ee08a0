"""``phi.static.nn.fc``, ``conv2d``, ``batch_norm`` and ``embedding`` in classic static-graph
training code: the same code as PaddlePaddle 3.3.1 ran (tests/tools/make_to_static_fixtures.py),
from the same initial parameters, gives its losses and trained parameters; the programs hold the
parameters PaddlePaddle names; bad arguments raise errors naming the layer and argument."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError, UnimplementedError
from tests.tools import make_to_static_fixtures as cases

DATA = Path(__file__).resolve().parents[1] / "data" / "to_static"


def _parameter_ops(program):
    return {
        op.attributes["parameter_name"].value: op
        for op in program.block.ops
        if op.name == "builtin.parameter"
    }


def test_mlp_trains_as_paddlepaddle() -> None:
    expected = np.load(DATA / "static_nn_mlp.npz")
    with paddle.static.unique_name_guard():
        got = cases.train_static(paddle, cases.build_mlp, cases.MLP_PARAMETERS, cases.mlp_feeds, 1)
    np.testing.assert_allclose(got["losses"], expected["losses"], rtol=1e-5)
    for name, _ in cases.MLP_PARAMETERS:
        np.testing.assert_allclose(got[name], expected[name], rtol=1e-5, atol=1e-6, err_msg=name)


def test_cnn_with_batch_norm_and_embedding_trains_as_paddlepaddle() -> None:
    expected = np.load(DATA / "static_nn_cnn.npz")
    with paddle.static.unique_name_guard():
        got = cases.train_static(
            paddle, cases.build_cnn, cases.CNN_PARAMETERS, cases.cnn_feeds, 2, cases.CNN_STATE
        )
    np.testing.assert_allclose(got["losses"], expected["losses"], rtol=1e-4)
    for name in [n for n, _ in cases.CNN_PARAMETERS] + cases.CNN_STATE:
        np.testing.assert_allclose(got[name], expected[name], rtol=1e-4, atol=1e-5, err_msg=name)


def test_parameters_named_and_initialised_as_paddlepaddle(programs) -> None:
    main, startup = programs
    x = paddle.static.data("x", [-1, 4], "float32")
    paddle.static.nn.fc(paddle.static.nn.fc(x, 8, activation="relu"), 3, bias_attr=False)
    img = paddle.static.data("img", [-1, 3, 8, 8], "float32")
    paddle.static.nn.batch_norm(paddle.static.nn.conv2d(img, 4, 3))
    paddle.static.nn.embedding(paddle.static.data("ids", [-1, 5], "int64"), [10, 6])
    paddle.static.nn.layer_norm(img, shift=False)
    params = _parameter_ops(main)
    shapes = {name: list(op.results[0].type.dims) for name, op in params.items()}
    assert shapes == {
        "fc_0.w_0": [4, 8],
        "fc_0.b_0": [8],
        "fc_1.w_0": [8, 3],
        "conv2d_0.w_0": [4, 3, 3, 3],
        "conv2d_0.b_0": [4],
        "batch_norm_0.w_0": [4],
        "batch_norm_0.b_0": [4],
        "batch_norm_0.w_1": [4],
        "batch_norm_0.w_2": [4],
        "embedding_0.w_0": [10, 6],
        "layer_norm_0.w_0": [192],
    }
    trainable = {name: op.attributes["trainable"].value[0].value for name, op in params.items()}
    assert not trainable["batch_norm_0.w_1"] and not trainable["batch_norm_0.w_2"]
    assert all(v for k, v in trainable.items() if k not in ("batch_norm_0.w_1", "batch_norm_0.w_2"))
    # the startup program draws them as PaddlePaddle's does: XavierUniform bounds of fc_0.w_0
    # (sqrt(6 / 12)), the conv filter Normal(0, sqrt(2 / 27)), batch norm's ones and zeros
    scope = paddle.static.Scope()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup, scope=scope)
    w = np.asarray(scope.find_var("fc_0.w_0"))
    assert np.abs(w).max() <= np.sqrt(6 / 12) and np.abs(w).max() > 0.3
    np.testing.assert_array_equal(np.asarray(scope.find_var("batch_norm_0.w_2")), np.ones(4))
    np.testing.assert_array_equal(np.asarray(scope.find_var("batch_norm_0.w_1")), np.zeros(4))
    np.testing.assert_array_equal(np.asarray(scope.find_var("fc_0.b_0")), np.zeros(8))
    conv = np.asarray(scope.find_var("conv2d_0.w_0"))
    assert abs(conv.std() - np.sqrt(2 / 27)) < 0.1


def test_fc_flattens_and_takes_a_list(programs) -> None:
    main, startup = programs
    x = paddle.static.data("x", [-1, 2, 3], "float32")
    y = paddle.static.data("y", [-1, 5], "float32")
    out = paddle.static.nn.fc([x, y], 4, weight_attr=[paddle.ParamAttr(name="first_w"), None])
    assert list(out.type.dims) == [-1, 4]
    out2 = paddle.static.nn.fc(x, 2, num_flatten_dims=2, weight_attr=[None], name="t")
    assert list(out2.type.dims) == [-1, 2, 2]
    assert {"fc_0.w_1", "fc_1.w_0"} <= set(_parameter_ops(main))
    scope = paddle.static.Scope()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup, scope=scope)
    xs = np.arange(12, dtype="float32").reshape(2, 2, 3) / 10
    ys = np.ones((2, 5), "float32")
    got, got2 = exe.run(main, feed={"x": xs, "y": ys}, fetch_list=[out, out2], scope=scope)
    w0 = np.asarray(scope.find_var("first_w"))
    w1 = np.asarray(scope.find_var("fc_0.w_1"))
    np.testing.assert_allclose(got, xs.reshape(2, 6) @ w0 + ys @ w1, rtol=1e-5)
    wt = np.asarray(scope.find_var("fc_1.w_0"))
    np.testing.assert_allclose(got2, xs @ wt, rtol=1e-5)


def test_embedding_padding_idx_gives_zero_rows(programs) -> None:
    main, startup = programs
    ids = paddle.static.data("ids", [-1, 3], "int64")
    out = paddle.static.nn.embedding(ids, [4, 2], padding_idx=-1)
    scope = paddle.static.Scope()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup, scope=scope)
    table = np.asarray(scope.find_var("embedding_0.w_0"))
    feed = np.array([[0, 3, 1]], "int64")
    (got,) = exe.run(main, feed={"ids": feed}, fetch_list=[out], scope=scope)
    expected = table[feed]
    expected[0, 1] = 0
    np.testing.assert_allclose(got, expected)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda x, i: paddle.static.nn.fc(x, 0), "fc(): argument 'size'"),
        (lambda x, i: paddle.static.nn.fc(i, 3), "fc(): argument 'x' must be float"),
        (lambda x, i: paddle.static.nn.fc(x, 3, num_flatten_dims=4), "num_flatten_dims"),
        (lambda x, i: paddle.static.nn.fc(x, 3, activation="nope"), "unknown activation"),
        (lambda x, i: paddle.static.nn.fc(np.ones((2, 4)), 3), "fc(): argument 'x' expects"),
        (lambda x, i: paddle.static.nn.conv2d(x, 2, 3), "conv2d(): argument 'input' must be 4-D"),
        (lambda x, i: paddle.static.nn.batch_norm(x, data_layout="NDHW"), "data_layout"),
        (lambda x, i: paddle.static.nn.embedding(x, [3, 2]), "embedding(): argument 'input'"),
        (lambda x, i: paddle.static.nn.embedding(i, [3]), "embedding(): argument 'size'"),
        (lambda x, i: paddle.static.nn.embedding(i, [3, 2], padding_idx=3), "padding_idx"),
        (lambda x, i: paddle.static.nn.fc(x, 3, bias_attr=3), "fc(): argument 'bias_attr'"),
        (lambda x, i: paddle.static.nn.layer_norm(x, begin_norm_axis=2), "begin_norm_axis"),
        (lambda x, i: paddle.static.nn.layer_norm(i), "layer_norm(): argument 'input' must be"),
    ],
)
def test_bad_arguments(programs, call, message) -> None:
    x = paddle.static.data("x", [-1, 4], "float32")
    i = paddle.static.data("i", [-1, 4], "int64")
    with pytest.raises(InvalidArgumentError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call(x, i)


def test_unimplemented_options_say_so(programs) -> None:
    x = paddle.static.data("x", [-1, 4], "float32")
    i = paddle.static.data("i", [-1, 4], "int64")
    with pytest.raises(UnimplementedError, match="in_place"):
        paddle.static.nn.batch_norm(x, in_place=True)
    with pytest.raises(UnimplementedError, match="is_distributed"):
        paddle.static.nn.embedding(i, [3, 2], is_distributed=True)


def test_needs_static_mode() -> None:
    paddle.disable_static()
    try:
        with pytest.raises(PreconditionNotMetError, match="fc"):
            paddle.static.nn.fc(paddle.ones([2, 4]), 3)
    finally:
        paddle.enable_static()
