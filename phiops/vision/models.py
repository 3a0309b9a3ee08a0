"""``phiops.vision.models`` (``paddle.vision.models``): every architecture of PaddlePaddle
3.3.1's (LeNet, AlexNet, VGG, ResNet/ResNeXt/wide ResNet, MobileNetV1/V2/V3, ShuffleNetV2,
SqueezeNet, DenseNet, GoogLeNet, InceptionV3) with its parameter names and, after the same
``paddle.seed``, its initial weights (runtime/nn/vision_models.py). PaddlePaddle downloads
pretrained weights, which phiops does not (``pretrained=True`` is an UnimplementedError)."""

from __future__ import annotations

from phiops.runtime.nn.vision_models import *  # noqa: F401,F403
from phiops.runtime.nn.vision_models import __all__  # noqa: F401
