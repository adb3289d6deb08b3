//! The registers of one `asm` statement: C locals for the operands and the template's own
//! `.reg` declarations (scoped by `{ }`), the special registers, and typed reads and writes
//! with PTX's conversions.

use super::build::B;
use std::collections::HashMap;
use warpsafe_cuda_front::ast::{BinaryOp, Expr, Stmt, UnaryOp};
use warpsafe_ir::ScalarType;
use warpsafe_ptx::{Immediate, Operand};

/// What a PTX register name stands for.
#[derive(Debug, Clone)]
pub enum Reg {
    /// A value held in the C local `local` of type `ty`; `konst` when it is known to hold
    /// a compile-time integer (an operand bound to a literal).
    Val {
        /// The C local.
        local: String,
        /// Its type (the register's width and class).
        ty: ScalarType,
        /// Its value, when known before the statement runs.
        konst: Option<i128>,
    },
    /// An address: the C pointer local `local` (elements of `elem`) plus `offset` bytes.
    Ptr {
        /// The C pointer local.
        local: String,
        /// The pointee type.
        elem: ScalarType,
        /// Bytes past the pointer.
        offset: i64,
        /// It may point into shared memory (so `.global` accesses through it are wrong).
        shared: bool,
    },
}

/// The translation state of one `asm` statement.
pub struct Tr {
    /// Builds nodes at the statement's span.
    pub b: B,
    prefix: String,
    scopes: Vec<HashMap<String, Reg>>,
    count: u32,
    /// The local holding the carry flag (`CC.CF`), once an instruction sets it.
    pub carry: Option<String>,
    /// Statements that must come first in the statement's block (the carry flag).
    pub hoisted: Vec<Stmt>,
    /// True while translating a predicated (`@p`) instruction.
    pub guarded: bool,
}

/// The C scalar type of a PTX type suffix (`u32`, `s64`, `b16`, `f32`, `pred`); `None` for
/// packed and half types other than `f16`.
pub fn ptx_ty(t: &str) -> Option<ScalarType> {
    use ScalarType::*;
    Some(match t {
        "u8" | "b8" => U8,
        "s8" => I8,
        "u16" | "b16" => U16,
        "s16" => I16,
        "u32" | "b32" => U32,
        "s32" => I32,
        "u64" | "b64" => U64,
        "s64" => I64,
        "f16" => F16,
        "f32" => F32,
        "f64" => F64,
        "pred" => Bool,
        _ => return None,
    })
}

/// 0 for `bool`, 1 for integers, 2 for floats.
fn class(t: ScalarType) -> u8 {
    if t == ScalarType::Bool {
        0
    } else if t.is_float() {
        2
    } else {
        1
    }
}

impl Tr {
    /// A translator whose locals are named from `prefix`.
    pub fn new(b: B, prefix: String) -> Tr {
        Tr {
            b,
            prefix,
            scopes: vec![HashMap::new()],
            count: 0,
            carry: None,
            hoisted: vec![],
            guarded: false,
        }
    }

    /// A fresh C local name for `what`.
    pub fn local(&mut self, what: &str) -> String {
        self.count += 1;
        let clean: String = what
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        format!("{}{}_{}", self.prefix, clean.trim_matches('_'), self.count)
    }

