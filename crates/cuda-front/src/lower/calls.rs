//! Calls: barriers, warp shuffles, atomics, math intrinsics, GPUVerify annotations and
//! `__device__` helpers (inlined, see `inline.rs`).

use super::{Lowerer, PtrVal, Val};
use crate::ast;
use crate::error::{err, Result};
use crate::types::{common, convert, promoted, to_bool};
use std::collections::HashSet;
use warpsafe_ir::{
    AtomicOp, BinOp, BlockVoteKind, Check, Expr, ExprKind as IK, LogicOp, MathFn, MemRef,
    ScalarType, ShuffleKind, Span, Stmt, StmtKind, UnOp, UncheckedAnnotation, VoteKind,
};

/// CUDA's bit reinterpretations: the parameter type and the result type (same width).
fn bits_fn(name: &str) -> Option<(ScalarType, ScalarType)> {
    use ScalarType::*;
    Some(match name {
        "__float_as_int" => (F32, I32),
        "__float_as_uint" => (F32, U32),
        "__int_as_float" => (I32, F32),
        "__uint_as_float" => (U32, F32),
        "__double_as_longlong" => (F64, I64),
        "__longlong_as_double" => (I64, F64),
        "__half_as_short" => (F16, I16),
        "__half_as_ushort" => (F16, U16),
        "__short_as_half" => (I16, F16),
        "__ushort_as_half" => (U16, F16),
        _ => return None,
    })
}

fn math_fn(name: &str) -> Option<(MathFn, ScalarType)> {
    use MathFn::*;
    use ScalarType::{F16, F32, F64};
    Some(match name {
        "expf" => (Exp, F32),
        "exp" => (Exp, F64),
        "__expf" => (FastExp, F32),
        "exp2f" => (Exp2, F32),
        "exp2" => (Exp2, F64),
        "logf" | "__logf" => (Log, F32),
        "log" => (Log, F64),
        "log2f" | "__log2f" => (Log2, F32),
        "log2" => (Log2, F64),
        "log10f" => (Log10, F32),
        "log10" => (Log10, F64),
        "sqrtf" => (Sqrt, F32),
        "sqrt" => (Sqrt, F64),
        "rsqrtf" => (Rsqrt, F32),
        "rsqrt" => (Rsqrt, F64),
        "powf" | "__powf" => (Pow, F32),
        "pow" => (Pow, F64),
        "fmaf" | "__fmaf_rn" => (Fma, F32),
        "fma" => (Fma, F64),
        "sinf" | "__sinf" => (Sin, F32),
        "sin" => (Sin, F64),
        "cosf" | "__cosf" => (Cos, F32),
        "cos" => (Cos, F64),
        "tanf" => (Tan, F32),
        "tan" => (Tan, F64),
        "tanhf" => (Tanh, F32),
        "tanh" => (Tanh, F64),
        "floorf" => (Floor, F32),
        "floor" => (Floor, F64),
        "ceilf" => (Ceil, F32),
        "ceil" => (Ceil, F64),
        "roundf" => (Round, F32),
        "round" => (Round, F64),
        "truncf" => (Trunc, F32),
        "trunc" => (Trunc, F64),
        "fabsf" => (Abs, F32),
        "fabs" => (Abs, F64),
        "atanf" => (Atan, F32),
        "atan" => (Atan, F64),
        "asinf" => (Asin, F32),
        "asin" => (Asin, F64),
        "acosf" => (Acos, F32),
        "acos" => (Acos, F64),
        "sinhf" => (Sinh, F32),
        "sinh" => (Sinh, F64),
        "coshf" => (Cosh, F32),
        "cosh" => (Cosh, F64),
        "asinhf" => (Asinh, F32),
        "asinh" => (Asinh, F64),
        "acoshf" => (Acosh, F32),
        "acosh" => (Acosh, F64),
        "atanhf" => (Atanh, F32),
        "atanh" => (Atanh, F64),
        "cbrtf" => (Cbrt, F32),
        "cbrt" => (Cbrt, F64),
        "expm1f" => (Expm1, F32),
        "expm1" => (Expm1, F64),
        "log1pf" => (Log1p, F32),
        "log1p" => (Log1p, F64),
        "exp10f" => (Exp10, F32),
        "exp10" => (Exp10, F64),
        "rintf" | "nearbyintf" => (Rint, F32),
        "rint" | "nearbyint" => (Rint, F64),
        "erff" => (Erf, F32),
        "erf" => (Erf, F64),
        "erfcf" => (Erfc, F32),
        "erfc" => (Erfc, F64),
        "lgammaf" => (Lgamma, F32),
        "lgamma" => (Lgamma, F64),
        "tgammaf" => (Tgamma, F32),
        "tgamma" => (Tgamma, F64),
        "sinpif" => (SinPi, F32),
        "sinpi" => (SinPi, F64),
        "cospif" => (CosPi, F32),
        "cospi" => (CosPi, F64),
        "atan2f" => (Atan2, F32),
        "atan2" => (Atan2, F64),
        "fmodf" => (Fmod, F32),
        "fmod" => (Fmod, F64),
        "remainderf" => (Remainder, F32),
        "remainder" => (Remainder, F64),
        "hypotf" => (Hypot, F32),
        "hypot" => (Hypot, F64),
        "copysignf" => (Copysign, F32),
        "copysign" => (Copysign, F64),
        "fdimf" => (Fdim, F32),
        "fdim" => (Fdim, F64),
        // The exponent is an `int`; it converts to the call's float type exactly
        // (|n| < 2^24, and beyond that every result has overflowed or underflowed).
        "ldexpf" | "scalbnf" | "scalblnf" => (Ldexp, F32),
        "ldexp" | "scalbn" | "scalbln" => (Ldexp, F64),
        // cuda_fp16.h's half math, computed in half (see `exec`'s rounding).
        "__habs" => (Abs, F16),
        "__hfma" => (Fma, F16),
        "hsqrt" => (Sqrt, F16),
        "hexp" => (Exp, F16),
        "hexp2" => (Exp2, F16),
        "hlog" => (Log, F16),
        "hlog2" => (Log2, F16),
        "hlog10" => (Log10, F16),
        "hsin" => (Sin, F16),
        "hcos" => (Cos, F16),
        "hfloor" => (Floor, F16),
        "hceil" => (Ceil, F16),
        "htrunc" => (Trunc, F16),
        "hrint" => (Rint, F16),
        _ => return None,
    })
}

