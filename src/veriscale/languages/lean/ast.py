"""Syntax tree of the Lean 4 fragment that verification benchmarks use.

This module is the contract between the parser (``lean/parser``) and the
elaborator/evaluator (``lean/elab``, ``lean/eval``). The parser desugars
surface forms so later stages see few node kinds:

* ``a |> f`` and ``f <| a`` and ``f $ a`` become ``App``;
* ``e |>.f x`` becomes ``App(Proj(e, "f"), [x])``;
* ``(· + ·)`` / ``(·.length)`` become ``Lam`` with fresh binder names
  ``_sec1``, ``_sec2``, … at the nearest enclosing parentheses;
* ``fun | p => e | q => f`` becomes ``Lam`` over fresh names + ``Match``;
* equation-style definitions (``def f : A → B | p => e``) become ``Def`` whose
  ``body`` is a ``Lam`` + ``Match`` over fresh binder names;
* ``λ`` is ``fun``; ``↦`` is ``=>``; ``x ∉ xs`` is ``UnOp("¬", BinOp("∈", …))``;
  ``a ≠ b`` stays ``BinOp("≠")``; ``a > b`` stays ``BinOp(">")``.
* ``∀ x y, P`` / ``∃ x y, P`` become nested single-binder ``Quant`` nodes.
* ``if h : c then a else b`` is ``If`` with ``hyp="h"``.
* dotted identifiers stay whole: ``xs.length`` is ``Ident("xs.length")`` and
  ``List.foldl`` is ``Ident("List.foldl")``; the elaborator resolves them.
  A field access on a non-identifier is ``Proj`` (``(f x).length``,
  ``p.1``, ``(a, b).snd``).

Every node carries ``pos`` = (line, column), 1-based, of its first token, for
error messages. Types inside terms are parsed as ordinary terms (``List Int``
is ``App(Ident("List"), [Ident("Int")])``, ``A × B`` is ``BinOp("×")``,
``A → B`` is ``Arrow``); the elaborator converts them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Pos = tuple[int, int]
NOPOS: Pos = (0, 0)


# ----------------------------------------------------------------- patterns


@dataclass(slots=True)
class PVar:
    name: str
    pos: Pos = NOPOS


@dataclass(slots=True)
class PWild:
    pos: Pos = NOPOS


@dataclass(slots=True)
class PLit:
    """Numeric (int), string, char or bool literal pattern. ``kind`` in {"nat", "str", "char", "bool"}.

    Negative integer literal patterns (``-1``) have kind "nat" and a negative value.
    """

    value: object
    kind: str
    pos: Pos = NOPOS


@dataclass(slots=True)
class PCtor:
    """Constructor application: ``some x``, ``none``, ``.some x``, ``Nat.succ n``, ``List.cons h t``,
    ``true``/``false`` are ``PLit`` instead. ``name`` keeps the spelling (``some``, ``Option.some``, ``.some``)."""

    name: str
    args: list[Pattern]
    pos: Pos = NOPOS


@dataclass(slots=True)
class PCons:
    head: Pattern
    tail: Pattern
    pos: Pos = NOPOS


@dataclass(slots=True)
class PList:
    elems: list[Pattern]
    pos: Pos = NOPOS


@dataclass(slots=True)
class PArray:
    elems: list[Pattern]
    pos: Pos = NOPOS


@dataclass(slots=True)
class PTuple:
    """``(a, b, c)`` with ≥ 2 elements (right-nested pairs). ``()`` is ``PCtor("Unit.unit", [])``."""

    elems: list[Pattern]
    pos: Pos = NOPOS


@dataclass(slots=True)
class PAnon:
    """Anonymous constructor pattern ``⟨a, b⟩``."""

    elems: list[Pattern]
    pos: Pos = NOPOS


@dataclass(slots=True)
class PAdd:
    """``n + k`` pattern on Nat (k a literal ≥ 1)."""

    pat: Pattern
    k: int
    pos: Pos = NOPOS


@dataclass(slots=True)
class PAs:
    """``x@p``."""

    name: str
    pat: Pattern
    pos: Pos = NOPOS


@dataclass(slots=True)
class PTyped:
    """``(p : T)``."""

    pat: Pattern
    type: Expr
    pos: Pos = NOPOS


Pattern = PVar | PWild | PLit | PCtor | PCons | PList | PArray | PTuple | PAnon | PAdd | PAs | PTyped


# -------------------------------------------------------------- expressions


@dataclass(slots=True)
class Ident:
    name: str
    pos: Pos = NOPOS


@dataclass(slots=True)
class NatLit:
    value: int
    pos: Pos = NOPOS


@dataclass(slots=True)
class FloatLit:
    """Scientific literal such as ``1.5`` or ``2e-3``; ``text`` is the source spelling."""

    text: str
    pos: Pos = NOPOS


@dataclass(slots=True)
class StrLit:
    value: str
    pos: Pos = NOPOS


@dataclass(slots=True)
class CharLit:
    value: str
    pos: Pos = NOPOS


@dataclass(slots=True)
class Arg:
    """An application argument; ``name`` is set for named arguments ``(init := e)``."""

    value: Expr
    name: str | None = None


@dataclass(slots=True)
class App:
    fn: Expr
    args: list[Arg]
    pos: Pos = NOPOS


@dataclass(slots=True)
class Proj:
    """``e.f`` where ``e`` is not a plain identifier chain; ``f`` may be numeric (``"1"``)."""

    expr: Expr
    field: str
    pos: Pos = NOPOS


@dataclass(slots=True)
class Binder:
    """A binder of ``fun``/``def``/``∀``: a pattern (usually ``PVar``) with an optional type.

    ``kind`` is "explicit", "implicit" (``{α : Type}``, ``⦃⦄``), "inst" (``[BEq α]``) or "strict".
    For an instance binder without a name, ``pat`` is ``PWild``.
    """

    pat: Pattern
    type: Expr | None = None
    kind: str = "explicit"
    pos: Pos = NOPOS


@dataclass(slots=True)
class Lam:
    binders: list[Binder]
    body: Expr
    pos: Pos = NOPOS


@dataclass(slots=True)
class BinOp:
    """Binary operators, by their Lean spelling after normalisation:
    ``+ - * / % ^ ++ :: == != < > ≤ ≥ = ≠ ∧ ∨ ↔ && || ∈ × >>> <<< &&& ||| ^^^``.
    (``<=``/``>=`` normalise to ``≤``/``≥``, ``/\\`` and ``\\/`` to ``∧``/``∨``, ``<->`` to ``↔``.)"""

    op: str
    lhs: Expr
    rhs: Expr
    pos: Pos = NOPOS


@dataclass(slots=True)
class UnOp:
    """``-`` (negation), ``¬``, ``!`` (Bool not), ``↑`` (coercion)."""

    op: str
    expr: Expr
    pos: Pos = NOPOS


@dataclass(slots=True)
class Arrow:
    """``A → B`` (function type or implication). ``name`` is set for ``(h : A) → B``."""

    lhs: Expr
    rhs: Expr
    name: str | None = None
    pos: Pos = NOPOS


@dataclass(slots=True)
class If:
    cond: Expr
    then: Expr
    els: Expr
    hyp: str | None = None
    pos: Pos = NOPOS


@dataclass(slots=True)
class Let:
    """``let p : T := v; body``. For ``let f (x : A) : B := e`` the parser produces
    ``value=Lam(...)`` (with ``type`` the result type wrapped appropriately, or None).
    ``is_rec`` marks ``let rec`` (the name is in scope in ``value``).
    ``have`` is a ``Let`` with ``is_have=True`` (its value is a proof; never evaluated)."""

    pat: Pattern
    type: Expr | None
    value: Expr
    body: Expr
    is_rec: bool = False
    is_have: bool = False
    pos: Pos = NOPOS


@dataclass(slots=True)
class MatchArm:
    """One arm; ``alts`` are or-alternatives, each a list with one pattern per discriminant."""

    alts: list[list[Pattern]]
    rhs: Expr
    pos: Pos = NOPOS


@dataclass(slots=True)
class Match:
    discrs: list[Expr]
    arms: list[MatchArm]
    pos: Pos = NOPOS
    # ``match h : e with`` names; None entries for unnamed discriminants
    discr_names: list[str | None] = field(default_factory=list)


@dataclass(slots=True)
class Tuple:
    """``(a, b, …)`` with ≥ 2 elements (right-nested pairs)."""

    elems: list[Expr]
    pos: Pos = NOPOS


@dataclass(slots=True)
class UnitLit:
    pos: Pos = NOPOS


@dataclass(slots=True)
class ListLit:
    elems: list[Expr]
    pos: Pos = NOPOS


@dataclass(slots=True)
class ArrayLit:
    elems: list[Expr]
    pos: Pos = NOPOS


@dataclass(slots=True)
class AnonCtor:
    """``⟨a, b, …⟩``."""

    elems: list[Expr]
    pos: Pos = NOPOS


@dataclass(slots=True)
class StructInst:
    """``{ f := e, g := e' }`` and ``{}``; ``with_expr`` for ``{ s with f := e }``."""

    fields: list[tuple[str, Expr]]
    with_expr: Expr | None = None
    pos: Pos = NOPOS


@dataclass(slots=True)
class Quant:
    """``∀ x, body`` / ``∃ x, body`` with one binder. ``bound`` holds a binder-level
    bound: ``∀ x ∈ xs, P`` → ``bound=("∈", xs)``; ``∃ i < n, P`` → ``bound=("<", n)``;
    also ``"≤"``. ``type`` is the binder's type annotation, if any."""

    kind: str  # "∀" or "∃"
    pat: Pattern
    type: Expr | None
    bound: tuple[str, Expr] | None
    body: Expr
    pos: Pos = NOPOS


@dataclass(slots=True)
class Index:
    """``xs[i]!`` (kind "!"), ``xs[i]?`` ("?"), ``xs[i]`` or ``xs[i]'h`` ("")."""

    expr: Expr
    index: Expr
    kind: str
    pos: Pos = NOPOS


@dataclass(slots=True)
class Range:
    """``[a:b]``, ``[:b]``, ``[a:b:s]`` (``for i in [a:b]``)."""

    start: Expr | None
    stop: Expr
    step: Expr | None = None
    pos: Pos = NOPOS


@dataclass(slots=True)
class Typed:
    """Type ascription ``(e : T)``."""

    expr: Expr
    type: Expr
    pos: Pos = NOPOS


@dataclass(slots=True)
class ByTactic:
    """``by …`` (a proof; never evaluated). ``text`` is the raw tactic source."""

    text: str
    pos: Pos = NOPOS


@dataclass(slots=True)
class Sorry:
    pos: Pos = NOPOS


@dataclass(slots=True)
class Hole:
    """``_`` in term position (e.g. an explicit proof argument)."""

    pos: Pos = NOPOS


@dataclass(slots=True)
class Panic:
    """``panic! "msg"`` / ``panic "msg"``."""

    msg: Expr
    pos: Pos = NOPOS


@dataclass(slots=True)
class Sort:
    """``Type``, ``Prop``, ``Type u``, ``Sort u``."""

    name: str
    pos: Pos = NOPOS


@dataclass(slots=True)
class Do:
    """A ``do`` block (``Id.run do …`` is ``App(Ident("Id.run"), [Arg(Do(...))])``)."""

    stmts: list[DoStmt]
    pos: Pos = NOPOS


# ------------------------------------------------------------ do statements


@dataclass(slots=True)
class DoLet:
    """``let x := e`` / ``let mut x : T := e`` / ``let (a, b) := e`` / ``let x ← e``."""

    pat: Pattern
    type: Expr | None
    value: Expr
    mut: bool = False
    arrow: bool = False  # ``←``
    pos: Pos = NOPOS


@dataclass(slots=True)
class DoAssign:
    """``x := e``; ``op`` is set for ``x += e`` etc. (``"+"``); ``x ← e`` has ``arrow=True``.
    ``target`` may be a ``PTuple`` of names for ``(a, b) := e``."""

    target: Pattern
    value: Expr
    op: str | None = None
    arrow: bool = False
    pos: Pos = NOPOS


@dataclass(slots=True)
class DoFor:
    """``for p in e do body``; ``e`` may be a ``Range``."""

    pat: Pattern
    iterable: Expr
    body: list[DoStmt]
    pos: Pos = NOPOS


@dataclass(slots=True)
class DoWhile:
    """``while c do body`` (and ``repeat`` as ``cond=None``)."""

    cond: Expr | None
    body: list[DoStmt]
    pos: Pos = NOPOS


@dataclass(slots=True)
class DoIf:
    """``if c then … else …`` at statement level (``else`` may be empty); ``unless c do`` is DoIf with ¬."""

    cond: Expr
    then: list[DoStmt]
    els: list[DoStmt]
    hyp: str | None = None
    pos: Pos = NOPOS


@dataclass(slots=True)
class DoMatch:
    discrs: list[Expr]
    arms: list[tuple[list[list[Pattern]], list[DoStmt]]]
    pos: Pos = NOPOS


@dataclass(slots=True)
class DoReturn:
    value: Expr | None
    pos: Pos = NOPOS


@dataclass(slots=True)
class DoBreak:
    pos: Pos = NOPOS


@dataclass(slots=True)
class DoContinue:
    pos: Pos = NOPOS


@dataclass(slots=True)
class DoExpr:
    """A term in statement position (the last one is the block's value)."""

    expr: Expr
    pos: Pos = NOPOS


DoStmt = DoLet | DoAssign | DoFor | DoWhile | DoIf | DoMatch | DoReturn | DoBreak | DoContinue | DoExpr

Expr = (
    Ident
    | NatLit
    | FloatLit
    | StrLit
    | CharLit
    | App
    | Proj
    | Lam
    | BinOp
    | UnOp
    | Arrow
    | If
    | Let
    | Match
    | Tuple
    | UnitLit
    | ListLit
    | ArrayLit
    | AnonCtor
    | StructInst
    | Quant
    | Index
    | Range
    | Typed
    | ByTactic
    | Sorry
    | Hole
    | Panic
    | Sort
    | Do
)


# ------------------------------------------------------------- declarations


@dataclass(slots=True)
class Def:
    """``def``/``abbrev``/``theorem``/``lemma``/``instance`` member.

    ``binders`` are the parameters before ``:``; ``type`` the declared result
    type (None if omitted); ``body`` the value. ``where_defs`` are the local
    definitions after ``where`` (in scope in ``body``, and mutually visible).
    ``kind`` is "def", "abbrev", "theorem" or "lemma"; theorems are parsed only
    so they can be skipped.
    """

    name: str
    binders: list[Binder]
    type: Expr | None
    body: Expr
    kind: str = "def"
    attrs: list[str] = field(default_factory=list)
    where_defs: list[Def] = field(default_factory=list)
    partial: bool = False
    pos: Pos = NOPOS


@dataclass(slots=True)
class StructureDecl:
    name: str
    params: list[Binder]
    fields: list[tuple[str, Expr, Expr | None]]  # name, type, default
    deriving: list[str] = field(default_factory=list)
    pos: Pos = NOPOS


@dataclass(slots=True)
class InstanceDecl:
    """``instance : C T where m := e`` / ``instance : C T := ⟨…⟩``."""

    binders: list[Binder]
    cls: Expr  # e.g. App(Ident("BEq"), [Arg(App(Ident("Map"), …))])
    methods: list[Def]
    value: Expr | None = None
    name: str | None = None
    pos: Pos = NOPOS


@dataclass(slots=True)
class OpenDecl:
    names: list[str]
    pos: Pos = NOPOS


@dataclass(slots=True)
class NamespaceDecl:
    """``namespace X`` … ``end X``: ``decls`` inside, names prefixed by the elaborator."""

    name: str
    decls: list[Decl]
    pos: Pos = NOPOS


@dataclass(slots=True)
class OtherDecl:
    """Anything parsed only to be skipped: ``axiom``, ``example``, ``set_option``,
    ``#eval``, ``import``, ``variable``, ``section``… ``keyword`` says which."""

    keyword: str
    text: str
    pos: Pos = NOPOS


Decl = Def | StructureDecl | InstanceDecl | OpenDecl | NamespaceDecl | OtherDecl
