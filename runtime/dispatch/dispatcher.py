"""OpDispatcher: plan, then execute (DESIGN.md §5); the slow path of a generated API function.

``plan(input metas, attrs) -> KernelPlan`` decides everything about one call without running
anything: the kernel key, the kernel, the data transforms its argument definition asks for, the
output metas from InferMeta, and how the kernel's outputs are made to conform to them (numpy
ufuncs return scalars for 0-D results; a kernel whose inputs were cast computes in its own dtype).
``execute(plan, arrays, attrs)`` runs the planned kernel on raw arrays. The eager API caches
``(plan.run, plan.out_metas)`` per cache key (input metas plus the attributes that can change the
plan) and, on a hit, calls ``run`` directly. On a miss, ``OpDispatcher.call`` plans, executes and
checks that first execution of the new plan against the plan's output metas (once per plan: a
kernel that disagrees with its InferMeta is reported by name, never cached).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

import numpy as np

from phiops.runtime import runtime_flags
from phiops.runtime.backends import (
    device_count,
    is_array,
    module_of,
    on_default_place_change,
    place_for_inputs,
    returns_scalars,
)
from phiops.runtime.common import Backend, CPUPlace, DataLayout, DataType, Place
from phiops.runtime.common.data_type import from_numpy_dtype
from phiops.runtime.common.promotion import promote_metas, promotion_rule
from phiops.runtime.tensor.dense_tensor import DenseTensorMeta, TensorBase
from phiops.runtime.tensor.kinds import TensorKind
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor
from phiops.runtime.tensor.selected_rows import SelectedRows, SelectedRowsMeta
from phiops.runtime.tensor.sparse import (
    MISSING_PART,
    SparseCooMeta,
    SparseCsrMeta,
    StringTensorMeta,
    TensorArrayMeta,
)
from phiops.runtime.device import array_module, check_place_available, to_backend
from phiops.runtime.dispatch.build_mode import BUILD_MODE
from phiops.runtime.dispatch.op_info import OpInfo
from phiops.runtime.dispatch.tensor_type import TENSOR_TYPE
from phiops.runtime.errors import (
    InvalidArgumentError,
    NotFoundError,
    PhiError,
    PreconditionNotMetError,
    ResourceExhaustedError,
    UnimplementedError,
)
from phiops.runtime.infermeta.sizes import check_output_sizes
from phiops.runtime.kernels import KERNEL_FACTORY, Kernel, KernelContext, KernelKey
from phiops.runtime.kernels.kernel import wanted_outputs

__all__ = [
    "OpDispatcher",
    "KernelPlan",
    "DataTransform",
    "execute",
    "check_outputs",
    "clear_dispatch_caches",
    "naming_op",
    "DISPATCHERS",
    "KIND_BY_ATTRIBUTE",
]

log = logging.getLogger("phiops.dispatch")

_CONFIG = MetaConfig(is_runtime=True)
_CONTEXTS: dict[Place, KernelContext] = {}
DISPATCHERS: list[OpDispatcher] = []
_CACHE_LIMIT = 4096
_DENSE = TensorKind.DENSE

# The meta class of each kind's outputs (an output's kind is the kernel's argument definition's).
_META_OF_KIND = {
    TensorKind.DENSE: DenseTensorMeta,
    TensorKind.SELECTED_ROWS: SelectedRowsMeta,
    TensorKind.SPARSE_COO: SparseCooMeta,
    TensorKind.SPARSE_CSR: SparseCsrMeta,
    TensorKind.TENSOR_ARRAY: TensorArrayMeta,
    TensorKind.STRING: StringTensorMeta,
}

# Ops whose kernel kind an attribute chooses, as PHI's hand-written API implementations do
# (paddle/phi/api/lib/api_custom_impl.cc, ``embedding_grad_impl``: ``sparse`` picks
# ``embedding_sparse_grad``, whose weight gradient is a SelectedRows). op -> (attribute, the
# kind selected while it is true). The attribute joins the op's cache key, so the generated
# fast path, which keys on the input metas alone, never serves these plans.
KIND_BY_ATTRIBUTE: dict[str, tuple[str, TensorKind]] = {
    "embedding_grad": ("sparse", TensorKind.SELECTED_ROWS),
}


def clear_dispatch_caches() -> None:
    """Forget every cached plan (after a flag that changes dispatch was set)."""
    for dispatcher in DISPATCHERS:
        dispatcher.cache.clear()
        dispatcher.dynamic_cache.clear()


runtime_flags.on_dispatch_flag_change(clear_dispatch_caches)
# plans record the kernel that won their key and the default place of ops without inputs
KERNEL_FACTORY.on_change(lambda name: runtime_flags.dispatch_changed())
on_default_place_change(lambda place: runtime_flags.dispatch_changed())


def _context(place: Place) -> KernelContext:
    context = _CONTEXTS.get(place)
    if context is None:
        context = _CONTEXTS[place] = KernelContext(array_module(place.backend), place)
    return context


@dataclass(frozen=True)
class DataTransform:
    """One kernel argument converted before the kernel runs: cast to ``dtype`` and/or moved to
    ``place`` (None where that part is not needed)."""

    argument: str
    position: int
    dtype: DataType | None
    place: Place | None
    convert: Callable[[Any], Any]


@dataclass(frozen=True)
class KernelPlan:
    """How one op runs for one set of input metas and attributes, decided without running it.

    ``key`` is the kernel key the call asked for and ``kernel`` the registration selected for it
    (its own key may be more general, or CPU after a fallback); ``place`` is where the kernel
    runs. After a CPU fallback from a device that is there, ``fallback_from`` is that device's
    place: the inputs come to the CPU and the outputs go back to it, as PHI does. ``out_metas``
    is one DenseTensorMeta for a single output, else a tuple (a tuple of metas for a
    ``Tensor[]`` output, None for an absent optional one). ``arguments`` maps each kernel
    parameter to ``(is_input, index)`` into the op's inputs or attributes. ``run`` is the kernel
    bound to its context behind the transforms and the output conformers; it takes the kernel's
    arguments in kernel order.
    """

    op: str
    key: KernelKey
    kernel: Kernel
    place: Place
    transforms: tuple[DataTransform, ...]
    out_metas: Any
    arguments: tuple[tuple[bool, int], ...]
    run: Callable[..., Any]
    fallback_from: Place | None = None


def execute(plan: KernelPlan, arrays: tuple[Any, ...], attrs: tuple[Any, ...]) -> Any:
    """Run ``plan`` on the op's input arrays (None for an absent optional input, a list for a
    ``Tensor[]``) and its attributes, both in op order; returns the kernel's result (one array,
    or a tuple with one entry per output)."""
    return plan.run(*[arrays[i] if is_input else attrs[i] for is_input, i in plan.arguments])


class OpDispatcher:
    """Plans, executes and caches how one op runs for each distinct cache key."""

    __slots__ = (
        "info",
        "infer_meta",
        "cache",
        "dynamic_cache",
        "_kernel_slots",
        "_key_attr_index",
        "_promotion",
        "_kind_attr",
    )

    def __init__(self, info: OpInfo, infer_meta: Callable[..., tuple[Any, ...]]) -> None:
        self.info = info
        self.infer_meta = infer_meta
        self.cache: dict[tuple, tuple[Callable[..., Any], Any]] = {}
        self.dynamic_cache: dict[tuple, tuple[Callable[..., Any], Any]] = {}
        input_index = {spec.name: i for i, spec in enumerate(info.inputs)}
        attr_index = {spec.name: i for i, spec in enumerate(info.attrs)}
        # (is_input, index) for each kernel parameter, in kernel order.
        self._kernel_slots = tuple(
            (True, input_index[name]) if name in input_index else (False, attr_index[name])
            for name in info.kernel_params
        )
        self._key_attr_index = tuple(attr_index[name] for name in info.key_attrs)
        # (attribute index, kind) when an attribute chooses the kernel's kind
        self._kind_attr: tuple[int, TensorKind] | None = None
        chooser = KIND_BY_ATTRIBUTE.get(info.name)
        if chooser is not None and chooser[0] in attr_index:
            self._kind_attr = (attr_index[chooser[0]], chooser[1])
            self._key_attr_index += (attr_index[chooser[0]],)
        self._promotion = promotion_rule(info)
        DISPATCHERS.append(self)

    # -- the slow path -----------------------------------------------------------------------
    def call(self, inputs: tuple[Any, ...], attrs: tuple[Any, ...]) -> tuple[Any, ...]:
        """Check, plan, execute and cache; returns every output (intermediate ones included) as a
        tuple: a Tensor, a list of Tensors for a Tensor[] output, None for an absent optional one.
        In static mode (a builder installed, runtime/dispatch/build_mode.py) the builder takes the
        call instead and builds it into a program.
        """
        builder = BUILD_MODE.builder
        if builder is not None:
            return builder(self, inputs, attrs)
        try:
            return self._call(inputs, attrs)
        except PhiError as error:
            # The generated function calls this from its cache-miss handler: the miss's KeyError
            # is no part of the user's error ("During handling of the above exception...").
            raise naming_op(error, self.info.name) from None
        except MemoryError:
            raise ResourceExhaustedError(
                f"{self.info.name}(): out of memory running kernel '{self.info.kernel}'"
            ) from None

    def _call(self, inputs: tuple[Any, ...], attrs: tuple[Any, ...]) -> tuple[Any, ...]:
        metas = self.input_metas(inputs)
        key = metas + tuple(attrs[i] for i in self._key_attr_index)
        arrays = tuple(_arrays_of(value) for value in inputs)
        kernel_args = [arrays[i] if is_input else attrs[i] for is_input, i in self._kernel_slots]
        cached = self.cache.get(key)
        if cached is not None:
            run, out_metas = cached
            return self._wrap(run(*kernel_args), out_metas)
        cached = self.dynamic_cache.get(key)
        if cached is not None:
            run, out_metas = cached
            return self._wrap_dynamic(run(*kernel_args), out_metas)
        plan = self.plan(metas, attrs)
        result = plan.run(*kernel_args)
        check_outputs(plan, result, self.info)
        # Outputs whose dims depend on the data (-1 from InferMeta: nonzero, masked_select,
        # unique) are planned once but wrapped with the dims of each result, so they stay out
        # of ``cache``, which the generated API's fast path wraps with the planned metas.
        dynamic = _has_dynamic_dims(plan.out_metas)
        cache = self.dynamic_cache if dynamic else self.cache
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        cache[key] = (self._instrument(plan.run, plan.kernel), plan.out_metas)
        # The instrumented run checks and logs later calls; this first one is checked here.
        if runtime_flags.SWITCHES.log_dispatch:
            _log_dispatch(self.info.name, plan.kernel, kernel_args)
        if runtime_flags.SWITCHES.check_nan_inf:
            _check_nan_inf(self.info.name, self.info.outputs, result)
        if dynamic:
            return self._wrap_dynamic(result, plan.out_metas)
        return self._wrap(result, plan.out_metas)

    def execute(self, plan: KernelPlan, arrays: tuple[Any, ...], attrs: tuple[Any, ...]) -> Any:
        """``execute(plan, arrays, attrs)`` for this op's plans."""
        return execute(plan, arrays, attrs)

    def input_metas(self, inputs: tuple[Any, ...]) -> tuple[Any, ...]:
        """The metas of the op's input values, in op order: a DenseTensorMeta per Tensor, a tuple
        of them per Tensor list, None per absent optional input; InvalidArgumentError naming the
        argument for anything else."""
        return tuple(self._input_meta(value, spec) for value, spec in zip(inputs, self.info.inputs))

    def _input_meta(self, value: Any, spec: Any) -> Any:
        op = self.info.name
        if value is None:
            if spec.optional:
                return None
            raise InvalidArgumentError(f"{op}(): argument '{spec.name}' is required, got None")
        if spec.is_list:
            if not isinstance(value, (list, tuple)):
                raise InvalidArgumentError(
                    f"{op}(): argument '{spec.name}' expects a list of Tensors, got {type(value).__name__}"
                )
            tensor = TENSOR_TYPE.cls
            for position, item in enumerate(value):
                if not isinstance(item, tensor):
                    raise InvalidArgumentError(
                        f"{op}(): argument '{spec.name}[{position}]' expects a Tensor, "
                        f"got {type(item).__name__} {item!r}"
                    )
            return tuple(item.meta for item in value)
        if not isinstance(value, TENSOR_TYPE.cls):
            raise InvalidArgumentError(
                f"{op}(): argument '{spec.name}' expects a Tensor, got {type(value).__name__} {value!r}"
            )
        return value.meta

    def plan(self, metas: tuple, attrs: tuple) -> KernelPlan:
        """The KernelPlan for input ``metas`` (as ``input_metas`` gives them) and normalised
        ``attrs``, both in op order; runs InferMeta, never the kernel."""
        info = self.info
        values = dict(zip(info.input_names, metas))
        values.update(zip(info.attr_names, attrs))
        # Type promotion (runtime/common/promotion.py): InferMeta sees the inputs as cast to the
        # dtype the op computes in, and the kernel's argument definition casts the arrays.
        promoted = (
            promote_metas(info.name, self._promotion, metas, _meta_with_dtype)
            if self._promotion
            else None
        )
        dtype = self._key_dtype(values, metas) if promoted is None else promoted[0]
        meta_values = metas if promoted is None else promoted[1]
        place = self._key_place(values, metas)
        kind, kind_argument = self._key_kind(metas, attrs)
        key = KernelKey(
            place.backend, DataLayout.ALL_LAYOUT if not metas else _layout_of(metas), dtype, kind
        )
        kernel_name = info.kernel
        if kind is not _DENSE:
            # the kernel's variant for the kind (PHI's sgd_dense_param_sparse_grad), or a
            # kernel of that kind registered under the kernel's own name
            kernel_name = KERNEL_FACTORY.variant_name(info.kernel, kind) or info.kernel
        try:
            kernel = KERNEL_FACTORY.select(
                kernel_name, key, cpu_fallback=runtime_flags.SWITCHES.enable_api_kernel_fallback
            )
        except NotFoundError as error:
            if kind is not _DENSE and kind not in KERNEL_FACTORY.kinds_of(info.kernel):
                raise self._no_kernel_of_kind(kind, kind_argument) from None
            if kind is _DENSE and _DENSE not in KERNEL_FACTORY.kinds_of(info.kernel):
                raise self._no_dense_kernel() from None
            flag = (
                ""
                if runtime_flags.SWITCHES.enable_api_kernel_fallback
                or place.backend is Backend.CPU
                else "; FLAGS_enable_api_kernel_fallback is off, so the CPU kernel does not "
                "run instead"
            )
            raise NotFoundError(
                f"{info.name}(): {error} (device {_device_name(place)}{flag})"
            ) from None
        if kind is not _DENSE or kernel.key.kind is not _DENSE:
            self._check_kinds(kernel, metas)
        fallback_from = None
        if kernel.key.backend is Backend.CPU and place.backend is not Backend.CPU:
            if place.device_id < device_count(place.backend):
                fallback_from = place  # outputs go back to the device
            place = CPUPlace()
        meta_inputs = [
            _meta_tensors(meta, name) for meta, name in zip(meta_values, info.input_names)
        ]
        try:
            outputs = self.infer_meta(*meta_inputs, *attrs, _CONFIG)
        except InvalidArgumentError as error:
            raise InvalidArgumentError(f"{info.name}(): {error}") from None
        out_place = place if fallback_from is None else fallback_from
        out_kinds = [arg.tensor_kind for arg in kernel.args_def.outputs]
        if len(out_kinds) != len(info.outputs):
            out_kinds = [_DENSE] * len(info.outputs)
        out_metas = tuple(
            self._interned(out, spec, out_place, out_kind)
            for out, spec, out_kind in zip(outputs, info.outputs, out_kinds)
        )
        check_output_sizes(
            info.name,
            (spec.name for spec in info.outputs),
            out_metas,
            runtime_flags.SWITCHES.max_alloc_bytes,
        )
        transforms = self._transforms(kernel, metas, place)
        context = _context(place)
        ufunc = getattr(kernel.fn, "xp_ufunc", None)
        run = partial(kernel.fn, context) if ufunc is None else getattr(context.xp, ufunc)
        if transforms:
            run = _with_transforms(run, transforms)
        fix = _output_fix(
            out_metas,
            info.outputs,
            place,
            any(t.dtype is not None for t in transforms),
        )
        if fix is not None:
            run = _compose(run, fix)
        if fallback_from is not None:
            run = _compose(run, _mover(info.outputs, fallback_from))
        return KernelPlan(
            op=info.name,
            key=key,
            kernel=kernel,
            place=place,
            transforms=transforms,
            out_metas=out_metas[0] if len(out_metas) == 1 else out_metas,
            arguments=self._kernel_slots,
            run=run,
            fallback_from=fallback_from,
        )

    def _key_kind(self, metas: tuple, attrs: tuple) -> tuple[TensorKind, str | None]:
        """The kind of kernel the call needs and the argument that made it so: the kind its
        attribute chooses (KIND_BY_ATTRIBUTE), else the first input of another kind than
        DENSE, else DENSE."""
        chooser = self._kind_attr
        if chooser is not None and attrs[chooser[0]]:
            return chooser[1], None
        for meta, spec in zip(metas, self.info.inputs):
            if meta is None:
                continue
            for item in meta if isinstance(meta, tuple) else (meta,):
                if item.kind is not _DENSE:
                    return item.kind, spec.name
        return _DENSE, None

    def _no_kernel_of_kind(self, kind: TensorKind, argument: str | None) -> PhiError:
        """The error for a call with a tensor of a kind the op has no kernel for."""
        info = self.info
        have = ", ".join(k.title for k in KERNEL_FACTORY.kinds_of(info.kernel)) or "none"
        where = (
            f"argument '{argument}' is a {kind.title}"
            if argument is not None
            else f"its attributes ask for a {kind.title} kernel"
        )
        if kind in MISSING_PART:
            return UnimplementedError(
                f"{info.name}(): {where}, which the generated op does not take: "
                f"{MISSING_PART[kind]}; kernel '{info.kernel}' has kernels for: {have}"
            )
        return InvalidArgumentError(
            f"{info.name}(): {where}, but kernel '{info.kernel}' has no {kind.title} kernel "
            f"(it has kernels for: {have}); a dense kernel is never handed a {kind.title}"
        )

    def _no_dense_kernel(self) -> PhiError:
        """The error for dense inputs to an op whose kernels all take another kind
        (merge_selected_rows: SelectedRows only), naming the first input they take of it."""
        info = self.info
        have = KERNEL_FACTORY.kinds_of(info.kernel)
        registered = next(iter(KERNEL_FACTORY.kernels.get(info.kernel, {}).values()), None)
        kinds = (
            {arg.name: arg.tensor_kind for arg in registered.args_def.inputs} if registered else {}
        )
        argument = next(
            (spec.name for spec in info.inputs if kinds.get(spec.name, _DENSE) is not _DENSE), None
        )
        names = ", ".join(k.title for k in have) or "none"
        where = f"argument '{argument}' is a DenseTensor" if argument else "its inputs are dense"
        return InvalidArgumentError(
            f"{info.name}(): {where}, but kernel '{info.kernel}' has kernels for: {names} only; "
            f"it is never handed a DenseTensor"
        )

    def _check_kinds(self, kernel: Kernel, metas: tuple) -> None:
        """InvalidArgumentError naming the argument unless every input has the kind the
        kernel's argument definition takes there."""
        defs = {arg.name: arg.tensor_kind for arg in kernel.args_def.inputs}
        for meta, spec in zip(metas, self.info.inputs):
            want = defs.get(spec.name)
            if meta is None or want is None:
                continue
            for position, item in enumerate(meta if isinstance(meta, tuple) else (meta,)):
                if item.kind is not want:
                    where = f"{spec.name}[{position}]" if isinstance(meta, tuple) else spec.name
                    raise InvalidArgumentError(
                        f"{self.info.name}(): argument '{where}' is a {item.kind.title}, but the "
                        f"{kernel.key.kind.title} kernel '{kernel.name}' selected for this call "
                        f"takes a {want.title} there"
                    )

    def _key_dtype(self, values: dict[str, Any], metas: tuple) -> DataType:
        info = self.info
        for candidate in info.data_type:
            found = _candidate_dtype(candidate, values)
            if found is not None and found is not DataType.UNDEFINED:
                return found
        dtypes = [meta.dtype for meta in _flat(metas)]
        if not dtypes:
            for spec, meta in zip(info.inputs, metas):
                if spec.is_list and meta == ():
                    raise InvalidArgumentError(
                        f"{info.name}(): argument '{spec.name}' must hold at least one tensor, "
                        "got an empty list"
                    )
            raise PreconditionNotMetError(
                f"{info.name}(): cannot choose a kernel data type: the op has no tensor input and "
                f"no kernel.data_type ({info.location})"
            )
        return max(dtypes)

    def _key_place(self, values: dict[str, Any], metas: tuple) -> Place:
        for candidate in self.info.backend:
            value = values.get(candidate)
            if isinstance(value, Place) and value.is_defined:
                check_place_available(value, self.info.name)
                return value
            flat = (
                list(_flat((value,))) if value is not None and not isinstance(value, Place) else []
            )
            if flat:
                return flat[0].place
        return place_for_inputs([meta.place for meta in _flat(metas)])

    def _interned(self, out: Any, spec: Any, place: Place, kind: TensorKind = _DENSE) -> Any:
        if isinstance(out, list):
            return tuple(self._interned(item, spec, place, kind) for item in out)
        if spec.optional and out._dims is None and out.dtype is DataType.UNDEFINED:
            return None  # an optional output whose input is absent
        name = out.name or spec.name
        if out._dims is None or out.dtype is DataType.UNDEFINED:
            raise PreconditionNotMetError(
                f"{self.info.name}(): InferMeta {self.info.infer_meta} left output '{name}' without "
                f"{'dims' if out._dims is None else 'dtype'} ({self.info.location})"
            )
        return _META_OF_KIND[kind].get(out.dtype, out.dims, out.layout, place)

    def _transforms(self, kernel: Kernel, metas: tuple, place: Place) -> tuple[DataTransform, ...]:
        """The conversions the kernel's argument definition asks for, in kernel order."""
        info = self.info
        transforms: list[DataTransform] = []
        input_defs = {d.name: d for d in kernel.args_def.inputs}
        for position, (is_input, index) in enumerate(self._kernel_slots):
            if not is_input:
                continue
            name = info.inputs[index].name
            if name in info.skip_transform:
                continue
            arg_def = input_defs[name]
            transform = _transform(
                name, position, metas[index], arg_def.dtype, arg_def.backend, place
            )
            if transform is not None and arg_def.tensor_kind is not _DENSE:
                transform = _kind_transform(transform, arg_def.tensor_kind)
            if transform is not None:
                transforms.append(transform)
        return tuple(transforms)

    def _instrument(self, run: Callable[..., Any], kernel: Kernel) -> Callable[..., Any]:
        switches = runtime_flags.SWITCHES
        name, outputs = self.info.name, self.info.outputs
        if switches.check_nan_inf:
            inner_check = run

            def run_checked(*args: Any) -> Any:
                result = inner_check(*args)
                _check_nan_inf(name, outputs, result)
                return result

            run = run_checked
        if switches.log_dispatch:
            inner_log = run

            def run_logged(*args: Any) -> Any:
                _log_dispatch(name, kernel, args)
                return inner_log(*args)

            run = run_logged
        return run

    def _wrap_dynamic(self, result: Any, out_metas: Any) -> tuple[Any, ...]:
        """As _wrap, with each -1 dim of a planned meta taken from the kernel's result."""
        many = len(self.info.outputs) > 1
        results, metas = (result, out_metas) if many else ((result,), (out_metas,))
        actual = tuple(
            (
                tuple(_actual_meta(v, m) for v, m in zip(value, meta))
                if isinstance(meta, tuple) and value is not None
                else _actual_meta(value, meta)
            )
            for value, meta in zip(results, metas)
        )
        return self._wrap(result, actual if many else actual[0])

    def _wrap(self, result: Any, out_metas: Any) -> tuple[Any, ...]:
        outputs = self.info.outputs
        if len(outputs) == 1:
            result, out_metas = (result,), (out_metas,)
        wrap_array = TENSOR_TYPE.wrap
        wrapped = []
        for value, meta, spec in zip(result, out_metas, outputs):
            # value None where a grad kernel skipped an output nobody wanted
            if spec.is_list:
                wrapped.append(
                    None if value is None else [wrap_array(a, m) for a, m in zip(value, meta)]
                )
            else:
                wrapped.append(None if meta is None or value is None else wrap_array(value, meta))
        return tuple(wrapped)


