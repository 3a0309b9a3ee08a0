"""What ``import phiops`` gives: PaddlePaddle's top-level Python API (phiops/__init__.py loads
this module on first use), with PaddlePaddle's submodules (``phiops.nn``, ``phiops.optimizer``,
``phiops.static``, ...: the facade modules beside this file).

The op-level functions of ``phiops.generated`` come first; over them, the names PaddlePaddle's
Python API spells differently: the one-op functions declared in ops/python_api.yaml
(generated/python_api.py) and the hand-written ones (phiops/_paddle_api.py, and
phiops/_tensor_api.py for PaddlePaddle's own compositions such as ``std`` and ``chunk``). Their Tensor
methods take PaddlePaddle's signatures too (``x.flatten(1)``, ``x.argmax(axis=1)``), installed
when this module is loaded: on first use of ``phiops.<name>`` or on import of a facade submodule.
``phiops._C_ops`` keeps the op-level functions.
"""

from __future__ import annotations

from phiops import _inplace_api, _paddle_api, _paddle_names, _tensor_api, _tensor_conveniences
from phiops.generated import *  # noqa: F401,F403
from phiops.generated import __all__ as _generated_names
from phiops.generated import python_api as _python_api
from phiops.generated.python_api import *  # noqa: F401,F403
from phiops.runtime.common import DataType as _DataType
from phiops.runtime.eager.tensor import Tensor as _Tensor

from ._paddle_api import *  # noqa: F401,F403
from ._tensor_api import *  # noqa: F401,F403
from ._inplace_api import *  # noqa: F401,F403
from ._paddle_names import *  # noqa: F401,F403

# After the star imports: the facades replace the runtime modules that phiops.generated exports
# under the same names (nn, jit, optimizer, static).
import phiops.amp as amp  # noqa: E402
import phiops.autograd as autograd  # noqa: E402
import phiops.device as device  # noqa: E402
import phiops.callbacks as callbacks  # noqa: E402
import phiops.distributed as distributed  # noqa: E402
import phiops.fft as fft  # noqa: E402
import phiops.framework as framework  # noqa: E402
import phiops.geometric as geometric  # noqa: E402
import phiops.hapi as hapi  # noqa: E402
import phiops.incubate as incubate  # noqa: E402
import phiops.io as io  # noqa: E402
import phiops.ir as ir  # noqa: E402
import phiops.jit as jit  # noqa: E402
import phiops.linalg as linalg  # noqa: E402
import phiops.metric as metric  # noqa: E402
import phiops.nn as nn  # noqa: E402
import phiops.optimizer as optimizer  # noqa: E402
import phiops.regularizer as regularizer  # noqa: E402
import phiops.signal as signal  # noqa: E402
import phiops.sparse as sparse  # noqa: E402
import phiops.static as static  # noqa: E402
import phiops.tensor as tensor  # noqa: E402
import phiops.text as text  # noqa: E402
import phiops.vision as vision  # noqa: E402
from phiops.distributed import DataParallel  # noqa: E402  (paddle.DataParallel)

_SUBMODULES = (
    "amp",
    "autograd",
    "device",
    "callbacks",
    "distributed",
    "fft",
    "framework",
    "geometric",
    "hapi",
    "incubate",
    "io",
    "jit",
    "linalg",
    "metric",
    "nn",
    "optimizer",
    "regularizer",
    "signal",
    "sparse",
    "static",
    "tensor",
    "text",
    "vision",
)

# PaddlePaddle's dtype names that phiops.generated does not define (``bool`` there would shadow
# the builtin), and ``paddle.dtype``, the type of them all
_DTYPE_NAMES = {
    "bool": _DataType.BOOL,
    "bfloat16": _DataType.BFLOAT16,
    "uint16": _DataType.UINT16,
    "uint32": _DataType.UINT32,
    "uint64": _DataType.UINT64,
    "dtype": _DataType,
    # PaddlePaddle 3.3.1's torch-style dtype aliases
    "float": _DataType.FLOAT32,
    "double": _DataType.FLOAT64,
    "half": _DataType.FLOAT16,
    "cfloat": _DataType.COMPLEX64,
    "cdouble": _DataType.COMPLEX128,
}
globals().update(_DTYPE_NAMES)

