"""The dispatch path behind the generated API: caching, kernel keys, data transforms, checks."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.generated import api
from phiops.runtime.common import DataType
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta
from phiops.runtime.tensor.meta_tensor import MetaTensor
from phiops.runtime.dispatch import OpDispatcher, get_op_info
from phiops.runtime.errors import InvalidArgumentError, NotFoundError, PreconditionNotMetError
from phiops.runtime.kernels import KERNEL_FACTORY


def test_first_call_fills_the_cache_and_later_calls_hit_it() -> None:
    cache = api._CACHE_add
    cache.clear()
    x = phi.to_tensor(np.ones((2, 2), np.float32))
    phi.add(x, x)
    assert list(cache) == [(x._impl.meta, x._impl.meta)]
    run, meta = cache[x._impl.meta, x._impl.meta]
    assert meta.dims == (2, 2) and meta.dtype is DataType.FLOAT32
    phi.add(x, x)
    assert len(cache) == 1


def test_cache_key_includes_attributes_that_change_the_meta() -> None:
    api._CACHE_sum.clear()
    x = phi.to_tensor(np.ones((2, 3), np.float32))
    phi.sum(x, [0])
    phi.sum(x, [1])
    phi.sum(x, [1], keepdim=True)
    assert sorted(k[1:] for k in api._CACHE_sum) == [
        ((0,), DataType.UNDEFINED, False),
        ((1,), DataType.UNDEFINED, False),
        ((1,), DataType.UNDEFINED, True),
    ]


def test_cache_key_leaves_out_attributes_that_only_the_kernel_reads() -> None:
    api._CACHE_scale.clear()
    x = phi.to_tensor(np.ones(3, np.float32))
    assert phi.scale(x, 2.0).numpy().tolist() == [2.0, 2.0, 2.0]
    assert phi.scale(x, 3.0).numpy().tolist() == [3.0, 3.0, 3.0]
    assert list(api._CACHE_scale) == [(x._impl.meta,)]


def test_mixed_dtypes_run_the_promoted_dtype_kernel_on_cast_inputs() -> None:
    x = phi.to_tensor(np.array([1, 2], np.float32))
    y = phi.to_tensor(np.array([0.5, 0.25], np.float64))
    out = phi.add(x, y)
    assert out.dtype is DataType.FLOAT64
    assert out.numpy().tolist() == [1.5, 2.25]


def test_kernel_data_type_from_a_dtype_attribute() -> None:
    assert phi.full([2], 3, "int32").dtype is DataType.INT32


def test_kernel_data_type_falls_back_to_the_tensor_when_the_attribute_is_undefined() -> None:
    x = phi.to_tensor(np.zeros(2, np.int16))
    assert phi.full_like(x, 7).dtype is DataType.INT16
    assert phi.full_like(x, 7, "float64").dtype is DataType.FLOAT64


def test_a_non_tensor_input_is_named_in_the_error() -> None:
    with pytest.raises(
        InvalidArgumentError, match=r"add\(\): argument 'y' expects a Tensor, got float 1.0"
    ):
        phi.add(phi.to_tensor([1.0]), 1.0)


def test_a_non_list_for_a_tensor_list_is_named_in_the_error() -> None:
    with pytest.raises(
        InvalidArgumentError,
        match=r"concat\(\): argument 'x' expects a list of Tensors, got Tensor",
    ):
        phi.concat(phi.to_tensor([1.0]))


def test_a_bad_element_of_a_tensor_list_is_named_in_the_error() -> None:
    with pytest.raises(
        InvalidArgumentError, match=r"concat\(\): argument 'x\[1\]' expects a Tensor, got list"
    ):
        phi.concat([phi.to_tensor([1.0]), [2.0]])


def test_a_bad_attribute_is_named_in_the_error() -> None:
    with pytest.raises(
        InvalidArgumentError, match=r"sum\(\): argument 'keepdim' expects a bool, got str 'yes'"
    ):
        phi.sum(phi.to_tensor([1.0]), keepdim="yes")


def test_an_infer_meta_error_names_the_op() -> None:
    with pytest.raises(
        InvalidArgumentError, match=r"^add\(\): argument 'y' with dims \[3\] cannot be broadcast"
    ):
        phi.add(phi.to_tensor([1.0, 2.0]), phi.to_tensor([1.0, 2.0, 3.0]))


def test_an_unregistered_dtype_is_a_not_found_error_listing_registrations() -> None:
    x = phi.to_tensor(np.array([1, 2], np.int64))
    with pytest.raises(
        NotFoundError,
        match=r"kernel 'softmax' has no registration for \(CPU, NCHW, INT64\); registered: ",
    ):
        phi.softmax(x, -1)


def test_zero_dim_results_are_arrays_not_numpy_scalars() -> None:
    x = phi.to_tensor(np.float32(2.0))
    for _ in range(2):  # the first call plans, the second takes the cached path
        out = phi.exp(x)
        assert isinstance(out._impl.array, np.ndarray) and out.shape == []


def test_outputs_equal_infer_meta_or_the_first_call_says_which_kernel_is_wrong() -> None:
    info = get_op_info("exp")

    def lying_infer_meta(x: MetaTensor, config: object) -> tuple[MetaTensor]:
        out = MetaTensor(name="out")
        out.set_dims(x.dims)
        out.set_dtype(DataType.FLOAT64)
        return (out,)

    dispatcher = OpDispatcher(info, lying_infer_meta)
    with pytest.raises(
        PreconditionNotMetError,
        match=r"exp\(\): kernel .* returned float32 \[2\] for output 'out', but InferMeta UnchangedInferMeta computed float64 \[2\]",
    ):
        dispatcher.call((phi.to_tensor([1.0, 2.0]),), ())


def test_infer_meta_must_set_every_output() -> None:
    info = get_op_info("exp")
    dispatcher = OpDispatcher(info, lambda x, config: (MetaTensor(name="out"),))
    with pytest.raises(
        PreconditionNotMetError,
        match=r"exp\(\): InferMeta UnchangedInferMeta left output 'out' without dims",
    ):
        dispatcher.call((phi.to_tensor([1.0]),), ())


def test_view_ops_share_memory_with_their_input() -> None:
    x = phi.to_tensor(np.arange(6, dtype=np.float32))
    y = phi.reshape(x, [2, 3])
    assert np.shares_memory(x.numpy(), y.numpy())


def test_results_are_new_tensors_that_do_not_alias_inputs_of_non_view_ops() -> None:
    x = phi.to_tensor(np.arange(3, dtype=np.float32))
    y = phi.assign(x)
    assert not np.shares_memory(x.numpy(), y.numpy())


def test_every_generated_op_has_a_registered_kernel_or_invokes_one() -> None:
    from phiops.generated.registry import OPS

    for info in OPS.values():
        assert info.invoke is not None or KERNEL_FACTORY.has_kernel(info.kernel), info.name


def test_interned_meta_lookup_is_by_value() -> None:
    x = phi.to_tensor(np.ones(2, np.float32))
    assert x._impl.meta is DenseTensorMeta.get(DataType.FLOAT32, (2,), x._impl.meta.layout, x.place)


@pytest.mark.parametrize("op", ["concat", "stack"])
def test_an_empty_tensor_list_is_named_in_the_error(op: str) -> None:
    with pytest.raises(
        InvalidArgumentError,
        match=rf"{op}\(\): argument 'x' must hold at least one tensor, got an empty list",
    ):
        getattr(phi, op)([])


def test_registry_check_names_the_op_kernel_and_differing_argument() -> None:
    import dataclasses

    from phiops.runtime.dispatch.checks import check_registry

    info = get_op_info("matmul")
    renamed = dataclasses.replace(
        info, signature=dataclasses.replace(info.signature, attrs=("trans_x", "transpose_y"))
    )
    with pytest.raises(PreconditionNotMetError) as raised:
        check_registry([renamed])
    assert str(raised.value).splitlines()[1] == (
        "ops/api.yaml:{}: op 'matmul': kernel 'matmul' (phiops.runtime.kernels.impl.matmul_kernel.matmul_kernel) "
        "takes attribute 'transpose_x' as argument 3, the spec passes attribute 'trans_x'".format(
            info.location.split(":")[1]
        )
    )


def test_int_array_arguments_accept_lists_tuples_ints_and_tensors() -> None:
    x = phi.to_tensor(np.arange(6, dtype=np.float32))
    shape_tensor = phi.to_tensor(np.array([2, 3], np.int64))
    shapes = [[2, 3], (2, 3), shape_tensor, [phi.to_tensor(np.array(2, np.int32)), 3]]
    assert [phi.reshape(x, s).shape for s in shapes] == [[2, 3]] * 4
    assert phi.sum(phi.reshape(x, [2, 3]), 1).shape == [2]


def test_scalar_arguments_accept_numbers_and_one_element_tensors() -> None:
    x = phi.to_tensor([1.0, 2.0])
    assert phi.scale(x, phi.to_tensor(3.0)).numpy().tolist() == [3.0, 6.0]
    assert phi.scale(x, np.float64(2.0)).numpy().tolist() == [2.0, 4.0]
    with pytest.raises(
        InvalidArgumentError,
        match=r"scale\(\): argument 'scale': a Scalar tensor must hold exactly 1 element",
    ):
        phi.scale(x, x)


def test_data_type_and_place_arguments_accept_names() -> None:
    out = phi.full([2], 1.0, "int32", "cpu")
    assert out.dtype is DataType.INT32 and out.place == phi.CPUPlace()
    assert phi.full([2], 1.0, np.float64).dtype is DataType.FLOAT64
    with pytest.raises(
        InvalidArgumentError,
        match=r"full\(\): argument 'place': expected a Place, 'cpu', 'gpu' or 'gpu:N', got str 'tpu'",
    ):
        phi.full([2], 1.0, "float32", "tpu")
