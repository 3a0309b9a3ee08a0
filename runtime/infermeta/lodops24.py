"""InferMeta functions of the lodops24 ops (issue 24): the last of PaddlePaddle 3.3.1's LoD ops
(match_matrix_tensor, pyramid_hash, attention_lstm, beam_search), following 3.3.1's functions of
the same names in paddle/phi/infermeta/. A LoD is data, not meta: extents that the LoD decides
are -1 here and come from the kernel's result."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.dims import UNKNOWN, extents_match, is_known, set_output
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "match_matrix_tensor_infer_meta",
    "pyramid_hash_infer_meta",
    "attention_lstm_infer_meta",
    "beam_search_infer_meta",
    "ATTENTION_LSTM_ACTIVATIONS",
]

_RUNTIME = MetaConfig()


def _check_rank(tensor: MetaTensor, name: str, rank: int) -> None:
    if len(tensor.dims) != rank:
        raise InvalidArgumentError(
            f"argument '{name}' must be a {rank}-D tensor, got shape {list(tensor.dims)}"
        )


def _check_dtype(tensor: MetaTensor, name: str, like: MetaTensor, like_name: str) -> None:
    if tensor.dtype is not like.dtype:
        raise InvalidArgumentError(
            f"argument '{name}' must have {like_name}'s dtype {like.dtype.name.lower()}, "
            f"got {tensor.dtype.name.lower()}"
        )


def match_matrix_tensor_infer_meta(
    x: MetaTensor,
    y: MetaTensor,
    w: MetaTensor,
    dim_t: int,
    out: MetaTensor,
    tmp: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out: [-1, 1] (its rows, sum of dim_t * len_x * len_y over the sequence pairs, come from the
    LoDs); tmp: [x.dims[0] * dim_t * y.dims[1], 1], both of x's dtype (PHI's
    MatchMatrixTensorInferMeta: x, y 2-D, w [x.dims[1], dim_t, y.dims[1]]; PHI's kernel reads y
    and w with x's width, so its tmp has x.dims[1] where phiops's has y.dims[1]: they agree
    whenever PHI's result is defined, y.dims[1] == x.dims[1])."""
    if dim_t < 1:
        raise InvalidArgumentError(f"argument 'dim_t' must be >= 1, got {dim_t}")
    _check_rank(x, "x", 2)
    _check_rank(y, "y", 2)
    _check_rank(w, "w", 3)
    expected = (x.dims[1], dim_t, y.dims[1])
    if not all(extents_match(got, want, config) for got, want in zip(w.dims, expected)):
        raise InvalidArgumentError(
            f"argument 'w' must have shape [x.shape[1], dim_t, y.shape[1]] = {list(expected)}, "
            f"got {list(w.dims)}"
        )
    _check_dtype(y, "y", x, "x")
    _check_dtype(w, "w", x, "x")
    rows = x.dims[0] * dim_t * y.dims[1] if is_known(x.dims[0]) and is_known(y.dims[1]) else UNKNOWN
    set_output(out, (UNKNOWN, 1), x.dtype, x)
    set_output(tmp, (rows, 1), x.dtype, x)


