"""PaddlePaddle 3.3.1's op lists for automatic mixed precision (its python/paddle/amp/amp_lists.py),
as ``paddle.amp.white_list()`` and ``black_list()`` return them, read from
paddle_amp_lists_3_3_1.json (recorded from PaddlePaddle by tests/tools/make_amp_fixtures.py).

White-listed ops run in the low-precision dtype, black-listed ones in float32; the rest (gray)
follow their inputs. The names are PaddlePaddle's op types, legacy ones included ("matmul_v2",
"reduce_sum") and ops phiops does not have: they are matched against phiops's op names as they
are, as PaddlePaddle's eager mode matches them against its PHI op names, so a legacy name in a
list changes nothing. They are PaddlePaddle's API data, not facts phiops states about its ops,
hence a recorded file rather than ops/op_traits.yaml.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

__all__ = ["black_list", "white_list", "LEVELS", "AMP_DTYPES"]

LEVELS = ("O0", "OD", "O1", "O2")
AMP_DTYPES = ("float16", "bfloat16")
_FILE = Path(__file__).with_name("paddle_amp_lists_3_3_1.json")


@lru_cache(maxsize=1)
def _recorded() -> dict[str, dict[str, dict[str, tuple[str, ...]]]]:
    data = json.loads(_FILE.read_text())
    return {
        which: {
            dtype: {level: tuple(ops) for level, ops in levels.items()}
            for dtype, levels in data[which].items()
        }
        for which in ("white_list", "black_list")
    }


def _copy(which: str) -> dict[str, dict[str, set[str]]]:
    return {
        dtype: {level: set(ops) for level, ops in levels.items()}
        for dtype, levels in _recorded()[which].items()
    }


def white_list() -> dict[str, dict[str, set[str]]]:
    """PaddlePaddle's ``paddle.amp.white_list()``: per dtype and level (OD, O1, O2), the ops
    run in low precision (a new copy each call)."""
    return _copy("white_list")


def black_list() -> dict[str, dict[str, set[str]]]:
    """PaddlePaddle's ``paddle.amp.black_list()``: per dtype and level, the ops kept in
    float32 (a new copy each call)."""
    return _copy("black_list")
