//! Parsing annotation formulas: a small lexer and a precedence-climbing parser whose every
//! node and error carries a byte span into the original source.

use crate::error::PermError;
use crate::syntax::{SpecExpr, SpecIndex, SpecKind, SpecOp};
use warpsafe_ir::Span;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Int(i128),
    Ident(String),
    Punct(&'static str),
}

const PUNCTS: [&str; 25] = [
    "==>", "..", "==", "!=", "<=", ">=", "&&", "||", "::", "(", ")", "[", "]", ",", ":", ".", "+",
    "-", "*", "/", "%", "<", ">", "!", "?",
];

fn lex(text: &str, base: usize) -> Result<Vec<(Tok, Span)>, PermError> {
    let bytes = text.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    'outer: while i < bytes.len() {
        let c = bytes[i] as char;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let span = Span::new(base + start, base + i);
            let v = text[start..i]
                .parse::<i128>()
                .map_err(|_| PermError::annotation(span, "integer literal too large"))?;
            out.push((Tok::Int(v), span));
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push((
                Tok::Ident(text[start..i].to_string()),
                Span::new(base + start, base + i),
            ));
            continue;
        }
        for p in PUNCTS {
            if text[i..].starts_with(p) {
                out.push((Tok::Punct(p), Span::new(base + i, base + i + p.len())));
                i += p.len();
                continue 'outer;
            }
        }
        let len = text[i..].chars().next().map_or(1, char::len_utf8);
        return Err(PermError::annotation(
            Span::new(base + i, base + i + len),
            format!("unexpected character `{}`", &text[i..i + len]),
        ));
    }
    Ok(out)
}

/// Most nested subformulas (parentheses, quantifiers, implications, conditionals, unary
/// operators, operator chains), so that parsing, dropping and checking an annotation cannot
/// overflow the stack.
const MAX_DEPTH: usize = 256;

struct Parser {
    toks: Vec<(Tok, Span)>,
    pos: usize,
    end: Span,
    depth: usize,
}

/// Parses one annotation formula written at byte offset `base` of the source.
pub fn parse_formula(text: &str, base: usize) -> Result<SpecExpr, PermError> {
    let toks = lex(text, base)?;
    let end = Span::new(base + text.len(), base + text.len());
    if toks.is_empty() {
        return Err(PermError::annotation(end, "expected a formula"));
    }
    let mut p = Parser {
        toks,
        pos: 0,
        end,
        depth: 0,
    };
    let e = p.formula()?;
    if let Some((t, span)) = p.toks.get(p.pos) {
        return Err(PermError::annotation(
            *span,
            format!("unexpected `{}` after the formula", show(t)),
        ));
    }
    Ok(e)
}

fn show(t: &Tok) -> String {
    match t {
        Tok::Int(v) => v.to_string(),
        Tok::Ident(s) => s.clone(),
        Tok::Punct(p) => p.to_string(),
    }
}

const LEVELS: [&[(&str, SpecOp)]; 6] = [
    &[("||", SpecOp::Or)],
    &[("&&", SpecOp::And)],
    &[("==", SpecOp::Eq), ("!=", SpecOp::Ne)],
    &[
        ("<", SpecOp::Lt),
        ("<=", SpecOp::Le),
        (">", SpecOp::Gt),
        (">=", SpecOp::Ge),
    ],
    &[("+", SpecOp::Add), ("-", SpecOp::Sub)],
    &[("*", SpecOp::Mul), ("/", SpecOp::Div), ("%", SpecOp::Rem)],
];

