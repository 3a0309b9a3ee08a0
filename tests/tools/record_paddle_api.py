"""Write tests/data/paddle_api_3_3_1.json: PaddlePaddle 3.3.1's Python API recorded as data.

Run from the repository root, with PaddlePaddle 3.3.1 (CPU build) in a venv of its own outside
the repository::

    python3 -m venv /work/paddle-venv
    /work/paddle-venv/bin/pip install paddlepaddle==3.3.1
    /work/paddle-venv/bin/python tests/tools/record_paddle_api.py

The test suite never imports this script (nor paddle); tests/paddle_api.py reads the data and
tests/api/test_paddle_api_data.py checks it. What is recorded:

* ``modules``: for each module in MODULES, every public name (the module's ``__all__`` where it
  has one, else the names in ``dir()`` not starting with ``_``; names starting with ``_`` are
  never recorded) with its ``kind`` (``function``, ``class``, ``module``, ``other``, or
  ``missing`` where ``__all__`` lists a name the module lacks), for functions and classes the
  parameters of ``inspect.signature`` (a class's is ``inspect.signature(cls)``: its
  ``__init__`` without ``self``), or ``signature: null`` and ``signature_error``
  (``builtin: true`` marks a routine written in C, whose signature inspect can only take from
  its ``__text_signature__``), and ``alias_of`` where the object is the very object of another
  recorded name (see mark_aliases for which name is the canonical one). Where a module has
  ``__all__``, its other public attributes (``paddle.set_device``, ``paddle.nn``) are recorded
  apart, in ``outside_all``, in the same format.
* ``skipped_modules``: a module that failed to import, with why.
* ``tensor``: ``paddle.Tensor``'s public methods and properties, in the same format.
* ``returns``: what a few everyday calls return on small inputs, as a structure such as
  ``{"type": "list", "items": [{"type": "Tensor", "shape": [2, 2], "dtype": "float32"}]}``; a
  subclass of list, tuple, int, float or bool is given as that base type with its ``class``
  (``x.shape`` is a list, of class ``paddle.base.libpaddle.Size``).

Parameters are ``{"name", "kind", "default"}``; ``default`` is ``repr()`` of the default (with
memory addresses replaced by ``0x...``) and absent where there is none. Docstrings and
annotations are not recorded. The output is deterministic: names sorted, keys sorted below the
top level.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import platform
import re
import sys
import types
from pathlib import Path
from typing import Any, Callable

import numpy as np
import paddle

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "paddle_api_3_3_1.json"
EXPECTED_VERSION = "3.3.1"

MODULES = [
    "paddle",
    "paddle.nn",
    "paddle.nn.functional",
    "paddle.nn.initializer",
    "paddle.optimizer",
    "paddle.optimizer.lr",
    "paddle.static",
    "paddle.static.nn",
    "paddle.jit",
    "paddle.autograd",
    "paddle.io",
    "paddle.metric",
    "paddle.regularizer",
    "paddle.amp",
    "paddle.distributed",
    "paddle.linalg",
    "paddle.fft",
    "paddle.sparse",
    "paddle.vision.transforms",
]

ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
# Values whose identity says nothing (small ints, interned strings, None): never aliases.
NOT_ALIASED = (type(None), bool, int, float, complex, str, bytes, tuple)


def _clean(text: str) -> str:
    return ADDRESS.sub("0x...", text)


def _parameters(obj: Any) -> tuple[list[dict] | None, str | None]:
    """inspect.signature(obj) as a list of parameters, or None and why it failed."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError) as exc:
        return None, _clean(f"{type(exc).__name__}: {exc}")
    params = []
    for p in sig.parameters.values():
        entry = {"name": p.name, "kind": p.kind.name}
        if p.default is not inspect.Parameter.empty:
            entry["default"] = _clean(repr(p.default))
        params.append(entry)
    return params, None


