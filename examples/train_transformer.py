"""Train a small Transformer encoder classifier on synthetic token sequences with
``phiops.io.DataLoader`` and ``phiops.Model.fit``.

    python examples/train_transformer.py [--epochs 4] [--batch-size 64] [--seed 0]

Each sample is 12 tokens: filler tokens (4..15) with exactly one keyword token (0..3) at a
random position; its class is the keyword. Finding it needs attention over the whole sequence,
position-independent: embeddings plus learned positions, one ``nn.TransformerEncoder`` layer,
mean pooling and a Linear head. Written as a PaddlePaddle user writes it (``paddle.Model``,
``prepare`` with Adam, CrossEntropyLoss and Accuracy, ``fit`` with an eval DataLoader,
``evaluate``); prints PaddlePaddle's progress lines and, at the end, ``test accuracy: <acc>``
(above 0.95 after the default 4 epochs, a few seconds of CPU).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import phiops as paddle
import phiops.nn as nn
from phiops.io import DataLoader, Dataset

SEQ_LEN, VOCAB, KEYWORDS = 12, 16, 4


class KeywordSequences(Dataset):
    """(tokens [SEQ_LEN] int64, the keyword's class [1] int64)."""

    def __init__(self, n: int, seed: int) -> None:
        super().__init__()
        rng = np.random.RandomState(seed)
        self.tokens = rng.randint(KEYWORDS, VOCAB, size=(n, SEQ_LEN)).astype("int64")
        self.labels = rng.randint(0, KEYWORDS, size=(n, 1)).astype("int64")
        where = rng.randint(0, SEQ_LEN, size=n)
        self.tokens[np.arange(n), where] = self.labels[:, 0]

    def __getitem__(self, i: int):
        return self.tokens[i], self.labels[i]

    def __len__(self) -> int:
        return len(self.tokens)


class TransformerClassifier(nn.Layer):
    """Token and position embeddings, a TransformerEncoder, mean pooling, a Linear head."""

    def __init__(self, d_model: int = 32, nhead: int = 4, num_layers: int = 1) -> None:
        super().__init__()
        self.embed = nn.Embedding(VOCAB, d_model)
        self.position = self.create_parameter([SEQ_LEN, d_model])
        layer = nn.TransformerEncoderLayer(d_model, nhead, 2 * d_model, dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, num_layers)
        self.head = nn.Linear(d_model, KEYWORDS)

    def forward(self, tokens):
        x = self.embed(tokens) + self.position
        return self.head(self.encoder(x).mean(axis=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    paddle.seed(args.seed)
    train = DataLoader(KeywordSequences(1024, args.seed), batch_size=args.batch_size, shuffle=True)
    test = DataLoader(KeywordSequences(256, args.seed + 1), batch_size=args.batch_size)
    inputs = [paddle.static.InputSpec([None, SEQ_LEN], "int64", "tokens")]
    labels = [paddle.static.InputSpec([None, 1], "int64", "label")]
    model = paddle.Model(TransformerClassifier(), inputs, labels)
    model.prepare(
        paddle.optimizer.Adam(learning_rate=0.005, parameters=model.parameters()),
        nn.CrossEntropyLoss(),
        paddle.metric.Accuracy(),
    )
    start = time.time()
    model.fit(train, test, epochs=args.epochs, log_freq=8, verbose=2)
    result = model.evaluate(test, verbose=0)
    print(f"trained in {time.time() - start:.1f}s")
    print(f"test accuracy: {float(result['acc']):.4f}")


if __name__ == "__main__":
    main()
