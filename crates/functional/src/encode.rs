//! IR expressions as SMT terms over mathematical integers and reals.
//!
//! Integers are exact values. In the kernel ([`Mode::Kernel`]) an operation whose result
//! might leave its type's range is encoded without wrapping and the range becomes a
//! side obligation (proved later, or the proof is `unknown`); signed arithmetic relies on the
//! parametric verifier's no-overflow verdict instead. In the contract ([`Mode::Exact`]) wraps
//! are encoded exactly (`mod 2^w`), since an assumption must mean what the machine computes.
//! Floats are reals; math intrinsics are uninterpreted functions shared with the spec.

use crate::launch::Launch;
use crate::poly::canon;
use crate::term::{Sort, Term};
use warpsafe_ir::{
    ArrayId, BinOp, Builtin, Expr, ExprKind, Kernel, LogicOp, MathFn, MemRef, ParamId, ParamKind,
    ScalarType, Span, UnOp, Value,
};

/// A value: its term and, for integers, an interval containing it.
#[derive(Clone, Debug, PartialEq)]
pub struct Val {
    /// The term.
    pub t: Term,
    /// Bounds of an integer value (ignored for booleans and reals).
    pub iv: (i128, i128),
}

impl Val {
    fn of(t: Term, iv: (i128, i128)) -> Val {
        Val { t, iv }
    }

    fn plain(t: Term) -> Val {
        Val { t, iv: FULL }
    }
}

const FULL: (i128, i128) = (i128::MIN / 4, i128::MAX / 4);

/// The range of an integer type.
pub fn type_range(ty: ScalarType) -> (i128, i128) {
    let bits = ty.bits();
    if ty.is_signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else if ty.is_int() {
        (0, (1i128 << bits) - 1)
    } else {
        FULL
    }
}

/// The SMT sort of an IR type.
pub fn sort_of(ty: ScalarType) -> Sort {
    if ty == ScalarType::Bool {
        Sort::Bool
    } else if ty.is_float() {
        Sort::Real
    } else {
        Sort::Int
    }
}

/// Why a kernel is outside the shapes the parametric proof handles.
#[derive(Clone, Debug, PartialEq)]
pub struct Unsupported {
    /// What is outside.
    pub reason: String,
    /// Where.
    pub span: Span,
}

/// Result of encoding.
pub type Enc<T> = Result<T, Unsupported>;

/// Fails with `reason` at `span`.
pub fn unsupported<T>(span: Span, reason: impl Into<String>) -> Enc<T> {
    Err(Unsupported {
        reason: reason.into(),
        span,
    })
}

/// How wrapping arithmetic is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Plain arithmetic with a side obligation that no wrap happens.
    Kernel,
    /// Exact `mod 2^w` encoding.
    Exact,
}

/// A side obligation: under `guard`, `cond` holds.
#[derive(Clone, Debug)]
pub struct Side {
    /// When it must hold.
    pub guard: Term,
    /// What must hold.
    pub cond: Term,
    /// Human description.
    pub what: String,
    /// Source position.
    pub span: Span,
    /// May assume the trip-count definitions (false for the facts those definitions rest on).
    pub defs: bool,
}

/// A read of a global buffer.
#[derive(Clone, Debug)]
pub struct LoadEv {
    /// The buffer.
    pub buf: ParamId,
    /// Element index.
    pub addr: Term,
    /// When it happens.
    pub guard: Term,
    /// Enclosing loops: (loop id, iteration symbol).
    pub loops: Vec<(usize, Term)>,
    /// Program position (pre-order statement number).
    pub pos: usize,
    /// Source position.
    pub span: Span,
}

/// A read or write of a shared array.
#[derive(Clone, Debug)]
pub struct SharedEv {
    /// The array.
    pub arr: ArrayId,
    /// Row-major element index.
    pub addr: Term,
    /// Every index is within its extent.
    pub in_bounds: Term,
    /// The value written (a store).
    pub value: Option<Term>,
    /// The symbol standing for the value read (a load).
    pub sym: Option<Term>,
    /// When it happens.
    pub guard: Term,
    /// Enclosing loops: (loop id, iteration symbol).
    pub loops: Vec<(usize, Term)>,
    /// Barriers the thread has passed.
    pub phase: Term,
    /// Source position.
    pub span: Span,
}

