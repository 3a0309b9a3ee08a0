"""Writes tests/data/kinds_selected_rows.json: PaddlePaddle 3.3.1's SelectedRows gradient of an
``Embedding(sparse=True)`` (rows, value, after a second backward pass, after clear_grad) and the
parameters of the embedding model of tests/kinds/embedding_cases.py after 20 steps of each
optimizer case, which tests/kinds/test_selected_rows_training.py compares phiops with.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_kinds_selected_rows.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import paddle

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "kinds"))

import embedding_cases  # noqa: E402

OUT = ROOT / "tests" / "data" / "kinds_selected_rows.json"


def main() -> None:
    paddle.set_device("cpu")
    data = embedding_cases.inputs()
    record = {
        "paddle": paddle.__version__,
        "gradients": embedding_cases.sparse_gradients(paddle),
        "training": {},
    }
    record["paddle_fails"] = {}
    for name in embedding_cases.CASES:
        try:
            params = embedding_cases.train(paddle, name, data)
        except Exception as error:  # PaddlePaddle 3.3.1 fails on some (AdamW): recorded
            record["paddle_fails"][name] = f"{type(error).__name__}: {str(error).split('. Now')[0]}"
            continue
        record["training"][name] = {key: np.asarray(value).tolist() for key, value in params.items()}
    OUT.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {OUT}: {len(record['training'])} training cases; PaddlePaddle fails on "
          f"{sorted(record['paddle_fails'])}")


if __name__ == "__main__":
    main()
