//! Bit intrinsics written as exact C over unsigned integers, so every engine reasons about
//! them with the arithmetic it already has: `__popc` by the parallel-count identities,
//! `__brev` by swapping halves, `__clz` through the population count of the smeared value,
//! `__ffs` through the lowest set bit, `__mul24`/`__umul24` on the low 24 bits, `__mulhi`
//! /`__umulhi` through a 64-bit product, and the memory fences (which order nothing between
//! threads without a barrier) as nothing. Float intrinsics with a rounding mode or a fast
//! approximation (`__fadd_rz`, `__fdividef`, `__saturatef`) are the operation they round.

use warpsafe_cuda_front::ast::{BinaryOp, Expr, ExprKind, UnaryOp};
use warpsafe_ir::{ScalarType, Span};

struct B {
    span: Span,
    ty: ScalarType,
}

impl B {
    fn lit(&self, v: u64) -> Expr {
        Expr::new(ExprKind::Int(v, self.ty), self.span)
    }
    fn bin(&self, op: BinaryOp, a: Expr, b: Expr) -> Expr {
        Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), self.span)
    }
    fn cast(&self, to: ScalarType, e: Expr) -> Expr {
        super::expr::scalar_cast(to, e, self.span)
    }
    fn bits(&self) -> u32 {
        self.ty.bits()
    }
    /// Repeats `pattern` (of `width` bits) across the type's width.
    fn mask(&self, pattern: u64, width: u32) -> Expr {
        let mut m = 0u64;
        let mut at = 0;
        while at < self.bits() {
            m |= pattern << at;
            at += width;
        }
        self.lit(m)
    }
    /// The number of set bits of the unsigned `x`.
    fn popc(&self, x: Expr) -> Expr {
        use BinaryOp::*;
        let x = self.bin(
            Sub,
            x.clone(),
            self.bin(BitAnd, self.bin(Shr, x, self.lit(1)), self.mask(0x5, 4)),
        );
        let x = self.bin(
            Add,
            self.bin(BitAnd, x.clone(), self.mask(0x3, 4)),
            self.bin(BitAnd, self.bin(Shr, x, self.lit(2)), self.mask(0x3, 4)),
        );
        let x = self.bin(
            BitAnd,
            self.bin(Add, x.clone(), self.bin(Shr, x, self.lit(4))),
            self.mask(0x0F, 8),
        );
        self.bin(
            Shr,
            self.bin(Mul, x, self.mask(0x01, 8)),
            self.lit(u64::from(self.bits() - 8)),
        )
    }
    /// The bits of the unsigned `x` in reverse order.
    fn brev(&self, mut x: Expr) -> Expr {
        use BinaryOp::*;
        let mut width = self.bits() / 2;
        while width >= 1 {
            let low = if width == 32 {
                u64::from(u32::MAX)
            } else {
                (1u64 << width) - 1
            };
            let m = self.mask(low, 2 * width);
            let w = self.lit(u64::from(width));
            x = self.bin(
                BitOr,
                self.bin(BitAnd, self.bin(Shr, x.clone(), w.clone()), m.clone()),
                self.bin(Shl, self.bin(BitAnd, x, m), w),
            );
            width /= 2;
        }
        x
    }
    /// The unsigned `x` with every bit below its highest set bit set.
    fn smear(&self, mut x: Expr) -> Expr {
        let mut s = 1;
        while s < self.bits() {
            x = self.bin(
                BinaryOp::BitOr,
                x.clone(),
                self.bin(BinaryOp::Shr, x, self.lit(u64::from(s))),
            );
            s *= 2;
        }
        x
    }
}

/// True for an argument that may be copied into the expansion (no effects, small).
fn simple(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(..) | ExprKind::Float(..) | ExprKind::Bool(_) | ExprKind::Ident(_) => true,
        ExprKind::Member(b, _) | ExprKind::Cast(_, b) => simple(b),
        ExprKind::Unary(UnaryOp::Neg | UnaryOp::Plus | UnaryOp::Not | UnaryOp::BitNot, b) => {
            simple(b)
        }
        ExprKind::Index(a, i) => simple(a) && simple(i),
        ExprKind::Binary(_, a, b) => simple(a) && simple(b),
        _ => false,
    }
}

