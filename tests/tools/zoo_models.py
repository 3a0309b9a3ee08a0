"""The architectures of the model zoo (``tests/tools/make_zoo.py``), in PaddlePaddle 3.3.1.

Imported only by ``make_zoo.py``, in a venv with PaddlePaddle. ``paddle.vision.models`` gives the
classification networks (their widths, class counts and classifier heads reduced so that they
stay small and fast); the rest are built here from ``paddle.nn`` after the architectures users
deploy from PaddleClas, PaddleSeg, PaddleOCR, PaddleDetection and PaddleNLP: architectures only,
the weights are seeded by ``make_zoo.py``, nothing is downloaded.

``ZOO`` lists every model as a ``ZooModel``: its name, its task, how to build its layer, its
inputs (``None`` marks a dynamic extent: the batch, and the sequence for NLP and OCR) with the
two concrete shapes each is fed at, and, for a model waiting for ops phiops does not have yet,
those ops (``pending``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import paddle
import paddle.nn.functional as F
from paddle import nn
from paddle.vision import models as vm


@dataclass(frozen=True)
class ZooInput:
    """One input: its feed name, declared shape (``None`` for a dynamic extent), dtype, the two
    concrete shapes it is fed at, and how its values are drawn (``normal``, ``ids:V`` for
    integers in [0, V), ``mask`` for a 0/1 attention mask whose rows start with ones,
    ``const:a,b`` for a fixed row repeated over the batch)."""

    name: str
    shape: tuple
    dtype: str
    sizes: tuple
    values: str = "normal"


@dataclass(frozen=True)
class ZooModel:
    name: str
    task: str
    build: Callable[[], nn.Layer]
    inputs: tuple
    pending: tuple[str, ...] = ()
    postprocess: str | None = None
    note: str = field(default="")


def _image(shape=(None, 3, None, None), sizes=((1, 3, 64, 64), (2, 3, 80, 80))) -> tuple:
    return (ZooInput("x", shape, "float32", sizes),)


# --- classification: paddle.vision.models --------------------------------------------------


def _alexnet() -> nn.Layer:
    # AlexNet's classifier is sized for 224x224 inputs (256x6x6 features); at 64x64 the features
    # are 256x1x1, so the three fully connected layers are rebuilt narrower for them
    model = vm.alexnet(num_classes=10)
    model._fc6 = nn.Linear(256, 256)
    model._fc7 = nn.Linear(256, 256)
    model._fc8 = nn.Linear(256, 10)
    return model


def _vgg11() -> nn.Layer:
    model = vm.vgg11(num_classes=10)
    model.classifier = nn.Sequential(
        nn.Linear(512 * 7 * 7, 64),
        nn.ReLU(),
        nn.Dropout(),
        nn.Linear(64, 64),
        nn.ReLU(),
        nn.Dropout(),
        nn.Linear(64, 10),
    )
    return model


def _googlenet() -> nn.Layer:
    return vm.googlenet(num_classes=10)


# --- classification: PaddleClas-style networks built from paddle.nn -------------------------


class ConvBNAct(nn.Layer):
    def __init__(self, cin, cout, k=3, stride=1, groups=1, act="relu", dilation=1):
        super().__init__()
        pad = (k - 1) // 2 * dilation
        self.conv = nn.Conv2D(
            cin, cout, k, stride, pad, dilation=dilation, groups=groups, bias_attr=False
        )
        self.bn = nn.BatchNorm2D(cout)
        self.act = {"relu": nn.ReLU(), "hardswish": nn.Hardswish(), "none": nn.Identity()}[act]

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class SEModule(nn.Layer):
    def __init__(self, c, reduction=4):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2D(1)
        self.fc1 = nn.Conv2D(c, c // reduction, 1)
        self.fc2 = nn.Conv2D(c // reduction, c, 1)

    def forward(self, x):
        s = F.relu(self.fc1(self.pool(x)))
        return x * F.hardsigmoid(self.fc2(s))


class PPLCNet(nn.Layer):
    """PP-LCNet (PaddleClas): depthwise-separable blocks with hardswish, SE in the last stage."""

    def __init__(self, num_classes=10, scale=0.25):
        super().__init__()

        def c(n):
            return max(8, int(n * scale))

        cfg = [  # (k, cin, cout, stride, se)
            (3, 32, 64, 1, False),
            (3, 64, 128, 2, False),
            (3, 128, 128, 1, False),
            (3, 128, 256, 2, False),
            (5, 256, 256, 1, False),
            (5, 256, 512, 2, True),
            (5, 512, 512, 1, True),
        ]
        self.stem = ConvBNAct(3, c(32), 3, 2, act="hardswish")
        blocks = []
        for k, cin, cout, stride, se in cfg:
            blocks.append(ConvBNAct(c(cin), c(cin), k, stride, groups=c(cin), act="hardswish"))
            if se:
                blocks.append(SEModule(c(cin)))
            blocks.append(ConvBNAct(c(cin), c(cout), 1, act="hardswish"))
        self.blocks = nn.Sequential(*blocks)
        self.pool = nn.AdaptiveAvgPool2D(1)
        self.last = nn.Conv2D(c(512), 128, 1)
        self.dropout = nn.Dropout(0.2, mode="downscale_in_infer")
        self.fc = nn.Linear(128, num_classes)

    def forward(self, x):
        x = self.pool(self.blocks(self.stem(x)))
        x = self.dropout(F.hardswish(self.last(x)))
        return self.fc(paddle.flatten(x, 1))


class ConvNeXtBlock(nn.Layer):
    def __init__(self, dim):
        super().__init__()
        self.dwconv = nn.Conv2D(dim, dim, 7, padding=3, groups=dim)
        self.norm = nn.LayerNorm(dim, epsilon=1e-6)
        self.pwconv1 = nn.Linear(dim, 4 * dim)
        self.pwconv2 = nn.Linear(4 * dim, dim)
        self.gamma = self.create_parameter([dim], default_initializer=nn.initializer.Constant(0.5))

    def forward(self, x):
        y = self.dwconv(x).transpose([0, 2, 3, 1])
        y = self.pwconv2(F.gelu(self.pwconv1(self.norm(y))))
        return x + (self.gamma * y).transpose([0, 3, 1, 2])


class ConvNeXt(nn.Layer):
    """ConvNeXt (PaddleClas ConvNeXt_tiny's layout at reduced depth and width)."""

    def __init__(self, num_classes=10, dims=(16, 32, 64), depths=(1, 2, 1)):
        super().__init__()
        layers = [nn.Conv2D(3, dims[0], 4, 4), LayerNorm2D(dims[0])]
        for i, (dim, depth) in enumerate(zip(dims, depths)):
            if i:
                layers += [LayerNorm2D(dims[i - 1]), nn.Conv2D(dims[i - 1], dim, 2, 2)]
            layers += [ConvNeXtBlock(dim) for _ in range(depth)]
        self.features = nn.Sequential(*layers)
        self.norm = nn.LayerNorm(dims[-1])
        self.head = nn.Linear(dims[-1], num_classes)

    def forward(self, x):
        x = self.features(x).mean([2, 3])
        return self.head(self.norm(x))


class LayerNorm2D(nn.Layer):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim, epsilon=1e-6)

    def forward(self, x):
        return self.norm(x.transpose([0, 2, 3, 1])).transpose([0, 3, 1, 2])


