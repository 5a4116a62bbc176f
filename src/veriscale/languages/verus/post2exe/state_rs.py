"""The compiled checkers' evaluation state as plain statics (Rust text put at the top of the runtime).

The state every step touches — the clause's step count and budget
(``FUEL``, ``FUEL_MAX``), the recursion depth, the spec fn memos and the
sequences they pin — used to live in ``thread_local!`` cells. Every access
then went through ``LocalKey::with`` (a thread-pointer load, for the memos
also a lazy-registration check of their destructor, and a ``RefCell`` borrow
flag), which was a third of a memo-heavy checker's CPU (cf1006C at
opt-level 3). They are now ``static`` items wrapped in ``One``.

Why that is sound. ``One<T>`` claims ``Sync`` for a ``T`` that is not
(``Cell``, ``UnsafeCell``, values holding ``Rc``): a shared static must be
``Sync``. The claim holds because a checker evaluates on exactly one thread:
``main`` spawns one big-stack thread that runs the whole request loop
(``serve``) and only joins it; nothing else reads or writes these statics,
and no evaluation spawns a thread. So no two threads ever access them. The
``UnsafeCell`` accessors (``memo_map``, ``tmemo``, ``pins``) hand out a
``&'static mut`` that each caller uses for one short, non-reentrant
operation (a probe, an insert, a clear) and drops before calling any other
function that takes one: two such references are never alive at once. A
checker that ever evaluated on several threads would have to go back to
thread-locals (or a context passed explicitly).

Statics are never dropped: the memo tables are freed by the process's exit,
as the thread-locals were by the thread's.
"""

from __future__ import annotations

__all__ = ["STATE_RUNTIME"]

STATE_RUNTIME = r"""
// One<T>: a static of a T that is not Sync. Sound only because a checker evaluates on one thread (`main`
// spawns the thread that runs `serve` and only joins it): see post2exe/state_rs.py
struct One<T>(T);
unsafe impl<T> Sync for One<T> {}
"""
