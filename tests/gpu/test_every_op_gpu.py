"""Every registered op on the GPU gives what it gives on the CPU. Skipped without a GPU.

One test per op with a Python API (every other registered op is the backward of one of them,
which ``test_every_registered_op_is_reached`` checks): for each dtype its kernel is registered for
on CPU, the working call of the bad-argument sweep (tests/runtime/test_bad_argument_sweep.py)
carrying that dtype, as tests/ops/test_every_registered_dtype_runs.py builds it, runs on the CPU
and again with every tensor (and the ``place`` attribute) on gpu:0; the outputs must agree within
the tolerance the CPU op tests use (tests/ops/op_testing.py), exactly for integers and bools.
Where the op has a backward and the dtype is float32 or float64, the gradients of its floating
outputs (with fixed random output gradients) with respect to its floating inputs are compared the
same way, and where that backward has a backward too, the second-order gradients (and so on up
the chain of backwards). A call that raises (on either device) fails; every call here works on
the CPU. A failure names the op, the dtype, forward or backward (and the backward ops), and the
output; all of an op's failures are
reported together.

The logic was checked on a machine without a GPU by registering, for the run only, a
numpy-wrapping module as the GPU backend (as tests/runtime/test_backend_registry.py registers its
fake backend): every op agreed, and a deliberately wrong exp or tanh was reported.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

import numpy as np
import pytest

import phiops.generated as phi
from phiops.generated.registry import OPS
from phiops.runtime.common import DataType
from phiops.runtime.dispatch.dispatcher import clear_dispatch_caches
from tests.ops.op_testing import tolerance
from tests.ops.test_every_registered_dtype_runs import CANNOT_CARRY, REGISTERED, _in_dtype
from tests.runtime.test_bad_argument_sweep import _baseline

pytestmark = pytest.mark.gpu

FORWARD_OPS = sorted(op for op in OPS if hasattr(phi, op))

# dtypes a GPU array cannot have, with the reason
NO_GPU_ARRAYS = {DataType.BFLOAT16: "CuPy has no bfloat16 arrays"}

# Ops whose values are not expected to agree, with the reason: only dtypes, shapes and the
# outputs' presence are compared.
VALUES_DIFFER = {
    "empty": "uninitialized memory",
    "empty_like": "uninitialized memory",
    "bernoulli": "random: the GPU draws from its own generator",
    "dropout": "random: the GPU draws its own mask",
    "gaussian": "random: the GPU draws from its own generator",
    "randint": "random: the GPU draws from its own generator",
    "randperm": "random: the GPU draws from its own generator",
    "uniform": "random: the GPU draws from its own generator",
}

# Index tensors made distinct where the baseline's repeated index meets an assignment: which
# write wins is unspecified on a GPU (PaddlePaddle's GPU kernels say so too).
DISTINCT_INDICES = {
    "scatter": {"index": [1, 0]},
    "put_along_axis": {"indices": [[0, 1, 0], [1, 0, 1]]},
}

BACKWARD_DTYPES = (DataType.FLOAT32, DataType.FLOAT64)


def _dtypes(op: str) -> list[DataType | None]:
    """The dtypes to run ``op`` in; [None] (the baseline call as it is) for an op whose kernel
    is not registered per dtype."""
    return list(REGISTERED.get(op, [None]))


# Ops whose bool data stays all True: a False divisor is an error on both devices.
DIVIDING = {"divide", "floor_divide", "remainder"}

# Ops whose floating data are probabilities (refused outside [0, 1], as PaddlePaddle does).
PROBABILITIES = {"bernoulli", "bce_loss"}

# Ops whose data of these numpy kinds stay the baseline's (all ones), with the reason.
KEEP_BASELINE = {
    "accuracy_check": ("fiucb", "it checks that x equals y"),
    "warpctc": ("iu", "labels are class ids below the logits' class count"),
    "send_u_recv": ("iu", "indices are node ids below the node count"),
    "send_ue_recv": ("iu", "indices are node ids below the node count"),
    "send_uv": ("iu", "indices are node ids below the node count"),
}

# Inputs sorted before the call, where the op reads them as sorted.
SORTED = {"searchsorted": "sorted_sequence"}

# Ops that compute in float32 whatever their output dtype, as PHI's CPU kernels do: the GPU's
# float32 math library rounds its last bit differently, so float32's tolerance applies.
COMPUTE_IN_FLOAT32 = {
    "atan2": "integer inputs: atan2f, returned as float64",
    "lp_pool2d": "powf of each element and of the sum",
}

# Ops whose outputs are compared by magnitude: a singular vector's sign is the solver's choice
# (LAPACK on the CPU, cuSOLVER on the GPU), and the gradients through it follow that choice, so
# only their dtypes and shapes are compared.
SIGN_FREE = {"svd"}

# Ops whose backward's own backward is not run here, with the reason.
NO_DOUBLE_GRAD = {
    "pool2d": "the baseline pools 'max', and pool2d_double_grad is for 'avg' only (as 3.3.1's)",
}


def _data(op: str, array: np.ndarray, seed: int) -> np.ndarray:
    """Sample data in place of the baseline's all-ones data tensors, so that results depend on
    every element: floats in [0.5, 2) ([0, 1) for PROBABILITIES), distinct integers, random
    bools (but for DIVIDING)."""
    rng = np.random.default_rng(seed)
    kind = array.dtype.kind
    if kind == "b" and op in DIVIDING:
        return array
    if kind in KEEP_BASELINE.get(op, ("", ""))[0]:
        return array
    if kind == "b":
        return rng.integers(0, 2, size=array.shape).astype(array.dtype)
    if kind in "iu":
        top = min(np.iinfo(array.dtype).max, 100)
        return (rng.permutation(array.size) % top + 1).reshape(array.shape).astype(array.dtype)
    if op in PROBABILITIES:
        return rng.uniform(0.0, 1.0, size=array.shape).astype(array.dtype)
    values = rng.uniform(0.5, 2.0, size=array.shape)
    if kind == "c":
        values = values + 1j * rng.uniform(0.5, 2.0, size=array.shape)
    return values.astype(array.dtype)


def _cpu_arguments(op: str, dtype: DataType | None, requires_grad: bool) -> list[Any]:
    """The op's working call in ``dtype``, on the CPU; with ``requires_grad`` its floating data
    tensors need gradients."""
    function = getattr(phi, op)
    parameters = list(inspect.signature(function).parameters.values())
    arguments = _baseline(function)
    if dtype is not None:
        arguments = [_in_dtype(op, p, v, dtype) for p, v in zip(parameters, arguments)]
    seed = iter(range(1000))

    def prepare(tensor: phi.Tensor) -> phi.Tensor:
        if _selected_rows(tensor) is not None:
            return tensor  # merge_selected_rows's SelectedRows, as the baseline makes it
        array = tensor.numpy()
        if array.size and np.all(array == 1):
            array = _data(op, array, next(seed))
        wants_grad = requires_grad and array.dtype.kind in "fc"
        return phi.to_tensor(array, place="cpu", stop_gradient=not wants_grad)

    prepared = []
    distinct = DISTINCT_INDICES.get(op, {})
    for parameter, value in zip(parameters, arguments):
        if parameter.name in distinct:
            value = phi.to_tensor(np.array(distinct[parameter.name], np.int64), place="cpu")
        elif isinstance(value, phi.Tensor):
            value = prepare(value)
            if SORTED.get(op) == parameter.name:
                value = phi.to_tensor(
                    np.sort(value.numpy(), axis=-1), place="cpu", stop_gradient=value.stop_gradient
                )
        elif isinstance(value, list) and value and isinstance(value[0], phi.Tensor):
            value = [prepare(item) for item in value]
        elif parameter.name == "place":
            value = "cpu"
        prepared.append(value)
    return prepared


def _on_gpu(arguments: list[Any], parameters: list[inspect.Parameter]) -> list[Any]:
    """The same arguments with every tensor copied to gpu:0 and the place attribute gpu:0."""

    def move(tensor: phi.Tensor) -> phi.Tensor:
        storage = _selected_rows(tensor)
        if storage is not None:  # its rows and value arrays on the GPU, as one SelectedRows
            from phiops.runtime.backends import to_backend
            from phiops.runtime.common import Backend, Place
            from phiops.runtime.eager.tensor import wrap_array
            from phiops.runtime.tensor.selected_rows import SelectedRows

            gpu = Place(Backend.GPU, 0)
            moved = SelectedRows(
                to_backend(storage.rows, gpu),
                storage.height,
                to_backend(storage.value.array, gpu),
            )
            return wrap_array(moved, moved.meta)
        return phi.to_tensor(tensor.numpy(), place="gpu", stop_gradient=tensor.stop_gradient)

    moved = []
    for parameter, value in zip(parameters, arguments):
        if isinstance(value, phi.Tensor):
            value = move(value)
        elif isinstance(value, list) and value and isinstance(value[0], phi.Tensor):
            value = [move(item) for item in value]
        elif parameter.name == "place":
            value = "gpu"
        moved.append(value)
    return moved


def _selected_rows(tensor: phi.Tensor) -> Any:
    """The SelectedRows a tensor holds, or None for a dense one."""
    from phiops.runtime.tensor.selected_rows import SelectedRows

    storage = tensor._impl.array if hasattr(tensor, "_impl") else None
    return storage if isinstance(storage, SelectedRows) else None


def _flat(result: Any) -> list[Any]:
    if isinstance(result, (tuple, list)):
        return [item for part in result for item in _flat(part)]
    return [result]


def _tensors(arguments: list[Any]) -> list[phi.Tensor]:
    found = []
    for value in arguments:
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, phi.Tensor):
                found.append(item)
    return found


def _compare(
    where: str, cpu: list[Any], gpu: list[Any], values: bool, op: str = "", magnitude: bool = False
) -> list[str]:
    """Mismatches between the CPU's and the GPU's outputs, each naming ``where`` and the output;
    with ``magnitude``, of their absolute values."""
    if len(cpu) != len(gpu):
        return [f"{where}: {len(gpu)} outputs on the GPU, {len(cpu)} on the CPU"]
    failures = []
    for position, (c, g) in enumerate(zip(cpu, gpu)):
        name = f"{where} output {position}"
        if c is None or g is None:
            if c is not g:
                failures.append(
                    f"{name}: {'None' if g is None else 'a tensor'} on the GPU, "
                    f"{'None' if c is None else 'a tensor'} on the CPU"
                )
            continue
        if c.dtype is not g.dtype or tuple(c.shape) != tuple(g.shape):
            failures.append(
                f"{name}: GPU {g.dtype.name.lower()} {list(g.shape)}, CPU "
                f"{c.dtype.name.lower()} {list(c.shape)}"
            )
            continue
        if not values:
            continue
        expected, got = c.numpy(), g.numpy()
        if magnitude:
            expected, got = np.abs(expected), np.abs(got)
        precision = DataType.FLOAT32 if op in COMPUTE_IN_FLOAT32 else c.dtype
        try:
            if c.dtype.is_floating_point or c.dtype.is_complex:
                np.testing.assert_allclose(got, expected, **tolerance(precision))
            else:
                np.testing.assert_array_equal(got, expected)
        except AssertionError as error:
            failures.append(f"{name} differs from the CPU's:{error}")
    return failures


def _run(call: Callable[[], Any]) -> tuple[Any, BaseException | None]:
    try:
        with np.errstate(all="ignore"):
            return call(), None
    except Exception as error:  # noqa: BLE001 - reported with the op and dtype
        return None, error


def _raised(
    where: str, cpu: tuple[Any, BaseException | None], gpu: tuple[Any, BaseException | None]
) -> list[str]:
    """A failure for each device whose call raised (every call here works on the CPU)."""
    return [
        f"{where}: the {device} raised {type(error).__name__}: {error}"
        for device, (_, error) in (("CPU", cpu), ("GPU", gpu))
        if error is not None
    ]


def _forward(op: str, dtype: DataType | None) -> list[str]:
    function = getattr(phi, op)
    parameters = list(inspect.signature(function).parameters.values())
    where = f"{op}[{'baseline' if dtype is None else dtype.name.lower()}] forward"
    cpu_arguments = _cpu_arguments(op, dtype, requires_grad=False)
    gpu_arguments = _on_gpu(cpu_arguments, parameters)
    cpu = _run(lambda: function(*cpu_arguments))
    gpu = _run(lambda: function(*gpu_arguments))
    raised = _raised(where, cpu, gpu)
    if raised:
        return raised
    return _compare(
        where,
        _flat(cpu[0]),
        _flat(gpu[0]),
        values=op not in VALUES_DIFFER,
        op=op,
        magnitude=op in SIGN_FREE,
    )


def _differentiable(tensors: list[Any]) -> list[phi.Tensor]:
    return [
        t
        for t in tensors
        if isinstance(t, phi.Tensor) and not t.stop_gradient and t.dtype.is_floating_point
    ]


def _grad(outputs: list[phi.Tensor], inputs: list[phi.Tensor], seed: int, **options: Any) -> Any:
    """The gradients of ``outputs`` (with output gradients drawn from ``seed``) with respect to
    ``inputs``, None where one is unused."""
    rng = np.random.default_rng(seed)
    grad_outputs = [
        phi.to_tensor(
            rng.uniform(-1, 1, size=tuple(t.shape)).astype(t.dtype.numpy_dtype), place=t.place
        )
        for t in outputs
    ]
    return phi.grad(outputs, inputs, grad_outputs, allow_unused=True, **options)


def _graded_outputs(op: str, result: Any) -> list[Any]:
    """The op's outputs whose gradient its backward op takes (``<output>_grad``)."""
    names = [output.name for output in OPS[op].outputs]
    results = list(result) if isinstance(result, tuple) else [result]
    if len(results) != len(names):
        return _flat(result)
    taken = {spec.name for spec in OPS[OPS[op].backward].inputs}
    return _flat([r for name, r in zip(names, results) if f"{name}_grad" in taken])


