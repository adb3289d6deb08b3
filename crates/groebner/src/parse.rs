//! The plain text format of polynomial systems (see `examples/systems/README.md`):
//! a variables line, a prime line, then polynomials separated by commas and/or newlines.

use crate::field::{is_prime, Field};
use crate::order::Order;
use crate::poly::{Poly, Term};
use crate::system::System;
use std::collections::BTreeMap;
use std::fmt;

/// A parse error with a 1-based source position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong, in one sentence.
    pub message: String,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Most nested parentheses, so that parsing cannot overflow the stack.
const MAX_DEPTH: usize = 256;

/// Work budget (term products) for one file, so that `(x+y+z)^60000` fails instead of hanging.
const WORK_LIMIT: u64 = 10_000_000;

fn err<T>(message: impl Into<String>, line: usize, column: usize) -> Result<T, ParseError> {
    Err(ParseError {
        message: message.into(),
        line,
        column,
    })
}

/// Parses a system in the text format; the order is [`Order::Grevlex`].
pub fn parse_system(text: &str) -> Result<System, ParseError> {
    let lines: Vec<Vec<char>> = text
        .split('\n')
        .map(|l| {
            let l = l.strip_suffix('\r').unwrap_or(l);
            l.split('#').next().unwrap_or("").chars().collect()
        })
        .collect();
    let mut header = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.iter().any(|c| !c.is_whitespace()));
    let end = (lines.len(), 1);
    let Some((vline, vchars)) = header.next() else {
        return err("empty input: expected a line of variables", end.0, end.1);
    };
    let vars = parse_vars(vchars, vline + 1)?;
    let Some((pline, pchars)) = header.next() else {
        return err(
            "expected a line with the prime after the variables",
            end.0,
            end.1,
        );
    };
    let prime = parse_prime(pchars, pline + 1)?;
    let tokens = tokenize(&lines, pline + 1, &vars)?;
    let mut parser = Parser {
        toks: tokens,
        pos: 0,
        depth: 0,
        nvars: vars.len(),
        field: Field::new(prime),
        work: 0,
    };
    let polys = parser.polys()?;
    let polys = polys
        .into_iter()
        .map(|m| {
            let mut p = Poly {
                terms: m
                    .into_iter()
                    .filter(|&(_, c)| c != 0)
                    .map(|(exps, coef)| Term { coef, exps })
                    .collect(),
            };
            p.sort(Order::Grevlex);
            p
        })
        .collect();
    Ok(System {
        vars,
        prime,
        polys,
        order: Order::Grevlex,
    })
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn parse_vars(l: &[char], line: usize) -> Result<Vec<String>, ParseError> {
    let mut vars: Vec<String> = Vec::new();
    let mut i = 0;
    let mut expect_name = true;
    while i < l.len() {
        let c = l[i];
        if c.is_whitespace() {
            i += 1;
        } else if expect_name {
            if !is_ident_start(c) {
                return err(
                    format!("expected a variable name, found `{c}`"),
                    line,
                    i + 1,
                );
            }
            let start = i;
            while i < l.len() && is_ident_char(l[i]) {
                i += 1;
            }
            let name: String = l[start..i].iter().collect();
            if vars.contains(&name) {
                return err(format!("variable `{name}` declared twice"), line, start + 1);
            }
            vars.push(name);
            expect_name = false;
        } else if c == ',' {
            expect_name = true;
            i += 1;
        } else {
            return err(
                format!("expected `,` between variable names, found `{c}`"),
                line,
                i + 1,
            );
        }
    }
    if expect_name {
        return err("expected a variable name", line, l.len() + 1);
    }
    Ok(vars)
}

