"""Resource limits of one sandboxed run."""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["SandboxLimits"]


@dataclass(frozen=True)
class SandboxLimits:
    """Limits of one run. ``None`` leaves a limit unset.

    ``wall_seconds`` is enforced by the caller's clock (the whole tree is killed);
    ``cpu_seconds`` (default ``wall_seconds + 1``) is an rlimit backstop;
    ``processes`` is RLIMIT_NPROC counted on top of the tasks the target's uid
    already has where the kernel counts them (its new user namespace when
    veriscale is not root; ``docs/sandbox.md``, "The process limit"): the
    target's tree gets that many tasks (the kernel does not apply it to root, so
    it bites only when the target runs as an unprivileged uid); ``output_bytes`` caps stdout
    (first bytes kept), ``stderr_bytes`` stderr (last bytes kept).
    """

    wall_seconds: float = 10.0
    cpu_seconds: float | None = None
    memory_bytes: int | None = 2 << 30
    file_bytes: int | None = 16 << 20
    open_files: int | None = 64
    processes: int | None = 64
    output_bytes: int = 64 << 20
    stderr_bytes: int = 64 << 10
    nice: int = 0
    network: bool = False  # True: keep the host network (no private namespace)

    def cpu_limit(self) -> int:
        cpu = self.cpu_seconds if self.cpu_seconds is not None else self.wall_seconds + 1
        return max(1, math.ceil(cpu))
