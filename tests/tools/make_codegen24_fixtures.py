"""Record PaddlePaddle 3.3.1's ``_C_ops.data`` and ``_C_ops.merge_selected_rows`` into
tests/data/codegen24/recorded.json (tests/ops/test_codegen24_data.py and
tests/tarray/test_codegen24_merge_selected_rows.py).

Run in the side venv:
``PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_codegen24_fixtures.py``.

What is recorded:

- ``data`` in dygraph: the tensor's shape, dtype, stop_gradient and whether it holds memory
  (it does not: PHI's DataKernel allocates nothing), for several shapes and dtypes; the error
  for a ``name`` that is not a str. (Calling it with keywords or with fewer than four
  arguments crashes PaddlePaddle 3.3.1, so that is not recorded.)
- ``data`` in a static program: the printed ``pd_op.data`` of ``_C_ops.data`` and the value
  the executor fetches for a program computing with it (its feed read by name).
- ``merge_selected_rows`` on the SelectedRows gradient of ``nn.Embedding(sparse=True)``
  (float32 and float64, repeated ids), and what a dense input does (PaddlePaddle crashes).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import paddle

OUT = Path(__file__).resolve().parents[1] / "data" / "codegen24" / "recorded.json"
IDS = [[4, 1, 4, 0], [2, 4, 1, 6]]
DATA_CASES = [
    ("x", [2, 3], "float32"),
    ("ids", [4], "int64"),
    ("flags", [], "bool"),
    ("batch", [-1, 3], "float64"),
    ("empty", [0, 5], "int32"),
]


def _error(call) -> dict:
    try:
        call()
    except Exception as error:  # noqa: BLE001 -- recording whatever PaddlePaddle raises
        return {"type": type(error).__name__, "message": " ".join(str(error).split())}
    return {"type": None, "message": ""}


def _eager_data() -> list:
    cases = []
    for name, shape, dtype in DATA_CASES:
        out = paddle._C_ops.data(name, shape, getattr(paddle, dtype), paddle.CPUPlace())
        cases.append(
            {
                "name": name,
                "shape": shape,
                "dtype": dtype,
                "out_shape": list(out.shape),
                "out_dtype": str(out.dtype).replace("paddle.", ""),
                "stop_gradient": out.stop_gradient,
                "initialized": out._is_initialized(),
                "add_error": _error(lambda: out + 1),
            }
        )
    return cases


def _static_data() -> dict:
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [-1, 3], "float32")
            z = paddle._C_ops.data("z", [2, 3], paddle.float32, paddle.CPUPlace())
            out = x * 2.0 + z
        ops = [op for op in main.global_block().ops if op.name() == "pd_op.data"]
        texts = [str(op) for op in ops]
        exe = paddle.static.Executor(paddle.CPUPlace())
        feed_x = np.arange(6, dtype="float32").reshape(2, 3)
        feed_z = np.full((2, 3), 5.0, dtype="float32")
        (fetched,) = exe.run(main, feed={"x": feed_x, "z": feed_z}, fetch_list=[out])
        return {
            "data_ops": texts,
            "attributes": [
                {
                    "name": op.attrs()["name"],
                    "shape": list(op.attrs()["shape"]),
                    "place": str(op.attrs()["place"]),
                    "stop_gradient": list(op.attrs()["stop_gradient"]),
                }
                for op in ops
            ],
            "feed_x": feed_x.tolist(),
            "feed_z": feed_z.tolist(),
            "fetched": fetched.tolist(),
        }
    finally:
        paddle.disable_static()


def _merge() -> dict:
    record = {"ids": IDS}
    for dtype in ("float32", "float64"):
        paddle.set_default_dtype(dtype)
        try:
            embedding = paddle.nn.Embedding(7, 3, sparse=True)
        finally:
            paddle.set_default_dtype("float32")
        embedding.weight.set_value(np.zeros((7, 3), dtype=dtype))
        out = embedding(paddle.to_tensor(IDS))
        (out * paddle.arange(24, dtype=dtype).reshape([2, 4, 3])).sum().backward()
        grad = embedding.weight.grad
        merged = paddle._C_ops.merge_selected_rows(grad)
        record[dtype] = {
            "grad_rows": list(grad.rows()),
            "grad_values": grad.numpy().tolist(),
            "rows": list(merged.rows()),
            "values": merged.numpy().tolist(),
            "dtype": str(merged.numpy().dtype),
            "shape": list(merged.shape),
            "is_selected_rows": merged.is_selected_rows(),
            "stop_gradient": merged.stop_gradient,
        }
    record["dense_input"] = _dense_merge_in_a_subprocess()
    return record


def _dense_merge_in_a_subprocess() -> dict:
    """PaddlePaddle 3.3.1 crashes (SIGSEGV in PrepareDataForSelectedRows) on a dense input, so
    the call runs in a child process and its exit status is recorded."""
    code = "import paddle; paddle._C_ops.merge_selected_rows(paddle.ones([3, 2]))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False)
    return {"returncode": done.returncode}


def main() -> None:
    record = {
        "paddle": paddle.__version__,
        "data_eager": _eager_data(),
        "data_name_not_str": _error(
            lambda: paddle._C_ops.data(3, [4], paddle.float32, paddle.CPUPlace())
        ),
        "data_static": _static_data(),
        "merge_selected_rows": _merge(),
    }
    OUT.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
