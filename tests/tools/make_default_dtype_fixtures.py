"""Record PaddlePaddle 3.3.1's result dtypes under each default dtype.

Run in the side venv:
    /work/paddle-venv/bin/python tests/tools/make_default_dtype_fixtures.py
It writes tests/data/default_dtype/dtypes.json: for each case, the dtype name of the result
under the float32, float64 and float16 defaults, or
"error:<type>" where PaddlePaddle raises (the cases are shared with the test through
tests/tools/default_dtype_cases.py).
"""

from __future__ import annotations

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))

import paddle  # noqa: E402

from tests.tools.default_dtype_cases import CASES, DEFAULTS, dtype_name  # noqa: E402

OUT = pathlib.Path(__file__).resolve().parents[1] / "data" / "default_dtype" / "dtypes.json"


def main() -> None:
    record: dict[str, dict[str, str]] = {}
    for name, build in CASES.items():
        record[name] = {}
        for default in DEFAULTS:
            paddle.set_default_dtype(default)
            try:
                record[name][default] = dtype_name(build(paddle))
            except Exception as error:  # PaddlePaddle has no kernel for that dtype
                record[name][default] = f"error:{type(error).__name__}"
            finally:
                paddle.set_default_dtype("float32")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(record)} cases to {OUT}")


if __name__ == "__main__":
    main()
