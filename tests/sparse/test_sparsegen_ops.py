"""The sparse ops come from their specs: every op of ops/sparse_ops.yaml is PaddlePaddle
3.3.1's entry verbatim, is registered in the sparse namespace with a kernel for each kind
combination its ``kernel.func`` names (and those kernels take those kinds), and runs on COO
and CSR inputs as numpy on the dense equivalent at the stored positions, its gradient as
central differences of the numpy function (float64, small shapes)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest
import yaml

import phiops as paddle
import phiops.sparse  # noqa: F401  (loads the generated sparse API)
from phiops.runtime.kernels import KERNEL_FACTORY
from phiops.runtime.sparse.registry import sparse_op_api, sparse_op_def
from phiops.runtime.tensor.kinds import TensorKind

from tests.sparse.sparse28_cases import CASES as SPARSE28_CASES

ROOT = Path(__file__).resolve().parents[2]
KINDS = {
    "dense": TensorKind.DENSE,
    "sparse_coo": TensorKind.SPARSE_COO,
    "sparse_csr": TensorKind.SPARSE_CSR,
}


def _entries(path: Path) -> dict[str, str]:
    """Each entry's text, by op name."""
    text = path.read_text(encoding="utf-8")
    parts = re.split(r"(?m)^(?=- (?:op|backward_op)\s*:)", text)
    return {
        re.match(r"- (?:op|backward_op)\s*:\s*(\S+)", part).group(1): part.rstrip("\n")
        for part in parts
        if re.match(r"- (?:op|backward_op)\s*:", part)
    }


FORWARD = _entries(ROOT / "ops/sparse_ops.yaml")
BACKWARD = _entries(ROOT / "ops/sparse_backward.yaml")
SPECS = {
    entry.get("op") or entry.get("backward_op"): entry
    for name in ("sparse_ops.yaml", "sparse_backward.yaml")
    for entry in yaml.safe_load((ROOT / "ops" / name).read_text(encoding="utf-8"))
}


@pytest.mark.parametrize(
    "ours, theirs",
    [(FORWARD, "sparse_ops.yaml"), (BACKWARD, "sparse_backward.yaml")],
    ids=["forward", "backward"],
)
def test_entries_are_paddles_verbatim(ours, theirs):
    paddle_entries = _entries(ROOT / "ops/paddle" / theirs)
    assert ours
    assert {name: paddle_entries.get(name) for name in ours} == ours


def _kernel_funcs(spec: dict) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """(name, input kinds, output kinds) of each kernel the spec's kernel.func lists."""
    found = re.findall(r"(\w+)\s*\{([^}]*)->([^}]*)\}", spec["kernel"]["func"])
    return [
        (name, tuple(k.strip() for k in ins.split(",")), tuple(k.strip() for k in outs.split(",")))
        for name, ins, outs in found
    ]


@pytest.mark.parametrize("name", sorted(SPECS))
def test_every_spec_op_is_registered_with_its_kernels_kinds(name):
    spec = SPECS[name]
    op = sparse_op_def(name)
    assert op.api is not None and op.api.__name__ == name
    assert op.backward == spec.get("backward")
    if "invoke" in spec:
        assert op.kernels == {}
        return
    funcs = _kernel_funcs(spec)
    assert funcs, spec["kernel"]["func"]
    assert op.kernel_names == {tuple(KINDS[k] for k in ins): kernel for kernel, ins, _ in funcs}
    for kernel, ins, outs in funcs:
        # registered under its first kind other than dense, inputs then outputs (kernel_kind)
        kind = next((k for k in (*ins, *outs) if k != "dense"), "dense")
        assert KERNEL_FACTORY.kinds_of(kernel) == [KINDS[kind]]
        for registered in KERNEL_FACTORY.kernels_of(kernel).values():
            args = registered.args_def
            assert [a.tensor_kind for a in args.inputs] == [KINDS[k] for k in ins], kernel
            assert [a.tensor_kind for a in args.outputs] == [KINDS[k] for k in outs], kernel


def test_phiops_kernels_lists_a_sparse_kernel(capsys):
    from phiops.runtime.kernels.__main__ import main

    assert main(["abs_coo"]) == 0
    out = capsys.readouterr().out
    assert "sparse_coo" in out.lower() or "SparseCoo" in out


