"""Write tests/data/optimizer/parameter_groups.npz: PaddlePaddle 3.3.1's weight and bias after
the parameter-group training runs of tests/optimizer/group_cases.py, for
tests/optimizer/test_parameter_groups.py (no paddle). Keys: ``<case>_weight``, ``<case>_bias``.

Run from the repository root: ``/work/paddle-venv/bin/python tests/tools/make_group_fixtures.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import paddle

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.optimizer.group_cases import CASES, train  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "data" / "optimizer" / "parameter_groups.npz"


def main() -> None:
    arrays = {}
    for case in CASES:
        weight, bias = train(paddle, case)
        arrays[f"{case}_weight"], arrays[f"{case}_bias"] = weight, bias
    np.savez(OUT, **arrays)
    print(f"wrote {OUT} ({len(CASES)} cases)")


if __name__ == "__main__":
    main()
