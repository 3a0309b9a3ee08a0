"""Train a small CNN on scikit-learn's handwritten digits with phi.nn (Conv2D, BatchNorm2D,
MaxPool2D, Linear) and phi.optimizer.Adam.

    python examples/train_cnn.py [--epochs 12] [--batch-size 32] [--seed 0]

Written as a PaddlePaddle user writes it. The 8x8 digit images (1797 samples, shipped with
scikit-learn) are reshaped to NCHW [N, 1, 8, 8]. The network is two blocks of Conv2D 3x3
(padding 1) -> BatchNorm2D -> ReLU -> MaxPool2D 2x2, then a Linear layer: [N, 1, 8, 8] ->
[N, 16, 4, 4] -> [N, 32, 2, 2] -> 10 logits. BatchNorm2D updates its running statistics while
training (``model.train()``) and the test pass uses them (``model.eval()``). Prints the loss per
epoch and the test accuracy at the end.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import phiops as phi

nn = phi.nn


def conv_block(inputs: int, outputs: int) -> nn.Sequential:
    """Conv2D 3x3 (padding 1) -> BatchNorm2D -> ReLU -> MaxPool2D 2x2."""
    return nn.Sequential(
        nn.Conv2D(inputs, outputs, 3, padding=1, bias_attr=False),
        nn.BatchNorm2D(outputs),
        nn.ReLU(),
        nn.MaxPool2D(2),
    )


class CNN(nn.Layer):
    def __init__(self, classes: int) -> None:
        super().__init__()
        self.features = nn.Sequential(conv_block(1, 16), conv_block(16, 32), nn.Flatten())
        self.classifier = nn.Linear(32 * 2 * 2, classes)

    def forward(self, x: phi.Tensor) -> phi.Tensor:
        return self.classifier(self.features(x))


def load_digits_split(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Train/test split (80/20, stratified), images [N, 1, 8, 8] scaled to [0, 1]."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    digits = load_digits()
    images = (digits.images / 16.0).astype(np.float32).reshape(-1, 1, 8, 8)
    labels = digits.target.astype(np.int64)
    return train_test_split(images, labels, test_size=0.2, random_state=seed, stratify=labels)


def accuracy(model: nn.Layer, images: np.ndarray, labels: np.ndarray) -> float:
    model.eval()
    with phi.no_grad():
        logits = model(phi.to_tensor(images))
    model.train()
    return float((logits.argmax(1).numpy() == labels).mean())


def main(argv: list[str] | None = None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--learning-rate", type=float, default=1e-2)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)

    phi.seed(options.seed)
    train_x, test_x, train_y, test_y = load_digits_split(options.seed)
    rng = np.random.default_rng(options.seed)
    model = CNN(10)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = phi.optimizer.Adam(
        learning_rate=options.learning_rate, parameters=model.parameters()
    )
    started = time.perf_counter()
    for epoch in range(1, options.epochs + 1):
        order = rng.permutation(len(train_x))
        losses = []
        for start in range(0, len(order), options.batch_size):
            batch = order[start : start + options.batch_size]
            loss = loss_fn(model(phi.to_tensor(train_x[batch])), phi.to_tensor(train_y[batch]))
            loss.backward()
            optimizer.step()
            optimizer.clear_grad()
            losses.append(loss.item())
        print(f"epoch {epoch:3d}  loss {np.mean(losses):.4f}")
    result = accuracy(model, test_x, test_y)
    print(
        f"test accuracy {result:.4f} ({len(test_y)} samples, {time.perf_counter() - started:.1f} s training)"
    )
    return result


if __name__ == "__main__":
    main()
