"""Records what PaddlePaddle 3.3.1's CPU kernels give for the lodops24 ops (match_matrix_tensor,
pyramid_hash, attention_lstm, beam_search): outputs with their LoDs and, where the op has a
backward, what the backward gives; writes tests/data/lodops24/paddle_3_3_1.json.

Each case is a legacy (old IR) static program, ``block.append_op`` with the op's legacy input and
output names (op_compat.yaml), its LoD inputs fed as DenseTensors with ``set_lod`` through the
Executor, as tests/tools/lod24_probe.py does, each op's cases in a subprocess of their own. A case
with a backward builds it with ``paddle.static.gradients``, fed a weight as the output's gradient:
match_matrix_tensor_grad's X/Y/W gradients are fetched; pyramid_hash_grad writes no gradient, it
updates W in place (W -= lr * gradient of the hashed rows), so W is fetched after it.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/lodops24_probe.py``
(``--case NAME`` runs one case in this process and prints its JSON).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "data" / "lodops24" / "paddle_3_3_1.json"
TIMEOUT_S = 120

Lod = list[list[int]]


def uniform(
    shape: tuple[int, ...], seed: int, dtype: str = "float32", lo: float = -1.0, hi: float = 1.0
) -> np.ndarray:
    return np.random.default_rng(seed).uniform(lo, hi, shape).astype(dtype)


# the dtype of each output that is not the case's float dtype
OUTPUT_DTYPES = {
    ("beam_search", "selected_ids"): "int64",
    ("beam_search", "parent_idx"): "int32",
    ("pyramid_hash", "DropPos"): "int32",
}


def _case(
    op: str,
    inputs: dict[str, tuple[np.ndarray, Lod | None]],
    outputs: list[str],
    attrs: dict[str, Any],
    grad: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``grad``: {"wrt": the inputs (legacy names) the backward is built for, "fetch_grads":
    whether their gradients are fetched, "fetch": inputs fetched after the backward ran, "of": the
    output whose gradient is fed}."""
    return {"op": op, "inputs": inputs, "outputs": outputs, "attrs": attrs, "grad": grad}


def _pyramid_attrs(**overrides: Any) -> dict[str, Any]:
    attrs = {
        "num_emb": 4, "space_len": 16, "pyramid_layer": 2, "rand_len": 4, "drop_out_percent": 0.0,
        "is_training": 1, "use_filter": False, "white_list_len": 0, "black_list_len": 0, "seed": 1,
        "lr": 0.5, "distribute_update_vars": "",
    }  # fmt: skip
    attrs.update(overrides)
    return attrs


def _ids(values: list[int]) -> np.ndarray:
    return np.array(values, dtype="int32").reshape(-1, 1)


