"""Writes tests/data/sample24/paddle_3_3_1.json: PaddlePaddle 3.3.1's results of the sample24
ops of issue 24 (graph_sample_neighbors, weighted_sample_neighbors, graph_khop_sampler,
tdm_child, tdm_sampler) through the op (``paddle._C_ops``), ``paddle.geometric`` and
``paddle.incubate``, for every dtype PaddlePaddle registers on CPU with integer ids.

The samplers' CPU kernels seed their engine from std::random_device, so only their
deterministic cases are recorded: every node with at most sample_size neighbours (all of them,
in CSC order), sample_size 0, and graph_khop_sampler layers whose node count stays len(x)
(3.3.1 reads out of bounds otherwise). tdm_sampler draws from an engine of its seed attribute,
so its seeded draws are recorded too. sample_size -1 is left out: 3.3.1's CPU kernels abort on
it. tests/ops/test_sample24.py tests the random cases' invariants.

Cases use the format of tests/tools/make_losscum_fixtures.py; tests/ops/test_sample24_paddle.py
compares phiops with the recording (no PaddlePaddle needed) and
tests/parity/test_sample24_parity_paddle.py runs both live.

Run with the side venv: ``PYTHONPATH=$PWD /work/paddle-venv/bin/python
tests/tools/make_sample24_fixtures.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.tools.make_losscum_fixtures import case, tensor
from tests.tools.make_seq24_fixtures import run

OUT = Path(__file__).resolve().parents[1] / "data" / "sample24" / "paddle_3_3_1.json"

__all__ = ["cases", "run", "OUT"]

# A CSC graph of 10 nodes: node v's neighbours are ROW[COLPTR[v]:COLPTR[v + 1]] (at most 2).
ROW = [3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7]
COLPTR = [0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13]
NODES = [0, 8, 1, 2, 7]
WEIGHTS = [0.5, 1.0, 2.0, 0.25, 1.0, 3.0, 1.5, 0.0, 1.0, 2.0, 0.5, 1.0, 4.0]
# A graph whose 2-hop frontiers from [1, 2] keep two nodes: 1 -> 3, 2 -> 4, 3 -> 0, 4 -> 1, 2.
HOP_ROW = [1, 2, 3, 4, 0, 1, 2]
HOP_COLPTR = [0, 2, 3, 4, 5, 7]
# A TDM tree: node 0 the root's padding, layer 1 nodes 1-2, layer 2 items 3-6 (item ids 7-10).
TREE_INFO = [
    0, 0, 0, 1, 2,
    0, 1, 0, 3, 4,
    0, 1, 0, 5, 6,
    7, 2, 1, 0, 0,
    8, 2, 1, 0, 0,
    9, 2, 2, 0, 0,
    10, 2, 2, 0, 0,
]  # fmt: skip
TRAVEL = [1, 3, 1, 4, 2, 5, 2, 6, 0, 0, 2, 0]
LAYER = [1, 2, 3, 4, 5, 6]


def _graph(dtype: str, row: list[int] = ROW, colptr: list[int] = COLPTR) -> list[list]:
    return [
        tensor("row", row, [len(row)], dtype, False),
        tensor("colptr", colptr, [len(colptr)], dtype, False),
        tensor("eids", [10 * i for i in range(len(row))], [len(row)], dtype, False),
    ]


def sampler_cases() -> dict[str, dict[str, Any]]:
    """graph_sample_neighbors and weighted_sample_neighbors where nothing is drawn."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("int32", "int64"):
        row, colptr, eids = _graph(dtype)
        nodes = tensor("x", NODES, [len(NODES)], dtype, False)
        weights = tensor("edge_weight", WEIGHTS, [len(WEIGHTS)], "float32", False)
        for size in (2, 5):
            out[f"graph_sample_neighbors-{dtype}-{size}"] = case(
                "op", "graph_sample_neighbors", [row, colptr, nodes, eids],
                ["$row", "$colptr", "$x", "$eids", None, size, True, False],
            )  # fmt: skip
            out[f"weighted_sample_neighbors-{dtype}-{size}"] = case(
                "op", "weighted_sample_neighbors", [row, colptr, weights, nodes, eids],
                ["$row", "$colptr", "$edge_weight", "$x", "$eids", size, True],
            )  # fmt: skip
        out[f"sample_neighbors-geometric-{dtype}"] = case(
            "geometric", "sample_neighbors", [row, colptr, nodes],
            ["$row", "$colptr", "$x"], {"sample_size": 3},
        )  # fmt: skip
        out[f"sample_neighbors-geometric-none-{dtype}"] = case(
            "geometric", "sample_neighbors", [row, colptr, nodes, eids],
            ["$row", "$colptr", "$x"], {"sample_size": 0, "eids": "$eids", "return_eids": True},
        )  # fmt: skip
        out[f"weighted_sample_neighbors-geometric-{dtype}"] = case(
            "geometric", "weighted_sample_neighbors", [row, colptr, weights, nodes],
            ["$row", "$colptr", "$edge_weight", "$x"], {"sample_size": 2},
        )  # fmt: skip
    return out


