"""The hand-written part of Tensor's PaddlePaddle interface: what no op spec says.

``T``/``mT``, ``clone``, ``cpu``/``cuda``/``to``, ``dim``, ``element_size``, the in-place fills
(``zero_``, ``fill_``, ``uniform_``, ``normal_``), PaddlePaddle's method aliases (``astype``,
``sub``, ``mul``, ``clamp``, ``mm``, ...) and ``set_printoptions`` with a repr that prints like
PaddlePaddle's, summarised for large tensors. ``install_tensor_basics(api, inplace, aliases)``
puts them on Tensor (the aliases are the registry's, from ops/op_traits.yaml);
runtime/eager/tensor.py's ``install_operators`` calls it.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable, Mapping

import numpy as np

from phiops.runtime.common import DataType, Place, to_data_type, to_place
from phiops.runtime.eager.tensor import Tensor, wrap_array
from phiops.runtime.errors import InvalidArgumentError

__all__ = ["install_tensor_basics", "set_printoptions", "METHOD_ALIASES"]

# PaddlePaddle's Tensor method aliases: alias -> the generated function it calls; the
# registry's (ops/op_traits.yaml method_aliases), as install_tensor_basics was given them.
METHOD_ALIASES: dict[str, str] = {}

# np.array2string settings; PaddlePaddle's defaults (paddle.set_printoptions)
_PRINT = {"precision": 8, "threshold": 1000, "edgeitems": 3, "linewidth": 80, "sci_mode": False}


def set_printoptions(
    precision: int | None = None,
    threshold: int | None = None,
    edgeitems: int | None = None,
    sci_mode: bool | None = None,
    linewidth: int | None = None,
) -> None:
    """How tensors print, as ``paddle.set_printoptions``: digits after the point, the element
    count above which a tensor is summarised (``...``), items kept at each edge then, scientific
    notation, characters per line. None keeps the current setting."""
    given = dict(
        precision=precision,
        threshold=threshold,
        edgeitems=edgeitems,
        sci_mode=sci_mode,
        linewidth=linewidth,
    )
    for key, value in given.items():
        if value is None:
            continue
        if key == "sci_mode":
            if not isinstance(value, bool):
                raise InvalidArgumentError(
                    f"set_printoptions: sci_mode must be a bool, got {value!r}"
                )
        elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InvalidArgumentError(
                f"set_printoptions: {key} must be an int >= 0, got {value!r}"
            )
        _PRINT[key] = value


def _repr(self: Tensor) -> str:
    array = self.numpy()
    options: dict[str, Any] = dict(
        separator=", ",
        prefix="       ",
        threshold=_PRINT["threshold"],
        edgeitems=_PRINT["edgeitems"],
        max_line_width=_PRINT["linewidth"],
    )
    if array.dtype.kind in "fc":
        options["precision"] = _PRINT["precision"]
        options["suppress_small"] = not _PRINT["sci_mode"]
        if _PRINT["sci_mode"]:
            options["floatmode"] = "maxprec"
            options["formatter"] = {
                "float_kind": lambda v: np.format_float_scientific(v, _PRINT["precision"])
            }
    body = np.array2string(array, **options)
    # a SelectedRows (an Embedding(sparse=True) weight's gradient) shows its rows, as
    # PaddlePaddle prints it
    rows = f" rows={self.rows()}," if self.is_selected_rows() else ""
    return (
        f"Tensor(shape={self.shape}, dtype={self.dtype.name.lower()}, place={self.place!r}, "
        f"stop_gradient={self.stop_gradient},{rows}\n       {body})"
    )


def _moved(self: Tensor, place: Place) -> Tensor:
    from phiops.runtime.device import check_place_available, to_backend

    check_place_available(place, "Tensor.to")
    if place == self.place:
        return self
    array = to_backend(self.array, place)
    from phiops.runtime.tensor.dense_tensor import DenseTensor

    moved = wrap_array(array, DenseTensor(array).meta)
    moved.stop_gradient = self.stop_gradient
    return moved


def _names_a_device(text: str) -> bool:
    """Whether ``to(text)`` means a device ('cpu', 'gpu:1', a custom device type 'jax:0') rather
    than a dtype."""
    from phiops.runtime.device import custom_device_types

    kind = text.split(":")[0].lower()
    return kind in ("cpu", "gpu", "cuda") or kind in custom_device_types()


def install_tensor_basics(
    api: ModuleType, inplace: ModuleType | None, aliases: Mapping[str, str] | None = None
) -> None:
    """Put the hand-written methods and PaddlePaddle's method ``aliases`` (alias -> the
    generated function it calls) on Tensor; ``api`` and ``inplace`` are the generated modules
    they call."""
    from phiops.runtime.eager.inplace import check_inplace, write_inplace

    def transposed(self: Tensor) -> Tensor:
        return api.transpose(self, list(range(self.ndim))[::-1])

    def matrix_transposed(self: Tensor) -> Tensor:
        if self.ndim < 2:
            raise InvalidArgumentError(
                f"Tensor.mT needs at least 2 dims, this tensor has shape {self.shape}"
            )
        perm = list(range(self.ndim))
        perm[-2], perm[-1] = perm[-1], perm[-2]
        return api.transpose(self, perm)

    def clone(self: Tensor) -> Tensor:
        """A copy of the data that stays in the graph (its gradient flows back to this tensor)."""
        return api.assign(self)

    def cpu(self: Tensor) -> Tensor:
        """This tensor on the CPU (itself when it is there)."""
        return _moved(self, to_place("cpu"))

    def cuda(self: Tensor, device_id: int | None = None, blocking: bool = True) -> Tensor:
        """This tensor on GPU ``device_id`` (0 when None)."""
        return _moved(self, to_place(f"gpu:{device_id or 0}"))

    def to(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        """``to(place)``, ``to(dtype)``, ``to(place, dtype)`` or ``to(other_tensor)``, as in
        PaddlePaddle (``device=``, ``dtype=`` and ``blocking=`` by keyword)."""
        place = kwargs.pop("device", None)
        dtype = kwargs.pop("dtype", None)
        kwargs.pop("blocking", None)
        if kwargs:
            raise InvalidArgumentError(f"Tensor.to: unexpected keyword arguments {sorted(kwargs)}")
        for arg in args:
            if isinstance(arg, Tensor):
                place, dtype = arg.place, arg.dtype
            elif isinstance(arg, Place) or (isinstance(arg, str) and _names_a_device(arg)):
                place = arg
            elif isinstance(arg, bool):
                continue  # blocking
            else:
                dtype = arg
        result = self
        if place is not None:
            result = _moved(result, to_place(place, "Tensor.to(place)"))
        if dtype is not None and to_data_type(dtype, "Tensor.to(dtype)") is not result.dtype:
            result = api.cast(result, dtype)
        return result

    def dim(var: Tensor) -> int:
        """The number of dims (PaddlePaddle names the tensor ``var``)."""
        return len(var.meta.dims)

    def item(self: Tensor, *args: Any) -> Any:
        """The element at ``args`` (one flat index, or one index per dim) as a Python number;
        without ``args`` the single element of a 1-element tensor."""
        if not args and self.meta.numel != 1:
            raise InvalidArgumentError(
                f"item() needs a tensor with exactly 1 element, this one has shape {self.shape}"
            )
        try:
            return self.numpy().item(*args)
        except (IndexError, TypeError, ValueError) as exc:
            raise InvalidArgumentError(
                f"item{args}: not an index of a tensor of shape {self.shape}: {exc}"
            ) from None

    def astype(self: Tensor, dtype: Any) -> Tensor:
        """This tensor cast to ``dtype``."""
        return api.cast(self, to_data_type(dtype, "Tensor.astype(dtype)"))

    def element_size(self: Tensor) -> int:
        """Bytes per element."""
        return self.meta.dtype.numpy_dtype.itemsize

    def _filled(self: Tensor, value: Any, method: str) -> Tensor:
        check_inplace(method, "x", self)
        return write_inplace(self, api.full_like(self, value))

    def fill_(x: Tensor, value: Any) -> Tensor:
        """Set every element to ``value``, in place."""
        return _filled(x, value, "fill_")

    def zero_(x: Tensor) -> Tensor:
        """Set every element to 0, in place."""
        return _filled(x, 0, "zero_")

    def uniform_(
        x: Tensor, min: float = 0, max: float = 1.0, seed: int = 0, name: Any = None
    ) -> Tensor:
        """Fill with numbers drawn uniformly from [min, max) (PaddlePaddle 3.3.1's default
        [0, 1)), in place."""
        check_inplace("uniform_", "x", x)
        drawn = api.uniform(x.shape, x.dtype, min, max, seed, x.place)
        return write_inplace(x, drawn)

    def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0) -> Tensor:
        """Fill with numbers drawn from N(mean, std**2), in place."""
        check_inplace("normal_", "x", self)
        drawn = api.gaussian(self.shape, float(mean), float(std), 0, self.dtype, self.place)
        return write_inplace(self, drawn)

    def negative(self: Tensor) -> Tensor:
        return api.scale(self, -1.0, 0.0, True)

    def permute(self: Tensor, *perm: Any) -> Tensor:
        if len(perm) == 1 and isinstance(perm[0], (list, tuple)):
            perm = tuple(perm[0])
        return api.transpose(self, list(perm))

    def ravel(self: Tensor) -> Tensor:
        return api.flatten(self, 0, -1) if self.ndim else api.reshape(self, [1])

    def view(self: Tensor, shape_or_dtype: Any, *rest: Any) -> Tensor:
        if isinstance(shape_or_dtype, int):
            return api.reshape(self, [shape_or_dtype, *rest])
        if isinstance(shape_or_dtype, (list, tuple)):
            return api.reshape(self, list(shape_or_dtype))
        raise InvalidArgumentError(
            f"Tensor.view: only a shape is supported (a dtype view is not), got {shape_or_dtype!r}"
        )

    def expand_as(self: Tensor, other: Tensor) -> Tensor:
        return api.expand(self, other.shape)

    # Methods whose PaddlePaddle Python signature differs from the PHI op's (defaults, extra
    # outputs): the method takes PaddlePaddle's arguments and calls the op.
    def flatten(self: Tensor, start_axis: int = 0, stop_axis: int = -1, name: Any = None) -> Tensor:
        return api.flatten(self, start_axis, stop_axis) if self.ndim else api.reshape(self, [1])

    def flatten_(
        self: Tensor, start_axis: int = 0, stop_axis: int = -1, name: Any = None
    ) -> Tensor:
        return inplace.flatten_(self, start_axis, stop_axis)

    def softmax(self: Tensor, axis: int = -1, dtype: Any = None, name: Any = None) -> Tensor:
        return api.softmax(self if dtype is None else api.cast(self, dtype), axis)

    def _axes(axis: Any) -> tuple[list[int], bool]:
        if axis is None:
            return [], True
        return ([axis] if isinstance(axis, int) else list(axis)), False

    def prod(
        self: Tensor, axis: Any = None, keepdim: bool = False, dtype: Any = None, name: Any = None
    ) -> Tensor:
        axes, reduce_all = _axes(axis)
        source = self if dtype is None else api.cast(self, dtype)
        return api.prod(source, axes, keepdim, reduce_all)

    def logsumexp(
        self: Tensor, axis: Any = None, keepdim: bool = False, name: Any = None
    ) -> Tensor:
        axes, reduce_all = _axes(axis)
        return api.logsumexp(self, axes or [0], keepdim, reduce_all)

    def argsort(
        self: Tensor,
        axis: int = -1,
        descending: bool = False,
        stable: bool = False,
        name: Any = None,
    ) -> Tensor:
        return api.argsort(self, axis, descending, stable)[1]

    def logit(self: Tensor, eps: float | None = None, name: Any = None) -> Tensor:
        return api.logit(self, 0.0 if eps is None else eps)

    def slice(self: Tensor, axes: Any, starts: Any, ends: Any) -> Tensor:
        return api.slice(self, list(axes), starts, ends, [1] * len(axes), [])

    def unique(
        self: Tensor,
        return_index: bool = False,
        return_inverse: bool = False,
        return_counts: bool = False,
        axis: int | None = None,
        dtype: Any = "int64",
        name: Any = None,
    ) -> Any:
        outs = api.unique(
            self, return_index, return_inverse, return_counts, [] if axis is None else [axis], dtype
        )
        wanted = [outs[0]] + [
            o for o, keep in zip(outs[1:], (return_index, return_inverse, return_counts)) if keep
        ]
        return wanted[0] if len(wanted) == 1 else tuple(wanted)

    def caster(dtype: DataType) -> Callable[[Tensor], Tensor]:
        def method(self: Tensor) -> Tensor:
            return api.cast(self, dtype)

        method.__doc__ = f"This tensor cast to {dtype.name.lower()}."
        return method

    methods: dict[str, Any] = {
        "T": property(transposed, doc="The tensor with its dims reversed."),
        "mT": property(matrix_transposed, doc="The tensor with its last two dims swapped."),
        "clone": clone,
        "cpu": cpu,
        "cuda": cuda,
        "to": to,
        "dim": dim,
        "ndimension": dim,
        "item": item,
        "astype": astype,
        "element_size": element_size,
        "fill_": fill_,
        "zero_": zero_,
        "uniform_": uniform_,
        "normal_": normal_,
        "neg": negative,
        "negative": negative,
        "permute": permute,
        "ravel": ravel,
        "view": view,
        "expand_as": expand_as,
        "float": caster(DataType.FLOAT32),
        "double": caster(DataType.FLOAT64),
        "half": caster(DataType.FLOAT16),
        "int": caster(DataType.INT32),
        "long": caster(DataType.INT64),
        "bool": caster(DataType.BOOL),
        "flatten": flatten,
        "flatten_": flatten_,
        "softmax": softmax,
        "prod": prod,
        "logsumexp": logsumexp,
        "argsort": argsort,
        "logit": logit,
        "slice": slice,
        "unique": unique,
        "__repr__": _repr,
        "__str__": _repr,
    }
    for name, method in methods.items():
        setattr(Tensor, name, method)
    METHOD_ALIASES.clear()
    METHOD_ALIASES.update(aliases or {})
    for alias, target in METHOD_ALIASES.items():
        function = getattr(inplace if target.endswith("_") else api, target, None)
        if function is not None and alias not in methods:
            setattr(Tensor, alias, function)
