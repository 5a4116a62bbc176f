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

Layout (session 7). A slot is one 64-byte line: the key's four words, then
the value ``V`` (32 bytes with its 8-byte tag). The generation that wrote a
slot is kept in bits 12..32 of its first key word (the id sits above, the
argument tags below), so a probe compares the probe key's first word with the
current generation or-ed in: a slot of another generation can never match,
and one whose generation differs is free. Clearing bumps the 20-bit
generation; when it wraps, every slot's stamp is reset to 0 (never current).
A probe of a new key and its insert then touch one cache line instead of
three (parallel stamp, key and value arrays); cf1077C's larger clauses fill
tables of several MB, beyond the cache, where that was most of its time.
Keys are compared word by word with the stamped word in a register (a key
built on the stack and compared as one block was read back with wider loads
than it was written with: a store-forwarding stall per probe). Typed spec fns
(``typed_fns.py``) read an entry's integer / boolean without cloning a ``V``
(``memo_get_i``/``memo_get_b``) and store theirs by value
(``memo_put_i``/``memo_put_b``). The tables live in statics (``state_rs.py``).
"""

from __future__ import annotations

__all__ = ["MEMO_RUNTIME"]

MEMO_RUNTIME = r"""
// ---- typed spec fn memo (post2exe/memo_rs.py): keys of machine words, no clone per call
const TK_ARGS: usize = 3;
// w[0]: the spec fn id (high 32 bits) and the argument tags (4 bits each, bits 0..12); w[1..]: one word per
// argument. In a table slot, bits 12..32 of w[0] also hold the generation that wrote the slot (`TTab`)
#[derive(Clone, Copy, PartialEq, Eq)]
struct TK { w: [u64; TK_ARGS + 1] }
const GEN_SHIFT: u32 = 12;
const GEN_MASK: u64 = 0xF_FFFF;  // 20 bits of generation
// a slot: key and value in one 64-byte line (a probe of a new key, then its insert, touch one cache line;
// three parallel arrays — stamps, keys, values — cost three misses once the table outgrew the cache)
#[repr(C, align(64))]
#[derive(Clone)]
struct Slot { k: TK, v: V }
// an open-addressing table (linear probing, at most half full) whose slots carry the generation that
// wrote them: clearing it is one increment (a slot of another generation is free), not a pass over it
struct TTab { slots: Vec<Slot>, gen: u64, used: usize, shift: u32 }
static TMEMO: One<std::cell::UnsafeCell<TTab>> = One(std::cell::UnsafeCell::new(TTab { slots: Vec::new(), gen: 1, used: 0, shift: 64 }));
static PINS: One<std::cell::UnsafeCell<Vec<Rc<Vec<V>>>>> = One(std::cell::UnsafeCell::new(Vec::new()));
// (one short operation per call, never two at once: post2exe/state_rs.py)
%HOT%fn tmemo() -> &'static mut TTab { unsafe { &mut *TMEMO.0.get() } }
%HOT%fn pins() -> &'static mut Vec<Rc<Vec<V>>> { unsafe { &mut *PINS.0.get() } }
// the slot to start probing at: the high bits of a sum of the words' products with odd constants (every
// bit of a word reaches the high bits, where small integers and aligned addresses differ)
%HOT%fn tslot(k: &TK, shift: u32) -> usize {
    let h = k.w[0].wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(k.w[1].wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
        .wrapping_add(k.w[2].wrapping_mul(0x1656_67B1_9E37_79F9))
        .wrapping_add(k.w[3].wrapping_mul(0xD6E8_FEB8_6659_FD93));
    (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize
}
%HOT%fn slot_gen(s: &Slot) -> u64 { (s.k.w[0] >> GEN_SHIFT) & GEN_MASK }
impl TTab {
    %HOT%fn get(&self, k: &TK) -> Option<&V> {
        if self.used == 0 { return None; }
        let mask = self.slots.len() - 1;
        // (word by word, the stamped first word in a register: a key built on the stack and compared as a
        // whole was read back with wider loads than it was written with, a store-forwarding stall per probe)
        let w0 = k.w[0] | (self.gen << GEN_SHIFT);
        let mut i = tslot(k, self.shift);
        loop {
            let s = &self.slots[i];
            if s.k.w[0] == w0 {
                if s.k.w[1] == k.w[1] && s.k.w[2] == k.w[2] && s.k.w[3] == k.w[3] { return Some(&s.v); }
            } else if slot_gen(s) != self.gen {
                return None;
            }
            i = (i + 1) & mask;
        }
    }
    fn insert(&mut self, k: TK, v: V) {
        if (self.used + 1) * 2 > self.slots.len() { self.grow(); }
        let mask = self.slots.len() - 1;
        let w0 = k.w[0] | (self.gen << GEN_SHIFT);  // (word by word, as in `get`)
        let mut i = tslot(&k, self.shift);
        loop {
            let s = &mut self.slots[i];
            if s.k.w[0] == w0 {
                if s.k.w[1] == k.w[1] && s.k.w[2] == k.w[2] && s.k.w[3] == k.w[3] { s.v = v; return; }
            } else if slot_gen(s) != self.gen {
                s.k.w[0] = w0; s.k.w[1] = k.w[1]; s.k.w[2] = k.w[2]; s.k.w[3] = k.w[3];
                s.v = v;
                self.used += 1;
                return;
            }
            i = (i + 1) & mask;
        }
    }
    // a table of `n` slots (a power of two) holding the current generation's entries, in the next
    // generation of a fresh table (1)
    fn rebuild(&mut self, n: usize) {
        let empty = Slot { k: TK { w: [0; TK_ARGS + 1] }, v: V::U };
        let old = std::mem::replace(&mut self.slots, vec![empty; n]);
        let g = self.gen;
        self.gen = 1;
        self.used = 0;
        self.shift = 64 - n.trailing_zeros();
        for s in old.into_iter() {
            if slot_gen(&s) == g { let mut k = s.k; k.w[0] &= !(GEN_MASK << GEN_SHIFT); self.insert(k, s.v); }
        }
    }
    fn grow(&mut self) { let n = (self.slots.len() * 2).max(64); self.rebuild(n); }
    fn clear(&mut self) {
        if self.used == 0 { return; }
        self.used = 0;
        self.gen = (self.gen + 1) & GEN_MASK;
        if self.gen == 0 {  // generations wrapped: every stamp is reset (stamp 0 is never current)
            self.gen = 1;
            for s in self.slots.iter_mut() { s.k.w[0] &= !(GEN_MASK << GEN_SHIFT); }
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
    match key { Some(t) => tmemo().get(&t).cloned(), None => memo_get(&mk_key(id, args)) }
}
// the same probe for a typed spec fn (typed_fns.py), whose entries are all integers / booleans: the stored
// value read without cloning a V (another kind cannot be stored under its id; it would be a miss)
%HOT%fn memo_get_i(key: Option<TK>, id: u32, args: &[&V]) -> Option<i128> {
    match key {
        Some(t) => match tmemo().get(&t) { Some(V::I(n)) => Some(*n), _ => None },
        None => match memo_get(&mk_key(id, args)) { Some(V::I(n)) => Some(n), _ => None },
    }
}
%HOT%fn memo_get_b(key: Option<TK>, id: u32, args: &[&V]) -> Option<bool> {
    match key {
        Some(t) => match tmemo().get(&t) { Some(V::B(b)) => Some(*b), _ => None },
        None => match memo_get(&mk_key(id, args)) { Some(V::B(b)) => Some(b), _ => None },
    }
}
fn memo_len() -> usize { tmemo().used + memo_map().len() }
fn tmemo_clear() {
    tmemo().clear();
    pins().clear();
}
// the store of a typed spec fn's integer / boolean (typed_fns.py): the V built here, not passed by reference
// (a V::I written by the caller and read back at once through the reference stalled on store forwarding)
%HOT%fn memo_put_i(key: Option<TK>, id: u32, args: &[&V], n: i128) { memo_put_v(key, id, args, V::I(n)) }
%HOT%fn memo_put_b(key: Option<TK>, id: u32, args: &[&V], b: bool) { memo_put_v(key, id, args, V::B(b)) }
%HOT%fn memo_put_t(key: Option<TK>, id: u32, args: &[&V], v: &V) { memo_put_v(key, id, args, v.clone()) }
%HOT%fn memo_put_v(key: Option<TK>, id: u32, args: &[&V], v: V) {
    if memo_len() > 2_000_000 { memo_clear(); }
    match key {
        None => memo_put(mk_key(id, args), v),
        Some(t) => {
            let p = pins();
            for a in args.iter() {
                if let V::S(q) | V::M(q) = a {
                    if !p.last().map_or(false, |l| Rc::ptr_eq(l, q)) { p.push(q.clone()); }
                }
            }
            tmemo().insert(t, v);
        }
    }
}
"""
