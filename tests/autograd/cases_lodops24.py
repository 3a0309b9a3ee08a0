"""Gradient-check cases of the lodops24 ops (match_matrix_tensor), for CASES in
test_gradcheck_ops.py. PaddlePaddle 3.3.1 registers match_matrix_tensor (and its grad) for
float32 only, so the case casts its float64 inputs to float32 and sets the LoDs on the cast
tensors; the op is bilinear in x and w and linear in y, so central differences over steps of
1e-2 are exact but for float32 rounding, well inside the tolerance, which a wrong gradient (a
transposed w, a missed sequence) is far outside."""

from __future__ import annotations

from typing import Any

import phiops._C_ops as C
import phiops.generated as phi
from tests.autograd.cases_base import Case, case, uniform

_COARSE = {"eps": 1e-2, "rtol": 2e-3, "atol": 2e-3}


def _sequences(tensor: Any, lod: list[list[int]]) -> Any:
    cast = phi.cast(tensor, phi.float32)
    cast.set_lod(lod)
    return cast


def _match(x: Any, y: Any, w: Any) -> Any:
    out, _ = C.match_matrix_tensor(
        _sequences(x, [[0, 2, 2, 3]]), _sequences(y, [[0, 1, 3, 4]]), phi.cast(w, phi.float32), 2
    )
    return phi.cast(out, phi.float64)


def lodops24_cases() -> list[Case]:
    return [
        case(
            "match_matrix_tensor",
            "[3,2]x[4,2]x[2,2,2]-empty-sequence",
            _match,
            uniform((3, 2), 2470, -1.0, 1.0),
            uniform((4, 2), 2471, -1.0, 1.0),
            uniform((2, 2, 2), 2472, -1.0, 1.0),
            **_COARSE,
        ),
    ]


LODOPS24_CASES = lodops24_cases()
