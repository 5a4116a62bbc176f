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
from .state_rs import STATE_RUNTIME

__all__ = ["CHECKER_FUEL", "RUNTIME", "RUNTIME_CRATE", "RUNTIME_LIB", "RUNTIME_LIB_INLINE"]

RUNTIME_CRATE = "vs_post2exe"

RUNTIME = r"""
use std::rc::Rc;
use std::cell::Cell;
use std::collections::HashMap;
use std::io::{BufRead, Write};
pub use __vs::{parse, J};
%STATE%

// (`repr(u64)`: an 8-byte tag before word-aligned payloads. With the default layout a `V` was moved with
// overlapping 4-byte loads of its tag and bool/char bytes right after byte stores of them — store-forwarding
// stalls on every memo hit and return. The derives do not depend on the representation: same order, same
// equality)
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u64)]
enum V { U, B(bool), I(i128), C(char), S(Rc<Vec<V>>), M(Rc<Vec<V>>) }

#[derive(Clone, Debug)]
enum E { Unk(String), Fuel(String) }
type R = Result<V, E>;

// ---- the evaluation state touched on every step, spec fn call and memo probe: plain statics, not
// thread-locals (post2exe/state_rs.py explains why that is sound: one thread evaluates)
static FUEL: One<Cell<u64>> = One(Cell::new(0));  // steps of the current clause
static FUEL_MAX: One<Cell<u64>> = One(Cell::new(0));  // its budget, set when the clause starts (`verdict`)
static DEPTH: One<Cell<u32>> = One(Cell::new(0));
static MEMO: One<std::cell::UnsafeCell<HashMap<MK, V, FxB>>> =
    One(std::cell::UnsafeCell::new(HashMap::with_hasher(std::hash::BuildHasherDefault::new())));
%HOT%fn memo_map() -> &'static mut HashMap<MK, V, FxB> { unsafe { &mut *MEMO.0.get() } }
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
%HOT%fn memo_get(k: &MK) -> Option<V> { memo_map().get(k).cloned() }
%HOT%fn memo_put(k: MK, v: V) {
    let m = memo_map();
    if m.len() > 2_000_000 { m.clear(); }
    m.insert(k, v);
}
fn memo_clear() { memo_map().clear(); tmemo_clear(); }
// steps per clause: $VERISCALE_POST2EXE_FUEL, else DEFAULT_FUEL (a count, never a clock)
const DEFAULT_FUEL: u64 = %DEFAULT_FUEL%;
fn fuel_limit() -> u64 {
    std::env::var("VERISCALE_POST2EXE_FUEL").ok().and_then(|s| s.trim().parse::<u64>().ok()).filter(|n| *n > 0).unwrap_or(DEFAULT_FUEL)
}
// steps a range search beyond the budget may use (see `search_cap`): $VERISCALE_POST2EXE_SEARCH (0: such
// a range is refused at once, UNKNOWN "exceeds the step budget", for the Python evaluator's solvers), else
// the budget / SEARCH_SHARE
fn search_limit() -> u64 {
    std::env::var("VERISCALE_POST2EXE_SEARCH").ok().and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or_else(|| (fuel_limit() / SEARCH_SHARE).max(1))
}
static MAX_FUEL: One<Cell<u64>> = One(Cell::new(0));  // 0: not read yet (`max_fuel`; a budget is >= 1)
static SEARCH: One<Cell<u64>> = One(Cell::new(u64::MAX));  // u64::MAX: not read yet (`search`)
thread_local! {
    static STEPS: Cell<u64> = const { Cell::new(0) };  // steps of every clause of the current verdict
    static UNFLUSHED: Cell<u64> = const { Cell::new(0) };  // steps spent since the output was last flushed
}
%HOT%fn max_fuel() -> u64 { let v = MAX_FUEL.0.get(); if v != 0 { v } else { read_max_fuel() } }
#[cold] fn read_max_fuel() -> u64 { let v = fuel_limit(); MAX_FUEL.0.set(v); v }
fn search() -> u64 {
    let v = SEARCH.0.get();
    if v != u64::MAX { return v; }
    let v = search_limit().min(u64::MAX - 1);
    SEARCH.0.set(v);
    v
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
    let n = FUEL.0.get() + 1;
    FUEL.0.set(n);
    if n > FUEL_MAX.0.get() { return out_of_fuel(n); }
    Ok(())
}
// (out of line: `charge` stays a load, an add, a store and a compare; FUEL_MAX is the clause's budget, set
// by `verdict` before each clause — 0 outside a clause, where the budget is read here)
#[cold] fn out_of_fuel(n: u64) -> Result<(), E> {
    let m = max_fuel();
    if n > m { return Err(E::Fuel(format!("step budget of {} exhausted", m))); }
    FUEL_MAX.0.set(m);
    Ok(())
}
// A range loop that runs to its end charges at least one step per value. One with more values than the
// clause has steps left cannot finish: instead of burning the whole budget it becomes a search for the
// value that decides it early (a witness of `exists`, a counterexample of `forall`) with SEARCH_SHARE of
// the budget; when that runs out, the values not tried are UNKNOWN ("exceeds the step budget").
// `search_cap` gives the steps a loop may use (u64::MAX: it fits), `steps_used` the clause's steps so far.
const SEARCH_SHARE: u64 = 64;
%HOT%fn steps_used() -> u64 { FUEL.0.get() }
// With a search share of 0 (the engine's setting) only a range with more values than the WHOLE budget is
// refused (at once, `Unk`: for the Python evaluator's solvers); one that merely has more values than the
// clause has steps left runs on until the budget is spent (`Fuel`), as a loop without the search would.
fn fits_budget(lo: i128, hi: i128, steps: u64) -> bool {
    matches!(hi.checked_sub(lo).and_then(|d| d.checked_add(1)), Some(n) if n <= steps as i128)
}
fn search_cap(lo: i128, hi: i128) -> u64 {
    if hi < lo { return u64::MAX; }
    let max = max_fuel();
    let left = max.saturating_sub(steps_used());
    if fits_budget(lo, hi, left) { return u64::MAX; }
    match search() {
        0 => if fits_budget(lo, hi, max) { left } else { 0 },
        share => share.min(left),
    }
}
// why a search stopped: with the search share of the budget, the values not tried are UNKNOWN (`Unk`: the
// Python evaluator may still pin the binder with a solver); with less (the clause had less than the share
// left) the budget itself is spent (`Fuel`, as when `charge` fails). With a share of 0: `Unk` for a range
// beyond the whole budget (refused), else the budget is spent (`Fuel`).
fn range_cut(lo: i128, hi: i128, next: i128, cap: u64) -> E {
    let max = max_fuel();
    let spent = match search() { 0 => fits_budget(lo, hi, max), share => cap < share };
    if spent { return E::Fuel(format!("step budget of {} exhausted", max)); }
    let n = hi.checked_sub(lo).and_then(|d| d.checked_add(1)).map_or(format!("{}..={}", lo, hi), |n| n.to_string());
    E::Unk(format!("range of {} values exceeds the step budget: undecided after {} values ({} steps)", n, next - lo, cap))
}
%HOT%fn enter() -> Result<(), E> {
    let n = DEPTH.0.get() + 1;
    DEPTH.0.set(n);
    if n > MAX_DEPTH { return too_deep(); }
    Ok(())
}
#[cold] fn too_deep() -> Result<(), E> { Err(E::Fuel(format!("spec recursion deeper than {}", MAX_DEPTH))) }
%HOT%fn leave() { DEPTH.0.set(DEPTH.0.get() - 1); }

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

// ---- the case reader: JSON text -> V by a type descriptor, with no generic JSON tree in between.
// A request line is first validated as a whole by `Sk` (the same grammar, checks and messages as the
// prelude's JSON parser, which built a tree of owned strings and vectors for every case); a value is then
// a `Js`, the text of a validated value, and `field`/`from_j` read keys and typed values straight from
// that text (numbers parsed in place, strings unescaped only when they hold a backslash).
enum T { Int(Option<i128>, Option<i128>), Bool, Char, Str, Seq(Box<T>), Tup(Vec<T>), Unit }
#[derive(Clone, Copy)]
struct Js<'a>(&'a [u8]);
const JS_NULL: Js<'static> = Js(b"null");
// validating scanner: accepts exactly what the prelude's `parse` accepts, with the same error messages
struct Sk<'a> { s: &'a [u8], i: usize }
impl<'a> Sk<'a> {
    fn ws(&mut self) { while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') { self.i += 1; } }
    fn lit(&mut self, w: &[u8]) -> Result<(), String> {
        if self.s[self.i..].starts_with(w) { self.i += w.len(); Ok(()) } else { Err(format!("bad literal at {}", self.i)) }
    }
    fn value(&mut self) -> Result<(), String> {
        self.ws();
        if self.i >= self.s.len() { return Err("unexpected end of JSON".to_string()); }
        match self.s[self.i] {
            b'n' => self.lit(b"null"),
            b't' => self.lit(b"true"),
            b'f' => self.lit(b"false"),
            b'"' => self.string(),
            b'[' => {
                self.i += 1;
                self.ws();
                if self.i < self.s.len() && self.s[self.i] == b']' { self.i += 1; return Ok(()); }
                loop {
                    self.value()?;
                    self.ws();
                    if self.i >= self.s.len() { return Err("unterminated array".to_string()); }
                    match self.s[self.i] {
                        b',' => self.i += 1,
                        b']' => { self.i += 1; return Ok(()); }
                        _ => return Err(format!("expected , or ] at {}", self.i)),
                    }
                }
            }
            b'{' => {
                self.i += 1;
                self.ws();
                if self.i < self.s.len() && self.s[self.i] == b'}' { self.i += 1; return Ok(()); }
                loop {
                    self.ws();
                    if self.i >= self.s.len() || self.s[self.i] != b'"' { return Err(format!("expected key at {}", self.i)); }
                    self.string()?;
                    self.ws();
                    if self.i >= self.s.len() || self.s[self.i] != b':' { return Err(format!("expected : at {}", self.i)); }
                    self.i += 1;
                    self.value()?;
                    self.ws();
                    if self.i >= self.s.len() { return Err("unterminated object".to_string()); }
                    match self.s[self.i] {
                        b',' => self.i += 1,
                        b'}' => { self.i += 1; return Ok(()); }
                        _ => return Err(format!("expected , or }} at {}", self.i)),
                    }
                }
            }
            c if c == b'-' || c.is_ascii_digit() => {
                self.i += 1;
                while self.i < self.s.len() && matches!(self.s[self.i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') { self.i += 1; }
                Ok(())
            }
            _ => Err(format!("unexpected byte at {}", self.i)),
        }
    }
    fn hex4(&mut self) -> Result<u32, String> {
        if self.i + 4 > self.s.len() { return Err("short \\u escape".to_string()); }
        let h = std::str::from_utf8(&self.s[self.i..self.i + 4]).map_err(|_| "bad \\u escape".to_string())?;
        self.i += 4;
        u32::from_str_radix(h, 16).map_err(|_| "bad \\u escape".to_string())
    }
    // a string from its opening quote; `out`: where its decoded bytes go (None: only checked)
    fn string_into(&mut self, mut out: Option<&mut Vec<u8>>) -> Result<(), String> {
        self.i += 1;
        loop {
            if self.i >= self.s.len() { return Err("unterminated string".to_string()); }
            let c = self.s[self.i];
            self.i += 1;
            match c {
                b'"' => return Ok(()),
                b'\\' => {
                    if self.i >= self.s.len() { return Err("bad escape".to_string()); }
                    let e = self.s[self.i];
                    self.i += 1;
                    let ch: char = match e {
                        b'"' => '"', b'\\' => '\\', b'/' => '/', b'b' => '\u{8}', b'f' => '\u{c}',
                        b'n' => '\n', b'r' => '\r', b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let cp = if (0xD800..0xDC00).contains(&hi) {
                                if self.i + 2 <= self.s.len() && self.s[self.i] == b'\\' && self.s[self.i + 1] == b'u' {
                                    self.i += 2;
                                    let lo = self.hex4()?;
                                    0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF)
                                } else {
                                    return Err("lone surrogate".to_string());
                                }
                            } else { hi };
                            char::from_u32(cp).ok_or_else(|| "bad code point".to_string())?
                        }
                        _ => return Err("bad escape".to_string()),
                    };
                    if let Some(o) = out.as_deref_mut() { let mut b = [0u8; 4]; o.extend_from_slice(ch.encode_utf8(&mut b).as_bytes()); }
                }
                c => if let Some(o) = out.as_deref_mut() { o.push(c) },
            }
        }
    }
    fn string(&mut self) -> Result<(), String> { self.string_into(None) }
}
// the end of the value starting at `i` of validated text (no checks: `Sk` has made them)
fn skip_js(s: &[u8], mut i: usize) -> usize {
    match s[i] {
        b'"' => {
            i += 1;
            while s[i] != b'"' { i += if s[i] == b'\\' { 2 } else { 1 }; }
            i + 1
        }
        b'[' | b'{' => {
            let mut depth = 0usize;
            loop {
                match s[i] {
                    b'"' => { i = skip_js(s, i); continue; }
                    b'[' | b'{' => depth += 1,
                    b']' | b'}' => { depth -= 1; if depth == 0 { return i + 1; } }
                    _ => {}
                }
                i += 1;
            }
        }
        b'n' | b't' => i + 4,
        b'f' => i + 5,
        _ => { i += 1; while i < s.len() && matches!(s[i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') { i += 1; } i }
    }
}
#[inline] fn ws_at(s: &[u8], mut i: usize) -> usize { while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | b'\r') { i += 1; } i }
// the elements of a validated array `s` (from its `[`), each given to `f` in order; stops at f's first error
fn each_js<'a>(s: &'a [u8], f: &mut dyn FnMut(&'a [u8]) -> Result<(), String>) -> Result<(), String> {
    let mut i = ws_at(s, 1);
    if s[i] == b']' { return Ok(()); }
    loop {
        let e = skip_js(s, i);
        f(&s[i..e])?;
        i = ws_at(s, e);
        if s[i] == b']' { return Ok(()); }
        i = ws_at(s, i + 1);  // past the ','
    }
}
// a validated string's decoded text (no copy of its bytes' meaning: escapes decoded as the prelude does)
fn str_js(s: &[u8]) -> Result<std::borrow::Cow<'_, str>, String> {
    let body = &s[1..s.len() - 1];
    if !body.contains(&b'\\') {
        return std::str::from_utf8(body).map(std::borrow::Cow::Borrowed).map_err(|_| "invalid UTF-8 in string".to_string());
    }
    let mut out = Vec::with_capacity(body.len());
    Sk { s, i: 0 }.string_into(Some(&mut out))?;
    String::from_utf8(out).map(std::borrow::Cow::Owned).map_err(|_| "invalid UTF-8 in string".to_string())
}
// (a value or a reference: the emitted code passes both)
fn from_j<'a, X: std::borrow::Borrow<Js<'a>>>(t: &T, j: X) -> Result<V, String> { from_js(t, j.borrow().0) }
fn mismatch<X>() -> Result<X, String> { Err("JSON value does not match the type".to_string()) }
fn from_js(t: &T, s: &[u8]) -> Result<V, String> {
    match (t, s[0]) {
        (T::Int(lo, hi), b'-' | b'0'..=b'9') => {
            let txt = std::str::from_utf8(s).map_err(|_| "invalid UTF-8".to_string())?;
            let n: i128 = txt.parse().map_err(|_| format!("{} is not an integer of the checker", txt))?;
            if lo.map_or(false, |l| n < l) || hi.map_or(false, |h| n > h) { return Err(format!("{} is out of range", n)); }
            Ok(V::I(n))
        }
        (T::Bool, b't') => Ok(V::B(true)),
        (T::Bool, b'f') => Ok(V::B(false)),
        (T::Char, b'"') => {
            let st = str_js(s)?;
            let mut it = st.chars();
            match (it.next(), it.next()) { (Some(c), None) => Ok(V::C(c)), _ => Err("char is not one character".to_string()) }
        }
        (T::Str, b'"') => Ok(str_v(&str_js(s)?)),
        (T::Seq(e), b'"') if matches!(**e, T::Char) => Ok(str_v(&str_js(s)?)),
        (T::Seq(e), b'[') => {
            let mut v = Vec::new();
            each_js(s, &mut |x| { v.push(from_js(e, x)?); Ok(()) })?;
            Ok(mk(v))
        }
        (T::Tup(ts), b'[') => {
            let mut xs: Vec<&[u8]> = Vec::with_capacity(ts.len());
            each_js(s, &mut |x| { xs.push(x); Ok(()) })?;
            if xs.len() != ts.len() { return mismatch(); }
            Ok(mk(ts.iter().zip(xs.iter()).map(|(t, x)| from_js(t, x)).collect::<Result<Vec<_>, _>>()?))
        }
        (T::Unit, b'n') => Ok(V::U),
        (T::Unit, b'[') if s[ws_at(s, 1)] == b']' => Ok(V::U),
        _ => mismatch(),
    }
}
// the value of the first key `k` of a validated object (None: not an object, or no such key)
fn field<'a>(j: &Js<'a>, k: &str) -> Option<Js<'a>> {
    let s = j.0;
    if s[0] != b'{' { return None; }
    let mut i = ws_at(s, 1);
    if s[i] == b'}' { return None; }
    loop {
        let ke = skip_js(s, i);
        let key = &s[i..ke];
        let hit = if key[1..key.len() - 1].contains(&b'\\') { str_js(key).map_or(false, |d| d == k) } else { &key[1..key.len() - 1] == k.as_bytes() };
        let vs = ws_at(s, ws_at(s, ke) + 1);  // past the ':'
        let ve = skip_js(s, vs);
        if hit { return Some(Js(&s[vs..ve])); }
        i = ws_at(s, ve);
        if s[i] == b'}' { return None; }
        i = ws_at(s, i + 1);  // past the ','
    }
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
        FUEL.0.set(0);
        FUEL_MAX.0.set(max_fuel());  // read once per clause, not per step
        DEPTH.0.set(0);
        memo_clear();
        let got = f();
        let used = FUEL.0.get();
        STEPS.with(|x| x.set(x.get() + used));
        UNFLUSHED.with(|u| u.set(u.get() + used + 1));
        match got {
            Ok(true) => {}
            Ok(false) => { fals = Some(format!("clause `{}` is false", text)); break; }
            Err(E::Unk(m)) | Err(E::Fuel(m)) => if first.is_none() { first = Some(format!("clause `{}`: {}", text, m)); },
        }
    }
    let (v, why) = match (fals, first) { (Some(w), _) => ("FALSE", w), (None, Some(w)) => ("UNKNOWN", w), _ => ("TRUE", String::new()) };
    if COMPACT.with(|c| *c) {  // one letter per verdict; the reason and the steps go apart (see `serve`)
        CODES.with(|c| c.borrow_mut().push(v.as_bytes()[0] as char));
        REASONS.with(|r| { let mut r = r.borrow_mut(); r.push('\t'); if why.is_empty() { r.push_str("\"\""); } else { esc(&why, &mut r); } });
        PENDING.with(|p| p.set(p.get() + STEPS.with(|x| x.get())));
        return;
    }
    o.push_str(&format!("\"{}\":\"{}\",\"{}_steps\":{},\"{}_reason\":", key, v, key, STEPS.with(|x| x.get()), key));
    esc(&why, o);
}

// ---- the request loop (the emitted `run` calls `serve(case)`)
// Replies: by default one JSON object per case (`verdict`); with VERISCALE_POST2EXE_REPLY=compact (what
// `CompiledChecker` asks for) one short line per case: a letter per verdict (T, F or U: requires, then
// ensures when the case has an output), then `#<steps>` on the last case of each request line and on a
// case after which the output is flushed (the steps of the cases answered since the previous `#`), then —
// only when a verdict is not TRUE — a tab and each verdict's reason as a JSON string, tab-separated. A
// case that does not decode is the same `{"bad": ...}` object in both forms (so is the session's end
// marker); when it ends a request line it carries the earlier cases' steps as `"steps"`. Most lines of a
// batch are then a few identical bytes that the reader maps without parsing.
thread_local! {
    static COMPACT: bool = std::env::var("VERISCALE_POST2EXE_REPLY").map_or(false, |v| v == "compact");
    static CODES: std::cell::RefCell<String> = std::cell::RefCell::new(String::new());
    static REASONS: std::cell::RefCell<String> = std::cell::RefCell::new(String::new());
    static PENDING: Cell<u64> = const { Cell::new(0) };  // steps of answered cases not yet reported by a `#`
}
type CaseFn = fn(&mut String, &Js, Option<&Js>) -> Result<(), String>;
fn bad_line(o: &mut String, m: &str) { o.clear(); o.push_str("{\"bad\":"); esc(m, o); o.push('}'); }
fn answer<W: Write>(out: &mut W, o: &mut String, case: CaseFn, c: &Js, compact: bool, last: bool) {
    o.clear();
    let pending = PENDING.with(|p| p.get());
    CODES.with(|x| x.borrow_mut().clear());
    REASONS.with(|x| x.borrow_mut().clear());
    let res = match field(c, "input") {
        None => Err("no input object".to_string()),
        Some(inp) => case(o, &inp, field(c, "output").as_ref()),
    };
    let due = flush_due();
    match res {
        Err(m) => {
            bad_line(o, &m);
            PENDING.with(|p| p.set(pending));  // (as in the JSON form: no steps for a case that does not decode)
            if compact && (last || due) && pending > 0 {  // the earlier cases' steps, on this line instead
                o.pop();
                o.push_str(&format!(",\"steps\":{}}}", pending));
                PENDING.with(|p| p.set(0));
            }
        }
        Ok(()) if compact => {
            o.clear();
            let all_true = CODES.with(|x| { let x = x.borrow(); o.push_str(&x); x.bytes().all(|b| b == b'T') });
            if last || due { let p = PENDING.with(|p| p.replace(0)); o.push('#'); o.push_str(&p.to_string()); }
            if !all_true { REASONS.with(|x| o.push_str(&x.borrow())); }
        }
        Ok(()) => {}
    }
    out.write_all(o.as_bytes()).ok();
    out.write_all(b"\n").ok();
    if due { out.flush().ok(); }
}
fn serve(case: CaseFn) {
    let compact = COMPACT.with(|c| *c);
    let mut rd = std::io::BufReader::with_capacity(1 << 16, std::io::stdin());
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout());
    let mut line = String::new();
    let mut o = String::new();
    loop {
        if rd.buffer().is_empty() { out.flush().ok(); }  // about to wait for input: answer first
        line.clear();
        match rd.read_line(&mut line) { Ok(0) | Err(_) => break, Ok(_) => {} }
        let t = line.trim();
        if t.is_empty() { continue; }
        let b = t.as_bytes();
        let mut sk = Sk { s: b, i: 0 };
        let checked = sk.value().and_then(|_| {
            sk.ws();
            if sk.i != b.len() { Err("trailing characters after JSON".to_string()) } else { Ok(()) }
        });
        match checked {
            Err(m) => { bad_line(&mut o, &m); out.write_all(o.as_bytes()).ok(); out.write_all(b"\n").ok(); }
            Ok(()) if b[0] == b'[' => {
                let mut items: Vec<&[u8]> = Vec::new();
                each_js(b, &mut |x| { items.push(x); Ok(()) }).ok();
                let n = items.len();
                for (k, x) in items.into_iter().enumerate() { answer(&mut out, &mut o, case, &Js(x), compact, k + 1 == n); }
            }
            Ok(()) => answer(&mut out, &mut o, case, &Js(b), compact, true),
        }
    }
    out.flush().ok();
}
"""

# steps (quantifier instances + spec fn calls) per clause of a checker run by hand; ``VERISCALE_POST2EXE_FUEL``
# overrides it when the checker starts, and the engine always passes its own (``checker.CHECK_FUEL``)
CHECKER_FUEL = 20_000_000
RUNTIME = (
    (RUNTIME + MEMO_RUNTIME).replace("%DEFAULT_FUEL%", f"{CHECKER_FUEL:_}").replace("%STATE%", STATE_RUNTIME)
)


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
