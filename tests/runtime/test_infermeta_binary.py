"""InferMeta functions of the binary ops (and of where, which reuses their broadcasting), called
directly with MetaTensors: the dims and dtype they infer and the messages of what they reject."""

from __future__ import annotations

import re

import pytest

from phiops.runtime.common import DataType
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta import get_infer_meta
from phiops.runtime.infermeta.binary import (
    compare_infer_meta,
    elementwise_infer_meta,
    logical_binary_infer_meta,
    matmul_infer_meta,
)
from phiops.runtime.infermeta.ternary import where_infer_meta

D = DataType
GRAPH = MetaConfig(is_runtime=False)


def meta(dims: tuple[int, ...] | list[int], dtype: DataType = D.FLOAT32) -> MetaTensor:
    return MetaTensor(DenseTensorMeta.get(dtype, tuple(dims)))


def infer_elementwise(x_dims, y_dims, x_dtype=D.FLOAT32, y_dtype=D.FLOAT32, config=MetaConfig()):
    out = MetaTensor()
    elementwise_infer_meta(meta(x_dims, x_dtype), meta(y_dims, y_dtype), out, config)
    return out


def infer_matmul(x_dims, y_dims, transpose_x=False, transpose_y=False, dtype=D.FLOAT32):
    out = MetaTensor()
    matmul_infer_meta(meta(x_dims, dtype), meta(y_dims, dtype), transpose_x, transpose_y, out)
    return out


def exactly(message: str) -> str:
    return "^" + re.escape(message) + "$"


# -- lookup by PHI name --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "phi_name, function",
    [
        ("ElementwiseInferMeta", elementwise_infer_meta),
        ("CompareInferMeta", compare_infer_meta),
        ("LogicalBinaryInferMeta", logical_binary_infer_meta),
        ("MatmulInferMeta", matmul_infer_meta),
        ("WhereInferMeta", where_infer_meta),
    ],
)
def test_infer_meta_is_found_by_its_phi_name(phi_name, function):
    assert get_infer_meta(phi_name) is function


# -- elementwise_infer_meta ----------------------------------------------------------------------


def test_elementwise_of_equal_dims_keeps_them():
    assert infer_elementwise((2, 3), (2, 3)).dims == (2, 3)


def test_elementwise_broadcasts_column_with_row():
    assert infer_elementwise((3, 1), (1, 4)).dims == (3, 4)


def test_elementwise_aligns_lower_rank_to_the_right():
    assert infer_elementwise((2, 3, 4), (4,)).dims == (2, 3, 4)
    assert infer_elementwise((4,), (2, 3, 4)).dims == (2, 3, 4)


def test_elementwise_of_0d_with_nd_gives_nd():
    assert infer_elementwise((), (2, 3)).dims == (2, 3)
    assert infer_elementwise((2, 3), ()).dims == (2, 3)


def test_elementwise_of_two_0d_is_0d():
    assert infer_elementwise((), ()).dims == ()


def test_elementwise_broadcasts_zero_extent_with_one():
    assert infer_elementwise((0, 3), (1, 3)).dims == (0, 3)
    assert infer_elementwise((1,), (0,)).dims == (0,)


def test_elementwise_keeps_unknown_extent_while_building_a_graph():
    assert infer_elementwise((-1, 3), (1, 3), config=GRAPH).dims == (-1, 3)
    assert infer_elementwise((-1, 1), (1, 5), config=GRAPH).dims == (-1, 5)
    assert infer_elementwise((-1,), (4,), config=GRAPH).dims == (4,)


def test_elementwise_of_equal_dtypes_keeps_the_dtype():
    assert infer_elementwise((2,), (2,), D.INT32, D.INT32).dtype is D.INT32


@pytest.mark.parametrize(
    "x_dtype, y_dtype, expected",
    [
        (D.INT32, D.FLOAT32, D.FLOAT32),
        (D.FLOAT64, D.FLOAT32, D.FLOAT64),
        (D.BOOL, D.INT64, D.INT64),
        (D.FLOAT32, D.COMPLEX64, D.COMPLEX64),
    ],
)
def test_elementwise_promotes_to_the_higher_dtype(x_dtype, y_dtype, expected):
    assert infer_elementwise((2,), (2,), x_dtype, y_dtype).dtype is expected


