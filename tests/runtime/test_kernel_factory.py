"""KernelFactory selection order, registration overrides and argument definitions."""

from __future__ import annotations

import pytest

from phiops.runtime.common import Backend, DataLayout, DataType
from phiops.runtime.errors import AlreadyExistsError, InvalidArgumentError, NotFoundError
from phiops.runtime.kernels.kernel import Array, KernelContext, args_def_from_signature
from phiops.runtime.kernels.kernel_factory import KernelFactory
from phiops.runtime.kernels.kernel_key import KernelKey
from phiops.runtime.kernels.registration import register_kernel

CPU, GPU = Backend.CPU, Backend.GPU
F32, F64, I64 = DataType.FLOAT32, DataType.FLOAT64, DataType.INT64
ANY_LAYOUT = DataLayout.ALL_LAYOUT


def key(backend: Backend, dtype: DataType, layout: DataLayout = ANY_LAYOUT) -> KernelKey:
    return KernelKey(backend, layout, dtype)


def kernel_fn(ctx: KernelContext, x: Array, y: Array, axis: int) -> Array:
    return x


def other_fn(ctx: KernelContext, x: Array, y: Array, axis: int) -> Array:
    return y


@pytest.fixture
def factory() -> KernelFactory:
    factory = KernelFactory()
    register_kernel("k", dtypes=(F32, F64), backends=("CPU",), factory=factory)(kernel_fn)
    return factory


def test_register_creates_one_kernel_per_dtype(factory: KernelFactory) -> None:
    assert sorted(factory.kernels_of("k")) == [key(CPU, F32), key(CPU, F64)]


def test_select_finds_the_exact_key(factory: KernelFactory) -> None:
    assert factory.select("k", key(CPU, F64)).key == key(CPU, F64)


def test_select_falls_back_to_all_layout(factory: KernelFactory) -> None:
    assert factory.select("k", key(CPU, F32, DataLayout.NCHW)).key == key(CPU, F32)


def test_select_falls_back_to_all_dtype() -> None:
    factory = KernelFactory()
    register_kernel("any", dtypes=(DataType.ALL_DTYPE,), backends=("CPU",), factory=factory)(
        kernel_fn
    )
    assert factory.select("any", key(CPU, I64)).key == key(CPU, DataType.ALL_DTYPE)


def test_select_prefers_the_exact_dtype_over_all_dtype() -> None:
    factory = KernelFactory()
    register_kernel("mixed", dtypes=(DataType.ALL_DTYPE,), backends=("CPU",), factory=factory)(
        kernel_fn
    )
    register_kernel("mixed", dtypes=(F32,), backends=("CPU",), factory=factory)(other_fn)
    assert factory.select("mixed", key(CPU, F32)).fn is other_fn
    assert factory.select("mixed", key(CPU, F64)).fn is kernel_fn


def test_select_falls_back_to_cpu_when_allowed(factory: KernelFactory) -> None:
    assert factory.select("k", key(GPU, F32), cpu_fallback=True).key == key(CPU, F32)


def test_select_without_cpu_fallback_lists_registered_keys(factory: KernelFactory) -> None:
    with pytest.raises(NotFoundError) as raised:
        factory.select("k", key(GPU, F32), cpu_fallback=False)
    assert str(raised.value) == (
        "kernel 'k' has no registration for (GPU, UNDEFINED, FLOAT32) (CPU fallback is disabled); "
        "registered: (CPU, UNDEFINED, FLOAT32), (CPU, UNDEFINED, FLOAT64)"
    )


def test_select_of_an_unregistered_dtype_lists_registered_keys(factory: KernelFactory) -> None:
    with pytest.raises(
        NotFoundError,
        match=r"kernel 'k' has no registration for \(CPU, UNDEFINED, INT64\); registered: ",
    ):
        factory.select("k", key(CPU, I64))


def test_select_of_an_unknown_kernel_names_it(factory: KernelFactory) -> None:
    with pytest.raises(NotFoundError, match="no kernel named 'nope' is registered"):
        factory.select("nope", key(CPU, F32))


