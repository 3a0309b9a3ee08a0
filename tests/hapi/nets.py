"""The networks and data the hapi tests share, written against PaddlePaddle's API so that the
same code runs under ``phiops`` (the tests) and under PaddlePaddle 3.3.1
(tests/tools/make_hapi_fixtures.py, tests/parity/test_hapi_paddle.py): ``build(paddle)``."""

from __future__ import annotations

from typing import Any

import numpy as np

N_FEATURES, N_HIDDEN, N_CLASSES = 8, 16, 3
N_TRAIN, N_EVAL = 96, 48
BATCH, EPOCHS, LR = 16, 3, 0.1


def data() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Three Gaussian blobs: train and eval features (float32) and labels (int64, [N, 1])."""
    rng = np.random.RandomState(0)
    centers = rng.randn(N_CLASSES, N_FEATURES) * 2.0

    def draw(n: int) -> tuple[np.ndarray, np.ndarray]:
        y = rng.randint(0, N_CLASSES, size=n)
        x = centers[y] + rng.randn(n, N_FEATURES)
        return x.astype("float32"), y.reshape(-1, 1).astype("int64")

    return (*draw(N_TRAIN), *draw(N_EVAL))


def weights() -> dict[str, np.ndarray]:
    """The MLP's initial weights (PaddlePaddle's Linear layout, [in, out])."""
    rng = np.random.RandomState(1)
    return {
        "fc1.weight": (rng.randn(N_FEATURES, N_HIDDEN) * 0.3).astype("float32"),
        "fc1.bias": np.zeros(N_HIDDEN, "float32"),
        "fc2.weight": (rng.randn(N_HIDDEN, N_CLASSES) * 0.3).astype("float32"),
        "fc2.bias": np.zeros(N_CLASSES, "float32"),
    }


def build(paddle: Any) -> dict[str, Any]:
    """The classes of the tests, made from ``paddle`` (phiops or PaddlePaddle)."""
    nn = paddle.nn

    class MLP(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.fc1 = nn.Linear(N_FEATURES, N_HIDDEN)
            self.fc2 = nn.Linear(N_HIDDEN, N_CLASSES)

        def forward(self, x: Any) -> Any:
            return self.fc2(paddle.nn.functional.relu(self.fc1(x)))

    class Blobs(paddle.io.Dataset):
        def __init__(self, x: np.ndarray, y: np.ndarray) -> None:
            super().__init__()
            self.x, self.y = x, y

        def __getitem__(self, i: int) -> Any:
            return self.x[i], self.y[i]

        def __len__(self) -> int:
            return len(self.x)

    class LeNet(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                nn.Conv2D(1, 6, 3, stride=1, padding=1),
                nn.ReLU(),
                nn.MaxPool2D(2, 2),
                nn.Conv2D(6, 16, 5, stride=1, padding=0),
                nn.ReLU(),
                nn.MaxPool2D(2, 2),
            )
            self.fc = nn.Sequential(nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, 10))

        def forward(self, x: Any) -> Any:
            x = self.features(x)
            x = paddle.flatten(x, 1)
            return self.fc(x)

    class BasicBlock(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2D(8, 8, 3, padding=1, bias_attr=False)
            self.bn1 = nn.BatchNorm2D(8)
            self.relu = nn.ReLU()
            self.conv2 = nn.Conv2D(8, 8, 3, padding=1, bias_attr=False)
            self.bn2 = nn.BatchNorm2D(8)
            self.pool = nn.AdaptiveAvgPool2D(1)

        def forward(self, x: Any) -> Any:
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            return self.pool(self.relu(out + x))

    def transformer_layer() -> Any:
        return nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0)

    return {
        "MLP": MLP,
        "Blobs": Blobs,
        "LeNet": LeNet,
        "BasicBlock": BasicBlock,
        "transformer_layer": transformer_layer,
    }


# the summary/flops cases: name -> (net factory key, input size)
SUMMARY_CASES = {
    "lenet": ("LeNet", (1, 1, 28, 28)),
    "basic_block": ("BasicBlock", (1, 8, 8, 8)),
    "transformer_layer": ("transformer_layer", (1, 5, 16)),
    "mlp": ("MLP", (1, N_FEATURES)),
}
