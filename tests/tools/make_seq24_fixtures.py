"""Writes tests/data/seq24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results (and gradients, for
the differentiable ones) of the seq24 ops of issue 24 (gather_tree, viterbi_decode,
edit_distance, ...) through the op (``paddle._C_ops``) and the Python functions
(``paddle.nn.functional``, ``paddle.text``), for every dtype PaddlePaddle registers on CPU, on
inputs with their edges (one step, sequences of length 0 and of the full width, ties, empty
references).

Cases use the format of tests/tools/make_losscum_fixtures.py (``via``, tensor inputs, arguments
with ``"$x"`` for input ``x``), with ``via`` also ``text`` (``paddle.text``):
tests/ops/test_seq24_paddle.py compares phiops with the recording (no PaddlePaddle needed) and
tests/parity/test_seq24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_seq24_fixtures.py``.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from tests.tools.make_losscum_fixtures import (
    FLOAT_KINDS,
    case,
    dtype_name,
    make_inputs,
    out_grad_for,
    tensor,
    to_json,
)

OUT = Path(__file__).resolve().parents[1] / "data" / "seq24" / "paddle_3_3_1.json"

OWNERS = {
    "op": "_C_ops",
    "F": "nn.functional",
    "text": "text",
    "incubate": "incubate",
    "IF": "incubate.nn.functional",
    "geometric": "geometric",
    "api": "",
}


def _normal(n: int, seed: int) -> list[float]:
    return np.round(np.random.default_rng(seed).normal(0.0, 1.5, n), 4).tolist()


def _ints(n: int, high: int, seed: int) -> list[int]:
    return np.random.default_rng(seed).integers(0, high, n).tolist()


def decode_cases() -> dict[str, dict[str, Any]]:
    """gather_tree and viterbi_decode."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("int32", "int64"):
        ids = tensor("ids", [2, 2, 6, 1, 3, 9, 6, 1, 0, 1, 9, 0], [3, 2, 2], dtype)
        parents = tensor("parents", [0, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0, 1], [3, 2, 2], dtype)
        out[f"gather_tree-{dtype}"] = case(
            "op", "gather_tree", [ids, parents], ["$ids", "$parents"]
        )
        out[f"gather_tree-F-{dtype}"] = case(
            "F", "gather_tree", [ids, parents], ["$ids", "$parents"]
        )
        big_ids = tensor("ids", _ints(60, 20, 1), [5, 3, 4], dtype)
        big_parents = tensor("parents", _ints(60, 4, 2), [5, 3, 4], dtype)
        out[f"gather_tree-5x3x4-{dtype}"] = case(
            "op", "gather_tree", [big_ids, big_parents], ["$ids", "$parents"]
        )
        one = tensor("ids", [4, 5, 6], [1, 1, 3], dtype)
        out[f"gather_tree-one-step-{dtype}"] = case(
            "op",
            "gather_tree",
            [one, tensor("parents", [9, 9, 9], [1, 1, 3], dtype)],
            ["$ids", "$parents"],
        )
    for dtype in ("float32", "float64"):
        for bos in (True, False):
            potentials = tensor("potentials", _normal(2 * 5 * 4, 3), [2, 5, 4], dtype)
            transition = tensor("transition", _normal(16, 4), [4, 4], dtype)
            for lengths in ([5, 3], [1, 4], [0, 3]):
                out[f"viterbi_decode-{dtype}-{bos}-{lengths}"] = case(
                    "op",
                    "viterbi_decode",
                    [potentials, transition, tensor("lengths", lengths, [2], "int64")],
                    ["$potentials", "$transition", "$lengths", bos],
                )
            out[f"viterbi_decode-text-{dtype}-{bos}"] = case(
                "text",
                "viterbi_decode",
                [potentials, transition, tensor("lengths", [4, 5], [2], "int64")],
                ["$potentials", "$transition", "$lengths", bos],
            )
        ties = tensor("potentials", [0.0] * 18, [3, 2, 3], dtype)
        out[f"viterbi_decode-ties-{dtype}"] = case(
            "op",
            "viterbi_decode",
            [ties, tensor("transition", [0.0] * 9, [3, 3], dtype),
             tensor("lengths", [2, 1, 0], [3], "int64")],
            ["$potentials", "$transition", "$lengths", False],
        )  # fmt: skip
    return out


