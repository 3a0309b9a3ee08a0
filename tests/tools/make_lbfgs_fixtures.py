"""Write tests/data/optimizer/lbfgs.npz: PaddlePaddle 3.3.1's LBFGS runs of
tests/optimizer/lbfgs_cases.py (``<case>/weight``, ``<case>/bias``, ``<case>/losses``), for
tests/optimizer/test_lbfgs.py (no paddle).

Run from the repository root: ``/work/paddle-venv/bin/python tests/tools/make_lbfgs_fixtures.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import paddle

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.optimizer.lbfgs_cases import CASES, train  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "data" / "optimizer" / "lbfgs.npz"


def main() -> None:
    arrays = {}
    for case in CASES:
        weight, bias, losses = train(paddle, case)
        arrays[f"{case}/weight"], arrays[f"{case}/bias"] = weight, bias
        arrays[f"{case}/losses"] = np.array(losses)
    np.savez(OUT, **arrays)
    print(f"wrote {OUT} ({len(CASES)} cases)")


if __name__ == "__main__":
    main()