BUILTIN_ROUTINES = (
    types.BuiltinFunctionType,
    types.MethodDescriptorType,
    types.WrapperDescriptorType,
    types.ClassMethodDescriptorType,
)


def _signature_entry(entry: dict[str, Any], obj: Any) -> dict[str, Any]:
    """Add ``signature`` (and ``signature_error``, ``builtin``) for a function or method."""
    params, error = _parameters(obj)
    entry["signature"] = params
    if error is not None:
        entry["signature_error"] = error
    if isinstance(obj, BUILTIN_ROUTINES):
        # Implemented in C: inspect reads only its __text_signature__, where there is one.
        entry["builtin"] = True
    return entry


def _kind(obj: Any) -> str:
    if isinstance(obj, types.ModuleType):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if inspect.isroutine(obj) or isinstance(obj, functools.partial):
        return "function"
    return "other"


def _describe(obj: Any) -> dict:
    kind = _kind(obj)
    entry: dict[str, Any] = {"kind": kind}
    if kind in ("function", "class"):
        _signature_entry(entry, obj)
    elif kind == "module":
        entry["module_name"] = obj.__name__
    else:
        entry["type"] = f"{type(obj).__module__}.{type(obj).__qualname__}"
        text = _clean(repr(obj))
        if len(text) <= 80 and "\n" not in text:
            entry["repr"] = text
    return entry


def _record_names(
    mod: types.ModuleType,
    modname: str,
    public: list[str],
    by_id: dict[int, list[str]],
    objects: dict[int, Any],
) -> dict[str, dict]:
    names: dict[str, dict] = {}
    for name in public:
        try:
            obj = getattr(mod, name)
        except Exception as exc:  # noqa: BLE001 - e.g. __all__ names a missing attribute
            names[name] = {"kind": "missing", "error": _clean(f"{type(exc).__name__}: {exc}")}
            continue
        names[name] = _describe(obj)
        if names[name]["kind"] != "module" and not isinstance(obj, NOT_ALIASED):
            by_id.setdefault(id(obj), []).append(f"{modname}.{name}")
            objects[id(obj)] = obj
    return names


def record_modules() -> tuple[dict, dict, dict[int, list[str]], dict[int, Any]]:
    modules: dict[str, dict] = {}
    skipped: dict[str, str] = {}
    by_id: dict[int, list[str]] = {}
    objects: dict[int, Any] = {}
    for modname in MODULES:
        try:
            mod = importlib.import_module(modname)
        except Exception as exc:  # noqa: BLE001 - any import failure is recorded
            skipped[modname] = _clean(f"{type(exc).__name__}: {exc}")
            continue
        if hasattr(mod, "__all__"):
            source = "__all__"
            listed = [str(n) for n in mod.__all__]
        else:
            source = "dir"
            listed = dir(mod)
        public = sorted({n for n in listed if not n.startswith("_")})
        record: dict[str, Any] = {
            "names": _record_names(mod, modname, public, by_id, objects),
            "names_from": source,
            "private_names_dropped": len({n for n in listed if n.startswith("_")}),
        }
        if source == "__all__":
            # Reachable as attributes, public by their spelling, but not in __all__ (e.g.
            # paddle.set_device, paddle.nn): recorded apart, in the same format.
            outside = sorted(n for n in dir(mod) if not n.startswith("_") and n not in public)
            record["outside_all"] = _record_names(mod, modname, outside, by_id, objects)
        modules[modname] = record
    return modules, skipped, by_id, objects


def _canonical(qualnames: list[str], obj: Any, listed: set[str]) -> str:
    own = f"{getattr(obj, '__module__', None)}.{getattr(obj, '__name__', None)}"
    if own in qualnames:
        return own
    pool = [q for q in qualnames if q in listed] or qualnames
    name = getattr(obj, "__name__", None)
    pool = [q for q in pool if q.rsplit(".", 1)[1] == name] or pool
    return min(pool, key=lambda q: (q.count("."), q))


