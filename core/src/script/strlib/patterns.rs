//! Lua 5.4 patterns (`string.find`, `match`, `gmatch`, `gsub`), reimplemented as a port of
//! `lstrlib.c`'s matcher with every matching step charged to the call's instruction budget: a
//! backtracking or exponential pattern stops like an endless loop instead of hanging inside one C
//! call. Same results and error messages as Lua's own.

use super::{Meter, Spent};
use mlua::{Lua, MultiValue, Table, Value};
use std::cell::Cell;
use std::rc::Rc;

const MAXCAPTURES: usize = 32;
const MAXDEPTH: u32 = 200;
const CAP_UNFINISHED: isize = -1;
const CAP_POSITION: isize = -2;
const ESC: u8 = b'%';
/// Budget units one matching step costs: more than a VM instruction, so that a pattern that runs
/// out of budget stops within seconds even in a debug build.
const UNITS_PER_STEP: u64 = 32;

enum PatErr {
    Msg(String),
    Budget,
}

type PResult<T> = Result<T, PatErr>;

fn perr<T>(m: impl Into<String>) -> PResult<T> {
    Err(PatErr::Msg(m.into()))
}

struct Matcher<'a> {
    src: &'a [u8],
    pat: &'a [u8],
    level: usize,
    capture: [(usize, isize); MAXCAPTURES],
    depth: u32,
    steps: u64,
    fuel: u64,
}

#[derive(Clone)]
enum Cap {
    Text(usize, usize),
    Pos(usize),
}

fn class_matches(c: u8, cl: u8) -> bool {
    let res = match cl.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c.is_ascii_control(),
        b'd' => c.is_ascii_digit(),
        b'g' => c.is_ascii_graphic(),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        b's' => matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'),
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        _ => return cl == c,
    };
    if cl.is_ascii_uppercase() {
        !res
    } else {
        res
    }
}

impl<'a> Matcher<'a> {
    fn new(src: &'a [u8], pat: &'a [u8], fuel: u64) -> Self {
        Matcher {
            src,
            pat,
            level: 0,
            capture: [(0, 0); MAXCAPTURES],
            depth: MAXDEPTH,
            steps: 0,
            fuel,
        }
    }

    fn reset(&mut self) {
        self.level = 0;
        self.depth = MAXDEPTH;
    }

    fn tick(&mut self) -> PResult<()> {
        self.steps += 1;
        if self.steps * UNITS_PER_STEP > self.fuel {
            return Err(PatErr::Budget);
        }
        Ok(())
    }

    fn p(&self, i: usize) -> u8 {
        self.pat.get(i).copied().unwrap_or(0)
    }

