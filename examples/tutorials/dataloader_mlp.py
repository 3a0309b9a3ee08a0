"""Tutorial: a multilayer perceptron trained from a Dataset through a DataLoader.

PaddlePaddle's classic first tutorial (a custom ``paddle.io.Dataset``, a ``DataLoader`` that
shuffles and batches it, an ``nn.Layer`` of ``Linear`` layers, ``CrossEntropyLoss`` and
``Adam``; evaluation under ``no_grad``; the weights saved and loaded), on a synthetic data set so
that it runs offline. Written for PaddlePaddle; only the import lines name phiops.
"""

import numpy as np

import phiops as paddle
import phiops.nn as nn
import phiops.nn.functional as F
from phiops.io import DataLoader, Dataset

paddle.seed(2024)
rng = np.random.default_rng(2024)
FEATURES, CLASSES = 16, 4
TEACHER = rng.normal(size=(FEATURES, CLASSES)).astype("float32")


class RandomDataset(Dataset):
    """Points whose class is the argmax of a fixed random projection of their tanh."""

    def __init__(self, num_samples):
        self.x = rng.normal(size=(num_samples, FEATURES)).astype("float32")
        self.y = np.argmax(np.tanh(self.x) @ TEACHER, axis=1).astype("int64")

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]

    def __len__(self):
        return len(self.x)


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(FEATURES, 64)
        self.fc2 = nn.Linear(64, 64)
        self.fc3 = nn.Linear(64, CLASSES)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


train_loader = DataLoader(RandomDataset(2048), batch_size=64, shuffle=True, drop_last=True)
test_loader = DataLoader(RandomDataset(512), batch_size=128)

model = MLP()
loss_fn = nn.CrossEntropyLoss()
optimizer = paddle.optimizer.Adam(learning_rate=0.005, parameters=model.parameters())

for epoch in range(5):
    model.train()
    for batch_id, (x, y) in enumerate(train_loader):
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
    print(f"epoch {epoch}: loss {float(loss):.4f}")

model.eval()
correct = total = 0
with paddle.no_grad():
    for x, y in test_loader:
        pred = paddle.argmax(model(x), axis=1)
        correct += int(paddle.sum(paddle.cast(pred == y, "int64")))
        total += y.shape[0]
accuracy = correct / total
print(f"test accuracy {accuracy:.4f}")

paddle.save(model.state_dict(), "mlp.pdparams")
restored = MLP()
restored.set_state_dict(paddle.load("mlp.pdparams"))
restored.eval()
x, _ = next(iter(test_loader))
assert np.allclose(restored(x).numpy(), model(x).numpy())
print("reloaded weights give the same outputs")
