"""Write tests/data/nn25/nn25.npz: PaddlePaddle 3.3.1's results for tests/nn/nn25_cases.py
(channel dropouts, distances, padding-mode layers and torch-style aliases of ``paddle.nn``), each
case run after ``paddle.seed(SEED)``, for tests/nn/test_nn25.py (no paddle).

Run from the repository root:
``PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_nn25_fixtures.py``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import paddle

from tests.nn.nn25_cases import SEED, cases

OUT = Path(__file__).resolve().parents[1] / "data" / "nn25" / "nn25.npz"


def main() -> None:
    out = {}
    for key, make in cases().items():
        paddle.seed(SEED)
        out[key] = make(paddle).numpy()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez(OUT, **out)
    print(f"wrote {OUT} ({len(out)} arrays)")


if __name__ == "__main__":
    main()