/// `isnan`, `isinf`, `isfinite` and `signbit` of `x` as a `bool`, from comparisons and the
/// sign bit (exact in IEEE; an integer argument is a `double`, as C++'s overloads make it).
fn float_class(name: &str, x: Expr) -> Expr {
    let ty = match x.ty {
        ScalarType::F32 | ScalarType::F64 => x.ty,
        ScalarType::F16 => ScalarType::F32,
        _ => ScalarType::F64,
    };
    let x = convert(x, ty);
    let inf = match ty {
        ScalarType::F32 => Expr::f32(f32::INFINITY),
        _ => Expr::constant(warpsafe_ir::Value::F64(f64::INFINITY)),
    };
    let abs = || Expr::call(MathFn::Abs, vec![x.clone()]);
    match name {
        "isnan" => Expr::binary(BinOp::Ne, x.clone(), x),
        "isinf" => Expr::binary(BinOp::Eq, abs(), inf),
        "isfinite" => Expr::binary(BinOp::Lt, abs(), inf),
        _ => {
            let int = if ty == ScalarType::F32 {
                ScalarType::I32
            } else {
                ScalarType::I64
            };
            let zero = Expr::constant(warpsafe_ir::Value::from_f64(int, 0.0));
            Expr::binary(BinOp::Lt, x.bits_as(int), zero)
        }
    }
}

/// cuda_fp16.h's conversions, as (parameter type, result type): the argument converts to the
/// parameter type as C++ would, then to the result with IR cast semantics (round to nearest
/// even into half, truncation toward zero into integers).
fn half_conversion(name: &str) -> Option<(ScalarType, ScalarType)> {
    use ScalarType::*;
    Some(match name {
        "__float2half" | "__float2half_rn" => (F32, F16),
        "__double2half" => (F64, F16),
        "__half2float" => (F16, F32),
        "__int2half_rn" => (I32, F16),
        "__uint2half_rn" => (U32, F16),
        "__short2half_rn" => (I16, F16),
        "__ushort2half_rn" => (U16, F16),
        "__ll2half_rn" => (I64, F16),
        "__ull2half_rn" => (U64, F16),
        "__half2int_rz" => (F16, I32),
        "__half2uint_rz" => (F16, U32),
        "__half2short_rz" => (F16, I16),
        "__half2ushort_rz" => (F16, U16),
        "__half2ll_rz" => (F16, I64),
        "__half2ull_rz" => (F16, U64),
        _ => return None,
    })
}

/// cuda_fp16.h's two-operand half arithmetic and ordered comparisons.
fn half_binary(name: &str) -> Option<BinOp> {
    Some(match name {
        "__hadd" => BinOp::Add,
        "__hsub" => BinOp::Sub,
        "__hmul" => BinOp::Mul,
        "__hdiv" => BinOp::Div,
        "__hmax" => BinOp::Max,
        "__hmin" => BinOp::Min,
        "__heq" => BinOp::Eq,
        "__hlt" => BinOp::Lt,
        "__hle" => BinOp::Le,
        "__hgt" => BinOp::Gt,
        "__hge" => BinOp::Ge,
        _ => return None,
    })
}

fn atomic_op(name: &str) -> Option<AtomicOp> {
    Some(match name {
        "atomicAdd" => AtomicOp::Add,
        "atomicSub" => AtomicOp::Sub,
        "atomicMax" => AtomicOp::Max,
        "atomicMin" => AtomicOp::Min,
        "atomicExch" => AtomicOp::Exch,
        "atomicCAS" => AtomicOp::Cas,
        "atomicAnd" => AtomicOp::And,
        "atomicOr" => AtomicOp::Or,
        "atomicXor" => AtomicOp::Xor,
        "atomicInc" => AtomicOp::Inc,
        "atomicDec" => AtomicOp::Dec,
        _ => return None,
    })
}

/// A warp match or reduction (`__match_any_sync`, `__reduce_add_sync`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Collective {
    MatchAny,
    MatchAll,
    Reduce(BinOp),
}

fn warp_collective(name: &str) -> Option<Collective> {
    Some(match name {
        "__match_any_sync" => Collective::MatchAny,
        "__match_all_sync" => Collective::MatchAll,
        "__reduce_add_sync" => Collective::Reduce(BinOp::Add),
        "__reduce_min_sync" => Collective::Reduce(BinOp::Min),
        "__reduce_max_sync" => Collective::Reduce(BinOp::Max),
        "__reduce_and_sync" => Collective::Reduce(BinOp::BitAnd),
        "__reduce_or_sync" => Collective::Reduce(BinOp::BitOr),
        "__reduce_xor_sync" => Collective::Reduce(BinOp::BitXor),
        _ => return None,
    })
}

