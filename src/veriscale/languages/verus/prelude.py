"""Rust source fragments spliced into generated programs.

* ``SHIMS``: plain-Rust stand-ins for the few vstd APIs that survive in
  reference and erased code (``Vec::set``, ``str::unicode_len``/``get_char``, …).
* ``PRELUDE_LIB`` (a library crate, compiled once and linked as ``__vs``) or
  ``JSON_MODULE`` (the same code as an inline module ``__vs``): a small strict JSON reader/writer with
  ``FromJ``/``ToJ`` traits for the value types VeriContest uses, the
  one-case-per-line driver (each call on its own thread with a big stack;
  a panic is reported, not fatal), and the tracer used to record the calls a
  Codeforces ``main`` makes.

Integers travel as decimal text and are parsed with ``str::parse::<T>``, so
out-of-range inputs are rejected rather than wrapped.
"""

from __future__ import annotations

__all__ = ["EXTERN_LINE", "JSON_MODULE", "PRELUDE_CRATE", "PRELUDE_LIB", "SHIMS"]

SHIMS = r"""
#[allow(dead_code)]
trait __VsVecShim<T> {
    fn set(&mut self, i: usize, v: T);
}
impl<T> __VsVecShim<T> for Vec<T> {
    fn set(&mut self, i: usize, v: T) {
        self[i] = v;
    }
}
#[allow(dead_code)]
trait __VsStrShim {
    fn unicode_len(&self) -> usize;
    fn get_char(&self, i: usize) -> char;
    fn substring_char(&self, from: usize, to: usize) -> String;
    fn get_ascii(&self, i: usize) -> u8;
}
impl __VsStrShim for str {
    fn unicode_len(&self) -> usize {
        self.chars().count()
    }
    fn get_char(&self, i: usize) -> char {
        self.chars().nth(i).unwrap()
    }
    fn substring_char(&self, from: usize, to: usize) -> String {
        self.chars().skip(from).take(to - from).collect()
    }
    fn get_ascii(&self, i: usize) -> u8 {
        self.as_bytes()[i]
    }
}
"""

PRELUDE_CRATE = "vs_json"
# generated programs name the crate ``__vs``; ``compile`` supplies it
EXTERN_LINE = f"extern crate {PRELUDE_CRATE} as __vs;"

