"""``python -m phiops.distributed.launch --nproc_per_node N train.py [ARGS...]``: the same as
``phiops launch`` (runtime/distributed/launch.py)."""

from __future__ import annotations

import sys

from phiops.runtime.distributed.launch import launch_command, main

__all__ = ["main", "launch_command"]

if __name__ == "__main__":
    sys.exit(main())