_OP_PREFIX = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\(\): ")


def naming_op(error: PhiError, op: str) -> PhiError:
    """``error`` itself when its message already starts with an op's name (``ones(): ...``),
    else the same kind of error with ``op(): `` in front: a kernel or an InferMeta helper raising
    for an op does not know which op called it."""
    message = str(error)
    if _OP_PREFIX.match(message):
        return error
    try:
        named = type(error)(f"{op}(): {message}")
    except TypeError:
        return error
    named.__traceback__ = error.__traceback__
    return named


def _actual_meta(value: Any, meta: Any) -> Any:
    """``meta`` with its -1 extents taken from the kernel's ``value``."""
    if meta is None or value is None or -1 not in meta.dims:
        return meta
    return DenseTensorMeta.get(meta.dtype, tuple(value.shape), meta.layout, meta.place)


def _has_dynamic_dims(out_metas: Any) -> bool:
    """Whether a planned output meta (or one of a Tensor[] output's) has a -1 extent: a
    data-dependent one, which the kernel's result decides (nonzero, unique, the per-level rois of
    distribute_fpn_proposals)."""
    metas = out_metas if isinstance(out_metas, tuple) else (out_metas,)
    return any(
        isinstance(m, DenseTensorMeta)
        and -1 in m.dims
        or isinstance(m, tuple)
        and any(isinstance(i, DenseTensorMeta) and -1 in i.dims for i in m)
        for m in metas
    )