/// The value a reduction starts from (`x op identity == x`).
fn reduce_identity(op: BinOp, ty: ScalarType) -> Expr {
    let signed = ty == ScalarType::I32;
    match (op, signed) {
        (BinOp::Min, true) => Expr::i32(i32::MAX),
        (BinOp::Min, false) | (BinOp::BitAnd, _) => Expr::u32(u32::MAX),
        (BinOp::Max, true) => Expr::i32(i32::MIN),
        (_, true) => Expr::i32(0),
        _ => Expr::u32(0),
    }
}

fn shuffle_kind(name: &str) -> Option<ShuffleKind> {
    Some(match name {
        "__shfl_sync" => ShuffleKind::Idx,
        "__shfl_up_sync" => ShuffleKind::Up,
        "__shfl_down_sync" => ShuffleKind::Down,
        "__shfl_xor_sync" => ShuffleKind::Xor,
        _ => return None,
    })
}

/// The `_sync` function (over the full warp) a pre-CUDA-9 warp function without a mask
/// stands for (`__shfl_up`,
/// `__any`; `any`/`all`, as old SDK samples declare them without a body).
fn legacy_warp_call(name: &str) -> Option<&'static str> {
    Some(match name {
        "__shfl" => "__shfl_sync",
        "__shfl_up" => "__shfl_up_sync",
        "__shfl_down" => "__shfl_down_sync",
        "__shfl_xor" => "__shfl_xor_sync",
        "__any" | "any" => "__any_sync",
        "__all" | "all" => "__all_sync",
        "__ballot" => "__ballot_sync",
        _ => return None,
    })
}

/// The type of the value of a call that yields an arbitrary value: the cycle counters
/// (`clock()` is a `long` on our targets, `clock64()` a `long long`) and the headers' way to
/// ask for one (`__warpsafe_arbitrary_u32()`, …, written by clang-front for a call of a
/// function without a body and by our `<curand_kernel.h>`).
fn arbitrary_builtin(name: &str) -> Option<ScalarType> {
    Some(match name {
        "clock" | "clock64" => ScalarType::I64,
        _ => ScalarType::from_name(name.strip_prefix("__warpsafe_arbitrary_")?)?,
    })
}

/// GPUVerify builtins of the annotation language that have no translation: the annotation
/// using one is reported unchecked rather than dropped or rejected.
const GPUVERIFY_UNSUPPORTED: &[&str] = &[
    "__read",
    "__write",
    "__atomic",
    "__no_read",
    "__no_write",
    "__read_offset",
    "__write_offset",
    "__ptr_base",
    "__ptr_offset",
    "__other_int",
    "__other_bool",
    "__uniform_int",
    "__uniform_bool",
    "__distinct_int",
    "__distinct_bool",
    "__all",
    "__exclusive",
    "__at_most_one",
    "__same_group",
    "__dominator_enabled",
    "__return_val_int",
    "__return_val_bool",
    "__old_int",
    "__old_bool",
    "__array_snapshot",
    "__read_implies",
    "__write_implies",
    "__read_offset_bytes",
    "__write_offset_bytes",
    "__ptr_offset_bytes",
    "__atomic_has_taken_value",
    "__return_val_ptr",
];

/// GPUVerify's names for a helper's result in its postconditions.
const RETURN_VALUES: &[&str] = &["__return_val_int", "__return_val_bool", "__return_val_ptr"];

/// The first unsupported annotation builtin `e` calls, as `` `name` ``; `__no_read(p)` and
/// `__no_write(p)` of a parameter in `untouched` are supported (no access through it yet).
/// With `returns`, a helper's result (`__return_val_int()`, `_bool`, `_ptr`) is supported.
fn untranslatable(e: &ast::Expr, untouched: &HashSet<String>, returns: bool) -> Option<String> {
    let mut found = None;
    ast::visit_subexprs(e, &mut |x| {
        let ast::ExprKind::Call(name, _, args) = &x.kind else {
            return;
        };
        if found.is_none()
            && (GPUVERIFY_UNSUPPORTED.contains(&name.as_str()) || name.starts_with("__return_val"))
            && untouched_param(name, args, untouched).is_none()
            && !(returns && RETURN_VALUES.contains(&name.as_str()))
        {
            found = Some(format!("`{name}`"));
        }
    });
    found
}

/// `p` for `__no_read(p)` or `__no_write(p)` of a parameter in `untouched`.
fn untouched_param<'e>(
    name: &str,
    args: &'e [ast::Expr],
    untouched: &HashSet<String>,
) -> Option<&'e str> {
    match (name, args) {
        (
            "__no_read" | "__no_write",
            [ast::Expr {
                kind: ast::ExprKind::Ident(p),
                ..
            }],
        ) if untouched.contains(p) => Some(p),
        _ => None,
    }
}

fn arity(
    name: &str,
    args: &[ast::Expr],
    want: std::ops::RangeInclusive<usize>,
    span: Span,
) -> Result<()> {
    if !want.contains(&args.len()) {
        let n = if want.start() == want.end() {
            want.start().to_string()
        } else {
            format!("{} to {}", want.start(), want.end())
        };
        return err(
            span,
            format!("`{name}` takes {n} argument(s), {} given", args.len()),
        );
    }
    Ok(())
}

