"""Double-grad cases of the double grads PaddlePaddle 3.3.1 gives by invoking the forward op on
the gradient (sum, mean, transpose, concat, squeeze, unsqueeze, expand, stack, slice: their first
gradient is linear in the upstream gradient, so the check is that of the gradient with respect
to it; the one with respect to x is unused, as for reshape in cases_grad2.py)."""

from __future__ import annotations

import phiops.generated as phi
from tests.autograd.cases_base import Case, case, uniform

INVOKE_DOUBLE_CASES: list[Case] = [
    case("sum", "[2,3]-axis1", lambda x: phi.sum(x, [1]), uniform((2, 3), 300), allow_unused=True),
    case(
        "mean", "[2,3]-keepdim", lambda x: phi.mean(x, [0], True), uniform((2, 3), 301),
        allow_unused=True,
    ),
    case(
        "transpose", "[2,3,4]", lambda x: phi.transpose(x, [2, 0, 1]), uniform((2, 3, 4), 302),
        allow_unused=True,
    ),
    case(
        "concat", "[2,3]x[1,3]", lambda x, y: phi.concat([x, y], 0), uniform((2, 3), 303),
        uniform((1, 3), 304), allow_unused=True,
    ),
    case(
        "squeeze", "[2,1,3]", lambda x: phi.squeeze(x, [1]), uniform((2, 1, 3), 305),
        allow_unused=True,
    ),
    case(
        "unsqueeze", "[2,3]", lambda x: phi.unsqueeze(x, [0]), uniform((2, 3), 306),
        allow_unused=True,
    ),
    case(
        "expand", "[1,3]->[2,3]", lambda x: phi.expand(x, [2, 3]), uniform((1, 3), 307),
        allow_unused=True,
    ),
    case(
        "stack", "[2,3]x[2,3]", lambda x, y: phi.stack([x, y], 1), uniform((2, 3), 308),
        uniform((2, 3), 309), allow_unused=True,
    ),
    case(
        "slice", "[4,3]-rows1:3", lambda x: phi.slice(x, [0], [1], [3], [1], []),
        uniform((4, 3), 310), allow_unused=True,
    ),
]  # fmt: skip
