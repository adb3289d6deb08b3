//! Scalar replacement of local arrays: an array whose every access has constant, in-bounds
//! indices becomes one variable per element it touches.
//!
//! Memory stays where anything could differ: a computed or out-of-bounds index (its finding
//! must stay), an atomic, a `volatile` array, or a read the analysis cannot prove comes after
//! a write of its element on every path (reading an unwritten local element is a finding).

use super::visit::{blocks_mut, exprs_mut, rewrite_expr};
use crate::{ArrayId, Block, Expr, ExprKind, Kernel, MemRef, Stmt, StmtKind, VarDecl, VarId};
use std::collections::{HashMap, HashSet};

/// Arrays with more elements stay in memory.
const MAX_ELEMENTS: u64 = 256;

/// One element of a local array: the array and its row-major position.
type Cell = (u32, u64);

/// Replaces the local arrays of `k` that qualify by variables.
pub(crate) fn scalarize(k: &mut Kernel) {
    let mut cands: HashMap<u32, Vec<u64>> = HashMap::new();
    for (i, a) in k.locals.iter().enumerate() {
        let id = MemRef::Local(ArrayId(i as u32));
        let small = a.dims.iter().all(|&d| d > 0) && a.len() <= MAX_ELEMENTS;
        if !a.dims.is_empty() && !a.dynamic && small && !k.is_volatile(id) {
            cands.insert(i as u32, a.dims.clone());
        }
    }
    let contract_exprs = k
        .contract
        .requires
        .iter()
        .chain(k.contract.lengths.iter().map(|l| &l.len))
        .chain(&k.contract.dynamic_shared_bytes);
    for e in contract_exprs {
        e.walk(&mut |x| {
            if let ExprKind::Load(MemRef::Local(a), _) = x.kind {
                cands.remove(&a.0);
            }
        });
    }
    let mut check = Check {
        cands: &cands,
        elems: &k.locals,
        bad: HashSet::new(),
    };
    for s in &k.body {
        s.walk(&mut |t| check.shapes(t));
    }
    check.block(&k.body, &mut HashSet::new());
    let bad = check.bad;
    cands.retain(|a, _| !bad.contains(a));
    if cands.is_empty() {
        return;
    }
    let mut rw = Rewriter {
        cands: &cands,
        cells: HashMap::new(),
        locals: &k.locals,
        vars: &mut k.vars,
    };
    for s in k.body.iter_mut() {
        rw.stmt(s);
    }
    renumber(k, &cands);
}

/// The row-major position of constant, in-bounds `indices` into an array of `dims`.
fn cell_index(dims: &[u64], indices: &[Expr]) -> Option<u64> {
    if indices.len() != dims.len() {
        return None;
    }
    let mut flat = 0u64;
    for (e, &d) in indices.iter().zip(dims) {
        let i = e.as_const()?.as_i128()?;
        if !e.ty.is_int() || i < 0 || i >= i128::from(d) {
            return None;
        }
        flat = flat * d + i as u64;
    }
    Some(flat)
}

/// Finds the candidates that must keep their memory.
struct Check<'a> {
    cands: &'a HashMap<u32, Vec<u64>>,
    elems: &'a [crate::ArrayDecl],
    bad: HashSet<u32>,
}

impl Check<'_> {
    /// Rejects arrays accessed by `s` with a non-constant or out-of-bounds index, with a
    /// value of another type, or atomically.
    fn shapes(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Store {
                mem: MemRef::Local(a),
                indices,
                value,
            } => self.access(*a, indices, value.ty),
            StmtKind::Atomic {
                mem: MemRef::Local(a),
                ..
            } => {
                self.bad.insert(a.0);
            }
            _ => {}
        }
        for e in s.exprs() {
            e.walk(&mut |x| {
                if let ExprKind::Load(MemRef::Local(a), indices) = &x.kind {
                    self.access(*a, indices, x.ty);
                }
            });
        }
    }

    fn access(&mut self, a: ArrayId, indices: &[Expr], ty: crate::ScalarType) {
        let ok = match self.cands.get(&a.0) {
            Some(dims) => {
                cell_index(dims, indices).is_some()
                    && self.elems.get(a.0 as usize).map(|d| d.elem) == Some(ty)
            }
            None => true,
        };
        if !ok {
            self.bad.insert(a.0);
        }
    }

    /// Definite initialisation: `set` holds the cells written on every path to this point.
    fn block(&mut self, b: &[Stmt], set: &mut HashSet<Cell>) {
        for s in b {
            self.stmt(s, set);
        }
    }

    fn stmt(&mut self, s: &Stmt, set: &mut HashSet<Cell>) {
        if !matches!(s.kind, StmtKind::For { .. }) {
            for e in s.exprs() {
                self.reads(e, set);
            }
        }
        match &s.kind {
            StmtKind::Store {
                mem: MemRef::Local(a),
                indices,
                ..
            } => {
                if let Some(flat) = self.cands.get(&a.0).and_then(|d| cell_index(d, indices)) {
                    set.insert((a.0, flat));
                }
            }
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                let mut t = set.clone();
                self.block(then_body, &mut t);
                let mut e = set.clone();
                self.block(else_body, &mut e);
                *set = t.intersection(&e).copied().collect();
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                self.block(init, set);
                if let Some(c) = cond {
                    self.reads(c, set);
                }
                self.block(body, &mut set.clone());
                self.block(update, &mut set.clone());
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
                self.block(body, &mut set.clone());
            }
            _ => {}
        }
    }

    /// Rejects the arrays `e` reads at a cell not in `set`.
    fn reads(&mut self, e: &Expr, set: &HashSet<Cell>) {
        e.walk(&mut |x| {
            if let ExprKind::Load(MemRef::Local(a), indices) = &x.kind {
                if let Some(dims) = self.cands.get(&a.0) {
                    match cell_index(dims, indices) {
                        Some(flat) if set.contains(&(a.0, flat)) => {}
                        _ => {
                            self.bad.insert(a.0);
                        }
                    }
                }
            }
        });
    }
}

