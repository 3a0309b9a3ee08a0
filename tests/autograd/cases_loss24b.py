"""Gradient-check cases of the loss24b ops of issue 24 (hsigmoid_loss, ...), for CASES in
test_gradcheck_ops.py, in float64 on small inputs."""

from __future__ import annotations

import phiops._C_ops as C
from tests.autograd.cases_base import Case, case, uniform


def loss24b_cases() -> list[Case]:
    import numpy as np

    import phiops

    labels = phiops.to_tensor(np.array([0, 3, 5], "int64"))
    return [
        # hsigmoid_loss through x, w and bias over the default tree of 6 classes (paths of 2
        # and 3 nodes); logits stay well inside the clipping at +-40
        case(
            "hsigmoid_loss",
            "[3,4]-c6-bias",
            lambda x, w, b: C.hsigmoid_loss(x, labels, w, b, None, None, 6, False)[0],
            uniform((3, 4), 2501), uniform((5, 4), 2502), uniform((5, 1), 2503),
        ),
    ]  # fmt: skip


LOSS24B_CASES = loss24b_cases()
