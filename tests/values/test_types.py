"""Type strings: every signature type of Verina and VerinaPlus parses; spelling variants agree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared_data import require
from veriscale.values.structs import parse_structures, struct_arities
from veriscale.values.types import (
    BOOL,
    CHAR,
    FLOAT,
    INT,
    NAT,
    STRING,
    UINT8,
    TCon,
    TFun,
    TypeParseError,
    array_of,
    hashmap_of,
    list_of,
    option_of,
    parse_type,
    prod_of,
    render_type,
)


def _dataset(name: str) -> Path:
    return require(name)


def _signature_types(name: str) -> list[tuple[str, str, dict[str, int]]]:
    out = []
    for task in sorted(_dataset(name).iterdir()):
        if not (task / "task.json").exists():
            continue
        tj = json.loads((task / "task.json").read_text(encoding="utf-8"))
        structs = struct_arities(parse_structures((task / "task.lean").read_text(encoding="utf-8")))
        sig = tj["signature"]
        for p in sig["parameters"]:
            out.append((task.name, p["param_type"], structs))
        out.append((task.name, sig["return_type"], structs))
    return out


@pytest.mark.parametrize("dataset", ["verina", "verinaplus"])
def test_every_signature_type_parses(dataset: str) -> None:
    seen: set[str] = set()
    for task, text, structs in _signature_types(dataset):
        t = parse_type(text, structs=structs)
        # the canonical rendering parses back to the same type
        assert parse_type(render_type(t), structs=structs) == t, (task, text)
        seen.add(text)
    assert len(seen) == 38  # 21 parameter + 29 return type strings, 38 distinct (reference §2)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("List (Int)", "List Int"),
        ("(Int × Int)", "Int × Int"),
        ("Prod Nat Nat", "Nat × Nat"),
        ("(Nat × Nat)", "Prod Nat Nat"),
        ("List (Prod Int Int)", "List (Int × Int)"),
        ("Int -> Bool", "Int → Bool"),
        ("HashMap Int Int", "Std.HashMap Int Int"),
        ("(List Nat × List Nat)", "Prod (List Nat) (List Nat)"),
    ],
)
def test_spelling_variants_are_equal(a: str, b: str) -> None:
    assert parse_type(a) == parse_type(b)


def test_parsed_shapes() -> None:
    assert parse_type("Option (List Nat)") == option_of(list_of(NAT))
    assert parse_type("Array (Array Int)") == array_of(array_of(INT))
    assert parse_type("Std.HashMap Int Int") == hashmap_of(INT, INT)
    assert parse_type("Int -> Bool") == TFun(INT, BOOL)
    assert parse_type("UInt8 × UInt8") == prod_of(UINT8, UINT8)
    assert parse_type("Int × Float") == prod_of(INT, FLOAT)
    assert parse_type("List (Char × Nat)") == list_of(prod_of(CHAR, NAT))
    assert parse_type("List String") == list_of(STRING)
    assert parse_type("Int × Int × Int") == prod_of(INT, prod_of(INT, INT))
    assert parse_type("Map Int Int", structs={"Map": 2}) == TCon("Map", (INT, INT))


@pytest.mark.parametrize("text", ["Foo", "List Foo", "Map Int Int", "", "List", "(Int", "Int ×", "Int $ Nat"])
def test_bad_types_raise(text: str) -> None:
    with pytest.raises(TypeParseError):
        parse_type(text)


def test_unknown_type_error_names_it() -> None:
    with pytest.raises(TypeParseError, match="Foo"):
        parse_type("List Foo")