def _fits_dynamic(got: tuple[int, ...], want: tuple[int, ...]) -> bool:
    """Whether a result's dims match planned dims in which -1 stands for any extent; planned
    dims [-1] also stand for any rank, where InferMeta cannot know it either (p_recv: the shape
    comes from the sender), as PaddlePaddle's static graphs show such an output."""
    return want == (-1,) or len(got) == len(want) and all(w == -1 or g == w for g, w in zip(got, want))


def check_outputs(plan: KernelPlan, result: Any, info: OpInfo) -> None:
    """PreconditionNotMetError naming the kernel unless ``result`` (what ``plan.run`` returned)
    has exactly the plan's output metas: count, dtypes and shapes."""
    kernel = plan.kernel
    many = len(info.outputs) > 1
    results = result if many else (result,)
    metas = plan.out_metas if many else (plan.out_metas,)
    if many and (not isinstance(result, tuple) or len(result) != len(metas)):
        raise PreconditionNotMetError(
            f"{info.name}(): kernel {kernel!r} must return a tuple of {len(metas)} arrays"
        )
    wanted = wanted_outputs()
    for index, (value, meta, spec) in enumerate(zip(results, metas, info.outputs)):
        if value is None and wanted is not None and not wanted[index]:
            continue  # a gradient the caller did not want: the kernel may skip it
        if spec.is_list and not value and all(m is None for m in meta):
            continue  # an optional Tensor[] output whose input is absent (None or empty)
        items, item_metas = (value, meta) if spec.is_list else ((value,), (meta,))
        if spec.is_list and len(items) != len(item_metas):
            raise PreconditionNotMetError(
                f"{info.name}(): kernel {kernel!r} returned {len(items)} arrays for "
                f"output '{spec.name}', InferMeta expected {len(item_metas)}"
            )
        for item, item_meta in zip(items, item_metas):
            if item_meta is None or item is None:
                if item_meta is not item:
                    raise PreconditionNotMetError(
                        f"{info.name}(): kernel {kernel!r} returned "
                        f"{'None' if item is None else 'an array'} for optional output '{spec.name}', "
                        f"but InferMeta {info.infer_meta} "
                        f"{'set' if item_meta is not None else 'did not set'} its meta"
                    )
                continue
            if item_meta.kind is not _DENSE:
                _check_kind_output(info, kernel, spec.name, item, item_meta)
                continue
            if not is_array(item):
                raise PreconditionNotMetError(
                    f"{info.name}(): kernel {kernel!r} returned {type(item).__name__} for output "
                    f"'{spec.name}', expected an array"
                )
            got = (from_numpy_dtype(item.dtype), tuple(item.shape))
            want = (item_meta.dtype, item_meta.dims)
            if got != want and not (got[0] is want[0] and _fits_dynamic(got[1], want[1])):
                raise PreconditionNotMetError(
                    f"{info.name}(): kernel {kernel!r} returned {got[0].name.lower()} "
                    f"{list(got[1])} for output '{spec.name}', but InferMeta "
                    f"{info.infer_meta} computed {want[0].name.lower()} {list(want[1])}"
                )


