"""``phiops.io`` (``paddle.io``): datasets, samplers and the DataLoader (runtime/io/).

Dataset, IterableDataset, TensorDataset, ComposeDataset, ChainDataset, ConcatDataset, Subset and
``random_split``; Sampler, SequenceSampler, RandomSampler, WeightedRandomSampler,
SubsetRandomSampler, BatchSampler and DistributedBatchSampler; DataLoader, with worker processes
(``num_workers``) and ``get_worker_info``. Shuffles draw from phiops's global generator, so
``phiops.seed(n)`` fixes them.

Differences from PaddlePaddle: DistributedBatchSampler runs in one process (``num_replicas`` and
``rank`` are honoured, and default to ``PADDLE_TRAINERS_NUM``/``PADDLE_TRAINER_ID`` or 1/0);
the DataLoader does not feed static programs (``return_list=False`` in static mode raises
UnimplementedError); arrays cross from workers pickled, whatever ``use_shared_memory`` says.

Saving and loading tensors and state dicts is ``phiops.save`` / ``phiops.load`` (``.pdparams``),
as in PaddlePaddle; inference models are ``phiops.static.save_inference_model`` and
``phiops.jit.save``.
"""

from __future__ import annotations

import phiops as _phiops

from phiops.runtime.io import *  # noqa: F401,F403
from phiops.runtime.io import __all__ as _runtime_names

__all__ = list(_runtime_names)

_phiops._load_api()  # the ops and paddle's Tensor methods, as `import phiops` gives them