/// Turns accesses of the chosen arrays into variable reads and writes.
struct Rewriter<'a> {
    cands: &'a HashMap<u32, Vec<u64>>,
    cells: HashMap<Cell, VarId>,
    locals: &'a [crate::ArrayDecl],
    vars: &'a mut Vec<VarDecl>,
}

impl Rewriter<'_> {
    fn var(&mut self, a: u32, flat: u64) -> VarId {
        if let Some(&v) = self.cells.get(&(a, flat)) {
            return v;
        }
        let v = VarId(self.vars.len() as u32);
        let decl = &self.locals[a as usize];
        self.vars.push(VarDecl {
            name: format!("{}_{flat}", decl.name),
            ty: decl.elem,
            span: decl.span,
        });
        self.cells.insert((a, flat), v);
        v
    }

    fn cell(&self, mem: MemRef, indices: &[Expr]) -> Option<Cell> {
        let MemRef::Local(a) = mem else { return None };
        let flat = cell_index(self.cands.get(&a.0)?, indices)?;
        Some((a.0, flat))
    }

    fn stmt(&mut self, s: &mut Stmt) {
        for e in exprs_mut(s) {
            rewrite_expr(e, &mut |x| {
                if let ExprKind::Load(mem, indices) = &x.kind {
                    if let Some((a, flat)) = self.cell(*mem, indices) {
                        let v = self.var(a, flat);
                        *x = Expr::var(v, x.ty).with_span(x.span);
                    }
                }
            });
        }
        if let StmtKind::Store {
            mem,
            indices,
            value,
        } = &mut s.kind
        {
            if let Some((a, flat)) = self.cell(*mem, indices) {
                let var = self.var(a, flat);
                let value = std::mem::replace(value, Expr::bool(false));
                s.kind = StmtKind::Assign { var, value };
            }
        }
        for b in blocks_mut(s) {
            b.iter_mut().for_each(|t| self.stmt(t));
        }
    }
}

/// Drops the replaced arrays from `k.locals` and renumbers the references to the others.
fn renumber(k: &mut Kernel, gone: &HashMap<u32, Vec<u64>>) {
    let mut map = HashMap::new();
    let old = std::mem::take(&mut k.locals);
    for (i, a) in old.into_iter().enumerate() {
        if !gone.contains_key(&(i as u32)) {
            map.insert(i as u32, ArrayId(k.locals.len() as u32));
            k.locals.push(a);
        }
    }
    let fix = |m: &mut MemRef| {
        if let MemRef::Local(a) = m {
            if let Some(&n) = map.get(&a.0) {
                *a = n;
            }
        }
    };
    for m in k.contract.volatile.iter_mut() {
        fix(m);
    }
    fn walk(b: &mut Block, fix: &dyn Fn(&mut MemRef)) {
        for s in b.iter_mut() {
            if let StmtKind::Store { mem, .. } | StmtKind::Atomic { mem, .. } = &mut s.kind {
                fix(mem);
            }
            for e in exprs_mut(s) {
                rewrite_expr(e, &mut |x| {
                    if let ExprKind::Load(mem, _) = &mut x.kind {
                        fix(mem);
                    }
                });
            }
            for inner in blocks_mut(s) {
                walk(inner, fix);
            }
        }
    }
    walk(&mut k.body, &fix);
}