def cases() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    match_grad = {"wrt": ["X", "Y", "W"], "fetch_grads": True, "fetch": [], "of": "Out"}
    for name, x_lod, y_lod, width, dim_t, seed in (
        ("match_matrix_tensor_dim_t2", [[0, 2, 5]], [[0, 3, 4]], 3, 2, 30),
        ("match_matrix_tensor_dim_t1_three", [[0, 1, 3, 6]], [[0, 2, 3, 5]], 2, 1, 33),
        # an empty sequence on each side: its pair has no block
        ("match_matrix_tensor_empty_sequences", [[0, 0, 2, 3]], [[0, 2, 2, 4]], 2, 3, 36),
    ):
        found[name] = _case(
            "match_matrix_tensor",
            {
                "X": (uniform((x_lod[0][-1], width), seed), x_lod),
                "Y": (uniform((y_lod[0][-1], width), seed + 1), y_lod),
                "W": (uniform((width, dim_t, width), seed + 2), None),
            },
            ["Out", "Tmp"],
            {"dim_t": dim_t},
            match_grad,
        )
    pyramid_grad = {"wrt": ["X"], "fetch_grads": False, "fetch": ["W"], "of": "Out"}
    for name, ids, lod, attrs in (
        ("pyramid_hash_training", [1, 2, 3, 4, 5, 6], [[0, 4, 6]], _pyramid_attrs()),
        # inference: out scaled by drop_out_percent
        (
            "pyramid_hash_inference_scaled",
            [7, 3, 9, 3, 7],
            [[0, 3, 5]],
            _pyramid_attrs(
                is_training=0,
                drop_out_percent=0.5,
                pyramid_layer=3,
                rand_len=2,
                num_emb=6,
                space_len=18,
            ),
        ),
        # training with dropout: glibc's rand_r, seeded with seed, drops the terms it draws below 0.4
        (
            "pyramid_hash_training_dropout",
            [3, 1, 4, 1, 5, 9, 2, 6, 5],
            [[0, 5, 9]],
            _pyramid_attrs(drop_out_percent=0.4, pyramid_layer=3, seed=12345),
        ),
        # a sequence of one id has no pair: a zero row; three layers over a long sequence
        (
            "pyramid_hash_single_and_layers",
            [11, 5, 8, 2, 13, 40, 41],
            [[0, 1, 6, 7]],
            _pyramid_attrs(pyramid_layer=4, rand_len=3, num_emb=6, space_len=25, seed=7, lr=0.25),
        ),
    ):
        found[name] = _case(
            "pyramid_hash",
            {
                "X": (_ids(ids), lod),
                "W": (uniform((attrs["space_len"] + attrs["rand_len"], 1), len(name)), None),
                "WhiteList": (np.zeros((1, 1), dtype="float32"), None),
                "BlackList": (np.zeros((1, 1), dtype="float32"), None),
            },
            ["Out", "DropPos", "X_Temp_Out"],
            attrs,
            pyramid_grad,
        )
    m, d = 3, 2
    for name, lod, with_h0, with_bias, with_scalar, acts, seed in (
        ("attention_lstm_h0_bias", [[0, 2, 5]], True, True, False, ("sigmoid", "tanh", "tanh"), 40),
        (
            "attention_lstm_scalar_no_h0",
            [[0, 3, 4, 6]],
            False,
            False,
            True,
            ("sigmoid", "tanh", "tanh"),
            50,
        ),
        # an empty sequence, one of one row; relu cell, identity candidate
        (
            "attention_lstm_empty_relu_identity",
            [[0, 0, 1, 4]],
            True,
            True,
            True,
            ("sigmoid", "relu", "identity"),
            60,
        ),
    ):
        rows, count = lod[0][-1], len(lod[0]) - 1
        inputs = {"X": (uniform((rows, m), seed), lod), "C0": (uniform((count, d), seed + 1), None)}
        if with_h0:
            inputs["H0"] = (uniform((count, d), seed + 2), None)
        inputs["AttentionWeight"] = (uniform((m + d, 1), seed + 3), None)
        if with_bias:
            inputs["AttentionBias"] = (uniform((1, 1), seed + 4), None)
        if with_scalar:
            inputs["AttentionScalar"] = (uniform((1, 1), seed + 5, lo=0.5, hi=1.5), None)
            inputs["AttentionScalarBias"] = (uniform((1, 1), seed + 6), None)
        inputs["LSTMWeight"] = (uniform((d + m, 4 * d), seed + 7), None)
        inputs["LSTMBias"] = (uniform((1, 4 * d), seed + 8), None)
        found[name] = _case(
            "attention_lstm",
            inputs,
            ["Hidden", "Cell", "AttentionedX", "AttentionFCOut", "LSTMX", "LSTMOUT"],
            {
                "gate_activation": acts[0],
                "cell_activation": acts[1],
                "candidate_activation": acts[2],
            },
        )
    two = [[0, 1, 2], [0, 1, 2]]
    found["beam_search_accumulated"] = _case(
        "beam_search",
        {
            "pre_ids": (np.array([[1], [2]], dtype="int64"), two),
            "pre_scores": (np.array([[0.1], [0.2]], dtype="float32"), two),
            "ids": (np.array([[4, 2, 5], [2, 1, 3]], dtype="int64"), two),
            "scores": (np.array([[0.5, 0.3, 0.2], [0.6, 0.3, 0.1]], dtype="float32"), two),
        },
        ["selected_ids", "selected_scores", "parent_idx"],
        {"level": 0, "beam_size": 2, "end_id": 0, "is_accumulated": True},
    )
    # two sources of two prefixes each, one prefix ended (pre_id == end_id): log-probabilities
    four = [[0, 2, 4], [0, 1, 2, 3, 4]]
    found["beam_search_log_probs_ended_prefix"] = _case(
        "beam_search",
        {
            "pre_ids": (np.array([[3], [0], [5], [6]], dtype="int64"), four),
            "pre_scores": (np.array([[-0.5], [-0.2], [-1.0], [-0.7]], dtype="float32"), four),
            "ids": (np.array([[1, 2, 0], [4, 5, 6], [7, 8, 9], [2, 3, 0]], dtype="int64"), four),
            "scores": (
                np.array(
                    [[0.5, 0.3, 0.2], [0.1, 0.8, 0.1], [0.6, 0.3, 0.1], [0.2, 0.2, 0.6]],
                    dtype="float32",
                ),
                four,
            ),
        },
        ["selected_ids", "selected_scores", "parent_idx"],
        {"level": 0, "beam_size": 3, "end_id": 0, "is_accumulated": False},
    )
    # the first source has ended entirely: pruned (3.3.1's legacy op without ids fails reading
    # the scores as int64 ids, so ids are given)
    found["beam_search_pruned_source"] = _case(
        "beam_search",
        {
            "pre_ids": (np.array([[0], [0], [4]], dtype="int64"), [[0, 2, 3], [0, 1, 2, 3]]),
            "pre_scores": (
                np.array([[0.9], [0.8], [0.3]], dtype="float32"),
                [[0, 2, 3], [0, 1, 2, 3]],
            ),
            "ids": (
                np.array([[0, 1, 2, 3], [0, 1, 2, 3], [7, 8, 9, 10]], dtype="int64"),
                [[0, 2, 3], [0, 1, 2, 3]],
            ),
            "scores": (
                np.array(
                    [[0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1], [0.25, 0.5, 0.125, 0.75]],
                    dtype="float32",
                ),
                [[0, 2, 3], [0, 1, 2, 3]],
            ),
        },
        ["selected_ids", "selected_scores", "parent_idx"],
        {"level": 0, "beam_size": 2, "end_id": 0, "is_accumulated": True},
    )
    return found


