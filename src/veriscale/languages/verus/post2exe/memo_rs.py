"""The compiled checkers' typed spec fn memo: keys of machine words (Rust text appended to the runtime).

A memoised spec fn (``translate._Translator.memoised``) used to key its memo
by ``MK``: a clone of every argument ``V`` (a sequence's reference count
bumped, an ``i128`` copied) on every call, hit or miss, hashed and compared
through a match per argument, then dropped. ``tkey`` now first gives a
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
hit the wrong entry): ``memo_put_t`` pins every sequence argument of a stored
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
// w[0]: the spec fn id (high 32 bits) and the argument tags (4 bits each); w[1..]: one word per argument
#[derive(Clone, Copy, PartialEq, Eq)]
struct TK { w: [u64; TK_ARGS + 1] }
// an open-addressing table (linear probing, at most half full) whose slots carry the generation that
// wrote them: clearing it is one increment (a slot of another generation is free), not a pass over it
struct TTab { keys: Vec<TK>, gens: Vec<u32>, vals: Vec<V>, gen: u32, used: usize, shift: u32 }
thread_local! {
    static TMEMO: std::cell::RefCell<TTab> = const { std::cell::RefCell::new(TTab { keys: Vec::new(), gens: Vec::new(), vals: Vec::new(), gen: 1, used: 0, shift: 64 }) };
    static PINS: std::cell::RefCell<Vec<Rc<Vec<V>>>> = const { std::cell::RefCell::new(Vec::new()) };
}
// the slot to start probing at: the high bits of a sum of the words' products with odd constants (every
// bit of a word reaches the high bits, where small integers and aligned addresses differ)
%HOT%fn tslot(k: &TK, shift: u32) -> usize {
    let h = k.w[0].wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(k.w[1].wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
        .wrapping_add(k.w[2].wrapping_mul(0x1656_67B1_9E37_79F9))
        .wrapping_add(k.w[3].wrapping_mul(0xD6E8_FEB8_6659_FD93));
    (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize
}
impl TTab {
    %HOT%fn get(&self, k: &TK) -> Option<&V> {
        if self.used == 0 { return None; }
        let mask = self.keys.len() - 1;
        let mut i = tslot(k, self.shift);
        loop {
            if self.gens[i] != self.gen { return None; }
            if self.keys[i] == *k { return Some(&self.vals[i]); }
            i = (i + 1) & mask;
        }
    }
    fn insert(&mut self, k: TK, v: V) {
        if (self.used + 1) * 2 > self.keys.len() { self.grow(); }
        let mask = self.keys.len() - 1;
        let mut i = tslot(&k, self.shift);
        loop {
            if self.gens[i] != self.gen { self.gens[i] = self.gen; self.keys[i] = k; self.vals[i] = v; self.used += 1; return; }
            if self.keys[i] == k { self.vals[i] = v; return; }
            i = (i + 1) & mask;
        }
    }
    fn grow(&mut self) {
        let n = (self.keys.len() * 2).max(64);
        let keys = std::mem::replace(&mut self.keys, vec![TK { w: [0; TK_ARGS + 1] }; n]);
        let gens = std::mem::replace(&mut self.gens, vec![0; n]);
        let vals = std::mem::replace(&mut self.vals, vec![V::U; n]);
        let old = self.gen;
        self.gen = 1;
        self.used = 0;
        self.shift = 64 - n.trailing_zeros();
        for ((k, g), v) in keys.into_iter().zip(gens).zip(vals) { if g == old { self.insert(k, v); } }
    }
    fn clear(&mut self) {
        if self.used == 0 { return; }
        self.used = 0;
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {  // generations wrapped: every stamp is reset (stamp 0 is never current)
            self.gen = 1;
            for g in self.gens.iter_mut() { *g = 0; }
        }
    }
}
%HOT%fn tkey(id: u32, args: &[&V]) -> Option<TK> {
    if args.len() > TK_ARGS { return None; }
    let mut k = TK { w: [(id as u64) << 32, 0, 0, 0] };
    for (i, v) in args.iter().enumerate() {
        let (t, w) = match v {
            V::I(n) => { if *n < i64::MIN as i128 || *n > i64::MAX as i128 { return None; } (1u64, *n as i64 as u64) }
            V::S(q) => (2, Rc::as_ptr(q) as usize as u64),
            V::M(q) => (3, Rc::as_ptr(q) as usize as u64),
            V::B(b) => (4, *b as u64),
            V::C(c) => (5, *c as u64),
            V::U => (6, 0),
        };
        k.w[0] |= t << (4 * i);
        k.w[i + 1] = w;
    }
    Some(k)
}
// a call's memo key is `tkey(id, args)`; None (no typed key): the generic key `mk_key(id, args)`, built
// only then (a key of plain words: nothing to drop on the hot path)
%HOT%fn memo_get_t(key: Option<TK>, id: u32, args: &[&V]) -> Option<V> {
    match key { Some(t) => TMEMO.with(|m| m.borrow().get(&t).cloned()), None => memo_get(&mk_key(id, args)) }
}
fn memo_len() -> usize { TMEMO.with(|m| m.borrow().used) + MEMO.with(|m| m.borrow().len()) }
fn tmemo_clear() {
    TMEMO.with(|m| m.borrow_mut().clear());
    PINS.with(|p| p.borrow_mut().clear());
}
%HOT%fn memo_put_t(key: Option<TK>, id: u32, args: &[&V], v: &V) {
    if memo_len() > 2_000_000 { memo_clear(); }
    match key {
        None => memo_put(mk_key(id, args), v.clone()),
        Some(t) => {
            PINS.with(|p| {
                let mut p = p.borrow_mut();
                for a in args.iter() {
                    if let V::S(q) | V::M(q) = a {
                        if !p.last().map_or(false, |l| Rc::ptr_eq(l, q)) { p.push(q.clone()); }
                    }
                }
            });
            TMEMO.with(|m| m.borrow_mut().insert(t, v.clone()));
        }
    }
}
"""