def _with_transforms(
    base: Callable[..., Any], transforms: tuple[DataTransform, ...]
) -> Callable[..., Any]:
    converters = tuple((t.position, t.convert) for t in transforms)

    def run_with_transforms(*args: Any) -> Any:
        args_list = list(args)
        for position, converter in converters:
            args_list[position] = converter(args_list[position])
        return base(*args_list)

    return run_with_transforms


def _output_fix(
    out_metas: tuple, outputs: tuple, place: Place, inputs_cast: bool
) -> Callable[[Any], Any] | None:
    """A function making the kernel's result conform to ``out_metas``, or None when none is
    needed: on CPU a 0-D output may come back as a numpy scalar; and when inputs were cast to the
    dtype the kernel's argument definition asks for, the kernel computes in that dtype, so every
    output is cast back to the dtype InferMeta gave it (a no-op where it already has it)."""

    scalars = returns_scalars(place.backend)

    def needs(meta: Any) -> bool:
        if meta is None:
            return False
        if isinstance(meta, tuple):
            return any(needs(m) for m in meta)
        return meta.kind is _DENSE and (inputs_cast or (scalars and meta.dims == ()))

    if not any(needs(meta) for meta in out_metas):
        return None
    conformers = [_conformer(meta, spec.is_list) for meta, spec in zip(out_metas, outputs)]
    if len(outputs) == 1:
        return conformers[0]

    def fix(value: Any) -> Any:
        return tuple(conform(v) for conform, v in zip(conformers, value))

    return fix


