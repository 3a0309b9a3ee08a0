"""PaddlePaddle's file formats for tensors: the `.pdiparams` tensor stream and the `.pdparams`
pickle (`phi.save` / `phi.load`)."""

from phiops.runtime.serialization.tensor_stream import (
    TensorStreamError,
    load_combine,
    read_all_tensors,
    save_combine,
)

__all__ = ["TensorStreamError", "load_combine", "read_all_tensors", "save_combine"]
