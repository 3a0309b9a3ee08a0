"""Writes tests/data/executor/NN_name.npz: what PaddlePaddle 3.3.1's executor computes when it runs
the programs of tests/data/ir/ (built by make_ir_fixtures.py).

Run with the side venv: ``/work/paddle-venv/bin/python tests/tools/make_executor_fixtures.py``.
The programs are rebuilt exactly as make_ir_fixtures.py builds them (same order, same seed, so
the same parameter names) and each rebuilt program's text is checked against the committed
``tests/data/ir/NN_name.txt``. Each program's startup program runs in a fresh scope; then the main
program runs once on random feeds, fetching every top-level result that is a dense tensor.
Each .npz holds ``feed/<data name>`` (the feeds), ``scope/<name>`` (every scope variable the main
program reads: parameters and the learning rate, as the startup program left them),
``fetch/<%N>`` (each fetched value, by its printed name) and ``after/<name>`` (the same scope
variables after the run: the parameter updates of the training programs).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import paddle

sys.path.insert(0, str(Path(__file__).resolve().parent))

import make_ir_fixtures  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
IR = ROOT / "tests" / "data" / "ir"
OUT = ROOT / "tests" / "data" / "executor"
# programs the executor runs: not control flow or tensor arrays, nor 08_casts, whose
# bfloat16 and float8 casts numpy cannot hold
PROGRAMS = (
    "01_elementwise_broadcast",
    "02_matmul_transpose",
    "03_activations",
    "04_reductions",
    "05_shape_ops",
    "06_slicing",
    "07_creation",
    "09_scale",
    "10_compare_where_clip",
    "11_mlp",
    "12_conv_pool_bn",
    "13_layer_norm_no_affine",
    "14_embedding_gather",
    "15_cross_entropy",
    "16_sgd_minimize",
    "17_append_backward",
    "22_attribute_zoo",
    "23_topk_argmax_cumsum",
    "25_interp_add_n",
    "26_batch_norm_test",
    "29_sgd_mse",
    "30_empty_and_zero_size",
)
# integer feeds are indices: their exclusive upper bound per (program, data name)
INDEX_BOUNDS = {
    ("14_embedding_gather", "ids"): 10,
    ("14_embedding_gather", "idx"): 4,
    ("14_embedding_gather", "j"): 3,
    ("15_cross_entropy", "label"): 10,
}
UNKNOWN_EXTENT = 3  # what -1 in a data shape becomes
BATCH_NORMS = ("pd_op.batch_norm", "pd_op.batch_norm_")


def scratch(op, index: int) -> bool:
    """Results whose content PaddlePaddle leaves unspecified, not fetched: batch_norm's
    reserve_space (phiops leaves it unset) and, at test time, its saved mean and variance
    (PaddlePaddle leaves them uninitialised)."""
    if op.name() not in BATCH_NORMS:
        return False
    attrs = op.attrs()
    return index == 5 or index in (3, 4) and (attrs["is_test"] or attrs["use_global_stats"])


def feed_value(rng: np.random.Generator, program: str, value) -> np.ndarray:
    shape = [UNKNOWN_EXTENT if d == -1 else d for d in value.shape]
    dtype = str(value.dtype).replace("paddle.", "")
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype.startswith(("int", "uint")):
        name = value.get_defining_op().attrs()["name"]
        return rng.integers(0, INDEX_BOUNDS.get((program, name), 5), shape).astype(dtype)
    if dtype.startswith("complex"):
        return (rng.uniform(0.5, 2, shape) + 1j * rng.uniform(0.5, 2, shape)).astype(dtype)
    # positive, away from 0: the programs divide, take logs and raise to real powers
    return rng.uniform(0.5, 2.0, shape).astype(dtype)


def fetchable(op, index: int) -> bool:
    return str(op.result(index).type()).startswith("tensor<") and not scratch(op, index)


def record(name: str, main_p, start_p) -> None:
    rng = np.random.default_rng(sum(map(ord, name)))
    scope = paddle.static.Scope()
    exe = paddle.static.Executor(paddle.CPUPlace())
    with paddle.static.scope_guard(scope):
        exe.run(start_p)
        feeds, reads, fetch_names, fetch_values = {}, [], [], []
        counter = 0
        for op in main_p.global_block().ops:
            if op.name() == "pd_op.data":
                attrs = op.attrs()
                if attrs.get("persistable"):
                    reads.append(attrs["name"])
                else:
                    feeds[attrs["name"]] = feed_value(rng, name, op.result(0))
            elif op.name() == "builtin.parameter":
                reads.append(op.attrs()["parameter_name"])
            for index, value in enumerate(op.results()):
                if fetchable(op, index):
                    fetch_names.append(f"%{counter}")
                    fetch_values.append(value)
                counter += 1
        before = {r: np.array(scope.find_var(r).get_tensor()) for r in reads}
        fetched = exe.run(main_p, feed=feeds, fetch_list=fetch_values)
        after = {r: np.array(scope.find_var(r).get_tensor()) for r in reads}
    arrays = {f"feed/{k}": v for k, v in feeds.items()}
    arrays.update({f"scope/{k}": v for k, v in before.items()})
    # (a value PaddlePaddle leaves unset, such as dropout's mask at test time, comes back None)
    arrays.update({f"fetch/{k}": v for k, v in zip(fetch_names, fetched) if v is not None})
    arrays.update({f"after/{k}": v for k, v in after.items()})
    np.savez_compressed(OUT / f"{name}.npz", **arrays)


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    paddle.enable_static()
    paddle.seed(1)
    built = {}
    for name, fn, _ in make_ir_fixtures.PROGRAMS:
        main_p, start_p = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main_p, start_p):
            fn()
        built[name] = (main_p, start_p)
    status = 0
    for name in PROGRAMS:
        main_p, start_p = built[name]
        if str(main_p) != (IR / f"{name}.txt").read_text(encoding="utf-8"):
            print(
                f"{name}: the rebuilt program differs from tests/data/ir/{name}.txt",
                file=sys.stderr,
            )
            status = 1
            continue
        record(name, main_p, start_p)
    total = sum(p.stat().st_size for p in OUT.glob("*.npz"))
    print(f"wrote {len(PROGRAMS)} fixtures to {OUT} ({total // 1024} KB)", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
