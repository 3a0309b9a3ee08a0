"""`phi.save` / `phi.load`: PaddlePaddle 3.3.1's pickle files (`.pdparams`, `.pdopt`, ...).

PaddlePaddle writes two layouts, both plain pickles of numpy arrays (protocol 4 unless asked):
- a *state dict* (a dict whose values are tensors, or dicts holding no tensor) becomes a dict of
  arrays plus ``"StructuredToParameterName@@"``: {key: tensor name};
- anything else (a tensor, nested dicts/lists/tuples) has each tensor pickled as the tuple
  ``(name, array)``.
`load` undoes either, and PaddlePaddle's own `paddle.load` reads what `save` writes. A single
tensor saved with ``use_binary_format=True`` is a tensor stream (tensor_stream.py), not a pickle.

Loading never runs code from the file: the unpickler resolves only the few globals those files
contain (numpy's array and scalar reconstructors and dtype, tuple/set/frozenset, OrderedDict,
``_codecs.encode`` for protocol 2 bytes) and refuses object arrays.
"""

from __future__ import annotations

import _compat_pickle
import codecs
import collections
import copyreg
import io
import math
import os
import pickle
from typing import Any, Callable, Union

import numpy as np

from phiops.runtime.core import Tensor, to_tensor
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.serialization.tensor_stream import (
    TensorStreamError,
    read_tensor,
    tensor_to_bytes,
)

__all__ = ["save", "load", "NAME_TABLE_KEY", "UNPACK_INFO_KEY"]

PathLike = Union[str, "os.PathLike[str]"]
NAME_TABLE_KEY = "StructuredToParameterName@@"
UNPACK_INFO_KEY = "UnpackBigParamInfor@@"  # PaddlePaddle's spelling
# protocols 2 and 3 cannot pickle an object over 4 GB: PaddlePaddle slices arrays over 1 GB
_SLICE_BYTES = 2**30 - 1
_PICKLE_START = b"\x80"  # the PROTO opcode that opens every pickle of protocol 2 and above


class _SaveNames:
    """Names for tensors that have none, numbered within one file as PaddlePaddle numbers them."""

    def __init__(self) -> None:
        self.count = 0

    def name_of(self, tensor: Tensor) -> str:
        if tensor.name:
            return tensor.name
        name = f"generated_tensor_{self.count}"
        self.count += 1
        return name


def _array_of(tensor: Tensor) -> np.ndarray:
    return np.array(tensor.numpy(), copy=True)


