"""The Rust runtime emitted into every compiled checker (see ``translate``).

Values are dynamically typed (``V``): exact integers as ``i128`` whose every
operation is checked (an overflow is UNKNOWN, never a wrapped value),
booleans, chars, sequences (``Seq``/``Vec``/``String``/tuples share one
representation, as in the Python evaluator) and unit. Errors (``E``) are
UNKNOWN verdicts: ``Unk`` for values Verus leaves unspecified or constructs
the checker does not model, ``Fuel`` when the step or depth budget runs out.
The budget is a step count, not a clock, so verdicts do not move with load.

``main`` reads JSON lines ``{"input": {<reference param>: <json>}, "output":
<json>}`` (``output`` optional) — or a line holding a JSON array of such
objects, a batch — and prints one JSON object per case, one per line:
``{"requires": "TRUE"|"FALSE"|"UNKNOWN", "requires_reason": "...",
"ensures": ..., "ensures_reason": ...}``.
"""

from __future__ import annotations

import re

from .memo_rs import MEMO_RUNTIME

__all__ = ["CHECKER_FUEL", "RUNTIME", "RUNTIME_CRATE", "RUNTIME_LIB", "RUNTIME_LIB_INLINE"]

RUNTIME_CRATE = "vs_post2exe"

RUNTIME = r"""
use std::rc::Rc;
use std::cell::Cell;
use std::collections::HashMap;
use std::io::{BufRead, Write};
pub use __vs::{parse, J};

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum V { U, B(bool), I(i128), C(char), S(Rc<Vec<V>>), M(Rc<Vec<V>>) }

#[derive(Clone, Debug)]
enum E { Unk(String), Fuel(String) }
type R = Result<V, E>;

thread_local! {
    static FUEL: Cell<u64> = Cell::new(0);
    static DEPTH: Cell<u32> = Cell::new(0);
    static MEMO: std::cell::RefCell<HashMap<MK, V, FxB>> = std::cell::RefCell::new(HashMap::default());
}
// the memo's hasher: a multiply-rotate hash (as rustc's FxHash) instead of SipHash, which was a fifth of
// a memo-heavy checker's time; only speed depends on it (no output iterates the map)
#[derive(Default)]
struct Fx(u64);
impl Fx { #[inline] fn add(&mut self, x: u64) { self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95); } }
impl std::hash::Hasher for Fx {
    #[inline] fn finish(&self) -> u64 { self.0 }
    #[inline] fn write(&mut self, bytes: &[u8]) {
        let mut it = bytes.chunks_exact(8);
        for c in &mut it { self.add(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])); }
        for b in it.remainder() { self.add(*b as u64); }
    }
    #[inline] fn write_u8(&mut self, x: u8) { self.add(x as u64) }
    #[inline] fn write_u32(&mut self, x: u32) { self.add(x as u64) }
    #[inline] fn write_u64(&mut self, x: u64) { self.add(x) }
    #[inline] fn write_usize(&mut self, x: usize) { self.add(x as u64) }
    #[inline] fn write_isize(&mut self, x: isize) { self.add(x as u64) }
    #[inline] fn write_i128(&mut self, x: i128) { self.add(x as u64); self.add((x >> 64) as u64) }
}
type FxB = std::hash::BuildHasherDefault<Fx>;

// spec fn memo key: sequences by identity (the key holds a clone, so the address stays unique), as the
// Python evaluator keys long tuples by id(); everything else by value. The first MK_INLINE arguments are
// held inline (unused slots V::U, which no argument is confused with: the id fixes the arity), the rest
// in a Vec that stays unallocated for the usual one to three arguments: a key costs no heap allocation
const MK_INLINE: usize = 3;
struct MK(pub u32, pub [V; MK_INLINE], pub Vec<V>);
%HOT%fn mk_key(id: u32, args: &[&V]) -> MK {
    let mut a = [V::U, V::U, V::U];
    let mut rest = Vec::new();
    for (k, v) in args.iter().enumerate() { if k < MK_INLINE { a[k] = (*v).clone(); } else { rest.push((*v).clone()); } }
    MK(id, a, rest)
}
%HOT%fn hash_v<H: std::hash::Hasher>(v: &V, h: &mut H) {
    use std::hash::Hash;
    match v { V::S(q) | V::M(q) => (Rc::as_ptr(q) as usize).hash(h), V::I(n) => h.write_i128(*n), o => o.hash(h) }
}
%HOT%fn eq_v(a: &V, b: &V) -> bool {
    match (a, b) { (V::S(x), V::S(y)) | (V::M(x), V::M(y)) => Rc::ptr_eq(x, y), _ => a == b }
}
impl std::hash::Hash for MK {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) { h.write_u32(self.0); for v in self.1.iter().chain(self.2.iter()) { hash_v(v, h); } }
}
impl PartialEq for MK {
    fn eq(&self, o: &MK) -> bool {
        self.0 == o.0 && self.1.iter().zip(o.1.iter()).all(|(a, b)| eq_v(a, b))
            && self.2.len() == o.2.len() && self.2.iter().zip(o.2.iter()).all(|(a, b)| eq_v(a, b))
    }
}
impl Eq for MK {}
%HOT%fn memo_get(k: &MK) -> Option<V> { MEMO.with(|m| m.borrow().get(k).cloned()) }
%HOT%fn memo_put(k: MK, v: V) {
    MEMO.with(|m| { let mut m = m.borrow_mut(); if m.len() > 2_000_000 { m.clear(); } m.insert(k, v); })
}
fn memo_clear() { MEMO.with(|m| m.borrow_mut().clear()); tmemo_clear(); }
// steps per clause: $VERISCALE_POST2EXE_FUEL, else DEFAULT_FUEL (a count, never a clock)
const DEFAULT_FUEL: u64 = %DEFAULT_FUEL%;
fn fuel_limit() -> u64 {
    std::env::var("VERISCALE_POST2EXE_FUEL").ok().and_then(|s| s.trim().parse::<u64>().ok()).filter(|n| *n > 0).unwrap_or(DEFAULT_FUEL)
}
thread_local! {
    static MAX_FUEL: u64 = fuel_limit();
    static STEPS: Cell<u64> = Cell::new(0);  // steps of every clause of the current verdict
    static UNFLUSHED: Cell<u64> = Cell::new(0);  // steps spent since the output was last flushed
}
// Output is buffered, not flushed per verdict (a write system call per case was a large share of a cheap
// case's cost). It is flushed when the checker is about to wait for input, at its end, and once the cases
// answered since the last flush used FLUSH_STEPS steps: a batch killed by its clock loses at most that
// much work, counted in steps (deterministic), not in time.
const FLUSH_STEPS: u64 = 1 << 20;
fn flush_due() -> bool {
    UNFLUSHED.with(|u| { let n = u.get(); if n >= FLUSH_STEPS { u.set(0); true } else { false } })
}
const MAX_DEPTH: u32 = 100_000;

#[cold] fn unk<T>(m: &str) -> Result<T, E> { Err(E::Unk(m.to_string())) }
// the message of an index out of bounds, out of line (cold) so `idx`/`idx_i` stay small enough to inline
#[cold] fn oob<T>(i: i128, n: usize) -> Result<T, E> { Err(E::Unk(format!("index {} out of bounds (length {})", i, n))) }
// (not #[inline]: an inline runtime function is compiled again inside every checker, at the checker's
// opt-level 0; a call into the optimised runtime library is faster)
%HOT%fn charge() -> Result<(), E> {
    FUEL.with(|f| { let n = f.get() + 1; f.set(n); let m = MAX_FUEL.with(|m| *m); if n > m { Err(E::Fuel(format!("step budget of {} exhausted", m))) } else { Ok(()) } })
}
// A range loop that runs to its end charges at least one step per value. One with more values than the
// clause has steps left cannot finish: instead of burning the whole budget it becomes a search for the
// value that decides it early (a witness of `exists`, a counterexample of `forall`) with SEARCH_SHARE of
// the budget; when that runs out, the values not tried are UNKNOWN ("exceeds the step budget").
// `search_cap` gives the steps a loop may use (u64::MAX: it fits), `steps_used` the clause's steps so far.
const SEARCH_SHARE: u64 = 64;
%HOT%fn steps_used() -> u64 { FUEL.with(|f| f.get()) }
fn search_cap(lo: i128, hi: i128) -> u64 {
    if hi < lo { return u64::MAX; }
    let max = MAX_FUEL.with(|m| *m);
    let left = max.saturating_sub(steps_used());
    match hi.checked_sub(lo).and_then(|d| d.checked_add(1)) {
        Some(n) if n <= left as i128 => u64::MAX,
        _ => (max / SEARCH_SHARE).max(1).min(left),
    }
}
// why a search stopped: with the search share of the budget, the values not tried are UNKNOWN (`Unk`: the
// Python evaluator may still pin the binder with a solver); with less (the clause had less than the share
// left) the budget itself is spent (`Fuel`, as when `charge` fails)
fn range_cut(lo: i128, hi: i128, next: i128, cap: u64) -> E {
    let max = MAX_FUEL.with(|m| *m);
    if cap < (max / SEARCH_SHARE).max(1) { return E::Fuel(format!("step budget of {} exhausted", max)); }
    let n = hi.checked_sub(lo).and_then(|d| d.checked_add(1)).map_or(format!("{}..={}", lo, hi), |n| n.to_string());
    E::Unk(format!("range of {} values exceeds the step budget: undecided after {} values ({} steps)", n, next - lo, cap))
}
%HOT%fn enter() -> Result<(), E> {
    DEPTH.with(|d| { let n = d.get() + 1; d.set(n); if n > MAX_DEPTH { Err(E::Fuel(format!("spec recursion deeper than {}", MAX_DEPTH))) } else { Ok(()) } })
}
%HOT%fn leave() { DEPTH.with(|d| d.set(d.get() - 1)); }

%HOT%fn int(v: &V) -> Result<i128, E> {
    match v { V::I(n) => Ok(*n), _ => unk("expected an integer") }
}
%HOT%fn truth(v: &V) -> Result<bool, E> {
    match v { V::B(b) => Ok(*b), _ => unk("expected a boolean") }
}
%HOT%fn seq(v: &V) -> Result<&Rc<Vec<V>>, E> {
    match v { V::S(s) => Ok(s), _ => unk("expected a sequence") }
}
%HOT%fn mk(v: Vec<V>) -> V { V::S(Rc::new(v)) }
#[cold] fn ovf<T>() -> Result<T, E> { unk("integer beyond the i128 range of the compiled checker") }
%HOT%fn add(a: &V, b: &V) -> R {
    match (a, b) {
        (V::S(x), V::S(y)) => { let mut v = (**x).clone(); v.extend(y.iter().cloned()); Ok(mk(v)) }
        _ => match int(a)?.checked_add(int(b)?) { Some(n) => Ok(V::I(n)), None => ovf() },
    }
}
%HOT%fn sub(a: &V, b: &V) -> R { match int(a)?.checked_sub(int(b)?) { Some(n) => Ok(V::I(n)), None => ovf() } }
%HOT%fn mul(a: &V, b: &V) -> R { match int(a)?.checked_mul(int(b)?) { Some(n) => Ok(V::I(n)), None => ovf() } }
%HOT%fn emod_i(a: i128, b: i128) -> Result<i128, E> {
    if b == 0 { return unk("remainder by zero"); }
    match b.checked_abs() { Some(m) => Ok(a.rem_euclid(m)), None => ovf() }
}
fn ediv(a: &V, b: &V) -> R {
    let (a, b) = (int(a)?, int(b)?);
    if b == 0 { return unk("division by zero"); }
    let r = emod_i(a, b)?;
    match a.checked_sub(r) { Some(d) => match d.checked_div(b) { Some(q) => Ok(V::I(q)), None => ovf() }, None => ovf() }
}
// i128 forms of the operations for the typed fast path (``typed``): same checks, same messages
%HOT%fn ck(x: Option<i128>) -> Result<i128, E> { match x { Some(n) => Ok(n), None => ovf() } }
%HOT%fn ediv_i(a: i128, b: i128) -> Result<i128, E> {
    if b == 0 { return unk("division by zero"); }
    let r = emod_i(a, b)?;
    match a.checked_sub(r) { Some(d) => match d.checked_div(b) { Some(q) => Ok(q), None => ovf() }, None => ovf() }
}
%HOT%fn len_i(v: &V) -> Result<i128, E> {
    match v { V::M(m) => Ok(m.len() as i128), _ => Ok(seq(v)?.len() as i128) }
}
%HOT%fn idx_i(s: &V, i: i128) -> Result<i128, E> {
    let s = seq(s)?;
    if i < 0 || i >= s.len() as i128 { return oob(i, s.len()); }
    int(&s[i as usize])
}
%HOT%fn idx2_i(s: &V, i: i128, j: i128) -> Result<i128, E> {
    let s = seq(s)?;
    if i < 0 || i >= s.len() as i128 { return oob(i, s.len()); }
    idx_i(&s[i as usize], j)
}
%HOT%fn cast_i(n: i128, lo: Option<i128>, hi: Option<i128>, what: &str) -> Result<i128, E> {
    if lo.map_or(false, |l| n < l) || hi.map_or(false, |h| n > h) {
        return Err(E::Unk(format!("{} cast to {} is out of range", n, what)));
    }
    Ok(n)
}
%HOT%fn emod(a: &V, b: &V) -> R { Ok(V::I(emod_i(int(a)?, int(b)?)?)) }
fn neg(a: &V) -> R { match int(a)?.checked_neg() { Some(n) => Ok(V::I(n)), None => ovf() } }
fn not(a: &V) -> R { match a { V::B(b) => Ok(V::B(!b)), _ => unk("bitwise ! on an integer") } }
fn bit(op: char, a: &V, b: &V) -> R {
    match (a, b) {
        (V::B(x), V::B(y)) => Ok(V::B(match op { '&' => x & y, '|' => x | y, _ => x ^ y })),
        _ => { let (x, y) = (int(a)?, int(b)?); Ok(V::I(match op { '&' => x & y, '|' => x | y, _ => x ^ y })) }
    }
}
fn shl(a: &V, b: &V) -> R {
    let (x, s) = (int(a)?, int(b)?);
    if s < 0 || s > 4096 { return unk("shift out of range"); }
    if x == 0 { return Ok(V::I(0)); }
    if s >= 127 { return ovf(); }
    let r = x << s;
    if (r >> s) != x { return ovf(); }
    Ok(V::I(r))
}
fn shr(a: &V, b: &V) -> R {
    let (x, s) = (int(a)?, int(b)?);
    if s < 0 { return unk("shift out of range"); }
    Ok(V::I(if s >= 127 { if x < 0 { -1 } else { 0 } } else { x >> s }))
}
fn cmp(op: &str, a: &V, b: &V) -> Result<bool, E> {
    match op { "==" => Ok(a == b), "!=" => Ok(a != b), "<" => lt(a, b), "<=" => le(a, b), ">" => lt(b, a), _ => le(b, a) }
}
// one function per comparison (the emitted code calls these: no operator string matched per comparison)
%HOT%fn ord_of(a: &V, b: &V) -> Result<std::cmp::Ordering, E> {
    match (a, b) {
        (V::I(x), V::I(y)) => Ok(x.cmp(y)),
        (V::C(x), V::C(y)) => Ok(x.cmp(y)),
        _ => unk("ordering comparison of non-integers"),
    }
}
%HOT%fn lt(a: &V, b: &V) -> Result<bool, E> { if let (V::I(x), V::I(y)) = (a, b) { return Ok(x < y); } Ok(ord_of(a, b)?.is_lt()) }
%HOT%fn le(a: &V, b: &V) -> Result<bool, E> { if let (V::I(x), V::I(y)) = (a, b) { return Ok(x <= y); } Ok(ord_of(a, b)?.is_le()) }
%HOT%fn gt(a: &V, b: &V) -> Result<bool, E> { lt(b, a) }
%HOT%fn ge(a: &V, b: &V) -> Result<bool, E> { le(b, a) }
%HOT%fn eq(a: &V, b: &V) -> Result<bool, E> { Ok(a == b) }
%HOT%fn ne(a: &V, b: &V) -> Result<bool, E> { Ok(a != b) }
%HOT%fn to_int(v: &V) -> Result<i128, E> {
    match v { V::I(n) => Ok(*n), V::B(b) => Ok(*b as i128), V::C(c) => Ok(*c as i128), _ => unk("cast of a non-scalar") }
}
fn cast(v: &V, lo: Option<i128>, hi: Option<i128>, what: &str) -> R {
    let n = to_int(v)?;
    if lo.map_or(false, |l| n < l) || hi.map_or(false, |h| n > h) {
        return Err(E::Unk(format!("{} cast to {} is out of range", n, what)));
    }
    Ok(V::I(n))
}
fn cast_char(v: &V) -> R {
    let n = to_int(v)?;
    if n < 0 || n > 0x10FFFF { return unk("not a char"); }
    match char::from_u32(n as u32) { Some(c) => Ok(V::C(c)), None => unk("not a char") }
}
%HOT%fn len(v: &V) -> R {
    match v { V::M(m) => Ok(V::I(m.len() as i128)), _ => Ok(V::I(seq(v)?.len() as i128)) }
}
// a multiset: its elements sorted (a canonical form, so == is multiset equality)
fn to_multiset(s: &V) -> R { let mut v = (**seq(s)?).clone(); v.sort(); Ok(V::M(Rc::new(v))) }
fn mcount(m: &V, x: &V) -> R {
    match m { V::M(q) => Ok(V::I(q.iter().filter(|y| *y == x).count() as i128)), _ => unk("count of a non-multiset") }
}
fn nonneg_len(n: &V) -> Result<usize, E> {
    let n = int(n)?;
    if n < 0 { return unk("Seq::new with a negative length"); }
    if n > 5_000_000 { return Err(E::Fuel("sequence too long".to_string())); }
    Ok(n as usize)
}
%HOT%fn idx(s: &V, i: &V) -> R {
    let s = seq(s)?;
    let i = int(i)?;
    if i < 0 || i >= s.len() as i128 { return oob(i, s.len()); }
    Ok(s[i as usize].clone())
}
fn subrange(s: &V, a: &V, b: &V) -> R {
    let s = seq(s)?;
    let (a, b) = (int(a)?, int(b)?);
    if a < 0 || a > b || b > s.len() as i128 { return unk("subrange out of bounds"); }
    Ok(mk(s[a as usize..b as usize].to_vec()))
}
fn take(s: &V, n: &V) -> R { subrange(s, &V::I(0), n) }
fn skip(s: &V, n: &V) -> R { let l = V::I(seq(s)?.len() as i128); subrange(s, n, &l) }
fn push(s: &V, x: &V) -> R { let mut v = (**seq(s)?).clone(); v.push(x.clone()); Ok(mk(v)) }
fn nonempty<'a>(s: &'a V, what: &str) -> Result<&'a Rc<Vec<V>>, E> {
    let q = seq(s)?;
    if q.is_empty() { return Err(E::Unk(format!("{} of an empty sequence", what))); }
    Ok(q)
}
fn drop_last(s: &V) -> R { let q = nonempty(s, "drop_last")?; Ok(mk(q[..q.len() - 1].to_vec())) }
fn drop_first(s: &V) -> R { let q = nonempty(s, "drop_first")?; Ok(mk(q[1..].to_vec())) }
fn last(s: &V) -> R { let q = nonempty(s, "last")?; Ok(q[q.len() - 1].clone()) }
fn first(s: &V) -> R { let q = nonempty(s, "first")?; Ok(q[0].clone()) }
fn contains(s: &V, x: &V) -> R {
    match s { V::M(q) => Ok(V::B(q.iter().any(|y| y == x))), _ => Ok(V::B(seq(s)?.iter().any(|y| y == x))) }
}
fn reverse(s: &V) -> R { let mut v = (**seq(s)?).clone(); v.reverse(); Ok(mk(v)) }
fn update(s: &V, i: &V, x: &V) -> R {
    let q = seq(s)?;
    let i = int(i)?;
    if i < 0 || i >= q.len() as i128 { return unk("update out of bounds"); }
    let mut v = (**q).clone();
    v[i as usize] = x.clone();
    Ok(mk(v))
}
fn vmin(a: &V, b: &V) -> R { Ok(V::I(int(a)?.min(int(b)?))) }
fn vmax(a: &V, b: &V) -> R { Ok(V::I(int(a)?.max(int(b)?))) }
fn vabs(a: &V) -> R { match int(a)?.checked_abs() { Some(n) => Ok(V::I(n)), None => ovf() } }
fn pow(b: &V, e: &V) -> R {
    let (b, e) = (int(b)?, int(e)?);
    if e < 0 { return unk("pow with a negative exponent"); }
    if e > u32::MAX as i128 { return ovf(); }
    match b.checked_pow(e as u32) { Some(n) => Ok(V::I(n)), None => ovf() }
}
fn str_v(s: &str) -> V { mk(s.chars().map(V::C).collect()) }

// ---- JSON -> V by a type descriptor
enum T { Int(Option<i128>, Option<i128>), Bool, Char, Str, Seq(Box<T>), Tup(Vec<T>), Unit }
fn from_j(t: &T, j: &J) -> Result<V, String> {
    match (t, j) {
        (T::Int(lo, hi), J::Num(s)) => {
            let n: i128 = s.parse().map_err(|_| format!("{} is not an integer of the checker", s))?;
            if lo.map_or(false, |l| n < l) || hi.map_or(false, |h| n > h) { return Err(format!("{} is out of range", n)); }
            Ok(V::I(n))
        }
        (T::Bool, J::Bool(b)) => Ok(V::B(*b)),
        (T::Char, J::Str(s)) => { let mut it = s.chars(); match (it.next(), it.next()) { (Some(c), None) => Ok(V::C(c)), _ => Err("char is not one character".to_string()) } }
        (T::Str, J::Str(s)) => Ok(str_v(s)),
        (T::Seq(e), J::Str(s)) if matches!(**e, T::Char) => Ok(str_v(s)),
        (T::Seq(e), J::Arr(xs)) => Ok(mk(xs.iter().map(|x| from_j(e, x)).collect::<Result<Vec<_>, _>>()?)),
        (T::Tup(ts), J::Arr(xs)) if ts.len() == xs.len() => Ok(mk(ts.iter().zip(xs.iter()).map(|(t, x)| from_j(t, x)).collect::<Result<Vec<_>, _>>()?)),
        (T::Unit, J::Null) => Ok(V::U),
        (T::Unit, J::Arr(xs)) if xs.is_empty() => Ok(V::U),
        _ => Err("JSON value does not match the type".to_string()),
    }
}
fn field<'a>(j: &'a J, k: &str) -> Option<&'a J> {
    match j { J::Obj(fs) => fs.iter().find(|(n, _)| n == k).map(|(_, v)| v), _ => None }
}
fn esc(s: &str, o: &mut String) {
    o.push('"');
    for c in s.chars() {
        match c { '"' => o.push_str("\\\""), '\\' => o.push_str("\\\\"), c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)), c => o.push(c) }
    }
    o.push('"');
}
fn verdict(o: &mut String, key: &str, clauses: &[(&str, &dyn Fn() -> Result<bool, E>)]) {
    // FALSE as soon as one clause is false; TRUE when all are true; else the first UNKNOWN
    let mut first: Option<String> = None;
    let mut fals: Option<String> = None;
    STEPS.with(|x| x.set(0));
    for (text, f) in clauses {
        FUEL.with(|x| x.set(0));
        DEPTH.with(|d| d.set(0));
        memo_clear();
        let got = f();
        let used = FUEL.with(|f| f.get());
        STEPS.with(|x| x.set(x.get() + used));
        UNFLUSHED.with(|u| u.set(u.get() + used + 1));
        match got {
            Ok(true) => {}
            Ok(false) => { fals = Some(format!("clause `{}` is false", text)); break; }
            Err(E::Unk(m)) | Err(E::Fuel(m)) => if first.is_none() { first = Some(format!("clause `{}`: {}", text, m)); },
        }
    }
    let (v, why) = match (fals, first) { (Some(w), _) => ("FALSE", w), (None, Some(w)) => ("UNKNOWN", w), _ => ("TRUE", String::new()) };
    o.push_str(&format!("\"{}\":\"{}\",\"{}_steps\":{},\"{}_reason\":", key, v, key, STEPS.with(|x| x.get()), key));
    esc(&why, o);
}
"""

