"""Gradient-check cases of the graph24 ops (send_ue_recv, send_uv), for CASES in
test_gradcheck_ops.py, in float64: distinct values, so that MAX/MIN have no ties."""

from __future__ import annotations

import numpy as np

import phiops
import phiops._C_ops as C
from tests.autograd.cases_base import Case, case, uniform


def graph24_cases() -> list[Case]:
    src = phiops.to_tensor(np.array([0, 1, 4, 2, 3, 3]))
    dst = phiops.to_tensor(np.array([1, 1, 0, 3, 3, 2]))
    distinct = (np.random.default_rng(2440).permutation(15) * 0.37 - 2.0).reshape(5, 3)
    return [
        case("send_ue_recv", "[5,3]x[6,1]-mul-mean",
             lambda x, y: C.send_ue_recv(x, y, src, dst, "MUL", "MEAN", [4]),
             uniform((5, 3), 2441), uniform((6, 1), 2442)),
        case("send_ue_recv", "[5,3]x[6,3]-add-max",
             lambda x, y: C.send_ue_recv(x, y, src, dst, "ADD", "MAX", [0]),
             distinct, np.linspace(0.0, 0.01, 18).reshape(6, 3)),
        case("send_uv", "[5,3]x[4,1]-mul", lambda x, y: C.send_uv(x, y, src, dst, "MUL"),
             uniform((5, 3), 2443), uniform((4, 1), 2444)),
    ]  # fmt: skip


GRAPH24_CASES = graph24_cases()
