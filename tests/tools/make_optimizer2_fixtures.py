"""Write tests/data/optimizer/optimizers2.npz and tests/data/optimizer/resume/: PaddlePaddle
3.3.1's runs of tests/optimizer/optimizer2_cases.py, for tests/optimizer/test_optimizers2.py
(no paddle).

- ``optimizers2.npz``: per case, ``<case>/weight`` and ``<case>/bias`` after STEPS steps and
  ``<case>/state/<key>`` for each tensor of the optimizer's state_dict after RESUME_AT steps,
  with ``<case>/keys`` listing the state_dict's keys in order;
- ``resume/<case>.pdparams`` and ``resume/<case>.pdopt``: ``paddle.save`` of the layer's and
  the optimizer's state after RESUME_AT steps, which phiops loads and trains on.

Run from the repository root: ``/work/paddle-venv/bin/python tests/tools/make_optimizer2_fixtures.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import paddle

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.optimizer.optimizer2_cases import (  # noqa: E402
    CASES,
    RESUME_AT,
    STEPS,
    build,
    state_arrays,
    train,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "optimizer"


def main() -> None:
    arrays: dict[str, np.ndarray] = {}
    (DATA / "resume").mkdir(exist_ok=True)
    for case in CASES:
        with paddle.utils.unique_name.guard():
            layer, optimizer, scheduler = build(paddle, case)
            train(paddle, layer, optimizer, scheduler, 0, RESUME_AT)
            state = state_arrays(optimizer)
            paddle.save(layer.state_dict(), str(DATA / "resume" / f"{case}.pdparams"))
            paddle.save(optimizer.state_dict(), str(DATA / "resume" / f"{case}.pdopt"))
            train(paddle, layer, optimizer, scheduler, RESUME_AT, STEPS)
        arrays[f"{case}/weight"] = layer.weight.numpy()
        arrays[f"{case}/bias"] = layer.bias.numpy()
        arrays[f"{case}/keys"] = np.array(list(state))
        for key, value in state.items():
            if not isinstance(value, dict):
                arrays[f"{case}/state/{key}"] = value
    np.savez(DATA / "optimizers2.npz", **arrays)
    print(f"wrote {DATA / 'optimizers2.npz'} and resume/ ({len(CASES)} cases)")


if __name__ == "__main__":
    main()