class ViT(nn.Layer):
    """A ViT-tiny style vision transformer: patch embedding, class token, learned positions."""

    def __init__(self, num_classes=10, image=32, patch=8, dim=32, depth=2, heads=4):
        super().__init__()
        self.patch = nn.Conv2D(3, dim, patch, patch)
        tokens = (image // patch) ** 2 + 1
        self.cls_token = self.create_parameter(
            [1, 1, dim], default_initializer=nn.initializer.Normal(std=0.02)
        )
        self.pos = self.create_parameter(
            [1, tokens, dim], default_initializer=nn.initializer.Normal(std=0.02)
        )
        layer = nn.TransformerEncoderLayer(
            dim, heads, 2 * dim, dropout=0.1, activation="gelu", normalize_before=True
        )
        self.encoder = nn.TransformerEncoder(layer, depth, norm=nn.LayerNorm(dim))
        self.head = nn.Linear(dim, num_classes)

    def forward(self, x):
        x = self.patch(x).flatten(2).transpose([0, 2, 1])
        cls = self.cls_token.expand([paddle.shape(x)[0], -1, -1])
        x = paddle.concat([cls, x], axis=1) + self.pos
        return self.head(self.encoder(x)[:, 0])


# --- NLP encoders -----------------------------------------------------------------------------


def _attention_bias(mask):
    # [B, S] of 1 (token) / 0 (padding) -> an additive bias [B, 1, 1, S]
    return ((1.0 - mask.astype("float32")) * -1e4).unsqueeze([1, 2])


class BertEncoder(nn.Layer):
    """BERT-like: token and learned position embeddings, a post-norm TransformerEncoder with
    an attention mask, the sequence output and a pooled first token."""

    def __init__(self, vocab=100, dim=32, heads=4, depth=2, max_len=64):
        super().__init__()
        self.word = nn.Embedding(vocab, dim)
        self.position = nn.Embedding(max_len, dim)
        self.norm = nn.LayerNorm(dim)
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.1, activation="gelu")
        self.encoder = nn.TransformerEncoder(layer, depth)
        self.pool = nn.Linear(dim, dim)

    def forward(self, input_ids, attention_mask):
        positions = paddle.arange(paddle.shape(input_ids)[1], dtype="int64").unsqueeze(0)
        x = self.norm(self.word(input_ids) + self.position(positions))
        seq = self.encoder(x, src_mask=_attention_bias(attention_mask))
        return seq, F.tanh(self.pool(seq[:, 0]))


