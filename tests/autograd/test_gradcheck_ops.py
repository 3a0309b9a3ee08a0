"""Every differentiable op's gradients, through the autograd engine, against finite differences.

One table of first-order cases (``CASES``) and one of double-grad cases (``DOUBLE_CASES``); each
case names the ops it covers, and ``test_gradcheck_coverage.py`` fails when an op with a
``backward:`` (or a double grad) has no case.

Inputs stay away from the points where an op is not differentiable, since central differences
straddle them: no values near 0 for abs, sign, relu, leaky_relu; none near an integer for floor
and ceil; none near the bounds for clip; no ties for maximum, minimum, max and min; positive
values where log, sqrt, rsqrt, pow and elementwise_pow's exponent need them; divisors away from 0.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from phiops import codegen
import phiops.generated as phi
from phiops.codegen.model import SpecSet
from tests.autograd import cases_activation_shape
from tests.autograd.cases_base import Case, case, shape_label, uniform  # noqa: F401
from tests.autograd.cases_indexing import INDEXING_CASES
from tests.autograd.gradcheck import check_double_gradients, check_gradients

REPO = Path(__file__).resolve().parents[2]


@functools.cache
def op_specs() -> SpecSet:
    """The op specs the generated API was built from."""
    return codegen.load([REPO / "ops" / "api.yaml", REPO / "ops" / "backward.yaml"], base=REPO)


def positive(shape: Sequence[int], seed: int) -> np.ndarray:
    return uniform(shape, seed, 0.5, 2.0)


def away_from_zero(shape: Sequence[int], seed: int) -> np.ndarray:
    """Magnitudes in [0.5, 2], random signs."""
    rng = np.random.default_rng(seed)
    return rng.choice([-1.0, 1.0], size=tuple(shape)) * rng.uniform(0.5, 2.0, size=tuple(shape))


def off_integers(shape: Sequence[int], seed: int) -> np.ndarray:
    """Values at least 0.2 from every integer, for floor and ceil."""
    rng = np.random.default_rng(seed)
    return rng.integers(-3, 3, size=tuple(shape)) + rng.uniform(0.2, 0.8, size=tuple(shape))


def distinct(shape: Sequence[int], seed: int) -> np.ndarray:
    """All values at least 0.1 apart, so max and min have no ties."""
    size = int(np.prod(shape, dtype=int))
    rng = np.random.default_rng(seed)
    return (rng.permutation(size) * 0.1 - size * 0.05 + 0.01).reshape(tuple(shape))


def untied_pair(
    x_shape: Sequence[int], y_shape: Sequence[int], seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """x on odd, y on even multiples of 0.1: after broadcasting they differ by at least 0.1."""
    rng = np.random.default_rng(seed)
    x = rng.integers(-10, 10, size=tuple(x_shape)) * 0.2 + 0.1
    y = rng.integers(-10, 10, size=tuple(y_shape)) * 0.2
    return x, y


def clip_input(shape: Sequence[int], seed: int, low: float, high: float) -> np.ndarray:
    """Values below, inside and above [low, high], none within 0.1 of a bound."""
    rng = np.random.default_rng(seed)
    choices = np.array(
        [low - 0.6, low - 0.2, low + 0.2, (low + high) / 2, high - 0.2, high + 0.2, high + 0.7]
    )
    return rng.choice(choices, size=tuple(shape)) + rng.uniform(-0.05, 0.05, size=tuple(shape))


def exact_in_float32(shape: Sequence[int], seed: int) -> np.ndarray:
    """Multiples of 1/8: they and their +-2**-10 neighbours are exact in float32."""
    return np.random.default_rng(seed).integers(-16, 16, size=tuple(shape)) / 8.0


# -- first-order cases --------------------------------------------------------------------------

BROADCASTS = [
    ((2, 3), (2, 3)),
    ((3, 1), (1, 4)),
    ((), (2, 3)),
    ((2, 3), ()),
    ((4,), (2, 3, 4)),
    ((2, 3, 4), (4,)),
]


def binary_cases() -> list[Case]:
    cases = []
    for seed, (xs, ys) in enumerate(BROADCASTS):
        label = shape_label(xs, ys)
        cases += [
            case("add", label, phi.add, uniform(xs, seed), uniform(ys, seed + 100)),
            case("subtract", label, phi.subtract, uniform(xs, seed), uniform(ys, seed + 100)),
            case("multiply", label, phi.multiply, uniform(xs, seed), uniform(ys, seed + 100)),
            case("divide", label, phi.divide, uniform(xs, seed), away_from_zero(ys, seed + 100)),
            case("maximum", label, phi.maximum, *untied_pair(xs, ys, seed)),
            case("minimum", label, phi.minimum, *untied_pair(xs, ys, seed)),
            case("fmax", label, phi.fmax, *untied_pair(xs, ys, seed)),
            case("fmin", label, phi.fmin, *untied_pair(xs, ys, seed)),
            case(
                "elementwise_pow",
                label,
                phi.elementwise_pow,
                positive(xs, seed),
                uniform(ys, seed + 100),
            ),
        ]
    return cases


UNARY_SHAPES = [(2, 3), ()]


def unary_cases() -> list[Case]:
    cases = []
    for seed, shape in enumerate(UNARY_SHAPES):
        label = shape_label(shape)
        any_x = uniform(shape, seed)
        nonzero_x = away_from_zero(shape, seed)
        positive_x = positive(shape, seed)
        cases += [
            case("exp", label, phi.exp, any_x),
            case("log", label, phi.log, positive_x),
            case("sqrt", label, phi.sqrt, positive_x),
            case("rsqrt", label, phi.rsqrt, positive_x),
            case("square", label, phi.square, any_x),
            case("abs", label, phi.abs, nonzero_x),
            case("sign", label, phi.sign, nonzero_x),
            case("floor", label, phi.floor, off_integers(shape, seed)),
            case("ceil", label, phi.ceil, off_integers(shape, seed)),
            case("sin", label, phi.sin, any_x),
            case("cos", label, phi.cos, any_x),
            case("tanh", label, phi.tanh, any_x),
            case("sigmoid", label, phi.sigmoid, any_x),
            case("relu", label, phi.relu, nonzero_x),
            case("gelu", f"{label}-exact", lambda x: phi.gelu(x, approximate=False), any_x),
            case(
                "gelu",
                f"{label}-tanh_approximation",
                lambda x: phi.gelu(x, approximate=True),
                any_x,
            ),
            case("silu", label, phi.silu, any_x),
            # Inside (eps, 1 - eps), where logit is smooth: 0.1 to 0.9.
            case("logit", label, phi.logit, 0.1 + 0.8 * uniform(shape, seed, 0.0, 1.0)),
            case("leaky_relu", f"{label}-default_slope", phi.leaky_relu, nonzero_x),
            case("leaky_relu", f"{label}-slope_0.3", lambda x: phi.leaky_relu(x, 0.3), nonzero_x),
            case(
                "scale",
                f"{label}-bias_after_scale",
                lambda x: phi.scale(x, 2.5, 0.7, bias_after_scale=True),
                any_x,
            ),
            case(
                "scale",
                f"{label}-bias_before_scale",
                lambda x: phi.scale(x, -1.5, 0.7, bias_after_scale=False),
                any_x,
            ),
            case("pow", f"{label}-cube", lambda x: phi.pow(x, 3.0), any_x),
            case("pow", f"{label}-sqrt", lambda x: phi.pow(x, 0.5), positive_x),
            case("pow", f"{label}-negative_exponent", lambda x: phi.pow(x, -1.5), positive_x),
            case("cast", f"{label}-to_float64", lambda x: phi.cast(x, phi.float64), any_x),
            # float64 -> float32 loses nothing on these inputs, so the differences stay exact.
            case(
                "cast",
                f"{label}-to_float32",
                lambda x: phi.cast(x, phi.float32),
                exact_in_float32(shape, seed),
                eps=2.0**-10,
            ),
            case("assign", label, phi.assign, any_x),
            case(
                "clip", label, lambda x: phi.clip(x, -0.5, 0.8), clip_input(shape, seed, -0.5, 0.8)
            ),
        ]
    return cases


def where_cases() -> list[Case]:
    rng = np.random.default_rng(7)
    cond = rng.integers(0, 2, size=(2, 3)).astype(bool)
    return [
        case("where", "[2,3]x[2,3]x[2,3]", phi.where, cond, uniform((2, 3), 1), uniform((2, 3), 2)),
        case(
            "where",
            "condition[2,1]-x[1,3]-y[2,3]",
            phi.where,
            np.array([[True], [False]]),
            uniform((1, 3), 3),
            uniform((2, 3), 4),
        ),
        case("where", "condition[2,3]-x[]-y[3]", phi.where, cond, uniform((), 5), uniform((3,), 6)),
    ]


# The reductions over a [2,3,4] input: each axis, negative axes, several axes, and every axis
# (the empty axis list), each with keepdim False and True.
REDUCE_AXES = [(0,), (1,), (2,), (-1,), (-3,), (0, 2), (-1, 1), ()]

# op -> (the op called with axis and keepdim, the inputs it is checked on)
REDUCTIONS: dict[str, tuple[Callable[..., phi.Tensor], Callable[..., np.ndarray]]] = {
    "sum": (lambda x, axis, keepdim: phi.sum(x, axis, keepdim=keepdim), uniform),
    "mean": (lambda x, axis, keepdim: phi.mean(x, axis, keepdim=keepdim), uniform),
    "max": (lambda x, axis, keepdim: phi.max(x, axis, keepdim=keepdim), distinct),
    "min": (lambda x, axis, keepdim: phi.min(x, axis, keepdim=keepdim), distinct),
    "prod": (lambda x, axis, keepdim: phi.prod(x, axis, keepdim, False), away_from_zero),
}


def reduction_cases() -> list[Case]:
    shape = (2, 3, 4)
    cases = [
        case(
            op,
            f"{shape_label(shape)}-axis{shape_label(axis)}-keepdim_{keepdim}",
            functools.partial(reduce, axis=axis, keepdim=keepdim),
            sample(shape, seed),
        )
        for op, (reduce, sample) in REDUCTIONS.items()
        for seed, axis in enumerate(REDUCE_AXES)
        for keepdim in (False, True)
    ]
    scalar = uniform((), 11)
    cases += [
        case(
            "sum",
            "[2,3]-dtype_float64",
            lambda x: phi.sum(x, [1], phi.float64),
            uniform((2, 3), 12),
        ),
        case(
            "prod",
            "[2,3,4]-reduce_all",
            lambda x: phi.prod(x, [1], False, True),
            away_from_zero(shape, 13),
        ),
        case("sum", "[]", lambda x: phi.sum(x), scalar),
        case("mean", "[]", lambda x: phi.mean(x), scalar),
        case("max", "[]", lambda x: phi.max(x), scalar),
        case("min", "[]", lambda x: phi.min(x), scalar),
        case("prod", "[]", lambda x: phi.prod(x, [], False, True), scalar),
    ]
    return cases


MATMULS = [
    # (x shape, y shape, transpose_x, transpose_y)
    ((2, 3), (3, 4), False, False),
    ((3,), (3,), False, False),
    ((3,), (3, 4), False, False),
    ((2, 3), (3,), False, False),
    ((2, 2, 3), (3, 4), False, False),
    ((3,), (2, 3, 4), False, False),
    ((2, 1, 2, 3), (3, 3, 2), False, False),
    ((3, 2), (3, 4), True, False),
    ((2, 3), (4, 3), False, True),
    ((3, 2), (4, 3), True, True),
    ((2, 3, 2), (4, 3), True, True),
    ((3,), (4, 3), False, True),
]


def matmul_label(xs: Sequence[int], ys: Sequence[int], tx: bool, ty: bool) -> str:
    flags = "".join(flag for flag, on in (("-transpose_x", tx), ("-transpose_y", ty)) if on)
    return shape_label(xs, ys) + flags


def matmul_cases() -> list[Case]:
    return [
        case(
            "matmul",
            matmul_label(xs, ys, tx, ty),
            lambda x, y, tx=tx, ty=ty: phi.matmul(x, y, tx, ty),
            uniform(xs, seed),
            uniform(ys, seed + 100),
        )
        for seed, (xs, ys, tx, ty) in enumerate(MATMULS)
    ]


def manipulation_cases() -> list[Case]:
    x234 = uniform((2, 3, 4), 21)
    scalar = uniform((), 22)
    return [
        case("reshape", "[2,3,4]->[6,4]", lambda x: phi.reshape(x, [6, 4]), x234),
        case("reshape", "[2,3,4]->[0,-1]", lambda x: phi.reshape(x, [0, -1]), x234),
        case("reshape", "[2,3,4]->[24]", lambda x: phi.reshape(x, [24]), x234),
        case("reshape", "[]->[1,1]", lambda x: phi.reshape(x, [1, 1]), scalar),
        case("reshape", "[1]->[]", lambda x: phi.reshape(x, []), uniform((1,), 23)),
        case("transpose", "[2,3,4]-perm[2,0,1]", lambda x: phi.transpose(x, [2, 0, 1]), x234),
        case(
            "transpose", "[2,3]-perm[1,0]", lambda x: phi.transpose(x, [1, 0]), uniform((2, 3), 24)
        ),
        case("transpose", "[]-perm[]", lambda x: phi.transpose(x, []), scalar),
        case(
            "concat",
            "axis1",
            lambda a, b, c: phi.concat([a, b, c], 1),
            uniform((2, 1, 3), 25),
            uniform((2, 2, 3), 26),
            uniform((2, 3, 3), 27),
        ),
        case(
            "concat",
            "axis0",
            lambda a, b: phi.concat([a, b], 0),
            uniform((1, 3), 28),
            uniform((2, 3), 29),
        ),
        case(
            "concat",
            "axis-1",
            lambda a, b: phi.concat([a, b], -1),
            uniform((2, 2), 30),
            uniform((2, 3), 31),
        ),
        case(
            "split",
            "[4,3]-sections[1,3]-axis0",
            lambda x: phi.split(x, [1, 3], 0),
            uniform((4, 3), 32),
        ),
        case(
            "split",
            "[2,6]-sections[2,-1,1]-axis-1",
            lambda x: phi.split(x, [2, -1, 1], -1),
            uniform((2, 6), 33),
        ),
        case(
            "split",
            "[2,3,2]-sections[1,1,1]-axis1",
            lambda x: phi.split(x, [1, 1, 1], 1),
            uniform((2, 3, 2), 34),
        ),
        case("squeeze", "[2,1,3,1]-all", lambda x: phi.squeeze(x), uniform((2, 1, 3, 1), 35)),
        case(
            "squeeze", "[2,1,3,1]-axis[1]", lambda x: phi.squeeze(x, [1]), uniform((2, 1, 3, 1), 35)
        ),
        case(
            "squeeze",
            "[2,1,3,1]-axis[-1]",
            lambda x: phi.squeeze(x, [-1]),
            uniform((2, 1, 3, 1), 35),
        ),
        case(
            "squeeze",
            "[2,1,3,1]-axis[1,3]",
            lambda x: phi.squeeze(x, [1, 3]),
            uniform((2, 1, 3, 1), 35),
        ),
        case("squeeze", "[1]-all", lambda x: phi.squeeze(x), uniform((1,), 36)),
        case("unsqueeze", "[2,3]-axis[0]", lambda x: phi.unsqueeze(x, [0]), uniform((2, 3), 37)),
        case("unsqueeze", "[2,3]-axis[-1]", lambda x: phi.unsqueeze(x, [-1]), uniform((2, 3), 37)),
        case(
            "unsqueeze", "[2,3]-axis[0,2]", lambda x: phi.unsqueeze(x, [0, 2]), uniform((2, 3), 37)
        ),
        case("unsqueeze", "[]-axis[0]", lambda x: phi.unsqueeze(x, [0]), scalar),
        case("flatten", "[2,3,4]-1..2", lambda x: phi.flatten(x, 1, 2), x234),
        case("flatten", "[2,3,4]-0..-1", lambda x: phi.flatten(x, 0, -1), x234),
        case("flatten", "[2,3,4]-0..1", lambda x: phi.flatten(x, 0, 1), x234),
        case("flatten", "[]", lambda x: phi.flatten(x, 0, -1), scalar),
        case("expand", "[3,1]->[2,3,4]", lambda x: phi.expand(x, [2, 3, 4]), uniform((3, 1), 38)),
        case("expand", "[3,1]->[-1,4]", lambda x: phi.expand(x, [-1, 4]), uniform((3, 1), 38)),
        case("expand", "[1]->[3]", lambda x: phi.expand(x, [3]), uniform((1,), 39)),
        case("expand", "[]->[2,3]", lambda x: phi.expand(x, [2, 3]), scalar),
        case(
            "stack",
            "3x[2,3]-axis0",
            lambda a, b, c: phi.stack([a, b, c], 0),
            uniform((2, 3), 40),
            uniform((2, 3), 41),
            uniform((2, 3), 42),
        ),
        case(
            "stack",
            "2x[2,3]-axis1",
            lambda a, b: phi.stack([a, b], 1),
            uniform((2, 3), 43),
            uniform((2, 3), 44),
        ),
        case(
            "stack",
            "2x[2,3]-axis-1",
            lambda a, b: phi.stack([a, b], -1),
            uniform((2, 3), 45),
            uniform((2, 3), 46),
        ),
        case(
            "stack",
            "3x[]",
            lambda a, b, c: phi.stack([a, b, c]),
            uniform((), 47),
            uniform((), 48),
            uniform((), 49),
        ),
    ]


def softmax_cases() -> list[Case]:
    cases = []
    for axis in (-1, 0, 1):
        x = uniform((2, 3, 4), 50 + axis)
        cases += [
            case("softmax", f"[2,3,4]-axis{axis}", lambda x, a=axis: phi.softmax(x, a), x),
            case("log_softmax", f"[2,3,4]-axis{axis}", lambda x, a=axis: phi.log_softmax(x, a), x),
        ]
    x = uniform((5,), 55)
    cases += [
        case("softmax", "[5]-axis0", lambda x: phi.softmax(x, 0), x),
        case("log_softmax", "[5]-axis-1", lambda x: phi.log_softmax(x, -1), x),
    ]
    return cases


def cross_entropy_cases() -> list[Case]:
    """Only the loss output enters the projection: cross_entropy_with_softmax_grad takes the
    loss gradient alone (as in PaddlePaddle), so a gradient arriving at the softmax output is
    not propagated. A soft label is float but gets no gradient, hence ``grad_inputs=[0]``."""
    logits = uniform((3, 4), 100)
    hard = np.array([[1], [3], [0]], dtype=np.int64)
    soft = positive((3, 4), 101)
    soft /= soft.sum(-1, keepdims=True)
    op = "cross_entropy_with_softmax"
    return [
        case(
            op,
            "hard_label",
            lambda x, label: phi.cross_entropy_with_softmax(x, label)[1],
            logits,
            hard,
        ),
        case(
            op,
            "soft_label",
            lambda x, label: phi.cross_entropy_with_softmax(x, label, soft_label=True)[1],
            logits,
            soft,
            grad_inputs=[0],
        ),
        case(
            op,
            "ignore_index",
            lambda x, label: phi.cross_entropy_with_softmax(x, label, ignore_index=3)[1],
            logits,
            hard,
        ),
        case(
            op,
            "axis1",
            lambda x, label: phi.cross_entropy_with_softmax(x, label, axis=1)[1],
            uniform((3, 4, 2), 102),
            np.array([[[1, 0]], [[3, 2]], [[0, 1]]], dtype=np.int64),
        ),
        case(
            op,
            "without_softmax",
            lambda x, label: phi.cross_entropy_with_softmax(x, label, use_softmax=False)[1],
            uniform((3, 4), 103, 0.1, 1.0),
            hard,
        ),
    ]


def edge_cases() -> list[Case]:
    """Empty tensors (the gradients must still have the inputs' shapes), zeros in prod (smooth,
    but a gradient computed as out / x divides by zero), outputs that get no gradient, and one
    leaf passed as several inputs."""
    with_zeros = np.array([[0.0, 1.5, 2.0], [1.0, -0.5, 0.0], [0.0, 0.0, 3.0]])
    return [
        case("add", "[0,3]x[1,3]", phi.add, np.zeros((0, 3)), uniform((1, 3), 90)),
        case("sum", "[0,3]-axis[0]", lambda x: phi.sum(x, [0]), np.zeros((0, 3))),
        case("mean", "[0,3]-axis[1]", lambda x: phi.mean(x, [1]), np.zeros((0, 3))),
        case("matmul", "[2,0]x[0,3]", phi.matmul, np.zeros((2, 0)), np.zeros((0, 3))),
        case("reshape", "[0,3]->[3,0]", lambda x: phi.reshape(x, [3, 0]), np.zeros((0, 3))),
        case("softmax", "[0,3]", lambda x: phi.softmax(x, -1), np.zeros((0, 3))),
        case("prod", "zeros-axis[1]", lambda x: phi.prod(x, [1], False, False), with_zeros),
        case("prod", "zeros-axis[0]-keepdim", lambda x: phi.prod(x, [0], True, False), with_zeros),
        case("prod", "zeros-all", lambda x: phi.prod(x, [], False, True), with_zeros),
        case(
            "split",
            "only_second_output_used",
            lambda x: phi.split(x, [1, 3], 0)[1],
            uniform((4, 3), 91),
        ),
        case("concat", "same_leaf_twice", lambda x: phi.concat([x, x], 0), uniform((2, 3), 92)),
        case("stack", "same_leaf_twice", lambda x: phi.stack([x, x], 1), uniform((2, 3), 93)),
        case(
            ("where", "scale"),
            "same_leaf_in_both_branches",
            lambda c, x: phi.where(c, x, phi.scale(x, 2.0)),
            np.array([True, False, True]),
            uniform((3,), 94),
        ),
    ]


def composition_cases() -> list[Case]:
    """Several ops in one graph: gradients that meet at a shared input must add up."""
    return [
        case(
            ("multiply", "tanh", "add"),
            "shared_input",
            lambda x: phi.add(phi.multiply(x, x), phi.tanh(x)),
            uniform((2, 3), 60),
        ),
        case(
            ("matmul", "softmax", "mean"),
            "attention_like",
            lambda q, k: phi.mean(phi.softmax(phi.matmul(q, k, transpose_y=True), -1), [0]),
            uniform((3, 2), 61),
            uniform((4, 2), 62),
        ),
    ]


CASES: list[Case] = (
    binary_cases()
    + unary_cases()
    + where_cases()
    + reduction_cases()
    + matmul_cases()
    + manipulation_cases()
    + softmax_cases()
    + cross_entropy_cases()
    + edge_cases()
    + composition_cases()
    + cases_activation_shape.cases()
    + [Case(ops, label, fn, inputs, options) for ops, label, fn, inputs, options in INDEXING_CASES]
)

from tests.autograd.cases_conv_norm import CONV_NORM_CASES  # noqa: E402

CASES = CASES + CONV_NORM_CASES

from tests.autograd.cases_unary_math2 import UNARY_MATH2_CASES  # noqa: E402

CASES = CASES + UNARY_MATH2_CASES

from tests.autograd.test_rnn_gradcheck import RNN_CASES  # noqa: E402

CASES = CASES + RNN_CASES

from tests.autograd.cases_math3 import MATH3_CASES  # noqa: E402

CASES = CASES + MATH3_CASES

from tests.autograd.cases_linalg import LINALG_CASES  # noqa: E402

CASES = CASES + LINALG_CASES

from tests.autograd.cases_vision import VISION_CASES  # noqa: E402

CASES = CASES + VISION_CASES

from tests.autograd.cases_detect import DETECT_CASES  # noqa: E402

CASES = CASES + DETECT_CASES

from tests.autograd.cases_losscum import LOSSCUM_CASES  # noqa: E402

CASES = CASES + LOSSCUM_CASES

from tests.autograd.cases_fftspecial import FFTSPECIAL_CASES  # noqa: E402

CASES = CASES + FFTSPECIAL_CASES

from tests.autograd.cases_linalg2 import LINALG2_CASES  # noqa: E402

CASES = CASES + LINALG2_CASES

from tests.autograd.cases_normup import NORMUP_CASES  # noqa: E402

CASES = CASES + NORMUP_CASES


from tests.autograd.cases_nnmisc import NNMISC_CASES  # noqa: E402

CASES = CASES + NNMISC_CASES

from tests.autograd.cases_convpool import CONVPOOL_CASES  # noqa: E402

CASES = CASES + CONVPOOL_CASES

from tests.autograd.cases_linalg24 import LINALG24_CASES  # noqa: E402

CASES = CASES + LINALG24_CASES

from tests.autograd.cases_search24 import SEARCH24_CASES  # noqa: E402

CASES = CASES + SEARCH24_CASES

from tests.autograd.cases_detect24 import DETECT24_CASES  # noqa: E402

CASES = CASES + DETECT24_CASES

from tests.autograd.cases_dist30 import DIST30_CASES  # noqa: E402

CASES = CASES + DIST30_CASES

from tests.autograd.cases_graph24 import GRAPH24_CASES  # noqa: E402
from tests.autograd.cases_quant24 import QUANT24_CASES  # noqa: E402
from tests.autograd.cases_seq24 import SEQ24_CASES  # noqa: E402
from tests.autograd.cases_random24 import RANDOM24_CASES  # noqa: E402
from tests.autograd.cases_manip24 import MANIP24_CASES  # noqa: E402

CASES = CASES + MANIP24_CASES


CASES = CASES + RANDOM24_CASES


CASES = CASES + SEQ24_CASES

from tests.autograd.cases_interp24 import INTERP24_CASES  # noqa: E402

CASES = CASES + INTERP24_CASES


CASES = CASES + QUANT24_CASES

from tests.autograd.cases_view24 import VIEW24_CASES  # noqa: E402
from tests.autograd.cases_legacy24 import LEGACY24_CASES  # noqa: E402
from tests.autograd.cases_train24 import TRAIN24_CASES  # noqa: E402
from tests.autograd.cases_basic24 import BASIC24_CASES  # noqa: E402

CASES = CASES + BASIC24_CASES


CASES = CASES + TRAIN24_CASES


CASES = CASES + LEGACY24_CASES


CASES = CASES + VIEW24_CASES


CASES = CASES + GRAPH24_CASES

from tests.autograd.cases_lod24 import LOD24_CASES  # noqa: E402
from tests.autograd.cases_pool24 import POOL24_CASES  # noqa: E402
from tests.autograd.cases_misc24 import MISC24_CASES  # noqa: E402
from tests.autograd.cases_loss24b import LOSS24B_CASES  # noqa: E402
from tests.autograd.cases_nan24 import NAN24_CASES  # noqa: E402
from tests.autograd.cases_frame24 import FRAME24_CASES  # noqa: E402

CASES = CASES + FRAME24_CASES


CASES = CASES + NAN24_CASES


CASES = CASES + LOSS24B_CASES


CASES = CASES + MISC24_CASES


CASES = CASES + POOL24_CASES


CASES = CASES + LOD24_CASES

from tests.autograd.cases_rnnt24 import RNNT24_CASES  # noqa: E402
from tests.autograd.cases_lstm24 import LSTM24_CASES  # noqa: E402
from tests.autograd.cases_deform24 import DEFORM24_CASES  # noqa: E402

CASES = CASES + DEFORM24_CASES


CASES = CASES + LSTM24_CASES


CASES = CASES + RNNT24_CASES


from tests.autograd.cases_corr24 import CORR24_CASES  # noqa: E402

CASES = CASES + CORR24_CASES

from tests.autograd.cases_lodops24 import LODOPS24_CASES  # noqa: E402

CASES = CASES + LODOPS24_CASES


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case: Case) -> None:
    check_gradients(case.fn, list(case.inputs), **case.options)


# -- double-grad cases --------------------------------------------------------------------------

# relu's first gradient is out_grad * (out > 0): it does not depend on x away from 0, and
# relu_double_grad returns only the gradient for out_grad. allow_unused=True accepts the missing
# gradient for x (compared as zeros with the finite differences, which are zero too); the
# gradient for the upstream gradient is what checks relu_double_grad.
DOUBLE_CASES: list[Case] = [
    case("tanh", "[2,3]", phi.tanh, uniform((2, 3), 70)),
    case("tanh", "[]", phi.tanh, uniform((), 71)),
    case("sigmoid", "[2,3]", phi.sigmoid, uniform((2, 3), 72)),
    case("exp", "[2,3]", phi.exp, uniform((2, 3), 73)),
    case("square", "[2,3]", phi.square, uniform((2, 3), 74)),
    case("relu", "[2,3]", phi.relu, away_from_zero((2, 3), 75), allow_unused=True),
    case("multiply", "[2,3]x[2,3]", phi.multiply, uniform((2, 3), 76), uniform((2, 3), 77)),
    case("multiply", "[3,1]x[1,4]", phi.multiply, uniform((3, 1), 78), uniform((1, 4), 79)),
    case("multiply", "[]x[2,3]", phi.multiply, uniform((), 80), uniform((2, 3), 81)),
    case("matmul", "[2,3]x[3,4]", phi.matmul, uniform((2, 3), 82), uniform((3, 4), 83)),
    case("matmul", "[3]x[3,2]", phi.matmul, uniform((3,), 84), uniform((3, 2), 85)),
    case("matmul", "[2,2,3]x[3,2]", phi.matmul, uniform((2, 2, 3), 86), uniform((3, 2), 87)),
    case(
        "matmul",
        "[3,2]x[4,3]-transpose_x-transpose_y",
        lambda x, y: phi.matmul(x, y, True, True),
        uniform((3, 2), 88),
        uniform((4, 3), 89),
    ),
]

from tests.autograd.cases_grad2 import GRAD2_DOUBLE_CASES  # noqa: E402

DOUBLE_CASES = DOUBLE_CASES + GRAD2_DOUBLE_CASES

from tests.autograd.cases_dgrad24 import DGRAD24_DOUBLE_CASES  # noqa: E402

DOUBLE_CASES = DOUBLE_CASES + DGRAD24_DOUBLE_CASES

from tests.autograd.cases_invoke_double import INVOKE_DOUBLE_CASES  # noqa: E402

DOUBLE_CASES = DOUBLE_CASES + INVOKE_DOUBLE_CASES


@pytest.mark.parametrize("case", DOUBLE_CASES, ids=lambda c: c.id)
def test_double_gradient_matches_finite_differences(case: Case) -> None:
    check_double_gradients(case.fn, list(case.inputs), **case.options)


@pytest.mark.parametrize("case", DOUBLE_CASES, ids=lambda c: c.id)
def test_first_gradients_record_the_double_grad_op(case: Case) -> None:
    """The double-grad check above exercises the op's own double-grad op, not another path."""
    specs = op_specs()
    expected = {specs.backward_op(specs.op(op).backward).backward for op in case.ops}
    leaves = [phi.to_tensor(a, stop_gradient=False) for a in case.inputs]
    out = case.fn(*leaves)
    upstream = phi.to_tensor(np.ones(out.shape), stop_gradient=False)
    grads = phi.grad(out, leaves, grad_outputs=upstream, create_graph=True)
    # The engine keeps no public handle on a tensor's grad node; its name is the backward op's.
    recorded = {g._grad_node[0].name for g in grads if g._grad_node is not None}
    assert (
        expected <= recorded
    ), f"first gradients recorded {sorted(recorded)}, expected {sorted(expected)}"