from phiops.device import CustomPlace, get_device, set_device  # noqa: E402

# paddle.Model, paddle.summary, paddle.flops: the high-level API (phiops/hapi.py)
from phiops.hapi import Model, flops, summary  # noqa: E402

_HAPI_NAMES = ("Model", "summary", "flops")

# paddle.* names PaddlePaddle 3.3.1 imports from its submodules
from phiops.amp import (  # noqa: E402
    autocast,
    get_autocast_cpu_dtype,
    get_autocast_dtype,
    get_autocast_gpu_dtype,
    is_autocast_enabled,
)
from phiops.nn.functional import adaptive_avg_pool1d, conv1d  # noqa: E402
from phiops.runtime.common import GPUPlace as CUDAPlace  # noqa: E402

_SUBMODULE_NAMES = (
    "autocast",
    "get_autocast_cpu_dtype",
    "get_autocast_dtype",
    "get_autocast_gpu_dtype",
    "is_autocast_enabled",
    "adaptive_avg_pool1d",
    "conv1d",
    "CUDAPlace",
)

__all__ = list(
    dict.fromkeys(
        [
            *_generated_names,
            *_python_api.__all__,
            *_paddle_api.__all__,
            *_tensor_api.__all__,
            *_inplace_api.__all__,
            *_paddle_names.__all__,
            *_DTYPE_NAMES,
            "CustomPlace",
            "set_device",
            "get_device",
            *_HAPI_NAMES,
            *_SUBMODULE_NAMES,
            "ir",
            *_SUBMODULES,
            "DataParallel",
        ]
    )
)

# Tensor method -> the paddle.* function it calls with the tensor first
PADDLE_TENSOR_METHODS = {
    **{name: getattr(_python_api, name) for name in _python_api.TENSOR_METHODS},
    **{name: getattr(_paddle_api, name) for name in _paddle_api.TENSOR_METHODS},
    **{name: getattr(_tensor_api, name) for name in _tensor_api.TENSOR_METHODS},
    **{name: getattr(_inplace_api, name) for name in _inplace_api.TENSOR_METHODS},
    **{name: getattr(_paddle_names, name) for name in _paddle_names.TENSOR_METHODS},
    **_tensor_conveniences.TENSOR_ATTRIBUTES,
    "clamp": _paddle_api.clip,
    # PaddlePaddle's method aliases (ops/op_traits.yaml's method_aliases give them the ops'
    # signatures): the paddle.* functions they are in 3.3.1, with its alpha=, rounding_mode=, out=
    "sub": _paddle_api.subtract,
    "sub_": _paddle_api.subtract_,
    "div": _paddle_api.divide,
    "div_": _paddle_api.divide_,
    "mul": _python_api.multiply,
    "mod": _python_api.remainder,
    "floor_mod": _python_api.remainder,
    "eq": _python_api.equal,
    "ne": _python_api.not_equal,
    "lt": _python_api.less_than,
    "le": _python_api.less_equal,
    "gt": _python_api.greater_than,
    "ge": _python_api.greater_equal,
}


# paddle.* functions PaddlePaddle 3.3.1 also installs as Tensor methods whatever their first
# argument is (``x.add_n()`` is ``add_n(x)``, ``x.stack()`` is ``stack(x)``)
_FUNCTIONS_AS_METHODS = (
    "add_n",
    "argwhere",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "block_diag",
    "broadcast_shape",
    "broadcast_shapes",
    "broadcast_tensors",
    "combinations",
    "concat",
    "stack",
    "histogram_bin_edges",
    "multiplex",
    "polar",
    "scatter_add",
    "scatter_nd",
    "view_as_complex",
    "view_as_real",
    "is_tensor",
    "create_parameter",
)
PADDLE_TENSOR_METHODS.update({name: globals()[name] for name in _FUNCTIONS_AS_METHODS})
PADDLE_TENSOR_METHODS.update(
    multi_dot=linalg.multi_dot, cholesky_inverse=linalg.cholesky_inverse, istft=signal.istft
)


def _install_paddle_methods() -> None:
    for name, function in PADDLE_TENSOR_METHODS.items():
        setattr(_Tensor, name, function)


_install_paddle_methods()

LOADED = True  # the last line: phiops._load_api reads it to tell a finished import