def distance_cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    hyps = tensor("hyps", [1, 2, 3, 4, 1, 1, 2, 0, 5, 5, 5, 5, 7, 8, 9, 9], [4, 4], "int64")
    refs = tensor("refs", [1, 3, 4, 0, 2, 2, 2, 2, 5, 5, 5, 5, 9, 8, 7, 6], [4, 4], "int64")
    for normalized in (False, True):
        for hl, rl in (([4, 3, 0, 4], [3, 4, 2, 4]), ([1, 4, 4, 2], [4, 1, 3, 3])):
            out[f"edit_distance-{normalized}-{hl}-{rl}"] = case(
                "op",
                "edit_distance",
                [hyps, refs, tensor("hl", hl, [4], "int64"), tensor("rl", rl, [4], "int64")],
                ["$hyps", "$refs", "$hl", "$rl", normalized],
            )
    out["edit_distance-empty-ref"] = case(
        "op",
        "edit_distance",
        [hyps, refs, tensor("hl", [2, 0, 3, 1], [4], "int64"),
         tensor("rl", [0, 0, 2, 4], [4], "int64")],
        ["$hyps", "$refs", "$hl", "$rl", False],
    )  # fmt: skip
    wide = tensor("hyps", _ints(3 * 7, 4, 5), [3, 7], "int64")
    narrow = tensor("refs", _ints(3 * 5, 4, 6), [3, 5], "int64")
    out["edit_distance-widths"] = case(
        "op",
        "edit_distance",
        [
            wide,
            narrow,
            tensor("hl", [7, 5, 6], [3], "int64"),
            tensor("rl", [5, 5, 2], [3], "int64"),
        ],
        ["$hyps", "$refs", "$hl", "$rl", True],
    )
    return out


def align_cases() -> dict[str, dict[str, Any]]:
    """ctc_align, crf_decoding and chunk_eval."""
    out: dict[str, dict[str, Any]] = {}
    tokens = [0, 1, 1, 0, 2, 2, 3, 5, 5, 0, 5, -1, -1, 2, 1, 2, 3, 4, 5, 6, 7]
    for dtype in ("int32", "int64"):
        for merge in (True, False):
            for blank, padding in ((0, 0), (5, -7)):
                shape = [3, 1] if merge else [3]
                out[f"ctc_align-{dtype}-{merge}-{blank}-{padding}-{shape}"] = case(
                    "op",
                    "ctc_align",
                    [tensor("input", tokens, [3, 7], dtype),
                     tensor("input_length", [7, 6, 0], shape, dtype)],
                    ["$input", "$input_length", blank, merge, padding],
                )  # fmt: skip
    for dtype in ("float32", "float64"):
        emission = tensor("emission", _normal(3 * 5 * 4, 7), [3, 5, 4], dtype)
        transition = tensor("transition", _normal(6 * 4, 8), [6, 4], dtype)
        for lengths in ([5, 3, 1], [0, 5, 2]):
            out[f"crf_decoding-{dtype}-{lengths}"] = case(
                "op",
                "crf_decoding",
                [emission, transition, tensor("length", lengths, [3], "int64")],
                ["$emission", "$transition", None, "$length"],
            )
            label = tensor("label", _ints(15, 4, 9), [3, 5, 1], "int64")
            out[f"crf_decoding-label-{dtype}-{lengths}"] = case(
                "op",
                "crf_decoding",
                [emission, transition, label, tensor("length", lengths, [3, 1], "int64")],
                ["$emission", "$transition", "$label", "$length"],
            )
    for scheme, kinds in (("IOB", 2), ("IOE", 2), ("IOBES", 4), ("plain", 1)):
        types = 3
        for seed in (10, 11):
            inference = _ints(4 * 9, types * kinds + 1, seed)
            label = _ints(4 * 9, types * kinds + 1, seed + 20)
            for excluded in ([], [1]):
                out[f"chunk_eval-{scheme}-{seed}-{excluded}"] = case(
                    "op",
                    "chunk_eval",
                    [tensor("inference", inference, [4, 9], "int64"),
                     tensor("label", label, [4, 9], "int64"),
                     tensor("seq_length", [9, 5, 0, 7], [4], "int64")],
                    ["$inference", "$label", "$seq_length", types, scheme, excluded],
                )  # fmt: skip
    same = _ints(2 * 6, 5, 12)
    out["chunk_eval-perfect"] = case(
        "op",
        "chunk_eval",
        [tensor("inference", same, [2, 6, 1], "int64"), tensor("label", same, [2, 6, 1], "int64"),
         tensor("seq_length", [6, 4], [2, 1], "int64")],
        ["$inference", "$label", "$seq_length", 2, "IOB", []],
    )  # fmt: skip
    return out


