//! Executing statements and evaluating expressions for one symbolic thread, recording
//! every memory access with the permissions held where it happens.

use super::{Access, Checker, R};
use crate::arith::{c_div, c_rem, convert, sort_of, wrap};
use crate::term::{int_sym, sym, tid, Sort, Term};
use warpsafe_ir::{
    BinOp, Builtin, Dim, Expr, ExprKind, LogicOp, MemRef, Span, Stmt, StmtKind, UnOp, Value,
};

impl Checker<'_> {
    pub(super) fn exec(&mut self, s: &Stmt, pc: &Term) -> R<()> {
        // After a `return`, only threads that have not returned run on.
        let live;
        let pc = if self.alive == Term::bool(true) {
            pc
        } else {
            live = Term::and_all(vec![pc.clone(), self.alive.clone()]);
            &live
        };
        match &s.kind {
            StmtKind::Let { var, init } => {
                let v = match init {
                    Some(e) => self.eval(e, pc)?,
                    None => self.untracked(sort_of(self.k.var(*var).ty)),
                };
                let old = self.env.get(var).cloned();
                let v = match old {
                    Some(o) => Term::ite(pc, &v, &o),
                    None => v,
                };
                self.env.insert(*var, v);
            }
            StmtKind::Assign { var, value } => {
                let v = self.eval(value, pc)?;
                let old = match self.env.get(var).cloned() {
                    Some(o) => o,
                    None => self.untracked(sort_of(self.k.var(*var).ty)),
                };
                self.env.insert(*var, Term::ite(pc, &v, &old));
            }
            StmtKind::Store {
                mem,
                indices,
                value,
            } => {
                let (name, idx) = self.element(*mem, indices, pc, s.span)?;
                let v = self.eval(value, pc)?;
                let text = self.file_text(s.span).trim().to_string();
                self.accesses.push(Access {
                    write: true,
                    array: name.clone(),
                    idx: idx.clone(),
                    pc: pc.clone(),
                    line: self.line(s.span),
                    text,
                    held: self.held.clone(),
                    held_line: self.held_line,
                    facts: self.facts.clone(),
                });
                self.stored.insert(name.clone());
                let view = self.views[&name].clone();
                let new = Term::ite(pc, &view.store(&idx, &v), &view);
                self.views.insert(name, new);
            }
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } => self.branch(cond, then_body, else_body, pc)?,
            StmtKind::SyncThreads => self.barrier(s, pc)?,
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                self.exec_block(init, pc)?;
                self.exec_loop(s, cond.as_ref(), body, update, pc)?;
            }
            StmtKind::While { cond, body } => self.exec_loop(s, Some(cond), body, &[], pc)?,
            // `requires(...)` in a `#[kernel]`: assumed from here on.
            StmtKind::Assume(e) => {
                let v = self.eval(e, pc)?;
                self.facts.push(pc.implies(&v));
            }
            StmtKind::Assert(e, _) => {
                let v = self.eval(e, pc)?;
                let mut facts = self.context(&tid())?;
                facts.push(pc.clone());
                facts.push(v.not());
                let text = self.file_text(s.span).trim().to_string();
                self.decide(
                    "functional",
                    self.line(s.span),
                    format!("`{text}` holds"),
                    facts,
                    "some thread reaches the assertion where it is false",
                );
            }
            StmtKind::DoWhile { .. } => {
                return self.unsupported(s.span, "`do`/`while` loops are not supported yet")
            }
            StmtKind::Return if self.loop_depth == 0 => {
                self.thread_exit(pc)?;
                self.alive = Term::and_all(vec![self.alive.clone(), pc.not()]);
            }
            StmtKind::Return | StmtKind::Break | StmtKind::Continue => {
                return self.unsupported(
                    s.span,
                    "`break`/`continue`, and `return` inside a loop, are not supported yet",
                )
            }
            StmtKind::SyncGrid => {
                return self.unsupported(
                    s.span,
                    "grid barriers (`this_grid().sync()`) are not supported by permission checking",
                )
            }
            StmtKind::SyncWarp { .. }
            | StmtKind::Shuffle { .. }
            | StmtKind::Vote { .. }
            | StmtKind::ActiveMask { .. }
            | StmtKind::SyncThreadsVote { .. }
            | StmtKind::Atomic { .. } => {
                return self
                    .unsupported(s.span, "warp intrinsics and atomics are not supported yet")
            }
            StmtKind::Arbitrary { .. } => {
                return self.unsupported(
                    s.span,
                    "an arbitrary value (clock(), a function without a body): permission checking is not defined",
                )
            }
        }
        Ok(())
    }

    /// The array an access names and its row-major flat index.
    fn element(&mut self, m: MemRef, indices: &[Expr], pc: &Term, span: Span) -> R<(String, Term)> {
        if let MemRef::Local(_) = m {
            return self.unsupported(span, "local arrays are not supported yet");
        }
        let name = self.k.mem_name(m).to_string();
        let mut parts = vec![];
        for i in indices {
            parts.push(self.eval(i, pc)?);
        }
        let idx = self.flatten(&name, parts, span)?;
        Ok((name, idx))
    }

    /// The row-major flat index of `array[i0][i1]…` (in bounds by assumption).
    pub(super) fn flatten(&self, array: &str, parts: Vec<Term>, span: Span) -> R<Term> {
        let extents: Vec<u64> = match self.arrays.get(array).map(|a| a.0) {
            Some(MemRef::Shared(a)) => self.k.shared[a.0 as usize].dims.clone(),
            _ => vec![0],
        };
        if parts.len() != extents.len() {
            return self.unsupported(
                span,
                format!(
                    "`{array}` has {} dimension(s) but is indexed with {}",
                    extents.len(),
                    parts.len()
                ),
            );
        }
        let mut parts = parts.into_iter().zip(extents);
        let Some((mut flat, _)) = parts.next() else {
            return self.unsupported(span, "an array access without an index");
        };
        for (i, extent) in parts {
            flat = (flat.mul(&Term::int(i128::from(extent)))).add(&i);
        }
        Ok(flat)
    }

    /// The value of an IR expression for the executing thread; loads are recorded as
    /// read accesses under `pc`.
    pub(super) fn eval(&mut self, e: &Expr, pc: &Term) -> R<Term> {
        let ty = e.ty;
        Ok(match &e.kind {
            ExprKind::Const(v) => match *v {
                Value::Bool(b) => Term::bool(b),
                Value::F16(_) | Value::F32(_) | Value::F64(_) => {
                    let f = v.as_f64();
                    if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e18 {
                        Term::ratio(f as i128, 1)
                    } else {
                        return self.unsupported(
                            e.span,
                            "non-integral float constants are not supported yet",
                        );
                    }
                }
                _ => match v.as_i128() {
                    Some(i) => Term::int(i),
                    None => return self.unsupported(e.span, "constant"),
                },
            },
            ExprKind::Var(v) => match self.env.get(v).cloned() {
                Some(t) => t,
                None => self.untracked(sort_of(ty)),
            },
            ExprKind::Param(p) => {
                let param = self.k.param(*p);
                let sort = match param.kind {
                    warpsafe_ir::ParamKind::Scalar(t) => sort_of(t),
                    _ => Sort::Int,
                };
                sym(&format!("p_{}", param.name), sort)
            }
            ExprKind::Builtin(b) => match b {
                Builtin::ThreadIdx(Dim::X) => tid(),
                Builtin::BlockDim(Dim::X) => int_sym("bdx"),
                Builtin::BlockIdx(Dim::X) => int_sym("bix"),
                Builtin::GridDim(Dim::X) => int_sym("gdx"),
                _ => {
                    return self.unsupported(e.span, "only 1-D blocks are supported (x dimension)")
                }
            },
            ExprKind::Unary(op, a) => {
                let a = self.eval(a, pc)?;
                match op {
                    UnOp::Neg => wrap(a.neg(), ty),
                    UnOp::Not => a.not(),
                    UnOp::BitNot => {
                        return self.unsupported(e.span, "bitwise operators are not supported yet")
                    }
                }
            }
            ExprKind::Binary(op, a, b) => {
                let float = a.ty.is_float();
                let a = self.eval(a, pc)?;
                let b = self.eval(b, pc)?;
                match op {
                    BinOp::Add => wrap(a.add(&b), ty),
                    BinOp::Sub => wrap(a.sub(&b), ty),
                    BinOp::Mul => wrap(a.mul(&b), ty),
                    BinOp::Div if float => a.rdiv(&b),
                    BinOp::Div => wrap(c_div(a, b), ty),
                    BinOp::Rem if !float => wrap(c_rem(a, b), ty),
                    BinOp::Eq => a.eq(&b),
                    BinOp::Ne => a.eq(&b).not(),
                    BinOp::Lt => a.lt(&b),
                    BinOp::Le => a.le(&b),
                    BinOp::Gt => b.lt(&a),
                    BinOp::Ge => b.le(&a),
                    BinOp::Min => Term::ite(&a.le(&b), &a, &b),
                    BinOp::Max => Term::ite(&a.le(&b), &b, &a),
                    _ => {
                        return self.unsupported(e.span, "bitwise operators are not supported yet")
                    }
                }
            }
            // `&&`, `||` and `?:` evaluate their later operands only when needed: loads there
            // happen under the condition that selects them.
            ExprKind::Logical(op, a, b) => {
                let a = self.eval(a, pc)?;
                let when = match op {
                    LogicOp::And => a.clone(),
                    LogicOp::Or => a.not(),
                };
                let b = self.eval(b, &Term::and_all(vec![pc.clone(), when]))?;
                match op {
                    LogicOp::And => Term::and_all(vec![a, b]),
                    LogicOp::Or => Term::or_all(vec![a, b]),
                }
            }
            ExprKind::Cast(a) => {
                let from = a.ty;
                let a = self.eval(a, pc)?;
                convert(a, from, ty)
            }
            ExprKind::Select(c, a, b) => {
                let c = self.eval(c, pc)?;
                let a = self.eval(a, &Term::and_all(vec![pc.clone(), c.clone()]))?;
                let b = self.eval(b, &Term::and_all(vec![pc.clone(), c.not()]))?;
                Term::ite(&c, &a, &b)
            }
            ExprKind::Load(m, indices) => {
                let (name, idx) = self.element(*m, indices, pc, e.span)?;
                let text = self.file_text(e.span).trim().to_string();
                self.accesses.push(Access {
                    write: false,
                    array: name.clone(),
                    idx: idx.clone(),
                    pc: pc.clone(),
                    line: self.line(e.span),
                    text,
                    held: self.held.clone(),
                    held_line: self.held_line,
                    facts: self.facts.clone(),
                });
                (self.views[&name].clone()).select(&idx)
            }
            ExprKind::Call(..) | ExprKind::BufferLen(_) => {
                return self.unsupported(
                    e.span,
                    "math calls and buffer lengths are not supported yet",
                )
            }
        })
    }
}
