"""FLAGS_blas_threads: small products on one BLAS thread, large ones on the BLAS's default count.

The BLAS is replaced by recording controllers (threadpoolctl's interface: ``num_threads``,
``set_num_threads``, ``info``), so these tests see every change phiops makes, on any machine.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from typing import Any, Iterator

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime import flags
from phiops.runtime.kernels import blas


class RecordingController:
    """A BLAS library as threadpoolctl presents it, recording every thread count set."""

    def __init__(self, default: int) -> None:
        self.num_threads = default
        self.calls: list[int] = []

    def set_num_threads(self, count: int) -> None:
        self.calls.append(count)
        self.num_threads = count

    def info(self) -> dict[str, Any]:
        return {"user_api": "blas", "internal_api": "recording", "num_threads": self.num_threads}


@pytest.fixture
def fake_blas(monkeypatch: pytest.MonkeyPatch) -> Iterator[RecordingController]:
    """A 4-thread BLAS that phiops has not touched yet; the real one is never touched and the
    module's state is restored after."""
    controller = RecordingController(default=4)
    monkeypatch.setattr(blas, "_controllers", [controller])
    monkeypatch.setattr(blas, "_default_threads", 4)
    monkeypatch.setattr(blas, "_many", 1)
    monkeypatch.setattr(blas, "ready", False)
    with flags.flags_guard({"blas_threads": -1}):
        yield controller


def _product(rows: int, inner: int, cols: int) -> tuple[np.ndarray, np.ndarray, phi.Tensor]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((rows, inner)).astype(np.float32)
    y = rng.standard_normal((inner, cols)).astype(np.float32)
    return x, y, phi.matmul(phi.to_tensor(x), phi.to_tensor(y))


def test_auto_runs_small_products_on_one_thread(fake_blas: RecordingController) -> None:
    x, y, out = _product(64, 64, 128)
    np.testing.assert_allclose(out.numpy(), x @ y, rtol=1e-5, atol=1e-5)
    assert fake_blas.calls == [1]  # set once, at the first product; then never switched
    _product(64, 128, 10)
    assert fake_blas.calls == [1]
    assert fake_blas.num_threads == 1


def test_auto_runs_large_products_on_the_default_count(fake_blas: RecordingController) -> None:
    # 256 * 256 * 128 = 2^23 multiply-adds: the threshold
    x, y, out = _product(256, 256, 128)
    np.testing.assert_allclose(out.numpy(), x @ y, rtol=1e-4, atol=1e-3)
    assert fake_blas.calls == [1, 4, 1]
    assert fake_blas.num_threads == 1
    _product(256, 255, 128)  # one multiply-add row short
    assert fake_blas.calls == [1, 4, 1]


def test_batched_and_broadcast_products_count_every_batch(fake_blas: RecordingController) -> None:
    x = phi.to_tensor(np.ones((8, 128, 128), np.float32))
    y = phi.to_tensor(np.ones((128, 64), np.float32))
    phi.matmul(x, y)  # 8 * 128 * 128 * 64 = 2^23
    assert fake_blas.calls == [1, 4, 1]
    phi.matmul(phi.transpose(y, [1, 0]), x)  # 8 * 64 * 128 * 128
    assert fake_blas.calls == [1, 4, 1, 4, 1]


def test_gradients_and_convolutions_use_the_policy(fake_blas: RecordingController) -> None:
    x = phi.to_tensor(np.ones((256, 256), np.float32), stop_gradient=False)
    w = phi.to_tensor(np.ones((256, 128), np.float32), stop_gradient=False)
    phi.sum(phi.matmul(x, w)).backward()
    # forward, then x_grad = dout @ w^T and w_grad = x^T @ dout: three large products
    assert fake_blas.calls == [1] + [4, 1] * 3
    np.testing.assert_allclose(x.grad.numpy(), np.full((256, 256), 128.0))
    fake_blas.calls.clear()
    image = phi.to_tensor(np.ones((8, 64, 32, 32), np.float32))
    kernel = phi.to_tensor(np.ones((64, 64, 3, 3), np.float32))
    phi.conv2d(image, kernel)  # 8 * 30 * 30 output pixels * 576 * 64: large
    assert fake_blas.calls == [4, 1]


def test_a_fixed_count_is_set_once(fake_blas: RecordingController) -> None:
    phi.set_flags({"FLAGS_blas_threads": 2})
    _product(256, 256, 128)
    _product(8, 8, 8)
    assert fake_blas.calls == [2]


def test_zero_leaves_the_blas_alone_and_restores_its_default(
    fake_blas: RecordingController,
) -> None:
    _product(8, 8, 8)
    assert fake_blas.num_threads == 1
    phi.set_flags({"FLAGS_blas_threads": 0})  # takes effect at once, restoring the default
    assert fake_blas.num_threads == 4
    _product(256, 256, 128)
    assert fake_blas.calls == [1, 4]


def test_blas_info_describes_the_state(fake_blas: RecordingController) -> None:
    info = blas.blas_info()
    assert info["blas_threads"] == -1
    assert info["default_threads"] == 4 and info["large_product_threads"] == 4
    assert info["multithread_min_macs"] == 2**23
    assert info["libraries"] == [
        {"user_api": "blas", "internal_api": "recording", "num_threads": 1}
    ]


def test_without_threadpoolctl_products_still_run(monkeypatch: pytest.MonkeyPatch) -> None:
    code = (
        "import sys; sys.modules['threadpoolctl'] = None\n"
        "import numpy as np, generated as phi\n"
        "from phiops.runtime.kernels import blas\n"
        "x = phi.to_tensor(np.ones((300, 300), np.float32))\n"
        "print(float(phi.matmul(x, x).numpy()[0, 0]), blas.blas_info()['libraries'])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["300.0", "[]"]


def test_the_real_blas_runs_one_thread_after_a_small_product() -> None:
    pytest.importorskip("threadpoolctl")
    code = (
        "import numpy as np, generated as phi\n"
        "from threadpoolctl import threadpool_info\n"
        "x = phi.to_tensor(np.ones((4, 4), np.float32))\n"
        "phi.matmul(x, x)\n"
        "print([lib['num_threads'] for lib in threadpool_info() if lib['user_api'] == 'blas'])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    counts = ast.literal_eval(result.stdout)
    assert counts and set(counts) == {1}
