"""auto_cast's casting rules (PaddlePaddle's GetAmpDestDtype), checked on the CPU with
FLAGS_amp_on_cpu and a float16 CPU matmul kernel standing in for the GPU's (conftest.py)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.common import DataType
from phiops.runtime.dispatch.amp_state import AMP_STATE
from phiops.runtime.errors import InvalidArgumentError

F = paddle.nn.functional
F16, BF16, F32 = DataType.FLOAT16, DataType.BFLOAT16, DataType.FLOAT32
RNG = np.random.default_rng(3)
X = RNG.standard_normal((3, 4)).astype(np.float32)
W = RNG.standard_normal((4, 5)).astype(np.float32)


def t(array: np.ndarray, stop_gradient: bool = True) -> paddle.Tensor:
    tensor = paddle.to_tensor(array)
    tensor.stop_gradient = stop_gradient
    return tensor


def dt(tensor: paddle.Tensor) -> DataType:
    return tensor.meta.dtype


def test_a_white_listed_op_runs_in_float16_with_float16_numerics(half_matmul: None) -> None:
    with paddle.amp.auto_cast():
        assert paddle.amp.is_autocast_enabled()
        assert paddle.amp.get_autocast_dtype() == "float16"
        out = paddle.matmul(t(X), t(W))
    assert dt(out) is F16
    expected = X.astype(np.float16) @ W.astype(np.float16)
    np.testing.assert_array_equal(out.numpy(), expected)
    assert not paddle.amp.is_autocast_enabled() and not AMP_STATE.active


def test_bfloat16_casts_to_bfloat16(half_matmul: None) -> None:
    with paddle.amp.auto_cast(dtype="bfloat16"):
        out = paddle.matmul(t(X), t(W))
    assert dt(out) is BF16
    assert paddle.amp.get_autocast_dtype() == "float16"  # PaddlePaddle 3.3.1: the default AMP dtype outside


def test_a_black_listed_op_runs_in_float32(half_matmul: None) -> None:
    with paddle.amp.auto_cast():
        hidden = paddle.matmul(t(X), t(W))
        soft = F.softmax(hidden)
    assert dt(hidden) is F16 and dt(soft) is F32
    np.testing.assert_allclose(
        soft.numpy(), F.softmax(t(hidden.numpy().astype(np.float32))).numpy(), rtol=1e-6
    )


def test_a_gray_op_promotes_to_float32_when_an_input_is_float32(half_matmul: None) -> None:
    with paddle.amp.auto_cast():
        hidden = paddle.matmul(t(X), t(W))
        mixed = paddle.concat([hidden, t(np.ones((1, 5), np.float32))])
        same = paddle.floor(hidden)
    assert dt(mixed) is F32
    assert dt(same) is F16
    expected = np.concatenate([hidden.numpy().astype(np.float32), np.ones((1, 5), np.float32)])
    np.testing.assert_array_equal(mixed.numpy(), expected)


def test_a_gray_op_without_a_float16_kernel_runs_in_float32(half_matmul: None) -> None:
    with paddle.amp.auto_cast():
        relu = F.relu(paddle.matmul(t(X), t(W)))
    assert dt(relu) is F32


def test_level_od_runs_only_the_white_list_in_low_precision(half_matmul: None) -> None:
    with paddle.amp.auto_cast(level="OD"):
        hidden = paddle.matmul(t(X), t(W))
        floor = paddle.floor(hidden)
    assert dt(hidden) is F16 and dt(floor) is F32


def test_level_o2_promotes_only_with_use_promote(half_matmul: None) -> None:
    half, one = t(X.astype(np.float16)), t(np.ones((1, 4), np.float32))
    with paddle.amp.auto_cast(level="O2"):
        promoted = paddle.concat([half, one])
    with paddle.amp.auto_cast(level="O2", use_promote=False):
        kept = paddle.concat([half, one])
        black = F.softmax(half)
    assert dt(promoted) is F32
    assert dt(kept) is F16
    assert dt(black) is F32


def test_custom_lists_move_ops_between_the_lists(half_matmul: None) -> None:
    with paddle.amp.auto_cast(custom_black_list={"matmul"}):
        out = paddle.matmul(t(X), t(W))
    assert dt(out) is F32
    with paddle.amp.auto_cast(custom_white_list=["log"]):
        log = paddle.log(t(np.abs(X) + 1))
    assert dt(log) is F16
    with paddle.amp.auto_cast(custom_black_list=("floor",)):
        floor = paddle.floor(t(X.astype(np.float16)))
    assert dt(floor) is F32


def test_a_white_listed_op_without_a_low_precision_kernel_runs_in_float32(
    amp_on_cpu: None,
) -> None:
    with paddle.amp.auto_cast():
        out = paddle.matmul(t(X), t(W))
    assert dt(out) is F32
    np.testing.assert_allclose(out.numpy(), X @ W, rtol=1e-5)


def test_gradients_flow_back_through_the_casts_in_float32(half_matmul: None) -> None:
    x, w = t(X), t(W, stop_gradient=False)
    with paddle.amp.auto_cast():
        loss = paddle.matmul(x, w).astype("float32").sum()
    loss.backward()
    assert dt(w.grad) is F32
    expected = X.astype(np.float16).T @ np.ones((3, 5), np.float16)
    np.testing.assert_array_equal(w.grad.numpy(), expected.astype(np.float32))


def test_contexts_nest_and_restore(half_matmul: None) -> None:
    with paddle.amp.auto_cast():
        with paddle.amp.auto_cast(enable=False):
            inner = paddle.matmul(t(X), t(W))
            assert not paddle.amp.is_autocast_enabled()
        outer = paddle.matmul(t(X), t(W))
    assert dt(inner) is F32 and dt(outer) is F16


def test_the_context_is_restored_after_an_error(half_matmul: None) -> None:
    with pytest.raises(RuntimeError):
        with paddle.amp.auto_cast():
            raise RuntimeError("boom")
    assert not AMP_STATE.active and not paddle.amp.is_autocast_enabled()


def test_another_thread_does_not_see_this_threads_context(half_matmul: None) -> None:
    seen: list[DataType] = []
    with paddle.amp.auto_cast():
        worker = threading.Thread(target=lambda: seen.append(dt(paddle.matmul(t(X), t(W)))))
        worker.start()
        worker.join()
    assert seen == [F32]


def test_integer_inputs_are_not_cast(half_matmul: None) -> None:
    with paddle.amp.auto_cast():
        out = paddle.matmul(t(np.ones((2, 2), np.int64)), t(np.ones((2, 2), np.int64)))
    assert dt(out) is DataType.INT64


def test_autocast_is_auto_cast_of_enabled_and_dtype(half_matmul: None) -> None:
    with paddle.amp.autocast("gpu", dtype="bfloat16"):
        out = paddle.matmul(t(X), t(W))
    assert dt(out) is BF16


@pytest.mark.parametrize("bad", ["float16", 3, {"relu": 1}.keys().__class__])
def test_custom_lists_must_be_collections_of_op_names(amp_on_cpu: None, bad: object) -> None:
    with pytest.raises(InvalidArgumentError, match="custom_white_list"):
        with paddle.amp.auto_cast(custom_white_list=bad):
            pass
