"""PaddlePaddle's attention and Transformer layers (``paddle.nn.MultiHeadAttention``,
``TransformerEncoderLayer`` ... ``Transformer``), as compositions of the layers and ops phiops has:
linear projections, reshape/transpose to split heads, matmul, softmax, dropout, layer_norm.

Parameter names, shapes and default initialisers are PaddlePaddle 3.3.1's (each projection is a
``Linear``: ``q_proj.weight`` [embed_dim, embed_dim] ...), so that ``state_dict`` keys match and a
PaddlePaddle state dict loads with ``set_state_dict``. Attention masks are converted as
PaddlePaddle converts them: a bool or integer mask becomes ``(mask - 1) * 1e9`` (kept positions 0,
masked ones -1e9), a float mask is added as it is. Everything is written with ops both modes have,
so a layer traces in static mode (``jit.save``)."""

from __future__ import annotations

import collections
import copy
from typing import Any, Sequence

from phiops.runtime.common import DataType
from phiops.runtime.dispatch.op_def import op_api
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.nn import functional as F
from phiops.runtime.nn.initializer import Initializer
from phiops.runtime.nn.layer import Layer, LayerList
from phiops.runtime.nn.layers import Dropout, LayerNorm, Linear
from phiops.runtime.nn.param_attr import ParamAttr

__all__ = [
    "MultiHeadAttention",
    "TransformerEncoderLayer",
    "TransformerEncoder",
    "TransformerDecoderLayer",
    "TransformerDecoder",
    "Transformer",
]

_INTEGER_OR_BOOL = (
    DataType.BOOL,
    DataType.UINT8,
    DataType.INT8,
    DataType.INT16,
    DataType.INT32,
    DataType.INT64,
)


def _positive(where: str, **values: int) -> None:
    for argument, value in values.items():
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise InvalidArgumentError(
                f"{where}: argument '{argument}' must be a positive int, got {value!r}"
            )


def _dropout_rate(where: str, argument: str, value: Any) -> None:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 1:
        raise InvalidArgumentError(
            f"{where}: argument '{argument}' must be a probability in [0, 1], got {value!r}"
        )


def _activation(where: str, name: Any) -> Any:
    """``getattr(F, name)``, as PaddlePaddle's layers take their activation, for a name that
    ``phiops.nn.functional`` has."""
    if not isinstance(name, str) or name not in F.__all__:
        raise InvalidArgumentError(
            f"{where}: argument 'activation' must name a function of phiops.nn.functional "
            f"(relu, gelu, ...), got {name!r}"
        )
    return getattr(F, name)


def _to_attr(attr: Any, where: str) -> Any:
    """PaddlePaddle's ``ParamAttr._to_attr``: None -> ParamAttr(), a str -> its name, an
    Initializer -> its initializer, a ParamAttr as it is, False kept (no bias)."""
    if attr is None:
        return ParamAttr()
    if attr is False or isinstance(attr, ParamAttr):
        return attr
    if isinstance(attr, str):
        return ParamAttr(name=attr)
    if isinstance(attr, Initializer):
        return ParamAttr(initializer=attr)
    raise InvalidArgumentError(
        f"{where}: a weight_attr/bias_attr must be None, False, a name, an Initializer or a "
        f"ParamAttr, got {attr!r}"
    )


def _convert_param_attr_to_list(param_attr: Any, n: int, where: str) -> list[Any]:
    """One attribute per sublayer group, as PaddlePaddle spreads ``weight_attr``/``bias_attr``: a
    list/tuple gives one each (its length must be ``n``), a bool True/False is repeated, anything
    else is copied ``n`` times with ``_0``, ``_1``... appended to a name it carries (so that the
    parameters' names stay distinct)."""
    if isinstance(param_attr, (list, tuple)):
        if len(param_attr) != n:
            raise InvalidArgumentError(
                f"{where}: a list/tuple weight_attr or bias_attr must have {n} entries, got "
                f"{len(param_attr)}"
            )
        return [
            (ParamAttr() if attr else False) if isinstance(attr, bool) else _to_attr(attr, where)
            for attr in param_attr
        ]
    if isinstance(param_attr, bool):
        return [ParamAttr() if param_attr else False for _ in range(n)]
    attr = _to_attr(param_attr, where)
    attrs = []
    for index in range(n):
        attr_i = copy.deepcopy(attr)
        if attr.name:
            attr_i.name = f"{attr.name}_{index}"
        attrs.append(attr_i)
    return attrs


