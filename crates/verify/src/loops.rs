//! Loop summaries without user invariants: which variables a loop modifies, which of them are
//! induction variables with a closed form in the iteration index `k`, and how many barriers
//! one iteration executes.

use crate::term::Term;
use std::collections::BTreeMap;
use warpsafe_ir::{BinOp, Expr, ExprKind, LogicOp, ScalarType, Stmt, StmtKind, UnOp, Value, VarId};

/// How an induction variable changes once per iteration (`c` is loop-invariant).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IvKind {
    /// `v = v + c`: `v(k) = v0 + k·c`.
    Add,
    /// `v = v - c`: `v(k) = v0 − k·c`.
    Sub,
    /// `v <<= s` or `v *= 2^s`: `v(k) = v0 << s·k`.
    Shl(u32),
    /// `v >>= s` (logical) or unsigned `v /= 2^s`: `v(k) = v0 >> s·k`.
    Lshr(u32),
    /// Signed `v >>= s`: `v(k) = v0 >>ₐ s·k`.
    Ashr(u32),
    /// Unsigned `v /= c` (c ≥ 2, not a power of two): `v(k) = v0 / c^k`.
    Udiv(u64),
    /// Signed `v /= c` (c ≥ 2, truncating): `v(k) = v0 / c^k`.
    Sdiv(u64),
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
    /// The loop-invariant operand `c` (absent for the shift/halving kinds, and for a step of
    /// several addends).
    pub step: Option<Expr>,
    /// For an `Add` whose step is several loop-invariant addends added one by one, through
    /// temporaries (`t = v + n; u = t + n; v = u + n`): each addend and whether it is
    /// subtracted. The step is their exact sum.
    pub addends: Vec<(bool, Expr)>,
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
    /// Grid barriers per iteration when that is a constant (none under conditions or in
    /// nested loops).
    pub grid_barriers: Option<u32>,
    /// The body or update holds a grid barrier (in any nesting).
    pub has_grid_sync: bool,
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
    /// For a loop without a condition whose body opens with plain statements and then
    /// `if (x) break;` (how `for (…; a, b, i < n; …)` and `while (i-- > 0)` are lowered): the
    /// position of that `if` in the body. The loop leaves exactly there, so it is summarised
    /// like a loop with a condition (`has_break` stays false for it).
    pub guard: Option<usize>,
}

/// The position of a leading `if (x) break;` in `body` after statements that only compute
/// values (no memory writes, no control flow), if any.
fn leading_guard(body: &[Stmt]) -> Option<usize> {
    for (i, s) in body.iter().enumerate() {
        match &s.kind {
            StmtKind::Let { .. }
            | StmtKind::Assign { .. }
            | StmtKind::Assert(..)
            | StmtKind::Assume(_) => {}
            StmtKind::If {
                then_body,
                else_body,
                ..
            } if else_body.is_empty()
                && matches!(then_body.as_slice(), [b] if matches!(b.kind, StmtKind::Break)) =>
            {
                return Some(i)
            }
            _ => return None,
        }
    }
    None
}

