"""``paddle.autograd.jacobian`` and ``hessian``: lazily evaluated Jacobian and Hessian matrices.

As PaddlePaddle 3.3.1's: ``jacobian(ys, xs, batch_axis=None)`` gives a ``Jacobian`` of the
flattened ``ys`` with respect to the flattened ``xs`` (tuples of either give nested tuples of
them). Without a batch axis, ``xs`` and ``ys`` are 0-D or 1-D and the matrix is ``[N, M]``
(``[M]``, ``[N]`` or ``[]`` where one or both are 0-D); with ``batch_axis=0`` they are 1-D or 2-D,
the first axis the batch, and the matrix is ``[B, N, M]``. Nothing is computed until the object
is indexed (``J[:]``, ``J[i]``, ``J[:, 1:3]``, ...; no Ellipsis): each row (one output element,
per batch) is one reverse pass (``grad`` with ``create_graph=True``), cached once computed.
Arithmetic, comparisons and any Tensor attribute (``J.numpy()``) act on the whole matrix.
``hessian(ys, xs, batch_axis=None)`` is the Jacobian of the Jacobian of a one-element ``ys``
(one element per batch with ``batch_axis=0``).
"""

from __future__ import annotations

from typing import Any, Sequence

from phiops.runtime.autograd.engine import grad
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.dispatch.tensor_type import TENSOR_TYPE
from phiops.runtime.errors import InvalidArgumentError, OutOfRangeError

__all__ = ["Jacobian", "Hessian", "jacobian", "hessian"]


def _is_tensor(value: Any) -> bool:
    return isinstance(value, TENSOR_TYPE.cls)


def _shape(value: Any) -> list[int]:
    return list(value.shape)


def _flatten(value: Any, batched: bool) -> Any:
    """One tensor (or a tuple of them, concatenated) as [elements] or [batch, elements]."""
    if isinstance(value, tuple):
        axis = 1 if batched else 0
        return op_api("concat")([_flatten(item, batched) for item in value], axis)
    if batched:
        return value.reshape([value.shape[0], -1])
    return value.reshape([-1])


def _zeros_for_unused(grads: list[Any], xs: Any) -> list[Any]:
    references = list(xs) if isinstance(xs, tuple) else [xs]
    return [
        op_api("zeros_like")(reference) if value is None else value
        for value, reference in zip(grads, references)
    ]


