"""Lean 4.18 semantics of the builtin library and the operator helpers.

The table ``CASES`` holds at least one case for every registered builtin
(checked by ``test_every_builtin_has_a_case``); the expected values are what
Lean evaluates, including the places where Python would differ.
"""

from __future__ import annotations

import inspect
import math
import pathlib
import re
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from veriscale.languages.lean.builtins import load_all, lookup, ops
from veriscale.languages.lean.builtins.nat_int import is_prime
from veriscale.languages.lean.builtins.optional import PARAMS, bind_named, complete_args, invoke
from veriscale.languages.lean.builtins.string import StrIter, split_on
from veriscale.languages.lean.errors import EvalError, LimitExceeded
from veriscale.runtime import limits
from veriscale.values.runtime import Fn, HMap, HSet, Some, Struct, default_value
from veriscale.values.types import TCon, TFun, TVar, parse_type

BUILTINS = load_all()
NAN = float("nan")
INF = float("inf")


def F1(f: Callable[[Any], Any]) -> Fn:
    return Fn(1, f)


def F2(f: Callable[[Any, Any], Any]) -> Fn:
    return Fn(2, f)


def F3(f: Callable[[Any, Any, Any], Any]) -> Fn:
    return Fn(3, f)


LE = Fn(2, ops.rel_le)
LT = Fn(2, ops.rel_lt)
NE = Fn(2, ops.rel_ne)
ADD = F2(lambda a, b: a + b)
EVEN = F1(lambda x: x % 2 == 0)
ODD = F1(lambda x: x % 2 == 1)
HM = HMap([(1, "a"), (2, "b")])
HS = HSet([3, 1])
_D = object()  # "no inhabited default given"


def run(name: str, *args: Any, default: Any = _D) -> Any:
    b = lookup(name)
    assert b is not None, name
    if b.inhabited is not None:
        assert default is not _D, f"{name} needs a default"
        return invoke(b, args, default)
    return invoke(b, args)


def same(a: Any, b: Any) -> bool:
    """Equality that also distinguishes NaN/-0.0 and compares nested floats exactly."""
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, Some) and isinstance(b, Some):
        return same(a.val, b.val)
    return type(a) is type(b) and a == b


