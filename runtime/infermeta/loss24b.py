"""InferMeta functions of the loss24b ops (issue 24): PaddlePaddle's sampling and structured
losses (hsigmoid_loss, ...), following PaddlePaddle 3.3.1's functions of the same names in
paddle/phi/infermeta/, with the checks PHI's kernels make on shapes and dtypes done here, as
errors that name the argument."""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError, UnimplementedError
from phiops.runtime.infermeta.dims import dims_match, extents_match, set_output
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "h_sigmoid_loss_infer_meta",
    "hsigmoid_code_length",
    "class_center_sample_infer_meta",
]

_RUNTIME = MetaConfig()


def _rank(t: MetaTensor, name: str, ranks: tuple[int, ...]) -> None:
    if len(t.dims) not in ranks:
        wanted = " or ".join(f"{r}-D" for r in ranks)
        raise InvalidArgumentError(
            f"argument '{name}' must be a {wanted} tensor, got shape {list(t.dims)}"
        )


def _dtype(t: MetaTensor, name: str, dtypes: tuple[DataType, ...]) -> None:
    if t.dtype not in dtypes:
        wanted = " or ".join(d.name.lower() for d in dtypes)
        raise InvalidArgumentError(
            f"argument '{name}' must be a {wanted} tensor, got {t.dtype.name.lower()}"
        )


def _column(t: MetaTensor, name: str, rows: int, rows_of: str, config: MetaConfig) -> None:
    """``t`` is [rows] or [rows, 1]."""
    _rank(t, name, (1, 2))
    if len(t.dims) == 2 and not extents_match(t.dims[1], 1, config):
        raise InvalidArgumentError(
            f"argument '{name}' must be [{rows_of}] or [{rows_of}, 1], got shape {list(t.dims)}"
        )
    if not extents_match(t.dims[0], rows, config):
        raise InvalidArgumentError(
            f"argument '{name}' must have {rows_of} ({rows}) rows, got shape {list(t.dims)}"
        )


def hsigmoid_code_length(num_classes: int, path: MetaTensor | None) -> int:
    """The columns of pre_out: the longest path, path's width for a custom tree, else the bits
    of num_classes - 1 (PHI's FindLastSet)."""
    if path is not None:
        return path.dims[1]
    return (num_classes - 1).bit_length()


def h_sigmoid_loss_infer_meta(
    x: MetaTensor,
    label: MetaTensor,
    w: MetaTensor,
    bias: MetaTensor | None,
    path: MetaTensor | None,
    code: MetaTensor | None,
    num_classes: int,
    is_sparse: bool,
    out: MetaTensor,
    pre_out: MetaTensor,
    w_out: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """out [N, 1] and pre_out [N, code length] of x's dtype from x [N, D], label [N] or [N, 1]
    (int64), w [nodes, D], bias [nodes, 1] and, for a custom tree, path and code [N, length]
    (int64); w_out is an empty float32 tensor, as PHI's dense kernel leaves it (PHI's
    HSigmoidLossInferMeta sets out only; the kernel sizes pre_out)."""
    _rank(x, "x", (2,))
    _dtype(x, "x", (DataType.FLOAT32, DataType.FLOAT64))
    batch, width = x.dims
    _column(label, "label", batch, "x's batch", config)
    _dtype(label, "label", (DataType.INT64,))
    _rank(w, "w", (2,))
    if w.dtype is not x.dtype:
        raise InvalidArgumentError(
            f"argument 'w' must have x's dtype ({x.dtype.name.lower()}), got {w.dtype.name.lower()}"
        )
    if not extents_match(w.dims[1], width, config):
        raise InvalidArgumentError(
            f"argument 'w' must have x's width ({width}) columns, got shape {list(w.dims)}"
        )
    if bias is not None:
        _column(bias, "bias", w.dims[0], "w's rows", config)
        if bias.dtype is not x.dtype:
            raise InvalidArgumentError(
                f"argument 'bias' must have x's dtype ({x.dtype.name.lower()}), got "
                f"{bias.dtype.name.lower()}"
            )
    if (path is None) != (code is None):
        raise InvalidArgumentError(
            "arguments 'path' and 'code' give a custom tree together: pass both or neither, got "
            f"{'path' if code is None else 'code'} alone"
        )
    if path is not None and code is not None:
        for t, name in ((path, "path"), (code, "code")):
            _rank(t, name, (2,))
            _dtype(t, name, (DataType.INT64,))
            if not extents_match(t.dims[0], batch, config):
                raise InvalidArgumentError(
                    f"argument '{name}' must have x's batch ({batch}) rows, got shape {list(t.dims)}"
                )
        if not dims_match(code.dims, path.dims, config):
            raise InvalidArgumentError(
                f"argument 'code' must have path's shape {list(path.dims)}, got {list(code.dims)}"
            )
    elif num_classes < 2:
        raise InvalidArgumentError(
            f"argument 'num_classes' must be at least 2 for the default tree, got {num_classes}"
        )
    set_output(out, (batch, 1), x.dtype, x)
    set_output(pre_out, (batch, hsigmoid_code_length(num_classes, path)), x.dtype, x)
    set_output(w_out, (0,), DataType.FLOAT32, x)


def class_center_sample_infer_meta(
    label: MetaTensor,
    num_classes: int,
    num_samples: int,
    ring_id: int,
    rank: int,
    nranks: int,
    fix_seed: bool,
    seed: int,
    remapped_label: MetaTensor,
    sampled_local_class_center: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """remapped_label like label (1-D, int32 or int64) and sampled_local_class_center [-1] of its
    dtype (its length is max(distinct labels, num_samples), known once the kernel ran), as PHI's
    ClassCenterSampleInferMeta; the kernel's checks of num_classes and num_samples made here."""
    _rank(label, "label", (1,))
    _dtype(label, "label", (DataType.INT32, DataType.INT64))
    if num_classes <= 0:
        raise InvalidArgumentError(f"argument 'num_classes' must be positive, got {num_classes}")
    if not 0 < num_samples <= num_classes:
        raise InvalidArgumentError(
            f"argument 'num_samples' must be in [1, num_classes] = [1, {num_classes}], got "
            f"{num_samples}"
        )
    if nranks != 1:
        raise UnimplementedError(
            f"class_center_sample across processes (nranks={nranks}) is not implemented; "
            "phiops samples the centers of one process (nranks=1)"
        )
    set_output(remapped_label, label.dims, label.dtype, label)
    set_output(sampled_local_class_center, (-1,), label.dtype, label)
