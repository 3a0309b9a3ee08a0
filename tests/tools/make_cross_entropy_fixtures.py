"""Writes tests/data/cross_entropy/paddle_3_3_1.npz: PaddlePaddle 3.3.1's loss, softmax and
logits' gradient for each configuration of tests/nn/cross_entropy_cases.py.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_cross_entropy_fixtures.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import paddle

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.nn.cross_entropy_cases import CASES, LEGACY, run  # noqa: E402

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "cross_entropy" / "paddle_3_3_1.npz"


def main() -> None:
    arrays = {"paddle_version": np.array(paddle.__version__)}
    for prefix, cases, legacy in (("ce", CASES, False), ("legacy", LEGACY, True)):
        for name, case in cases.items():
            for key, value in run(paddle, case, legacy).items():
                arrays[f"{prefix}/{name}/{key}"] = value
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez(OUT, **arrays)
    print("wrote", OUT, len(arrays))


if __name__ == "__main__":
    main()
