"""``paddle.vision.models``' classic architectures as phiops Layers: LeNet, AlexNet, VGG,
ResNet (with ResNeXt and the wide ResNets), MobileNetV1, V2 and V3, ShuffleNetV2, SqueezeNet,
DenseNet, GoogLeNet and InceptionV3: every name of PaddlePaddle 3.3.1's module.

Each keeps PaddlePaddle 3.3.1's sublayer names and creation order, so that its ``state_dict``
has PaddlePaddle's keys in PaddlePaddle's order (``set_state_dict`` of a PaddlePaddle state
dict works) and, since phiops's initializers draw PaddlePaddle's numbers, a model built right
after ``paddle.seed(n)`` has PaddlePaddle's initial weights (tests/vision/test_models.py, against the records of tests/tools/make_vision_models_fixtures.py). The
layer code is phiops's own; the architectures (channel tables, strides, initializers) are the
published ones PaddlePaddle implements. ``pretrained=True`` is an UnimplementedError: phiops
downloads nothing (load a state dict with ``set_state_dict`` instead).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.nn import functional as F
from phiops.runtime.nn.layer import Layer, Sequential
from phiops.runtime.nn.param_attr import ParamAttr

__all__ = [
    "LeNet",
    "AlexNet",
    "alexnet",
    "VGG",
    "vgg11",
    "vgg13",
    "vgg16",
    "vgg19",
    "ResNet",
    "resnet18",
    "resnet34",
    "resnet50",
    "resnet101",
    "resnet152",
    "resnext50_32x4d",
    "resnext50_64x4d",
    "resnext101_32x4d",
    "resnext101_64x4d",
    "resnext152_32x4d",
    "resnext152_64x4d",
    "wide_resnet50_2",
    "wide_resnet101_2",
    "MobileNetV2",
    "mobilenet_v2",
    "SqueezeNet",
    "squeezenet1_0",
    "squeezenet1_1",
]


def _nn() -> Any:
    # the layer classes live in phiops.nn, which imports this module's package first
    import phiops.nn as nn

    return nn


def _no_download(arch: str, pretrained: bool) -> None:
    if pretrained:
        raise UnimplementedError(
            f"{arch}(pretrained=True): phiops does not download weights; build the model and "
            "load PaddlePaddle's state dict with set_state_dict(paddle.load(path))"
        )


def _head(x: Any, num_classes: int, classifier: Callable[[Any], Any]) -> Any:
    return classifier(x.flatten(1)) if num_classes > 0 else x


# --- LeNet ----------------------------------------------------------------------------------------


class LeNet(Layer):
    """LeNet-5 for 1x28x28 images: two conv/ReLU/max-pool stages, then three Linear layers."""

    def __init__(self, num_classes: int = 10) -> None:
        super().__init__()
        nn = _nn()
        self.num_classes = num_classes
        self.features = Sequential(
            nn.Conv2D(1, 6, 3, stride=1, padding=1),
            nn.ReLU(),
            nn.MaxPool2D(2, 2),
            nn.Conv2D(6, 16, 5, stride=1, padding=0),
            nn.ReLU(),
            nn.MaxPool2D(2, 2),
        )
        if num_classes > 0:
            self.fc = Sequential(
                nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, num_classes)
            )

    def forward(self, inputs: Any) -> Any:
        return _head(self.features(inputs), self.num_classes, lambda x: self.fc(x))


# --- AlexNet --------------------------------------------------------------------------------------


def _uniform_attrs(fan_in: int) -> dict[str, ParamAttr]:
    """Weight and bias both Uniform(-1/sqrt(fan_in), 1/sqrt(fan_in)), as AlexNet's layers."""
    bound = 1.0 / math.sqrt(fan_in)
    init = _nn().initializer.Uniform
    return {
        "weight_attr": ParamAttr(initializer=init(-bound, bound)),
        "bias_attr": ParamAttr(initializer=init(-bound, bound)),
    }


class _ConvPool(Layer):
    """A convolution, an optional ReLU and a 3x3 stride-2 max pool (AlexNet's ConvPoolLayer)."""

    def __init__(
        self, cin: int, cout: int, kernel: int, stride: int, padding: int, fan_in: int, relu: bool
    ) -> None:
        super().__init__()
        nn = _nn()
        self.relu = nn.ReLU() if relu else None
        self._conv = nn.Conv2D(cin, cout, kernel, stride, padding, **_uniform_attrs(fan_in))
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)

    def forward(self, x: Any) -> Any:
        x = self._conv(x)
        return self._pool(x if self.relu is None else self.relu(x))


class AlexNet(Layer):
    """AlexNet (the one-tower variant) for 3x224x224 images."""

    def __init__(self, num_classes: int = 1000) -> None:
        super().__init__()
        nn = _nn()
        self.num_classes = num_classes
        self._conv1 = _ConvPool(3, 64, 11, 4, 2, 3 * 11 * 11, True)
        self._conv2 = _ConvPool(64, 192, 5, 1, 2, 64 * 5 * 5, True)
        self._conv3 = nn.Conv2D(192, 384, 3, 1, 1, **_uniform_attrs(192 * 9))
        self._conv4 = nn.Conv2D(384, 256, 3, 1, 1, **_uniform_attrs(384 * 9))
        self._conv5 = _ConvPool(256, 256, 3, 1, 1, 256 * 9, True)
        if num_classes > 0:
            fan_in = 256 * 6 * 6  # all three Linear layers use the first one's bound
            self._drop1 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc6 = nn.Linear(fan_in, 4096, **_uniform_attrs(fan_in))
            self._drop2 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc7 = nn.Linear(4096, 4096, **_uniform_attrs(fan_in))
            self._fc8 = nn.Linear(4096, num_classes, **_uniform_attrs(fan_in))

    def forward(self, inputs: Any) -> Any:
        x = self._conv2(self._conv1(inputs))
        x = F.relu(self._conv4(F.relu(self._conv3(x))))
        x = self._conv5(x)
        if self.num_classes <= 0:
            return x
        x = F.relu(self._fc6(self._drop1(x.flatten(1))))
        return self._fc8(F.relu(self._fc7(self._drop2(x))))


def alexnet(pretrained: bool = False, **kwargs: Any) -> AlexNet:
    _no_download("alexnet", pretrained)
    return AlexNet(**kwargs)


# --- VGG ------------------------------------------------------------------------------------------

