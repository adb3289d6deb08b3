//! Loop summaries without user invariants: which variables a loop modifies, which of them are
//! induction variables with a closed form in the iteration index `k`, and how many barriers
//! one iteration executes.

use crate::term::Term;
use std::collections::BTreeMap;
use warpsafe_ir::{BinOp, Expr, ExprKind, ScalarType, Stmt, StmtKind, VarId};

/// How an induction variable changes once per iteration (`c` is loop-invariant).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IvKind {
    /// `v = v + c`: `v(k) = v0 + k·c`.
    Add,
    /// `v = v - c`: `v(k) = v0 − k·c`.
    Sub,
    /// `v = v * 2` or `v <<= 1`: `v(k) = v0 << k`.
    Shl1,
    /// `v >>= 1` (logical) or unsigned `v /= 2`: `v(k) = v0 >> k`.
    Lshr1,
    /// Signed `v >>= 1`: `v(k) = v0 >>ₐ k`.
    Ashr1,
    /// Signed `v /= 2` (truncating): `v(k) = v0 / 2^k`.
    Sdiv2,
    /// `v = c - v`: alternates between `v0` and `c − v0`.
    Alt,
    /// `v ^= c`: alternates between `v0` and `v0 ^ c`.
    Xor,
}

impl IvKind {
    /// True for kinds whose sequence becomes constant or periodic within `width + 1` steps,
    /// so reachability of an iteration can be stated exactly by unrolling.
    pub fn is_bounded(self) -> bool {
        !matches!(self, IvKind::Add | IvKind::Sub)
    }
}

/// A recognised induction variable.
#[derive(Clone, Debug)]
pub struct Induction {
    /// The variable.
    pub var: VarId,
    /// Its update.
    pub kind: IvKind,
    /// The loop-invariant operand `c` (absent for the shift/halving kinds).
    pub step: Option<Expr>,
}

/// What a loop does, found syntactically.
#[derive(Clone, Debug, Default)]
pub struct LoopInfo {
    /// Variables written in the body or update (nested statements included).
    pub modified: Vec<VarId>,
    /// The induction variables among them.
    pub ivs: Vec<Induction>,
    /// `__syncthreads()` per iteration when that is a constant.
    pub barriers: Option<u32>,
    /// Full-mask warp syncs and shuffles per iteration when that is a constant.
    pub warp_syncs: Option<u32>,
    /// True when the loop contains any barrier or warp collective.
    pub has_sync: bool,
    /// A `break` of this loop.
    pub has_break: bool,
    /// A `continue` of this loop.
    pub has_continue: bool,
    /// A `return` anywhere inside.
    pub has_return: bool,
}

/// Whether a mask expression is the constant full mask (`Some(true)`), another constant
/// (`Some(false)`) or data-dependent (`None`).
pub fn full_mask(e: &Expr) -> Option<bool> {
    match &e.kind {
        ExprKind::Const(v) => Some(v.to_bits() & 0xffff_ffff == 0xffff_ffff),
        ExprKind::Cast(a) => full_mask(a),
        _ => None,
    }
}

/// The constant bits of a mask expression, if constant.
pub fn const_mask(e: &Expr) -> Option<u32> {
    match &e.kind {
        ExprKind::Const(v) => Some(v.to_bits() as u32),
        ExprKind::Cast(a) => const_mask(a),
        _ => None,
    }
}

fn writes(s: &Stmt, out: &mut BTreeMap<VarId, u32>) {
    s.walk(&mut |s| match &s.kind {
        StmtKind::Let { var, .. } | StmtKind::Assign { var, .. } => {
            *out.entry(*var).or_insert(0) += 1
        }
        StmtKind::Shuffle { dst, .. } => *out.entry(*dst).or_insert(0) += 1,
        StmtKind::Atomic { dst: Some(d), .. } => *out.entry(*d).or_insert(0) += 1,
        _ => {}
    });
}

/// Break/continue of this loop (not of nested loops); returns anywhere.
fn exits(b: &[Stmt], info: &mut LoopInfo) {
    for s in b {
        match &s.kind {
            StmtKind::Break => info.has_break = true,
            StmtKind::Continue => info.has_continue = true,
            StmtKind::Return => info.has_return = true,
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                exits(then_body, info);
                exits(else_body, info);
            }
            StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. } => {
                s.walk(&mut |s| {
                    if matches!(s.kind, StmtKind::Return) {
                        info.has_return = true
                    }
                });
            }
            _ => {}
        }
    }
}

