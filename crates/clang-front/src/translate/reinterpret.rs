//! Pointer views: memory of one scalar type read through a pointer to another
//! (`(unsigned int *)&counts[i]`, `int *a = (int *)f;`, `((unsigned int *)bytes)[k]`),
//! written as accesses of the memory's own elements, so that bounds and race checks judge
//! the very bytes a GPU touches. Memory is little-endian, as on NVIDIA GPUs.
//!
//! - A view of the same width (`int` as `unsigned int`, `float` as `int`) reads an element
//!   and converts its bits (an integer cast, or `__float_as_int`-style reinterpretation);
//!   a store converts back. Atomics go through when the operation is the same on both
//!   readings of the bits (add, subtract, exchange, compare-and-swap, and/or/xor on integers;
//!   increment/decrement on 32-bit memory, whose bits the IR reads as `unsigned int`;
//!   min/max when signedness agrees; exchange of a float's bits, and compare-and-swap on
//!   float memory through an integer view: the IR's CAS on float memory compares bits, as
//!   CUDA's float CAS loop does).
//! - A wide view of integer memory (`unsigned int` words of `unsigned char` bytes) reads its
//!   value as the little-endian combination of the units it covers and stores each unit, so
//!   bounds and races are judged per unit. The view must start at a multiple of its width
//!   from the start of a kernel buffer or an array: that is asserted where the view is
//!   made (a misaligned word access faults on a GPU); a view of memory whose alignment is
//!   unknown here (a helper's parameter, a pointer variable) is rejected. A buffer starts
//!   256-byte aligned (`cudaMalloc`); an array's start is *assumed* aligned for the view
//!   (C guarantees only its element's alignment: a `__shared__ unsigned char` array read as
//!   words can fault where the compiler places it at an odd address, which is not checked).
//! - A narrow view of integer or float memory (`unsigned char` bytes of `unsigned int`
//!   words) reads the unit holding its element and extracts it; a store through it would
//!   rewrite the whole unit (a race between threads writing different bytes of one word
//!   that the GPU does not have) and is rejected.
//!
//! Memory of records whose leaves share one type (`float2 *v`) is that type's memory to a
//! view (`(char *)v`); cast back to such a record pointer (`(float2 *)((char *)v + r *
//! pitch)`, CUDA's fluidsGL) the view is the records from its offset, which is asserted to
//! start at a whole record.
//!
//! A view cast again keeps its offset, now in the new type's units, asserting the alignment
//! the new type needs (`(float *)((char *)rows + r * pitch)`); back at the memory's own type
//! it is an ordinary pointer, usable anywhere. Otherwise a view is read and written through
//! `p[i]`, `*p`, `p + k`, `&p[i]`, atomics and a local pointer variable holding it; anywhere
//! else (a call's argument, a comparison) it is rejected, naming the cast.

use super::aggregate::pure;
use super::expr::{address_of, scalar_cast, strip_implicit};
use super::layout::unsigned_of;
use super::{types, Unit};
use crate::node::Node;
use std::cell::RefCell;
use std::collections::HashMap;
use warpsafe_cuda_front::ast::{
    BinaryOp, Decl, Declarator, Expr, ExprKind, Init, Stmt, StmtKind, Storage, Type, UnaryOp,
};
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::{ScalarType, Span};

fn unsupported(span: Span, what: impl std::fmt::Display) -> FrontError {
    FrontError::new(span, format!("unsupported: {what}"))
}

/// The local pointer variables that hold views, by declaration id.
#[derive(Default)]
pub struct Views {
    vars: RefCell<HashMap<String, ViewVar>>,
}

/// A local `T *` variable declared as a pointer to the memory's type `M`.
#[derive(Clone, Copy)]
struct ViewVar {
    view: ScalarType,
    mem: ScalarType,
}

/// A pointer of type `view *` into memory of `mem`: `base` (a pointer to `mem` the
/// lowering knows) advanced by `at` grains, a grain being the narrower of the two types.
struct ViewPtr {
    view: ScalarType,
    mem: ScalarType,
    base: Expr,
    at: Option<Expr>,
    /// The alignment the view's type needs, when it must be checked where the view is used
    /// (`at % units == 0`); `None` when the view is known aligned.
    check: Option<Expr>,
    /// `base` is the start of a kernel's buffer or of an array (aligned for any scalar).
    aligned: bool,
    /// The cast that made the view, for messages.
    cast: Span,
}

impl ViewPtr {
    fn grain(&self) -> u64 {
        self.view.size_bytes().min(self.mem.size_bytes())
    }

    /// Grains per view element.
    fn step(&self) -> u64 {
        self.view.size_bytes() / self.grain()
    }

    fn what(&self) -> String {
        format!(
            "a `{} *` view of `{}` memory",
            self.view.c_name(),
            self.mem.c_name()
        )
    }

    /// The view advanced by `k` elements.
    fn advance(mut self, k: Expr, span: Span) -> ViewPtr {
        let k = times(k, self.step(), span);
        self.at = Some(match self.at.take() {
            None => k,
            Some(a) => add(a, k, span),
        });
        self
    }
}

fn int(v: u64, span: Span) -> Expr {
    Expr::new(ExprKind::Int(v, ScalarType::I64), span)
}

fn bin(op: BinaryOp, a: Expr, b: Expr, span: Span) -> Expr {
    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), span)
}

fn call(name: &str, args: Vec<Expr>, span: Span) -> Expr {
    Expr::new(ExprKind::Call(name.to_string(), span, args), span)
}

fn comma(a: Expr, b: Expr, span: Span) -> Expr {
    Expr::new(ExprKind::Comma(Box::new(a), Box::new(b)), span)
}

fn as_i64(e: Expr, span: Span) -> Expr {
    match e.kind {
        ExprKind::Int(v, _) => int(v, span),
        _ => scalar_cast(ScalarType::I64, e, span),
    }
}