def khop_cases() -> dict[str, dict[str, Any]]:
    """graph_khop_sampler: one layer, and two layers whose frontiers keep len(x) nodes."""
    out: dict[str, dict[str, Any]] = {}
    for dtype in ("int32", "int64"):
        row, colptr, eids = _graph(dtype)
        nodes = tensor("x", NODES, [len(NODES)], dtype, False)
        out[f"graph_khop_sampler-{dtype}"] = case(
            "op", "graph_khop_sampler", [row, colptr, nodes, eids],
            ["$row", "$colptr", "$x", "$eids", [2], True],
        )  # fmt: skip
        out[f"graph_khop_sampler-incubate-{dtype}"] = case(
            "incubate", "graph_khop_sampler", [row, colptr, nodes],
            ["$row", "$colptr", "$x", [4]],
        )  # fmt: skip
        hop_row, hop_colptr, hop_eids = _graph(dtype, HOP_ROW, HOP_COLPTR)
        out[f"graph_khop_sampler-two-hops-{dtype}"] = case(
            "incubate", "graph_khop_sampler",
            [hop_row, hop_colptr, tensor("x", [1, 2], [2], dtype, False), hop_eids],
            ["$row", "$colptr", "$x", [1, 2]], {"sorted_eids": "$eids", "return_eids": True},
        )  # fmt: skip
    return out


def tdm_cases() -> dict[str, dict[str, Any]]:
    """tdm_child for each id, tree and output dtype; tdm_sampler seeded and without negatives."""
    out: dict[str, dict[str, Any]] = {}
    for x_dtype in ("int32", "int64"):
        for info_dtype in ("int32", "int64"):
            for out_dtype in ("int32", "int64"):
                out[f"tdm_child-{x_dtype}-{info_dtype}-{out_dtype}"] = case(
                    "op", "tdm_child",
                    [tensor("x", [0, 1, 2, 3, 6, 2], [3, 2], x_dtype, False),
                     tensor("tree_info", TREE_INFO, [7, 5], info_dtype, False)],
                    ["$x", "$tree_info", 2, out_dtype],
                )  # fmt: skip
        for tree_dtype, code in (("int32", 2), ("int64", 3)):
            inputs = [
                tensor("x", [0, 1, 2, 3, 4, 5], [6, 1], x_dtype, False),
                tensor("travel", TRAVEL, [6, 2], tree_dtype, False),
                tensor("layer", LAYER, [6], tree_dtype, False),
            ]
            for seed in (7, 123):
                out[f"tdm_sampler-{x_dtype}-{tree_dtype}-seed{seed}"] = case(
                    "op", "tdm_sampler", inputs,
                    ["$x", "$travel", "$layer", True, [1, 2], [0, 2, 6], seed, code],
                )  # fmt: skip
            out[f"tdm_sampler-{x_dtype}-{tree_dtype}-negatives-only"] = case(
                "op", "tdm_sampler", inputs,
                ["$x", "$travel", "$layer", False, [1, 3], [0, 2, 6], 5, 5 - code],
            )  # fmt: skip
            out[f"tdm_sampler-{x_dtype}-{tree_dtype}-positives-only"] = case(
                "op", "tdm_sampler", inputs,
                ["$x", "$travel", "$layer", True, [0, 0], [0, 2, 6], 0, code],
            )  # fmt: skip
    return out


def cases() -> dict[str, dict[str, Any]]:
    return {**sampler_cases(), **khop_cases(), **tdm_cases()}


def main() -> None:
    import paddle

    recorded = {key: {**c, **run(paddle, c)} for key, c in sorted(cases().items())}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(recorded)} cases to {OUT}")


if __name__ == "__main__":
    main()
