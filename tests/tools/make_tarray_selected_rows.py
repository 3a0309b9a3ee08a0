"""Record PaddlePaddle 3.3.1's ``merge_selected_rows`` of an embedding's SelectedRows gradient
into tests/data/tarray/merge_selected_rows.json (tests/tarray/test_merge_selected_rows.py).

Run in the side venv:
``PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_tarray_selected_rows.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import paddle

OUT = Path(__file__).resolve().parents[1] / "data" / "tarray" / "merge_selected_rows.json"
IDS = [[3, 1, 3], [0, 3, 1]]


def main():
    record = {"ids": IDS}
    for dtype in ("float32", "float64"):
        weight = paddle.zeros([6, 2], dtype)
        weight.stop_gradient = False
        out = paddle.nn.functional.embedding(paddle.to_tensor(IDS), weight, sparse=True)
        (out * paddle.arange(12, dtype=dtype).reshape([2, 3, 2])).sum().backward()
        grad = weight.grad
        merged = paddle._C_ops.merge_selected_rows(grad)
        record[dtype] = {
            "grad_rows": list(grad.rows()),
            "rows": list(merged.rows()),
            "values": merged.numpy().tolist(),
            "dtype": str(merged.numpy().dtype),
            "is_selected_rows": merged.is_selected_rows(),
        }
    OUT.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
