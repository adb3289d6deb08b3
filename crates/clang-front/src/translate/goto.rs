//! Forward `goto` out of nested statements, eliminated with one flag per label (after
//! Erosa and Hendren): `goto L` sets `L`'s flag; every statement after it in each
//! enclosing block is guarded by the flag being clear, each enclosing loop is left by a
//! `break` right after its body (a `for` update is not run), and the flag is cleared at
//! `L:`, which must be a statement of a block enclosing the `goto`, after it.
//!
//! Only one flag is ever set at a time (everything between a `goto` and its label is
//! skipped), so the guards need no ordering between labels. A backward `goto` (a loop), a
//! jump into a block and a computed `goto *p` are rejected with their span.

use super::{types, Unit};
use crate::node::Node;
use std::collections::{BTreeMap, BTreeSet};
use warpsafe_cuda_front::ast::{
    BinaryOp, Decl, Declarator, Expr, ExprKind, Init, Stmt, StmtKind, Storage, UnaryOp,
};
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::Span;

/// Label declaration ids.
type Labels = BTreeSet<String>;

fn unsupported(span: Span, what: impl std::fmt::Display) -> FrontError {
    FrontError::new(span, format!("unsupported: {what}"))
}

/// True when `n` holds a `goto` or a label (only such statements take the slow road).
pub(super) fn has_goto(n: &Node) -> bool {
    matches!(
        n.kind.as_str(),
        "GotoStmt" | "LabelStmt" | "IndirectGotoStmt"
    ) || n.inner.iter().any(has_goto)
}

/// The labels of `L1: L2: s` and `s`.
fn peel(mut n: &Node) -> (Vec<&str>, &Node) {
    let mut labels = vec![];
    while n.kind == "LabelStmt" {
        labels.push(n.str("declId").unwrap_or(""));
        match n.inner.first() {
            Some(s) => n = s,
            None => break,
        }
    }
    (labels, n)
}

/// Every label declared in `n`.
fn defined(n: &Node, out: &mut Labels) {
    if n.kind == "LabelStmt" {
        out.insert(n.str("declId").unwrap_or("").to_string());
    }
    for c in &n.inner {
        defined(c, out);
    }
}

/// The first `goto` in `n` whose target is `label`.
fn goto_to<'n>(n: &'n Node, label: &str) -> Option<&'n Node> {
    if n.kind == "GotoStmt" && n.str("targetLabelDeclId") == Some(label) {
        return Some(n);
    }
    n.inner.iter().find_map(|c| goto_to(c, label))
}

/// The statement lists of a `switch` body: one per `case` group, as the `switch`
/// translation reads them (a `case` label starts a group).
fn case_groups(body: &Node) -> Vec<Vec<&Node>> {
    let items: Vec<&Node> = match body.kind.as_str() {
        "CompoundStmt" => body.inner.iter().collect(),
        _ => vec![body],
    };
    let mut groups: Vec<Vec<&Node>> = vec![];
    for mut item in items {
        let mut starts = false;
        while matches!(item.kind.as_str(), "CaseStmt" | "DefaultStmt") {
            starts = true;
            let stmt = match item.kind.as_str() {
                "CaseStmt" => item.inner.get(1),
                _ => item.inner.first(),
            };
            match stmt {
                Some(s) => item = s,
                None => break,
            }
        }
        match groups.last_mut() {
            Some(g) if !starts => g.push(item),
            _ => groups.push(vec![item]),
        }
    }
    groups
}

