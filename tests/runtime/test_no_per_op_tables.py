"""No per-op table in the hand-written runtime: facts about single ops live in the specs
(ops/*.yaml, ops/op_traits.yaml) and reach the runtime through the generated registry.

A per-op table is a dict, set, list, tuple or frozenset literal (an ``in (...)`` comparison
included) that holds three or more string constants naming registered ops (``pd_op.<op>``
counts too); ``__all__`` lists are exports, not tables. The op names come from the registry."""

from __future__ import annotations

import ast
from pathlib import Path

import phiops.generated  # noqa: F401  (registers the ops)
from phiops.runtime.dispatch.op_def import OP_DEFS

RUNTIME = Path(__file__).resolve().parents[2] / "runtime"

# Collections that name ops without being facts about them, each with its reason, by file name
# (so that moving a module between layers keeps its entry); a new collection, or one of these
# naming other ops, fails the test.
ALLOWED = {
    # the ops the indexing operators call: installed only where the generated API has them all
    ("tensor.py", ("gather_nd", "index_put", "index_select", "slice", "strided_slice")),
    # hand-written Tensor methods, keyed by method name, some of which are also op names
    # (expand_as is an op since issue 24's manip24 family)
    (
        "tensor_basics.py",
        (
            "argsort",
            "expand_as",
            "flatten",
            "logit",
            "logsumexp",
            "prod",
            "slice",
            "softmax",
            "unique",
        ),
    ),
    # the values of put_along_axis's `reduce` attribute, which happen to spell op names
    # (amax and amin are ops since issue 24's search24 family)
    ("gather_scatter_kernel.py", ("add", "amax", "amin", "assign", "mean", "multiply")),
    # and the numpy/CuPy ufunc each `reduce` value scatters with
    ("gather_scatter_kernel.py", ("add", "amax", "amin", "maximum", "minimum", "multiply")),
    # the value function PHI's elementwise sparse kernels apply at each position (its functors),
    # keyed by the kernel's own op: one kernel module shared by the four sparse binary ops
    ("sparse_binary_kernel.py", ("add", "divide", "multiply", "subtract")),
    # CuPy's scatter ufuncs (add.at, maximum.at, minimum.at) and the dtypes they take
    ("backends.py", ("add", "maximum", "minimum")),
    # the legacy op types whose translation to PIR is written by hand (PaddlePaddle's special
    # op translators), keyed by the legacy type, some of which spell phiops op names
    # (increment is an op since issue 24's basic24 family)
    ("translate.py", ("assign", "batch_norm", "increment", "matmul", "rnn")),
    ("translate.py", ("assign", "increment", "matmul")),
    # the pd_op ops of PaddlePaddle 3.3.1's programs the loader lowers to other ops; increment,
    # increment_ and assign_out_ are ops since issue 24's basic24 family; runtime/compat/ (not
    # that family's) still lowers them to scale and assign, as before
    ("lowering.py", ("assign_out_", "full_with_tensor", "increment")),
    # calculate_gain's nonlinearity names (PaddlePaddle's table of recommended gains), some of
    # which spell op names
    ("initializer.py", ("relu", "selu", "tanh")),
    # the lstm/gru ops' activation attribute values (PHI's GetActivationType), which happen to
    # spell op names
    ("lstm24.py", ("relu", "sigmoid", "tanh")),
    # attention_lstm's activation attribute values (PHI's VecActivations names), likewise
    ("lodops24.py", ("relu", "sigmoid", "tanh")),
    # gru_unit's activation attribute codes (0-3), whose names happen to spell op names
    ("legacy24.py", ("relu", "sigmoid", "tanh")),
    # the sparse unary kernels' own code (PHI's one-functor-per-op macros of
    # sparse/cpu/unary_kernel.cc): the function of the stored values each kernel applies, its
    # derivative, and the kernels PHI registers for real values only (issue 28, sparsegen)
    (
        "sparse_unary_kernel.py",
        (
            "abs", "asin", "asinh", "atan", "atanh", "expm1", "log1p", "relu", "relu6", "sin",
            "sinh", "sqrt", "square", "tan", "tanh",
        ),
    ),  # fmt: skip
    ("sparse_unary_kernel.py", ("relu", "relu6", "sqrt")),
    (
        "sparse_unary_grad_kernel.py",
        ("abs", "asin", "asinh", "atan", "atanh", "log1p", "sin", "sinh", "square", "tan"),
    ),
    ("sparse_unary_grad_kernel.py", ("expm1", "relu", "relu6", "sqrt", "tanh")),
}


def _op_name(node: ast.AST, ops: frozenset[str]) -> str | None:
    if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
        return None
    name = node.value.removeprefix("pd_op.")
    return name if name in ops else None


def _is_export_list(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    parent = parents.get(node)
    return isinstance(parent, (ast.Assign, ast.AnnAssign)) and any(
        isinstance(t, ast.Name) and t.id == "__all__"
        for t in (parent.targets if isinstance(parent, ast.Assign) else [parent.target])
    )


def per_op_tables(source: str, ops: frozenset[str]) -> list[tuple[int, tuple[str, ...]]]:
    """(line, sorted op names) of every per-op table in ``source``."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items = list(node.elts)
        elif isinstance(node, ast.Dict):
            items = [k for k in node.keys if k is not None] + list(node.values)
        else:
            continue
        names = [name for name in (_op_name(item, ops) for item in items) if name is not None]
        if len(names) >= 3 and not _is_export_list(node, parents):
            found.append((node.lineno, tuple(sorted(set(names)))))
    return found


def test_the_detector_flags_a_per_op_table() -> None:
    ops = frozenset(OP_DEFS)
    source = (
        "PROMOTING = {'add': ('x', 'y'), 'subtract': ('x', 'y'), 'multiply': ('x', 'y')}\n"
        "if op in ('exp', 'log', 'pd_op.sqrt'):\n    pass\n"
        "KINDS = frozenset(('add', 'multiply', 'mean'))\n"
        "__all__ = ['add', 'subtract', 'multiply']\n"
        "SMALL = ('stack', 'add_n')\n"
    )
    assert per_op_tables(source, ops) == [
        (1, ("add", "multiply", "subtract")),
        (2, ("exp", "log", "sqrt")),
        (4, ("add", "mean", "multiply")),
    ]


def test_no_per_op_table_in_the_hand_written_runtime() -> None:
    ops = frozenset(OP_DEFS)
    assert len(ops) > 100  # the registry is loaded
    found = []
    for path in sorted(RUNTIME.rglob("*.py")):
        relative = path.relative_to(RUNTIME).as_posix()
        for line, names in per_op_tables(path.read_text(encoding="utf-8"), ops):
            if (path.name, names) not in ALLOWED:
                found.append(f"runtime/{relative}:{line}: {', '.join(names)}")
    assert found == [], (
        "per-op tables in the hand-written runtime (put the facts in ops/op_traits.yaml, "
        "docs/op_traits.md):\n" + "\n".join(found)
    )