/// Sync counts of a block: `(barriers, full-mask warp syncs)`, `None` where not constant.
fn sync_counts(b: &[Stmt]) -> (Option<u32>, Option<u32>) {
    let (mut bar, mut warp) = (Some(0u32), Some(0u32));
    for s in b {
        match &s.kind {
            StmtKind::SyncThreads => bar = bar.map(|n| n + 1),
            StmtKind::SyncWarp { mask } | StmtKind::Shuffle { mask, .. } => {
                if full_mask(mask) == Some(true) {
                    warp = warp.map(|n| n + 1)
                }
            }
            _ => {
                let mut nb = false;
                let mut nw = false;
                for st in nested(s) {
                    st.walk(&mut |x| match &x.kind {
                        StmtKind::SyncThreads => nb = true,
                        StmtKind::SyncWarp { mask } | StmtKind::Shuffle { mask, .. }
                            if full_mask(mask) == Some(true) =>
                        {
                            nw = true
                        }
                        _ => {}
                    });
                }
                if nb {
                    bar = None;
                }
                if nw {
                    warp = None;
                }
            }
        }
    }
    (bar, warp)
}

fn nested(s: &Stmt) -> Vec<&Stmt> {
    match &s.kind {
        StmtKind::If {
            then_body,
            else_body,
            ..
        } => then_body.iter().chain(else_body).collect(),
        StmtKind::For {
            init, update, body, ..
        } => init.iter().chain(update).chain(body).collect(),
        StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => body.iter().collect(),
        _ => vec![],
    }
}

fn strip(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(a) if a.ty.is_int() && e.ty.is_int() && a.ty.bits() == e.ty.bits() => {
            strip(a)
        }
        _ => e,
    }
}

fn is_var(e: &Expr, v: VarId) -> bool {
    matches!(strip(e).kind, ExprKind::Var(x) if x == v)
}

fn is_const(e: &Expr, c: u64) -> bool {
    matches!(strip(e).kind, ExprKind::Const(v) if v.to_bits() == c)
}

fn invariant(e: &Expr, modified: &BTreeMap<VarId, u32>) -> bool {
    let mut ok = true;
    e.walk(&mut |x| match &x.kind {
        ExprKind::Var(v) if modified.contains_key(v) => ok = false,
        ExprKind::Load(..) | ExprKind::Call(..) => ok = false,
        _ => {}
    });
    ok && e.ty.is_int()
}

/// Recognises `v = f(v)` as an induction update; `None` when it is not one.
pub fn recognise(
    v: VarId,
    ty: ScalarType,
    value: &Expr,
    modified: &BTreeMap<VarId, u32>,
) -> Option<Induction> {
    if !ty.is_int() {
        return None;
    }
    let e = strip(value);
    let ExprKind::Binary(op, a, b) = &e.kind else {
        return None;
    };
    if e.ty.bits() != ty.bits() {
        return None;
    }
    let signed = e.ty.is_signed();
    let mk = |kind, step: Option<&Expr>| {
        if let Some(s) = step {
            if !invariant(s, modified) || s.ty.bits() != ty.bits() {
                return None;
            }
        }
        Some(Induction {
            var: v,
            kind,
            step: step.map(|s| strip(s).clone()),
        })
    };
    let (va, vb) = (is_var(a, v), is_var(b, v));
    match op {
        BinOp::Add if va => mk(IvKind::Add, Some(b)),
        BinOp::Add if vb => mk(IvKind::Add, Some(a)),
        BinOp::Sub if va => mk(IvKind::Sub, Some(b)),
        BinOp::Sub if vb => mk(IvKind::Alt, Some(a)),
        BinOp::BitXor if va => mk(IvKind::Xor, Some(b)),
        BinOp::BitXor if vb => mk(IvKind::Xor, Some(a)),
        BinOp::Mul if (va && is_const(b, 2)) || (vb && is_const(a, 2)) => mk(IvKind::Shl1, None),
        BinOp::Shl if va && is_const(b, 1) => mk(IvKind::Shl1, None),
        BinOp::Shr if va && is_const(b, 1) => {
            mk(if signed { IvKind::Ashr1 } else { IvKind::Lshr1 }, None)
        }
        BinOp::Div if va && is_const(b, 2) => {
            mk(if signed { IvKind::Sdiv2 } else { IvKind::Lshr1 }, None)
        }
        _ => None,
    }
}

/// Analyses a loop with condition `cond` (unused here), `update` and `body`.
pub fn analyze(var_ty: &dyn Fn(VarId) -> ScalarType, update: &[Stmt], body: &[Stmt]) -> LoopInfo {
    let mut info = LoopInfo::default();
    let mut w = BTreeMap::new();
    for s in body.iter().chain(update) {
        writes(s, &mut w);
    }
    info.modified = w.keys().copied().collect();
    exits(body, &mut info);
    exits(update, &mut info);
    let tops: Vec<&Stmt> = if info.has_continue {
        update.iter().collect()
    } else {
        body.iter().chain(update).collect()
    };
    for s in tops {
        if let StmtKind::Assign { var, value } = &s.kind {
            if w.get(var) == Some(&1) {
                if let Some(iv) = recognise(*var, var_ty(*var), value, &w) {
                    info.ivs.push(iv);
                }
            }
        }
    }
    let (b1, w1) = sync_counts(body);
    let (b2, w2) = sync_counts(update);
    info.barriers = b1.zip(b2).map(|(a, b)| a + b);
    info.warp_syncs = w1.zip(w2).map(|(a, b)| a + b);
    for s in body.iter().chain(update) {
        s.walk(&mut |x| {
            if matches!(
                x.kind,
                StmtKind::SyncThreads | StmtKind::SyncWarp { .. } | StmtKind::Shuffle { .. }
            ) {
                info.has_sync = true
            }
        });
    }
    info
}

