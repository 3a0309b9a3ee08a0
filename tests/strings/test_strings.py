"""phiops.strings (PHI's strings_ops.yaml on StringTensors) against PaddlePaddle 3.3.1's
``paddle._C_ops.strings_*`` (tests/data/tarray/strings.json, recorded by
tests/tools/make_tarray_strings.py) and Python's own case mappings."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops.strings as strings
from phiops.runtime.common import CPUPlace, GPUPlace
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

RECORDED = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "tarray" / "strings.json").read_text(
        encoding="utf-8"
    )
)


def inputs() -> strings.StringTensor:
    return strings.to_string_tensor(RECORDED["inputs"])


def test_a_string_tensor_has_paddles_shape_and_numpy() -> None:
    x = inputs()
    assert x.shape == RECORDED["shape"]
    assert x.numpy().tolist() == RECORDED["inputs"]
    assert x.numpy().dtype.kind == "U"


@pytest.mark.parametrize("name", ["lower", "upper"])
def test_utf8_case_conversion_matches_paddles(name: str) -> None:
    out = getattr(strings, name)(inputs(), True)
    assert out.numpy().tolist() == RECORDED[f"{name}_utf8"]


def test_conversion_is_per_character_without_final_sigma_or_expansion() -> None:
    x = strings.to_string_tensor(["ΣΑΣ", "ß", "İ", "ﬁ", "ǅ"])
    assert strings.lower(x, True).numpy().tolist() == ["σασ", "ß", "i", "ﬁ", "ǅ"]
    assert strings.upper(x, True).numpy().tolist() == ["ΣΑΣ", "ẞ", "İ", "ﬁ", "ǅ"]


@pytest.mark.parametrize("name", ["lower", "upper"])
def test_ascii_conversion_changes_the_ascii_letters_only(name: str) -> None:
    """PaddlePaddle 3.3.1's CPU kernels give empty strings here (recorded); phiops converts
    the ASCII letters, as use_utf8_encoding=False says (runtime/kernels/impl/string_kernels.py)."""
    assert all(s == "" for row in RECORDED[f"{name}_ascii"] for s in row)
    out = getattr(strings, name)(inputs(), False).numpy().tolist()
    convert = str.lower if name == "lower" else str.upper
    want = [["".join(convert(c) if c.isascii() else c for c in s) for s in row] for row in RECORDED["inputs"]]
    assert out == want
    assert out[0][1] == {"lower": "ÄÖÜ straße", "upper": "ÄÖÜ STRAßE"}[name]


def test_empty_and_empty_like_hold_empty_strings_of_the_shape() -> None:
    e = strings.empty([2, 3], CPUPlace())
    assert e.shape == RECORDED["empty_shape"] and e.numpy().tolist() == RECORDED["empty"]
    like = strings.empty_like(inputs())
    assert like.shape == RECORDED["empty_like_shape"]
    assert all(s == "" for s in like.numpy().reshape(-1))


def test_zero_d_and_empty_shapes() -> None:
    assert strings.upper(strings.to_string_tensor("ab"), True).numpy().tolist() == "AB"
    assert strings.empty([0, 2]).shape == [0, 2]
    assert strings.lower(strings.empty([0]), True).shape == [0]


def test_bad_input_is_named() -> None:
    with pytest.raises(InvalidArgumentError, match=r"strings_lower\(\): argument 'x' must be a StringTensor"):
        strings.lower(np.array(["a"]), True)
    with pytest.raises(InvalidArgumentError, match="must not have negative extents"):
        strings.empty([-1])
    with pytest.raises(InvalidArgumentError, match="every item of 'data' must be a str"):
        strings.to_string_tensor(["a", 1])
    with pytest.raises(UnimplementedError, match="live on the host"):
        strings.empty([1], GPUPlace(0))
