"""Files that several processes may write: an exclusive lock for the writer, and
temporary names no two writers share."""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def exclusive(lock: Path, busy: str, wait: bool = False) -> Iterator[None]:
    """Hold the lock file ``lock`` for the block; another holder makes it fail, or
    (``wait``) the block waits for it.

    Raises:
        ValueError: ``busy``, when another process holds the lock (and not ``wait``).
    """
    lock.parent.mkdir(parents=True, exist_ok=True)
    with lock.open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise ValueError(busy) from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def unique_temporary(path: Path) -> Path:
    """A hidden name beside ``path`` that no other writer uses (process and moment in it):
    two writers of one file never share a temporary file, and no pattern for ``path``'s
    siblings (``part-*.npz``) takes it for one."""
    return path.with_name(f".{path.name}.{os.getpid()}.{time.monotonic_ns()}.tmp")
