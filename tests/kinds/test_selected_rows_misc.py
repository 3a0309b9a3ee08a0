"""SelectedRows beside the training cases: ClipGradByValue (PaddlePaddle 3.3.1's fails on a
SelectedRows, phiops clips the merged rows as PHI's clip_sr), ClipGradByNorm below its limit,
mixed dense and sparse accumulation, errors, and ``phiops kernels`` showing kinds."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.eager.tensor import wrap_array
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.tensor import SelectedRows

ROWS = np.array([4, 1, 4], np.int64)
VALUES = np.array([[1.0, -3.0], [0.5, 2.5], [2.0, -1.0]], np.float32)


def _grad() -> paddle.Tensor:
    storage = SelectedRows(ROWS.copy(), 6, VALUES.copy())
    return wrap_array(storage, storage.meta)


def test_clip_by_value_clips_the_merged_rows() -> None:
    (clipped,) = paddle.nn.ClipGradByValue(1.5).clip([None], [_grad()])
    assert clipped.is_selected_rows() and clipped.rows() == [1, 4]
    np.testing.assert_array_equal(clipped.numpy(), np.clip([[0.5, 2.5], [3.0, -4.0]], -1.5, 1.5))


def test_clip_by_norm_merges_even_below_the_limit() -> None:
    (kept,) = paddle.nn.ClipGradByNorm(100.0).clip([None], [_grad()])
    assert kept.rows() == [1, 4]
    np.testing.assert_array_equal(kept.numpy(), [[0.5, 2.5], [3.0, -4.0]])
    (scaled,) = paddle.nn.ClipGradByNorm(1.0).clip([None], [_grad()])
    merged = np.array([[0.5, 2.5], [3.0, -4.0]])
    np.testing.assert_allclose(scaled.numpy(), merged / np.linalg.norm(merged), rtol=1e-6)


def test_clip_by_global_norm_keeps_the_rows() -> None:
    dense = paddle.to_tensor(np.array([3.0, 4.0], np.float32))
    sparse, other = paddle.nn.ClipGradByGlobalNorm(1.0).clip([None, None], [_grad(), dense])
    merged = np.array([[0.5, 2.5], [3.0, -4.0]])
    norm = np.sqrt((merged**2).sum() + 25.0)
    assert sparse.rows() == [4, 1, 4]
    np.testing.assert_allclose(sparse.numpy(), VALUES / norm, rtol=1e-6)
    np.testing.assert_allclose(other.numpy(), [3.0 / norm, 4.0 / norm], rtol=1e-6)


def test_dense_and_sparse_gradients_add_up_dense() -> None:
    embedding = paddle.nn.Embedding(5, 2, sparse=True)
    ids = paddle.to_tensor(np.array([[1, 1, 3]], np.int64))
    embedding(ids).sum().backward()
    (embedding.weight * 2).sum().backward()  # a dense gradient of the same weight
    grad = embedding.weight.grad
    assert grad.is_dense()
    want = np.full((5, 2), 2.0, np.float32)
    np.add.at(want, [1, 1, 3], 1.0)
    np.testing.assert_array_equal(grad.numpy(), want)


def test_gradient_rows_and_no_gradient_when_stopped() -> None:
    embedding = paddle.nn.Embedding(4, 3, sparse=True)
    embedding.weight.set_value(np.zeros((4, 3)))
    ids = paddle.to_tensor(np.array([2, 0], np.int64))
    embedding(ids).sum().backward()
    assert embedding.weight.grad.is_selected_rows() and embedding.weight.grad.rows() == [2, 0]
    frozen = paddle.nn.Embedding(4, 3, sparse=True)
    frozen.weight.stop_gradient = True
    out = frozen(ids)
    assert out.stop_gradient and frozen.weight.grad is None


def test_errors() -> None:
    with pytest.raises(UnimplementedError, match="scale_grad_by_freq=True"):
        paddle.nn.functional.embedding(
            paddle.to_tensor([0]), paddle.ones([2, 2]), sparse=True, scale_grad_by_freq=True
        )
    embedding = paddle.nn.Embedding(4, 2, sparse=True)
    embedding(paddle.to_tensor(np.array([1], np.int64))).sum().backward()
    optimizer = paddle.optimizer.SGD(0.1, parameters=embedding.parameters(), weight_decay=0.01)
    with pytest.raises(UnimplementedError, match="regularizer.*SelectedRows gradient"):
        optimizer.step()
    with pytest.raises(InvalidArgumentError, match="sum\\(\\): argument 'x' is a SelectedRows"):
        embedding.weight.grad.sum()


def _kernels(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "phiops", "kernels", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_phiops_kernels_shows_kinds() -> None:
    sparse = _kernels("sgd_dense_param_sparse_grad")
    assert sparse.returncode == 0, sparse.stderr
    lines = sparse.stdout.splitlines()
    assert lines[0].split() == ["BACKEND", "LAYOUT", "DTYPE", "PRIORITY", "FUNCTION", "KIND"]
    assert all(line.split()[5:] == ["SelectedRows", "wins"] for line in lines[1:])
    dense = _kernels("sgd_")
    assert "sgd_dense_param_sparse_grad (SelectedRows)" in dense.stderr
    rows = json.loads(_kernels("embedding_grad", "--json").stdout)
    kinds = {(r["kernel"], r["kind"]) for r in rows}
    assert kinds == {("embedding_grad", "DenseTensor"), ("embedding_sparse_grad", "SelectedRows")}
