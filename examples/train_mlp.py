"""Train a 2-layer MLP on scikit-learn's handwritten digits with phiops' autograd and Adam.

    python examples/train_mlp.py [--epochs 40] [--batch-size 64] [--hidden 128] [--seed 0]

The data set (8x8 images of the digits 0-9, 1797 samples) ships with scikit-learn, so nothing is
downloaded. Prints the loss per epoch and the test accuracy at the end.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np

import generated as phi
from runtime.optimizer import Adam


@dataclass
class MLP:
    """x -> relu(x @ w1 + b1) -> logits = h @ w2 + b2."""

    w1: phi.Tensor
    b1: phi.Tensor
    w2: phi.Tensor
    b2: phi.Tensor

    @classmethod
    def create(cls, inputs: int, hidden: int, classes: int, rng: np.random.Generator) -> MLP:
        def glorot(fan_in: int, fan_out: int) -> phi.Tensor:
            limit = np.sqrt(6.0 / (fan_in + fan_out))
            return phi.to_tensor(
                rng.uniform(-limit, limit, (fan_in, fan_out)).astype(np.float32),
                stop_gradient=False,
            )

        def zeros(size: int) -> phi.Tensor:
            return phi.to_tensor(np.zeros(size, np.float32), stop_gradient=False)

        return cls(glorot(inputs, hidden), zeros(hidden), glorot(hidden, classes), zeros(classes))

    def parameters(self) -> list[phi.Tensor]:
        return [self.w1, self.b1, self.w2, self.b2]

    def __call__(self, x: phi.Tensor) -> phi.Tensor:
        hidden = phi.relu(phi.add(phi.matmul(x, self.w1), self.b1))
        return phi.add(phi.matmul(hidden, self.w2), self.b2)


def load_digits_split(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Train/test split (80/20, stratified), features scaled to [0, 1]."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    digits = load_digits()
    features = (digits.data / 16.0).astype(np.float32)
    labels = digits.target.astype(np.int64)
    return train_test_split(features, labels, test_size=0.2, random_state=seed, stratify=labels)


def train_step(model: MLP, optimizer: Adam, x: phi.Tensor, y: phi.Tensor) -> float:
    """One forward + backward + Adam step; returns the batch loss."""
    _, loss = phi.cross_entropy_with_softmax(model(x), y)
    loss = phi.mean(loss)
    loss.backward()
    optimizer.step()
    optimizer.clear_grad()
    return loss.item()


def batches(
    rng: np.random.Generator, count: int, batch_size: int, max_steps: int | None = None
) -> list[np.ndarray]:
    """One epoch's batches of sample indices, in a fresh random order (the first ``max_steps``)."""
    order = rng.permutation(count)
    found = [order[start : start + batch_size] for start in range(0, count, batch_size)]
    return found if max_steps is None else found[:max_steps]


def train(
    model: MLP,
    optimizer: Adam,
    train_x: np.ndarray,
    train_y: np.ndarray,
    rng: np.random.Generator,
    epochs: int,
    batch_size: int,
    max_steps: int | None = None,
) -> list[float]:
    """Train for ``epochs`` (at most ``max_steps`` batches each); returns each epoch's mean
    loss, which it also prints."""
    epoch_losses = []
    for epoch in range(1, epochs + 1):
        losses = []
        for batch in batches(rng, len(train_x), batch_size, max_steps):
            x = phi.to_tensor(train_x[batch])
            y = phi.to_tensor(train_y[batch].reshape(-1, 1))
            losses.append(train_step(model, optimizer, x, y))
        epoch_losses.append(float(np.mean(losses)))
        print(f"epoch {epoch:3d}  loss {epoch_losses[-1]:.4f}")
    return epoch_losses


def accuracy(model: MLP, features: np.ndarray, labels: np.ndarray) -> float:
    with phi.no_grad():
        logits = model(phi.to_tensor(features))
    predicted = phi.argmax(logits, 1).numpy()
    return float((predicted == labels).mean())


def main(argv: list[str] | None = None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--learning-rate", type=float, default=2e-3)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)

    train_x, test_x, train_y, test_y = load_digits_split(options.seed)
    rng = np.random.default_rng(options.seed)
    model = MLP.create(train_x.shape[1], options.hidden, 10, rng)
    optimizer = Adam(learning_rate=options.learning_rate, parameters=model.parameters())
    started = time.perf_counter()
    train(model, optimizer, train_x, train_y, rng, options.epochs, options.batch_size)
    result = accuracy(model, test_x, test_y)
    print(
        f"test accuracy {result:.4f} ({len(test_y)} samples, {time.perf_counter() - started:.1f} s training)"
    )
    return result


if __name__ == "__main__":
    main()