def _convert_attention_mask(attn_mask: Any, dtype: DataType) -> Any:
    """The mask as an additive bias of ``dtype``: a bool/integer mask (1/True = attend) becomes
    ``(mask - 1) * 1e9``; a float mask of another dtype is cast; None stays None."""
    if attn_mask is None or attn_mask.dtype == dtype:
        return attn_mask
    as_float = op_api("cast")(attn_mask, dtype)
    if attn_mask.dtype in _INTEGER_OR_BOOL:
        return op_api("scale")(as_float, 1e9, -1.0, False)  # (mask + -1) * 1e9
    return as_float


def _split_heads(x: Any, num_heads: int, head_dim: int) -> Any:
    """[batch, seq, num_heads * head_dim] -> [batch, num_heads, seq, head_dim]."""
    x = op_api("reshape")(x, [0, 0, num_heads, head_dim])
    return op_api("transpose")(x, [0, 2, 1, 3])


class MultiHeadAttention(Layer):
    """Multi-head attention (Attention Is All You Need): ``query``/``key``/``value`` are
    projected by ``q_proj``/``k_proj``/``v_proj``, split into ``num_heads`` heads, attended with
    softmax(q k^T / sqrt(head_dim) + mask) (dropout ``dropout`` on the weights while training),
    merged and projected by ``out_proj``. ``need_weights`` also returns the attention weights.
    ``Cache`` and ``StaticCache`` (namedtuples ``k``, ``v`` of [batch, num_heads, len, head_dim])
    hold projected keys and values for incremental decoding (see ``gen_cache``)."""

    Cache = collections.namedtuple("Cache", ["k", "v"])
    StaticCache = collections.namedtuple("StaticCache", ["k", "v"])

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        dropout: float = 0.0,
        kdim: int | None = None,
        vdim: int | None = None,
        need_weights: bool = False,
        weight_attr: Any = None,
        bias_attr: Any = None,
    ) -> None:
        super().__init__()
        where = "MultiHeadAttention"
        _positive(where, embed_dim=embed_dim, num_heads=num_heads)
        if kdim is not None:
            _positive(where, kdim=kdim)
        if vdim is not None:
            _positive(where, vdim=vdim)
        _dropout_rate(where, "dropout", dropout)
        if embed_dim % num_heads:
            raise InvalidArgumentError(
                f"{where}: argument 'embed_dim' ({embed_dim}) must be divisible by "
                f"'num_heads' ({num_heads})"
            )
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.need_weights = need_weights
        self.head_dim = embed_dim // num_heads
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _prepare_qkv(self, query: Any, key: Any, value: Any, cache: Any = None) -> tuple:
        q = _split_heads(self.q_proj(query), self.num_heads, self.head_dim)
        if isinstance(cache, self.StaticCache):
            k, v = cache.k, cache.v  # cross attention: the memory's keys and values, computed once
        else:
            k, v = self.compute_kv(key, value)
        if isinstance(cache, self.Cache):
            # self attention while decoding: this step's keys and values after the previous ones
            k = op_api("concat")([cache.k, k], 2)
            v = op_api("concat")([cache.v, v], 2)
            cache = self.Cache(k, v)
        return (q, k, v) if cache is None else (q, k, v, cache)

    def compute_kv(self, key: Any, value: Any) -> tuple[Any, Any]:
        """``key`` and ``value`` projected and split into heads: two tensors of
        [batch, num_heads, seq, head_dim] (what a cache holds)."""
        k = _split_heads(self.k_proj(key), self.num_heads, self.head_dim)
        v = _split_heads(self.v_proj(value), self.num_heads, self.head_dim)
        return k, v

    def gen_cache(self, key: Any, value: Any = None, type: Any = Cache) -> Any:
        """A cache for ``forward``: ``StaticCache`` of ``compute_kv(key, value)`` (cross
        attention); ``Cache`` of empty [batch, num_heads, 0, head_dim] tensors when ``value`` is
        None (``key`` gives the batch size and dtype); else ``Cache(key, value)`` as given."""
        if type is MultiHeadAttention.StaticCache:
            k, v = self.compute_kv(key, value)
            return self.StaticCache(k, v)
        if type is not MultiHeadAttention.Cache:
            raise InvalidArgumentError(
                "MultiHeadAttention.gen_cache: argument 'type' must be MultiHeadAttention.Cache "
                f"or MultiHeadAttention.StaticCache, got {type!r}"
            )
        if value is None:
            shape = [key.shape[0], self.num_heads, 0, self.head_dim]
            k = op_api("full")(shape, 0, key.dtype, key.place)
            v = op_api("full")(shape, 0, key.dtype, key.place)
            return self.Cache(k, v)
        return self.Cache(key, value)

    def forward(
        self,
        query: Any,
        key: Any = None,
        value: Any = None,
        attn_mask: Any = None,
        cache: Any = None,
    ) -> Any:
        """Attend ``query`` [batch, q_len, embed_dim] to ``key`` [batch, k_len, kdim] and
        ``value`` [batch, k_len, vdim] (both default to ``query``). ``attn_mask`` broadcasts to
        [batch, num_heads, q_len, k_len]: bool/int (False/0 = masked) or float (added). Returns
        the output, followed by the weights when ``need_weights`` and by the updated cache when
        ``cache`` is given (a tuple when there is more than the output)."""
        if query.ndim != 3 or query.shape[-1] != self.embed_dim:
            raise InvalidArgumentError(
                f"MultiHeadAttention: argument 'query' must be [batch, seq, {self.embed_dim}], "
                f"got shape {query.shape}"
            )
        if cache is not None and not isinstance(cache, (self.Cache, self.StaticCache)):
            raise InvalidArgumentError(
                "MultiHeadAttention: argument 'cache' must be a MultiHeadAttention.Cache or "
                f"StaticCache (see gen_cache), got {type(cache).__name__}"
            )
        key = query if key is None else key
        value = query if value is None else value
        if cache is None:
            q, k, v = self._prepare_qkv(query, key, value, cache)
        else:
            q, k, v, cache = self._prepare_qkv(query, key, value, cache)
        product = op_api("matmul")(q * (self.head_dim**-0.5), k, False, True)
        if attn_mask is not None:
            product = product + _convert_attention_mask(attn_mask, product.dtype)
        weights = F.softmax(product)
        if self.dropout:
            weights = F.dropout(
                weights, self.dropout, training=self.training, mode="upscale_in_train"
            )
        out = op_api("matmul")(weights, v, False, False)
        out = op_api("transpose")(out, [0, 2, 1, 3])
        out = op_api("reshape")(out, [0, 0, out.shape[2] * out.shape[3]])
        out = self.out_proj(out)
        outs = [out]
        if self.need_weights:
            outs.append(weights)
        if cache is not None:
            outs.append(cache)
        return out if len(outs) == 1 else tuple(outs)

    def extra_repr(self) -> str:
        return f"embed_dim={self.embed_dim}, num_heads={self.num_heads}, dropout={self.dropout}"