fn constant(e: &Expr) -> Option<u64> {
    match e.kind {
        ExprKind::Int(v, _) => Some(v),
        _ => None,
    }
}

fn add(a: Expr, b: Expr, span: Span) -> Expr {
    match (constant(&a), constant(&b)) {
        (Some(0), _) => as_i64(b, span),
        (_, Some(0)) => as_i64(a, span),
        (Some(x), Some(y)) if x.checked_add(y).is_some_and(|s| s <= i64::MAX as u64) => {
            int(x + y, span)
        }
        _ => bin(BinaryOp::Add, as_i64(a, span), as_i64(b, span), span),
    }
}

fn times(e: Expr, k: u64, span: Span) -> Expr {
    match constant(&e) {
        Some(v) if v.checked_mul(k).is_some_and(|p| p <= i64::MAX as u64) => int(v * k, span),
        _ if k == 1 => as_i64(e, span),
        _ => bin(BinaryOp::Mul, as_i64(e, span), int(k, span), span),
    }
}

fn neg(e: Expr, span: Span) -> Expr {
    Expr::new(
        ExprKind::Unary(UnaryOp::Neg, Box::new(as_i64(e, span))),
        span,
    )
}

/// True for the types a view may have or look at: integers and 32/64-bit floats.
fn viewable(t: ScalarType) -> bool {
    t.is_int() || matches!(t, ScalarType::F32 | ScalarType::F64)
}

/// `e` (of type `t`) as the unsigned integer of its bits.
fn to_bits(t: ScalarType, e: Expr, span: Span) -> Expr {
    match t {
        ScalarType::F32 => call("__float_as_uint", vec![e], span),
        ScalarType::F64 => scalar_cast(
            ScalarType::U64,
            call("__double_as_longlong", vec![e], span),
            span,
        ),
        t => scalar_cast(unsigned_of(t.size_bytes()).unwrap_or(t), e, span),
    }
}

/// The value of type `t` whose bits are `bits` (an unsigned integer of `t`'s width).
fn from_bits(t: ScalarType, bits: Expr, span: Span) -> Expr {
    match t {
        ScalarType::F32 => call("__uint_as_float", vec![bits], span),
        ScalarType::F64 => call(
            "__longlong_as_double",
            vec![scalar_cast(ScalarType::I64, bits, span)],
            span,
        ),
        t => scalar_cast(t, bits, span),
    }
}

/// `e` of type `from` read as the same bits of type `to` (same width).
fn convert(from: ScalarType, to: ScalarType, e: Expr, span: Span) -> Expr {
    if from == to {
        return e;
    }
    if from.is_int() && to.is_int() {
        return scalar_cast(to, e, span);
    }
    from_bits(to, to_bits(from, e, span), span)
}

const CASTS: &[&str] = &[
    "CStyleCastExpr",
    "CXXReinterpretCastExpr",
    "CXXStaticCastExpr",
    "CXXConstCastExpr",
    "CXXFunctionalCastExpr",
];

/// The scalar a pointer or array type spelling holds (`unsigned char[32]` → `u8`).
fn pointee(spelled: &str) -> Option<(ScalarType, bool)> {
    let (t, _) = types::strip_reference(spelled);
    let mut t = t.trim();
    // Qualifiers of the pointer itself (`float *const __restrict`).
    for _ in 0..3 {
        for q in ["__restrict", "const", "volatile"] {
            t = t.strip_suffix(q).unwrap_or(t).trim_end();
        }
    }
    let elem = match t.matches('[').count() {
        0 => t.strip_suffix('*')?.trim(),
        // One dimension: its elements; a row of a deeper array is not a scalar's memory.
        1 => t[..t.find('[')?].trim(),
        _ => return None,
    };
    let konst = elem.starts_with("const ");
    let mut e = elem;
    for q in ["const ", "volatile "] {
        e = e.strip_prefix(q).unwrap_or(e);
    }
    let e = e.strip_suffix(" const").unwrap_or(e).trim();
    if e.contains('*') || e.contains('[') {
        return None;
    }
    types::scalar(e).ok().flatten().map(|s| (s, konst))
}

/// `*name = value` as a declarator.
fn pointer_to(name: &str, value: Expr, span: Span) -> Declarator {
    Declarator {
        name: name.to_string(),
        name_span: span,
        ptr: true,
        dims: vec![],
        init: Some(Init::Expr(value)),
        span,
    }
}

/// The expression children of `n`.
fn operands(n: &Node) -> Vec<&Node> {
    n.inner.iter().filter(|c| super::expr::is_expr(c)).collect()
}

/// The atomic functions a view may take, by name.
fn atomic_op(name: &str) -> Option<&'static str> {
    Some(match name {
        "atomicAdd" => "add",
        "atomicSub" => "sub",
        "atomicExch" => "exch",
        "atomicMin" => "min",
        "atomicMax" => "max",
        "atomicInc" => "inc",
        "atomicDec" => "dec",
        "atomicCAS" => "cas",
        "atomicAnd" => "and",
        "atomicOr" => "or",
        "atomicXor" => "xor",
        _ => return None,
    })
}

