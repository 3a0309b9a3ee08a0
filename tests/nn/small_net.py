"""The small CNN that tests/nn/test_layers.py builds with ``phi.nn`` and
tests/tools/make_nn_fixtures.py builds with ``paddle.nn``, written once: every layer kind with
parameters or buffers, so a PaddlePaddle state_dict of it exercises loading each one.

``small_net(nn)`` returns the model class for ``nn``, either library's layer namespace: both
spell the layers, ``nn.functional.gelu`` and the Tensor methods used here the same way.
"""

from __future__ import annotations

from typing import Any


def small_net(nn: Any) -> type:
    """SmallNet written with ``nn`` (``phi.nn`` or ``paddle.nn``)."""

    class SmallNet(nn.Layer):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                nn.Conv2D(1, 4, 3, padding=1),
                nn.BatchNorm2D(4),
                nn.ReLU(),
                nn.MaxPool2D(2),
                nn.Conv2D(4, 6, 3, padding=1),
                nn.GroupNorm(2, 6),
                nn.Hardswish(),
                nn.AvgPool2D(2),
            )
            self.norm = nn.LayerNorm(24)
            self.blocks = nn.LayerList([nn.Linear(24, 16), nn.Linear(16, 10)])
            self.bn1 = nn.BatchNorm1D(16)
            self.up = nn.Conv2DTranspose(6, 2, 2, stride=2)
            self.pool = nn.AdaptiveAvgPool2D(1)
            self.embedding = nn.Embedding(10, 3)

        def forward(self, x: Any) -> Any:
            h = self.features(x)
            u = self.pool(self.up(h)).flatten(1)  # [N, 2]
            h = self.norm(h.flatten(1))
            h = nn.functional.gelu(self.bn1(self.blocks[0](h)))
            logits = self.blocks[1](h)
            return logits + u.sum(axis=1, keepdim=True) + self.embedding.weight.sum()

    return SmallNet
