"""Records PaddlePaddle 3.3.1's second and third derivatives of the grad2 cases
(tests/tools/grad2_cases.py) into tests/data/grad2_paddle_derivatives.json, which
tests/autograd/test_grad2_paddle.py compares phiops with. Run in the side venv:

    PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_grad2_fixtures.py
"""

from __future__ import annotations

import json
from pathlib import Path

import paddle

from tests.tools.grad2_cases import CASES, derivatives

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "grad2_paddle_derivatives.json"


def main() -> None:
    assert paddle.__version__ == "3.3.1", paddle.__version__
    record: dict[str, list[list]] = {}
    for name, op, inputs, orders in CASES:
        for order in orders:
            grads = derivatives(paddle, op, inputs, order)
            record[f"{name}/{order}"] = [g.tolist() for g in grads]
    OUT.write_text(
        json.dumps({"paddle": paddle.__version__, "derivatives": record}, indent=1) + "\n"
    )
    print(f"wrote {OUT} ({len(record)} entries)")


if __name__ == "__main__":
    main()