impl Unit<'_> {
    /// The view variable `id` refers to, when it is one.
    fn view_var(&self, id: &str) -> Option<ViewVar> {
        self.views.vars.borrow().get(id).copied()
    }

    /// An error when `id` is a local holding a pointer view used where only its pointee
    /// is read or written (`name` as written).
    pub(super) fn reject_view_var(
        &self,
        id: &str,
        name: &str,
        span: Span,
    ) -> Result<(), FrontError> {
        match self.view_var(id) {
            Some(v) => Err(unsupported(
                span,
                format!(
                    "the pointer `{name}` (a `{} *` view of `{}` memory) used as a value: a \
                     view is read and written through `{name}[i]`, `*{name}` and atomics, \
                     not passed on or compared",
                    v.view.c_name(),
                    v.mem.c_name()
                ),
            )),
            None => Ok(()),
        }
    }

    /// The view `n` (a pointer expression) is, when it is one; nothing is translated when
    /// it is not.
    fn view_ptr(&self, n: &Node, span: Span) -> Result<Option<ViewPtr>, FrontError> {
        let n = strip_implicit(n);
        let span = self.span(n, span);
        match n.kind.as_str() {
            k if CASTS.contains(&k) => self.view_cast(n, span),
            "DeclRefExpr" => {
                let Some((id, _, name)) = n.referenced() else {
                    return Ok(None);
                };
                let Some(v) = self.view_var(id) else {
                    return Ok(None);
                };
                let name = self.var_name(id, name);
                Ok(Some(ViewPtr {
                    view: v.view,
                    mem: v.mem,
                    base: Expr::new(ExprKind::Ident(name), span),
                    at: None,
                    check: None,
                    aligned: false,
                    cast: span,
                }))
            }
            "BinaryOperator" if matches!(n.str("opcode"), Some("+" | "-")) => {
                let [a, b] = operands(n)[..] else {
                    return Ok(None);
                };
                let minus = n.str("opcode") == Some("-");
                let (p, k) = if is_pointer(a) { (a, b) } else { (b, a) };
                if is_pointer(k) {
                    return Ok(None);
                }
                let Some(v) = self.view_ptr(p, span)? else {
                    return Ok(None);
                };
                let k = self.expr(k, span)?;
                let k = if minus { neg(k, span) } else { k };
                Ok(Some(v.advance(k, span)))
            }
            "UnaryOperator" if n.str("opcode") == Some("&") => {
                let Some(inner) = operands(n).first().copied() else {
                    return Ok(None);
                };
                match self.view_access(inner, span)? {
                    Some((v, i)) => Ok(Some(v.advance(i, span))),
                    None => Ok(None),
                }
            }
            "UnaryOperator" | "CompoundAssignOperator" | "BinaryOperator" => {
                self.view_var_step(n, span)
            }
            _ => Ok(None),
        }
    }

    /// `p++`, `--p`, `p += k`, `p = q` on a view variable `p` used as a pointer (`*p++`):
    /// the update, as a pointer to the memory's type.
    fn view_var_step(&self, n: &Node, span: Span) -> Result<Option<ViewPtr>, FrontError> {
        let Some((target, v, _)) = self.updated_view_var(n) else {
            return Ok(None);
        };
        let kind = self.view_var_update(n, span)?;
        Ok(Some(ViewPtr {
            view: v.view,
            mem: v.mem,
            base: Expr::new(kind, span),
            at: None,
            check: None,
            aligned: false,
            cast: self.span(target, span),
        }))
    }

    /// The view variable `n` (`p++`, `p = q`, `p += k`) updates, when it is one.
    fn updated_view_var<'n>(&self, n: &'n Node) -> Option<(&'n Node, ViewVar, String)> {
        let update = match n.kind.as_str() {
            "UnaryOperator" => matches!(n.str("opcode"), Some("++" | "--")),
            "CompoundAssignOperator" => matches!(n.str("opcode"), Some("+=" | "-=")),
            "BinaryOperator" => n.str("opcode") == Some("="),
            _ => false,
        };
        if !update {
            return None;
        }
        let target = strip_implicit(operands(n).first()?);
        let (id, _, name) = target.referenced()?;
        let v = self.view_var(id)?;
        Some((target, v, self.var_name(id, name)))
    }

    /// `p++`, `p += k`, `p = q` on the view variable `p` (a pointer to the memory's type),
    /// stepping by whole views; `None` when `n` is no such update.
    pub(super) fn view_var_update_of(
        &self,
        n: &Node,
        span: Span,
    ) -> Result<Option<ExprKind>, FrontError> {
        if self.updated_view_var(n).is_none() {
            return Ok(None);
        }
        self.view_var_update(n, span).map(Some)
    }

    fn view_var_update(&self, n: &Node, span: Span) -> Result<ExprKind, FrontError> {
        let Some((target, v, name)) = self.updated_view_var(n) else {
            return Err(unsupported(span, "update of a pointer view"));
        };
        let var = Expr::new(ExprKind::Ident(name.clone()), self.span(target, span));
        let narrow = v.view.size_bytes() < v.mem.size_bytes();
        let step = (v.view.size_bytes() / v.mem.size_bytes()).max(1);
        let what = format!(
            "`{name}` (a `{} *` view of `{}` memory)",
            v.view.c_name(),
            v.mem.c_name()
        );
        if narrow {
            return Err(unsupported(
                span,
                format!(
                    "moving {what}: a view narrower than its memory is kept only where it \
                     starts at an element of the memory (index it instead: `{name}[k]`)"
                ),
            ));
        }
        let opcode = n.str("opcode").unwrap_or("");
        match opcode {
            "++" | "--" if step == 1 => Ok(ExprKind::IncDec {
                inc: opcode == "++",
                prefix: !n.flag("isPostfix"),
                target: Box::new(var),
            }),
            "++" | "--" if !n.flag("isPostfix") => {
                let op = if opcode == "++" {
                    BinaryOp::Add
                } else {
                    BinaryOp::Sub
                };
                Ok(ExprKind::Assign(
                    Some(op),
                    Box::new(var),
                    Box::new(int(step, span)),
                ))
            }
            "++" | "--" => Err(unsupported(
                span,
                format!("postfix `{opcode}` on {what} (write `{opcode}{name}`)"),
            )),
            "+=" | "-=" => {
                let k = operands(n)
                    .get(1)
                    .copied()
                    .ok_or_else(|| unsupported(span, "malformed assignment"))?;
                let k = times(self.expr(k, span)?, step, span);
                let op = if opcode == "+=" {
                    BinaryOp::Add
                } else {
                    BinaryOp::Sub
                };
                Ok(ExprKind::Assign(Some(op), Box::new(var), Box::new(k)))
            }
            _ => {
                let from = operands(n)
                    .get(1)
                    .copied()
                    .ok_or_else(|| unsupported(span, "malformed assignment"))?;
                let p = self.view_ptr(from, span)?.ok_or_else(|| {
                    unsupported(
                        span,
                        format!("{what} assigned a pointer that is not a view of that memory"),
                    )
                })?;
                if p.mem != v.mem || p.view != v.view {
                    return Err(unsupported(span, format!("{what} assigned {}", p.what())));
                }
                let value = self.view_address(p, span)?;
                Ok(ExprKind::Assign(None, Box::new(var), Box::new(value)))
            }
        }
    }

    /// `(T *)e` when it makes a view: `e` a pointer to (or an array of) another scalar, or
    /// itself a view (`(float *)((char *)rows + r * pitch)`).
    fn view_cast(&self, n: &Node, span: Span) -> Result<Option<ViewPtr>, FrontError> {
        let Some(to) = n.ty().and_then(pointee).map(|p| p.0) else {
            return Ok(None);
        };
        let Some(inner) = operands(n).first().copied() else {
            return Ok(None);
        };
        let from_ty = strip_implicit(inner).ty().unwrap_or("?");
        let what = format!(
            "pointer cast from `{from_ty}` to `{}`",
            n.ty().unwrap_or("?")
        );
        let v = if self.is_view(inner) {
            match self.view_ptr(inner, span)? {
                Some(v) => v,
                None => return Ok(None),
            }
        } else {
            let Some(mem) = pointee(from_ty)
                .map(|p| p.0)
                .or_else(|| self.record_units(inner))
            else {
                return Ok(None);
            };
            if mem == to {
                return Ok(None);
            }
            if !viewable(mem) {
                return Err(unsupported(
                    span,
                    format!("{what} (views between integers and 32/64-bit floats only)"),
                ));
            }
            let (base, at, aligned) = self.view_root(inner, span)?;
            ViewPtr {
                view: mem,
                mem,
                base,
                at,
                check: None,
                aligned,
                cast: span,
            }
        };
        Self::retarget(v, to, &what, span).map(Some)
    }

    /// `v` read as a pointer to `to`: its offset in the new grains, with the alignment
    /// `to` needs asserted (relative to the memory's elements; for a view wider than the
    /// memory, from the start of an aligned buffer or array).
    fn retarget(v: ViewPtr, to: ScalarType, what: &str, span: Span) -> Result<ViewPtr, FrontError> {
        if !viewable(to) {
            return Err(unsupported(
                span,
                format!("{what} (views between integers and 32/64-bit floats only)"),
            ));
        }
        let (mb, tb) = (v.mem.size_bytes(), to.size_bytes());
        if tb > mb && !v.mem.is_int() {
            return Err(unsupported(
                span,
                format!("{what} (a wider view of float memory)"),
            ));
        }
        let side_effects = || unsupported(span, format!("{what} at an offset with side effects"));
        let multiple = |a: &Expr, r: u64| {
            let rem = bin(BinaryOp::Rem, a.clone(), int(r, span), span);
            bin(BinaryOp::Eq, rem, int(0, span), span)
        };
        let mut checks: Vec<Expr> = v.check.iter().cloned().collect();
        let (g_old, g_new) = (v.grain(), tb.min(mb));
        let at = match v.at.clone() {
            None => None,
            Some(a) if g_new == g_old => Some(a),
            Some(a) if g_new < g_old => Some(times(a, g_old / g_new, span)),
            Some(a) => {
                let r = g_new / g_old;
                match constant(&a) {
                    Some(c) if c % r == 0 => Some(int(c / r, span)),
                    _ if !pure(&a) => return Err(side_effects()),
                    _ => {
                        checks.push(multiple(&a, r));
                        Some(bin(BinaryOp::Div, a, int(r, span), span))
                    }
                }
            }
        };
        if tb > mb {
            let units = tb / mb;
            if !v.aligned {
                return Err(unsupported(
                    span,
                    format!(
                        "{what}: a `{}` read as `{}` must start at a multiple of {tb} bytes, \
                         which is checked only for views of a kernel's buffer or of an array \
                         (here the memory's alignment is unknown)",
                        v.mem.c_name(),
                        to.c_name()
                    ),
                ));
            }
            match &at {
                Some(a) if constant(a).is_some_and(|c| c % units == 0) => {}
                Some(a) if !pure(a) => return Err(side_effects()),
                Some(a) => checks.push(multiple(a, units)),
                None => {}
            }
        }
        let check = checks.into_iter().reduce(|a, b| {
            Expr::new(
                ExprKind::Binary(BinaryOp::And, Box::new(a), Box::new(b)),
                span,
            )
        });
        Ok(ViewPtr {
            view: to,
            at,
            check,
            cast: span,
            ..v
        })
    }

    /// The memory a fresh view looks at: a pointer the lowering knows, an offset from it in
    /// elements of the memory, and whether the pointer is the start of a kernel's buffer or
    /// of an array (so that the offset gives the alignment).
    fn view_root(&self, n: &Node, span: Span) -> Result<(Expr, Option<Expr>, bool), FrontError> {
        let s = strip_implicit(n);
        match s.kind.as_str() {
            "BinaryOperator" if matches!(s.str("opcode"), Some("+" | "-")) => {
                if let [a, b] = operands(s)[..] {
                    let (p, k) = if is_pointer(a) { (a, b) } else { (b, a) };
                    if !is_pointer(k) {
                        let (base, off, aligned) = self.view_root(p, span)?;
                        let mut k = self.expr(k, span)?;
                        if s.str("opcode") == Some("-") {
                            k = neg(k, span);
                        }
                        let off = Some(match off {
                            None => as_i64(k, span),
                            Some(o) => add(o, k, span),
                        });
                        return Ok((base, off, aligned));
                    }
                }
            }
            "UnaryOperator" if s.str("opcode") == Some("&") => {
                if let Some(sub) = operands(s).first().map(|c| strip_implicit(c)) {
                    if sub.kind == "ArraySubscriptExpr" {
                        if let [a, i] = operands(sub)[..] {
                            if is_pointer(a) && self.aligned_root(a) {
                                let base = self.expr(a, span)?;
                                let i = self.expr(i, span)?;
                                return Ok((base, Some(as_i64(i, span)), true));
                            }
                        }
                    }
                }
            }
            "DeclRefExpr" => {
                let aligned = self.aligned_root(s);
                return Ok((self.expr(n, span)?, None, aligned));
            }
            _ => {}
        }
        Ok((self.expr(n, span)?, None, false))
    }

    /// True when `n` names a kernel's pointer parameter or an array (whose first element is
    /// aligned for any scalar).
    fn aligned_root(&self, n: &Node) -> bool {
        let n = strip_implicit(n);
        let Some((id, kind, _)) = n.referenced() else {
            return false;
        };
        let array = n.ty().is_some_and(|t| t.contains('['))
            || n.fields
                .get("referencedDecl")
                .and_then(|d| d.get("type"))
                .and_then(|t| t.get("qualType"))
                .and_then(|t| t.as_str())
                .is_some_and(|t| t.contains('['));
        match kind {
            "VarDecl" => array,
            "ParmVarDecl" => self.functions.iter().any(|f| {
                f.kind == warpsafe_cuda_front::ast::FnKind::Kernel
                    && f.node
                        .inner
                        .iter()
                        .any(|p| p.kind == "ParmVarDecl" && p.id() == id)
            }),
            _ => false,
        }
    }

    /// The element `n` (`p[i]`, `*p`) reads or writes through a view: the view and the
    /// index in view elements.
    fn view_access(&self, n: &Node, span: Span) -> Result<Option<(ViewPtr, Expr)>, FrontError> {
        let n = strip_implicit(n);
        let span = self.span(n, span);
        match n.kind.as_str() {
            "ArraySubscriptExpr" => {
                let [a, b] = operands(n)[..] else {
                    return Ok(None);
                };
                let (p, i) = if is_pointer(a) { (a, b) } else { (b, a) };
                let Some(v) = self.view_ptr(p, span)? else {
                    return Ok(None);
                };
                let i = self.expr(i, span)?;
                Ok(Some((v, i)))
            }
            "UnaryOperator" if n.str("opcode") == Some("*") => {
                let Some(p) = operands(n).first().copied() else {
                    return Ok(None);
                };
                let Some(v) = self.view_ptr(p, span)? else {
                    return Ok(None);
                };
                Ok(Some((v, int(0, span))))
            }
            _ => Ok(None),
        }
    }

    /// The grain index of element `i` of `v`, with the alignment check of a fresh view.
    fn grain_index(v: &ViewPtr, i: Expr, span: Span) -> Expr {
        let k = times(i, v.step(), span);
        match &v.at {
            None => k,
            Some(a) => add(a.clone(), k, span),
        }
    }

    /// `e` after asserting the view's alignment (when it must be checked).
    fn checked(v: &ViewPtr, e: Expr, span: Span) -> Expr {
        match &v.check {
            Some(c) => comma(
                call("__warpsafe_check_aligned", vec![c.clone()], v.cast),
                e,
                span,
            ),
            None => e,
        }
    }

    fn unit(v: &ViewPtr, k: Expr, span: Span) -> Expr {
        Expr::new(ExprKind::Index(Box::new(v.base.clone()), Box::new(k)), span)
    }

    /// The value of element `i` of `v`.
    fn view_read(&self, v: &ViewPtr, i: Expr, span: Span) -> Result<Expr, FrontError> {
        let (tb, mb) = (v.view.size_bytes(), v.mem.size_bytes());
        let k = Self::grain_index(v, i, span);
        let value = if tb == mb {
            convert(v.mem, v.view, Self::unit(v, k, span), span)
        } else if tb > mb {
            if !pure(&k) {
                return Err(unsupported(
                    span,
                    format!(
                        "a read through {} at an index with side effects (its units are \
                         read one by one: compute the index first)",
                        v.what()
                    ),
                ));
            }
            let wide = unsigned_of(tb).unwrap_or(ScalarType::U64);
            let unit_u = unsigned_of(mb).unwrap_or(ScalarType::U8);
            let mut bits: Option<Expr> = None;
            for j in 0..tb / mb {
                let u = Self::unit(v, add(k.clone(), int(j, span), span), span);
                let mut part = scalar_cast(wide, scalar_cast(unit_u, u, span), span);
                if j > 0 {
                    let sh = Expr::new(ExprKind::Int(8 * mb * j, ScalarType::I32), span);
                    part = bin(BinaryOp::Shl, part, sh, span);
                }
                bits = Some(match bits {
                    None => part,
                    Some(b) => bin(BinaryOp::BitOr, b, part, span),
                });
            }
            from_bits(v.view, bits.unwrap_or_else(|| int(0, span)), span)
        } else {
            if !pure(&k) {
                return Err(unsupported(
                    span,
                    format!("a read through {} at an index with side effects", v.what()),
                ));
            }
            let r = mb / tb;
            let word = Self::unit(v, bin(BinaryOp::Div, k.clone(), int(r, span), span), span);
            let within = bin(BinaryOp::Rem, k, int(r, span), span);
            let sh = bin(BinaryOp::Mul, within, int(8 * tb, span), span);
            let bits = bin(BinaryOp::Shr, to_bits(v.mem, word, span), sh, span);
            let narrow = unsigned_of(tb).unwrap_or(ScalarType::U8);
            from_bits(v.view, scalar_cast(narrow, bits, span), span)
        };
        Ok(Self::checked(v, value, span))
    }

    /// `p[i]` or `*p` read through a view, when `n` is one.
    pub(super) fn view_load(&self, n: &Node, span: Span) -> Result<Option<Expr>, FrontError> {
        if !matches!(n.kind.as_str(), "ArraySubscriptExpr" | "UnaryOperator") {
            return Ok(None);
        }
        let Some((v, i)) = self.view_access(n, span)? else {
            return Ok(None);
        };
        self.view_read(&v, i, self.span(n, span)).map(Some)
    }

    /// True when `n` (an operand of `&`) is an element of a view.
    pub(super) fn is_view_element(&self, n: &Node) -> bool {
        let n = strip_implicit(n);
        let p = match n.kind.as_str() {
            "ArraySubscriptExpr" => operands(n).into_iter().find(|c| is_pointer(c)),
            "UnaryOperator" if n.str("opcode") == Some("*") => operands(n).first().copied(),
            _ => None,
        };
        p.is_some_and(|p| self.is_view(p))
    }

    /// The unit type of the records a pointer variable `n` points at, when their leaves
    /// share it (`(char *)v` of `float2 *v`: bytes of float memory). Only a plain variable:
    /// arithmetic on a record pointer counts records, not units.
    fn record_units(&self, n: &Node) -> Option<ScalarType> {
        let n = strip_implicit(n);
        if n.kind != "DeclRefExpr" {
            return None;
        }
        let ty = n.ty()?;
        self.record_pointer(ty, Span::DUMMY).ok()??;
        let pointee = ty.trim_end().strip_suffix('*')?;
        let layout = self.layout_of(pointee, Span::DUMMY).ok()??;
        layout.view.is_none().then_some(layout.scalar)
    }

    /// The view `n` read as a pointer to records of `leaves` units of `unit` each
    /// (`(float2 *)((char *)v + r * pitch)`): the memory's pointer and the first record's
    /// unit offset, asserting that it starts at a whole unit and at a record's first unit;
    /// `None` when `n` is no view of `unit` memory.
    pub(super) fn view_records(
        &self,
        n: &Node,
        unit: ScalarType,
        leaves: u64,
        span: Span,
    ) -> Result<Option<(Expr, Expr)>, FrontError> {
        if !self.is_view(n) {
            return Ok(None);
        }
        let Some(v) = self.view_ptr(n, span)? else {
            return Ok(None);
        };
        if v.mem != unit {
            return Ok(None);
        }
        let what = format!("{} read as records of `{}`", v.what(), unit.c_name());
        let mut v = Self::retarget(v, unit, &what, span)?;
        let at = v.at.clone().unwrap_or_else(|| int(0, span));
        if leaves > 1 && constant(&at).is_none_or(|c| c % leaves != 0) {
            if !pure(&at) {
                return Err(unsupported(
                    span,
                    format!("{what} at an offset with side effects"),
                ));
            }
            let rem = bin(BinaryOp::Rem, at.clone(), int(leaves, span), span);
            let whole = bin(BinaryOp::Eq, rem, int(0, span), span);
            v.check = Some(match v.check.take() {
                Some(c) => bin(BinaryOp::And, c, whole, span),
                None => whole,
            });
        }
        let offset = Self::checked(&v, at, span);
        Ok(Some((v.base, offset)))
    }

    /// True when the pointer expression `n` is a view (structurally; nothing translated).
    pub(super) fn is_view(&self, n: &Node) -> bool {
        let n = strip_implicit(n);
        match n.kind.as_str() {
            k if CASTS.contains(&k) => {
                let to = n.ty().and_then(pointee).map(|p| p.0);
                let inner = operands(n).first().copied();
                match (to, inner) {
                    (Some(to), Some(inner)) => {
                        let from = strip_implicit(inner).ty().unwrap_or("");
                        self.is_view(inner)
                            || pointee(from).is_some_and(|(m, _)| m != to)
                            || self.record_units(inner).is_some_and(|m| m != to)
                    }
                    _ => false,
                }
            }
            "DeclRefExpr" => n
                .referenced()
                .is_some_and(|(id, _, _)| self.view_var(id).is_some()),
            "BinaryOperator" if matches!(n.str("opcode"), Some("+" | "-")) => operands(n)
                .into_iter()
                .any(|c| is_pointer(c) && self.is_view(c)),
            "UnaryOperator" if n.str("opcode") == Some("&") => {
                operands(n).first().is_some_and(|c| self.is_view_element(c))
            }
            "UnaryOperator" | "CompoundAssignOperator" | "BinaryOperator" => {
                self.updated_view_var(n).is_some()
            }
            _ => false,
        }
    }

    /// `p[i] = v`, `p[i] op= v`, `++p[i]` … through a view (`lhs` the element); `None`
    /// when `lhs` is no element of a view. `rhs` is `None` for `++`/`--` (`inc`).
    fn view_store(
        &self,
        op: Option<BinaryOp>,
        lhs: &Node,
        rhs: Expr,
        span: Span,
    ) -> Result<Option<ExprKind>, FrontError> {
        let Some((v, i)) = self.view_access(lhs, span)? else {
            return Ok(None);
        };
        let (tb, mb) = (v.view.size_bytes(), v.mem.size_bytes());
        if tb < mb {
            return Err(unsupported(
                span,
                format!(
                    "a store through {} (it would rewrite the whole `{}` around the `{}`, a \
                     race between threads writing different parts of one element that the \
                     GPU does not have)",
                    v.what(),
                    v.mem.c_name(),
                    v.view.c_name()
                ),
            ));
        }
        let k = Self::grain_index(&v, i.clone(), span);
        let value = match op {
            None => rhs,
            Some(o) => {
                if !pure(&k) {
                    return Err(unsupported(
                        span,
                        format!(
                            "a compound assignment through {} at an index with side effects",
                            v.what()
                        ),
                    ));
                }
                let old = self.view_read(&v, i.clone(), span)?;
                bin(o, old, rhs, span)
            }
        };
        let value = scalar_cast(v.view, value, span);
        if tb == mb {
            let m = Self::unit(&v, k, span);
            let stored = convert(v.view, v.mem, value, span);
            let assign = Expr::new(ExprKind::Assign(None, Box::new(m), Box::new(stored)), span);
            let back = convert(v.mem, v.view, assign, span);
            return Ok(Some(Self::checked(&v, back, span).kind));
        }
        if !pure(&value) || !pure(&k) {
            return Err(unsupported(
                span,
                format!(
                    "a store through {} of a value, or at an index, with side effects (its \
                     units are written one by one: hold the value in a variable first)",
                    v.what()
                ),
            ));
        }
        let bits = to_bits(v.view, value, span);
        let mut seq: Option<Expr> = None;
        for j in 0..tb / mb {
            let m = Self::unit(&v, add(k.clone(), int(j, span), span), span);
            let mut part = bits.clone();
            if j > 0 {
                let sh = Expr::new(ExprKind::Int(8 * mb * j, ScalarType::I32), span);
                part = bin(BinaryOp::Shr, part, sh, span);
            }
            let store = Expr::new(
                ExprKind::Assign(None, Box::new(m), Box::new(scalar_cast(v.mem, part, span))),
                span,
            );
            seq = Some(match seq {
                None => store,
                Some(s) => comma(s, store, span),
            });
        }
        let check = v.check.clone();
        let unchecked = ViewPtr { check: None, ..v };
        let read = self.view_read(&unchecked, i, span)?;
        let all = match seq {
            Some(s) => comma(s, read, span),
            None => read,
        };
        let v = ViewPtr { check, ..unchecked };
        Ok(Some(Self::checked(&v, all, span).kind))
    }
}

