"""std::nth_element exactly as libstdc++ implements it (introselect), for topk's unsorted path.

PaddlePaddle's CPU topk with ``sorted=False`` (and k * 64 >= the axis' extent) returns the
first k elements that ``std::nth_element`` leaves in front, in whatever order its partitioning
left them. That order is an artefact of the algorithm: reproducing PaddlePaddle's results means
running the same algorithm step for step, on (value, index) pairs compared by value only. The
functions mirror libstdc++'s ``__introselect``, ``__unguarded_partition_pivot``,
``__move_median_to_first``, ``__unguarded_partition``, ``__insertion_sort`` and the heap
helpers its depth-limit fallback ``__heap_select`` uses.
"""

from __future__ import annotations

from typing import Any, Callable

Less = Callable[[Any, Any], bool]

__all__ = ["nth_element"]


def nth_element(items: list[Any], nth: int, less: Less) -> None:
    """Rearrange ``items`` in place as ``std::nth_element(begin, begin + nth, end, less)``."""
    first, last = 0, len(items)
    if first == last or nth == last:
        return
    depth_limit = 2 * ((last - first).bit_length() - 1)  # std::__lg(n) * 2
    while last - first > 3:
        if depth_limit == 0:
            _heap_select(items, first, nth + 1, last, less)
            items[first], items[nth] = items[nth], items[first]
            return
        depth_limit -= 1
        cut = _partition_pivot(items, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(items, first, last, less)


def _partition_pivot(items: list[Any], first: int, last: int, less: Less) -> int:
    mid = first + (last - first) // 2
    _move_median_to_first(items, first, first + 1, mid, last - 1, less)
    return _unguarded_partition(items, first + 1, last, first, less)


def _move_median_to_first(
    items: list[Any], result: int, a: int, b: int, c: int, less: Less
) -> None:
    if less(items[a], items[b]):
        if less(items[b], items[c]):
            median = b
        elif less(items[a], items[c]):
            median = c
        else:
            median = a
    elif less(items[a], items[c]):
        median = a
    elif less(items[b], items[c]):
        median = c
    else:
        median = b
    items[result], items[median] = items[median], items[result]


def _unguarded_partition(items: list[Any], first: int, last: int, pivot: int, less: Less) -> int:
    while True:
        while less(items[first], items[pivot]):
            first += 1
        last -= 1
        while less(items[pivot], items[last]):
            last -= 1
        if not first < last:
            return first
        items[first], items[last] = items[last], items[first]
        first += 1


def _insertion_sort(items: list[Any], first: int, last: int, less: Less) -> None:
    for i in range(first + 1, last):
        value = items[i]
        if less(value, items[first]):
            items[first + 1 : i + 1] = items[first:i]
            items[first] = value
        else:
            j = i - 1
            while less(value, items[j]):
                items[j + 1] = items[j]
                j -= 1
            items[j + 1] = value


def _heap_select(items: list[Any], first: int, middle: int, last: int, less: Less) -> None:
    _make_heap(items, first, middle, less)
    for i in range(middle, last):
        if less(items[i], items[first]):
            value = items[i]
            items[i] = items[first]
            _adjust_heap(items, first, 0, middle - first, value, less)


def _make_heap(items: list[Any], first: int, last: int, less: Less) -> None:
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(items, first, parent, length, items[first + parent], less)
        if parent == 0:
            return
        parent -= 1


def _adjust_heap(
    items: list[Any], first: int, hole: int, length: int, value: Any, less: Less
) -> None:
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(items[first + child], items[first + child - 1]):
            child -= 1
        items[first + hole] = items[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        items[first + hole] = items[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and less(items[first + parent], value):
        items[first + hole] = items[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    items[first + hole] = value