fn parse_prime(l: &[char], line: usize) -> Result<u32, ParseError> {
    let start = l.iter().position(|c| !c.is_whitespace()).unwrap_or(0);
    let end = l
        .iter()
        .rposition(|c| !c.is_whitespace())
        .map_or(0, |e| e + 1);
    let word = &l[start..end];
    if word.is_empty() || !word.iter().all(char::is_ascii_digit) {
        return err(
            "expected the characteristic: a prime below 2^31",
            line,
            start + 1,
        );
    }
    let mut v: u64 = 0;
    for &c in word {
        v = v * 10 + u64::from(c as u8 - b'0');
        if v >= 1 << 31 {
            return err("the characteristic must be below 2^31", line, start + 1);
        }
    }
    if !is_prime(v) {
        return err(format!("{v} is not a prime"), line, start + 1);
    }
    Ok(v as u32)
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// A decimal literal: its digits (reduced later).
    Num(String),
    /// A variable, by index.
    Var(usize),
    Sym(char),
    Newline,
    Eof,
}

struct Token {
    tok: Tok,
    line: usize,
    col: usize,
}

fn tokenize(lines: &[Vec<char>], first: usize, vars: &[String]) -> Result<Vec<Token>, ParseError> {
    let mut out = Vec::new();
    for (li, l) in lines.iter().enumerate().skip(first) {
        let line = li + 1;
        let mut i = 0;
        while i < l.len() {
            let c = l[i];
            let col = i + 1;
            if c.is_whitespace() {
                i += 1;
                continue;
            }
            let tok = if c.is_ascii_digit() {
                let s = i;
                while i < l.len() && l[i].is_ascii_digit() {
                    i += 1;
                }
                Tok::Num(l[s..i].iter().collect())
            } else if is_ident_start(c) {
                let s = i;
                while i < l.len() && is_ident_char(l[i]) {
                    i += 1;
                }
                let name: String = l[s..i].iter().collect();
                match vars.iter().position(|v| *v == name) {
                    Some(v) => Tok::Var(v),
                    None => return err(format!("unknown variable `{name}`"), line, col),
                }
            } else if "+-*^(),".contains(c) {
                i += 1;
                Tok::Sym(c)
            } else {
                return err(format!("unexpected character `{c}`"), line, col);
            };
            out.push(Token { tok, line, col });
        }
        out.push(Token {
            tok: Tok::Newline,
            line,
            col: l.len() + 1,
        });
    }
    let line = lines.len().max(1);
    out.push(Token {
        tok: Tok::Eof,
        line,
        col: lines.last().map_or(1, |l| l.len() + 1),
    });
    Ok(out)
}

type Sparse = BTreeMap<Vec<u16>, u32>;

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    nvars: usize,
    field: Field,
    work: u64,
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Num(s) => format!("number `{s}`"),
        Tok::Var(_) => "a variable".to_string(),
        Tok::Sym(c) => format!("`{c}`"),
        Tok::Newline => "end of line".to_string(),
        Tok::Eof => "end of input".to_string(),
    }
}

impl Parser {
    /// The next token; newlines are skipped inside parentheses.
    fn peek(&mut self) -> &Token {
        if self.depth > 0 {
            self.skip_newlines();
        }
        &self.toks[self.pos]
    }

    fn skip_newlines(&mut self) {
        while self.toks[self.pos].tok == Tok::Newline {
            self.pos += 1;
        }
    }

    fn bump(&mut self) -> (Tok, usize, usize) {
        let t = self.peek();
        let r = (t.tok.clone(), t.line, t.col);
        if r.0 != Tok::Eof {
            self.pos += 1;
        }
        r
    }

    fn polys(&mut self) -> Result<Vec<Sparse>, ParseError> {
        let mut out = Vec::new();
        loop {
            while matches!(self.peek().tok, Tok::Newline | Tok::Sym(',')) {
                self.pos += 1;
            }
            if self.peek().tok == Tok::Eof {
                return Ok(out);
            }
            out.push(self.expr()?);
            let t = self.peek();
            match t.tok {
                Tok::Newline | Tok::Sym(',') | Tok::Eof => {}
                ref other => {
                    let msg = format!(
                        "expected an operator, `,` or end of line, found {}",
                        describe(other)
                    );
                    return err(msg, t.line, t.col);
                }
            }
        }
    }

