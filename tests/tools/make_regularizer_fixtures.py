"""Write tests/data/optimizer/regularizers.npz: PaddlePaddle 3.3.1's weight and bias after the
training runs of tests/optimizer/regularizer_cases.py (optimizers with L1Decay, L2Decay or a
float weight_decay, and parameters with their own ParamAttr regularizer), for
tests/optimizer/test_regularizers.py (no paddle). Keys: ``<case>_weight``, ``<case>_bias``.

Run from the repository root: ``/work/paddle-venv/bin/python tests/tools/make_regularizer_fixtures.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import paddle

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.optimizer.regularizer_cases import CASES, train  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "data" / "optimizer" / "regularizers.npz"


def main() -> None:
    arrays = {}
    for case in CASES:
        weight, bias = train(paddle, case)
        arrays[f"{case}_weight"], arrays[f"{case}_bias"] = weight, bias
    np.savez(OUT, **arrays)
    print(f"wrote {OUT} ({len(CASES)} cases)")


if __name__ == "__main__":
    main()
