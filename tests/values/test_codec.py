"""The values codec: round trips (hypothesis), strict errors with locations, canonical keys, real data."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_data import require
from veriscale.values.codec import (
    DecodeError,
    ValueContext,
    decode,
    decode_lean,
    encode_lean,
    key,
    parse_structures,
    to_json,
    values_equal,
)
from veriscale.values.literal import LiteralError, parse_literal
from veriscale.values.runtime import HMap, HSet, LeanSource, Some, Struct
from veriscale.values.types import (
    BOOL,
    CHAR,
    FLOAT,
    INT,
    NAT,
    STRING,
    UINT8,
    UNIT,
    TCon,
    Type,
    array_of,
    fun_of,
    hashmap_of,
    hashset_of,
    list_of,
    option_of,
    parse_type,
    prod_of,
)

MAP_DECL = """
structure Map (K V : Type) [BEq K] [BEq V] where
  entries : List (K × V)
deriving Inhabited
"""
STRUCTS = parse_structures(MAP_DECL)


def map_of(k: Type, v: Type) -> TCon:
    return TCon("Map", (k, v))


# ---------------------------------------------------------------- strategies

chars = st.characters(exclude_categories=("Cs",))  # every Unicode scalar value
texts = st.text(alphabet=chars, max_size=12) | st.sampled_from(['a"b', "a\\b", "x\ny\tz\r", "'", "é𝄞😀", ""])
LAMBDAS = ["fun x => x > 5", "fun (a, b) => a + b", "λ x => [x, x]", 'fun s => s ++ "]"', "(· + 1)"]

SCALARS: dict[Type, st.SearchStrategy[Any]] = {
    NAT: st.integers(min_value=0) | st.just(10**5000),
    INT: st.integers() | st.just(-(10**4400)),
    UINT8: st.integers(min_value=0, max_value=255),
    BOOL: st.booleans(),
    FLOAT: st.floats(allow_nan=True, allow_infinity=True),
    CHAR: chars,
    STRING: texts,
    UNIT: st.just(()),
}
KEYABLE = [NAT, INT, BOOL, CHAR, STRING]


def types() -> st.SearchStrategy[Type]:
    base = st.sampled_from(list(SCALARS))

    def extend(inner: st.SearchStrategy[Type]) -> st.SearchStrategy[Type]:
        return st.one_of(
            inner.map(list_of),
            inner.map(array_of),
            inner.map(option_of),
            st.tuples(inner, inner).map(lambda ab: prod_of(*ab)),
            st.tuples(st.sampled_from(KEYABLE), inner).map(lambda kv: hashmap_of(*kv)),
            st.sampled_from(KEYABLE).map(hashset_of),
            st.tuples(st.sampled_from(KEYABLE), inner).map(lambda kv: map_of(*kv)),
            st.just(fun_of(INT, BOOL)),
        )

    return st.recursive(base, extend, max_leaves=6)


def values(t: Type) -> st.SearchStrategy[Any]:
    if t in SCALARS:
        return SCALARS[t]
    if not isinstance(t, TCon):
        return st.sampled_from(LAMBDAS).map(LeanSource)
    name, args = t.name, t.args
    if name in ("List", "Array"):
        return st.lists(values(args[0]), max_size=4).map(tuple)
    if name == "Option":
        return st.none() | values(args[0]).map(Some)
    if name == "Prod":
        return st.tuples(values(args[0]), values(args[1]))
    if name == "Std.HashMap":
        return st.lists(st.tuples(values(args[0]), values(args[1])), max_size=4).map(HMap)
    if name == "Std.HashSet":
        return st.lists(values(args[0]), max_size=4).map(HSet)
    if name == "Map":
        entries = st.lists(st.tuples(values(args[0]), values(args[1])), max_size=3).map(tuple)
        return entries.map(lambda es: Struct("Map", (("entries", es),)))
    raise AssertionError(t)


typed_values = types().flatmap(lambda t: st.tuples(st.just(t), values(t)))
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def same(t: Type, a: Any, b: Any) -> bool:
    """Equality that also holds for NaN floats (compared through the canonical key)."""
    return key(t, a, structs=STRUCTS) == key(t, b, structs=STRUCTS)


# ---------------------------------------------------------------- properties


@SETTINGS
@given(typed_values)
def test_encode_lean_then_decode_lean_is_identity(tv: tuple[Type, Any]) -> None:
    t, v = tv
    text = encode_lean(t, v, structs=STRUCTS)
    back = decode_lean(t, text, structs=STRUCTS)
    assert same(t, back, v)
    assert values_equal(t, back, v) or _has_nan(back)


@SETTINGS
@given(typed_values)
def test_encode_lean_then_decode_is_identity_below_top_level_strings(tv: tuple[Type, Any]) -> None:
    t, v = tv
    if t in (STRING, CHAR):  # dataset convention: a top-level String/Char is stored bare
        assert decode(t, v) == v
        return
    assert same(t, decode(t, encode_lean(t, v, structs=STRUCTS), structs=STRUCTS), v)


@SETTINGS
@given(typed_values)
def test_to_json_then_decode_is_identity(tv: tuple[Type, Any]) -> None:
    t, v = tv
    stored = json.loads(json.dumps(to_json(t, v, structs=STRUCTS), ensure_ascii=False))
    assert same(t, decode(t, stored, structs=STRUCTS), v)


@SETTINGS
@given(typed_values)
def test_key_is_stable_and_type_qualified(tv: tuple[Type, Any]) -> None:
    t, v = tv
    k = key(t, v, structs=STRUCTS)
    assert k == key(t, decode_lean(t, encode_lean(t, v, structs=STRUCTS), structs=STRUCTS), structs=STRUCTS)
    assert k.startswith(str(t))


def _has_nan(v: Any) -> bool:
    if isinstance(v, float):
        return math.isnan(v)
    if isinstance(v, tuple):
        return any(_has_nan(x) for x in v)
    if isinstance(v, Some):
        return _has_nan(v.val)
    if isinstance(v, HMap):
        return any(_has_nan(x) for kv in v.items() for x in kv)
    if isinstance(v, Struct):
        return any(_has_nan(x) for _, x in v.fields)
    return False


# ---------------------------------------------------------------- dataset conventions


@pytest.mark.parametrize(
    ("type_text", "raw", "value"),
    [
        ("List Int", "[1, -2]", (1, -2)),
        ("List Int", [1, -2], (1, -2)),
        ("Array Int", "#[1, 2, 3]", (1, 2, 3)),
        ("Array Int", "#[(1 : Int), (2:Int)]", (1, 2)),
        ("Array Char", "#['a','b']", ("a", "b")),
        ("List String", '["a", "b\\"c"]', ("a", 'b"c')),
        ("List (List Nat)", [[1, 2], []], ((1, 2), ())),
        ("Option Nat", "some (1)", Some(1)),
        ("Option Int", "some 2", Some(2)),
        ("Option Int", "some (-1)", Some(-1)),
        ("Option Char", "some ('a')", Some("a")),
        ("Option (Nat × Nat)", "none", None),
        ("(Int × Int)", "(-1, 0)", (-1, 0)),
        ("Int × Float", "(15, 3.000000)", (15, 3.0)),
        ("(Array Int × Bool)", "(#[0, 1], false)", ((0, 1), False)),
        ("List (Char × Nat)", "[('\\x0d', 1), ('\\n', 2), ('\\\"', 3)]", (("\r", 1), ("\n", 2), ('"', 3))),
        ("Nat", "2", 2),
        ("Int", "-5", -5),
        ("Int", 6285195213566005335561053533150026217291776, 6285195213566005335561053533150026217291776),
        ("Bool", "true", True),
        ("Bool", False, False),
        ("Float", 1.5, 1.5),
        ("Float", -1, -1.0),
        ("Float", "1e-09", 1e-09),
        ("String", "No 'x' in Nixon", "No 'x' in Nixon"),
        ("String", '"quoted"', '"quoted"'),  # a String is taken verbatim, never unquoted
        ("Char", ",", ","),
        ("UInt8", 255, 255),
        ("Int -> Bool", "fun x => x > 5", LeanSource("fun x => x > 5")),
        ("Std.HashMap Int Int", "Std.HashMap.ofList [(1, 2)]", HMap([(1, 2)])),
    ],
)
def test_decode_dataset_spellings(type_text: str, raw: Any, value: Any) -> None:
    assert decode(parse_type(type_text), raw) == value


def test_float_specials() -> None:
    vals = decode(list_of(FLOAT), "[Float.nan, Float.inf, -Float.inf, 1.0]")
    assert math.isnan(vals[0]) and vals[1] == math.inf and vals[2] == -math.inf and vals[3] == 1.0
    assert encode_lean(list_of(FLOAT), vals) == "[(0.0/0.0), (1.0/0.0), (-1.0/0.0), 1.0]"
    assert encode_lean(FLOAT, 1e-09) == "1e-09" and encode_lean(FLOAT, 1e16) == "1e16"
    assert to_json(FLOAT, math.inf) == "(1.0/0.0)" and to_json(FLOAT, 2.5) == 2.5


def test_structures_from_task_text() -> None:
    t = map_of(INT, INT)
    v = decode(t, "⟨[(1, 10), (2, 20)]⟩", structs=STRUCTS)
    assert v == Struct("Map", (("entries", ((1, 10), (2, 20))),))
    assert decode(t, "{ entries := [(1, 10), (2, 20)] }", structs=STRUCTS) == v
    assert decode(t, "Map.mk [(1, 10), (2, 20)]", structs=STRUCTS) == v
    assert encode_lean(t, v, structs=STRUCTS) == "{ entries := [(1, 10), (2, 20)] }"
    assert STRUCTS["Map"].params == ("K", "V")
    with pytest.raises(DecodeError, match="unknown type Map"):
        decode(t, "⟨[]⟩")


def test_encoding_escapes_like_lean() -> None:
    assert encode_lean(STRING, 'a"b\\c\nd\te\rf\x00é😀') == '"a\\"b\\\\c\\nd\\te\\x0df\\x00é😀"'
    assert encode_lean(CHAR, "'") == "'\\''"
    assert encode_lean(CHAR, '"') == "'\\\"'"
    assert encode_lean(STRING, "it's") == '"it\'s"'
    assert encode_lean(list_of(INT), (-3, 2)) == "[-3, 2]"
    assert encode_lean(option_of(INT), Some(-3)) == "some (-3)"
    assert encode_lean(prod_of(INT, prod_of(NAT, BOOL)), (1, (2, True))) == "(1, 2, true)"
    assert encode_lean(array_of(STRING), ("a",)) == '#["a"]'


def test_keys_agree_across_spellings() -> None:
    t = list_of(INT)
    assert key(t, decode(t, [1, 2])) == key(t, decode(t, "[1, 2]")) == key(t, decode(t, "[1,2]"))
    assert key(NAT, decode(NAT, "2")) == key(NAT, decode(NAT, 2))
    assert key(BOOL, decode(BOOL, "true")) == key(BOOL, decode(BOOL, True))
    assert key(option_of(NAT), decode(option_of(NAT), "some 1")) == key(
        option_of(NAT), decode(option_of(NAT), "some (1)")
    )
    m = hashmap_of(INT, INT)
    assert key(m, HMap([(1, 2), (3, 4)])) == key(m, HMap([(3, 4), (1, 2)]))
    # the type is part of the key
    assert key(list_of(INT), (1,)) != key(list_of(NAT), (1,))


# ---------------------------------------------------------------- strictness


@pytest.mark.parametrize(
    ("type_text", "raw", "reason"),
    [
        ("Char", "ab", "Char is not one character"),
        ("Char", "", "Char is not one character"),
        ("UInt8", 256, "UInt8 out of range"),
        ("UInt8", "-1", "UInt8 out of range"),
        ("Nat", -1, "Nat is negative"),
        ("List Int", "[1, 2", "malformed List Int literal"),
        ("Array Char", "#[]_x", "malformed Array Char literal"),
        ("Array Char", "]'a'[#", "malformed Array Char literal"),
        ("List Int", "#[1]", "array literal given for List Int"),
        ("Array Int", "[1]", "list literal given for Array Int"),
        ("Int", True, "JSON bool given for Int"),
        ("Int", 1.5, "JSON float given for Int"),
        ("Bool", 1, "JSON integer given for Bool"),
        ("Bool", "True", "identifier given for Bool"),
        ("Int", "some 1", "application given for Int"),
        ("Array Int", "#[1 + 2]", "arithmetic expression given for Int"),
        ("List (Char × Nat)", "[(''', 2)]", "malformed List (Char × Nat) literal"),
        ("List String", '["\\u{41}"]', "malformed List String literal"),
        ("List String", '["\\0"]', "malformed List String literal"),
        ("String", "a\ud800", "String contains a lone surrogate"),
        ("Int × Int", "(1, 2, 3)", "3-component tuple given for Int × Int"),
        ("Option Int", "some -1", "arithmetic expression given for Option Int"),
        ("Array Int", "#[(1 : Nat)]", "type ascription does not match Int"),
        ("List Nat", None, "JSON null given for List Nat"),
    ],
)
def test_strict_errors(type_text: str, raw: Any, reason: str) -> None:
    with pytest.raises(DecodeError) as info:
        decode(parse_type(type_text), raw)
    assert info.value.reason == reason


def test_error_names_its_location() -> None:
    ctx = ValueContext(
        dataset="verinaplus", task="verina_basic_16", file="test.json", row=45, field="input.newChar"
    )
    with pytest.raises(DecodeError) as info:
        decode(CHAR, "; 1", ctx=ctx)
    err = info.value
    assert (err.dataset, err.task, err.file, err.row, err.field, err.text) == (
        "verinaplus",
        "verina_basic_16",
        "test.json",
        45,
        "input.newChar",
        "; 1",
    )
    msg = str(err)
    for part in (
        "verinaplus",
        "verina_basic_16",
        "test.json",
        "row 45",
        "input.newChar",
        "'; 1'",
        "Char is not one",
    ):
        assert part in msg
    assert isinstance(err, ValueError)


# ---------------------------------------------------------------- literal parser details


def test_literal_escapes_follow_lean() -> None:
    assert decode_lean(STRING, '"\\u03B1\\x41\\t"') == "αA\t"
    assert decode_lean(STRING, '"ab\\\n    cd"') == "abcd"  # string gap
    with pytest.raises(LiteralError):
        parse_literal('"\\u03B"')
    with pytest.raises(LiteralError):
        parse_literal("'ab'")
    with pytest.raises(LiteralError):
        parse_literal("[1, 2,]")


def test_lambdas_are_kept_as_source_inside_containers() -> None:
    t = list_of(fun_of(INT, INT))
    v = decode(t, '[fun x => x + 1, fun (a) => (a, ","), λ y => y]')
    assert v == (LeanSource("fun x => x + 1"), LeanSource('fun (a) => (a, ",")'), LeanSource("λ y => y"))
    assert decode(fun_of(INT, BOOL), "(· > 5)") == LeanSource("(· > 5)")


def test_huge_numbers_round_trip() -> None:
    n = 7**9000  # > 4300 digits: beyond CPython's default int/str conversion limit
    text = encode_lean(NAT, n)
    assert decode(NAT, text) == n and decode_lean(list_of(INT), f"[-{text}]") == (-n,)
    stored = to_json(INT, -n)  # too long for a JSON number in Python: stored as a digit string
    assert decode(INT, json.loads(json.dumps(stored))) == -n
    assert to_json(INT, 10**20) == 10**20


# ---------------------------------------------------------------- real data


def test_all_verina_values_decode() -> None:
    from veriscale.formats.check_data import check_dataset

    root = require("verina")
    report = check_dataset(root)
    assert report.tasks == 189
    assert report.failures == []
    assert report.values == 5305
