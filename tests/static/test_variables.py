"""phi.static.data and phi.static.create_parameter: what they build and what they reject."""

from __future__ import annotations

import math

import pytest

import phiops.generated as phi

I = phi.static.initializer


def _attr(op, key):
    return op.attributes[key].value


def test_data_with_none_and_minus_one_is_unknown(programs):
    x = phi.static.data("x", [None, -1, 3], "int64")
    assert str(x.type) == "tensor<-1x-1x3xi64>"
    assert _attr(x.define_op, "shape") == (-1, -1, 3)
    assert _attr(x.define_op, "name") == "x"


@pytest.mark.parametrize("shape", [[-2, 3], [2, 1.5], "2x3"])
def test_data_rejects_a_bad_shape_naming_it(programs, shape):
    with pytest.raises(phi.InvalidArgumentError, match=r"^data\(\): argument 'shape"):
        phi.static.data("x", shape)


def test_data_rejects_an_empty_name(programs):
    with pytest.raises(phi.InvalidArgumentError, match=r"^data\(\): argument 'name'"):
        phi.static.data("", [1])


def test_data_rejects_an_unknown_dtype(programs):
    with pytest.raises(phi.InvalidArgumentError, match=r"data\(\): argument 'dtype'"):
        phi.static.data("x", [1], "float99")


def test_parameter_is_inserted_at_the_start_and_initialised_in_startup(programs):
    main, startup = programs
    x = phi.static.data("x", [2])
    w = phi.static.create_parameter([2], "float32", name="w", default_initializer=I.Constant(3.0))
    assert main.block.ops[0] is w.define_op
    assert main.block.ops[1] is x.define_op
    assert [op.name for op in startup.block.ops] == ["pd_op.full", "builtin.set_parameter"]
    init, store = startup.block.ops
    assert _attr(init, "value") == 3.0
    assert [a.value for a in _attr(init, "persistable")] == [True]
    assert store.operands == [init.results[0]]
    assert _attr(store, "parameter_name") == "w"


def test_parameter_names_count_per_process_and_mark_biases(programs):
    w = phi.static.create_parameter([2], "float32")
    b = phi.static.create_parameter([2], "float32", is_bias=True)
    assert _attr(w.define_op, "parameter_name") == "create_parameter_0.w_0"
    assert _attr(b.define_op, "parameter_name") == "create_parameter_1.b_0"


def test_a_parameter_name_is_unique_in_a_program(programs):
    phi.static.create_parameter([2], "float32", name="w")
    with pytest.raises(phi.AlreadyExistsError, match="already has a parameter named 'w'"):
        phi.static.create_parameter([2], "float32", name="w")


@pytest.mark.parametrize("shape", [[-1, 2], [None], [2, "3"]])
def test_parameter_shape_must_be_known(programs, shape):
    with pytest.raises(phi.InvalidArgumentError, match=r"^create_parameter\(\): argument 'shape"):
        phi.static.create_parameter(shape, "float32")


def test_parameter_initializer_must_be_an_initializer(programs):
    with pytest.raises(phi.InvalidArgumentError, match="'default_initializer' expects"):
        phi.static.create_parameter([2], "float32", default_initializer=0.5)


def _uniform_bounds(startup):
    uniform = startup.block.ops[-2]
    assert uniform.name == "pd_op.uniform"
    low, high = (_attr(v.define_op, "value") for v in uniform.operands[1:])
    return low, high


def test_default_weight_initializer_is_xavier_uniform(programs):
    _, startup = programs
    phi.static.create_parameter([4, 3], "float32")
    low, high = _uniform_bounds(startup)
    assert high == pytest.approx(math.sqrt(6 / 7)) and low == -high


def test_xavier_fans_of_a_conv_kernel_include_the_receptive_field(programs):
    _, startup = programs
    phi.static.create_parameter([8, 3, 2, 2], "float32", default_initializer=I.XavierUniform())
    assert _uniform_bounds(startup)[1] == pytest.approx(math.sqrt(6 / (12 + 32)))


def test_xavier_normal_std(programs):
    _, startup = programs
    phi.static.create_parameter([3, 5], "float32", default_initializer=I.XavierNormal())
    gaussian = startup.block.ops[-2]
    assert gaussian.name == "pd_op.gaussian"
    assert _attr(gaussian, "std") == pytest.approx(0.5)


def test_normal_records_mean_and_std(programs):
    _, startup = programs
    phi.static.create_parameter([4], "float64", default_initializer=I.Normal(1.0, 2.0))
    gaussian = startup.block.ops[-2]
    assert (_attr(gaussian, "mean"), _attr(gaussian, "std")) == (1.0, 2.0)
    assert str(gaussian.results[0].type) == "tensor<4xf64>"


def test_initializer_arguments_are_checked():
    with pytest.raises(phi.InvalidArgumentError, match=r"Uniform\(\): argument 'low'"):
        I.Uniform(2.0, 1.0)
    with pytest.raises(phi.InvalidArgumentError, match=r"Normal\(\): argument 'std'"):
        I.Normal(0.0, -1.0)
    with pytest.raises(phi.InvalidArgumentError, match=r"Constant\(\): argument 'value'"):
        I.Constant("one")


def test_a_non_float_parameter_needs_an_initializer(programs):
    with pytest.raises(
        phi.InvalidArgumentError, match="parameter of dtype int64 needs a default_initializer"
    ):
        phi.static.create_parameter([2], "int64")
    phi.static.create_parameter([2], "int64", default_initializer=I.Constant(1))
