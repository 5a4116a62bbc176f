"""Rust types in the shared type model, and the Rust value codec."""

from __future__ import annotations

import pytest

from veriscale.values import rust_codec
from veriscale.values.codec import DecodeError
from veriscale.values.runtime import Some, Struct
from veriscale.values.rust_types import parse_rust_type, render_rust_type, value_type
from veriscale.values.types import UNIT, TCon, TypeParseError

I32 = TCon("i32")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("i32", I32),
        ("Vec<i32>", TCon("Vec", (I32,))),
        ("Vec<Vec<i64>>", TCon("Vec", (TCon("Vec", (TCon("i64"),)),))),
        ("(i64, bool)", TCon("Tuple", (TCon("i64"), TCon("bool")))),
        (
            "Option<(Vec<i64>, i64)>",
            TCon("Option", (TCon("Tuple", (TCon("Vec", (TCon("i64"),)), TCon("i64"))),)),
        ),
        ("&[u8]", TCon("Ref", (TCon("Slice", (TCon("u8"),)),))),
        ("&Vec<i32>", TCon("Ref", (TCon("Vec", (I32,)),))),
        ("&str", TCon("Ref", (TCon("str"),))),
        ("&mut Vec<Vec<i32>>", TCon("RefMut", (TCon("Vec", (TCon("Vec", (I32,)),)),))),
        ("()", UNIT),
        ("Seq<int>", TCon("Seq", (TCon("int"),))),
        ("std::vec::Vec<u128>", TCon("Vec", (TCon("u128"),))),
        ("(i32,)", TCon("Tuple", (I32,))),
        ("(i32)", I32),
    ],
)
def test_parse_rust_type(text: str, expected: TCon) -> None:
    assert parse_rust_type(text) == expected


@pytest.mark.parametrize("text", ["Vec<i32", "Vec<i32, i32>", "i32<u8>", "[i32; 4]", "Option", ""])
def test_parse_rust_type_rejects(text: str) -> None:
    with pytest.raises(TypeParseError):
        parse_rust_type(text)


@pytest.mark.parametrize(
    "text", ["Vec<(i64, bool)>", "&[u8]", "()", "Option<Vec<u32>>", "&mut Vec<i32>", "(i32,)"]
)
def test_render_round_trip(text: str) -> None:
    t = parse_rust_type(text)
    assert parse_rust_type(render_rust_type(t)) == t


def test_value_type_strips_borrows() -> None:
    assert value_type(parse_rust_type("&[i32]")) == parse_rust_type("Vec<i32>")
    assert value_type(parse_rust_type("&str")) == parse_rust_type("String")
    assert value_type(parse_rust_type("&Vec<Vec<u8>>")) == parse_rust_type("Vec<Vec<u8>>")


def test_decode_strict_ranges() -> None:
    assert rust_codec.decode(I32, 2**31 - 1) == 2**31 - 1
    with pytest.raises(DecodeError, match="i32 out of range"):
        rust_codec.decode(I32, 2**31)
    with pytest.raises(DecodeError, match="u64 out of range"):
        rust_codec.decode(TCon("u64"), -1)
    assert rust_codec.decode(TCon("u128"), 2**128 - 1) == 2**128 - 1
    with pytest.raises(DecodeError):
        rust_codec.decode(I32, True)
    with pytest.raises(DecodeError):
        rust_codec.decode(I32, 1.0)
    with pytest.raises(DecodeError, match="nat is negative"):
        rust_codec.decode(TCon("nat"), -3)


def test_decode_shapes() -> None:
    t = parse_rust_type("Vec<(i64, bool)>")
    assert rust_codec.decode(t, [[1, True], [-2, False]]) == ((1, True), (-2, False))
    with pytest.raises(DecodeError, match="3-component array given for 2-tuple"):
        rust_codec.decode(t, [[1, True, 3]])
    assert rust_codec.decode(parse_rust_type("Vec<char>"), "abc") == ("a", "b", "c")
    assert rust_codec.decode(parse_rust_type("Vec<char>"), ["a", "b"]) == ("a", "b")
    with pytest.raises(DecodeError, match="char is not one character"):
        rust_codec.decode(TCon("char"), "ab")
    assert rust_codec.decode(parse_rust_type("Option<i32>"), None) is None
    assert rust_codec.decode(parse_rust_type("Option<i32>"), 4) == Some(4)
    assert rust_codec.decode(UNIT, None) == ()
    assert rust_codec.decode(parse_rust_type("&[u8]"), [0, 255]) == (0, 255)
    with pytest.raises(DecodeError, match="u8 out of range"):
        rust_codec.decode(parse_rust_type("&[u8]"), [256])


