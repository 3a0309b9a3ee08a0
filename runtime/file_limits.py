"""Limits on the files phiops reads, so that a hostile or broken file ends in a named error
(`InvalidArgumentError`, naming the file and the limit's constant) instead of a hang, a memory
blow-up or a raw traceback from deep inside numpy, pickle or protobuf.

Every reader of a file (PIR text and `.json` programs, `.pdmodel`, `.pdiparams`, `.pdparams`
pickles, the `.npy` inputs of `phiops run`) reads it through `read_file_bytes` (or checks it
with `check_regular_file` first): only regular files are read (a FIFO blocks, ``/dev/zero``
never ends), and at most the limit of their kind. Each limit is a constant here; messages name
it. PaddlePaddle 3.3.1's own files stay far below them.
"""

from __future__ import annotations

import os
import stat
from typing import Union

from phiops.runtime.errors import InvalidArgumentError, NotFoundError

__all__ = [
    "MAX_PROGRAM_FILE_BYTES",
    "MAX_PARAMS_FILE_BYTES",
    "MAX_PICKLE_FILE_BYTES",
    "MAX_NPY_FILE_BYTES",
    "MAX_PICKLE_NODES",
    "MAX_PICKLE_DEPTH",
    "MAX_BLOCK_DEPTH",
    "MAX_TENSOR_DIMS",
    "MAX_NUMBER_DIGITS",
    "check_regular_file",
    "read_file_bytes",
    "read_file_text",
]

PathLike = Union[str, "os.PathLike[str]"]

# Bytes of a program file: PIR text or `.json`, or a legacy `.pdmodel` (PaddlePaddle's
# protobuf reader refuses messages over 2 GiB; an 80,000-op `.json` program has about 20 MB).
MAX_PROGRAM_FILE_BYTES = 1 << 30
# Bytes of a `.pdiparams` parameter file, read whole into memory.
MAX_PARAMS_FILE_BYTES = 64 << 30
# Bytes of a `.pdparams`/`.pdopt` pickle (phi.load).
MAX_PICKLE_FILE_BYTES = 64 << 30
# Bytes of one `.npy` input of `phiops run`.
MAX_NPY_FILE_BYTES = 16 << 30
# Containers and arrays a pickle unfolds to, each shared reference counting every time
# it is reached: a 400-byte pickle of shared lists stands for 2**40 of them.
MAX_PICKLE_NODES = 1_000_000
# Nesting of lists, tuples and dicts in a pickle (PaddlePaddle's files nest a few levels).
MAX_PICKLE_DEPTH = 200
# Nesting of blocks (sub-blocks of control-flow ops) in a program read from a file.
MAX_BLOCK_DEPTH = 64
# Dimensions of one tensor read from a file (PaddlePaddle's DDim holds at most 9).
MAX_TENSOR_DIMS = 64
# Digits of one integer in a program file (an int64 has 19; Python refuses over 4,300).
MAX_NUMBER_DIGITS = 400


_CHUNK_BYTES = 1 << 20


def _limit_name(constant: str) -> str:
    return f"phiops.runtime.file_limits.{constant}"


def check_regular_file(path: PathLike, limit: int, constant: str, what: str) -> int:
    """The size of ``path`` when it is a regular file of at most ``limit`` bytes; else a
    NotFoundError (no such file) or an InvalidArgumentError naming the file, ``what`` it should
    be and the limit's ``constant``."""
    source = os.fspath(path)
    try:
        info = os.stat(source)
    except FileNotFoundError:
        raise NotFoundError(f"{source}: no such file ({what})") from None
    except OSError as error:
        raise InvalidArgumentError(
            f"{source}: cannot read the {what}: {error.strerror or error}"
        ) from None
    if stat.S_ISDIR(info.st_mode):
        raise InvalidArgumentError(f"{source}: is a directory, not a {what}")
    if not stat.S_ISREG(info.st_mode):
        raise InvalidArgumentError(
            f"{source}: is not a regular file (a device, FIFO or socket), not a {what}"
        )
    if info.st_size > limit:
        raise InvalidArgumentError(_too_big(source, info.st_size, limit, constant, what))
    return info.st_size


def _too_big(source: str, size: int, limit: int, constant: str, what: str) -> str:
    return (
        f"{source}: the {what} has {size:,} bytes or more; phiops reads at most {limit:,} "
        f"({_limit_name(constant)})"
    )


def read_file_bytes(path: PathLike, limit: int, constant: str, what: str) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them (`check_regular_file`);
    a file that grows past the limit while it is read is refused as well."""
    size = check_regular_file(path, limit, constant, what)
    source = os.fspath(path)
    try:
        with open(source, "rb") as handle:
            # the size stat gave, then whatever the file grew by, in bounded reads
            chunks = [handle.read(size + 1)]
            total = len(chunks[0])
            while total > size and total <= limit:
                chunk = handle.read(min(_CHUNK_BYTES, limit + 1 - total))
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
            data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
    except OSError as error:
        raise InvalidArgumentError(
            f"{source}: cannot read the {what}: {error.strerror or error}"
        ) from None
    if len(data) > limit:
        raise InvalidArgumentError(_too_big(source, len(data), limit, constant, what))
    return data


def read_file_text(path: PathLike, limit: int, constant: str, what: str) -> str:
    """`read_file_bytes` decoded as UTF-8; bytes that are not UTF-8 are an error naming the
    offset."""
    data = read_file_bytes(path, limit, constant, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidArgumentError(
            f"{os.fspath(path)}: at byte {error.start}: the {what} is not UTF-8 text "
            f"({error.reason})"
        ) from None
