"""A benchmark task as an executable program: precondition, implementation, postcondition.

``TaskProgram.build`` takes the task's signature and the raw sections of its
Lean file and assembles the program the way Verina's template does: the aux
sections in file order (task_aux, solution_aux, precond_aux, precond,
code_aux, code, postcond_aux, postcond), with the three main definitions
generated from the signature::

    def f_precond (a : Int) (b : Int) : Prop := <precond>
    def f (a : Int) (b : Int) (h_precond : f_precond (a) (b)) : Bool := <code>
    def f_postcond (a : Int) (b : Int) (result : Bool) (h_precond : f_precond (a) (b)) : Prop := <postcond>

Each part is parsed, elaborated and compiled once, on first use, and its
compiled function is reused for every call. A part only depends on the
sections it can see (the postcondition does not need the implementation to
compile), so a broken candidate implementation does not hide a working
postcondition. Every failure is a ``LeanError`` subclass; internal faults are
converted, so callers never see another exception type.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from ...runtime import limits
from ...values.runtime import LeanSource
from ...values.types import TFun, Type, render_type
from .elab import ir
from .elab.decls import DeclState, elaborate_def, register_decls
from .elab.env import Env
from .elab.infer import Elaborator
from .elab.scope import DeclCtx, GlobalDef, Scope
from .elab.zonk import zonk_node
from .errors import ElabError, EvalError, InternalError, LeanError, LeanParseError, LimitExceeded, Unsupported
from .eval.codegen import Compiler
from .eval.rt import NAMESPACE
from .sections import DEFINITION_SECTIONS

__all__ = ["PARTS", "SECTION_ORDER", "TaskProgram"]

SECTION_ORDER = DEFINITION_SECTIONS
PARTS = ("precond", "code", "postcond")
_AUX = ("task_aux", "solution_aux", "precond_aux", "code_aux", "postcond_aux")

# sections whose errors make a part fail (the file Lean would compile for it)
_REQUIRED: dict[str, tuple[str, ...]] = {
    "precond": ("task_aux", "solution_aux", "precond_aux", "precond"),
    "code": ("task_aux", "solution_aux", "precond_aux", "precond", "code_aux", "code"),
    "postcond": ("task_aux", "solution_aux", "precond_aux", "precond", "postcond_aux", "postcond"),
}


def _indent_body(text: str) -> str:
    """Verina's ``render_lean_content``: keep a body that starts with two spaces, else indent it."""
    if text.startswith("  "):
        return text
    return "\n".join("  " + line for line in text.split("\n"))


