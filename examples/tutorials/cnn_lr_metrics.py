"""Tutorial: a LeNet-style CNN with a learning-rate schedule and ``paddle.metric.Accuracy``.

PaddlePaddle's image-classification tutorial: ``Conv2D``/``MaxPool2D``/``Linear`` layers, a
``paddle.optimizer.lr`` scheduler stepped once per epoch, ``Momentum`` with L2 weight decay,
top-1 and top-2 accuracy accumulated with ``paddle.metric.Accuracy``. The images are synthetic
12x12 pictures of four stroke patterns at random places with noise, so that it runs offline.
Written for PaddlePaddle; only the import lines name phiops.
"""

import numpy as np

import phiops as paddle
import phiops.nn as nn
import phiops.nn.functional as F
from phiops.io import DataLoader, TensorDataset

paddle.seed(11)
rng = np.random.default_rng(11)
SIZE, CLASSES = 12, 4


def make_images(count):
    images = rng.normal(scale=0.6, size=(count, 1, SIZE, SIZE)).astype("float32")
    labels = rng.integers(0, CLASSES, size=count)
    for image, label in zip(images, labels):
        r, c = rng.integers(1, SIZE - 6, size=2)
        if label == 0:  # horizontal bar
            image[0, r + 2, c : c + 5] += 1.0
        elif label == 1:  # vertical bar
            image[0, r : r + 5, c + 2] += 1.0
        elif label == 2:  # diagonal
            for k in range(5):
                image[0, r + k, c + k] += 1.0
        else:  # hollow square
            image[0, r, c : c + 5] += 1.0
            image[0, r + 4, c : c + 5] += 1.0
            image[0, r : r + 5, c] += 1.0
            image[0, r : r + 5, c + 4] += 1.0
    return images, labels.astype("int64").reshape(-1, 1)


class LeNet(nn.Layer):
    def __init__(self, num_classes=CLASSES):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2D(1, 8, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2D(2, 2),
            nn.Conv2D(8, 16, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2D(2, 2),
        )
        self.fc = nn.Linear(16 * 3 * 3, num_classes)

    def forward(self, x):
        x = self.features(x)
        x = paddle.flatten(x, 1)
        return self.fc(x)


train_x, train_y = make_images(1024)
test_x, test_y = make_images(256)
train_loader = DataLoader(
    TensorDataset([paddle.to_tensor(train_x), paddle.to_tensor(train_y)]),
    batch_size=32,
    shuffle=True,
)
test_loader = DataLoader(
    TensorDataset([paddle.to_tensor(test_x), paddle.to_tensor(test_y)]), batch_size=64
)

model = LeNet()
scheduler = paddle.optimizer.lr.StepDecay(learning_rate=0.02, step_size=2, gamma=0.5)
optimizer = paddle.optimizer.Momentum(
    learning_rate=scheduler,
    momentum=0.9,
    parameters=model.parameters(),
    weight_decay=paddle.regularizer.L2Decay(1e-4),
)
metric = paddle.metric.Accuracy(topk=(1, 2))

for epoch in range(6):
    model.train()
    metric.reset()
    for images, labels in train_loader:
        logits = model(images)
        loss = F.cross_entropy(logits, labels)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        metric.update(metric.compute(logits, labels))
    top1, top2 = metric.accumulate()
    print(f"epoch {epoch}: lr {optimizer.get_lr():.4f} loss {float(loss):.4f} acc {top1:.4f}")
    scheduler.step()

model.eval()
metric.reset()
with paddle.no_grad():
    for images, labels in test_loader:
        metric.update(metric.compute(model(images), labels))
top1, top2 = metric.accumulate()
print(f"test top1 {top1:.4f}")
print(f"test top2 {top2:.4f}")
