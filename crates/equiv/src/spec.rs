//! The spec language: each output element stated mathematically.
//!
//! ```text
//! # comments start with '#' or '//'
//! shape C[n][n]                                   # row-major shape of a buffer (default 1-D)
//! y[i] = a * x[i] + y[i] for i < n                # buffers on the right: initial contents
//! out[i] = sum(j < i, in[j]) for i < n
//! C[i][j] = sum(k < n, A[i][k] * B[k][j]) for i < n, j < n
//! m[r] = max(j < 8, x[r*8 + j]) for 0 <= r < 4    # reductions: sum, prod, max, min
//! ```
//!
//! Expressions: numbers, `+ - * /`, `%` on integers, parentheses, scalar parameters,
//! launch dimensions (`blockDim.x`, `gridDim.y`, …), index variables, buffer elements, `exp log sqrt abs` and binary `max min`. Output elements
//! no equation covers must keep their initial value.

use serde::Serialize;
use std::fmt;

/// A byte range of the spec text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SpecSpan {
    /// Start byte.
    pub lo: usize,
    /// End byte (exclusive).
    pub hi: usize,
}

/// A spec that does not parse, or does not fit the kernel.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SpecError {
    /// What is wrong.
    pub message: String,
    /// Where.
    pub span: SpecSpan,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "spec error at {}..{}: {}",
            self.span.lo, self.span.hi, self.message
        )
    }
}

impl std::error::Error for SpecError {}

/// A bound index: `lo <= var < hi` (or `<= hi` when `inclusive`).
#[derive(Clone, Debug, PartialEq)]
pub struct Range {
    /// The index variable.
    pub var: String,
    /// Lower bound (0 when omitted).
    pub lo: Option<Expr>,
    /// Upper bound.
    pub hi: Expr,
    /// True for `var <= hi`.
    pub inclusive: bool,
}

/// Reductions over a range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    /// `sum`
    Sum,
    /// `prod`
    Prod,
    /// `max`
    Max,
    /// `min`
    Min,
}

/// A spec expression with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// The expression.
    pub kind: ExprKind,
    /// Where it is.
    pub span: SpecSpan,
}

/// Spec expressions.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A decimal number.
    Num(String),
    /// An index variable or scalar parameter.
    Name(String),
    /// A buffer element.
    Index(String, Vec<Expr>),
    /// `a op b` with op one of `+ - * / %`.
    Bin(char, Box<Expr>, Box<Expr>),
    /// `-a`
    Neg(Box<Expr>),
    /// `f(args)`: `exp log sqrt abs max min`.
    Call(String, Vec<Expr>),
    /// A reduction over a range.
    Reduce(Reduce, Box<Range>, Box<Expr>),
}

/// `buffer[indices] = value for ranges`.
#[derive(Clone, Debug, PartialEq)]
pub struct Equation {
    /// The output buffer.
    pub buffer: String,
    /// Its indices (over the ranges' variables).
    pub indices: Vec<Expr>,
    /// The value.
    pub value: Expr,
    /// The ranges the equation holds for.
    pub ranges: Vec<Range>,
    /// The whole equation.
    pub span: SpecSpan,
}

/// A parsed spec.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Spec {
    /// Declared shapes: buffer name and extents (outermost first).
    pub shapes: Vec<(String, Vec<Expr>)>,
    /// The equations.
    pub equations: Vec<Equation>,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(String),
    Ident(String),
    Sym(&'static str),
}

