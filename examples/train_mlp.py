"""Train a 2-layer MLP on scikit-learn's handwritten digits with phi.nn and phi.optimizer.Adam.

    python examples/train_mlp.py [--epochs 40] [--batch-size 64] [--hidden 128] [--seed 0]

Written as a PaddlePaddle user writes it (``import paddle.nn as nn`` becomes ``phi.nn``). The
data set (8x8 images of the digits 0-9, 1797 samples) ships with scikit-learn, so nothing is
downloaded. Prints the loss per epoch and the test accuracy at the end.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import phiops as phi

nn = phi.nn


class MLP(nn.Layer):
    """x -> Linear -> ReLU -> Linear -> logits."""

    def __init__(self, inputs: int, hidden: int, classes: int) -> None:
        super().__init__()
        self.fc1 = nn.Linear(inputs, hidden)
        self.relu = nn.ReLU()
        self.fc2 = nn.Linear(hidden, classes)

    def forward(self, x: phi.Tensor) -> phi.Tensor:
        return self.fc2(self.relu(self.fc1(x)))


def load_digits_split(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Train/test split (80/20, stratified), features scaled to [0, 1]."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    digits = load_digits()
    features = (digits.data / 16.0).astype(np.float32)
    labels = digits.target.astype(np.int64)
    return train_test_split(features, labels, test_size=0.2, random_state=seed, stratify=labels)


def batches(
    rng: np.random.Generator, count: int, batch_size: int, max_steps: int | None = None
) -> list[np.ndarray]:
    """One epoch's batches of sample indices, in a fresh random order (the first ``max_steps``)."""
    order = rng.permutation(count)
    found = [order[start : start + batch_size] for start in range(0, count, batch_size)]
    return found if max_steps is None else found[:max_steps]


def train(
    model: nn.Layer,
    optimizer: phi.optimizer.Adam,
    train_x: np.ndarray,
    train_y: np.ndarray,
    rng: np.random.Generator,
    epochs: int,
    batch_size: int,
    max_steps: int | None = None,
) -> list[float]:
    """Train for ``epochs`` (at most ``max_steps`` batches each); returns each epoch's mean
    loss, which it also prints."""
    loss_fn = nn.CrossEntropyLoss()
    epoch_losses = []
    for epoch in range(1, epochs + 1):
        losses = []
        for batch in batches(rng, len(train_x), batch_size, max_steps):
            loss = loss_fn(model(phi.to_tensor(train_x[batch])), phi.to_tensor(train_y[batch]))
            loss.backward()
            optimizer.step()
            optimizer.clear_grad()
            losses.append(loss.item())
        epoch_losses.append(float(np.mean(losses)))
        print(f"epoch {epoch:3d}  loss {epoch_losses[-1]:.4f}")
    return epoch_losses


def accuracy(model: nn.Layer, features: np.ndarray, labels: np.ndarray) -> float:
    model.eval()
    with phi.no_grad():
        logits = model(phi.to_tensor(features))
    model.train()
    return float((logits.argmax(1).numpy() == labels).mean())


def main(argv: list[str] | None = None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--learning-rate", type=float, default=2e-3)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)

    phi.seed(options.seed)
    train_x, test_x, train_y, test_y = load_digits_split(options.seed)
    rng = np.random.default_rng(options.seed)
    model = MLP(train_x.shape[1], options.hidden, 10)
    optimizer = phi.optimizer.Adam(
        learning_rate=options.learning_rate, parameters=model.parameters()
    )
    started = time.perf_counter()
    train(model, optimizer, train_x, train_y, rng, options.epochs, options.batch_size)
    result = accuracy(model, test_x, test_y)
    print(
        f"test accuracy {result:.4f} ({len(test_y)} samples, {time.perf_counter() - started:.1f} s training)"
    )
    return result


if __name__ == "__main__":
    main()