def test_decode_struct() -> None:
    structs = {"MountainArray": [("data", parse_rust_type("Vec<i32>"))]}
    v = rust_codec.decode(TCon("MountainArray"), {"data": [1, 2]}, structs=structs)
    assert v == Struct("MountainArray", (("data", (1, 2)),))
    with pytest.raises(DecodeError, match="fields of struct MountainArray do not match"):
        rust_codec.decode(TCon("MountainArray"), {"dat": [1]}, structs=structs)
    assert rust_codec.to_json(TCon("MountainArray"), v, structs=structs) == {"data": [1, 2]}


@pytest.mark.parametrize(
    ("text", "raw"),
    [
        ("Vec<Vec<i32>>", [[1, -2], []]),
        ("Option<(Vec<i64>, i64)>", [[1, 2], 3]),
        ("Option<(Vec<i64>, i64)>", None),
        ("String", 'a"b\\c'),
        ("Vec<char>", "xyz"),
        ("(usize, usize, usize, usize)", [1, 2, 3, 4]),
        ("Vec<bool>", [True, False]),
    ],
)
def test_json_round_trip(text: str, raw: object) -> None:
    t = parse_rust_type(text)
    assert rust_codec.to_json(t, rust_codec.decode(t, raw)) == raw


@pytest.mark.parametrize(
    ("text", "raw"),
    [
        ("Vec<i32>", [3, -1, 2]),
        ("&[u64]", [0, 18446744073709551615]),
        ("Vec<String>", ["a", ""]),
        ("Vec<Box<char>>", ["x", "y"]),
        ("Vec<&str>", ["p", "q"]),
        ("Vec<Vec<u8>>", [[1], [], [2, 3]]),
        ("Vec<(i32, bool)>", [[1, True]]),
    ],
)
def test_json_of_sequences_is_a_fresh_list_of_the_elements(text: str, raw: object) -> None:
    # a sequence of scalars is converted in one step (no call per element): still a new JSON list equal to
    # the element-by-element conversion, whose mutation leaves the runtime value alone
    t = parse_rust_type(text)
    v = rust_codec.decode(value_type(t), raw)
    got = rust_codec.to_json(t, v)
    assert got == raw and type(got) is list
    got.append(0)
    assert rust_codec.to_json(t, v) == raw


def test_encode_rust_literals() -> None:
    assert rust_codec.encode_rust(parse_rust_type("Vec<i32>"), (1, -2)) == "vec![1, -2]"
    assert rust_codec.encode_rust(parse_rust_type("Vec<i64>"), (1,), typed=True) == "vec![1i64]"
    assert rust_codec.encode_rust(TCon("String"), 'a"\n') == 'String::from("a\\"\\n")'
    assert rust_codec.encode_rust(TCon("char"), "'") == "'\\''"
    assert rust_codec.encode_rust(parse_rust_type("&[u8]"), (1, 2)) == "&[1, 2]"
    assert rust_codec.encode_rust(parse_rust_type("&str"), "hi") == '"hi"'
    assert (
        rust_codec.encode_rust(parse_rust_type("Option<(i32, bool)>"), Some((1, True))) == "Some((1, true))"
    )
    assert rust_codec.encode_rust(parse_rust_type("(i32,)"), (5,)) == "(5,)"
    assert rust_codec.encode_rust(UNIT, ()) == "()"


def test_key_ignores_borrows_and_separates_types() -> None:
    v = (1, 2)
    assert rust_codec.key(parse_rust_type("&Vec<i32>"), v) == rust_codec.key(parse_rust_type("Vec<i32>"), v)
    assert rust_codec.key(parse_rust_type("Vec<i32>"), v) != rust_codec.key(parse_rust_type("Vec<i64>"), v)
    assert rust_codec.key(parse_rust_type("Vec<i32>"), v) == "Vec<i32> ∋ vec![1, 2]"