def _backward_chain(op: str) -> list[str]:
    """The op's backward, that op's backward, and so on (the orders of gradient run here)."""
    chain = []
    current = OPS[op].backward
    while current:
        chain.append(current)
        if op in NO_DOUBLE_GRAD:
            break
        current = OPS[current].backward
    return chain


def _gradients(op: str, arguments: list[Any], orders: int) -> list[Any]:
    """The gradients of the op's floating outputs with respect to every input that needs one;
    for ``orders`` above 1, then the gradients of those gradients (the backward op's own
    backward), and so on: every order's gradients, first to last."""
    inputs = _differentiable(_tensors(arguments))
    outputs = _differentiable(_graded_outputs(op, getattr(phi, op)(*arguments)))
    if not inputs or not outputs:
        return []
    found: list[Any] = []
    for order in range(1, orders + 1):
        grads = list(_grad(outputs, inputs, 6 + order, create_graph=order < orders))
        found += grads
        outputs = _differentiable(grads)
        if not outputs:
            break
    return found


def _backward(op: str, dtype: DataType) -> list[str]:
    function = getattr(phi, op)
    parameters = list(inspect.signature(function).parameters.values())
    chain = _backward_chain(op)
    where = f"{op}[{dtype.name.lower()}] backward ({', '.join(chain)})"
    cpu_arguments = _cpu_arguments(op, dtype, requires_grad=True)
    gpu_arguments = _on_gpu(cpu_arguments, parameters)
    cpu = _run(lambda: _gradients(op, cpu_arguments, len(chain)))
    gpu = _run(lambda: _gradients(op, gpu_arguments, len(chain)))
    raised = _raised(where, cpu, gpu)
    if raised:
        return raised
    return _compare(
        where,
        list(cpu[0]),
        list(gpu[0]),
        values=op not in VALUES_DIFFER and op not in SIGN_FREE,
        op=op,
    )


