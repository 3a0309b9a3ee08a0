"""Record PaddlePaddle 3.3.1's deterministic ``paddle.io`` behaviour into
tests/data/io/paddle_io_3_3_1.json, for tests/io/ to compare phiops's against.

Run it in the side venv that has PaddlePaddle (never from the test suite):

    /work/paddle-venv/bin/python tests/tools/record_paddle_io.py

Recorded: SequenceSampler's indices; BatchSampler's batches and length over a dataset and over a
given sampler; DistributedBatchSampler's batches and length for every rank of several
num_replicas, with and without drop_last and shuffle (PaddlePaddle shuffles with
``numpy.random.RandomState(epoch)``, which is deterministic), over two epochs and after
``set_epoch``; DataLoader's batches of a dataset of indices (batch_size, drop_last,
batch_sampler, batch_size=None) and the dtypes, shapes and structure of a collated nested batch.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import paddle
from paddle.io import (
    BatchSampler,
    ComposeDataset,
    ConcatDataset,
    DataLoader,
    Dataset,
    DistributedBatchSampler,
    SequenceSampler,
    Subset,
)

OUT = Path(__file__).resolve().parents[1] / "data" / "io" / "paddle_io_3_3_1.json"


class Indices(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return np.int64(i)


class Nested(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {
            "image": np.full((2, 3), i, np.float32),
            "label": i,
            "weight": float(i) / 2,
            "flag": bool(i % 2),
            "name": f"item{i}",
            "pair": (np.int32(i), np.array([i, i + 1], np.int16)),
            "tensor": paddle.to_tensor([i, -i], dtype="float64"),
        }


class Pairs(Dataset):
    def __init__(self, arrays=False):
        self.arrays = arrays

    def __len__(self):
        return 3

    def __getitem__(self, i):
        if self.arrays:
            return (np.array([i, i], np.float32), i * 10, f"s{i}")
        return (i * 10, f"s{i}")


def describe(value):
    """The structure of a batch: Tensors as dtype/shape/values, lists and dicts walked."""
    if isinstance(value, paddle.Tensor):
        return {
            "tensor": str(value.dtype).replace("paddle.", ""),
            "shape": list(value.shape),
            "values": value.numpy().tolist(),
        }
    if isinstance(value, dict):
        return {"dict": {key: describe(item) for key, item in value.items()}}
    if isinstance(value, (list, tuple)):
        return {type(value).__name__: [describe(item) for item in value]}
    if isinstance(value, np.generic):
        value = value.item()
    return {"python": type(value).__name__, "value": value}


def batches(sampler):
    return [[int(i) for i in batch] for batch in sampler]


def record() -> dict:
    """Everything this script records, as the JSON it writes."""
    record = {
        "paddle_version": paddle.__version__,
        "generated_by": "tests/tools/record_paddle_io.py",
    }
    record["sequence_sampler"] = {
        str(n): [int(i) for i in SequenceSampler(Indices(n))] for n in (0, 1, 7)
    }
    batch_sampler = []
    for n in (0, 1, 7, 10):
        for batch_size in (1, 3, 4, 10, 12):
            for drop_last in (False, True):
                sampler = BatchSampler(Indices(n), batch_size=batch_size, drop_last=drop_last)
                batch_sampler.append(
                    {
                        "n": n,
                        "batch_size": batch_size,
                        "drop_last": drop_last,
                        "batches": batches(sampler),
                        "len": len(sampler),
                    }
                )
    record["batch_sampler"] = batch_sampler
    given = BatchSampler(sampler=[5, 3, 1, 0, 2], batch_size=2)
    record["batch_sampler_given_sampler"] = {"batches": batches(given), "len": len(given)}

    distributed = []
    for n in (1, 7, 10, 11):
        for batch_size in (1, 2, 3):
            for replicas in (1, 2, 3, 4):
                for rank in range(replicas):
                    for shuffle in (False, True):
                        for drop_last in (False, True):
                            sampler = DistributedBatchSampler(
                                Indices(n),
                                batch_size,
                                num_replicas=replicas,
                                rank=rank,
                                shuffle=shuffle,
                                drop_last=drop_last,
                            )
                            first = batches(sampler)
                            second = batches(sampler)
                            sampler.set_epoch(5)
                            fifth = batches(sampler)
                            distributed.append(
                                {
                                    "n": n,
                                    "batch_size": batch_size,
                                    "num_replicas": replicas,
                                    "rank": rank,
                                    "shuffle": shuffle,
                                    "drop_last": drop_last,
                                    "epochs": [first, second],
                                    "after_set_epoch_5": fifth,
                                    "len": len(sampler),
                                    "num_samples": sampler.num_samples,
                                    "total_size": sampler.total_size,
                                }
                            )
    record["distributed_batch_sampler"] = distributed

    loaders = []
    for n in (7, 8):
        for batch_size in (1, 3, 4):
            for drop_last in (False, True):
                loader = DataLoader(Indices(n), batch_size=batch_size, drop_last=drop_last)
                loaders.append(
                    {
                        "n": n,
                        "batch_size": batch_size,
                        "drop_last": drop_last,
                        "batches": [batch.numpy().tolist() for batch in loader],
                        "len": len(loader),
                    }
                )
    record["dataloader"] = loaders
    sampler = DistributedBatchSampler(Indices(10), 3, num_replicas=3, rank=1)
    loader = DataLoader(Indices(10), batch_sampler=sampler)
    record["dataloader_distributed"] = {
        "batches": [batch.numpy().tolist() for batch in loader],
        "len": len(loader),
    }
    # a dataset of bare numpy scalars gives no batches at all in PaddlePaddle 3.3.1 with
    # batch_size=None (a bug phiops does not copy); record arrays and numbers inside a tuple
    unbatched = DataLoader(Pairs(arrays=True), batch_size=None)
    record["dataloader_unbatched"] = [describe(item) for item in unbatched]
    record["collate_nested"] = [describe(batch) for batch in DataLoader(Nested(), batch_size=2)]
    compose = ComposeDataset([Indices(3), Pairs()])
    record["compose_dataset"] = [[type(field).__name__ for field in compose[i]] for i in range(3)]
    concat = ConcatDataset([Indices(3), Indices(2)])
    record["concat_dataset"] = [int(concat[i]) for i in range(-5, 5)]
    record["subset"] = [int(Subset(Indices(10), [7, 2, 9])[i]) for i in range(3)]
    return record


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
