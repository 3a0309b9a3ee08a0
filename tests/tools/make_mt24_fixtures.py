"""Record PaddlePaddle 3.3.1's CPU random numbers for tests/ops/test_mt24_random.py: the cases of
tests/tools/mt24_cases.py (paddle.seed, then rand/uniform/randn/normal/randint/bernoulli/dropout
and layer initialisation in a row) into tests/data/mt24/paddle_3_3_1.npz.

Run in the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_mt24_fixtures.py``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import paddle

from tests.tools.mt24_cases import cases

OUT = Path(__file__).resolve().parents[1] / "data" / "mt24" / "paddle_3_3_1.npz"


def main() -> None:
    paddle.set_device("cpu")
    recorded = cases(paddle)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez(OUT, paddle_version=np.array(paddle.__version__), **recorded)
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
