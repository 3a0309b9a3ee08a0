"""The backend registry (runtime/backends.py) is the one place that knows array modules: nothing
else under runtime/ names CuPy, a third backend is one registration, and the indexed in-place
update kernels use (``scatter_at``) gives numpy's ``ufunc.at`` results."""

from __future__ import annotations

import ast
import types
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime import backends
from phiops.runtime.backends import (
    BACKENDS,
    array_module,
    backend_available,
    device_count,
    is_array,
    module_of,
    place_of_array,
    register_backend,
    scatter_at,
    to_backend,
    to_numpy,
    unregister_backend,
)
from phiops.runtime.common import Backend, CPUPlace, DataLayout, DataType, Place
from phiops.runtime.device import check_place_available
from phiops.runtime.dispatch.dispatcher import clear_dispatch_caches
from phiops.runtime.errors import InvalidArgumentError, NotFoundError, UnimplementedError
from phiops.runtime.kernels.kernel_factory import KERNEL_FACTORY
from phiops.runtime.kernels.kernel_key import KernelKey

RUNTIME = Path(backends.__file__).resolve().parent
REGISTRY = Path(backends.__file__).resolve()


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _code_mentions(path: Path, word: str, root: Path) -> Iterator[str]:
    """Where the code of ``path`` (not its comments or docstrings) says ``word``, named relative
    to ``root``."""
    tree = ast.parse(path.read_text(), str(path))
    docstrings = _docstrings(tree)
    for node in ast.walk(tree):
        texts: list[str] = []
        if isinstance(node, ast.Name):
            texts = [node.id]
        elif isinstance(node, ast.Attribute):
            texts = [node.attr]
        elif isinstance(node, ast.alias):
            texts = [node.name, node.asname or ""]
        elif isinstance(node, ast.ImportFrom):
            texts = [node.module or ""]
        elif isinstance(node, ast.arg):
            texts = [node.arg]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            texts = [node.name]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                texts = [node.value]
        for text in texts:
            if word in text.lower():
                yield f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}: {text!r}"


def test_only_the_registry_names_cupy_in_code() -> None:
    mentions = [
        mention
        for path in sorted(RUNTIME.rglob("*.py"))
        if path != REGISTRY
        for mention in _code_mentions(path, "cupy", RUNTIME.parent)
    ]
    assert mentions == [], "CuPy is the backend registry's business:\n" + "\n".join(mentions)


def test_the_mention_check_sees_code_and_skips_docstrings_and_comments(tmp_path: Path) -> None:
    source = tmp_path / "runtime" / "m.py"
    source.parent.mkdir()
    source.write_text(
        '"""Uses CuPy."""\n# cupy here\nimport cupy\nx = "cupy"\ndef f():\n    """cupy."""\n'
    )
    found = list(_code_mentions(source, "cupy", tmp_path))
    assert found == ["runtime/m.py:3: 'cupy'", "runtime/m.py:4: 'cupy'"]


def test_the_registry_imports_nothing_above_common() -> None:
    """runtime/device.py is a place-level view over the registry: the registry never imports it
    (no cycle), nor anything but common and errors."""
    tree = ast.parse(REGISTRY.read_text())
    imported = sorted(
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("phiops")
    )
    assert imported == ["phiops.runtime.common", "phiops.runtime.errors"]


def test_numpy_arrays_belong_to_the_cpu_backend() -> None:
    array = np.zeros(3, np.float32)
    assert is_array(array) and not is_array([1.0]) and not is_array(np.float32(1))
    assert module_of(array) is np and module_of([1.0]) is np
    assert array_module(Backend.CPU) is np
    assert place_of_array(array) == CPUPlace()
    assert to_backend(array, CPUPlace()) is array
    assert to_numpy(array) is array
    assert device_count(Backend.CPU) == 1 and backend_available(Backend.CPU)
    with pytest.raises(UnimplementedError, match="arrays of type list are not supported"):
        place_of_array([1.0])


def test_an_unregistered_backend_is_not_available_and_its_place_is_refused() -> None:
    assert not backend_available(Backend.CUSTOM) and device_count(Backend.CUSTOM) == 0
    with pytest.raises(NotFoundError, match="backend CUSTOM is not registered"):
        array_module(Backend.CUSTOM)
    with pytest.raises(
        InvalidArgumentError,
        match=r"^full\(\): place custom:0 is not available on this machine; available: cpu only "
        r"\(backend CUSTOM is not registered\)",
    ):
        check_place_available(Place(Backend.CUSTOM, 0), "full")


@pytest.mark.parametrize("op", ["add", "multiply", "maximum", "minimum"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "int32", "int64", "float16", "float64"])
def test_scatter_at_is_numpys_ufunc_at(op: str, dtype: str) -> None:
    rng = np.random.default_rng(0)
    base = (rng.standard_normal((4, 3)) * 5).astype(dtype)
    rows = np.array([0, 2, 0, 3, 0])
    values = (rng.standard_normal((5, 3)) * 5).astype(dtype)
    expected = base.copy()
    getattr(np, op).at(expected, rows, values)
    got = base.copy()
    scatter_at(op, got, rows, values)
    np.testing.assert_array_equal(got, expected)