def _check_layer_arguments(
    where: str,
    d_model: Any,
    nhead: Any,
    dim_feedforward: Any,
    dropout: Any,
    attn_dropout: Any,
    act_dropout: Any,
) -> None:
    _positive(where, d_model=d_model, nhead=nhead, dim_feedforward=dim_feedforward)
    _dropout_rate(where, "dropout", dropout)
    if attn_dropout is not None:
        _dropout_rate(where, "attn_dropout", attn_dropout)
    if act_dropout is not None:
        _dropout_rate(where, "act_dropout", act_dropout)


class TransformerEncoderLayer(Layer):
    """One encoder layer: self attention then a feed-forward network (``linear1``, activation,
    ``linear2``), each with dropout, a residual connection and layer norm — after the sublayer
    (post-norm) or, with ``normalize_before``, before it (pre-norm). ``attn_dropout`` and
    ``act_dropout`` default to ``dropout``."""

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int,
        dropout: float = 0.1,
        activation: str = "relu",
        attn_dropout: float | None = None,
        act_dropout: float | None = None,
        normalize_before: bool = False,
        weight_attr: Any = None,
        bias_attr: Any = None,
        layer_norm_eps: float = 1e-5,
    ) -> None:
        config = dict(locals())
        config.pop("self")
        config.pop("__class__", None)
        super().__init__()
        self._config = config  # TransformerEncoder makes its other layers from it
        where = "TransformerEncoderLayer"
        _check_layer_arguments(
            where, d_model, nhead, dim_feedforward, dropout, attn_dropout, act_dropout
        )
        attn_dropout = dropout if attn_dropout is None else attn_dropout
        act_dropout = dropout if act_dropout is None else act_dropout
        self.normalize_before = normalize_before
        weight_attrs = _convert_param_attr_to_list(weight_attr, 2, where)
        bias_attrs = _convert_param_attr_to_list(bias_attr, 2, where)
        self.self_attn = MultiHeadAttention(
            d_model,
            nhead,
            dropout=attn_dropout,
            weight_attr=weight_attrs[0],
            bias_attr=bias_attrs[0],
        )
        self.linear1 = Linear(d_model, dim_feedforward, weight_attrs[1], bias_attr=bias_attrs[1])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, weight_attrs[1], bias_attr=bias_attrs[1])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.activation = _activation(where, activation)

    def forward(self, src: Any, src_mask: Any = None, cache: Any = None) -> Any:
        """``src`` [batch, seq, d_model] -> the same shape; with ``cache`` (a
        MultiHeadAttention.Cache, see ``gen_cache``) returns (output, updated cache)."""
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        residual = src
        if self.normalize_before:
            src = self.norm1(src)
        if cache is None:
            src = self.self_attn(src, src, src, src_mask)
        else:
            src, incremental_cache = self.self_attn(src, src, src, src_mask, cache)
        src = residual + self.dropout1(src)
        if not self.normalize_before:
            src = self.norm1(src)

        residual = src
        if self.normalize_before:
            src = self.norm2(src)
        src = self.linear2(self.dropout(self.activation(self.linear1(src))))
        src = residual + self.dropout2(src)
        if not self.normalize_before:
            src = self.norm2(src)
        return src if cache is None else (src, incremental_cache)

    def gen_cache(self, src: Any) -> Any:
        """An empty ``MultiHeadAttention.Cache`` for the self attention (batch from ``src``)."""
        return self.self_attn.gen_cache(src, type=self.self_attn.Cache)


