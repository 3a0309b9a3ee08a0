"""The cases of tests/tools/make_nnmisc_fixtures.py (run on PaddlePaddle 3.3.1) and
tests/nn/test_nnmisc_losses.py (run on phiops): the losses of runtime/nn/losses2.py, written once
against ``paddle``'s API, which both pass in (``import phiops as paddle`` runs it unchanged).

Each case is (call, inputs, n_grad): the call takes the inputs as tensors; the first ``n_grad``
inputs take gradients (recorded and compared)."""

from __future__ import annotations

from typing import Any

import numpy as np

# the weights and inputs of the nn.utils cases (tests/nn/test_nnmisc_utils.py uses the same)
W34 = np.linspace(-1.0, 1.2, 12).astype(np.float32).reshape(3, 4)
B4 = np.array([0.1, -0.2, 0.3, 0.0], np.float32)
X23 = np.array([[0.5, -1.0, 2.0], [1.5, 0.2, -0.7]], np.float32)
WCONV = np.sin(np.arange(3 * 2 * 2 * 2)).astype(np.float32).reshape(3, 2, 2, 2)
XCONV = np.cos(np.arange(1 * 2 * 3 * 3)).astype(np.float32).reshape(1, 2, 3, 3)
U4 = np.array([0.3, -0.5, 0.6, 0.2], np.float32)
V3 = np.array([0.7, 0.1, -0.4], np.float32)
U3 = np.array([0.2, 0.9, -0.1], np.float32)
V8 = np.linspace(-0.5, 0.6, 8).astype(np.float32)
G1 = np.linspace(-2.0, 3.0, 12).astype(np.float32).reshape(3, 4)
G2 = np.array([0.5, 0.0, -4.0, 1.0, 2.0], np.float32)
# Model.prepare(amp_configs=...) (tests/amp/test_model_amp.py): a Linear(4, 3) trained one step
AMP_W = np.linspace(-1.0, 1.0, 12).astype(np.float32).reshape(4, 3)
AMP_X = np.linspace(-1.0, 1.0, 8).astype(np.float32).reshape(2, 4)
AMP_Y = np.array([[0], [2]], np.int64)
AMP_CONFIGS = {"level": "O1", "init_loss_scaling": 128.0, "custom_white_list": ["matmul"]}


def inputs() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(2026)
    return {
        "A": rng.standard_normal((4, 5)).astype(np.float32),
        "B": rng.standard_normal((4, 5)).astype(np.float32),
        "C": rng.standard_normal((4, 5)).astype(np.float32),
        "Y01": (rng.random((4, 5)) > 0.5).astype(np.float32),
        "SIGN": np.array([1.0, -1.0, 1.0, -1.0], np.float32),
        "SIGN2D": np.where(rng.random((4, 5)) > 0.5, 1.0, -1.0).astype(np.float32),
        "CLASS": np.array([0, 3, 1, 4], np.int64),
        "POS": (rng.random((4, 5)) * 2 + 0.1).astype(np.float32),
        "COUNT": rng.integers(0, 5, (4, 5)).astype(np.float32),
        "W5": np.linspace(0.5, 1.5, 5).astype(np.float32),
        "PROB": rng.dirichlet(np.ones(3), (2, 4)).astype(np.float32),
        "DICE_LABEL": rng.integers(0, 3, (2, 4, 1)).astype(np.int64),
        "NORMALIZER": np.array([3.0], np.float32),
        "A64": rng.standard_normal((4, 5)),
        "B64": rng.standard_normal((4, 5)),
        "CTC_X": rng.standard_normal((6, 3, 5)).astype(np.float32),
        "CTC_X64": rng.standard_normal((6, 3, 5)),
        "CTC_LABEL": np.array([[1, 2, 2], [3, 1, 0], [4, 0, 0]], np.int32),
        "CTC_LABEL_B4": np.array([[1, 2, 2], [3, 1, 0], [0, 0, 0]], np.int32),
        "CTC_IN_LEN": np.array([6, 5, 3], np.int64),
        "CTC_LABEL_LEN": np.array([3, 2, 1], np.int64),
    }