impl Parser {
    /// One level deeper; an error past [`MAX_DEPTH`].
    fn enter(&mut self) -> Result<(), PermError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(PermError::annotation(
                self.span_here(),
                format!("formula nested too deeply (more than {MAX_DEPTH} levels)"),
            ));
        }
        Ok(())
    }

    /// Runs `f` one level deeper.
    fn nested<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, PermError>,
    ) -> Result<T, PermError> {
        let depth = self.depth;
        let r = self.enter().and_then(|()| f(self));
        self.depth = depth;
        r
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|(t, _)| t)
    }

    fn span_here(&self) -> Span {
        self.toks.get(self.pos).map_or(self.end, |(_, s)| *s)
    }

    fn prev_span(&self) -> Span {
        self.pos
            .checked_sub(1)
            .and_then(|i| self.toks.get(i))
            .map_or(self.end, |(_, s)| *s)
    }

    fn eat(&mut self, p: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Punct(q)) if *q == p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, p: &str) -> Result<Span, PermError> {
        if self.eat(p) {
            Ok(self.prev_span())
        } else {
            let found = self.peek().map_or("the end of the annotation".into(), |t| {
                format!("`{}`", show(t))
            });
            Err(PermError::annotation(
                self.span_here(),
                format!("expected `{p}`, found {found}"),
            ))
        }
    }

    fn ident(&mut self, what: &str) -> Result<(String, Span), PermError> {
        match self.toks.get(self.pos) {
            Some((Tok::Ident(s), span)) => {
                self.pos += 1;
                Ok((s.clone(), *span))
            }
            _ => Err(PermError::annotation(
                self.span_here(),
                format!("expected {what}"),
            )),
        }
    }

    fn formula(&mut self) -> Result<SpecExpr, PermError> {
        self.nested(Self::formula_inner)
    }

    fn formula_inner(&mut self) -> Result<SpecExpr, PermError> {
        if matches!(self.peek(), Some(Tok::Ident(s)) if s == "forall") {
            let start = self.span_here();
            self.pos += 1;
            let (var, _) = self.ident("a bound variable name")?;
            match self.ident("`in`")? {
                (kw, _) if kw == "in" => {}
                (_, span) => return Err(PermError::annotation(span, "expected `in`")),
            }
            let lo = self.binary(0)?;
            self.expect("..")?;
            let hi = self.binary(0)?;
            if !self.eat("::") {
                self.expect(":")?;
            }
            let body = self.formula()?;
            let span = start.to(body.span);
            return Ok(SpecExpr {
                kind: SpecKind::Forall(var, Box::new(lo), Box::new(hi), Box::new(body)),
                span,
            });
        }
        let lhs = self.conditional()?;
        if self.eat("==>") {
            let rhs = self.formula()?;
            let span = lhs.span.to(rhs.span);
            return Ok(SpecExpr {
                kind: SpecKind::Binary(SpecOp::Implies, Box::new(lhs), Box::new(rhs)),
                span,
            });
        }
        Ok(lhs)
    }

    fn conditional(&mut self) -> Result<SpecExpr, PermError> {
        self.nested(Self::conditional_inner)
    }

    fn conditional_inner(&mut self) -> Result<SpecExpr, PermError> {
        let c = self.binary(0)?;
        if matches!(self.peek(), Some(Tok::Punct("?"))) {
            self.pos += 1;
            let a = self.conditional()?;
            self.expect(":")?;
            let b = self.conditional()?;
            let span = c.span.to(b.span);
            return Ok(SpecExpr {
                kind: SpecKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
                span,
            });
        }
        Ok(c)
    }

    fn binary(&mut self, level: usize) -> Result<SpecExpr, PermError> {
        let Some(ops) = LEVELS.get(level) else {
            return self.unary();
        };
        let depth = self.depth;
        let r = self.binary_chain(ops, level);
        self.depth = depth;
        r
    }

    /// A left-deep chain of the operators of one level: each operator is one level of
    /// [`MAX_DEPTH`].
    fn binary_chain(
        &mut self,
        ops: &[(&str, SpecOp)],
        level: usize,
    ) -> Result<SpecExpr, PermError> {
        let mut lhs = self.binary(level + 1)?;
        'more: loop {
            for (text, op) in ops.iter() {
                if self.eat(text) {
                    self.enter()?;
                    let rhs = self.binary(level + 1)?;
                    let span = lhs.span.to(rhs.span);
                    lhs = SpecExpr {
                        kind: SpecKind::Binary(*op, Box::new(lhs), Box::new(rhs)),
                        span,
                    };
                    continue 'more;
                }
            }
            return Ok(lhs);
        }
    }

    fn unary(&mut self) -> Result<SpecExpr, PermError> {
        self.nested(Self::unary_inner)
    }

    fn unary_inner(&mut self) -> Result<SpecExpr, PermError> {
        let start = self.span_here();
        if self.eat("!") {
            let e = self.unary()?;
            let span = start.to(e.span);
            return Ok(SpecExpr {
                kind: SpecKind::Not(Box::new(e)),
                span,
            });
        }
        if self.eat("-") {
            let e = self.unary()?;
            let span = start.to(e.span);
            return Ok(SpecExpr {
                kind: SpecKind::Neg(Box::new(e)),
                span,
            });
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<SpecExpr, PermError> {
        self.nested(Self::primary_inner)
    }

    fn primary_inner(&mut self) -> Result<SpecExpr, PermError> {
        let start = self.span_here();
        match self.toks.get(self.pos).cloned() {
            Some((Tok::Int(v), span)) => {
                self.pos += 1;
                Ok(SpecExpr {
                    kind: SpecKind::Int(v),
                    span,
                })
            }
            Some((Tok::Punct("("), _)) => {
                self.pos += 1;
                let e = self.formula()?;
                let end = self.expect(")")?;
                Ok(SpecExpr {
                    kind: e.kind,
                    span: start.to(end),
                })
            }
            Some((Tok::Ident(name), _)) if name == "forall" => self.formula(),
            Some((Tok::Ident(name), span)) => {
                self.pos += 1;
                self.after_ident(name, span)
            }
            Some((t, span)) => Err(PermError::annotation(
                span,
                format!("expected an expression, found `{}`", show(&t)),
            )),
            None => Err(PermError::annotation(self.end, "expected an expression")),
        }
    }

    fn after_ident(&mut self, name: String, span: Span) -> Result<SpecExpr, PermError> {
        match name.as_str() {
            "true" | "false" => {
                return Ok(SpecExpr {
                    kind: SpecKind::Bool(name == "true"),
                    span,
                })
            }
            "Perm" => {
                self.expect("(")?;
                let target = self.primary()?;
                if !matches!(target.kind, SpecKind::Access(..)) {
                    return Err(PermError::annotation(
                        target.span,
                        "the first argument of `Perm` is an array element or range, like `a[i]` or `a[0..n]`",
                    ));
                }
                self.expect(",")?;
                let amount = self.binary(0)?;
                let end = self.expect(")")?;
                return Ok(SpecExpr {
                    kind: SpecKind::Perm(Box::new(target), Box::new(amount)),
                    span: span.to(end),
                });
            }
            "old" => {
                self.expect("(")?;
                let e = self.formula()?;
                let end = self.expect(")")?;
                return Ok(SpecExpr {
                    kind: SpecKind::Old(Box::new(e)),
                    span: span.to(end),
                });
            }
            _ => {}
        }
        if self.eat(".") {
            let (field, fspan) = self.ident("a field name such as `x`")?;
            return Ok(SpecExpr {
                kind: SpecKind::Member(name, field),
                span: span.to(fspan),
            });
        }
        let mut indices = vec![];
        let mut end = span;
        while self.eat("[") {
            let lo = self.binary(0)?;
            if self.eat("..") {
                let hi = self.binary(0)?;
                indices.push(SpecIndex::Range(lo, hi));
            } else {
                indices.push(SpecIndex::At(lo));
            }
            end = self.expect("]")?;
        }
        let kind = if indices.is_empty() {
            SpecKind::Ident(name)
        } else {
            SpecKind::Access(name, indices)
        };
        Ok(SpecExpr {
            kind,
            span: span.to(end),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_permissions_and_quantifiers() {
        let e = parse_formula("forall i in 0..n: Perm(a[i], 1/2)", 10).expect("parses");
        let SpecKind::Forall(v, _, _, body) = e.kind else {
            panic!("expected forall")
        };
        assert_eq!(v, "i");
        assert!(matches!(body.kind, SpecKind::Perm(..)));
        assert_eq!(e.span, Span::new(10, 43));
    }

    #[test]
    fn implication_binds_looser_than_conjunction() {
        let e = parse_formula("tid > 0 && n > 1 ==> Perm(a[tid - 1], read)", 0).expect("parses");
        assert!(matches!(e.kind, SpecKind::Binary(SpecOp::Implies, ..)));
    }

    #[test]
    fn errors_point_at_the_offending_text() {
        let err = parse_formula("Perm(a[tid], 1", 100).expect_err("unclosed");
        assert_eq!(err.span(), Some(Span::new(114, 114)));
        let err = parse_formula("Perm(a[tid], 1) $", 0).expect_err("bad char");
        assert_eq!(err.span(), Some(Span::new(16, 17)));
        let err = parse_formula("Perm(tid, 1)", 0).expect_err("not an access");
        assert_eq!(err.span(), Some(Span::new(5, 8)));
    }
}
