//! Statements and declarations.

use super::Parser;
use crate::ast::{Decl, Declarator, Init, Stmt, StmtKind};
use crate::error::{err, Result};
use crate::lexer::T;

const REJECTED_STMTS: &[(&str, &str)] = &[
    ("switch", "`switch` statements are"),
    ("case", "`switch` statements are"),
    ("default", "`switch` statements are"),
    ("goto", "`goto` is"),
    ("try", "exceptions are"),
    ("throw", "exceptions are"),
    ("asm", "inline assembly is"),
    ("__asm__", "inline assembly is"),
    ("typedef", "typedefs are"),
    ("using", "`using` declarations are"),
    ("namespace", "namespaces are"),
];

impl Parser {
    /// A `{ ... }` block's statements.
    pub(crate) fn block(&mut self) -> Result<Vec<Stmt>> {
        self.expect(T::LBrace, "`{`")?;
        let mut stmts = Vec::new();
        while self.eat(T::RBrace).is_none() {
            if self.at(T::Eof) {
                return err(self.peek().span, "expected `}`, found end of input");
            }
            stmts.push(self.stmt()?);
        }
        Ok(stmts)
    }

    /// One statement.
    pub(crate) fn stmt(&mut self) -> Result<Stmt> {
        self.enter()?;
        let r = self.stmt_inner();
        self.leave(1);
        r
    }

    fn stmt_inner(&mut self) -> Result<Stmt> {
        let t = self.peek().clone();
        let start = t.span;
        if let Some((_, what)) = REJECTED_STMTS.iter().find(|(w, _)| t.is_ident(w)) {
            return err(t.span, format!("{what} not supported"));
        }
        if t.kind == T::Ident && self.peek_at(1).kind == T::Colon {
            return err(
                t.span.to(self.peek_at(1).span),
                "labels (`goto`) are not supported",
            );
        }
        let kind = match t.kind {
            T::LBrace => StmtKind::Block(self.block()?),
            T::Semi => {
                self.bump();
                StmtKind::Empty
            }
            T::Ident => match t.text.as_str() {
                "if" => {
                    self.bump();
                    let c = self.paren_expr()?;
                    let then = Box::new(self.stmt()?);
                    let els = match self.eat_ident("else") {
                        Some(_) => Some(Box::new(self.stmt()?)),
                        None => None,
                    };
                    StmtKind::If(c, then, els)
                }
                "while" => {
                    self.bump();
                    let c = self.paren_expr()?;
                    StmtKind::While(c, Box::new(self.stmt()?))
                }
                "do" => {
                    self.bump();
                    let body = Box::new(self.stmt()?);
                    if self.eat_ident("while").is_none() {
                        return err(self.peek().span, "expected `while` after a `do` body");
                    }
                    let c = self.paren_expr()?;
                    self.expect(T::Semi, "`;`")?;
                    StmtKind::DoWhile(body, c)
                }
                "for" => self.for_stmt()?,
                "break" | "continue" => {
                    self.bump();
                    self.expect(T::Semi, "`;`")?;
                    if t.text == "break" {
                        StmtKind::Break
                    } else {
                        StmtKind::Continue
                    }
                }
                "return" => {
                    self.bump();
                    let e = if self.at(T::Semi) {
                        None
                    } else {
                        Some(self.expr()?)
                    };
                    self.expect(T::Semi, "`;`")?;
                    StmtKind::Return(e)
                }
                _ => self.decl_or_expr()?,
            },
            _ => self.decl_or_expr()?,
        };
        Ok(Stmt {
            kind,
            span: self.since(start),
        })
    }

    fn paren_expr(&mut self) -> Result<crate::ast::Expr> {
        self.expect(T::LParen, "`(`")?;
        let e = self.expr()?;
        self.expect(T::RParen, "`)`")?;
        Ok(e)
    }