impl Lowerer<'_> {
    /// Lowers a call; `want` says whether its value is used.
    pub(crate) fn call(
        &mut self,
        name: &str,
        name_span: Span,
        args: &[ast::Expr],
        span: Span,
        want: bool,
        out: &mut Vec<Stmt>,
    ) -> Result<Val> {
        if let Some(f) = self.helpers.get(name).copied() {
            if self.header {
                return err(name_span, "helpers cannot be called in the header");
            }
            return self.inline_call(f, args, span, want, out);
        }
        if let Some(modern) = legacy_warp_call(name) {
            // Pre-CUDA-9 warp functions: the `_sync` form over the whole warp, as the CUDA 9
            // migration writes them (`0xffffffff`); called with lanes of the warp inactive,
            // that is a finding (since Volta the legacy form is undefined there).
            let mask = ast::Expr {
                kind: ast::ExprKind::Int(u32::MAX as u64, ScalarType::U32),
                span: name_span,
            };
            let with_mask: Vec<ast::Expr> =
                std::iter::once(mask).chain(args.iter().cloned()).collect();
            return self.call(modern, name_span, &with_mask, span, want, out);
        }
        if self.header && name != "len" && math_fn(name).is_none() && !matches!(name, "min" | "max")
        {
            return err(name_span, format!("`{name}` cannot be used in the header"));
        }
        let push = |out: &mut Vec<Stmt>, kind| out.push(Stmt::new(kind).with_span(span));
        match name {
            "len" if self.header => {
                arity(name, args, 1..=1, span)?;
                return match self.expr(&args[0], out)? {
                    Val::Ptr(PtrVal {
                        mem: MemRef::Global(id),
                        off: None,
                        ..
                    }) => Ok(Val::Scalar(
                        Expr::new(IK::BufferLen(id), ScalarType::U64).with_span(span),
                    )),
                    _ => err(args[0].span, "`len` takes a buffer parameter"),
                };
            }
            // The length of a texture's buffer, which an out-of-range `tex1Dfetch` tests
            // when no `//@ extent` gives it (written by the clang frontend's textures).
            "__warpsafe_buffer_len" => {
                arity(name, args, 1..=1, span)?;
                return match self.expr(&args[0], out)? {
                    Val::Ptr(PtrVal {
                        mem: MemRef::Global(id),
                        off: None,
                        ..
                    }) => Ok(Val::Scalar(
                        Expr::new(IK::BufferLen(id), ScalarType::U64).with_span(span),
                    )),
                    _ => err(
                        args[0].span,
                        "a texture must be a whole buffer parameter (not an offset into one)",
                    ),
                };
            }
            // GPUVerify's freshness of a buffer (it aliases no other) and the access sets of a
            // helper: buffers never alias here, and helpers are inlined, so these say nothing
            // more (the arguments are evaluated for their effects).
            "__requires_fresh_array" | "__reads_from" | "__writes_to" => {
                arity(name, args, 1..=1, span)?;
                self.expr(&args[0], out)?;
                return Ok(Val::Void);
            }
            "__syncthreads" => {
                arity(name, args, 0..=0, span)?;
                push(out, StmtKind::SyncThreads);
                return Ok(Val::Void);
            }
            // `this_grid().sync()` (written by the clang frontend's cooperative groups).
            "__warpsafe_grid_sync" => {
                arity(name, args, 0..=0, span)?;
                push(out, StmtKind::SyncGrid);
                return Ok(Val::Void);
            }
            // Checks the clang frontend states about memory: a reinterpreting view's
            // alignment, a pointer a library call dereferences is not null, an index into an
            // array of pointers it lays out as parameters. A failure is an out-of-bounds
            // finding.
            "__warpsafe_check_aligned" | "__warpsafe_check_nonnull" | "__warpsafe_check_index" => {
                arity(name, args, 1..=1, span)?;
                let c = self.cond(&args[0], out)?;
                let check = match name {
                    "__warpsafe_check_aligned" => Check::Aligned,
                    "__warpsafe_check_nonnull" => Check::NonNull,
                    _ => Check::Index,
                };
                push(out, StmtKind::Assert(c, check));
                return Ok(Val::Void);
            }
            "__syncwarp" => {
                arity(name, args, 0..=1, span)?;
                let mask = match args.first() {
                    Some(a) => convert(self.rvalue(a, out)?, ScalarType::U32),
                    None => Expr::u32(u32::MAX).with_span(span),
                };
                push(out, StmtKind::SyncWarp { mask });
                return Ok(Val::Void);
            }
            "__requires" | "__assume" | "__axiom" | "__assert" | "assert" | "__invariant"
            | "__global_invariant" | "__ensures" => {
                arity(name, args, 1..=1, span)?;
                let in_helper = self.inline_stack.len() > 1;
                // `__all(e)`, the whole annotation: `e` in every thread that executes it,
                // which is what the annotation of `e` checks (or assumes) already.
                let whole = match &args[0].kind {
                    ast::ExprKind::Call(all, _, inner) if all == "__all" && inner.len() == 1 => {
                        &inner[0]
                    }
                    _ => &args[0],
                };
                let post = name == "__ensures" && in_helper;
                if let Some(what) = untranslatable(whole, &self.untouched, post) {
                    // Loop invariants are GPUVerify's proof hints and a kernel's
                    // preconditions only narrow what is checked: leaving one out loses no
                    // finding. Assertions, postconditions and a helper's preconditions (its
                    // callers' obligations) are claims: unchecked, they leave `assert` unknown.
                    let hint = matches!(name, "__invariant" | "__global_invariant")
                        || (matches!(name, "__requires" | "__assume" | "__axiom") && !in_helper);
                    self.k.contract.unchecked.push(UncheckedAnnotation {
                        what: format!("`{name}` uses {what}, which is not supported"),
                        span,
                        hint,
                    });
                    return Ok(Val::Void);
                }
                if post {
                    // Checked where the inlined helper ends (`inline_call`), over the values
                    // there: a name the helper assigns could mean its value at entry.
                    let mut named = HashSet::new();
                    ast::visit_subexprs(whole, &mut |x| {
                        if let ast::ExprKind::Ident(n) = &x.kind {
                            named.insert(n.clone());
                        }
                    });
                    if let Some(n) = named.iter().find(|n| self.assigned.contains(*n)) {
                        self.k.contract.unchecked.push(UncheckedAnnotation {
                            what: format!(
                                "`__ensures` of a helper names `{n}`, which the helper assigns \
                                 (its value at entry is not kept)"
                            ),
                            span,
                            hint: false,
                        });
                    } else {
                        self.helper_post.push((whole.clone(), span));
                    }
                    return Ok(Val::Void);
                }
                let c = self.cond(whole, out)?;
                match name {
                    // Preconditions and axioms constrain every thread of the launch.
                    // A helper's precondition is its caller's obligation: checked where the
                    // helper is inlined, never assumed (that could hide the caller's bug).
                    "__requires" if in_helper => push(out, StmtKind::Assert(c, Check::User)),
                    "__requires" | "__assume" | "__axiom" => push(out, StmtKind::Assume(c)),
                    // A postcondition holds wherever the kernel ends (see `ensure_at_exits`).
                    "__ensures" => self
                        .ensures
                        .push(Stmt::new(StmtKind::Assert(c, Check::User)).with_span(span)),
                    // Loop invariants sit in the loop condition (`for (…; __invariant(c), i < n;
                    // …)`), so they are checked at every evaluation of the loop head.
                    _ => push(out, StmtKind::Assert(c, Check::User)),
                }
                return Ok(Val::Void);
            }
            // GPUVerify's "this thread has not read (written) `p` since the last barrier":
            // true before any statement names `p` (`untranslatable` lets no other use by).
            "__no_read" | "__no_write" => {
                return match untouched_param(name, args, &self.untouched) {
                    Some(_) => Ok(Val::Scalar(Expr::bool(true).with_span(span))),
                    None => err(span, format!("`{name}` here is not supported")),
                };
            }
            "__return_val_int" | "__return_val_bool" | "__return_val_ptr" => {
                arity(name, args, 0..=0, span)?;
                return match &self.return_val {
                    Some(v) => Ok(v.clone()),
                    None => err(span, format!("`{name}` outside a helper's `__ensures`")),
                };
            }
            "__enabled" => {
                // GPUVerify's "this thread is not masked off by a branch it did not take": a
                // thread evaluating an annotation is executing it, so it holds there.
                arity(name, args, 0..=0, span)?;
                return Ok(Val::Scalar(Expr::bool(true).with_span(span)));
            }
            "__implies" => {
                arity(name, args, 2..=2, span)?;
                let a = self.cond(&args[0], out)?;
                let b = self.cond(&args[1], out)?;
                let na = Expr::unary(UnOp::Not, a);
                return Ok(Val::Scalar(
                    Expr::logical(LogicOp::Or, na, b).with_span(span),
                ));
            }
            "__ldg" => {
                arity(name, args, 1..=1, span)?;
                let Val::Ptr(p) = self.expr(&args[0], out)? else {
                    return err(args[0].span, "`__ldg` takes a pointer");
                };
                let idx = p.indices(span)?;
                return Ok(Val::Scalar(Expr::load(p.mem, idx, p.elem).with_span(span)));
            }
            "min" | "max" | "fminf" | "fmaxf" | "fmin" | "fmax" => {
                arity(name, args, 2..=2, span)?;
                let a = self.rvalue(&args[0], out)?;
                let b = self.rvalue(&args[1], out)?;
                let t = match name {
                    "fminf" | "fmaxf" => ScalarType::F32,
                    "fmin" | "fmax" => ScalarType::F64,
                    _ => common(a.ty, b.ty),
                };
                let op = if name.contains("min") {
                    BinOp::Min
                } else {
                    BinOp::Max
                };
                let e = Expr::binary(op, convert(a, t), convert(b, t));
                return Ok(Val::Scalar(e.with_span(span)));
            }
            "abs" | "llabs" | "labs" => {
                arity(name, args, 1..=1, span)?;
                let a = self.rvalue(&args[0], out)?;
                let a = promoted(a);
                return Ok(Val::Scalar(
                    Expr::call(MathFn::Abs, vec![a]).with_span(span),
                ));
            }
            _ => {}
        }
        if let Some((param, result)) = half_conversion(name) {
            arity(name, args, 1..=1, span)?;
            let x = self.rvalue(&args[0], out)?;
            if !x.ty.is_numeric() && x.ty != ScalarType::Bool {
                return err(args[0].span, format!("`{name}` takes a number"));
            }
            let e = convert(convert(x, param), result);
            return Ok(Val::Scalar(e.with_span(span)));
        }
        if let Some(op) = half_binary(name) {
            arity(name, args, 2..=2, span)?;
            let a = convert(self.rvalue(&args[0], out)?, ScalarType::F16);
            let b = convert(self.rvalue(&args[1], out)?, ScalarType::F16);
            return Ok(Val::Scalar(Expr::binary(op, a, b).with_span(span)));
        }
        if matches!(name, "__hneg" | "__hne") {
            let n = if name == "__hneg" { 1 } else { 2 };
            arity(name, args, n..=n, span)?;
            let a = convert(self.rvalue(&args[0], out)?, ScalarType::F16);
            if n == 1 {
                return Ok(Val::Scalar(Expr::unary(UnOp::Neg, a).with_span(span)));
            }
            // `__hne` is ordered: false when either operand is NaN, unlike C's `!=`.
            let b = convert(self.rvalue(&args[1], out)?, ScalarType::F16);
            let lt = Expr::binary(BinOp::Lt, a.clone(), b.clone()).with_span(span);
            let gt = Expr::binary(BinOp::Gt, a, b).with_span(span);
            return Ok(Val::Scalar(
                Expr::logical(LogicOp::Or, lt, gt).with_span(span),
            ));
        }
        if let Some((from, to)) = bits_fn(name) {
            arity(name, args, 1..=1, span)?;
            let x = self.rvalue(&args[0], out)?;
            if !x.ty.is_numeric() && x.ty != ScalarType::Bool {
                return err(args[0].span, "a bit reinterpretation takes a number");
            }
            // The argument converts to the parameter's type as in any call; then its bits.
            let x = convert(x, from);
            return Ok(Val::Scalar(x.bits_as(to).with_span(span)));
        }
        // CUDA's `__exp10f(x)` is the fast `exp2` of `x · log2 10`.
        if name == "__exp10f" {
            arity(name, args, 1..=1, span)?;
            let x = self.rvalue(&args[0], out)?;
            if !x.ty.is_numeric() {
                return err(args[0].span, "a math function argument must be a number");
            }
            let scaled = Expr::binary(
                BinOp::Mul,
                convert(x, ScalarType::F32),
                Expr::f32(std::f32::consts::LOG2_10),
            );
            let e = Expr::call(MathFn::Exp2, vec![scaled]);
            return Ok(Val::Scalar(e.with_span(span)));
        }
        if matches!(name, "isnan" | "isinf" | "isfinite" | "signbit") {
            arity(name, args, 1..=1, span)?;
            let x = self.rvalue(&args[0], out)?;
            if !x.ty.is_numeric() && x.ty != ScalarType::Bool {
                return err(args[0].span, format!("`{name}` takes a number"));
            }
            return Ok(Val::Scalar(float_class(name, x).with_span(span)));
        }
        if let Some((f, ty)) = math_fn(name) {
            arity(name, args, f.arity()..=f.arity(), span)?;
            let mut xs = Vec::with_capacity(args.len());
            for (i, a) in args.iter().enumerate() {
                let mut x = self.rvalue(a, out)?;
                if !x.ty.is_numeric() && x.ty != ScalarType::Bool {
                    return err(a.span, "a math function argument must be a number");
                }
                if f == MathFn::Ldexp && i == 1 && !x.ty.is_int() {
                    // C converts the exponent to `int` (or `long`) first: a float truncates.
                    x = convert(x, ScalarType::I64);
                }
                xs.push(convert(x, ty));
            }
            return Ok(Val::Scalar(Expr::new(IK::Call(f, xs), ty).with_span(span)));
        }
        if let Some(kind) = shuffle_kind(name) {
            return self.shuffle(kind, name, args, span, out);
        }
        let vote = match name {
            "__ballot_sync" => Some(VoteKind::Ballot),
            "__any_sync" => Some(VoteKind::Any),
            "__all_sync" => Some(VoteKind::All),
            _ => None,
        };
        if let Some(kind) = vote {
            arity(name, args, 2..=2, span)?;
            let mask = convert(self.rvalue(&args[0], out)?, ScalarType::U32);
            let pred = self.cond(&args[1], out)?;
            let dst = self.result_var("vote", kind.result_ty(), span, out)?;
            let stmt = StmtKind::Vote {
                dst,
                kind,
                mask,
                pred,
            };
            out.push(Stmt::new(stmt).with_span(span));
            return Ok(Val::Scalar(self.var_expr(dst, span)));
        }
        if let Some(op) = warp_collective(name) {
            return self.warp_collective(op, name, args, span, out);
        }
        if let Some(ty) = arbitrary_builtin(name) {
            arity(name, args, 0..=0, span)?;
            let dst = self.result_var("arb", ty, span, out)?;
            out.push(Stmt::new(StmtKind::Arbitrary { dst }).with_span(span));
            return Ok(Val::Scalar(self.var_expr(dst, span)));
        }
        if name == "__activemask" {
            arity(name, args, 0..=0, span)?;
            let dst = self.result_var("active", ScalarType::U32, span, out)?;
            out.push(Stmt::new(StmtKind::ActiveMask { dst }).with_span(span));
            return Ok(Val::Scalar(self.var_expr(dst, span)));
        }
        let block_vote = match name {
            "__syncthreads_count" => Some(BlockVoteKind::Count),
            "__syncthreads_and" => Some(BlockVoteKind::And),
            "__syncthreads_or" => Some(BlockVoteKind::Or),
            _ => None,
        };
        if let Some(kind) = block_vote {
            arity(name, args, 1..=1, span)?;
            let pred = self.cond(&args[0], out)?;
            let dst = self.result_var("bvote", ScalarType::I32, span, out)?;
            let stmt = StmtKind::SyncThreadsVote { dst, kind, pred };
            out.push(Stmt::new(stmt).with_span(span));
            return Ok(Val::Scalar(self.var_expr(dst, span)));
        }
        if let Some(op) = atomic_op(name) {
            return self.atomic(op, name, args, span, want, out);
        }
        let hint = match name {
            "printf" => "`printf` is not supported".to_string(),
            "remquof" | "remquo" => {
                format!("`{name}` returns a second result through a pointer, which is not supported")
            }
            _ if name.starts_with("__syncthreads_") => format!("`{name}` is not supported"),
            _ if name.starts_with("atomic") => format!("the atomic `{name}` is not supported"),
            _ => format!("unknown function `{name}` (only `__device__` helpers of this file and the supported CUDA intrinsics can be called)"),
        };
        err(name_span, hint)
    }

    /// `__reduce_*_sync(mask, v)` and `__match_{any,all}_sync(mask, v[, &pred])`, exactly:
    /// every lane reads each lane of `mask` with an indexed shuffle (a loop over the 32
    /// lanes, uniform across the warp) and folds the values, or collects the lanes holding
    /// its own value. `__match_all_sync` gives `mask` when that is every lane (else 0) and
    /// stores whether it is in `*pred`. Floating values are rejected by `__match_*` (CUDA
    /// compares their bits, which `==` does not).
    fn warp_collective(
        &mut self,
        op: Collective,
        name: &str,
        args: &[ast::Expr],
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Val> {
        let n = if op == Collective::MatchAll { 3 } else { 2 };
        arity(name, args, n..=n, span)?;
        let mask = convert(self.rvalue(&args[0], out)?, ScalarType::U32);
        // A constant mask stays a constant (the verifier reads it); the full warp needs no
        // test of each lane.
        let full = mask.as_const().and_then(|v| v.as_i128()) == Some(i128::from(u32::MAX));
        let mask = if mask.as_const().is_some() {
            mask
        } else {
            self.temp("mask", mask, out)?
        };
        let value = promoted(self.rvalue(&args[1], out)?);
        let ty = match op {
            Collective::Reduce(BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor) => ScalarType::U32,
            Collective::Reduce(_) if value.ty.is_signed() && value.ty.is_int() => ScalarType::I32,
            Collective::Reduce(_) => ScalarType::U32,
            _ if value.ty.is_float() => {
                return err(
                    args[1].span,
                    format!("`{name}` on a floating value (CUDA compares its bits; not modelled)"),
                )
            }
            _ if value.ty.is_int() => value.ty,
            _ => return err(args[1].span, format!("`{name}` takes an integer")),
        };
        let value = self.temp("mine", convert(value, ty), out)?;
        let init = match op {
            Collective::Reduce(o) => reduce_identity(o, ty),
            _ => Expr::u32(0),
        };
        let acc = self.let_var("warp", init.with_span(span), span, out)?;
        let acc_e = self.var_expr(acc, span);
        let lane = self.new_var("lane", ScalarType::U32, span)?;
        let lane_e = self.var_expr(lane, span);
        let got = self.new_var("shfl", ty, span)?;
        let got_e = self.var_expr(got, span);
        let st = |k: StmtKind| Stmt::new(k).with_span(span);
        let combine = match op {
            Collective::Reduce(o) => st(StmtKind::Assign {
                var: acc,
                value: Expr::binary(o, acc_e.clone(), got_e.clone()).with_span(span),
            }),
            _ => {
                let bit = Expr::binary(BinOp::Shl, Expr::u32(1), lane_e.clone());
                st(StmtKind::If {
                    cond: Expr::binary(BinOp::Eq, got_e.clone(), value.clone()).with_span(span),
                    then_body: vec![st(StmtKind::Assign {
                        var: acc,
                        value: Expr::binary(BinOp::BitOr, acc_e.clone(), bit).with_span(span),
                    })],
                    else_body: vec![],
                })
            }
        };
        let in_mask = Expr::binary(
            BinOp::Ne,
            Expr::binary(
                BinOp::BitAnd,
                Expr::binary(BinOp::Shr, mask.clone(), lane_e.clone()),
                Expr::u32(1),
            ),
            Expr::u32(0),
        )
        .with_span(span);
        let read = vec![
            st(StmtKind::Let {
                var: got,
                init: None,
            }),
            st(StmtKind::Shuffle {
                dst: got,
                kind: ShuffleKind::Idx,
                mask: mask.clone(),
                value: value.clone(),
                lane: lane_e.clone(),
                width: Expr::u32(32),
            }),
            combine,
        ];
        let body = if full {
            read
        } else {
            vec![st(StmtKind::If {
                cond: in_mask,
                then_body: read,
                else_body: vec![],
            })]
        };
        out.push(st(StmtKind::For {
            init: vec![st(StmtKind::Let {
                var: lane,
                init: Some(Expr::u32(0)),
            })],
            cond: Some(Expr::binary(BinOp::Lt, lane_e.clone(), Expr::u32(32)).with_span(span)),
            update: vec![st(StmtKind::Assign {
                var: lane,
                value: Expr::binary(BinOp::Add, lane_e, Expr::u32(1)).with_span(span),
            })],
            body,
        }));
        if op != Collective::MatchAll {
            return Ok(Val::Scalar(acc_e));
        }
        // Every lane of the mask holds this lane's value: the mask, and `*pred = 1`.
        let all = Expr::binary(BinOp::Eq, acc_e, mask.clone()).with_span(span);
        let all = self.temp("all", all, out)?;
        let flag = Expr::new(
            IK::Select(
                Box::new(all.clone()),
                Box::new(Expr::i32(1)),
                Box::new(Expr::i32(0)),
            ),
            ScalarType::I32,
        )
        .with_span(span);
        let flag = self.temp("pred", flag, out)?;
        let result = Expr::new(
            IK::Select(Box::new(all), Box::new(mask), Box::new(Expr::u32(0))),
            ScalarType::U32,
        )
        .with_span(span);
        let result = self.temp("match", result, out)?;
        // `*pred = flag`, through the assignment lowering (`&x` names `x` itself).
        let target = match &args[2].kind {
            ast::ExprKind::Unary(ast::UnaryOp::AddrOf, inner) => (**inner).clone(),
            _ => ast::Expr::new(
                ast::ExprKind::Unary(ast::UnaryOp::Deref, Box::new(args[2].clone())),
                args[2].span,
            ),
        };
        let IK::Var(flag_var) = flag.kind else {
            return err(span, "internal: `__match_all_sync` flag");
        };
        let bound = format!("__match_pred{}", flag_var.0);
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(
                bound.clone(),
                super::Binding::Var {
                    id: flag_var,
                    ty: ScalarType::I32,
                    konst: None,
                },
            );
        }
        let store = ast::Expr::new(
            ast::ExprKind::Assign(
                None,
                Box::new(target),
                Box::new(ast::Expr::new(ast::ExprKind::Ident(bound), span)),
            ),
            span,
        );
        self.expr(&store, out)?;
        Ok(Val::Scalar(result))
    }

    /// Declares the fresh variable a collective writes its result to.
    fn result_var(
        &mut self,
        stem: &str,
        ty: ScalarType,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<warpsafe_ir::VarId> {
        let dst = self.new_var(stem, ty, span)?;
        out.push(
            Stmt::new(StmtKind::Let {
                var: dst,
                init: None,
            })
            .with_span(span),
        );
        Ok(dst)
    }

    fn shuffle(
        &mut self,
        kind: ShuffleKind,
        name: &str,
        args: &[ast::Expr],
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Val> {
        arity(name, args, 3..=4, span)?;
        let mask = convert(self.rvalue(&args[0], out)?, ScalarType::U32);
        let value = self.rvalue(&args[1], out)?;
        let value = promoted(value);
        let lane = convert(self.rvalue(&args[2], out)?, ScalarType::U32);
        let width = match args.get(3) {
            Some(w) => convert(self.rvalue(w, out)?, ScalarType::U32),
            None => Expr::u32(32).with_span(span),
        };
        let dst = self.new_var("shfl", value.ty, span)?;
        out.push(
            Stmt::new(StmtKind::Let {
                var: dst,
                init: None,
            })
            .with_span(span),
        );
        let kind = StmtKind::Shuffle {
            dst,
            kind,
            mask,
            value,
            lane,
            width,
        };
        out.push(Stmt::new(kind).with_span(span));
        Ok(Val::Scalar(self.var_expr(dst, span)))
    }

    fn atomic(
        &mut self,
        op: AtomicOp,
        name: &str,
        args: &[ast::Expr],
        span: Span,
        want: bool,
        out: &mut Vec<Stmt>,
    ) -> Result<Val> {
        let n = if op == AtomicOp::Cas { 3 } else { 2 };
        arity(name, args, n..=n, span)?;
        let Val::Ptr(p) = self.expr(&args[0], out)? else {
            return err(
                args[0].span,
                format!("the first argument of `{name}` must be an address such as `&a[i]`"),
            );
        };
        if !p.writable {
            return err(args[0].span, format!("`{name}` on read-only memory"));
        }
        if matches!(p.mem, warpsafe_ir::MemRef::Local(_)) {
            return err(
                args[0].span,
                "atomics on thread-local arrays are not supported",
            );
        }
        let indices = p.indices(args[0].span)?;
        let compare = match op {
            AtomicOp::Cas => Some(convert(self.rvalue(&args[1], out)?, p.elem)),
            _ => None,
        };
        let value = convert(self.rvalue(&args[n - 1], out)?, p.elem);
        let dst = if want {
            let v = self.new_var("old", p.elem, span)?;
            out.push(Stmt::new(StmtKind::Let { var: v, init: None }).with_span(span));
            Some(v)
        } else {
            None
        };
        let kind = StmtKind::Atomic {
            dst,
            op,
            mem: p.mem,
            indices,
            value,
            compare,
        };
        out.push(Stmt::new(kind).with_span(span));
        Ok(match dst {
            Some(v) => Val::Scalar(self.var_expr(v, span)),
            None => Val::Void,
        })
    }

    /// `!c` for a condition.
    pub(crate) fn not(&self, c: Expr, span: Span) -> Expr {
        Expr::unary(UnOp::Not, to_bool(c)).with_span(span)
    }
}
