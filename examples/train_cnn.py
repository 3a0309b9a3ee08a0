"""Train a small CNN on scikit-learn's handwritten digits with phiops' conv2d, batch_norm and
pool2d, autograd and Adam.

    python examples/train_cnn.py [--epochs 12] [--batch-size 32] [--seed 0]

The 8x8 digit images (1797 samples, shipped with scikit-learn) are reshaped to NCHW
[N, 1, 8, 8]. The network is two blocks of conv2d 3x3 (padding 1) -> batch_norm -> relu ->
max pool2d 2x2, then a linear layer: [N, 1, 8, 8] -> [N, 16, 4, 4] -> [N, 32, 2, 2] -> 10
logits. batch_norm_ updates the running statistics in place while training and the test pass
uses them (is_test). Prints the loss per epoch and the test accuracy at the end.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np

import generated as phi
from runtime.optimizer import Adam


def parameter(array: np.ndarray) -> phi.Tensor:
    return phi.to_tensor(array.astype(np.float32), stop_gradient=False)


@dataclass
class ConvBlock:
    """conv2d 3x3 (padding 1) -> batch_norm -> relu -> max pool 2x2."""

    filter: phi.Tensor
    scale: phi.Tensor
    bias: phi.Tensor
    running_mean: phi.Tensor
    running_variance: phi.Tensor

    @classmethod
    def create(cls, inputs: int, outputs: int, rng: np.random.Generator) -> ConvBlock:
        fan_in = inputs * 9
        return cls(
            parameter(rng.normal(0, np.sqrt(2.0 / fan_in), (outputs, inputs, 3, 3))),
            parameter(np.ones(outputs)),
            parameter(np.zeros(outputs)),
            phi.to_tensor(np.zeros(outputs, np.float32)),
            phi.to_tensor(np.ones(outputs, np.float32)),
        )

    def parameters(self) -> list[phi.Tensor]:
        return [self.filter, self.scale, self.bias]

    def __call__(self, x: phi.Tensor, training: bool) -> phi.Tensor:
        h = phi.conv2d(x, self.filter, [1, 1], [1, 1])
        h = phi.batch_norm_(
            h,
            self.running_mean,
            self.running_variance,
            self.scale,
            self.bias,
            not training,
            0.9,
            1e-5,
            "NCHW",
            False,
            False,
        )[0]
        h = phi.relu(h)
        return phi.pool2d(
            h, [2, 2], [2, 2], [0, 0], False, True, "NCHW", "max", False, False, "EXPLICIT"
        )


@dataclass
class CNN:
    block1: ConvBlock
    block2: ConvBlock
    weight: phi.Tensor
    bias: phi.Tensor

    @classmethod
    def create(cls, classes: int, rng: np.random.Generator) -> CNN:
        limit = np.sqrt(6.0 / (128 + classes))
        return cls(
            ConvBlock.create(1, 16, rng),
            ConvBlock.create(16, 32, rng),
            parameter(rng.uniform(-limit, limit, (128, classes))),
            parameter(np.zeros(classes)),
        )

    def parameters(self) -> list[phi.Tensor]:
        return self.block1.parameters() + self.block2.parameters() + [self.weight, self.bias]

    def __call__(self, x: phi.Tensor, training: bool = True) -> phi.Tensor:
        h = self.block2(self.block1(x, training), training)
        return phi.add(phi.matmul(phi.flatten(h, 1, 3), self.weight), self.bias)


def load_digits_split(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Train/test split (80/20, stratified), images [N, 1, 8, 8] scaled to [0, 1]."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    digits = load_digits()
    images = (digits.images / 16.0).astype(np.float32).reshape(-1, 1, 8, 8)
    labels = digits.target.astype(np.int64)
    return train_test_split(images, labels, test_size=0.2, random_state=seed, stratify=labels)


def train_step(model: CNN, optimizer: Adam, x: phi.Tensor, y: phi.Tensor) -> float:
    _, loss = phi.cross_entropy_with_softmax(model(x), y)
    loss = phi.mean(loss)
    loss.backward()
    optimizer.step()
    optimizer.clear_grad()
    return loss.item()


def accuracy(model: CNN, images: np.ndarray, labels: np.ndarray) -> float:
    with phi.no_grad():
        logits = model(phi.to_tensor(images), training=False)
    return float((phi.argmax(logits, 1).numpy() == labels).mean())


def main(argv: list[str] | None = None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--learning-rate", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)

    train_x, test_x, train_y, test_y = load_digits_split(options.seed)
    rng = np.random.default_rng(options.seed)
    model = CNN.create(10, rng)
    optimizer = Adam(learning_rate=options.learning_rate, parameters=model.parameters())
    started = time.perf_counter()
    for epoch in range(1, options.epochs + 1):
        order = rng.permutation(len(train_x))
        losses = []
        for start in range(0, len(order), options.batch_size):
            batch = order[start : start + options.batch_size]
            x = phi.to_tensor(train_x[batch])
            y = phi.to_tensor(train_y[batch].reshape(-1, 1))
            losses.append(train_step(model, optimizer, x, y))
        print(f"epoch {epoch:3d}  loss {np.mean(losses):.4f}")
    result = accuracy(model, test_x, test_y)
    print(
        f"test accuracy {result:.4f} ({len(test_y)} samples, {time.perf_counter() - started:.1f} s training)"
    )
    return result


if __name__ == "__main__":
    main()