impl Unit<'_> {
    /// The labels that `goto`s in `n` jump to outside `n`; a `goto` that jumps backward
    /// or into a block inside `n` is an error.
    fn escapes(&self, n: &Node, span: Span) -> Result<Labels, FrontError> {
        let span = self.span(n, span);
        match n.kind.as_str() {
            "GotoStmt" => Ok(n
                .str("targetLabelDeclId")
                .map(|l| Labels::from([l.to_string()]))
                .unwrap_or_default()),
            "IndirectGotoStmt" => Err(unsupported(
                span,
                "computed `goto *p` (write the jump as a `switch`)",
            )),
            "LambdaExpr" => Ok(Labels::new()),
            "CompoundStmt" => {
                let items: Vec<&Node> = n.inner.iter().collect();
                Ok(self.list_escapes(&items, span)?.0)
            }
            "SwitchStmt" => {
                let mut out = Labels::new();
                if let Some(body) = n.inner.last() {
                    for g in case_groups(body) {
                        out.extend(self.list_escapes(&g, span)?.0);
                    }
                }
                Ok(out)
            }
            _ => {
                let mut out = Labels::new();
                for c in &n.inner {
                    out.extend(self.escapes(c, span)?);
                }
                Ok(out)
            }
        }
    }

    /// What the `goto`s of a statement list leave it for, and each statement's own
    /// escapes. A `goto` to a label of the list must come before the label; one to a label
    /// nested in another statement of the list jumps into a block.
    fn list_escapes(
        &self,
        items: &[&Node],
        span: Span,
    ) -> Result<(Labels, Vec<Labels>), FrontError> {
        let mut top: BTreeMap<&str, usize> = BTreeMap::new();
        let mut inside = Labels::new();
        for (i, item) in items.iter().enumerate() {
            for l in peel(item).0 {
                top.insert(l, i);
            }
            defined(item, &mut inside);
        }
        let mut out = Labels::new();
        let mut each = vec![];
        for (i, item) in items.iter().enumerate() {
            let e = if has_goto(item) {
                self.escapes(item, span)?
            } else {
                Labels::new()
            };
            for l in &e {
                match top.get(l.as_str()) {
                    Some(&j) if j > i => {}
                    _ if !inside.contains(l) => {
                        out.insert(l.clone());
                    }
                    found => {
                        let at = goto_to(item, l).map_or(span, |g| self.span(g, span));
                        return Err(unsupported(
                            at,
                            match found {
                                Some(_) => {
                                    "backward `goto` (its label comes first: write the \
                                     loop as `while`/`for`)"
                                }
                                None => {
                                    "`goto` into a block (only jumps forward to a label \
                                     of an enclosing block are read)"
                                }
                            },
                        ));
                    }
                }
            }
            each.push(e);
        }
        Ok((out, each))
    }

    fn flag_name(&self, label: &str) -> String {
        let id = label.trim_start_matches("0x");
        self.var_name(label, &format!("__goto_{id}"))
    }

    fn flag(&self, label: &str, span: Span) -> Expr {
        Expr::new(ExprKind::Ident(self.flag_name(label)), span)
    }

    fn any_flag<'l>(&self, labels: impl IntoIterator<Item = &'l String>, span: Span) -> Expr {
        let mut it = labels.into_iter().map(|l| self.flag(l, span));
        let first = it
            .next()
            .unwrap_or_else(|| Expr::new(ExprKind::Bool(false), span));
        it.fold(first, |a, b| {
            Expr::new(
                ExprKind::Binary(BinaryOp::Or, Box::new(a), Box::new(b)),
                span,
            )
        })
    }

    fn set_flag(&self, label: &str, value: bool, span: Span) -> Stmt {
        Stmt {
            kind: StmtKind::Expr(Expr::new(
                ExprKind::Assign(
                    None,
                    Box::new(self.flag(label, span)),
                    Box::new(Expr::new(ExprKind::Bool(value), span)),
                ),
                span,
            )),
            span,
        }
    }

    /// `goto L;`: `L`'s flag is set; the enclosing blocks and loops skip the rest.
    pub(super) fn goto_stmt(&self, n: &Node, span: Span) -> Result<Stmt, FrontError> {
        let label = n
            .str("targetLabelDeclId")
            .ok_or_else(|| unsupported(span, "`goto` without a label"))?;
        Ok(self.set_flag(label, true, span))
    }

    /// A loop body, followed by `if (flag) break;` when a `goto` in it leaves the loop.
    pub(super) fn loop_body(&self, body: &Node, span: Span) -> Result<Stmt, FrontError> {
        let s = self.stmt(body, span)?;
        if !has_goto(body) {
            return Ok(s);
        }
        let out = self.escapes(body, span)?;
        if out.is_empty() {
            return Ok(s);
        }
        let leave = Stmt {
            kind: StmtKind::If(
                self.any_flag(&out, span),
                Box::new(Stmt {
                    kind: StmtKind::Break,
                    span,
                }),
                None,
            ),
            span,
        };
        Ok(Stmt {
            kind: StmtKind::Block(vec![s, leave]),
            span,
        })
    }

    /// A statement list holding `goto`s or labels: the flags of the labels it resolves
    /// are declared first; each statement after a `goto` that may have run is guarded.
    pub(super) fn goto_list(&self, items: &[&Node], span: Span) -> Result<Vec<Stmt>, FrontError> {
        let (_, each) = self.list_escapes(items, span)?;
        let mut resolved = Labels::new();
        for (i, item) in items.iter().enumerate() {
            for l in peel(item).0 {
                if each[..i].iter().any(|e| e.contains(l)) {
                    resolved.insert(l.to_string());
                }
            }
        }
        let bool_ty = types::scalar_or_pointer("bool", span).map_err(|e| unsupported(span, e))?;
        let mut out: Vec<Stmt> = resolved
            .iter()
            .map(|l| Stmt {
                kind: StmtKind::Decl(Decl {
                    storage: Storage::default(),
                    base: bool_ty,
                    declarators: vec![Declarator {
                        name: self.flag_name(l),
                        name_span: span,
                        ptr: false,
                        dims: vec![],
                        init: Some(Init::Expr(Expr::new(ExprKind::Bool(false), span))),
                        span,
                    }],
                }),
                span,
            })
            .collect();
        let mut pending = Labels::new();
        for (item, e) in items.iter().zip(each) {
            let (labels, stmt) = peel(item);
            let sspan = self.span(item, span);
            for l in labels {
                if pending.remove(l) {
                    out.push(self.set_flag(l, false, sspan));
                }
            }
            let translated = self.list_item(stmt, span)?;
            if pending.is_empty() {
                out.extend(translated);
            } else {
                self.guarded_into(&mut out, translated, &pending, sspan)?;
            }
            pending.extend(e);
        }
        Ok(out)
    }

    /// `translated` under `if (!flags)`; its declarations stay in the list (their
    /// initial values become guarded assignments), so later statements still see them.
    fn guarded_into(
        &self,
        out: &mut Vec<Stmt>,
        translated: Vec<Stmt>,
        pending: &Labels,
        span: Span,
    ) -> Result<(), FrontError> {
        let mut body = vec![];
        for s in translated {
            let StmtKind::Decl(mut d) = s.kind else {
                body.push(s);
                continue;
            };
            d.storage.konst = false;
            if d.declarators.iter().all(|x| !x.ptr) {
                d.base.konst = false;
            }
            for dcl in &mut d.declarators {
                match dcl.init.take() {
                    None => {}
                    Some(Init::Expr(e)) if dcl.dims.is_empty() => body.push(Stmt {
                        kind: StmtKind::Expr(Expr::new(
                            ExprKind::Assign(
                                None,
                                Box::new(Expr::new(ExprKind::Ident(dcl.name.clone()), dcl.span)),
                                Box::new(e),
                            ),
                            dcl.span,
                        )),
                        span: dcl.span,
                    }),
                    Some(_) => {
                        return Err(unsupported(
                            dcl.span,
                            format!(
                                "initialised array `{}` after a `goto` in the same block \
                                 (declare it before the `goto`)",
                                dcl.name
                            ),
                        ))
                    }
                }
            }
            out.push(Stmt {
                kind: StmtKind::Decl(d),
                span: s.span,
            });
        }
        if body.is_empty() {
            return Ok(());
        }
        let skip = self.any_flag(pending, span);
        out.push(Stmt {
            kind: StmtKind::If(
                Expr::new(ExprKind::Unary(UnaryOp::Not, Box::new(skip)), span),
                Box::new(Stmt {
                    kind: StmtKind::Block(body),
                    span,
                }),
                None,
            ),
            span,
        });
        Ok(())
    }
}