/// True for an expression of pointer type (or an array, which decays).
fn is_pointer(n: &Node) -> bool {
    let t = strip_implicit(n).ty().unwrap_or("");
    let decayed = n.ty().unwrap_or("");
    t.contains('*') || t.contains('[') || decayed.contains('*')
}

impl Unit<'_> {
    /// The pointer value of a view, as a pointer to the memory's type (for a view variable).
    fn view_address(&self, v: ViewPtr, span: Span) -> Result<Expr, FrontError> {
        let grain = v.grain();
        let mb = v.mem.size_bytes();
        let at = match &v.at {
            None => None,
            Some(a) if grain == mb => Some(a.clone()),
            Some(a) => match constant(a) {
                Some(c) if c % (mb / grain) == 0 => Some(int(c / (mb / grain), span)),
                _ => {
                    return Err(unsupported(
                        span,
                        format!(
                            "{} held in a variable where it may not start at a whole `{}` \
                             (index it instead)",
                            v.what(),
                            v.mem.c_name()
                        ),
                    ))
                }
            },
        };
        let p = match at {
            None => v.base.clone(),
            Some(a) => address_of(Expr::new(
                ExprKind::Index(Box::new(v.base.clone()), Box::new(a)),
                span,
            )),
        };
        Ok(Self::checked(&v, p, span))
    }

    /// The cast `n` as an ordinary pointer, when it is a view back at its memory's own type
    /// (`(float *)((char *)rows + r * pitch)`): the address of that element, its alignment
    /// asserted; `None` for any other node.
    pub(super) fn view_as_pointer(&self, n: &Node, span: Span) -> Result<Option<Expr>, FrontError> {
        if !self.is_view(n) {
            return Ok(None);
        }
        match self.view_ptr(n, span)? {
            Some(v) if v.view == v.mem => self.view_address(v, span).map(Some),
            _ => Ok(None),
        }
    }

    /// `T *p = <view>;`: `p` is declared a pointer to the memory's type and remembered as a
    /// view; `None` when the initialiser is no view.
    pub(super) fn view_var_decl(
        &self,
        v: &Node,
        name: &str,
        span: Span,
    ) -> Result<Option<(Storage, Type, Declarator)>, FrontError> {
        let Some(pointee) = v.ty().and_then(|t| {
            let plain = !t.contains('[') && !types::strip_reference(t).1;
            plain.then(|| pointee(t)).flatten()
        }) else {
            return Ok(None);
        };
        let Some(init) = v.inner.iter().find(|c| super::expr::is_expr(c)) else {
            return Ok(None);
        };
        let what = format!("`{name}` initialised with");
        Ok(self
            .bind_view(v.id(), pointee, init, &what, span)?
            .map(|(base, value)| (Storage::default(), base, pointer_to(name, value, span))))
    }

    /// A helper's pointer parameter `param` (named `name` in the inlined body) bound to the
    /// argument `arg`: when `arg` is a view (`md5_internal((unsigned int *)(input + k), …)`
    /// of `unsigned char` memory), the parameter is declared a pointer to the memory's type
    /// and becomes a view itself, as `T *p = <view>;` does; `None` when `arg` is no view
    /// (and the parameter is then no view, whatever an earlier inlining bound it to).
    pub(super) fn view_param(
        &self,
        param: &Node,
        arg: &Node,
        name: &str,
        span: Span,
    ) -> Result<Option<Stmt>, FrontError> {
        self.views.vars.borrow_mut().remove(param.id());
        let Some(pointee) = param.ty().and_then(pointee) else {
            return Ok(None);
        };
        let what = format!("the parameter `{name}` bound to");
        let Some((base, value)) = self.bind_view(param.id(), pointee, arg, &what, span)? else {
            return Ok(None);
        };
        let declarators = vec![pointer_to(name, value, span)];
        Ok(Some(Stmt {
            kind: StmtKind::Decl(Decl {
                storage: Storage::default(),
                base,
                declarators,
            }),
            span,
        }))
    }

    /// The variable `id` of pointee type `(view, konst)` bound to the pointer `init`: when
    /// `init` is a view, the variable's base type (the memory's) and initial value (the
    /// address in that memory), the variable remembered as a view unless it is back at the
    /// memory's own type (`(unsigned char *)((char *)img + off)`: an ordinary pointer).
    /// `None` when `init` is no view; `what` begins the message of a mismatch.
    fn bind_view(
        &self,
        id: &str,
        (view, konst): (ScalarType, bool),
        init: &Node,
        what: &str,
        span: Span,
    ) -> Result<Option<(Type, Expr)>, FrontError> {
        if !self.is_view(init) {
            return Ok(None);
        }
        let Some(p) = self.view_ptr(init, span)? else {
            return Ok(None);
        };
        if p.view != view {
            return Err(unsupported(span, format!("{what} {}", p.what())));
        }
        let mem = p.mem;
        let value = self.view_address(p, span)?;
        if view != mem {
            self.views
                .vars
                .borrow_mut()
                .insert(id.to_string(), ViewVar { view, mem });
        }
        let base = Type {
            base: Some(mem),
            ptr: false,
            konst,
            volatile: false,
            span,
        };
        Ok(Some((base, value)))
    }

    /// `lhs = rhs`, `lhs op= rhs` when `lhs` is an element of a view or a view variable
    /// (`n` the assignment).
    pub(super) fn view_assign(&self, n: &Node, span: Span) -> Result<Option<ExprKind>, FrontError> {
        if let Some(k) = self.view_var_update_of(n, span)? {
            return Ok(Some(k));
        }
        let [lhs, rhs] = operands(n)[..] else {
            return Ok(None);
        };
        if !self.is_view_element(lhs) {
            return Ok(None);
        }
        let opcode = n.str("opcode").unwrap_or("=");
        let op = match opcode {
            "=" => None,
            o => Some(
                o.strip_suffix('=')
                    .and_then(super::expr::binary_op)
                    .ok_or_else(|| unsupported(span, format!("operator `{o}`")))?,
            ),
        };
        let rhs = self.expr(rhs, span)?;
        self.view_store(op, lhs, rhs, span)
    }

    /// `++p[i]`, `p[i]--` … through a view, or `p++` on a view variable (`n` the operator).
    pub(super) fn view_incdec(&self, n: &Node, span: Span) -> Result<Option<ExprKind>, FrontError> {
        if let Some(k) = self.view_var_update_of(n, span)? {
            return Ok(Some(k));
        }
        let Some(target) = operands(n).first().copied() else {
            return Ok(None);
        };
        if !self.is_view_element(target) {
            return Ok(None);
        }
        let inc = n.str("opcode") == Some("++");
        let op = if inc { BinaryOp::Add } else { BinaryOp::Sub };
        let Some((v, _)) = self.view_access(target, span)? else {
            return Ok(None);
        };
        let one = if v.view.is_float() {
            Expr::new(ExprKind::Float(1.0, v.view), span)
        } else {
            Expr::new(ExprKind::Int(1, v.view), span)
        };
        let new = self
            .view_store(Some(op), target, one.clone(), span)?
            .ok_or_else(|| unsupported(span, "`++` through a view"))?;
        if !n.flag("isPostfix") {
            return Ok(Some(new));
        }
        let back = if inc { BinaryOp::Sub } else { BinaryOp::Add };
        let old = bin(back, Expr::new(new, span), one, span);
        Ok(Some(scalar_cast(v.view, old, span).kind))
    }

    /// An atomic whose address is a view (`atomicInc((unsigned *)&c[i], n)`), when the
    /// operation is the same on the memory's reading of the bits; `None` when its first
    /// argument is no view.
    pub(super) fn view_atomic(
        &self,
        name: &str,
        n: &Node,
        span: Span,
    ) -> Result<Option<ExprKind>, FrontError> {
        let args: Vec<&Node> = n.inner.iter().skip(1).collect();
        let Some(first) = args.first().copied() else {
            return Ok(None);
        };
        if !self.is_view(first) {
            return Ok(None);
        }
        let Some(v) = self.view_ptr(first, span)? else {
            return Ok(None);
        };
        let (t, m) = (v.view, v.mem);
        let Some(op) = atomic_op(name) else {
            return Err(unsupported(span, format!("`{name}` through {}", v.what())));
        };
        let why = if t.size_bytes() != m.size_bytes() {
            Some("of another width".to_string())
        } else if t.is_int() && m.is_int() {
            match op {
                "inc" | "dec" if m.size_bytes() != 4 => Some(format!(
                    "`{name}` is defined on 32-bit memory only, and this memory is `{}`",
                    m.c_name()
                )),
                "min" | "max" if t.is_signed() != m.is_signed() => Some(format!(
                    "`{name}` orders the bits as `{}`, the memory holds `{}`",
                    t.c_name(),
                    m.c_name()
                )),
                _ => None,
            }
        } else if op == "exch" {
            None
        } else if op == "cas" && t.is_int() {
            // The float compare-and-swap loop: the IR's CAS on float memory compares bits.
            None
        } else {
            Some(format!(
                "`{name}` on the `{}` bits of `{}` memory is not that memory's operation",
                t.c_name(),
                m.c_name()
            ))
        };
        if let Some(why) = why {
            return Err(unsupported(
                span,
                format!("`{name}` through {}: {why}", v.what()),
            ));
        }
        let addr = match &v.at {
            None => v.base.clone(),
            Some(k) => address_of(Self::unit(&v, k.clone(), span)),
        };
        let mut out = vec![Self::checked(&v, addr, span)];
        for a in args.iter().skip(1) {
            let e = self.expr(a, span)?;
            out.push(convert(t, m, scalar_cast(t, e, span), span));
        }
        let c = call(name, out, span);
        Ok(Some(convert(m, t, c, span).kind))
    }
}