def _tolist(value: Any) -> dict[str, Any]:
    array = np.array(value)
    lod = [list(level) for level in value.lod()] if hasattr(value, "lod") else []
    return {
        "dtype": str(array.dtype),
        "shape": list(array.shape),
        "data": array.ravel().tolist(),
        "lod": lod,
    }


def run_case(name: str) -> dict[str, Any]:
    import paddle

    paddle.enable_static()
    try:
        return _run_static(name)
    finally:  # the parity tests run this among dygraph tests
        paddle.disable_static()


def _run_static(name: str) -> dict[str, Any]:
    import paddle
    from paddle.base import core

    case = cases()[name]
    op_type, inputs, outputs, attrs, grad = (
        case["op"],
        case["inputs"],
        case["outputs"],
        case["attrs"],
        case["grad"],
    )
    float_dtype = "float32"
    result: dict[str, Any] = {"op": op_type, "attrs": attrs}
    result["inputs"] = {k: {**_tolist(a), "lod": lod or []} for k, (a, lod) in inputs.items()}

    def feed_of(extra: dict[str, np.ndarray]) -> dict[str, Any]:
        feed = {}
        for key, (array, lod) in inputs.items():
            tensor = core.DenseTensor()
            tensor.set(array, paddle.CPUPlace())
            if lod:
                tensor.set_lod(lod)
            feed[key] = tensor
        return {**feed, **extra}

    def build(
        out_grad_shape: list[int] | None,
    ) -> tuple[Any, dict[str, Any], dict[str, Any], list[Any]]:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            block = main.global_block()
            in_vars = {}
            for key, (array, lod) in inputs.items():
                var = paddle.static.data(
                    key, list(array.shape), str(array.dtype), lod_level=len(lod or [])
                )
                var.stop_gradient = out_grad_shape is None or key not in grad["wrt"]
                in_vars[key] = var
            out_vars = {
                key: block.create_var(
                    name=f"out_{key}", dtype=OUTPUT_DTYPES.get((op_type, key), float_dtype)
                )
                for key in outputs
            }
            block.append_op(
                type=op_type,
                inputs={k: [v] for k, v in in_vars.items()},
                outputs={k: [v] for k, v in out_vars.items()},
                attrs=dict(attrs),
            )
            grad_vars: list[Any] = []
            if out_grad_shape is not None:
                # the compile-time shape is the op's guess, the fed one the real one
                weight = paddle.static.data("w_out", list(out_vars[grad["of"]].shape), float_dtype)
                weight.desc.set_need_check_feed(False)
                wrt = [in_vars[key] for key in grad["wrt"]]
                grads = paddle.static.gradients(
                    [out_vars[grad["of"]]], wrt, target_gradients=[weight]
                )
                grad_vars = [g for g in grads if g is not None] if grad["fetch_grads"] else []
        return main, in_vars, out_vars, grad_vars

    with paddle.pir_utils.OldIrGuard():
        exe = paddle.static.Executor(paddle.CPUPlace())
        main, _, out_vars, _ = build(None)
        values = exe.run(
            main, feed=feed_of({}), fetch_list=[out_vars[k] for k in outputs], return_numpy=False
        )
        result["outputs"] = {k: _tolist(v) for k, v in zip(outputs, values)}
        if grad is not None:
            shape = result["outputs"][grad["of"]]["shape"]
            weight = uniform(tuple(shape), 100, float_dtype)
            result["out_grad"] = _tolist(weight)
            main, in_vars, _, grad_vars = build(shape)
            fetch = grad_vars + [in_vars[k] for k in grad["fetch"]]
            feed = feed_of({"w_out": weight})
            values = exe.run(main, feed=feed, fetch_list=fetch, return_numpy=False)
            names = [f"{k}@GRAD" for k in grad["wrt"]] * grad["fetch_grads"] + [
                f"{k}@AFTER" for k in grad["fetch"]
            ]
            result["grads"] = {k: _tolist(v) for k, v in zip(names, values)}
    return result


def _run(names: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, __file__, "--case", *names],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S * len(names),
        env={**os.environ, "GLOG_minloglevel": "3"},
    )


def main() -> None:
    if len(sys.argv) >= 3 and sys.argv[1] == "--case":
        for name in sys.argv[2:]:
            print("@@RESULT@@" + json.dumps({name: run_case(name)}), flush=True)
        return
    groups: dict[str, list[str]] = {}
    for name, case in cases().items():
        groups.setdefault(case["op"], []).append(name)
    record: dict[str, Any] = {}
    for names in groups.values():
        proc = _run(names)
        for line in proc.stdout.splitlines():
            if line.startswith("@@RESULT@@"):
                record.update(json.loads(line[len("@@RESULT@@") :]))
        missing = [n for n in names if n not in record]
        if missing:
            raise SystemExit(
                f"cases {missing} failed in PaddlePaddle 3.3.1:\n{proc.stderr[-3000:]}"
            )
        print(f"{', '.join(names)}: recorded", flush=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