/// True when every barrier and warp collective of `b` is outside `if`s (nested loops may
/// hold them): then every iteration executes the same syncs, in numbers the nested loops'
/// trip counts decide.
pub fn syncs_unconditional(b: &[Stmt]) -> bool {
    let has_sync = |s: &Stmt| {
        let mut found = false;
        s.walk(&mut |x| {
            if matches!(
                x.kind,
                StmtKind::SyncThreads
                    | StmtKind::SyncGrid
                    | StmtKind::SyncWarp { .. }
                    | StmtKind::Shuffle { .. }
                    | StmtKind::Vote { .. }
                    | StmtKind::SyncThreadsVote { .. }
            ) {
                found = true
            }
        });
        found
    };
    b.iter().all(|s| match &s.kind {
        StmtKind::If {
            cond,
            then_body,
            else_body,
        } => match taken(cond, then_body, else_body) {
            Some(branch) => syncs_unconditional(branch),
            None => !has_sync(s),
        },
        StmtKind::For {
            init, update, body, ..
        } => !init.iter().any(has_sync) && syncs_unconditional(update) && syncs_unconditional(body),
        StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => syncs_unconditional(body),
        _ => true,
    })
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
        StmtKind::Shuffle { dst, .. }
        | StmtKind::Vote { dst, .. }
        | StmtKind::ActiveMask { dst }
        | StmtKind::Arbitrary { dst }
        | StmtKind::SyncThreadsVote { dst, .. } => *out.entry(*dst).or_insert(0) += 1,
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
            StmtKind::SyncThreads | StmtKind::SyncThreadsVote { .. } | StmtKind::SyncGrid => {
                bar = bar.map(|n| n + 1)
            }
            StmtKind::SyncWarp { mask }
            | StmtKind::Shuffle { mask, .. }
            | StmtKind::Vote { mask, .. } => {
                if full_mask(mask) == Some(true) {
                    warp = warp.map(|n| n + 1)
                }
            }
            StmtKind::For {
                init,
                cond: Some(cond),
                update,
                body,
            } if let Some(trips) = constant_trips(init, cond, update, body) => {
                let (b1, w1) = sync_counts(body);
                let (b2, w2) = sync_counts(update);
                let times = |n: Option<u32>| n.and_then(|n| n.checked_mul(trips));
                bar = bar
                    .zip(times(b1.zip(b2).map(|(a, b)| a + b)))
                    .map(|(a, b)| a + b);
                warp = warp
                    .zip(times(w1.zip(w2).map(|(a, b)| a + b)))
                    .map(|(a, b)| a + b);
                if sync_counts(init) != (Some(0), Some(0)) {
                    bar = None;
                    warp = None;
                }
            }
            StmtKind::If {
                cond,
                then_body,
                else_body,
            } if let Some(branch) = taken(cond, then_body, else_body) => {
                let (b1, w1) = sync_counts(branch);
                bar = bar.zip(b1).map(|(a, b)| a + b);
                warp = warp.zip(w1).map(|(a, b)| a + b);
            }
            _ => {
                let mut nb = false;
                let mut nw = false;
                for st in nested(s) {
                    st.walk(&mut |x| match &x.kind {
                        StmtKind::SyncThreads
                        | StmtKind::SyncThreadsVote { .. }
                        | StmtKind::SyncGrid => nb = true,
                        StmtKind::SyncWarp { mask }
                        | StmtKind::Shuffle { mask, .. }
                        | StmtKind::Vote { mask, .. }
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

/// The exact number of iterations of `for (v = c0; v < c1; v = v + s)` (or `<=`) with
/// constant `c0`, `c1` and `s > 0`, `v` written nowhere else and no way out of the body
/// but its end (the loops of our `<mma.h>`: `for (e = 0; e < 8; e = e + 1)`); `None` for
/// any other loop, or when `v` could wrap on the way.
fn constant_trips(init: &[Stmt], cond: &Expr, update: &[Stmt], body: &[Stmt]) -> Option<u32> {
    let konst = |e: &Expr| const_int(e);
    let [Stmt {
        kind: StmtKind::Let {
            var,
            init: Some(c0),
        },
        ..
    }] = init
    else {
        return None;
    };
    let c0 = konst(c0)?;
    let ExprKind::Binary(op, lhs, rhs) = &cond.kind else {
        return None;
    };
    if !matches!(&lhs.kind, ExprKind::Var(v) if v == var) {
        return None;
    }
    let c1 = konst(rhs)?;
    let [Stmt {
        kind: StmtKind::Assign { var: uv, value },
        ..
    }] = update
    else {
        return None;
    };
    let ExprKind::Binary(BinOp::Add, a, step) = &value.kind else {
        return None;
    };
    if uv != var || !matches!(&a.kind, ExprKind::Var(v) if v == var) {
        return None;
    }
    let step = konst(step).filter(|s| *s > 0)?;
    let ty = lhs.ty;
    let last = match op {
        BinOp::Lt => c1 - 1,
        BinOp::Le => c1,
        _ => return None,
    };
    // The value that ends the loop must be representable: no wrap on the way out.
    if !ty.is_int() || Value::from_i128(ty, last + step).as_i128() != Some(last + step) {
        return None;
    }
    let mut w = BTreeMap::new();
    let mut info = LoopInfo::default();
    exits(body, &mut info);
    let mut returns = false;
    for s in body {
        writes(s, &mut w);
        s.walk(&mut |x| returns |= matches!(x.kind, StmtKind::Return));
    }
    if w.contains_key(var) || info.has_break || info.has_continue || returns {
        return None;
    }
    let trips = if last < c0 { 0 } else { (last - c0) / step + 1 };
    u32::try_from(trips).ok()
}

/// The value of an integer expression built from constants with `+ - * /` (`256 / 32`), when
/// every step stays in its type.
fn const_int(e: &Expr) -> Option<i128> {
    let v = match &e.kind {
        ExprKind::Const(v) if v.ty().is_int() => return v.as_i128(),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (const_int(a)?, const_int(b)?);
            match op {
                BinOp::Add => a.checked_add(b)?,
                BinOp::Sub => a.checked_sub(b)?,
                BinOp::Mul => a.checked_mul(b)?,
                BinOp::Div if b != 0 => a.checked_div(b)?,
                _ => return None,
            }
        }
        _ => return None,
    };
    (e.ty.is_int() && Value::from_i128(e.ty, v).as_i128() == Some(v)).then_some(v)
}

/// The value of a condition built from integer constants (`256u >= 512u`: a template's
/// `if (blockSize >= 512)` once instantiated), if constant.
pub fn const_bool(e: &Expr) -> Option<bool> {
    match &e.kind {
        ExprKind::Const(v) if v.ty() == ScalarType::Bool => Some(v.to_bits() != 0),
        ExprKind::Unary(UnOp::Not, a) => const_bool(a).map(|b| !b),
        ExprKind::Logical(op, a, b) => {
            let (a, b) = (const_bool(a)?, const_bool(b)?);
            Some(match op {
                LogicOp::And => a && b,
                LogicOp::Or => a || b,
            })
        }
        ExprKind::Binary(op, a, b) if op.is_comparison() => {
            let (a, b) = (const_int(a)?, const_int(b)?);
            Some(match op {
                BinOp::Eq => a == b,
                BinOp::Ne => a != b,
                BinOp::Lt => a < b,
                BinOp::Le => a <= b,
                BinOp::Gt => a > b,
                _ => a >= b,
            })
        }
        _ => None,
    }
}

/// The branch an `if` whose condition is constant takes.
fn taken<'a>(cond: &Expr, then_body: &'a [Stmt], else_body: &'a [Stmt]) -> Option<&'a [Stmt]> {
    const_bool(cond).map(|c| if c { then_body } else { else_body })
}

/// Grid barriers of a block, `None` when one sits under a condition or in a nested loop.
fn grid_count(b: &[Stmt]) -> Option<u32> {
    let mut n = 0u32;
    for s in b {
        if matches!(s.kind, StmtKind::SyncGrid) {
            n += 1;
            continue;
        }
        let mut nested_grid = false;
        for st in nested(s) {
            st.walk(&mut |x| nested_grid |= matches!(x.kind, StmtKind::SyncGrid));
        }
        if nested_grid {
            return None;
        }
    }
    Some(n)
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

/// The value of a non-negative integer constant.
fn const_of(e: &Expr) -> Option<u64> {
    match strip(e).kind {
        ExprKind::Const(v) if v.as_i128().is_some_and(|x| x >= 0) => Some(v.to_bits()),
        _ => None,
    }
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

/// True when `e` compares one of the `affine` induction variables with a value the loop does
/// not change (`i < n`, `n >= i`, …): with no wrap-around, such a condition is monotone in the
/// iteration, so holding in the first and the last iteration means holding in all between.
pub fn monotone_cmp(e: &Expr, affine: &[VarId], modified: &[VarId]) -> bool {
    let e = match &strip(e).kind {
        ExprKind::Unary(warpsafe_ir::UnOp::Not, inner) => inner,
        _ => e,
    };
    let ExprKind::Binary(op, a, b) = &strip(e).kind else {
        return false;
    };
    if !matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge) {
        return false;
    }
    let m: BTreeMap<VarId, u32> = modified.iter().map(|v| (*v, 1)).collect();
    let iv = |x: &Expr| affine.iter().any(|v| is_var(x, *v));
    (iv(a) && invariant(b, &m)) || (iv(b) && invariant(a, &m))
}

/// A loop condition `v + a != b` (or `!(v + a == b)`; `+ a` optional or `- a`, on either
/// side) comparing one of the `affine` induction variables with values the loop does not
/// change: the variable, and the value it must meet to leave, `b - a`, as signed terms to
/// add (on the bits: `v + a == b` exactly when `v == b - a`, wrapping). Such a loop goes on
/// until `v` meets that value exactly (a counter stepped down to zero, an unrolled loop's
/// distance stepped by four), which [`no_earlier_hit`] states.
pub fn ne_exit<'e>(
    e: &'e Expr,
    affine: &[VarId],
    modified: &[VarId],
) -> Option<(VarId, Vec<(bool, &'e Expr)>)> {
    let (l, r) = match &strip(e).kind {
        ExprKind::Binary(BinOp::Ne, a, b) => (a, b),
        ExprKind::Unary(warpsafe_ir::UnOp::Not, inner) => match &strip(inner).kind {
            ExprKind::Binary(BinOp::Eq, a, b) => (a, b),
            _ => return None,
        },
        _ => return None,
    };
    let m: BTreeMap<VarId, u32> = modified.iter().map(|v| (*v, 1)).collect();
    let inv = |x: &Expr| invariant(x, &m) && x.ty.bits() == l.ty.bits();
    // `side` as `v + offset` (the offset's terms to subtract from the other side).
    let iv_side = |side: &'e Expr| -> Option<(VarId, Vec<(bool, &'e Expr)>)> {
        let x = strip(side);
        let var_of = |y: &Expr| match strip(y).kind {
            ExprKind::Var(v) if affine.contains(&v) && strip(y).ty.bits() == l.ty.bits() => Some(v),
            _ => None,
        };
        if let Some(v) = var_of(x) {
            return Some((v, vec![]));
        }
        match &x.kind {
            ExprKind::Binary(BinOp::Add, a, b) if x.ty.bits() == l.ty.bits() => {
                match (var_of(a), var_of(b)) {
                    (Some(v), _) if inv(b) => Some((v, vec![(true, &**b)])),
                    (_, Some(v)) if inv(a) => Some((v, vec![(true, &**a)])),
                    _ => None,
                }
            }
            ExprKind::Binary(BinOp::Sub, a, b) if x.ty.bits() == l.ty.bits() => {
                let v = var_of(a)?;
                inv(b).then(|| (v, vec![(false, &**b)]))
            }
            _ => None,
        }
    };
    for (x, y) in [(l, r), (r, l)] {
        if !inv(y) {
            continue;
        }
        if let Some((v, mut offset)) = iv_side(x) {
            offset.insert(0, (false, &**y));
            return Some((v, offset));
        }
    }
    None
}

/// For an `Add`/`Sub` induction variable with the constant step `c` and a loop that goes on
/// while the variable differs from the invariant `b` (both of `v0`'s width): the fact that
/// no iteration in `first..j` met `b`, which reaching iteration `j` (or leaving after it)
/// implies. Stated on the exact values `v0 ± i·c`: where one equals `b` the variable's bits
/// do too, wrapped or not, so the fact holds of every execution. `None` for other kinds
/// and for a step that is not a non-zero constant.
#[allow(clippy::too_many_arguments)]
pub fn no_earlier_hit(
    kind: IvKind,
    v0: &Term,
    c: Option<&Term>,
    b: &Term,
    j: &Term,
    first: u128,
    v_signed: bool,
    c_signed: bool,
) -> Option<Term> {
    let w = v0.width();
    let c = c?;
    let cw = c.width();
    if b.width() != w || j.width() != 64 || cw >= 120 {
        return None;
    }
    let bits = c.as_bv()?;
    let mut step = if c_signed && (bits >> (cw - 1)) & 1 == 1 {
        bits as i128 - (1i128 << cw)
    } else {
        i128::try_from(bits).ok()?
    };
    match kind {
        IvKind::Add => {}
        IvKind::Sub => step = step.checked_neg()?,
        _ => return None,
    }
    if step == 0 {
        return None;
    }
    let big = 64 + w.max(cw) + 2;
    // `b − v0 = i·step` for some `i` in `first..j`.
    let d = b.ext_to(big, v_signed).sub(&v0.ext_to(big, v_signed));
    let d = if step < 0 { d.neg() } else { d };
    // `d = i·m` for an `i` in `first..j`: `m` divides `d` and `first·m ≤ d < j·m`. Without
    // a division where `m` is a power of two (its low bits), which solvers decide quickly.
    let m = step.unsigned_abs();
    let divides = if m == 1 {
        Term::tt()
    } else if m.is_power_of_two() {
        let s = m.trailing_zeros();
        d.extract(s - 1, 0).eq(&Term::bv(s, 0))
    } else {
        d.srem(&Term::bv(big, m)).eq(&Term::bv(big, 0))
    };
    let lo = Term::bv(big, first.checked_mul(m)?);
    let hi = j.zext_to(big).mul(&Term::bv(big, m));
    let hit = divides.and(&lo.sle(&d)).and(&d.slt(&hi));
    Some(hit.not())
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
    // Signed arithmetic on an unsigned variable, `t = (unsigned)((int)t + 1)`, wraps at a
    // different bound than the variable does: summarised as an induction it claimed exact
    // wrap-arounds that no execution has. (Unsigned arithmetic on a signed variable is C's
    // own `i += blockDim.x` and is summarised.) Shifts, scalings and divisions have closed
    // forms on the bits, exact in either reading (`t = (unsigned)((int)t >> 1)`).
    if e.ty.is_signed() && !ty.is_signed() && matches!(op, BinOp::Add | BinOp::Sub) {
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
            addends: vec![],
        })
    };
    let (va, vb) = (is_var(a, v), is_var(b, v));
    let bits = ty.bits();
    // A constant shift amount below the width, and the exponent of a power of two.
    let amount = |e: &Expr| {
        const_of(e)
            .filter(|&s| s >= 1 && s < bits as u64)
            .map(|s| s as u32)
    };
    let log2 = |e: &Expr| {
        const_of(e)
            .filter(|c| c.is_power_of_two() && *c >= 2)
            .map(|c| c.trailing_zeros())
            .filter(|&s| s < bits)
    };
    let factor = |e: &Expr| const_of(e).filter(|&c| c >= 2);
    match op {
        BinOp::Add if va => mk(IvKind::Add, Some(b)),
        BinOp::Add if vb => mk(IvKind::Add, Some(a)),
        BinOp::Sub if va => mk(IvKind::Sub, Some(b)),
        BinOp::Sub if vb => mk(IvKind::Alt, Some(a)),
        BinOp::BitXor if va => mk(IvKind::Xor, Some(b)),
        BinOp::BitXor if vb => mk(IvKind::Xor, Some(a)),
        BinOp::Mul if va => mk(IvKind::Shl(log2(b)?), None),
        BinOp::Mul if vb => mk(IvKind::Shl(log2(a)?), None),
        BinOp::Shl if va => mk(IvKind::Shl(amount(b)?), None),
        BinOp::Shr if va && signed => mk(IvKind::Ashr(amount(b)?), None),
        BinOp::Shr if va => mk(IvKind::Lshr(amount(b)?), None),
        BinOp::Div if va && signed => mk(IvKind::Sdiv(factor(b)?), None),
        BinOp::Div if va => match log2(b) {
            Some(s) => mk(IvKind::Lshr(s), None),
            None => mk(IvKind::Udiv(factor(b)?), None),
        },
        _ => None,
    }
}

/// The most addends a step written through temporaries may have.
const MAX_ADDENDS: usize = 16;

/// The addends of `v = ((v ± a) ± b) ± …`, where the sums may go through
/// temporaries assigned once, unconditionally, earlier in the same iteration (`temps`: their
/// position among the loop's top-level statements and value; `at`: the position of `v`'s
/// update). A temporary stands for its value only where it is read after its assignment,
/// and `v` (written once, here) holds its value from the iteration's start until then, so
/// the update computes exactly `v` plus the addends, one operation at a time.
fn chain(
    v: VarId,
    ty: ScalarType,
    value: &Expr,
    at: usize,
    temps: &BTreeMap<VarId, (usize, &Expr)>,
    modified: &BTreeMap<VarId, u32>,
) -> Option<Vec<(bool, Expr)>> {
    if !ty.is_int() {
        return None;
    }
    let mut addends = vec![];
    let (mut e, mut limit) = (strip(value), at);
    loop {
        if let ExprKind::Var(x) = e.kind {
            if x == v {
                break;
            }
            let &(pos, def) = temps.get(&x).filter(|(pos, _)| *pos < limit)?;
            (e, limit) = (strip(def), pos);
            continue;
        }
        let ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) = &e.kind else {
            return None;
        };
        // As in `recognise`: signed steps of an unsigned variable wrap elsewhere.
        if e.ty.bits() != ty.bits() || (e.ty.is_signed() && !ty.is_signed()) {
            return None;
        }
        let step_ok = |x: &Expr| invariant(x, modified) && x.ty.bits() == ty.bits();
        let (rest, addend) = if step_ok(b) {
            (a, b)
        } else if *op == BinOp::Add && step_ok(a) {
            (b, a)
        } else {
            return None;
        };
        addends.push((*op == BinOp::Sub, strip(addend).clone()));
        if addends.len() > MAX_ADDENDS {
            return None;
        }
        e = strip(rest);
    }
    addends.reverse();
    (!addends.is_empty()).then_some(addends)
}

