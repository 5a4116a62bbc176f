"""Repeated squaring (issue 18): the verdict comes from fuel and arrives well within the 30 s backstop.

Usage: ``PYTHONPATH=src python benchmarks/bench_bignum_fuel.py`` — prints, for each number of
squarings, the outcome of two runs with the CodeGen limits of ``veriscale evaluate`` (20,000,000
steps, 30 s) and their wall-clock times.
"""

from __future__ import annotations

import time

from veriscale.languages.lean.native import NativeTaskEngine
from veriscale.runtime.limits import Limits
from veriscale.values.types import NAT

CODE = "  let rec sq (x : Nat) (k : Nat) : Nat :=\n    if k = 0 then x else sq (x * x) (k - 1)\n  sq (n + 3) {k} % 10"


def main() -> None:
    for k in (20, 25, 30, 40):
        te = NativeTaskEngine(
            fn_name="f",
            params=[("n", NAT)],
            ret=NAT,
            sections={"precond": "  True", "code": CODE.format(k=k), "postcond": "  True"},
            limits=Limits(seconds=30.0, fuel=20_000_000),
        )
        row = []
        for _ in range(2):
            t0 = time.monotonic()
            out = te.run({"n": 4})
            row.append(
                f"{out.kind.name} {out.value if out.value is not None else out.reason!r} {time.monotonic() - t0:.1f}s"
            )
        print(f"squarings={k}: " + " | ".join(row))


if __name__ == "__main__":
    main()
