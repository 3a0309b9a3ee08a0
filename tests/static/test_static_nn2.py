"""The remaining classic layers of ``phi.static.nn`` (``conv2d_transpose``, ``conv3d``,
``conv3d_transpose``, ``group_norm``, ``instance_norm``, ``prelu``,
``bilinear_tensor_product``, ``spectral_norm``, ``deform_conv2d``, ``row_conv``): the same code
as PaddlePaddle 3.3.1 ran in its legacy programs (tests/tools/make_static_nn2_fixtures.py) makes
the parameters it names, with its shapes and default initializers, and from the same fixed
parameters gives its outputs, SGD losses and trained parameters; bad arguments raise errors
naming the layer and argument."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError, PreconditionNotMetError, UnimplementedError
from tests.tools import make_static_nn2_fixtures as cases

DATA = Path(__file__).resolve().parents[1] / "data" / "to_static"


def _parameters(program) -> dict[str, tuple[list[int], bool]]:
    """name -> (shape, has a gradient) of the program's `builtin.parameter`s."""
    found = {}
    for op in program.block.ops:
        if op.name == "builtin.parameter":
            value = op.results[0]
            found[op.attributes["parameter_name"].value] = (
                list(value.type.dims),
                not value.stop_gradient,
            )
    return found


@pytest.mark.parametrize("case", sorted(cases.CASES))
def test_layers_train_as_paddlepaddle(case: str) -> None:
    expected = np.load(DATA / f"static_nn2_{case}.npz")
    with paddle.static.unique_name_guard():
        got = cases.run_case(paddle, case, _parameters)
    assert list(got["names"]) == list(expected["names"])
    for name in expected["names"]:
        np.testing.assert_array_equal(got[f"shape:{name}"], expected[f"shape:{name}"])
    outputs = sorted(key for key in expected if key.startswith("out_"))
    assert outputs == sorted(key for key in got if key.startswith("out_"))
    for key in outputs:
        np.testing.assert_allclose(got[key], expected[key], rtol=1e-4, atol=1e-5, err_msg=key)
    np.testing.assert_allclose(got["losses"], expected["losses"], rtol=1e-5)
    for name in expected["names"]:
        np.testing.assert_allclose(got[name], expected[name], rtol=1e-4, atol=1e-5, err_msg=name)


def _drawn_by(startup) -> dict[str, tuple[str, float, float]]:
    """name -> (constant, value, value) / (normal, mean, std) / (uniform, min, max), read from
    the startup program's op that each `builtin.set_parameter` stores."""
    found = {}
    for op in startup.block.ops:
        if op.name != "builtin.set_parameter":
            continue
        draw = op.operands[0].define_op
        if draw.name == "pd_op.full":
            value = draw.attributes["value"].value
            entry = ("constant", value, value)
        elif draw.name == "pd_op.gaussian":
            entry = ("normal", draw.attributes["mean"].value, draw.attributes["std"].value)
        else:
            assert draw.name == "pd_op.uniform"
            low, high = (o.define_op.attributes["value"].value for o in draw.operands[1:3])
            entry = ("uniform", low, high)
        found[op.attributes["parameter_name"].value] = entry
    return found


def test_default_initializers_as_paddlepaddle(programs) -> None:
    main, startup = programs
    cases.defaults(paddle)
    expected = np.load(DATA / "static_nn2_initializers.npz")
    names = sorted(key.split(":", 1)[1] for key in expected if key.startswith("kind:"))
    got = _drawn_by(startup)
    assert sorted(got) == names
    for name in names:
        kind, first, second = got[name]
        assert kind == str(expected[f"kind:{name}"]), name
        np.testing.assert_allclose([first, second], expected[f"args:{name}"], rtol=1e-6)


