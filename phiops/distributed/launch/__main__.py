"""``python -m phiops.distributed.launch``: run the launcher on the command line."""

from __future__ import annotations

import sys

from phiops.runtime.distributed.launch import main

sys.exit(main())
