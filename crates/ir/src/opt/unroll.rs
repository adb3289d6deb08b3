//! Full unrolling of counted `for` loops.
//!
//! A loop unrolls when its init sets one counter to a constant, its update only assigns the
//! counter a value that folds to a constant, its condition folds to a constant at every
//! test, and its body neither writes the counter, nor leaves the iteration early (`break`,
//! `continue` or `return` at this level), nor synchronises (barriers, warp collectives):
//! every thread then runs the same iterations, each of which becomes a copy of the body with
//! the counter replaced by its value. The counter keeps its final value after the copies.
//! The condition and update fold without faults, so dropping them drops no finding.

use super::fold::fold;
use super::propagate::propagate;
use super::visit::{blocks_mut, for_each_expr_mut, size, substitute, writes};
use crate::{Block, Expr, ExprKind, Stmt, StmtKind, Value, VarDecl, VarId};

/// How far unrolling may grow the code.
#[derive(Clone, Copy, Debug)]
pub struct UnrollLimits {
    /// Most iterations a loop may have to be unrolled.
    pub max_trip: u64,
    /// Most statements the copies of one loop's body may add up to.
    pub max_copies_size: usize,
    /// Most statements the kernel body may have after unrolling.
    pub max_kernel_size: usize,
}

impl Default for UnrollLimits {
    fn default() -> Self {
        UnrollLimits {
            max_trip: 256,
            max_copies_size: 4096,
            max_kernel_size: 16384,
        }
    }
}

/// Unrolls the counted loops of `body`, inner loops first.
pub(crate) fn unroll(body: &mut Block, vars: &[VarDecl], limits: UnrollLimits) {
    let mut total = size(body);
    block(body, vars, limits, &mut total);
}

fn block(b: &mut Block, vars: &[VarDecl], limits: UnrollLimits, total: &mut usize) {
    let old = std::mem::take(b);
    for mut s in old {
        for inner in blocks_mut(&mut s) {
            block(inner, vars, limits, total);
        }
        match expand(&s, vars, limits, total) {
            Some(copies) => b.extend(copies),
            None => b.push(s),
        }
    }
}

/// The statements replacing loop `s`, if it unrolls within the limits.
fn expand(
    s: &Stmt,
    vars: &[VarDecl],
    limits: UnrollLimits,
    total: &mut usize,
) -> Option<Vec<Stmt>> {
    let StmtKind::For {
        init,
        cond: Some(cond),
        update,
        body,
    } = &s.kind
    else {
        return None;
    };
    let (counter, start) = counter_init(init, vars)?;
    let [step] = update.as_slice() else {
        return None;
    };
    let StmtKind::Assign { var, value: next } = &step.kind else {
        return None;
    };
    if *var != counter || !body_unrollable(body, counter) {
        return None;
    }
    let mut values = Vec::new();
    let mut at = start;
    while eval(cond, counter, at)? == Value::Bool(true) {
        if values.len() as u64 >= limits.max_trip {
            return None;
        }
        values.push(at);
        at = eval(next, counter, at).filter(|v| v.ty() == start.ty())?;
    }
    let body_size = size(body);
    let copies_size = values.len().checked_mul(body_size)?;
    let grown = (*total + copies_size).checked_sub(body_size + 1)?;
    if copies_size > limits.max_copies_size || grown > limits.max_kernel_size {
        return None;
    }
    *total = grown;
    let mut out: Vec<Stmt> = init.clone();
    for v in values {
        let mut copy = body.clone();
        for t in copy.iter_mut() {
            substitute(t, counter, &Expr::constant(v));
            for_each_expr_mut(t, &mut fold);
        }
        propagate(&mut copy, vars);
        if copy.iter().any(has_loop) {
            block(&mut copy, vars, limits, total);
        }
        out.extend(copy);
    }
    out.push(
        Stmt::new(StmtKind::Assign {
            var: counter,
            value: Expr::constant(at).with_span(step.span),
        })
        .with_span(step.span),
    );
    Some(out)
}

/// The counter and its start when `init` is exactly `counter = constant`.
fn counter_init(init: &[Stmt], vars: &[VarDecl]) -> Option<(VarId, Value)> {
    let [s] = init else { return None };
    let (var, value) = match &s.kind {
        StmtKind::Let {
            var,
            init: Some(value),
        }
        | StmtKind::Assign { var, value } => (*var, value),
        _ => return None,
    };
    let c = value.as_const()?;
    (vars.get(var.0 as usize)?.ty == c.ty()).then_some((var, c))
}

/// `e` with the counter at `at`, when it folds to a constant.
fn eval(e: &Expr, counter: VarId, at: Value) -> Option<Value> {
    let mut s = Stmt::new(StmtKind::Assume(e.clone()));
    substitute(&mut s, counter, &Expr::constant(at));
    match s.kind {
        StmtKind::Assume(mut e) => {
            fold(&mut e);
            e.as_const()
        }
        _ => None,
    }
}

/// True when copies of `body`, one per iteration, run exactly as the loop would.
fn body_unrollable(body: &[Stmt], counter: VarId) -> bool {
    body.iter().all(|s| {
        !writes(s, counter) && !synchronises(s) && !leaves_iteration(s) && !has_dummy_site(s)
    })
}

/// True when `s` has a statement or an operation without a source span. The interpreter
/// merges repeated findings by span, or by instruction where there is none: copies of a
/// span-less site would be reported apart.
fn has_dummy_site(s: &Stmt) -> bool {
    let mut found = false;
    s.walk(&mut |t| {
        found |= t.span.is_dummy();
        for e in t.exprs() {
            e.walk(&mut |x| {
                let leaf = matches!(
                    x.kind,
                    ExprKind::Const(_)
                        | ExprKind::Var(_)
                        | ExprKind::Param(_)
                        | ExprKind::Builtin(_)
                        | ExprKind::BufferLen(_)
                        | ExprKind::Cast(_)
                );
                found |= !leaf && x.span.is_dummy();
            });
        }
    });
    found
}

/// True when `s` or a nested statement returns or takes part in a barrier or collective.
fn synchronises(s: &Stmt) -> bool {
    let mut found = false;
    s.walk(&mut |t| {
        found |= matches!(
            t.kind,
            StmtKind::Return
                | StmtKind::SyncThreads
                | StmtKind::SyncGrid
                | StmtKind::SyncWarp { .. }
                | StmtKind::Shuffle { .. }
                | StmtKind::Vote { .. }
                | StmtKind::ActiveMask { .. }
                | StmtKind::SyncThreadsVote { .. }
        )
    });
    found
}

/// True when `s` has a `break` or `continue` that belongs to the enclosing loop.
fn leaves_iteration(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Break | StmtKind::Continue => true,
        StmtKind::If {
            then_body,
            else_body,
            ..
        } => then_body.iter().chain(else_body).any(leaves_iteration),
        // A nested loop's init and update run outside it: their jumps are the enclosing loop's.
        StmtKind::For { init, update, .. } => init.iter().chain(update).any(leaves_iteration),
        _ => false,
    }
}

fn has_loop(s: &Stmt) -> bool {
    let mut found = false;
    s.walk(&mut |t| {
        found |= matches!(
            t.kind,
            StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. }
        )
    });
    found
}
