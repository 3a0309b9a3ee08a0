"""Gradient-check cases of the seq24 ops (add_position_encoding, ...), for CASES in
test_gradcheck_ops.py, in float64."""

from __future__ import annotations

import phiops._C_ops as C
from tests.autograd.test_gradcheck_ops import Case, case, uniform


def seq24_cases() -> list[Case]:
    return [
        case(
            "add_position_encoding",
            "[2,3,4]-alpha0.5-beta2",
            lambda x: C.add_position_encoding(x, 0.5, 2.0),
            uniform((2, 3, 4), 2400),
        ),
    ]


SEQ24_CASES = seq24_cases()


def _layer_cases() -> list[Case]:
    import numpy as np

    import phiops

    counts = phiops.to_tensor(np.zeros((3, 2)))  # cvm_grad writes these into x's first columns
    mask = phiops.to_tensor(np.where(np.arange(20).reshape(1, 1, 4, 5) % 3 == 0, -1e4, 0.0))
    ids = phiops.to_tensor(np.array([0, 0, 2, 2, 3]))
    src = phiops.to_tensor(np.array([0, 1, 4, 2, 3, 3]))
    dst = phiops.to_tensor(np.array([1, 1, 0, 3, 3, 2]))
    distinct = (np.random.default_rng(2406).permutation(15) * 0.37 - 2.0).reshape(5, 3)
    return [
        case(
            "bilinear",
            "[3,4]x[3,2]-bias",
            lambda x, y, w, b: C.bilinear(x, y, w, b),
            uniform((3, 4), 2401), uniform((3, 2), 2402), uniform((5, 4, 2), 2403),
            uniform((1, 5), 2404),
        ),
        case("cvm", "[3,5]-drop", lambda x: C.cvm(x, counts, False), uniform((3, 5), 2405)),
        case("swiglu", "[2,3]x[2,3]", lambda x, y: C.swiglu(x, y), uniform((2, 3), 2406),
             uniform((2, 3), 2407)),
        case("swiglu", "[2,6]-split", lambda x: C.swiglu(x, None), uniform((2, 6), 2408)),
        case("fused_softmax_mask", "[1,2,4,5]", lambda x: C.fused_softmax_mask(x, mask),
             uniform((1, 2, 4, 5), 2409)),
        case("segment_pool", "[5,3]-mean", lambda x: C.segment_pool(x, ids, "MEAN"),
             uniform((5, 3), 2410)),
        case("segment_pool", "[5,3]-max", lambda x: C.segment_pool(x, ids, "MAX"), distinct),
        case("send_u_recv", "[5,3]-mean", lambda x: C.send_u_recv(x, src, dst, "MEAN", [4]),
             uniform((5, 3), 2411)),
        case("send_u_recv", "[5,3]-min", lambda x: C.send_u_recv(x, src, dst, "MIN", [0]),
             distinct),
    ]  # fmt: skip


SEQ24_CASES = SEQ24_CASES + _layer_cases()