def _clones(first: Layer, num_layers: int, where: str) -> LayerList:
    """``first`` followed by ``num_layers - 1`` new layers of its class and constructor arguments
    (freshly initialised, as PaddlePaddle makes them)."""
    _positive(where, num_layers=num_layers)
    return LayerList([first if i == 0 else type(first)(**first._config) for i in range(num_layers)])


class TransformerEncoder(Layer):
    """``num_layers`` encoder layers (``encoder_layer`` first, then new ones made with its
    arguments) applied in turn, then ``norm`` if given."""

    def __init__(
        self,
        encoder_layer: TransformerEncoderLayer,
        num_layers: int,
        norm: LayerNorm | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(encoder_layer, TransformerEncoderLayer):
            raise InvalidArgumentError(
                "TransformerEncoder: argument 'encoder_layer' must be a TransformerEncoderLayer, "
                f"got {type(encoder_layer).__name__}"
            )
        self.layers = _clones(encoder_layer, num_layers, "TransformerEncoder")
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, src: Any, src_mask: Any = None, cache: Any = None) -> Any:
        """``src`` [batch, seq, d_model] through every layer; with ``cache`` (one per layer,
        see ``gen_cache``) returns (output, new caches)."""
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        if cache is not None and len(cache) != self.num_layers:
            raise InvalidArgumentError(
                f"TransformerEncoder: argument 'cache' must hold one cache per layer "
                f"({self.num_layers}), got {len(cache)}"
            )
        output = src
        new_caches = []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, src_mask=src_mask)
            else:
                output, new_cache = layer(output, src_mask=src_mask, cache=cache[i])
                new_caches.append(new_cache)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, src: Any) -> list:
        """One empty cache per layer."""
        return [layer.gen_cache(src) for layer in self.layers]


