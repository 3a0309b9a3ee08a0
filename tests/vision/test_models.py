"""phiops.vision.models (runtime/nn/vision_models.py): PaddlePaddle 3.3.1's parameter names and
order and, after the same ``paddle.seed``, its initial weights and outputs (recorded by
tests/tools/make_vision_models_fixtures.py into tests/data/vision/models.json); every
architecture builds and runs; pretrained=True is a named error."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.nn.vision_models import BasicBlock
from phiops.vision import models

DATA = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "vision" / "models.json").read_text()
)
# the recorded models phiops has (the others are listed as missing in phiops/vision/models.py)
RECORDED = sorted(name for name in DATA if name != "__all__" and name in models.__all__)
MISSING: set[str] = set()


def test_names_are_paddles() -> None:
    assert set(models.__all__) <= set(DATA["__all__"])
    missing = set(DATA["__all__"]) - set(models.__all__)
    assert missing == MISSING
    assert len(RECORDED) == 9  # every model recorded


@pytest.mark.parametrize("name", RECORDED)
def test_seeded_model_has_paddles_weights_and_output(name: str) -> None:
    record = DATA[name]
    paddle.seed(0)
    model = getattr(models, name)(**record["kwargs"])
    model.eval()
    state = model.state_dict()
    assert list(state) == [p["name"] for p in record["params"]]
    for p in record["params"]:
        value = state[p["name"]].numpy().astype(np.float64)
        assert list(value.shape) == p["shape"], p["name"]
        np.testing.assert_allclose(value.sum(), p["sum"], rtol=1e-5, atol=1e-5, err_msg=p["name"])
        np.testing.assert_allclose(
            np.abs(value).sum(), p["abs_sum"], rtol=1e-5, atol=1e-5, err_msg=p["name"]
        )
        np.testing.assert_allclose(value.ravel()[:4], p["head"], rtol=1e-6, atol=1e-7)
    x = np.random.default_rng(1).standard_normal(record["input_shape"]).astype(np.float32)
    outs = model(paddle.to_tensor(x))
    outs = list(outs) if isinstance(outs, tuple) else [outs]
    expected_outs = record["output"] if record["outputs"] > 1 else [record["output"]]
    assert len(outs) == record["outputs"]
    for out, expected in zip(outs, expected_outs):
        expected = np.array(expected)
        np.testing.assert_allclose(
            out.numpy(), expected, rtol=1e-4, atol=1e-4 * np.abs(expected).max()
        )


def test_set_state_dict_of_a_seeded_model_reproduces_its_output() -> None:
    paddle.seed(0)
    source = models.resnet18(num_classes=10)
    paddle.seed(1)
    target = models.resnet18(num_classes=10)
    source.eval()
    target.eval()
    x = paddle.to_tensor(np.random.default_rng(2).standard_normal([1, 3, 32, 32]).astype("float32"))
    assert not np.allclose(source(x).numpy(), target(x).numpy())
    target.set_state_dict(source.state_dict())
    np.testing.assert_array_equal(source(x).numpy(), target(x).numpy())


@pytest.mark.parametrize(
    "build, shape, out_shape",
    [
        (lambda: models.vgg11(num_classes=-1, with_pool=True), [1, 3, 32, 32], [1, 512, 7, 7]),
        (lambda: models.vgg13(batch_norm=True, num_classes=3), [1, 3, 32, 32], [1, 3]),
        (lambda: models.resnext50_32x4d(num_classes=4), [1, 3, 32, 32], [1, 4]),
        (lambda: models.wide_resnet50_2(num_classes=-1, with_pool=False), [1, 3, 32, 32], [1, 2048, 1, 1]),
        (lambda: models.resnet34(num_classes=2), [1, 3, 32, 32], [1, 2]),
        (lambda: models.AlexNet(num_classes=5), [1, 3, 224, 224], [1, 5]),
        (lambda: models.mobilenet_v2(scale=0.5, num_classes=4), [1, 3, 32, 32], [1, 4]),
        (lambda: models.squeezenet1_0(num_classes=4), [1, 3, 64, 64], [1, 4]),
        (lambda: models.LeNet(num_classes=0), [1, 1, 28, 28], [1, 16, 5, 5]),
        (lambda: models.mobilenet_v1(scale=0.25, num_classes=4), [1, 3, 32, 32], [1, 4]),
        (lambda: models.mobilenet_v3_large(scale=0.5, num_classes=4), [1, 3, 32, 32], [1, 4]),
        (lambda: models.shufflenet_v2_swish(num_classes=4), [1, 3, 32, 32], [1, 4]),
        (lambda: models.shufflenet_v2_x0_33(num_classes=-1, with_pool=False), [1, 3, 32, 32], [1, 512, 1, 1]),
    ],
)
def test_architectures_build_and_run(build, shape: list[int], out_shape: list[int]) -> None:
    model = build()
    model.eval()
    out = model(paddle.rand(shape))
    assert out.shape == out_shape and np.isfinite(out.numpy()).all()


def test_parameter_counts_are_the_published_ones() -> None:
    def count(model) -> int:
        return sum(int(np.prod(p.shape)) for p in model.parameters())

    assert count(models.resnet50()) == 25_557_032
    assert count(models.vgg16()) == 138_357_544
    assert count(models.mobilenet_v2()) == 3_504_872
    assert count(models.mobilenet_v1()) == 4_231_976
    assert count(models.mobilenet_v3_large()) == 5_483_032
    assert count(models.shufflenet_v2_x1_0()) == 2_278_604
    assert count(models.densenet121()) == 7_978_856


@pytest.mark.parametrize("factory", [models.squeezenet1_1, models.resnet18, models.vgg11,
                                     models.alexnet, models.mobilenet_v2])
def test_pretrained_raises_a_named_error(factory) -> None:
    with pytest.raises(UnimplementedError, match="does not download"):
        factory(pretrained=True)


def test_bad_arguments() -> None:
    with pytest.raises(InvalidArgumentError, match="depth"):
        models.ResNet(BasicBlock, depth=20)
    with pytest.raises(InvalidArgumentError, match="version"):
        models.SqueezeNet("2.0")
    with pytest.raises(InvalidArgumentError, match="act"):
        models.ShuffleNetV2(act="gelu")
    with pytest.raises(UnimplementedError, match="scale"):
        models.ShuffleNetV2(scale=0.75)
