"""Record PaddlePaddle 3.3.1's string ops (``paddle._C_ops.strings_lower``, ``strings_upper``,
``strings_empty``, ``strings_empty_like`` on ``core.eager.StringTensor``) into
tests/data/tarray/strings.json (tests/strings/test_strings.py).

Run in the side venv:
``PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_tarray_strings.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import paddle
from paddle.base import core

OUT = Path(__file__).resolve().parents[1] / "data" / "tarray" / "strings.json"
INPUTS = [["Hello WORLD 123", "ÄÖÜ straße", ""], ["ﬁ ŉ ǰ İ", "ΣΑΣ όλα", "MiXeD-Case_9"]]


def main():
    x = core.eager.StringTensor(np.array(INPUTS), "x")
    record = {"inputs": INPUTS, "shape": list(x.shape)}
    for name in ("lower", "upper"):
        op = getattr(paddle._C_ops, f"strings_{name}")
        for utf8 in (True, False):
            record[f"{name}_{'utf8' if utf8 else 'ascii'}"] = op(x, utf8).numpy().tolist()
    empty = paddle._C_ops.strings_empty([2, 3], paddle.CPUPlace())
    record["empty_shape"] = list(empty.shape)
    record["empty"] = empty.numpy().tolist()
    like = paddle._C_ops.strings_empty_like(x, paddle.CPUPlace())
    record["empty_like_shape"] = list(like.shape)
    OUT.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
