"""Training labels kept in parts: one ``.npz`` file per block of deals, written whole and
renamed, never made again once it exists. Slow label generation so resumes across
sessions and spreads over processes (each process makes every ``workers``-th part)."""

from __future__ import annotations

import argparse
import multiprocessing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any, Self

import numpy as np

from shengji_env.encoding import OBS_SIZE, RECORD_SIZE, complete_records
from shengji_env.files import unique_temporary

Arrays = dict[str, np.ndarray]
PartMaker = Callable[[int], Arrays]  # part number -> its arrays (picklable for workers)


class Columns:
    """Base of a dataclass whose fields are equally long numpy arrays, one row a sample."""

    def __len__(self) -> int:
        return len(getattr(self, fields(self)[0].name))  # type: ignore[arg-type]

    def subset(self, index: Any) -> Self:
        return type(self)(**{name: column[index] for name, column in self.arrays().items()})

    def arrays(self) -> Arrays:
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray]) -> Self:
        """The fields from ``arrays`` (other keys ignored)."""
        return cls(**{f.name: np.asarray(arrays[f.name]) for f in fields(cls)})  # type: ignore[arg-type]

    @classmethod
    def concatenate(cls, parts: Sequence[Self]) -> Self:
        return cls(
            **{f.name: np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(cls)}  # type: ignore[arg-type]
        )


def part_path(folder: Path, part: int) -> Path:
    return folder / f"part-{part:05d}.npz"


def write_parts(folder: Path, parts: Iterable[int], make: PartMaker) -> None:
    """Make every missing part of ``parts`` (each file written whole, then renamed)."""
    folder.mkdir(parents=True, exist_ok=True)
    for part in parts:
        path = part_path(folder, part)
        if path.exists():
            continue
        partial = unique_temporary(path).with_suffix(".npz")  # savez then adds no suffix
        np.savez_compressed(partial, **make(part))
        partial.replace(path)


def make_parts(folder: Path, count: int, make: PartMaker, workers: int) -> None:
    """Parts 0 .. ``count``-1 in ``folder``, the missing ones made by ``workers`` processes."""
    if workers <= 1:
        write_parts(folder, range(count), make)
        return
    jobs = [(folder, range(w, count, workers), make) for w in range(workers)]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        pool.starmap(write_parts, jobs)


def read_parts(folder: Path, count: int = 0, decks: int | None = None) -> list[Arrays]:
    """The arrays of parts 0 .. ``count``-1 of ``folder`` (``count`` 0: every part there).
    With ``decks``, observations of ``shengji_v0`` (parts made before v1, all of that deck
    count) get v1's derived blocks.

    Raises:
        ValueError: there are none, one is missing, or one cannot be read.
    """
    if count:
        paths = [part_path(folder, part) for part in range(count)]
        missing = [p.name for p in paths if not p.exists()]
        if missing:
            raise ValueError(f"{folder}: label parts missing: {', '.join(missing[:5])}")
    else:
        paths = sorted(folder.glob("part-*[0-9].npz"))
    if not paths:
        raise ValueError(f"no label parts (part-NNNNN.npz) in {folder}")
    parts = []
    for path in paths:
        try:
            with np.load(path) as arrays:
                parts.append({name: arrays[name] for name in arrays.files})
        except (OSError, ValueError, KeyError) as error:
            raise ValueError(f"{path}: not a readable label part ({error})") from error
        _check_layout(path, parts[-1], decks)
    return parts


def _check_layout(path: Path, arrays: Arrays, decks: int | None) -> None:
    """A part's observations have this version's columns (completed from v0's, with
    ``decks``)."""
    obs = arrays.get("obs")
    if obs is None or obs.ndim != 2:
        return
    if obs.shape[1] == RECORD_SIZE and decks is not None:
        arrays["obs"] = complete_records(obs, decks)
    elif obs.shape[1] != OBS_SIZE:
        raise ValueError(
            f"{path}: its observations have {obs.shape[1]} columns, this version's "
            f"{OBS_SIZE}: it was made for another observation layout; delete it to make it again"
        )


def part_parser(description: str, what: str) -> argparse.ArgumentParser:
    """The command line of a label maker: where the parts go and which to make."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", type=Path, required=True, help=f"folder of the {what}")
    parser.add_argument("--first", type=int, default=0, help="first part number")
    parser.add_argument("--parts", type=int, default=1, help="how many parts")
    parser.add_argument("--step", type=int, default=1, help="part number stride")
    parser.add_argument("--decks", type=int, default=2)
    return parser


def chosen_parts(args: argparse.Namespace) -> range:
    """The part numbers a :func:`part_parser` command line names."""
    return range(args.first, args.first + args.parts * args.step, args.step)
