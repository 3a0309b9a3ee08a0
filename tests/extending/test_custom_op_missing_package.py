"""A saved model whose program names an op package's op: loading it where the package is not
importable fails with an error naming the op and the package to install; with the package
imported, it loads and runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.extending.op_package import run_python

SAVE = """
import numpy as np, phiops as paddle, extops_probe_pkg as ops

class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(3, 2)

    def forward(self, x):
        return ops.custom_swish(self.fc(x), 1.5)

paddle.seed(3)
net = Net()
x = paddle.to_tensor(np.ones((4, 3), dtype="float32"))
paddle.jit.save(net, "model/net", input_spec=[paddle.static.InputSpec([None, 3], "float32", "x")])
np.save("expected.npy", net(x).numpy())
"""

LOAD = """
import numpy as np, phiops as paddle
{import_line}
try:
    layer = paddle.jit.load("model/net")
except paddle.NotFoundError as error:
    print("NotFoundError:", error)
    raise SystemExit(3)
out = layer(paddle.to_tensor(np.ones((4, 3), dtype="float32"))).numpy()
assert np.allclose(out, np.load("expected.npy"), rtol=1e-6), out
print("ok")
"""


@pytest.fixture(scope="module")
def saved_model(generated_package: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("saved")
    result = run_python(SAVE, where, generated_package.parent)
    assert result.returncode == 0, result.stderr
    assert '"extops_probe_pkg.custom_swish"' in (where / "model" / "net.json").read_text()
    return where


def test_loading_without_the_package_names_the_op_and_the_package(saved_model: Path) -> None:
    result = run_python(LOAD.format(import_line=""), saved_model, None)
    assert result.returncode == 3, result.stderr
    assert result.stdout.strip() == (
        "NotFoundError: model/net.json: op 'extops_probe_pkg.custom_swish' is not registered: "
        "its dialect 'extops_probe_pkg' is not phiops's (phiops has builtin, cf, pd_op) and no "
        "installed op package provides it; install the op package 'extops_probe_pkg' (the "
        "package whose 'phiops.ops' entry point is named 'extops_probe_pkg', see "
        "docs/extending.md)"
    )


def test_loading_with_the_package_imported_runs_the_model(
    saved_model: Path, generated_package: Path
) -> None:
    result = run_python(
        LOAD.format(import_line="import extops_probe_pkg"), saved_model, generated_package.parent
    )
    assert (result.returncode, result.stdout.strip()) == (0, "ok"), result.stderr
