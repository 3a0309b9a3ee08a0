"""plan(input metas, attrs) -> KernelPlan decides without running the kernel; execute runs it."""

from __future__ import annotations

import dataclasses
from typing import Iterator

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.backends import BACKENDS, BackendDef, backend_priority, place_for_inputs
from phiops.runtime.backends import get_backend, register_backend
from phiops.runtime.common import Backend, CPUPlace, DataLayout, DataType, GPUPlace
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta
from phiops.runtime.dispatch import OpDispatcher, get_op_def
from phiops.runtime.dispatch.dispatcher import KernelPlan, execute
from phiops.runtime.errors import AlreadyExistsError, NotFoundError
from phiops.runtime.kernels import KERNEL_FACTORY, Array, KernelContext, register_kernel

COUNTING = "test_counting_exp"
CALLS: list[np.dtype] = []


@pytest.fixture
def counting_exp() -> Iterator[OpDispatcher]:
    """A dispatcher for ``exp`` whose kernel counts its calls; its float32 registration asks for
    float64 input, as a PHI registration body may (``kernel.input_at(0).set_dtype(...)``)."""

    def as_float64(kernel: object) -> None:
        if kernel.key.dtype is DataType.FLOAT32:  # type: ignore[attr-defined]
            kernel.input_at(0).set_dtype(DataType.FLOAT64)  # type: ignore[attr-defined]

    @register_kernel(
        COUNTING,
        dtypes=(DataType.FLOAT32, DataType.FLOAT64),
        backends=("CPU",),
        configure=as_float64,
    )
    def counting_exp_kernel(ctx: KernelContext, x: Array) -> Array:
        CALLS.append(x.dtype)
        return ctx.xp.exp(x)

    op = get_op_def("exp")
    CALLS.clear()
    yield OpDispatcher(
        dataclasses.replace(
            op.info, signature=dataclasses.replace(op.info.signature, name=COUNTING)
        ),
        op.infer_meta,
    )
    del KERNEL_FACTORY.kernels[COUNTING]


def meta(dtype: DataType, *dims: int) -> DenseTensorMeta:
    return DenseTensorMeta.get(dtype, tuple(dims), DataLayout.NCHW, CPUPlace())


def test_plan_selects_kernel_and_infers_metas_without_running_the_kernel(
    counting_exp: OpDispatcher,
) -> None:
    plan = counting_exp.plan((meta(DataType.FLOAT64, 2, 3),), ())
    assert isinstance(plan, KernelPlan)
    assert CALLS == []
    assert plan.kernel.name == COUNTING and plan.key.dtype is DataType.FLOAT64
    assert plan.key.backend is Backend.CPU and plan.place == CPUPlace()
    assert plan.out_metas.dims == (2, 3) and plan.out_metas.dtype is DataType.FLOAT64
    assert plan.transforms == ()


def test_plan_records_the_transform_the_kernel_argument_definition_asks_for(
    counting_exp: OpDispatcher,
) -> None:
    plan = counting_exp.plan((meta(DataType.FLOAT32, 4),), ())
    assert CALLS == []
    [transform] = plan.transforms
    assert (transform.argument, transform.position) == ("x", 0)
    assert transform.dtype is DataType.FLOAT64 and transform.place is None
    assert plan.out_metas.dtype is DataType.FLOAT32


def test_execute_runs_the_planned_kernel_once_with_transforms_and_conformed_outputs(
    counting_exp: OpDispatcher,
) -> None:
    plan = counting_exp.plan((meta(DataType.FLOAT32, 4),), ())
    x = np.array([0.0, 1.0, 2.0, -1.0], np.float32)
    out = execute(plan, (x,), ())
    assert CALLS == [np.dtype(np.float64)]  # the kernel saw the transformed input
    assert out.dtype == np.float32  # and its result has the dtype InferMeta gave
    np.testing.assert_allclose(out, np.exp(x.astype(np.float64)).astype(np.float32))


def test_execute_gives_an_array_for_a_zero_dim_output(counting_exp: OpDispatcher) -> None:
    plan = counting_exp.plan((meta(DataType.FLOAT64),), ())
    out = execute(plan, (np.array(1.0),), ())
    assert type(out) is np.ndarray and out.shape == () and out == np.exp(1.0)


def test_a_plan_serves_every_call_with_the_same_metas(counting_exp: OpDispatcher) -> None:
    plan = counting_exp.plan((meta(DataType.FLOAT64, 2),), ())
    for value in (1.0, 2.0, 3.0):
        np.testing.assert_allclose(execute(plan, (np.full(2, value),), ()), np.exp([value] * 2))
    assert len(CALLS) == 3


def test_plan_reports_bad_input_metas_as_infer_meta_does() -> None:
    add = get_op_def("add").dispatcher
    with pytest.raises(phi.InvalidArgumentError, match=r"^add\(\): argument 'y'"):
        add.plan((meta(DataType.FLOAT32, 2), meta(DataType.FLOAT32, 3)), ())


def test_plan_with_attributes_maps_kernel_arguments_from_inputs_and_attrs() -> None:
    scale = get_op_def("scale").dispatcher
    plan = scale.plan((meta(DataType.FLOAT64, 3),), (2.0, 1.0, True))
    np.testing.assert_allclose(execute(plan, (np.arange(3.0),), (2.0, 1.0, True)), [1, 3, 5])


def test_the_eager_api_caches_the_plan_it_made() -> None:
    op = get_op_def("cos")
    op.dispatcher.cache.clear()
    x = phi.to_tensor(np.zeros(3, np.float32))
    phi.cos(x)
    [(run, out_meta)] = op.dispatcher.cache.values()
    assert out_meta is x._impl.meta
    np.testing.assert_array_equal(run(np.zeros(3, np.float32)), np.ones(3, np.float32))


def test_backends_are_registered_with_explicit_priorities() -> None:
    assert set(BACKENDS) == {Backend.CPU, Backend.GPU}
    assert backend_priority(Backend.GPU) > backend_priority(Backend.CPU)
    assert place_for_inputs([CPUPlace(), GPUPlace(0), CPUPlace()]) == GPUPlace(0)
    assert place_for_inputs([]) == CPUPlace()


def test_the_input_place_follows_priority_not_the_enum_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cpu, gpu = BACKENDS[Backend.CPU], BACKENDS[Backend.GPU]
    monkeypatch.setitem(BACKENDS, Backend.CPU, BackendDef(Backend.CPU, 20, cpu.load_module))
    assert place_for_inputs([GPUPlace(0), CPUPlace()]) == CPUPlace()
    assert gpu.priority < 20


def test_a_backend_or_priority_cannot_be_registered_twice() -> None:
    with pytest.raises(AlreadyExistsError, match="backend CPU is registered twice"):
        register_backend(Backend.CPU, 5, lambda: np)
    with pytest.raises(NotFoundError, match="backend UNDEFINED is not registered"):
        get_backend(Backend.UNDEFINED)


def test_a_plain_elementwise_kernel_plans_as_its_raw_ufunc() -> None:
    """add, subtract and multiply are marked array_ufunc: the plan runs numpy's ufunc itself."""
    meta = DenseTensorMeta.get(DataType.FLOAT32, (3,), DataLayout.NCHW, CPUPlace())
    for op, ufunc in (("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply)):
        plan = get_op_def(op).dispatcher.plan((meta, meta), ())
        assert plan.run is ufunc
    divide = get_op_def("divide").dispatcher.plan((meta, meta), ())
    assert divide.run is not np.divide  # an integer divide checks its divisor: not a raw ufunc
