"""PaddlePaddle's progress bar (``paddle.hapi.progressbar.ProgressBar``): verbose=1 draws a bar,
verbose=2/3 prints one line per update (``step 10/47 - loss: 0.6931 - acc: 0.5000 - 12ms/step``)."""

from __future__ import annotations

import os
import shutil
import sys
import time
from typing import Any

import numpy as np

from phiops.runtime.errors import InvalidArgumentError


def _format_value(v: Any) -> str:
    if isinstance(v, (float, np.float32, np.float64)):
        return f" {v:.4f}" if abs(v) > 1e-3 else f" {v:.4e}"
    if isinstance(v, np.ndarray) and v.size == 1 and v.dtype in (np.float32, np.float64):
        return f" {v.item():.4f}" if abs(v.item()) > 1e-3 else f" {v.item():.4e}"
    return f" {v}"


class ProgressBar:
    """Progress of ``num`` steps (``None``: unknown), printed as PaddlePaddle 3.3.1 prints it."""

    def __init__(
        self,
        num: int | None = None,
        width: int = 30,
        verbose: int = 1,
        start: bool = True,
        file: Any = sys.stdout,
        name: str = "step",
    ) -> None:
        if isinstance(num, int) and num <= 0:
            raise InvalidArgumentError(
                f"ProgressBar: num should be None or an integer > 0, got {num}"
            )
        self._num = num
        terminal_width = shutil.get_terminal_size()[0] or 80
        self._width = min(width, min(int(terminal_width * 0.6), terminal_width - 50))
        self._total_width = 0
        self._verbose = verbose
        self.file = file
        self._start = time.time() if start else 0.0
        self._last_update = 0.0
        self.name = name
        self._dynamic_display = (
            (hasattr(self.file, "isatty") and self.file.isatty())
            or "ipykernel" in sys.modules
            or "posix" in sys.modules
            or "PYCHARM_HOSTED" in os.environ
        )

    def start(self) -> None:
        """Restart the clock."""
        self.file.flush()
        self._start = time.time()

    def update(self, current_num: int, values: Any = ()) -> None:
        """Print the state after ``current_num`` steps with ``values`` (``(name, value)`` pairs)."""
        now = time.time()
        per_unit = (now - self._start) / current_num if current_num else 0
        if per_unit >= 1 or per_unit == 0:
            fps = f" - {per_unit:.0f}s/{self.name}"
        elif per_unit >= 1e-3:
            fps = f" - {per_unit * 1e3:.0f}ms/{self.name}"
        else:
            fps = f" - {per_unit * 1e6:.0f}us/{self.name}"
        info = ""
        out = sys.stdout
        if self._verbose == 1:
            prev_total_width = self._total_width
            if self._dynamic_display:
                out.write("\b" * prev_total_width)
                out.write("\r")
            else:
                out.write("\n")
            if self._num is not None:
                digits = int(np.log10(self._num)) + 1
                bar = (self.name + " %" + str(digits) + "d/%d [") % (current_num, self._num)
                prog_width = int(self._width * float(current_num) / self._num)
                if prog_width > 0:
                    bar += "=" * (prog_width - 1)
                    bar += ">" if current_num < self._num else "="
                bar += "." * (self._width - prog_width) + "]"
            else:
                bar = f"{self.name} {current_num:3}"
            self._total_width = len(bar)
            out.write(bar)
            for k, val in values:
                info += f" - {k}:"
                for v in val if isinstance(val, list) else [val]:
                    info += _format_value(v)
            if self._num is not None and current_num < self._num:
                eta = int(per_unit * (self._num - current_num))
                if eta > 3600:
                    eta_format = f"{eta // 3600}:{(eta % 3600) // 60:02}:{eta % 60:02}"
                elif eta > 60:
                    eta_format = f"{eta // 60}:{eta % 60:02}"
                else:
                    eta_format = f"{eta}s"
                info += f" - ETA: {eta_format}"
            info += fps
            self._total_width += len(info)
            if prev_total_width > self._total_width:
                info += " " * (prev_total_width - self._total_width)
            if self._num is None or current_num >= self._num:
                info += "\n"
            out.write(info)
            out.flush()
            self._last_update = now
        elif self._verbose in (2, 3):
            if self._num:
                digits = int(np.log10(self._num)) + 1
                info = (self.name + " %" + str(digits) + "d/%d") % (current_num, self._num)
            else:
                info = f"{self.name} {current_num:3}"
            for k, val in values:
                info += f" - {k}:"
                for v in val if isinstance(val, list) else [val]:
                    info += _format_value(v)
            info += fps + "\n"
            out.write(info)
            out.flush()
