"""InferMeta functions of the seq24 ops (issue 24): sequence, NLP and graph ops (gather_tree,
viterbi_decode, edit_distance, ...), following PaddlePaddle 3.3.1's functions of the same names
in paddle/phi/infermeta/, with the outputs' dtypes its CPU kernels give where its InferMeta says
otherwise."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.infermeta.dims import UNKNOWN, dims_match, extents_match, set_output as _set
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "gather_tree_infer_meta",
    "viterbi_decode_infer_meta",
    "edit_distance_infer_meta",
    "ctc_align_infer_meta",
    "crf_decoding_infer_meta",
    "chunk_eval_infer_meta",
    "add_position_encoding_infer_meta",
    "swi_glu_infer_meta",
    "swi_glu_grad_infer_meta",
    "softmax_mask_fuse_infer_meta",
    "bilinear_infer_meta",
    "bilinear_grad_infer_meta",
    "cvm_infer_meta",
    "segment_pool_infer_meta",
    "send_u_recv_infer_meta",
]

_RUNTIME = MetaConfig()


def _rank(t: MetaTensor, name: str, rank: int) -> None:
    if len(t.dims) != rank:
        raise InvalidArgumentError(
            f"argument '{name}' must be a {rank}-D tensor, got shape {list(t.dims)}"
        )


def _dtype_in(t: MetaTensor, name: str, dtypes: tuple[DataType, ...]) -> None:
    if t.dtype not in dtypes:
        wanted = " or ".join(d.name.lower() for d in dtypes)
        raise InvalidArgumentError(
            f"argument '{name}' must be {wanted}, got {t.dtype.name.lower()}"
        )


def gather_tree_infer_meta(
    ids: MetaTensor, parents: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``ids``' dims and dtype: the beams' ids [max_time, batch, beam] traced back through
    ``parents`` (PHI's GatherTreeMeta)."""
    _rank(ids, "ids", 3)
    if not dims_match(ids.dims, parents.dims, config):
        raise InvalidArgumentError(
            f"argument 'parents' must have the shape of ids {list(ids.dims)}, "
            f"got {list(parents.dims)}"
        )
    if parents.dtype is not ids.dtype:
        raise InvalidArgumentError(
            f"argument 'parents' must have the dtype of ids ({ids.dtype.name.lower()}), "
            f"got {parents.dtype.name.lower()}"
        )
    _set(out, ids.dims, ids.dtype, ids)