def mark_aliases(modules: dict, by_id: dict[int, list[str]], objects: dict[int, Any]) -> int:
    """Mark each recorded name whose object another recorded name also is with ``alias_of``.

    Only PaddlePaddle's own objects count (not typing's or __future__'s, which modules import).
    The canonical name: the object's ``__module__.__name__`` where recorded; else among the
    names in an ``__all__`` (all names where none is), those ending in the object's
    ``__name__`` where any does, the one with fewest dots, then first in sorted order.
    """
    listed = {f"{m}.{n}" for m, record in modules.items() for n in record["names"]}
    count = 0
    for key, qualnames in by_id.items():
        obj = objects[key]
        home = getattr(obj, "__module__", None)
        if not isinstance(home, str):
            home = type(obj).__module__
        if len(qualnames) < 2 or not home.startswith("paddle"):
            continue
        canonical = _canonical(qualnames, obj, listed)
        for q in qualnames:
            if q == canonical:
                continue
            modname, name = q.rsplit(".", 1)
            record = modules[modname]
            where = record["names"] if name in record["names"] else record["outside_all"]
            where[name]["alias_of"] = canonical
            count += 1
    return count


def record_tensor() -> dict:
    cls = paddle.Tensor
    out: dict[str, dict] = {}
    for name in sorted(n for n in dir(cls) if not n.startswith("_")):
        try:
            static = inspect.getattr_static(cls, name)
        except AttributeError:
            static = None
        if isinstance(static, (property, types.GetSetDescriptorType, types.MemberDescriptorType)):
            out[name] = {"kind": "property"}
            continue
        try:
            obj = getattr(cls, name)
        except Exception as exc:  # noqa: BLE001
            out[name] = {"kind": "missing", "error": _clean(f"{type(exc).__name__}: {exc}")}
            continue
        if inspect.isroutine(obj) or isinstance(static, (staticmethod, classmethod)):
            out[name] = _signature_entry({"kind": "method"}, obj)
        else:
            out[name] = _describe(obj)
            if out[name]["kind"] == "function":  # a callable that is not a routine descriptor
                out[name]["kind"] = "method"
    return out


def structure(value: Any) -> dict:
    """A small structural description of a call's result."""
    if isinstance(value, paddle.Tensor):
        return {
            "type": "Tensor",
            "shape": [int(d) for d in value.shape],
            "dtype": str(value.dtype).replace("paddle.", ""),
        }
    for base in (bool, int, float, list, tuple):
        if isinstance(value, base):
            out: dict[str, Any] = {"type": base.__name__}
            if type(value) is not base:  # e.g. x.shape is a paddle.base.libpaddle.Size(list)
                out["class"] = f"{type(value).__module__}.{type(value).__qualname__}"
            if base in (list, tuple):
                out["items"] = [structure(v) for v in value]
            else:
                out["value"] = base(value)
            return out
    if value is None:
        return {"type": "None"}
    return {"type": f"{type(value).__module__}.{type(value).__qualname__}"}