    fn expr(&mut self) -> Result<Sparse, ParseError> {
        let mut acc = self.signed_term()?;
        loop {
            let neg = match self.peek().tok {
                Tok::Sym('+') => false,
                Tok::Sym('-') => true,
                _ => return Ok(acc),
            };
            self.pos += 1;
            self.skip_newlines();
            let t = self.signed_term()?;
            self.add_into(&mut acc, t, neg);
        }
    }

    fn signed_term(&mut self) -> Result<Sparse, ParseError> {
        let mut neg = false;
        while let Tok::Sym(c @ ('+' | '-')) = self.peek().tok {
            neg ^= c == '-';
            self.pos += 1;
            self.skip_newlines();
        }
        let t = self.term()?;
        if !neg {
            return Ok(t);
        }
        let f = self.field;
        Ok(t.into_iter().map(|(m, c)| (m, f.neg(c))).collect())
    }

    fn add_into(&self, acc: &mut Sparse, t: Sparse, neg: bool) {
        let f = self.field;
        for (m, c) in t {
            let c = if neg { f.neg(c) } else { c };
            let e = acc.entry(m).or_insert(0);
            *e = f.add(*e, c);
        }
        acc.retain(|_, c| *c != 0);
    }

    fn term(&mut self) -> Result<Sparse, ParseError> {
        let mut acc = self.power()?;
        while self.peek().tok == Tok::Sym('*') {
            let (_, line, col) = self.bump();
            self.skip_newlines();
            let rhs = self.power()?;
            acc = self.mul(&acc, &rhs, line, col)?;
        }
        Ok(acc)
    }

    fn power(&mut self) -> Result<Sparse, ParseError> {
        let base = self.atom()?;
        if self.peek().tok != Tok::Sym('^') {
            return Ok(base);
        }
        let (_, line, col) = self.bump();
        self.skip_newlines();
        let (t, eline, ecol) = self.bump();
        let Tok::Num(digits) = t else {
            return err(
                format!("expected an exponent after `^`, found {}", describe(&t)),
                eline,
                ecol,
            );
        };
        let e: u32 = match digits.parse::<u32>() {
            Ok(e) if e <= u32::from(u16::MAX) => e,
            _ => return err("exponent exceeds 65535", eline, ecol),
        };
        let mut result: Sparse = BTreeMap::new();
        result.insert(vec![0; self.nvars], 1);
        let mut sq = base;
        let mut k = e;
        while k > 0 {
            if k & 1 == 1 {
                result = self.mul(&result, &sq, line, col)?;
            }
            k >>= 1;
            if k > 0 {
                sq = self.mul(&sq, &sq, line, col)?;
            }
        }
        Ok(result)
    }

    fn atom(&mut self) -> Result<Sparse, ParseError> {
        let (t, line, col) = self.bump();
        let mut out = BTreeMap::new();
        match t {
            Tok::Num(digits) => {
                let p = u64::from(self.field.p());
                let v = digits
                    .bytes()
                    .fold(0u64, |v, d| (v * 10 + u64::from(d - b'0')) % p);
                if v != 0 {
                    out.insert(vec![0; self.nvars], v as u32);
                }
                Ok(out)
            }
            Tok::Var(v) => {
                let mut e = vec![0u16; self.nvars];
                e[v] = 1;
                out.insert(e, 1);
                Ok(out)
            }
            Tok::Sym('(') => {
                if self.depth >= MAX_DEPTH {
                    return err(
                        format!("parentheses nested too deeply (more than {MAX_DEPTH} levels)"),
                        line,
                        col,
                    );
                }
                self.depth += 1;
                let inner = self.expr()?;
                let (t, l2, c2) = self.bump();
                self.depth -= 1;
                if t != Tok::Sym(')') {
                    return err(format!("expected `)`, found {}", describe(&t)), l2, c2);
                }
                Ok(inner)
            }
            other => err(
                format!(
                    "expected a number, a variable or `(`, found {}",
                    describe(&other)
                ),
                line,
                col,
            ),
        }
    }

