"""Extraction of structured items from model answers, including the awkward cases."""

from __future__ import annotations

from veriscale.llm.extract import (
    extract_adversarial,
    extract_decomposition,
    extract_json_array,
    extract_json_object,
    extract_lean,
    extract_seed_inputs,
    extract_spec,
    fenced_blocks,
    forbidden_constructs,
    rename_indexed,
)


def test_plain_array() -> None:
    ex = extract_json_array('[{"input": {"a": 1}}]')
    assert not ex.malformed and ex.items == [{"input": {"a": 1}}] and ex.notes == []


def test_array_in_fence_with_prose() -> None:
    text = "Sure! Here you go:\n```json\n[1, 2, 3]\n```\nHope that helps [really]."
    assert extract_json_array(text).items == [1, 2, 3]


def test_array_in_prose_with_bracketed_words() -> None:
    text = 'Inputs [as requested] follow: [{"x": [1, 2]}, {"x": []}] and that is all [end]'
    assert extract_json_array(text).items == [{"x": [1, 2]}, {"x": []}]


def test_largest_of_several_arrays_wins() -> None:
    text = "For example [1] is small. Answer: [[1], [2], [3]]"
    ex = extract_json_array(text)
    assert ex.items == [[1], [2], [3]] and any("ignored" in n for n in ex.notes)


def test_trailing_commas_repaired() -> None:
    ex = extract_json_array('[{"a": 1,}, {"a": "x,]"},\n]')
    assert ex.items == [{"a": 1}, {"a": "x,]"}] and "removed trailing commas" in ex.notes


def test_truncated_array_salvages_complete_items() -> None:
    text = '```json\n[{"input": {"a": 1}}, {"input": {"a": 2}}, {"input": {"a": '
    ex = extract_json_array(text)
    assert not ex.malformed and ex.items == [{"input": {"a": 1}}, {"input": {"a": 2}}]
    assert any("truncated" in n for n in ex.notes)


def test_truncated_number_is_not_kept() -> None:
    ex = extract_json_array("[10, 20, 3")  # the last number may have been 300
    assert ex.items == [10, 20]
    assert extract_json_array("[1").malformed


def test_no_array_is_malformed() -> None:
    for text in ["", "   ", "I cannot help with that.", '{"a": 1}', "[not json"]:
        ex = extract_json_array(text)
        assert ex.malformed and ex.reason, text


def test_object_extraction() -> None:
    assert extract_json_object('Result:\n```\n{"k": [1, {"z": null}]}\n```').items == {"k": [1, {"z": None}]}
    assert extract_json_object("[1]").malformed


def test_unicode_and_escapes_kept() -> None:
    ex = extract_json_array('[{"s": "你好\\n\\"q\\""}]')
    assert ex.items == [{"s": '你好\n"q"'}]


def test_seed_inputs_normalised_filtered_deduped() -> None:
    text = """```json
[
  {"input": {"a": 1, "b": [1, 2]}},
  {"b": [3], "a": 2},
  {"input": {"a": 1, "b": [1, 2]}},
  {"input": {"a": 3}},
  {"input": {"a": 4, "b": [], "c": 0}},
  7
]
```"""
    ex = extract_seed_inputs(text, ["a", "b"])
    assert not ex.malformed
    assert ex.items == [{"a": 1, "b": [1, 2]}, {"a": 2, "b": [3]}]
    assert list(ex.items[1]) == ["a", "b"]  # parameter order, not answer order
    assert any("dropped 3" in n for n in ex.notes) and any("duplicate" in n for n in ex.notes)
    bad = extract_seed_inputs('[{"input": {"z": 1}}]', ["a"])
    assert bad.malformed and "no usable input" in (bad.reason or "")


def test_fenced_blocks_unclosed_and_tildes() -> None:
    blocks = fenced_blocks("a\n```lean\ndef f := 1\n```\n~~~\nx\n~~~\n```python\nprint(1)")
    assert blocks == [("lean", "def f := 1", True), ("", "x", True), ("python", "print(1)", False)]


def test_extract_lean_prefers_lean_blocks_and_strips_commands() -> None:
    text = "```python\nx=1\n```\n```lean4\ndef f (n : Nat) : Nat := n\n#eval f 3\n```"
    assert extract_lean(text).items == "def f (n : Nat) : Nat := n"
    assert extract_lean("def g := 2").items == "def g := 2"  # no fences: whole answer
    assert extract_lean("").malformed


SPEC = """Here is the spec.
```lean
-- Precondition Implementation
def helper (x : Int) : Bool := x > 0

@[reducible, simp]
def f_precond (x : Int) : Prop :=
  helper x

-- Postcondition Implementation
@[reducible, simp]
def f_postcond (x : Int) (result : Int) (h_precond : f_precond (x)) : Prop :=
  result = x + 1
#check f_postcond
```
"""