def encoding_cases() -> dict[str, dict[str, Any]]:
    """add_position_encoding (with gradients)."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64"):
        for shape in ([2, 3, 8], [1, 4, 2], [2, 5, 6]):
            x = tensor("x", _normal(int(np.prod(shape)), 13), shape, dtype)
            scales = ((1.0, 1.0), (0.5, 2.0), (0.3, 0.0)) if shape == [2, 3, 8] else ((0.5, 2.0),)
            for alpha, beta in scales:
                out[f"add_position_encoding-{dtype}-{shape}-{alpha}-{beta}"] = case(
                    "op", "add_position_encoding", [x], ["$x", alpha, beta]
                )
    return out


def layer_cases() -> dict[str, dict[str, Any]]:
    """bilinear, cvm, swiglu and fused_softmax_mask (with gradients)."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64"):
        x = tensor("x", _normal(3 * 4, 14), [3, 4], dtype)
        y = tensor("y", _normal(3 * 2, 15), [3, 2], dtype)
        weight = tensor("weight", _normal(5 * 4 * 2, 16), [5, 4, 2], dtype)
        bias = tensor("bias", _normal(5, 17), [1, 5], dtype)
        out[f"bilinear-{dtype}"] = case(
            "op", "bilinear", [x, y, weight, bias], ["$x", "$y", "$weight", "$bias"]
        )
        out[f"bilinear-F-no-bias-{dtype}"] = case(
            "F", "bilinear", [x, y, weight], ["$x", "$y", "$weight", None]
        )
        counts = tensor("x", [3.0, 1.0, 0.5, -1.0, 0.0, 0.0, 2.0, 1.5, 9.0, 4.0, -0.5, 0.25],
                        [3, 4], dtype)  # fmt: skip
        shows = tensor("cvm", [3.0, 1.0, 0.0, 0.0, 9.0, 4.0], [3, 2], dtype)
        for use_cvm in (True, False):
            out[f"cvm-{dtype}-{use_cvm}"] = case(
                "op", "cvm", [counts, shows], ["$x", "$cvm", use_cvm]
            )
        gate = tensor("x", _normal(22, 18) + [-80.0, 80.0], [2, 12], dtype)
        out[f"swiglu-split-{dtype}"] = case("op", "swiglu", [gate], ["$x", None])
        left = tensor("x", _normal(12, 19), [3, 4], dtype)
        right = tensor("y", _normal(12, 20), [3, 4], dtype)
        out[f"swiglu-{dtype}"] = case("op", "swiglu", [left, right], ["$x", "$y"])
        out[f"swiglu-IF-{dtype}"] = case("IF", "swiglu", [left, right], ["$x", "$y"])
        out[f"swiglu-IF-split-{dtype}"] = case("IF", "swiglu", [left], ["$x"])
        scores = tensor("x", _normal(2 * 3 * 4 * 5, 21), [2, 3, 4, 5], dtype)
        mask = tensor("mask", [0.0, -1e4] * 20, [2, 1, 4, 5], dtype, False)
        out[f"fused_softmax_mask-{dtype}"] = case(
            "op", "fused_softmax_mask", [scores, mask], ["$x", "$mask"]
        )
        out[f"softmax_mask_fuse-{dtype}"] = case(
            "incubate", "softmax_mask_fuse", [scores, mask], ["$x", "$mask"]
        )
    return out


def segment_cases() -> dict[str, dict[str, Any]]:
    """segment_pool (gradients for the float dtypes), through the op and paddle.geometric."""
    out: dict[str, dict[str, Any]] = {}
    values = [1, 2, 3, 3, 2, 1, 4, 5, 6, 4, 5, 6, -2, 7, 0]
    for dtype in ("float16", "float32", "float64", "int32", "int64"):
        x = tensor("x", values, [5, 3], dtype)
        ids_dtype = "int32" if dtype in ("float32", "int64") else "int64"
        ids = tensor("segment_ids", [0, 0, 2, 2, 3], [5], ids_dtype)
        for pool in ("SUM", "MEAN", "MAX", "MIN"):
            out[f"segment_pool-{dtype}-{ids_dtype}-{pool}"] = case(
                "op", "segment_pool", [x, ids], ["$x", "$segment_ids", pool]
            )
        if dtype in ("float32", "int32"):
            ids = tensor("segment_ids", [1, 1, 1, 4, 4], [5], "int64")
            for fn in ("segment_sum", "segment_mean", "segment_max", "segment_min"):
                out[f"{fn}-{dtype}"] = case("geometric", fn, [x, ids], ["$x", "$segment_ids"])
        out[f"segment_pool-1d-{dtype}"] = case(
            "op",
            "segment_pool",
            [
                tensor("x", [5, -1, 3, 8], [4], dtype),
                tensor("segment_ids", [0, 1, 1, 1], [4], "int64"),
            ],
            ["$x", "$segment_ids", "MEAN"],
        )
    return out


