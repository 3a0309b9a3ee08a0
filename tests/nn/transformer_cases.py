"""The attention and Transformer cases compared with PaddlePaddle 3.3.1, written once against
PaddlePaddle's API so that the same code runs with ``paddle`` (tests/tools/make_transformer_fixtures.py,
in the side venv, writes tests/data/nn/transformer/) and with ``phiops as paddle``
(tests/nn/test_transformer.py).

A case builds its layer (``build(paddle)``, None for a function), names its inputs (shape and kind:
"float" standard normal, "bool" a mask with about a third False, "float_mask" a mask of
-1e9/-inf/0 entries) and runs ``forward(paddle, layer, inputs)`` -> {name: output tensor}.
Layers run in eval mode. ``grads`` asks for the gradients of sum(output * probe) w.r.t. the float
inputs and every parameter."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

D = 8  # embed_dim / d_model
HEADS = 2
FF = 16


@dataclass(frozen=True)
class Case:
    build: Callable[[Any], Any] | None
    inputs: dict[str, tuple[tuple[int, ...], str]]
    forward: Callable[[Any, Any, dict], dict]
    grads: bool = True
    extra: dict = field(default_factory=dict)


def _mha(**kwargs: Any) -> Callable[[Any], Any]:
    return lambda paddle: paddle.nn.MultiHeadAttention(D, HEADS, **kwargs)


def _mha_out(result: Any) -> dict:
    if isinstance(result, tuple):
        return {"out": result[0], "weights": result[1]}
    return {"out": result}


def _decode_with_cache(paddle: Any, mha: Any, t: dict) -> dict:
    """Self attention one position at a time through a Cache; each step's output and the final
    cache's keys and values."""
    cache = mha.gen_cache(t["query"])
    outs = {}
    for step in range(t["query"].shape[1]):
        out, cache = mha(t["query"][:, step : step + 1, :], cache=cache)
        outs[f"step{step}"] = out
    outs["cache_k"], outs["cache_v"] = cache.k, cache.v
    return outs


def _cross_with_static_cache(paddle: Any, mha: Any, t: dict) -> dict:
    cache = mha.gen_cache(t["key"], t["value"], type=mha.StaticCache)
    out, same = mha(t["query"], t["key"], t["value"], cache=cache)
    return {"out": out, "static_k": same.k, "static_v": same.v}