class TransformerDecoderLayer(Layer):
    """One decoder layer: self attention over the target, cross attention to the encoder's
    ``memory``, then a feed-forward network, each with dropout, a residual connection and layer
    norm (after, or before with ``normalize_before``)."""

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int,
        dropout: float = 0.1,
        activation: str = "relu",
        attn_dropout: float | None = None,
        act_dropout: float | None = None,
        normalize_before: bool = False,
        weight_attr: Any = None,
        bias_attr: Any = None,
        layer_norm_eps: float = 1e-5,
    ) -> None:
        config = dict(locals())
        config.pop("self")
        config.pop("__class__", None)
        super().__init__()
        self._config = config  # TransformerDecoder makes its other layers from it
        where = "TransformerDecoderLayer"
        _check_layer_arguments(
            where, d_model, nhead, dim_feedforward, dropout, attn_dropout, act_dropout
        )
        attn_dropout = dropout if attn_dropout is None else attn_dropout
        act_dropout = dropout if act_dropout is None else act_dropout
        self.normalize_before = normalize_before
        weight_attrs = _convert_param_attr_to_list(weight_attr, 3, where)
        bias_attrs = _convert_param_attr_to_list(bias_attr, 3, where)
        self.self_attn = MultiHeadAttention(
            d_model,
            nhead,
            dropout=attn_dropout,
            weight_attr=weight_attrs[0],
            bias_attr=bias_attrs[0],
        )
        self.cross_attn = MultiHeadAttention(
            d_model,
            nhead,
            dropout=attn_dropout,
            weight_attr=weight_attrs[1],
            bias_attr=bias_attrs[1],
        )
        self.linear1 = Linear(d_model, dim_feedforward, weight_attrs[2], bias_attr=bias_attrs[2])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, weight_attrs[2], bias_attr=bias_attrs[2])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.norm3 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.dropout3 = Dropout(dropout, mode="upscale_in_train")
        self.activation = _activation(where, activation)

    def forward(
        self,
        tgt: Any,
        memory: Any,
        tgt_mask: Any = None,
        memory_mask: Any = None,
        cache: Any = None,
    ) -> Any:
        """``tgt`` [batch, tgt_len, d_model] attending to ``memory`` [batch, src_len, d_model];
        with ``cache`` (a (Cache, StaticCache) pair, see ``gen_cache``) returns (output, new
        pair)."""
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        if cache is not None and (not isinstance(cache, (list, tuple)) or len(cache) != 2):
            raise InvalidArgumentError(
                "TransformerDecoderLayer: argument 'cache' must be a (Cache, StaticCache) pair "
                f"as gen_cache makes it, got {cache!r}"
            )

        residual = tgt
        if self.normalize_before:
            tgt = self.norm1(tgt)
        if cache is None:
            tgt = self.self_attn(tgt, tgt, tgt, tgt_mask, None)
        else:
            tgt, incremental_cache = self.self_attn(tgt, tgt, tgt, tgt_mask, cache[0])
        tgt = residual + self.dropout1(tgt)
        if not self.normalize_before:
            tgt = self.norm1(tgt)

        residual = tgt
        if self.normalize_before:
            tgt = self.norm2(tgt)
        if cache is None:
            tgt = self.cross_attn(tgt, memory, memory, memory_mask, None)
        else:
            tgt, static_cache = self.cross_attn(tgt, memory, memory, memory_mask, cache[1])
        tgt = residual + self.dropout2(tgt)
        if not self.normalize_before:
            tgt = self.norm2(tgt)

        residual = tgt
        if self.normalize_before:
            tgt = self.norm3(tgt)
        tgt = self.linear2(self.dropout(self.activation(self.linear1(tgt))))
        tgt = residual + self.dropout3(tgt)
        if not self.normalize_before:
            tgt = self.norm3(tgt)
        return tgt if cache is None else (tgt, (incremental_cache, static_cache))

    def gen_cache(self, memory: Any) -> tuple:
        """(an empty Cache for the self attention, a StaticCache of ``memory``'s keys and
        values for the cross attention)."""
        incremental_cache = self.self_attn.gen_cache(memory, type=self.self_attn.Cache)
        static_cache = self.cross_attn.gen_cache(memory, memory, type=self.cross_attn.StaticCache)
        return incremental_cache, static_cache


class TransformerDecoder(Layer):
    """``num_layers`` decoder layers (``decoder_layer`` first, then new ones made with its
    arguments) applied in turn, then ``norm`` if given."""

    def __init__(
        self,
        decoder_layer: TransformerDecoderLayer,
        num_layers: int,
        norm: LayerNorm | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(decoder_layer, TransformerDecoderLayer):
            raise InvalidArgumentError(
                "TransformerDecoder: argument 'decoder_layer' must be a TransformerDecoderLayer, "
                f"got {type(decoder_layer).__name__}"
            )
        self.layers = _clones(decoder_layer, num_layers, "TransformerDecoder")
        self.num_layers = num_layers
        self.norm = norm

    def forward(
        self,
        tgt: Any,
        memory: Any,
        tgt_mask: Any = None,
        memory_mask: Any = None,
        cache: Any = None,
    ) -> Any:
        """``tgt`` through every layer, each attending to ``memory``; with ``cache`` (one pair
        per layer, see ``gen_cache``) returns (output, new caches)."""
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        if cache is not None and len(cache) != self.num_layers:
            raise InvalidArgumentError(
                f"TransformerDecoder: argument 'cache' must hold one cache per layer "
                f"({self.num_layers}), got {len(cache)}"
            )
        output = tgt
        new_caches = []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(
                    output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask, cache=None
                )
            else:
                output, new_cache = layer(
                    output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask, cache=cache[i]
                )
                new_caches.append(new_cache)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, memory: Any, do_zip: bool = False) -> list:
        """One (Cache, StaticCache) pair per layer; ``do_zip`` regroups them as [all Caches,
        all StaticCaches]."""
        cache = [layer.gen_cache(memory) for layer in self.layers]
        if do_zip:
            cache = list(zip(*cache))
        return cache


