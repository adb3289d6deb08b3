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
    /// For a record or an array of records (`__constant__ Params p;`, `__device__ Body
    /// b[256];`, `Cell g[4][8]` row-major): the scalar units per record. Its buffer is that of a
    /// pointer-to-record parameter pointing at `extent` records (see `layout.rs`), and its
    /// length, `extent` records, is scaled by this stride like a header length.
    pub record_stride: Option<u64>,
    /// Why a record global cannot be modelled (a pointer field, a union, an unknown
    /// extent): every reference to it is rejected with this reason.
    pub unmodelled: Option<String>,
}

/// True when `v` carries attribute `kind` as written (not one clang implies).
fn explicit_attr(v: &Node, kind: &str) -> bool {
    v.inner
        .iter()
        .any(|c| c.kind == kind && !c.flag("implicit"))
}

impl Unit<'_> {
    /// True when the file-scope variable `v` is a `__device__` one: declared so or, in a file
    /// in GPUVerify's test form, declared in the user's file with no memory space, not
    /// `const` and not `extern`. GPUVerify's dialect reads such a variable as the device's
    /// (its tests pass one by value to a helper, or add to it atomically), where clang's CUDA
    /// takes it for the host's and refuses its use in a kernel.
    pub(super) fn device_var(&self, v: &Node) -> bool {
        if explicit_attr(v, "CUDADeviceAttr") {
            return true;
        }
        let spaced = ["CUDASharedAttr", "CUDAConstantAttr", "CUDADeviceAttr"];
        let ty = v.ty().unwrap_or("").trim();
        self.gpuverify
            && !crate::headers::is_ours(&v.file)
            && !super::is_system_header(&v.file)
            && !v.inner.iter().any(|c| spaced.contains(&c.kind.as_str()))
            && !matches!(v.str("storageClass"), Some("extern"))
            && !v.flag("constexpr")
            && !ty.starts_with("const ")
            && !ty.ends_with("const")
    }

    /// The global array `v` declares, when it is a `__constant__` or `__device__` scalar or
    /// one-dimensional array of scalars with a known extent.
    pub(super) fn global_array(&self, v: &Node) -> Option<GlobalArray> {
        if self.fn_pointers.resolve(v.ty()?).is_some() {
            // A function-pointer table: `fn_pointers.rs`.
            return None;
        }
        if is_surface_reference(v.ty()?) {
            // Its texel type is that of its accesses: see `type_surface_references`.
            let span = self.span(v, Span::DUMMY);
            let name = v.name()?.to_string();
            return Some(GlobalArray {
                param: ast::ParamDecl {
                    name: name.clone(),
                    ty: ast::Type {
                        base: Some(ScalarType::U8),
                        ptr: true,
                        konst: false,
                        volatile: false,
                        span,
                    },
                    span,
                    constant: false,
                },
                name,
                extent: None,
                id: v.id().to_string(),
                scalar: false,
                inner_dims: vec![],
                record_stride: None,
                unmodelled: None,
            });
        }
        if let Some(mut texels) = texture_reference(v.ty()?) {
            let span = self.span(v, Span::DUMMY);
            let name = v.name()?.to_string();
            // A vector or record texel (`texture<float2, 1>`): a buffer of its leaves, like
            // memory of records (`texture.rs`); one of mixed leaf types is rejected at its fetches.
            let mut record_stride = None;
            if let Some(l) = texture_texel(v.ty()?)
                .and_then(|t| self.layout_of(t, span).ok().flatten())
                .filter(|l| l.view.is_none())
            {
                texels = l.scalar;
                record_stride = Some(l.leaves);
            }
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
                    constant: false,
                },
                name,
                extent: None,
                id: v.id().to_string(),
                scalar: false,
                inner_dims: vec![],
                record_stride,
                unmodelled: None,
            });
        }
        let constant = explicit_attr(v, "CUDAConstantAttr");
        if !constant && !self.device_var(v) {
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
                constant,
            },
            name,
            extent: Some(extent),
            id: v.id().to_string(),
            scalar,
            inner_dims,
            record_stride: None,
            unmodelled: None,
        })
    }
}

