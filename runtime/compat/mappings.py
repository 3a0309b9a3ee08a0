"""Hand-written argument-mapping functions: the legacy ops whose op_compat.yaml entry does not say
enough to generate one (each is listed in ``manual_signature`` of its entry, so that no function
is generated for it). They follow PaddlePaddle's ``paddle/phi/ops/compat/*_sig.cc``, with phiops'
kernel arguments (the kernel signatures in generated/signatures.py).

A signature naming a kernel phiops does not register (``add_raw`` for an ``elementwise_add``
whose ``axis`` is not -1, ``sum_raw`` for a ``reduce_sum`` over all axes) is PaddlePaddle's
answer too; whoever runs the op reports that kernel as missing.
"""

from __future__ import annotations

from phiops.runtime.compat.registry import register_argument_mapping
from phiops.runtime.dispatch.signature import ArgumentMappingContext, KernelSignature

__all__: list[str] = []


@register_argument_mapping("fill_constant")
def fill_constant(ctx: ArgumentMappingContext) -> KernelSignature:
    """The shape from ShapeTensor, ShapeTensorList or `shape`; the value from ValueTensor, else
    `str_value` when it is set (a value a float cannot hold exactly), else `value`."""
    if ctx.has_input("ShapeTensor"):
        shape = "ShapeTensor"
    elif ctx.input_size("ShapeTensorList") > 0:
        shape = "ShapeTensorList"
    else:
        shape = "shape"
    if ctx.has_input("ValueTensor"):
        value = "ValueTensor"
    elif ctx.has_attr("str_value") and ctx.attr("str_value"):
        value = "str_value"
    else:
        value = "value"
    return KernelSignature("full", (), (shape, value, "dtype"), ("Out",))


def _elementwise(legacy: str, kernel: str) -> None:
    def mapping(ctx: ArgumentMappingContext) -> KernelSignature:
        if not ctx.has_attr("axis") or ctx.attr("axis") == -1:
            return KernelSignature(kernel, ("X", "Y"), (), ("Out",))
        return KernelSignature(f"{kernel}_raw", ("X", "Y"), ("axis",), ("Out",))

    mapping.__name__ = mapping.__qualname__ = legacy
    mapping.__doc__ = (
        f"`{kernel}` when `axis` is -1 (numpy broadcasting); else `{kernel}_raw`, which aligns Y "
        "with X from `axis`."
    )
    register_argument_mapping(legacy)(mapping)


for _legacy, _kernel in (
    ("elementwise_add", "add"),
    ("elementwise_sub", "subtract"),
    ("elementwise_mul", "multiply"),
    ("elementwise_div", "divide"),
    ("elementwise_max", "maximum"),
    ("elementwise_min", "minimum"),
    ("elementwise_pow", "elementwise_pow"),
    ("elementwise_floordiv", "floor_divide"),
    ("elementwise_mod", "remainder"),
):
    _elementwise(_legacy, _kernel)


def _reduce(legacy: str, kernel: str, with_dtype: bool) -> None:
    def mapping(ctx: ArgumentMappingContext) -> KernelSignature:
        # an empty `dim` is every axis for the kernel too (PaddlePaddle 3.3.1's legacy layers
        # write reduce_all with dim []): only reduce_all over a `dim` naming axes needs _raw
        if (
            ctx.has_attr("reduce_all")
            and ctx.attr("reduce_all")
            and not (ctx.has_attr("dim") and len(ctx.attr("dim")) == 0)
        ):
            attrs = ("dim", "keep_dim", "reduce_all")
            if with_dtype:
                attrs = ("dim", "keep_dim", "reduce_all", "in_dtype", "out_dtype")
            return KernelSignature(f"{kernel}_raw", ("X",), attrs, ("Out",))
        attrs = ("dim", "out_dtype", "keep_dim") if with_dtype else ("dim", "keep_dim")
        return KernelSignature(kernel, ("X",), attrs, ("Out",))

    mapping.__name__ = mapping.__qualname__ = legacy
    mapping.__doc__ = (
        f"`{kernel}` over `dim` (every axis when it is empty); `{kernel}_raw` when `reduce_all` "
        "is set with a `dim` naming axes (the legacy op then ignores `dim`)."
    )
    register_argument_mapping(legacy)(mapping)


