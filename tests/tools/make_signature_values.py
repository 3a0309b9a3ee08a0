"""Write tests/data/paddle_api/signature_values.json: PaddlePaddle 3.3.1's results for the calls
of tests/api/signature_cases.py, for tests/api/test_signature_values.py (no paddle).

Each case id maps to its result as a tree: ``{"tensor": [shape, dtype, values]}`` or
``{"list": [...]}`` / ``{"tuple": [...]}``.

Run from the repository root:
``PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_signature_values.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import paddle

from tests.api.signature_cases import CASES

OUT = Path(__file__).resolve().parents[1] / "data" / "paddle_api" / "signature_values.json"


def _tree(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return {type(value).__name__: [_tree(item) for item in value]}
    array = np.asarray(value.numpy())
    return {"tensor": [list(array.shape), str(array.dtype), array.tolist()]}


def main() -> None:
    recorded = {case: _tree(call(paddle, paddle.to_tensor)) for case, call in CASES}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
