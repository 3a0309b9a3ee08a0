"""The cases of tests/nn/test_nn25.py, shared with tests/tools/make_nn25_fixtures.py (numpy only):
each builds a result from a ``paddle`` module (PaddlePaddle or phiops) after ``paddle.seed(SEED)``.
"""

from __future__ import annotations

import numpy as np

SEED = 31
R = np.random.default_rng(25)
X4 = R.standard_normal((2, 3, 4, 4)).astype("float32")
X5 = R.standard_normal((2, 3, 2, 3, 3)).astype("float32")
X3 = R.standard_normal((2, 3, 5)).astype("float32")
A = R.standard_normal((4, 6)).astype("float32")
B = R.standard_normal((4, 6)).astype("float32")
MLM_LABEL = np.array(
    [[3, 0, -1, 1, 2, 2], [0, 1, 2, 3, 4, 5], [5, -1, 0, 0, 0, 0], [-1, 2, 2, 2, 2, 2]], "int64"
)


def cases() -> dict:
    def t(paddle, a):
        return paddle.to_tensor(a)

    return {
        "dropout_axis": lambda P: P.nn.functional.dropout(t(P, X4), 0.4, axis=[0, 1]),
        "dropout_axis_eval": lambda P: P.nn.functional.dropout(
            t(P, X4), 0.4, axis=1, training=False, mode="downscale_in_infer"
        ),
        "dropout1d": lambda P: P.nn.functional.dropout1d(t(P, X3), 0.5),
        "dropout1d_2d": lambda P: P.nn.functional.dropout1d(t(P, X3[0]), 0.5),
        "dropout2d": lambda P: P.nn.functional.dropout2d(t(P, X4), 0.5),
        "dropout2d_nhwc": lambda P: P.nn.functional.dropout2d(t(P, X4), 0.3, data_format="NHWC"),
        "dropout3d": lambda P: P.nn.functional.dropout3d(t(P, X5), 0.5),
        "Dropout2D": lambda P: P.nn.Dropout2D(0.5)(t(P, X4)),
        "Dropout3D_eval": lambda P: P.nn.Dropout3D(0.5).eval()(t(P, X5)),
        "cosine_similarity": lambda P: P.nn.functional.cosine_similarity(t(P, A), t(P, B)),
        "cosine_similarity_bcast": lambda P: P.nn.functional.cosine_similarity(
            t(P, A), t(P, B[:1]), axis=0
        ),
        "CosineSimilarity": lambda P: P.nn.CosineSimilarity(axis=0)(t(P, A), t(P, B)),
        "pairwise_distance": lambda P: P.nn.functional.pairwise_distance(t(P, A), t(P, B)),
        "pairwise_distance_p1": lambda P: P.nn.functional.pairwise_distance(
            t(P, A), t(P, B), p=1.0, keepdim=True
        ),
        "PairwiseDistance_inf": lambda P: P.nn.PairwiseDistance(p=float("inf"))(t(P, A), t(P, B)),
        "Silu": lambda P: P.nn.Silu()(t(P, X3)),
        "Unflatten": lambda P: P.nn.Unflatten(1, [2, 3])(t(P, A)),
        "ReflectionPad1D": lambda P: P.nn.ReflectionPad1D([1, 2])(t(P, X3)),
        "ReflectionPad2D": lambda P: P.nn.ReflectionPad2D(1)(t(P, X4)),
        "ReplicationPad2D": lambda P: P.nn.ReplicationPad2D([1, 0, 2, 1])(t(P, X4)),
        "ReplicationPad3D": lambda P: P.nn.ReplicationPad3D(1)(t(P, X5)),
        "CircularPad1D": lambda P: P.nn.CircularPad1D(2)(t(P, X3)),
        "CircularPad2D": lambda P: P.nn.CircularPad2D([0, 1, 1, 0])(t(P, X4)),
        "ReflectionPad3d": lambda P: P.nn.ReflectionPad3d(1)(t(P, X5)),
        "ConstantPad2d": lambda P: P.nn.ConstantPad2d(1, 0.5)(t(P, X4)),
        "AdaptiveMaxPool2d": lambda P: P.nn.AdaptiveMaxPool2d(2)(t(P, X4)),
        "Conv2d": lambda P: P.nn.Conv2d(3, 4, 3, padding=1, bias=False)(t(P, X4)),
        "Conv1d": lambda P: P.nn.Conv1d(3, 2, 2, stride=2)(t(P, X3)),
        "Conv3d_weight": lambda P: P.nn.Conv3d(3, 2, 2).weight,
        "alpha_dropout": lambda P: P.nn.functional.alpha_dropout(t(P, X4), 0.3),
        "feature_alpha_dropout": lambda P: P.nn.functional.feature_alpha_dropout(t(P, X5), 0.4),
        "AlphaDropout": lambda P: P.nn.AlphaDropout(0.5)(t(P, X3)),
        "FeatureAlphaDropout_eval": lambda P: P.nn.FeatureAlphaDropout(0.5).eval()(t(P, X4)),
        "alpha_dropout_1": lambda P: P.nn.functional.alpha_dropout(t(P, X3), 1.0),
        "multi_label_margin_loss": lambda P: P.nn.functional.multi_label_margin_loss(
            t(P, A), t(P, MLM_LABEL), reduction="none"
        ),
        "multi_label_margin_loss_f64_sum": lambda P: P.nn.functional.multi_label_margin_loss(
            t(P, A.astype("float64")), t(P, MLM_LABEL.astype("int32")), reduction="sum"
        ),
        "MultiLabelMarginLoss": lambda P: P.nn.MultiLabelMarginLoss()(t(P, B), t(P, MLM_LABEL)),
        "ParameterDict": lambda P: P.nn.ParameterDict(
            [
                ("w", P.create_parameter([2, 3], "float32")),
                ("b", P.create_parameter([3], "float32")),
            ]
        )["w"],
    }
