"""The initializers TruncatedNormal, Orthogonal, Dirac, Bilinear and Assign, ``calculate_gain``
and ``set_global_initializer`` give PaddlePaddle 3.3.1's parameters
(tests/data/init25/initializers.npz, from tests/tools/make_init25_fixtures.py) after the same
seed, eagerly and in a static program's startup; and name bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError
from tests.nn.init25_cases import SEED, cases

DATA = np.load(Path(__file__).resolve().parents[1] / "data" / "init25" / "initializers.npz")
I = paddle.nn.initializer
nn = paddle.nn
CASES = cases(paddle)


# the truncated normal's inverse CDF and the QR differ from PaddlePaddle's in the last bits only:
# the same draws, float rounding apart (float32 parameters)
TOLERANCE = {"tn": 2e-6, "orth": 2e-5}


@pytest.mark.parametrize("key", sorted(CASES))
def test_eager_parameters_equal_paddles(key: int) -> None:
    paddle.seed(SEED)
    weight = CASES[key]().weight
    expected = DATA[key]
    assert weight.shape == list(expected.shape) and weight.numpy().dtype == expected.dtype
    rtol = TOLERANCE.get(key.split("_")[0], 0)
    np.testing.assert_allclose(weight.numpy(), expected, rtol=rtol, atol=rtol)


def test_truncated_values_stay_in_the_bounds_and_orthogonal_rows_are_orthonormal() -> None:
    paddle.seed(3)
    weight = nn.Linear(40, 50, weight_attr=I.TruncatedNormal(0.0, 1.0, -0.5, 0.25)).weight.numpy()
    assert weight.min() >= -0.5 and weight.max() <= 0.25
    w = nn.Linear(5, 9, weight_attr=I.Orthogonal(gain=3.0)).weight.numpy()
    np.testing.assert_allclose(w @ w.T, 9.0 * np.eye(5), atol=1e-4)


@pytest.mark.parametrize("key, init", [("static_tn", "tn"), ("static_orth", "orth")])
def test_static_startup_parameters_equal_paddles(key: str, init: str) -> None:
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        made = I.TruncatedNormal(std=0.3) if init == "tn" else I.Orthogonal()
        with paddle.static.program_guard(main, startup):
            weight = paddle.static.create_parameter([4, 5], "float32", default_initializer=made)
        paddle.seed(SEED)
        exe = paddle.static.Executor()
        exe.run(startup)
        (got,) = exe.run(main, fetch_list=[weight])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(got, DATA[key], rtol=TOLERANCE[init], atol=TOLERANCE[init])


def test_calculate_gain_equals_paddles() -> None:
    names = [key[len("gain_") :] for key in DATA.files if key.startswith("gain_")]
    assert len(names) == 16
    for name in names:
        if name == "leaky_relu_0.2":
            assert I.calculate_gain("leaky_relu", 0.2) == DATA[f"gain_{name}"]
        else:
            assert I.calculate_gain(name) == DATA[f"gain_{name}"], name


def test_set_global_initializer_replaces_the_defaults_but_not_a_param_attr() -> None:
    I.set_global_initializer(I.Constant(0.5), I.Constant(0.25))
    try:
        layer = nn.Linear(2, 3)
        np.testing.assert_array_equal(layer.weight.numpy(), DATA["global_w"])
        np.testing.assert_array_equal(layer.bias.numpy(), DATA["global_b"])
        attr = nn.Linear(2, 3, weight_attr=I.Constant(2.0)).weight.numpy()
        np.testing.assert_array_equal(attr, DATA["global_attr_w"])
    finally:
        I.set_global_initializer(None)
    assert not np.all(nn.Linear(2, 3).weight.numpy() == 0.5)  # taken back


def test_half_parameters_are_computed_in_float32_and_cast() -> None:
    paddle.seed(SEED)
    # PaddlePaddle 3.3.1 has no float16 truncated_gaussian_random on CPU; phiops draws float32
    # (PaddlePaddle's numbers, as for tn_linear) and casts, as PaddlePaddle's GPU path does
    half = paddle.create_parameter(
        [5, 7], "float16", default_initializer=I.TruncatedNormal(0.1, 0.5, -0.5, 1.0)
    )
    assert half.dtype == paddle.float16
    np.testing.assert_array_equal(half.numpy(), DATA["tn_linear"].astype(np.float16))


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: I.TruncatedNormal(std=-1.0), "TruncatedNormal\\(\\): argument 'std' must be >= 0"),
        (lambda: I.TruncatedNormal(mean="0"), "TruncatedNormal\\(\\): argument 'mean' expects"),
        (lambda: I.Dirac(groups=0), "Dirac\\(\\): argument 'groups' must be a positive int"),
        (lambda: I.Assign("abc"), "Assign\\(\\): argument 'value' expects"),
        (lambda: I.Assign(np.array(["a"])), "Assign\\(\\): argument 'value' must hold numbers"),
        (lambda: I.Orthogonal(gain=None), "Orthogonal\\(\\): argument 'gain' expects a number"),
        (lambda: I.calculate_gain("softmax"), "calculate_gain\\(\\): nonlinearity 'softmax'"),
        (lambda: I.set_global_initializer("xavier"), "argument 'weight_init' expects"),
        (lambda: nn.Linear(2, 3, weight_attr=I.Assign([1, 2])), "Assign\\(\\): the value has"),
        (lambda: nn.Linear(2, 3, weight_attr=I.Dirac()), "Dirac\\(\\): the parameter must have"),
        (lambda: nn.Linear(2, 3, weight_attr=I.Bilinear()), "Bilinear\\(\\): the parameter"),
        (
            lambda: paddle.create_parameter([4], "float32", default_initializer=I.Orthogonal()),
            "Orthogonal\\(\\): the parameter",
        ),
    ],
)
def test_bad_input_is_named(make, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        make()