_VGG_CONFIGS = {
    11: [64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    13: [64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    16: [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"],
    19: [64, 64, "M", 128, 128, "M"] + [256] * 4 + ["M"] + ([512] * 4 + ["M"]) * 2,
}


def _vgg_features(config: Sequence[Any], batch_norm: bool) -> Sequential:
    nn = _nn()
    layers: list[Layer] = []
    channels = 3
    for item in config:
        if item == "M":
            layers.append(nn.MaxPool2D(kernel_size=2, stride=2))
            continue
        layers.append(nn.Conv2D(channels, item, kernel_size=3, padding=1))
        if batch_norm:
            layers.append(nn.BatchNorm2D(item))
        layers.append(nn.ReLU())
        channels = item
    return Sequential(*layers)


class VGG(Layer):
    """VGG over ``features`` (3x3 convolutions and max pools), then a 7x7 adaptive average pool
    (``with_pool``) and three Linear layers with dropout."""

    def __init__(self, features: Layer, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        nn = _nn()
        self.features = features
        self.num_classes = num_classes
        self.with_pool = with_pool
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D((7, 7))
        if num_classes > 0:
            self.classifier = Sequential(
                nn.Linear(512 * 7 * 7, 4096),
                nn.ReLU(),
                nn.Dropout(),
                nn.Linear(4096, 4096),
                nn.ReLU(),
                nn.Dropout(),
                nn.Linear(4096, num_classes),
            )

    def forward(self, x: Any) -> Any:
        x = self.features(x)
        if self.with_pool:
            x = self.avgpool(x)
        return _head(x, self.num_classes, lambda y: self.classifier(y))


def _vgg(depth: int, pretrained: bool, batch_norm: bool, **kwargs: Any) -> VGG:
    _no_download(f"vgg{depth}{'_bn' if batch_norm else ''}", pretrained)
    return VGG(_vgg_features(_VGG_CONFIGS[depth], batch_norm), **kwargs)


def vgg11(pretrained: bool = False, batch_norm: bool = False, **kwargs: Any) -> VGG:
    return _vgg(11, pretrained, batch_norm, **kwargs)


def vgg13(pretrained: bool = False, batch_norm: bool = False, **kwargs: Any) -> VGG:
    return _vgg(13, pretrained, batch_norm, **kwargs)


def vgg16(pretrained: bool = False, batch_norm: bool = False, **kwargs: Any) -> VGG:
    return _vgg(16, pretrained, batch_norm, **kwargs)


def vgg19(pretrained: bool = False, batch_norm: bool = False, **kwargs: Any) -> VGG:
    return _vgg(19, pretrained, batch_norm, **kwargs)


# --- ResNet ---------------------------------------------------------------------------------------


class BasicBlock(Layer):
    """Two 3x3 convolutions with batch norm and a residual connection (ResNet-18/34)."""

    expansion = 1

    def __init__(
        self,
        inplanes: int,
        planes: int,
        stride: int = 1,
        downsample: Layer | None = None,
        groups: int = 1,
        base_width: int = 64,
        dilation: int = 1,
        norm_layer: Callable[..., Layer] | None = None,
    ) -> None:
        super().__init__()
        nn = _nn()
        norm = norm_layer or nn.BatchNorm2D
        if dilation > 1:
            raise UnimplementedError("BasicBlock: dilation > 1 is not supported (nor in PaddlePaddle)")
        self.conv1 = nn.Conv2D(inplanes, planes, 3, padding=1, stride=stride, bias_attr=False)
        self.bn1 = norm(planes)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv2D(planes, planes, 3, padding=1, bias_attr=False)
        self.bn2 = norm(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x: Any) -> Any:
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        identity = x if self.downsample is None else self.downsample(x)
        return self.relu(out + identity)


class BottleneckBlock(Layer):
    """1x1, 3x3 (grouped for ResNeXt) and 1x1 convolutions with batch norm and a residual
    connection, widening by 4 (ResNet-50 and deeper)."""

    expansion = 4

    def __init__(
        self,
        inplanes: int,
        planes: int,
        stride: int = 1,
        downsample: Layer | None = None,
        groups: int = 1,
        base_width: int = 64,
        dilation: int = 1,
        norm_layer: Callable[..., Layer] | None = None,
    ) -> None:
        super().__init__()
        nn = _nn()
        norm = norm_layer or nn.BatchNorm2D
        width = int(planes * (base_width / 64.0)) * groups
        self.conv1 = nn.Conv2D(inplanes, width, 1, bias_attr=False)
        self.bn1 = norm(width)
        self.conv2 = nn.Conv2D(
            width, width, 3, padding=dilation, stride=stride, groups=groups,
            dilation=dilation, bias_attr=False,
        )
        self.bn2 = norm(width)
        self.conv3 = nn.Conv2D(width, planes * self.expansion, 1, bias_attr=False)
        self.bn3 = norm(planes * self.expansion)
        self.relu = nn.ReLU()
        self.downsample = downsample
        self.stride = stride

    def forward(self, x: Any) -> Any:
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        identity = x if self.downsample is None else self.downsample(x)
        return self.relu(out + identity)


_RESNET_DEPTHS = {18: [2, 2, 2, 2], 34: [3, 4, 6, 3], 50: [3, 4, 6, 3], 101: [3, 4, 23, 3],
                  152: [3, 8, 36, 3]}


class ResNet(Layer):
    """ResNet of ``block`` (BasicBlock or BottleneckBlock) and ``depth`` (18, 34, 50, 101, 152);
    ``width`` and ``groups`` make the ResNeXt and wide variants; ``with_pool`` and
    ``num_classes`` (<= 0: no classifier) as PaddlePaddle's."""

    def __init__(
        self,
        block: type,
        depth: int = 50,
        width: int = 64,
        num_classes: int = 1000,
        with_pool: bool = True,
        groups: int = 1,
    ) -> None:
        super().__init__()
        if depth not in _RESNET_DEPTHS:
            raise InvalidArgumentError(
                f"ResNet: depth must be one of {sorted(_RESNET_DEPTHS)}, got {depth!r}"
            )
        nn = _nn()
        layers = _RESNET_DEPTHS[depth]
        self.groups, self.base_width = groups, width
        self.num_classes, self.with_pool = num_classes, with_pool
        self._norm_layer = nn.BatchNorm2D
        self.inplanes, self.dilation = 64, 1
        self.conv1 = nn.Conv2D(3, 64, kernel_size=7, stride=2, padding=3, bias_attr=False)
        self.bn1 = self._norm_layer(64)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(block, 64, layers[0])
        self.layer2 = self._make_layer(block, 128, layers[1], stride=2)
        self.layer3 = self._make_layer(block, 256, layers[2], stride=2)
        self.layer4 = self._make_layer(block, 512, layers[3], stride=2)
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D((1, 1))
        if num_classes > 0:
            self.fc = nn.Linear(512 * block.expansion, num_classes)

    def _make_layer(self, block: type, planes: int, blocks: int, stride: int = 1) -> Sequential:
        nn = _nn()
        out_channels = planes * block.expansion
        downsample = None
        if stride != 1 or self.inplanes != out_channels:
            downsample = Sequential(
                nn.Conv2D(self.inplanes, out_channels, 1, stride=stride, bias_attr=False),
                self._norm_layer(out_channels),
            )
        stage = [
            block(self.inplanes, planes, stride, downsample, self.groups, self.base_width,
                  self.dilation, self._norm_layer)
        ]
        self.inplanes = out_channels
        stage += [
            block(self.inplanes, planes, groups=self.groups, base_width=self.base_width,
                  norm_layer=self._norm_layer)
            for _ in range(1, blocks)
        ]
        return Sequential(*stage)

    def forward(self, x: Any) -> Any:
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        if self.with_pool:
            x = self.avgpool(x)
        return _head(x, self.num_classes, lambda y: self.fc(y))


def _resnet(arch: str, block: type, depth: int, pretrained: bool, **kwargs: Any) -> ResNet:
    _no_download(arch, pretrained)
    return ResNet(block, depth, **kwargs)


def resnet18(pretrained: bool = False, **kwargs: Any) -> ResNet:
    return _resnet("resnet18", BasicBlock, 18, pretrained, **kwargs)


def resnet34(pretrained: bool = False, **kwargs: Any) -> ResNet:
    return _resnet("resnet34", BasicBlock, 34, pretrained, **kwargs)


def resnet50(pretrained: bool = False, **kwargs: Any) -> ResNet:
    return _resnet("resnet50", BottleneckBlock, 50, pretrained, **kwargs)


def resnet101(pretrained: bool = False, **kwargs: Any) -> ResNet:
    return _resnet("resnet101", BottleneckBlock, 101, pretrained, **kwargs)


def resnet152(pretrained: bool = False, **kwargs: Any) -> ResNet:
    return _resnet("resnet152", BottleneckBlock, 152, pretrained, **kwargs)


def _resnext(depth: int, groups: int, pretrained: bool, **kwargs: Any) -> ResNet:
    kwargs.update(groups=groups, width=4)
    return _resnet(f"resnext{depth}_{groups}x4d", BottleneckBlock, depth, pretrained, **kwargs)


def resnext50_32x4d(pretrained: bool = False, **kwargs: Any) -> ResNet:
    return _resnext(50, 32, pretrained, **kwargs)


def resnext50_64x4d(pretrained: bool = False, **kwargs: Any) -> ResNet:
    return _resnext(50, 64, pretrained, **kwargs)


def resnext101_32x4d(pretrained: bool = False, **kwargs: Any) -> ResNet:
    return _resnext(101, 32, pretrained, **kwargs)


def resnext101_64x4d(pretrained: bool = False, **kwargs: Any) -> ResNet:
    return _resnext(101, 64, pretrained, **kwargs)


def resnext152_32x4d(pretrained: bool = False, **kwargs: Any) -> ResNet:
    return _resnext(152, 32, pretrained, **kwargs)


def resnext152_64x4d(pretrained: bool = False, **kwargs: Any) -> ResNet:
    return _resnext(152, 64, pretrained, **kwargs)


def wide_resnet50_2(pretrained: bool = False, **kwargs: Any) -> ResNet:
    kwargs["width"] = 128
    return _resnet("wide_resnet50_2", BottleneckBlock, 50, pretrained, **kwargs)


def wide_resnet101_2(pretrained: bool = False, **kwargs: Any) -> ResNet:
    kwargs["width"] = 128
    return _resnet("wide_resnet101_2", BottleneckBlock, 101, pretrained, **kwargs)


# --- MobileNetV2 ----------------------------------------------------------------------------------


def _divisible(value: float, divisor: int = 8) -> int:
    """``value`` rounded to a multiple of ``divisor`` (at least ``divisor``), never more than 10%
    below it."""
    rounded = max(divisor, int(value + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * value else rounded


def _conv_bn_relu6(cin: int, cout: int, kernel: int = 3, stride: int = 1, groups: int = 1) -> Sequential:
    """Conv2D (no bias, 'same' padding), BatchNorm2D and ReLU6 (MobileNetV2's blocks)."""
    return _conv_norm_act(cin, cout, kernel, stride, None, groups, activation=_nn().ReLU6)


class _InvertedResidual(Layer):
    def __init__(self, cin: int, cout: int, stride: int, expand_ratio: float) -> None:
        super().__init__()
        nn = _nn()
        hidden = int(round(cin * expand_ratio))
        self.stride = stride
        self.use_res_connect = stride == 1 and cin == cout
        layers: list[Layer] = []
        if expand_ratio != 1:
            layers.append(_conv_bn_relu6(cin, hidden, kernel=1))
        layers += [
            _conv_bn_relu6(hidden, hidden, stride=stride, groups=hidden),
            nn.Conv2D(hidden, cout, 1, 1, 0, bias_attr=False),
            nn.BatchNorm2D(cout),
        ]
        self.conv = Sequential(*layers)

    def forward(self, x: Any) -> Any:
        return x + self.conv(x) if self.use_res_connect else self.conv(x)


# expansion t, channels c, repeats n, first stride s
_MOBILENET_V2_STAGES = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                        (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]


class MobileNetV2(Layer):
    """MobileNetV2: inverted residual blocks of depthwise convolutions, widths scaled by
    ``scale`` (rounded to multiples of 8)."""

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        nn = _nn()
        self.num_classes, self.with_pool = num_classes, with_pool
        channels = _divisible(32 * scale)
        self.last_channel = _divisible(1280 * max(1.0, scale))
        features: list[Layer] = [_conv_bn_relu6(3, channels, stride=2)]
        for t, c, n, s in _MOBILENET_V2_STAGES:
            out = _divisible(c * scale)
            for i in range(n):
                features.append(_InvertedResidual(channels, out, s if i == 0 else 1, t))
                channels = out
        features.append(_conv_bn_relu6(channels, self.last_channel, kernel=1))
        self.features = Sequential(*features)
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.classifier = Sequential(
                nn.Dropout(0.2), nn.Linear(self.last_channel, num_classes)
            )

    def forward(self, x: Any) -> Any:
        x = self.features(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        return _head(x, self.num_classes, lambda y: self.classifier(y))


def mobilenet_v2(pretrained: bool = False, scale: float = 1.0, **kwargs: Any) -> MobileNetV2:
    _no_download("mobilenet_v2", pretrained)
    return MobileNetV2(scale=scale, **kwargs)


# --- SqueezeNet -----------------------------------------------------------------------------------


def _attrs() -> dict[str, ParamAttr]:
    return {"weight_attr": ParamAttr(), "bias_attr": ParamAttr()}


class _FireConv(Layer):
    def __init__(self, cin: int, cout: int, kernel: int, padding: int = 0) -> None:
        super().__init__()
        self._conv = _nn().Conv2D(cin, cout, kernel, padding=padding, **_attrs())

    def forward(self, x: Any) -> Any:
        return F.relu(self._conv(x))


class _Fire(Layer):
    """A 1x1 squeeze, then 1x1 and 3x3 expansions concatenated along the channels."""

    def __init__(self, cin: int, squeeze: int, expand1: int, expand3: int) -> None:
        super().__init__()
        self._conv = _FireConv(cin, squeeze, 1)
        self._conv_path1 = _FireConv(squeeze, expand1, 1)
        self._conv_path2 = _FireConv(squeeze, expand3, 3, padding=1)

    def forward(self, x: Any) -> Any:
        x = self._conv(x)
        return op_api("concat")([self._conv_path1(x), self._conv_path2(x)], 1)


# version -> (first conv: out channels, kernel, padding), the fire modules' channels, and after
# which fire modules (1-based) a max pool runs
_SQUEEZENET = {
    "1.0": ((96, 7, 0), (3, 7)),
    "1.1": ((64, 3, 1), (2, 4)),
}
_FIRES = [(16, 64, 64), (16, 64, 64), (32, 128, 128), (32, 128, 128), (48, 192, 192),
          (48, 192, 192), (64, 256, 256), (64, 256, 256)]


class SqueezeNet(Layer):
    """SqueezeNet ``version`` '1.0' or '1.1': a convolution, eight fire modules with max pools
    between them, and a 1x1 convolution classifier averaged over the image."""

    def __init__(self, version: str, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        if version not in _SQUEEZENET:
            raise InvalidArgumentError(
                f"SqueezeNet: version must be '1.0' or '1.1', got {version!r}"
            )
        nn = _nn()
        self.version, self.num_classes, self.with_pool = version, num_classes, with_pool
        (first, kernel, padding), self._pools_after = _SQUEEZENET[version]
        self._conv = nn.Conv2D(3, first, kernel, stride=2, padding=padding, **_attrs())
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        channels = first
        for i, (squeeze, e1, e3) in enumerate(_FIRES, start=1):
            setattr(self, f"_conv{i}", _Fire(channels, squeeze, e1, e3))
            channels = e1 + e3
        self._drop = nn.Dropout(p=0.5, mode="downscale_in_infer")
        self._conv9 = nn.Conv2D(512, num_classes, 1, **_attrs())
        self._avg_pool = nn.AdaptiveAvgPool2D(1)

    def forward(self, inputs: Any) -> Any:
        x = self._pool(F.relu(self._conv(inputs)))
        for i in range(1, len(_FIRES) + 1):
            x = getattr(self, f"_conv{i}")(x)
            if i in self._pools_after:
                x = self._pool(x)
        if self.num_classes > 0:
            x = self._conv9(self._drop(x))
        if self.with_pool:
            x = self._avg_pool(F.relu(x)).squeeze([2, 3])
        return x


def squeezenet1_0(pretrained: bool = False, **kwargs: Any) -> SqueezeNet:
    _no_download("squeezenet1_0", pretrained)
    return SqueezeNet("1.0", **kwargs)


def squeezenet1_1(pretrained: bool = False, **kwargs: Any) -> SqueezeNet:
    _no_download("squeezenet1_1", pretrained)
    return SqueezeNet("1.1", **kwargs)


# --- MobileNetV1, MobileNetV3, ShuffleNetV2 -------------------------------------------------------


def _conv_norm_act(
    cin: int,
    cout: int,
    kernel: int = 3,
    stride: int = 1,
    padding: int | None = None,
    groups: int = 1,
    norm: Callable[[int], Layer] | None = None,
    activation: Callable[[], Layer] | None = None,
) -> Sequential:
    """Conv2D (biased only without a norm; 'same' padding by default), a norm and an
    activation, as paddle.vision.ops.ConvNormActivation stacks them (sublayers 0, 1, 2)."""
    nn = _nn()
    norm = nn.BatchNorm2D if norm is None else norm
    layers: list[Layer] = [
        nn.Conv2D(cin, cout, kernel, stride, (kernel - 1) // 2 if padding is None else padding,
                  groups=groups, bias_attr=False)
    ]
    layers.append(norm(cout))
    if activation is not None:
        layers.append(activation())
    return Sequential(*layers)


class _DepthwiseSeparable(Layer):
    def __init__(self, cin: int, depthwise: int, pointwise: int, stride: int, scale: float) -> None:
        super().__init__()
        relu = _nn().ReLU
        self._depthwise_conv = _conv_norm_act(
            cin, int(depthwise * scale), 3, stride, 1, int(depthwise * scale), activation=relu
        )
        self._pointwise_conv = _conv_norm_act(
            int(depthwise * scale), int(pointwise * scale), 1, 1, 0, activation=relu
        )

    def forward(self, x: Any) -> Any:
        return self._pointwise_conv(self._depthwise_conv(x))


# sublayer name, depthwise channels, pointwise channels, stride
_MOBILENET_V1_BLOCKS = (
    [("conv2_1", 32, 64, 1), ("conv2_2", 64, 128, 2), ("conv3_1", 128, 128, 1),
     ("conv3_2", 128, 256, 2), ("conv4_1", 256, 256, 1), ("conv4_2", 256, 512, 2)]
    + [(f"conv5_{i}", 512, 512, 1) for i in range(1, 6)]
    + [("conv5_6", 512, 1024, 2), ("conv6", 1024, 1024, 1)]
)


class MobileNetV1(Layer):
    """MobileNetV1: a convolution and 13 depthwise-separable blocks, widths times ``scale``."""

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        nn = _nn()
        self.scale, self.num_classes, self.with_pool = scale, num_classes, with_pool
        self.conv1 = _conv_norm_act(3, int(32 * scale), 3, 2, 1, activation=nn.ReLU)
        self.dwsl = []
        channels = int(32 * scale)
        for name, depthwise, pointwise, stride in _MOBILENET_V1_BLOCKS:
            block = _DepthwiseSeparable(channels, depthwise, pointwise, stride, scale)
            self.dwsl.append(self.add_sublayer(name, block))
            channels = int(pointwise * scale)
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.fc = nn.Linear(int(1024 * scale), num_classes)

    def forward(self, x: Any) -> Any:
        x = self.conv1(x)
        for block in self.dwsl:
            x = block(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        return _head(x, self.num_classes, lambda y: self.fc(y))


def mobilenet_v1(pretrained: bool = False, scale: float = 1.0, **kwargs: Any) -> MobileNetV1:
    _no_download("mobilenet_v1", pretrained)
    return MobileNetV1(scale=scale, **kwargs)


class _SqueezeExcitation(Layer):
    def __init__(self, channels: int, squeeze: int) -> None:
        super().__init__()
        nn = _nn()
        self.avgpool = nn.AdaptiveAvgPool2D(1)
        self.fc1 = nn.Conv2D(channels, squeeze, 1)
        self.fc2 = nn.Conv2D(squeeze, channels, 1)
        self.activation = nn.ReLU()
        self.scale_activation = nn.Hardsigmoid()

    def forward(self, x: Any) -> Any:
        scale = self.fc2(self.activation(self.fc1(self.avgpool(x))))
        return self.scale_activation(scale) * x


class _V3Block(Layer):
    def __init__(self, cin: int, expanded: int, cout: int, kernel: int, stride: int, se: bool,
                 activation: Callable[[], Layer], norm: Callable[[int], Layer]) -> None:
        super().__init__()
        self.use_res_connect = stride == 1 and cin == cout
        self.use_se = se
        self.expand = cin != expanded
        if self.expand:
            self.expand_conv = _conv_norm_act(cin, expanded, 1, 1, 0, norm=norm, activation=activation)
        self.bottleneck_conv = _conv_norm_act(
            expanded, expanded, kernel, stride, (kernel - 1) // 2, expanded, norm, activation
        )
        if se:
            self.mid_se = _SqueezeExcitation(expanded, _divisible(expanded // 4))
        self.linear_conv = _conv_norm_act(expanded, cout, 1, 1, 0, norm=norm)

    def forward(self, x: Any) -> Any:
        y = self.expand_conv(x) if self.expand else x
        y = self.bottleneck_conv(y)
        if self.use_se:
            y = self.mid_se(y)
        y = self.linear_conv(y)
        return x + y if self.use_res_connect else y


# in channels, kernel, expanded channels, out channels, squeeze-excitation, hardswish, stride
_V3_SMALL = [(16, 3, 16, 16, True, False, 2), (16, 3, 72, 24, False, False, 2),
             (24, 3, 88, 24, False, False, 1), (24, 5, 96, 40, True, True, 2),
             (40, 5, 240, 40, True, True, 1), (40, 5, 240, 40, True, True, 1),
             (40, 5, 120, 48, True, True, 1), (48, 5, 144, 48, True, True, 1),
             (48, 5, 288, 96, True, True, 2), (96, 5, 576, 96, True, True, 1),
             (96, 5, 576, 96, True, True, 1)]
_V3_LARGE = [(16, 3, 16, 16, False, False, 1), (16, 3, 64, 24, False, False, 2),
             (24, 3, 72, 24, False, False, 1), (24, 5, 72, 40, True, False, 2),
             (40, 5, 120, 40, True, False, 1), (40, 5, 120, 40, True, False, 1),
             (40, 3, 240, 80, False, True, 2), (80, 3, 200, 80, False, True, 1),
             (80, 3, 184, 80, False, True, 1), (80, 3, 184, 80, False, True, 1),
             (80, 3, 480, 112, True, True, 1), (112, 3, 672, 112, True, True, 1),
             (112, 5, 672, 160, True, True, 2), (160, 5, 960, 160, True, True, 1),
             (160, 5, 960, 160, True, True, 1)]


class MobileNetV3(Layer):
    """MobileNetV3 over a block table (MobileNetV3Small / MobileNetV3Large give theirs):
    inverted residuals with squeeze-excitation and hardswish, batch norm of epsilon 1e-3 and
    momentum 0.99, channels times ``scale`` rounded to multiples of 8."""

    def __init__(self, config: Sequence[tuple], last_channel: int, scale: float = 1.0,
                 num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        nn = _nn()
        self.scale, self.last_channel = scale, last_channel
        self.num_classes, self.with_pool = num_classes, with_pool

        def norm(channels: int) -> Layer:
            return nn.BatchNorm2D(channels, epsilon=0.001, momentum=0.99)

        first = _divisible(config[0][0] * scale)
        last_in = _divisible(config[-1][0] * scale)
        # created in PaddlePaddle's order (the seeded initial weights follow it)
        self.conv = _conv_norm_act(3, first, 3, 2, 1, norm=norm, activation=nn.Hardswish)
        blocks = []
        for cin, kernel, expanded, cout, se, hardswish, stride in config:
            blocks.append(_V3Block(
                _divisible(cin * scale), _divisible(expanded * scale), _divisible(cout * scale),
                kernel, stride, se, nn.Hardswish if hardswish else nn.ReLU, norm,
            ))
        self.blocks = Sequential(*blocks)
        self.lastconv = _conv_norm_act(last_in, last_in * 6, 1, 1, 0, norm=norm,
                                       activation=nn.Hardswish)
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.classifier = Sequential(
                nn.Linear(last_in * 6, last_channel),
                nn.Hardswish(),
                nn.Dropout(p=0.2),
                nn.Linear(last_channel, num_classes),
            )

    def forward(self, x: Any) -> Any:
        x = self.lastconv(self.blocks(self.conv(x)))
        if self.with_pool:
            x = self.avgpool(x)
        return _head(x, self.num_classes, lambda y: self.classifier(y))


class MobileNetV3Small(MobileNetV3):
    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__(_V3_SMALL, _divisible(1024 * scale), scale, num_classes, with_pool)


class MobileNetV3Large(MobileNetV3):
    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__(_V3_LARGE, _divisible(1280 * scale), scale, num_classes, with_pool)


def mobilenet_v3_small(pretrained: bool = False, scale: float = 1.0, **kwargs: Any) -> MobileNetV3Small:
    _no_download("mobilenet_v3_small", pretrained)
    return MobileNetV3Small(scale=scale, **kwargs)


def mobilenet_v3_large(pretrained: bool = False, scale: float = 1.0, **kwargs: Any) -> MobileNetV3Large:
    _no_download("mobilenet_v3_large", pretrained)
    return MobileNetV3Large(scale=scale, **kwargs)


def _channel_shuffle(x: Any, groups: int) -> Any:
    n, c, h, w = x.shape[0:4]
    x = x.reshape([n, groups, c // groups, h, w]).transpose([0, 2, 1, 3, 4])
    return x.reshape([n, c, h, w])


class _ShuffleBlock(Layer):
    """ShuffleNetV2's unit: half the channels through 1x1, depthwise 3x3 and 1x1 convolutions,
    concatenated with the other half and shuffled."""

    def __init__(self, channels: int, activation: Callable[[], Layer] | None) -> None:
        super().__init__()
        half = channels // 2
        self._conv_pw = _conv_norm_act(half, half, 1, 1, 0, activation=activation)
        self._conv_dw = _conv_norm_act(half, half, 3, 1, 1, half)
        self._conv_linear = _conv_norm_act(half, half, 1, 1, 0, activation=activation)

    def forward(self, x: Any) -> Any:
        half = x.shape[1] // 2
        x1, x2 = op_api("split")(x, [half, half], 1)
        x2 = self._conv_linear(self._conv_dw(self._conv_pw(x2)))
        return _channel_shuffle(op_api("concat")([x1, x2], 1), 2)


class _ShuffleDownBlock(Layer):
    """ShuffleNetV2's downsampling unit: two strided branches over all the channels."""

    def __init__(self, cin: int, cout: int, activation: Callable[[], Layer] | None) -> None:
        super().__init__()
        half = cout // 2
        self._conv_dw_1 = _conv_norm_act(cin, cin, 3, 2, 1, cin)
        self._conv_linear_1 = _conv_norm_act(cin, half, 1, 1, 0, activation=activation)
        self._conv_pw_2 = _conv_norm_act(cin, half, 1, 1, 0, activation=activation)
        self._conv_dw_2 = _conv_norm_act(half, half, 3, 2, 1, half)
        self._conv_linear_2 = _conv_norm_act(half, half, 1, 1, 0, activation=activation)

    def forward(self, x: Any) -> Any:
        x1 = self._conv_linear_1(self._conv_dw_1(x))
        x2 = self._conv_linear_2(self._conv_dw_2(self._conv_pw_2(x)))
        return _channel_shuffle(op_api("concat")([x1, x2], 1), 2)


_SHUFFLENET_CHANNELS = {0.25: [24, 24, 48, 96, 512], 0.33: [24, 32, 64, 128, 512],
                        0.5: [24, 48, 96, 192, 1024], 1.0: [24, 116, 232, 464, 1024],
                        1.5: [24, 176, 352, 704, 1024], 2.0: [24, 224, 488, 976, 2048]}


class ShuffleNetV2(Layer):
    """ShuffleNetV2 of width ``scale`` (0.25, 0.33, 0.5, 1.0, 1.5 or 2.0) and activation
    ``act`` ('relu', 'swish' or None)."""

    def __init__(self, scale: float = 1.0, act: str | None = "relu", num_classes: int = 1000,
                 with_pool: bool = True) -> None:
        super().__init__()
        nn = _nn()
        if scale not in _SHUFFLENET_CHANNELS:
            raise UnimplementedError(
                f"ShuffleNetV2: scale {scale!r} is not implemented; choose one of "
                f"{sorted(_SHUFFLENET_CHANNELS)}"
            )
        activations = {"relu": nn.ReLU, "swish": nn.Swish, None: None}
        if act not in activations:
            raise InvalidArgumentError(
                f"ShuffleNetV2: act must be 'relu', 'swish' or None, got {act!r}"
            )
        activation = activations[act]
        self.scale, self.num_classes, self.with_pool = scale, num_classes, with_pool
        channels = _SHUFFLENET_CHANNELS[scale]
        self._conv1 = _conv_norm_act(3, channels[0], 3, 2, 1, activation=activation)
        self._max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self._block_list = []
        for stage, repeats in enumerate([4, 8, 4]):
            for i in range(repeats):
                block = (
                    _ShuffleDownBlock(channels[stage], channels[stage + 1], activation)
                    if i == 0
                    else _ShuffleBlock(channels[stage + 1], activation)
                )
                self._block_list.append(self.add_sublayer(f"{stage + 2}_{i + 1}", block))
        self._last_conv = _conv_norm_act(channels[-2], channels[-1], 1, 1, 0, activation=activation)
        if with_pool:
            self._pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self._out_c = channels[-1]
            self._fc = nn.Linear(channels[-1], num_classes)

    def forward(self, x: Any) -> Any:
        x = self._max_pool(self._conv1(x))
        for block in self._block_list:
            x = block(x)
        x = self._last_conv(x)
        if self.with_pool:
            x = self._pool2d_avg(x)
        return _head(x, self.num_classes, lambda y: self._fc(y))


def _shufflenet(arch: str, scale: float, pretrained: bool, act: str = "relu", **kwargs: Any) -> ShuffleNetV2:
    _no_download(arch, pretrained)
    return ShuffleNetV2(scale=scale, act=act, **kwargs)


def shufflenet_v2_x0_25(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    return _shufflenet("shufflenet_v2_x0_25", 0.25, pretrained, **kwargs)


def shufflenet_v2_x0_33(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    return _shufflenet("shufflenet_v2_x0_33", 0.33, pretrained, **kwargs)


def shufflenet_v2_x0_5(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    return _shufflenet("shufflenet_v2_x0_5", 0.5, pretrained, **kwargs)


def shufflenet_v2_x1_0(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    return _shufflenet("shufflenet_v2_x1_0", 1.0, pretrained, **kwargs)


def shufflenet_v2_x1_5(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    return _shufflenet("shufflenet_v2_x1_5", 1.5, pretrained, **kwargs)


def shufflenet_v2_x2_0(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    return _shufflenet("shufflenet_v2_x2_0", 2.0, pretrained, **kwargs)


def shufflenet_v2_swish(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
    return _shufflenet("shufflenet_v2_swish", 1.0, pretrained, act="swish", **kwargs)


__all__ += [
    "MobileNetV1",
    "mobilenet_v1",
    "MobileNetV3Small",
    "MobileNetV3Large",
    "mobilenet_v3_small",
    "mobilenet_v3_large",
    "ShuffleNetV2",
    "shufflenet_v2_x0_25",
    "shufflenet_v2_x0_33",
    "shufflenet_v2_x0_5",
    "shufflenet_v2_x1_0",
    "shufflenet_v2_x1_5",
    "shufflenet_v2_x2_0",
    "shufflenet_v2_swish",
]


# --- DenseNet -------------------------------------------------------------------------------------


class _BNReLUConv(Layer):
    """Batch norm with ReLU, then a convolution without bias (DenseNet's pre-activation unit)."""

    def __init__(self, cin: int, cout: int, kernel: int, padding: int) -> None:
        super().__init__()
        nn = _nn()
        self._batch_norm = nn.BatchNorm(cin, act="relu")
        self._conv = nn.Conv2D(cin, cout, kernel, 1, padding, weight_attr=ParamAttr(),
                               bias_attr=False)

    def forward(self, x: Any) -> Any:
        return self._conv(self._batch_norm(x))


class _DenseLayer(Layer):
    def __init__(self, cin: int, growth: int, bn_size: int, dropout: float) -> None:
        super().__init__()
        self.dropout = dropout
        self.bn_ac_func1 = _BNReLUConv(cin, bn_size * growth, 1, 0)
        self.bn_ac_func2 = _BNReLUConv(bn_size * growth, growth, 3, 1)
        if dropout:
            self.dropout_func = _nn().Dropout(p=dropout, mode="downscale_in_infer")

    def forward(self, x: Any) -> Any:
        y = self.bn_ac_func2(self.bn_ac_func1(x))
        if self.dropout:
            y = self.dropout_func(y)
        return op_api("concat")([x, y], 1)


class _DenseBlock(Layer):
    def __init__(self, cin: int, layers: int, bn_size: int, growth: int, dropout: float,
                 name: str) -> None:
        super().__init__()
        self.dropout = dropout
        self.dense_layer_func = [
            self.add_sublayer(f"{name}_{i + 1}",
                              _DenseLayer(cin + i * growth, growth, bn_size, dropout))
            for i in range(layers)
        ]

    def forward(self, x: Any) -> Any:
        for layer in self.dense_layer_func:
            x = layer(x)
        return x


class _Transition(Layer):
    def __init__(self, cin: int, cout: int) -> None:
        super().__init__()
        self.conv_ac_func = _BNReLUConv(cin, cout, 1, 0)
        self.pool2d_avg = _nn().AvgPool2D(kernel_size=2, stride=2, padding=0)

    def forward(self, x: Any) -> Any:
        return self.pool2d_avg(self.conv_ac_func(x))


class _ConvBNReLU(Layer):
    def __init__(self, cin: int, cout: int, kernel: int, stride: int, padding: int) -> None:
        super().__init__()
        nn = _nn()
        self._conv = nn.Conv2D(cin, cout, kernel, stride, padding, weight_attr=ParamAttr(),
                               bias_attr=False)
        self._batch_norm = nn.BatchNorm(cout, act="relu")

    def forward(self, x: Any) -> Any:
        return self._batch_norm(self._conv(x))


# depth -> (initial features, growth rate, layers per dense block)
_DENSENETS = {121: (64, 32, [6, 12, 24, 16]), 161: (96, 48, [6, 12, 36, 24]),
              169: (64, 32, [6, 12, 32, 32]), 201: (64, 32, [6, 12, 48, 32]),
              264: (64, 32, [6, 12, 64, 48])}


class DenseNet(Layer):
    """DenseNet-``layers`` (121, 161, 169, 201 or 264): dense blocks of BN-ReLU-conv units,
    each concatenating its ``growth`` new channels, with halving transitions between them."""

    def __init__(self, layers: int = 121, bn_size: int = 4, dropout: float = 0.0,
                 num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        if layers not in _DENSENETS:
            raise InvalidArgumentError(
                f"DenseNet: layers must be one of {sorted(_DENSENETS)}, got {layers!r}"
            )
        nn = _nn()
        self.num_classes, self.with_pool = num_classes, with_pool
        features, growth, config = _DENSENETS[layers]
        self.block_config = config
        self.conv1_func = _ConvBNReLU(3, features, 7, 2, 3)
        self.pool2d_max = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.dense_block_func_list, self.transition_func_list = [], []
        for i, count in enumerate(config):
            block = _DenseBlock(features, count, bn_size, growth, dropout, f"conv{i + 2}")
            self.dense_block_func_list.append(self.add_sublayer(f"db_conv_{i + 2}", block))
            features += count * growth
            if i != len(config) - 1:
                transition = _Transition(features, features // 2)
                self.transition_func_list.append(
                    self.add_sublayer(f"tr_conv{i + 2}_blk", transition)
                )
                features //= 2
        self.batch_norm = nn.BatchNorm(features, act="relu")
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            bound = 1.0 / math.sqrt(features * 1.0)
            self.out = nn.Linear(
                features, num_classes,
                weight_attr=ParamAttr(initializer=nn.initializer.Uniform(-bound, bound)),
                bias_attr=ParamAttr(),
            )

    def forward(self, x: Any) -> Any:
        x = self.pool2d_max(self.conv1_func(x))
        for i, block in enumerate(self.dense_block_func_list):
            x = block(x)
            if i < len(self.transition_func_list):
                x = self.transition_func_list[i](x)
        x = self.batch_norm(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        return _head(x, self.num_classes, lambda y: self.out(y))


def _densenet(depth: int, pretrained: bool, **kwargs: Any) -> DenseNet:
    _no_download(f"densenet{depth}", pretrained)
    return DenseNet(layers=depth, **kwargs)


def densenet121(pretrained: bool = False, **kwargs: Any) -> DenseNet:
    return _densenet(121, pretrained, **kwargs)


def densenet161(pretrained: bool = False, **kwargs: Any) -> DenseNet:
    return _densenet(161, pretrained, **kwargs)


def densenet169(pretrained: bool = False, **kwargs: Any) -> DenseNet:
    return _densenet(169, pretrained, **kwargs)


def densenet201(pretrained: bool = False, **kwargs: Any) -> DenseNet:
    return _densenet(201, pretrained, **kwargs)


def densenet264(pretrained: bool = False, **kwargs: Any) -> DenseNet:
    return _densenet(264, pretrained, **kwargs)


__all__ += ["DenseNet", "densenet121", "densenet161", "densenet169", "densenet201", "densenet264"]


# --- GoogLeNet ------------------------------------------------------------------------------------


def _xavier(fan: int) -> ParamAttr:
    """Uniform(-sqrt(3 / fan), sqrt(3 / fan)) weights (GoogLeNet's Linear layers)."""
    bound = (3.0 / fan) ** 0.5
    return ParamAttr(initializer=_nn().initializer.Uniform(-bound, bound))


class _PlainConv(Layer):
    """A 'same'-padded convolution without bias or activation (GoogLeNet's ConvLayer)."""

    def __init__(self, cin: int, cout: int, kernel: int, stride: int = 1) -> None:
        super().__init__()
        self._conv = _nn().Conv2D(cin, cout, kernel, stride, (kernel - 1) // 2, bias_attr=False)

    def forward(self, x: Any) -> Any:
        return self._conv(x)


class _Inception(Layer):
    """1x1, 1x1-3x3, 1x1-5x5 and pool-1x1 branches concatenated, then ReLU."""

    def __init__(self, cin: int, f1: int, f3r: int, f3: int, f5r: int, f5: int, proj: int) -> None:
        super().__init__()
        self._conv1 = _PlainConv(cin, f1, 1)
        self._conv3r = _PlainConv(cin, f3r, 1)
        self._conv3 = _PlainConv(f3r, f3, 3)
        self._conv5r = _PlainConv(cin, f5r, 1)
        self._conv5 = _PlainConv(f5r, f5, 5)
        self._pool = _nn().MaxPool2D(kernel_size=3, stride=1, padding=1)
        self._convprj = _PlainConv(cin, proj, 1)

    def forward(self, x: Any) -> Any:
        branches = [
            self._conv1(x),
            self._conv3(self._conv3r(x)),
            self._conv5(self._conv5r(x)),
            self._convprj(self._pool(x)),
        ]
        return F.relu(op_api("concat")(branches, 1))


# name, in channels, 1x1, 3x3 reduce, 3x3, 5x5 reduce, 5x5, pool projection
_INCEPTIONS = [("_ince3a", 192, 64, 96, 128, 16, 32, 32), ("_ince3b", 256, 128, 128, 192, 32, 96, 64),
               ("_ince4a", 480, 192, 96, 208, 16, 48, 64), ("_ince4b", 512, 160, 112, 224, 24, 64, 64),
               ("_ince4c", 512, 128, 128, 256, 24, 64, 64), ("_ince4d", 512, 112, 144, 288, 32, 64, 64),
               ("_ince4e", 528, 256, 160, 320, 32, 128, 128), ("_ince5a", 832, 256, 160, 320, 32, 128, 128),
               ("_ince5b", 832, 384, 192, 384, 48, 128, 128)]


class GoogLeNet(Layer):
    """GoogLeNet (Inception v1) for 3x224x224 images; returns the main output and the two
    auxiliary classifiers' (after inception 4a and 4d), as PaddlePaddle's does."""

    def __init__(self, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        nn = _nn()
        self.num_classes, self.with_pool = num_classes, with_pool
        self._conv = _PlainConv(3, 64, 7, 2)
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2)
        self._conv_1 = _PlainConv(64, 64, 1)
        self._conv_2 = _PlainConv(64, 192, 3)
        for name, *channels in _INCEPTIONS:
            setattr(self, name, _Inception(*channels))
        if with_pool:
            self._pool_5 = nn.AdaptiveAvgPool2D(1)
            self._pool_o1 = nn.AvgPool2D(kernel_size=5, stride=3)
            self._pool_o2 = nn.AvgPool2D(kernel_size=5, stride=3)
        if num_classes > 0:
            self._drop = nn.Dropout(p=0.4, mode="downscale_in_infer")
            self._fc_out = nn.Linear(1024, num_classes, weight_attr=_xavier(1024))
            for i, cin in ((1, 512), (2, 528)):
                setattr(self, f"_conv_o{i}", _PlainConv(cin, 128, 1))
                setattr(self, f"_fc_o{i}", nn.Linear(1152, 1024, weight_attr=_xavier(2048)))
                setattr(self, f"_drop_o{i}", nn.Dropout(p=0.7, mode="downscale_in_infer"))
                setattr(self, f"_out{i}", nn.Linear(1024, num_classes, weight_attr=_xavier(1024)))

    def forward(self, inputs: Any) -> tuple[Any, Any, Any]:
        x = self._pool(self._conv_2(self._conv_1(self._pool(self._conv(inputs)))))
        x = self._pool(self._ince3b(self._ince3a(x)))
        out1 = self._ince4a(x)
        out2 = self._ince4d(self._ince4c(self._ince4b(out1)))
        out = self._ince5b(self._ince5a(self._pool(self._ince4e(out2))))
        if self.with_pool:
            out, out1, out2 = self._pool_5(out), self._pool_o1(out1), self._pool_o2(out2)
        if self.num_classes > 0:
            out = self._fc_out(self._drop(out).squeeze([2, 3]))
            out1 = self._fc_o1(self._conv_o1(out1).flatten(1))
            out1 = self._out1(self._drop_o1(F.relu(out1)))
            # the second auxiliary head has no ReLU in PaddlePaddle's model
            out2 = self._fc_o2(self._conv_o2(out2).flatten(1))
            out2 = self._out2(self._drop_o2(out2))
        return out, out1, out2


def googlenet(pretrained: bool = False, **kwargs: Any) -> GoogLeNet:
    _no_download("googlenet", pretrained)
    return GoogLeNet(**kwargs)


__all__ += ["GoogLeNet", "googlenet"]


# --- InceptionV3 ----------------------------------------------------------------------------------


def _pair_of(value: Any) -> tuple[int, int]:
    return (value, value) if isinstance(value, int) else tuple(value)


class _Mixed(Layer):
    """An Inception block from its branches, each a list of steps run one after another on the
    block's input, the branches' outputs concatenated along the channels: ``(name, channels,
    kernel, stride, padding)`` a convolution with batch norm and ReLU; ``("avg" | "max", name,
    kernel, stride, padding)`` a pool; a list of convolution steps, run side by side on the
    step's input and concatenated (InceptionE's 1x3 / 3x1 pairs). Sublayers are created in the
    order the branches list them (PaddlePaddle's, so seeded weights follow it)."""

    def __init__(self, cin: int, branches: Sequence[Sequence[Any]]) -> None:
        super().__init__()
        nn = _nn()
        self._branches: list[list[Any]] = []
        for branch in branches:
            steps, channels = [], cin
            for step in branch:
                if isinstance(step, list):
                    names = []
                    for name, cout, kernel, stride, padding in step:
                        setattr(self, name, self._conv(channels, cout, kernel, stride, padding))
                        names.append(name)
                    steps.append(names)
                    channels = sum(s[1] for s in step)
                elif step[0] in ("avg", "max"):
                    kind, name, kernel, stride, padding = step
                    pool = (nn.AvgPool2D(kernel, stride, padding, exclusive=False)
                            if kind == "avg" else nn.MaxPool2D(kernel, stride, padding))
                    setattr(self, name, pool)
                    steps.append(name)
                else:
                    name, cout, kernel, stride, padding = step
                    setattr(self, name, self._conv(channels, cout, kernel, stride, padding))
                    steps.append(name)
                    channels = cout
            self._branches.append(steps)

    @staticmethod
    def _conv(cin: int, cout: int, kernel: Any, stride: int, padding: Any) -> Sequential:
        return _conv_norm_act(
            cin, cout, _pair_of(kernel), stride, _pair_of(padding), activation=_nn().ReLU
        )

    def forward(self, x: Any) -> Any:
        outputs = []
        for steps in self._branches:
            y = x
            for step in steps:
                if isinstance(step, list):
                    y = op_api("concat")([getattr(self, name)(y) for name in step], 1)
                else:
                    y = getattr(self, step)(y)
            outputs.append(y)
        return op_api("concat")(outputs, 1)


def _inception_a(cin: int, pool_features: int) -> _Mixed:
    return _Mixed(cin, [
        [("branch1x1", 64, 1, 1, 0)],
        [("branch5x5_1", 48, 1, 1, 0), ("branch5x5_2", 64, 5, 1, 2)],
        [("branch3x3dbl_1", 64, 1, 1, 0), ("branch3x3dbl_2", 96, 3, 1, 1),
         ("branch3x3dbl_3", 96, 3, 1, 1)],
        [("avg", "branch_pool", 3, 1, 1), ("branch_pool_conv", pool_features, 1, 1, 0)],
    ])


def _inception_b(cin: int) -> _Mixed:
    return _Mixed(cin, [
        [("branch3x3", 384, 3, 2, 0)],
        [("branch3x3dbl_1", 64, 1, 1, 0), ("branch3x3dbl_2", 96, 3, 1, 1),
         ("branch3x3dbl_3", 96, 3, 2, 0)],
        [("max", "branch_pool", 3, 2, 0)],
    ])


def _inception_c(cin: int, c7: int) -> _Mixed:
    row, col = ((1, 7), (0, 3)), ((7, 1), (3, 0))
    return _Mixed(cin, [
        [("branch1x1", 192, 1, 1, 0)],
        [("branch7x7_1", c7, 1, 1, 0), ("branch7x7_2", c7, row[0], 1, row[1]),
         ("branch7x7_3", 192, col[0], 1, col[1])],
        [("branch7x7dbl_1", c7, 1, 1, 0), ("branch7x7dbl_2", c7, col[0], 1, col[1]),
         ("branch7x7dbl_3", c7, row[0], 1, row[1]), ("branch7x7dbl_4", c7, col[0], 1, col[1]),
         ("branch7x7dbl_5", 192, row[0], 1, row[1])],
        [("avg", "branch_pool", 3, 1, 1), ("branch_pool_conv", 192, 1, 1, 0)],
    ])


def _inception_d(cin: int) -> _Mixed:
    return _Mixed(cin, [
        [("branch3x3_1", 192, 1, 1, 0), ("branch3x3_2", 320, 3, 2, 0)],
        [("branch7x7x3_1", 192, 1, 1, 0), ("branch7x7x3_2", 192, (1, 7), 1, (0, 3)),
         ("branch7x7x3_3", 192, (7, 1), 1, (3, 0)), ("branch7x7x3_4", 192, 3, 2, 0)],
        [("max", "branch_pool", 3, 2, 0)],
    ])


def _inception_e(cin: int) -> _Mixed:
    return _Mixed(cin, [
        [("branch1x1", 320, 1, 1, 0)],
        [("branch3x3_1", 384, 1, 1, 0),
         [("branch3x3_2a", 384, (1, 3), 1, (0, 1)), ("branch3x3_2b", 384, (3, 1), 1, (1, 0))]],
        [("branch3x3dbl_1", 448, 1, 1, 0), ("branch3x3dbl_2", 384, 3, 1, 1),
         [("branch3x3dbl_3a", 384, (1, 3), 1, (0, 1)),
          ("branch3x3dbl_3b", 384, (3, 1), 1, (1, 0))]],
        [("avg", "branch_pool", 3, 1, 1), ("branch_pool_conv", 192, 1, 1, 0)],
    ])


class _InceptionStem(Layer):
    def __init__(self) -> None:
        super().__init__()
        self.conv_1a_3x3 = _Mixed._conv(3, 32, 3, 2, 0)
        self.conv_2a_3x3 = _Mixed._conv(32, 32, 3, 1, 0)
        self.conv_2b_3x3 = _Mixed._conv(32, 64, 3, 1, 1)
        self.max_pool = _nn().MaxPool2D(kernel_size=3, stride=2, padding=0)
        self.conv_3b_1x1 = _Mixed._conv(64, 80, 1, 1, 0)
        self.conv_4a_3x3 = _Mixed._conv(80, 192, 3, 1, 0)

    def forward(self, x: Any) -> Any:
        x = self.max_pool(self.conv_2b_3x3(self.conv_2a_3x3(self.conv_1a_3x3(x))))
        return self.max_pool(self.conv_4a_3x3(self.conv_3b_1x1(x)))


class InceptionV3(Layer):
    """Inception v3 for 3x299x299 images: a stem, then blocks A (x3), B, C (x4), D, E (x2)."""

    def __init__(self, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        nn = _nn()
        self.num_classes, self.with_pool = num_classes, with_pool
        self.inception_stem = _InceptionStem()
        blocks = [_inception_a(c, p) for c, p in ((192, 32), (256, 64), (288, 64))]
        blocks.append(_inception_b(288))
        blocks += [_inception_c(768, c7) for c7 in (128, 160, 160, 192)]
        blocks.append(_inception_d(768))
        blocks += [_inception_e(c) for c in (1280, 2048)]
        self.inception_block_list = nn.LayerList(blocks)
        if with_pool:
            self.avg_pool = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            bound = 1.0 / math.sqrt(2048.0)
            self.dropout = nn.Dropout(p=0.2, mode="downscale_in_infer")
            self.fc = nn.Linear(
                2048, num_classes,
                weight_attr=ParamAttr(initializer=nn.initializer.Uniform(-bound, bound)),
                bias_attr=ParamAttr(),
            )

    def forward(self, x: Any) -> Any:
        x = self.inception_stem(x)
        for block in self.inception_block_list:
            x = block(x)
        if self.with_pool:
            x = self.avg_pool(x)
        if self.num_classes > 0:
            x = self.fc(self.dropout(x.reshape([-1, 2048])))
        return x


def inception_v3(pretrained: bool = False, **kwargs: Any) -> InceptionV3:
    _no_download("inception_v3", pretrained)
    return InceptionV3(**kwargs)


__all__ += ["InceptionV3", "inception_v3"]
