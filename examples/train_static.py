"""Train the digits MLP of examples/train_mlp.py in static mode: a program, Adam.minimize, an
Executor.

    python examples/train_static.py [--epochs 40] [--batch-size 64] [--hidden 128] [--seed 0]

The same data, initial parameters (train_mlp.py's MLP after phi.seed) and batch order as
train_mlp.py for the same seed, so the per-epoch losses equal the eager ones. The main program
holds the forward pass, the backward program and the adam_ updates that ``Adam.minimize``
appends; an inference program reads the same parameters (by name) from the scope. Prints the
loss per epoch and the test accuracy at the end.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import phiops as phi
from phiops.runtime.optimizer import Adam
from train_mlp import MLP, batches, load_digits_split

PARAMETERS = ("w1", "b1", "w2", "b2")


def forward(x: phi.static.Value, inputs: int, hidden: int, classes: int) -> phi.static.Value:
    """relu(x @ w1 + b1) @ w2 + b2, with parameters named as PARAMETERS."""
    w1 = phi.static.create_parameter([inputs, hidden], "float32", name="w1")
    b1 = phi.static.create_parameter([hidden], "float32", name="b1", is_bias=True)
    w2 = phi.static.create_parameter([hidden, classes], "float32", name="w2")
    b2 = phi.static.create_parameter([classes], "float32", name="b2", is_bias=True)
    hidden_out = phi.relu(phi.add(phi.matmul(x, w1), b1))
    return phi.add(phi.matmul(hidden_out, w2), b2)


class StaticMLP:
    """The training program (forward, backward, Adam updates) and the inference program."""

    def __init__(self, inputs: int, hidden: int, classes: int, learning_rate: float) -> None:
        self.main, self.startup = phi.static.Program(), phi.static.Program()
        with phi.static.program_guard(self.main, self.startup):
            x = phi.static.data("x", [-1, inputs], "float32")
            y = phi.static.data("y", [-1, 1], "int64")
            _, loss = phi.cross_entropy_with_softmax(forward(x, inputs, hidden, classes), y)
            self.loss = phi.mean(loss)
            Adam(learning_rate=learning_rate).minimize(self.loss)
        self.infer = phi.static.Program()
        with phi.static.program_guard(self.infer, phi.static.Program()):
            x = phi.static.data("x", [-1, inputs], "float32")
            self.predicted = phi.argmax(forward(x, inputs, hidden, classes), 1)
        self.scope = phi.static.Scope()
        self.exe = phi.static.Executor()
        self.exe.run(self.startup, scope=self.scope)

    def load(self, model: MLP) -> None:
        """Start from ``model``'s parameter values."""
        for name, tensor in zip(PARAMETERS, model.parameters()):
            self.scope.var(name).set(tensor.numpy().copy())

    def train_step(self, x: np.ndarray, y: np.ndarray) -> float:
        (loss,) = self.exe.run(
            self.main, feed={"x": x, "y": y}, fetch_list=[self.loss], scope=self.scope
        )
        return float(loss)

    def accuracy(self, features: np.ndarray, labels: np.ndarray) -> float:
        (predicted,) = self.exe.run(
            self.infer, feed={"x": features}, fetch_list=[self.predicted], scope=self.scope
        )
        return float((predicted == labels).mean())


def train(
    model: StaticMLP,
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
        losses = [
            model.train_step(train_x[batch], train_y[batch].reshape(-1, 1))
            for batch in batches(rng, len(train_x), batch_size, max_steps)
        ]
        epoch_losses.append(float(np.mean(losses)))
        print(f"epoch {epoch:3d}  loss {epoch_losses[-1]:.4f}")
    return epoch_losses


def setup(
    hidden: int, learning_rate: float, seed: int
) -> tuple[StaticMLP, np.random.Generator, tuple[np.ndarray, ...]]:
    """The data split, the generator (after drawing the initial parameters) and the model, as
    train_mlp.py sets them up for ``seed``."""
    split = load_digits_split(seed)
    phi.seed(seed)
    rng = np.random.default_rng(seed)
    initial = MLP(split[0].shape[1], hidden, 10)  # eager parameters: the same draws
    phi.enable_static()
    model = StaticMLP(split[0].shape[1], hidden, 10, learning_rate)
    model.load(initial)
    return model, rng, split


def main(argv: list[str] | None = None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--learning-rate", type=float, default=2e-3)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)

    try:
        model, rng, (train_x, test_x, train_y, test_y) = setup(
            options.hidden, options.learning_rate, options.seed
        )
        started = time.perf_counter()
        train(model, train_x, train_y, rng, options.epochs, options.batch_size)
        result = model.accuracy(test_x, test_y)
    finally:
        phi.disable_static()
    print(
        f"test accuracy {result:.4f} ({len(test_y)} samples, "
        f"{time.perf_counter() - started:.1f} s training)"
    )
    return result


if __name__ == "__main__":
    main()