def _calls() -> dict[str, tuple[str, Callable[[], Any]]]:
    f = np.array([[3.0, 1.0, 2.0, 5.0, 4.0, 0.0], [1.0, 0.0, 6.0, 2.0, 2.0, 7.0]], "float32")
    x = paddle.to_tensor(f)  # [2, 6] float32
    v = paddle.to_tensor(np.array([3.0, 1.0, 3.0, 2.0, 1.0], "float32"))  # [5]
    a = paddle.to_tensor(np.array([1.0, 2.0, 3.0], "float32"))
    b = paddle.to_tensor(np.array([4.0, 5.0], "float32"))
    cond = x > 2.0
    img = paddle.to_tensor(np.arange(32, dtype="float32").reshape(1, 2, 4, 4))
    # name -> (the call as written, a thunk making it); x is [2, 6], v is [5], a [3], b [2]
    return {
        "Tensor.shape": ("x.shape", lambda: x.shape),
        "Tensor.ndim": ("x.ndim", lambda: x.ndim),
        "Tensor.dim": ("x.dim()", lambda: x.dim()),
        "Tensor.size": ("x.size", lambda: x.size),
        "Tensor.numel": ("x.numel()", lambda: x.numel()),
        "Tensor.item": ("x[0, 0].item()", lambda: x[0, 0].item()),
        "Tensor.tolist": ("a.tolist()", lambda: a.tolist()),
        "Tensor.max": ("x.max(axis=0)", lambda: x.max(axis=0)),
        "Tensor.split": ("x.split(3, 1)", lambda: x.split(3, 1)),
        "paddle.shape": ("paddle.shape(x)", lambda: paddle.shape(x)),
        "paddle.numel": ("paddle.numel(x)", lambda: paddle.numel(x)),
        "paddle.split": ("paddle.split(x, 3, 1)", lambda: paddle.split(x, 3, 1)),
        "paddle.split.sections": (
            "paddle.split(x, [1, 5], axis=1)",
            lambda: paddle.split(x, [1, 5], axis=1),
        ),
        "paddle.tensor_split": (
            "paddle.tensor_split(x, 2, axis=1)",
            lambda: paddle.tensor_split(x, 2, axis=1),
        ),
        "paddle.chunk": ("paddle.chunk(x, 2, axis=1)", lambda: paddle.chunk(x, 2, axis=1)),
        "paddle.unbind": ("paddle.unbind(x, axis=0)", lambda: paddle.unbind(x, axis=0)),
        "paddle.unstack": ("paddle.unstack(x, axis=0)", lambda: paddle.unstack(x, axis=0)),
        "paddle.meshgrid": ("paddle.meshgrid(a, b)", lambda: paddle.meshgrid(a, b)),
        "paddle.meshgrid.list": ("paddle.meshgrid([a, b])", lambda: paddle.meshgrid([a, b])),
        "paddle.broadcast_tensors": (
            "paddle.broadcast_tensors([x, a[:1]])",
            lambda: paddle.broadcast_tensors([x, a[:1]]),
        ),
        "paddle.argsort": ("paddle.argsort(x)", lambda: paddle.argsort(x)),
        "paddle.sort": ("paddle.sort(x)", lambda: paddle.sort(x)),
        "paddle.topk": ("paddle.topk(x, 2)", lambda: paddle.topk(x, 2)),
        "paddle.kthvalue": ("paddle.kthvalue(x, 2)", lambda: paddle.kthvalue(x, 2)),
        "paddle.mode": ("paddle.mode(x)", lambda: paddle.mode(x)),
        "paddle.median": ("paddle.median(x)", lambda: paddle.median(x)),
        "paddle.median.axis": (
            "paddle.median(x, axis=1)",
            lambda: paddle.median(x, axis=1),
        ),
        "paddle.max": ("paddle.max(x)", lambda: paddle.max(x)),
        "paddle.max.axis": ("paddle.max(x, axis=0)", lambda: paddle.max(x, axis=0)),
        "paddle.min.axis": ("paddle.min(x, axis=0)", lambda: paddle.min(x, axis=0)),
        "paddle.argmax": ("paddle.argmax(x)", lambda: paddle.argmax(x)),
        "paddle.argmax.axis": ("paddle.argmax(x, axis=1)", lambda: paddle.argmax(x, axis=1)),
        "paddle.unique": ("paddle.unique(v)", lambda: paddle.unique(v)),
        "paddle.unique.return_counts": (
            "paddle.unique(v, return_counts=True)",
            lambda: paddle.unique(v, return_counts=True),
        ),
        "paddle.unique.all": (
            "paddle.unique(v, return_index=True, return_inverse=True, return_counts=True)",
            lambda: paddle.unique(v, return_index=True, return_inverse=True, return_counts=True),
        ),
        "paddle.unique_consecutive": (
            "paddle.unique_consecutive(v, return_counts=True)",
            lambda: paddle.unique_consecutive(v, return_counts=True),
        ),
        "paddle.where": ("paddle.where(cond)", lambda: paddle.where(cond)),
        "paddle.where.select": ("paddle.where(cond, x, -x)", lambda: paddle.where(cond, x, -x)),
        "paddle.nonzero": ("paddle.nonzero(x)", lambda: paddle.nonzero(x)),
        "paddle.nonzero.as_tuple": (
            "paddle.nonzero(x, as_tuple=True)",
            lambda: paddle.nonzero(x, as_tuple=True),
        ),
        "paddle.histogram": (
            "paddle.histogram(v, bins=4, min=0, max=4)",
            lambda: paddle.histogram(v, bins=4, min=0, max=4),
        ),
        "paddle.bincount": (
            "paddle.bincount(v.astype('int64'))",
            lambda: paddle.bincount(v.astype("int64")),
        ),
        "paddle.std": ("paddle.std(x)", lambda: paddle.std(x)),
        "paddle.sum": ("paddle.sum(x)", lambda: paddle.sum(x)),
        "paddle.linalg.qr": (
            "paddle.linalg.qr(x.T)",
            lambda: paddle.linalg.qr(x.T),
        ),
        "paddle.linalg.eigh": (
            "paddle.linalg.eigh(x @ x.T)",
            lambda: paddle.linalg.eigh(x @ x.T),
        ),
        "paddle.linalg.slogdet": (
            "paddle.linalg.slogdet(x @ x.T)",
            lambda: paddle.linalg.slogdet(x @ x.T),
        ),
        "paddle.linalg.svd": ("paddle.linalg.svd(x)", lambda: paddle.linalg.svd(x)),
        "paddle.nn.functional.max_pool2d.return_mask": (
            "paddle.nn.functional.max_pool2d(img, 2, return_mask=True)",
            lambda: paddle.nn.functional.max_pool2d(img, 2, return_mask=True),
        ),
    }


