"""``phiops kernels --coverage``: the report of which PaddlePaddle 3.3.1 ops phiops runs, and the
registry checks behind it (every op phiops specs runs, forward and backward)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pytest

import phiops.generated  # noqa: F401  (registers every op and kernel)
from phiops.runtime.common import Backend, DataType
from phiops.runtime.dispatch.op_def import op_defs
from phiops.runtime.kernels import KERNEL_FACTORY
from phiops.runtime.kernels.coverage import (
    COMMUNICATION_OPS,
    coverage,
    format_coverage,
    paddle_data,
    paddle_refusals,
)
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.kernel_factory import KernelFactory
from phiops.runtime.kernels.registration import register_kernel

D = DataType


def _factory() -> KernelFactory:
    """A factory of its own: foo for float32/float64, foo_grad for float32 only."""
    factory = KernelFactory()

    def kernel(ctx: KernelContext, x: Array) -> Array:  # pragma: no cover - never called
        return x

    register_kernel("foo", dtypes=(D.FLOAT32, D.FLOAT64), backends=["CPU"], factory=factory)(kernel)
    register_kernel("foo_grad", dtypes=(D.FLOAT32,), backends=["CPU"], factory=factory)(kernel)
    return factory


DATA = {
    "paddle": "3.3.1",
    "kernels": {
        "foo": ["float32", "float64", "int32", "float8_e5m2"],
        "foo_grad": ["float32", "float64"],
        "foo_double_grad": ["float32"],
        "bar": ["float32"],
        "gpu_only_op_grad": ["float32"],
    },
    "ops": {
        "foo": {
            "file": "ops.yaml",
            "kernels": ["foo", "foo_sr"],
            "backward": ["foo_grad", "foo_double_grad", "foo_composite_grad"],
        },
        "bar": {"file": "dygraph_ops.yaml", "kernels": ["bar"], "backward": []},
        "gpu_only_op": {"file": "ops.yaml", "kernels": ["gpu_only_op"], "backward": []},
        "c_allreduce_sum": {"file": "ops.yaml", "kernels": ["bar"], "backward": []},
        "ones": {"file": "ops.yaml", "kernels": [], "backward": []},
    },
    "backward_ops": {
        "foo_grad": ["foo_grad"],
        "foo_double_grad": ["foo_double_grad"],
        "foo_composite_grad": [],
    },
}


def test_scope_classification() -> None:
    report = coverage(_factory(), {"foo": "foo", "foo_grad": "foo_grad"}, DATA)
    scopes = {op.op: op.scope for op in report.ops}
    assert scopes == {
        "foo": "in",
        "bar": "in",
        "gpu_only_op": "no-cpu-kernel",
        "c_allreduce_sum": "communication",
        "ones": "composite",
    }


def test_forward_backward_and_dtypes() -> None:
    report = coverage(_factory(), {"foo": "foo", "foo_grad": "foo_grad"}, DATA)
    foo = next(op for op in report.ops if op.op == "foo")
    assert foo.runs
    # float8 is left out: numpy cannot hold it
    assert foo.paddle_dtypes == ("int32", "float32", "float64")
    assert foo.missing_dtypes == ("int32",)
    # the composite backward op has no kernel to run; the double grad is missing
    assert foo.backward == ("foo_grad", "foo_double_grad")
    assert foo.backward_runs == ("foo_grad",)
    assert foo.backward_missing_dtypes == {"foo_grad": ("float64",)}
    bar = next(op for op in report.ops if op.op == "bar")
    assert not bar.runs and bar.missing_dtypes == ()
    assert report.summary() == {
        "ops": 5,
        "ops_yaml": 4,
        "in_scope": 2,
        "in_scope_ops_yaml": 1,
        "forward_runs_ops_yaml": 1,
        "no_cpu_kernel": 1,
        "cpu_refuses": 0,
        "communication": 1,
        "composite": 1,
        "forward_runs": 1,
        "forward_all_dtypes": 0,
        "backward_ops": 2,
        "backward_runs": 1,
    }


def test_an_op_whose_cpu_kernel_refuses_is_out_of_scope() -> None:
    refusals = {"bar": {"error": "NotImplementedError", "message": "GPU only", "where": "x.cc:3"}}
    report = coverage(_factory(), {"foo": "foo"}, DATA, refusals)
    bar = next(op for op in report.ops if op.op == "bar")
    assert (bar.scope, bar.refusal) == ("cpu-refuses", "NotImplementedError: GPU only (x.cc:3)")
    assert [op.op for op in report.in_scope()] == ["foo"]
    assert report.summary()["cpu_refuses"] == 1
    assert "  bar: NotImplementedError: GPU only (x.cc:3)" in format_coverage(report).splitlines()
    # without refusals, bar is in scope (a recorded data set of one's own gets none by default)
    assert next(op for op in coverage(_factory(), {}, DATA).ops if op.op == "bar").scope == "in"


def test_recorded_refusals_are_registered_cpu_ops_phiops_lacks() -> None:
    """Each recorded refusal names an op PaddlePaddle 3.3.1 registers a CPU kernel for (else the
    record is stale) and that phiops does not spec (else it would be hidden from the report), and
    phiops' _C_ops function for it raises with PaddlePaddle's recorded error."""
    from phiops import _C_ops
    from phiops.runtime.errors import UnimplementedError

    data, refusals = paddle_data(), paddle_refusals()
    assert {"batch_fc", "rank_attention", "cudnn_lstm", "number_count"} <= set(refusals)
    ours = {op.name for op in op_defs()}
    for op, found in refusals.items():
        assert any(f in data["kernels"] for f in data["ops"][op]["kernels"]), op
        assert op not in ours, op
        assert found["message"] and found["error"] and found["call"].startswith(f"C.{op}("), op
        with pytest.raises(UnimplementedError, match=re.escape(found["message"])):
            getattr(_C_ops, op)()
    with pytest.raises(AttributeError, match="no attribute 'not_an_op'"):
        _C_ops.not_an_op  # noqa: B018


def test_paddle_C_ops_is_reachable_without_importing_it() -> None:
    import phiops as paddle

    assert paddle._C_ops.add is phiops.generated.api.add


def test_an_op_that_invokes_another_counts_as_running() -> None:
    report = coverage(_factory(), {"bar": None}, DATA)
    assert next(op for op in report.ops if op.op == "bar").runs


def test_a_spec_without_a_registered_kernel_does_not_run() -> None:
    report = coverage(_factory(), {"bar": "bar"}, DATA)
    assert not next(op for op in report.ops if op.op == "bar").runs


def test_recorded_data_is_paddles_3_3_1() -> None:
    data = paddle_data()
    assert data["paddle"] == "3.3.1"
    # figures of PaddlePaddle 3.3.1 itself, as the issue states them: 466 ops in ops.yaml
    assert sum(entry["file"] == "ops.yaml" for entry in data["ops"].values()) == 466
    assert data["ops"]["tanh"] == {
        "file": "ops.yaml",
        "kernels": ["tanh"],
        "backward": ["tanh_grad", "tanh_double_grad", "tanh_triple_grad"],
    }
    assert data["ops"]["adagrad_"]["kernels"] == ["adagrad", "adagrad_dense_param_sparse_grad"]
    assert "float32" in data["kernels"]["conv2d"]
    assert {"c_allreduce_sum", "all_gather"} <= COMMUNICATION_OPS


def _report():
    return coverage(KERNEL_FACTORY, {op.name: op.kernel for op in op_defs()})


def test_every_op_phiops_has_runs_in_the_report() -> None:
    """An op phiops specs (under PaddlePaddle's name) counts as running, forward and backward:
    a spec whose kernel is not registered fails here."""
    report = _report()
    ours = {op.name for op in op_defs()}
    for item in report.in_scope():
        if item.op in ours:
            assert item.runs, item.op
        assert set(item.backward) & ours <= set(item.backward_runs), item.op


def test_every_spec_op_has_a_cpu_kernel_and_infermeta() -> None:
    missing_kernel, missing_meta = [], []
    for op in op_defs():
        if op.kernel is None:  # invokes another op
            continue
        keys = KERNEL_FACTORY.kernels_of(op.kernel) if KERNEL_FACTORY.has_kernel(op.kernel) else {}
        if not any(key.backend is Backend.CPU for key in keys):
            missing_kernel.append(op.name)
        if op.infer_meta is None:
            missing_meta.append(op.name)
    assert (missing_kernel, missing_meta) == ([], [])


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "phiops", "kernels", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_prints_the_table_and_the_summary() -> None:
    result = _cli("--coverage")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["OP", "FORWARD", "BACKWARD", "MISSING", "DTYPES"]
    tanh = next(line for line in lines if line.split()[:1] == ["tanh"])
    assert tanh.split()[1] == "runs"
    summary = _report().summary()
    assert (
        f"phiops runs {summary['forward_runs']} of {summary['in_scope']} forward" in result.stdout
    )
    assert "out of scope, communication ops" in result.stdout
    assert "  batch_fc: NotImplementedError: (Unimplemented) BatchFC only supports GPU now." in (
        result.stdout
    )


def test_cli_json_and_missing() -> None:
    result = _cli("--coverage", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["summary"] == _report().summary()
    by_op = {item["op"]: item for item in data["ops"]}
    assert by_op["tanh"]["runs"] is True
    missing = _cli("--coverage", "--missing")
    assert missing.returncode == 0
    listed = {
        line.split()[0] for line in missing.stdout.splitlines()[1:] if line and line[0] != " "
    }
    complete = [
        item["op"]
        for item in data["ops"]
        if item["scope"] == "in"
        and item["runs"]
        and not item["missing_dtypes"]
        and item["backward_runs"] == item["backward"]
        and not item["backward_missing_dtypes"]
    ]
    assert complete and not set(complete) & listed


def test_missing_needs_coverage() -> None:
    result = _cli("--missing")
    assert result.returncode == 2
    assert "--missing goes with --coverage" in result.stderr


@pytest.mark.parametrize("dtype", ["bfloat16"])
def test_assign_value_and_sgd_take_bfloat16(dtype: str) -> None:
    """Two of the dtypes the coverage comparison asked for, run end to end."""
    import ml_dtypes

    from phiops import _C_ops

    out = _C_ops.assign_value([2], D.BFLOAT16, [1.5, 2.25], None)
    assert out.dtype == D.BFLOAT16
    np.testing.assert_array_equal(out.numpy().astype(np.float32), [1.5, 2.25])
    param = _C_ops.assign_value([2], D.BFLOAT16, [1.0, 2.0], None)
    grad = _C_ops.assign_value([2], D.BFLOAT16, [0.5, -0.5], None)
    lr = _C_ops.assign_value([1], D.FLOAT32, [0.5], None)
    new_param, _ = _C_ops.sgd_(param, lr, grad, None, False)
    assert new_param.numpy().dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(new_param.numpy().astype(np.float32), [0.75, 2.25])
