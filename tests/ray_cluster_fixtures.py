"""A real two-node Ray cluster on this machine, for tests and benchmarks (not a test module).

Each node is a ``ray start --block`` process in its own session, with its own CPU
count, temporary directory and ports. A node's processes are that process and its
descendants (Ray starts its workers in sessions of their own, so the process group
is not enough): ``Node.kill`` ends them all by pid, like a machine that goes away,
and ``stop`` ends the cluster without touching any other Ray process of the
machine (no ``ray stop``).

Ray resolves the address 127.0.0.1 given to ``--node-ip-address`` to the
machine's own interface address and its servers listen on every interface; all
traffic stays on this machine. Token authentication (on by default for
``ray start`` in recent Ray) is turned off for this throw-away cluster.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

RAY_ENV = {"RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _free_range(n: int) -> tuple[int, int]:
    """``n`` consecutive ports that are free now (for one node's worker processes)."""
    for _ in range(200):
        base = random.randrange(20000, 40000 - n)
        try:
            for port in range(base, base + n):
                with socket.socket() as s:
                    s.bind(("", port))
        except OSError:
            continue
        return base, base + n - 1
    raise RuntimeError("no free port range")


def _ray() -> str:
    return str(Path(sys.executable).with_name("ray"))


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of a process, None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), fields[0], int(fields[19])


def descendants(root: int) -> dict[int, int]:
    """pid → start time of ``root`` and every live process below it."""
    children: dict[int, list[int]] = {}
    starts: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (st := _stat(int(entry.name))) is not None and st[1] != "Z":
            children.setdefault(st[0], []).append(int(entry.name))
            starts[int(entry.name)] = st[2]
    out: dict[int, int] = {}
    todo = [root]
    while todo:
        pid = todo.pop()
        if pid in starts and pid not in out:
            out[pid] = starts[pid]
            todo += children.get(pid, [])
    return out


def alive(procs: dict[int, int]) -> list[int]:
    """Those of ``procs`` (pid → start time) still running (a zombie has finished)."""
    out = []
    for pid, start in sorted(procs.items()):
        st = _stat(pid)
        if st is not None and st[2] == start and st[1] != "Z":
            out.append(pid)
    return out


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


@dataclass
class Node:
    name: str
    cpus: int
    temp_dir: Path
    node_manager_port: int = field(default_factory=_free_port)
    proc: subprocess.Popen[bytes] | None = None

    def args(self) -> list[str]:
        lo, hi = _free_range(60)
        return [
            "--block",
            "--node-ip-address=127.0.0.1",
            f"--num-cpus={self.cpus}",
            f"--temp-dir={self.temp_dir}",
            f"--node-manager-port={self.node_manager_port}",
            f"--object-manager-port={_free_port()}",
            f"--dashboard-agent-listen-port={_free_port()}",
            f"--dashboard-agent-grpc-port={_free_port()}",
            f"--runtime-env-agent-port={_free_port()}",
            f"--metrics-export-port={_free_port()}",
            f"--min-worker-port={lo}",
            f"--max-worker-port={hi}",
            "--disable-usage-stats",
        ]

    def start(self, extra: list[str], log: Path) -> None:
        self.temp_dir.mkdir(parents=True, exist_ok=True)
        with log.open("wb") as fh:
            self.proc = subprocess.Popen(
                [_ray(), "start", *extra, *self.args()],
                env={**os.environ, **RAY_ENV},
                stdout=fh,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,  # its own process group: killed as a whole
            )

    def processes(self) -> dict[int, int]:
        """This node's live processes: pid → start time."""
        return descendants(self.proc.pid) if self.proc is not None else {}

    def kill(self, sig: int = signal.SIGKILL) -> dict[int, int]:
        """Send ``sig`` to every process of the node; the processes signalled."""
        procs = self.processes()
        for pid in alive(procs):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        return procs

    def running_job(self) -> bool:
        """True while one of this node's Ray workers runs an executor job (its process title)."""
        return any(cmdline(pid).startswith("ray::_ray_timed") for pid in self.processes())


@dataclass
class LocalRayCluster:
    root: Path
    head_cpus: int = 1
    worker_cpus: int = 1
    port: int = field(default_factory=_free_port)
    head: Node = field(init=False)
    worker: Node = field(init=False)
    labels: dict[str, str] = field(default_factory=dict)  # "head"/"worker" → executor node label

    def __post_init__(self) -> None:
        # short paths: Ray's unix sockets live under the temp dir (108-byte limit)
        self.head = Node("head", self.head_cpus, self.root / "h")
        self.worker = Node("worker", self.worker_cpus, self.root / "w")

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        """Environment for a driver (a veriscale command) that joins this cluster."""
        return {**os.environ, **RAY_ENV}

    def start(self, timeout: float = 240) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self.head.start(
            ["--head", f"--port={self.port}", "--include-dashboard=false"], self.root / "head.log"
        )
        self.wait_for_nodes(1, timeout)
        self.worker.start([f"--address={self.address}"], self.root / "worker.log")
        nodes = self.wait_for_nodes(2, timeout)
        by_port = {n["NodeManagerPort"]: f"{n['NodeManagerAddress']}:{n['NodeManagerPort']}" for n in nodes}
        self.labels = {
            "head": by_port[self.head.node_manager_port],
            "worker": by_port[self.worker.node_manager_port],
        }

    def wait_for_nodes(self, n: int, timeout: float) -> list[dict[str, object]]:
        """Block until ``n`` nodes are alive (one driver connection, polling)."""
        code = (
            "import json, sys, time, ray\n"
            "deadline = time.monotonic() + float(sys.argv[3])\n"
            "while True:\n"
            "    try:\n"
            "        ray.init(address=sys.argv[1], log_to_driver=False)\n"
            "        break\n"
            "    except Exception:\n"
            "        if time.monotonic() > deadline: raise\n"
            "        time.sleep(1)\n"
            "while True:\n"
            "    nodes = [x for x in ray.nodes() if x['Alive']]\n"
            "    if len(nodes) >= int(sys.argv[2]) or time.monotonic() > deadline: break\n"
            "    time.sleep(0.5)\n"
            "print(json.dumps([{k: x[k] for k in ('NodeID', 'NodeManagerAddress', 'NodeManagerPort')}"
            " for x in nodes]))\n"
        )
        out = subprocess.run(
            [sys.executable, "-c", code, self.address, str(n), str(timeout)],
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=timeout + 60,
        )
        if out.returncode != 0:
            raise RuntimeError(f"cannot reach the Ray cluster: {out.stderr[-2000:]}")
        nodes = json.loads(out.stdout.strip().splitlines()[-1])
        if len(nodes) < n:
            raise RuntimeError(f"only {len(nodes)} of {n} Ray nodes came up")
        return nodes

    def stop(self, grace: float = 10) -> list[int]:
        """Stop both nodes (SIGTERM, then SIGKILL); the pids still alive afterwards."""
        procs: dict[int, int] = {}
        for node in (self.worker, self.head):
            procs.update(node.kill(signal.SIGTERM))
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and alive(procs):
            time.sleep(0.2)
        for node in (self.worker, self.head):
            procs.update(node.kill(signal.SIGKILL))
        for pid in alive(procs):  # re-parented ones too
            os.kill(pid, signal.SIGKILL)
        for node in (self.worker, self.head):
            if node.proc is not None:
                node.proc.wait()
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and alive(procs):
            time.sleep(0.2)
        return alive(procs)
