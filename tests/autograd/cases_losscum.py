"""Gradient-check cases of the losscum ops (issue 24), for CASES in test_gradcheck_ops.py, in
float64.

Labels, weights and priors are constants (PaddlePaddle's grads give the first input's gradient
only, but huber_loss's, which gives the label's too). bce_loss's probabilities stay inside
(0.05, 0.95), away from its clamped logs; huber_loss's residuals stay away from +-delta, where
its second derivative jumps; log_loss and hinge_loss have float32 kernels only, so their cases
cast and use a wider step; hinge_loss's margins stay away from 0.
"""

from __future__ import annotations

import numpy as np

import phiops._C_ops as C
import phiops.generated as phi
import phiops.nn.functional as F
from tests.autograd.test_gradcheck_ops import Case, case, uniform

FLOAT32_STEP = {"eps": 1e-3, "rtol": 2e-3, "atol": 2e-4}


def _t(array: np.ndarray, dtype: str | None = None) -> phi.Tensor:
    return phi.to_tensor(np.asarray(array, dtype))


def _in_float32(op, *constants: np.ndarray):
    def fn(x: phi.Tensor) -> phi.Tensor:
        out = op(phi.cast(x, phi.float32), *[_t(c, "float32") for c in constants])
        return phi.cast(out, phi.float64)

    return fn


def loss_cases() -> list[Case]:
    probabilities = uniform((2, 3), 1000, 0.05, 0.95)
    targets = uniform((2, 3), 1001, 0.0, 1.0)
    labels = np.array([[0.0, 1.0, -100.0], [1.0, 0.3, 1.0]])
    pos_weight = uniform((2, 3), 1002, 0.5, 2.0)
    kl_label = np.array([[0.3, 0.0, 0.7], [-1.0, 0.25, 0.05]])
    huber_input = np.array([[0.0, 2.0, 3.2], [-1.0, 0.5, 0.1]])
    huber_label = np.array([[0.5, 0.0, 3.0], [1.5, 1.0, -1.0]])
    class_weight = np.array([0.5, 1.0, 2.0])
    nll_label = np.array([2, -100, 0, 1])
    column = uniform((4, 1), 1003, 0.1, 0.9)
    column_label = np.array([[0.0], [1.0], [1.0], [0.0]])
    logits = np.array([[-0.4], [2.0], [-1.0], [0.5]])
    one_hot = np.eye(3)[[0, 2]]
    cases = [
        case("bce_loss", "[2,3]", lambda x: C.bce_loss(x, _t(targets)), probabilities),
        case("bce_loss", "[]", lambda x: C.bce_loss(x, _t(np.float64(0.3))), np.float64(0.6)),
        case(
            "bce_loss",
            "F.binary_cross_entropy-weight-mean",
            lambda x: F.binary_cross_entropy(x, _t(targets), _t(class_weight)),
            probabilities,
        ),
        case("mean_all", "[2,3]", C.mean_all, uniform((2, 3), 1004)),
        case("mean_all", "[]", C.mean_all, uniform((), 1005)),
    ]
    for normalize in (False, True):
        for weighted in (False, True):
            weight = _t(pos_weight) if weighted else None
            cases.append(
                case(
                    "sigmoid_cross_entropy_with_logits",
                    f"normalize={normalize}-pos_weight={weighted}",
                    lambda x, w=weight, n=normalize: C.sigmoid_cross_entropy_with_logits(
                        x, _t(labels), w, n, -100
                    ),
                    uniform((2, 3), 1006),
                )
            )
    for reduction in ("none", "mean", "sum", "batchmean"):
        for log_target in (False, True):
            cases.append(
                case(
                    "kldiv_loss",
                    f"{reduction}-log_target={log_target}",
                    lambda x, r=reduction, lt=log_target: C.kldiv_loss(x, _t(kl_label), r, lt),
                    uniform((2, 3), 1007, -3.0, 0.0),
                )
            )
    cases.append(
        case(
            "huber_loss",
            "[2,3]-both",
            lambda x, y: C.huber_loss(x, y, 1.0),
            huber_input,
            huber_label,
        )
    )
    cases.append(
        case(
            "huber_loss",
            "F.smooth_l1_loss-sum",
            lambda x: F.smooth_l1_loss(x, _t(huber_label), "sum", 0.7, False),
            huber_input,
        )
    )
    for reduction in ("none", "mean", "sum"):
        for weighted in (False, True):
            weight = _t(class_weight) if weighted else None
            cases.append(
                case(
                    "nll_loss",
                    f"[4,3]-{reduction}-weight={weighted}",
                    lambda x, w=weight, r=reduction: C.nll_loss(x, _t(nll_label), w, -100, r)[0],
                    uniform((4, 3), 1008),
                )
            )
        cases.append(
            case(
                "nll_loss",
                f"[2,3,2,2]-{reduction}",
                lambda x, r=reduction: C.nll_loss(
                    x,
                    _t(np.array([[[0, 1], [2, 1]], [[2, -100], [0, 0]]])),
                    _t(class_weight),
                    -100,
                    r,
                )[0],
                uniform((2, 3, 2, 2), 1009),
            )
        )
    cases += [
        case(
            "log_loss",
            "[4,1]-float32",
            _in_float32(lambda x, y: C.log_loss(x, y, 1e-4), column_label),
            column,
            **FLOAT32_STEP,
        ),
        case(
            "hinge_loss",
            "[4,1]-float32",
            _in_float32(C.hinge_loss, column_label),
            logits,
            **FLOAT32_STEP,
        ),
        case("label_smooth", "uniform", lambda x: C.label_smooth(x, None, 0.1), one_hot),
        case(
            "label_smooth",
            "prior",
            lambda x: C.label_smooth(x, _t(np.array([[0.2, 0.3, 0.5]])), 0.25),
            one_hot,
        ),
    ]
    for reduction in (0, 1, 2):
        cases.append(
            case(
                "identity_loss",
                f"reduction={reduction}",
                lambda x, r=reduction: C.identity_loss(x, r),
                uniform((2, 3), 1010),
            )
        )
    return cases


