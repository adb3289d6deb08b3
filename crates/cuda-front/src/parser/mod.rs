//! The parser: hand-written recursive descent (precedence climbing for binary operators)
//! from preprocessed tokens to the [`ast`](crate::ast). Nesting is capped so that no input
//! can exhaust the stack.

mod expr;
mod items;
mod stmt;
mod types;

use crate::ast::{Expr, TranslationUnit};
use crate::error::{err, Result};
use crate::lexer::{Tok, T};
use warpsafe_ir::Span;

/// Maximum nesting of expressions and statements (parentheses, operators, blocks).
pub const MAX_DEPTH: usize = 200;

/// Parses a preprocessed token stream into a translation unit.
pub fn parse(tokens: Vec<Tok>) -> Result<TranslationUnit> {
    let mut p = Parser::new(tokens, Span::DUMMY);
    p.translation_unit()
}

/// Parses a token stream holding exactly one expression (used for `#if` and the header).
pub fn parse_expr_tokens(tokens: Vec<Tok>, end: Span) -> Result<Expr> {
    let mut p = Parser::new(tokens, end);
    let e = p.expr()?;
    if p.peek().kind != T::Eof {
        let t = p.peek();
        return err(
            t.span,
            format!("unexpected `{}` after the expression", t.text),
        );
    }
    Ok(e)
}

pub(crate) struct Parser {
    toks: Vec<Tok>,
    pos: usize,
    depth: usize,
}

impl Parser {
    fn new(mut toks: Vec<Tok>, end: Span) -> Parser {
        toks.retain(|t| t.kind != T::Newline);
        if toks.last().map(|t| t.kind) != Some(T::Eof) {
            let span = toks
                .last()
                .map(|t| Span::new(t.span.hi as usize, t.span.hi as usize));
            toks.push(Tok {
                kind: T::Eof,
                text: String::new(),
                span: span.unwrap_or(end),
            });
        }
        Parser {
            toks,
            pos: 0,
            depth: 0,
        }
    }

    fn peek(&self) -> &Tok {
        self.peek_at(0)
    }

    fn peek_at(&self, n: usize) -> &Tok {
        let last = self.toks.len().saturating_sub(1);
        &self.toks[(self.pos + n).min(last)]
    }

    fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        if t.kind != T::Eof {
            self.pos += 1;
        }
        t
    }

    fn at(&self, kind: T) -> bool {
        self.peek().kind == kind
    }

    fn at_ident(&self, name: &str) -> bool {
        self.peek().is_ident(name)
    }

    fn eat(&mut self, kind: T) -> Option<Tok> {
        if self.at(kind) {
            Some(self.bump())
        } else {
            None
        }
    }

    fn eat_ident(&mut self, name: &str) -> Option<Tok> {
        if self.at_ident(name) {
            Some(self.bump())
        } else {
            None
        }
    }

    fn expect(&mut self, kind: T, what: &str) -> Result<Tok> {
        match self.eat(kind) {
            Some(t) => Ok(t),
            None => {
                let t = self.peek();
                let found = if t.kind == T::Eof {
                    "end of input"
                } else {
                    &t.text
                };
                err(t.span, format!("expected {what}, found `{found}`"))
            }
        }
    }

    fn expect_name(&mut self, what: &str) -> Result<Tok> {
        self.expect(T::Ident, what)
    }

    /// The span from `start` to the end of the previous token.
    fn since(&self, start: Span) -> Span {
        let prev = self.pos.checked_sub(1).and_then(|i| self.toks.get(i));
        match prev {
            Some(p) if p.span.hi >= start.lo => start.to(p.span),
            _ => start,
        }
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return err(self.peek().span, "the code nests too deeply");
        }
        Ok(())
    }

    fn leave(&mut self, n: usize) {
        self.depth = self.depth.saturating_sub(n);
    }

    /// Skips a balanced `( ... )` or `{ ... }` group starting at the current token.
    fn skip_group(&mut self) -> Result<()> {
        let open = self.bump();
        let (o, c) = match open.kind {
            T::LParen => (T::LParen, T::RParen),
            _ => (T::LBrace, T::RBrace),
        };
        let mut depth = 1usize;
        while depth > 0 {
            let t = self.bump();
            if t.kind == T::Eof {
                return err(open.span, "unbalanced brackets");
            } else if t.kind == o {
                depth += 1;
            } else if t.kind == c {
                depth -= 1;
            }
        }
        Ok(())
    }
}
