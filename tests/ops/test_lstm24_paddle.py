"""Parity of the lstm24 ops (lstm, gru) with PaddlePaddle 3.3.1, without PaddlePaddle: every lstm
and gru case tests/tools/lod24_probe.py recorded into tests/data/lod24/paddle_3_3_1.json (3.3.1's
legacy ops fed LoD tensors through its Executor), run here through phiops' ops on tensors with the
same LoD: all four outputs (the batch-order intermediates with their three-level LoDs included)
and the gradients of sum(out * weight) (3.3.1's lstm takes no gradient from Cell: phiops refuses
one)."""

from __future__ import annotations

from typing import Any

import pytest

import phiops
import phiops.generated as phi
from phiops.runtime.dispatch.op_def import OP_DEFS
from phiops.runtime.errors import UnimplementedError
from tests.ops.test_lod24_paddle import RECORDED, array, assert_close, tensor

IMPLEMENTED = ("lstm", "gru")
CASES = sorted(k for k, v in RECORDED.items() if v["runs"] and v["op"] in IMPLEMENTED)
LSTM_OUTPUTS = ("Hidden", "Cell", "BatchGate", "BatchCellPreAct")
GRU_OUTPUTS = ("BatchGate", "BatchResetHiddenPrev", "BatchHidden", "Hidden")


def run(case: dict[str, Any]) -> dict[str, Any]:
    """phiops' outputs and gradients for a recorded case, keyed by the legacy names."""
    inputs = {name: tensor(entry, name not in case["wrt"]) for name, entry in case["inputs"].items()}
    attrs = case["attrs"]
    if case["op"] == "lstm":
        tensors = (inputs["Input"], inputs.get("H0"), inputs.get("C0"), inputs["Weight"], inputs["Bias"])
        args = (
            attrs["use_peepholes"],
            attrs["is_reverse"],
            attrs["is_test"],
            attrs.get("gate_activation", "sigmoid"),
            attrs.get("cell_activation", "tanh"),
            attrs.get("candidate_activation", "tanh"),
        )
        visible = phi.lstm(*tensors, *args)
        assert len(visible) == 2  # hidden, cell: the batch outputs are intermediate
        # every output, through the op's dispatcher
        outputs = dict(zip(LSTM_OUTPUTS, OP_DEFS["lstm"].dispatcher.call(tensors, args)))
        outputs["Hidden"], outputs["Cell"] = visible
    else:
        tensors = (inputs["Input"], inputs.get("H0"), inputs["Weight"], inputs.get("Bias"))
        args = (attrs["activation"], attrs["gate_activation"], attrs["is_reverse"], attrs["origin_mode"], attrs["is_test"])
        hidden = phi.gru(*tensors, *args)
        outputs = dict(zip(GRU_OUTPUTS, OP_DEFS["gru"].dispatcher.call(tensors, args)))
        outputs["Hidden"] = hidden
    # 3.3.1's lstm_grad takes no gradient from Cell (the recording's weight on Cell changes
    # nothing); phiops refuses one (test_lstm_takes_no_gradient_from_cell): Hidden's alone
    diff = [k for k in case["diff_outputs"] if k != "Cell"]
    weights = [phi.to_tensor(array(case["weights"][f"w_{k}"])) for k in diff]
    wrt = [inputs[k] for k in case["wrt"]]
    grads = phiops.grad([outputs[k] for k in diff], wrt, weights)
    return {"outputs": outputs, "grads": dict(zip(case["wrt"], grads))}


def test_every_lstm_and_gru_case_is_checked() -> None:
    assert len([k for k in CASES if RECORDED[k]["op"] == "lstm"]) == 4
    assert len([k for k in CASES if RECORDED[k]["op"] == "gru"]) == 3


@pytest.mark.parametrize("key", CASES)
def test_phiops_matches_the_recording(key: str) -> None:
    case = RECORDED[key]
    result = run(case)
    for name, want in case["outputs"].items():
        assert_close(result["outputs"][name], want, f"{key}: {name}")
    for name, want in case["grads"].items():
        assert_close(result["grads"][name], want, f"{key}: {name} gradient")


def test_lstm_takes_no_gradient_from_cell() -> None:
    """3.3.1 drops a gradient of Cell silently (lstm_grad takes hidden_grad only); phiops'
    autograd refuses it with an UnimplementedError rather than give a gradient without it."""
    case = RECORDED["lstm_peephole_float64"]
    inputs = {name: tensor(entry, name != "Input") for name, entry in case["inputs"].items()}
    hidden, cell = phi.lstm(inputs["Input"], None, None, inputs["Weight"], inputs["Bias"])
    with pytest.raises(UnimplementedError, match="lstm_grad' takes no gradient for that output"):
        phiops.grad([cell], [inputs["Input"]])
