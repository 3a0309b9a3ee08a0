"""DataParallel on 2 ranks, each on half of a global batch of 8, ends with the parameters one
process gets training on the whole batch (workers/data_parallel.py; workers/model.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from tests.distributed.launching import run_ranks
from tests.distributed.workers.model import STEPS, Net, batches


def _one_process(with_unused: bool) -> dict[str, np.ndarray]:
    paddle.seed(0)  # rank 0's seed: DataParallel starts every rank from rank 0's parameters
    model = Net(with_unused=with_unused)
    optimizer = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    for x, y in batches(STEPS):
        loss = paddle.nn.functional.mse_loss(model(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
    return {name: value.numpy() for name, value in model.state_dict().items()}


@pytest.mark.parametrize("mode", ["plain", "no_sync", "unused"])
def test_two_ranks_on_half_batches_train_as_one_process_on_the_whole_batch(
    mode: str, tmp_path: Path
) -> None:
    result = run_ranks("data_parallel.py", 2, str(tmp_path), mode, timeout=300)
    assert result.returncode == 0, result.stdout
    expected = _one_process(with_unused=mode == "unused")
    for rank in range(2):
        got = np.load(tmp_path / f"rank{rank}.npz")
        assert sorted(got.files) == sorted(expected), (got.files, list(expected))
        for name, value in expected.items():
            np.testing.assert_allclose(got[name], value, rtol=1e-5, atol=1e-6, err_msg=name)