/// The statements every iteration runs in order, at the top level: the update's, and the
/// body's unless a `continue` may skip some.
fn tops_of<'a>(info: &LoopInfo, update: &'a [Stmt], body: &'a [Stmt]) -> Vec<&'a Stmt> {
    if info.has_continue {
        update.iter().collect()
    } else {
        body.iter().chain(update).collect()
    }
}

/// Variables written more than once per iteration, every time by `v = v + c` or `v = v - c`
/// at the top level (`k--; …; k--;` in a loop without an update): an induction whose step is
/// the sum of the `c`s, in order.
fn repeated_steps(
    var_ty: &dyn Fn(VarId) -> ScalarType,
    modified: &BTreeMap<VarId, u32>,
    tops: Vec<&Stmt>,
) -> Vec<Induction> {
    let mut steps: BTreeMap<VarId, Option<Vec<(bool, Expr)>>> = BTreeMap::new();
    for s in tops {
        let StmtKind::Assign { var, value } = &s.kind else {
            continue;
        };
        if modified.get(var).is_none_or(|&n| n < 2) {
            continue;
        }
        let step = match recognise(*var, var_ty(*var), value, modified) {
            Some(Induction {
                kind: kind @ (IvKind::Add | IvKind::Sub),
                step: Some(c),
                ..
            }) => Some((kind == IvKind::Sub, c)),
            _ => None,
        };
        let entry = steps.entry(*var).or_insert_with(|| Some(vec![]));
        match (entry.as_mut(), step) {
            (Some(list), Some(st)) => list.push(st),
            _ => *entry = None,
        }
    }
    steps
        .into_iter()
        .filter_map(|(var, addends)| {
            let addends = addends?;
            let all = u32::try_from(addends.len()).ok() == modified.get(&var).copied();
            (all && addends.len() <= MAX_ADDENDS).then_some(Induction {
                var,
                kind: IvKind::Add,
                step: None,
                addends,
            })
        })
        .collect()
}

