"""The compiled checkers' typed spec fn memo: keys of machine words (Rust text appended to the runtime).

A memoised spec fn (``translate._Translator.memoised``) used to key its memo
by ``MK``: a clone of every argument ``V`` (a sequence's reference count
bumped, an ``i128`` copied) on every call, hit or miss, hashed and compared
through a match per argument, then dropped. ``memo_key`` now first tries a
**typed key** ``TK``: the spec fn's id, a tag per argument and one ``u64``
word per argument —

* an integer that fits ``i64``: its value (tag 1);
* a sequence / multiset: the address of its shared vector (tags 2 / 3), as
  the generic key and the Python evaluator key sequences by identity;
* a boolean, a char, unit: the value (tags 4, 5, 6).

The tags make the key exact: two keys are equal only when every argument has
the same kind and the same word, i.e. the same integer / the same shared
sequence, exactly when the generic key's ``eq_v`` holds. A call with more than
``TK_ARGS`` arguments, or an integer beyond ``i64``, falls back to the generic
``MK`` key (the old path, unchanged). Building a typed key clones nothing.

Identity keys need the sequence to stay alive while its entry exists (a freed
vector's address could be reused by another sequence, whose lookups would then
hit the wrong entry): ``memo_put_k`` pins every sequence argument of a stored
entry (a clone of its ``Rc``; the previous pin is not repeated, so a recursion
over one sequence pins it once). Entries and pins go together: both are cleared
with the generic memo (``memo_clear``, every clause) and when the two memos
together exceed the generic memo's cap (2,000,000 entries, as before). Only
speed depends on the memo's representation: what is stored and when it is
cleared are as before, so the steps charged, hence every verdict, are the same.
"""

from __future__ import annotations

__all__ = ["MEMO_RUNTIME"]

MEMO_RUNTIME = r"""
// ---- typed spec fn memo (post2exe/memo_rs.py): keys of machine words, no clone per call
const TK_ARGS: usize = 3;
#[derive(Clone, Copy, PartialEq, Eq)]
struct TK { id: u32, tags: u32, w: [u64; TK_ARGS] }
impl std::hash::Hash for TK {
    #[inline] fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u64(((self.id as u64) << 32) | self.tags as u64);
        for x in self.w.iter() { h.write_u64(*x); }
    }
}
// a spec fn memo key: typed when every argument has a word, else the generic key
enum MKey { T(TK), G(MK) }
thread_local! {
    static TMEMO: std::cell::RefCell<HashMap<TK, V, FxB>> = std::cell::RefCell::new(HashMap::default());
    static PINS: std::cell::RefCell<Vec<Rc<Vec<V>>>> = std::cell::RefCell::new(Vec::new());
}
%HOT%fn tkey(id: u32, args: &[&V]) -> Option<TK> {
    if args.len() > TK_ARGS { return None; }
    let mut k = TK { id, tags: 0, w: [0; TK_ARGS] };
    for (i, v) in args.iter().enumerate() {
        let (t, w) = match v {
            V::I(n) => { if *n < i64::MIN as i128 || *n > i64::MAX as i128 { return None; } (1u32, *n as i64 as u64) }
            V::S(q) => (2, Rc::as_ptr(q) as usize as u64),
            V::M(q) => (3, Rc::as_ptr(q) as usize as u64),
            V::B(b) => (4, *b as u64),
            V::C(c) => (5, *c as u64),
            V::U => (6, 0),
        };
        k.tags |= t << (4 * i);
        k.w[i] = w;
    }
    Some(k)
}
%HOT%fn memo_key(id: u32, args: &[&V]) -> MKey {
    match tkey(id, args) { Some(k) => MKey::T(k), None => MKey::G(mk_key(id, args)) }
}
%HOT%fn memo_get_k(k: &MKey) -> Option<V> {
    match k { MKey::T(t) => TMEMO.with(|m| m.borrow().get(t).cloned()), MKey::G(g) => memo_get(g) }
}
fn memo_len() -> usize { TMEMO.with(|m| m.borrow().len()) + MEMO.with(|m| m.borrow().len()) }
fn tmemo_clear() {
    TMEMO.with(|m| m.borrow_mut().clear());
    PINS.with(|p| p.borrow_mut().clear());
}
%HOT%fn memo_put_k(k: MKey, args: &[&V], v: &V) {
    match k {
        MKey::G(g) => { if memo_len() > 2_000_000 { memo_clear(); } memo_put(g, v.clone()); }
        MKey::T(t) => {
            if memo_len() > 2_000_000 { memo_clear(); }
            PINS.with(|p| {
                let mut p = p.borrow_mut();
                for a in args.iter() {
                    if let V::S(q) | V::M(q) = a {
                        if !p.last().map_or(false, |l| Rc::ptr_eq(l, q)) { p.push(q.clone()); }
                    }
                }
            });
            TMEMO.with(|m| { m.borrow_mut().insert(t, v.clone()); });
        }
    }
}
"""