/// `k` (64-bit) truncated to `w` bits, or `w` itself when `k ≥ w` (a saturated shift amount).
fn sat_shift(k: &Term, w: u32) -> (Term, Term) {
    let big = Term::bv(64, w as u128).ule(k);
    let kk = Term::ite(&big, &Term::bv(w, w as u128), &k.zext_to(w));
    (big, kk)
}

/// The value of an induction variable at the start of iteration `k` (64-bit), from its value
/// `v0` at loop entry and the step `c` (already of `v0`'s width).
pub fn closed_form(kind: IvKind, v0: &Term, c: Option<&Term>, k: &Term) -> Term {
    let w = v0.width();
    let kt = k.zext_to(w);
    let zero = Term::bv(w, 0);
    let c = c.cloned().unwrap_or_else(|| zero.clone());
    let odd = k.bvand(&Term::bv(64, 1)).eq(&Term::bv(64, 1));
    match kind {
        IvKind::Add => v0.add(&kt.mul(&c)),
        IvKind::Sub => v0.sub(&kt.mul(&c)),
        IvKind::Shl1 => {
            let (big, kk) = sat_shift(k, w);
            Term::ite(&big, &zero, &v0.shl(&kk))
        }
        IvKind::Lshr1 => {
            let (_, kk) = sat_shift(k, w);
            v0.lshr(&kk)
        }
        IvKind::Ashr1 => {
            let (_, kk) = sat_shift(k, w);
            v0.ashr(&kk)
        }
        IvKind::Sdiv2 => {
            let (_, kk) = sat_shift(k, w);
            let neg = v0.slt(&zero);
            Term::ite(&neg, &v0.neg().lshr(&kk).neg(), &v0.lshr(&kk))
        }
        IvKind::Alt => Term::ite(&odd, &c.sub(v0), v0),
        IvKind::Xor => Term::ite(&odd, &v0.bvxor(&c), v0),
    }
}

