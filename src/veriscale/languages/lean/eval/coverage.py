"""Branch coverage of a program's implementation (``code`` and ``code_aux``), for suite adequacy.

When a ``TaskProgram`` is built with coverage on, two things change:

* elaboration runs with ``_RecordingElaborator`` (``recording_elaborate``),
  a subclass of the elaborator that only remembers the Lean source position of the IR nodes
  that branch (``if`` and its branches, match arms, ``do``-block ``if``,
  ``for``/``while``, local function definitions). The IR itself is untouched;
  positions live in a side table keyed by object identity (the table keeps the
  nodes alive, so an identity is never reused);
* the code generator emits a probe ``_H[k] = 1`` at the start of every branch
  of the implementation's definitions, ``k`` indexing the probe table here.

With coverage off nothing of this runs and the generated code is unchanged.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ....runtime.coverage import KINDS, CoverageReport, Probe
from .. import ast as A
from ..elab import ir
from ..elab.decls import elaborate_def
from ..elab.env import Env
from ..elab.infer import Elaborator
from ..elab.scope import GlobalDef

__all__ = ["IMPL_SECTIONS", "KINDS", "CoverageMap", "CoverageReport", "Probe", "recording_elaborate"]

# the sections whose definitions are instrumented (the ground-truth implementation)
IMPL_SECTIONS = ("code_aux", "code")
Pos = tuple[int, int]


class CoverageMap:
    """Per-program probe table, hit array (shared with the generated code) and position side table."""

    def __init__(self) -> None:
        self.probes: list[Probe] = []
        self.hits = bytearray()  # ``_H`` in the generated code's namespace; grows as probes are added
        self.pos: dict[int, Any] = {}  # id(IR object) -> recorded positions
        self._keep: list[Any] = []  # the recorded objects, so that their ids stay unique
        # (line, col) shift from the parsed text to the section's own text, per section
        self.shift: dict[str, Pos] = {}

    # ------------------------------------------------------------- recording
    def note(self, obj: Any, info: Any) -> None:
        self.pos[id(obj)] = info
        self._keep.append(obj)

    def info(self, obj: Any) -> Any:
        return self.pos.get(id(obj))

    # ---------------------------------------------------------------- probes
    def add(self, kind: str, label: str, definition: str, section: str, pos: Pos | None) -> int:
        line, col = self.section_pos(section, pos)
        k = len(self.probes)
        self.probes.append(Probe(k, kind, label, definition, section, line, col))
        self.hits.append(0)
        return k

    def section_pos(self, section: str, pos: Pos | None) -> Pos:
        if pos is None or pos == A.NOPOS:
            return (0, 0)
        dl, dc = self.shift.get(section, (0, 0))
        line = max(1, pos[0] - dl)
        col = max(1, pos[1] - dc) if pos[0] - dl >= 1 else 1
        return (line, col)

    def reset(self) -> None:
        for i in range(len(self.hits)):
            self.hits[i] = 0

    def report(self) -> CoverageReport:
        hit = frozenset(i for i, h in enumerate(self.hits) if h)
        return CoverageReport(tuple(self.probes), hit)


# ------------------------------------------------------------ elaboration hook


def _first_pos(stmts: list[Any], default: Pos) -> Pos | None:
    return getattr(stmts[0], "pos", default) if stmts else None


class _RecordingElaborator(Elaborator):
    """The elaborator, remembering where the branching IR nodes come from."""

    def __init__(self, env: Env, cov: CoverageMap) -> None:
        super().__init__(env)
        self.cov = cov

    def e_If(self, e: A.If, expected: Any, sc: Any) -> ir.Node:
        node = super().e_If(e, expected, sc)
        cov = self.cov
        if cov is not None:
            cov.note(node, (e.pos, getattr(e.then, "pos", e.pos), getattr(e.els, "pos", e.pos)))
        return node

    def match_core(
        self,
        discrs: list[ir.Node],
        arms: list[A.MatchArm],
        expected: Any,
        sc: Any,
        pos: Pos,
        stmts: bool = False,
    ) -> Any:
        res = super().match_core(discrs, arms, expected, sc, pos, stmts)
        cov = self.cov
        if cov is not None:
            out = res if stmts else res.arms
            alts = [(alt, arm) for arm in arms for alt in arm.alts]
            if len(alts) == len(out):
                for arm_ir, (alt, arm) in zip(out, alts):
                    p = getattr(alt[0], "pos", None) if alt else None
                    cov.note(arm_ir, p if p and p != A.NOPOS else arm.pos)
        return res

    def stmts(self, ss: list[A.DoStmt], sc: Any, tail: bool) -> list[Any]:
        out = super().stmts(ss, sc, tail)
        cov = self.cov
        if cov is not None:
            src = [s for s in ss if isinstance(s, A.DoIf | A.DoFor | A.DoWhile | A.DoMatch)]
            dst = [s for s in out if isinstance(s, ir.DIf | ir.DFor | ir.DWhile | ir.DMatch)]
            if len(src) == len(dst):
                for s, d in zip(src, dst):
                    if isinstance(s, A.DoIf):
                        # an absent ``else`` is recorded as None: the implicit branch
                        cov.note(d, (s.pos, _first_pos(s.then, s.pos) or s.pos, _first_pos(s.els, s.pos)))
                    elif isinstance(s, A.DoFor | A.DoWhile):
                        cov.note(d, (s.pos, _first_pos(s.body, s.pos) or s.pos))
        return out

    def local_fun(self, name: str, type_ast: Any, lam: A.Lam, sc: Any, rec: bool) -> Any:
        fd, local = super().local_fun(name, type_ast, lam, sc, rec)
        cov = self.cov
        if cov is not None:
            cov.note(fd, (name, lam.pos))
        return fd, local

    def let_rec(
        self,
        items: list[tuple[A.Pattern, A.Expr | None, A.Expr]],
        body: A.Expr | None,
        expected: Any,
        sc: Any,
        pos: Pos,
    ) -> ir.Node:
        node = super().let_rec(items, body, expected, sc, pos)
        cov = self.cov
        if cov is not None and isinstance(node, ir.LetFun) and len(node.funs) == len(items):
            for fd, (pat, _t, value) in zip(node.funs, items):
                name = pat.name if isinstance(pat, A.PVar) else "local"
                p = pat.pos if pat.pos != A.NOPOS else getattr(value, "pos", pos)
                cov.note(fd, (name, p))
        return node


def recording_elaborate(cov: CoverageMap) -> Callable[[Env, GlobalDef], None]:
    """An ``Env.elaborate`` hook that elaborates as usual and records branch positions into ``cov``."""
    return functools.partial(elaborate_def, make_elaborator=lambda env: _RecordingElaborator(env, cov))
