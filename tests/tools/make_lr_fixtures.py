"""Write tests/data/optimizer/lr_schedulers.json: PaddlePaddle 3.3.1's learning rates for the
schedulers of tests/optimizer/lr_cases.py, for tests/optimizer/test_lr_schedulers.py (no paddle).

For each case: ``rates`` (``scheduler()`` then ``step()``, STEPS times), ``state`` (its
``state_dict()`` after them) and, for the cases of JUMPS, ``jumps`` (the rate after each
``step(epoch)``); for each ReduceOnPlateau case, the rate after each ``step(metric)``.

Run from the repository root: ``/work/paddle-venv/bin/python tests/tools/make_lr_fixtures.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import paddle

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.optimizer.lr_cases import (  # noqa: E402  (the repository root is on the path)
    CASES,
    JUMPS,
    PLATEAU_CASES,
    PLATEAU_METRICS,
    STEPS,
)

OUT = Path(__file__).resolve().parents[1] / "data" / "optimizer" / "lr_schedulers.json"


def main() -> None:
    lr = paddle.optimizer.lr
    record: dict = {"paddle": paddle.__version__, "schedulers": {}, "plateau": {}}
    for name, make in CASES.items():
        scheduler = make(lr)
        rates = []
        for _ in range(STEPS):
            rates.append(scheduler())
            scheduler.step()
        entry = {"rates": rates, "state": scheduler.state_dict()}
        if name in JUMPS:
            jumper = make(lr)
            jumps = []
            for epoch in JUMPS[name]:
                jumper.step(epoch)
                jumps.append(jumper())
            entry["jumps"] = jumps
        record["schedulers"][name] = entry
    for name, kwargs in PLATEAU_CASES.items():
        scheduler = lr.ReduceOnPlateau(**kwargs)
        rates = []
        for metric in PLATEAU_METRICS:
            scheduler.step(metric)
            rates.append(scheduler())
        record["plateau"][name] = {"rates": rates, "state": scheduler.state_dict()}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