impl Unit<'_> {
    /// Adds the file's `__constant__` and `__device__` records and arrays of records (at file
    /// or namespace scope) to [`Unit::globals`]: each is a buffer of its records' scalar units,
    /// as if the kernels using it were given a pointer to them (read-only for `__constant__`).
    /// Run after [`Unit::collect`], when every record and alias is known. An initialiser is
    /// not read: the contents are inputs, which the host may overwrite (`cudaMemcpyToSymbol`),
    /// as for scalar globals.
    pub fn collect_record_globals(&mut self, n: &Node) {
        if n.kind == "TranslationUnitDecl" {
            self.type_surface_references(n);
        }
        match n.kind.as_str() {
            "TranslationUnitDecl" | "NamespaceDecl" | "LinkageSpecDecl" => {
                for c in &n.inner {
                    self.collect_record_globals(c);
                }
            }
            "VarDecl"
                if !crate::headers::is_ours(&n.file)
                    && !super::is_system_header(&n.file)
                    && !self.globals.iter().any(|g| g.id == n.id()) =>
            {
                if let Some(g) = self.record_global(n) {
                    self.globals.push(g);
                }
            }
            _ => {}
        }
    }

    /// The global `v` declares when it is a `__constant__` or `__device__` record or array of
    /// records; one we cannot model carries the reason ([`GlobalArray::unmodelled`]).
    fn record_global(&self, v: &Node) -> Option<GlobalArray> {
        let constant = explicit_attr(v, "CUDAConstantAttr");
        if !constant && !self.device_var(v) {
            return None;
        }
        let ty = v.ty()?;
        let (elem, dims) = match ty.split_once('[') {
            Some((e, d)) => (e.trim(), Some(d)),
            None => (ty.trim(), None),
        };
        let key = self.record_key_of(elem)?;
        let name = v.name()?.to_string();
        let span = self.span(v, Span::DUMMY);
        let mut g = GlobalArray {
            param: ast::ParamDecl {
                name: name.clone(),
                ty: ast::Type {
                    base: Some(ScalarType::U8),
                    ptr: true,
                    konst: true,
                    volatile: false,
                    span,
                },
                span,
                constant,
            },
            name: name.clone(),
            extent: None,
            id: v.id().to_string(),
            scalar: false,
            inner_dims: vec![],
            record_stride: None,
            unmodelled: None,
        };
        let what = if constant {
            "__constant__"
        } else {
            "__device__"
        };
        let extent = match dims.map(record_extents) {
            None => Ok(1),
            // Several dimensions lie flat, row-major: `g[i][j]` is record `i·8 + j` of
            // `Cell g[4][8]`.
            Some(Some(d)) => d
                .iter()
                .try_fold(1u64, |n, &e| n.checked_mul(e))
                .filter(|&n| n <= MAX_GLOBAL_ELEMS)
                .ok_or_else(|| "it is too large to be one buffer".to_string()),
            Some(None) => Err("its extent is not a known constant".to_string()),
        };
        let layout = extent.and_then(|extent| {
            if let Some(u) = self.union_in(&key, 0) {
                return Err(format!("the union `{u}` in it is not modelled in memory"));
            }
            let layout = self.layout(&key, span).map_err(|e| {
                let why = e
                    .message
                    .strip_prefix("unsupported: ")
                    .unwrap_or(&e.message);
                format!("its record `{key}` cannot be laid out in memory ({why})")
            })?;
            extent
                .checked_mul(layout.leaves)
                .filter(|&n| n <= MAX_GLOBAL_ELEMS)
                .ok_or_else(|| "it is too large to be one buffer".to_string())?;
            Ok((extent, layout))
        });
        match layout {
            Ok((extent, layout)) => {
                g.param.ty.base = Some(layout.scalar);
                g.param.ty.konst = constant || elem.starts_with("const ");
                g.param.ty.volatile = elem.contains("volatile ");
                g.extent = Some(extent);
                g.record_stride = Some(layout.leaves);
            }
            Err(why) => {
                g.unmodelled = Some(format!(
                    "unsupported: the {what} global `{name}` of type `{ty}`: {why}"
                ));
            }
        }
        Some(g)
    }

    /// The first union among record `key` and its record fields (`depth` bounds the walk).
    pub(super) fn union_in(&self, key: &str, depth: u32) -> Option<String> {
        let decl = self.record_decls.get(key)?;
        if decl.str("tagUsed") == Some("union") {
            return Some(key.to_string());
        }
        if depth > 16 {
            return None;
        }
        let fields = self.records.get(key)?;
        fields.iter().find_map(|(_, t)| {
            let elem = t.split_once('[').map_or(t.as_str(), |p| p.0);
            let inner = self.record_key_of(elem)?;
            self.union_in(&inner, depth + 1)
        })
    }

    /// The record global declared by `id`, when the declaration is one.
    pub(super) fn record_global_of(&self, id: &str) -> Option<&GlobalArray> {
        self.globals
            .iter()
            .find(|g| g.id == id && (g.record_stride.is_some() || g.unmodelled.is_some()))
    }

    /// The rejection of a reference (at `span`) to a record global we cannot model; `Ok`
    /// for every other declaration.
    pub(super) fn check_record_global(&self, id: &str, span: Span) -> Result<(), FrontError> {
        match self
            .record_global_of(id)
            .and_then(|g| g.unmodelled.as_ref())
        {
            Some(why) => Err(FrontError::new(span, why.clone())),
            None => Ok(()),
        }
    }
}

