"""What the executor reads of a program once, whatever it is fed: its data ops, its parameters,
the names a fetch_list may use and the values its own ``pd_op.fetch`` ops fetch."""

from __future__ import annotations

from phiops.runtime.ir.core import Program, Value
from phiops.runtime.static.executor.feeds import Feed

__all__ = ["ProgramInfo"]


class ProgramInfo:
    """What an executor knows of one program independently of feeds: its feeds, parameters and
    fetch names (its plans, per feed signature, are the executor's)."""

    def __init__(self, program: Program) -> None:
        block = program.block
        self.module = program.module
        self.block = block
        self.num_ops = len(block.ops)
        self.feeds: list[Feed] = []
        self.params: list[tuple[str, Value]] = []
        self.names: dict[str, Value] = {}
        self.fetch_ops: list[Value] = []
        for op in block.ops:
            name = op.name
            if name == "pd_op.data" or name == "pd_op.feed":  # feed: translated legacy programs
                feed = Feed(op)
                self.feeds.append(feed)
                self.names.setdefault(feed.name, feed.value)
            elif name == "builtin.parameter":
                pname = op.attributes["parameter_name"].value
                self.params.append((pname, op.results[0]))
                self.names.setdefault(pname, op.results[0])
            elif name == "pd_op.fetch":
                self.fetch_ops.append(op.results[0])
                self.names[op.attributes["name"].value] = op.results[0]
            elif name == "builtin.shadow_output":
                self.names[op.attributes["output_name"].value] = op.operands[0]
        self.feed_names = {feed.name for feed in self.feeds}
