"""``phiops kernels`` lists what is registered."""

from __future__ import annotations

import json
import subprocess
import sys


def run(*args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "phiops.runtime.kernels", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_table_has_a_row_per_kernel_and_backend() -> None:
    lines = run().splitlines()
    assert lines[0].split() == ["KERNEL", "BACKEND", "LAYOUT", "DTYPES"]
    softmax = [line for line in lines if line.startswith("softmax ")]
    assert len(softmax) == 1
    assert softmax[0].split()[1:] == ["CPU", "any", "float32,", "float64"]


def test_json_lists_the_kernel_of_every_generated_op() -> None:
    from phiops.generated.registry import OPS

    table = json.loads(run("--json"))
    assert {info.kernel for info in OPS.values() if info.kernel} <= {row["kernel"] for row in table}
    equal = next(row for row in table if row["kernel"] == "equal" and row["backend"] == "CPU")
    assert "bool" in equal["dtypes"] and "float32" in equal["dtypes"]