class ErnieModel(nn.Layer):
    """ERNIE-like (PaddleNLP ErnieModel's layout): word, position and token-type embeddings,
    LayerNorm and dropout, encoder, tanh pooler; positions from a cumsum of ones as ERNIE does."""

    def __init__(self, vocab=120, dim=32, heads=4, depth=2, max_len=64, types=2):
        super().__init__()
        self.word = nn.Embedding(vocab, dim, padding_idx=0)
        self.position = nn.Embedding(max_len, dim)
        self.token_type = nn.Embedding(types, dim)
        self.norm = nn.LayerNorm(dim)
        self.dropout = nn.Dropout(0.1)
        layer = nn.TransformerEncoderLayer(
            dim, heads, 2 * dim, dropout=0.1, activation="gelu", attn_dropout=0.1, act_dropout=0.0
        )
        self.encoder = nn.TransformerEncoder(layer, depth)
        self.pooler = nn.Linear(dim, dim)

    def forward(self, input_ids, token_type_ids):
        ones = paddle.ones_like(input_ids, dtype="int64")
        positions = paddle.cumsum(ones, axis=-1) - ones
        mask = (input_ids == 0).astype("float32").unsqueeze([1, 2]) * -1e4
        x = self.word(input_ids) + self.position(positions) + self.token_type(token_type_ids)
        seq = self.encoder(self.dropout(self.norm(x)), src_mask=mask)
        return seq, F.tanh(self.pooler(seq[:, 0]))


class GPTDecoder(nn.Layer):
    """GPT-like decoder-only stack: pre-norm layers under a causal mask built at run time."""

    def __init__(self, vocab=100, dim=32, heads=4, depth=2, max_len=64):
        super().__init__()
        self.word = nn.Embedding(vocab, dim)
        self.position = nn.Embedding(max_len, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.0, normalize_before=True)
        self.blocks = nn.TransformerEncoder(layer, depth, norm=nn.LayerNorm(dim))

    def forward(self, input_ids):
        seq_len = paddle.shape(input_ids)[1]
        positions = paddle.arange(seq_len, dtype="int64").unsqueeze(0)
        causal = paddle.triu(paddle.full([seq_len, seq_len], -1e4, "float32"), diagonal=1)
        h = self.blocks(self.word(input_ids) + self.position(positions), src_mask=causal)
        return paddle.matmul(h, self.word.weight, transpose_y=True)


