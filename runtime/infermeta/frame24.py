"""InferMeta functions of the frame24 framework ops (issue 24): ``share_data``, ``read_file``
and ``trans_layout_grad``.

They follow PaddlePaddle 3.3.1's (paddle/phi/infermeta/unary.cc, nullary.cc, backward.cc):
``read_file``'s length stays unknown (-1) at run time too, since only the file decides it.
"""

from __future__ import annotations

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.infermeta.backward import transpose_grad_infer_meta
from phiops.runtime.infermeta.dims import UNKNOWN
from phiops.runtime.tensor.meta_tensor import MetaConfig, MetaTensor

__all__ = [
    "share_data_infer_meta",
    "read_file_infer_meta",
    "trans_layout_grad_infer_meta",
]

_RUNTIME = MetaConfig()


def share_data_infer_meta(x: MetaTensor, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """``out`` shares ``x``'s buffer: it has ``x``'s dims, dtype and layout."""
    out.share_meta(x)


def read_file_infer_meta(filename: str, out: MetaTensor, config: MetaConfig = _RUNTIME) -> None:
    """The bytes of file ``filename``: a 1-D uint8 tensor whose length the file decides."""
    if not filename:
        raise InvalidArgumentError("argument 'filename' must name a file, got an empty str")
    out.set_dims((UNKNOWN,))
    out.set_dtype(DataType.UINT8)


def trans_layout_grad_infer_meta(
    x: MetaTensor,
    out_grad: MetaTensor,
    perm: tuple[int, ...],
    x_grad: MetaTensor,
    config: MetaConfig = _RUNTIME,
) -> None:
    """``x_grad`` has ``out_grad``'s dims permuted back by the inverse of ``perm``, and ``x``'s
    layout."""
    if len(perm) != len(out_grad.dims):
        raise InvalidArgumentError(
            f"argument 'perm' must have one entry per dimension of argument 'out_grad' with dims "
            f"{list(out_grad.dims)}, got {list(perm)}"
        )
    transpose_grad_infer_meta(out_grad, perm, x_grad, config)
    x_grad.set_layout(x.layout)
