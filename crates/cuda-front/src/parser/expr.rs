//! Expressions: precedence climbing over C's binary operators, then unary, postfix and
//! primary expressions.

use super::Parser;
use crate::ast::{BinaryOp, Expr, ExprKind, UnaryOp};
use crate::error::{err, Result};
use crate::lexer::{parse_number, Number, T};

fn binary_op(kind: T) -> Option<(u8, BinaryOp)> {
    Some(match kind {
        T::OrOr => (1, BinaryOp::Or),
        T::AndAnd => (2, BinaryOp::And),
        T::Pipe => (3, BinaryOp::BitOr),
        T::Caret => (4, BinaryOp::BitXor),
        T::Amp => (5, BinaryOp::BitAnd),
        T::EqEq => (6, BinaryOp::Eq),
        T::Ne => (6, BinaryOp::Ne),
        T::Lt => (7, BinaryOp::Lt),
        T::Le => (7, BinaryOp::Le),
        T::Gt => (7, BinaryOp::Gt),
        T::Ge => (7, BinaryOp::Ge),
        T::Shl => (8, BinaryOp::Shl),
        T::Shr => (8, BinaryOp::Shr),
        T::Plus => (9, BinaryOp::Add),
        T::Minus => (9, BinaryOp::Sub),
        T::Star => (10, BinaryOp::Mul),
        T::Slash => (10, BinaryOp::Div),
        T::Percent => (10, BinaryOp::Rem),
        _ => return None,
    })
}

fn assign_op(kind: T) -> Option<Option<BinaryOp>> {
    Some(match kind {
        T::Assign => None,
        T::PlusEq => Some(BinaryOp::Add),
        T::MinusEq => Some(BinaryOp::Sub),
        T::StarEq => Some(BinaryOp::Mul),
        T::SlashEq => Some(BinaryOp::Div),
        T::PercentEq => Some(BinaryOp::Rem),
        T::AmpEq => Some(BinaryOp::BitAnd),
        T::PipeEq => Some(BinaryOp::BitOr),
        T::CaretEq => Some(BinaryOp::BitXor),
        T::ShlEq => Some(BinaryOp::Shl),
        T::ShrEq => Some(BinaryOp::Shr),
        _ => return None,
    })
}

fn boxed(e: Expr) -> Box<Expr> {
    Box::new(e)
}

impl Parser {
    /// A full expression, including the comma operator.
    pub(crate) fn expr(&mut self) -> Result<Expr> {
        let mut e = self.assign_expr()?;
        let mut n = 0;
        while self.eat(T::Comma).is_some() {
            self.enter()?;
            n += 1;
            let rhs = self.assign_expr()?;
            let span = e.span.to(rhs.span);
            e = Expr::new(ExprKind::Comma(boxed(e), boxed(rhs)), span);
        }
        self.leave(n);
        Ok(e)
    }

    /// An assignment expression (what a function argument is).
    pub(crate) fn assign_expr(&mut self) -> Result<Expr> {
        self.enter()?;
        let r = self.assign_inner();
        self.leave(1);
        r
    }

    fn assign_inner(&mut self) -> Result<Expr> {
        let lhs = self.cond_expr()?;
        if let Some(op) = assign_op(self.peek().kind) {
            self.bump();
            let rhs = self.assign_expr()?;
            let span = lhs.span.to(rhs.span);
            return Ok(Expr::new(
                ExprKind::Assign(op, boxed(lhs), boxed(rhs)),
                span,
            ));
        }
        Ok(lhs)
    }

    fn cond_expr(&mut self) -> Result<Expr> {
        let c = self.binary(1)?;
        if self.eat(T::Question).is_none() {
            return Ok(c);
        }
        let a = self.expr()?;
        self.expect(T::Colon, "`:` of a conditional expression")?;
        let b = self.assign_expr()?;
        let span = c.span.to(b.span);
        Ok(Expr::new(
            ExprKind::Cond(boxed(c), boxed(a), boxed(b)),
            span,
        ))
    }

