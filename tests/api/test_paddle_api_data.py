"""tests/data/paddle_api_3_3_1.json (PaddlePaddle 3.3.1's Python API, recorded by
tests/tools/record_paddle_api.py) is well-formed and holds the facts that tools comparing
phiops with PaddlePaddle rely on. These are facts about PaddlePaddle, read through
tests/paddle_api.py; nothing here imports paddle or phiops."""

from __future__ import annotations

import inspect

import pytest

from tests import paddle_api

KINDS = {"function", "class", "module", "other", "missing"}
ENTRY_KEYS = {
    "kind",
    "signature",
    "signature_error",
    "builtin",
    "alias_of",
    "module_name",
    "type",
    "repr",
    "error",
}
PARAMETER_KINDS = {
    "POSITIONAL_ONLY",
    "POSITIONAL_OR_KEYWORD",
    "VAR_POSITIONAL",
    "KEYWORD_ONLY",
    "VAR_KEYWORD",
}
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


def _all_entries():
    data = paddle_api.load()
    for module, record in data["modules"].items():
        for section in ("names", "outside_all"):
            for name, entry in record.get(section, {}).items():
                yield f"{module}.{name}", entry


def _check_parameters(params: list, where: str) -> None:
    assert isinstance(params, list), where
    for p in params:
        assert set(p) <= {"name", "kind", "default"}, where
        assert isinstance(p["name"], str) and p["name"], where
        assert p["kind"] in PARAMETER_KINDS, where
        assert isinstance(p.get("default", ""), str), where


def _check_structure(value: dict, where: str) -> None:
    assert isinstance(value["type"], str), where
    if value["type"] == "Tensor":
        assert all(isinstance(d, int) for d in value["shape"]), where
        assert isinstance(value["dtype"], str), where
    for item in value.get("items", []):
        _check_structure(item, where)


def test_header():
    data = paddle_api.load()
    assert data["paddle_version"] == "3.3.1"
    assert data["python_version"].count(".") == 2
    assert list(data)[:2] == ["paddle_version", "python_version"]


def test_every_module_is_recorded_or_its_failure_is():
    data = paddle_api.load()
    for module in MODULES:
        assert (module in data["modules"]) != (module in data["skipped_modules"]), module
    assert paddle_api.modules() == sorted(data["modules"])


def test_entries_are_well_formed():
    names = {q for q, _ in _all_entries()}
    count = 0
    for qualname, entry in _all_entries():
        count += 1
        assert not qualname.rsplit(".", 1)[1].startswith("_"), qualname
        assert entry["kind"] in KINDS, qualname
        assert set(entry) <= ENTRY_KEYS, qualname
        assert entry.get("builtin", True) is True, qualname
        if entry["kind"] in ("function", "class"):
            if entry["signature"] is None:
                assert entry["signature_error"], qualname
            else:
                _check_parameters(entry["signature"], qualname)
        if "alias_of" in entry:
            assert entry["alias_of"] in names and entry["alias_of"] != qualname, qualname
            assert "alias_of" not in paddle_api.entry(entry["alias_of"]), qualname
    assert count > 1000


def test_names_are_sorted_and_public():
    for module in paddle_api.modules():
        names = paddle_api.names(module)
        assert names == sorted(names) and names, module
        assert not any(n.startswith("_") for n in names), module


def test_tensor_entries_are_well_formed():
    tensor = paddle_api.load()["tensor"]
    for name, entry in tensor.items():
        assert not name.startswith("_"), name
        assert entry["kind"] in {"method", "property", "other", "missing"}, name
        assert set(entry) <= ENTRY_KEYS, name
        if entry["kind"] == "method":
            if entry["signature"] is None:
                assert entry["signature_error"], name
            else:
                _check_parameters(entry["signature"], name)


def test_return_structures_are_well_formed():
    for name, record in paddle_api.load()["returns"].items():
        assert record["call"], name
        if record["result"] is None:
            assert record["error"], name
        else:
            _check_structure(record["result"], name)


def test_flatten_signature():
    expected = [
        {"name": "x", "kind": "POSITIONAL_OR_KEYWORD"},
        {"name": "start_axis", "kind": "POSITIONAL_OR_KEYWORD", "default": "0"},
        {"name": "stop_axis", "kind": "POSITIONAL_OR_KEYWORD", "default": "-1"},
        {"name": "name", "kind": "POSITIONAL_OR_KEYWORD", "default": "None"},
    ]
    assert paddle_api.parameters("paddle.flatten") == expected
    assert (
        str(paddle_api.signature("paddle.flatten")) == "(x, start_axis=0, stop_axis=-1, name=None)"
    )

    def flatten(x, start_axis=0, stop_axis=-1, name=None):
        pass

    assert paddle_api.parameters_of(flatten) == expected
    assert paddle_api.signature("paddle.flatten") == inspect.signature(flatten)


def test_everyday_names():
    assert "relu" in paddle_api.names("paddle.nn.functional")
    assert paddle_api.entry("paddle.nn.functional.relu")["kind"] == "function"
    assert paddle_api.entry("paddle.nn.Linear")["kind"] == "class"
    assert {"flatten", "concat", "to_tensor", "Tensor"} <= set(paddle_api.names("paddle"))
    assert paddle_api.entry("paddle.cat")["alias_of"] == "paddle.concat"
    assert "set_device" in paddle_api.other_names("paddle")
    assert paddle_api.entry("paddle.set_device")["kind"] == "function"


def test_tensor_methods():
    methods = paddle_api.tensor_methods()
    assert {"flatten", "argmax"} <= set(methods)
    assert methods == sorted(methods)
    assert {"shape", "dtype"} <= set(paddle_api.tensor_properties())
    assert paddle_api.entry("paddle.Tensor.flatten")["kind"] == "method"


@pytest.mark.parametrize(
    "call, kind, length",
    [
        ("paddle.split", "list", 3),
        ("paddle.chunk", "list", 2),
        ("paddle.unbind", "list", 2),
        ("paddle.meshgrid", "list", 2),
        ("paddle.unique.return_counts", "tuple", 2),
        ("paddle.topk", "tuple", 2),
        ("paddle.where", "tuple", 2),
        ("Tensor.shape", "list", 2),
    ],
)
def test_sequence_returns(call, kind, length):
    result = paddle_api.return_structure(call)
    assert result["type"] == kind
    assert len(result["items"]) == length
    if call != "Tensor.shape":
        assert all(item["type"] == "Tensor" for item in result["items"])


def test_split_returns_a_list_of_tensors():
    result = paddle_api.return_structure("paddle.split")
    assert result == {
        "type": "list",
        "items": [{"type": "Tensor", "shape": [2, 2], "dtype": "float32"}] * 3,
    }


@pytest.mark.parametrize(
    "call", ["paddle.argsort", "paddle.shape", "paddle.nonzero", "paddle.sort", "paddle.histogram"]
)
def test_tensor_returns(call):
    assert paddle_api.return_structure(call)["type"] == "Tensor"


def test_unknown_names_raise():
    with pytest.raises(KeyError):
        paddle_api.entry("paddle.no_such_function")
    with pytest.raises(KeyError):
        paddle_api.names("paddle.no_such_module")
