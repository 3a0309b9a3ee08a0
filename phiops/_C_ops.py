"""The functions generated from the op specs, with the specs' own signatures: phiops's
``paddle._C_ops``. ``phiops.add`` and the other top-level functions follow ``paddle.*``'s Python
signatures instead."""

from phiops.generated import api as _api
from phiops.generated import inplace as _inplace
from phiops.generated.api import *  # noqa: F401,F403
from phiops.generated.inplace import *  # noqa: F401,F403

__all__ = [*_api.__all__, *_inplace.__all__]


def __getattr__(name: str) -> object:
    """The ops PaddlePaddle 3.3.1 registers a CPU kernel for that refuses to run on the CPU
    (``phiops kernels --coverage`` lists them): as in PaddlePaddle, the function exists and its call
    raises, naming PaddlePaddle's own error."""
    from phiops.runtime.kernels.coverage import paddle_refusals

    found = paddle_refusals().get(name)
    if found is None:
        raise AttributeError(f"module 'phiops._C_ops' has no attribute {name!r}")

    def refuses(*args: object, **kwargs: object) -> None:
        from phiops.runtime.errors import UnimplementedError

        raise UnimplementedError(
            f"{name}: no CPU kernel; PaddlePaddle 3.3.1's registered CPU kernel refuses to run "
            f"too ({found['error']}: {found['message']}), so there is no CPU result to implement"
        )

    refuses.__name__ = refuses.__qualname__ = name
    return refuses