def _contains_tensor(obj: Any) -> bool:
    if isinstance(obj, Tensor):
        return True
    if isinstance(obj, dict):
        return any(_contains_tensor(v) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return any(_contains_tensor(v) for v in obj)
    return False


def _is_state_dict(obj: Any) -> bool:
    """PaddlePaddle's rule (paddle/framework/io.py `_is_state_dict`)."""
    if not isinstance(obj, dict):
        return False
    for value in obj.values():
        if isinstance(value, dict):
            if any(_contains_tensor(v) for v in value.values()):
                return False
        elif not isinstance(value, Tensor):
            return False
    return True


def _slice_big_arrays(saved: dict, protocol: int) -> dict:
    if protocol >= 4:
        return saved
    info: dict[str, dict] = {}
    for key, value in list(saved.items()):
        if not isinstance(value, np.ndarray):
            continue
        per_slice = _SLICE_BYTES // value.dtype.itemsize
        if value.size <= per_slice:
            continue
        flat = value.reshape(-1)
        parts = [f"{key}@@.{i}" for i in range(math.ceil(value.size / per_slice))]
        info[key] = {"OriginShape": value.shape, "slices": parts}
        del saved[key]
        for i, part in enumerate(parts):
            saved[part] = flat[i * per_slice : (i + 1) * per_slice]
    if info:
        saved[UNPACK_INFO_KEY] = info
    return saved


def save(
    obj: Any, path: PathLike | io.IOBase, protocol: int = 4, use_binary_format: bool = False
) -> None:
    """Save tensors (alone or in dicts, lists, tuples, with plain Python values) as PaddlePaddle's
    `paddle.save` does; ``path`` is a file name or a binary file object. With
    ``use_binary_format=True``, one Tensor is written as a tensor stream instead of a pickle."""
    if not isinstance(protocol, int) or isinstance(protocol, bool) or not 2 <= protocol <= 4:
        raise InvalidArgumentError(f"save: protocol must be 2, 3 or 4, got {protocol!r}")
    if use_binary_format:
        if not isinstance(obj, Tensor):
            raise InvalidArgumentError(
                f"save: use_binary_format=True saves a single Tensor, got {type(obj).__name__}"
            )
        _write(path, lambda f: f.write(tensor_to_bytes(_array_of(obj))))
        return
    names = _SaveNames()
    if _is_state_dict(obj):
        saved: dict[str, Any] = {}
        table: dict[str, str] = {}
        for key, value in obj.items():
            if isinstance(value, Tensor):
                saved[key] = _array_of(value)
                table[key] = names.name_of(value)
            else:
                saved[key] = value
        saved[NAME_TABLE_KEY] = table
        _dump(_slice_big_arrays(saved, protocol), path, protocol, None)
    else:
        _dump(obj, path, protocol, lambda t: (tuple, ((names.name_of(t), _array_of(t)),)))


def _write(path: PathLike | io.IOBase, write: Callable[[Any], Any]) -> None:
    if isinstance(path, io.IOBase):
        write(path)
        return
    directory = os.path.dirname(os.fspath(path))
    if directory:
        os.makedirs(directory, exist_ok=True)
    with open(path, "wb") as f:
        write(f)


def _dump(obj: Any, path: PathLike | io.IOBase, protocol: int, reduce_tensor: Callable | None):
    def write(f) -> None:
        pickler = pickle.Pickler(f, protocol)
        if reduce_tensor is not None:
            pickler.dispatch_table = {**copyreg.dispatch_table, Tensor: reduce_tensor}
        try:
            pickler.dump(obj)
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            raise InvalidArgumentError(f"save: cannot save {type(obj).__name__}: {error}") from None

    _write(path, write)


# -- loading -----------------------------------------------------------------------------------
def _checked_dtype(*args: Any) -> np.dtype:
    dtype = np.dtype(*args)
    if dtype.hasobject:
        raise pickle.UnpicklingError("arrays of Python objects are not loaded")
    return dtype


# numpy's own reconstructors, whatever module the installed numpy keeps them in; every dtype
# they get comes through `_checked_dtype`, and `_reconstruct` accepts only ndarray subtypes
_NUMPY_RECONSTRUCT = np.zeros(0).__reduce__()[0]
_NUMPY_SCALAR = np.float32(0).__reduce__()[0]


_ALLOWED: dict[tuple[str, str], Any] = {
    ("builtins", "tuple"): tuple,
    ("builtins", "set"): set,
    ("builtins", "frozenset"): frozenset,
    ("collections", "OrderedDict"): collections.OrderedDict,
    ("_codecs", "encode"): codecs.encode,
    ("numpy", "ndarray"): np.ndarray,
    ("numpy", "dtype"): _checked_dtype,
}
for _module in ("numpy.core.multiarray", "numpy._core.multiarray"):
    _ALLOWED[(_module, "_reconstruct")] = _NUMPY_RECONSTRUCT
    _ALLOWED[(_module, "scalar")] = _NUMPY_SCALAR


class _RestrictedUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        # protocol 2 files spell builtins the Python 2 way (`__builtin__.tuple`)
        module, name = _compat_pickle.NAME_MAPPING.get((module, name), (module, name))
        module = _compat_pickle.IMPORT_MAPPING.get(module, module)
        found = _ALLOWED.get((module, name))
        if found is None:
            raise pickle.UnpicklingError(
                f"refusing to load the global '{module}.{name}': phiops loads only what "
                "PaddlePaddle's pickle files hold (numpy arrays and scalars, Python containers)"
            )
        return found


def _unpickle(f: Any, source: str) -> Any:
    try:
        return _RestrictedUnpickler(f, encoding="latin1").load()
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError) as error:
        raise InvalidArgumentError(
            f"load: {source} is not a PaddlePaddle pickle file phiops can read: "
            f"{type(error).__name__}: {error}"
        ) from None