def viterbi_decode_infer_meta(
    potentials: MetaTensor,
    transition_params: MetaTensor,
    lengths: MetaTensor,
    include_bos_eos_tag: bool,
    scores: MetaTensor,
    path: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``scores`` [batch] of the potentials' dtype and ``path`` [batch, max(lengths)] int64, whose
    second extent comes from the data (-1)."""
    _rank(potentials, "potentials", 3)
    _rank(transition_params, "transition_params", 2)
    _rank(lengths, "lengths", 1)
    batch, _, labels = potentials.dims
    for axis in (0, 1):
        if not extents_match(transition_params.dims[axis], labels, config):
            raise InvalidArgumentError(
                f"argument 'transition_params' must be [{labels}, {labels}] for {labels} tags "
                f"(the last extent of potentials), got {list(transition_params.dims)}"
            )
    if not extents_match(lengths.dims[0], batch, config):
        raise InvalidArgumentError(
            f"argument 'lengths' must hold one length per sequence ({batch}), "
            f"got shape {list(lengths.dims)}"
        )
    if transition_params.dtype is not potentials.dtype:
        raise InvalidArgumentError(
            f"argument 'transition_params' must have the dtype of potentials "
            f"({potentials.dtype.name.lower()}), got {transition_params.dtype.name.lower()}"
        )
    _dtype_in(lengths, "lengths", (DataType.INT64,))
    if include_bos_eos_tag and labels >= 0 and labels < 2:
        raise InvalidArgumentError(
            "argument 'potentials' must have at least 2 tags when include_bos_eos_tag is true "
            f"(the last two are the start and stop tags), got {labels}"
        )
    _set(scores, (batch,), potentials.dtype, potentials)
    _set(path, (batch, UNKNOWN), DataType.INT64, potentials)


def edit_distance_infer_meta(
    hyps: MetaTensor,
    refs: MetaTensor,
    hypslength: MetaTensor | None,
    refslength: MetaTensor | None,
    normalized: bool,
    sequencenum: MetaTensor,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``sequencenum`` [1] int64 (the number of pairs) and ``out`` [batch, 1] float32, the
    distances, for padded int64 sequences with their lengths (PHI's EditDistanceInferMeta
    states [1] float32 and refs' dims; its CPU kernel gives these)."""
    if hypslength is None or refslength is None:
        raise UnimplementedError(
            "edit_distance without hypslength and refslength reads the sequences from a LoD "
            "tensor, which phiops does not have: pass padded hyps/refs with their lengths"
        )
    _rank(hyps, "hyps", 2)
    _rank(refs, "refs", 2)
    batch = hyps.dims[0]
    if not extents_match(refs.dims[0], batch, config):
        raise InvalidArgumentError(
            f"argument 'refs' must have the first extent of hyps ({batch}), "
            f"got shape {list(refs.dims)}"
        )
    for name, length in (("hypslength", hypslength), ("refslength", refslength)):
        _rank(length, name, 1)
        if not extents_match(length.dims[0], batch, config):
            raise InvalidArgumentError(
                f"argument '{name}' must hold one length per sequence ({batch}), "
                f"got shape {list(length.dims)}"
            )
    for name, t in (
        ("hyps", hyps),
        ("refs", refs),
        ("hypslength", hypslength),
        ("refslength", refslength),
    ):
        _dtype_in(t, name, (DataType.INT64,))
    _set(sequencenum, (1,), DataType.INT64, hyps)
    _set(out, (batch, 1), DataType.FLOAT32, hyps)


def ctc_align_infer_meta(
    input: MetaTensor,
    input_length: MetaTensor | None,
    blank: int,
    merge_repeated: bool,
    padding_value: int,
    output: MetaTensor,
    output_length: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``output`` of the input's dims and dtype (the kept tokens, then padding) and
    ``output_length`` [batch, 1] of its dtype, for padded sequences with their lengths."""
    if input_length is None:
        raise UnimplementedError(
            "ctc_align without input_length reads the sequences from a LoD tensor, which phiops "
            "does not have: pass padded input [batch, max_length] with input_length"
        )
    _rank(input, "input", 2)
    batch = input.dims[0]
    if (
        len(input_length.dims) not in (1, 2)
        or (len(input_length.dims) == 2 and not extents_match(input_length.dims[1], 1, config))
        or not extents_match(input_length.dims[0], batch, config)
    ):
        raise InvalidArgumentError(
            f"argument 'input_length' must be [{batch}] or [{batch}, 1] (one length per "
            f"sequence of input), got shape {list(input_length.dims)}"
        )
    if input_length.dtype is not input.dtype:
        raise InvalidArgumentError(
            f"argument 'input_length' must have the dtype of input ({input.dtype.name.lower()}), "
            f"got {input_length.dtype.name.lower()}"
        )
    _set(output, input.dims, input.dtype, input)
    _set(output_length, (batch, 1), input.dtype, input)


def _per_sequence(t: MetaTensor, name: str, lead: tuple[int, ...], config: MetaConfig) -> None:
    """``t`` is ``lead`` or ``lead`` + [1]."""
    dims = t.dims
    fits = len(dims) in (len(lead), len(lead) + 1) and all(
        extents_match(a, b, config) for a, b in zip(dims, lead)
    )
    if len(dims) == len(lead) + 1:
        fits = fits and extents_match(dims[-1], 1, config)
    if not fits:
        shape = list(lead)
        raise InvalidArgumentError(
            f"argument '{name}' must be {shape} or {shape + [1]}, got shape {list(dims)}"
        )


def crf_decoding_infer_meta(
    emission: MetaTensor,
    transition: MetaTensor,
    label: MetaTensor | None,
    length: MetaTensor | None,
    viterbi_path: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``viterbi_path`` [batch, seq_len] int64: the best tags, or 1 where they equal ``label``,
    for padded emissions with their lengths."""
    if length is None:
        raise UnimplementedError(
            "crf_decoding without length reads the sequences from a LoD tensor, which phiops "
            "does not have: pass padded emission [batch, seq_len, num_tags] with length"
        )
    _rank(emission, "emission", 3)
    _rank(transition, "transition", 2)
    batch, steps, tags = emission.dims
    rows, cols = transition.dims
    if not (
        extents_match(cols, tags, config)
        and (rows < 0 or tags < 0 or extents_match(rows, tags + 2, config))
    ):
        raise InvalidArgumentError(
            f"argument 'transition' must be [num_tags + 2, num_tags] = [{tags + 2}, {tags}] "
            f"(start weights, end weights, then tag to tag), got {list(transition.dims)}"
        )
    if transition.dtype is not emission.dtype:
        raise InvalidArgumentError(
            f"argument 'transition' must have the dtype of emission "
            f"({emission.dtype.name.lower()}), got {transition.dtype.name.lower()}"
        )
    _per_sequence(length, "length", (batch,), config)
    _dtype_in(length, "length", (DataType.INT64,))
    if label is not None:
        _per_sequence(label, "label", (batch, steps), config)
        _dtype_in(label, "label", (DataType.INT64,))
    _set(viterbi_path, (batch, steps), DataType.INT64, emission)


def chunk_eval_infer_meta(
    inference: MetaTensor,
    label: MetaTensor,
    seq_length: MetaTensor | None,
    num_chunk_types: int,
    chunk_scheme: str,
    excluded_chunk_types: tuple[int, ...],
    precision: MetaTensor,
    recall: MetaTensor,
    f1_score: MetaTensor,
    num_infer_chunks: MetaTensor,
    num_label_chunks: MetaTensor,
    num_correct_chunks: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """Six [1] outputs: precision, recall and F1 (float32) and the chunk counts (int64), for
    padded int64 tag sequences with their lengths."""
    if seq_length is None:
        raise UnimplementedError(
            "chunk_eval without seq_length reads the sequences from a LoD tensor, which phiops "
            "does not have: pass padded inference/label [batch, max_length] with seq_length"
        )
    if len(inference.dims) not in (2, 3) or (
        len(inference.dims) == 3 and not extents_match(inference.dims[2], 1, config)
    ):
        raise InvalidArgumentError(
            "argument 'inference' must be [batch, max_length] or [batch, max_length, 1], "
            f"got shape {list(inference.dims)}"
        )
    if not dims_match(label.dims, inference.dims, config):
        raise InvalidArgumentError(
            f"argument 'label' must have the shape of inference {list(inference.dims)}, "
            f"got {list(label.dims)}"
        )
    _per_sequence(seq_length, "seq_length", (inference.dims[0],), config)
    for name, t in (("inference", inference), ("label", label), ("seq_length", seq_length)):
        _dtype_in(t, name, (DataType.INT64,))
    if num_chunk_types <= 0:
        raise InvalidArgumentError(
            f"argument 'num_chunk_types' must be positive, got {num_chunk_types}"
        )
    for out in (precision, recall, f1_score):
        _set(out, (1,), DataType.FLOAT32, inference)
    for out in (num_infer_chunks, num_label_chunks, num_correct_chunks):
        _set(out, (1,), DataType.INT64, inference)


def add_position_encoding_infer_meta(
    x: MetaTensor, alpha: float, beta: float, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``x``'s dims and dtype, for a padded batch [batch, seq_len, size] of an even size."""
    _rank(x, "x", 3)
    size = x.dims[2]
    if size >= 0 and size % 2:
        raise InvalidArgumentError(
            f"argument 'x' must have an even last extent (half sines, half cosines), got {size}"
        )
    _set(out, x.dims, x.dtype, x)


def swi_glu_infer_meta(
    x: MetaTensor, y: MetaTensor | None, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``x``'s dims and dtype with ``y``; without ``y``, x's last extent halved (its two halves
    are the gate and the value)."""
    if y is None:
        if not x.dims:
            raise InvalidArgumentError("argument 'x' must have at least 1 dimension, got 0-D")
        last = x.dims[-1]
        if last >= 0 and last % 2:
            raise InvalidArgumentError(
                f"argument 'x' must have an even last extent when y is None (its halves are "
                f"the gate and the value), got {last}"
            )
        _set(out, x.dims[:-1] + (last // 2 if last >= 0 else UNKNOWN,), x.dtype, x)
        return
    if not dims_match(x.dims, y.dims, config):
        raise InvalidArgumentError(
            f"argument 'y' must have the shape of x {list(x.dims)}, got {list(y.dims)}"
        )
    if y.dtype is not x.dtype:
        raise InvalidArgumentError(
            f"argument 'y' must have the dtype of x ({x.dtype.name.lower()}), "
            f"got {y.dtype.name.lower()}"
        )
    _set(out, x.dims, x.dtype, x)


def swi_glu_grad_infer_meta(
    x: MetaTensor,
    y: MetaTensor | None,
    x_grad: MetaTensor,
    y_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``x_grad`` like ``x`` and, with ``y``, ``y_grad`` like ``y``."""
    _set(x_grad, x.dims, x.dtype, x)
    if y is not None:
        _set(y_grad, y.dims, y.dtype, y)


def softmax_mask_fuse_infer_meta(
    x: MetaTensor, mask: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """``x``'s dims and dtype: softmax over the last axis of ``x`` + ``mask`` (mask broadcast
    over x's second axis)."""
    _rank(x, "x", 4)
    _rank(mask, "mask", 4)
    if not extents_match(mask.dims[1], 1, config) or not all(
        extents_match(mask.dims[i], x.dims[i], config) for i in (0, 2, 3)
    ):
        wanted = [x.dims[0], 1, x.dims[2], x.dims[3]]
        raise InvalidArgumentError(
            f"argument 'mask' must be {wanted} (x's shape with 1 heads), got {list(mask.dims)}"
        )
    if mask.dtype is not x.dtype:
        raise InvalidArgumentError(
            f"argument 'mask' must have the dtype of x ({x.dtype.name.lower()}), "
            f"got {mask.dtype.name.lower()}"
        )
    _set(out, x.dims, x.dtype, x)


def bilinear_infer_meta(
    x: MetaTensor,
    y: MetaTensor,
    weight: MetaTensor,
    bias: MetaTensor | None,
    out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """[batch, out_features]: x [batch, in1] and y [batch, in2] through weight
    [out_features, in1, in2], plus bias [1, out_features]."""
    _rank(x, "x", 2)
    _rank(y, "y", 2)
    _rank(weight, "weight", 3)
    features, first, second = weight.dims
    if not extents_match(y.dims[0], x.dims[0], config):
        raise InvalidArgumentError(
            f"argument 'y' must have the batch of x ({x.dims[0]}), got shape {list(y.dims)}"
        )
    if not extents_match(first, x.dims[1], config) or not extents_match(second, y.dims[1], config):
        raise InvalidArgumentError(
            f"argument 'weight' must be [out_features, {x.dims[1]}, {y.dims[1]}] (x's and y's "
            f"features), got {list(weight.dims)}"
        )
    for name, t in (("y", y), ("weight", weight)):
        if t.dtype is not x.dtype:
            raise InvalidArgumentError(
                f"argument '{name}' must have the dtype of x ({x.dtype.name.lower()}), "
                f"got {t.dtype.name.lower()}"
            )
    if bias is not None:
        _rank(bias, "bias", 2)
        if not extents_match(bias.dims[0], 1, config) or not extents_match(
            bias.dims[1], features, config
        ):
            raise InvalidArgumentError(
                f"argument 'bias' must be [1, {features}] (out_features), got {list(bias.dims)}"
            )
        if bias.dtype is not x.dtype:
            raise InvalidArgumentError(
                f"argument 'bias' must have the dtype of x ({x.dtype.name.lower()}), "
                f"got {bias.dtype.name.lower()}"
            )
    _set(out, (x.dims[0], features), x.dtype, x)


def bilinear_grad_infer_meta(
    x: MetaTensor,
    y: MetaTensor,
    weight: MetaTensor,
    out_grad: MetaTensor,
    x_grad: MetaTensor,
    y_grad: MetaTensor,
    weight_grad: MetaTensor,
    bias_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """The gradients like x, y and weight, and bias_grad [1, out_features]."""
    _set(x_grad, x.dims, x.dtype, x)
    _set(y_grad, y.dims, y.dtype, y)
    _set(weight_grad, weight.dims, weight.dtype, weight)
    _set(bias_grad, (1, weight.dims[0]), weight.dtype, weight)


def cvm_infer_meta(
    x: MetaTensor, cvm: MetaTensor, use_cvm: bool, out: MetaTensor, config: MetaConfig = _RUNTIME
) -> None:
    """[batch, width] with ``use_cvm`` (the show and click columns logged), else
    [batch, width - 2] (those columns dropped)."""
    _rank(x, "x", 2)
    _rank(cvm, "cvm", 2)
    batch, width = x.dims
    if width >= 0 and width < 2:
        raise InvalidArgumentError(
            f"argument 'x' must have at least 2 columns (show and click), got shape {list(x.dims)}"
        )
    if not extents_match(cvm.dims[1], 2, config) or not extents_match(cvm.dims[0], batch, config):
        raise InvalidArgumentError(
            f"argument 'cvm' must be [{batch}, 2] (show and click per row of x), "
            f"got {list(cvm.dims)}"
        )
    if cvm.dtype is not x.dtype:
        raise InvalidArgumentError(
            f"argument 'cvm' must have the dtype of x ({x.dtype.name.lower()}), "
            f"got {cvm.dtype.name.lower()}"
        )
    columns = width if use_cvm or width < 0 else width - 2
    _set(out, (batch, columns), x.dtype, x)


SEGMENT_POOLS = ("SUM", "MEAN", "MAX", "MIN")


def segment_pool_infer_meta(
    x: MetaTensor,
    segment_ids: MetaTensor,
    pooltype: str,
    out: MetaTensor,
    summed_ids: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` [num_segments, ...] of x's dtype, num_segments (the last id + 1) coming from the
    data (-1), and ``summed_ids`` [num_segments, 1], the rows per segment."""
    if not x.dims:
        raise InvalidArgumentError("argument 'x' must have at least 1 dimension, got 0-D")
    _rank(segment_ids, "segment_ids", 1)
    if not extents_match(segment_ids.dims[0], x.dims[0], config):
        raise InvalidArgumentError(
            f"argument 'segment_ids' must hold one id per row of x ({x.dims[0]}), "
            f"got shape {list(segment_ids.dims)}"
        )
    _dtype_in(segment_ids, "segment_ids", (DataType.INT32, DataType.INT64))
    if pooltype not in SEGMENT_POOLS:
        raise InvalidArgumentError(
            f"argument 'pooltype' must be one of {', '.join(SEGMENT_POOLS)}, got {pooltype!r}"
        )
    _set(out, (UNKNOWN,) + tuple(x.dims[1:]), x.dtype, x)
    _set(summed_ids, (UNKNOWN, 1), x.dtype, x)


def send_u_recv_infer_meta(
    x: MetaTensor,
    src_index: MetaTensor,
    dst_index: MetaTensor,
    reduce_op: str,
    out_size: tuple[int, ...],
    out: MetaTensor,
    dst_count: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``out`` [rows, ...] of x's dtype, rows out_size[0] when positive else x's first extent,
    and ``dst_count`` [rows] int32, the messages each row received."""
    if not x.dims:
        raise InvalidArgumentError("argument 'x' must have at least 1 dimension, got 0-D")
    for name, index in (("src_index", src_index), ("dst_index", dst_index)):
        _rank(index, name, 1)
        _dtype_in(index, name, (DataType.INT32, DataType.INT64))
    if not extents_match(src_index.dims[0], dst_index.dims[0], config):
        raise InvalidArgumentError(
            f"argument 'dst_index' must have one index per edge of src_index "
            f"({src_index.dims[0]}), got shape {list(dst_index.dims)}"
        )
    if reduce_op not in SEGMENT_POOLS:
        raise InvalidArgumentError(
            f"argument 'reduce_op' must be one of {', '.join(SEGMENT_POOLS)}, got {reduce_op!r}"
        )
    if len(out_size) > 1:
        raise InvalidArgumentError(f"argument 'out_size' must hold one size, got {list(out_size)}")
    rows = out_size[0] if out_size and out_size[0] > 0 else x.dims[0]
    _set(out, (rows,) + tuple(x.dims[1:]), x.dtype, x)
    _set(dst_count, (rows,), DataType.INT32, x)