def _candidate_dtype(candidate: str, values: dict[str, Any]) -> DataType | None:
    if candidate.startswith("DataType::"):
        return DataType[candidate[len("DataType::") :]]
    as_complex = candidate.startswith("complex:")
    value = values.get(candidate[len("complex:") :] if as_complex else candidate)
    if isinstance(value, DataType):
        found = value
    else:
        dtypes = [meta.dtype for meta in _flat((value,))] if value is not None else []
        if not dtypes:
            return None
        found = max(dtypes)
    return found.to_complex if as_complex and found is not DataType.UNDEFINED else found


def _meta_with_dtype(meta: DenseTensorMeta, dtype: DataType) -> DenseTensorMeta:
    return DenseTensorMeta.get(dtype, meta.dims, meta.layout, meta.place)


def _flat(metas: tuple) -> Any:
    for meta in metas:
        if meta is None:
            continue
        if isinstance(meta, tuple):
            yield from meta
        elif isinstance(meta, DenseTensorMeta):
            yield meta


def _layout_of(metas: tuple) -> DataLayout:
    for meta in _flat(metas):
        return meta.layout
    return DataLayout.ALL_LAYOUT


def _meta_tensors(meta: Any, name: str) -> Any:
    if meta is None:
        return None
    if isinstance(meta, tuple):
        return [MetaTensor(item, f"{name}[{i}]") for i, item in enumerate(meta)]
    return MetaTensor(meta, name)


