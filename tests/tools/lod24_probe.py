"""Probes which of the LoD sequence ops of PaddlePaddle 3.3.1's ops.yaml run on CPU, and records
their outputs (with the outputs' LoD) and, for the differentiable ones that run, the gradients of
``sum(out * weight)`` (the weights fed as the outputs' gradients) with respect to their float inputs; writes tests/data/lod24/paddle_3_3_1.json.

Each op is built as a legacy (old IR) static program, ``block.append_op`` with the op's legacy
input and output names (op_compat.yaml), its LoD inputs fed as DenseTensors with ``set_lod`` through
the Executor, and run in a subprocess of its own (some of these kernels abort the process): a case
that fails is recorded with the exact error text (its last line) or the signal that killed it.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python tests/tools/lod24_probe.py``
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

OUT = Path(__file__).resolve().parents[1] / "data" / "lod24" / "paddle_3_3_1.json"
TIMEOUT_S = 120


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def uniform(shape: tuple[int, ...], seed: int, dtype: str = "float64", lo: float = -1.0, hi: float = 1.0) -> np.ndarray:
    return rng(seed).uniform(lo, hi, shape).astype(dtype)


# case name -> (op type, inputs {legacy name: (array, lod or None)}, outputs [legacy names],
#               attrs, inputs to differentiate, outputs to differentiate)
Case = tuple[str, dict[str, tuple[np.ndarray, list[list[int]] | None]], list[str], dict[str, Any], list[str], list[str]]

SEQ_LOD = [[0, 2, 2, 5, 7]]
# outputs that are not of the case's float dtype
INDEX_OUTPUTS = {
    ("sequence_pool", "MaxIndex"): "int32",
    ("beam_search", "selected_ids"): "int64",
    ("beam_search", "parent_idx"): "int32",
    ("pyramid_hash", "DropPos"): "int32",
    ("pyramid_hash", "X_Temp_Out"): "int32",
    ("rank_attention", "InsRank"): "float32",
}  # four sequences, the second empty


def _cases() -> dict[str, Case]:
    cases: dict[str, Case] = {}
    for dtype in ("float32", "float64"):
        x = uniform((7, 3), 1, dtype)
        for pooltype in ("AVERAGE", "SUM", "SQRT", "MAX", "LAST", "FIRST"):
            cases[f"sequence_pool_{pooltype.lower()}_{dtype}"] = (
                "sequence_pool",
                {"X": (x, SEQ_LOD)},
                ["Out", "MaxIndex"],
                {"pooltype": pooltype, "is_test": False, "pad_value": 0.5},
                ["X"],
                ["Out"],
            )
    cases["sequence_pool_sum_4d_float64"] = (
        "sequence_pool",
        {"X": (uniform((5, 2, 2), 2), [[0, 3, 5]])},
        ["Out", "MaxIndex"],
        {"pooltype": "SUM", "is_test": False, "pad_value": 0.0},
        ["X"],
        ["Out"],
    )
    for dtype in ("float32", "float64"):
        cases[f"sequence_conv_{dtype}"] = (
            "sequence_conv",
            {"X": (uniform((7, 3), 3, dtype), SEQ_LOD), "Filter": (uniform((9, 4), 4, dtype), None)},
            ["Out"],
            {"contextLength": 3, "contextStart": -1, "contextStride": 1, "paddingTrainable": False},
            ["X", "Filter"],
            ["Out"],
        )
    # 3.3.1's CPU context projection reads float32 whatever the dtype (Im2ColFunctor<..., float>):
    # sequence_conv_float64 records the error it gives for float64
    cases["sequence_conv_start0_len2_float32"] = (
        "sequence_conv",
        {"X": (uniform((6, 2), 5, "float32"), [[0, 1, 6]]), "Filter": (uniform((4, 3), 6, "float32"), None)},
        ["Out"],
        {"contextLength": 2, "contextStart": 0, "contextStride": 1, "paddingTrainable": False},
        ["X", "Filter"],
        ["Out"],
    )
    cases["sequence_conv_trainable_padding_float32"] = (
        "sequence_conv",
        {
            "X": (uniform((7, 3), 7, "float32"), SEQ_LOD),
            "PaddingData": (uniform((3, 3), 8, "float32"), None),  # up_pad 2 + down_pad 1
            "Filter": (uniform((12, 2), 9, "float32"), None),
        },
        ["Out"],
        {"contextLength": 4, "contextStart": -2, "contextStride": 1, "paddingTrainable": True},
        ["X", "PaddingData", "Filter"],
        ["Out"],
    )
    cases["sequence_conv_trainable_start1_float32"] = (
        "sequence_conv",
        {
            "X": (uniform((6, 2), 15, "float32"), [[0, 1, 3, 6]]),
            "PaddingData": (uniform((2, 2), 16, "float32"), None),
            "Filter": (uniform((4, 3), 17, "float32"), None),
        },
        ["Out"],
        {"contextLength": 2, "contextStart": 1, "contextStride": 1, "paddingTrainable": True},
        ["X", "PaddingData", "Filter"],
        ["Out"],
    )
    hidden = 2
    lstm_lod = [[0, 3, 4, 6]]
    for name, peep, reverse, with_h0, acts in (
        ("lstm_peephole_float64", True, False, False, ("sigmoid", "tanh", "tanh")),
        ("lstm_reverse_h0_float64", True, True, True, ("sigmoid", "tanh", "tanh")),
        ("lstm_no_peephole_relu_float64", False, False, True, ("sigmoid", "relu", "identity")),
    ):
        inputs = {
            "Input": (uniform((6, 4 * hidden), 10), lstm_lod),
            "Weight": (uniform((hidden, 4 * hidden), 11), None),
            "Bias": (uniform((1, 7 * hidden if peep else 4 * hidden), 12), None),
        }
        if with_h0:
            inputs["H0"] = (uniform((3, hidden), 13), None)
            inputs["C0"] = (uniform((3, hidden), 14), None)
        cases[name] = (
            "lstm",
            inputs,
            ["Hidden", "Cell", "BatchGate", "BatchCellPreAct"],
            {
                "use_peepholes": peep,
                "is_reverse": reverse,
                "is_test": False,
                "gate_activation": acts[0],
                "cell_activation": acts[1],
                "candidate_activation": acts[2],
            },
            [k for k in inputs if k != "Input"] + ["Input"],
            ["Hidden", "Cell"],
        )
    cases["lstm_float32"] = (
        "lstm",
        {
            "Input": (uniform((6, 4 * hidden), 10, "float32"), lstm_lod),
            "Weight": (uniform((hidden, 4 * hidden), 11, "float32"), None),
            "Bias": (uniform((1, 7 * hidden), 12, "float32"), None),
        },
        ["Hidden", "Cell", "BatchGate", "BatchCellPreAct"],
        {"use_peepholes": True, "is_reverse": False, "is_test": False},
        ["Input", "Weight", "Bias"],
        ["Hidden", "Cell"],
    )
    for name, reverse, origin, with_h0, dtype in (
        ("gru_float64", False, False, False, "float64"),
        ("gru_reverse_origin_h0_float64", True, True, True, "float64"),
        ("gru_float32", False, False, True, "float32"),
    ):
        inputs = {
            "Input": (uniform((6, 3 * hidden), 20, dtype), lstm_lod),
            "Weight": (uniform((hidden, 3 * hidden), 21, dtype), None),
            "Bias": (uniform((1, 3 * hidden), 22, dtype), None),
        }
        if with_h0:
            inputs["H0"] = (uniform((3, hidden), 23, dtype), None)
        cases[name] = (
            "gru",
            inputs,
            ["BatchGate", "BatchResetHiddenPrev", "BatchHidden", "Hidden"],
            {"activation": "tanh", "gate_activation": "sigmoid", "is_reverse": reverse, "origin_mode": origin, "is_test": False},
            list(inputs),
            ["Hidden"],
        )
    cases["match_matrix_tensor_float32"] = (
        "match_matrix_tensor",
        {
            "X": (uniform((5, 3), 30, "float32"), [[0, 2, 5]]),
            "Y": (uniform((4, 3), 31, "float32"), [[0, 3, 4]]),
            "W": (uniform((3, 2, 3), 32, "float32"), None),
        },
        ["Out", "Tmp"],
        {"dim_t": 2},
        ["X", "Y", "W"],
        ["Out"],
    )
    m, d = 3, 2
    cases["attention_lstm_float32"] = (
        "attention_lstm",
        {
            "X": (uniform((5, m), 40, "float32"), [[0, 2, 5]]),
            "C0": (uniform((2, d), 41, "float32"), None),
            "H0": (uniform((2, d), 42, "float32"), None),
            "AttentionWeight": (uniform((m + d, 1), 43, "float32"), None),
            "AttentionBias": (uniform((1, 1), 44, "float32"), None),
            "LSTMWeight": (uniform((d + m, 4 * d), 45, "float32"), None),
            "LSTMBias": (uniform((1, 4 * d), 46, "float32"), None),
        },
        ["Hidden", "Cell", "AttentionedX", "AttentionFCOut", "LSTMX", "LSTMOUT"],
        {"gate_activation": "sigmoid", "cell_activation": "tanh", "candidate_activation": "tanh"},
        [],
        [],
    )
    cases["pyramid_hash_float32"] = (
        "pyramid_hash",
        {
            "X": (np.array([[1], [2], [3], [4], [5], [6]], dtype="int32"), [[0, 4, 6]]),
            "W": (uniform((20, 1), 50, "float32"), None),
            "WhiteList": (np.zeros((1, 1), dtype="int32"), None),
            "BlackList": (np.zeros((1, 1), dtype="int32"), None),
        },
        ["Out", "DropPos", "X_Temp_Out"],
        {
            "num_emb": 4,
            "space_len": 16,
            "pyramid_layer": 2,
            "rand_len": 4,
            "drop_out_percent": 0.0,
            "is_training": 0,
            "use_filter": False,
            "white_list_len": 0,
            "black_list_len": 0,
            "seed": 1,
            "lr": 0.0,
            "distribute_update_vars": "",
        },
        [],
        [],
    )
    cases["beam_search_float32"] = (
        "beam_search",
        {
            "pre_ids": (np.array([[1], [2]], dtype="int64"), [[0, 1, 2], [0, 1, 2]]),
            "pre_scores": (np.array([[0.1], [0.2]], dtype="float32"), [[0, 1, 2], [0, 1, 2]]),
            "ids": (np.array([[4, 2, 5], [2, 1, 3]], dtype="int64"), [[0, 1, 2], [0, 1, 2]]),
            "scores": (np.array([[0.5, 0.3, 0.2], [0.6, 0.3, 0.1]], dtype="float32"), [[0, 1, 2], [0, 1, 2]]),
        },
        ["selected_ids", "selected_scores", "parent_idx"],
        {"level": 0, "beam_size": 2, "end_id": 0, "is_accumulated": True},
        [],
        [],
    )
    cases["cudnn_lstm_float32"] = (
        "cudnn_lstm",
        {
            "Input": (uniform((3, 2, 2), 60, "float32"), None),
            "InitH": (uniform((1, 2, 2), 61, "float32"), None),
            "InitC": (uniform((1, 2, 2), 62, "float32"), None),
            "W": (uniform((48,), 63, "float32"), None),
        },
        ["Out", "LastH", "LastC", "Reserve", "StateOut"],
        {"dropout_prob": 0.0, "is_bidirec": False, "hidden_size": 2, "num_layers": 1, "is_test": True, "seed": 0},
        [],
        [],
    )
    cases["rank_attention_float32"] = (
        "rank_attention",
        {
            "X": (uniform((2, 2), 70, "float32"), None),
            "RankOffset": (np.array([[1, 1, 0, 2, 1], [2, 1, 0, 2, 1]], dtype="int32"), None),
            "RankParam": (uniform((2 * 2 * 2, 3), 71, "float32"), None),
        },
        ["InputHelp", "Out", "InsRank"],
        {"MaxRank": 2, "MaxSize": 0},
        [],
        [],
    )
    cases["batch_fc_float32"] = (
        "batch_fc",
        {
            "Input": (uniform((2, 3, 4), 80, "float32"), None),
            "W": (uniform((2, 4, 5), 81, "float32"), None),
            "Bias": (uniform((2, 5), 82, "float32"), None),
        },
        ["Out"],
        {},
        [],
        [],
    )
    return cases


def _tolist(value: Any) -> dict[str, Any]:
    array = np.array(value)
    lod = [list(level) for level in value.lod()] if hasattr(value, "lod") else []
    return {"dtype": str(array.dtype), "shape": list(array.shape), "data": array.ravel().tolist(), "lod": lod}


def _build(name: str, with_grads: bool) -> tuple[Any, list[Any], list[Any]]:
    """The case's program, the output variables and (with_grads) the input gradients' variables."""
    import paddle

    op_type, inputs, outputs, attrs, wrt, diff_outputs = _cases()[name]
    float_dtype = "float64" if name.endswith("float64") else "float32"
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        block = main.global_block()
        in_vars = {}
        for key, (array, lod) in inputs.items():
            var = paddle.static.data(key, list(array.shape), str(array.dtype), lod_level=len(lod or []))
            var.stop_gradient = key not in wrt
            in_vars[key] = var
        out_vars = {
            key: block.create_var(name=f"out_{key}", dtype=INDEX_OUTPUTS.get((op_type, key), float_dtype))
            for key in outputs
        }
        block.append_op(
            type=op_type,
            inputs={k: [v] for k, v in in_vars.items()},
            outputs={k: [v] for k, v in out_vars.items()},
            attrs=attrs,
        )
        grad_vars = []
        if with_grads:
            targets = [out_vars[key] for key in diff_outputs]
            weights = [paddle.static.data(f"w_{key}", list(out_vars[key].shape), float_dtype) for key in diff_outputs]
            for weight in weights:  # the compile-time shape is the op's guess (x's rows), the fed one the real one
                weight.desc.set_need_check_feed(False)
            grad_vars = paddle.static.gradients(targets, [in_vars[k] for k in wrt], target_gradients=weights)
    return main, [out_vars[k] for k in outputs], grad_vars


def run_case(name: str) -> dict[str, Any]:
    """Case ``name`` run in PaddlePaddle: its inputs, outputs (with LoDs) and gradients."""
    import paddle

    paddle.enable_static()
    try:
        return _run_static(name)
    finally:  # the parity tests run this among dygraph tests
        paddle.disable_static()


def _run_static(name: str) -> dict[str, Any]:
    import paddle
    from paddle.base import core

    op_type, inputs, outputs, attrs, wrt, diff_outputs = _cases()[name]
    float_dtype = "float64" if name.endswith("float64") else "float32"
    feed = {}
    for key, (array, lod) in inputs.items():
        tensor = core.DenseTensor()
        tensor.set(array, paddle.CPUPlace())
        if lod:
            tensor.set_lod(lod)
        feed[key] = tensor
    result: dict[str, Any] = {"op": op_type, "attrs": attrs, "wrt": wrt, "diff_outputs": diff_outputs}
    result["inputs"] = {k: {**_tolist(a), "lod": lod or []} for k, (a, lod) in inputs.items()}
    with paddle.pir_utils.OldIrGuard():
        exe = paddle.static.Executor(paddle.CPUPlace())
        main, fetch, _ = _build(name, with_grads=False)
        values = exe.run(main, feed=feed, fetch_list=fetch, return_numpy=False)
        result["outputs"] = {k: _tolist(v) for k, v in zip(outputs, values)}
        result["grads"] = {}
        if wrt:
            shapes = {k: np.array(v).shape for k, v in zip(outputs, values)}
            weights = {f"w_{key}": uniform(shapes[key], 100 + i, float_dtype) for i, key in enumerate(diff_outputs)}
            result["weights"] = {k: _tolist(v) for k, v in weights.items()}
            main, fetch, grad_vars = _build(name, with_grads=True)
            present = [g for g in grad_vars if g is not None]
            values = exe.run(main, feed={**feed, **weights}, fetch_list=present, return_numpy=False)
            grads = iter(values)
            result["grads"] = {k: (_tolist(next(grads)) if g is not None else None) for k, g in zip(wrt, grad_vars)}
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
            try:
                print("@@RESULT@@" + json.dumps({name: run_case(name)}), flush=True)
            except Exception as error:  # recorded: which error 3.3.1 raises is the finding
                lines = [line.strip() for line in str(error).splitlines() if line.strip()]
                message = next((line for line in lines if "Error" in line), lines[-1] if lines else "")
                failure = {"runs": False, "op": _cases()[name][0], "error": f"{type(error).__name__}: {message}"}
                failure["detail"] = [line for line in lines if line.startswith("[")][-3:]
                print("@@RESULT@@" + json.dumps({name: failure}), flush=True)
        return
    record: dict[str, Any] = {}
    groups: dict[str, list[str]] = {}
    for name, case in _cases().items():
        groups.setdefault(case[0], []).append(name)
    results: dict[str, dict[str, Any]] = {}
    failures: dict[str, subprocess.CompletedProcess[str]] = {}
    for names in groups.values():
        proc = _run(names)
        for line in proc.stdout.splitlines():
            if line.startswith("@@RESULT@@"):
                results.update(json.loads(line[len("@@RESULT@@"):]))
        for name in names:
            if name not in results:
                failures[name] = proc if len(names) == 1 else _run([name])
                for line in failures[name].stdout.splitlines():
                    if line.startswith("@@RESULT@@"):
                        results.update(json.loads(line[len("@@RESULT@@"):]))
    for name in _cases():
        proc = failures.get(name)
        if name in results:
            record[name] = {"runs": True, **results[name]} if "runs" not in results[name] else results[name]
        else:
            lines = [line for line in proc.stderr.splitlines() if line.strip()]
            error = next((line for line in lines if "Error" in line and ":" in line), lines[-1] if lines else "")
            detail = [line for line in lines if line.lstrip().startswith("[") and "Hint" in line or "Error" in line]
            record[name] = {
                "runs": False,
                "op": _cases()[name][0],
                "returncode": proc.returncode,
                "error": error.strip(),
                "detail": [line.strip() for line in detail[-4:]],
            }
        status = "runs" if record[name]["runs"] else f"FAILS ({record[name].get('returncode', 'raised')}): {record[name]['error'][:200]}"
        print(f"{name}: {status}", flush=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