def cases(paddle: Any) -> tuple[dict, dict]:
    """({function case: (call, input names, n_grad)}, {layer case: (make, input names, n_grad)})."""
    F = paddle.nn.functional
    nn = paddle.nn

    def manhattan(x: Any, y: Any) -> Any:
        return paddle.abs(x - y).sum(axis=-1)

    FUNCTIONS = {
        "l1_loss": (lambda a, b: F.l1_loss(a, b), ["A", "B"], 2),
        "l1_loss_sum": (lambda a, b: F.l1_loss(a, b, reduction="sum"), ["A", "B"], 2),
        "l1_loss_none": (lambda a, b: F.l1_loss(a, b, reduction="none"), ["A", "B"], 2),
        "l1_loss_f64": (lambda a, b: F.l1_loss(a, b), ["A64", "B64"], 2),
        "square_error_cost": (lambda a, b: F.square_error_cost(a, b), ["A", "B"], 2),
        "margin_ranking": (
            lambda a, b, s: F.margin_ranking_loss(a, b, s, margin=0.3),
            ["A", "B", "SIGN2D"],
            2,
        ),
        "margin_ranking_none": (
            lambda a, b, s: F.margin_ranking_loss(a, b, s, reduction="none"),
            ["A", "B", "SIGN2D"],
            2,
        ),
        "soft_margin": (lambda a, s: F.soft_margin_loss(a, s), ["A", "SIGN2D"], 1),
        "soft_margin_sum": (
            lambda a, s: F.soft_margin_loss(a, s, reduction="sum"),
            ["A", "SIGN2D"],
            1,
        ),
        "multi_label_soft_margin": (
            lambda a, y: F.multi_label_soft_margin_loss(a, y),
            ["A", "Y01"],
            1,
        ),
        "multi_label_soft_margin_weight": (
            lambda a, y, w: F.multi_label_soft_margin_loss(a, y, weight=w, reduction="none"),
            ["A", "Y01", "W5"],
            1,
        ),
        "cosine_embedding": (
            lambda a, b, s: F.cosine_embedding_loss(a, b, s, margin=0.2),
            ["A", "B", "SIGN"],
            2,
        ),
        "cosine_embedding_sum": (
            lambda a, b, s: F.cosine_embedding_loss(a, b, s, reduction="sum"),
            ["A", "B", "SIGN"],
            2,
        ),
        "triplet_margin": (lambda a, b, c: F.triplet_margin_loss(a, b, c), ["A", "B", "C"], 3),
        "triplet_margin_p1_swap": (
            lambda a, b, c: F.triplet_margin_loss(a, b, c, margin=2.0, p=1, swap=True),
            ["A", "B", "C"],
            3,
        ),
        "triplet_margin_none": (
            lambda a, b, c: F.triplet_margin_loss(a, b, c, reduction="none", epsilon=0.0),
            ["A", "B", "C"],
            3,
        ),
        "triplet_distance": (
            lambda a, b, c: F.triplet_margin_with_distance_loss(a, b, c),
            ["A", "B", "C"],
            3,
        ),
        "triplet_distance_custom": (
            lambda a, b, c: F.triplet_margin_with_distance_loss(
                a, b, c, distance_function=manhattan, margin=3.0, swap=True, reduction="sum"
            ),
            ["A", "B", "C"],
            3,
        ),
        "multi_margin": (lambda a, y: F.multi_margin_loss(a, y), ["A", "CLASS"], 1),
        "multi_margin_p2": (
            lambda a, y: F.multi_margin_loss(a, y, p=2, margin=0.5, reduction="none"),
            ["A", "CLASS"],
            1,
        ),
        "multi_margin_weight": (
            lambda a, y, w: F.multi_margin_loss(a, y, weight=w, reduction="sum"),
            ["A", "CLASS", "W5"],
            1,
        ),
        "poisson_nll": (lambda a, n: F.poisson_nll_loss(a, n), ["A", "COUNT"], 1),
        "poisson_nll_full": (
            lambda p, n: F.poisson_nll_loss(p, n, log_input=False, full=True, reduction="sum"),
            ["POS", "COUNT"],
            1,
        ),
        "gaussian_nll": (lambda a, b, v: F.gaussian_nll_loss(a, b, v), ["A", "B", "POS"], 2),
        "gaussian_nll_full": (
            lambda a, b, v: F.gaussian_nll_loss(a, b, v[:, :1], full=True, reduction="none"),
            ["A", "B", "POS"],
            2,
        ),
        "sigmoid_focal": (lambda a, y: F.sigmoid_focal_loss(a, y), ["A", "Y01"], 1),
        "sigmoid_focal_norm": (
            lambda a, y, n: F.sigmoid_focal_loss(
                a, y, normalizer=n, alpha=0.4, gamma=1.5, reduction="mean"
            ),
            ["A", "Y01", "NORMALIZER"],
            1,
        ),
        "dice": (lambda p, y: F.dice_loss(p, y), ["PROB", "DICE_LABEL"], 1),
        "npair": (lambda a, b, y: F.npair_loss(a, b, y), ["A", "B", "CLASS"], 2),
        "log_loss": (lambda p, y: F.log_loss(p[:, :1], y[:, :1]), ["POS", "Y01"], 0),
        "ctc_loss": (
            lambda x, y, t, n: F.ctc_loss(x, y, t, n),
            ["CTC_X", "CTC_LABEL", "CTC_IN_LEN", "CTC_LABEL_LEN"],
            1,
        ),
        "ctc_loss_log_probs_sum": (
            lambda x, y, t, n: F.ctc_loss(F.log_softmax(x, axis=-1), y, t, n, reduction="sum"),
            ["CTC_X", "CTC_LABEL", "CTC_IN_LEN", "CTC_LABEL_LEN"],
            1,
        ),
        "ctc_loss_f64_none_norm": (
            lambda x, y, t, n: F.ctc_loss(x, y, t, n, reduction="none", norm_by_times=True),
            ["CTC_X64", "CTC_LABEL", "CTC_IN_LEN", "CTC_LABEL_LEN"],
            1,
        ),
        "ctc_loss_blank_last": (
            lambda x, y, t, n: F.ctc_loss(x, y, t, n, blank=4, zero_infinity=True),
            ["CTC_X", "CTC_LABEL_B4", "CTC_IN_LEN", "CTC_LABEL_LEN"],
            1,
        ),
    }

    LAYERS = {
        "L1Loss": (lambda: nn.L1Loss(reduction="sum"), ["A", "B"], 2),
        "MarginRankingLoss": (lambda: nn.MarginRankingLoss(0.5), ["A", "B", "SIGN2D"], 2),
        "SoftMarginLoss": (lambda: nn.SoftMarginLoss(), ["A", "SIGN2D"], 1),
        "MultiLabelSoftMarginLoss": (
            lambda: nn.MultiLabelSoftMarginLoss(reduction="sum"),
            ["A", "Y01"],
            1,
        ),
        "CosineEmbeddingLoss": (lambda: nn.CosineEmbeddingLoss(-0.1), ["A", "B", "SIGN"], 2),
        "TripletMarginLoss": (
            lambda: nn.TripletMarginLoss(margin=0.5, p=3.0, swap=True),
            ["A", "B", "C"],
            3,
        ),
        "TripletMarginWithDistanceLoss": (
            lambda: nn.TripletMarginWithDistanceLoss(margin=1.5, reduction="none"),
            ["A", "B", "C"],
            3,
        ),
        "MultiMarginLoss": (lambda: nn.MultiMarginLoss(p=2, margin=0.7), ["A", "CLASS"], 1),
        "PoissonNLLLoss": (lambda: nn.PoissonNLLLoss(full=True), ["A", "COUNT"], 1),
        "GaussianNLLLoss": (
            lambda: nn.GaussianNLLLoss(full=True, reduction="sum"),
            ["A", "B", "POS"],
            2,
        ),
        "CTCLoss": (
            lambda: nn.CTCLoss(blank=0, reduction="none"),
            ["CTC_X", "CTC_LABEL", "CTC_IN_LEN", "CTC_LABEL_LEN"],
            1,
        ),
    }
    return FUNCTIONS, LAYERS