def test_scatter_at_refuses_what_is_no_array() -> None:
    with pytest.raises(UnimplementedError, match="arrays of type list are not supported"):
        scatter_at("add", [0.0], [0], [1.0])


# --- a third backend: an array module wrapping numpy, registered by the test -----------------


class FakeArray(np.ndarray):
    """An array of the fake backend: a numpy array that the registry tells apart by its type."""


def _fake(value: Any) -> Any:
    if isinstance(value, np.ndarray) and type(value) is not FakeArray:
        return value.view(FakeArray)
    if isinstance(value, np.generic):
        return np.asarray(value).view(FakeArray)
    if isinstance(value, (tuple, list)) and any(isinstance(v, np.ndarray) for v in value):
        return type(value)(_fake(v) for v in value)
    return value


class _FakeUfunc:
    def __init__(self, ufunc: np.ufunc) -> None:
        self._ufunc = ufunc

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _fake(self._ufunc(*args, **kwargs))

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._ufunc, name)
        return (lambda *a, **k: _fake(attr(*a, **k))) if callable(attr) else attr


class _FakeModule(types.ModuleType):
    """numpy, with every array it gives back a FakeArray."""

    ndarray = FakeArray

    def __init__(self, wrapped: types.ModuleType) -> None:
        super().__init__(f"fake_{wrapped.__name__}")
        self._wrapped = wrapped

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._wrapped, name)
        if isinstance(attr, np.ufunc):
            return _FakeUfunc(attr)
        if isinstance(attr, types.ModuleType) and attr.__name__.startswith("numpy"):
            return _FakeModule(attr)
        if callable(attr) and not isinstance(attr, type):
            return lambda *a, **k: _fake(attr(*a, **k))
        return attr


FAKE = _FakeModule(np)
FAKE_PLACE = Place(Backend.CUSTOM, 0)


@pytest.fixture
def fake_backend() -> Iterator[None]:
    """The fake backend registered (one call: the xp-generic kernels follow), and gone after."""
    register_backend(
        Backend.CUSTOM,
        priority=5,
        load_module=lambda: FAKE,
        to_host=lambda array: array.view(np.ndarray),
        scatter=lambda module, op, array, index, values: getattr(np, op).at(
            array.view(np.ndarray), index, np.asarray(values)
        ),
        returns_scalars=True,
    )
    flags = phi.get_flags(["enable_api_kernel_fallback"])
    phi.set_flags({"enable_api_kernel_fallback": False})  # every kernel runs on the fake backend
    try:
        yield
    finally:
        phi.set_flags(flags)
        unregister_backend(Backend.CUSTOM)
        clear_dispatch_caches()


def fake(array: np.ndarray, stop_gradient: bool = True) -> phi.Tensor:
    return phi.to_tensor(array, place=FAKE_PLACE, stop_gradient=stop_gradient)


def test_a_registered_backend_gets_the_xp_generic_kernels(fake_backend: None) -> None:
    key = KernelKey(Backend.CUSTOM, DataLayout.ALL_LAYOUT, DataType.FLOAT32)
    kernel = KERNEL_FACTORY.select("add", key, cpu_fallback=False)
    assert kernel.key.backend is Backend.CUSTOM
    assert device_count(Backend.CUSTOM) == 1 and array_module(Backend.CUSTOM) is FAKE


def test_an_unregistered_backend_loses_its_kernels(fake_backend: None) -> None:
    unregister_backend(Backend.CUSTOM)
    try:
        key = KernelKey(Backend.CUSTOM, DataLayout.ALL_LAYOUT, DataType.FLOAT32)
        with pytest.raises(NotFoundError, match="has no registration for"):
            KERNEL_FACTORY.select("add", key, cpu_fallback=False)
    finally:
        register_backend(Backend.CUSTOM, 5, lambda: FAKE)


def test_arrays_move_between_the_fake_backend_and_the_host(fake_backend: None) -> None:
    host = np.arange(3.0)
    moved = to_backend(host, FAKE_PLACE)
    assert type(moved) is FakeArray and place_of_array(moved) == FAKE_PLACE
    assert module_of(moved) is FAKE and is_array(moved)
    back = to_backend(moved, CPUPlace())
    assert type(back) is np.ndarray and back.tolist() == [0.0, 1.0, 2.0]
    assert type(to_numpy(moved)) is np.ndarray