    fn mul(
        &mut self,
        a: &Sparse,
        b: &Sparse,
        line: usize,
        col: usize,
    ) -> Result<Sparse, ParseError> {
        self.work += (a.len() as u64) * (b.len() as u64);
        if self.work > WORK_LIMIT {
            return err("expression too large to expand", line, col);
        }
        let f = self.field;
        let mut out: Sparse = BTreeMap::new();
        // One scratch monomial: most products of an expansion land on a monomial already seen,
        // which then costs no allocation.
        let mut m: Vec<u16> = Vec::with_capacity(self.nvars);
        for (ma, &ca) in a {
            for (mb, &cb) in b {
                m.clear();
                for (x, y) in ma.iter().zip(mb) {
                    let s = u32::from(*x) + u32::from(*y);
                    if s > u32::from(u16::MAX) {
                        return err("exponent exceeds 65535", line, col);
                    }
                    m.push(s as u16);
                }
                let c = f.mul(ca, cb);
                match out.get_mut(m.as_slice()) {
                    Some(e) => *e = f.add(*e, c),
                    None => {
                        out.insert(m.clone(), c);
                    }
                }
            }
        }
        out.retain(|_, c| *c != 0);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_msolve_style_and_plain_lines() {
        let s = parse_system("x, y,z\n65521\nx^2*y - 3*z + 1,\n  (x+y)^2\n-x\n").unwrap();
        assert_eq!(s.vars, ["x", "y", "z"]);
        assert_eq!(s.polys.len(), 3);
        assert_eq!(s.polys[0].to_text(&s.vars), "x^2*y + 65518*z + 1");
        assert_eq!(s.polys[1].to_text(&s.vars), "x^2 + 2*x*y + y^2");
        assert_eq!(s.polys[2].to_text(&s.vars), "65520*x");
    }

    #[test]
    fn multiline_inside_parentheses_and_after_operators() {
        let s = parse_system("a,b\n7\n(a +\n b) * (a -\n b) +\n 8").unwrap();
        assert_eq!(s.polys.len(), 1);
        assert_eq!(s.polys[0].to_text(&s.vars), "a^2 + 6*b^2 + 1");
    }

    #[test]
    fn errors_have_positions() {
        let e = parse_system("x,y\n65521\nx + w").unwrap_err();
        assert_eq!((e.line, e.column), (3, 5));
        assert!(e.message.contains("unknown variable"));
        let e = parse_system("x,y\n65520\nx").unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        let e = parse_system("x,,y\n5\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 3));
        let e = parse_system("x\n5\nx^").unwrap_err();
        assert_eq!((e.line, e.column), (3, 3));
        let e = parse_system("x\n5\n2x").unwrap_err();
        assert_eq!((e.line, e.column), (3, 2));
        let e = parse_system("x\n5\n(x + 1").unwrap_err();
        assert!(e.message.contains("expected `)`"), "{e}");
        let e = parse_system("x\n5\nx^70000").unwrap_err();
        assert!(e.message.contains("exponent"));
        let e = parse_system("x,y,z\n5\n(x+y+z+1)^60000").unwrap_err();
        assert!(e.message.contains("too large"), "{e}");
        assert!(parse_system("").is_err());
        assert!(parse_system("x\n").is_err());
    }

    #[test]
    fn never_panics_on_garbage() {
        let alphabet: Vec<char> = "xy01^*+-(),\n #9é\r".chars().collect();
        let mut state = 12345u64;
        for _ in 0..3000 {
            let mut s = String::from("x, y\n65521\n");
            for _ in 0..(state % 40) {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                s.push(alphabet[(state >> 33) as usize % alphabet.len()]);
            }
            let _ = parse_system(&s);
            let _ = parse_system(&s[11..]);
        }
    }
}
