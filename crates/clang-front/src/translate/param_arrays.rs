//! Array fields of a record a kernel takes by value, as real kernels pass shapes and lists of
//! buffers (`struct TensorInfo { float *data; int sizes[4]; int strides[4]; int dims; }`,
//! `struct Batch { const float *in[8]; float *out[8]; }`): one parameter per element.
//!
//! A scalar array becomes a local array that the kernel's body starts by filling from its
//! element parameters, so `info.sizes[d]` reads it like any local array. An array of pointers
//! stays one buffer per element: `b.in[3]` is the buffer `b__in__3`, and `b.in[i]` with `i`
//! not a constant is the choice among them (`i == 0 ? b__in__0 : i == 1 ? … `), after a check
//! that `i` is an index of the array.

use super::aggregate::pure;
use super::types;
use super::Unit;
use warpsafe_cuda_front::ast::{
    BinaryOp, Decl, Declarator, Expr, ExprKind, Init, ParamDecl, Stmt, StmtKind, Storage,
};
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::{ScalarType, Span};

/// The most elements an array field of a by-value parameter may have (each is a parameter).
pub(super) const MAX_ELEMENTS: u64 = 64;

/// The name of element `k` of the flattened array field `local`.
fn element(local: &str, k: u64) -> String {
    format!("{local}__{k}")
}

fn int(k: u64, span: Span) -> Expr {
    Expr::new(ExprKind::Int(k, ScalarType::I32), span)
}

impl Unit<'_> {
    /// When field `local` (spelled `fty`) of a kernel's by-value parameter is an array: its
    /// element parameters, pushed on `params`, and for scalars the local array's declaration,
    /// pushed on `prologue`; `Ok(false)` when it is no array.
    pub(super) fn array_field_param(
        &self,
        local: &str,
        fty: &str,
        span: Span,
        params: &mut Vec<ParamDecl>,
        prologue: &mut Vec<Stmt>,
    ) -> Result<bool, FrontError> {
        let Ok(d) = types::declared(fty, span) else {
            return Ok(false);
        };
        let n = match d.dims[..] {
            [] => return Ok(false),
            [Some(n)] if n > 0 && n <= MAX_ELEMENTS => n,
            [Some(n)] => {
                return Err(FrontError::new(
                    span,
                    format!(
                        "unsupported parameter type: field `{local}` of {n} elements (an array \
                         field of a parameter passed by value has at most {MAX_ELEMENTS}: one \
                         parameter each)"
                    ),
                ))
            }
            _ => {
                return Err(FrontError::new(
                    span,
                    format!(
                        "unsupported parameter type: field `{local}`: array type `{fty}` (an \
                         array field of a parameter passed by value has one dimension)"
                    ),
                ))
            }
        };
        for k in 0..n {
            params.push(ParamDecl {
                name: element(local, k),
                ty: d.ty,
                span,
                constant: false,
            });
        }
        if d.ty.ptr {
            self.pointer_arrays
                .borrow_mut()
                .insert(local.to_string(), n);
            return Ok(true);
        }
        let values = (0..n)
            .map(|k| Expr::new(ExprKind::Ident(element(local, k)), span))
            .collect();
        prologue.push(Stmt {
            kind: StmtKind::Decl(Decl {
                storage: Storage::default(),
                base: d.ty,
                declarators: vec![Declarator {
                    name: local.to_string(),
                    name_span: span,
                    ptr: false,
                    dims: vec![Some(int(n, span))],
                    init: Some(Init::List(values, span)),
                    span,
                }],
            }),
            span,
        });
        Ok(true)
    }

    /// `base[index]` when `base` names an array-of-pointers field of a kernel's by-value
    /// parameter: the element's buffer (see the module's documentation).
    pub(super) fn pointer_array_element(
        &self,
        base: &Expr,
        index: &Expr,
        span: Span,
    ) -> Result<Option<Expr>, FrontError> {
        let ExprKind::Ident(local) = &base.kind else {
            return Ok(None);
        };
        let Some(n) = self.pointer_arrays.borrow().get(local).copied() else {
            return Ok(None);
        };
        let buffer = |k: u64| Expr::new(ExprKind::Ident(element(local, k)), span);
        if let ExprKind::Int(k, _) = index.kind {
            return match k < n {
                true => Ok(Some(buffer(k))),
                false => Err(FrontError::new(
                    span,
                    format!("element {k} of `{local}`, an array of {n} pointers"),
                )),
            };
        }
        if !pure(index) {
            return Err(FrontError::new(
                span,
                format!(
                    "unsupported: an element of the pointer array `{local}` at an index with \
                     side effects (compute the index first)"
                ),
            ));
        }
        // An index outside the array is an out-of-bounds finding (checked first); past the
        // check, the last element stands for every index the others do not match.
        let bin =
            |op, a: Expr, b: Expr| Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), span);
        let inside = bin(
            BinaryOp::And,
            bin(BinaryOp::Le, int(0, span), index.clone()),
            bin(BinaryOp::Lt, index.clone(), int(n, span)),
        );
        let check = Expr::new(
            ExprKind::Call("__warpsafe_check_index".into(), span, vec![inside]),
            span,
        );
        let mut chosen = buffer(n - 1);
        for k in (0..n - 1).rev() {
            let is_k = Expr::new(
                ExprKind::Binary(
                    BinaryOp::Eq,
                    Box::new(index.clone()),
                    Box::new(int(k, span)),
                ),
                span,
            );
            chosen = Expr::new(
                ExprKind::Cond(Box::new(is_k), Box::new(buffer(k)), Box::new(chosen)),
                span,
            );
        }
        Ok(Some(Expr::new(
            ExprKind::Comma(Box::new(check), Box::new(chosen)),
            span,
        )))
    }
}
