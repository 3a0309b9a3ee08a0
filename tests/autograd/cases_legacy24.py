"""Gradient-check cases of the legacy24 ops of issue 24 (gru_unit, ...), for CASES in
test_gradcheck_ops.py, in float64 on small inputs."""

from __future__ import annotations

import phiops._C_ops as C
from tests.autograd.cases_base import Case, case, uniform


def legacy24_cases() -> list[Case]:
    import numpy as np

    import phiops

    boxes = phiops.to_tensor(np.array([[[0.3, 0.4, 0.15, 0.2], [0.7, 0.8, 0.25, 0.45]]]))
    labels = phiops.to_tensor(np.array([[1, 0]], "int32"))
    return [
        case(
            "gru_unit",
            "[3,6]-bias-tanh-sigmoid",
            lambda x, h, w, b: C.gru_unit(x, h, w, b, 2, 1, False),
            uniform((3, 6), 2441), uniform((3, 2), 2442), uniform((2, 6), 2443),
            uniform((1, 6), 2444),
        ),
        # im2sequence has a float32 kernel only: through a cast, with steps and tolerances for
        # float32 (it is linear, so the differences are exact up to rounding)
        case(
            "im2sequence",
            "[2,2,4,3]-k2x2-pad",
            lambda x: C.im2sequence(C.cast(x, "float32"), None, [2, 2], [1, 2], [1, 0, 0, 1], [1, 1]),
            uniform((2, 2, 4, 3), 2445),
            eps=1e-2, rtol=1e-3, atol=1e-3,
        ),
        # yolo_loss through x (the boxes are constants): one box assigned to each anchor of the
        # head, ignore_thresh 1 so that no objectness term switches off under the steps
        case(
            "yolo_loss",
            "[1,14,2,2]-two-boxes",
            lambda x: C.yolo_loss(x, boxes, labels, None, [10, 13, 16, 30], [0, 1], 2, 1.0, 32),
            uniform((1, 14, 2, 2), 2446),
        ),
    ]  # fmt: skip


LEGACY24_CASES = legacy24_cases()
