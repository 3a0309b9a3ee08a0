"""`phiops ir FILE... [--stats]`: parse (text or .json) and verify each program, print
it back, or print the located error; exit status 1 when any file fails.

The generated pd_op table, and dialects other packages define through the ``phiops.ir.dialects``
entry points, are loaded by runtime/ir/plugins.py."""

from __future__ import annotations

import argparse
import collections
import sys
from typing import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    from phiops.runtime.errors import PhiError
    from phiops.runtime.file_limits import MAX_PROGRAM_FILE_BYTES, read_file_text
    from phiops.runtime.formats.pir_json import load_program_json
    from phiops.runtime.ir import parse_program, verify
    from phiops.runtime.ir.dialects.pd_op import has_op_table
    from phiops.runtime.ir.plugins import ENTRY_POINT_GROUP, load_dialect_plugins

    # pd_op's op table is generated: plugins imports it by name (the runtime's modules never
    # import phiops.generated)
    load_dialect_plugins()
    if not has_op_table():
        print(
            "phiops ir: no op table for the pd_op dialect is registered: phiops.generated is "
            "missing (run `phiops codegen` in a checkout), and no package declares one through "
            f"the '{ENTRY_POINT_GROUP}' entry points",
            file=sys.stderr,
        )
        return 1

    cli = argparse.ArgumentParser(prog="phiops ir", description=__doc__)
    cli.add_argument("files", nargs="+", metavar="FILE", help="PIR text or .json program files")
    cli.add_argument("--stats", action="store_true", help="count the ops of each program by name")
    cli.add_argument(
        "--allow-unregistered",
        action="store_true",
        help="keep ops no dialect defines as generic ops instead of failing",
    )
    args = cli.parse_args(argv)
    failed = False
    for path in args.files:
        try:
            if path.endswith(".json"):
                program = load_program_json(path)
                if not args.allow_unregistered:
                    verify(program)
            else:
                text = read_file_text(
                    path, MAX_PROGRAM_FILE_BYTES, "MAX_PROGRAM_FILE_BYTES", "program file"
                )
                program = parse_program(text, path, allow_unregistered=args.allow_unregistered)
        except PhiError as error:
            print(error, file=sys.stderr)
            failed = True
            continue
        if args.stats:
            counts = collections.Counter(op.name for op in program.walk())
            print(f"{path}: {sum(counts.values())} ops")
            for name, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
                print(f"{count:8d}  {name}")
        else:
            sys.stdout.write(str(program))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