/// Analyses a loop with `update` and `body` (`has_cond`: it has a condition).
pub fn analyze(
    var_ty: &dyn Fn(VarId) -> ScalarType,
    has_cond: bool,
    update: &[Stmt],
    body: &[Stmt],
) -> LoopInfo {
    let mut info = LoopInfo::default();
    let mut w = BTreeMap::new();
    for s in body.iter().chain(update) {
        writes(s, &mut w);
    }
    info.modified = w.keys().copied().collect();
    info.guard = if has_cond { None } else { leading_guard(body) };
    match info.guard {
        Some(g) => {
            exits(&body[..g], &mut info);
            exits(&body[g + 1..], &mut info);
        }
        None => exits(body, &mut info),
    }
    exits(update, &mut info);
    let tops = tops_of(&info, update, body);
    let mut temps: BTreeMap<VarId, (usize, &Expr)> = BTreeMap::new();
    for (at, s) in tops.into_iter().enumerate() {
        if let StmtKind::Assign { var, value } = &s.kind {
            if w.get(var) == Some(&1) {
                let ty = var_ty(*var);
                if let Some(iv) = recognise(*var, ty, value, &w) {
                    info.ivs.push(iv);
                } else if let Some(addends) = chain(*var, ty, value, at, &temps, &w) {
                    info.ivs.push(Induction {
                        var: *var,
                        kind: IvKind::Add,
                        step: None,
                        addends,
                    });
                }
                temps.insert(*var, (at, value));
            }
        }
    }
    info.ivs
        .extend(repeated_steps(var_ty, &w, tops_of(&info, update, body)));
    let (b1, w1) = sync_counts(body);
    let (b2, w2) = sync_counts(update);
    info.barriers = b1.zip(b2).map(|(a, b)| a + b);
    info.warp_syncs = w1.zip(w2).map(|(a, b)| a + b);
    info.grid_barriers = grid_count(body).zip(grid_count(update)).map(|(a, b)| a + b);
    for s in body.iter().chain(update) {
        s.walk(&mut |x| info.has_grid_sync |= matches!(x.kind, StmtKind::SyncGrid));
    }
    for s in body.iter().chain(update) {
        s.walk(&mut |x| {
            if matches!(
                x.kind,
                StmtKind::SyncThreads
                    | StmtKind::SyncGrid
                    | StmtKind::SyncWarp { .. }
                    | StmtKind::Shuffle { .. }
                    | StmtKind::Vote { .. }
                    | StmtKind::SyncThreadsVote { .. }
            ) {
                info.has_sync = true
            }
        });
    }
    info
}