    fn s(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    fn class_end(&self, mut p: usize) -> PResult<usize> {
        let c = self.p(p);
        p += 1;
        if c == ESC {
            if p >= self.pat.len() {
                return perr("malformed pattern (ends with '%')");
            }
            return Ok(p + 1);
        }
        if c == b'[' {
            if self.p(p) == b'^' {
                p += 1;
            }
            loop {
                if p >= self.pat.len() {
                    return perr("malformed pattern (missing ']')");
                }
                let c = self.p(p);
                p += 1;
                if c == ESC && p < self.pat.len() {
                    p += 1;
                }
                if self.p(p) == b']' {
                    break;
                }
            }
            return Ok(p + 1);
        }
        Ok(p)
    }

    fn bracket_class(&self, c: u8, mut p: usize, ec: usize) -> bool {
        let mut sig = true;
        if self.p(p + 1) == b'^' {
            sig = false;
            p += 1;
        }
        loop {
            p += 1;
            if p >= ec {
                break;
            }
            if self.p(p) == ESC {
                p += 1;
                if class_matches(c, self.p(p)) {
                    return sig;
                }
            } else if self.p(p + 1) == b'-' && p + 2 < ec {
                p += 2;
                if self.p(p - 2) <= c && c <= self.p(p) {
                    return sig;
                }
            } else if self.p(p) == c {
                return sig;
            }
        }
        !sig
    }

    fn single(&self, s: usize, p: usize, ep: usize) -> bool {
        if s >= self.src.len() {
            return false;
        }
        let c = self.src[s];
        match self.p(p) {
            b'.' => true,
            ESC => class_matches(c, self.p(p + 1)),
            b'[' => self.bracket_class(c, p, ep - 1),
            pc => pc == c,
        }
    }

    fn do_match(&mut self, s: usize, p: usize) -> PResult<Option<usize>> {
        if self.depth == 0 {
            return perr("pattern too complex");
        }
        self.depth -= 1;
        let r = self.match_inner(s, p);
        self.depth += 1;
        r
    }

    fn match_inner(&mut self, mut s: usize, mut p: usize) -> PResult<Option<usize>> {
        loop {
            self.tick()?;
            if p >= self.pat.len() {
                return Ok(Some(s));
            }
            let pc = self.p(p);
            let default;
            match pc {
                b'(' => {
                    return if self.p(p + 1) == b')' {
                        self.start_capture(s, p + 2, CAP_POSITION)
                    } else {
                        self.start_capture(s, p + 1, CAP_UNFINISHED)
                    };
                }
                b')' => return self.end_capture(s, p + 1),
                b'$' if p + 1 == self.pat.len() => {
                    return Ok((s == self.src.len()).then_some(s));
                }
                ESC => match self.p(p + 1) {
                    b'b' => match self.balance(s, p + 2)? {
                        Some(ns) => {
                            s = ns;
                            p += 4;
                            continue;
                        }
                        None => return Ok(None),
                    },
                    b'f' => {
                        p += 2;
                        if self.p(p) != b'[' {
                            return perr("missing '[' after '%f' in pattern");
                        }
                        let ep = self.class_end(p)?;
                        let prev = if s == 0 { 0 } else { self.s(s - 1) };
                        let cur = self.s(s);
                        if !self.bracket_class(prev, p, ep - 1)
                            && self.bracket_class(cur, p, ep - 1)
                        {
                            p = ep;
                            continue;
                        }
                        return Ok(None);
                    }
                    d @ b'0'..=b'9' => match self.match_capture(s, d)? {
                        Some(ns) => {
                            s = ns;
                            p += 2;
                            continue;
                        }
                        None => return Ok(None),
                    },
                    _ => default = true,
                },
                _ => default = true,
            }
            if !default {
                continue;
            }
            let ep = self.class_end(p)?;
            let epc = self.p(ep);
            if !self.single(s, p, ep) {
                if epc == b'*' || epc == b'?' || epc == b'-' {
                    p = ep + 1;
                    continue;
                }
                return Ok(None);
            }
            match epc {
                b'?' => {
                    if let Some(r) = self.do_match(s + 1, ep + 1)? {
                        return Ok(Some(r));
                    }
                    p = ep + 1;
                    continue;
                }
                b'+' => return self.max_expand(s + 1, p, ep),
                b'*' => return self.max_expand(s, p, ep),
                b'-' => return self.min_expand(s, p, ep),
                _ => {
                    s += 1;
                    p = ep;
                    continue;
                }
            }
        }
    }

    fn max_expand(&mut self, s: usize, p: usize, ep: usize) -> PResult<Option<usize>> {
        let mut i = 0usize;
        while self.single(s + i, p, ep) {
            self.tick()?;
            i += 1;
        }
        loop {
            if let Some(r) = self.do_match(s + i, ep + 1)? {
                return Ok(Some(r));
            }
            if i == 0 {
                return Ok(None);
            }
            i -= 1;
        }
    }

    fn min_expand(&mut self, mut s: usize, p: usize, ep: usize) -> PResult<Option<usize>> {
        loop {
            if let Some(r) = self.do_match(s, ep + 1)? {
                return Ok(Some(r));
            }
            if self.single(s, p, ep) {
                s += 1;
            } else {
                return Ok(None);
            }
        }
    }

    fn start_capture(&mut self, s: usize, p: usize, what: isize) -> PResult<Option<usize>> {
        if self.level >= MAXCAPTURES {
            return perr("too many captures");
        }
        self.capture[self.level] = (s, what);
        self.level += 1;
        let r = self.do_match(s, p)?;
        if r.is_none() {
            self.level -= 1;
        }
        Ok(r)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> PResult<Option<usize>> {
        let Some(l) = (0..self.level)
            .rev()
            .find(|&i| self.capture[i].1 == CAP_UNFINISHED)
        else {
            return perr("invalid pattern capture");
        };
        self.capture[l].1 = (s - self.capture[l].0) as isize;
        let r = self.do_match(s, p)?;
        if r.is_none() {
            self.capture[l].1 = CAP_UNFINISHED;
        }
        Ok(r)
    }

    fn balance(&mut self, s: usize, p: usize) -> PResult<Option<usize>> {
        if p + 1 >= self.pat.len() {
            return perr("malformed pattern (missing arguments to '%b')");
        }
        if s >= self.src.len() || self.src[s] != self.p(p) {
            return Ok(None);
        }
        let (b, e) = (self.p(p), self.p(p + 1));
        let mut cont = 1;
        let mut i = s + 1;
        while i < self.src.len() {
            self.tick()?;
            let c = self.src[i];
            if c == e {
                cont -= 1;
                if cont == 0 {
                    return Ok(Some(i + 1));
                }
            } else if c == b {
                cont += 1;
            }
            i += 1;
        }
        Ok(None)
    }

    fn match_capture(&mut self, s: usize, d: u8) -> PResult<Option<usize>> {
        let l = d as isize - b'1' as isize;
        if l < 0 || l as usize >= self.level || self.capture[l as usize].1 == CAP_UNFINISHED {
            return perr(format!("invalid capture index %{}", l + 1));
        }
        let (init, len) = self.capture[l as usize];
        if len < 0 {
            return Ok(None);
        }
        let len = len as usize;
        if self.src.len() - s >= len {
            for _ in 0..len / 64 {
                self.tick()?;
            }
            if self.src[init..init + len] == self.src[s..s + len] {
                return Ok(Some(s + len));
            }
        }
        Ok(None)
    }

    fn one_capture(&self, i: usize, s: usize, e: usize) -> PResult<Cap> {
        if i >= self.level {
            if i != 0 {
                return perr(format!("invalid capture index %{}", i + 1));
            }
            return Ok(Cap::Text(s, e));
        }
        let (init, len) = self.capture[i];
        match len {
            CAP_UNFINISHED => perr("unfinished capture"),
            CAP_POSITION => Ok(Cap::Pos(init + 1)),
            l => Ok(Cap::Text(init, init + l as usize)),
        }
    }

    /// The captures of a match from `s` to `e` (the whole match when the pattern has none and
    /// `whole` is set).
    fn captures(&self, s: usize, e: usize, whole: bool) -> PResult<Vec<Cap>> {
        let n = if self.level == 0 && whole {
            1
        } else {
            self.level
        };
        (0..n).map(|i| self.one_capture(i, s, e)).collect()
    }
}

fn cap_value(lua: &Lua, src: &[u8], c: &Cap) -> mlua::Result<Value> {
    Ok(match c {
        Cap::Text(a, b) => Value::String(lua.create_string(&src[*a..*b])?),
        Cap::Pos(p) => Value::Integer(*p as i64),
    })
}

fn arg_bytes(lua: &Lua, v: Value, n: usize, f: &str) -> mlua::Result<mlua::LuaString> {
    let ty = v.type_name();
    lua.coerce_string(v)?.ok_or_else(|| {
        mlua::Error::runtime(format!(
            "bad argument #{n} to '{f}' (string expected, got {ty})"
        ))
    })
}

fn opt_int(lua: &Lua, v: Value, n: usize, f: &str, default: i64) -> mlua::Result<i64> {
    if v.is_nil() {
        return Ok(default);
    }
    let ty = v.type_name();
    lua.coerce_integer(v)?.ok_or_else(|| {
        mlua::Error::runtime(format!(
            "bad argument #{n} to '{f}' (number has no integer representation or is a {ty})"
        ))
    })
}

/// `posrelatI` of lstrlib: a 1-based start position, negative from the end.
fn start_pos(pos: i64, len: usize) -> usize {
    if pos > 0 {
        pos as usize
    } else if pos == 0 || pos < -(len as i64) {
        1
    } else {
        (len as i64 + pos + 1) as usize
    }
}

fn no_specials(p: &[u8]) -> bool {
    !p.iter().any(|c| b"^$*+?.([%-".contains(c))
}

fn run<T>(meter: &Meter, m: &mut Matcher<'_>, r: PResult<T>) -> mlua::Result<T> {
    let charged = meter.charge(m.steps * UNITS_PER_STEP);
    m.steps = 0;
    match r {
        Ok(v) => {
            charged?;
            Ok(v)
        }
        Err(PatErr::Msg(msg)) => Err(mlua::Error::runtime(msg)),
        Err(PatErr::Budget) => {
            meter.spent.set(Spent::Budget);
            Err(meter.error(""))
        }
    }
}

fn find_aux(lua: &Lua, meter: &Meter, args: MultiValue, find: bool) -> mlua::Result<MultiValue> {
    meter.check()?;
    let fname = if find { "find" } else { "match" };
    let mut it = args.into_iter();
    let s = arg_bytes(lua, it.next().unwrap_or(Value::Nil), 1, fname)?;
    let p = arg_bytes(lua, it.next().unwrap_or(Value::Nil), 2, fname)?;
    let init = opt_int(lua, it.next().unwrap_or(Value::Nil), 3, fname, 1)?;
    let plain = it
        .next()
        .is_some_and(|v| v.as_boolean() != Some(false) && !v.is_nil());
    let (s, p) = (s.as_bytes(), p.as_bytes());
    let (s, p): (&[u8], &[u8]) = (&s, &p);
    let init = start_pos(init, s.len()) - 1;
    if init > s.len() {
        return Ok(MultiValue::from_iter([Value::Nil]));
    }
    if find && (plain || no_specials(p)) {
        // plain search: charge the worst case of the naive search up front
        // (one unit per 8 byte comparisons: a search of a long string in a loop stops at the
        // budget, as the same search by pattern does)
        meter.charge(((s.len() - init) as u64).saturating_mul(p.len().max(1) as u64) / 8)?;
        let hay = &s[init..];
        let found = if p.is_empty() {
            Some(0)
        } else {
            hay.windows(p.len()).position(|w| w == p)
        };
        return Ok(match found {
            Some(i) => MultiValue::from_iter([
                Value::Integer((init + i + 1) as i64),
                Value::Integer((init + i + p.len()) as i64),
            ]),
            None => MultiValue::from_iter([Value::Nil]),
        });
    }
    let (anchor, p) = match p.first() {
        Some(b'^') => (true, &p[1..]),
        _ => (false, p),
    };
    let mut m = Matcher::new(s, p, meter.fuel());
    let mut s1 = init;
    let found = loop {
        m.reset();
        let r = m.do_match(s1, 0);
        match run(meter, &mut m, r)? {
            Some(e) => break Some((s1, e)),
            None => {
                s1 += 1;
                m.fuel = meter.fuel();
                if anchor || s1 > s.len() {
                    break None;
                }
            }
        }
    };
    let Some((a, e)) = found else {
        return Ok(MultiValue::from_iter([Value::Nil]));
    };
    let r = m.captures(a, e, !find);
    let caps = run(meter, &mut m, r)?;
    let mut out = Vec::with_capacity(caps.len() + 2);
    if find {
        out.push(Value::Integer(a as i64 + 1));
        out.push(Value::Integer(e as i64));
    }
    for c in &caps {
        out.push(cap_value(lua, s, c)?);
    }
    Ok(MultiValue::from_iter(out))
}

fn gsub(lua: &Lua, meter: &Meter, args: MultiValue) -> mlua::Result<(Value, i64)> {
    meter.check()?;
    let mut it = args.into_iter();
    let src_v = it.next().unwrap_or(Value::Nil);
    let src_s = arg_bytes(lua, src_v, 1, "gsub")?;
    let p_s = arg_bytes(lua, it.next().unwrap_or(Value::Nil), 2, "gsub")?;
    let repl = it.next().unwrap_or(Value::Nil);
    let src_b = src_s.as_bytes();
    let src: &[u8] = &src_b;
    let max_n = opt_int(
        lua,
        it.next().unwrap_or(Value::Nil),
        4,
        "gsub",
        src.len() as i64 + 1,
    )?;
    let repl_text: Option<Vec<u8>> = match &repl {
        Value::String(r) => Some(r.as_bytes().to_vec()),
        Value::Integer(_) | Value::Number(_) => lua
            .coerce_string(repl.clone())?
            .map(|s| s.as_bytes().to_vec()),
        Value::Table(_) | Value::Function(_) => None,
        other => {
            return Err(mlua::Error::runtime(format!(
                "bad argument #3 to 'gsub' (string/function/table expected, got {})",
                other.type_name()
            )))
        }
    };
    let template = match &repl_text {
        Some(t) => template_of(t)?,
        None => Vec::new(),
    };
    let p_b = p_s.as_bytes();
    let p: &[u8] = &p_b;
    let (anchor, p) = match p.first() {
        Some(b'^') => (true, &p[1..]),
        _ => (false, p),
    };
    let mut m = Matcher::new(src, p, meter.fuel());
    let mut out: Vec<u8> = Vec::new();
    let mut s = 0usize;
    let mut last: Option<usize> = None;
    let mut n: i64 = 0;
    let mut changed = false;
    while n < max_n {
        m.reset();
        m.fuel = meter.fuel();
        let r = m.do_match(s, 0);
        let e = run(meter, &mut m, r)?;
        match e {
            Some(e) if Some(e) != last => {
                n += 1;
                // the replacement
                let added: Option<Vec<u8>> = match (&repl_text, &repl) {
                    (Some(_), _) => {
                        let mut buf = Vec::new();
                        for part in &template {
                            match *part {
                                Part::Lit(a, b) => buf
                                    .extend_from_slice(&repl_text.as_deref().unwrap_or(&[])[a..b]),
                                Part::Whole => buf.extend_from_slice(&src[s..e]),
                                Part::Cap(i) => {
                                    let r = m.one_capture(i, s, e);
                                    match run(meter, &mut m, r)? {
                                        Cap::Text(a, b) => buf.extend_from_slice(&src[a..b]),
                                        Cap::Pos(p) => {
                                            buf.extend_from_slice(p.to_string().as_bytes())
                                        }
                                    }
                                }
                            }
                        }
                        Some(buf)
                    }
                    (None, Value::Function(f)) => {
                        let r = m.captures(s, e, true);
                        let caps = run(meter, &mut m, r)?;
                        let vals = caps
                            .iter()
                            .map(|c| cap_value(lua, src, c))
                            .collect::<mlua::Result<Vec<_>>>()?;
                        replacement(f.call::<Value>(MultiValue::from_iter(vals))?)?
                    }
                    (None, Value::Table(t)) => {
                        let r = m.one_capture(0, s, e);
                        let key = run(meter, &mut m, r)?;
                        replacement(t.get::<Value>(cap_value(lua, src, &key)?)?)?
                    }
                    _ => None,
                };
                let grown = match added {
                    Some(b) => {
                        changed = true;
                        meter.size("string.gsub", (out.len() + b.len()) as u128)?;
                        out.extend_from_slice(&b);
                        b.len()
                    }
                    None => {
                        out.extend_from_slice(&src[s..e]);
                        e - s
                    }
                };
                meter.charge(1 + (grown >> 3) as u64)?;
                s = e;
                last = Some(e);
            }
            _ if s < src.len() => {
                out.push(src[s]);
                s += 1;
            }
            _ => break,
        }
        if anchor {
            break;
        }
    }
    if !changed {
        return Ok((Value::String(src_s.clone()), n));
    }
    out.extend_from_slice(&src[s.min(src.len())..]);
    meter.size("string.gsub", out.len() as u128)?;
    Ok((Value::String(lua.create_string(&out)?), n))
}

/// A piece of a gsub replacement string.
enum Part {
    /// Literal bytes of the template.
    Lit(usize, usize),
    /// `%0`: the whole match.
    Whole,
    /// `%1`–`%9`: a capture (0-based).
    Cap(usize),
}

/// Splits a replacement string into literal runs and capture references, once per gsub.
fn template_of(text: &[u8]) -> mlua::Result<Vec<Part>> {
    let mut parts = Vec::new();
    let (mut i, mut lit) = (0, 0);
    while i < text.len() {
        if text[i] != ESC {
            i += 1;
            continue;
        }
        if lit < i {
            parts.push(Part::Lit(lit, i));
        }
        match text.get(i + 1).copied().unwrap_or(0) {
            ESC => parts.push(Part::Lit(i + 1, i + 2)),
            b'0' => parts.push(Part::Whole),
            d @ b'1'..=b'9' => parts.push(Part::Cap((d - b'1') as usize)),
            _ => {
                return Err(mlua::Error::runtime(
                    "invalid use of '%' in replacement string",
                ))
            }
        }
        i += 2;
        lit = i;
    }
    if lit < text.len() {
        parts.push(Part::Lit(lit, text.len()));
    }
    Ok(parts)
}

/// What a gsub function or table gave: false/nil keeps the match, a string or number replaces it.
fn replacement(v: Value) -> mlua::Result<Option<Vec<u8>>> {
    match v {
        Value::Nil | Value::Boolean(false) => Ok(None),
        Value::String(s) => Ok(Some(s.as_bytes().to_vec())),
        Value::Integer(i) => Ok(Some(i.to_string().into_bytes())),
        Value::Number(n) => Ok(Some(lua_number(n).into_bytes())),
        other => Err(mlua::Error::runtime(format!(
            "invalid replacement value (a {})",
            other.type_name()
        ))),
    }
}

/// A float as Lua's `tostring` writes it (`%.14g`, with `.0` on integral values).
fn lua_number(n: f64) -> String {
    if n.is_finite() && n == n.trunc() && n.abs() < 1e15 {
        format!("{n:.1}")
    } else if n.is_nan() {
        if n.is_sign_negative() {
            "-nan".into()
        } else {
            "nan".into()
        }
    } else if n.is_infinite() {
        if n > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{n}")
    }
}

pub(super) fn install(lua: &Lua, meter: &Meter) -> mlua::Result<()> {
    let string: Table = lua.globals().get("string")?;
    let m = meter.clone();
    string.set(
        "find",
        lua.create_function(move |lua, args: MultiValue| find_aux(lua, &m, args, true))?,
    )?;
    let m = meter.clone();
    string.set(
        "match",
        lua.create_function(move |lua, args: MultiValue| find_aux(lua, &m, args, false))?,
    )?;
    let m = meter.clone();
    string.set(
        "gsub",
        lua.create_function(move |lua, args: MultiValue| gsub(lua, &m, args))?,
    )?;
    let m = meter.clone();
    string.set(
        "gmatch",
        lua.create_function(move |lua, args: MultiValue| {
            m.check()?;
            let mut it = args.into_iter();
            let s = arg_bytes(lua, it.next().unwrap_or(Value::Nil), 1, "gmatch")?;
            let p = arg_bytes(lua, it.next().unwrap_or(Value::Nil), 2, "gmatch")?;
            let len = s.as_bytes().len();
            let init = opt_int(lua, it.next().unwrap_or(Value::Nil), 3, "gmatch", 1)?;
            let mut init = start_pos(init, len) - 1;
            if init > len {
                init = len + 1;
            }
            let state = Rc::new(Cell::new((init, None::<usize>)));
            let m = m.clone();
            lua.create_function(move |lua, ()| {
                m.check()?;
                let (src_b, p_b) = (s.as_bytes(), p.as_bytes());
                let (src, pat): (&[u8], &[u8]) = (&src_b, &p_b);
                let (mut at, last) = state.get();
                let mut mm = Matcher::new(src, pat, m.fuel());
                while at <= src.len() {
                    mm.reset();
                    mm.fuel = m.fuel();
                    let r = mm.do_match(at, 0);
                    if let Some(e) = run(&m, &mut mm, r)? {
                        if Some(e) != last {
                            state.set((e, Some(e)));
                            let r = mm.captures(at, e, true);
                            let caps = run(&m, &mut mm, r)?;
                            let vals = caps
                                .iter()
                                .map(|c| cap_value(lua, src, c))
                                .collect::<mlua::Result<Vec<_>>>()?;
                            return Ok(MultiValue::from_iter(vals));
                        }
                    }
                    at += 1;
                }
                state.set((at, last));
                Ok(MultiValue::new())
            })
        })?,
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lua() -> (Lua, Meter) {
        let lua = Lua::new();
        let meter = Meter {
            used: Rc::new(Cell::new(0)),
            budget: 10_000_000,
            spent: Rc::new(Cell::new(Spent::No)),
            memory: 64 << 20,
            stop: Default::default(),
            started: Rc::new(Cell::new(std::time::Instant::now())),
            wall: std::time::Duration::from_secs(10),
            depth: Rc::new(Cell::new(0)),
            held: Rc::new(Cell::new(0)),
        };
        // the whole bounded library: the pcall that re-raises is not a pattern function
        super::super::install(&lua, &meter).expect("install");
        (lua, meter)
    }

    #[test]
    fn patterns_behave_like_lua() {
        let (lua, _) = lua();
        let cases: &[(&str, &str)] = &[
            (r#"return ("hello world"):find("o w")"#, "5 7"),
            (r#"return ("hello world"):find("o", 6)"#, "8 8"),
            (r#"return ("hello"):find("l+")"#, "3 4"),
            (r#"return ("hello"):find("xyz")"#, "nil"),
            (r#"return ("a.b"):find(".", 1, true)"#, "2 2"),
            (
                r#"return ("key = value"):match("(%w+)%s*=%s*(%w+)")"#,
                "key value",
            ),
            (r#"return ("3-4-1"):match("^(%d+)-(%d+)")"#, "3 4"),
            (r#"return ("leader=12"):match("^leader=(%d+)$")"#, "12"),
            (r#"return ("De/A1"):match("^(D[e12])/(A[e12])$")"#, "De A1"),
            (r#"return ("  trim  "):match("^%s*(.-)%s*$")"#, "trim"),
            (r#"return ("f(a(b)c)d"):match("%b()")"#, "(a(b)c)"),
            (
                r#"return ("THE (quick) fox"):find("%f[%a]%a+", 5)"#,
                "6 10 ",
            ),
            (r#"return ("hello"):match("()ll()")"#, "3 5"),
            (r#"return ("abcabc"):match("(a)(b)c%1%2")"#, "a b"),
            (r#"return ("hello world"):gsub("o", "0")"#, "hell0 w0rld 2"),
            (
                r#"return ("hello world"):gsub("(%w+)", "<%1>")"#,
                "<hello> <world> 2",
            ),
            (r#"return ("abc"):gsub("", "-")"#, "-a-b-c- 4"),
            (r#"return ("hello"):gsub("l", {l = "L"})"#, "heLLo 2"),
            (
                r#"return ("x y"):gsub("%w", function(c) return c:upper() end)"#,
                "X Y 2",
            ),
            (r#"return ("abc"):gsub("%w", "%0%0", 2)"#, "aabbc 2"),
            (r#"return ("hello"):gsub("^h", "j")"#, "jello 1"),
            (
                r#"local t = {} for k, v in ("a=1, b=2"):gmatch("(%w+)=(%w+)") do t[#t+1] = k .. v end return table.concat(t, ",")"#,
                "a1,b2",
            ),
            (
                r#"local n = 0 for w in ("one two  three"):gmatch("%a*") do n = n + 1 end return n"#,
                "4",
            ),
        ];
        for (src, want) in cases {
            let got: MultiValue = lua
                .load(*src)
                .eval()
                .unwrap_or_else(|e| panic!("{src}: {e}"));
            let text: Vec<String> = got
                .iter()
                .map(|v| match v {
                    Value::String(s) => s.to_string_lossy(),
                    Value::Integer(i) => i.to_string(),
                    Value::Nil => "nil".into(),
                    other => format!("{other:?}"),
                })
                .collect();
            assert_eq!(text.join(" ").trim(), want.trim(), "{src}");
        }
    }

    #[test]
    fn malformed_patterns_are_errors() {
        let (lua, _) = lua();
        for (src, needle) in [
            (r#"return ("x"):find("%")"#, "ends with '%'"),
            (r#"return ("x"):find("[a")"#, "missing ']'"),
            (r#"return ("x"):find("(")"#, "unfinished capture"),
            (r#"return ("x"):match(")")"#, "invalid pattern capture"),
            (r#"return ("x"):gsub("x", "%2")"#, "invalid capture index"),
            (r#"return ("x"):find("%b")"#, "missing arguments"),
        ] {
            let e = lua.load(src).exec().expect_err(src).to_string();
            assert!(e.contains(needle), "{src}: {e}");
        }
    }

    #[test]
    fn backtracking_is_charged_to_the_budget() {
        let (lua, meter) = lua();
        let e = lua
            .load(r#"return string.find(string.rep("a", 40), "a-a-a-a-a-a-a-a-a-a-b")"#)
            .exec()
            .expect_err("budget");
        assert!(e.to_string().contains("instruction budget"), "{e}");
        assert_eq!(meter.spent.get(), Spent::Budget);
        // and it stays spent: pcall re-raises
        let e = lua
            .load("local ok = pcall(function() end) return ok")
            .exec()
            .expect_err("still spent");
        assert!(e.to_string().contains("instruction budget"), "{e}");
    }
}
