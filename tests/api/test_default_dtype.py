"""paddle.set_default_dtype / get_default_dtype against PaddlePaddle 3.3.1's recorded result dtypes
(tests/tools/make_default_dtype_fixtures.py wrote tests/data/default_dtype/dtypes.json)."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import phiops as paddle
from tests.tools.default_dtype_cases import CASES, DEFAULTS, dtype_name

RECORD = json.loads(
    (pathlib.Path(__file__).resolve().parents[1] / "data/default_dtype/dtypes.json").read_text()
)


@pytest.fixture(autouse=True)
def restore_default_dtype():
    yield
    paddle.set_default_dtype("float32")


def test_the_default_starts_as_float32():
    assert paddle.get_default_dtype() == "float32"


@pytest.mark.parametrize(
    "given, name",
    [
        ("float64", "float64"),
        ("bfloat16", "bfloat16"),
        (np.float16, "float16"),
        (np.dtype("float64"), "float64"),
        (paddle.float64, "float64"),
        (paddle.bfloat16, "bfloat16"),
    ],
)
def test_set_default_dtype_accepts_floating_spellings(given, name):
    paddle.set_default_dtype(given)
    assert paddle.get_default_dtype() == name


@pytest.mark.parametrize("bad", ["int32", "foo", np.int32, paddle.int64, 3])
def test_set_default_dtype_refuses_other_dtypes_with_type_error(bad):
    with pytest.raises(TypeError, match="set_default_dtype only supports"):
        paddle.set_default_dtype(bad)
    assert paddle.get_default_dtype() == "float32"


@pytest.mark.parametrize("default", DEFAULTS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_result_dtype_follows_the_default_as_paddle(case, default):
    expected = RECORD[case][default]
    if expected.startswith("error:"):
        pytest.skip(f"PaddlePaddle 3.3.1 has no {default} kernel for {case}")
    paddle.set_default_dtype(default)
    assert dtype_name(CASES[case](paddle)) == expected


def test_linear_and_conv_train_in_float64_by_default_dtype():
    paddle.set_default_dtype("float64")
    paddle.seed(0)
    conv = paddle.nn.Conv2D(1, 2, 3)
    linear = paddle.nn.Linear(8, 1)
    parameters = conv.parameters() + linear.parameters()
    optimizer = paddle.optimizer.Adam(learning_rate=0.01, parameters=parameters)
    x = paddle.rand([4, 1, 4, 4])
    target = paddle.rand([4, 1])
    losses = []
    for _ in range(5):
        loss = ((linear(conv(x).reshape([4, 8])) - target) ** 2).mean()
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(float(loss))
    assert loss.dtype == paddle.float64
    assert all(str(p.dtype).endswith("float64") for p in parameters)
    assert losses[-1] < losses[0]


def test_explicit_dtype_wins_over_the_default():
    paddle.set_default_dtype("float64")
    assert str(paddle.zeros([2], "float32").dtype).endswith("float32")
    assert str(paddle.to_tensor([1.0], dtype="float32").dtype).endswith("float32")


def test_paddle_framework_has_the_same_functions():
    assert paddle.framework.set_default_dtype is paddle.set_default_dtype
    assert paddle.framework.get_default_dtype is paddle.get_default_dtype
    paddle.framework.set_default_dtype("float64")
    assert paddle.get_default_dtype() == "float64"


@pytest.mark.parametrize(
    "call",
    [
        lambda p: p.zeros(size=[2]),
        lambda p: p.zeros([2], None),
        lambda p: p.zeros([2], dtype=None),
        lambda p: p.uniform([2], min=-1.0),
        lambda p: p.linspace(0, 1, num=3),
        lambda p: p.rand([2], requires_grad=True),
    ],
)
def test_creation_keyword_spellings_follow_the_default(call):
    paddle.set_default_dtype("float64")
    assert dtype_name(call(paddle)) == "float64"


def test_layer_create_parameter_reads_the_default_when_called():
    # PaddlePaddle 3.3.1: a Linear made under float64 keeps float64 weights and _dtype, while
    # create_parameter without a dtype takes the default in force when it is called
    paddle.set_default_dtype("float64")
    linear = paddle.nn.Linear(2, 2)
    paddle.set_default_dtype("float32")
    assert dtype_name(linear.weight) == "float64"
    assert linear._dtype == "float64"
    assert dtype_name(linear.create_parameter([2])) == "float32"


def test_optimizer_accumulators_follow_float64_parameters():
    paddle.set_default_dtype("float64")
    linear = paddle.nn.Linear(2, 1)
    optimizer = paddle.optimizer.Adam(parameters=linear.parameters())
    linear(paddle.ones([1, 2])).sum().backward()
    optimizer.step()
    states = [v for v in optimizer.state_dict().values() if hasattr(v, "dtype")]
    assert states and all(dtype_name(v) == "float64" for v in states)