fn lex(text: &str) -> Result<Vec<(Tok, SpecSpan)>, SpecError> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        let sp = |lo: usize, hi: usize| SpecSpan { lo, hi };
        if c == '#' || (c == '/' && b.get(i + 1) == Some(&b'/')) {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() || (c == '.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            let lo = i;
            while i < b.len() && ((b[i] as char).is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
                i += 1;
                if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
                    i += 1;
                }
                while i < b.len() && (b[i] as char).is_ascii_digit() {
                    i += 1;
                }
            }
            if i < b.len() && (b[i] == b'f' || b[i] == b'F') {
                i += 1;
            }
            check_number(&text[lo..i], sp(lo, i))?;
            out.push((
                Tok::Num(text[lo..i].trim_end_matches(['f', 'F']).to_string()),
                sp(lo, i),
            ));
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let lo = i;
            while i < b.len() && ((b[i] as char).is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            // `blockDim.x`, `gridDim.y`: launch dimensions are names with their component.
            let launch = matches!(&text[lo..i], "blockDim" | "gridDim");
            if launch && i + 1 < b.len() && b[i] == b'.' && matches!(b[i + 1], b'x' | b'y' | b'z') {
                i += 2;
            }
            out.push((Tok::Ident(text[lo..i].to_string()), sp(lo, i)));
            continue;
        }
        let two = text.get(i..i + 2);
        if two == Some("<=") {
            out.push((Tok::Sym("<="), sp(i, i + 2)));
            i += 2;
            continue;
        }
        let sym = match c {
            '[' => "[",
            ']' => "]",
            '(' => "(",
            ')' => ")",
            ',' => ",",
            ';' => ";",
            '=' => "=",
            '<' => "<",
            '+' => "+",
            '-' => "-",
            '*' => "*",
            '/' => "/",
            '%' => "%",
            _ => {
                return Err(SpecError {
                    message: format!("unexpected character `{c}`"),
                    span: sp(i, i + c.len_utf8()),
                })
            }
        };
        out.push((Tok::Sym(sym), sp(i, i + 1)));
        i += 1;
    }
    Ok(out)
}

/// A malformed number (`1.2.3`, `1e`) or one whose exponent or length would make an exact
/// rational of unbounded size (`1e999999999`, a hundred thousand digits).
fn check_number(text: &str, span: SpecSpan) -> Result<(), SpecError> {
    let bad = |why: &str| {
        Err(SpecError {
            message: format!("{why} `{text}`"),
            span,
        })
    };
    let text = text.trim_end_matches(['f', 'F']);
    let (mant, exp) = match text.find(['e', 'E']) {
        Some(p) => (&text[..p], Some(&text[p + 1..])),
        None => (text, None),
    };
    if mant.matches('.').count() > 1 || mant == "." {
        return bad("malformed number");
    }
    if mant.len() > MAX_DIGITS {
        return Err(SpecError {
            message: format!("a number of more than {MAX_DIGITS} digits"),
            span,
        });
    }
    if let Some(exp) = exp {
        let digits = exp.trim_start_matches(['+', '-']);
        if digits.is_empty() {
            return bad("missing exponent in");
        }
        if digits.parse::<u32>().map_or(true, |e| e > MAX_EXPONENT) {
            return bad(&format!("exponent beyond {MAX_EXPONENT} in"));
        }
    }
    Ok(())
}

/// Largest decimal exponent of a number: far beyond any float, small enough for exact rationals.
const MAX_EXPONENT: u32 = 1000;

/// Most digits of a number: far beyond any float, and the exact rational stays small (a
/// longer one took seconds to convert each time a spec was evaluated).
const MAX_DIGITS: usize = 10_000;

/// Most nested subexpressions (parentheses, subscripts, calls, unary minus, operator chains),
/// so that parsing, dropping and evaluating a spec cannot overflow the stack.
const MAX_DEPTH: usize = 256;

