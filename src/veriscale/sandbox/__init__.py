"""Running untrusted processes: a private directory, an allow-listed environment,
rlimits, no network where the kernel allows, and no descendant left behind.

Layering: imports only the standard library (and may use ``veriscale.values``).
See ``process`` for what is guaranteed and ``helper_source`` for how; ``server`` starts
processes inside one already-built sandbox (its differences are in its docstring).
"""

from .helper import Isolation, isolation
from .limits import SandboxLimits
from .process import ENV_ALLOW, Sandbox, SandboxProcess, SandboxResult, sandbox_env
from .server import SandboxServer, ServedProcess, get_server, server_enabled

__all__ = [
    "ENV_ALLOW",
    "Isolation",
    "Sandbox",
    "SandboxLimits",
    "SandboxProcess",
    "SandboxResult",
    "SandboxServer",
    "ServedProcess",
    "get_server",
    "isolation",
    "sandbox_env",
    "server_enabled",
]
