"""Kernels of the detection ops: grid_sample, ...

grid_sample follows PHI's CPU kernel (paddle/phi/kernels/cpu/grid_sample_kernel.cc,
grid_sample_utils.h). The grid's normalised coordinates in [-1, 1] become pixel positions,
``(g + 1) * (size - 1) / 2`` with ``align_corners``, else ``(g + 1) * size / 2 - 0.5``, computed
in the input's dtype; ``padding_mode`` "border" clips them to [0, size - 1], "reflection"
reflects them at the borders (at the pixel centres with ``align_corners``, else at the
outer edges, then clips), "zeros" leaves them. "bilinear" sums the 2 (4-D) or 3 (5-D) corner
neighbours weighted by the distances to the opposite corners, in PHI's order; a neighbour
outside the input counts as 0. "nearest" takes the neighbour at the position rounded half to
even (what PaddlePaddle 3.3.1's CPU build gives, 2.5 reading pixel 2), and tests that the
rounded position lies inside (-0.4 reads pixel 0), for 4-D and 5-D inputs. A NaN coordinate
gives 0 with "nearest" and NaN with "bilinear" (PHI's kernel indexes the input with it, which
is undefined). A ``mode`` or ``padding_mode`` PHI does not know is an InvalidArgumentError (PHI
returns zeros or ignores it). The dtype lists are PaddlePaddle
3.3.1's CPU registrations.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from phiops.runtime.common import DataType
from phiops.runtime.errors import InvalidArgumentError
from phiops.runtime.kernels.kernel import Array, KernelContext
from phiops.runtime.kernels.registration import register_kernel

D = DataType
REAL = (D.FLOAT32, D.FLOAT64)

GRID_SAMPLE_MODES = ("bilinear", "nearest")
GRID_SAMPLE_PADDINGS = ("zeros", "border", "reflection")


def pixels(extents: Sequence[int]) -> int:
    """The number of points of ``extents`` (1 for none)."""
    count = 1
    for extent in extents:
        count *= int(extent)
    return count


def check_grid_sample_options(mode: str, padding_mode: str) -> None:
    if mode not in GRID_SAMPLE_MODES:
        raise InvalidArgumentError(
            f"argument 'mode' must be one of {list(GRID_SAMPLE_MODES)}, got {mode!r}"
        )
    if padding_mode not in GRID_SAMPLE_PADDINGS:
        raise InvalidArgumentError(
            f"argument 'padding_mode' must be one of {list(GRID_SAMPLE_PADDINGS)}, "
            f"got {padding_mode!r}"
        )


def grid_positions(
    xp: Any, coordinate: Array, size: int, align_corners: bool, padding_mode: str
) -> tuple[Array, Array]:
    """Pixel positions of one grid coordinate and d(position)/d(coordinate), as PHI's
    Unnormalize and ClipWithMask compute them in the grid's dtype."""
    dtype = coordinate.dtype.type
    max_val = size - 1
    factor = dtype(max_val * 0.5) if align_corners else dtype((max_val + 1) * 0.5)
    if align_corners:
        position = (coordinate + dtype(1)) * factor
    else:
        position = (coordinate + dtype(1)) * factor - dtype(0.5)
    scale = xp.full(position.shape, factor, dtype=position.dtype)
    if padding_mode == "border":
        clipped = xp.minimum(xp.maximum(position, dtype(0)), dtype(max_val))
        return clipped, scale * (clipped == position)
    if padding_mode == "reflection":
        if align_corners:
            double_range = dtype(max_val * 2)
            shifted = position
        else:
            double_range = dtype((max_val + 1) * 2)
            shifted = position + dtype(0.5)
        magnitude = xp.abs(shifted)
        with np.errstate(invalid="ignore", divide="ignore"):
            extra = magnitude - xp.floor(magnitude / double_range) * double_range
        flip = extra > (double_range - extra)
        sign = xp.where((shifted < 0) == flip, dtype(1), dtype(-1)).astype(position.dtype)
        reflected = xp.minimum(extra, double_range - extra)
        if align_corners:
            if max_val == 0:
                return xp.zeros_like(position), scale * sign
            return reflected, scale * sign
        reflected = reflected - dtype(0.5)
        clipped = xp.minimum(xp.maximum(reflected, dtype(0)), dtype(max_val))
        return clipped, scale * sign * (clipped == reflected)
    return position, scale