_JSON_BODY = r"""
    use std::io::{BufRead, Write};
    use std::sync::Mutex;

    #[derive(Clone, Debug)]
    pub enum J {
        Null,
        Bool(bool),
        Num(String),
        Str(String),
        Arr(Vec<J>),
        Obj(Vec<(String, J)>),
    }

    struct P<'a> {
        s: &'a [u8],
        i: usize,
    }

    impl<'a> P<'a> {
        fn ws(&mut self) {
            while self.i < self.s.len() && (self.s[self.i] == b' ' || self.s[self.i] == b'\t'
                || self.s[self.i] == b'\n' || self.s[self.i] == b'\r') {
                self.i += 1;
            }
        }
        fn lit(&mut self, w: &str, v: J) -> Result<J, String> {
            if self.s[self.i..].starts_with(w.as_bytes()) {
                self.i += w.len();
                Ok(v)
            } else {
                Err(format!("bad literal at {}", self.i))
            }
        }
        fn value(&mut self) -> Result<J, String> {
            self.ws();
            if self.i >= self.s.len() {
                return Err("unexpected end of JSON".to_string());
            }
            match self.s[self.i] {
                b'n' => self.lit("null", J::Null),
                b't' => self.lit("true", J::Bool(true)),
                b'f' => self.lit("false", J::Bool(false)),
                b'"' => Ok(J::Str(self.string()?)),
                b'[' => {
                    self.i += 1;
                    let mut v = Vec::new();
                    self.ws();
                    if self.i < self.s.len() && self.s[self.i] == b']' {
                        self.i += 1;
                        return Ok(J::Arr(v));
                    }
                    loop {
                        v.push(self.value()?);
                        self.ws();
                        if self.i >= self.s.len() {
                            return Err("unterminated array".to_string());
                        }
                        match self.s[self.i] {
                            b',' => self.i += 1,
                            b']' => {
                                self.i += 1;
                                return Ok(J::Arr(v));
                            }
                            _ => return Err(format!("expected , or ] at {}", self.i)),
                        }
                    }
                }
                b'{' => {
                    self.i += 1;
                    let mut v = Vec::new();
                    self.ws();
                    if self.i < self.s.len() && self.s[self.i] == b'}' {
                        self.i += 1;
                        return Ok(J::Obj(v));
                    }
                    loop {
                        self.ws();
                        if self.i >= self.s.len() || self.s[self.i] != b'"' {
                            return Err(format!("expected key at {}", self.i));
                        }
                        let k = self.string()?;
                        self.ws();
                        if self.i >= self.s.len() || self.s[self.i] != b':' {
                            return Err(format!("expected : at {}", self.i));
                        }
                        self.i += 1;
                        let x = self.value()?;
                        v.push((k, x));
                        self.ws();
                        if self.i >= self.s.len() {
                            return Err("unterminated object".to_string());
                        }
                        match self.s[self.i] {
                            b',' => self.i += 1,
                            b'}' => {
                                self.i += 1;
                                return Ok(J::Obj(v));
                            }
                            _ => return Err(format!("expected , or }} at {}", self.i)),
                        }
                    }
                }
                c if c == b'-' || c.is_ascii_digit() => {
                    let st = self.i;
                    self.i += 1;
                    while self.i < self.s.len() && (self.s[self.i].is_ascii_digit() || self.s[self.i] == b'.'
                        || self.s[self.i] == b'e' || self.s[self.i] == b'E' || self.s[self.i] == b'+'
                        || self.s[self.i] == b'-') {
                        self.i += 1;
                    }
                    Ok(J::Num(String::from_utf8_lossy(&self.s[st..self.i]).into_owned()))
                }
                _ => Err(format!("unexpected byte at {}", self.i)),
            }
        }
        fn hex4(&mut self) -> Result<u32, String> {
            if self.i + 4 > self.s.len() {
                return Err("short \\u escape".to_string());
            }
            let h = std::str::from_utf8(&self.s[self.i..self.i + 4]).map_err(|_| "bad \\u escape".to_string())?;
            self.i += 4;
            u32::from_str_radix(h, 16).map_err(|_| "bad \\u escape".to_string())
        }
        fn string(&mut self) -> Result<String, String> {
            self.i += 1;
            let mut out: Vec<u8> = Vec::new();
            loop {
                if self.i >= self.s.len() {
                    return Err("unterminated string".to_string());
                }
                let c = self.s[self.i];
                self.i += 1;
                match c {
                    b'"' => break,
                    b'\\' => {
                        if self.i >= self.s.len() {
                            return Err("bad escape".to_string());
                        }
                        let e = self.s[self.i];
                        self.i += 1;
                        let ch: char = match e {
                            b'"' => '"',
                            b'\\' => '\\',
                            b'/' => '/',
                            b'b' => '\u{8}',
                            b'f' => '\u{c}',
                            b'n' => '\n',
                            b'r' => '\r',
                            b't' => '\t',
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
                                } else {
                                    hi
                                };
                                char::from_u32(cp).ok_or_else(|| "bad code point".to_string())?
                            }
                            _ => return Err("bad escape".to_string()),
                        };
                        let mut buf = [0u8; 4];
                        out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                    }
                    _ => out.push(c),
                }
            }
            String::from_utf8(out).map_err(|_| "invalid UTF-8 in string".to_string())
        }
    }

    pub fn parse(line: &str) -> Result<J, String> {
        let mut p = P { s: line.as_bytes(), i: 0 };
        let v = p.value()?;
        p.ws();
        if p.i != p.s.len() {
            return Err("trailing characters after JSON".to_string());
        }
        Ok(v)
    }

    pub trait FromJ: Sized {
        fn from_j(j: &J) -> Result<Self, String>;
    }
    pub trait ToJ {
        fn to_j(&self, o: &mut String);
    }

    macro_rules! ints {
        ($($t:ty),*) => {$(
            impl FromJ for $t {
                fn from_j(j: &J) -> Result<Self, String> {
                    match j {
                        J::Num(s) => s.parse::<$t>().map_err(|_| format!("{} is not a valid {}", s, stringify!($t))),
                        _ => Err(format!("expected {}", stringify!($t))),
                    }
                }
            }
            impl ToJ for $t {
                fn to_j(&self, o: &mut String) {
                    o.push_str(&self.to_string());
                }
            }
        )*};
    }
    ints!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

    impl FromJ for bool {
        fn from_j(j: &J) -> Result<Self, String> {
            match j {
                J::Bool(b) => Ok(*b),
                _ => Err("expected bool".to_string()),
            }
        }
    }
    impl ToJ for bool {
        fn to_j(&self, o: &mut String) {
            o.push_str(if *self { "true" } else { "false" });
        }
    }
    pub fn esc(s: &str, o: &mut String) {
        o.push('"');
        for c in s.chars() {
            match c {
                '"' => o.push_str("\\\""),
                '\\' => o.push_str("\\\\"),
                '\n' => o.push_str("\\n"),
                '\r' => o.push_str("\\r"),
                '\t' => o.push_str("\\t"),
                c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
                c => o.push(c),
            }
        }
        o.push('"');
    }
    impl FromJ for char {
        fn from_j(j: &J) -> Result<Self, String> {
            match j {
                J::Str(s) => {
                    let mut it = s.chars();
                    match (it.next(), it.next()) {
                        (Some(c), None) => Ok(c),
                        _ => Err("expected a one-character string".to_string()),
                    }
                }
                _ => Err("expected char".to_string()),
            }
        }
    }
    impl ToJ for char {
        fn to_j(&self, o: &mut String) {
            let mut b = [0u8; 4];
            esc(self.encode_utf8(&mut b), o);
        }
    }
    impl FromJ for String {
        fn from_j(j: &J) -> Result<Self, String> {
            match j {
                J::Str(s) => Ok(s.clone()),
                _ => Err("expected string".to_string()),
            }
        }
    }
    impl ToJ for String {
        fn to_j(&self, o: &mut String) {
            esc(self, o);
        }
    }
    impl ToJ for str {
        fn to_j(&self, o: &mut String) {
            esc(self, o);
        }
    }
    impl<T: FromJ> FromJ for Vec<T> {
        fn from_j(j: &J) -> Result<Self, String> {
            match j {
                J::Arr(v) => v.iter().map(T::from_j).collect(),
                // strings stand for Vec<char> (VeriContest's encoding)
                J::Str(s) => s.chars().map(|c| T::from_j(&J::Str(c.to_string()))).collect(),
                _ => Err("expected array".to_string()),
            }
        }
    }
    impl<T: ToJ> ToJ for [T] {
        fn to_j(&self, o: &mut String) {
            o.push('[');
            for (k, x) in self.iter().enumerate() {
                if k > 0 {
                    o.push(',');
                }
                x.to_j(o);
            }
            o.push(']');
        }
    }
    impl<T: ToJ> ToJ for Vec<T> {
        fn to_j(&self, o: &mut String) {
            self.as_slice().to_j(o);
        }
    }
    impl<T: ToJ + ?Sized> ToJ for &T {
        fn to_j(&self, o: &mut String) {
            (**self).to_j(o);
        }
    }
    impl<T: ToJ + ?Sized> ToJ for &mut T {
        fn to_j(&self, o: &mut String) {
            (**self).to_j(o);
        }
    }
    impl<T: ToJ + ?Sized> ToJ for Box<T> {
        fn to_j(&self, o: &mut String) {
            (**self).to_j(o);
        }
    }
    impl<T: FromJ> FromJ for Option<T> {
        fn from_j(j: &J) -> Result<Self, String> {
            match j {
                J::Null => Ok(None),
                x => Ok(Some(T::from_j(x)?)),
            }
        }
    }
    impl<T: ToJ> ToJ for Option<T> {
        fn to_j(&self, o: &mut String) {
            match self {
                None => o.push_str("null"),
                Some(x) => x.to_j(o),
            }
        }
    }
    impl FromJ for () {
        fn from_j(j: &J) -> Result<Self, String> {
            match j {
                J::Null => Ok(()),
                J::Arr(v) if v.is_empty() => Ok(()),
                _ => Err("expected null".to_string()),
            }
        }
    }
    impl ToJ for () {
        fn to_j(&self, o: &mut String) {
            o.push_str("null");
        }
    }
    macro_rules! tuples {
        ($(($n:expr; $($T:ident $i:tt),+)),*) => {$(
            impl<$($T: FromJ),+> FromJ for ($($T,)+) {
                fn from_j(j: &J) -> Result<Self, String> {
                    match j {
                        J::Arr(v) if v.len() == $n => Ok(($($T::from_j(&v[$i])?,)+)),
                        _ => Err(format!("expected a {}-element array", $n)),
                    }
                }
            }
            impl<$($T: ToJ),+> ToJ for ($($T,)+) {
                fn to_j(&self, o: &mut String) {
                    o.push('[');
                    $( if $i > 0 { o.push(','); } self.$i.to_j(o); )+
                    o.push(']');
                }
            }
        )*};
    }
    tuples!((1; A 0), (2; A 0, B 1), (3; A 0, B 1, C 2), (4; A 0, B 1, C 2, D 3), (5; A 0, B 1, C 2, D 3, E 4),
            (6; A 0, B 1, C 2, D 3, E 4, F 5), (7; A 0, B 1, C 2, D 3, E 4, F 5, G 6),
            (8; A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7));

    pub fn field<T: FromJ>(j: &J, name: &str) -> Result<T, String> {
        match j {
            J::Obj(kv) => {
                for (k, v) in kv {
                    if k == name {
                        return T::from_j(v).map_err(|e| format!("field {}: {}", name, e));
                    }
                }
                Err(format!("missing field {}", name))
            }
            _ => Err("expected object".to_string()),
        }
    }
    pub fn arg<T: FromJ>(args: &[J], k: usize, name: &str) -> Result<T, String> {
        T::from_j(&args[k]).map_err(|e| format!("argument {}: {}", name, e))
    }

    static PANIC_MSG: Mutex<Option<String>> = Mutex::new(None);

    pub fn install_hook() {
        std::panic::set_hook(Box::new(|info| {
            let payload = info.payload();
            let msg = if let Some(s) = payload.downcast_ref::<&str>() {
                s.to_string()
            } else if let Some(s) = payload.downcast_ref::<String>() {
                s.clone()
            } else {
                "panic".to_string()
            };
            let loc = info.location().map(|l| format!(" at line {}", l.line())).unwrap_or_default();
            if let Ok(mut g) = PANIC_MSG.lock() {
                *g = Some(format!("{}{}", msg, loc));
            }
        }));
    }

    pub const STACK: usize = 512 * 1024 * 1024;

    pub fn run_lines(call: fn(&[J]) -> Result<String, String>, nargs: usize) {
        install_hook();
        let stdin = std::io::stdin();
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        for line in stdin.lock().lines() {
            let line = match line {
                Ok(l) => l,
                Err(_) => break,
            };
            if line.trim().is_empty() {
                continue;
            }
            let mut res = String::new();
            match parse(&line) {
                Ok(J::Arr(args)) if args.len() == nargs => {
                    let t0 = std::time::Instant::now();
                    let h = std::thread::Builder::new().stack_size(STACK).spawn(move || call(&args));
                    match h {
                        Err(e) => {
                            res.push_str("{\"fault\":");
                            esc(&format!("cannot start thread: {}", e), &mut res);
                            res.push('}');
                        }
                        Ok(h) => {
                            let r = h.join();
                            let us = t0.elapsed().as_micros();
                            match r {
                                Ok(Ok(s)) => {
                                    res.push_str("{\"ok\":");
                                    res.push_str(&s);
                                    res.push_str(&format!(",\"us\":{}}}", us));
                                }
                                Ok(Err(e)) => {
                                    res.push_str("{\"bad\":");
                                    esc(&e, &mut res);
                                    res.push('}');
                                }
                                Err(_) => {
                                    let m = PANIC_MSG.lock().ok().and_then(|mut g| g.take())
                                        .unwrap_or_else(|| "panic".to_string());
                                    res.push_str("{\"panic\":");
                                    esc(&m, &mut res);
                                    res.push_str(&format!(",\"us\":{}}}", us));
                                }
                            }
                        }
                    }
                }
                Ok(_) => {
                    res.push_str("{\"bad\":");
                    esc(&format!("expected a JSON array of {} arguments", nargs), &mut res);
                    res.push('}');
                }
                Err(e) => {
                    res.push_str("{\"bad\":");
                    esc(&format!("malformed JSON: {}", e), &mut res);
                    res.push('}');
                }
            }
            let _ = writeln!(out, "{}", res);
            let _ = out.flush();
        }
    }

    // ---- call tracing (Codeforces programs): one JSON line per outermost call
    thread_local! {
        static DEPTH: std::cell::Cell<usize> = std::cell::Cell::new(0);
    }
    static TRACE: Mutex<Option<std::fs::File>> = Mutex::new(None);

    pub fn enter() -> bool {
        DEPTH.with(|d| {
            let v = d.get();
            d.set(v + 1);
            v == 0
        })
    }
    pub fn leave() {
        DEPTH.with(|d| d.set(d.get() - 1));
    }
    pub fn trace(args: &str, ret: &str) {
        let mut g = match TRACE.lock() {
            Ok(g) => g,
            Err(_) => return,
        };
        if g.is_none() {
            if let Ok(p) = std::env::var("VERISCALE_TRACE") {
                *g = std::fs::OpenOptions::new().create(true).append(true).open(p).ok();
            }
        }
        if let Some(f) = g.as_mut() {
            let _ = writeln!(f, "{{\"args\":{},\"ret\":{}}}", args, ret);
        }
    }
"""

JSON_MODULE = (
    "#[allow(dead_code, unused_imports, unused_variables, unused_mut, non_snake_case)]\nmod __vs {\n"
    + _JSON_BODY
    + "}\n"
)
# the same code as a standalone library crate
PRELUDE_LIB = "#![allow(warnings)]\n" + _JSON_BODY