/// The expansion of the intrinsic `name` applied to `args`, `None` when `name` is not one of
/// them, an error text when the arguments do not fit.
pub fn expand(name: &str, args: &[Expr], span: Span) -> Option<Result<ExprKind, String>> {
    use BinaryOp::*;
    let u32b = B {
        span,
        ty: ScalarType::U32,
    };
    let u64b = B {
        span,
        ty: ScalarType::U64,
    };
    let one = |f: &dyn Fn(Expr) -> Expr| -> Result<ExprKind, String> {
        match args {
            [a] if simple(a) => Ok(f(a.clone()).kind),
            [_] => Err(format!(
                "`{name}` of an expression with effects or calls (assign it to a variable first)"
            )),
            _ => Err(format!("`{name}` takes one argument")),
        }
    };
    let two = |f: &dyn Fn(Expr, Expr) -> Expr| -> Result<ExprKind, String> {
        match args {
            [a, b] if simple(a) && simple(b) => Ok(f(a.clone(), b.clone()).kind),
            [_, _] => Err(format!(
                "`{name}` of an expression with effects or calls (assign it to a variable first)"
            )),
            _ => Err(format!("`{name}` takes two arguments")),
        }
    };
    Some(match name {
        "__threadfence" | "__threadfence_block" | "__threadfence_system" if args.is_empty() => {
            Ok(ExprKind::Int(0, ScalarType::I32))
        }
        "__popc" => one(&|x| u32b.cast(ScalarType::I32, u32b.popc(u32b.cast(ScalarType::U32, x)))),
        "__popcll" => {
            one(&|x| u64b.cast(ScalarType::I32, u64b.popc(u64b.cast(ScalarType::U64, x))))
        }
        "__brev" => one(&|x| u32b.brev(u32b.cast(ScalarType::U32, x))),
        "__brevll" => one(&|x| u64b.brev(u64b.cast(ScalarType::U64, x))),
        "__clz" | "__clzll" => {
            let b = if name == "__clz" { &u32b } else { &u64b };
            one(&|x| {
                let s = b.smear(b.cast(b.ty, x));
                b.cast(
                    ScalarType::I32,
                    b.bin(Sub, b.lit(u64::from(b.bits())), b.popc(s)),
                )
            })
        }
        "__ffs" | "__ffsll" => {
            let b = if name == "__ffs" { &u32b } else { &u64b };
            one(&|x| {
                let x = b.cast(b.ty, x);
                let lowest = b.bin(BitAnd, x.clone(), b.bin(Sub, b.lit(0), x.clone()));
                let pos = b.bin(Add, b.popc(b.bin(Sub, lowest, b.lit(1))), b.lit(1));
                let e = Expr::new(
                    ExprKind::Cond(
                        Box::new(b.bin(Eq, x, b.lit(0))),
                        Box::new(b.lit(0)),
                        Box::new(pos),
                    ),
                    span,
                );
                b.cast(ScalarType::I32, e)
            })
        }
        "__umul24" => two(&|a, c| {
            let m = u32b.lit(0x00FF_FFFF);
            u32b.bin(
                Mul,
                u32b.bin(BitAnd, u32b.cast(ScalarType::U32, a), m.clone()),
                u32b.bin(BitAnd, u32b.cast(ScalarType::U32, c), m),
            )
        }),
        "__mul24" => two(&|a, c| {
            // Sign-extend the low 24 bits, multiply modulo 2^32.
            let sext = |x: Expr| {
                let up = u32b.bin(Shl, u32b.cast(ScalarType::U32, x), u32b.lit(8));
                let i = u32b.cast(ScalarType::I32, up);
                u32b.cast(
                    ScalarType::U32,
                    u32b.bin(Shr, i, Expr::new(ExprKind::Int(8, ScalarType::I32), span)),
                )
            };
            u32b.cast(ScalarType::I32, u32b.bin(Mul, sext(a), sext(c)))
        }),
        "__umulhi" => two(&|a, c| {
            // The arguments are `unsigned int` first (the call's conversions are not in the
            // tree), then widened.
            let wide = |x: Expr| u64b.cast(ScalarType::U64, u64b.cast(ScalarType::U32, x));
            let p = u64b.bin(Mul, wide(a), wide(c));
            u64b.cast(ScalarType::U32, u64b.bin(Shr, p, u64b.lit(32)))
        }),
        "__mulhi" => two(&|a, c| {
            let wide = |x: Expr| u64b.cast(ScalarType::I64, u64b.cast(ScalarType::I32, x));
            let p = u64b.bin(Mul, wide(a), wide(c));
            u64b.cast(
                ScalarType::I32,
                u64b.bin(Shr, p, Expr::new(ExprKind::Int(32, ScalarType::I32), span)),
            )
        }),
        // Rounding-mode and fast variants of float arithmetic are the arithmetic itself
        // (floats are reals in proofs; the interpreter rounds to nearest).
        "__fadd_rn" | "__fadd_rz" | "__fadd_ru" | "__fadd_rd" | "__dadd_rn" => {
            arith(Add, args, name, span)
        }
        "__fsub_rn" | "__fsub_rz" | "__fsub_ru" | "__fsub_rd" | "__dsub_rn" => {
            arith(Sub, args, name, span)
        }
        "__fmul_rn" | "__fmul_rz" | "__fmul_ru" | "__fmul_rd" | "__dmul_rn" => {
            arith(Mul, args, name, span)
        }
        "__fdividef" | "fdividef" | "__fdiv_rn" | "__fdiv_rz" | "__fdiv_ru" | "__fdiv_rd"
        | "__ddiv_rn" => arith(Div, args, name, span),
        "__frcp_rn" | "__frcp_rz" | "__frcp_ru" | "__frcp_rd" => match args {
            [a] => Ok(ExprKind::Binary(
                Div,
                Box::new(Expr::new(ExprKind::Float(1.0, ScalarType::F32), span)),
                Box::new(a.clone()),
            )),
            _ => Err(format!("`{name}` takes one argument")),
        },
        "__fsqrt_rn" | "__fsqrt_rz" | "__fsqrt_ru" | "__fsqrt_rd" => {
            call("sqrtf", args, name, 1, span)
        }
        "__frsqrt_rn" => call("rsqrtf", args, name, 1, span),
        "__saturatef" => match args {
            // CUDA clamps to [0, 1], and NaN to 0, as fminf(fmaxf(x, 0), 1) does.
            [a] => {
                let zero = Expr::new(ExprKind::Float(0.0, ScalarType::F32), span);
                let one = Expr::new(ExprKind::Float(1.0, ScalarType::F32), span);
                let lo = Expr::new(
                    ExprKind::Call("fmaxf".into(), span, vec![a.clone(), zero]),
                    span,
                );
                Ok(ExprKind::Call("fminf".into(), span, vec![lo, one]))
            }
            _ => Err(format!("`{name}` takes one argument")),
        },
        _ => return None,
    })
}