def _without_identity(out: phi.Tensor, exclusive: bool, reverse: bool) -> phi.Tensor:
    # an exclusive scan's first result is the dtype's lowest value, a constant whose size
    # overflows the check's weighted sums: left out
    if not exclusive:
        return out
    return out[:, :-1] if reverse else out[:, 1:]


def scan_cases() -> list[Case]:
    """logcumsumexp with every flag; cummax/cummin on distinct values (a tie's gradient goes to
    one index only, which finite differences cannot see)."""
    cases = []
    for exclusive in (False, True):
        for reverse in (False, True):
            cases.append(
                case(
                    "logcumsumexp",
                    f"[3,4]-axis=1-exclusive={exclusive}-reverse={reverse}",
                    lambda x, e=exclusive, r=reverse: _without_identity(
                        C.logcumsumexp(x, 1, False, e, r), e, r
                    ),
                    uniform((3, 4), 1020),
                )
            )
    cases.append(
        case(
            "logcumsumexp",
            "flatten",
            lambda x: C.logcumsumexp(x, 0, True, False, False),
            uniform((2, 3), 1021),
        )
    )
    cases.append(
        case(
            "logcumsumexp",
            "[]",
            lambda x: C.logcumsumexp(x, 0, False, False, False),
            uniform((), 1022),
        )
    )
    distinct = np.random.default_rng(1023).permutation(12).reshape(3, 4) * 0.37 - 2.0
    for op in ("cummax", "cummin"):
        for axis in (0, -1):
            cases.append(
                case(
                    op,
                    f"[3,4]-axis={axis}",
                    lambda x, o=op, a=axis: getattr(C, o)(x, a, phi.int64)[0],
                    distinct,
                )
            )
    return cases


LOSSCUM_CASES = loss_cases() + scan_cases()