/// The shift amount `s·k` (`k` 64-bit) in `w` bits, saturated at `w`, and whether it is.
fn sat_shift(k: &Term, s: u32, w: u32) -> (Term, Term) {
    let steps = w.div_ceil(s);
    let big = Term::bv(64, steps as u128).ule(k);
    let amount = k.zext_to(w).mul(&Term::bv(w, s as u128));
    let kk = Term::ite(&big, &Term::bv(w, w as u128), &amount);
    (big, kk)
}

/// `v0 / c^k` by truncating division (`signed` or not): a chain over `k` until `c^k` leaves
/// the range of the type, where the quotient is 0 (or −1 for the most negative value divided
/// by exactly its magnitude).
fn div_chain(v0: &Term, c: u64, k: &Term, signed: bool) -> Term {
    let w = v0.width();
    let limit: u128 = if signed {
        1 << (w - 1)
    } else {
        (1u128 << w) - 1
    };
    let mut powers = vec![];
    let mut p: u128 = 1;
    while p <= limit {
        powers.push(p);
        match p.checked_mul(c as u128) {
            Some(n) => p = n,
            None => break,
        }
    }
    let quotient = |p: u128| -> Term {
        if signed && p == limit {
            let min = Term::bv(w, limit);
            Term::ite(&v0.eq(&min), &Term::bvi(w, -1), &Term::bv(w, 0))
        } else if signed {
            v0.sdiv(&Term::bv(w, p))
        } else {
            v0.udiv(&Term::bv(w, p))
        }
    };
    let mut out = Term::bv(w, 0);
    for (j, &p) in powers.iter().enumerate().rev() {
        out = Term::ite(&k.eq(&Term::bv(64, j as u128)), &quotient(p), &out);
    }
    out
}