def graph_cases() -> dict[str, dict[str, Any]]:
    """send_u_recv (gradients for the float dtypes), through the op and paddle.geometric."""
    out: dict[str, dict[str, Any]] = {}
    values = [1, 2, 3, 3, 2, 1, 4, 5, 6, -2, 7, 0]
    for dtype in ("float32", "float64", "int32", "int64"):
        x = tensor("x", values, [4, 3], dtype)
        index_dtype = "int32" if dtype in ("float32", "int32") else "int64"
        src = tensor("src_index", [0, 1, 2, 0, 3, 2], [6], index_dtype)
        dst = tensor("dst_index", [1, 2, 1, 0, 1, 1], [6], index_dtype)
        for reduce in ("SUM", "MEAN", "MAX", "MIN"):
            for size in ([0], [5]) if reduce in ("SUM", "MAX") else ([0],):
                out[f"send_u_recv-{dtype}-{index_dtype}-{reduce}-{size}"] = case(
                    "op", "send_u_recv", [x, src, dst],
                    ["$x", "$src_index", "$dst_index", reduce, size],
                )  # fmt: skip
        if dtype not in ("float32", "int64"):
            continue
        src = tensor("src_index", [3, 3, 0], [3], "int64")
        dst = tensor("dst_index", [0, 2, 2], [3], "int64")
        for reduce in ("sum", "mean", "max", "min"):
            out[f"send_u_recv-geometric-{dtype}-{reduce}"] = case(
                "geometric", "send_u_recv", [x, src, dst],
                ["$x", "$src_index", "$dst_index", reduce],
            )  # fmt: skip
        out[f"send_u_recv-geometric-size-{dtype}"] = case(
            "geometric", "send_u_recv", [x, src, dst], ["$x", "$src_index", "$dst_index"],
            {"out_size": 6},
        )  # fmt: skip
    return out


def cases() -> dict[str, dict[str, Any]]:
    return {
        **graph_cases(),
        **segment_cases(),
        **decode_cases(),
        **distance_cases(),
        **align_cases(),
        **encoding_cases(),
        **layer_cases(),
    }


def call(lib: ModuleType, case: dict[str, Any], tensors: dict[str, Any]) -> Any:
    owner_path = OWNERS[case["via"]]
    owner = importlib.import_module(f"{lib.__name__}.{owner_path}") if owner_path else lib

    def resolve(value: Any) -> Any:
        if isinstance(value, str) and value.startswith("$"):
            return tensors[value[1:]]
        return value

    args = [resolve(a) for a in case["args"]]
    kwargs = {k: resolve(v) for k, v in case["kwargs"].items()}
    return getattr(owner, case["fn"])(*args, **kwargs)


def run(lib: ModuleType, case: dict[str, Any]) -> dict[str, Any]:
    """The case's outputs (dtype, shape, values) and gradients on ``lib``, as
    make_losscum_fixtures.run records them."""
    tensors = make_inputs(lib, case)
    result = call(lib, case, tensors)
    outs = list(result) if isinstance(result, (tuple, list)) else [result]
    recorded: dict[str, Any] = {
        "outs": [
            {"dtype": dtype_name(o.dtype), "shape": list(o.shape), "values": to_json(o.numpy())}
            for o in outs
        ],
        "grads": {},
    }
    wanted = [name for name, t in tensors.items() if not t.stop_gradient]
    picks = case["grad_outputs"]
    if picks is None:
        picks = [i for i, o in enumerate(outs) if dtype_name(o.dtype) in FLOAT_KINDS]
    differentiable = any(not o.stop_gradient for o in outs)
    if wanted and picks and differentiable:
        targets = [outs[i] for i in picks]
        grad_outputs = [
            lib.to_tensor(out_grad_for(list(t.shape), dtype_name(t.dtype)), dtype=t.dtype)
            for t in targets
        ]
        grads = lib.grad(
            targets, [tensors[n] for n in wanted], grad_outputs=grad_outputs, allow_unused=True
        )
        for name, grad in zip(wanted, grads):
            recorded["grads"][name] = None if grad is None else to_json(grad.numpy())
    return recorded


def main() -> None:
    import paddle

    recorded = {key: {**c, **run(paddle, c)} for key, c in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