class TaskProgram:
    """One task's precondition, implementation and postcondition, compiled lazily."""

    def __init__(
        self,
        fn_name: str,
        params: list[tuple[str, Type]],
        ret: Type,
        sections: Mapping[str, str],
        coverage: bool = False,
    ) -> None:
        self.fn_name = fn_name
        self.params = list(params)
        self.ret = ret
        self.sections = {k: v for k, v in sections.items() if isinstance(v, str)}
        self.coverage_enabled = coverage
        self._coverage: Any = None  # CoverageMap, when enabled
        self._ready = False
        self._parts: dict[str, Any] = {}
        self._lambdas: dict[tuple[str, Type], Any] = {}

    # ------------------------------------------------------------------ API
    @classmethod
    def build(
        cls,
        fn_name: str,
        params: list[tuple[str, Type]],
        ret: Type,
        sections: Mapping[str, str],
        coverage: bool = False,
    ) -> TaskProgram:
        """``coverage``: instrument the implementation's branches (see ``eval/coverage.py``)."""
        return cls(fn_name, params, ret, sections, coverage)

    def with_override(self, part: str, text: str) -> TaskProgram:
        if part not in SECTION_ORDER:
            raise ValueError(f"unknown section {part!r}")
        secs = dict(self.sections)
        secs[part] = text
        return TaskProgram(self.fn_name, self.params, self.ret, secs, self.coverage_enabled)

    def precond(self, args: Mapping[str, Any]) -> bool:
        fn = self._part("precond")
        return bool(self._invoke(fn, self._argv(args)))

    def run(self, args: Mapping[str, Any]) -> Any:
        fn = self._part("code")
        return self._invoke(fn, [*self._argv(args), None])

    def postcond(self, args: Mapping[str, Any], result: Any) -> bool:
        fn = self._postcond_fn()
        return bool(self._invoke(fn, [*self._argv(args), result, None]))

    def _postcond_fn(self) -> Any:
        """The compiled postcondition; with a result-free ``let`` prefix, the version that computes
        it once per input (``eval/prefix.py``: judging many outputs of one input)."""
        fn = self._part("postcond")
        got = self._parts.get("postcond.prefixed")
        if got is None:
            got = False
            try:
                from .eval.prefix import PrefixedPostcondition, split_prefix
                from .eval.subseqs import compile_body, symbolic_postcondition

                g = self._main_def("postcond")
                body = symbolic_postcondition(self.compiler, g) or g.body  # (see eval/subseqs.py)
                if split_prefix(g.param_pynames, body, len(self.params)) is not None:
                    got = PrefixedPostcondition(
                        self.compiler, g.pyname, g.param_pynames, body, len(self.params)
                    )
                elif body is not g.body:
                    got = compile_body(self.compiler, f"{g.pyname}__sq", g.param_pynames, body)
            except Exception:  # the plain compiled postcondition is always correct
                got = False
            self._parts["postcond.prefixed"] = got
        return got or fn

    def check(self, part: str) -> None:
        """Parse, elaborate and compile ``part`` now (raises what a call would raise)."""
        self._part(part)

    def coverage(self) -> Any:
        """The implementation's probes and the ones hit since the last reset (a ``CoverageReport``).

        Compiles the implementation first (raises what that raises); None when coverage is off.
        """
        if not self.coverage_enabled:
            return None
        self._part("code")
        return self._coverage.report()

    def reset_coverage(self) -> None:
        if self._coverage is not None:
            self._coverage.reset()

    # ------------------------------------------------------------- assembly
    def _main_text(self, part: str) -> str:
        body = self.sections.get(part) or ""
        if not body.strip():
            if part == "precond":
                body = "True"
            else:
                raise LeanParseError(f"the {part} section is empty")
        f = self.fn_name
        binders = " ".join(f"({n} : {render_type(t)})" for n, t in self.params)
        args = " ".join(f"({n})" for n, _ in self.params)
        if part == "precond":
            head = f"def {f}_precond {binders} : Prop :="
        elif part == "code":
            head = f"def {f} {binders} (h_precond : {f}_precond {args}) : {render_type(self.ret)} :="
        else:
            head = (
                f"def {f}_postcond {binders} (result : {render_type(self.ret)})"
                f" (h_precond : {f}_precond {args}) : Prop :="
            )
        return head + "\n" + _indent_body(body)

    def _setup(self) -> None:
        if self._ready:
            return
        from .parser import parse_module

        env = Env()
        env.elaborate = elaborate_def
        cov = None
        if self.coverage_enabled:
            from .eval.coverage import CoverageMap, recording_elaborate

            cov = self._coverage = CoverageMap()
            env.elaborate = recording_elaborate(cov)
        st = DeclState()
        self.env = env
        self.errors: dict[str, LeanError] = {}
        self.section_defs: dict[str, list[GlobalDef]] = {}
        for sec in SECTION_ORDER:
            try:
                if sec in PARTS:
                    text = self._main_text(sec)
                    if cov is not None:  # positions in the generated text -> in the section's own text
                        body = self.sections.get(sec) or ""
                        cov.shift[sec] = (1, 0 if body.startswith("  ") else 2)
                else:
                    text = self.sections.get(sec) or ""
                    if not text.strip():
                        continue
                decls = parse_module(text)
                self.section_defs[sec] = register_decls(env, decls, st, sec)
            except LeanError as exc:
                self.errors[sec] = exc
            except RecursionError:
                self.errors[sec] = Unsupported(f"section {sec} is nested too deeply")
            except Exception as exc:  # pragma: no cover - internal fault
                self.errors[sec] = InternalError(
                    f"internal error in section {sec}: {type(exc).__name__}: {exc}"
                )
        self.ns: dict[str, Any] = dict(NAMESPACE)
        self.compiler = Compiler(env, self.ns, cov) if cov is not None else Compiler(env, self.ns)
        self._ready = True

    def _main_def(self, part: str) -> GlobalDef:
        name = {
            "precond": f"{self.fn_name}_precond",
            "code": self.fn_name,
            "postcond": f"{self.fn_name}_postcond",
        }[part]
        for g in self.section_defs.get(part, []):
            if g.name == name:
                return g
        raise ElabError(f"the {part} section does not define {name}")

    def _part(self, part: str) -> Any:
        got = self._parts.get(part)
        if got is not None:
            if isinstance(got, LeanError):
                raise got
            return got
        try:
            fn = self._compile(part)
        except LeanError as exc:
            self._parts[part] = exc
            raise
        except RecursionError:
            exc2: LeanError = Unsupported(f"{part}: program nested too deeply to elaborate")
            self._parts[part] = exc2
            raise exc2 from None
        except Exception as exc:  # internal fault: never leak
            exc3: LeanError = InternalError(f"{part}: internal error: {type(exc).__name__}: {exc}")
            self._parts[part] = exc3
            raise exc3 from None
        self._parts[part] = fn
        return fn

    def _compile(self, part: str) -> Any:
        self._setup()
        for sec in _REQUIRED[part]:
            if sec in self.errors:
                raise self.errors[sec]
        main = self._main_def(part)
        seen: dict[str, str] = {}
        for sec in _REQUIRED[part]:
            for g in self.section_defs.get(sec, []):
                if g.name in seen and not g.key.startswith("inst."):
                    raise ElabError(f"'{g.name}' has already been declared (in {seen[g.name]})")
                seen[g.name] = sec
        old = sys.getrecursionlimit()
        if old < 20_000:
            sys.setrecursionlimit(20_000)
        try:
            self.env.signature(main, None)
            # every definition of the part's own sections must elaborate, as in Lean's
            # file; an unsupported construct only matters if it is used
            for sec in _REQUIRED[part]:
                for g in self.section_defs.get(sec, []):
                    try:
                        self.env.signature(g, None)
                    except Unsupported:
                        continue
            self.compiler.compile_global(main)
        finally:
            sys.setrecursionlimit(old)
        return self.ns[main.pyname]

    # ------------------------------------------------------------ arguments
    def _argv(self, args: Mapping[str, Any]) -> list[Any]:
        out = []
        for name, t in self.params:
            if name not in args:
                raise EvalError(f"missing argument '{name}'")
            v = args[name]
            if isinstance(v, LeanSource):
                v = self._lambda(v.text, t)
            out.append(v)
        return out

    def _lambda(self, text: str, t: Type) -> Any:
        """A function-typed input given as Lean source (``fun x => x > 5``)."""
        key = (text, t)
        got = self._lambdas.get(key)
        if got is not None:
            if isinstance(got, LeanError):
                raise got
            return got
        try:
            val = self._compile_lambda(text, t)
        except LeanError as exc:
            self._lambdas[key] = exc
            raise
        except Exception as exc:
            err = InternalError(f"input function: internal error: {type(exc).__name__}: {exc}")
            self._lambdas[key] = err
            raise err from None
        self._lambdas[key] = val
        return val

    def _compile_lambda(self, text: str, t: Type) -> Any:
        if not isinstance(t, TFun):
            raise ElabError("Lean source given for a non-function parameter")
        from .parser import parse_expr

        self._setup()
        ast = parse_expr(text)
        el = Elaborator(self.env)
        sc = Scope(ctx=DeclCtx(index=self.env.next_index + 1))
        node = el.expect(ast, t, sc)
        el.synthesize(final=True)
        node = zonk_node(node, el.mc)
        assert isinstance(node, ir.Node)
        name = self.env.names.new("input", "g")
        self.compiler.compile_expr_fn(node, name)
        return self._invoke(self.ns[name], [])

    # -------------------------------------------------------------- running
    def _invoke(self, fn: Any, argv: list[Any]) -> Any:
        self.ns["_F"][0] = 0  # the first tick takes fuel from the caller's budget
        try:
            return self._invoke1(fn, argv)
        finally:
            # memo tables of global functions only live for one call
            for m in self.ns["_memos"]:
                if m:
                    m.clear()

    def _invoke1(self, fn: Any, argv: list[Any]) -> Any:
        try:
            return fn(*argv)
        except LeanError:
            raise
        except RecursionError:
            pass
        except MemoryError:
            raise LimitExceeded("size", "out of memory") from None
        except Exception as exc:
            raise InternalError(f"internal error during evaluation: {type(exc).__name__}: {exc}") from None
        return _run_deep(fn, argv)


def _run_deep(fn: Any, argv: list[Any]) -> Any:
    """Re-run a call that overflowed Python's stack, in a thread with a big stack and limit."""
    depth = limits.current().limits.max_depth
    ok, got = limits.run_deep(lambda: fn(*argv), depth * 4 + 1000)
    if not ok:
        exc = got
        if isinstance(exc, LeanError):
            raise exc
        if isinstance(exc, RecursionError):
            raise LimitExceeded("depth", f"recursion deeper than the limit ({depth})") from None
        if isinstance(exc, MemoryError):
            raise LimitExceeded("size", "out of memory") from None
        raise InternalError(f"internal error during evaluation: {type(exc).__name__}: {exc}") from None
    return got