# steps (quantifier instances + spec fn calls) per clause of a checker run by hand; ``VERISCALE_POST2EXE_FUEL``
# overrides it when the checker starts, and the engine always passes its own (``checker.CHECK_FUEL``)
CHECKER_FUEL = 20_000_000
RUNTIME = (RUNTIME + MEMO_RUNTIME).replace("%DEFAULT_FUEL%", f"{CHECKER_FUEL:_}")


def _lib(hot: str) -> str:
    """The runtime as a library crate (compiled once, optimised; checkers link it): every item public;
    ``hot`` is put before the small helpers every clause calls (the ``%HOT%`` marks)."""
    return "#![allow(warnings)]\nextern crate vs_json as __vs;\n" + re.sub(
        r"^(#\[(?:inline|cold)\] )?(fn|enum|type|const|struct) ",
        r"\1pub \2 ",
        RUNTIME.replace("%HOT%", hot),
        flags=re.M,
    )


# Two builds of the library. An `#[inline]` function is compiled again inside every crate that calls it, at
# that crate's opt-level: inside an opt-level-0 checker that is slower than a call into the optimised
# library (RUNTIME_LIB, for opt-level 0), while an optimised checker inlines it and then folds the value
# matches and the memo key into the caller (RUNTIME_LIB_INLINE, for opt-level 1 and above).
RUNTIME_LIB = _lib("")
RUNTIME_LIB_INLINE = _lib("#[inline] ")
RUNTIME = RUNTIME.replace("%HOT%", "")