@pytest.mark.parametrize("op", FORWARD_OPS)
def test_op_on_the_gpu_matches_the_cpu(op: str) -> None:
    failures = []
    # enable_check_model_nan_inf's baseline call turns FLAGS_check_nan_inf on, as PaddlePaddle's
    # does: the flags are put back after each op, so that no later op's test runs under it
    flags = phi.get_flags(["check_nan_inf"])
    try:
        for dtype in _dtypes(op):
            if dtype is not None and (op, dtype.name.lower()) in CANNOT_CARRY:
                continue
            if dtype in NO_GPU_ARRAYS:
                continue
            clear_dispatch_caches()
            failures += _forward(op, dtype)
            if OPS[op].backward and dtype in BACKWARD_DTYPES:
                failures += _backward(op, dtype)
    finally:
        phi.set_flags(flags)
        clear_dispatch_caches()
    assert not failures, "\n".join(failures)


def test_every_registered_op_is_reached() -> None:
    """Every op in the registry is a forward op tested above or in the chain of backwards that
    its test runs (through gradients of gradients)."""
    reached = {backward for op in FORWARD_OPS for backward in _backward_chain(op)}
    skipped = {
        OPS[OPS[op].backward].backward for op in NO_DOUBLE_GRAD if OPS[OPS[op].backward].backward
    }
    assert sorted(set(OPS) - set(FORWARD_OPS) - reached - skipped) == []

# the random24 ops of issue 24
VALUES_DIFFER.update(
    {
        op: "random: the GPU draws from its own generator"
        for op in (
            "binomial",
            "dirichlet",
            "exponential_",
            "gaussian_inplace",
            "gumbel_softmax",
            "multinomial",
            "poisson",
            "shuffle_batch",
            "standard_gamma",
            "truncated_gaussian_random",
            "uniform_inplace",
            "uniform_random_batch_size_like",
        )
    }
)
