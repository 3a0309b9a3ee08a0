"""Writes tests/data/static_api/: what PaddlePaddle 3.3.1 prints and computes for
tests/static/static_api_cases.py (``case`` / ``switch_case``: the program's text and its results;
the Adam-trained fc: the losses of 3 steps, and ``paddle.static.save`` of it after 3 steps, as
``trained.pdparams`` / ``trained.pdopt``, with the losses of 2 more steps after
``paddle.static.load`` into a fresh program). tests/static/test_static_api.py compares phiops.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_static_api_fixtures.py``.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

import paddle

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.static import static_api_cases as cases  # noqa: E402

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "static_api"


def main() -> None:
    paddle.enable_static()
    OUT.mkdir(parents=True, exist_ok=True)
    record = {"paddle_version": paddle.__version__}
    with paddle.utils.unique_name.guard():
        text, results = cases.run_case_program(paddle)
    record["case_program"] = text
    record["case_results"] = results
    with paddle.utils.unique_name.guard():
        program, exe, x, loss, losses = cases.train(paddle, 3)
        with tempfile.TemporaryDirectory() as directory:
            prefix = str(Path(directory) / "trained")
            paddle.static.save(program, prefix)
            for suffix in (".pdparams", ".pdopt"):
                shutil.copy(prefix + suffix, OUT / ("trained" + suffix))
    record["losses"] = losses
    with paddle.utils.unique_name.guard():
        program, startup, x, loss = cases.build_training_program(paddle)
        exe = paddle.static.Executor(paddle.CPUPlace())
        with paddle.static.scope_guard(paddle.static.Scope()):
            exe.run(startup)
            paddle.static.load(program, str(OUT / "trained"), exe)
            record["losses_after_load"] = [
                float(exe.run(program, feed={"x": cases.BATCH}, fetch_list=[loss])[0])
                for _ in range(2)
            ]
    (OUT / "paddle_3_3_1.json").write_text(json.dumps(record, indent=1) + "\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