fn arith(op: BinaryOp, args: &[Expr], name: &str, _span: Span) -> Result<ExprKind, String> {
    match args {
        [a, b] => Ok(ExprKind::Binary(
            op,
            Box::new(a.clone()),
            Box::new(b.clone()),
        )),
        _ => Err(format!("`{name}` takes two arguments")),
    }
}

fn call(to: &str, args: &[Expr], name: &str, arity: usize, span: Span) -> Result<ExprKind, String> {
    if args.len() != arity {
        return Err(format!("`{name}` takes {arity} argument(s)"));
    }
    Ok(ExprKind::Call(to.into(), span, args.to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ident(n: &str) -> Expr {
        Expr::new(ExprKind::Ident(n.into()), Span::DUMMY)
    }

    #[test]
    fn arguments_without_effects_are_expanded_and_calls_are_not() {
        // Sobol's `__ffs(~((i - stride) | mask))`: operators over names, no effects.
        let or = Expr::new(
            ExprKind::Binary(BinaryOp::BitOr, Box::new(ident("i")), Box::new(ident("m"))),
            Span::DUMMY,
        );
        let not = Expr::new(ExprKind::Unary(UnaryOp::BitNot, Box::new(or)), Span::DUMMY);
        assert!(matches!(expand("__ffs", &[not], Span::DUMMY), Some(Ok(_))));
        let call = Expr::new(ExprKind::Call("f".into(), Span::DUMMY, vec![]), Span::DUMMY);
        let neg = Expr::new(ExprKind::Unary(UnaryOp::Neg, Box::new(call)), Span::DUMMY);
        assert!(matches!(expand("__ffs", &[neg], Span::DUMMY), Some(Err(_))));
    }
}
