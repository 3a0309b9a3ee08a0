"""phiops_custom_op_example: an out-of-tree op package for phiops (docs/extending.md).

Three ops, specified in ops.yaml and backward.yaml, with their InferMeta functions
(infer_meta.py) and kernels (kernels.py); ``phiops codegen --package`` (run by ``pip install``)
generates their API, registry, grad functions and IR dialect into generated/. Importing this
package registers them with phiops:

    import phiops as paddle
    import phiops_custom_op_example as ops

    y = ops.custom_swish(paddle.to_tensor([1.0, -2.0]), beta=1.5)   # or x.custom_swish(1.5)
"""

from phiops_custom_op_example.generated import *  # noqa: F401,F403  (registers the ops)
from phiops_custom_op_example.generated import __all__