/// The value of an induction variable at the start of iteration `k` (64-bit), from its value
/// `v0` at loop entry and the step `c` (already of `v0`'s width).
pub fn closed_form(kind: IvKind, v0: &Term, c: Option<&Term>, k: &Term) -> Term {
    let w = v0.width();
    let kt = k.zext_to(w);
    let zero = Term::bv(w, 0);
    // A step wider than the variable (an exact sum of addends) acts by its low bits.
    let c = match c {
        Some(c) if c.width() > w => c.extract(w - 1, 0),
        Some(c) => c.clone(),
        None => zero.clone(),
    };
    let odd = k.bvand(&Term::bv(64, 1)).eq(&Term::bv(64, 1));
    match kind {
        IvKind::Add => v0.add(&kt.mul(&c)),
        IvKind::Sub => v0.sub(&kt.mul(&c)),
        IvKind::Shl(s) => {
            let (big, kk) = sat_shift(k, s, w);
            Term::ite(&big, &zero, &v0.shl(&kk))
        }
        IvKind::Lshr(s) => {
            let (_, kk) = sat_shift(k, s, w);
            v0.lshr(&kk)
        }
        IvKind::Ashr(s) => {
            let (_, kk) = sat_shift(k, s, w);
            v0.ashr(&kk)
        }
        IvKind::Udiv(c) => div_chain(v0, c, k, false),
        IvKind::Sdiv(c) => div_chain(v0, c, k, true),
        IvKind::Alt => Term::ite(&odd, &c.sub(v0), v0),
        IvKind::Xor => Term::ite(&odd, &v0.bvxor(&c), v0),
    }
}

