"""Record legacy (ProgramDesc) programs carrying LoDTensorArrays from PaddlePaddle 3.3.1 into
tests/data/tarray/legacy_NAME/, as tests/tools/make_legacy_fixtures.py does for its models.

Run in the side venv:
``PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/make_tarray_legacy_fixtures.py``.

Each folder: ``model.pdmodel`` (+ ``model.pdiparams`` where there are parameters), the feeds
(``inputs.npz``), PaddlePaddle's outputs (``outputs.npz``; ``outN`` for output N, none for
an output PaddlePaddle fetches as None), the legacy op types (``ops.txt``)
and ``translated.txt``, what ``paddle.pir.translate_to_pir`` prints for it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

os.environ["FLAGS_enable_pir_api"] = "0"

import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle.tensor.manipulation import tensor_array_to_tensor  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "data" / "tarray"
RNG = np.random.default_rng(28)


def _write_read():
    """write_to_array (twice, the second past the end), read_from_array, lod_array_length,
    tensor_array_to_tensor."""
    x = paddle.static.data("x", [2, 3], "float32")
    arr = paddle.tensor.array_write(x, paddle.full([1], 0, "int64"))
    paddle.tensor.array_write(paddle.scale(x, 2.0), paddle.full([1], 1, "int64"), arr)
    read = paddle.tensor.array_read(arr, paddle.full([1], 1, "int64"))
    length = paddle.tensor.array_length(arr)
    out, index = tensor_array_to_tensor(arr, axis=0)
    return [x], [read, length, out, index], {"x": RNG.standard_normal((2, 3)).astype("float32")}


def _while_write():
    """A while loop writing x + i at i for i < 3, then the array concatenated."""
    x = paddle.static.data("x", [2, 3], "float32")
    arr = paddle.tensor.create_array("float32")
    i = paddle.full([1], 0, "int64")
    n = paddle.full([1], 3, "int64")

    def body(i, x):
        paddle.tensor.array_write(paddle.add(x, paddle.cast(i, "float32")), i, arr)
        return [paddle.increment(i), x]

    i, _ = paddle.static.nn.while_loop(lambda i, x: paddle.less_than(i, n), body, [i, x])
    out, index = tensor_array_to_tensor(arr, axis=0)
    return [x], [out, index], {"x": RNG.standard_normal((2, 3)).astype("float32")}


MODELS = {"legacy_write_read": _write_read, "legacy_while_write": _while_write}


def write(name, build):
    folder = OUT / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        feeds, fetches, inputs = build()
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        prefix = str(folder / "model")
        paddle.static.save_inference_model(prefix, feeds, fetches, exe, program=main)
    with paddle.static.scope_guard(paddle.static.Scope()):
        program, feed_names, fetch_targets = paddle.static.load_inference_model(prefix, exe)
        outputs = exe.run(program, feed=inputs, fetch_list=fetch_targets)
    np.savez(folder / "inputs.npz", **{n: inputs[n] for n in feed_names})
    # PaddlePaddle 3.3.1 fetches None for tensor_array_to_tensor's OutIndex of a legacy
    # program: such an output is left out (the test checks it against numpy)
    np.savez(
        folder / "outputs.npz",
        **{f"out{i}": o for i, o in enumerate(outputs) if o is not None},
    )
    desc = paddle.base.core.ProgramDesc((folder / "model.pdmodel").read_bytes())
    lines = []
    for b in range(desc.num_blocks()):
        block = desc.block(b)
        if desc.num_blocks() > 1:
            lines.append(f"block {b} (parent {block.parent})")
        lines += [block.op(i).type() for i in range(block.op_size())]
    (folder / "ops.txt").write_text("\n".join(lines) + "\n")
    (folder / "translated.txt").write_text(str(paddle.pir.translate_to_pir(desc)))


def main():
    paddle.enable_static()
    for name, build in MODELS.items():
        write(name, build)
        print(name, "written")


if __name__ == "__main__":
    main()