    fn binary(&mut self, min_prec: u8) -> Result<Expr> {
        let mut lhs = self.unary()?;
        let mut n = 0;
        while let Some((prec, op)) = binary_op(self.peek().kind) {
            if prec < min_prec {
                break;
            }
            self.bump();
            self.enter()?;
            n += 1;
            let rhs = self.binary(prec + 1)?;
            let span = lhs.span.to(rhs.span);
            lhs = Expr::new(ExprKind::Binary(op, boxed(lhs), boxed(rhs)), span);
        }
        self.leave(n);
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Expr> {
        self.enter()?;
        let r = self.unary_inner();
        self.leave(1);
        r
    }

    fn unary_inner(&mut self) -> Result<Expr> {
        let t = self.peek().clone();
        let op = match t.kind {
            T::Minus => Some(UnaryOp::Neg),
            T::Plus => Some(UnaryOp::Plus),
            T::Bang => Some(UnaryOp::Not),
            T::Tilde => Some(UnaryOp::BitNot),
            T::Star => Some(UnaryOp::Deref),
            T::Amp => Some(UnaryOp::AddrOf),
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            let e = self.unary()?;
            let span = t.span.to(e.span);
            return Ok(Expr::new(ExprKind::Unary(op, boxed(e)), span));
        }
        if matches!(t.kind, T::PlusPlus | T::MinusMinus) {
            self.bump();
            let e = self.unary()?;
            let span = t.span.to(e.span);
            let kind = ExprKind::IncDec {
                inc: t.kind == T::PlusPlus,
                prefix: true,
                target: boxed(e),
            };
            return Ok(Expr::new(kind, span));
        }
        if t.kind == T::LParen && self.at_type_word(1) {
            self.bump();
            let ty = self.type_name()?;
            self.expect(T::RParen, "`)` after the cast type")?;
            let e = self.unary()?;
            let span = t.span.to(e.span);
            return Ok(Expr::new(ExprKind::Cast(ty, boxed(e)), span));
        }
        if t.is_ident("sizeof") {
            self.bump();
            self.expect(T::LParen, "`(` after sizeof")?;
            if !self.at_type_start() {
                return err(t.span, "`sizeof` is supported on types only");
            }
            let ty = self.type_name()?;
            let close = self.expect(T::RParen, "`)`")?;
            return Ok(Expr::new(ExprKind::SizeOf(ty), t.span.to(close.span)));
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Expr> {
        let mut e = self.primary()?;
        let mut n = 0;
        loop {
            let t = self.peek().clone();
            let kind = match t.kind {
                T::LBracket => {
                    self.bump();
                    let i = self.expr()?;
                    self.expect(T::RBracket, "`]`")?;
                    ExprKind::Index(boxed(e), boxed(i))
                }
                T::Dot => {
                    self.bump();
                    let f = self.expect_name("a field name")?;
                    ExprKind::Member(boxed(e), f.text)
                }
                T::Arrow => return err(t.span, "`->` (structs) is not supported"),
                T::LParen => {
                    return err(e.span, "calls through function pointers are not supported")
                }
                T::PlusPlus | T::MinusMinus => {
                    self.bump();
                    ExprKind::IncDec {
                        inc: t.kind == T::PlusPlus,
                        prefix: false,
                        target: boxed(e),
                    }
                }
                _ => break,
            };
            self.enter()?;
            n += 1;
            let span = self.since(t.span);
            let span = match &kind {
                ExprKind::Index(a, _) | ExprKind::Member(a, _) => a.span.to(span),
                ExprKind::IncDec { target, .. } => target.span.to(span),
                _ => span,
            };
            e = Expr::new(kind, span);
        }
        self.leave(n);
        Ok(e)
    }

    fn primary(&mut self) -> Result<Expr> {
        let t = self.bump();
        match t.kind {
            T::Number => Ok(match parse_number(&t.text, t.span)? {
                Number::Int(v, ty) => Expr::new(ExprKind::Int(v, ty), t.span),
                Number::Float(v, ty) => Expr::new(ExprKind::Float(v, ty), t.span),
            }),
            T::LParen => {
                let e = self.expr()?;
                let close = self.expect(T::RParen, "`)`")?;
                Ok(Expr::new(e.kind, t.span.to(close.span)))
            }
            T::Ident => self.ident_expr(t),
            T::LBracket => err(t.span, "lambdas are not supported"),
            T::Str => err(t.span, "string literals are not supported"),
            T::Char => err(
                t.span,
                "character literals (the `char` type) are not supported",
            ),
            T::Eof => err(t.span, "expected an expression, found end of input"),
            _ => err(
                t.span,
                format!("expected an expression, found `{}`", t.text),
            ),
        }
    }

    fn ident_expr(&mut self, t: crate::lexer::Tok) -> Result<Expr> {
        match t.text.as_str() {
            "true" | "false" => return Ok(Expr::new(ExprKind::Bool(t.text == "true"), t.span)),
            "static_cast" => {
                self.expect(T::Lt, "`<` after static_cast")?;
                let ty = self.type_name()?;
                self.expect(T::Gt, "`>` after the cast type")?;
                self.expect(T::LParen, "`(`")?;
                let e = self.expr()?;
                let close = self.expect(T::RParen, "`)`")?;
                return Ok(Expr::new(
                    ExprKind::Cast(ty, boxed(e)),
                    t.span.to(close.span),
                ));
            }
            "reinterpret_cast" | "const_cast" | "dynamic_cast" => {
                return err(t.span, format!("`{}` is not supported", t.text))
            }
            "new" | "delete" => return err(t.span, format!("`{}` is not supported", t.text)),
            "this" => return err(t.span, "classes (`this`) are not supported"),
            "nullptr" | "NULL" => return err(t.span, "null pointers are not supported"),
            "asm" | "__asm__" | "__asm" => return err(t.span, "inline assembly is not supported"),
            _ => {}
        }
        if let Some(what) = super::types::rejected_word(&t.text) {
            return err(t.span, format!("{what} not supported"));
        }
        if self.at(T::ColonColon) {
            return err(
                t.span.to(self.peek().span),
                "namespaces (`::`) are not supported",
            );
        }
        if self.at(T::LParen) {
            // A functional cast `float(x)` names a type; everything else is a call.
            let is_type = Self::word_type(&t.text).is_some();
            self.bump();
            let mut args = Vec::new();
            if self.eat(T::RParen).is_none() {
                loop {
                    args.push(self.assign_expr()?);
                    if self.eat(T::Comma).is_none() {
                        self.expect(T::RParen, "`)` or `,` in the argument list")?;
                        break;
                    }
                }
            }
            let span = self.since(t.span);
            if is_type {
                let base = Self::word_type(&t.text);
                if let (Some(base), 1) = (base, args.len()) {
                    let ty = crate::ast::Type {
                        base: Some(base),
                        ptr: false,
                        konst: false,
                        volatile: false,
                        span: t.span,
                    };
                    let arg = args.pop().map(boxed);
                    if let Some(arg) = arg {
                        return Ok(Expr::new(ExprKind::Cast(ty, arg), span));
                    }
                }
                return err(span, "malformed functional cast");
            }
            return Ok(Expr::new(ExprKind::Call(t.text, t.span, args), span));
        }
        if self.at(T::Lt) && ["min", "max"].contains(&t.text.as_str()) {
            return err(t.span, "templates are not supported");
        }
        Ok(Expr::new(ExprKind::Ident(t.text), t.span))
    }

    fn word_type(word: &str) -> Option<warpsafe_ir::ScalarType> {
        use warpsafe_ir::ScalarType as S;
        Some(match word {
            "float" => S::F32,
            "double" => S::F64,
            "int" => S::I32,
            "unsigned" => S::U32,
            "bool" => S::Bool,
            "size_t" => S::U64,
            "long" => S::I64,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::ast::{BinaryOp, ExprKind};
    use crate::lexer::lex;
    use warpsafe_ir::Span;

    fn show(src: &str) -> String {
        let e = super::super::parse_expr_tokens(lex(src, 0), Span::DUMMY).unwrap();
        fmt(&e)
    }

    fn fmt(e: &crate::ast::Expr) -> String {
        match &e.kind {
            ExprKind::Int(v, _) => v.to_string(),
            ExprKind::Ident(n) => n.clone(),
            ExprKind::Binary(op, a, b) => format!("({} {:?} {})", fmt(a), op, fmt(b)),
            ExprKind::Assign(op, a, b) => format!("({} ={:?} {})", fmt(a), op, fmt(b)),
            ExprKind::Cond(c, a, b) => format!("({} ? {} : {})", fmt(c), fmt(a), fmt(b)),
            ExprKind::Unary(op, a) => format!("({op:?} {})", fmt(a)),
            ExprKind::Index(a, i) => format!("{}[{}]", fmt(a), fmt(i)),
            ExprKind::Member(a, f) => format!("{}.{f}", fmt(a)),
            ExprKind::Cast(t, a) => format!("(cast {:?} {})", t.base, fmt(a)),
            ExprKind::Comma(a, b) => format!("({}, {})", fmt(a), fmt(b)),
            ExprKind::IncDec { prefix, target, .. } => format!("(inc{prefix} {})", fmt(target)),
            ExprKind::Call(f, _, args) => {
                let a: Vec<String> = args.iter().map(fmt).collect();
                format!("{f}({})", a.join(", "))
            }
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(show("a + b * c - d"), "((a Add (b Mul c)) Sub d)");
        assert_eq!(show("a << 1 + 2"), "(a Shl (1 Add 2))");
        assert_eq!(show("a < b == c < d"), "((a Lt b) Eq (c Lt d))");
        assert_eq!(show("a & b ^ c | d"), "(((a BitAnd b) BitXor c) BitOr d)");
        assert_eq!(show("a || b && c"), "(a Or (b And c))");
        assert_eq!(show("a = b += c"), "(a =None (b =Some(Add) c))");
        assert_eq!(show("a ? b : c ? d : e"), "(a ? b : (c ? d : e))");
        assert_eq!(show("-a[i]++"), "(Neg (incfalse a[i]))");
        assert_eq!(show("(float)x * 2"), "((cast Some(F32) x) Mul 2)");
        assert_eq!(show("f(a, (b, c))"), "f(a, (b, c))");
        assert_eq!(show("threadIdx.x + 1"), "(threadIdx.x Add 1)");
        assert_eq!(show("static_cast<unsigned int>(x)"), "(cast Some(U32) x)");
        let _ = BinaryOp::Add;
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let src = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
        assert!(super::super::parse_expr_tokens(lex(&src, 0), Span::DUMMY).is_err());
        let src = format!("{}1", "-".repeat(5000));
        assert!(super::super::parse_expr_tokens(lex(&src, 0), Span::DUMMY).is_err());
        let src = vec!["a"; 5000].join("+");
        assert!(super::super::parse_expr_tokens(lex(&src, 0), Span::DUMMY).is_err());
    }
}
