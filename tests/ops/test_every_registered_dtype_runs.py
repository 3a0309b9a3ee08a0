"""Every (op, dtype) the kernel registry claims on CPU runs once: a registration without a
working kernel cannot hide. The call is test_bad_argument_sweep's baseline (a working call per
op) with its float32 data tensors, and its float32 dtype attribute, turned into the dtype; the
dispatcher checks the kernel's result against InferMeta's dtype and shape."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

import phiops.generated as phi
from phiops.generated.registry import OPS
from phiops.runtime.common import Backend, DataType
from phiops.runtime.dispatch.dispatcher import clear_dispatch_caches
from phiops.runtime.kernels import KERNEL_FACTORY
from tests.runtime.test_bad_argument_sweep import _baseline, _selected_rows

# (op, dtype) pairs no API call reaches, with the reason (each is tested another way).
CANNOT_CARRY: dict[tuple[str, str], str] = {
    ("divide", "int32"): "integer divides compute in float32 (test_elementwise runs the kernel)",
    ("divide", "int64"): "integer divides compute in float32 (test_elementwise runs the kernel)",
    ("divide", "int16"): "integer divides compute in float32 (test_elementwise runs the kernel)",
    ("divide", "int8"): "integer divides compute in float32 (test_elementwise runs the kernel)",
    ("divide", "uint8"): "integer divides compute in float32 (test_elementwise runs the kernel)",
    **{
        (op, dtype): "integer inputs compute in float32 (op_traits float_math); "
        "tests/ops/test_dtype24.py runs the kernel"
        for op in ("exp", "expm1", "log", "log10", "log1p", "log2")
        for dtype in ("int32", "int64")
    },
    ("bincount", "float32"): "x holds integers; float kernels take float weights (test_search24)",
    ("bincount", "float64"): "x holds integers; float kernels take float weights (test_search24)",
    **{
        (op, dtype): "the float32 scale or table beside the integer codes would turn integer "
        "(tests/ops/test_quant24.py runs each dtype)"
        for op, dtype in (("dequantize_abs_max", "int8"), ("dequantize_abs_max", "int16"))
        + (("dequantize_log", "int8"),)
    },

    ("gather_tree", "int32"): "parents must have ids' dtype; the baseline's stay int64 (test_seq24)",
    ("reindex_graph", "int32"): "neighbors must have x's dtype; the baseline's stay int64 (test_graph24)",
    **{
        (op, "int32"): "the baseline's node ids stay int64 (tests/ops/test_sample24.py runs each dtype)"
        for op in ("graph_sample_neighbors", "weighted_sample_neighbors", "graph_khop_sampler")
        + ("tdm_child", "tdm_sampler")
    },
    **{
        (op, dtype): "PaddlePaddle registers float kernels that refuse float ids, as phiops "
        "(tests/ops/test_sample24.py checks the error)"
        for op in ("tdm_child", "tdm_sampler")
        for dtype in ("float32", "float64")
    },
    ("weighted_sample_neighbors", "int64"): "edge_weight must stay float32 and the baseline's "
    "would turn int64 (tests/ops/test_sample24.py runs each dtype)",
    ("ctc_align", "int32"): "input_length must have input's dtype; the baseline's stays int64 (test_seq24)",
    ("chunk_eval", "int64"): "data_type float32 selects the float32 kernel, as PaddlePaddle's (test_seq24)",
    ("fused_softmax_mask", "float64"): "its float mask keeps the baseline's float32 (test_seq24)",
    **{
        ("update_loss_scaling_", dtype): "found_infinite must stay bool, and the baseline's "
        "would turn float (tests/ops/test_train24.py runs each dtype)"
        for dtype in ("float32", "float64")
    },
    **{
        ("p_recv", dtype): "p_recv needs a p_send first (tests/ops/test_dist30_ops.py runs each)"
        for dtype in ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32")
        + ("float64",)
    },
}


def _registered() -> dict[str, list[DataType]]:
    """op -> the dtypes its kernel is registered for on CPU (ops with a per-dtype kernel)."""
    table = {}
    for op in sorted(OPS):
        if not hasattr(phi, op) or not KERNEL_FACTORY.has_kernel(OPS[op].info.kernel):
            continue
        dtypes = {
            key.dtype
            for key in KERNEL_FACTORY.kernels_of(OPS[op].info.kernel)
            if key.backend is Backend.CPU and key.dtype is not DataType.ALL_DTYPE
        }
        if dtypes:
            table[op] = sorted(dtypes)
    return table


REGISTERED = _registered()


# Tensor parameters that hold indices or masks: they keep the baseline's dtype.
INDEX_PARAMETERS = {"index", "indices", "ids", "mask", "condition", "label", "seed_tensor"}


def _in_dtype(op: str, parameter: inspect.Parameter, value: Any, dtype: DataType) -> Any:
    """The baseline argument for ``parameter`` carrying ``dtype``: data tensors converted (not
    indices or masks, nor an integer tensor beside the op's ``kernel.data_type`` argument, such
    as embedding's ids), dtype attributes set where ``kernel.data_type`` names them."""
    key_arguments = {name.removeprefix("complex:") for name in OPS[op].info.data_type}
    if parameter.name in INDEX_PARAMETERS and parameter.name not in key_arguments:
        return value
    if isinstance(value, phi.Tensor) and value.is_selected_rows():  # merge_selected_rows's x
        return _selected_rows(dtype.name.lower())
    if isinstance(value, phi.Tensor):
        if key_arguments and parameter.name not in key_arguments and value.dtype.is_integer:
            return value
        return phi.to_tensor(value.numpy().astype(dtype.numpy_dtype))
    if isinstance(value, list) and value and isinstance(value[0], phi.Tensor):
        return [phi.to_tensor(item.numpy().astype(dtype.numpy_dtype)) for item in value]
    if "DataTypeLike" in str(parameter.annotation) and parameter.name in key_arguments:
        return dtype
    return value


@pytest.mark.parametrize("op", sorted(REGISTERED))
def test_every_registered_dtype_runs(op: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each registered dtype's kernel is the one selected (recorded at planning time, with the
    plan caches emptied) and it runs."""
    function = getattr(phi, op)
    kernel_name = OPS[op].info.kernel
    selected: list[DataType] = []
    select = KERNEL_FACTORY.select

    def recording_select(name: str, key: Any, **options: Any) -> Any:
        kernel = select(name, key, **options)
        if name == kernel_name:
            selected.append(kernel.key.dtype)
        return kernel

    monkeypatch.setattr(KERNEL_FACTORY, "select", recording_select)
    failures = []
    for dtype in REGISTERED[op]:
        if (op, dtype.name.lower()) in CANNOT_CARRY:
            continue
        clear_dispatch_caches()
        selected.clear()
        parameters = inspect.signature(function).parameters.values()
        arguments = [
            _in_dtype(op, parameter, value, dtype)
            for parameter, value in zip(parameters, _baseline(function))
        ]
        try:
            with np.errstate(all="ignore"):
                function(*arguments)
        except Exception as error:  # noqa: BLE001 - every failure is reported below
            failures.append(f"{op}[{dtype.name.lower()}]: {type(error).__name__}: {error}")
            continue
        if dtype not in selected:
            failures.append(f"{op}[{dtype.name.lower()}]: the call selected {selected}")
    clear_dispatch_caches()
    assert not failures, "\n".join(failures)

# the lod24 ops of issue 24 read x's LoD, which the conversion to each dtype (a new array) drops
CANNOT_CARRY.update(
    {
        (op, dtype): "x's LoD stays with the baseline's array (tests/ops/test_lod24.py runs each dtype)"
        for op in ("sequence_pool", "sequence_conv")
        for dtype in ("float32", "float64")
    }
)

# the lstm24 ops of issue 24 read input's LoD, which the conversion to each dtype drops
CANNOT_CARRY.update(
    {
        (op, dtype): "input's LoD stays with the baseline's array (tests/ops/test_lstm24.py runs each dtype)"
        for op in ("lstm", "gru")
        for dtype in ("float32", "float64")
    }
)

# the lodops24 ops of issue 24 read their inputs' LoD, which the conversion to each dtype drops
CANNOT_CARRY.update(
    {
        (op, dtype): "the inputs' LoD stays with the baseline's arrays (tests/ops/test_lodops24.py runs each dtype)"
        for op, dtypes in (
            ("match_matrix_tensor", ("float32",)),
            ("pyramid_hash", ("float32", "int8")),
            ("attention_lstm", ("float32", "float64")),
            ("beam_search", ("float32", "float64", "int32", "int64")),
        )
        for dtype in dtypes
    }
)
