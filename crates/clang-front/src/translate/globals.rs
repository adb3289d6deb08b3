//! `__constant__` and `__device__` arrays at file scope: kernels see them as buffers, so each
//! kernel that uses one gets it as an extra parameter (read-only for `__constant__`) whose
//! length is the declared extent. Their contents are inputs set by the host
//! (`cudaMemcpyToSymbol`), unknown to the analysis like any other input buffer. A legacy
//! texture reference (`texture<float, 1> tex;`) is a read-only buffer of its texels, whose
//! length comes from the launch or the header (see `texture.rs`).

use super::{types, Unit};
use crate::node::Node;
use warpsafe_cuda_front::ast::{self, visit_stmt_exprs, visit_subexprs, ExprKind, Function};
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::{ScalarType, Span};

/// A file-scope array kernels read (or write) as a buffer.
#[derive(Debug, Clone)]
pub struct GlobalArray {
    /// Its name.
    pub name: String,
    /// The parameter that stands for it (`const float*` for `__constant__ float[…]`).
    pub param: ast::ParamDecl,
    /// Its extent in elements (1 for a scalar); `None` for a texture reference, whose
    /// texels the host binds.
    pub extent: Option<u64>,
    /// The declaration's id, for the references to it.
    pub id: String,
    /// True for a scalar (`__constant__ float scale;`), read as element 0 of its buffer.
    pub scalar: bool,
    /// The extents of each dimension past the first of a multi-dimensional array
    /// (`float t[4][8][2]` → `[8, 2]`): its buffer holds the elements in C's row-major order
    /// and `t[i][j][k]` reads element `(i·8 + j)·2 + k`. Empty for one dimension or none.
    pub inner_dims: Vec<u64>,
}

impl Unit<'_> {
    /// The global array `v` declares, when it is a `__constant__` or `__device__` scalar or
    /// one-dimensional array of scalars with a known extent.
    pub(super) fn global_array(&self, v: &Node) -> Option<GlobalArray> {
        if self.fn_pointers.resolve(v.ty()?).is_some() {
            // A function-pointer table: `fn_pointers.rs`.
            return None;
        }
        if let Some(texels) = texture_reference(v.ty()?) {
            let span = self.span(v, Span::DUMMY);
            let name = v.name()?.to_string();
            return Some(GlobalArray {
                param: ast::ParamDecl {
                    name: name.clone(),
                    ty: ast::Type {
                        base: Some(texels),
                        ptr: true,
                        konst: true,
                        volatile: false,
                        span,
                    },
                    span,
                },
                name,
                extent: None,
                id: v.id().to_string(),
                scalar: false,
                inner_dims: vec![],
            });
        }
        let explicit = |k: &str| v.inner.iter().any(|c| c.kind == k && !c.flag("implicit"));
        let constant = explicit("CUDAConstantAttr");
        if !constant && !explicit("CUDADeviceAttr") {
            return None;
        }
        let span = self.span(v, Span::DUMMY);
        let d = types::declared(v.ty()?, span).ok()?;
        // A scalar, or an array of known extents, row-major in one buffer.
        let dims: Option<Vec<u64>> = d.dims.iter().copied().collect();
        let dims = dims?;
        let scalar = dims.is_empty();
        let extent = dims
            .iter()
            .try_fold(1u64, |n, &d| n.checked_mul(d))
            .filter(|&n| n <= MAX_GLOBAL_ELEMS)?;
        let inner_dims = dims.get(1..).map(<[u64]>::to_vec).unwrap_or_default();
        if d.ty.ptr {
            return None;
        }
        let mut ty = d.ty;
        ty.ptr = true;
        ty.konst = constant || ty.konst;
        let name = v.name()?.to_string();
        Some(GlobalArray {
            param: ast::ParamDecl {
                name: name.clone(),
                ty,
                span,
            },
            name,
            extent: Some(extent),
            id: v.id().to_string(),
            scalar,
            inner_dims,
        })
    }
}

/// The most elements a file-scope array may have (a larger one is left to the rejection of
/// its references): the analyses model it as one buffer.
const MAX_GLOBAL_ELEMS: u64 = 1 << 32;

