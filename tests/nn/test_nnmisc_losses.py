"""The losses of runtime/nn/losses2.py (l1_loss, margin_ranking_loss, triplet_margin_loss, ...,
and their layers) against PaddlePaddle 3.3.1's results and input gradients, recorded by
tests/tools/make_nnmisc_fixtures.py from the same case table (tests/tools/nnmisc_cases.py); one
static-program case per function; bad arguments."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError
from tests.tools.nnmisc_cases import cases, inputs

DATA = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "nnmisc" / "paddle_3_3_1.json").read_text()
)
ARRAYS = inputs()
FUNCTIONS, LAYERS = cases(paddle)
F = paddle.nn.functional


def run(fn: Any, names: list[str], n_grad: int) -> dict:
    tensors = []
    for index, name in enumerate(names):
        t = paddle.to_tensor(ARRAYS[name])
        t.stop_gradient = index >= n_grad
        tensors.append(t)
    out = fn(*tensors)
    if n_grad:
        weights = paddle.to_tensor(
            np.linspace(0.5, 1.5, max(out.size, 1)).astype(out.numpy().dtype).reshape(out.shape)
        )
        (out * weights).sum().backward()
    return {
        "out": out.numpy(),
        "shape": list(out.shape),
        "dtype": str(out.dtype).split(".")[-1],
        "grads": [t.grad.numpy() for t in tensors[:n_grad]],
    }


def check(got: dict, recorded: dict) -> None:
    assert got["shape"] == recorded["shape"]
    assert got["dtype"] == recorded["dtype"]
    np.testing.assert_allclose(got["out"], np.array(recorded["out"]), rtol=2e-5, atol=2e-6)
    assert len(got["grads"]) == len(recorded["grads"])
    for grad, expected in zip(got["grads"], recorded["grads"]):
        np.testing.assert_allclose(grad, np.array(expected), rtol=2e-5, atol=2e-6)


def test_the_inputs_are_the_recorded_ones() -> None:
    for name, array in ARRAYS.items():
        np.testing.assert_array_equal(array, np.array(DATA["inputs"][name], array.dtype))


def test_every_case_was_recorded() -> None:
    assert set(FUNCTIONS) == set(DATA["functions"])
    assert set(LAYERS) == set(DATA["layers"])


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_function_matches_paddle(name: str) -> None:
    check(run(*FUNCTIONS[name]), DATA["functions"][name])


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer_matches_paddle(name: str) -> None:
    make, names, n_grad = LAYERS[name]
    check(run(make(), names, n_grad), DATA["layers"][name])


def test_l1_loss_is_the_mean_absolute_difference() -> None:
    a, b = ARRAYS["A"], ARRAYS["B"]
    out = F.l1_loss(paddle.to_tensor(a), paddle.to_tensor(b))
    np.testing.assert_allclose(out.numpy(), np.abs(a - b).mean(), rtol=1e-6)


def test_gaussian_nll_loss_gives_variance_no_gradient_as_paddle() -> None:
    a, b, v = (paddle.to_tensor(ARRAYS[n]) for n in ("A", "B", "POS"))
    v.stop_gradient = False
    a.stop_gradient = False
    F.gaussian_nll_loss(a, b, v).backward()
    assert v.grad is None and a.grad is not None


def test_triplet_layer_passes_its_distance_function_on() -> None:
    # PaddlePaddle 3.3.1's layer drops it (always the 2-norm); phiops uses it, as documented
    a, b, c = (paddle.to_tensor(ARRAYS[n]) for n in ("A", "B", "C"))
    manhattan = lambda x, y: paddle.abs(x - y).sum(axis=-1)  # noqa: E731
    layer = paddle.nn.TripletMarginWithDistanceLoss(manhattan, margin=3.0, reduction="none")
    expected = np.maximum(
        np.abs(ARRAYS["A"] - ARRAYS["B"]).sum(-1) - np.abs(ARRAYS["A"] - ARRAYS["C"]).sum(-1) + 3,
        0,
    )
    np.testing.assert_allclose(layer(a, b, c).numpy(), expected, rtol=1e-5, atol=1e-6)


SIGNATURES = {
    "l1_loss": "(input, label, reduction='mean', name=None)",
    "square_error_cost": "(input, label)",
    "margin_ranking_loss": "(input, other, label, margin=0.0, reduction='mean', name=None)",
    "soft_margin_loss": "(input, label, reduction='mean', name=None)",
    "multi_label_soft_margin_loss": "(input, label, weight=None, reduction='mean', name=None)",
    "cosine_embedding_loss": "(input1, input2, label, margin=0, reduction='mean', name=None)",
    "triplet_margin_loss": (
        "(input, positive, negative, margin=1.0, p=2, epsilon=1e-06, swap=False, "
        "reduction='mean', name=None)"
    ),
    "triplet_margin_with_distance_loss": (
        "(input, positive, negative, distance_function=None, margin=1.0, swap=False, "
        "reduction='mean', name=None)"
    ),
    "multi_margin_loss": (
        "(input, label, p=1, margin=1.0, weight=None, reduction='mean', name=None)"
    ),
    "poisson_nll_loss": (
        "(input, label, log_input=True, full=False, epsilon=1e-08, reduction='mean', name=None)"
    ),
    "gaussian_nll_loss": (
        "(input, label, variance, full=False, epsilon=1e-06, reduction='mean', name=None)"
    ),
    "sigmoid_focal_loss": (
        "(logit, label, normalizer=None, alpha=0.25, gamma=2.0, reduction='sum', name=None)"
    ),
    "dice_loss": "(input, label, epsilon=1e-05, name=None)",
    "npair_loss": "(anchor, positive, labels, l2_reg=0.002)",
    "ctc_loss": (
        "(log_probs, labels, input_lengths, label_lengths, blank=0, reduction='mean', "
        "norm_by_times=False, zero_infinity=False)"
    ),
}


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_signature_is_paddles(name: str) -> None:
    signature = inspect.signature(getattr(F, name))
    plain = signature.replace(
        parameters=[
            p.replace(annotation=inspect.Parameter.empty) for p in signature.parameters.values()
        ],
        return_annotation=inspect.Signature.empty,
    )
    assert str(plain) == SIGNATURES[name]


# one static-program case per function: the same call built into a program, run by the executor
STATIC = [
    "l1_loss",
    "square_error_cost",
    "margin_ranking",
    "soft_margin",
    "multi_label_soft_margin",
    "cosine_embedding",
    "triplet_margin",
    "triplet_distance",
    "multi_margin",
    "poisson_nll_full",
    "sigmoid_focal",
    "dice",
    "npair",
    "ctc_loss",
]


@pytest.mark.parametrize("name", STATIC)
def test_function_builds_into_a_static_program(name: str) -> None:
    fn, names, _ = FUNCTIONS[name]
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            feeds = [
                paddle.static.data(n, list(ARRAYS[n].shape), str(ARRAYS[n].dtype)) for n in names
            ]
            out = fn(*feeds)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        (got,) = exe.run(main, feed={n: ARRAYS[n] for n in names}, fetch_list=[out])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(got, np.array(DATA["functions"][name]["out"]), rtol=2e-5, atol=2e-6)


A = paddle.to_tensor(ARRAYS["A"])
B = paddle.to_tensor(ARRAYS["B"])


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: F.l1_loss(A, B, reduction="avg"), "l1_loss: argument 'reduction'"),
        (lambda: paddle.nn.L1Loss("max"), "L1Loss: argument 'reduction'"),
        (lambda: F.soft_margin_loss(A, B[:2]), "soft_margin_loss: arguments 'input' and 'label'"),
        (
            lambda: F.cosine_embedding_loss(A, B, B),
            "cosine_embedding_loss: argument 'label' must be 1-D",
        ),
        (lambda: paddle.nn.CosineEmbeddingLoss(2.0), "'margin' must be in \\[-1, 1\\]"),
        (lambda: F.triplet_margin_loss(A, B, B, margin=-1.0), "'margin' must be >= 0"),
        (lambda: F.triplet_margin_loss(A, B, B[:2]), "must have the same shape"),
        (
            lambda: F.triplet_margin_with_distance_loss(
                A, B, B, distance_function=lambda x, y: x - y
            ),
            "negative distance",
        ),
        (
            lambda: F.multi_margin_loss(A, paddle.to_tensor(ARRAYS["CLASS"][:2])),
            "label's shape\\[0\\] must equal",
        ),
        (lambda: F.multi_margin_loss(A[0], A[0]), "'input' must be 2-D"),
        (lambda: F.poisson_nll_loss(A, B, epsilon=0.0), "'epsilon' must be > 0"),
        (lambda: F.gaussian_nll_loss(A, B, B[:, :2]), "'variance' has shape"),
        (lambda: F.gaussian_nll_loss(A, B, B), "'variance' has negative entries"),
        (lambda: F.dice_loss(A, B), "'label' must be int32 or int64"),
        (
            lambda: F.sigmoid_focal_loss(A, B, normalizer=A),
            "'normalizer' must have 0 or 1 dimensions",
        ),
        (lambda: F.npair_loss(A[:0], B, B[:, 0]), "'anchor' must not be empty"),
    ],
)
def test_bad_arguments_name_the_function_and_argument(call: Any, match: str) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        call()
