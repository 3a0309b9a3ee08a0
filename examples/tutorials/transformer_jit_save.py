"""Tutorial: a small Transformer classifier, trained, saved with ``paddle.jit.save`` and loaded
back for inference.

PaddlePaddle's text-classification pattern on a toy task: an embedding, positional embeddings,
a ``TransformerEncoder`` and a linear head read the class of a token sequence (which of four
marker tokens occurs most often); ``Adam`` with ``LinearWarmup``; the trained layer is saved with
``paddle.jit.save`` over an ``InputSpec`` with a free batch size and loaded with
``paddle.jit.load``. Written for PaddlePaddle; only the import lines name phiops.
"""

import os
import tempfile

import numpy as np

import phiops as paddle
import phiops.nn as nn
from phiops.static import InputSpec

paddle.seed(5)
rng = np.random.default_rng(5)
VOCAB, SEQ, DIM, CLASSES = 20, 12, 32, 4


def make_batch(count):
    tokens = rng.integers(CLASSES, VOCAB, size=(count, SEQ))
    labels = rng.integers(0, CLASSES, size=count)
    for row, label in zip(tokens, labels):
        places = rng.choice(SEQ, size=3, replace=False)
        row[places] = label  # the marker token of the class, three times
        other = rng.integers(0, CLASSES)
        if other != label:
            row[rng.choice([p for p in range(SEQ) if p not in places])] = other
    return tokens.astype("int64"), labels.astype("int64")


class Classifier(nn.Layer):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, DIM)
        self.position = self.create_parameter([1, SEQ, DIM], dtype="float32")
        layer = nn.TransformerEncoderLayer(DIM, nhead=4, dim_feedforward=64, dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)
        self.head = nn.Linear(DIM, CLASSES)

    def forward(self, tokens):
        x = self.embedding(tokens) + self.position
        x = self.encoder(x)
        return self.head(paddle.mean(x, axis=1))


model = Classifier()
scheduler = paddle.optimizer.lr.LinearWarmup(
    learning_rate=0.003, warmup_steps=20, start_lr=0.0, end_lr=0.003
)
optimizer = paddle.optimizer.Adam(learning_rate=scheduler, parameters=model.parameters())
loss_fn = nn.CrossEntropyLoss()

for step in range(150):
    tokens, labels = make_batch(32)
    logits = model(paddle.to_tensor(tokens))
    loss = loss_fn(logits, paddle.to_tensor(labels))
    loss.backward()
    optimizer.step()
    optimizer.clear_grad()
    scheduler.step()
    if step % 50 == 0:
        print(f"step {step}: loss {float(loss):.4f}")

model.eval()
test_tokens, test_labels = make_batch(256)
with paddle.no_grad():
    predicted = paddle.argmax(model(paddle.to_tensor(test_tokens)), axis=1).numpy()
print(f"test accuracy {float((predicted == test_labels).mean()):.4f}")

with tempfile.TemporaryDirectory() as directory:
    path = os.path.join(directory, "classifier")
    paddle.jit.save(model, path, input_spec=[InputSpec([None, SEQ], "int64", name="tokens")])
    loaded = paddle.jit.load(path)
    loaded.eval()
    batch = paddle.to_tensor(test_tokens[:5])
    eager = model(batch).numpy()
    restored = loaded(batch).numpy()
print(f"test jit max abs difference {float(np.abs(eager - restored).max()):.2e}")
