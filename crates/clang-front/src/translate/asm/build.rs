//! Small constructors of subset expressions and statements, all at one span.

use warpsafe_cuda_front::ast::{
    BinaryOp, Decl, Declarator, Expr, ExprKind, Init, Stmt, StmtKind, Storage, Type, UnaryOp,
};
use warpsafe_ir::{ScalarType, Span};

/// Builds expressions and statements at the `asm` statement's span.
#[derive(Clone, Copy)]
pub struct B {
    /// Where every built node points.
    pub span: Span,
}

impl B {
    pub fn e(&self, kind: ExprKind) -> Expr {
        Expr::new(kind, self.span)
    }
    pub fn int(&self, v: u64, ty: ScalarType) -> Expr {
        self.e(ExprKind::Int(v, ty))
    }
    /// A signed or unsigned literal of `ty` holding `v` (two's complement wrapped to the
    /// type's width).
    pub fn lit(&self, v: i128, ty: ScalarType) -> Expr {
        if ty.is_float() {
            return self.e(ExprKind::Float(v as f64, ty));
        }
        if ty == ScalarType::Bool {
            return self.e(ExprKind::Bool(v != 0));
        }
        let bits = ty.bits();
        let m = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let w = (v as u64) & m;
        if ty.is_signed() && bits < 128 && (w >> (bits - 1)) & 1 == 1 {
            // Negative: write `(T)(0 - |v|)` through the unsigned type of the width.
            let neg = w.wrapping_neg() & m;
            let u = unsigned(ty);
            return self.cast(
                ty,
                self.bin(BinaryOp::Sub, self.int(0, u), self.int(neg, u)),
            );
        }
        self.int(w, ty)
    }
    pub fn float(&self, v: f64, ty: ScalarType) -> Expr {
        self.e(ExprKind::Float(v, ty))
    }
    pub fn id(&self, name: &str) -> Expr {
        self.e(ExprKind::Ident(name.to_string()))
    }
    pub fn bin(&self, op: BinaryOp, a: Expr, b: Expr) -> Expr {
        self.e(ExprKind::Binary(op, Box::new(a), Box::new(b)))
    }
    pub fn un(&self, op: UnaryOp, a: Expr) -> Expr {
        self.e(ExprKind::Unary(op, Box::new(a)))
    }
    pub fn not(&self, a: Expr) -> Expr {
        self.un(UnaryOp::Not, a)
    }
    pub fn cond(&self, c: Expr, a: Expr, b: Expr) -> Expr {
        self.e(ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)))
    }
    pub fn cast(&self, to: ScalarType, e: Expr) -> Expr {
        super::super::expr::scalar_cast(to, e, self.span)
    }
    pub fn call(&self, f: &str, args: Vec<Expr>) -> Expr {
        self.e(ExprKind::Call(f.to_string(), self.span, args))
    }
    pub fn index(&self, a: Expr, i: Expr) -> Expr {
        self.e(ExprKind::Index(Box::new(a), Box::new(i)))
    }
    pub fn ty(&self, base: ScalarType) -> Type {
        Type {
            base: Some(base),
            ptr: false,
            konst: false,
            volatile: false,
            span: self.span,
        }
    }
    pub fn stmt(&self, kind: StmtKind) -> Stmt {
        Stmt {
            kind,
            span: self.span,
        }
    }
    pub fn assign(&self, lhs: Expr, rhs: Expr) -> Stmt {
        self.stmt(StmtKind::Expr(self.e(ExprKind::Assign(
            None,
            Box::new(lhs),
            Box::new(rhs),
        ))))
    }
    /// `base name = init;` (a pointer when `ptr`).
    pub fn decl(&self, base: Type, ptr: bool, name: &str, init: Option<Expr>) -> Stmt {
        self.stmt(StmtKind::Decl(Decl {
            storage: Storage::default(),
            base,
            declarators: vec![Declarator {
                name: name.to_string(),
                name_span: self.span,
                ptr,
                dims: vec![],
                init: init.map(Init::Expr),
                span: self.span,
            }],
        }))
    }
}

/// The unsigned integer type of `ty`'s width.
pub fn unsigned(ty: ScalarType) -> ScalarType {
    match ty.bits() {
        8 => ScalarType::U8,
        16 => ScalarType::U16,
        64 => ScalarType::U64,
        _ => ScalarType::U32,
    }
}

/// The signed integer type of `ty`'s width.
pub fn signed(ty: ScalarType) -> ScalarType {
    match ty.bits() {
        8 => ScalarType::I8,
        16 => ScalarType::I16,
        64 => ScalarType::I64,
        _ => ScalarType::I32,
    }
}
