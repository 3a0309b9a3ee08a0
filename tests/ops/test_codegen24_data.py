"""The generated ``_C_ops.data`` (PHI's DataInferMeta and DataKernel), against PaddlePaddle
3.3.1's ``paddle._C_ops.data`` (tests/data/codegen24/recorded.json, recorded by
tests/tools/make_codegen24_fixtures.py).

``data`` is the op whose argument ``name`` takes the place of the trailing ``name=None``.
Eagerly, PaddlePaddle 3.3.1's tensor has the shape and dtype and holds no memory; phiops's holds
zeros (runtime/kernels/impl/data_kernel.py). Built into a program it is the ``pd_op.data``
that ``phi.static.data`` builds, fed by its name."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops import _C_ops
from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from tests.ops.op_testing import cpu_dtypes, op_test

RECORDED = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "codegen24" / "recorded.json").read_text()
)
EAGER = {case["name"]: case for case in RECORDED["data_eager"]}


def test_data_takes_paddles_four_arguments_and_no_trailing_name() -> None:
    parameters = inspect.signature(_C_ops.data).parameters
    assert list(parameters) == ["name", "shape", "dtype", "place"]
    assert all(p.default is inspect.Parameter.empty for p in parameters.values())


def test_other_ops_keep_their_trailing_name_none() -> None:
    parameters = list(inspect.signature(_C_ops.full).parameters.values())
    assert parameters[-1].name == "name" and parameters[-1].default is None


@op_test("data", kind="dtypes")
@pytest.mark.parametrize("dtype", cpu_dtypes("data"), ids=lambda d: d.name.lower())
def test_eager_data_is_zeros_of_the_shape_and_dtype(dtype: DataType) -> None:
    out = _C_ops.data("x", [2, 3], dtype, paddle.CPUPlace())
    np.testing.assert_array_equal(out.numpy(), np.zeros((2, 3), dtype.numpy_dtype))
    assert out.numpy().dtype == dtype.numpy_dtype


@pytest.mark.parametrize("name", [n for n in EAGER if -1 not in EAGER[n]["shape"]])
def test_eager_data_has_paddles_shape_dtype_and_stop_gradient(name: str) -> None:
    case = EAGER[name]
    out = _C_ops.data(name, case["shape"], case["dtype"], paddle.CPUPlace())
    assert out.shape == case["out_shape"]
    assert out.dtype.name.lower() == case["out_dtype"]
    assert out.stop_gradient is case["stop_gradient"]


@op_test("data", kind="edge")
def test_eager_data_refuses_an_unknown_extent() -> None:
    # PaddlePaddle 3.3.1 gives a tensor of shape [-1, 3] that no op can read ("The meta data
    # must be valid"); phiops says so at once
    assert EAGER["batch"]["out_shape"] == [-1, 3]
    assert "meta data must be valid" in EAGER["batch"]["add_error"]["message"]
    with pytest.raises(InvalidArgumentError, match=r"data\(\): argument 'shape' is \[-1, 3\]"):
        _C_ops.data("batch", [-1, 3], "float64", paddle.CPUPlace())


@op_test("data", kind="edge")
def test_data_refuses_a_name_that_is_not_a_str() -> None:
    assert "must be str, but got int" in RECORDED["data_name_not_str"]["message"]
    with pytest.raises(InvalidArgumentError, match=r"data\(\): argument 'name' expects a str"):
        _C_ops.data(3, [4], "float32", paddle.CPUPlace())


def _op_line(text: str) -> str:
    """A printed pd_op.data without its result name: ``"pd_op.data" () {...} : () -> ...``."""
    return text[text.index('"pd_op.data"') :].removesuffix(")")


def test_a_program_built_with_data_prints_and_reads_its_feed_as_paddles() -> None:
    static = RECORDED["data_static"]
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [-1, 3], "float32")
            z = _C_ops.data("z", [2, 3], paddle.float32, paddle.CPUPlace())
            out = x * 2.0 + z
        printed = [line for line in str(main).splitlines() if '"pd_op.data"' in line]
        assert [_op_line(line) for line in printed] == [_op_line(t) for t in static["data_ops"]]
        exe = paddle.static.Executor(paddle.CPUPlace())
        feed = {
            "x": np.asarray(static["feed_x"], "float32"),
            "z": np.asarray(static["feed_z"], "float32"),
        }
        (fetched,) = exe.run(main, feed=feed, fetch_list=[out])
    finally:
        paddle.disable_static()
    np.testing.assert_array_equal(fetched, np.asarray(static["fetched"], "float32"))
