//! How names used inside a kernel turn into recorded values, memories and places: kernel
//! variables, parameters and arrays, and ordinary Rust constants from outside the kernel.

use super::scope::{Mem, Scope, Val, Var};
use warpsafe_ir::{Span, Value};

/// Something that can be read as a value inside a kernel.
pub trait Operand {
    /// The recorded value (an error is recorded for memories, which must be indexed).
    fn val(&self, cx: &mut Scope, span: Span) -> Val;
    /// The memory, if this names a buffer or array.
    fn mem(&self) -> Option<&Mem> {
        None
    }
    /// The variable, if this names an assignable kernel variable.
    fn var(&self) -> Option<&Var> {
        None
    }
}

impl Operand for Val {
    fn val(&self, _: &mut Scope, _: Span) -> Val {
        self.clone()
    }
}

impl Operand for Var {
    fn val(&self, cx: &mut Scope, span: Span) -> Val {
        cx.read(self, span)
    }
    fn var(&self) -> Option<&Var> {
        Some(self)
    }
}

impl Operand for Mem {
    fn val(&self, cx: &mut Scope, span: Span) -> Val {
        cx.error(
            span,
            format!("`{}` is a buffer or array: index it", self.name),
        );
        cx.unit()
    }
    fn mem(&self) -> Option<&Mem> {
        Some(self)
    }
}

impl<T: Operand + ?Sized> Operand for &T {
    fn val(&self, cx: &mut Scope, span: Span) -> Val {
        (**self).val(cx, span)
    }
    fn mem(&self) -> Option<&Mem> {
        (**self).mem()
    }
    fn var(&self) -> Option<&Var> {
        (**self).var()
    }
}

macro_rules! constant_operand {
    ($($t:ty => $v:ident),*) => {$(
        impl Operand for $t {
            fn val(&self, cx: &mut Scope, span: Span) -> Val {
                cx.constant(Value::$v(*self), span)
            }
        }
    )*};
}

constant_operand!(bool => Bool, i32 => I32, u32 => U32, i64 => I64, u64 => U64, f32 => F32, f64 => F64);

/// Reads `x` as a value (generated code calls this for every name used as an operand).
pub fn read<T: Operand + ?Sized>(x: &T, cx: &mut Scope, span: Span) -> Val {
    x.val(cx, span)
}

/// The memory `x` names, or an error and a placeholder.
pub fn mem<'a, T: Operand + ?Sized>(x: &'a T, cx: &mut Scope, span: Span) -> Option<&'a Mem> {
    let m = x.mem();
    if m.is_none() {
        cx.error(
            span,
            "only buffers, shared arrays and local arrays can be indexed",
        );
    }
    m
}

/// The variable `x` names, or an error.
pub fn var<'a, T: Operand + ?Sized>(x: &'a T, cx: &mut Scope, span: Span) -> Option<&'a Var> {
    let v = x.var();
    if v.is_none() {
        cx.error(span, "only `let` variables can be assigned (parameters are read-only; declare them `mut` to get a copy)");
    }
    v
}

/// An argument passed to a `#[kernel_fn]`: a value, or a buffer/array by reference.
#[derive(Clone, Debug)]
pub enum HelperArg {
    /// A scalar value.
    Val(Val),
    /// A buffer or array.
    Mem(Mem),
}

/// Turns a name passed to a `#[kernel_fn]` into an argument.
pub fn helper_arg<T: Operand + ?Sized>(x: &T, cx: &mut Scope, span: Span) -> HelperArg {
    match x.mem() {
        Some(m) => HelperArg::Mem(m.clone()),
        None => HelperArg::Val(x.val(cx, span)),
    }
}

impl HelperArg {
    /// The scalar value (an error for memories).
    pub fn into_val(self, cx: &mut Scope, span: Span) -> Val {
        match self {
            HelperArg::Val(v) => v,
            HelperArg::Mem(m) => m.val(cx, span),
        }
    }

    /// The memory (an error for values).
    pub fn into_mem(self, cx: &mut Scope, span: Span) -> Option<Mem> {
        match self {
            HelperArg::Mem(m) => Some(m),
            HelperArg::Val(_) => {
                cx.error(span, "expected a buffer or array argument");
                None
            }
        }
    }
}

fn placeholder_mem() -> Mem {
    Mem {
        mem: warpsafe_ir::MemRef::Local(warpsafe_ir::ArrayId(u32::MAX)),
        elem: super::infer::Ty::Known(warpsafe_ir::ScalarType::I32),
        dims: 0,
        name: "<error>".into(),
    }
}

/// `x[indices]`.
pub fn load<T: Operand + ?Sized>(x: &T, cx: &mut Scope, indices: Vec<Val>, span: Span) -> Val {
    match mem(x, cx, span) {
        Some(m) => cx.load(m, indices, span),
        None => cx.unit(),
    }
}

/// `x[indices] = value`.
pub fn store<T: Operand + ?Sized>(
    x: &T,
    cx: &mut Scope,
    indices: Vec<Val>,
    value: Val,
    span: Span,
) {
    if let Some(m) = mem(x, cx, span) {
        cx.store(m, indices, value, span);
    }
}

/// `x[indices] op= value`.
pub fn compound_store<T: Operand + ?Sized>(
    op: warpsafe_ir::BinOp,
    x: &T,
    cx: &mut Scope,
    indices: Vec<Val>,
    value: Val,
    span: Span,
) {
    if let Some(m) = mem(x, cx, span) {
        cx.compound_store(op, m, indices, value, span);
    }
}

/// `x = value`.
pub fn assign<T: Operand + ?Sized>(x: &T, cx: &mut Scope, value: Val, span: Span) {
    if let Some(v) = var(x, cx, span) {
        cx.assign(v, value, span);
    }
}

/// `x op= value`.
pub fn compound_assign<T: Operand + ?Sized>(
    op: warpsafe_ir::BinOp,
    x: &T,
    cx: &mut Scope,
    value: Val,
    span: Span,
) {
    if let Some(v) = var(x, cx, span) {
        cx.compound_assign(op, v, value, span);
    }
}

/// `atomic_*(&mut x[indices], value[, compare])`.
#[allow(clippy::too_many_arguments)]
pub fn atomic<T: Operand + ?Sized>(
    op: warpsafe_ir::AtomicOp,
    x: &T,
    cx: &mut Scope,
    indices: Vec<Val>,
    value: Val,
    compare: Option<Val>,
    want_old: bool,
    span: Span,
) -> Val {
    match mem(x, cx, span) {
        Some(m) => cx.atomic(op, m, indices, value, compare, want_old, span),
        None => cx.unit(),
    }
}

/// `x.len()`.
pub fn len<T: Operand + ?Sized>(x: &T, cx: &mut Scope, span: Span) -> Val {
    match mem(x, cx, span) {
        Some(m) => cx.len(m, span),
        None => cx.unit(),
    }
}

/// Binds a buffer/array argument of a `#[kernel_fn]` to its `&[elem]` / `&mut [elem]` parameter.
pub fn helper_mem(
    arg: HelperArg,
    cx: &mut Scope,
    elem: warpsafe_ir::ScalarType,
    writable: bool,
    span: Span,
) -> Mem {
    match arg.into_mem(cx, span) {
        Some(m) => cx.arg_mem(&m, elem, writable, span),
        None => placeholder_mem(),
    }
}
