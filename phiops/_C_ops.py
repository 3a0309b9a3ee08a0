"""The functions generated from the op specs, with the specs' own signatures: phiops's
``paddle._C_ops``. ``phiops.add`` and the other top-level functions follow ``paddle.*``'s Python
signatures instead."""

from phiops.generated import api as _api
from phiops.generated import inplace as _inplace
from phiops.generated.api import *  # noqa: F401,F403
from phiops.generated.inplace import *  # noqa: F401,F403

__all__ = [*_api.__all__, *_inplace.__all__]
