"""Building operations from API calls on Values: types from InferMeta at compile time, errors at
build time naming the op and the argument, outputs and Value's Python API."""

from __future__ import annotations

import pytest

import phiops.generated as phi
from phiops.runtime.dispatch.op_def import op_api


def test_result_types_come_from_infermeta_with_unknown_dims(programs):
    x = phi.static.data("x", [None, 4, 5])
    y = phi.static.data("y", [5, 2])
    out = phi.matmul(x, y)
    assert str(out.type) == "tensor<-1x4x2xf32>"
    assert out.shape == [-1, 4, 2]
    assert out.dtype is phi.float32
    assert out.ndim == 3


def test_unknown_extent_broadcast_with_a_known_one_is_known(programs):
    x = phi.static.data("x", [-1, 3])
    y = phi.static.data("y", [4, 1])
    assert phi.add(x, y).shape == [4, 3]


def test_bad_shape_is_an_error_at_build_time_naming_op_and_argument(programs):
    main, _ = programs
    x = phi.static.data("x", [None, 4])
    y = phi.static.data("y", [3, 3])
    with pytest.raises(phi.InvalidArgumentError, match=r"^matmul\(\): argument 'y' .*\[3, 3\]"):
        phi.matmul(x, y)
    assert [op.name for op in main.block.ops] == ["pd_op.data", "pd_op.data"]


def test_bad_reshape_is_an_error_at_build_time(programs):
    y = phi.static.data("y", [3, 3])
    with pytest.raises(phi.InvalidArgumentError, match=r"^reshape\(\): argument 'shape'"):
        phi.reshape(y, [2, 5])


def test_bad_tensor_list_item_is_named_by_position(programs):
    x = phi.static.data("x", [None, 4])
    y = phi.static.data("y", [3, 3])
    with pytest.raises(phi.InvalidArgumentError, match=r"^concat\(\): argument 'x\[1\]'"):
        phi.concat([x, y], 0)


def test_a_tensor_list_output_is_unpacked_by_builtin_split(programs):
    main, _ = programs
    y = phi.static.data("y", [3, 3])
    first, second = phi.split(y, [1, 2], 1)
    assert (first.shape, second.shape) == ([3, 1], [3, 2])
    assert [op.name for op in main.block.ops][-2:] == ["pd_op.split", "builtin.split"]


def test_two_outputs_are_two_values(programs):
    x = phi.static.data("x", [None, 4])
    values, indices = phi.topk(x, 2, -1, True, True)
    assert str(values.type) == "tensor<-1x2xf32>"
    assert str(indices.type) == "tensor<-1x2xi64>"


def test_results_stop_gradient_only_when_every_input_does(programs):
    x = phi.static.data("x", [2, 3])
    w = phi.static.create_parameter([2, 3], "float32")
    assert x.stop_gradient and not w.stop_gradient
    assert phi.exp(x).stop_gradient
    assert not phi.add(x, w).stop_gradient


def test_stop_gradient_can_be_set_on_a_value(programs):
    x = phi.static.data("x", [2, 3])
    x.stop_gradient = False
    assert not x.stop_gradient
    assert "stop_gradient:[false]" in str(x.define_op)


def test_value_methods_build_their_ops(programs):
    main, _ = programs
    x = phi.static.data("x", [2, 3])
    assert x.sum().shape == []
    assert x.reshape([3, 2]).shape == [3, 2]
    assert x.astype("int64").dtype is phi.int64
    assert [op.name for op in main.block.ops] == [
        "pd_op.data",
        "pd_op.full_int_array",
        "pd_op.sum",
        "pd_op.full_int_array",
        "pd_op.reshape",
        "pd_op.cast",
    ]


def test_truth_of_a_value_is_an_error(programs):
    x = phi.static.data("x", [2])
    with pytest.raises(phi.PreconditionNotMetError, match=r"bool\(Value\) is undefined"):
        bool(x > 0.5)


def test_values_hash_by_identity_so_dicts_of_values_work(programs):
    x = phi.static.data("x", [2])
    y = phi.static.data("y", [2])
    assert {x: 1, y: 2}[y] == 2


def test_a_number_left_of_a_value_of_unknown_shape_is_unimplemented(programs):
    x = phi.static.data("x", [None, 2])
    with pytest.raises(phi.UnimplementedError, match="full_batch_size_like"):
        2.0 / x


def test_an_unsupported_operand_type_is_a_type_error(programs):
    x = phi.static.data("x", [2])
    with pytest.raises(TypeError):
        x + "one"


def test_mish_builds_its_threshold_as_paddles_lambda(programs):
    phi.mish(phi.static.data("x", [2, 3]), 20.0)
    assert '"pd_op.mish" (%0) {lambda:20,' in str(programs[0])


def test_an_op_paddle_defines_differently_names_what_is_missing(programs):
    out_grad = phi.static.data("g", [4, 3])
    with pytest.raises(phi.UnimplementedError, match=r"pd_op.set_value_grad has no attribute"):
        op_api("set_value_grad")(out_grad, [0], [2], [1], [0], [], [])
