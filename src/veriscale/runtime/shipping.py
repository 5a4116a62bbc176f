"""Files that travel with a job, for workers on other machines.

A job names its task by a path (a task directory, an earlier stage's result
file). On a local pool that path is readable by the worker; on a Ray cluster
the worker may run on a machine where it does not exist. ``ship(path, remote)``
therefore returns the path unchanged for a local executor and, for a remote
one, a ``Shipped`` snapshot: the bytes of the file or of every file under the
directory. In the worker, ``local_path(x)`` gives a readable path either way:
a snapshot is written once per worker process (keyed by its content digest)
under the temporary directory, keeping the original base name, so code that
derives a name from the path sees the same name as on the driver.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Shipped", "local_path", "ship"]

_materialized: dict[str, str] = {}


@dataclass(frozen=True, slots=True)
class Shipped:
    """A snapshot of a file (``is_dir`` False: one entry with an empty relative path) or directory."""

    name: str
    is_dir: bool
    files: tuple[tuple[str, bytes], ...]
    digest: str

    @classmethod
    def of(cls, path: Path | str) -> Shipped:
        p = Path(path)
        if p.is_dir():
            # sorted: the digest and the snapshot do not depend on directory listing order
            files = tuple(
                (f.relative_to(p).as_posix(), f.read_bytes()) for f in sorted(p.rglob("*")) if f.is_file()
            )
        else:
            files = (("", p.read_bytes()),)
        h = hashlib.sha256(p.name.encode())
        for rel, data in files:
            h.update(b"\0" + rel.encode() + b"\0" + hashlib.sha256(data).digest())
        return cls(p.name, p.is_dir(), files, h.hexdigest()[:24])

    def materialize(self) -> str:
        """Write the snapshot (once per process) and return its path."""
        done = _materialized.get(self.digest)
        if done is not None and os.path.exists(done):
            return done
        root = Path(tempfile.gettempdir()) / "veriscale-shipped" / self.digest
        target = root / self.name
        if not target.exists():
            # write beside, then rename: workers of one machine may materialize the same snapshot
            tmp = Path(tempfile.mkdtemp(prefix=".part-", dir=_mkdir(root)))
            out = tmp / self.name
            if self.is_dir:
                out.mkdir()
                for rel, data in self.files:
                    f = out / rel
                    f.parent.mkdir(parents=True, exist_ok=True)
                    f.write_bytes(data)
            else:
                out.write_bytes(self.files[0][1])
            try:
                os.rename(out, target)
            except OSError:  # another worker won the race; its copy has the same content
                pass
            _remove_tree(tmp)
        _materialized[self.digest] = str(target)
        return str(target)


def _remove_tree(p: Path) -> None:
    for f in sorted(p.rglob("*"), reverse=True):  # children before their directory
        f.rmdir() if f.is_dir() else f.unlink()
    p.rmdir()


def _mkdir(p: Path) -> Path:
    p.mkdir(parents=True, exist_ok=True)
    return p


def ship(path: Path | str, remote: bool) -> str | Shipped:
    """What a job carries for ``path``: the path itself (local workers) or a snapshot (remote)."""
    return Shipped.of(path) if remote else str(path)


def local_path(item: str | Shipped) -> str:
    """A path the worker can read for what ``ship`` gave."""
    return item.materialize() if isinstance(item, Shipped) else item