def split_grid(
    xp: Any, grid: Array, spatial: Sequence[int], align_corners: bool, padding_mode: str
) -> list[tuple[Array, Array]]:
    """(position, scale) per spatial dim of x, outermost first (grid's last axis holds x, y
    (, z), innermost first)."""
    count = len(spatial)
    return [
        grid_positions(xp, grid[..., count - 1 - axis], spatial[axis], align_corners, padding_mode)
        for axis in range(count)
    ]


def gather_corner(
    xp: Any, flat_x: Array, corner: Sequence[Array], spatial: Sequence[int]
) -> tuple[Array, Array, Array]:
    """The values of x [N, C, prod(spatial)] at integer-valued ``corner`` positions (one array
    [N, *out] per spatial dim), 0 outside; also the flat index and the in-bounds mask."""
    inside = None
    index = None
    for position, size in zip(corner, spatial):
        ok = (position >= 0) & (position <= size - 1)
        inside = ok if inside is None else inside & ok
        whole = xp.where(ok, position, 0).astype(xp.int64)
        index = whole if index is None else index * size + whole
    n = flat_x.shape[0]
    points = pixels(corner[0].shape[1:])
    index = xp.where(inside, index, 0).reshape(n, 1, points)
    values = xp.take_along_axis(
        flat_x, xp.broadcast_to(index, (n, flat_x.shape[1], index.shape[2])), axis=2
    )
    mask = inside.reshape(n, 1, points)
    zero = xp.zeros((), dtype=flat_x.dtype)
    return xp.where(mask, values, zero), index, mask


def nearest_positions(xp: Any, positions: Sequence[Array]) -> list[Array]:
    """The positions "nearest" reads: rounded half to even; whether they lie inside is tested
    after rounding (-0.4 reads pixel 0)."""
    return [xp.rint(p) for p in positions]


def bilinear_corners(
    xp: Any, positions: Sequence[Array]
) -> list[tuple[tuple[Array, ...], tuple[Array, ...]]]:
    """The 2^d corners of each position: (corner positions, their weight factors), in PHI's
    order (west-north, east-north, west-south, east-south; top before bottom in 3-D)."""
    lows = [xp.floor(p) for p in positions]
    # distance to the low side (weight of the high corner) and to the high side
    to_low = [p - low for p, low in zip(positions, lows)]
    to_high = [(low + 1) - p for p, low in zip(positions, lows)]
    corners = []
    count = len(positions)
    for bits in range(1 << count):
        # bit 0: innermost (x), then y, then z; PHI orders x fastest
        picks = [(bits >> (count - 1 - axis)) & 1 for axis in range(count)]
        corner = tuple(low + pick for low, pick in zip(lows, picks))
        weights = tuple(to_low[axis] if pick else to_high[axis] for axis, pick in enumerate(picks))
        corners.append((corner, weights))
    return corners


@register_kernel("grid_sample", dtypes=REAL)
def grid_sample_kernel(
    ctx: KernelContext, x: Array, grid: Array, mode: str, padding_mode: str, align_corners: bool
) -> Array:
    xp = ctx.xp
    check_grid_sample_options(mode, padding_mode)
    n, c = x.shape[:2]
    spatial = x.shape[2:]
    out_spatial = grid.shape[1:-1]
    flat_x = x.reshape(n, c, pixels(spatial))
    points = pixels(out_spatial)
    positions = [p for p, _ in split_grid(xp, grid, spatial, align_corners, padding_mode)]
    if mode == "nearest":
        out, _, _ = gather_corner(xp, flat_x, nearest_positions(xp, positions), spatial)
    else:
        out = None
        for corner, weights in bilinear_corners(xp, positions):
            values, _, _ = gather_corner(xp, flat_x, corner, spatial)
            term = values
            for weight in _opposite(weights):
                term = term * weight.reshape(n, 1, points)
            out = term if out is None else out + term
    return out.reshape((n, c) + tuple(out_spatial))


def _opposite(weights: tuple[Array, ...]) -> tuple[Array, ...]:
    """PHI multiplies a corner's value by the x weight first, then y, then z."""
    return tuple(reversed(weights))
