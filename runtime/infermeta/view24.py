"""InferMeta functions of the view24 ops (issue 24): the strided views (as_strided, view_shape,
view_dtype, tensor_unfold, index_select_strided) and their gradients.

PaddlePaddle 3.3.1 gives the views ``StridedUnChangedInferMeta`` (the input's meta) and lets its
STRIDED kernels set the real dims; phiops's dispatcher takes the output's meta from InferMeta, so
the forward functions here compute the dims those kernels set, with the kernels' checks.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.infermeta.dims import UNKNOWN, is_known, numel, set_output as _set
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "strided_un_changed_infer_meta",
    "as_strided_infer_meta",
    "view_shape_infer_meta",
    "view_dtype_infer_meta",
    "tensor_unfold_infer_meta",
    "index_select_strided_infer_meta",
    "view_shape_dims",
    "einsum_raw_infer_meta",
    "EinsumPlan",
    "plan_einsum",
]

_RUNTIME = MetaConfig()


def strided_un_changed_infer_meta(
    input: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` has ``input``'s dims, dtype and layout (the views' gradients)."""
    out.share_meta(input)


def _item_size(dtype: DataType) -> int:
    return dtype.numpy_dtype.itemsize


def as_strided_infer_meta(
    input: MetaTensor,
    dims: tuple[int, ...],
    stride: tuple[int, ...],
    offset: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` has ``dims`` and ``input``'s dtype; every element it reads, ``offset`` bytes and
    ``stride`` elements from the start of ``input``, must lie inside ``input``."""
    if len(dims) != len(stride):
        raise InvalidArgumentError(
            f"arguments 'dims' and 'stride' must have the same length, got {len(dims)} dims "
            f"{list(dims)} and {len(stride)} strides {list(stride)}"
        )
    if any(d < 0 for d in dims):
        raise InvalidArgumentError(f"argument 'dims' must not be negative, got {list(dims)}")
    item = _item_size(input.dtype)
    if offset < 0 or offset % item:
        if offset < 0:
            raise InvalidArgumentError(f"argument 'offset' must not be negative, got {offset}")
        raise UnimplementedError(
            f"argument 'offset' counts bytes and must be a multiple of the element size "
            f"({item} for {input.dtype.name.lower()}) in phiops, got {offset} (PaddlePaddle reads "
            "misaligned elements there)"
        )
    size = numel(input.dims)
    if 0 not in dims and size != UNKNOWN:
        low = offset // item + sum((d - 1) * s for d, s in zip(dims, stride) if s < 0)
        high = offset // item + sum((d - 1) * s for d, s in zip(dims, stride) if s > 0)
        if low < 0 or high >= size:
            raise InvalidArgumentError(
                f"the view of dims {list(dims)}, stride {list(stride)} and offset {offset} "
                f"bytes reads elements {low} to {high} of an input of {size} elements"
            )
    _set(out, dims, input.dtype, input)


def view_shape_dims(input_dims: tuple[int, ...], dims: tuple[int, ...]) -> tuple[int, ...]:
    """``dims`` with its -1 (at most one) resolved against ``input_dims``' element count, as
    PaddlePaddle 3.3.1's ViewShapeKernel resolves it."""
    if sum(1 for d in dims if d == -1) > 1:
        raise InvalidArgumentError(f"argument 'dims' may hold one -1 only, got {list(dims)}")
    if any(d < -1 for d in dims):
        raise InvalidArgumentError(
            f"argument 'dims' must hold extents >= 0 and at most one -1, got {list(dims)}"
        )
    known = 1
    for d in dims:
        if d != -1:
            known *= d
    size = numel(input_dims)
    if -1 in dims:
        if known == 0:
            raise InvalidArgumentError(
                f"argument 'dims' {list(dims)} has a -1 beside a 0 extent: the -1 cannot be inferred"
            )
        if size == UNKNOWN:
            return tuple(UNKNOWN if d == -1 else d for d in dims)
        if size % known:
            raise InvalidArgumentError(
                f"argument 'dims' {list(dims)} does not divide the input's {size} elements"
            )
        return tuple(size // known if d == -1 else d for d in dims)
    if size != UNKNOWN and size != known:
        raise InvalidArgumentError(
            f"argument 'dims' {list(dims)} holds {known} elements, the input "
            f"{list(input_dims)} holds {size}"
        )
    return tuple(dims)


def view_shape_infer_meta(
    input: MetaTensor, dims: tuple[int, ...], out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` has ``dims`` (one -1 inferred from the element count) and ``input``'s dtype."""
    _set(out, view_shape_dims(tuple(input.dims), dims), input.dtype, input)


def view_dtype_infer_meta(
    input: MetaTensor, dtype: DataType, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` has ``dtype``; its last extent is ``input``'s scaled by the ratio of the element
    sizes, which must divide it when the new element is the larger."""
    before, after = _item_size(input.dtype), _item_size(dtype)
    dims = list(input.dims)
    if before != after:
        if not dims:
            raise InvalidArgumentError(
                f"a 0-D input of {input.dtype.name.lower()} cannot be viewed as "
                f"{dtype.name.lower()}: the element sizes differ ({before} and {after} bytes)"
            )
        last = dims[-1]
        if before > after:
            dims[-1] = UNKNOWN if last == UNKNOWN else last * (before // after)
        else:
            times = after // before
            if is_known(last) and last % times:
                raise InvalidArgumentError(
                    f"input.shape[{len(dims) - 1}] ({last}) must be a multiple of {times} to view "
                    f"{input.dtype.name.lower()} as {dtype.name.lower()}"
                )
            dims[-1] = UNKNOWN if last == UNKNOWN else last // times
    _set(out, tuple(dims), dtype, input)


def tensor_unfold_infer_meta(
    input: MetaTensor,
    axis: int,
    size: int,
    step: int,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` has ``input``'s dims with ``axis`` replaced by the number of windows,
    (n - size) // step + 1, and a last extent ``size`` (a 0-D input counts as one element)."""
    rank = len(input.dims)
    bound = max(rank, 1)
    if not -bound <= axis < bound:
        raise InvalidArgumentError(
            f"argument 'axis' must be in [{-bound}, {bound}) for a {rank}-D input, got {axis}"
        )
    if step <= 0:
        raise InvalidArgumentError(f"argument 'step' must be greater than 0, got {step}")
    if size < 0:
        raise InvalidArgumentError(f"argument 'size' must not be negative, got {size}")
    if rank == 0:
        if size > 1:
            raise InvalidArgumentError(
                f"argument 'size' ({size}) must be at most 1 for a 0-D input"
            )
        _set(out, (size,), input.dtype, input)
        return
    axis %= rank
    dims = list(input.dims)
    length = dims[axis]
    if is_known(length) and size > length:
        raise InvalidArgumentError(
            f"argument 'size' ({size}) must be at most the extent of axis {axis} ({length})"
        )
    dims[axis] = UNKNOWN if length == UNKNOWN else (length - size) // step + 1
    _set(out, (*dims, size), input.dtype, input)


def index_select_strided_infer_meta(
    x: MetaTensor, index: int, axis: int, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``out`` has ``x``'s dims without ``axis``; ``index`` must be in [0, x.dims[axis])."""
    rank = len(x.dims)
    if not -rank <= axis < rank:
        raise InvalidArgumentError(
            f"argument 'axis' must be in [{-rank}, {rank}) for a {rank}-D x, got {axis}"
        )
    axis %= rank
    extent = x.dims[axis]
    if index < 0 or (is_known(extent) and index >= extent):
        raise InvalidArgumentError(
            f"argument 'index' must be in [0, {extent}) (the extent of axis {axis}), got {index}"
        )
    dims = tuple(d for i, d in enumerate(x.dims) if i != axis)
    _set(out, dims, x.dtype, x)


_LABELS = string.ascii_letters


@dataclass(frozen=True)
class EinsumPlan:
    """An einsum equation resolved against its operands' dims: each operand's labels (its
    ellipsis spelled out as unused letters, right-aligned across operands), the output's labels,
    and each label's extent (the largest an operand gives it; the others give it or 1)."""

    terms: tuple[str, ...]
    output: str
    sizes: dict[str, int]

    @property
    def equation(self) -> str:
        return ",".join(self.terms) + "->" + self.output

    def out_dims(self) -> tuple[int, ...]:
        return tuple(self.sizes[label] for label in self.output)


def _split_terms(equation: str, count: int) -> tuple[list[str], str | None]:
    text = equation.replace(" ", "")
    if text.count("->") > 1:
        raise InvalidArgumentError(f"argument 'equation' {equation!r} holds more than one '->'")
    left, arrow, right = text.partition("->")
    terms = left.split(",")
    if len(terms) != count:
        raise InvalidArgumentError(
            f"argument 'equation' {equation!r} has {len(terms)} operand terms, argument 'x' "
            f"holds {count} tensors"
        )
    for term in terms + ([right] if arrow else []):
        rest = term.replace("...", "", 1)
        bad = [c for c in rest if c not in _LABELS]
        if bad:
            raise InvalidArgumentError(
                f"argument 'equation' {equation!r}: labels must be letters a-z, A-Z with at most "
                f"one '...' per term, got {bad[0]!r} in {term!r}"
            )
    return terms, (right if arrow else None)


def plan_einsum(equation: str, shapes: list[tuple[int, ...]]) -> EinsumPlan:
    """Resolve ``equation`` (PaddlePaddle's einsum grammar: letters, one ``...`` per term that
    broadcasts right-aligned, an implicit output of the ellipsis and the labels seen once in
    sorted order) against ``shapes``; an unknown extent (-1) stays unknown."""
    if not shapes:
        raise InvalidArgumentError("argument 'x' must hold at least one tensor")
    terms, right = _split_terms(equation, len(shapes))
    used = set("".join(terms) + (right or ""))
    spare = [c for c in _LABELS if c not in used]
    ellipsis_rank = 0
    for i, (term, dims) in enumerate(zip(terms, shapes)):
        named = len(term.replace("...", ""))
        if "..." in term:
            if named > len(dims):
                raise InvalidArgumentError(
                    f"argument 'equation': term {term!r} names {named} dims, x[{i}] has "
                    f"{len(dims)}"
                )
            ellipsis_rank = max(ellipsis_rank, len(dims) - named)
        elif named != len(dims):
            raise InvalidArgumentError(
                f"argument 'equation': term {term!r} names {named} dims, x[{i}] has {len(dims)}"
            )
    if ellipsis_rank > len(spare):
        raise InvalidArgumentError(
            f"argument 'equation' {equation!r} leaves too few unused letters for its ellipsis"
        )
    broadcast = "".join(spare[:ellipsis_rank])
    expanded = []
    for term, dims in zip(terms, shapes):
        if "..." in term:
            own = len(dims) - len(term.replace("...", ""))
            term = term.replace("...", broadcast[ellipsis_rank - own :])
        expanded.append(term)
    if right is None:
        counts: dict[str, int] = {}
        for term in terms:
            for label in term.replace("...", ""):
                counts[label] = counts.get(label, 0) + 1
        output = broadcast + "".join(sorted(c for c, n in counts.items() if n == 1))
    else:
        if "..." not in right and any("..." in term for term in terms) and ellipsis_rank:
            raise InvalidArgumentError(
                f"argument 'equation' {equation!r}: the output must hold the '...' the "
                "operands hold"
            )
        output = right.replace("...", broadcast)
    sizes: dict[str, int] = {}
    for i, (term, dims) in enumerate(zip(expanded, shapes)):
        for label, extent in zip(term, dims):
            seen = sizes.get(label)
            if seen is None or seen == 1 or seen == UNKNOWN and extent != 1:
                sizes[label] = extent
            elif extent not in (1, seen, UNKNOWN) and seen != UNKNOWN:
                raise InvalidArgumentError(
                    f"argument 'equation' {equation!r}: label {label!r} has extent {seen} and "
                    f"extent {extent} (x[{i}]), which do not broadcast"
                )
    for label in output:
        if label not in sizes:
            raise InvalidArgumentError(
                f"argument 'equation' {equation!r}: output label {label!r} is in no operand"
            )
        if output.count(label) > 1:
            raise InvalidArgumentError(
                f"argument 'equation' {equation!r}: output label {label!r} appears twice"
            )
    return EinsumPlan(tuple(expanded), output, sizes)


def einsum_raw_infer_meta(
    x: list[MetaTensor],
    equation: str,
    out: MetaTensor,
    inner_cache: list[MetaTensor],
    xshape: list[MetaTensor],
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` has the output labels' extents and x[0]'s dtype (every operand must share it);
    ``inner_cache`` and ``xshape`` are like ``x``."""
    plan = plan_einsum(equation, [tuple(t.dims) for t in x])
    for i, tensor in enumerate(x[1:], start=1):
        if tensor.dtype != x[0].dtype:
            raise InvalidArgumentError(
                f"argument 'x' must hold tensors of one dtype: x[{i}] is "
                f"{tensor.dtype.name.lower()}, x[0] {x[0].dtype.name.lower()}"
            )
    _set(out, plan.out_dims(), x[0].dtype, x[0])
    for outputs in (inner_cache, xshape):
        for target, source in zip(outputs, x):
            if target is not None:
                target.share_meta(source)
