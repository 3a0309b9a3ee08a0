"""Finite-difference gradient checks of the rnn op in float64 (``RNN_CASES``, also part of
CASES in test_gradcheck_ops.py): every mode, two layers, bidirectional, with sequence_length
(padded steps included), gradients for x, both initial states and every weight and bias, through
out and through the final states."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from tests.autograd.gradcheck import check_gradients
from tests.autograd.cases_base import Case, uniform

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _weights(mode: str, input_size: int, hidden: int, layers: int, directions: int, seed: int):
    rows = _GATES[mode] * hidden
    weights, biases = [], []
    for layer in range(layers):
        size = input_size if layer == 0 else directions * hidden
        for direction in range(directions):
            base = seed + 10 * layer + 4 * direction
            weights += [uniform((rows, size), base, -0.6, 0.6), uniform((rows, hidden), base + 1, -0.6, 0.6)]
            biases += [uniform((rows,), base + 2, -0.3, 0.3), uniform((rows,), base + 3, -0.3, 0.3)]
    return weights + biases


def _case(mode: str, layers: int, bidirec: bool, lengths: list[int] | None, seed: int) -> Case:
    steps, batch, input_size, hidden = 4, len(lengths) if lengths else 2, 3, 2
    directions = 2 if bidirec else 1
    n_states = 2 if mode == "LSTM" else 1
    x = uniform((steps, batch, input_size), seed)
    states = [uniform((layers * directions, batch, hidden), seed + 1 + i, -0.5, 0.5) for i in range(n_states)]
    weights = _weights(mode, input_size, hidden, layers, directions, seed + 5)
    seq = None if lengths is None else np.array(lengths, dtype=np.int64)
    count_w = len(weights)

    def fn(x, *rest):
        pre_state = list(rest[:n_states])
        weight_list = list(rest[n_states : n_states + count_w])
        sequence_length = None if seq is None else phi.to_tensor(seq)
        out, _, state = phi.rnn(
            x, pre_state, weight_list, sequence_length, phi.zeros([0], "uint8"),
            0.0, bidirec, input_size, hidden, layers, mode, 0, False,
        )
        return [out] + list(state)

    label = f"{mode.lower()}-l{layers}-{'bi' if bidirec else 'fw'}" + (
        "-seq" if lengths else ""
    )
    return Case(("rnn",), label, fn, (x, *states, *weights))


RNN_CASES: list[Case] = [
    _case("LSTM", 2, True, [4, 2], 700),
    _case("LSTM", 1, False, None, 720),
    _case("GRU", 2, False, [1, 4, 3], 740),
    _case("GRU", 1, True, None, 760),
    _case("RNN_TANH", 2, True, None, 780),
    _case("RNN_RELU", 1, False, [3, 2], 800),
    _case("RNN_TANH", 1, True, [2, 4], 820),
]


@pytest.mark.parametrize("case", RNN_CASES, ids=lambda c: c.id)
def test_rnn_gradient_matches_finite_differences(case: Case) -> None:
    check_gradients(case.fn, list(case.inputs), **case.options)
