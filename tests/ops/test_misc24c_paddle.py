"""Parity of the misc24c ops with PaddlePaddle 3.3.1, without PaddlePaddle: every result
tests/tools/make_misc24c_fixtures.py recorded into tests/data/misc24c/paddle_3_3_1.json
(embedding_grad_dense against 3.3.1's EmbeddingGradKernel reached through embedding_grad and
through paddle.grad of F.embedding, since its own embedding_grad_dense call refuses on CPU;
weight_quantize through the op and paddle.nn.quant per algo, arch, group size and dtype;
dgc_momentum against 3.3.1's static op), and 3.3.1's refusals refused by phiops too."""

from __future__ import annotations

import json

import numpy as np
import pytest

import phiops
from phiops.runtime.errors import PhiError
from tests.tools.make_misc24c_fixtures import OUT, cases, refuse, refusals, run

RECORDED: dict[str, dict] = json.loads(OUT.read_text())
RESULTS = sorted(key for key in RECORDED if "error" not in RECORDED[key])
REFUSED = sorted(key for key in RECORDED if "error" in RECORDED[key])

TOLERANCE = {"float32": 1e-6, "float64": 1e-12, "float16": 1e-3, "bfloat16": 8e-3}


def assert_outs_match(got: list, want: list, key: str) -> None:
    assert len(got) == len(want)
    for index, (mine, theirs) in enumerate(zip(got, want)):
        if theirs is None:  # unwritten by 3.3.1 (dgc_momentum's SGD velocity) or no master
            continue
        assert mine is not None, (key, index)
        assert (mine["dtype"], mine["shape"]) == (theirs["dtype"], theirs["shape"]), (key, index)
        expected = np.array([np.nan if v is None else v for v in theirs["values"]], float)
        actual = np.array([np.nan if v is None else v for v in mine["values"]], float)
        rtol = TOLERANCE.get(theirs["dtype"], 0.0)
        np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol, err_msg=key)


@pytest.mark.parametrize("key", RESULTS)
def test_phiops_matches_the_recording(key: str) -> None:
    assert_outs_match(run(phiops, RECORDED[key]), RECORDED[key]["outs"], key)


@pytest.mark.parametrize("key", [k for k in REFUSED if "embedding_grad_dense" not in k])
def test_phiops_refuses_what_paddle_refuses(key: str) -> None:
    assert isinstance(refuse(phiops, RECORDED[key]), PhiError)


def test_the_recording_holds_every_case() -> None:
    assert RESULTS == sorted(cases())
    assert REFUSED == sorted(f"refused-{key}" for key in refusals())
