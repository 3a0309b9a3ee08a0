"""``phiops.vision.models`` (``paddle.vision.models``): LeNet, AlexNet, VGG, ResNet (ResNeXt,
wide ResNet), MobileNetV1/V2/V3, ShuffleNetV2, SqueezeNet, DenseNet and GoogLeNet with PaddlePaddle 3.3.1's parameter
names and seeded weights (runtime/nn/vision_models.py). PaddlePaddle's ``paddle.vision.models``
also has what phiops lacks: InceptionV3."""

from __future__ import annotations

from phiops.runtime.nn.vision_models import *  # noqa: F401,F403
from phiops.runtime.nn.vision_models import __all__  # noqa: F401