class Jacobian:
    """The Jacobian of ``ys`` with respect to ``xs`` (module docstring), evaluated by row."""

    def __init__(self, ys: Any, xs: Any, is_batched: bool = False) -> None:
        if not is_batched:
            for name, value in (("xs", xs), ("ys", ys)):
                if not 0 <= len(value.shape) <= 1:
                    raise InvalidArgumentError(
                        f"jacobian: {name}.ndim should be 0 or 1 when batch_axis is None, but "
                        f"got {len(value.shape)}"
                    )
        else:
            for name, value in (("ys", ys), ("xs", xs)):
                if not 1 <= len(value.shape) <= 2:
                    raise InvalidArgumentError(
                        f"jacobian: {name}.ndim should be 1 or 2 when batch_axis is 0, but got "
                        f"{len(value.shape)}"
                    )
        self.is_batched = is_batched
        self._xs = xs
        self._ys_shape = _shape(ys)
        xs_shape = _shape(xs)
        if not is_batched:
            flat_ys = ys.reshape([-1])
            self._inner = [flat_ys.shape[0], _flatten(xs, False).shape[0]]
            self._shape = self._ys_shape[:1] + xs_shape[:1]
            self._lazy_axis = 0
        else:
            flat_ys = ys.reshape([-1, 1]) if len(self._ys_shape) == 1 else ys
            flat_xs = _flatten(xs, True)
            self._inner = [flat_xs.shape[0], flat_ys.shape[1], flat_xs.shape[1]]
            self._shape = flat_xs.shape[:1] + self._ys_shape[1:2] + xs_shape[1:2]
            self._lazy_axis = 1
        self._flat_ys = flat_ys
        self._cache: dict[int, Any] = {}

    @property
    def shape(self) -> list[int]:
        """The matrix's shape (``[N, M]``, ``[B, N, M]``, less the 0-D operands' axes)."""
        return list(self._shape)

    def _row(self, row: int) -> Any:
        cached = self._cache.get(row)
        if cached is None:
            ys = self._flat_ys[:, row] if self.is_batched else self._flat_ys[row]
            targets = list(self._xs) if isinstance(self._xs, tuple) else [self._xs]
            grads = grad(ys, targets, create_graph=True, allow_unused=True)
            grads = _zeros_for_unused(list(grads), self._xs)
            value = tuple(grads) if isinstance(self._xs, tuple) else grads[0]
            cached = self._cache[row] = _flatten(value, self.is_batched)
        return cached

    def _inner_index(self, index: Any) -> tuple[Any, ...]:
        """``index`` into the visible shape as a full index into the inner matrix."""
        if not self.is_batched:
            if len(self._shape) == 0:
                raise OutOfRangeError("jacobian: a 0-D Jacobian cannot be indexed")
            if len(self._shape) == 1:
                index = (0, index) if len(self._ys_shape) == 0 else (index, 0)
        elif len(self._shape) == 1:
            index = (index, 0, 0)
        elif len(self._shape) == 2:
            if isinstance(index, slice):
                index = (index, slice(None))
            elif isinstance(index, tuple) and len(index) == 2:
                index = (
                    (index[0], 0, index[1]) if len(self._ys_shape) == 1 else (index[0], index[1], 0)
                )
        index = index if isinstance(index, tuple) else (index,)
        if any(part is Ellipsis for part in index):
            raise OutOfRangeError("jacobian: Ellipsis indexes are not supported")
        if len(index) > len(self._inner):
            raise OutOfRangeError(
                f"jacobian: {len(index)} indexes for a matrix of shape {self.shape}"
            )
        index = index + (slice(None),) * (len(self._inner) - len(index))
        normal = []
        for part, extent in zip(index, self._inner):
            if isinstance(part, slice):
                normal.append(slice(*part.indices(extent)))
            elif isinstance(part, int) and not isinstance(part, bool):
                if not -extent <= part < extent:
                    raise OutOfRangeError(
                        f"jacobian: index {part} is out of range for an axis of {extent}"
                    )
                normal.append(part % extent)
            else:
                raise InvalidArgumentError(
                    f"jacobian: indexes are ints and slices, got {type(part).__name__}"
                )
        return tuple(normal)

    def __getitem__(self, index: Any) -> Any:
        inner = self._inner_index(index)
        lazy = inner[self._lazy_axis]
        rows = [lazy] if isinstance(lazy, int) else list(range(lazy.start, lazy.stop, lazy.step))
        if not rows:
            raise OutOfRangeError(f"jacobian: the index {index!r} selects no row")
        part = op_api("stack")([self._row(row) for row in rows], self._lazy_axis)
        rest = list(inner)
        rest[self._lazy_axis] = 0 if isinstance(lazy, int) else slice(None)
        result = part[tuple(rest)]
        # as PaddlePaddle 3.3.1: as many squeezes of the last axis as the result has axes too
        # many (one of extent > 1 stays: J[:] of a batched 1-D ys is [B, 1, M] there too)
        for _ in range(len(result.shape) - len(self._shape)):
            result = result.squeeze(-1)
        return result

    def _evaluate_all(self) -> Any:
        if len(self._shape) == 0:
            return self._row(0).reshape([])
        return self[:]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._evaluate_all(), name)

    def _binary(self, other: Any, operator: str) -> Any:
        right = other._evaluate_all() if isinstance(other, Jacobian) else other
        return getattr(self._evaluate_all(), operator)(right)

    def __add__(self, other: Any) -> Any:
        return self._binary(other, "__add__")

    def __sub__(self, other: Any) -> Any:
        return self._binary(other, "__sub__")

    def __mul__(self, other: Any) -> Any:
        return self._binary(other, "__mul__")

    def __truediv__(self, other: Any) -> Any:
        return self._binary(other, "__truediv__")

    def __pow__(self, other: Any) -> Any:
        return self._binary(other, "__pow__")

    def __mod__(self, other: Any) -> Any:
        return self._binary(other, "__mod__")

    def __floordiv__(self, other: Any) -> Any:
        return self._binary(other, "__floordiv__")

    def __matmul__(self, other: Any) -> Any:
        return self._binary(other, "__matmul__")

    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        return self._binary(other, "__eq__")

    def __ne__(self, other: Any) -> Any:  # type: ignore[override]
        return self._binary(other, "__ne__")

    def __lt__(self, other: Any) -> Any:
        return self._binary(other, "__lt__")

    def __le__(self, other: Any) -> Any:
        return self._binary(other, "__le__")

    def __gt__(self, other: Any) -> Any:
        return self._binary(other, "__gt__")

    def __ge__(self, other: Any) -> Any:
        return self._binary(other, "__ge__")

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(shape={self.shape}, batched={self.is_batched})"


