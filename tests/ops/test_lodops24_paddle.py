"""Parity of the lodops24 ops with PaddlePaddle 3.3.1, without PaddlePaddle: every case that
tests/tools/lodops24_probe.py recorded into tests/data/lodops24/paddle_3_3_1.json (LoD tensors
fed to 3.3.1's legacy ops through its Executor), run here through phiops' ops on tensors with the
same LoD: outputs (dtype, shape, values, LoD), match_matrix_tensor's gradients, and the hash
table pyramid_hash_grad leaves behind (it updates W in place). The first match_matrix_tensor,
attention_lstm, pyramid_hash and beam_search cases of tests/data/lod24/ are compared too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import phiops
import phiops._C_ops as C
import phiops.generated.backward as backward
import phiops.generated as phi
from phiops.runtime.dispatch.op_def import OP_DEFS
from phiops.runtime.kernels.impl.lodops24_kernel import pyramid_terms

DATA = Path(__file__).resolve().parents[1] / "data"
RECORDED: dict[str, dict[str, Any]] = json.loads(
    (DATA / "lodops24" / "paddle_3_3_1.json").read_text()
)
EARLIER = json.loads((DATA / "lod24" / "paddle_3_3_1.json").read_text())
for _key in (
    "match_matrix_tensor_float32",
    "attention_lstm_float32",
    "pyramid_hash_float32",
    "beam_search_float32",
):
    _case = dict(
        EARLIER[_key]
    )  # tests/tools/lod24_probe.py's form: weights and grads by input name
    if _case["grads"]:
        _case["out_grad"] = _case["weights"]["w_Out"]
        _case["grads"] = {f"{name}@GRAD": grad for name, grad in _case["grads"].items()}
    RECORDED[f"lod24_{_key}"] = _case
CASES = sorted(RECORDED)

LEGACY_INPUTS = {
    "match_matrix_tensor": ("X", "Y", "W"),
    "pyramid_hash": ("X", "W", "WhiteList", "BlackList"),
    "attention_lstm": (
        "X", "C0", "H0", "AttentionWeight", "AttentionBias", "AttentionScalar", "AttentionScalarBias",
        "LSTMWeight", "LSTMBias",
    ),
    "beam_search": ("pre_ids", "pre_scores", "ids", "scores"),
}  # fmt: skip
LEGACY_OUTPUTS = {
    "match_matrix_tensor": ("Out", "Tmp"),
    "pyramid_hash": ("Out", "DropPos", "X_Temp_Out"),
    "attention_lstm": ("Hidden", "Cell", "AttentionedX", "AttentionFCOut", "LSTMX", "LSTMOUT"),
    "beam_search": ("selected_ids", "selected_scores", "parent_idx"),
}
ATTRS = {
    "match_matrix_tensor": ("dim_t",),
    "pyramid_hash": (
        "num_emb", "space_len", "pyramid_layer", "rand_len", "drop_out_percent", "is_training", "use_filter",
        "white_list_len", "black_list_len", "seed", "lr", "distribute_update_vars",
    ),
    "attention_lstm": ("gate_activation", "cell_activation", "candidate_activation"),
    "beam_search": ("level", "beam_size", "end_id", "is_accumulated"),
}  # fmt: skip


def array(entry: dict[str, Any]) -> np.ndarray:
    return np.asarray(entry["data"], dtype=entry["dtype"]).reshape(entry["shape"])


def tensor(entry: dict[str, Any] | None, stop_gradient: bool = True) -> phiops.Tensor | None:
    if entry is None:
        return None
    made = phi.to_tensor(array(entry))
    made.stop_gradient = stop_gradient
    if entry["lod"]:
        made.set_lod(entry["lod"])
    return made


def run(case: dict[str, Any]) -> dict[str, Any]:
    """phiops' outputs (and what the recorded backward gives) for a recorded case, keyed by the
    legacy names."""
    op = case["op"]
    differentiate = op == "match_matrix_tensor" and "out_grad" in case
    inputs = [tensor(case["inputs"].get(name), not differentiate) for name in LEGACY_INPUTS[op]]
    attrs = tuple(case["attrs"][name] for name in ATTRS[op])
    if differentiate:  # the generated function records the gradient; the dispatcher alone does not
        outputs = dict(zip(LEGACY_OUTPUTS[op], phi.match_matrix_tensor(*inputs, *attrs)))
    else:  # every output, intermediates included
        outputs = dict(zip(LEGACY_OUTPUTS[op], OP_DEFS[op].dispatcher.call(tuple(inputs), attrs)))
    grads: dict[str, Any] = {}
    if differentiate:
        found = phi.grad([outputs["Out"]], inputs, grad_outputs=[phi.to_tensor(array(case["out_grad"]))])
        grads = {f"{name}@GRAD": g for name, g in zip(LEGACY_INPUTS[op], found)}
    elif op == "pyramid_hash" and "out_grad" in case:
        x, w = inputs[0], inputs[1]
        backward.pyramid_hash_grad(
            x,
            w,
            outputs["DropPos"],
            outputs["X_Temp_Out"],
            phi.to_tensor(array(case["out_grad"])),
            *attrs,
        )
        grads = {"W@AFTER": w}
    return {"outputs": outputs, "grads": grads}


def written(case: dict[str, Any], name: str) -> int | None:
    """How many leading values of output ``name`` 3.3.1 writes (None: all): pyramid_hash's
    DropPos holds one flag per pyramid term, the rest of its buffer is left unwritten."""
    if case["op"] == "pyramid_hash" and name == "DropPos":
        return len(pyramid_terms(case["inputs"]["X"]["lod"][0], case["attrs"]["pyramid_layer"]))
    return None


def assert_close(
    got: phiops.Tensor, want: dict[str, Any], what: str, count: int | None = None, lod: bool = True
) -> None:
    assert str(got.numpy().dtype) == want["dtype"], what
    assert got.shape == want["shape"], what
    if lod:
        assert got.lod() == want["lod"], what
    tol = 1e-5 if want["dtype"] == "float32" else 1e-12
    mine, theirs = got.numpy().ravel()[:count], array(want).ravel()[:count]
    np.testing.assert_allclose(mine, theirs, rtol=tol, atol=tol, err_msg=what)


@pytest.mark.parametrize("key", CASES)
def test_phiops_matches_the_recording(key: str) -> None:
    case = RECORDED[key]
    result = run(case)
    for name, want in case["outputs"].items():
        assert_close(result["outputs"][name], want, f"{key}: {name}", written(case, name))
    for name, want in case.get("grads", {}).items():
        if (
            want is not None
        ):  # gradients carry no LoD in phiops (their values and shapes are compared)
            assert_close(result["grads"][name], want, f"{key}: {name}", lod=False)


def test_every_op_of_the_family_has_three_recorded_cases() -> None:
    ops = [RECORDED[k]["op"] for k in CASES if not k.startswith("lod24_")]
    assert {op: ops.count(op) >= 3 for op in LEGACY_INPUTS} == {op: True for op in LEGACY_INPUTS}