def _arrays_of(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return [item.array for item in value]
    return value.array


def _transform(
    name: str, position: int, meta: Any, dtype: DataType, backend: Backend, place: Place
) -> DataTransform | None:
    """The conversion of one kernel argument, or None when it can be passed as it is."""
    items = list(_flat((meta,)))
    cast = dtype is not DataType.ALL_DTYPE and any(m.dtype is not dtype for m in items)
    move = backend is not Backend.ALL_BACKEND and any(m.place != place for m in items)
    if not cast and not move:
        return None
    np_dtype = dtype.numpy_dtype if cast else None

    def convert_one(array: Any) -> Any:
        if move:
            array = to_backend(array, place)
        if np_dtype is not None and array.dtype != np_dtype:
            array = array.astype(np_dtype)
        return array

    if isinstance(meta, tuple):

        def convert(arrays: Any) -> Any:
            return [convert_one(a) for a in arrays]

    else:
        convert = convert_one
    return DataTransform(name, position, dtype if cast else None, place if move else None, convert)


def _kind_transform(transform: DataTransform, kind: TensorKind) -> DataTransform:
    """``transform`` for an argument of another kind than DENSE: a SelectedRows's value is
    converted (its rows stay as they are); the other kinds have no conversion yet."""
    if kind is not TensorKind.SELECTED_ROWS:
        raise UnimplementedError(
            f"argument '{transform.argument}' is a {kind.title} that would need a cast or a move "
            f"before the kernel runs; not implemented ({MISSING_PART.get(kind, '')})"
        )
    inner = transform.convert

    def convert(value: SelectedRows) -> SelectedRows:
        from phiops.runtime.tensor.dense_tensor import DenseTensor

        moved = to_backend(value.rows, transform.place) if transform.place else value.rows
        return SelectedRows(moved, value.height, DenseTensor(inner(value.value.array)), False)

    return DataTransform(
        transform.argument, transform.position, transform.dtype, transform.place, convert
    )


def _check_kind_output(info: OpInfo, kernel: Kernel, name: str, item: Any, meta: Any) -> None:
    """PreconditionNotMetError unless a kernel's output of another kind than DENSE is a tensor
    of that kind with the planned dtype and complete dims."""
    if not isinstance(item, TensorBase) or item.meta.kind is not meta.kind:
        raise PreconditionNotMetError(
            f"{info.name}(): kernel {kernel!r} returned {type(item).__name__} for output "
            f"'{name}', expected a {meta.kind.title}"
        )
    got = item.meta
    if got.dtype is not meta.dtype or got.dims != meta.dims:
        raise PreconditionNotMetError(
            f"{info.name}(): kernel {kernel!r} returned a {meta.kind.title} "
            f"{got.dtype.name.lower()} {list(got.dims)} for output '{name}', but InferMeta "
            f"{info.infer_meta} computed {meta.dtype.name.lower()} {list(meta.dims)}"
        )


def _conformer(meta: Any, is_list: bool) -> Callable[[Any], Any]:
    """The cheapest function that turns a kernel's output into an array of ``meta``'s dtype:
    numpy scalars (what ufuncs give for 0-D inputs) become 0-D arrays, other dtypes are cast.
    CuPy always returns arrays, so only numpy needs the conversion."""
    if is_list:
        item_conformers = [_conformer(m, False) for m in meta]
        return lambda values: (
            None if values is None else [conform(v) for conform, v in zip(item_conformers, values)]
        )
    if meta is None or meta.kind is not _DENSE:
        return lambda value: value
    np_dtype = meta.dtype.numpy_dtype
    asarray = np.asarray

    def conform(value: Any) -> Any:
        if value is None:  # an output a grad kernel skipped (nobody wanted it)
            return None
        if type(value) is not np.ndarray and not is_array(value):
            value = asarray(value)
        return value if value.dtype == np_dtype else value.astype(np_dtype)

    return conform


def _device_name(place: Place) -> str:
    backend = place.backend
    return f"{getattr(backend, 'device_type', backend.name.lower())}:{place.device_id}"


def _mover(outputs: tuple, place: Place) -> Callable[[Any], Any]:
    """A function moving a kernel's result (one array, a list, or a tuple per output; None
    where absent) to ``place``: a CPU fallback's outputs back to the device it fell back from."""

    def move(value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, list):
            return [move(item) for item in value]
        return to_backend(value, place)

    if len(outputs) == 1:
        return move
    return lambda values: tuple(move(value) for value in values)


def _compose(run: Callable[..., Any], fix: Callable[[Any], Any]) -> Callable[..., Any]:
    def run_fixed(*args: Any) -> Any:
        return fix(run(*args))

    return run_fixed


def _check_nan_inf(op: str, outputs: tuple, result: Any) -> None:
    results = result if len(outputs) > 1 else (result,)
    for value, spec in zip(results, outputs):
        items = () if value is None else value if spec.is_list else (value,)
        for position, array in enumerate(items):
            if isinstance(array, SelectedRows):
                array = array.value.array
            elif isinstance(array, TensorBase):
                continue  # the sparse kinds: checked by their own ops (issue 28 part 2)
            if array.dtype.kind not in "fc" or array.size == 0:
                continue
            xp = module_of(array)
            bad_nan = bool(xp.isnan(array).any())
            bad_inf = not bad_nan and bool(xp.isinf(array).any())
            if bad_nan or bad_inf:
                where = f"{spec.name}[{position}]" if spec.is_list else spec.name
                raise InvalidArgumentError(
                    f"{op}(): output '{where}' contains {'NaN' if bad_nan else 'Inf'} "
                    f"(FLAGS_check_nan_inf is on)"
                )


def _log_dispatch(op: str, kernel: Kernel, args: Any) -> None:
    shapes = [
        [list(a.shape) for a in arg] if isinstance(arg, list) else list(arg.shape)
        for arg in args
        if is_array(arg) or (isinstance(arg, list) and arg and is_array(arg[0]))
    ]
    log.info("dispatch op=%s kernel=%s key=%s input_shapes=%s", op, kernel.name, kernel.key, shapes)