/// The expression encoder: the launch's symbols, and sinks for side obligations and loads.
pub struct Encoder<'k> {
    /// The kernel.
    pub kernel: &'k Kernel,
    /// Launch symbols.
    pub launch: Launch,
    /// Wrap encoding.
    pub mode: Mode,
    /// Side obligations found so far.
    pub side: Vec<Side>,
    /// Loads found so far.
    pub loads: Vec<LoadEv>,
    /// Enclosing loops of the statement being encoded.
    pub loops: Vec<(usize, Term)>,
    /// Position of the statement being encoded.
    pub pos: usize,
    /// Shared-memory accesses found so far.
    pub shared: Vec<SharedEv>,
    /// Barriers passed before the statement being encoded.
    pub phase: Term,
    /// Ranges of integer parameters that the contract's `requires` bound.
    param_ranges: Vec<(i128, i128)>,
    /// Where the first infinite float constant was read (it must not reach an obligation).
    pub infinity: Option<Span>,
}

/// The symbols standing for `+∞` and `−∞`: only the start of a running maximum may hold one
/// ([`crate::online`]); any other use makes the kernel unsupported.
pub const INFINITIES: [&str; 2] = ["inf_pos", "inf_neg"];

/// Most elements of a per-thread local array whose elements are tracked one by one.
pub const MAX_LOCAL_ELEMENTS: u64 = 256;

/// The variable slot of element 0 of each local array: the elements of local arrays follow
/// the kernel's variables in [`Vars`], one slot each.
pub fn local_bases(kernel: &Kernel) -> Vec<usize> {
    let mut next = kernel.vars.len();
    kernel
        .locals
        .iter()
        .map(|a| {
            let base = next;
            next += a.len().min(MAX_LOCAL_ELEMENTS) as usize;
            base
        })
        .collect()
}

/// Variable slots in all: the kernel's variables and every local array element.
pub fn slot_count(kernel: &Kernel) -> usize {
    kernel.vars.len()
        + kernel
            .locals
            .iter()
            .map(|a| a.len().min(MAX_LOCAL_ELEMENTS) as usize)
            .sum::<usize>()
}

/// Variable values: `None` before declaration or out of scope.
pub type Vars = Vec<Option<Val>>;

/// The symbol of a scalar parameter.
pub fn param_sym(kernel: &Kernel, p: ParamId) -> Option<Term> {
    let param = kernel.params.get(p.0 as usize)?;
    match param.kind {
        ParamKind::Scalar(t) => Some(crate::term::sym(
            format!("p_{}", clean(&param.name)),
            sort_of(t),
        )),
        ParamKind::Buffer { .. } => None,
    }
}