def pyramid_hash_infer_meta(
    x: MetaTensor,
    w: MetaTensor,
    white_list: MetaTensor,
    black_list: MetaTensor,
    num_emb: int,
    space_len: int,
    pyramid_layer: int,
    rand_len: int,
    drop_out_percent: float,
    is_training: int,
    use_filter: bool,
    white_list_len: int,
    black_list_len: int,
    seed: int,
    lr: float,
    distribute_update_vars: str,
    out: MetaTensor,
    drop_pos: MetaTensor,
    x_temp_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out: [-1 (the LoD decides), num_emb] of w's dtype; drop_pos: int32 [x's ids *
    pyramid_layer, 1]; x_temp_out: float32 of x's dims (PHI's PyramidHashInferMeta: x int32
    [T, 1], w [space_len + rand_len, 1], num_emb a multiple of rand_len)."""
    for name, value, least in (
        ("num_emb", num_emb, 0), ("space_len", space_len, 1), ("pyramid_layer", pyramid_layer, 2),
        ("rand_len", rand_len, 1), ("is_training", is_training, 0), ("white_list_len", white_list_len, 0),
        ("black_list_len", black_list_len, 0), ("seed", seed, 0),
    ):  # fmt: skip
        if value < least:
            raise InvalidArgumentError(f"argument '{name}' must be >= {least}, got {value}")
    if not 0.0 <= drop_out_percent <= 1.0:
        raise InvalidArgumentError(
            f"argument 'drop_out_percent' must be in [0, 1], got {drop_out_percent}"
        )
    if num_emb % rand_len:
        raise InvalidArgumentError(
            f"argument 'num_emb' must be a multiple of rand_len ({rand_len}), got {num_emb}"
        )
    if x.dtype is not DataType.INT32:
        raise InvalidArgumentError(f"argument 'x' must hold int32 ids, got {x.dtype.name.lower()}")
    _check_rank(x, "x", 2)
    if not extents_match(x.dims[1], 1, config):
        raise InvalidArgumentError(
            f"argument 'x' must be [T, 1], one id per row (PaddlePaddle's kernel reads it so), got "
            f"shape {list(x.dims)}"
        )
    _check_rank(w, "w", 2)
    if not extents_match(w.dims[0], space_len + rand_len, config) or not extents_match(
        w.dims[1], 1, config
    ):
        raise InvalidArgumentError(
            f"argument 'w' must have shape [space_len + rand_len, 1] = [{space_len + rand_len}, 1], "
            f"got {list(w.dims)}"
        )
    ids = x.dims[0] * x.dims[1] if is_known(x.dims[0]) and is_known(x.dims[1]) else UNKNOWN
    set_output(out, (UNKNOWN, num_emb), w.dtype, w)
    set_output(drop_pos, (ids * pyramid_layer if is_known(ids) else UNKNOWN, 1), DataType.INT32, x)
    set_output(x_temp_out, x.dims, DataType.FLOAT32, x)


ATTENTION_LSTM_ACTIVATIONS = ("sigmoid", "tanh", "relu", "identity")


def _check_shape(
    tensor: MetaTensor, name: str, expected: tuple[int, ...], what: str, config: MetaConfig
) -> None:
    if len(tensor.dims) != len(expected) or not all(
        not is_known(want) or extents_match(got, want, config)
        for got, want in zip(tensor.dims, expected)
    ):
        shown = ["?" if not is_known(e) else e for e in expected]
        raise InvalidArgumentError(
            f"argument '{name}' must have shape {what} = {shown}, got {list(tensor.dims)}"
        )


def attention_lstm_infer_meta(
    x: MetaTensor,
    c0: MetaTensor,
    h0: MetaTensor | None,
    attention_weight: MetaTensor,
    attention_bias: MetaTensor | None,
    attention_scalar: MetaTensor | None,
    attention_scalar_bias: MetaTensor | None,
    lstm_weight: MetaTensor,
    lstm_bias: MetaTensor,
    gate_activation: str,
    cell_activation: str,
    candidate_activation: str,
    hidden: MetaTensor,
    cell: MetaTensor,
    attentioned_x: MetaTensor,
    attention_fc_out: MetaTensor,
    lstm_x: MetaTensor,
    lstm_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """hidden, cell: [T, D]; attentioned_x: [T, 1]; attention_fc_out: [-1 (the longest
    sequence), 1]; lstm_x: [1, M]; lstm_out: [1, 4D], all of x's dtype, for x [T, M] and
    lstm_weight [D + M, 4D] (PHI's AttentionLstmInferMeta)."""
    for name, value in (
        ("gate_activation", gate_activation),
        ("cell_activation", cell_activation),
        ("candidate_activation", candidate_activation),
    ):
        if value not in ATTENTION_LSTM_ACTIVATIONS:
            raise InvalidArgumentError(
                f"argument '{name}' must be one of {', '.join(ATTENTION_LSTM_ACTIVATIONS)}, got {value!r}"
            )
    _check_rank(x, "x", 2)
    _check_rank(lstm_weight, "lstm_weight", 2)
    rows, width = x.dims
    gates = lstm_weight.dims[1]
    if is_known(gates) and gates % 4:
        raise InvalidArgumentError(
            f"argument 'lstm_weight' must have 4 * D columns (the four gates), got shape {list(lstm_weight.dims)}"
        )
    d = gates // 4 if is_known(gates) else UNKNOWN
    both = d + width if is_known(d) and is_known(width) else UNKNOWN
    _check_shape(lstm_weight, "lstm_weight", (both, gates), "[D + M, 4 * D]", config)
    _check_shape(lstm_bias, "lstm_bias", (1, gates), "[1, 4 * D]", config)
    _check_shape(c0, "c0", (UNKNOWN, d), "[sequences, D]", config)
    if h0 is not None:
        _check_shape(h0, "h0", c0.dims, "c0's shape", config)
    _check_shape(attention_weight, "attention_weight", (both, 1), "[M + D, 1]", config)
    for name, tensor in (
        ("attention_bias", attention_bias),
        ("attention_scalar", attention_scalar),
        ("attention_scalar_bias", attention_scalar_bias),
    ):
        if tensor is not None:
            _check_shape(tensor, name, (1, 1), "[1, 1]", config)
    for name, tensor in (
        ("c0", c0),
        ("h0", h0),
        ("attention_weight", attention_weight),
        ("lstm_weight", lstm_weight),
        ("lstm_bias", lstm_bias),
    ):
        if tensor is not None:
            _check_dtype(tensor, name, x, "x")
    set_output(hidden, (rows, d), x.dtype, x)
    set_output(cell, (rows, d), x.dtype, x)
    set_output(attentioned_x, (rows, 1), x.dtype, x)
    set_output(attention_fc_out, (UNKNOWN, 1), x.dtype, x)
    set_output(lstm_x, (1, width), x.dtype, x)
    set_output(lstm_out, (1, gates), x.dtype, x)


def beam_search_infer_meta(
    pre_ids: MetaTensor,
    pre_scores: MetaTensor,
    ids: MetaTensor | None,
    scores: MetaTensor,
    level: int,
    beam_size: int,
    end_id: int,
    is_accumulated: bool,
    selected_ids: MetaTensor,
    selected_scores: MetaTensor,
    parent_idx: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """selected_ids: int64 [-1, 1]; selected_scores: float32 [-1, 1]; parent_idx: int32 [-1]
    (how many are selected comes from the scores and their LoD)."""
    if beam_size < 1:
        raise InvalidArgumentError(f"argument 'beam_size' must be >= 1, got {beam_size}")
    if level < 0:
        raise InvalidArgumentError(f"argument 'level' must be >= 0, got {level}")
    for name, tensor, dtype in (
        ("pre_ids", pre_ids, DataType.INT64),
        ("pre_scores", pre_scores, DataType.FLOAT32),
        ("ids", ids, DataType.INT64),
        ("scores", scores, DataType.FLOAT32),
    ):
        if tensor is None:
            continue
        if tensor.dtype is not dtype:
            raise InvalidArgumentError(
                f"argument '{name}' must be {dtype.name.lower()} (PaddlePaddle's kernel reads it so), got "
                f"{tensor.dtype.name.lower()}"
            )
        if len(tensor.dims) < 1:
            raise InvalidArgumentError(
                f"argument '{name}' must have a row per prefix, got a 0-D tensor"
            )
    if not extents_match(pre_ids.dims[0], scores.dims[0], config) or not extents_match(
        pre_scores.dims[0], scores.dims[0], config
    ):
        raise InvalidArgumentError(
            f"arguments 'pre_ids' and 'pre_scores' must have a row per row of scores ({scores.dims[0]}), "
            f"got shapes {list(pre_ids.dims)} and {list(pre_scores.dims)}"
        )
    if ids is not None and (
        len(ids.dims) != len(scores.dims)
        or not all(extents_match(a, b, config) for a, b in zip(ids.dims, scores.dims))
    ):
        raise InvalidArgumentError(
            f"argument 'ids' must have scores' shape {list(scores.dims)}, got {list(ids.dims)}"
        )
    set_output(selected_ids, (UNKNOWN, 1), DataType.INT64, scores)
    set_output(selected_scores, (UNKNOWN, 1), DataType.FLOAT32, scores)
    set_output(parent_idx, (UNKNOWN,), DataType.INT32, scores)
