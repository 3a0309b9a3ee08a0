"""Writes tests/data/graph24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results (and gradients,
for the float dtypes) of the graph24 ops of issue 24 (send_ue_recv, send_uv, reindex_graph) through the op
(``paddle._C_ops``) and ``paddle.geometric``, for every dtype PaddlePaddle registers on CPU, on
inputs with their edges (ties for MAX/MIN, rows receiving nothing, out_size, [edges, 1]
indices, broadcast trailing dims).

x and y of different ranks are left out at the op: 3.3.1's kernels corrupt their heap on them
(paddle.geometric reshapes both to one rank first, and its cases cover that path).

Cases use the format of tests/tools/make_losscum_fixtures.py; tests/ops/test_graph24_paddle.py
compares phiops with the recording (no PaddlePaddle needed) and
tests/parity/test_graph24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_graph24_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.tools.make_losscum_fixtures import case, tensor
from tests.tools.make_seq24_fixtures import run

OUT = Path(__file__).resolve().parents[1] / "data" / "graph24" / "paddle_3_3_1.json"

__all__ = ["cases", "run", "OUT"]

X = [1, 2, 3, 3, 2, 1, 4, 5, 6, -2, 7, 0]
SRC = [0, 1, 2, 0, 3, 3]
DST = [1, 2, 1, 0, 1, 4]
Y = [1, 2, 3, -1, 2, 3]


def send_cases() -> dict[str, dict[str, Any]]:
    """send_ue_recv and send_uv: every message and reduce op, each dtype, both index dtypes."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("float32", "float64", "int32", "int64"):
        x = tensor("x", X, [4, 3], dtype)
        index_dtype = "int32" if dtype in ("float32", "int32") else "int64"
        src = tensor("src_index", SRC, [6], index_dtype)
        dst = tensor("dst_index", DST, [6], index_dtype)
        y = tensor("y", Y, [6, 1], dtype)
        for message in ("ADD", "MUL"):
            for reduce in ("SUM", "MEAN", "MAX", "MIN"):
                out[f"send_ue_recv-{dtype}-{message}-{reduce}"] = case(
                    "op", "send_ue_recv", [x, y, src, dst],
                    ["$x", "$y", "$src_index", "$dst_index", message, reduce, [5]],
                )  # fmt: skip
            y_nodes = tensor("y", [1, 2, 3, -1, 2, 3, 0, 1, 2, 5, 4, 3, 2, 2, 1], [5, 3], dtype)
            out[f"send_uv-{dtype}-{message}"] = case(
                "op", "send_uv", [x, y_nodes, src, dst],
                ["$x", "$y", "$src_index", "$dst_index", message],
            )  # fmt: skip
        wide = tensor("y", list(range(-6, 12)), [6, 3], dtype)
        out[f"send_ue_recv-{dtype}-rows-MEAN"] = case(
            "op", "send_ue_recv", [x, wide, src, dst],
            ["$x", "$y", "$src_index", "$dst_index", "MUL", "MEAN", [7]],
        )  # fmt: skip
    x = tensor("x", X, [4, 1, 3], "float64")
    y = tensor("y", list(range(12)), [6, 2, 1], "float64")
    src = tensor("src_index", SRC, [6, 1], "int64")
    dst = tensor("dst_index", DST, [6, 1], "int64")
    for message in ("ADD", "MUL"):
        out[f"send_ue_recv-broadcast-{message}"] = case(
            "op", "send_ue_recv", [x, y, src, dst],
            ["$x", "$y", "$src_index", "$dst_index", message, "MAX", [5]],
        )  # fmt: skip
    return out


def geometric_cases() -> dict[str, dict[str, Any]]:
    """paddle.geometric.send_ue_recv / send_uv: sub and div, 1-D and lower-ranked features."""
    out: dict[str, dict[str, Any]] = {}
    x = tensor("x", X, [4, 3], "float32")
    src = tensor("src_index", SRC, [6], "int64")
    dst = tensor("dst_index", [1, 2, 1, 0, 1, 3], [6], "int64")
    y = tensor("y", [1.5, 2, 3, -1, 2, 4], [6], "float32")
    for message in ("add", "sub", "mul", "div"):
        for reduce in ("sum", "mean", "max", "min"):
            out[f"send_ue_recv-geometric-{message}-{reduce}"] = case(
                "geometric", "send_ue_recv", [x, y, src, dst],
                ["$x", "$y", "$src_index", "$dst_index", message, reduce],
            )  # fmt: skip
        out[f"send_uv-geometric-{message}"] = case(
            "geometric", "send_uv", [x, tensor("y", [1, 2, 3, 4], [4], "float32"), src, dst],
            ["$x", "$y", "$src_index", "$dst_index", message],
        )  # fmt: skip
    out["send_ue_recv-geometric-out_size"] = case(
        "geometric", "send_ue_recv", [x, y, src, dst],
        ["$x", "$y", "$src_index", "$dst_index"], {"out_size": 6},
    )  # fmt: skip
    rows3 = tensor("x", list(range(24)), [4, 2, 3], "float64")
    out["send_uv-geometric-ranks"] = case(
        "geometric", "send_uv", [rows3, tensor("y", X, [4, 3], "float64"), src, dst],
        ["$x", "$y", "$src_index", "$dst_index", "mul"],
    )  # fmt: skip
    return out


def reindex_cases() -> dict[str, dict[str, Any]]:
    """reindex_graph: both dtypes, a node held twice in x, no neighbors, through
    paddle.geometric too."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("int32", "int64"):
        x = tensor("x", [0, 5, 9], [3], dtype)
        neighbors = tensor("neighbors", [8, 9, 0, 4, 7, 6, 7], [7], dtype)
        count = tensor("count", [2, 3, 2], [3], "int32")
        for via in ("op", "geometric"):
            out[f"reindex_graph-{via}-{dtype}"] = case(
                via, "reindex_graph", [x, neighbors, count],
                ["$x", "$neighbors", "$count"] + ([None, None] if via == "op" else []),
            )  # fmt: skip
        out[f"reindex_graph-twice-{dtype}"] = case(
            "op", "reindex_graph",
            [tensor("x", [3, 3], [2], dtype), tensor("neighbors", [3, 1, 1], [3], dtype),
             tensor("count", [1, 2], [2], "int32")],
            ["$x", "$neighbors", "$count", None, None],
        )  # fmt: skip
        out[f"reindex_graph-no-neighbors-{dtype}"] = case(
            "op", "reindex_graph",
            [x, tensor("neighbors", [], [0], dtype), tensor("count", [0, 0, 0], [3], "int32")],
            ["$x", "$neighbors", "$count", None, None],
        )  # fmt: skip
    return out


def cases() -> dict[str, dict[str, Any]]:
    return {**send_cases(), **geometric_cases(), **reindex_cases()}


def main() -> None:
    import paddle

    recorded = {key: {**c, **run(paddle, c)} for key, c in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
