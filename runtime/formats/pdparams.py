"""`phi.save` / `phi.load`: PaddlePaddle 3.3.1's pickle files (`.pdparams`, `.pdopt`, ...).

PaddlePaddle writes two layouts, both plain pickles of numpy arrays (protocol 4 unless asked):
- a *state dict* (a dict whose values are tensors, or dicts holding no tensor) becomes a dict of
  arrays plus ``"StructuredToParameterName@@"``: {key: tensor name};
- anything else (a tensor, nested dicts/lists/tuples) has each tensor pickled as the tuple
  ``(name, array)``.
`load` undoes either, and PaddlePaddle's own `paddle.load` reads what `save` writes. A single
tensor saved with ``use_binary_format=True`` is a tensor stream (pdiparams.py), not a pickle.

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
import pickletools
from typing import Any, Callable, Union

import numpy as np

from phiops.runtime.eager import Tensor, to_tensor
from phiops.runtime.errors import InvalidArgumentError, PhiError, UnimplementedError
from phiops.runtime.file_limits import (
    MAX_PICKLE_DEPTH,
    MAX_PICKLE_FILE_BYTES,
    MAX_PICKLE_NODES,
    MAX_TENSOR_DIMS,
    read_file_bytes,
)
from phiops.runtime.formats.pdiparams import (
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


def _configs(api: str, configs: dict[str, Any], known: dict[str, Any]) -> dict[str, Any]:
    """``configs`` (PaddlePaddle's ``**configs``) over ``known``'s defaults; an unknown key is an
    InvalidArgumentError naming it."""
    unknown = sorted(set(configs) - set(known))
    if unknown:
        raise InvalidArgumentError(
            f"{api}: unknown config {unknown[0]!r}; it takes {', '.join(sorted(known))}"
        )
    return {**known, **configs}


def save(obj: Any, path: PathLike | io.IOBase, protocol: int = 4, **configs: Any) -> None:
    """Save tensors (alone or in dicts, lists, tuples, with plain Python values) as PaddlePaddle's
    `paddle.save` does; ``path`` is a file name or a binary file object. ``configs``, as
    PaddlePaddle's: ``use_binary_format=True`` writes one Tensor as a tensor stream instead of a
    pickle."""
    use_binary_format = _configs("save", configs, {"use_binary_format": False})["use_binary_format"]
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
def _refuse_object_dtype(dtype: np.dtype) -> np.dtype:
    if dtype.hasobject:
        raise pickle.UnpicklingError("arrays of Python objects are not loaded")
    return dtype


def _checked_dtype(obj: Any, align: bool = False, copy: bool = True) -> np.dtype:
    # always a copy: a BUILD opcode then sets the state of this dtype, never of numpy's shared
    # float32 (`np.dtype("f4", copy=False)` is numpy's own instance); a state that makes it an
    # object dtype is refused where an array or scalar gets it
    if not isinstance(obj, str) or not isinstance(align, bool):
        raise pickle.UnpicklingError(f"numpy.dtype of {type(obj).__name__} is not loaded")
    return _refuse_object_dtype(np.dtype(obj, align, True))


# numpy's own reconstructors, whatever module the installed numpy keeps them in
_NUMPY_RECONSTRUCT = np.zeros(0).__reduce__()[0]
_NUMPY_SCALAR = np.float32(0).__reduce__()[0]


class _ArrayClass:
    """What ``numpy.ndarray`` resolves to: the class argument `_reconstruct` expects, nothing
    that can be called to allocate an array of any shape."""


class _LoadedArray(np.ndarray):
    """An array being unpickled: its state is checked before numpy sets it (the dtype of a
    state may have been made an object dtype by a BUILD opcode); `load` hands out plain
    ndarray views of these."""

    def __setstate__(self, state: Any) -> None:
        if not isinstance(state, tuple) or len(state) not in (4, 5):
            raise pickle.UnpicklingError("an array's state is not numpy's (version, shape, ...)")
        shape, dtype = state[-4], state[-3]
        if not isinstance(dtype, np.dtype):
            raise pickle.UnpicklingError("an array's state holds no dtype")
        _refuse_object_dtype(dtype)
        if not isinstance(shape, tuple) or len(shape) > MAX_TENSOR_DIMS:
            raise pickle.UnpicklingError(
                f"an array's shape is not a tuple of at most {MAX_TENSOR_DIMS} extents "
                "(phiops.runtime.file_limits.MAX_TENSOR_DIMS)"
            )
        super().__setstate__(state)


def _reconstruct(subtype: Any, shape: Any, dtype: Any) -> np.ndarray:
    """numpy's `_reconstruct(ndarray, (0,), b"b")`, which every pickled array starts with."""
    if subtype is not _ArrayClass or shape != (0,):
        raise pickle.UnpicklingError(
            "an array is reconstructed other than as numpy pickles one (ndarray, (0,), dtype)"
        )
    if not isinstance(dtype, (bytes, str)):
        raise pickle.UnpicklingError("an array is reconstructed with no dtype code")
    _refuse_object_dtype(np.dtype(dtype))
    return _NUMPY_RECONSTRUCT(_LoadedArray, (0,), b"b")


def _scalar(dtype: Any, *data: Any) -> Any:
    if not isinstance(dtype, np.dtype):
        raise pickle.UnpicklingError("a numpy scalar is reconstructed with no dtype")
    return _NUMPY_SCALAR(_refuse_object_dtype(dtype), *data)


def _latin1_encode(text: Any, encoding: Any = "latin1") -> bytes:
    """`_codecs.encode(str, "latin1")`: how protocol 2 spells bytes; no other codec is run."""
    if not isinstance(text, str) or encoding not in ("latin1", "latin-1"):
        raise pickle.UnpicklingError("_codecs.encode is loaded only for latin1 bytes")
    return codecs.encode(text, "latin1")


_ALLOWED: dict[tuple[str, str], Any] = {
    ("builtins", "tuple"): tuple,
    ("builtins", "set"): set,
    ("builtins", "frozenset"): frozenset,
    ("collections", "OrderedDict"): collections.OrderedDict,
    ("_codecs", "encode"): _latin1_encode,
    ("numpy", "ndarray"): _ArrayClass,
    ("numpy", "dtype"): _checked_dtype,
}
for _module in ("numpy.core.multiarray", "numpy._core.multiarray"):
    _ALLOWED[(_module, "_reconstruct")] = _reconstruct
    _ALLOWED[(_module, "scalar")] = _scalar


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


# what the C unpickler raises on a malformed stream: a bad opcode or memo index, a length field
# of 2**40 (MemoryError, OverflowError), a reconstructor given the wrong arguments, a container
# nested past the C stack (RecursionError while hashing a key)
_UNPICKLING_ERRORS = (
    pickle.UnpicklingError,
    EOFError,
    ValueError,
    TypeError,
    AttributeError,
    KeyError,
    IndexError,
    OverflowError,
    LookupError,
    MemoryError,
    RecursionError,
)


def _unpickle(f: Any, source: str) -> Any:
    try:
        obj = _RestrictedUnpickler(f, encoding="latin1").load()
    except PhiError:
        raise
    except _UNPICKLING_ERRORS as error:
        if isinstance(error, MemoryError):
            error = MemoryError("a length field asks for more memory than there is")
        raise InvalidArgumentError(
            f"load: {source} is not a PaddlePaddle pickle file phiops can read: "
            f"{type(error).__name__}: {error}"
        ) from None
    _check_loaded(obj, source)
    return _convert(obj, lambda v: type(v) is _LoadedArray, lambda a: a.view(np.ndarray))


_CONTAINERS = (dict, list, tuple, set, frozenset)
_NUMPY_THINGS = (np.ndarray, np.generic, np.dtype)


def _children(item: Any) -> list[Any]:
    values = item.values() if isinstance(item, dict) else item
    return [v for v in values if isinstance(v, _CONTAINERS) or isinstance(v, _NUMPY_THINGS)]


def _check_loaded(obj: Any, source: str) -> None:
    """Refuse what unpickling made that `load` must not walk or hand out: a tree that unfolds
    to more than MAX_PICKLE_NODES containers and arrays (a shared reference counts each time
    it is reached: 400 bytes of shared lists can stand for 2**40 of them), nesting past
    MAX_PICKLE_DEPTH, a container inside itself, and object dtypes. The unfolded sizes are
    computed once per distinct object, so this costs what the pickle holds, not what it
    unfolds to."""

    def refuse(message: str) -> InvalidArgumentError:
        return InvalidArgumentError(
            f"load: {source} is not a PaddlePaddle pickle file phiops can read: {message}"
        )

    sizes: dict[int, int] = {}  # id -> unfolded size of each finished container
    on_path: set[int] = set()
    stack: list[tuple[Any, int, bool]] = [(obj, 1, False)]
    while stack:
        item, depth, finished = stack.pop()
        if isinstance(item, _NUMPY_THINGS):
            dtype = item if isinstance(item, np.dtype) else item.dtype
            if dtype.hasobject:
                raise refuse("arrays of Python objects are not loaded")
            continue
        if not isinstance(item, _CONTAINERS):
            continue
        key = id(item)
        if finished:
            on_path.discard(key)
            size = 1 + sum(sizes.get(id(child), 1) for child in _children(item))
            if size > MAX_PICKLE_NODES:
                raise refuse(
                    f"it unfolds to more than {MAX_PICKLE_NODES:,} containers and arrays "
                    "(a shared reference counts each time it is reached; "
                    "phiops.runtime.file_limits.MAX_PICKLE_NODES)"
                )
            sizes[key] = size
            continue
        if key in sizes:
            continue
        if key in on_path:
            raise refuse(f"a {type(item).__name__} contains itself")
        if depth > MAX_PICKLE_DEPTH:
            raise refuse(
                f"containers nest more than {MAX_PICKLE_DEPTH} deep "
                "(phiops.runtime.file_limits.MAX_PICKLE_DEPTH)"
            )
        on_path.add(key)
        stack.append((item, depth, True))
        stack.extend((child, depth + 1, False) for child in _children(item))


# containers the unpickler builds whole, and hashes when they are a dict key or a set element:
# hashing walks every node of a tuple again each time, through shared references too
_HASHED_CONTAINERS = frozenset(("TUPLE", "TUPLE1", "TUPLE2", "TUPLE3", "FROZENSET"))
_PUTS = frozenset(("PUT", "BINPUT", "LONG_BINPUT"))
_GETS = frozenset(("GET", "BINGET", "LONG_BINGET"))
_MUTATORS = frozenset(("APPEND", "APPENDS", "SETITEM", "SETITEMS", "ADDITEMS"))
_SATURATED = MAX_PICKLE_NODES + 1  # a size past the limit; a list's may grow no further


class _LargeChunk:
    """A long argument of an opcode (an array's bytes), as a view: its length, and its text
    when an opcode decodes it."""

    __slots__ = ("view",)

    def __init__(self, view: memoryview) -> None:
        self.view = view

    def __len__(self) -> int:
        return len(self.view)

    def decode(self, *args: str) -> str:
        return bytes(self.view).decode(*args)


class _ByteReader:
    """A read-only file over bytes for `pickletools.genops` that hands out long arguments as
    views, so that scanning a file of large arrays copies none of them."""

    _COPIED = 1 << 16  # arguments up to this long are plain bytes

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.view = memoryview(data)
        self.pos = 0

    def read(self, n: int = -1) -> bytes | _LargeChunk:
        end = len(self.data) if n < 0 else min(self.pos + n, len(self.data))
        start, self.pos = self.pos, end
        if end - start <= self._COPIED:
            return self.data[start:end]
        return _LargeChunk(self.view[start:end])

    def readline(self) -> bytes:
        end = self.data.find(b"\n", self.pos)
        end = len(self.data) if end < 0 else end + 1
        line = self.data[self.pos : end]
        self.pos = end
        return line

    def tell(self) -> int:
        return self.pos


def _scan_opcodes(data: bytes, source: str) -> None:
    """Walk the pickle's opcodes before the unpickler runs them: a length field asking for more
    bytes than the file holds is refused before anything allocates them (the unpickler would
    allocate first), and so is a tuple or frozenset that unfolds through shared references to
    more than MAX_PICKLE_NODES nodes (hashing one as a dict key would walk them all: a
    100-byte file can stand for 2**60). Only the stack effects are simulated; each stack entry
    is the unfolded node count of what the unpickler would hold there."""

    def refuse(message: str) -> InvalidArgumentError:
        return InvalidArgumentError(
            f"load: {source} is not a PaddlePaddle pickle file phiops can read: {message}"
        )

    # a cell per object, shared by the stack and the memo as the objects are: a list that
    # grows after it was memoized grows everywhere, and tuple(list) is as large as the list
    stack: list[list[int]] = []
    marks: list[int] = []
    memo: dict[Any, list[int]] = {}
    try:
        for opcode, arg, pos in pickletools.genops(_ByteReader(data)):
            name = opcode.name
            if name == "MARK":
                marks.append(len(stack))
                continue
            if name in _PUTS or name == "MEMOIZE":
                memo[arg if name in _PUTS else len(memo)] = stack[-1] if stack else [0]
                continue
            if name in _GETS:
                stack.append(memo.get(arg, [0]))
                continue
            if name == "DUP":
                stack.append(stack[-1] if stack else [0])
                continue
            before = opcode.stack_before
            popped: list[list[int]] = []
            if pickletools.markobject in before:
                start = marks.pop() if marks else len(stack)
                popped = stack[start:]
                del stack[start:]
                fixed = before.index(pickletools.markobject)
            else:
                fixed = len(before)
            if fixed:
                popped = stack[-fixed:] + popped
                del stack[-fixed:]
            if name in _HASHED_CONTAINERS:
                size = 1 + sum(cell[0] for cell in popped)
                if size > MAX_PICKLE_NODES:
                    raise refuse(
                        f"the {'tuple' if name.startswith('TUPLE') else 'frozenset'} built at "
                        f"byte {pos} unfolds to more than {MAX_PICKLE_NODES:,} nodes (a "
                        "shared reference counts each time it is reached; "
                        "phiops.runtime.file_limits.MAX_PICKLE_NODES)"
                    )
                stack.append([size])
            elif name in _MUTATORS and popped:  # the container stays, holding the rest
                container = popped[0]
                container[0] = min(container[0] + sum(c[0] for c in popped[1:]), _SATURATED)
                stack.append(container)
            elif name == "REDUCE" and popped:  # tuple(x) and frozenset(x) are as large as x
                stack.append([popped[-1][0]])
            elif name == "BUILD" and popped:
                stack.append(popped[0])
            else:
                stack.extend([0] for _ in opcode.stack_after)
    except InvalidArgumentError:
        raise
    except ValueError as error:  # a length past the end, an unknown opcode, a cut file
        raise refuse(str(error)) from None


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
        source, f = "<file object>", path
    else:
        source = os.fspath(path)
        f = io.BytesIO(
            read_file_bytes(path, MAX_PICKLE_FILE_BYTES, "MAX_PICKLE_FILE_BYTES", "pickle file")
        )
    start = f.tell()
    data = f.read()
    if data[:1] != _PICKLE_START:
        return _to_tensor(_read_binary_tensor(data, source), None, return_numpy), False
    _scan_opcodes(data, source)
    stream = io.BytesIO(data)
    try:
        return _unpickle(stream, source), True
    finally:
        if f.seekable():  # a file object is left just past the pickle, as pickle.load leaves it
            f.seek(start + stream.tell())


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


def _join_sliced_arrays(obj: dict, source: str) -> dict:
    info = obj.pop(UNPACK_INFO_KEY, None)
    if not info:
        return obj

    def refuse(message: str) -> InvalidArgumentError:
        return InvalidArgumentError(f"load: {source}: '{UNPACK_INFO_KEY}' {message}")

    if not isinstance(info, dict):
        raise refuse(f"is a {type(info).__name__}, expected a dict key -> {{OriginShape, slices}}")
    for key, value in info.items():
        if not isinstance(value, dict) or "OriginShape" not in value or "slices" not in value:
            raise refuse(f"entry {key!r} is not a dict with 'OriginShape' and 'slices'")
        shape, slices = value["OriginShape"], value["slices"]
        if not isinstance(shape, (tuple, list)) or not all(
            type(d) is int and d >= 0 for d in shape
        ):
            raise refuse(f"entry {key!r}: OriginShape {shape!r} is not a list of extents")
        if not isinstance(slices, (tuple, list)) or not slices:
            raise refuse(f"entry {key!r}: slices {slices!r} is not a list of keys")
        parts = []
        for part in slices:
            array = obj.get(part) if isinstance(part, str) else None
            if not isinstance(array, np.ndarray) or array.ndim != 1:
                raise refuse(f"entry {key!r}: slice {part!r} is not a 1-D array of the file")
            parts.append(array)
        if len({a.dtype for a in parts}) != 1:
            raise refuse(f"entry {key!r}: its slices differ in dtype")
        joined = np.concatenate(parts)
        if joined.size != math.prod(shape):
            raise refuse(
                f"entry {key!r}: the slices hold {joined.size} element(s), OriginShape "
                f"{list(shape)} has {math.prod(shape)}"
            )
        for part in slices:
            obj.pop(part, None)
        obj[key] = joined.reshape(shape)
    return obj


def load(path: PathLike | io.IOBase, **configs: Any) -> Any:
    """Load what `paddle.save` (or `save`) wrote: tensors come back as Tensors with their saved
    names in the saved containers. ``configs``, as PaddlePaddle's: ``return_numpy=True`` gives
    numpy arrays, ``keep_name_table=True`` keeps a state dict's name table; loading a model's
    parameters by ``model_filename``/``params_filename`` is not implemented."""
    options = _configs(
        "load",
        configs,
        {
            "return_numpy": False,
            "keep_name_table": False,
            "model_filename": None,
            "params_filename": None,
        },
    )
    for key in ("model_filename", "params_filename"):
        if options[key] is not None:
            raise UnimplementedError(
                f"load: {key} (a model's parameters saved with paddle.jit.save / "
                "save_inference_model) is not implemented; use phiops.jit.load or "
                "phiops.static.load_inference_model"
            )
    return_numpy, keep_name_table = options["return_numpy"], options["keep_name_table"]
    obj, pickled = _read(path, return_numpy)
    source = "<file object>" if isinstance(path, io.IOBase) else os.fspath(path)
    if not pickled:
        return obj
    if isinstance(obj, dict):
        obj = _join_sliced_arrays(obj, source)
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