def test_group_and_instance_norm_make_parameters_only_when_asked(programs) -> None:
    main, _ = programs
    img = paddle.static.data("img", [-1, 4, 3, 3], "float32")
    paddle.static.nn.group_norm(img, 2)
    paddle.static.nn.group_norm(img, 2, bias_attr=True)
    paddle.static.nn.instance_norm(img, param_attr=paddle.ParamAttr())
    paddle.static.nn.instance_norm(img, param_attr="s", bias_attr="b")
    assert sorted(_parameters(main)) == ["b", "group_norm_1.b_0", "s"]


def test_spectral_norm_vectors_get_no_gradient(programs) -> None:
    main, _ = programs
    paddle.static.nn.spectral_norm(paddle.static.data("w", [3, 2, 2, 2], "float32"), dim=1)
    assert _parameters(main) == {
        "spectral_norm_0.w_0": ([2], False),
        "spectral_norm_0.w_1": ([12], False),
    }


def test_depthwise_conv2d_transpose_named_as_paddlepaddle(programs) -> None:
    main, _ = programs
    img = paddle.static.data("img", [-1, 3, 4, 4], "float32")
    paddle.static.nn.conv2d_transpose(img, 3, filter_size=2, groups=3, use_cudnn=False)
    assert sorted(_parameters(main)) == [
        "depthwise_conv2d_transpose_0.b_0",
        "depthwise_conv2d_transpose_0.w_0",
    ]
    assert "pd_op.depthwise_conv2d_transpose" in [op.name for op in main.block.ops]


def test_conv_paddings_per_side_and_per_axis(programs) -> None:
    """Asymmetric per-side paddings, and a pair per input axis, give the shapes the
    convolution arithmetic says."""
    img = paddle.static.data("img", [-1, 2, 5, 5], "float32")
    vol = paddle.static.data("vol", [-1, 3, 3, 4, 4], "float32")
    out = paddle.static.nn.conv2d_transpose(img, 2, filter_size=3, padding=[0, 1, 1, 1])
    assert list(out.type.dims) == [-1, 2, 6, 5]
    pairs = [[0, 0], [0, 0], [1, 1], [0, 0], [2, 2]]
    out = paddle.static.nn.conv3d(vol, 4, 3, padding=pairs)
    assert list(out.type.dims) == [-1, 4, 3, 2, 6]
    out = paddle.static.nn.conv3d(vol, 4, 3, padding="SAME")
    assert list(out.type.dims) == [-1, 4, 3, 4, 4]


