"""``make_engine(name, **opts)``: build an engine by name ("native" or "lean").

Options go to the engine they belong to; options of the other engine are
ignored, so one set of CLI options can serve both:

* native: ``seconds`` (wall clock per check), ``fuel``;
* lean: ``lean_project`` (path; default ``$VERISCALE_LEAN_PROJECT``),
  ``lean_timeout`` (seconds per file), ``memory_mb``, ``cache_dir``,
  ``use_cache``, ``plausible``, ``mathlib_fallback``.

Building the Lean engine raises ``LeanUnavailable`` (one-line reason) when no
usable Lean project is found.
"""

from __future__ import annotations

from typing import Any

from ...runtime.engine import Engine

__all__ = ["ENGINE_NAMES", "make_engine"]

ENGINE_NAMES = ("native", "lean")
_NATIVE_OPTS = {"seconds", "fuel"}
_LEAN_OPTS = {
    "lean_project",
    "lean_timeout",
    "memory_mb",
    "cache_dir",
    "use_cache",
    "plausible",
    "mathlib_fallback",
}


def make_engine(name: str, **opts: Any) -> Engine:
    unknown = sorted(set(opts) - _NATIVE_OPTS - _LEAN_OPTS)
    if unknown:
        raise TypeError(f"unknown engine option(s): {', '.join(unknown)}")
    given = {k: v for k, v in opts.items() if v is not None}
    if name == "native":
        from ...runtime.limits import Limits
        from .native import NativeEngine

        kw = {k: given[k] for k in ("seconds", "fuel") if k in given}
        return NativeEngine(limits=Limits(**kw)) if kw else NativeEngine()
    if name == "lean":
        from .toolchain.engine import LeanToolchainEngine

        lean_kw: dict[str, Any] = {}
        if "lean_timeout" in given:
            lean_kw["timeout"] = float(given["lean_timeout"])
        for key in ("memory_mb", "cache_dir", "use_cache", "plausible", "mathlib_fallback"):
            if key in given:
                lean_kw[key] = given[key]
        return LeanToolchainEngine(given.get("lean_project"), **lean_kw)
    raise ValueError(f"unknown engine {name!r} (choose from {', '.join(ENGINE_NAMES)})")