def test_elementwise_rejects_dims_that_do_not_broadcast():
    with pytest.raises(
        InvalidArgumentError,
        match=exactly(
            "argument 'y' with dims [2, 3] cannot be broadcast with argument 'x' with dims "
            "[4, 3]: dimension 0 differs (2 vs 4)"
        ),
    ):
        infer_elementwise((4, 3), (2, 3))


def test_elementwise_counts_the_differing_dimension_in_the_aligned_result():
    with pytest.raises(
        InvalidArgumentError,
        match=exactly(
            "argument 'y' with dims [2] cannot be broadcast with argument 'x' with dims "
            "[4, 3]: dimension 1 differs (2 vs 3)"
        ),
    ):
        infer_elementwise((4, 3), (2,))


def test_elementwise_rejects_zero_extent_against_extent_above_one():
    with pytest.raises(InvalidArgumentError, match=re.escape("dimension 0 differs (3 vs 0)")):
        infer_elementwise((0,), (3,))


# -- compare_infer_meta, logical_binary_infer_meta ---------------------------------------------------


@pytest.mark.parametrize("function", [compare_infer_meta, logical_binary_infer_meta])
def test_compare_and_logical_give_bool_with_broadcast_dims(function):
    out = MetaTensor()
    function(meta((3, 1), D.FLOAT64), meta((4,), D.FLOAT64), out)
    assert out.dims == (3, 4)
    assert out.dtype is D.BOOL


@pytest.mark.parametrize("function", [compare_infer_meta, logical_binary_infer_meta])
def test_compare_and_logical_reject_dims_that_do_not_broadcast(function):
    with pytest.raises(
        InvalidArgumentError,
        match=exactly(
            "argument 'y' with dims [5] cannot be broadcast with argument 'x' with dims [2, 3]: "
            "dimension 1 differs (5 vs 3)"
        ),
    ):
        function(meta((2, 3), D.INT32), meta((5,), D.INT32), MetaTensor())


# -- matmul_infer_meta ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "x_dims, y_dims, transpose_x, transpose_y, expected",
    [
        ((2, 3), (3, 4), False, False, (2, 4)),
        ((3,), (3,), False, False, ()),
        ((3,), (3, 4), False, False, (4,)),
        ((2, 3), (3,), False, False, (2,)),
        ((5, 2, 3), (3,), False, False, (5, 2)),
        ((3,), (5, 3, 4), False, False, (5, 4)),
        ((5, 2, 3), (3, 4), False, False, (5, 2, 4)),
        ((2, 3), (5, 3, 4), False, False, (5, 2, 4)),
        ((5, 1, 2, 3), (4, 3, 6), False, False, (5, 4, 2, 6)),
        ((3, 2), (3, 4), True, False, (2, 4)),
        ((2, 3), (4, 3), False, True, (2, 4)),
        ((3, 2), (4, 3), True, True, (2, 4)),
        ((5, 3, 2), (3, 4), True, False, (5, 2, 4)),
        ((3,), (3, 4), True, False, (4,)),
        ((2, 3), (3,), False, True, (2,)),
        ((0, 3), (3, 4), False, False, (0, 4)),
        ((2, 0), (0, 4), False, False, (2, 4)),
    ],
)
def test_matmul_dims(x_dims, y_dims, transpose_x, transpose_y, expected):
    assert infer_matmul(x_dims, y_dims, transpose_x, transpose_y).dims == expected


def test_matmul_keeps_the_dtype_of_its_inputs():
    assert infer_matmul((2, 3), (3, 4), dtype=D.INT64).dtype is D.INT64


def test_matmul_promotes_mixed_dtypes():
    out = MetaTensor()
    matmul_infer_meta(meta((2, 3), D.INT32), meta((3, 4), D.FLOAT32), False, False, out)
    assert out.dtype is D.FLOAT32


