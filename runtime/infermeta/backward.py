"""InferMeta functions of ops with grad ops."""

from __future__ import annotations