def test_ops_and_a_backward_run_end_to_end_on_a_third_backend(fake_backend: None) -> None:
    rng = np.random.default_rng(0)
    x_np = rng.standard_normal((3, 4)).astype(np.float32)
    y_np = rng.standard_normal((4,)).astype(np.float32)
    x, y = fake(x_np, stop_gradient=False), fake(y_np)
    product = phi.multiply(x, y)
    out = phi.sum(phi.tanh(phi.add(product, x)))
    for tensor in (product, out):
        assert tensor.place == FAKE_PLACE
        assert type(tensor._impl.array) is FakeArray
    expected = np.tanh(x_np * y_np + x_np)
    np.testing.assert_allclose(out.numpy(), expected.sum(), rtol=1e-5)
    out.backward()
    assert x.grad.place == FAKE_PLACE and type(x.grad._impl.array) is FakeArray
    np.testing.assert_allclose(x.grad.numpy(), (1 - expected**2) * (y_np + 1), rtol=1e-5)


def test_mixed_inputs_run_on_the_backend_of_higher_priority(fake_backend: None) -> None:
    out = phi.add(fake(np.ones(2, np.float32)), phi.to_tensor(np.ones(2, np.float32)))
    assert out.place == FAKE_PLACE and out.numpy().tolist() == [2.0, 2.0]


def test_a_kernel_scatters_on_the_fake_backend(fake_backend: None) -> None:
    """embedding's backward sums repeated rows with the backend's scatter."""
    weight = fake(np.ones((4, 2), np.float32), stop_gradient=False)
    ids = fake(np.array([1, 1, 3], np.int64))
    phi.sum(phi.embedding(ids, weight)).backward()
    assert weight.grad.place == FAKE_PLACE
    assert weight.grad.numpy().tolist() == [[0, 0], [2, 2], [0, 0], [1, 1]]


def test_the_backends_registered_by_phiops_are_cpu_and_gpu() -> None:
    assert set(BACKENDS) == {Backend.CPU, Backend.GPU}


# --- the GPU backend's scatter, on a numpy stand-in that refuses what CuPy's kernels refuse ----

# cupy/_core/_routines_indexing.pyx: the dtypes CuPy's ufunc.at (cupyx.scatter_*) takes
CUPY_AT_DTYPES = {
    "add": {"int32", "uint32", "uint64", "float16", "float32", "float64"},
    "maximum": {"int32", "uint32", "uint64", "float32", "float64"},
    "minimum": {"int32", "uint32", "uint64", "float32", "float64"},
}


class DeviceArray(np.ndarray):
    """A stand-in for a CuPy array: ``get()`` copies it to the host."""

    def get(self) -> np.ndarray:
        return np.array(self.view(np.ndarray))


class _CupyLikeUfunc:
    def __init__(self, name: str) -> None:
        self.name = name

    def at(self, array: Any, indices: Any, values: Any) -> None:
        if array.dtype.name not in CUPY_AT_DTYPES.get(self.name, ()):
            raise TypeError(f"cupy.{self.name}.at does not support {array.dtype}")
        getattr(np, self.name).at(array.view(np.ndarray), indices, np.asarray(values))


class _CupyLike(types.ModuleType):
    def __init__(self) -> None:
        super().__init__("cupy_like")

    def __getattr__(self, name: str) -> Any:
        return _CupyLikeUfunc(name)

    @staticmethod
    def asarray(value: Any) -> DeviceArray:
        return np.array(value).view(DeviceArray)


@pytest.mark.parametrize("op", ["add", "multiply", "maximum", "minimum"])
@pytest.mark.parametrize(
    "dtype",
    ["bool", "int8", "uint8", "int16", "int32", "int64", "uint32", "float16", "float32",
     "float64", "complex64"],
)  # fmt: skip
def test_the_gpu_scatter_gives_numpys_results_with_only_what_cupy_supports(
    op: str, dtype: str
) -> None:
    """Repeated indices, a strided target (a moved axis, as gather_grad scatters into) and a
    tuple index: every dtype and op gives numpy's ``ufunc.at`` result, through CuPy's kernels
    where they take the dtype, a wider dtype, or the host."""
    rng = np.random.default_rng(1)
    base = (rng.standard_normal((3, 4)) * 4).astype(dtype)
    values = (rng.standard_normal((3, 3)) * 4).astype(dtype)
    rows, cols = np.array([1, 0, 1]), np.array([0, 2, 0])
    expected = base.copy()
    getattr(np, op).at(expected.T, rows, values)
    getattr(np, op).at(expected, (rows, cols), values[0])
    cupy_like = _CupyLike()
    got = cupy_like.asarray(base)
    backends._cupy_scatter(cupy_like, op, got.T, cupy_like.asarray(rows), values)
    backends._cupy_scatter(
        cupy_like, op, got, (cupy_like.asarray(rows), cupy_like.asarray(cols)), values[0]
    )
    np.testing.assert_array_equal(got.view(np.ndarray), expected)


def test_a_registered_backends_places_are_checked_by_its_device_count(fake_backend: None) -> None:
    check_place_available(FAKE_PLACE, "full")
    with pytest.raises(
        InvalidArgumentError,
        match=r"^full\(\): place custom:1 is not available on this machine; available: cpu, "
        r"custom:0$",
    ):
        check_place_available(Place(Backend.CUSTOM, 1), "full")