def test_matmul_accepts_unknown_contracted_extent_while_building_a_graph():
    out = MetaTensor()
    matmul_infer_meta(meta((2, -1)), meta((3, 4)), False, False, out, GRAPH)
    assert out.dims == (2, 4)


@pytest.mark.parametrize("x_dims, y_dims, name", [((), (3,), "x"), ((3,), (), "y")])
def test_matmul_rejects_0d_operand(x_dims, y_dims, name):
    with pytest.raises(
        InvalidArgumentError,
        match=exactly(
            f"argument '{name}' of matmul must have at least 1 dimension, got a 0-D tensor"
        ),
    ):
        infer_matmul(x_dims, y_dims)


def test_matmul_rejects_contracted_dimension_mismatch():
    with pytest.raises(
        InvalidArgumentError,
        match=exactly(
            "argument 'y' with dims [4, 5] (transpose_y=False) cannot be multiplied with "
            "argument 'x' with dims [2, 3] (transpose_x=False): the contracted dimension is 3 "
            "in x but 4 in y"
        ),
    ):
        infer_matmul((2, 3), (4, 5))


def test_matmul_contracts_over_the_transposed_dimension():
    with pytest.raises(
        InvalidArgumentError, match=re.escape("the contracted dimension is 2 in x but 3 in y")
    ):
        infer_matmul((2, 3), (3, 4), transpose_x=True)


def test_matmul_rejects_vector_of_wrong_length():
    with pytest.raises(
        InvalidArgumentError, match=re.escape("the contracted dimension is 3 in x but 4 in y")
    ):
        infer_matmul((3,), (4,))


def test_matmul_rejects_batch_dims_that_do_not_broadcast():
    with pytest.raises(
        InvalidArgumentError,
        match=exactly(
            "the batch dims [3] of argument 'y' with dims [3, 4, 5] cannot be broadcast with the "
            "batch dims [2] of argument 'x' with dims [2, 3, 4]: batch dimension 0 differs (3 vs 2)"
        ),
    ):
        infer_matmul((2, 3, 4), (3, 4, 5))


# -- where_infer_meta (runtime/infermeta/ternary.py) ------------------------------------------------


def infer_where(
    condition_dims, x_dims, y_dims, x_dtype=D.FLOAT32, y_dtype=D.FLOAT32, condition_dtype=D.BOOL
):
    out = MetaTensor()
    where_infer_meta(
        meta(condition_dims, condition_dtype), meta(x_dims, x_dtype), meta(y_dims, y_dtype), out
    )
    return out


def test_where_of_equal_dims_keeps_dims_and_x_dtype():
    out = infer_where((2, 3), (2, 3), (2, 3), D.INT64, D.INT64)
    assert out.dims == (2, 3)
    assert out.dtype is D.INT64


def test_where_broadcasts_all_three_inputs():
    assert infer_where((3, 1), (1, 4), ()).dims == (3, 4)
    assert infer_where((), (), (2, 1, 5)).dims == (2, 1, 5)


def test_where_promotes_mixed_value_dtypes():
    assert infer_where((2,), (2,), (2,), D.FLOAT32, D.FLOAT64).dtype is D.FLOAT64


def test_where_rejects_non_bool_condition():
    with pytest.raises(
        InvalidArgumentError,
        match=exactly("argument 'condition' of where must be a bool tensor, got dtype int32"),
    ):
        infer_where((2,), (2,), (2,), condition_dtype=D.INT32)


def test_where_rejects_x_and_y_that_do_not_broadcast():
    with pytest.raises(
        InvalidArgumentError,
        match=exactly(
            "argument 'y' with dims [3] cannot be broadcast with argument 'x' with dims [2]: "
            "dimension 0 differs (3 vs 2)"
        ),
    ):
        infer_where((1,), (2,), (3,))


def test_where_rejects_condition_that_does_not_broadcast():
    with pytest.raises(
        InvalidArgumentError,
        match=exactly(
            "argument 'condition' with dims [4] cannot be broadcast with argument 'x' with dims "
            "[2]: dimension 0 differs (4 vs 2)"
        ),
    ):
        infer_where((4,), (2,), (1,))