struct Parser {
    toks: Vec<(Tok, SpecSpan)>,
    pos: usize,
    end: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }

    fn span(&self) -> SpecSpan {
        self.toks.get(self.pos).map(|t| t.1).unwrap_or(SpecSpan {
            lo: self.end,
            hi: self.end,
        })
    }

    fn prev_hi(&self) -> usize {
        self.pos
            .checked_sub(1)
            .and_then(|p| self.toks.get(p))
            .map_or(0, |t| t.1.hi)
    }

    fn err<T>(&self, message: impl Into<String>) -> Result<T, SpecError> {
        Err(SpecError {
            message: message.into(),
            span: self.span(),
        })
    }

    /// One level deeper into an expression; an error past [`MAX_DEPTH`].
    fn enter(&mut self) -> Result<(), SpecError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.err(format!(
                "expression nested too deeply (more than {MAX_DEPTH} levels)"
            ));
        }
        Ok(())
    }

    fn eat(&mut self, s: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Sym(x)) if *x == s) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, s: &str) -> Result<(), SpecError> {
        if self.eat(s) {
            Ok(())
        } else {
            self.err(format!("expected `{s}`"))
        }
    }

    fn ident(&mut self) -> Result<String, SpecError> {
        match self.peek() {
            Some(Tok::Ident(n)) => {
                let n = n.clone();
                self.pos += 1;
                Ok(n)
            }
            _ => self.err("expected a name"),
        }
    }

    fn spec(&mut self) -> Result<Spec, SpecError> {
        let mut spec = Spec::default();
        while self.peek().is_some() {
            if self.eat(";") {
                continue;
            }
            if matches!(self.peek(), Some(Tok::Ident(k)) if k == "shape") {
                self.pos += 1;
                let name = self.ident()?;
                let dims = self.subscripts()?;
                spec.shapes.push((name, dims));
                continue;
            }
            let lo = self.span().lo;
            let buffer = self.ident()?;
            let indices = self.subscripts()?;
            self.expect("=")?;
            let value = self.expr()?;
            let mut ranges = Vec::new();
            if matches!(self.peek(), Some(Tok::Ident(k)) if k == "for") {
                self.pos += 1;
                loop {
                    ranges.push(self.range()?);
                    if !self.eat(",") {
                        break;
                    }
                }
            }
            spec.equations.push(Equation {
                buffer,
                indices,
                value,
                ranges,
                span: SpecSpan {
                    lo,
                    hi: self.prev_hi(),
                },
            });
        }
        Ok(spec)
    }

    fn subscripts(&mut self) -> Result<Vec<Expr>, SpecError> {
        let mut out = Vec::new();
        while self.eat("[") {
            out.push(self.expr()?);
            self.expect("]")?;
        }
        if out.is_empty() {
            return self.err("expected `[`");
        }
        Ok(out)
    }

    /// `i < n`, `i <= n`, `lo <= i < n`.
    fn range(&mut self) -> Result<Range, SpecError> {
        let first = self.additive()?;
        let inclusive = if self.eat("<=") {
            true
        } else if self.eat("<") {
            false
        } else {
            return self.err("expected `<` or `<=` in a range");
        };
        let second = self.additive()?;
        if let ExprKind::Name(var) = &first.kind {
            if !matches!(self.peek(), Some(Tok::Sym("<")) | Some(Tok::Sym("<="))) {
                return Ok(Range {
                    var: var.clone(),
                    lo: None,
                    hi: second,
                    inclusive,
                });
            }
        }
        // lo <= var < hi
        let ExprKind::Name(var) = second.kind.clone() else {
            return Err(SpecError {
                message: "expected an index variable in the middle of `lo <= i < hi`".into(),
                span: second.span,
            });
        };
        let lo_incl = inclusive;
        let inclusive = if self.eat("<=") {
            true
        } else if self.eat("<") {
            false
        } else {
            return self.err("expected `<` or `<=`");
        };
        let hi = self.additive()?;
        let lo = if lo_incl {
            first
        } else {
            let span = first.span;
            Expr {
                kind: ExprKind::Bin(
                    '+',
                    Box::new(first),
                    Box::new(Expr {
                        kind: ExprKind::Num("1".into()),
                        span,
                    }),
                ),
                span,
            }
        };
        Ok(Range {
            var,
            lo: Some(lo),
            hi,
            inclusive,
        })
    }

    fn expr(&mut self) -> Result<Expr, SpecError> {
        self.additive()
    }

    fn additive(&mut self) -> Result<Expr, SpecError> {
        let depth = self.depth;
        let e = self.additive_chain();
        self.depth = depth;
        e
    }

    /// A left-deep chain of `+`/`-`: each operator is one level of [`MAX_DEPTH`].
    fn additive_chain(&mut self) -> Result<Expr, SpecError> {
        let mut e = self.multiplicative()?;
        loop {
            let op = if self.eat("+") {
                '+'
            } else if self.eat("-") {
                '-'
            } else {
                return Ok(e);
            };
            self.enter()?;
            let r = self.multiplicative()?;
            let span = SpecSpan {
                lo: e.span.lo,
                hi: r.span.hi,
            };
            e = Expr {
                kind: ExprKind::Bin(op, Box::new(e), Box::new(r)),
                span,
            };
        }
    }

    fn multiplicative(&mut self) -> Result<Expr, SpecError> {
        let depth = self.depth;
        let e = self.multiplicative_chain();
        self.depth = depth;
        e
    }

    /// A left-deep chain of `*`, `/`, `%`: each operator is one level of [`MAX_DEPTH`].
    fn multiplicative_chain(&mut self) -> Result<Expr, SpecError> {
        let mut e = self.unary()?;
        loop {
            let op = if self.eat("*") {
                '*'
            } else if self.eat("/") {
                '/'
            } else if self.eat("%") {
                '%'
            } else {
                return Ok(e);
            };
            self.enter()?;
            let r = self.unary()?;
            let span = SpecSpan {
                lo: e.span.lo,
                hi: r.span.hi,
            };
            e = Expr {
                kind: ExprKind::Bin(op, Box::new(e), Box::new(r)),
                span,
            };
        }
    }

    fn unary(&mut self) -> Result<Expr, SpecError> {
        self.enter()?;
        let e = self.unary_inner();
        self.depth -= 1;
        e
    }

    fn unary_inner(&mut self) -> Result<Expr, SpecError> {
        let lo = self.span().lo;
        if self.eat("-") {
            let a = self.unary()?;
            let span = SpecSpan { lo, hi: a.span.hi };
            return Ok(Expr {
                kind: ExprKind::Neg(Box::new(a)),
                span,
            });
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr, SpecError> {
        let lo = self.span().lo;
        let mk = |p: &Parser, kind| Expr {
            kind,
            span: SpecSpan {
                lo,
                hi: p.prev_hi(),
            },
        };
        match self.peek().cloned() {
            Some(Tok::Num(n)) => {
                self.pos += 1;
                Ok(mk(self, ExprKind::Num(n)))
            }
            Some(Tok::Sym("(")) => {
                self.pos += 1;
                let e = self.expr()?;
                self.expect(")")?;
                Ok(e)
            }
            Some(Tok::Ident(name)) if name == "for" || name == "shape" => {
                self.err("expected an expression")
            }
            Some(Tok::Ident(name)) => {
                self.pos += 1;
                if matches!(self.peek(), Some(Tok::Sym("["))) {
                    let idx = self.subscripts()?;
                    return Ok(mk(self, ExprKind::Index(name, idx)));
                }
                if !self.eat("(") {
                    return Ok(mk(self, ExprKind::Name(name)));
                }
                let reduce = match name.as_str() {
                    "sum" => Some(Reduce::Sum),
                    "prod" => Some(Reduce::Prod),
                    "max" => Some(Reduce::Max),
                    "min" => Some(Reduce::Min),
                    _ => None,
                };
                if let Some(r) = reduce {
                    if self.looks_like_range() {
                        let range = self.range()?;
                        self.expect(",")?;
                        let body = self.expr()?;
                        self.expect(")")?;
                        return Ok(mk(
                            self,
                            ExprKind::Reduce(r, Box::new(range), Box::new(body)),
                        ));
                    }
                }
                let mut args = Vec::new();
                if !self.eat(")") {
                    loop {
                        args.push(self.expr()?);
                        if self.eat(")") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                Ok(mk(self, ExprKind::Call(name, args)))
            }
            _ => self.err("expected an expression"),
        }
    }

    /// True when a `<` or `<=` comes before the next top-level `,`.
    fn looks_like_range(&self) -> bool {
        let mut depth = 0i32;
        for (t, _) in &self.toks[self.pos..] {
            match t {
                Tok::Sym("(") | Tok::Sym("[") => depth += 1,
                Tok::Sym(")") | Tok::Sym("]") => {
                    if depth == 0 {
                        return false;
                    }
                    depth -= 1
                }
                Tok::Sym(",") if depth == 0 => return false,
                Tok::Sym("<") | Tok::Sym("<=") if depth == 0 => return true,
                _ => {}
            }
        }
        false
    }
}

impl Spec {
    /// Parses spec text.
    pub fn parse(text: &str) -> Result<Spec, SpecError> {
        let toks = lex(text)?;
        Parser {
            toks,
            pos: 0,
            end: text.len(),
            depth: 0,
        }
        .spec()
    }
}
