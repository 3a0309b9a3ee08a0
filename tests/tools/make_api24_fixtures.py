"""Record PaddlePaddle 3.3.1's results for tests/api/test_api24.py: the cases of
tests/tools/api24_cases.py (issue 24's in-place variants with their gradients, the random
in-place fills after a seed, the Tensor conveniences and the other ``paddle.*`` names) into
tests/data/api24/paddle_3_3_1.npz.

Run in the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_api24_fixtures.py``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import paddle

from tests.tools.api24_cases import cases

OUT = Path(__file__).resolve().parents[1] / "data" / "api24" / "paddle_3_3_1.npz"


def main() -> None:
    paddle.set_device("cpu")
    recorded = cases(paddle)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez(OUT, paddle_version=np.array(paddle.__version__), **recorded)
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