def test_row_conv_with_an_unknown_time_length(programs) -> None:
    """Steps past the end of each sequence count as zeros whatever its length (numpy
    reference)."""
    main, startup = programs
    seq = paddle.static.data("seq", [-1, -1, 3], "float32")
    out = paddle.static.nn.row_conv(seq, 2)
    scope = paddle.static.Scope()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup, scope=scope)
    weight = np.asarray(scope.find_var("row_conv_0.w_0"))
    for steps in (1, 4):
        x = cases.fixed_value([2, steps, 3], steps)
        (got,) = exe.run(main, feed={"seq": x}, fetch_list=[out], scope=scope)
        padded = np.concatenate([x, np.zeros((2, 2, 3), "float32")], axis=1)
        expected = sum(padded[:, j : j + steps] * weight[j] for j in range(3))
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda nn, i, v, x: nn.conv2d_transpose(i, 0, filter_size=3), "'num_filters'"),
        (lambda nn, i, v, x: nn.conv2d_transpose(i, 2), "conv2d_transpose(): 'output_size'"),
        (lambda nn, i, v, x: nn.conv2d_transpose(v, 2, filter_size=2), "must be 4-D"),
        (lambda nn, i, v, x: nn.conv2d_transpose(i, 3, filter_size=2, groups=2), "groups"),
        (lambda nn, i, v, x: nn.conv2d_transpose(i, 2, 3, 3, padding="FULL"), "'padding'"),
        (lambda nn, i, v, x: nn.conv3d(i, 2, 2), "conv3d(): argument 'input' must be 5-D"),
        (lambda nn, i, v, x: nn.conv3d(v, 2, [2, 2]), "conv3d(): argument 'filter_size'"),
        (lambda nn, i, v, x: nn.conv3d(v, 2, 2, data_format="NCHW"), "'data_format'"),
        (lambda nn, i, v, x: nn.conv3d(v, 2, 2, param_attr=False), "'param_attr' cannot"),
        (
            lambda nn, i, v, x: nn.conv3d(v, 2, 2, padding=[[1, 1]] * 5),
            "[0, 0] on the batch and channel axes",
        ),
        (lambda nn, i, v, x: nn.conv3d_transpose(v, 2, 2, stride=[1, 2]), "'stride'"),
        (lambda nn, i, v, x: nn.group_norm(i, 3), "divisible by groups"),
        (lambda nn, i, v, x: nn.group_norm(i, 2, data_layout="NCDHW"), "'data_layout'"),
        (
            lambda nn, i, v, x: nn.instance_norm(paddle.static.data("r", [4], "float32")),
            "instance_norm(): argument 'input' must",
        ),
        (lambda nn, i, v, x: nn.instance_norm(i, param_attr=False), "False together"),
        (lambda nn, i, v, x: nn.prelu(i, "row"), "prelu(): argument 'mode'"),
        (lambda nn, i, v, x: nn.prelu(i, "channel", data_format="CHW"), "'data_format'"),
        (lambda nn, i, v, x: nn.bilinear_tensor_product(x, i, 3), "must be 2-D"),
        (lambda nn, i, v, x: nn.bilinear_tensor_product(x, x, 0), "'size'"),
        (lambda nn, i, v, x: nn.spectral_norm(i, dim=2), "spectral_norm(): argument 'dim'"),
        (lambda nn, i, v, x: nn.spectral_norm(i, dim=0.0), "spectral_norm(): argument 'dim'"),
        (lambda nn, i, v, x: nn.spectral_norm(i, power_iters=0), "'power_iters'"),
        (lambda nn, i, v, x: nn.deform_conv2d(i, np.ones(3), None, 2, 2), "'offset' expects"),
        (lambda nn, i, v, x: nn.deform_conv2d(i, i, None, 2, 2, padding="SAME"), "'padding'"),
        (lambda nn, i, v, x: nn.row_conv(i, 1), "row_conv(): argument 'input' must be 3-D"),
        (
            lambda nn, i, v, x: nn.row_conv(paddle.static.data("s", [2, 5, 3], "float32"), -1),
            "'future_context_size'",
        ),
    ],
)
def test_bad_arguments(programs, call, message) -> None:
    img = paddle.static.data("img", [-1, 2, 4, 4], "float32")
    vol = paddle.static.data("vol", [-1, 2, 3, 4, 4], "float32")
    x = paddle.static.data("x", [-1, 4], "float32")
    escaped = message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")
    with pytest.raises(InvalidArgumentError, match=escaped.replace("]", r"\]")):
        call(paddle.static.nn, img, vol, x)


def test_integer_inputs_rejected(programs) -> None:
    ids = paddle.static.data("ids", [-1, 2, 4, 4], "int64")
    for layer in (
        lambda: paddle.static.nn.conv2d_transpose(ids, 2, filter_size=2),
        lambda: paddle.static.nn.group_norm(ids, 2),
        lambda: paddle.static.nn.prelu(ids, "all"),
        lambda: paddle.static.nn.spectral_norm(ids),
    ):
        with pytest.raises(InvalidArgumentError, match="must be float"):
            layer()


def test_output_size_as_a_value_is_unimplemented(programs) -> None:
    img = paddle.static.data("img", [-1, 2, 4, 4], "float32")
    size = paddle.static.data("size", [2], "int32")
    with pytest.raises(UnimplementedError, match="output_size"):
        paddle.static.nn.conv2d_transpose(img, 2, output_size=size, filter_size=2)


def test_needs_static_mode() -> None:
    paddle.disable_static()
    try:
        with pytest.raises(PreconditionNotMetError, match="prelu"):
            paddle.static.nn.prelu(paddle.ones([2, 3]), "all")
    finally:
        paddle.enable_static()