    /// Opens a `{ }` scope.
    pub fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    /// Closes the innermost scope.
    pub fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    /// Binds `name` in the innermost scope.
    pub fn bind(&mut self, name: &str, reg: Reg) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), reg);
        }
    }

    /// Rebinds `name` where it is declared (an address register taking a pointer).
    pub fn rebind(&mut self, name: &str, reg: Reg) -> Result<(), String> {
        for s in self.scopes.iter_mut().rev() {
            if let Some(r) = s.get_mut(name) {
                *r = reg;
                return Ok(());
            }
        }
        Err(format!("register `{name}` is not declared"))
    }

    /// What `name` stands for.
    pub fn lookup(&self, name: &str) -> Option<&Reg> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    /// Declares `.reg .TYPE name` as a C local (uninitialised, as a PTX register is).
    pub fn declare(&mut self, name: &str, ty: &str, out: &mut Vec<Stmt>) -> Result<(), String> {
        let t = ptx_ty(ty.trim_start_matches('.'))
            .ok_or_else(|| format!("a register of type `{ty}`"))?;
        // 8-bit registers hold 16 bits in PTX.
        let t = match t {
            ScalarType::U8 => ScalarType::U16,
            ScalarType::I8 => ScalarType::I16,
            t => t,
        };
        let local = self.local(name);
        out.push(self.b.decl(self.b.ty(t), false, &local, None));
        self.bind(
            name,
            Reg::Val {
                local,
                ty: t,
                konst: None,
            },
        );
        Ok(())
    }

    /// A temporary `T name = e;` in `out`, as an identifier (a literal is kept as it is).
    pub fn temp(&mut self, ty: ScalarType, e: Expr, out: &mut Vec<Stmt>) -> Expr {
        if is_literal(&e) {
            return self.b.cast(ty, e);
        }
        let name = self.local("t");
        out.push(self.b.decl(self.b.ty(ty), false, &name, Some(e)));
        self.b.id(&name)
    }

    /// The name of a register operand (`%r1`, or a template's own `p`).
    pub fn reg_name(op: &Operand) -> Option<&str> {
        match op {
            Operand::Reg(n) | Operand::Symbol(n) => Some(n),
            _ => None,
        }
    }

    /// The compile-time integer value of `op`, when it has one.
    pub fn konst(&self, op: &Operand) -> Option<i128> {
        match op {
            Operand::Imm(Immediate::Int(v)) => Some(*v),
            Operand::Reg(n) | Operand::Symbol(n) => match self.lookup(n) {
                Some(Reg::Val { konst, .. }) => *konst,
                _ if n == "WARP_SZ" => Some(32),
                _ => None,
            },
            _ => None,
        }
    }

    /// `op` read as a value of `ty`.
    pub fn read(&self, op: &Operand, ty: ScalarType) -> Result<Expr, String> {
        let b = self.b;
        match op {
            Operand::Reg(n) | Operand::Symbol(n) => {
                let (e, from) = self.value(n)?;
                convert(&b, e, from, ty, n)
            }
            Operand::Imm(Immediate::Int(v)) => Ok(b.lit(*v, ty)),
            Operand::Imm(Immediate::F32(bits)) if ty.is_float() => {
                Ok(b.float(f64::from(f32::from_bits(*bits)), ty))
            }
            Operand::Imm(Immediate::F64(bits)) if ty.is_float() => {
                Ok(b.float(f64::from_bits(*bits), ty))
            }
            Operand::Imm(_) => Err("a floating literal where an integer is read".into()),
            Operand::Not(p) if ty == ScalarType::Bool => {
                let (e, from) = self.value(p)?;
                Ok(b.not(convert(&b, e, from, ty, p)?))
            }
            Operand::Sink => Err("`_` read as a value".into()),
            _ => Err("an operand of this shape (a vector, pair or address) here".into()),
        }
    }

    /// `op` read in its own type (for instructions that move bits: `mov`, `shfl`, `selp`).
    pub fn read_own(&self, op: &Operand, ty: ScalarType) -> Result<(Expr, ScalarType), String> {
        match op {
            Operand::Reg(n) | Operand::Symbol(n) => {
                let (e, from) = self.value(n)?;
                if from.bits() == ty.bits() || class(from) == class(ty) {
                    Ok((e, from))
                } else {
                    Ok((convert(&self.b, e, from, ty, n)?, ty))
                }
            }
            _ => Ok((self.read(op, ty)?, ty)),
        }
    }

    /// The value of register `n` and its type.
    fn value(&self, n: &str) -> Result<(Expr, ScalarType), String> {
        match self.lookup(n) {
            // A literal stays a literal (a constant warp mask is read by the verifier).
            Some(Reg::Val {
                ty, konst: Some(v), ..
            }) => Ok((self.b.lit(*v, *ty), *ty)),
            Some(Reg::Val { local, ty, .. }) => Ok((self.b.id(local), *ty)),
            Some(Reg::Ptr { .. }) => Err(format!(
                "the address in `{n}` used as a number (only loads and stores may use it)"
            )),
            None => super::special::read(&self.b, n),
        }
    }

    /// Writes `value` (of type `vty`) to the destination `dst`.
    pub fn write(
        &self,
        dst: &Operand,
        value: Expr,
        vty: ScalarType,
        out: &mut Vec<Stmt>,
    ) -> Result<(), String> {
        let n = match dst {
            Operand::Sink => return Ok(()),
            Operand::Reg(n) | Operand::Symbol(n) => n,
            _ => return Err("a destination of this shape".into()),
        };
        match self.lookup(n) {
            Some(Reg::Val { konst: Some(_), .. }) => Err(format!(
                "a write to `{n}`, an input operand (an output or `+` constraint is needed)"
            )),
            Some(Reg::Val { local, ty, .. }) => {
                let v = convert(&self.b, value, vty, *ty, n)?;
                out.push(self.b.assign(self.b.id(local), v));
                Ok(())
            }
            Some(Reg::Ptr { .. }) => {
                Err(format!("a number written to `{n}`, which holds an address"))
            }
            None if n.starts_with('%') && super::special::read(&self.b, n).is_ok() => {
                Err(format!("a write to the special register `{n}`"))
            }
            None => Err(format!("register `{n}` is not declared")),
        }
    }
}