    fn for_stmt(&mut self) -> Result<StmtKind> {
        self.bump();
        self.expect(T::LParen, "`(` after `for`")?;
        let init = if self.at(T::Semi) {
            self.bump();
            None
        } else {
            let start = self.peek().span;
            let kind = self.decl_or_expr()?;
            Some(Box::new(Stmt {
                kind,
                span: self.since(start),
            }))
        };
        let cond = if self.at(T::Semi) {
            None
        } else {
            Some(self.expr()?)
        };
        self.expect(T::Semi, "`;` after the loop condition")?;
        if self.at(T::Colon) {
            return err(self.peek().span, "range-based `for` is not supported");
        }
        let update = if self.at(T::RParen) {
            None
        } else {
            Some(self.expr()?)
        };
        self.expect(T::RParen, "`)` after the loop header")?;
        let body = Box::new(self.stmt()?);
        Ok(StmtKind::For {
            init,
            cond,
            update,
            body,
        })
    }

    /// A declaration or an expression statement, including its `;`.
    fn decl_or_expr(&mut self) -> Result<StmtKind> {
        let t = self.peek().clone();
        if self.at_type_start() {
            let d = self.decl()?;
            self.expect(T::Semi, "`;` after the declaration")?;
            return Ok(StmtKind::Decl(d));
        }
        if t.kind == T::Ident && self.peek_at(1).kind == T::Ident {
            if super::types::is_unsupported_type_name(&t.text) {
                return err(t.span, format!("the type `{}` is not supported", t.text));
            }
            if let Some(what) = super::types::rejected_word(&t.text) {
                return err(t.span, format!("{what} not supported"));
            }
            return err(t.span, format!("unknown type `{}`", t.text));
        }
        let e = self.expr()?;
        self.expect(T::Semi, "`;` after the expression")?;
        Ok(StmtKind::Expr(e))
    }

    /// A declaration without its `;`: specifiers then declarators.
    pub(crate) fn decl(&mut self) -> Result<Decl> {
        let (storage, base) = self.type_spec()?;
        let mut declarators = Vec::new();
        loop {
            declarators.push(self.declarator()?);
            if self.eat(T::Comma).is_none() {
                break;
            }
        }
        Ok(Decl {
            storage,
            base,
            declarators,
        })
    }

    fn declarator(&mut self) -> Result<Declarator> {
        let start = self.peek().span;
        let ptr = self.pointer_suffix()?;
        if self.at(T::LParen) {
            return err(self.peek().span, "function pointers are not supported");
        }
        let name = self.expect_name("a name in the declaration")?;
        if self.at(T::LParen) {
            return err(
                name.span,
                "function declarations inside a body are not supported",
            );
        }
        let mut dims = Vec::new();
        while self.eat(T::LBracket).is_some() {
            if self.eat(T::RBracket).is_some() {
                dims.push(None);
                continue;
            }
            dims.push(Some(self.expr()?));
            self.expect(T::RBracket, "`]`")?;
        }
        let init = if self.eat(T::Assign).is_some() {
            if let Some(open) = self.eat(T::LBrace) {
                let mut items = Vec::new();
                while self.eat(T::RBrace).is_none() {
                    if self.at(T::LBrace) {
                        return err(
                            self.peek().span,
                            "nested initialiser lists are not supported",
                        );
                    }
                    items.push(self.assign_expr()?);
                    if self.eat(T::Comma).is_none() {
                        self.expect(T::RBrace, "`}` or `,` in the initialiser list")?;
                        break;
                    }
                }
                Some(Init::List(items, self.since(open.span)))
            } else {
                Some(Init::Expr(self.assign_expr()?))
            }
        } else {
            if self.at(T::LBrace) {
                return err(
                    self.peek().span,
                    "brace initialisation is not supported; use `=`",
                );
            }
            None
        };
        Ok(Declarator {
            name: name.text,
            name_span: name.span,
            ptr,
            dims,
            init,
            span: self.since(start),
        })
    }
}