def record_returns() -> dict:
    out: dict[str, dict] = {}
    for name, (call, thunk) in sorted(_calls().items()):
        try:
            out[name] = {"call": call, "result": structure(thunk())}
        except Exception as exc:  # noqa: BLE001 - a failing call is recorded, not fatal
            out[name] = {
                "call": call,
                "result": None,
                "error": _clean(f"{type(exc).__name__}: {exc}").splitlines()[0],
            }
    return out


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value


def main() -> None:
    if paddle.__version__ != EXPECTED_VERSION:
        sys.exit(f"paddle {paddle.__version__} found; this records {EXPECTED_VERSION}")
    paddle.set_device("cpu")
    modules, skipped, by_id, objects = record_modules()
    aliases = mark_aliases(modules, by_id, objects)
    data = {
        "paddle_version": paddle.__version__,
        "python_version": platform.python_version(),
        "generated_by": "tests/tools/record_paddle_api.py",
        "modules": _sorted(modules),
        "skipped_modules": _sorted(skipped),
        "tensor": _sorted(record_tensor()),
        "returns": _sorted(record_returns()),
    }
    text = json.dumps(data, indent=1, ensure_ascii=True) + "\n"
    OUT.write_text(text)
    for modname in MODULES:
        if modname in modules:
            outside = len(modules[modname].get("outside_all", {}))
            print(f"{modname}: {len(modules[modname]['names'])} names, {outside} outside __all__")
        else:
            print(f"{modname}: SKIPPED ({skipped[modname]})")
    print(f"paddle.Tensor: {len(data['tensor'])} methods and properties")
    print(f"{aliases} aliases; {len(data['returns'])} return structures")
    failed = [n for n, r in data["returns"].items() if r["result"] is None]
    if failed:
        print("calls that failed:", ", ".join(failed))
    print(f"wrote {OUT.relative_to(ROOT)} ({len(text.encode())} bytes)")


if __name__ == "__main__":
    main()