impl Unit<'_> {
    /// `g[i][j]…` as one read of `g`'s buffer when `n`, an array subscript, indexes every
    /// dimension of a multi-dimensional file-scope array `g` (see
    /// [`GlobalArray::inner_dims`]); `None` for anything else.
    pub(super) fn global_element(
        &self,
        n: &Node,
        span: Span,
    ) -> Result<Option<ast::ExprKind>, FrontError> {
        let mut indices = vec![];
        let mut at = n;
        while at.kind == "ArraySubscriptExpr" {
            let (Some(base), Some(index)) = (at.inner.first(), at.inner.get(1)) else {
                return Ok(None);
            };
            indices.push(index);
            at = super::expr::strip_implicit(base);
        }
        let Some((id, _, _)) = at.referenced() else {
            return Ok(None);
        };
        let Some(g) = self.globals.iter().find(|g| g.id == id) else {
            return Ok(None);
        };
        if g.inner_dims.is_empty() || indices.len() != g.inner_dims.len() + 1 {
            return Ok(None);
        }
        indices.reverse();
        let wide = |e: ast::Expr| {
            let t = ast::Type {
                base: Some(ScalarType::I64),
                ptr: false,
                konst: false,
                volatile: false,
                span,
            };
            ast::Expr::new(ast::ExprKind::Cast(t, Box::new(e)), span)
        };
        let mut flat = wide(self.expr(indices[0], span)?);
        for (index, &d) in indices[1..].iter().zip(&g.inner_dims) {
            let scaled = ast::Expr::new(
                ast::ExprKind::Binary(
                    ast::BinaryOp::Mul,
                    Box::new(flat),
                    Box::new(ast::Expr::new(ast::ExprKind::Int(d, ScalarType::I64), span)),
                ),
                span,
            );
            flat = ast::Expr::new(
                ast::ExprKind::Binary(
                    ast::BinaryOp::Add,
                    Box::new(scaled),
                    Box::new(wide(self.expr(index, span)?)),
                ),
                span,
            );
        }
        let base = ast::Expr::new(ast::ExprKind::Ident(g.name.clone()), span);
        Ok(Some(ast::ExprKind::Index(Box::new(base), Box::new(flat))))
    }
}

/// The name of the scalar parameter that holds extent `axis` (0 width, 1 height) of the
/// texture reference `tex` when no header line gives it (see `texture.rs`).
pub fn extent_name(tex: &str, axis: usize) -> String {
    format!("{tex}__extent{axis}")
}

/// The two scalar parameters that hold the width and height of the texture reference `tex`:
/// inputs of the kernels whose fetches use them, as the host's binding sets them (every
/// value is covered by `verify`; `run` takes them as arguments).
pub fn texture_extents(tex: &GlobalArray) -> Vec<GlobalArray> {
    (0..2)
        .map(|axis| {
            let name = extent_name(&tex.name, axis);
            let span = tex.param.span;
            GlobalArray {
                param: ast::ParamDecl {
                    name: name.clone(),
                    ty: ast::Type {
                        base: Some(warpsafe_ir::ScalarType::U32),
                        ptr: false,
                        konst: false,
                        volatile: false,
                        span,
                    },
                    span,
                },
                id: format!("{}#extent{axis}", tex.id),
                name,
                extent: None,
                scalar: false,
                inner_dims: vec![],
            }
        })
        .collect()
}

/// The texel type of a legacy texture reference type (`texture<float, 1,
/// cudaReadModeElementType>`); a texel type we do not model gives `u8`, and its fetches
/// are rejected where they name it.
fn texture_reference(ty: &str) -> Option<warpsafe_ir::ScalarType> {
    let args = ty.trim().strip_prefix("texture<")?;
    let texel = args.split([',', '>']).next()?.trim();
    Some(
        types::scalar(texel)
            .ok()
            .flatten()
            .unwrap_or(warpsafe_ir::ScalarType::U8),
    )
}

/// True when `f` mentions the name `name` anywhere (as a variable).
pub fn mentions(f: &Function, name: &str) -> bool {
    let mut seen = false;
    for s in &f.body {
        visit_stmt_exprs(s, &mut |e| {
            visit_subexprs(e, &mut |e| {
                seen |= matches!(&e.kind, ExprKind::Ident(n) if n == name);
            })
        });
    }
    seen
}
