"""Running untrusted processes: a private directory, an allow-listed environment,
rlimits, no network where the kernel allows, and no descendant left behind.

Layering: imports only the standard library (and may use ``veriscale.values``).
See ``process`` for what is guaranteed and ``helper_source`` for how.
"""

from .helper import Isolation, isolation
from .limits import SandboxLimits
from .process import ENV_ALLOW, Sandbox, SandboxProcess, SandboxResult, sandbox_env

__all__ = [
    "ENV_ALLOW",
    "Isolation",
    "Sandbox",
    "SandboxLimits",
    "SandboxProcess",
    "SandboxResult",
    "isolation",
    "sandbox_env",
]
