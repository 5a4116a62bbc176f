"""The result-free prefix of a postcondition is computed once per input (eval/prefix.py)."""

from __future__ import annotations

from veriscale.languages.lean.program import TaskProgram
from veriscale.runtime import limits
from veriscale.values.types import NAT, list_of

# every subset sum of xs (exponential, result-free), then a test of result against it
POST = "  let sums := (xs.foldl (fun acc x => acc ++ acc.map (· + x)) [0])\n  sums.contains result"


def _program(post: str = POST) -> TaskProgram:
    return TaskProgram.build(
        "f", [("xs", list_of(NAT))], NAT, {"code": "  xs.foldl (· + ·) 0", "postcond": post}
    )


def _judge(tp: TaskProgram, args: dict, outputs: list[int]) -> tuple[list[bool], list[int]]:
    verdicts, fuel = [], []
    for r in outputs:
        b = limits.Budget(limits.Limits(seconds=60, fuel=10_000_000))
        with limits.using(b):
            verdicts.append(tp.postcond(args, r))
        fuel.append(b.spent)
    return verdicts, fuel


def test_same_verdicts_and_fuel_as_without_the_prefix_cache() -> None:
    args = {"xs": tuple(range(1, 9))}
    outputs = [0, 7, 36, 37, 100]
    tp = _program()
    got, fuel = _judge(tp, args, outputs)
    # the same postcondition with the binding under a branch on result: no prefix to peel
    plain = _program(
        "  if result = result then\n    let sums := (xs.foldl (fun acc x => acc ++ acc.map (· + x)) [0])\n    sums.contains result\n  else False"
    )
    want, plain_fuel = _judge(plain, args, outputs)
    assert got == want == [True, True, True, False, False]
    pre = tp._parts["postcond.prefixed"]
    assert pre and pre.reused == len(outputs) - 1
    assert plain._parts["postcond.prefixed"] is False
    # a reuse charges what the prefix cost: fuel per verdict within two fuel blocks of the plain one
    assert all(abs(a - b) <= 2048 for a, b in zip(fuel, plain_fuel, strict=True))


def test_a_new_input_recomputes() -> None:
    tp = _program()
    a, _ = _judge(tp, {"xs": (1, 2)}, [3])
    b, _ = _judge(tp, {"xs": (5, 6)}, [3])
    assert a == [True] and b == [False]
    assert tp._parts["postcond.prefixed"].reused == 0


def test_a_binding_that_reads_result_stays() -> None:
    tp = _program("  let d := result + 1\n  d > 0")
    _judge(tp, {"xs": (1,)}, [1, 2])
    assert tp._parts["postcond.prefixed"] is False