def test_extract_spec() -> None:
    ex = extract_spec(SPEC)
    assert not ex.malformed
    assert ex.items["precondition"].startswith("def helper") and "f_precond" in ex.items["precondition"]
    assert ex.items["postcondition"].endswith("result = x + 1")
    assert "#check" not in ex.items["postcondition"]


def test_extract_spec_failures() -> None:
    assert "markers" in (extract_spec("```lean\ndef f := 1\n```").reason or "")
    empty_pre = "```lean\n-- Precondition Implementation\n-- Postcondition Implementation\ndef p := True\n```"
    assert extract_spec(empty_pre).reason == "empty precondition section"
    # Markers outside any fence still work.
    bare = "-- Precondition Implementation\ndef a := True\n-- Postcondition Implementation\ndef b := True"
    assert extract_spec(bare).items == {"precondition": "def a := True", "postcondition": "def b := True"}


ADV = """```lean
-- Adversarial Implementation 1
def f (x : Int) (h_precond : f_precond (x)) : Int :=
  0

-- Adversarial Implementation 2:
def f (x : Int) (h_precond : f_precond (x)) : Int :=
  x
#eval f 1 (by simp)
```
Some words in between.
```lean
--  adversarial implementation #3
def f_adv_helper : Int := 7
def f (x : Int) (h_precond : f_precond (x)) : Int := f_adv_helper

-- Adversarial Implementation 2
def f (x : Int) (h_precond : f_precond (x)) : Int := 99

-- Adversarial Implementation 4
```
"""


def test_extract_adversarial_sections() -> None:
    ex = extract_adversarial(ADV, expected=5)
    assert not ex.malformed
    idx = [i for i, _ in ex.items]
    assert idx == [1, 2, 3]
    codes = dict(ex.items)
    assert codes[1].endswith("0") and codes[2].endswith("x") and "#eval" not in codes[2]
    assert "f_adv_helper" in codes[3]
    notes = " ".join(ex.notes)
    assert "section 2 repeated" in notes and "section 4 is empty" in notes and "3 implementation(s)" in notes


def test_extract_adversarial_out_of_order_and_missing() -> None:
    text = "-- Adversarial Implementation 2\ndef f := 2\n-- Adversarial Implementation 1\ndef f := 1\n"
    assert extract_adversarial(text).items == [(1, "def f := 1"), (2, "def f := 2")]
    assert extract_adversarial("```lean\ndef f := 1\n```").malformed
    assert extract_adversarial("").malformed


def test_rename_indexed() -> None:
    code = "def maxOf2 (a : Int) : Int := maxOf2_helper a\n-- uses maxOf2 in a comment"
    assert rename_indexed(code, "maxOf", 2) == code.replace("maxOf2 (", "maxOf (").replace(
        "uses maxOf2", "uses maxOf"
    )
    assert rename_indexed("def f_3 (x : Nat) : Nat := x", "f", 3) == "def f (x : Nat) : Nat := x"
    real = "def LinearSearch3 (a : Array Int) : Nat := 0"  # the real name ends in a digit
    assert rename_indexed(real, "LinearSearch3", 3) == real
    assert rename_indexed("def g1 := 1", "f", 1) == "def g1 := 1"


def test_forbidden_constructs() -> None:
    code = """
partial def loop (n : Nat) : Nat := loop n
-- sorry in a comment is fine
/- axiom in a block comment is fine -/
def s : String := "sorry, IO"
@[implemented_by loop] def g (n : Nat) : Nat := n
theorem t : 1 = 1 := by sorry
def io : IO Unit := pure ()
def sortedish := List.partial
"""
    assert forbidden_constructs(code) == ["IO", "implemented_by", "partial", "sorry"]
    assert forbidden_constructs("def f (x : Nat) : Nat := x + 1") == []


def test_decomposition() -> None:
    text = """**Input:**
a. xs : List Int
b. constraints
- xs is non-empty (H)
**Output:**
a. res1 : Int
b. constraints
- res1 is the maximum of xs
"""
    ex = extract_decomposition(text)
    assert not ex.malformed
    assert ex.items["input"].startswith("a. xs") and "(H)" in ex.items["input"]
    assert "Output" not in ex.items["input"] and ex.items["output"].startswith("a. res1")
    inline = extract_decomposition("Input: n : Nat\nOutput: res1 : Nat, the square of n")
    assert inline.items == {"input": "n : Nat", "output": "res1 : Nat, the square of n"}
    assert extract_decomposition("Input only:\nx").malformed
    assert extract_decomposition("Output: y\nInput: x").malformed
