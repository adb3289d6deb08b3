//! Pointers with a known base: a memory (buffer, shared or local array), leading indices
//! for multi-dimensional arrays, and an element offset in the last dimension.

use super::{Binding, Lowerer, Val};
use crate::error::{err, Result};
use warpsafe_ir::{BinOp, Expr, MemRef, ScalarType, Span, Stmt, StmtKind, VarId};

/// A pointer value: `mem[prefix...][off + i]` is what `p[i]` reads.
#[derive(Debug, Clone)]
pub(crate) struct PtrVal {
    pub mem: MemRef,
    pub elem: ScalarType,
    pub writable: bool,
    /// Indices already applied to the outer dimensions of a multi-dimensional array.
    pub prefix: Vec<Expr>,
    /// Offset in the innermost applied dimension (`None` is zero).
    pub off: Option<Expr>,
    /// Dimensions not yet indexed (1 for a plain pointer).
    pub rest: usize,
}

/// `a + b` on offsets, in `i64` unless one side is absent.
pub(crate) fn add_offsets(a: Option<Expr>, b: Expr, span: Span) -> Expr {
    let zero = b.as_const().and_then(|v| v.as_i128()) == Some(0);
    match a {
        None => b,
        Some(a) if zero => a,
        Some(a) => {
            let a = crate::types::convert(a, ScalarType::I64);
            let b = crate::types::convert(b, ScalarType::I64);
            Expr::binary(BinOp::Add, a, b).with_span(span)
        }
    }
}

impl PtrVal {
    /// The memory indices of the element this pointer points at.
    pub fn indices(&self, span: Span) -> Result<Vec<Expr>> {
        if self.rest != 1 {
            return err(
                span,
                "a multi-dimensional array needs one index per dimension",
            );
        }
        let mut idx = self.prefix.clone();
        idx.push(
            self.off
                .clone()
                .unwrap_or_else(|| Expr::i32(0).with_span(span)),
        );
        Ok(idx)
    }

    /// The offset as an `i64` (zero when absent).
    pub fn off_i64(&self, span: Span) -> Expr {
        match &self.off {
            Some(o) => crate::types::convert(o.clone(), ScalarType::I64),
            None => Expr::constant(warpsafe_ir::Value::I64(0)).with_span(span),
        }
    }
}

impl Lowerer<'_> {
    /// `p[i]`: a narrower pointer for a multi-dimensional array, else a load.
    pub(crate) fn index(&mut self, p: PtrVal, i: Expr, span: Span) -> Result<Val> {
        let i = self.index_value(i)?;
        if p.rest > 1 {
            if p.off.is_some() {
                return err(
                    span,
                    "pointer arithmetic on a multi-dimensional array is not supported",
                );
            }
            let mut prefix = p.prefix;
            prefix.push(i);
            return Ok(Val::Ptr(PtrVal {
                prefix,
                rest: p.rest - 1,
                ..p
            }));
        }
        let q = self.ptr_add(p, i, span)?;
        let idx = q.indices(span)?;
        Ok(Val::Scalar(Expr::load(q.mem, idx, q.elem).with_span(span)))
    }

    /// Checks and promotes an index expression.
    pub(crate) fn index_value(&mut self, i: Expr) -> Result<Expr> {
        if !crate::types::promote(i.ty).is_int() {
            return err(
                i.span,
                format!(
                    "an array index must be an integer, found `{}`",
                    i.ty.c_name()
                ),
            );
        }
        Ok(crate::types::promoted(i))
    }

    /// `p + i`.
    pub(crate) fn ptr_add(&mut self, p: PtrVal, i: Expr, span: Span) -> Result<PtrVal> {
        if p.rest != 1 {
            return err(
                span,
                "pointer arithmetic on a multi-dimensional array is not supported",
            );
        }
        let i = self.index_value(i)?;
        let off = match p.off.clone() {
            None => i,
            Some(o) => add_offsets(Some(o), i, span),
        };
        Ok(PtrVal {
            off: Some(off),
            ..p
        })
    }

    /// The binding for a pointer variable `name` initialised to `p`.
    /// Records that the source reaches `mem` through `volatile` (see `Contract::volatile`).
    pub(crate) fn mark_volatile(&mut self, mem: MemRef, volatile: bool) {
        if volatile && !self.k.contract.volatile.contains(&mem) {
            self.k.contract.volatile.push(mem);
        }
    }

    pub(crate) fn bind_pointer_var(
        &mut self,
        name: &str,
        p: PtrVal,
        konst: bool,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Binding> {
        if p.rest != 1 || !p.prefix.is_empty() {
            return err(
                span,
                "pointers into multi-dimensional arrays cannot be stored in variables",
            );
        }
        let fixed = match &p.off {
            None => true,
            Some(o) => o.as_const().and_then(|v| v.as_i128()) == Some(0),
        };
        let off = if fixed && !self.assigned.contains(name) {
            None
        } else {
            let init = p.off_i64(span);
            Some(self.let_var(&format!("{name}_off"), init, span, out)?)
        };
        Ok(Binding::Ptr {
            mem: p.mem,
            elem: p.elem,
            writable: p.writable && !konst,
            off,
        })
    }

    /// Assigns the pointer value `p` to the pointer variable whose offset is `var`.
    pub(crate) fn assign_pointer(
        &mut self,
        name: &str,
        base: MemRef,
        var: Option<VarId>,
        p: PtrVal,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<()> {
        if p.mem != base {
            let what = format!(
                "pointer base must stay known: `{name}` points into `{}` and cannot be made to point into `{}`",
                self.k.mem_name_safe(base),
                self.k.mem_name_safe(p.mem)
            );
            return err(span, what);
        }
        if p.rest != 1 || !p.prefix.is_empty() {
            return err(
                span,
                "pointers into multi-dimensional arrays cannot be stored in variables",
            );
        }
        let Some(var) = var else {
            return err(span, format!("cannot reassign pointer `{name}`"));
        };
        let value = p.off_i64(span);
        out.push(Stmt::new(StmtKind::Assign { var, value }).with_span(span));
        Ok(())
    }
}

/// Safe name lookup for messages.
pub(crate) trait MemName {
    fn mem_name_safe(&self, m: MemRef) -> String;
}

impl MemName for warpsafe_ir::Kernel {
    fn mem_name_safe(&self, m: MemRef) -> String {
        let name = match m {
            MemRef::Global(p) => self.params.get(p.0 as usize).map(|p| p.name.clone()),
            MemRef::Shared(a) => self.shared.get(a.0 as usize).map(|a| a.name.clone()),
            MemRef::Local(a) => self.locals.get(a.0 as usize).map(|a| a.name.clone()),
        };
        name.unwrap_or_else(|| "?".into())
    }
}
