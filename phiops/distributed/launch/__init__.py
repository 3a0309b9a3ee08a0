"""``python -m phiops.distributed.launch --nproc_per_node N train.py [ARGS...]``: the same as
``phiops launch`` (runtime/distributed/launch.py). ``paddle.distributed.launch`` itself is the
function that runs it on ``sys.argv``, as in PaddlePaddle."""

from __future__ import annotations

from phiops.runtime.distributed.launch import launch, launch_command, main

__all__ = ["main", "launch", "launch_command"]
