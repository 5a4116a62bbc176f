"""``fun x => B c x`` compiles to the builtin (or a partial of it), and ``List.map``/``List.filter``
inline such a builtin's charge: verdicts, reasons and fuel stay those of the plain lambda."""

from __future__ import annotations

from veriscale.languages.lean.errors import LimitExceeded
from veriscale.languages.lean.program import TaskProgram
from veriscale.runtime import limits
from veriscale.values.types import INT, NAT, list_of

# (no result-free ``let``: the prefix cache would charge in whole fuel blocks)
# the same postcondition twice: the lambdas as written (eta-reducible), and with a body that is
# not a bare builtin call (``if True then … else …`` is not reduced), so the plain path runs
ETA = (
    "  (((xs.filter (fun l => List.Pairwise (· < ·) l)).map (fun l => List.reverse l)).map (·.length))"
    ".foldl (· + ·) 0 = result"
)
PLAIN = (
    "  (((xs.filter (fun l => if True then List.Pairwise (· < ·) l else False)).map"
    " (fun l => if True then List.reverse l else l)).map (fun l => if True then l.length else 0))"
    ".foldl (· + ·) 0 = result"
)


def _program(post: str) -> TaskProgram:
    tp = TaskProgram.build("f", [("xs", list_of(list_of(INT)))], NAT, {"code": "  0", "postcond": post})
    tp.check("postcond")
    return tp


def _judge(tp: TaskProgram, xs: tuple, result: int, fuel: int) -> tuple[object, int]:
    b = limits.Budget(limits.Limits(seconds=600, fuel=fuel))
    try:
        with limits.using(b):
            got: object = tp.postcond({"xs": xs}, result)
    except LimitExceeded as exc:
        got = str(exc)
    return got, b.spent


def test_lambdas_over_a_builtin_are_reduced() -> None:
    src = "\n".join(_program(ETA).compiler.sources)
    # Pairwise applied to its relation, reverse and length as themselves: no lambda left but the
    # addition's (an operator, not a builtin call)
    assert src.count("_Fn(1, _partial(") == 1 and src.count("_Fn(1, k_") == 2
    assert src.count("lambda") == 1
    plain = "\n".join(_program(PLAIN).compiler.sources)
    assert "_partial(" not in plain and plain.count("lambda") == 4


def test_same_verdicts_reasons_and_fuel_as_the_plain_lambdas() -> None:
    eta, plain = _program(ETA), _program(PLAIN)
    # lists over 16 elements (the wrappers charge their length) and short ones (no charge)
    up = tuple(range(60))
    xs = (up, up[::-1], (1, 2, 3), (3, 1), (), tuple(range(-5, 30, 2)), (7,)) * 40
    total = 40 * (60 + 3 + 0 + len(range(-5, 30, 2)) + 1)
    seen = set()
    # budgets around every charge of the run (a budget is tested every 4096 steps)
    for fuel in [*range(4096, 16_000, 397), 10**6]:
        for result in (total, total + 1):
            got = _judge(eta, xs, result, fuel)
            assert got == _judge(plain, xs, result, fuel), (fuel, result)
            seen.add(got[0])
    assert {True, False, "evaluation exceeded 4096 steps"} <= seen
    # one more group of lists costs, in the wrappers' charges: 7 for filter's list, Pairwise on
    # the 60-, 60- and 18-element lists, then 5 kept lists for reverse, length and the sum's fold,
    # reverse and length again on the kept 60- and 18-element ones
    more = xs + xs[:7]
    spent = [_judge(t, ys, 0, 10**6)[1] for t in (eta, plain) for ys in (xs, more)]
    assert spent[0] == spent[2] and spent[1] == spent[3]
    assert spent[1] - spent[0] == 7 + 138 + 5 + 78 + 5 + 78 + 5
    assert spent[0] == 1024 + 40 * (7 + 138 + 5 + 78 + 5 + 78 + 5)  # (the entry tick's block)