/// For `Add`/`Sub`: the exact value `v0 ± k·c` stays within the range of `v_signed`'s type
/// (`c` interpreted with `c_signed`). True for other kinds.
pub fn no_wrap(
    kind: IvKind,
    v0: &Term,
    c: Option<&Term>,
    k: &Term,
    v_signed: bool,
    c_signed: bool,
) -> Term {
    let Some(c) = c else { return Term::tt() };
    if !matches!(kind, IvKind::Add | IvKind::Sub) {
        return Term::tt();
    }
    let w = v0.width();
    let big = 64 + w + 2;
    let prod = k.zext_to(big).mul(&c.ext_to(big, c_signed));
    let x = v0.ext_to(big, v_signed);
    let exact = if kind == IvKind::Add {
        x.add(&prod)
    } else {
        x.sub(&prod)
    };
    let (lo, hi) = if v_signed {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, ((1u128 << w) - 1) as i128)
    };
    Term::bvi(big, lo)
        .sle(&exact)
        .and(&exact.sle(&Term::bvi(big, hi)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpsafe_ir::{Builtin, Dim, KernelBuilder, MemRef};

    fn k(n: u64) -> Term {
        Term::bv(64, n as u128)
    }

    fn info_of(build: impl FnOnce(&mut KernelBuilder)) -> LoopInfo {
        let mut b = KernelBuilder::new("k");
        build(&mut b);
        let kernel = b.finish();
        let StmtKind::For { update, body, .. } = &kernel
            .body
            .iter()
            .find(|s| matches!(s.kind, StmtKind::For { .. }))
            .expect("a for loop")
            .kind
        else {
            unreachable!()
        };
        analyze(&|v| kernel.var(v).ty, update, body)
    }

    #[test]
    fn affine_up_and_down() {
        let info = info_of(|b| {
            b.for_range("i", Expr::i32(0), Expr::i32(10), Expr::i32(3), |_, _| {});
        });
        assert_eq!(info.ivs.len(), 1);
        assert_eq!(info.ivs[0].kind, IvKind::Add);
        let v = closed_form(IvKind::Add, &Term::bv(32, 5), Some(&Term::bv(32, 3)), &k(4));
        assert_eq!(v.as_bv(), Some(17));
        let v = closed_form(IvKind::Sub, &Term::bv(32, 5), Some(&Term::bv(32, 3)), &k(2));
        assert_eq!(v.as_bv(), Some((-1i32) as u32 as u128));
    }

    #[test]
    fn geometric_forms() {
        let v = closed_form(IvKind::Shl1, &Term::bv(32, 1), None, &k(5));
        assert_eq!(v.as_bv(), Some(32));
        assert_eq!(
            closed_form(IvKind::Shl1, &Term::bv(32, 1), None, &k(40)).as_bv(),
            Some(0)
        );
        assert_eq!(
            closed_form(IvKind::Lshr1, &Term::bv(32, 256), None, &k(3)).as_bv(),
            Some(32)
        );
        let m = Term::bvi(32, -7);
        assert_eq!(
            closed_form(IvKind::Sdiv2, &m, None, &k(1)).as_bv(),
            Some((-3i32) as u32 as u128)
        );
        assert_eq!(
            closed_form(IvKind::Ashr1, &m, None, &k(1)).as_bv(),
            Some((-4i32) as u32 as u128)
        );
        let min = Term::bvi(32, i32::MIN as i128);
        assert_eq!(
            closed_form(IvKind::Sdiv2, &min, None, &k(31)).as_bv(),
            Some(u32::MAX as u128)
        );
        assert_eq!(
            closed_form(IvKind::Sdiv2, &min, None, &k(32)).as_bv(),
            Some(0)
        );
        assert_eq!(
            closed_form(IvKind::Alt, &Term::bv(32, 0), Some(&Term::bv(32, 1)), &k(3)).as_bv(),
            Some(1)
        );
    }

    #[test]
    fn recognises_doubling_and_halving() {
        let info = info_of(|b| {
            let s = b.declare("s", ScalarType::U32);
            let h = b.declare("h", ScalarType::I32);
            let init = vec![Stmt::new(StmtKind::Let {
                var: s,
                init: Some(Expr::u32(1)),
            })];
            b.push(StmtKind::Let {
                var: h,
                init: Some(Expr::i32(64)),
            });
            let update = vec![
                Stmt::new(StmtKind::Assign {
                    var: s,
                    value: Expr::binary(BinOp::Mul, b.var(s), Expr::u32(2)),
                }),
                Stmt::new(StmtKind::Assign {
                    var: h,
                    value: Expr::binary(BinOp::Shr, b.var(h), Expr::i32(1)),
                }),
            ];
            let cond = Expr::binary(BinOp::Lt, b.var(s), Expr::u32(64));
            b.push(StmtKind::For {
                init,
                cond: Some(cond),
                update,
                body: vec![],
            });
        });
        let kinds: Vec<IvKind> = info.ivs.iter().map(|i| i.kind).collect();
        assert_eq!(kinds, vec![IvKind::Shl1, IvKind::Ashr1]);
    }

    #[test]
    fn rejects_variant_steps_and_conditional_updates() {
        let info = info_of(|b| {
            let n = b.buffer_param("a", ScalarType::I32, false);
            b.for_range("i", Expr::i32(0), Expr::i32(10), Expr::i32(1), |b, i| {
                let _ = b.load(MemRef::Global(n), vec![i]);
            });
        });
        assert_eq!(info.ivs.len(), 1);
        // Step read from memory: not invariant.
        let info = info_of(|b| {
            let a = b.buffer_param("a", ScalarType::I32, false);
            let step = b.load(MemRef::Global(a), vec![Expr::i32(0)]);
            b.for_range("i", Expr::i32(0), Expr::i32(10), step, |_, _| {});
        });
        assert!(info.ivs.is_empty());
        // Update under a condition: not an induction variable.
        let info = info_of(|b| {
            let j = b.let_("j", Expr::i32(0));
            let tid = Expr::builtin(Builtin::ThreadIdx(Dim::X));
            b.for_range("i", Expr::i32(0), Expr::i32(10), Expr::i32(1), |b, _| {
                let c = Expr::binary(BinOp::Eq, tid.clone(), Expr::u32(0));
                b.if_(c, |b| {
                    let v = Expr::binary(BinOp::Add, b.var(j), Expr::i32(1));
                    b.assign(j, v);
                });
            });
        });
        assert_eq!(info.ivs.len(), 1);
        assert!(info.modified.len() >= 2);
    }

    #[test]
    fn no_wrap_bounds_the_exact_value() {
        let v0 = Term::bv(32, (i32::MAX - 5) as u128);
        let c = Term::bv(32, 3);
        assert_eq!(
            no_wrap(IvKind::Add, &v0, Some(&c), &k(1), true, true).as_bool(),
            Some(true)
        );
        assert_eq!(
            no_wrap(IvKind::Add, &v0, Some(&c), &k(2), true, true).as_bool(),
            Some(false)
        );
    }
}
