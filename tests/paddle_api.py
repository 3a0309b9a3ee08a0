"""Read tests/data/paddle_api_3_3_1.json, PaddlePaddle 3.3.1's Python API recorded as data by
tests/tools/record_paddle_api.py, so tests can compare phiops's names and signatures with
PaddlePaddle's without importing paddle (this module never does).

Qualified names are written as in PaddlePaddle: ``paddle.flatten``, ``paddle.nn.functional.relu``,
``paddle.Tensor.flatten``.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "paddle_api_3_3_1.json"
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


@functools.lru_cache(maxsize=None)
def load() -> dict:
    """The whole recorded data, parsed once."""
    return json.loads(DATA.read_text())


def modules() -> list[str]:
    """The modules whose names were recorded (a module that failed to import is not here)."""
    return sorted(load()["modules"])


def names(module: str) -> list[str]:
    """A module's public names (its ``__all__``, else ``dir()``) such as ``paddle.nn``'s, sorted."""
    return sorted(load()["modules"][module]["names"])


def other_names(module: str) -> list[str]:
    """A module's public attributes outside its ``__all__`` (``paddle.set_device``), sorted."""
    return sorted(load()["modules"][module].get("outside_all", {}))


def entry(qualname: str) -> dict:
    """The record of one name (``kind``, ``signature``, ``alias_of``, ...); KeyError if absent."""
    data = load()
    if qualname.startswith("paddle.Tensor."):
        return data["tensor"][qualname[len("paddle.Tensor.") :]]
    module, _, name = qualname.rpartition(".")
    record = data["modules"].get(module, {})
    for section in ("names", "outside_all"):
        if name in record.get(section, {}):
            return record[section][name]
    raise KeyError(qualname)


def parameters(qualname: str) -> list[dict] | None:
    """The recorded parameters ``[{name, kind, default?}]``, or None where inspect failed."""
    return entry(qualname)["signature"]


def parameters_of(obj: Any) -> list[dict]:
    """A live object's parameters in the recorded format, for comparing with ``parameters``."""
    out = []
    for p in inspect.signature(obj).parameters.values():
        item = {"name": p.name, "kind": p.kind.name}
        if p.default is not inspect.Parameter.empty:
            item["default"] = _ADDRESS.sub("0x...", repr(p.default))
        out.append(item)
    return out


class RecordedDefault:
    """A recorded default: its repr is PaddlePaddle's repr; equal to a value of the same repr."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RecordedDefault):
            return self.text == other.text
        return self.text == _ADDRESS.sub("0x...", repr(other))

    def __hash__(self) -> int:
        return hash(self.text)


def signature(qualname: str) -> inspect.Signature | None:
    """The recorded signature as an ``inspect.Signature`` (defaults are RecordedDefault)."""
    params = parameters(qualname)
    if params is None:
        return None
    return inspect.Signature(
        [
            inspect.Parameter(
                p["name"],
                getattr(inspect.Parameter, p["kind"]),
                default=(
                    RecordedDefault(p["default"]) if "default" in p else inspect.Parameter.empty
                ),
            )
            for p in params
        ]
    )


def tensor_methods() -> list[str]:
    """The names of ``paddle.Tensor``'s public methods, sorted."""
    return sorted(n for n, e in load()["tensor"].items() if e["kind"] == "method")


def tensor_properties() -> list[str]:
    """The names of ``paddle.Tensor``'s public properties, sorted."""
    return sorted(n for n, e in load()["tensor"].items() if e["kind"] == "property")


def return_structure(call_name: str) -> dict | None:
    """What a recorded call (e.g. ``paddle.split``) returned, as a structure; None if it failed."""
    return load()["returns"][call_name]["result"]
