"""Writes tests/data/linalg_extra/paddle_3_3_1.npz: PaddlePaddle 3.3.1's svdvals and lu_solve
on tests/tools/linalg_extra_cases.py (values and gradients).

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_linalg_extra_fixtures.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import paddle

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.tools.linalg_extra_cases import run  # noqa: E402

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "linalg_extra" / "paddle_3_3_1.npz"

if __name__ == "__main__":
    arrays = run(paddle)
    np.savez(OUT, paddle_version=np.array(paddle.__version__), **arrays)
    print("wrote", OUT, len(arrays))