/// `e` (of type `from`) as `to`: integers (and `bool`s) convert as C does; the bits of a
/// float read as an integer of its width (or back, `mov.b32 %r, %f`) are CUDA's bit
/// reinterpretation intrinsics (`__float_as_uint`, …), which the front end lowers to the IR's
/// exact `bits` call.
fn convert(b: &B, e: Expr, from: ScalarType, to: ScalarType, n: &str) -> Result<Expr, String> {
    if from == to {
        return Ok(e);
    }
    if from.bits() == to.bits() && (from.is_float() != to.is_float()) && class(from) != 0 {
        if let Some(r) = bits_intrinsic(b, e.clone(), from, to) {
            return Ok(r);
        }
    }
    match (class(from), class(to)) {
        (1, 1) => Ok(b.cast(to, e)),
        (0, 1) => Ok(b.cond(e, b.int(1, to), b.int(0, to))),
        (1, 0) => Ok(b.bin(BinaryOp::Ne, e, b.int(0, from))),
        (2, 2) => Err(format!(
            "`{n}` holds {from} but is read as {to} (floating registers of another width)"
        )),
        _ => Err(format!(
            "`{n}` holds {from} but is read as {to}: reinterpreting the bits of a floating \
             value is not modelled"
        )),
    }
}

/// The bits of `e` (a `from`) read as a `to` of the same width, one float and one integer,
/// through the CUDA intrinsics (the unsigned 64-bit kinds through `long long`).
fn bits_intrinsic(b: &B, e: Expr, from: ScalarType, to: ScalarType) -> Option<Expr> {
    use ScalarType::*;
    Some(match (from, to) {
        (F32, I32) => b.call("__float_as_int", vec![e]),
        (F32, U32) => b.call("__float_as_uint", vec![e]),
        (I32, F32) => b.call("__int_as_float", vec![e]),
        (U32, F32) => b.call("__uint_as_float", vec![e]),
        (F64, I64) => b.call("__double_as_longlong", vec![e]),
        (F64, U64) => b.cast(U64, b.call("__double_as_longlong", vec![e])),
        (I64, F64) => b.call("__longlong_as_double", vec![e]),
        (U64, F64) => b.call("__longlong_as_double", vec![b.cast(I64, e)]),
        (F16, I16) => b.call("__half_as_short", vec![e]),
        (F16, U16) => b.call("__half_as_ushort", vec![e]),
        (I16, F16) => b.call("__short_as_half", vec![e]),
        (U16, F16) => b.call("__ushort_as_half", vec![e]),
        _ => return None,
    })
}

/// `-e` on the unsigned type of `e`'s width, then back: wrapping negation without C's
/// signed overflow.
pub fn wrapping_neg(b: &B, e: Expr, ty: ScalarType) -> Expr {
    let u = super::build::unsigned(ty);
    let u = if u.bits() < 32 { ScalarType::U32 } else { u };
    let n = b.bin(BinaryOp::Sub, b.int(0, u), b.cast(u, e));
    b.cast(ty, n)
}

/// `~e` in `ty`.
pub fn bit_not(b: &B, e: Expr, ty: ScalarType) -> Expr {
    b.cast(ty, b.un(UnaryOp::BitNot, e))
}

/// True for an integer literal, possibly negated or cast.
fn is_literal(e: &Expr) -> bool {
    use warpsafe_cuda_front::ast::ExprKind;
    match &e.kind {
        ExprKind::Int(..) | ExprKind::Float(..) | ExprKind::Bool(_) => true,
        ExprKind::Cast(_, a) | ExprKind::Unary(UnaryOp::Neg, a) => is_literal(a),
        ExprKind::Binary(BinaryOp::Sub, a, b) => is_literal(a) && is_literal(b),
        _ => false,
    }
}