impl Unit<'_> {
    /// [`Unit::check_record_global`] of the variable at the root of the subscripts `n`
    /// (`g[1][i]` is `g`'s).
    pub(super) fn check_global_under(&self, n: &Node, span: Span) -> Result<(), FrontError> {
        let mut at = n;
        for _ in 0..64 {
            match at.kind.as_str() {
                "ArraySubscriptExpr" | "ImplicitCastExpr" | "ParenExpr" => match at.inner.first() {
                    Some(c) => at = c,
                    None => return Ok(()),
                },
                "DeclRefExpr" => {
                    return match at.referenced() {
                        Some((id, _, _)) => self.check_record_global(id, span),
                        None => Ok(()),
                    }
                }
                _ => return Ok(()),
            }
        }
        Ok(())
    }
}

/// The extents of `64][2]` (the text after a declared type's first `[`); `None` when one
/// is not a number.
fn record_extents(dims: &str) -> Option<Vec<u64>> {
    dims.split('[')
        .map(|d| d.trim().strip_suffix(']')?.trim().parse().ok())
        .collect()
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

/// The name of the scalar parameter that holds extent `axis` (0 width, 1 height, 2 depth or
/// layers) of the texture reference `tex` when no header line gives it (see `texture.rs`).
pub fn extent_name(tex: &str, axis: usize) -> String {
    format!("{tex}__extent{axis}")
}

/// The three scalar parameters that hold the width, height and depth (or layers) of the
/// texture reference `tex`: inputs of the kernels whose fetches use them, as the host's
/// binding sets them (every value is covered by `verify`; `run` takes them as arguments).
/// A kernel gets only those its fetches name.
pub fn texture_extents(tex: &GlobalArray) -> Vec<GlobalArray> {
    extent_params(&tex.name, &tex.id, tex.param.span)
}

/// [`texture_extents`] of the texture `name` (declared by `id`, at `span`): a legacy
/// reference, or a `cudaTextureObject_t` parameter no `//@ extent` line sizes.
pub fn extent_params(tex: &str, id: &str, span: Span) -> Vec<GlobalArray> {
    (0..3)
        .map(|axis| {
            let name = extent_name(tex, axis);
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
                    constant: false,
                },
                id: format!("{id}#extent{axis}"),
                name,
                extent: None,
                scalar: false,
                inner_dims: vec![],
                record_stride: None,
                unmodelled: None,
            }
        })
        .collect()
}

/// True for a legacy surface reference type (`surface<void, 2>`).
pub fn is_surface_reference(ty: &str) -> bool {
    ty.trim()
        .trim_start_matches("const ")
        .starts_with("surface<")
}

/// The texel type spelled in a legacy texture reference type (`texture<float2, 1,
/// cudaReadModeElementType>` → `float2`).
pub fn texture_texel(ty: &str) -> Option<&str> {
    let args = ty
        .trim()
        .trim_start_matches("const ")
        .strip_prefix("texture<")?;
    Some(args.split([',', '>']).next()?.trim())
}

/// The texel type of a legacy texture reference type (`texture<float, 1,
/// cudaReadModeElementType>`); a texel type we do not model gives `u8`, and its fetches
/// are rejected where they name it.
fn texture_reference(ty: &str) -> Option<warpsafe_ir::ScalarType> {
    let texel = texture_texel(ty)?;
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
