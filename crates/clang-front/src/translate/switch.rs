//! `switch` as an `if`/`else` chain on a temporary: each case group must end in `break`,
//! `return` or `continue` (stacked labels share a group); fall-through between non-empty
//! groups, and `break` anywhere but at a group's end, are rejected with their span.

use super::expr::is_expr;
use super::{types, Unit};
use crate::node::Node;
use warpsafe_cuda_front::ast::{
    BinaryOp, Decl, Declarator, Expr, ExprKind, Init, Stmt, StmtKind, Storage,
};
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::Span;

/// One group of statements under its labels (`None` is `default`).
struct Group<'n> {
    labels: Vec<Option<&'n Node>>,
    body: Vec<&'n Node>,
    span: Span,
}

/// A translated group: its labels, statements and span.
type Arm<'n> = (Vec<Option<&'n Node>>, Vec<Stmt>, Span);

fn unsupported(span: Span, what: impl std::fmt::Display) -> FrontError {
    FrontError::new(span, format!("unsupported: {what}"))
}

/// Peels `case a: case b: default: stmt` into its labels and its statement.
fn peel<'n>(mut n: &'n Node, labels: &mut Vec<Option<&'n Node>>) -> Option<&'n Node> {
    loop {
        match n.kind.as_str() {
            "CaseStmt" => {
                labels.push(n.inner.first());
                match n.inner.get(1) {
                    Some(s) => n = s,
                    None => return None,
                }
            }
            "DefaultStmt" => {
                labels.push(None);
                match n.inner.first() {
                    Some(s) => n = s,
                    None => return None,
                }
            }
            _ => return Some(n),
        }
    }
}

/// True when `n` holds a `break` that would leave the `switch` (one not inside a nested
/// loop or `switch`).
fn breaks_out(n: &Node) -> bool {
    match n.kind.as_str() {
        "BreakStmt" => true,
        "ForStmt" | "WhileStmt" | "DoStmt" | "SwitchStmt" => false,
        _ => n.inner.iter().any(breaks_out),
    }
}

impl Unit<'_> {
    /// The `if` chain for the `switch` statement `n`.
    pub(super) fn switch_stmt(&self, n: &Node, span: Span) -> Result<Stmt, FrontError> {
        if n.flag("hasInit") || n.flag("hasVar") {
            return Err(unsupported(span, "declaration in a `switch` condition"));
        }
        let (Some(cond), Some(body)) = (n.inner.iter().find(|c| is_expr(c)), n.inner.last()) else {
            return Err(unsupported(span, "malformed `switch`"));
        };
        let items: Vec<&Node> = if body.kind == "CompoundStmt" {
            body.inner.iter().collect()
        } else {
            vec![body]
        };
        let mut groups: Vec<Group> = vec![];
        for item in items {
            let mut labels = vec![];
            let stmt = peel(item, &mut labels);
            if !labels.is_empty() {
                let open = groups.last().is_some_and(|g| g.body.is_empty());
                if open {
                    if let Some(g) = groups.last_mut() {
                        g.labels.extend(labels);
                    }
                } else {
                    groups.push(Group {
                        labels,
                        body: vec![],
                        span: self.span(item, span),
                    });
                }
            }
            let Some(g) = groups.last_mut() else {
                return Err(unsupported(
                    self.span(item, span),
                    "statement before the first `case`",
                ));
            };
            if let Some(s) = stmt {
                g.body.push(s);
            }
        }
        let last = groups.len().saturating_sub(1);
        let mut arms: Vec<Arm> = vec![];
        for (i, g) in groups.iter().enumerate() {
            let mut body = g.body.clone();
            let ends = body.last().map(|s| s.kind.as_str()).is_some_and(|k| {
                matches!(k, "BreakStmt" | "ReturnStmt" | "ContinueStmt" | "GotoStmt")
            });
            if body.last().is_some_and(|s| s.kind == "BreakStmt") {
                body.pop();
            }
            if let Some(b) = body.iter().find(|s| breaks_out(s)) {
                return Err(unsupported(
                    self.span(b, g.span),
                    "`break` out of a `switch` before the end of its `case`",
                ));
            }
            if !ends && i != last {
                return Err(unsupported(g.span, "fall-through between `case` groups"));
            }
            let stmts = if body.iter().any(|s| super::goto::has_goto(s)) {
                self.goto_list(&body, g.span)?
            } else {
                body.iter()
                    .map(|s| self.stmt(s, g.span))
                    .collect::<Result<Vec<_>, _>>()?
            };
            arms.push((g.labels.clone(), stmts, g.span));
        }
        let name = format!("__switch{}", self.fresh());
        let ty = types::scalar_or_pointer(cond.ty().unwrap_or("int"), span)
            .map_err(|e| unsupported(span, format!("`switch` on {e}")))?;
        let value = Expr::new(ExprKind::Ident(name.clone()), span);
        let mut chain: Option<Stmt> = arms
            .iter()
            .find(|(labels, _, _)| labels.iter().any(Option::is_none))
            .map(|(_, stmts, s)| Stmt {
                kind: StmtKind::Block(stmts.clone()),
                span: *s,
            });
        for (labels, stmts, s) in arms.into_iter().rev() {
            let mut test: Option<Expr> = None;
            for l in labels.iter().flatten() {
                let eq = Expr::new(
                    ExprKind::Binary(
                        BinaryOp::Eq,
                        Box::new(value.clone()),
                        Box::new(self.expr(l, s)?),
                    ),
                    s,
                );
                test = Some(match test {
                    None => eq,
                    Some(t) => {
                        Expr::new(ExprKind::Binary(BinaryOp::Or, Box::new(t), Box::new(eq)), s)
                    }
                });
            }
            let Some(test) = test else {
                continue;
            };
            chain = Some(Stmt {
                kind: StmtKind::If(
                    test,
                    Box::new(Stmt {
                        kind: StmtKind::Block(stmts),
                        span: s,
                    }),
                    chain.map(Box::new),
                ),
                span: s,
            });
        }
        let decl = Stmt {
            kind: StmtKind::Decl(Decl {
                storage: Storage::default(),
                base: ty,
                declarators: vec![Declarator {
                    name,
                    name_span: span,
                    ptr: false,
                    dims: vec![],
                    init: Some(Init::Expr(self.expr(cond, span)?)),
                    span,
                }],
            }),
            span,
        };
        let mut block = vec![decl];
        block.extend(chain);
        Ok(Stmt {
            kind: StmtKind::Block(block),
            span,
        })
    }
}
