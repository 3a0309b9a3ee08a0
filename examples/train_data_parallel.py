"""Train an MLP on scikit-learn's digits data parallel: one process per rank, each on its share
of every batch, the gradients averaged over the ranks during backward.

    phiops launch --nproc_per_node 2 examples/train_data_parallel.py [--epochs 10]
    python -m phiops.distributed.launch --nproc_per_node 2 examples/train_data_parallel.py
    mpiexec -n 2 python examples/train_data_parallel.py
    python examples/train_data_parallel.py            (one process: a world of one rank)

Written as a PaddlePaddle user writes it: ``init_parallel_env``, ``paddle.DataParallel``,
``DistributedBatchSampler`` and a ``DataLoader``. Rank 0 prints the loss per epoch (averaged over
the ranks with ``all_reduce``) and the test accuracy at the end; every rank ends with the same
parameters, which the last line checks.
"""

from __future__ import annotations

import argparse

import numpy as np

import phiops as paddle

nn = paddle.nn
dist = paddle.distributed


class MLP(nn.Layer):
    def __init__(self, inputs: int, hidden: int, classes: int) -> None:
        super().__init__()
        self.fc1 = nn.Linear(inputs, hidden)
        self.fc2 = nn.Linear(hidden, classes)

    def forward(self, x: paddle.Tensor) -> paddle.Tensor:
        return self.fc2(nn.functional.relu(self.fc1(x)))


def load_digits_split() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    digits = load_digits()
    features = (digits.data / 16.0).astype(np.float32)
    labels = digits.target.astype(np.int64)
    return train_test_split(features, labels, test_size=0.2, random_state=0, stratify=labels)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=64, help="per rank")
    parser.add_argument("--lr", type=float, default=0.01)
    options = parser.parse_args()

    dist.init_parallel_env()
    rank, world = dist.get_rank(), dist.get_world_size()
    paddle.seed(rank)  # DataParallel starts every rank from rank 0's parameters anyway
    train_x, test_x, train_y, test_y = load_digits_split()
    dataset = paddle.io.TensorDataset([paddle.to_tensor(train_x), paddle.to_tensor(train_y)])
    sampler = paddle.io.DistributedBatchSampler(
        dataset, batch_size=options.batch_size, shuffle=True, drop_last=True
    )
    loader = paddle.io.DataLoader(dataset, batch_sampler=sampler)
    model = paddle.DataParallel(MLP(64, 128, 10))
    optimizer = paddle.optimizer.Adam(learning_rate=options.lr, parameters=model.parameters())
    if rank == 0:
        print(f"training on {world} rank(s), {len(sampler)} batches of {options.batch_size} each")
    for epoch in range(options.epochs):
        sampler.set_epoch(epoch)
        total = paddle.zeros([1], dtype="float32")
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            optimizer.clear_grad()
            total += loss.detach().reshape([1])
        dist.all_reduce(total, op=dist.ReduceOp.AVG)
        if rank == 0:
            print(f"epoch {epoch + 1} loss {float(total.numpy()[0]) / len(sampler):.4f}")
    model.eval()
    logits = model(paddle.to_tensor(test_x))
    accuracy = float((logits.numpy().argmax(axis=1) == test_y).mean())
    weights = model.state_dict()["fc1.weight"]
    gathered: list[paddle.Tensor] = []
    dist.all_gather(gathered, weights)
    same = all(np.array_equal(g.numpy(), weights.numpy()) for g in gathered)
    if rank == 0:
        print(f"test accuracy {accuracy:.4f}")
        print(f"parameters identical on all {world} ranks: {same}")


if __name__ == "__main__":
    main()