class TextCNN(nn.Layer):
    def __init__(self, vocab=100, dim=16, filters=8, sizes=(2, 3, 4), num_classes=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.convs = nn.LayerList([nn.Conv1D(dim, filters, k) for k in sizes])
        self.fc = nn.Linear(filters * len(sizes), num_classes)

    def forward(self, input_ids):
        x = self.embed(input_ids).transpose([0, 2, 1])
        pooled = [F.relu(conv(x)).max(axis=-1) for conv in self.convs]
        return F.softmax(self.fc(paddle.concat(pooled, axis=-1)))


class LSTMClassifier(nn.Layer):
    def __init__(self, vocab=100, dim=16, hidden=16, num_classes=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, hidden, num_layers=2, direction="bidirect")
        self.fc = nn.Linear(2 * hidden, num_classes)

    def forward(self, input_ids):
        out, _ = self.lstm(self.embed(input_ids))
        return self.fc(out.mean(axis=1))


# --- OCR --------------------------------------------------------------------------------------


class DBNet(nn.Layer):
    """DB text detection (PaddleOCR's DBNet layout): a small strided backbone, an FPN neck with
    nearest upsampling and a probability head of two transposed convolutions."""

    def __init__(self, width=8):
        super().__init__()
        chans = [width, 2 * width, 4 * width, 8 * width]
        self.stages = nn.LayerList()
        cin = 3
        for c in chans:
            self.stages.append(nn.Sequential(ConvBNAct(cin, c, 3, 2), ConvBNAct(c, c, 3)))
            cin = c
        inner = 4 * width
        self.lateral = nn.LayerList([nn.Conv2D(c, inner, 1, bias_attr=False) for c in chans])
        self.smooth = nn.LayerList(
            [nn.Conv2D(inner, inner // 4, 3, padding=1, bias_attr=False) for _ in chans]
        )
        self.head = nn.Sequential(
            ConvBNAct(inner, inner // 4, 3),
            nn.Conv2DTranspose(inner // 4, inner // 4, 2, 2),
            nn.BatchNorm2D(inner // 4),
            nn.ReLU(),
            nn.Conv2DTranspose(inner // 4, 1, 2, 2),
        )

    def forward(self, x):
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)
        lat = [conv(f) for conv, f in zip(self.lateral, feats)]
        for i in range(len(lat) - 1, 0, -1):
            lat[i - 1] = lat[i - 1] + F.upsample(lat[i], scale_factor=2, mode="nearest")
        outs = [self.smooth[0](lat[0])]
        for i in range(1, len(lat)):
            outs.append(F.upsample(self.smooth[i](lat[i]), scale_factor=2**i, mode="nearest"))
        return F.sigmoid(self.head(paddle.concat(outs, axis=1)))


class CRNN(nn.Layer):
    """CRNN text recognition (PaddleOCR's rec head): a conv backbone that brings a 32-pixel
    height to 1, the width as the sequence, a bidirectional LSTM or GRU, a per-step softmax
    over the character set (CTC greedy decoding runs outside the model)."""

    def __init__(self, rnn="lstm", width=16, hidden=24, num_classes=37):
        super().__init__()
        self.backbone = nn.Sequential(
            ConvBNAct(3, width, 3, 1),
            nn.MaxPool2D(2, 2),  # 16 x W/2
            ConvBNAct(width, 2 * width, 3, 1),
            nn.MaxPool2D(2, 2),  # 8 x W/4
            ConvBNAct(2 * width, 4 * width, 3, 1),
            nn.MaxPool2D((2, 1), (2, 1)),  # 4
            ConvBNAct(4 * width, 4 * width, 3, 1),
            nn.MaxPool2D((2, 1), (2, 1)),  # 2
            nn.MaxPool2D((2, 1), (2, 1)),  # 1
        )
        cls = nn.LSTM if rnn == "lstm" else nn.GRU
        self.rnn = cls(4 * width, hidden, num_layers=2, direction="bidirect")
        self.fc = nn.Linear(2 * hidden, num_classes)

    def forward(self, x):
        feat = self.backbone(x).squeeze(2).transpose([0, 2, 1])
        seq, _ = self.rnn(feat)
        return F.softmax(self.fc(seq), axis=2)


class SVTRTiny(nn.Layer):
    """SVTR-like recognition: a conv stem, global mixing by transformer layers over the width,
    a CTC head."""

    def __init__(self, dim=32, num_classes=37):
        super().__init__()
        self.stem = nn.Sequential(ConvBNAct(3, dim // 2, 3, 2), ConvBNAct(dim // 2, dim, 3, 2))
        layer = nn.TransformerEncoderLayer(dim, 4, 2 * dim, dropout=0.0, normalize_before=True)
        self.mixer = nn.TransformerEncoder(layer, 2)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, x):
        x = self.stem(x).mean(axis=2).transpose([0, 2, 1])  # the height pooled away
        return F.softmax(self.head(self.mixer(x)), axis=2)


# --- segmentation -----------------------------------------------------------------------------


class UNet(nn.Layer):
    def __init__(self, width=8, num_classes=3):
        super().__init__()
        w = [width, 2 * width, 4 * width]
        self.enc = nn.LayerList()
        cin = 3
        for c in w:
            self.enc.append(nn.Sequential(ConvBNAct(cin, c), ConvBNAct(c, c)))
            cin = c
        self.pool = nn.MaxPool2D(2, 2)
        self.mid = nn.Sequential(ConvBNAct(w[-1], 2 * w[-1]), ConvBNAct(2 * w[-1], w[-1]))
        self.up = nn.LayerList()
        self.dec = nn.LayerList()
        for c in reversed(w):
            self.up.append(nn.Conv2DTranspose(c, c, 2, 2))
            self.dec.append(nn.Sequential(ConvBNAct(2 * c, c), ConvBNAct(c, max(c // 2, width))))
        self.cls = nn.Conv2D(width, num_classes, 1)

    def forward(self, x):
        skips = []
        for enc in self.enc:
            x = enc(x)
            skips.append(x)
            x = self.pool(x)
        x = self.mid(x)
        for up, dec, skip in zip(self.up, self.dec, reversed(skips)):
            x = dec(paddle.concat([up(x), skip], axis=1))
        return self.cls(x)


class DeepLabV3(nn.Layer):
    """DeepLabV3: a dilated backbone, ASPP (1x1, dilated 3x3 branches and image pooling
    upsampled bilinearly to the feature size), and a bilinear upsample to the input size."""

    def __init__(self, width=8, num_classes=4):
        super().__init__()
        self.backbone = nn.Sequential(
            ConvBNAct(3, width, 3, 2),
            ConvBNAct(width, 2 * width, 3, 2),
            ConvBNAct(2 * width, 4 * width, 3, 2),
            ConvBNAct(4 * width, 4 * width, 3, 1, dilation=2),
        )
        c = 4 * width
        self.aspp = nn.LayerList(
            [ConvBNAct(c, c, 1)] + [ConvBNAct(c, c, 3, dilation=d) for d in (2, 4)]
        )
        self.image_pool = nn.Sequential(nn.AdaptiveAvgPool2D(1), ConvBNAct(c, c, 1))
        self.project = ConvBNAct(4 * c, c, 1)
        self.cls = nn.Conv2D(c, num_classes, 1)

    def forward(self, x):
        size = paddle.shape(x)[2:]
        f = self.backbone(x)
        branches = [branch(f) for branch in self.aspp]
        pooled = self.image_pool(f)
        branches.append(
            F.interpolate(pooled, size=paddle.shape(f)[2:], mode="bilinear", align_corners=False)
        )
        y = self.cls(self.project(paddle.concat(branches, axis=1)))
        return F.interpolate(y, size=size, mode="bilinear", align_corners=False)


class FCN(nn.Layer):
    """FCN-8s style: score maps from three depths fused with transposed-convolution
    upsampling."""

    def __init__(self, width=8, num_classes=3):
        super().__init__()
        self.s1 = nn.Sequential(
            ConvBNAct(3, width, 3, 2),
            ConvBNAct(width, width, 3, 2),
            ConvBNAct(width, 2 * width, 3, 2),
        )
        self.s2 = ConvBNAct(2 * width, 4 * width, 3, 2)
        self.s3 = ConvBNAct(4 * width, 8 * width, 3, 2)
        self.score = nn.LayerList(
            [nn.Conv2D(c, num_classes, 1) for c in (2 * width, 4 * width, 8 * width)]
        )
        self.up2a = nn.Conv2DTranspose(num_classes, num_classes, 4, 2, 1)
        self.up2b = nn.Conv2DTranspose(num_classes, num_classes, 4, 2, 1)
        self.up8 = nn.Conv2DTranspose(num_classes, num_classes, 16, 8, 4)

    def forward(self, x):
        f1 = self.s1(x)
        f2 = self.s2(f1)
        f3 = self.s3(f2)
        y = self.up2a(self.score[2](f3)) + self.score[1](f2)
        y = self.up2b(y) + self.score[0](f1)
        return self.up8(y)


# --- detection (waits for yolo_box, multiclass_nms3, prior_box, box_coder, roi_align) -------


def _multiclass_nms3(
    bboxes, scores, score_threshold=0.01, nms_top_k=100, keep_top_k=20, nms_threshold=0.45
):
    """PaddleDetection's ``ops.multiclass_nms``: the ``multiclass_nms3`` op."""
    from paddle import _C_ops
    from paddle.framework import in_dynamic_or_pir_mode

    if in_dynamic_or_pir_mode():
        out, _index, _num = _C_ops.multiclass_nms3(
            bboxes,
            scores,
            None,
            score_threshold,
            nms_top_k,
            keep_top_k,
            nms_threshold,
            True,
            1.0,
            -1,
        )
        return out
    helper = paddle.base.layer_helper.LayerHelper("multiclass_nms3")
    out = helper.create_variable_for_type_inference(bboxes.dtype)
    index = helper.create_variable_for_type_inference("int32")
    num = helper.create_variable_for_type_inference("int32")
    helper.append_op(
        type="multiclass_nms3",
        inputs={"BBoxes": bboxes, "Scores": scores},
        attrs={
            "background_label": -1,
            "score_threshold": score_threshold,
            "nms_top_k": nms_top_k,
            "nms_threshold": nms_threshold,
            "keep_top_k": keep_top_k,
            "nms_eta": 1.0,
            "normalized": True,
        },
        outputs={"Out": out, "Index": index, "NmsRoisNum": num},
    )
    return out


class YOLOv3Head(nn.Layer):
    """YOLOv3 (PaddleDetection's layout at small width): a backbone, one detection level,
    ``yolo_box`` decoding and ``multiclass_nms3``."""

    def __init__(self, width=8, num_classes=4):
        super().__init__()
        self.num_classes = num_classes
        self.anchors = [10, 13, 16, 30, 33, 23]
        self.backbone = nn.Sequential(
            *[ConvBNAct(3 if i == 0 else width * 2**i // 2, width * 2**i, 3, 2) for i in range(4)]
        )
        self.head = nn.Conv2D(width * 8, 3 * (5 + num_classes), 1)

    def forward(self, image, im_shape):
        out = self.head(self.backbone(image))
        boxes, scores = paddle.vision.ops.yolo_box(
            out, im_shape, self.anchors, self.num_classes, 0.01, 16, clip_bbox=True, scale_x_y=1.0
        )
        return _multiclass_nms3(boxes, scores.transpose([0, 2, 1]))


class SSDLite(nn.Layer):
    """SSD (PaddleDetection's SSD head at small width): ``prior_box`` anchors, ``box_coder``
    decoding and ``multiclass_nms3``."""

    def __init__(self, width=8, num_classes=3):
        super().__init__()
        self.backbone = nn.Sequential(
            ConvBNAct(3, width, 3, 2),
            ConvBNAct(width, 2 * width, 3, 2),
            ConvBNAct(2 * width, 4 * width, 3, 2),
        )
        self.num_priors = 2
        self.loc = nn.Conv2D(4 * width, self.num_priors * 4, 3, padding=1)
        self.conf = nn.Conv2D(4 * width, self.num_priors * num_classes, 3, padding=1)
        self.num_classes = num_classes

    def forward(self, image):
        f = self.backbone(image)
        priors, variances = paddle.vision.ops.prior_box(
            f, image, min_sizes=[16.0], max_sizes=[32.0], clip=True
        )
        priors = priors.reshape([-1, 4])
        variances = variances.reshape([-1, 4])
        loc = self.loc(f).transpose([0, 2, 3, 1]).reshape([0, -1, 4])
        conf = F.softmax(self.conf(f).transpose([0, 2, 3, 1]).reshape([0, -1, self.num_classes]))
        boxes = paddle.vision.ops.box_coder(
            priors, variances, loc, code_type="decode_center_size", box_normalized=True
        )
        return _multiclass_nms3(boxes, conf.transpose([0, 2, 1]))


class RCNNHead(nn.Layer):
    """A Faster R-CNN box head on given proposals: ``roi_align`` then two fully connected
    layers, class scores and box deltas."""

    def __init__(self, width=8, num_classes=4):
        super().__init__()
        self.backbone = nn.Sequential(ConvBNAct(3, width, 3, 2), ConvBNAct(width, 2 * width, 3, 2))
        self.fc = nn.Linear(2 * width * 4 * 4, 32)
        self.cls = nn.Linear(32, num_classes)
        self.reg = nn.Linear(32, 4 * num_classes)

    def forward(self, image, boxes, boxes_num):
        f = self.backbone(image)
        rois = paddle.vision.ops.roi_align(f, boxes, boxes_num, output_size=4, spatial_scale=0.25)
        h = F.relu(self.fc(rois.flatten(1)))
        return F.softmax(self.cls(h)), self.reg(h)


# --- the zoo ----------------------------------------------------------------------------------

_IDS_SIZES = ((1, 8), (2, 12))
_REC_SIZES = ((1, 3, 32, 64), (2, 3, 32, 96))

ZOO: tuple[ZooModel, ...] = (
    ZooModel(
        "lenet",
        "classification",
        lambda: vm.LeNet(num_classes=10),
        _image((None, 1, 28, 28), ((1, 1, 28, 28), (3, 1, 28, 28))),
    ),
    ZooModel(
        "alexnet",
        "classification",
        _alexnet,
        _image((None, 3, 64, 64), ((1, 3, 64, 64), (2, 3, 64, 64))),
    ),
    ZooModel("vgg11", "classification", _vgg11, _image()),
    ZooModel("resnet18", "classification", lambda: vm.resnet18(num_classes=10), _image()),
    ZooModel("resnet50", "classification", lambda: vm.resnet50(num_classes=10), _image()),
    ZooModel(
        "mobilenet_v1",
        "classification",
        lambda: vm.mobilenet_v1(scale=0.25, num_classes=10),
        _image(),
    ),
    ZooModel(
        "mobilenet_v2",
        "classification",
        lambda: vm.mobilenet_v2(scale=0.25, num_classes=10),
        _image(),
    ),
    ZooModel(
        "mobilenet_v3_small",
        "classification",
        lambda: vm.mobilenet_v3_small(scale=0.35, num_classes=10),
        _image(),
    ),
    ZooModel(
        "mobilenet_v3_large",
        "classification",
        lambda: vm.mobilenet_v3_large(scale=0.35, num_classes=10),
        _image(),
    ),
    # channel_shuffle reshapes with the static height and width: only the batch is dynamic
    ZooModel(
        "shufflenet_v2_x0_25",
        "classification",
        lambda: vm.shufflenet_v2_x0_25(num_classes=10),
        _image((None, 3, 64, 64), ((1, 3, 64, 64), (2, 3, 64, 64))),
    ),
    ZooModel("squeezenet1_0", "classification", lambda: vm.squeezenet1_0(num_classes=10), _image()),
    ZooModel("squeezenet1_1", "classification", lambda: vm.squeezenet1_1(num_classes=10), _image()),
    ZooModel("densenet121", "classification", lambda: vm.densenet121(num_classes=10), _image()),
    ZooModel(
        "googlenet",
        "classification",
        _googlenet,
        _image((None, 3, 224, 224), ((1, 3, 224, 224), (2, 3, 224, 224))),
    ),
    ZooModel(
        "inception_v3",
        "classification",
        lambda: vm.inception_v3(num_classes=10),
        _image(sizes=((1, 3, 80, 80), (2, 3, 96, 96))),
    ),
    ZooModel("pplcnet", "classification", PPLCNet, _image()),
    ZooModel("convnext", "classification", ConvNeXt, _image()),
    ZooModel(
        "vit_tiny",
        "classification",
        ViT,
        _image((None, 3, 32, 32), ((1, 3, 32, 32), (3, 3, 32, 32))),
    ),
    ZooModel(
        "bert_encoder",
        "nlp",
        BertEncoder,
        (
            ZooInput("input_ids", (None, None), "int64", _IDS_SIZES, "ids:100"),
            ZooInput("attention_mask", (None, None), "int64", _IDS_SIZES, "mask"),
        ),
    ),
    ZooModel(
        "ernie",
        "nlp",
        ErnieModel,
        (
            ZooInput("input_ids", (None, None), "int64", _IDS_SIZES, "ids:120"),
            ZooInput("token_type_ids", (None, None), "int64", _IDS_SIZES, "ids:2"),
        ),
    ),
    ZooModel(
        "gpt_decoder",
        "nlp",
        GPTDecoder,
        (ZooInput("input_ids", (None, None), "int64", _IDS_SIZES, "ids:100"),),
    ),
    ZooModel(
        "textcnn",
        "nlp",
        TextCNN,
        (ZooInput("input_ids", (None, None), "int64", _IDS_SIZES, "ids:100"),),
    ),
    ZooModel(
        "lstm_classifier",
        "nlp",
        LSTMClassifier,
        (ZooInput("input_ids", (None, None), "int64", _IDS_SIZES, "ids:100"),),
    ),
    ZooModel("db_det", "ocr_detection", DBNet, _image(sizes=((1, 3, 64, 64), (2, 3, 96, 64)))),
    ZooModel(
        "crnn_bilstm",
        "ocr_recognition",
        lambda: CRNN("lstm"),
        _image((None, 3, 32, None), _REC_SIZES),
        postprocess="ctc_greedy",
    ),
    ZooModel(
        "crnn_gru",
        "ocr_recognition",
        lambda: CRNN("gru"),
        _image((None, 3, 32, None), _REC_SIZES),
        postprocess="ctc_greedy",
    ),
    ZooModel(
        "svtr_tiny",
        "ocr_recognition",
        SVTRTiny,
        _image((None, 3, 32, None), _REC_SIZES),
        postprocess="ctc_greedy",
    ),
    ZooModel("unet", "segmentation", UNet, _image()),
    ZooModel("deeplabv3", "segmentation", DeepLabV3, _image()),
    # FCN-8s fuses strides 8, 16 and 32: sides that are multiples of 32
    ZooModel("fcn", "segmentation", FCN, _image(sizes=((1, 3, 64, 64), (2, 3, 96, 96)))),
    ZooModel(
        "yolov3",
        "detection",
        YOLOv3Head,
        (
            ZooInput("image", (None, 3, None, None), "float32", ((1, 3, 64, 64), (2, 3, 96, 96))),
            ZooInput("im_shape", (None, 2), "int32", ((1, 2), (2, 2)), "const:64,64"),
        ),
    ),
    ZooModel(
        "ssdlite",
        "detection",
        SSDLite,
        (ZooInput("image", (None, 3, None, None), "float32", ((1, 3, 64, 64), (2, 3, 96, 96))),),
    ),
    ZooModel(
        "rcnn_head",
        "detection",
        RCNNHead,
        (
            ZooInput("image", (None, 3, None, None), "float32", ((1, 3, 64, 64), (2, 3, 64, 64))),
            ZooInput("boxes", (None, 4), "float32", ((2, 4), (4, 4)), "const:4,4,40,40"),
            ZooInput("boxes_num", (None,), "int32", ((1,), (2,)), "const:2"),
        ),
    ),
)
