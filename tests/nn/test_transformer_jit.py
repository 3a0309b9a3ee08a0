"""The attention and Transformer layers saved with ``jit.save`` and run by ``jit.load``: the
small-transformer tutorial (a TransformerEncoder classifier trained a few steps with Adam, saved
with a batch-free InputSpec) and each layer kind, with masks as inputs and as constants, several
outputs (need_weights) and F.scaled_dot_product_attention; the loaded model gives the eager
layer's eval outputs."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

import phiops as paddle
from tests.nn import transformer_cases as cases

nn = paddle.nn
InputSpec = paddle.static.InputSpec
D, SEQ = cases.D, cases.SEQ
RNG = np.random.default_rng(21)


@pytest.fixture(autouse=True)
def fresh_names() -> Any:
    with paddle.static.unique_name_guard():
        yield


def _save_and_load(layer: Any, path: Path, specs: list) -> Any:
    paddle.jit.save(layer, path, input_spec=specs)
    return paddle.jit.load(path)


def _eager(layer: Any, *arrays: np.ndarray) -> list[np.ndarray]:
    outputs = layer(*(paddle.to_tensor(a) for a in arrays))
    outputs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    return [o.numpy() for o in outputs]


def _loaded(model: Any, *arrays: np.ndarray) -> list[np.ndarray]:
    outputs = model(*arrays)
    outputs = outputs if isinstance(outputs, list) else [outputs]
    return [o.numpy() for o in outputs]


def test_the_tutorial_classifier_trained_with_adam_saves_and_loads(tmp_path: Path) -> None:
    paddle.seed(3)
    model = cases.classifier(paddle)()
    x = RNG.standard_normal((8, SEQ, D)).astype(np.float32)
    y = RNG.integers(0, cases.CLASSES, (8,)).astype(np.int64)
    losses = cases.train_classifier(paddle, model, x, y, steps=5)
    assert losses[-1] < losses[0]
    loaded = _save_and_load(model, tmp_path / "classifier", [InputSpec([None, SEQ, D], "float32")])
    assert model.training  # jit.save leaves the layer in the mode it found it in
    model.eval()
    for batch in (x, x[:3], RNG.standard_normal((1, SEQ, D)).astype(np.float32)):
        np.testing.assert_allclose(
            _loaded(loaded, batch)[0], _eager(model, batch)[0], rtol=1e-5, atol=1e-6
        )


class _WithMaskInput(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        layer = nn.TransformerEncoderLayer(D, 2, 16, activation="gelu", normalize_before=True)
        self.encoder = nn.TransformerEncoder(layer, 2, nn.LayerNorm(D))

    def forward(self, src: Any, src_mask: Any) -> Any:
        return self.encoder(src, src_mask)


class _AttentionWithWeights(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.attn = nn.MultiHeadAttention(D, 2, dropout=0.1, kdim=6, vdim=4, need_weights=True)

    def forward(self, query: Any, key: Any, value: Any) -> Any:
        return self.attn(query, key, value)


class _Seq2Seq(nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.transformer = nn.Transformer(D, 2, 1, 2, 16)

    def forward(self, src: Any, tgt: Any) -> Any:
        mask = self.transformer.generate_square_subsequent_mask(tgt.shape[1])
        return self.transformer(src, tgt, tgt_mask=mask)


class _Sdpa(nn.Layer):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__()
        self.kwargs = kwargs

    def forward(self, q: Any, k: Any, v: Any) -> Any:
        return nn.functional.scaled_dot_product_attention(q, k, v, **self.kwargs)


def _floats(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


SAVED: dict[str, tuple[Callable[[], Any], list, list[np.ndarray]]] = {
    "encoder_with_a_bool_mask_input": (
        _WithMaskInput,
        [InputSpec([None, SEQ, D], "float32"), InputSpec([None, 1, SEQ, SEQ], "bool")],
        [_floats(2, SEQ, D), RNG.random((2, 1, SEQ, SEQ)) > 0.3],
    ),
    "attention_returning_its_weights": (
        _AttentionWithWeights,
        [
            InputSpec([None, 3, D], "float32"),
            InputSpec([None, 5, 6], "float32"),
            InputSpec([None, 5, 4], "float32"),
        ],
        [_floats(2, 3, D), _floats(2, 5, 6), _floats(2, 5, 4)],
    ),
    "transformer_with_a_causal_mask": (
        _Seq2Seq,
        [InputSpec([None, 5, D], "float32"), InputSpec([None, 4, D], "float32")],
        [_floats(2, 5, D), _floats(2, 4, D)],
    ),
    "sdpa_causal": (
        lambda: _Sdpa(is_causal=True),
        [InputSpec([None, 4, 2, 4], "float32")] * 3,
        [_floats(2, 4, 2, 4), _floats(2, 4, 2, 4), _floats(2, 4, 2, 4)],
    ),
    "sdpa_grouped_query": (
        lambda: _Sdpa(scale=0.4),
        [
            InputSpec([None, 4, 4, 4], "float32"),
            InputSpec([None, 5, 2, 4], "float32"),
            InputSpec([None, 5, 2, 4], "float32"),
        ],
        [_floats(2, 4, 4, 4), _floats(2, 5, 2, 4), _floats(2, 5, 2, 4)],
    ),
}


@pytest.mark.parametrize("name", sorted(SAVED))
def test_a_saved_layer_loads_with_the_eager_outputs(name: str, tmp_path: Path) -> None:
    make, specs, arrays = SAVED[name]
    paddle.seed(9)
    layer = make()
    loaded = _save_and_load(layer, tmp_path / name, specs)
    layer.eval()
    want = _eager(layer, *arrays)
    got = _loaded(loaded, *arrays)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