for _legacy, _kernel, _with_dtype in (
    ("reduce_sum", "sum", True),
    ("reduce_mean", "mean", False),
    ("reduce_max", "max", False),
    ("reduce_min", "min", False),
    ("reduce_all", "all", False),
    ("reduce_any", "any", False),
):
    _reduce(_legacy, _kernel, _with_dtype)


@register_argument_mapping("reduce_prod")
def reduce_prod(ctx: ArgumentMappingContext) -> KernelSignature:
    """phiops' `prod` kernel takes `reduce_all` itself."""
    return KernelSignature("prod", ("X",), ("dim", "keep_dim", "reduce_all"), ("Out",))


@register_argument_mapping("cast")
def cast(ctx: ArgumentMappingContext) -> KernelSignature:
    """The legacy op names the target dtype `out_dtype` (and carries an unused `in_dtype`)."""
    return KernelSignature("cast", ("X",), ("out_dtype",), ("Out",))


@register_argument_mapping("flatten_contiguous_range")
def flatten_contiguous_range(ctx: ArgumentMappingContext) -> KernelSignature:
    """The `XShape` output (the input's shape for the grad op) is not the kernel's."""
    return KernelSignature("flatten", ("X",), ("start_axis", "stop_axis"), ("Out",))


@register_argument_mapping("hard_swish")
def hard_swish(ctx: ArgumentMappingContext) -> KernelSignature:
    """The legacy `threshold`, `scale` and `offset` attributes are fixed (6, 6, 3) in the kernel."""
    return KernelSignature("hardswish", ("X",), (), ("Out",))


@register_argument_mapping("expand_v2")
def expand_v2(ctx: ArgumentMappingContext) -> KernelSignature:
    """The shape from the `Shape` tensor, else the `expand_shapes_tensor` list, else `shape`."""
    if ctx.has_input("Shape"):
        shape = "Shape"
    elif ctx.input_size("expand_shapes_tensor") > 0:
        shape = "expand_shapes_tensor"
    else:
        shape = "shape"
    return KernelSignature("expand", ("X",), (shape,), ("Out",))


@register_argument_mapping("split")
def split(ctx: ArgumentMappingContext) -> KernelSignature:
    """`split_with_num` when `num` is set, else `split` by `sections` (or SectionsTensorList);
    the axis from AxisTensor when given."""
    axis = "AxisTensor" if ctx.has_input("AxisTensor") else "axis"
    if ctx.has_attr("num") and ctx.attr("num") > 0:
        return KernelSignature("split_with_num", ("X",), ("num", axis), ("Out",))
    sections = "SectionsTensorList" if ctx.input_size("SectionsTensorList") > 0 else "sections"
    return KernelSignature("split", ("X",), (sections, axis), ("Out",))


def _shape_source(ctx: ArgumentMappingContext) -> str:
    """Where a creation op's IntArray `shape` comes from: ShapeTensor, else ShapeTensorList when
    it holds tensors, else the attribute."""
    if ctx.has_input("ShapeTensor"):
        return "ShapeTensor"
    if ctx.input_size("ShapeTensorList") > 0:
        return "ShapeTensorList"
    return "shape"


@register_argument_mapping("uniform_random")
def uniform_random(ctx: ArgumentMappingContext) -> KernelSignature:
    """`uniform` from the shape (tensor, tensor list or attribute), `dtype`, `min`, `max` and
    `seed`; `uniform_raw` (PaddlePaddle's answer, a kernel phiops does not register) when
    `diag_num` asks for a diagonal to be set."""
    shape = _shape_source(ctx)
    if ctx.has_attr("diag_num") and ctx.attr("diag_num"):
        return KernelSignature(
            "uniform_raw",
            (),
            (shape, "dtype", "min", "max", "seed", "diag_num", "diag_step", "diag_val"),
            ("Out",),
        )
    return KernelSignature("uniform", (), (shape, "dtype", "min", "max", "seed"), ("Out",))


@register_argument_mapping("gaussian_random")
def gaussian_random(ctx: ArgumentMappingContext) -> KernelSignature:
    """`gaussian` from the shape (tensor, tensor list or attribute), `mean`, `std`, `seed` and
    `dtype`."""
    return KernelSignature(
        "gaussian", (), (_shape_source(ctx), "mean", "std", "seed", "dtype"), ("Out",)
    )