# (builtin, args, expected[, inhabited default])
CASES: list[tuple] = [
    # ---------------------------------------------------------------- List
    ("List.length", ((1, 2, 3),), 3),
    ("List.isEmpty", ((),), True),
    ("List.nil", (), ()),
    ("List.cons", (1, (2,)), (1, 2)),
    ("List.singleton", (5,), (5,)),
    ("List.append", ((1,), (2, 3)), (1, 2, 3)),
    ("List.concat", ((1,), 2), (1, 2)),
    ("List.reverse", ((1, 2, 3),), (3, 2, 1)),
    ("List.toArray", ((1, 2),), (1, 2)),
    ("List.asString", (("a", "b"),), "ab"),
    ("List.beq", ((1.0, 2.0), (1.0, 2.0)), True),
    ("List.beq", ((NAN,), (NAN,)), False),  # IEEE even for one shared NaN object
    ("List.head!", ((),), 0, 0),
    ("List.head!", ((),), "A", "A"),
    ("List.head!", ((7, 8),), 7, 0),
    ("List.head?", ((),), None),
    ("List.head?", ((4,),), Some(4)),
    ("List.headD", ((), 9), 9),
    ("List.head", ((4, 5),), 4),
    ("List.tail", ((1, 2),), (2,)),
    ("List.tail", ((),), ()),
    ("List.tail!", ((),), ()),
    ("List.tail?", ((),), None),
    ("List.tail?", ((1, 2),), Some((2,))),
    ("List.tailD", ((), (9,)), (9,)),
    ("List.getLast", ((1, 2),), 2),
    ("List.getLast?", ((),), None),
    ("List.getLast!", ((),), "", ""),
    ("List.getLast!", ((1, 2),), 2, 0),
    ("List.getLastD", ((), 3), 3),
    ("List.dropLast", ((1, 2, 3),), (1, 2)),
    ("List.get?", ((1, 2), 5), None),
    ("List.get!", ((1, 2), 5), 0, 0),
    ("List.get!", ((1, 2), 1), 2, 0),
    ("List.getD", ((1, 2), 1, 9), 2),
    ("List.getD", ((1, 2), 2, 9), 9),
    ("List.set", ((1, 2, 3), 1, 9), (1, 9, 3)),
    ("List.set", ((1, 2, 3), 3, 9), (1, 2, 3)),
    ("List.eraseIdx", ((1, 2, 3), 1), (1, 3)),
    ("List.eraseIdx", ((1, 2, 3), 7), (1, 2, 3)),
    ("List.take", (2, (1, 2, 3)), (1, 2)),
    ("List.take", (5, (1,)), (1,)),
    ("List.drop", (2, (1, 2, 3)), (3,)),
    ("List.splitAt", (1, (1, 2, 3)), ((1,), (2, 3))),
    ("List.extract", ((1, 2, 3, 4), 1, 3), (2, 3)),
    ("List.extract", ((1, 2, 3),), (1, 2, 3)),
    ("List.extract", ((1, 2, 3), 1), (2, 3)),
    ("List.extract", ((1, 2, 3), 3, 1), ()),
    ("List.range", (4,), (0, 1, 2, 3)),
    ("List.range'", (2, 3), (2, 3, 4)),  # start 2, length 3 — not Python's range(2, 3)
    ("List.range'", (0, 4, 2), (0, 2, 4, 6)),
    ("List.iota", (3,), (3, 2, 1)),
    ("List.replicate", (3, "x"), ("x", "x", "x")),
    ("List.zip", ((1, 2, 3), ("a", "b")), ((1, "a"), (2, "b"))),
    ("List.zipWith", (ADD, (1, 2), (10, 20, 30)), (11, 22)),
    ("List.unzip", (((1, "a"), (2, "b")),), ((1, 2), ("a", "b"))),
    ("List.zipIdx", (("a", "b"),), (("a", 0), ("b", 1))),  # element first
    ("List.zipIdx", (("a",), 5), (("a", 5),)),
    ("List.enumFrom", (5, ("a", "b")), ((5, "a"), (6, "b"))),
    ("List.enum", (("a",),), ((0, "a"),)),
    ("List.flatten", (((1,), (), (2, 3)),), (1, 2, 3)),
    ("List.join", (((1,), (2,)),), (1, 2)),
    ("List.flatMap", (F1(lambda x: (x, x)), (1, 2)), (1, 1, 2, 2)),
    ("List.intersperse", (0, (1, 2, 3)), (1, 0, 2, 0, 3)),
    ("List.intercalate", ((0,), ((1,), (2, 3))), (1, 0, 2, 3)),
    ("List.rotateLeft", ((1, 2, 3, 4, 5), 2), (3, 4, 5, 1, 2)),
    ("List.rotateLeft", ((1, 2, 3),), (2, 3, 1)),
    ("List.rotateRight", ((1, 2, 3, 4, 5), 2), (4, 5, 1, 2, 3)),
    ("List.rotateRight", ((1, 2, 3), 7), (3, 1, 2)),  # by n % length
    ("List.rotateRight", ((1, 2, 3),), (3, 1, 2)),
    ("List.rotateRight", ((), 3), ()),
    ("List.sublists", ((1, 2, 3),), ((), (1,), (2,), (1, 2), (3,), (1, 3), (2, 3), (1, 2, 3))),
    ("List.map", (F1(lambda x: -x), (1, 2)), (-1, -2)),
    ("List.mapIdx", (F2(lambda i, x: i * x), (5, 5, 5)), (0, 5, 10)),
    ("List.filter", (ODD, (1, 2, 3)), (1, 3)),
    ("List.filterMap", (F1(lambda x: Some(2 * x) if x > 1 else None), (1, 2, 3)), (4, 6)),
    ("List.foldl", (F2(lambda a, x: 10 * a + x), 0, (1, 2, 3)), 123),
    ("List.foldr", (F2(lambda x, a: x - a), 0, (1, 2, 3)), 2),  # 1 - (2 - (3 - 0))
    ("List.all", ((2, 4), EVEN), True),
    ("List.any", ((1, 3), EVEN), False),
    ("List.and", ((True, False),), False),
    ("List.or", ((False, True),), True),
    ("List.find?", (EVEN, (1, 2, 4)), Some(2)),
    ("List.findSome?", (F1(lambda x: Some(10 * x) if x > 1 else None), (1, 2, 3)), Some(20)),
    ("List.findIdx", (EVEN, (1, 3)), 2),  # length when absent
    ("List.findIdx?", (EVEN, (1, 2)), Some(1)),
    ("List.countP", (EVEN, (1, 2, 4)), 2),
    ("List.partition", (EVEN, (1, 2, 3, 4)), ((2, 4), (1, 3))),
    ("List.span", (ODD, (1, 3, 4, 5)), ((1, 3), (4, 5))),
    ("List.takeWhile", (ODD, (1, 2, 3)), (1,)),
    ("List.dropWhile", (ODD, (1, 2, 3)), (2, 3)),
    ("List.sum", ((1, 2, 3),), 6, 0),
    ("List.sum", ((),), 0.0, 0.0),
    ("List.sum", ((0.1, 0.2, 0.3),), 0.6, 0.0),  # right fold; Python's left sum gives 0.6000000000000001
    ("List.prod", ((2, 3, 4),), 24, 0),
    ("List.prod", ((),), 1.0, 0.0),
    ("List.max?", ((3, 1, 4),), Some(4)),
    ("List.max?", ((),), None),
    ("List.min?", ((3, 1, 4),), Some(1)),
    ("List.contains", ((1, 2), 2), True),
    ("List.contains", ((NAN,), NAN), False),
    ("List.elem", (3, (1, 2)), False),
    ("List.count", (1, (1, 2, 1)), 2),
    ("List.idxOf", (9, (1, 2)), 2),  # length when absent
    ("List.idxOf", (2, (1, 2, 2)), 1),
    ("List.indexOf", (2, (1, 2)), 1),
    ("List.idxOf?", (9, (1,)), None),
    ("List.indexOf?", (1, (1,)), Some(0)),
    ("List.lookup", (2, ((1, "a"), (2, "b"))), Some("b")),
    ("List.erase", ((1, 2, 1), 1), (2, 1)),
    ("List.replace", ((1, 2, 1), 1, 9), (9, 2, 1)),
    ("List.insert", (1, (1, 2)), (1, 2)),
    ("List.insert", (3, (1, 2)), (3, 1, 2)),
    ("List.removeAll", ((1, 2, 3, 2), (2,)), (1, 3)),
    ("List.diff", ((1, 2, 2, 3), (2, 4)), (1, 2, 3)),
    ("List.inter", ((1, 2, 3), (3, 1)), (1, 3)),
    ("List.union", ((1, 2), (2, 3)), (1, 2, 3)),
    ("List.bagInter", ((1, 1, 2), (1, 2, 2)), (1, 2)),
    ("List.eraseDups", ((1, 2, 1, 3, 2),), (1, 2, 3)),  # first occurrences
    ("List.eraseDups", (((1,), (2,), (1,)),), ((1,), (2,))),
    ("List.dedup", ((1, 2, 1, 3, 2),), (1, 3, 2)),  # Mathlib: last occurrences
    ("List.isPrefixOf", ((1,), (1, 2)), True),
    ("List.isSuffixOf", ((2,), (1, 2)), True),
    ("List.isSublist", ((1, 3), (1, 2, 3)), True),
    ("List.Sublist", ((3, 1), (1, 2, 3)), False),
    ("List.Sublist", ((), ()), True),
    ("List.IsPrefix", ((1, 2), (1, 2, 3)), True),
    ("List.IsSuffix", ((2, 3), (1, 2, 3)), True),
    ("List.IsInfix", ((2,), (1, 2, 3)), True),
    ("List.IsInfix", ((1, 3), (1, 2, 3)), False),
    ("List.isPerm", ((1, 2, 2), (2, 1, 2)), True),
    ("List.isPerm", ((1, 2), (1, 1)), False),
    ("List.isPerm", (((1,), (2,)), ((2,), (1,))), True),
    ("List.Perm", ((1, 2), (2, 1)), True),
    ("List.Pairwise", (LE, (1, 2, 2, 3)), True),
    ("List.Pairwise", (LT, (1, 2, 2, 3)), False),
    ("List.Pairwise", (F2(lambda a, b: a < b), (1, 3, 2)), False),
    ("List.Pairwise", (F2(lambda a, b: a + b != 4), (1, 2, 3)), False),  # non-adjacent pair 1, 3
    ("List.Pairwise", (NE, (1, 2, 1)), False),
    ("List.Pairwise", (LE, (1.0, NAN)), False),
    ("List.Sorted", (LT, (1, 2)), True),
    ("List.Nodup", ((1, 2, 1),), False),
    ("List.Nodup", (((1, 2), (2, 1)),), True),
    ("List.mergeSort", ((3, 1, 2),), (1, 2, 3)),
    ("List.mergeSort", ((3, 1, 2), F2(lambda a, b: a >= b)), (3, 2, 1)),
    ("List.orderedInsert", (LE, 3, (1, 2, 4, 5)), (1, 2, 3, 4, 5)),
    ("List.insertionSort", (LE, (3, 1, 2)), (1, 2, 3)),
    # --------------------------------------------------------------- Array
    ("Array.mk", ((1,),), (1,)),
    ("Array.toList", ((1, 2),), (1, 2)),
    ("Array.data", ((1,),), (1,)),
    ("Array.empty", (), ()),
    ("Array.mkEmpty", (5,), ()),
    ("Array.emptyWithCapacity", (5,), ()),
    ("Array.singleton", (1,), (1,)),
    ("Array.range", (3,), (0, 1, 2)),
    ("Array.range'", (3, 4, 2), (3, 5, 7, 9)),
    ("Array.mkArray", (2, 0), (0, 0)),
    ("mkArray", (2, "a"), ("a", "a")),
    ("Array.replicate", (0, 1), ()),
    ("Array.leftpad", (5, 0, (1, 2, 3)), (0, 0, 1, 2, 3)),
    ("Array.rightpad", (2, 0, (1, 2, 3)), (1, 2, 3)),
    ("Array.size", ((1, 2),), 2),
    ("Array.isEmpty", ((),), True),
    ("Array.push", ((1,), 2), (1, 2)),
    ("Array.pop", ((1, 2),), (1,)),
    ("Array.pop", ((),), ()),
    ("Array.shrink", ((0, 1, 2, 3), 2), (0, 1)),
    ("Array.back!", ((),), 0, 0),
    ("Array.back!", ((1, 2),), 2, 0),
    ("Array.back?", ((),), None),
    ("Array.back", ((1, 2),), 2),
    ("Array.append", ((1,), (2,)), (1, 2)),
    ("Array.appendList", ((1,), (2,)), (1, 2)),
    ("Array.reverse", ((1, 2, 3),), (3, 2, 1)),
    ("Array.get!", ((1, 2), 2), "", ""),
    ("Array.get?", ((1, 2), 1), Some(2)),
    ("Array.getD", ((1, 2), 5, 7), 7),
    ("Array.set!", ((1, 2), 0, 9), (9, 2)),
    ("Array.set!", ((1, 2), 2, 9), (1, 2)),  # out of range: unchanged
    ("Array.setIfInBounds", ((1, 2), 5, 9), (1, 2)),
    ("Array.setD", ((1, 2), 1, 9), (1, 9)),
    ("Array.set", ((1, 2), 1, 9), (1, 9)),
    ("Array.swapIfInBounds", ((1, 2, 3), 0, 2), (3, 2, 1)),
    ("Array.swapIfInBounds", ((1, 2, 3), 0, 3), (1, 2, 3)),
    ("Array.swap!", ((1, 2), 0, 1), (2, 1)),
    ("Array.swap", ((1, 2), 0, 1), (2, 1)),
    ("Array.modify", ((1, 2, 3), 2, F1(lambda x: 10 * x)), (1, 2, 30)),
    ("Array.modify", ((1, 2, 3), 3, F1(lambda x: 10 * x)), (1, 2, 3)),
    ("Array.extract", ((1, 2, 3, 4), 1, 3), (2, 3)),
    ("Array.extract", ((1, 2, 3), 1, 10), (2, 3)),
    ("Array.extract", ((1, 2, 3), 2, 1), ()),
    ("Array.extract", ((1, 2, 3),), (1, 2, 3)),
    ("Array.take", ((1, 2, 3), 2), (1, 2)),
    ("Array.drop", ((1, 2, 3), 2), (3,)),
    ("Array.eraseIdx", ((1, 2, 3), 0), (2, 3)),
    ("Array.eraseIdxIfInBounds", ((1, 2, 3), 3), (1, 2, 3)),
    ("Array.eraseIdx!", ((1, 2, 3), 1), (1, 3)),
    ("Array.eraseIdx!", ((1, 2, 3), 3), ()),  # panic! ↦ default #[]
    ("Array.erase", ((1, 2, 3, 2), 2), (1, 3, 2)),
    ("Array.insertIdx", (("a", "c"), 1, "b"), ("a", "b", "c")),
    ("Array.insertIdx!", ((1, 2), 2, 3), (1, 2, 3)),
    ("Array.insertIdx!", ((1, 2), 3, 3), ()),  # panic! ↦ default #[]
    ("Array.insertAt!", ((1, 2), 0, 0), (0, 1, 2)),
    ("Array.insertIdxIfInBounds", ((1, 2), 4, 0), (1, 2)),
    ("Array.replace", ((1, 2, 1), 1, 5), (5, 2, 1)),
    ("Array.foldl", (F2(lambda a, x: 10 * a + x), 0, (1, 2, 3)), 123),
    ("Array.foldl", (ADD, 0, (1, 2, 3, 4), 1), 9),
    ("Array.foldl", (ADD, 0, (1, 2, 3, 4), 1, 3), 5),
    ("Array.foldl", (ADD, 0, (1, 2, 3, 4), 0, 9), 0),  # stop > size: the runtime returns init
    ("Array.foldr", (F2(lambda x, a: 10 * a + x), 0, (1, 2, 3)), 321),
    ("Array.foldr", (ADD, 0, (1, 2, 3, 4), 2), 3),
    ("Array.foldr", (ADD, 0, (1, 2, 3, 4), 9, 1), 9),  # start > size: from the end
    ("Array.any", ((1, 2), EVEN), True),
    ("Array.any", ((1, 2, 3), EVEN, 2), False),
    ("Array.all", ((2, 4), EVEN), True),
    ("Array.all", ((2, 3, 4), EVEN, 0, 1), True),
    ("Array.contains", ((1, 2), 3), False),
    ("Array.elem", (2, (1, 2)), True),
    ("Array.sum", ((1, 2),), 3, 0),
    ("Array.sum", ((0.1, 0.2, 0.3),), 0.6, 0.0),
    ("Array.count", (1, (1, 1, 2)), 2),
    ("Array.countP", (EVEN, (1, 2, 4)), 2),
    ("Array.map", (F1(lambda x: x + 1), (1, 2)), (2, 3)),
    ("Array.mapIdx", (F2(lambda i, x: (i, x)), ("a", "b")), ((0, "a"), (1, "b"))),
    ("Array.zipIdx", (("a", "b"),), (("a", 0), ("b", 1))),
    ("Array.zipWithIndex", (("a",), 3), (("a", 3),)),
    ("Array.filter", (EVEN, (1, 2, 4)), (2, 4)),
    ("Array.filter", (F1(lambda _x: True), (1, 2, 5, 2, 7, 7), 3), (2, 7, 7)),
    ("Array.filterMap", (F1(lambda x: Some(2 * x) if x > 2 else None), (1, 2, 5, 7)), (10, 14)),
    ("Array.find?", (EVEN, (1, 3)), None),
    ("Array.findSome?", (F1(lambda x: Some(x) if x > 1 else None), (1, 2)), Some(2)),
    ("Array.findIdx?", (EVEN, (1, 2)), Some(1)),
    ("Array.findIdx", (EVEN, (1, 3)), 2),
    ("Array.idxOf", (5, (1, 2)), 2),
    ("Array.idxOf?", ((1, 2), 2), Some(1)),
    ("Array.getIdx?", ((1, 2), 3), None),
    ("Array.flatMap", (F1(lambda x: (x,) * x), (1, 2)), (1, 2, 2)),
    ("Array.flatten", (((1,), (), (2,)),), (1, 2)),
    ("Array.zip", ((1, 2, 3), ("a", "b")), ((1, "a"), (2, "b"))),
    ("Array.zipWith", (ADD, (1, 2), (5, 6)), (6, 8)),
    ("Array.unzip", (((1, "a"),),), ((1,), ("a",))),
    ("Array.partition", (F1(lambda x: x > 2), (1, 2, 5, 2, 7, 7)), ((5, 7, 7), (1, 2, 2))),
    ("Array.takeWhile", (F1(lambda x: x < 2), (0, 1, 2, 3, 2, 1)), (0, 1)),
    ("Array.popWhile", (F1(lambda x: x > 2), (0, 1, 2, 3, 4)), (0, 1, 2)),
    ("Array.isPrefixOf", ((0, 1), (0, 1, 2)), True),
    ("Array.isEqv", ((1, 2, 3), (2, 3, 4), LT), True),
    ("Array.allDiff", (("r", "g", "r"),), False),
    ("Array.eraseReps", ((1, 3, 2, 2, 2, 3, 3, 5),), (1, 3, 2, 3, 5)),
    ("Array.getMax?", (("red", "green", "blue"), F2(lambda a, b: len(a) < len(b))), Some("green")),
    ("Array.qsort", ((5, 3, 8, 1, 9, 2),), (1, 2, 3, 5, 8, 9)),
    ("Array.qsort", ((5, 3, 8, 1), F2(lambda a, b: a > b)), (8, 5, 3, 1)),
    ("Array.qsort", ((4, 3, 2, 1), LT, 1, 2), (4, 2, 3, 1)),
    (
        "Array.insertionSort",
        (((1, "b"), (0, "x"), (1, "a")), F2(lambda a, b: a[0] < b[0])),
        ((0, "x"), (1, "b"), (1, "a")),
    ),
    # ---------------------------------------------------------------- Char
    ("Char.toNat", ("A",), 65),
    ("Char.ofNat", (97,), "a"),
    ("Char.ofNat", (0xD800,), "\0"),
    ("Char.ofNat", (0x110000,), "\0"),
    ("Char.isDigit", ("٣",), False),  # ASCII only (Python's isdigit says True)
    ("Char.isDigit", ("7",), True),
    ("Char.isUpper", ("Q",), True),
    ("Char.isLower", ("q",), True),
    ("Char.isAlpha", ("é",), False),
    ("Char.isAlphanum", ("_",), False),
    ("Char.isWhitespace", ("\x0b",), False),
    ("Char.isWhitespace", ("\t",), True),
    ("Char.toUpper", ("é",), "é"),
    ("Char.toUpper", ("a",), "A"),
    ("Char.toLower", ("Z",), "z"),
    ("Char.toString", ("x",), "x"),
    ("Char.quote", ("'",), "'''"),
    ("Char.repr", ("\n",), "'\\n'"),
    ("Char.utf8Size", ("€",), 3),
    # -------------------------------------------------------------- String
    ("String.length", ("héllo",), 5),
    ("String.utf8ByteSize", ("hé",), 3),
    ("String.isEmpty", ("",), True),
    ("String.toList", ("ab",), ("a", "b")),
    ("String.data", ("ab",), ("a", "b")),
    ("String.mk", (("a", "b"),), "ab"),
    ("String.singleton", ("c",), "c"),
    ("String.push", ("ab", "c"), "abc"),
    ("String.pushn", ("a", "b", 3), "abbb"),
    ("String.replicate", (2, "z"), "zz"),
    ("String.append", ("a", "b"), "ab"),
    ("String.join", (("a", "b"),), "ab"),
    ("String.intercalate", (", ", ("a", "b", "c")), "a, b, c"),
    ("String.quote", ('a"b\n',), '"a\\"b\\n"'),
    ("String.get", ("abc", 1), "b"),
    ("String.get", ("abc", 3), "A"),
    ("String.get", ("é!", 1), "A"),  # byte 1 is inside 'é'
    ("String.get", ("é!", 2), "!"),
    ("String.get!", ("ab", 0), "a"),
    ("String.get?", ("ab", 2), None),
    ("String.extract", ("hello", 1, 3), "el"),
    ("String.extract", ("hello", 3, 1), ""),
    ("String.front", ("",), "A"),
    ("String.back", ("xyz",), "z"),
    ("String.contains", ("abc", "b"), True),
    ("String.startsWith", ("abc", "ab"), True),
    ("String.endsWith", ("abc", "bc"), True),
    ("String.isPrefixOf", ("ab", "abc"), True),
    ("String.any", ("abc", F1(lambda c: c == "c")), True),
    ("String.all", ("", F1(lambda c: False)), True),
    ("String.map", (F1(str.upper), "ab"), "AB"),
    ("String.foldl", (F2(lambda n, c: 10 * n + ord(c) - 48), 0, "123"), 123),
    ("String.foldr", (F2(lambda c, s: s + c), "", "abc"), "cba"),
    ("String.toUpper", ("aé1",), "Aé1"),
    ("String.toLower", ("ÀB",), "Àb"),
    ("String.capitalize", ("abc",), "Abc"),
    ("String.decapitalize", ("ABC",), "aBC"),
    ("String.drop", ("héllo", 2), "llo"),
    ("String.take", ("héllo", 2), "hé"),
    ("String.dropRight", ("hello", 2), "hel"),
    ("String.takeRight", ("hello", 9), "hello"),
    ("String.dropWhile", ("  a ", F1(lambda c: c == " ")), "a "),
    ("String.takeWhile", ("ab1", F1(str.isalpha)), "ab"),
    ("String.dropRightWhile", ("a  ", F1(lambda c: c == " ")), "a"),
    ("String.takeRightWhile", ("a12", F1(str.isdigit)), "12"),
    ("String.trim", ("\x0b a \n",), "\x0b a"),  # only space/tab/CR/LF are whitespace
    ("String.trimLeft", ("  a ",), "a "),
    ("String.trimRight", ("  a ",), "  a"),
    ("String.splitOn", ("a b  c", " "), ("a", "b", "", "c")),
    ("String.splitOn", ("a b",), ("a", "b")),  # default separator " "
    ("String.splitOn", ("abc", ""), ("abc",)),
    ("String.splitOn", ("", ","), ("",)),
    ("String.splitOn", ("aab", "ab"), ("a", "")),
    ("String.splitOn", ("abcabd", "abd"), ("abc", "")),
    ("String.split", ("a,b,,c,", F1(lambda c: c == ",")), ("a", "b", "", "c", "")),
    ("String.split", ("", F1(lambda c: True)), ("",)),
    ("String.replace", ("aaa", "aa", "b"), "ba"),
    ("String.replace", ("abc", "", "x"), "abc"),
    ("String.isNat", ("012",), True),
    ("String.isNat", ("",), False),
    ("String.isInt", ("-3",), True),
    ("String.toNat?", ("42",), Some(42)),
    ("String.toNat?", ("4_2",), None),
    ("String.toNat?", ("٣",), None),
    ("String.toInt?", ("-12",), Some(-12)),
    ("String.toInt?", ("+1",), None),
    ("String.toInt?", ("-",), None),
    ("String.toNat!", ("x",), 0),
    ("String.toInt!", ("-5",), -5),
    ("String.iter", ("ab",), StrIter("ab", 0)),
    ("String.mkIterator", ("ab",), StrIter("ab", 0)),
    ("String.Iterator.curr", (StrIter("ab", 1),), "b"),
    ("String.Iterator.curr", (StrIter("ab", 2),), "A"),
    ("String.Iterator.next", (StrIter("ab", 2),), StrIter("ab", 3)),
    ("String.Iterator.atEnd", (StrIter("ab", 3),), True),
    ("String.Iterator.hasNext", (StrIter("ab", 1),), True),
    ("String.Iterator.hasPrev", (StrIter("ab", 0),), False),
    ("String.Iterator.toString", (StrIter("ab", 1),), "ab"),
    ("String.Iterator.remainingToString", (StrIter("abc", 1),), "bc"),
    ("String.Iterator.forward", (StrIter("abc", 1), 2), StrIter("abc", 3)),
    ("String.Iterator.toEnd", (StrIter("abc", 1),), StrIter("abc", 3)),
    # ------------------------------------------------------ Nat, Int, UInt8
    ("Nat.succ", (4,), 5),
    ("Nat.pred", (0,), 0),
    ("Nat.add", (2, 3), 5),
    ("Nat.sub", (3, 5), 0),
    ("Nat.mul", (2, 3), 6),
    ("Nat.div", (7, 0), 0),
    ("Nat.mod", (7, 0), 7),
    ("Nat.pow", (2, 10), 1024),
    ("Nat.min", (2, 3), 2),
    ("Nat.max", (2, 3), 3),
    ("Nat.gcd", (12, 18), 6),
    ("Nat.lcm", (4, 6), 12),
    ("Nat.land", (12, 10), 8),
    ("Nat.lor", (12, 10), 14),
    ("Nat.xor", (12, 10), 6),
    ("Nat.shiftLeft", (1, 4), 16),
    ("Nat.shiftRight", (37, 2), 9),
    ("Nat.testBit", (5, 2), True),
    ("Nat.beq", (2, 2), True),
    ("Nat.ble", (3, 2), False),
    ("Nat.blt", (2, 3), True),
    ("Nat.log2", (0,), 0),
    ("Nat.log2", (1024,), 10),
    ("Nat.sqrt", (99,), 9),
    ("Nat.repr", (2**70,), "1180591620717411303424"),
    ("Nat.toDigits", (10, 123), ("1", "2", "3")),
    ("Nat.toDigits", (16, 255), ("f", "f")),
    ("Nat.toDigits", (20, 19), ("*",)),
    ("Nat.toDigits", (1, 3), ("0", "0", "0", "0")),  # fuel n+1 runs out
    ("Nat.digitChar", (11,), "b"),
    ("Nat.digits", (10, 123), (3, 2, 1)),
    ("Nat.digits", (10, 0), ()),
    ("Nat.repeat", (F1(lambda s: s + "a"), 3, ""), "aaa"),
    ("Nat.factorial", (5,), 120),
    ("Nat.choose", (5, 2), 10),
    ("Nat.toFloat", (3,), 3.0),
    ("Nat.Prime", (97,), True),
    ("Nat.Prime", (1,), False),
    ("Int.ofNat", (3,), 3),
    ("Int.negSucc", (2,), -3),
    ("Int.toNat", (-5,), 0),
    ("Int.toNat", (5,), 5),
    ("Int.natAbs", (-5,), 5),
    ("Int.neg", (5,), -5),
    ("Int.sign", (-5,), -1),
    ("Int.add", (2, -3), -1),
    ("Int.sub", (2, 3), -1),
    ("Int.mul", (-2, 3), -6),
    ("Int.ediv", (-7, 2), -4),
    ("Int.emod", (-7, 2), 1),
    ("Int.tdiv", (-7, 2), -3),
    ("Int.tmod", (-7, 2), -1),
    ("Int.fdiv", (7, -2), -4),
    ("Int.fmod", (7, -2), -1),
    ("Int.div", (-7, 2), -3),
    ("Int.mod", (-7, 2), -1),
    ("Int.pow", (-2, 3), -8),
    ("Int.natMod", (-7, 3), 2),
    ("Int.gcd", (-4, 6), 2),
    ("Int.lcm", (-4, 6), 12),
    ("Int.repr", (-3,), "-3"),
    ("UInt8.ofNat", (300,), 44),
    ("UInt8.toNat", (7,), 7),
    ("UInt8.xor", (0b1010, 0b0110), 0b1100),
    ("UInt8.land", (12, 10), 8),
    ("UInt8.lor", (12, 10), 14),
    ("UInt8.add", (200, 100), 44),
    ("UInt8.sub", (1, 2), 255),
    ("UInt8.mul", (16, 16), 0),
    ("UInt8.div", (7, 0), 0),
    ("UInt8.mod", (7, 0), 7),
    ("UInt8.shiftLeft", (1, 9), 2),
    ("UInt8.shiftRight", (128, 7), 1),
    ("UInt8.complement", (0,), 255),
    # --------------------------------------------------------------- Float
    ("Float.isNaN", (NAN,), True),
    ("Float.isInf", (-INF,), True),
    ("Float.isFinite", (INF,), False),
    ("Float.ofNat", (2**64 + 2**11 + 1,), 2.0**64),  # truncate to 64 bits, then round (Lean)
    ("Float.ofInt", (-3,), -3.0),
    ("Float.ofScientific", (15, True, 1), 1.5),
    ("Float.toString", (3.0,), "3.000000"),
    ("Float.neg", (0.0,), -0.0),
    ("Float.add", (0.1, 0.2), 0.30000000000000004),
    ("Float.sub", (INF, INF), NAN),
    ("Float.mul", (2.0, 3.0), 6.0),
    ("Float.div", (1.0, 0.0), INF),
    ("Float.div", (1.0, -0.0), -INF),
    ("Float.div", (0.0, 0.0), NAN),
    ("Float.pow", (2.0, 10.0), 1024.0),
    ("Float.pow", (0.0, -1.0), INF),
    ("Float.pow", (-8.0, 1 / 3), NAN),
    ("Float.beq", (NAN, NAN), False),
    ("Float.lt", (1.0, NAN), False),
    ("Float.le", (1.0, 1.0), True),
    ("Float.abs", (-2.5,), 2.5),
    ("Float.sqrt", (-1.0,), NAN),
    ("Float.sqrt", (16.0,), 4.0),
    ("Float.cbrt", (-8.0,), -2.0),
    ("Float.exp", (1000.0,), INF),
    ("Float.exp2", (3.0,), 8.0),
    ("Float.log", (0.0,), -INF),
    ("Float.log", (-1.0,), NAN),
    ("Float.log2", (8.0,), 3.0),
    ("Float.log10", (1000.0,), 3.0),
    ("Float.sin", (INF,), NAN),
    ("Float.cos", (0.0,), 1.0),
    ("Float.tan", (0.0,), 0.0),
    ("Float.asin", (2.0,), NAN),
    ("Float.acos", (1.0,), 0.0),
    ("Float.atan", (0.0,), 0.0),
    ("Float.atan2", (0.0, -1.0), math.pi),
    ("Float.sinh", (-1000.0,), -INF),
    ("Float.cosh", (0.0,), 1.0),
    ("Float.tanh", (0.0,), 0.0),
    ("Float.floor", (-0.5,), -1.0),
    ("Float.floor", (-0.0,), -0.0),
    ("Float.ceil", (-0.5,), -0.0),
    ("Float.ceil", (INF,), INF),
    ("Float.round", (2.5,), 3.0),  # half away from zero (Python rounds to even)
    ("Float.round", (-2.5,), -3.0),
    ("Float.round", (0.49999999999999994,), 0.0),
    ("Float.round", (-0.4,), -0.0),
    # -------------------------------------------------------------- Option
    ("Option.getD", (None, 3), 3),
    ("Option.getD", (Some(1), 3), 1),
    ("Option.get!", (None,), "", ""),
    ("Option.get!", (Some(2),), 2, 0),
    ("Option.get", (Some(2),), 2),
    ("Option.isSome", (Some(0),), True),
    ("Option.isNone", (None,), True),
    ("Option.map", (F1(lambda x: x + 1), Some(1)), Some(2)),
    ("Option.map", (F1(lambda x: x + 1), None), None),
    ("Option.bind", (Some(4), F1(lambda x: Some(x // 2) if x % 2 == 0 else None)), Some(2)),
    ("Option.filter", (EVEN, Some(3)), None),
    ("Option.all", (EVEN, None), True),
    ("Option.any", (EVEN, None), False),
    ("Option.toList", (Some(1),), (1,)),
    ("Option.toArray", (None,), ()),
    ("Option.or", (None, Some(2)), Some(2)),
    ("Option.join", (Some(Some(1)),), Some(1)),
    ("Option.elim", (None, 0, F1(lambda x: x + 1)), 0),
    # ---------------------------------------------------------------- Prod
    ("Prod.fst", ((1, "a"),), 1),
    ("Prod.snd", ((1, "a"),), "a"),
    ("Prod.mk", (1, 2), (1, 2)),
    ("Prod.swap", ((1, 2),), (2, 1)),
    ("Prod.map", (F1(lambda x: x + 1), F1(str.upper), (1, "a")), (2, "A")),
    # ---------------------------------------------------- HashMap, HashSet
    ("Std.HashMap.empty", (), HMap()),
    ("Std.HashMap.emptyWithCapacity", (16,), HMap()),
    ("Std.HashMap.ofList", (((1, "a"), (1, "b")),), HMap([(1, "b")])),
    ("Std.HashMap.insert", (HM, 1, "z"), HMap([(1, "z"), (2, "b")])),
    ("Std.HashMap.insertIfNew", (HM, 1, "z"), HM),
    ("Std.HashMap.insertMany", (HMap(), ((1, 2), (3, 4))), HMap([(1, 2), (3, 4)])),
    ("Std.HashMap.containsThenInsert", (HMap(), 1, 2), (False, HMap([(1, 2)]))),
    ("Std.HashMap.get?", (HM, 3), None),
    ("Std.HashMap.get?", (HM, 2), Some("b")),
    ("Std.HashMap.getD", (HM, 3, "d"), "d"),
    ("Std.HashMap.get!", (HM, 3), "", ""),
    ("Std.HashMap.get", (HM, 1), "a"),
    ("Std.HashMap.contains", (HM, 2), True),
    ("Std.HashMap.erase", (HM, 2), HMap([(1, "a")])),
    ("Std.HashMap.size", (HM,), 2),
    ("Std.HashMap.isEmpty", (HMap(),), True),
    ("Std.HashMap.toList", (HM,), ((1, "a"), (2, "b"))),
    ("Std.HashMap.toArray", (HM,), ((1, "a"), (2, "b"))),
    ("Std.HashMap.keys", (HM,), (1, 2)),
    ("Std.HashMap.keysArray", (HM,), (1, 2)),
    ("Std.HashMap.values", (HM,), ("a", "b")),
    ("Std.HashMap.fold", (F3(lambda acc, k, v: acc + k), 0, HM), 3),
    ("Std.HashMap.filter", (F2(lambda k, v: k > 1), HM), HMap([(2, "b")])),
    ("Std.HashMap.map", (F2(lambda k, v: v * k), HM), HMap([(1, "a"), (2, "bb")])),
    ("Std.HashMap.alter", (HM, 1, F1(lambda o: None)), HMap([(2, "b")])),
    (
        "Std.HashMap.alter",
        (HM, 5, F1(lambda o: Some("n") if o is None else o)),
        HMap([*HM.items(), (5, "n")]),
    ),
    ("Std.HashMap.modify", (HM, 2, F1(str.upper)), HMap([(1, "a"), (2, "B")])),
    ("Std.HashSet.empty", (), HSet()),
    ("Std.HashSet.emptyWithCapacity", (), HSet()),
    ("Std.HashSet.ofList", ((1, 2, 1),), HSet([1, 2])),
    ("Std.HashSet.insert", (HS, 2), HSet([3, 1, 2])),
    ("Std.HashSet.insertMany", (HSet(), (1, 1)), HSet([1])),
    ("Std.HashSet.containsThenInsert", (HS, 3), (True, HS)),
    ("Std.HashSet.contains", (HS, 1), True),
    ("Std.HashSet.erase", (HS, 3), HSet([1])),
    ("Std.HashSet.size", (HS,), 2),
    ("Std.HashSet.isEmpty", (HS,), False),
    ("Std.HashSet.toList", (HS,), (3, 1)),
    ("Std.HashSet.toArray", (HS,), (3, 1)),
    ("Std.HashSet.fold", (ADD, 0, HS), 4),
    # ------------------------------------------------------------- globals
    ("max", (2, 3), 3),
    ("max", ((1, 2), (1, 3)), (1, 3)),
    ("min", ("b", "a"), "a"),
    ("min", (None, Some(0)), None),  # none < some
    ("id", (5,), 5),
    ("abs", (-5,), 5),
    ("Function.comp", (F1(lambda x: x * 2), F1(lambda x: x + 1), 3), 8),
    ("flip", (F2(lambda a, b: a - b), 1, 10), 9),
    ("cond", (False, 1, 2), 2),
    ("not", (True,), False),
    ("and", (True, False), False),
    ("or", (True, False), True),
    ("xor", (True, True), False),
    ("Bool.not", (False,), True),
    ("Bool.and", (True, True), True),
    ("Bool.or", (False, False), False),
    ("Bool.xor", (True, False), True),
    ("Bool.toNat", (True,), 1),
    # Mathlib / Batteries names (issue 18)
    ("List.Chain", (F2(lambda a, b: a < b), 0, (1, 2, 3)), True),
    ("List.Chain'", (F2(lambda a, b: a <= b), (1, 3, 2)), False),
    ("List.Forall₂", (F2(lambda a, b: a == 2 * b), (2, 4), (1, 2)), True),
    ("List.scanl", (F2(lambda a, b: a + b), 0, (1, 2, 3)), (0, 1, 3, 6)),
    ("List.scanr", (F2(lambda a, b: a + b), 0, (1, 2, 3)), (6, 5, 3, 0)),
    ("List.inits", ((1, 2),), ((), (1,), (1, 2))),
    ("List.tails", ((1, 2),), ((1, 2), (2,), ())),
    ("List.rotate", ((1, 2, 3), 4), (2, 3, 1)),
    ("List.product", ((1, 2), ("a",)), ((1, "a"), (2, "a"))),
    ("Nat.ofDigits", (10, (3, 2, 1)), 123),
    ("Nat.Coprime", (4, 9), True),
    ("List.toFinset", ((3, 1, 3, 2),), (1, 2, 3)),
    ("Finset.range", (3,), (0, 1, 2)),
    ("Finset.Icc", (-1, 1), (-1, 0, 1)),
    ("Finset.Ico", (1, 3), (1, 2)),
    ("Finset.Ioc", (1, 3), (2, 3)),
    ("Finset.Ioo", (1, 3), (2,)),
    ("Finset.card", ((1, 2),), 2),
    ("Finset.sum", ((1, 2, 3), F1(lambda x: x * x)), 14),
    ("Finset.prod", ((), F1(lambda x: x)), 1),
    ("Finset.filter", (F1(lambda x: x % 2 == 1), (1, 2, 3)), (1, 3)),
    ("Finset.image", (F1(lambda x: x % 2), (1, 2, 3)), (0, 1)),
    ("Finset.union", ((1, 3), (2, 3)), (1, 2, 3)),
    ("Finset.inter", ((1, 3), (2, 3)), (3,)),
    ("Finset.sdiff", ((1, 3), (2, 3)), (1,)),
    ("Finset.Subset", ((1, 3), (1, 2, 3)), True),
    ("Finset.Subset", ((1, 4), (1, 2, 3)), False),
    ("Nat.divisors", (12,), (1, 2, 3, 4, 6, 12)),
    ("Nat.divisors", (0,), ()),
    ("Nat.properDivisors", (28,), (1, 2, 4, 7, 14)),
    ("Nat.properDivisors", (1,), ()),
    ("Nat.log", (10, 999), 2),
    ("Nat.log", (10, 1000), 3),
    ("Nat.log", (0, 5), 0),
    ("List.Subset", ((3, 1, 3), (1, 2, 3)), True),
    ("List.Subset", (((1,), (4,)), ((1,), (2,))), False),
    ("List.splitBy", (F2(lambda a, b: a == b), (1, 1, 2, 1)), ((1, 1), (2,), (1,))),
    ("List.splitBy", (F2(lambda a, b: a < b), ()), ()),
    ("List.groupBy", (F2(lambda a, b: a < b), (1, 2, 1, 3)), ((1, 2), (1, 3))),
    ("Finset.Nonempty", ((),), False),
    ("Finset.sup", ((1, 5, 2), F1(lambda x: x)), 5),
    ("Even", (-4,), True),
    ("Odd", (-3,), True),
]


def _case_id(case: tuple) -> str:
    return f"{case[0]}{case[1]!r}"[:80]


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_builtin_case(case: tuple) -> None:
    name, args, expected = case[:3]
    got = run(name, *args, default=case[3]) if len(case) > 3 else run(name, *args)
    assert same(got, expected), f"{name}{args!r} = {got!r}, expected {expected!r}"


def test_every_builtin_has_a_case() -> None:
    covered = {c[0] for c in CASES}
    missing = sorted(set(BUILTINS) - covered)
    assert missing == [], f"builtins without a test case: {missing}"


def test_registry_size_and_required_names() -> None:
    assert len(BUILTINS) >= 400
    # the builtin table of the fragment reference (library functions, not operators)
    required = """Array.size Array.set! Array.toList Array.foldl Array.mkArray Array.all Array.push Array.any
    Array.mapIdx Array.empty Array.map Array.mk Array.mkEmpty Array.drop Array.eraseIdx! Array.extract
    Array.getD Array.range Array.take Char.toNat Char.ofNat Char.isDigit Char.isAlpha Char.toLower
    Float.isInf Float.isNaN Std.HashMap.getD Std.HashMap.insert Std.HashMap.toList
    Std.HashMap.emptyWithCapacity Std.HashMap.erase Std.HashSet.insert Std.HashSet.contains
    Std.HashSet.emptyWithCapacity Std.HashSet.empty Int.toNat Int.ofNat Int.natAbs List.length List.all
    List.Pairwise List.map List.range List.filter List.foldl List.reverse List.any List.contains List.drop
    List.take List.flatMap List.count List.Nodup List.isPerm List.zipIdx List.find? List.sum List.idxOf
    List.eraseDups List.mergeSort List.elem List.range' List.toArray List.countP List.dropWhile
    List.findIdx? List.foldr List.getD List.getLast! List.head? List.isEmpty List.replicate List.tail
    List.Sublist List.append List.asString List.eraseIdx List.extract List.findIdx List.getLast?
    List.head! List.headD List.max? List.min? List.rotateRight List.sublists List.zip Nat.max Nat.min
    Nat.Prime Nat.land Nat.pow Nat.repr Nat.shiftRight Nat.toFloat Option.getD Option.map Option.get!
    Option.isNone Prod.fst Prod.snd String.toList String.length String.mk String.data String.isEmpty
    String.Iterator.atEnd String.Iterator.curr String.Iterator.next String.all String.intercalate
    String.iter String.push String.singleton String.splitOn UInt8.xor id max min""".split()
    assert [n for n in required if n not in BUILTINS] == []


# ----------------------------------------------------- signatures and arity


def _type_vars(t: Any) -> set[str]:
    if isinstance(t, TVar):
        return {t.name}
    if isinstance(t, TFun):
        return _type_vars(t.arg) | _type_vars(t.res)
    return set().union(*(_type_vars(a) for a in t.args)) if t.args else set()


def _arrows(t: Any) -> int:
    n = 0
    while isinstance(t, TFun):
        n, t = n + 1, t.res
    return n


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_signature_and_arity(name: str) -> None:
    b = BUILTINS[name]
    assert b.name == name
    assert b.arity == _arrows(b.sig)
    info = PARAMS[name]
    assert len(info.names) == b.arity
    assert 0 <= info.required <= b.arity
    assert len(info.defaults) == b.arity - info.required
    # the implementation takes exactly the explicit arguments (plus the default value)
    n = b.arity + (1 if b.inhabited is not None else 0)
    params = inspect.signature(b.impl).parameters.values()
    assert sum(1 for p in params if p.default is inspect.Parameter.empty) == n
    if b.inhabited is not None:
        assert b.inhabited.name in _type_vars(b.sig)
    # namespace functions take a value of their namespace type somewhere (dot notation needs it)
    ns = name.rsplit(".", 1)[0]
    heads = {"List", "Array", "String", "Char", "Nat", "Int", "Float", "Option", "UInt8"}
    if ns in heads and b.arity > 0:
        assert ns in str(b.sig) or name in {"Char.ofNat", "Int.ofNat", "Int.negSucc", "UInt8.ofNat"}
    if ns == "Prod":
        assert "×" in str(b.sig)


def test_signatures_follow_lean_argument_order() -> None:
    def sig(name: str) -> str:
        return str(BUILTINS[name].sig)

    assert sig("List.foldl") == "(α → β → α) → α → List β → α"
    assert sig("List.foldr") == "(α → β → β) → β → List α → β"
    assert sig("List.take") == "Nat → List α → List α"
    assert sig("List.drop") == "Nat → List α → List α"
    assert sig("List.replicate") == "Nat → α → List α"
    assert sig("List.contains") == "List α → α → Bool"
    assert sig("List.elem") == "α → List α → Bool"
    assert sig("List.count") == "α → List α → Nat"
    assert sig("List.idxOf") == "α → List α → Nat"
    assert sig("List.all") == "List α → (α → Bool) → Bool"
    assert sig("List.flatMap") == "(α → List β) → List α → List β"
    assert sig("Array.mapIdx") == "(Nat → α → β) → Array α → Array β"
    assert sig("Array.set!") == "Array α → Nat → α → Array α"
    assert sig("Array.mkArray") == "Nat → α → Array α"
    assert sig("String.intercalate") == "String → List String → String"
    assert PARAMS["List.range'"].required == 2
    assert PARAMS["List.mergeSort"].required == 1
    assert PARAMS["Std.HashMap.emptyWithCapacity"].required == 0


# --------------------------------------------------- invoke, optional params


def test_invoke_partial_optional_and_over_application() -> None:
    foldl = lookup("Array.foldl")
    assert foldl is not None
    partial = invoke(foldl, [ADD, 0])
    assert isinstance(partial, Fn) and partial.arity == 1
    assert partial((1, 2, 3)) == 6
    assert complete_args("Array.foldl", [ADD, 0, (1, 2)]) == (ADD, 0, (1, 2), 0, 2)
    comp = lookup("Function.comp")
    assert comp is not None
    inc = invoke(comp, [F1(lambda x: x + 1), F1(lambda x: 2 * x)])
    assert inc(5) == 11
    # over-application: `Option.getD o f x` where the option holds a function
    assert invoke(lookup("Option.getD"), [Some(F1(lambda x: x * 3)), F1(lambda x: x), 2]) == 6
    with pytest.raises(TypeError):
        invoke(lookup("List.head!"), [(1,)])  # the inhabited default is mandatory


def test_named_arguments() -> None:
    # nums.foldl (init := []) fun acc n => n :: acc
    slots = bind_named("List.foldl", [F2(lambda acc, n: (n, *acc)), (1, 2, 3)], {"init": ()})
    assert invoke(lookup("List.foldl"), slots) == (3, 2, 1)
    slots = bind_named("Array.foldl", [ADD, 0, (1, 2, 3, 4)], {"start": 2})
    assert slots[3:] == [2, 4]
    assert invoke(lookup("Array.foldl"), slots) == 7
    slots = bind_named("List.range'", [1, 3], {"step": 3})
    assert invoke(lookup("List.range'"), slots) == (1, 4, 7)


def test_proof_parameters_are_optional_and_ignored() -> None:
    assert str(BUILTINS["List.head"].sig) == "List α → Proof → α"
    assert PARAMS["Array.swap"].names == ("xs", "i", "j", "hi", "hj")
    assert run("List.head", (1, 2), "proof") == 1
    assert run("Array.set", (1, 2), 0, 5, "proof") == (5, 2)
    assert run("Array.swap", (1, 2), 0, 1) == (2, 1)
    assert ops.decide_eq((1, "a"), (1, "a")) and not ops.decide_eq(Some(1), None)


def test_errors_for_proof_taking_functions() -> None:
    for name, args in [("List.head", ((),)), ("List.getLast", ((),)), ("Option.get", (None,))]:
        with pytest.raises(EvalError):
            run(name, *args)
    with pytest.raises(EvalError):
        run("Array.set", (1,), 1, 0)
    with pytest.raises(EvalError):
        run("Std.HashMap.get", HMap(), 1)


# ------------------------------------------------------------------- ops


@pytest.mark.parametrize(
    ("a", "b", "q", "r"),
    [
        (7, 2, 3, 1),
        (7, -2, -3, 1),
        (-7, 2, -4, 1),
        (-7, -2, 4, 1),
        (-20, -7, 3, 1),
        (5, 0, 0, 5),
        (-5, 0, 0, -5),
    ],
)
def test_int_ediv_emod(a: int, b: int, q: int, r: int) -> None:
    assert ops.int_div(a, b) == q
    assert ops.int_mod(a, b) == r
    if b:
        assert b * q + r == a and 0 <= r < abs(b)


def test_int_tdiv_fdiv() -> None:
    assert [ops.int_tdiv(a, b) for a, b in [(7, 2), (-7, 2), (7, -2), (-7, -2), (1, 0)]] == [3, -3, -3, 3, 0]
    assert [ops.int_tmod(a, b) for a, b in [(7, 2), (-7, 2), (7, -2), (-7, -2), (1, 0)]] == [1, -1, 1, -1, 1]
    assert [ops.int_fdiv(a, b) for a, b in [(7, -2), (-7, 2), (1, 0)]] == [-4, -4, 0]
    assert [ops.int_fmod(a, b) for a, b in [(7, -2), (-7, 2), (-3, 0)]] == [-1, 1, -3]


def test_nat_ops() -> None:
    assert ops.nat_sub(3, 5) == 0 and ops.nat_sub(5, 3) == 2
    assert ops.nat_div(7, 0) == 0 and ops.nat_mod(7, 0) == 7
    assert ops.nat_pow(3, 4) == 81 and ops.int_pow(-2, 3) == -8
    assert ops.nat_land(6, 3) == 2 and ops.nat_lor(6, 3) == 7 and ops.nat_xor(6, 3) == 5
    assert ops.nat_shiftl(3, 2) == 12 and ops.nat_shiftr(13, 2) == 3
    assert ops.nat_to_string(10**5000).startswith("1000") and len(ops.int_to_string(-(10**5000))) == 5002
    assert ops.str_int("9" * 6000) == 10**6000 - 1


def test_huge_results_hit_the_size_limit_fast() -> None:
    """Each request is refused before any of the result is built: almost no fuel charged and
    almost no memory allocated (the smallest of these results would hold billions of elements)."""
    for thunk in [
        lambda: ops.nat_pow(2, 10**12),
        lambda: ops.nat_shiftl(1, 10**12),
        lambda: run("List.range", 2**53),
        lambda: run("List.replicate", 2**40, 0),
        lambda: run("Array.mkArray", 10**9, 0),
        lambda: run("List.sublists", tuple(range(40))),
        lambda: run("String.pushn", "", "a", 10**10),
    ]:
        with limits.using(limits.Budget()) as budget:
            tracemalloc.start()
            try:
                with pytest.raises(LimitExceeded) as err:
                    thunk()
                _, peak = tracemalloc.get_traced_memory()
            finally:
                tracemalloc.stop()
        assert err.value.kind == "size"
        assert budget.spent <= 1_000, f"{budget.spent} fuel charged before the refusal"
        assert peak < 1 << 20, f"{peak} bytes allocated before the refusal"


def test_uint8_and_char_ops() -> None:
    assert ops.uint8_of_nat(256 + 7) == 7
    assert ops.uint8_add(255, 1) == 0 and ops.uint8_sub(0, 1) == 255 and ops.uint8_mul(20, 20) == 144
    assert ops.uint8_div(9, 0) == 0 and ops.uint8_mod(9, 0) == 9
    assert ops.uint8_xor(255, 15) == 240 and ops.uint8_land(12, 10) == 8 and ops.uint8_lor(12, 10) == 14
    assert (
        ops.char_of_nat(0x41) == "A"
        and ops.char_of_nat(0xDFFF) == "\0"
        and ops.char_of_nat(0x10FFFF) == "\U0010ffff"
    )


def test_float_ops() -> None:
    assert ops.float_div(-1.0, 0.0) == -INF and math.isnan(ops.float_div(NAN, 0.0))
    assert (
        ops.float_add(1.0, 2.0) == 3.0 and ops.float_sub(1.0, 2.0) == -1.0 and ops.float_mul(2.0, 2.0) == 4.0
    )
    assert math.copysign(1.0, ops.float_neg(0.0)) == -1.0
    assert ops.float_pow(10.0, 400.0) == INF and ops.float_pow(-10.0, 401.0) == -INF
    assert ops.float_of_nat(5) == 5.0 and ops.float_of_nat(2**1100) == INF
    assert ops.float_of_int(-(2**53) - 1) == -(2.0**53)
    # Lean literals: a few decimal strings round differently from Python's float()
    assert ops.float_of_literal("0.1") == 0.1 and ops.float_of_literal("3.0") == 3.0
    assert ops.float_of_literal("1e-5") == 1e-5 and ops.float_of_literal("2.5e+3") == 2500.0
    assert ops.float_of_literal("1e400") == INF and ops.float_of_literal("1e-400") == 0.0


@pytest.mark.parametrize(
    ("x", "text"),
    [
        (3.0, "3.000000"),
        (0.1, "0.100000"),
        (-2.5, "-2.500000"),
        (-0.0, "-0.000000"),
        (1e20, "100000000000000000000.000000"),
        (1e-7, "0.000000"),
        (NAN, "NaN"),
        (INF, "inf"),
        (-INF, "-inf"),
        (2.0 / 3.0, "0.666667"),
    ],
)
def test_float_to_string(x: float, text: str) -> None:
    assert ops.float_to_string(x) == text


def test_beq_floats_in_containers() -> None:
    nan = float("nan")
    assert (nan,) == (nan,)  # Python: identity shortcut
    assert not ops.beq((nan,), (nan,))
    assert not ops.beq(Some(nan), Some(nan))
    assert not ops.beq((1, (nan, 2)), (1, (nan, 2)))
    assert ops.beq((1, (0.0, "a")), (1, (-0.0, "a")))
    assert ops.beq(Struct("P", (("x", 1),)), Struct("P", (("x", 1),)))
    assert ops.bne(None, Some(1))
    assert ops.rel_eq(1, 1) and ops.rel_ne(1, 2)


def test_lexicographic_order() -> None:
    assert ops.lex_lt((), (0,)) and not ops.lex_lt((0,), ())
    assert ops.lex_lt((1, 2), (1, 3)) and ops.lex_lt((1, 2), (1, 2, 0)) and not ops.lex_lt((2,), (1, 9))
    assert ops.lex_le((1, 2), (1, 2)) and not ops.lex_le((1, 3), (1, 2))
    assert ops.lex_lt("ab", "b") and ops.lex_lt("a", "ab") and ops.lex_lt("Z", "a")
    assert ops.lex_lt(False, True) and ops.lex_lt("a", "é")
    assert ops.lex_lt(None, Some(0)) and not ops.lex_lt(Some(0), None) and ops.lex_lt(Some(1), Some(2))
    assert ops.lex_le(None, None) and not ops.lex_le(Some(0), None)
    # incomparable elements (NaN) are skipped as in List.lt, while ≤ on scalars stays IEEE
    assert ops.lex_lt((NAN, 1), (NAN, 2)) and not ops.lex_le(NAN, NAN)
    assert ops.rel_le(1, 1) and ops.rel_lt(1, 2) and ops.rel_ge(2, 1) and ops.rel_gt(2, 1)
    assert ops.lean_max(1, 1) == 1 and ops.lean_min((1,), (0, 5)) == (0, 5)
    # agreement with Python's tuple order on a total order
    for a in [(), (1,), (1, 2), (2,), (1, 1, 1)]:
        for b in [(), (1,), (1, 2), (2,), (1, 1, 1)]:
            assert ops.lex_lt(a, b) == (a < b) and ops.lex_le(a, b) == (a <= b)


def test_lean_repr() -> None:
    def r(t: str, v: Any, **kw: Any) -> str:
        return ops.lean_repr(parse_type(t), v, **kw)

    assert r("List Int", (1, -2)) == "[1, -2]"
    assert r("Array Nat", ()) == "#[]" and r("Array Nat", (1, 2)) == "#[1, 2]"
    assert r("Option Int", Some(-3)) == "some (-3)" and r("Option Nat", None) == "none"
    assert r("Option (Option Nat)", Some(Some(1))) == "some (some 1)"
    assert r("Option (List Nat)", Some((1,))) == "some [1]"
    assert r("Int × Float", (15, 3.0)) == "(15, 3.000000)"
    assert r("Nat × Nat × Nat", (1, (2, 3))) == "(1, 2, 3)"
    assert r("(Nat × Nat) × Nat", ((1, 2), 3)) == "((1, 2), 3)"
    assert r("String", 'a"\\\n\t\x01') == '"a\\"\\\\\\n\\t\\x01"'
    assert r("Char", "'") == "'''" and r("List Char", ("a",)) == "['a']"
    assert r("Bool", True) == "true" and r("Unit", ()) == "()"
    assert r("Option Float", Some(-1.5)) == "some (-1.500000)" and r("Float", -1.5) == "-1.500000"
    assert r("List Float", (3.0, NAN), float_format="literal") == "[3.0, (0.0 / 0.0)]"
    assert r("Option Float", Some(-2.0), float_format="literal") == "some (-2.0)"
    hm = TCon("Std.HashMap", (parse_type("Nat"), parse_type("String")))
    assert ops.lean_repr(hm, HMap([(1, "a")])) == 'Std.HashMap.ofList [(1, "a")]'
    assert ops.lean_repr(TCon("Option", (TCon("Std.HashSet", (parse_type("Nat"),)),)), Some(HSet([2]))) == (
        "some (Std.HashSet.ofList [2])"
    )
    m = Struct("Map", (("entries", ((1, 10),)),))
    assert ops.lean_repr(TCon("Map"), m) == "{ entries := [[1, 10]] }"  # untyped fields: tuples as lists
    assert ops.lean_repr(TCon("Map"), m, struct_fields={"Map": (parse_type("List (Int × Int)"),)}) == (
        "{ entries := [(1, 10)] }"
    )
    assert ops.string_quote("") == '""' and ops.char_quote("\x7f") == "'\\x7f'"


def test_lean_to_string() -> None:
    def s(t: str, v: Any) -> str:
        return ops.lean_to_string(parse_type(t), v)

    assert s("Int", -3) == "-3" and s("List Int", (-3, 4)) == "[-3, 4]"
    assert s("Option Nat", Some(2)) == "(some 2)" and s("Option Nat", None) == "none"
    assert s("Array String", ("a", "b")) == "#[a, b]"
    assert s("Nat × (Nat × Nat)", (1, (2, 3))) == "(1, (2, 3))"
    assert s("Char", "x") == "x" and s("Float", 0.5) == "0.500000" and s("Bool", False) == "false"
    with pytest.raises(TypeError):
        ops.lean_to_string(TVar("α"), 1)


# --------------------------------------------------------------- strings


def _python_split(s: str, sep: str) -> list[str]:
    return [s] if sep == "" else s.split(sep)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab ", max_size=12), st.text(alphabet="ab ", max_size=3))
def test_split_on_agrees_with_python_split(s: str, sep: str) -> None:
    """Lean 4.18's restart-after-partial-match algorithm finds the leftmost non-overlapping matches."""
    assert split_on(s, sep) == _python_split(s, sep)


def test_string_iterator_loop_like_verina_basic_61() -> None:
    def all_digits(s: str) -> bool:
        it = run("String.iter", s)
        while not run("String.Iterator.atEnd", it):
            if not run("Char.isDigit", run("String.Iterator.curr", it)):
                return False
            it = run("String.Iterator.next", it)
        return True

    assert all_digits("12345") and all_digits("") and not all_digits("12a4")


# ------------------------------------------------------------------ misc


def test_is_prime() -> None:
    small = [n for n in range(200) if is_prime(n)]
    assert small == [n for n in range(2, 200) if all(n % d for d in range(2, n))]
    assert is_prime(2**61 - 1) and is_prime(2**89 - 1) and is_prime(2**127 - 1)
    assert not is_prime(561) and not is_prime(3_215_031_751) and not is_prime((2**61 - 1) * (2**89 - 1))
    assert not is_prime(6**55) and not is_prime(3_317_044_064_679_887_385_961_981)


def test_merge_sort_is_stable_and_matches_lean_split() -> None:
    pairs = tuple((k, i) for i, k in enumerate([3, 1, 3, 2, 1, 3, 2]))
    by_key = F2(lambda a, b: a[0] <= b[0])
    assert run("List.mergeSort", pairs, by_key) == tuple(sorted(pairs, key=lambda p: p[0]))
    # a non-total "≤" exposes the algorithm: merge takes from the left run when le x y
    assert run("List.mergeSort", (1, 2, 3), F2(lambda a, b: False)) == (3, 2, 1)


def test_pairwise_native_fast_path_on_sublists(monkeypatch: pytest.MonkeyPatch) -> None:
    """``(· ≤ ·)`` and ``(· ≠ ·)`` take the linear path: at most ``len - 1`` element comparisons per
    list (the generic pairwise loop would make ``len·(len-1)/2``, 4x more over these sublists)."""
    xs = tuple(range(16, 0, -1))
    subs = run("List.sublists", xs)
    assert len(subs) == 2**16
    compared = [0]
    lex_le, beq = ops.lex_le, ops.beq

    def counted_le(a: Any, b: Any) -> bool:
        compared[0] += 1
        return lex_le(a, b)

    def counted_beq(a: Any, b: Any) -> bool:
        compared[0] += 1
        return beq(a, b)

    # rel_le / rel_ne reach these through ops' globals, so every element comparison is counted
    monkeypatch.setattr(ops, "lex_le", counted_le)
    monkeypatch.setattr(ops, "beq", counted_beq)
    linear = sum(max(len(s) - 1, 0) for s in subs)
    sorted_count = sum(1 for s in subs if run("List.Pairwise", LE, s))
    assert sorted_count == 17  # [] and the 16 singletons of a decreasing list
    assert compared[0] <= linear
    compared[0] = 0
    assert sum(1 for s in subs if run("List.Pairwise", NE, s)) == 2**16
    assert compared[0] <= linear


def test_default_values_drive_bang_functions() -> None:
    assert run("List.head!", (), default=default_value(parse_type("Char"))) == "A"
    assert run("Array.back!", (), default=default_value(parse_type("Option Nat"))) is None
    assert run("List.getLast!", (), default=default_value(parse_type("Int × String"))) == (0, "")


# ----------------------------------------------- coverage of Verina's usage

_KEEP = {"precond", "precond_aux", "code", "code_aux", "postcond", "postcond_aux", "solution_aux", "task_aux"}
_SECTION = re.compile(r"-- !benchmark @start (\S+)[^\n]*\n(.*?)-- !benchmark @end \1", re.S)
_QUALIFIED = re.compile(
    r"(?<![\w.])((?:Std\.)?(?:List|Array|String|Nat|Int|Char|Float|Option|Prod|UInt8|HashMap|HashSet)"
    r"\.[A-Za-z_][\w!?']*(?:\.[A-Za-z_][\w!?']*)*)"
)
_METHOD = re.compile(r"[\w)\]!?']\.([a-z][\w!?']*)")

# What the tasks use that is not a library function:
EXPECTED_QUALIFIED_GAPS = {
    "Nat.div_lt_self",  # proof lemmas inside `have` in code
    "Nat.lt_of_succ_le",
    "Nat.succ_le_of_lt",
    "String.Iterator",  # a type annotation (`it : String.Iterator`)
}
EXPECTED_METHOD_GAPS = {
    "div_lt_self",
    "lt_of_succ_le",
    "succ_le_of_lt",
    "entries",  # field of the user structure `Map` (verina_basic_104)
    "run",  # `Id.run`, handled by the evaluator
}


def test_verina_library_names_are_registered(verina_dir: pathlib.Path) -> None:
    last_names = {n.rsplit(".", 1)[-1] for n in BUILTINS}
    gaps_q: set[str] = set()
    gaps_m: set[str] = set()
    for path in sorted(verina_dir.glob("*/task.lean")):
        text = path.read_text(encoding="utf-8")
        body = "\n".join(m.group(2) for m in _SECTION.finditer(text) if m.group(1) in _KEEP)
        body = re.sub(r"--[^\n]*", "", body)
        body = re.sub(r'"(?:[^"\\]|\\.)*"', '""', body)
        user = set(re.findall(r"(?:def|theorem|axiom|abbrev)\s+([\w.!?']+)", body))
        user |= set(re.findall(r"let rec\s+([\w!?']+)", body))
        user_short = {u.rsplit(".", 1)[-1] for u in user}
        for name in _QUALIFIED.findall(body):
            full = "Std." + name if name.startswith(("HashMap.", "HashSet.")) else name
            if name not in user and full not in BUILTINS:
                gaps_q.add(name)
        for meth in _METHOD.findall(body):
            if meth not in last_names and meth not in user_short:
                gaps_m.add(meth)
    assert gaps_q == EXPECTED_QUALIFIED_GAPS
    assert gaps_m == EXPECTED_METHOD_GAPS
