"""phiops runtime: common types, tensors, InferMeta functions, kernels, dispatch, the eager
Tensor and autograd, static programs, file formats, and the training library.

Hand-written; the generated API (``generated/``) is built on it. It never imports ``codegen``.
This package's own module imports nothing, so importing one layer (``phiops.runtime.flags``,
``phiops.runtime.common``) loads that layer and those below it only; docs/architecture.md
draws the layers and tests/test_layering.py keeps them pointing one way. Users import
``phiops``.
"""