def _split_attr(attr: Any, argument: str) -> tuple[Any, Any]:
    """PaddlePaddle's spreading of Transformer's ``weight_attr``/``bias_attr`` over the encoder
    layer's 2 groups and the decoder layer's 3 (a list of 1, 2 or 3, or one attribute)."""
    if not isinstance(attr, (list, tuple)):
        return attr, attr
    if len(attr) == 1:
        return [attr[0]] * 2, [attr[0]] * 3
    if len(attr) == 2:
        return attr, [attr[0], attr[0], attr[-1]]
    if len(attr) == 3:
        return [attr[0], attr[-1]], attr
    raise InvalidArgumentError(
        f"Transformer: argument '{argument}' as a list/tuple must have 1, 2 or 3 entries, got "
        f"{len(attr)}"
    )


class Transformer(Layer):
    """An encoder (``num_encoder_layers`` TransformerEncoderLayers and a final LayerNorm) and a
    decoder (``num_decoder_layers`` TransformerDecoderLayers and a LayerNorm), or the given
    ``custom_encoder``/``custom_decoder``."""

    def __init__(
        self,
        d_model: int = 512,
        nhead: int = 8,
        num_encoder_layers: int = 6,
        num_decoder_layers: int = 6,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str = "relu",
        attn_dropout: float | None = None,
        act_dropout: float | None = None,
        normalize_before: bool = False,
        weight_attr: Any = None,
        bias_attr: Any = None,
        custom_encoder: Layer | None = None,
        custom_decoder: Layer | None = None,
    ) -> None:
        super().__init__()
        _check_layer_arguments(
            "Transformer", d_model, nhead, dim_feedforward, dropout, attn_dropout, act_dropout
        )
        encoder_weight_attr, decoder_weight_attr = _split_attr(weight_attr, "weight_attr")
        encoder_bias_attr, decoder_bias_attr = _split_attr(bias_attr, "bias_attr")
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            encoder_layer = TransformerEncoderLayer(
                d_model,
                nhead,
                dim_feedforward,
                dropout,
                activation,
                attn_dropout,
                act_dropout,
                normalize_before,
                encoder_weight_attr,
                encoder_bias_attr,
            )
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers, LayerNorm(d_model))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            decoder_layer = TransformerDecoderLayer(
                d_model,
                nhead,
                dim_feedforward,
                dropout,
                activation,
                attn_dropout,
                act_dropout,
                normalize_before,
                decoder_weight_attr,
                decoder_bias_attr,
            )
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers, LayerNorm(d_model))
        self.d_model = d_model
        self.nhead = nhead

    def forward(
        self,
        src: Any,
        tgt: Any,
        src_mask: Any = None,
        tgt_mask: Any = None,
        memory_mask: Any = None,
    ) -> Any:
        """Encode ``src`` [batch, src_len, d_model], decode ``tgt`` [batch, tgt_len, d_model]
        against it; returns [batch, tgt_len, d_model]."""
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        memory = self.encoder(src, src_mask=src_mask)
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)

    def generate_square_subsequent_mask(self, length: Any) -> Any:
        """A [length, length] float32 mask for causal attention: 0 on and below the diagonal,
        -inf above it (a position attends to itself and earlier ones)."""
        size = length.item() if hasattr(length, "item") else length
        if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
            raise InvalidArgumentError(
                "Transformer.generate_square_subsequent_mask: argument 'length' must be a "
                f"positive int (or a 1-element integer Tensor), got {length!r}"
            )
        full = op_api("full")([size, size], float("-inf"), DataType.FLOAT32)
        return op_api("triu")(full, 1)