def _read_binary_tensor(data: bytes, source: str) -> np.ndarray:
    """A file `paddle.save(tensor, path, use_binary_format=True)` wrote: one tensor stream."""
    try:
        array, end = read_tensor(data, 0, source)
        if end != len(data):
            raise TensorStreamError(source, end, f"{len(data) - end} byte(s) after the tensor")
    except TensorStreamError as error:
        raise InvalidArgumentError(
            "load: the file is neither a PaddlePaddle pickle (those start with byte 0x80) nor a "
            f"binary tensor file: {error}"
        ) from None
    return array


def _read(path: PathLike | io.IOBase, return_numpy: bool) -> tuple[Any, bool]:
    """The unpickled object, or for a binary tensor file the tensor itself, and which it was."""
    if isinstance(path, io.IOBase):
        source, f, close = "<file object>", path, False
    else:
        source, f, close = os.fspath(path), open(path, "rb"), True
    try:
        start = f.tell()
        is_pickle = f.read(1) == _PICKLE_START
        f.seek(start)
        if is_pickle:
            return _unpickle(f, source), True
        return _to_tensor(_read_binary_tensor(f.read(), source), None, return_numpy), False
    finally:
        if close:
            f.close()


def _to_tensor(array: np.ndarray, name: str | None, return_numpy: bool) -> Any:
    if return_numpy:
        return array
    try:
        tensor = to_tensor(array)
    except InvalidArgumentError as error:
        raise InvalidArgumentError(
            f"load: an array of the file cannot be a tensor ({error}); load with "
            "return_numpy=True for arrays"
        ) from None
    tensor.name = name
    return tensor


def _is_named_array(obj: Any) -> bool:
    return (
        type(obj) is tuple
        and len(obj) == 2
        and isinstance(obj[0], str)
        and isinstance(obj[1], np.ndarray)
    )


def _contains(obj: Any, test: Callable[[Any], bool]) -> bool:
    if test(obj):
        return True
    if isinstance(obj, dict):
        return any(_contains(v, test) for v in obj.values())
    if isinstance(obj, (list, tuple, set, frozenset)):
        return any(_contains(v, test) for v in obj)
    return False


def _convert(obj: Any, test: Callable[[Any], bool], convert: Callable[[Any], Any]) -> Any:
    if test(obj):
        return convert(obj)
    if isinstance(obj, dict):
        for key in list(obj):
            obj[key] = _convert(obj[key], test, convert)
        return obj
    if isinstance(obj, list):
        return [_convert(v, test, convert) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_convert(v, test, convert) for v in obj)
    return obj


def _join_sliced_arrays(obj: dict) -> dict:
    info = obj.pop(UNPACK_INFO_KEY, None)
    if info:
        for key, value in info.items():
            parts = [obj.pop(part) for part in value["slices"]]
            obj[key] = np.concatenate(parts).reshape(value["OriginShape"])
    return obj


def load(
    path: PathLike | io.IOBase, return_numpy: bool = False, keep_name_table: bool = False
) -> Any:
    """Load what `paddle.save` (or `save`) wrote: tensors come back as Tensors with their saved
    names (numpy arrays with ``return_numpy=True``) in the saved containers."""
    obj, pickled = _read(path, return_numpy)
    if not pickled:
        return obj
    if isinstance(obj, dict):
        obj = _join_sliced_arrays(obj)
        table = obj.get(NAME_TABLE_KEY)
        if isinstance(table, dict):
            for key, name in table.items():
                if isinstance(obj.get(key), np.ndarray):
                    obj[key] = _to_tensor(obj[key], name, return_numpy)
            if not keep_name_table:
                del obj[NAME_TABLE_KEY]
            return obj
    if _contains(obj, _is_named_array):
        return _convert(obj, _is_named_array, lambda t: _to_tensor(t[1], t[0], return_numpy))
    return _convert(
        obj, lambda v: isinstance(v, np.ndarray), lambda a: _to_tensor(a, None, return_numpy)
    )