class Hessian(Jacobian):
    """The Jacobian of a Jacobian (``hessian``)."""


def _check_batch_axis(batch_axis: Any, where: str) -> bool:
    if batch_axis is not None and (isinstance(batch_axis, bool) or batch_axis != 0):
        raise InvalidArgumentError(f"{where}: batch_axis should be None or 0, got {batch_axis!r}")
    return batch_axis is not None


def _operands(value: Any, name: str, where: str) -> Any:
    """A Tensor, or a tuple of Tensors for a list or tuple of them."""
    if _is_tensor(value):
        return value
    if isinstance(value, Sequence) and not isinstance(value, str):
        items = tuple(value)
        if not items:
            raise InvalidArgumentError(f"{where}: {name} is empty")
        for position, item in enumerate(items):
            if not _is_tensor(item):
                raise InvalidArgumentError(
                    f"{where}: {name}[{position}] must be a Tensor, got {type(item).__name__}"
                )
        return items
    raise InvalidArgumentError(
        f"{where}: {name} must be a Tensor or a tuple of Tensors, got {type(value).__name__}"
    )


def jacobian(ys: Any, xs: Any, batch_axis: int | None = None) -> Any:
    """The Jacobian of ``ys`` with respect to ``xs`` (module docstring): one ``Jacobian``, a
    tuple of them where one of the two is a tuple, a tuple of tuples (by ys, then xs) where
    both are."""
    batched = _check_batch_axis(batch_axis, "jacobian")
    ys = ys if isinstance(ys, Jacobian) else _operands(ys, "ys", "jacobian")
    xs = _operands(xs, "xs", "jacobian")
    if isinstance(ys, tuple) and isinstance(xs, tuple):
        return tuple(tuple(Jacobian(y, x, batched) for x in xs) for y in ys)
    if isinstance(ys, tuple):
        return tuple(Jacobian(y, xs, batched) for y in ys)
    if isinstance(xs, tuple):
        return tuple(Jacobian(ys, x, batched) for x in xs)
    return Jacobian(ys, xs, batched)


def hessian(ys: Any, xs: Any, batch_axis: int | None = None) -> Any:
    """The Hessian of a one-element ``ys`` (one per batch with ``batch_axis=0``) with respect
    to ``xs``: a ``Hessian``, or a tuple of tuples of them for a tuple ``xs``."""
    batched = _check_batch_axis(batch_axis, "hessian")
    if not _is_tensor(ys):
        raise InvalidArgumentError(f"hessian: ys must be a Tensor, got {type(ys).__name__}")
    if not batched:
        if ys.size != 1:
            raise InvalidArgumentError(
                f"hessian: ys must hold one element when batch_axis is None, got {ys.size}"
            )
        ys = ys.reshape([])
    else:
        if len(ys.shape) == 0 or ys[0].size != 1:
            raise InvalidArgumentError(
                "hessian: ys must hold one element per batch when batch_axis is 0, got shape "
                f"{list(ys.shape)}"
            )
        ys = ys.reshape([-1])
    first = jacobian(ys, xs, batch_axis)

    def flat(part: Jacobian) -> Any:
        whole = part._evaluate_all()
        return whole.reshape([whole.shape[0], -1]) if batched else whole.reshape([-1])

    if not isinstance(first, tuple):
        second = jacobian(flat(first), xs, batch_axis)
        second.__class__ = Hessian
        return second
    result = tuple(jacobian(flat(part), xs, batch_axis) for part in first)
    for row in result:
        for item in row:
            item.__class__ = Hessian
    return result