# forward op -> (extra arguments, numpy function of the dense input, its derivative or None)
def _leaky(v: np.ndarray) -> np.ndarray:
    return np.where(v > 0, v, 0.2 * v)


REFERENCES: dict[str, tuple[tuple, Callable[[np.ndarray], np.ndarray], bool]] = {
    "abs": ((), np.abs, True),
    "asin": ((), np.arcsin, True),
    "asinh": ((), np.arcsinh, True),
    "atan": ((), np.arctan, True),
    "atanh": ((), np.arctanh, True),
    "cast": ((paddle.int32, paddle.float32), lambda v: v.astype("float32"), True),
    "expm1": ((), np.expm1, True),
    "isnan": ((), np.isnan, False),
    "leaky_relu": ((0.2,), _leaky, True),
    "log1p": ((), np.log1p, True),
    "pow": ((3.0,), lambda v: v**3, True),
    "relu": ((), lambda v: np.maximum(v, 0), True),
    "relu6": ((), lambda v: np.clip(v, 0, 6), True),
    "scale": ((2.0, 0.5, True), lambda v: 2.0 * v + 0.5, True),
    "sin": ((), np.sin, True),
    "sinh": ((), np.sinh, True),
    "sqrt": ((), np.sqrt, True),
    "square": ((), np.square, True),
    "tan": ((), np.tan, True),
    "tanh": ((), np.tanh, True),
}
# the ops defined for positive values only
_POSITIVE = {"sqrt", "log1p", "asin", "atanh"}


def test_every_forward_op_has_a_reference():
    # the unary ops here, the ops issue 28 moved onto the spec in sparse28_cases.py
    assert not set(REFERENCES) & set(SPARSE28_CASES)
    assert set(REFERENCES) | set(SPARSE28_CASES) == set(FORWARD)


def _input(name: str, kind: str, grad: bool) -> tuple[Any, np.ndarray]:
    rng = np.random.default_rng(7)
    dense = rng.uniform(0.1, 0.9, size=(3, 4)) if name in _POSITIVE else rng.uniform(-2, 2, (3, 4))
    dense = np.where(rng.random((3, 4)) < 0.5, dense, 0.0)
    dense[0, 0] = 0.5  # one stored entry at least
    tensor = paddle.to_tensor(dense)
    tensor = tensor.to_sparse_coo(2) if kind == "coo" else tensor.to_sparse_csr()
    tensor.stop_gradient = not grad
    return tensor, dense


@pytest.mark.parametrize("kind", ["coo", "csr"])
@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_every_forward_op_runs_as_its_dense_equivalent(name, kind):
    args, reference, differentiable = REFERENCES[name]
    x, dense = _input(name, kind, grad=False)
    out = sparse_op_api(name)(x, *args)
    assert out.is_sparse_coo() if kind == "coo" else out.is_sparse_csr()
    assert out.shape == [3, 4]
    stored = dense != 0
    got = out.to_dense().numpy()
    want = reference(dense)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got[stored], want[stored], rtol=1e-6)
    # the pattern is kept: the absent entries stay absent
    assert out.nnz() == x.nnz()


@pytest.mark.parametrize("name", sorted(n for n, r in REFERENCES.items() if r[2]))
def test_every_backward_op_gives_the_numeric_gradient(name):
    args, reference, _ = REFERENCES[name]
    if name == "cast":  # float64 values, to take central differences of
        args, reference = (paddle.int32, paddle.float64), lambda v: v
    kind = "csr" if name in ("sin", "relu", "cast", "scale") else "coo"
    x, dense = _input(name, kind, grad=True)
    out = sparse_op_api(name)(x, *args)
    weights = np.linspace(0.5, 1.5, 12).reshape(3, 4)
    seed = weights.astype(out.to_dense().numpy().dtype) * (dense != 0)
    grad = paddle.to_tensor(seed)
    grad = grad.to_sparse_coo(2) if kind == "coo" else grad.to_sparse_csr()
    out.backward(grad)
    stored = dense != 0
    eps = 1e-6
    at = dense[stored]
    numeric = (reference(at + eps) - reference(at - eps)) / (2 * eps)
    got = x.grad.to_dense().numpy()
    np.testing.assert_allclose(got[stored], weights[stored] * numeric, rtol=1e-4, atol=1e-6)