/// The range of each parameter (by index) within the bounds the contract's `requires` put on
/// it directly (`0 <= K`, `n < 4096`; conjuncts of a bare parameter and a constant). Every
/// obligation assumes the `requires`, so encoding under these ranges is exact where it counts.
fn param_ranges(kernel: &Kernel) -> Vec<(i128, i128)> {
    let mut out: Vec<(i128, i128)> = kernel
        .params
        .iter()
        .map(|p| match p.kind {
            ParamKind::Scalar(t) if t.is_int() => type_range(t),
            _ => (i128::MIN, i128::MAX),
        })
        .collect();
    fn visit(e: &Expr, out: &mut [(i128, i128)]) {
        match &e.kind {
            ExprKind::Logical(LogicOp::And, a, b) => {
                visit(a, out);
                visit(b, out);
            }
            ExprKind::Binary(op, a, b) => {
                let bound = |x: &Expr, y: &Expr| match (&x.kind, &y.kind) {
                    (ExprKind::Param(p), ExprKind::Const(v)) if x.ty.is_int() => {
                        Some((p.0 as usize, v.as_i128()?, false))
                    }
                    (ExprKind::Const(v), ExprKind::Param(p)) if y.ty.is_int() => {
                        Some((p.0 as usize, v.as_i128()?, true))
                    }
                    _ => None,
                };
                let Some((i, c, flipped)) = bound(a, b) else {
                    return;
                };
                let Some(r) = out.get_mut(i) else { return };
                // `p op c`, or `c op p` read as `p op' c`.
                let op = match (op, flipped) {
                    (o, false) => *o,
                    (BinOp::Lt, true) => BinOp::Gt,
                    (BinOp::Le, true) => BinOp::Ge,
                    (BinOp::Gt, true) => BinOp::Lt,
                    (BinOp::Ge, true) => BinOp::Le,
                    (o, true) => *o,
                };
                match op {
                    BinOp::Lt => r.1 = r.1.min(c - 1),
                    BinOp::Le => r.1 = r.1.min(c),
                    BinOp::Gt => r.0 = r.0.max(c + 1),
                    BinOp::Ge => r.0 = r.0.max(c),
                    BinOp::Eq => *r = (r.0.max(c), r.1.min(c)),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    for r in &kernel.contract.requires {
        visit(r, &mut out);
    }
    out
}

/// The initial contents of buffer `p` at element `addr`.
pub fn buffer_read(kernel: &Kernel, p: ParamId, addr: &Term) -> Option<Term> {
    let param = kernel.params.get(p.0 as usize)?;
    let ParamKind::Buffer { elem, .. } = param.kind else {
        return None;
    };
    let range = elem.is_int().then(|| type_range(elem));
    Some(crate::term::uf(
        format!("mem_{}", clean(&param.name)),
        vec![canon(addr)],
        sort_of(elem),
        range,
    ))
}

/// The uninterpreted function standing for a math intrinsic over the reals.
pub fn math_fn(name: &str, args: Vec<Term>) -> Term {
    crate::term::uf(format!("f_{name}"), args, Sort::Real, None)
}

/// A name usable in an SMT symbol.
pub fn clean(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

fn iv_add(a: (i128, i128), b: (i128, i128)) -> (i128, i128) {
    (a.0.saturating_add(b.0), a.1.saturating_add(b.1))
}

fn iv_sub(a: (i128, i128), b: (i128, i128)) -> (i128, i128) {
    (a.0.saturating_sub(b.1), a.1.saturating_sub(b.0))
}

fn iv_mul(a: (i128, i128), b: (i128, i128)) -> (i128, i128) {
    let c = [
        a.0.saturating_mul(b.0),
        a.0.saturating_mul(b.1),
        a.1.saturating_mul(b.0),
        a.1.saturating_mul(b.1),
    ];
    (
        c.iter().copied().min().unwrap_or(FULL.0).max(FULL.0),
        c.iter().copied().max().unwrap_or(FULL.1).min(FULL.1),
    )
}

fn within(iv: (i128, i128), r: (i128, i128)) -> bool {
    iv.0 >= r.0 && iv.1 <= r.1
}

fn clamp(iv: (i128, i128), r: (i128, i128)) -> (i128, i128) {
    (iv.0.max(r.0), iv.1.min(r.1))
}

impl<'k> Encoder<'k> {
    /// An encoder for `kernel` over `launch`.
    pub fn new(kernel: &'k Kernel, launch: Launch, mode: Mode) -> Encoder<'k> {
        Encoder {
            kernel,
            launch,
            mode,
            side: vec![],
            loads: vec![],
            loops: vec![],
            pos: 0,
            shared: vec![],
            phase: Term::int(0),
            param_ranges: param_ranges(kernel),
            infinity: None,
        }
    }

    /// The slots of local array `arr` and the flat index `indices` name (with a side
    /// obligation that each index is within its extent).
    pub fn local_index(
        &mut self,
        arr: ArrayId,
        indices: &[Expr],
        vars: &Vars,
        guard: &Term,
        span: Span,
    ) -> Enc<(Vec<usize>, Term)> {
        let decl = &self.kernel.locals[arr.0 as usize];
        if decl.len() > MAX_LOCAL_ELEMENTS || decl.is_empty() {
            return unsupported(span, "a local array too large to track element by element");
        }
        if indices.len() != decl.dims.len() {
            return unsupported(
                span,
                "a local array indexed with fewer or more indices than it has dimensions",
            );
        }
        let base = local_bases(self.kernel)[arr.0 as usize];
        let slots: Vec<usize> = (base..base + decl.len() as usize).collect();
        let dims = decl.dims.clone();
        let mut flat = Term::int(0);
        let mut in_bounds = Term::tt();
        for (e, extent) in indices.iter().zip(&dims) {
            let i = self.expr(e, vars, guard)?.t;
            let extent = Term::int(i128::from(*extent));
            in_bounds = in_bounds.and(&Term::int(0).le(&i)).and(&i.lt(&extent));
            flat = flat.mul(&extent).add(&i);
        }
        if in_bounds.as_bool() != Some(true) {
            self.side.push(Side {
                guard: guard.clone(),
                cond: in_bounds,
                what: "a local array index is within its extent".into(),
                span,
                defs: true,
            });
        }
        Ok((slots, canon(&flat)))
    }

    /// The element `i` of a local array (slots `slots`): a known element, or a choice among
    /// all of them by the index.
    fn local_read(&self, slots: &[usize], i: &Term, vars: &Vars, span: Span) -> Enc<Val> {
        let get = |s: usize| -> Enc<Val> {
            match vars.get(s).cloned().flatten() {
                Some(v) => Ok(v),
                None => unsupported(span, "a local array element read before it is written"),
            }
        };
        if let Some(k) = i.as_int() {
            return match usize::try_from(k).ok().and_then(|k| slots.get(k)) {
                Some(&s) => get(s),
                None => unsupported(span, "a local array index outside the array"),
            };
        }
        let mut out = get(slots[slots.len() - 1])?;
        for (k, &s) in slots.iter().enumerate().rev().skip(1) {
            let v = get(s)?;
            out = Val::of(
                Term::ite(&i.eq(&Term::int(k as i128)), &v.t, &out.t),
                (v.iv.0.min(out.iv.0), v.iv.1.max(out.iv.1)),
            );
        }
        Ok(out)
    }

    /// Records an access of shared array `arr` at `indices` (a store of `value`, or a load
    /// whose value is a fresh symbol, returned).
    pub fn shared_access(
        &mut self,
        arr: ArrayId,
        indices: &[Expr],
        vars: &Vars,
        guard: &Term,
        value: Option<Term>,
        span: Span,
    ) -> Enc<Option<Val>> {
        let decl = &self.kernel.shared[arr.0 as usize];
        if indices.len() != decl.dims.len() {
            return unsupported(
                span,
                "a shared array indexed with fewer or more indices than it has dimensions",
            );
        }
        let elem = decl.elem;
        let dims: Vec<Term> = if decl.dynamic {
            vec![self.dynamic_extent(elem, span)?]
        } else {
            decl.dims
                .iter()
                .map(|d| Term::int(i128::from(*d)))
                .collect()
        };
        let mut addr = Term::int(0);
        let mut in_bounds = Term::tt();
        for (e, extent) in indices.iter().zip(&dims) {
            let i = self.expr(e, vars, guard)?.t;
            in_bounds = in_bounds.and(&Term::int(0).le(&i)).and(&i.lt(extent));
            addr = addr.mul(extent).add(&i);
        }
        let sym = value
            .is_none()
            .then(|| crate::term::sym(format!("sh{}", self.shared.len()), sort_of(elem)));
        self.shared.push(SharedEv {
            arr,
            addr: canon(&addr),
            in_bounds,
            value,
            sym: sym.clone(),
            guard: guard.clone(),
            loops: self.loops.clone(),
            phase: self.phase.clone(),
            span,
        });
        Ok(sym.map(|t| Val::of(t, type_range(elem))))
    }

    /// The value `r` of type `ty` (with interval `iv`) after the machine's wrap, or a side
    /// obligation that it does not wrap (signed overflow included).
    fn fit(&mut self, r: Term, iv: (i128, i128), ty: ScalarType, guard: &Term, span: Span) -> Val {
        let range = type_range(ty);
        if within(iv, range) {
            return Val::of(r, iv);
        }
        match self.mode {
            Mode::Kernel => {
                let cond = Term::int(range.0).le(&r).and(&r.le(&Term::int(range.1)));
                self.side.push(Side {
                    guard: guard.clone(),
                    cond,
                    what: format!("{} arithmetic does not wrap", ty.name()),
                    span,
                    defs: true,
                });
                Val::of(r, clamp(iv, range))
            }
            Mode::Exact => {
                let m = Term::int(1i128 << ty.bits());
                if ty.is_float() || ty == ScalarType::Bool {
                    return Val::of(r, iv);
                }
                let w = r.modulo(&m);
                if ty.is_signed() {
                    let half = Term::int(range.1 + 1);
                    Val::of(Term::ite(&half.le(&w), &w.sub(&m), &w), range)
                } else {
                    Val::of(w, range)
                }
            }
        }
    }

    /// Encodes `e` evaluated when `guard` holds.
    pub fn expr(&mut self, e: &Expr, vars: &Vars, guard: &Term) -> Enc<Val> {
        match &e.kind {
            ExprKind::Const(v) => self.constant(*v, e.span),
            ExprKind::Var(v) => match vars.get(v.0 as usize).cloned().flatten() {
                Some(val) => Ok(val),
                None => unsupported(
                    e.span,
                    "a variable read outside its scope or before its value is known",
                ),
            },
            ExprKind::Param(p) => match param_sym(self.kernel, *p) {
                Some(t) => {
                    let range = type_range(e.ty);
                    let iv = match self.param_ranges.get(p.0 as usize) {
                        Some(&(lo, hi)) => (lo.max(range.0), hi.min(range.1)),
                        None => range,
                    };
                    Ok(Val::of(t, iv))
                }
                None => unsupported(e.span, "a buffer parameter used as a value"),
            },
            ExprKind::Builtin(b) => self.builtin(*b, e.span),
            ExprKind::BufferLen(p) => self.buffer_len(*p, e.span),
            ExprKind::Unary(op, a) => {
                let x = self.expr(a, vars, guard)?;
                self.unary(*op, x, a.ty, e.ty, guard, e.span)
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.expr(a, vars, guard)?;
                let y = self.expr(b, vars, guard)?;
                self.binary(*op, x, y, a.ty, guard, e.span)
            }
            ExprKind::Logical(op, a, b) => {
                let x = self.expr(a, vars, guard)?;
                let rhs_guard = match op {
                    LogicOp::And => guard.and(&x.t),
                    LogicOp::Or => guard.and(&x.t.not()),
                };
                let y = self.expr(b, vars, &rhs_guard)?;
                Ok(Val::plain(match op {
                    LogicOp::And => x.t.and(&y.t),
                    LogicOp::Or => x.t.or(&y.t),
                }))
            }
            ExprKind::Cast(a) => {
                let x = self.expr(a, vars, guard)?;
                self.cast(x, a.ty, e.ty, guard, e.span)
            }
            ExprKind::Select(c, a, b) => {
                let c = self.expr(c, vars, guard)?;
                let x = self.expr(a, vars, &guard.and(&c.t))?;
                let y = self.expr(b, vars, &guard.and(&c.t.not()))?;
                Ok(Val::of(
                    Term::ite(&c.t, &x.t, &y.t),
                    (x.iv.0.min(y.iv.0), x.iv.1.max(y.iv.1)),
                ))
            }
            ExprKind::Call(f, args) => {
                let mut xs = vec![];
                for a in args {
                    xs.push(self.expr(a, vars, guard)?);
                }
                self.call(*f, xs, e.ty, e.span)
            }
            ExprKind::Load(mem, idx) => {
                let p = match mem {
                    MemRef::Global(p) => p,
                    MemRef::Shared(a) => {
                        let v = self.shared_access(*a, idx, vars, guard, None, e.span)?;
                        return v.ok_or_else(|| Unsupported {
                            reason: "a shared load without a value".into(),
                            span: e.span,
                        });
                    }
                    MemRef::Local(a) => {
                        let (slots, i) = self.local_index(*a, idx, vars, guard, e.span)?;
                        return self.local_read(&slots, &i, vars, e.span);
                    }
                };
                let [i] = idx.as_slice() else {
                    return unsupported(e.span, "a multi-dimensional buffer index");
                };
                let a = self.expr(i, vars, guard)?;
                let addr = canon(&a.t);
                self.loads.push(LoadEv {
                    buf: *p,
                    addr: addr.clone(),
                    guard: guard.clone(),
                    loops: self.loops.clone(),
                    pos: self.pos,
                    span: e.span,
                });
                match buffer_read(self.kernel, *p, &addr) {
                    Some(t) => Ok(Val::of(t, type_range(e.ty))),
                    None => unsupported(e.span, "a load from a scalar parameter"),
                }
            }
        }
    }

    fn constant(&mut self, v: Value, span: Span) -> Enc<Val> {
        if v.ty().is_float() {
            let x = v.as_f64();
            if x.is_infinite() {
                self.infinity.get_or_insert(span);
                let name = INFINITIES[usize::from(x < 0.0)];
                return Ok(Val::plain(crate::term::sym(name, Sort::Real)));
            }
            return match Term::float(x) {
                Some(t) => Ok(Val::plain(t)),
                None => unsupported(span, "a NaN float constant"),
            };
        }
        if let Value::Bool(b) = v {
            return Ok(Val::plain(Term::bool(b)));
        }
        let x = v.as_i128().unwrap_or(0);
        Ok(Val::of(Term::int(x), (x, x)))
    }

    fn builtin(&self, b: Builtin, span: Span) -> Enc<Val> {
        let l = &self.launch;
        Ok(match b {
            Builtin::ThreadIdx(d) => Val::of(l.tid[d.index()].clone(), (0, 1023)),
            Builtin::BlockIdx(d) => {
                Val::of(l.bid[d.index()].clone(), (0, i128::from(i32::MAX) - 1))
            }
            Builtin::BlockDim(d) => Val::of(l.bdim[d.index()].clone(), (1, 1024)),
            Builtin::GridDim(d) => Val::of(l.gdim[d.index()].clone(), (1, i128::from(i32::MAX))),
            Builtin::WarpSize => Val::of(Term::int(32), (32, 32)),
            Builtin::LaneId => return unsupported(span, "laneId (warp-level code)"),
        })
    }

    /// The elements of type `elem` an `extern __shared__` array holds: the contract's
    /// `shared_bytes` divided by the element size, exactly.
    fn dynamic_extent(&mut self, elem: ScalarType, span: Span) -> Enc<Term> {
        let Some(bytes) = self.kernel.contract.dynamic_shared_bytes.clone() else {
            return unsupported(
                span,
                "dynamic shared memory (`extern __shared__`) without a `//@ shared_bytes = E` line",
            );
        };
        let saved = self.mode;
        self.mode = Mode::Exact;
        let b = self.expr(&bytes, &vec![], &Term::tt());
        self.mode = saved;
        let size = i128::from(elem.size_bytes().max(1) as u32);
        Ok(b?.t.div(&Term::int(size)))
    }

    /// The length of buffer `p` from the contract, exactly.
    pub fn buffer_len(&mut self, p: ParamId, span: Span) -> Enc<Val> {
        let Some(spec) = self.kernel.contract.lengths.iter().find(|l| l.param == p) else {
            return unsupported(span, "a buffer without a stated length");
        };
        let saved = self.mode;
        self.mode = Mode::Exact;
        let r = self.expr(&spec.len.clone(), &vec![], &Term::tt());
        self.mode = saved;
        r
    }

    fn unary(
        &mut self,
        op: UnOp,
        x: Val,
        ty: ScalarType,
        rty: ScalarType,
        guard: &Term,
        span: Span,
    ) -> Enc<Val> {
        Ok(match op {
            UnOp::Not => Val::plain(x.t.not()),
            UnOp::Neg if ty.is_float() => {
                let flipped = INFINITIES
                    .iter()
                    .position(|n| x.t.as_sym().is_some_and(|s| &*s.name == *n));
                match flipped {
                    Some(i) => Val::plain(crate::term::sym(INFINITIES[1 - i], Sort::Real)),
                    None => Val::plain(x.t.neg()),
                }
            }
            UnOp::Neg => self.fit(
                x.t.neg(),
                (x.iv.1.saturating_neg(), x.iv.0.saturating_neg()),
                rty,
                guard,
                span,
            ),
            UnOp::BitNot => {
                let (lo, hi) = type_range(ty);
                if ty.is_signed() {
                    Val::of(x.t.neg().sub(&Term::int(1)), (lo, hi))
                } else {
                    Val::of(Term::int(hi).sub(&x.t), (lo, hi))
                }
            }
        })
    }

    fn binary(
        &mut self,
        op: BinOp,
        x: Val,
        y: Val,
        ty: ScalarType,
        guard: &Term,
        span: Span,
    ) -> Enc<Val> {
        if ty == ScalarType::Bool {
            return Ok(Val::plain(match op {
                BinOp::Eq => x.t.eq(&y.t),
                BinOp::Ne => x.t.eq(&y.t).not(),
                BinOp::BitAnd => x.t.and(&y.t),
                BinOp::BitOr => x.t.or(&y.t),
                BinOp::BitXor => x.t.eq(&y.t).not(),
                _ => return unsupported(span, format!("`{}` on booleans", op.symbol())),
            }));
        }
        if let Some(c) = compare(op, &x.t, &y.t) {
            return Ok(Val::plain(c));
        }
        if matches!(op, BinOp::Min | BinOp::Max) {
            let pick_x = match op {
                BinOp::Min => x.t.le(&y.t),
                _ => y.t.le(&x.t),
            };
            let iv = match op {
                BinOp::Min => (x.iv.0.min(y.iv.0), x.iv.1.min(y.iv.1)),
                _ => (x.iv.0.max(y.iv.0), x.iv.1.max(y.iv.1)),
            };
            return Ok(Val::of(Term::ite(&pick_x, &x.t, &y.t), iv));
        }
        if ty.is_float() {
            return Ok(Val::plain(match op {
                BinOp::Add => x.t.add(&y.t),
                BinOp::Sub => x.t.sub(&y.t),
                BinOp::Mul => x.t.mul(&y.t),
                BinOp::Div => x.t.rdiv(&y.t),
                _ => return unsupported(span, format!("float `{}`", op.symbol())),
            }));
        }
        match op {
            BinOp::Add => Ok(self.fit(x.t.add(&y.t), iv_add(x.iv, y.iv), ty, guard, span)),
            BinOp::Sub => Ok(self.fit(x.t.sub(&y.t), iv_sub(x.iv, y.iv), ty, guard, span)),
            BinOp::Mul => Ok(self.fit(x.t.mul(&y.t), iv_mul(x.iv, y.iv), ty, guard, span)),
            BinOp::Div | BinOp::Rem => self.divide(op, x, y, span),
            BinOp::Shl => match y.t.as_int() {
                Some(k) if (0..64).contains(&k) => {
                    let p = 1i128 << k;
                    Ok(self.fit(
                        x.t.mul(&Term::int(p)),
                        iv_mul(x.iv, (p, p)),
                        ty,
                        guard,
                        span,
                    ))
                }
                _ => Ok(self.opaque("shl", x, y, ty)),
            },
            BinOp::Shr => match y.t.as_int() {
                Some(k) if (0..64).contains(&k) => {
                    let p = 1i128 << k;
                    Ok(Val::of(
                        x.t.div(&Term::int(p)),
                        (x.iv.0.div_euclid(p), x.iv.1.div_euclid(p)),
                    ))
                }
                _ => Ok(self.opaque("shr", x, y, ty)),
            },
            BinOp::BitAnd => match y.t.as_int() {
                Some(m) if m >= 0 && (m + 1) & m == 0 && x.iv.0 >= 0 => {
                    Ok(Val::of(x.t.modulo(&Term::int(m + 1)), (0, m)))
                }
                _ => Ok(self.opaque("and", x, y, ty)),
            },
            BinOp::BitOr => Ok(self.opaque("or", x, y, ty)),
            BinOp::BitXor => Ok(self.opaque("xor", x, y, ty)),
            _ => unsupported(span, format!("integer `{}`", op.symbol())),
        }
    }

    /// Bitwise operations as uninterpreted functions of their operands (sound, not complete).
    fn opaque(&self, name: &str, x: Val, y: Val, ty: ScalarType) -> Val {
        let range = type_range(ty);
        Val::of(
            crate::term::uf(
                format!("bv_{name}_{}", ty.name()),
                vec![x.t, y.t],
                Sort::Int,
                Some(range),
            ),
            range,
        )
    }

    /// C's truncating division and remainder.
    fn divide(&mut self, op: BinOp, x: Val, y: Val, span: Span) -> Enc<Val> {
        if self.mode == Mode::Exact && y.iv.0 < 1 {
            // C's truncating division for any signs; a contract dividing by zero gets 0.
            let zero = Term::int(0);
            let abs = |t: &Term| Term::ite(&t.lt(&zero), &t.neg(), t);
            let ay = abs(&y.t);
            let q0 = abs(&x.t).div(&Term::ite(&ay.eq(&zero), &Term::int(1), &ay));
            let flip = x.t.lt(&zero).eq(&y.t.lt(&zero)).not();
            let q = Term::ite(&y.t.eq(&zero), &zero, &Term::ite(&flip, &q0.neg(), &q0));
            let full = type_range_of(x.iv, y.iv);
            return Ok(match op {
                BinOp::Div => Val::of(q, full),
                _ => Val::of(x.t.sub(&y.t.mul(&q)), full),
            });
        }
        if y.iv.0 < 1 {
            if y.iv.1 > -1 {
                return unsupported(span, "division by a value that may be zero or negative");
            }
            return unsupported(span, "division by a negative value");
        }
        let nonneg = x.iv.0 >= 0;
        let q = if nonneg {
            x.t.div(&y.t)
        } else {
            let pos = Term::int(0).le(&x.t);
            Term::ite(&pos, &x.t.div(&y.t), &x.t.neg().div(&y.t).neg())
        };
        Ok(match op {
            BinOp::Div => {
                let lo = if nonneg {
                    x.iv.0 / y.iv.1.max(1)
                } else {
                    x.iv.0
                };
                let hi = if x.iv.1 >= 0 { x.iv.1 / y.iv.0 } else { 0 };
                Val::of(q, (lo, hi))
            }
            _ => {
                let r = if nonneg {
                    x.t.modulo(&y.t)
                } else {
                    x.t.sub(&y.t.mul(&q))
                };
                let m = y.iv.1.saturating_sub(1);
                let iv = if nonneg { (0, m.min(x.iv.1)) } else { (-m, m) };
                Val::of(r, iv)
            }
        })
    }

    /// Conversion with C semantics.
    pub fn cast(
        &mut self,
        x: Val,
        from: ScalarType,
        to: ScalarType,
        guard: &Term,
        span: Span,
    ) -> Enc<Val> {
        if from == to {
            return Ok(x);
        }
        Ok(match (from, to) {
            (ScalarType::Bool, t) if t.is_float() => Val::plain(Term::ite(
                &x.t,
                &Term::int(1).to_real(),
                &Term::int(0).to_real(),
            )),
            (ScalarType::Bool, _) => Val::of(Term::ite(&x.t, &Term::int(1), &Term::int(0)), (0, 1)),
            (f, ScalarType::Bool) if f.is_float() => {
                Val::plain(x.t.eq(&Term::int(0).to_real()).not())
            }
            (_, ScalarType::Bool) => Val::plain(x.t.eq(&Term::int(0)).not()),
            (f, t) if f.is_float() && t.is_float() => x,
            (f, t) if f.is_int() && t.is_float() => Val::plain(x.t.to_real()),
            (f, _) if f.is_float() => return unsupported(span, "a float-to-integer conversion"),
            _ => self.fit(x.t, x.iv, to, guard, span),
        })
    }

    fn call(&mut self, f: MathFn, xs: Vec<Val>, ty: ScalarType, span: Span) -> Enc<Val> {
        if f == MathFn::Bits {
            return unsupported(
                span,
                "a bit reinterpretation (`__float_as_int` and friends)",
            );
        }
        if !ty.is_float() {
            if let (MathFn::Abs, [x]) = (f, xs.as_slice()) {
                let neg = x.t.lt(&Term::int(0));
                let hi = x.iv.0.saturating_neg().max(x.iv.1);
                return Ok(Val::of(Term::ite(&neg, &x.t.neg(), &x.t), (0, hi)));
            }
            return unsupported(span, format!("integer `{}`", f.name()));
        }
        let zero = Term::int(0).to_real();
        Ok(Val::plain(match (f, xs.as_slice()) {
            (MathFn::Abs, [x]) => Term::ite(&x.t.lt(&zero), &x.t.neg(), &x.t),
            (MathFn::Fma, [a, b, c]) => a.t.mul(&b.t).add(&c.t),
            // `__expf` is `expf` over the reals.
            (MathFn::FastExp, [x]) => crate::expo::exp(x.t.clone()),
            (f, [x]) if defined_unary(f) => defined_unary_term(f, &x.t),
            (MathFn::Hypot, [a, b]) => math_fn("sqrt", vec![a.t.mul(&a.t).add(&b.t.mul(&b.t))]),
            (MathFn::Fdim, [a, b]) => Term::ite(&b.t.lt(&a.t), &a.t.sub(&b.t), &zero),
            (MathFn::Ldexp, [a, n]) => {
                let two = Term::int(2).to_real();
                a.t.mul(&math_fn("pow", vec![two, n.t.clone()]))
            }
            _ => math_fn(f.name(), xs.into_iter().map(|v| v.t).collect()),
        }))
    }
}

/// True for the one-argument functions written through `exp`, `log` and `pow` over the reals.
fn defined_unary(f: MathFn) -> bool {
    matches!(
        f,
        MathFn::Expm1 | MathFn::Log1p | MathFn::Exp10 | MathFn::Sinh | MathFn::Cosh
    )
}

/// `expm1`, `log1p`, `exp10`, `sinh`, `cosh` of `x` by their definitions, so that a kernel
/// calling one meets a spec (or a kernel) spelling it through `exp`, `log` or `pow`.
fn defined_unary_term(f: MathFn, x: &Term) -> Term {
    let one = Term::int(1).to_real();
    let e = crate::expo::exp(x.clone());
    match f {
        MathFn::Expm1 => e.sub(&one),
        MathFn::Log1p => math_fn("log", vec![one.add(x)]),
        MathFn::Exp10 => math_fn("pow", vec![Term::int(10).to_real(), x.clone()]),
        _ => {
            let en = crate::expo::exp(x.neg());
            let s = if f == MathFn::Sinh {
                e.sub(&en)
            } else {
                e.add(&en)
            };
            s.mul(&Term::ratio(1, 2))
        }
    }
}

fn type_range_of(x: (i128, i128), y: (i128, i128)) -> (i128, i128) {
    let m = [x.0, x.1, y.0, y.1]
        .iter()
        .map(|v| v.saturating_abs())
        .max()
        .unwrap_or(0);
    (-m, m)
}

/// A comparison as a boolean term (`None` for other operators).
pub fn compare(op: BinOp, x: &Term, y: &Term) -> Option<Term> {
    Some(match op {
        BinOp::Eq => x.eq(y),
        BinOp::Ne => x.eq(y).not(),
        BinOp::Lt => x.lt(y),
        BinOp::Le => x.le(y),
        BinOp::Gt => y.lt(x),
        BinOp::Ge => y.le(x),
        _ => return None,
    })
}
