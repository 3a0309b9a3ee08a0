"""Writes tests/data/static_build/programs.json: programs built by PaddlePaddle 3.3.1 in static
mode, printed, for tests/static/test_build_text.py to compare with the same constructions built
by phiops.

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_static_build_fixtures.py``.

The cases are tests/static/build_cases.py, shared with the test. Each builds into a fresh main
and startup program under ``unique_name.guard()``; the script records ``str(main)`` and
``str(startup)``. Where phiops' API is PHI's op (``phi.full(shape, value, dtype,
place=CPUPlace())``), ``paddle_library`` calls PaddlePaddle's op the same way (``_C_ops.full``);
where it is PaddlePaddle's Python API (operators on values, ``static.data``,
``static.create_parameter`` and the initializers), it calls that.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace

import paddle
from paddle import _C_ops

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.static.build_cases import CASES  # noqa: E402  (the repository root is on the path)

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "static_build" / "programs.json"
CPU = paddle.CPUPlace()


def paddle_library() -> SimpleNamespace:
    """``lib`` for the cases: PaddlePaddle's calls, taking phiops' arguments."""
    F = paddle.nn.functional
    return SimpleNamespace(
        data=paddle.static.data,
        create_parameter=paddle.static.create_parameter,
        I=paddle.nn.initializer,
        float32=paddle.float32,
        float64=paddle.float64,
        int32=paddle.int32,
        int64=paddle.int64,
        # phiops' default place is CPUPlace() (PHI's); the undefined Place() is paddle.full's
        default_place=None,
        nn=paddle.nn,
        cond=paddle.static.nn.cond,
        full=lambda shape, value, dtype, place=CPU: (
            _C_ops.full(shape, value, dtype, CPU)
            if place is CPU
            else paddle.full(shape, value, dtype)
        ),
        full_int_array=lambda value, dtype: _C_ops.full_int_array(value, dtype, CPU),
        relu=F.relu,
        argmax=lambda x, axis, keepdim, flatten, dtype: paddle.argmax(x, axis, keepdim, dtype),
        **{name: getattr(paddle, name) for name in PYTHON_API.split()},
        **{name: getattr(_C_ops, name) for name in C_OPS.split()},
    )


# the cases' ops that PaddlePaddle's Python API calls with phiops' arguments, and those its
# _C_ops call so (their Python API takes other arguments)
PYTHON_API = "matmul add reshape multiply exp equal logical_not cast divide maximum sqrt tanh mean"
C_OPS = "scale clip topk concat split sum cumsum allclose"


def main() -> None:
    paddle.enable_static()
    out = {}
    lib = paddle_library()
    for name, fn in CASES.items():
        main_program, startup_program = paddle.static.Program(), paddle.static.Program()
        with paddle.utils.unique_name.guard():
            with paddle.static.program_guard(main_program, startup_program):
                fn(lib)
        out[name] = {"main": str(main_program), "startup": str(startup_program)}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(out)} programs to {OUT}")


if __name__ == "__main__":
    main()
