"""What MultiHeadAttention, the Transformer layers and F.scaled_dot_product_attention promise
beyond the values PaddlePaddle gives (tests/nn/test_transformer.py): dropout only while
training, PaddlePaddle's spreading of weight_attr/bias_attr, fresh layers in the stacks, the
causal mask, the cache helpers, and errors that name the argument."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import phiops as paddle
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError

nn = paddle.nn
F = paddle.nn.functional
RNG = np.random.default_rng(13)


def _floats(*shape: int) -> Any:
    return paddle.to_tensor(RNG.standard_normal(shape).astype(np.float32))


def test_attention_dropout_applies_only_while_training() -> None:
    mha = nn.MultiHeadAttention(8, 2, dropout=1.0)
    query = _floats(2, 3, 8)
    # every attention weight dropped: the output is out_proj's bias alone
    np.testing.assert_allclose(
        mha(query).numpy(), np.broadcast_to(mha.out_proj.bias.numpy(), (2, 3, 8))
    )
    mha.eval()
    assert not np.allclose(mha(query).numpy(), mha.out_proj.bias.numpy())


def test_encoder_layer_dropout_follows_train_and_eval() -> None:
    paddle.seed(1)
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.5)
    src = _floats(2, 4, 8)
    layer.eval()
    first, second = layer(src).numpy(), layer(src).numpy()
    np.testing.assert_array_equal(first, second)
    layer.train()
    assert not np.allclose(layer(src).numpy(), first)


def test_projections_are_linears_with_paddles_default_initialisation() -> None:
    mha = nn.MultiHeadAttention(16, 4, kdim=8, vdim=12)
    assert [(k, v.shape) for k, v in mha.state_dict().items()] == [
        ("q_proj.weight", [16, 16]),
        ("q_proj.bias", [16]),
        ("k_proj.weight", [8, 16]),
        ("k_proj.bias", [16]),
        ("v_proj.weight", [12, 16]),
        ("v_proj.bias", [16]),
        ("out_proj.weight", [16, 16]),
        ("out_proj.bias", [16]),
    ]
    for proj in (mha.q_proj, mha.k_proj, mha.v_proj, mha.out_proj):
        assert isinstance(proj, nn.Linear)
        fan_in, fan_out = proj.weight.shape
        assert np.abs(proj.weight.numpy()).max() <= math.sqrt(6.0 / (fan_in + fan_out))
        np.testing.assert_array_equal(proj.bias.numpy(), 0.0)


def test_bias_attr_false_leaves_every_projection_without_bias() -> None:
    layer = nn.TransformerEncoderLayer(8, 2, 16, bias_attr=False)
    keys = list(layer.state_dict())
    assert not any(
        key.endswith("proj.bias") or key.startswith("linear") and "bias" in key for key in keys
    )
    assert "norm1.bias" in keys  # the layer norms keep theirs, as in PaddlePaddle


def test_a_named_weight_attr_is_numbered_per_sublayer_group() -> None:
    layer = nn.TransformerDecoderLayer(8, 2, 16, weight_attr=paddle.ParamAttr(name="w"))
    assert layer.self_attn.q_proj.weight.name == "w_0"
    assert layer.cross_attn.q_proj.weight.name == "w_1"
    assert layer.linear1.weight.name == "w_2"


def test_a_weight_attr_list_gives_one_attribute_per_group() -> None:
    constant = nn.initializer.Constant(0.5)
    layer = nn.TransformerEncoderLayer(
        8, 2, 16, weight_attr=[None, constant], bias_attr=[False, True]
    )
    np.testing.assert_array_equal(layer.linear1.weight.numpy(), 0.5)
    assert not np.all(layer.self_attn.q_proj.weight.numpy() == 0.5)
    assert layer.self_attn.q_proj.bias is None and layer.linear1.bias is not None


def test_transformer_spreads_a_two_entry_weight_attr_over_encoder_and_decoder() -> None:
    constant = nn.initializer.Constant(0.25)
    model = nn.Transformer(8, 2, 1, 1, 16, weight_attr=[None, constant])
    np.testing.assert_array_equal(model.encoder.layers[0].linear1.weight.numpy(), 0.25)
    np.testing.assert_array_equal(model.decoder.layers[0].linear2.weight.numpy(), 0.25)
    assert not np.all(model.decoder.layers[0].cross_attn.q_proj.weight.numpy() == 0.25)


def test_an_encoder_stacks_the_given_layer_then_fresh_ones_of_its_configuration() -> None:
    first = nn.TransformerEncoderLayer(8, 2, 16, activation="gelu", normalize_before=True)
    encoder = nn.TransformerEncoder(first, 3)
    assert encoder.layers[0] is first and len(encoder.layers) == 3
    for layer in encoder.layers[1:]:
        assert layer.normalize_before and layer.linear1.weight.shape == [8, 16]
        assert not np.array_equal(layer.linear1.weight.numpy(), first.linear1.weight.numpy())
    assert len(encoder.parameters()) == 3 * len(first.parameters())


def test_generate_square_subsequent_mask_is_minus_inf_above_the_diagonal() -> None:
    model = nn.Transformer(8, 2, 1, 1, 16)
    mask = model.generate_square_subsequent_mask(paddle.to_tensor(3)).numpy()
    assert mask.dtype == np.float32
    np.testing.assert_array_equal(mask, np.triu(np.full((3, 3), -np.inf, np.float32), 1))


def test_gen_cache_makes_empty_caches_and_decoder_caches_zip() -> None:
    mha = nn.MultiHeadAttention(8, 2)
    cache = mha.gen_cache(_floats(3, 5, 8))
    assert isinstance(cache, nn.MultiHeadAttention.Cache)
    assert cache.k.shape == [3, 2, 0, 4] and cache.v.shape == [3, 2, 0, 4]
    decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), 2)
    caches, statics = decoder.gen_cache(_floats(3, 5, 8), do_zip=True)
    assert all(isinstance(c, nn.MultiHeadAttention.Cache) for c in caches)
    assert all(isinstance(c, nn.MultiHeadAttention.StaticCache) for c in statics)
    assert statics[0].k.shape == [3, 2, 5, 4]


def test_a_cache_grows_by_the_query_length() -> None:
    mha = nn.MultiHeadAttention(8, 2)
    mha.eval()
    query = _floats(2, 3, 8)
    out, cache = mha(query, cache=mha.gen_cache(query))
    assert out.shape == [2, 3, 8] and cache.k.shape == [2, 2, 3, 4]
    np.testing.assert_allclose(out.numpy(), mha(query).numpy(), rtol=1e-6)


def test_sdpa_equals_multi_head_attention_without_projections() -> None:
    q, k, v = _floats(2, 4, 2, 4), _floats(2, 5, 2, 4), _floats(2, 5, 2, 4)
    scores = np.einsum("bqhd,bkhd->bhqk", q.numpy(), k.numpy()) / 2.0
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    want = np.einsum("bhqk,bkhd->bqhd", weights, v.numpy())
    # float32 rounding of outputs of about 1 (an output near 0 is a cancellation: an absolute
    # bound, the reference itself is 1.2e-7 off the float64 result)
    np.testing.assert_allclose(
        F.scaled_dot_product_attention(q, k, v).numpy(), want, rtol=1e-5, atol=1e-6
    )


def test_sdpa_training_dropout_of_one_gives_zeros() -> None:
    q = _floats(1, 3, 2, 4)
    out = F.scaled_dot_product_attention(q, q, q, dropout_p=1.0, training=True)
    np.testing.assert_array_equal(out.numpy(), 0.0)


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda: nn.MultiHeadAttention(0, 2), "'embed_dim'"),
        (lambda: nn.MultiHeadAttention(8, 3), "divisible by 'num_heads'"),
        (lambda: nn.MultiHeadAttention(8, 2, dropout=1.5), "'dropout'"),
        (lambda: nn.TransformerEncoderLayer(8, 2, 16, activation="swish"), "'activation'"),
        (lambda: nn.TransformerEncoderLayer(8, 2, 0), "'dim_feedforward'"),
        (lambda: nn.TransformerEncoderLayer(8, 2, 16, act_dropout=-0.1), "'act_dropout'"),
        (lambda: nn.TransformerDecoderLayer(8, 2, 16, weight_attr=[None, None]), "3 entries"),
        (lambda: nn.TransformerEncoder(nn.Linear(8, 8), 2), "'encoder_layer'"),
        (lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 0), "'num_layers'"),
        (lambda: nn.TransformerDecoder(nn.TransformerEncoderLayer(8, 2, 16), 1), "'decoder_layer'"),
        (lambda: nn.Transformer(8, 2, 1, 1, 16, bias_attr=[None] * 4), "'bias_attr'"),
        (lambda: nn.Transformer(8, 2, 1, 1, 16).generate_square_subsequent_mask(0), "'length'"),
    ],
)
def test_bad_construction_names_the_argument(make: Any, words: str) -> None:
    with pytest.raises(InvalidArgumentError, match=words):
        make()


def test_bad_calls_name_the_argument() -> None:
    mha = nn.MultiHeadAttention(8, 2)
    with pytest.raises(InvalidArgumentError, match="'query'"):
        mha(_floats(2, 3, 6))
    with pytest.raises(InvalidArgumentError, match="'cache'"):
        mha(_floats(2, 3, 8), cache=(None, None))
    with pytest.raises(InvalidArgumentError, match="'type'"):
        mha.gen_cache(_floats(2, 3, 8), type=tuple)
    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2)
    with pytest.raises(InvalidArgumentError, match="one cache per layer"):
        encoder(_floats(2, 3, 8), cache=encoder.gen_cache(_floats(2, 3, 8))[:1])


def test_sdpa_rejects_mismatched_heads_and_ring_attention() -> None:
    q, k = _floats(1, 3, 4, 4), _floats(1, 3, 3, 4)
    with pytest.raises(InvalidArgumentError, match="divide"):
        F.scaled_dot_product_attention(q, k, k)
    with pytest.raises(InvalidArgumentError, match="same number of heads"):
        F.scaled_dot_product_attention(
            q, _floats(1, 3, 2, 4), _floats(1, 3, 2, 4), enable_gqa=False
        )
    with pytest.raises(InvalidArgumentError, match="'key'"):
        F.scaled_dot_product_attention(q, _floats(3, 4, 4), q)
    with pytest.raises(InvalidArgumentError, match="'dropout_p'"):
        F.scaled_dot_product_attention(q, q, q, dropout_p=2.0)
    with pytest.raises(UnimplementedError, match="p2p"):
        F.scaled_dot_product_attention(q, q, q, backend="p2p")