def _given_cache(paddle: Any, mha: Any, t: dict) -> dict:
    """A Cache made from given keys and values (gen_cache(key, value)), one step after it."""
    k = paddle.reshape(t["past_k"], [2, HEADS, 3, D // HEADS])
    v = paddle.reshape(t["past_v"], [2, HEADS, 3, D // HEADS])
    out, cache = mha(t["query"], cache=mha.gen_cache(k, v))
    return {"out": out, "cache_k": cache.k, "cache_v": cache.v}


def _encoder_layer(**kwargs: Any) -> Callable[[Any], Any]:
    return lambda paddle: paddle.nn.TransformerEncoderLayer(D, HEADS, FF, **kwargs)


def _decoder_layer(**kwargs: Any) -> Callable[[Any], Any]:
    return lambda paddle: paddle.nn.TransformerDecoderLayer(D, HEADS, FF, **kwargs)


def _encoder(paddle: Any) -> Any:
    layer = paddle.nn.TransformerEncoderLayer(D, HEADS, FF, dropout=0.1, activation="gelu")
    return paddle.nn.TransformerEncoder(layer, 2, paddle.nn.LayerNorm(D))


def _decoder(paddle: Any) -> Any:
    layer = paddle.nn.TransformerDecoderLayer(D, HEADS, FF, normalize_before=True)
    return paddle.nn.TransformerDecoder(layer, 2, paddle.nn.LayerNorm(D))


def _causal(paddle: Any, length: int) -> Any:
    return paddle.nn.Transformer.generate_square_subsequent_mask(None, length)


def _decoder_steps(paddle: Any, decoder: Any, t: dict) -> dict:
    """Incremental decoding: gen_cache(memory), then one target position at a time."""
    cache = decoder.gen_cache(t["memory"])
    outs = {}
    for step in range(t["tgt"].shape[1]):
        out, cache = decoder(t["tgt"][:, step : step + 1, :], t["memory"], cache=cache)
        outs[f"step{step}"] = out
    outs["self_k_last"] = cache[-1][0].k
    return outs


def _sdpa(**kwargs: Any) -> Callable[[Any, Any, dict], dict]:
    def forward(paddle: Any, _: Any, t: dict) -> dict:
        mask = t.get("mask")
        out = paddle.nn.functional.scaled_dot_product_attention(
            t["q"], t["k"], t["v"], attn_mask=mask, **kwargs
        )
        return {"out": out}

    return forward


QKV = {
    "q": ((2, 4, HEADS, 4), "float"),
    "k": ((2, 5, HEADS, 4), "float"),
    "v": ((2, 5, HEADS, 4), "float"),
}

CASES: dict[str, Case] = {
    "mha_self": Case(
        _mha(), {"query": ((2, 4, D), "float")}, lambda p, m, t: _mha_out(m(t["query"]))
    ),
    "mha_kdim_vdim_bool_mask_weights": Case(
        lambda paddle: paddle.nn.MultiHeadAttention(D, HEADS, kdim=6, vdim=4, need_weights=True),
        {
            "query": ((2, 3, D), "float"),
            "key": ((2, 5, 6), "float"),
            "value": ((2, 5, 4), "float"),
            "mask": ((2, 1, 3, 5), "bool"),
        },
        lambda p, m, t: _mha_out(m(t["query"], t["key"], t["value"], attn_mask=t["mask"])),
    ),
    "mha_float_mask_weights_no_bias": Case(
        _mha(need_weights=True, bias_attr=False, dropout=0.2),
        {"query": ((2, 4, D), "float"), "mask": ((4, 4), "float_mask")},
        lambda p, m, t: _mha_out(m(t["query"], attn_mask=t["mask"])),
    ),
    "mha_int_mask": Case(
        _mha(),
        {"query": ((2, 4, D), "float"), "mask": ((2, 1, 1, 4), "int")},
        lambda p, m, t: _mha_out(m(t["query"], attn_mask=t["mask"])),
    ),
    "mha_incremental_cache": Case(
        _mha(), {"query": ((2, 3, D), "float")}, _decode_with_cache, grads=False
    ),
    "mha_static_cache": Case(
        _mha(),
        {"query": ((2, 2, D), "float"), "key": ((2, 5, D), "float"), "value": ((2, 5, D), "float")},
        _cross_with_static_cache,
    ),
    "mha_given_cache": Case(
        _mha(),
        {
            "query": ((2, 1, D), "float"),
            "past_k": ((2, 3, D), "float"),
            "past_v": ((2, 3, D), "float"),
        },
        _given_cache,
    ),
    "encoder_layer_post_norm_relu_bool_mask": Case(
        _encoder_layer(),
        {"src": ((2, 4, D), "float"), "mask": ((2, 1, 4, 4), "bool")},
        lambda p, m, t: {"out": m(t["src"], t["mask"])},
    ),
    "encoder_layer_pre_norm_gelu": Case(
        _encoder_layer(normalize_before=True, activation="gelu", attn_dropout=0.3, act_dropout=0.2),
        {"src": ((2, 4, D), "float")},
        lambda p, m, t: {"out": m(t["src"])},
    ),
    "encoder_two_layers_norm_causal": Case(
        _encoder,
        {"src": ((2, 5, D), "float")},
        lambda p, m, t: {"out": m(t["src"], _causal(p, 5))},
    ),
    "encoder_cache": Case(
        _encoder,
        {"src": ((2, 3, D), "float")},
        lambda p, m, t: {"out": m(t["src"], cache=m.gen_cache(t["src"]))[0]},
        grads=False,
    ),
    "decoder_layer_post_norm_masks": Case(
        _decoder_layer(),
        {
            "tgt": ((2, 4, D), "float"),
            "memory": ((2, 5, D), "float"),
            "mask": ((2, 1, 4, 5), "bool"),
        },
        lambda p, m, t: {"out": m(t["tgt"], t["memory"], _causal(p, 4), t["mask"])},
    ),
    "decoder_layer_pre_norm_gelu": Case(
        _decoder_layer(normalize_before=True, activation="gelu"),
        {"tgt": ((2, 3, D), "float"), "memory": ((2, 4, D), "float")},
        lambda p, m, t: {"out": m(t["tgt"], t["memory"])},
    ),
    "decoder_two_layers_norm": Case(
        _decoder,
        {"tgt": ((2, 3, D), "float"), "memory": ((2, 4, D), "float")},
        lambda p, m, t: {"out": m(t["tgt"], t["memory"], _causal(p, 3))},
    ),
    "decoder_incremental_cache": Case(
        _decoder,
        {"tgt": ((2, 3, D), "float"), "memory": ((2, 4, D), "float")},
        _decoder_steps,
        grads=False,
    ),
    "transformer": Case(
        lambda paddle: paddle.nn.Transformer(D, HEADS, 1, 1, FF),
        {
            "src": ((2, 5, D), "float"),
            "tgt": ((2, 4, D), "float"),
            "src_mask": ((2, 1, 5, 5), "bool"),
        },
        lambda p, m, t: {
            "out": m(t["src"], t["tgt"], t["src_mask"], m.generate_square_subsequent_mask(4), None)
        },
    ),
    "sdpa": Case(None, QKV, _sdpa()),
    "sdpa_bool_mask": Case(None, {**QKV, "mask": ((2, 1, 4, 5), "bool")}, _sdpa()),
    "sdpa_float_mask_scale": Case(None, {**QKV, "mask": ((4, 5), "float_mask")}, _sdpa(scale=0.3)),
    "sdpa_causal": Case(
        None,
        {
            "q": ((2, 4, HEADS, 4), "float"),
            "k": ((2, 4, HEADS, 4), "float"),
            "v": ((2, 4, HEADS, 4), "float"),
        },
        _sdpa(is_causal=True),
    ),
    "sdpa_gqa": Case(
        None,
        {"q": ((2, 4, 4, 4), "float"), "k": ((2, 5, 2, 4), "float"), "v": ((2, 5, 2, 4), "float")},
        _sdpa(),
    ),
    "sdpa_unbatched": Case(
        None,
        {
            "q": ((4, HEADS, 4), "float"),
            "k": ((5, HEADS, 4), "float"),
            "v": ((5, HEADS, 4), "float"),
        },
        _sdpa(),
    ),
    "sdpa_eval_dropout": Case(None, QKV, _sdpa(dropout_p=0.5, training=False)),
}


def make_inputs(name: str, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """The case's input arrays, drawn from ``rng`` in the order the case names them."""
    arrays = {}
    for key, (shape, kind) in CASES[name].inputs.items():
        if kind == "float":
            arrays[key] = rng.standard_normal(shape).astype(np.float32)
        elif kind == "bool":
            mask = rng.random(shape) > 0.33
            mask[..., 0] = True  # every query attends to something
            arrays[key] = mask
        elif kind == "int":
            mask = (rng.random(shape) > 0.33).astype(np.int64)
            mask[..., 0] = 1
            arrays[key] = mask
        elif kind == "float_mask":
            values = rng.choice(np.array([0.0, -1e9, -np.inf, -0.5], np.float32), size=shape)
            values[..., 0] = 0.0
            arrays[key] = values.astype(np.float32)
        else:
            raise ValueError(f"case {name}: unknown input kind {kind!r}")
    return arrays


def run(paddle: Any, name: str, arrays: dict[str, np.ndarray], state: dict | None = None) -> tuple:
    """Build the case's layer (loading ``state`` when given), run it in eval mode and, when the
    case asks, backpropagate sum(output * probe). Returns (layer, inputs, outputs, probes)."""
    case = CASES[name]
    layer = case.build(paddle) if case.build is not None else None
    if layer is not None:
        if state is not None:
            missing, unexpected = layer.set_state_dict(
                {k: paddle.to_tensor(v) for k, v in state.items()}
            )
            assert not missing and not unexpected, (missing, unexpected)
        layer.eval()
    inputs = {
        key: paddle.to_tensor(value, stop_gradient=value.dtype != np.float32 or "mask" in key)
        for key, value in arrays.items()
    }
    outputs = case.forward(paddle, layer, inputs)
    probes = {}
    if case.grads:
        rng = np.random.default_rng(5)
        loss = None
        for key in sorted(outputs):
            probe = rng.standard_normal(outputs[key].shape).astype(np.float32)
            probes[key] = probe
            term = (outputs[key] * paddle.to_tensor(probe)).sum()
            loss = term if loss is None else loss + term
        loss.backward()
    return layer, inputs, outputs, probes


SEQ, CLASSES = 6, 3


def classifier(paddle: Any) -> type:
    """The tutorial's small classifier: a 2-layer TransformerEncoder, mean over the sequence,
    a Linear head (dropout 0, so that training steps are deterministic)."""

    class TransformerClassifier(paddle.nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            layer = paddle.nn.TransformerEncoderLayer(D, HEADS, FF, dropout=0.0)
            self.encoder = paddle.nn.TransformerEncoder(layer, 2, paddle.nn.LayerNorm(D))
            self.head = paddle.nn.Linear(D, CLASSES)

        def forward(self, x: Any) -> Any:
            return self.head(self.encoder(x).mean(axis=1))

    return TransformerClassifier


def train_classifier(paddle: Any, model: Any, x: np.ndarray, y: np.ndarray, steps: int) -> list:
    """``steps`` of Adam (learning rate 0.01) on cross entropy; the losses."""
    optimizer = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    losses = []
    for _ in range(steps):
        loss = paddle.nn.functional.cross_entropy(model(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(float(loss.numpy()))
    return losses
