"""Gradient clipping (runtime/nn/clip.py) in an optimizer's step, against numpy formulas:
ClipGradByValue clips elements, ClipGradByNorm rescales each gradient whose L2 norm exceeds the
limit, ClipGradByGlobalNorm rescales all by limit / max(global norm, limit); clipping comes
before weight decay. PaddlePaddle's values: tests/parity/test_paddle_parity_optimizer.py."""

from __future__ import annotations

import numpy as np
import pytest

import phiops.generated as phi
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

nn = phi.nn
START = [np.array([3.0, 4.0], np.float32), np.array([[1.0, -2.0], [0.5, 0.0]], np.float32)]


def _step(grad_clip, weight_decay=None) -> list[np.ndarray]:
    """One SGD step (rate 1) on sum(p * p): the gradients are 2p."""
    params = [phi.to_tensor(a, stop_gradient=False) for a in START]
    optimizer = phi.optimizer.SGD(
        learning_rate=1.0, parameters=params, weight_decay=weight_decay, grad_clip=grad_clip
    )
    phi.add(phi.sum(params[0] * params[0]), phi.sum(params[1] * params[1])).backward()
    optimizer.step()
    return [a - p.numpy() for a, p in zip(START, params)]  # the applied gradients


def test_clip_by_value_clips_each_element() -> None:
    applied = _step(nn.ClipGradByValue(2.5, -1.0))
    for got, start in zip(applied, START):
        np.testing.assert_allclose(got, np.clip(2 * start, -1.0, 2.5), rtol=1e-6)
    low_default = _step(nn.ClipGradByValue(1.0))
    np.testing.assert_allclose(low_default[1], np.clip(2 * START[1], -1.0, 1.0), rtol=1e-6)


def test_clip_by_norm_rescales_only_the_gradients_above_the_limit() -> None:
    applied = _step(nn.ClipGradByNorm(5.0))
    first, second = 2 * START[0], 2 * START[1]  # norms 10 and about 4.58
    np.testing.assert_allclose(applied[0], first * 5.0 / 10.0, rtol=1e-6)
    np.testing.assert_allclose(applied[1], second, rtol=1e-6)


@pytest.mark.parametrize("auto_skip_clip", [False, True])
def test_clip_by_global_norm_rescales_every_gradient_by_one_factor(auto_skip_clip: bool) -> None:
    grads = [2 * a for a in START]
    norm = np.sqrt(sum(float((g.astype(np.float64) ** 2).sum()) for g in grads))
    applied = _step(nn.ClipGradByGlobalNorm(4.0, auto_skip_clip=auto_skip_clip))
    for got, grad in zip(applied, grads):
        np.testing.assert_allclose(got, grad * 4.0 / norm, rtol=1e-5)
    # below the limit nothing changes (factor limit / max(norm, limit) is 1)
    for got, grad in zip(
        _step(nn.ClipGradByGlobalNorm(100.0, auto_skip_clip=auto_skip_clip)), grads
    ):
        np.testing.assert_allclose(got, grad, rtol=1e-6)


def test_clipping_comes_before_weight_decay() -> None:
    applied = _step(nn.ClipGradByValue(1.0), weight_decay=0.5)
    for got, start in zip(applied, START):
        np.testing.assert_allclose(got, np.clip(2 * start, -1.0, 1.0) + 0.5 * start, rtol=1e-6)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: nn.ClipGradByNorm(0.0), "ClipGradByNorm: clip_norm must be a positive number"),
        (lambda: nn.ClipGradByGlobalNorm(-1), "clip_norm must be a positive number, got -1"),
        (lambda: nn.ClipGradByValue(1.0, 2.0), r"min \(2.0\) must not exceed max \(1.0\)"),
        (lambda: nn.ClipGradByValue("1"), "max must be a number"),
        (
            lambda: phi.optimizer.SGD(parameters=[phi.to_tensor([1.0])], grad_clip=1.0),
            "SGD: grad_clip must be a ClipGradByValue, ClipGradByNorm or ClipGradByGlobalNorm",
        ),
    ],
)
def test_bad_clip_arguments_are_named(make, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        make()


def test_a_static_minimize_with_grad_clip_is_refused_by_name() -> None:
    phi.enable_static()
    try:
        with phi.static.program_guard(phi.static.Program(), phi.static.Program()):
            x = phi.static.data("x", [2, 2], "float32")
            w = phi.static.create_parameter([2, 2], "float32", name="w")
            loss = phi.mean(phi.matmul(x, w))
            optimizer = phi.optimizer.SGD(0.1, grad_clip=nn.ClipGradByNorm(1.0))
            with pytest.raises(UnimplementedError, match="grad_clip is not implemented there"):
                optimizer.minimize(loss)
    finally:
        phi.disable_static()


def test_nn_clip_module_and_clip_by_norm() -> None:
    """``paddle.nn.clip`` holds the clipping classes and ``clip_by_norm`` (the op): a tensor of
    norm 5 clipped to 2 is scaled by 2/5; one within the norm is unchanged."""
    import phiops
    import phiops.nn.clip as clip

    assert phiops.nn.clip is clip and clip.ClipGradByNorm is phiops.nn.ClipGradByNorm
    x = np.array([[3.0, 0.0], [0.0, 4.0]], dtype="float32")
    np.testing.assert_allclose(clip.clip_by_norm(phi.to_tensor(x), 2.0).numpy(), x * 0.4, rtol=1e-6)
    np.testing.assert_array_equal(clip.clip_by_norm(phi.to_tensor(x), 6.0).numpy(), x)
    with pytest.raises(InvalidArgumentError, match="clip_by_norm: max_norm must be a positive"):
        clip.clip_by_norm(phi.to_tensor(x), -1.0)