def test_registering_the_same_key_twice_is_an_error(factory: KernelFactory) -> None:
    with pytest.raises(
        AlreadyExistsError,
        match=r"kernel 'k' is already registered for \(CPU, UNDEFINED, FLOAT32\)",
    ):
        register_kernel("k", dtypes=(F32,), backends=("CPU",), factory=factory)(other_fn)


def test_args_def_reads_inputs_attributes_and_outputs() -> None:
    args = args_def_from_signature(kernel_fn, key(CPU, F32))
    assert [(d.name, d.dtype, d.is_list, d.is_optional) for d in args.inputs] == [
        ("x", F32, False, False),
        ("y", F32, False, False),
    ]
    assert [(a.name, a.type_name) for a in args.attributes] == [("axis", "int")]
    assert len(args.outputs) == 1 and not args.outputs_are_list


def test_args_def_reads_lists_optionals_and_tuples() -> None:
    def fn(
        ctx: KernelContext, xs: list[Array], bias: Array | None, flag: bool
    ) -> tuple[Array, Array]:
        return xs[0], xs[0]

    args = args_def_from_signature(fn, key(CPU, F32))
    assert [(d.name, d.kind) for d in args.inputs] == [
        ("xs", "Tensor[]"),
        ("bias", "optional Tensor"),
    ]
    assert len(args.outputs) == 2


def test_args_def_rejects_a_tensor_after_an_attribute() -> None:
    def fn(ctx: KernelContext, axis: int, x: Array) -> Array:
        return x

    with pytest.raises(InvalidArgumentError, match="tensor parameter 'x' comes after an attribute"):
        args_def_from_signature(fn, key(CPU, F32))


def test_args_def_requires_ctx_first() -> None:
    def fn(x: Array) -> Array:
        return x

    with pytest.raises(InvalidArgumentError, match="the first parameter must be 'ctx'"):
        args_def_from_signature(fn, key(CPU, F32))


def test_args_def_reads_a_tuple_of_single_and_list_outputs() -> None:
    def fn(ctx: KernelContext, x: list[Array]) -> tuple[list[Array], Array]:
        return x, x[0]

    outputs = args_def_from_signature(fn, key(CPU, F32)).outputs
    assert [o.is_list for o in outputs] == [True, False]


def test_args_def_rejects_an_unknown_return_annotation() -> None:
    def fn(ctx: KernelContext, x: Array) -> int:
        return 0

    with pytest.raises(
        InvalidArgumentError, match="return annotation must be Array, list\\[Array\\] or tuple"
    ):
        args_def_from_signature(fn, key(CPU, F32))


def test_configure_overrides_single_argument_definitions() -> None:
    factory = KernelFactory()
    register_kernel(
        "cmp",
        dtypes=(F32,),
        backends=("CPU",),
        factory=factory,
        configure=lambda k: (
            k.output_at(0).set_dtype(DataType.BOOL),
            k.input_at(1).set_backend(Backend.ALL_BACKEND),
        ),
    )(kernel_fn)
    kernel = factory.select("cmp", key(CPU, F32))
    assert kernel.output_at(0).dtype is DataType.BOOL
    assert kernel.input_at(1).backend is Backend.ALL_BACKEND
    assert kernel.input_at(0).backend is Backend.CPU


def test_gpu_registrations_are_skipped_without_cupy(monkeypatch: pytest.MonkeyPatch) -> None:
    from phiops.runtime.backends import BACKENDS, BackendDef
    from phiops.runtime.errors import UnimplementedError

    def no_cupy() -> object:
        raise UnimplementedError("GPU backend needs CuPy; install phiops[gpu]")

    monkeypatch.setitem(BACKENDS, Backend.GPU, BackendDef(Backend.GPU, 10, no_cupy))
    factory = KernelFactory()
    register_kernel("g", dtypes=(F32,), factory=factory)(kernel_fn)
    assert list(factory.kernels_of("g")) == [key(CPU, F32)]


def test_unknown_backend_name_is_an_error() -> None:
    with pytest.raises(InvalidArgumentError, match="unknown backend or layout 'TPU'"):
        register_kernel("t", dtypes=(F32,), backends=("TPU",))
