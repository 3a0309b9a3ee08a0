"""Records PaddlePaddle 3.3.1's second derivatives of the dgrad24 cases
(tests/tools/dgrad24_cases.py) into tests/data/dgrad24_paddle_derivatives.json, which
tests/autograd/test_dgrad24_paddle.py compares phiops with. Run in the side venv:

    PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_dgrad24_fixtures.py
"""

from __future__ import annotations

import json
from pathlib import Path

import paddle

from tests.tools.dgrad24_cases import BORDER_CASES, CASES
from tests.tools.grad2_cases import derivatives

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "dgrad24_paddle_derivatives.json"


def main() -> None:
    assert paddle.__version__ == "3.3.1", paddle.__version__
    record = {
        name: [g.tolist() for g in derivatives(paddle, op, inputs, 2)]
        for name, op, inputs in CASES + [case[:3] for case in BORDER_CASES]
    }
    OUT.write_text(
        json.dumps({"paddle": paddle.__version__, "derivatives": record}, indent=1) + "\n"
    )
    print(f"wrote {OUT} ({len(record)} entries)")


if __name__ == "__main__":
    main()