/// For `Add`/`Sub`: the exact value `v0 ± k·c` in `64 + w + 2` bits (wide enough never to
/// wrap), `c` interpreted with `c_signed`. `None` for other kinds.
pub fn exact_affine(
    kind: IvKind,
    v0: &Term,
    c: Option<&Term>,
    k: &Term,
    v_signed: bool,
    c_signed: bool,
) -> Option<Term> {
    let c = c?;
    if !matches!(kind, IvKind::Add | IvKind::Sub) {
        return None;
    }
    let big = 64 + v0.width().max(c.width()) + 2;
    let prod = k.zext_to(big).mul(&c.ext_to(big, c_signed));
    let x = v0.ext_to(big, v_signed);
    Some(if kind == IvKind::Add {
        x.add(&prod)
    } else {
        x.sub(&prod)
    })
}

/// The exact value `exact` of a `w`-bit variable (signed or not) lies within its type.
pub fn in_range(exact: &Term, w: u32, v_signed: bool) -> Term {
    let (lo, hi) = if v_signed {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, ((1u128 << w) - 1) as i128)
    };
    let big = exact.width();
    Term::bvi(big, lo)
        .sle(exact)
        .and(&exact.sle(&Term::bvi(big, hi)))
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
    match exact_affine(kind, v0, c, k, v_signed, c_signed) {
        Some(exact) => in_range(&exact, v0.width(), v_signed),
        None => Term::tt(),
    }
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
        analyze(&|v| kernel.var(v).ty, true, update, body)
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

    /// One application of a geometric update to a `w`-bit value (as C does it).
    fn step(kind: IvKind, w: u32, v: u128) -> u128 {
        let m = (1u128 << w) - 1;
        let sv = |x: u128| ((x << (128 - w)) as i128) >> (128 - w);
        (match kind {
            IvKind::Shl(s) => v << s,
            IvKind::Lshr(s) => v >> s,
            IvKind::Ashr(s) => (sv(v) >> s) as u128,
            IvKind::Udiv(c) => v / c as u128,
            IvKind::Sdiv(c) => (sv(v) / c as i128) as u128,
            _ => unreachable!("not a geometric kind"),
        }) & m
    }

    #[test]
    fn geometric_closed_forms_match_iteration() {
        let kinds = [
            IvKind::Shl(1),
            IvKind::Shl(2),
            IvKind::Shl(3),
            IvKind::Lshr(1),
            IvKind::Lshr(2),
            IvKind::Ashr(1),
            IvKind::Ashr(3),
            IvKind::Udiv(3),
            IvKind::Udiv(10),
            IvKind::Sdiv(2),
            IvKind::Sdiv(3),
            IvKind::Sdiv(4),
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for w in [8u32, 32] {
            let m = (1u128 << w) - 1;
            let mut starts: Vec<u128> = vec![0, 1, m, m >> 1, (m >> 1) + 1, 255 & m, 7];
            for _ in 0..40 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                starts.push(seed as u128 & m);
            }
            for kind in kinds {
                for &v0 in &starts {
                    let mut v = v0;
                    for j in 0..=(w as u64 + 2) {
                        let t = closed_form(kind, &Term::bv(w, v0), None, &k(j));
                        assert_eq!(t.as_bv(), Some(v), "{kind:?} w={w} v0={v0} k={j}");
                        v = step(kind, w, v);
                    }
                }
            }
        }
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
        assert_eq!(kinds, vec![IvKind::Shl(1), IvKind::Ashr(1)]);
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

    fn assign(v: VarId, value: Expr) -> Stmt {
        Stmt::new(StmtKind::Assign { var: v, value })
    }

    fn add(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::Add, a, b)
    }

    #[test]
    fn a_step_through_temporaries_is_the_sum_of_its_addends() {
        let (v, t, u) = (VarId(0), VarId(1), VarId(2));
        let var = |x: VarId| Expr::var(x, ScalarType::I64);
        let n = Expr::var(VarId(3), ScalarType::I64);
        let body = vec![
            assign(t, add(var(v), n.clone())),
            assign(u, add(var(t), n.clone())),
            assign(v, add(var(u), n.clone())),
        ];
        let info = analyze(&|_| ScalarType::I64, true, &[], &body);
        let iv = info.ivs.iter().find(|i| i.var == v).expect("an induction");
        assert_eq!(iv.kind, IvKind::Add);
        assert_eq!(iv.addends, vec![(false, n.clone()); 3]);
        // A temporary read before its assignment holds the previous iteration's value.
        let body = vec![
            assign(u, add(var(t), n.clone())),
            assign(t, add(var(v), n.clone())),
            assign(v, add(var(u), n.clone())),
        ];
        let info = analyze(&|_| ScalarType::I64, true, &[], &body);
        assert!(info.ivs.iter().all(|i| i.var != v));
        // A temporary assigned under a condition is not one the update always reads.
        let body = vec![
            Stmt::new(StmtKind::If {
                cond: Expr::binary(
                    BinOp::Lt,
                    n.clone(),
                    Expr::constant(Value::from_i128(ScalarType::I64, 0)),
                ),
                then_body: vec![assign(t, add(var(v), n.clone()))],
                else_body: vec![],
            }),
            assign(v, add(var(t), n.clone())),
        ];
        let info = analyze(&|_| ScalarType::I64, true, &[], &body);
        assert!(info.ivs.iter().all(|i| i.var != v));
    }

    #[test]
    fn a_wide_step_acts_by_its_low_bits_and_exactly() {
        // `v += a; v += b` with a = b = 2^31 - 1 in i32: the step 2^32 - 2 wraps in 32 bits.
        let v0 = Term::bv(32, 0);
        let c = Term::bv(40, (1u128 << 32) - 2);
        let v = closed_form(IvKind::Add, &v0, Some(&c), &k(1));
        assert_eq!(v.as_bv(), Some((1u128 << 32) - 2));
        let exact = exact_affine(IvKind::Add, &v0, Some(&c), &k(1), true, true).expect("affine");
        assert_eq!(in_range(&exact, 32, true).as_bool(), Some(false));
    }

    #[test]
    fn a_counter_meets_its_bound_exactly_once() {
        // `do { … r = r - 1 } while (r != 0)` from r0 = 3: iterations 1 and 2 test r = 2, 1.
        let fact = |r0: u128, j: u64| {
            let (v0, c, b) = (Term::bv(32, r0), Term::bv(32, 1), Term::bv(32, 0));
            no_earlier_hit(IvKind::Sub, &v0, Some(&c), &b, &k(j), 1, false, false)
                .and_then(|t| t.as_bool())
        };
        assert_eq!(fact(3, 3), Some(true));
        assert_eq!(fact(3, 4), Some(false));
        // Stepped by -4 from 12 with `+ -4` (signed): meets 0 at iteration 3.
        let (v0, c, b) = (Term::bv(32, 12), Term::bvi(32, -4), Term::bv(32, 0));
        let f = |j| {
            no_earlier_hit(IvKind::Add, &v0, Some(&c), &b, &k(j), 1, true, true)
                .and_then(|t| t.as_bool())
        };
        assert_eq!((f(3), f(4)), (Some(true), Some(false)));
        // A distance the step does not divide is never met exactly.
        let v0 = Term::bv(32, 13);
        let g = no_earlier_hit(IvKind::Add, &v0, Some(&c), &b, &k(100), 1, true, true);
        assert_eq!(g.and_then(|t| t.as_bool()), Some(true));
        // A symbolic step: no fact.
        let n = crate::term::sym(
            "n".into(),
            crate::term::Sort::BitVec(32),
            crate::term::SymKind::Shared,
            0,
        );
        assert!(no_earlier_hit(IvKind::Add, &v0, Some(&n), &b, &k(1), 1, true, true).is_none());
    }

    #[test]
    fn recognises_a_distance_tested_against_zero() {
        let (v, r) = (VarId(0), VarId(1));
        let var = |x: VarId| Expr::var(x, ScalarType::I32);
        let cond = Expr::binary(BinOp::Ne, add(var(r), var(v)), Expr::i32(0));
        let (iv, bound) = ne_exit(&cond, &[v], &[v]).expect("a `!=` exit");
        assert_eq!(iv, v);
        assert_eq!(bound, vec![(false, &Expr::i32(0)), (true, &var(r))]);
        // The bound must not change in the loop.
        assert!(ne_exit(&cond, &[v], &[v, r]).is_none());
        // `<` is monotone_cmp's, not this.
        let lt = Expr::binary(BinOp::Lt, var(v), Expr::i32(0));
        assert!(ne_exit(&lt, &[v], &[v]).is_none());
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
