//! Textures and surfaces as global memory with bounds.
//!
//! A `cudaTextureObject_t` kernel parameter becomes a read-only buffer (`const T*`) of the
//! texel type its fetches name (`tex1Dfetch<float>` → `const float*`), a
//! `cudaSurfaceObject_t` a read-write one (`T*`), a file-scope legacy reference
//! `texture<T, dim, cudaReadModeElementType> ref;` a read-only buffer parameter named `ref`
//! of the kernels that use it, and a legacy `surface<void, dim> ref;` a read-write one of
//! the texel type its accesses name (`globals.rs`). Each fetch is then written as C over
//! that buffer, so every engine checks it like any other access:
//!
//! - `tex1Dfetch(t, i)` (linear memory, integer coordinate): `t[i]` in range, 0 outside.
//!   The Programming Guide ("Texture Functions", `tex1Dfetch()`) says it takes
//!   non-normalized coordinates, so only the border and clamp modes apply, and the Runtime
//!   API (`cudaTextureDesc::addressMode`) that the mode is ignored for
//!   `cudaResourceTypeLinear`; neither states the value returned out of range. We return 0
//!   (border), what the hardware does; no access outside the buffer happens either way.
//! - `tex1D(t, x)`, `tex2D(t, x, y)`, `tex3D(t, x, y, z)`: point sampling, texel `floor(x)`
//!   (`floor(x * w)` for normalized coordinates) on each axis, row-major
//!   `t[(z * h + y) * w + x]`, with the extents of `//@ extent(t) = w, h, d` and the mode of
//!   `//@ address(t) = …`: clamp (the default) takes the nearest edge texel, border returns
//!   0, wrap (normalized coordinates only: CUDA switches it to clamp for unnormalized ones)
//!   takes the texel index modulo the extent. Linear filtering and mirror addressing are
//!   rejected; since they are host settings, a file whose host code selects one has its
//!   sampled fetches rejected, naming where.
//! - `tex1DLayered(t, x, layer)`, `tex2DLayered(t, x, y, layer)`: a stack of images, the
//!   layer count the last extent. The layer is an integer, never filtered or wrapped; CUDA's
//!   documents do not say what a layer outside the stack returns, so its fetch reads index
//!   -1 (an out-of-bounds finding). The same holds for the layer of a layered surface.
//! - `texCubemap(t, x, y, z)`: six faces (`//@ extent(t) = w, w, 6`); the Programming
//!   Guide's table picks the face and face coordinates from the direction
//!   ([`Build::cube_texel`]), sampled with clamp on the face.
//! - `tex1DLod`/`tex2DLod`/`tex1DGrad`/`tex2DGrad`: the level of detail picks an image of a
//!   mip chain we do not model. The fetch reads no memory and gives an arbitrary value of
//!   the texel type (`__warpsafe_arbitrary_<type>()`, as `clock()`): `verify` covers every
//!   value, `run` draws one.
//! - Vector or record texels (`texture<float2, 1>`, `tex2D<float4>(obj, …)`,
//!   `surf2Dwrite(make_uchar4(…), …)`): a buffer of the texel's leaf scalars, like memory of
//!   records (`aggregate.rs`): an access loads or stores each leaf at the texel's index, with
//!   the bound and addressing of a scalar access; extents count texels.
//! - A `cudaReadModeNormalizedFloat` reference (its mode is in its type) reads 8- and 16-bit
//!   integer elements as floats divided by the type's largest value, signed ones held at -1
//!   or above (Programming Guide, "Texture Memory"); for texture objects only host code
//!   selects the mode, and their fetches are rejected when it does.
//! - `surf1Dread`…`surf3Dwrite` and the layered forms: the x coordinate is in bytes, so it is
//!   divided by `sizeof(T)` after an assertion that it is a multiple. Out of range is an
//!   out-of-bounds access of the buffer under `cudaBoundaryModeTrap` (the default), 0
//!   (reads) or nothing (writes) under `cudaBoundaryModeZero`, the edge under
//!   `cudaBoundaryModeClamp`.
//! - A legacy reference or a texture object no `//@ extent` sizes takes its extents from
//!   `u32` parameters `t__extent0`, … (a reference's from the host's binding,
//!   `globals::texture_extents`; an object's from its `cudaCreateTextureObject`): a
//!   texture's clamped index is held below its buffer's length, a surface's last extent is
//!   what its buffer holds of the others. A surface object still needs the line.

use super::expr::strip_implicit;
use super::{types, FoundFn, Unit};
use crate::headers;
use crate::node::Node;
use warpsafe_cuda_front::ast::{self, BinaryOp, Expr, ExprKind, UnaryOp};
use warpsafe_cuda_front::{Address, FrontError, TextureDecl};
use warpsafe_ir::{ScalarType, Span};

/// What the file says about its textures: the header's extents and modes, and the sampling
/// settings its host code selects.
#[derive(Default)]
pub struct Textures {
    decls: Vec<TextureDecl>,
    host: Vec<(Host, Span)>,
}

/// A sampling setting of host code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Host {
    LinearFilter,
    NormalizedRead,
    Mirror,
    Wrap,
    Border,
    NormalizedCoords,
}

impl Host {
    fn describe(self) -> &'static str {
        match self {
            Host::LinearFilter => "linear filtering (`cudaFilterModeLinear`)",
            Host::NormalizedRead => "normalized-float reads (`cudaReadModeNormalizedFloat`)",
            Host::Mirror => "mirror addressing (`cudaAddressModeMirror`)",
            Host::Wrap => "wrap addressing (`cudaAddressModeWrap`)",
            Host::Border => "border addressing (`cudaAddressModeBorder`)",
            Host::NormalizedCoords => "normalized coordinates",
        }
    }
}

impl Textures {
    /// Reads the texture directives of `source` and the settings host code in `root` makes.
    pub fn read(root: &Node, source: &str) -> Textures {
        let mut host = vec![];
        host_settings(root, source.len(), &mut host);
        Textures {
            decls: warpsafe_cuda_front::texture_decls(source),
            host,
        }
    }

    fn decl(&self, name: &str) -> Option<&TextureDecl> {
        self.decls.iter().find(|d| d.name == name)
    }

    fn host(&self, h: Host) -> Option<Span> {
        self.host.iter().find(|(k, _)| *k == h).map(|(_, s)| *s)
    }
}

/// Collects the texture settings host code selects (outside our headers).
fn host_settings(n: &Node, source_len: usize, out: &mut Vec<(Host, Span)>) {
    if headers::is_ours(&n.file) {
        return;
    }
    let span = n
        .span
        .filter(|s| (s.hi as usize) <= source_len)
        .unwrap_or(Span::DUMMY);
    if n.kind == "DeclRefExpr" {
        let setting = match n.referenced().map(|r| r.2) {
            Some("cudaFilterModeLinear") => Some(Host::LinearFilter),
            Some("cudaReadModeNormalizedFloat") => Some(Host::NormalizedRead),
            Some("cudaAddressModeMirror") => Some(Host::Mirror),
            Some("cudaAddressModeWrap") => Some(Host::Wrap),
            Some("cudaAddressModeBorder") => Some(Host::Border),
            _ => None,
        };
        if let Some(s) = setting {
            out.push((s, span));
        }
    }
    if n.kind == "BinaryOperator" && n.str("opcode") == Some("=") {
        let target = n.inner.first().map(strip_implicit);
        let value = n.inner.get(1).map(strip_implicit);
        let normalized = target.is_some_and(|t| {
            t.kind == "MemberExpr" && matches!(t.name(), Some("normalizedCoords" | "normalized"))
        });
        let zero = value.is_some_and(|v| {
            matches!(v.kind.as_str(), "IntegerLiteral" | "CXXBoolLiteralExpr")
                && (v.str("value") == Some("0")
                    || v.kind == "CXXBoolLiteralExpr" && !v.flag("value"))
        });
        if normalized && !zero {
            out.push((Host::NormalizedCoords, span));
        }
    }
    for c in &n.inner {
        host_settings(c, source_len, out);
    }
}

/// A texture object, a surface object, or neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Handle {
    Texture,
    Surface,
}

fn handle_of(written: &str) -> Option<Handle> {
    match written
        .trim()
        .trim_start_matches("const ")
        .trim_end_matches(" const")
    {
        "cudaTextureObject_t" => Some(Handle::Texture),
        "cudaSurfaceObject_t" => Some(Handle::Surface),
        _ => None,
    }
}

/// The fetch and store functions, by family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    /// `tex1Dfetch`: integer coordinate on linear memory.
    Fetch,
    /// `tex1D`/`tex2D`/`tex3D`: float coordinates, point sampled.
    Sample(usize),
    /// `tex1DLayered`/`tex2DLayered`: float coordinates in one layer of a stack of images.
    Layered(usize),
    /// `texCubemap`: a direction picks one of six faces and a point on it.
    Cubemap,
    /// `tex1DLod`/`tex2DLod`/`tex1DGrad`/`tex2DGrad`: a level of a mip chain we do not model.
    Level,
    /// `surf1Dread`/`surf2Dread`/`surf3Dread`, or their layered forms (`true`).
    Read(usize, bool),
    /// `surf1Dwrite`/`surf2Dwrite`/`surf3Dwrite`, or their layered forms (`true`).
    Write(usize, bool),
}

impl Op {
    /// True for the texture fetches (as opposed to surface accesses).
    fn fetches(self) -> bool {
        !matches!(self, Op::Read(..) | Op::Write(..))
    }
}

fn op_of(name: &str) -> Option<Result<Op, String>> {
    Some(Ok(match name {
        "tex1Dfetch" => Op::Fetch,
        "tex1D" => Op::Sample(1),
        "tex2D" => Op::Sample(2),
        "tex3D" => Op::Sample(3),
        "tex1DLayered" => Op::Layered(1),
        "tex2DLayered" => Op::Layered(2),
        "texCubemap" => Op::Cubemap,
        "tex1DLod" | "tex2DLod" | "tex1DGrad" | "tex2DGrad" => Op::Level,
        "surf1Dread" => Op::Read(1, false),
        "surf2Dread" => Op::Read(2, false),
        "surf3Dread" => Op::Read(3, false),
        "surf1DLayeredread" => Op::Read(1, true),
        "surf2DLayeredread" => Op::Read(2, true),
        "surf1Dwrite" => Op::Write(1, false),
        "surf2Dwrite" => Op::Write(2, false),
        "surf3Dwrite" => Op::Write(3, false),
        "surf1DLayeredwrite" => Op::Write(1, true),
        "surf2DLayeredwrite" => Op::Write(2, true),
        "texCubemapLayered" | "tex3DLod" | "tex3DGrad" | "texCubemapLod" | "surfCubemapread"
        | "surfCubemapwrite" => {
            return Some(Err(format!(
                "`{name}`: layered cubemaps, 3D mipmaps and cubemap surfaces are not supported"
            )))
        }
        "tex2Dgather" => return Some(Err(format!("`{name}`: texture gathers are not supported"))),
        _ => return None,
    }))
}

/// The extents a texture or surface of `op` declares, as the `//@ extent` line names them.
fn extent_words(op: Op) -> &'static str {
    match op {
        Op::Fetch | Op::Sample(1) | Op::Read(1, false) | Op::Write(1, false) => "width",
        Op::Sample(2) | Op::Read(2, false) | Op::Write(2, false) => "width, height",
        Op::Layered(1) | Op::Read(1, true) | Op::Write(1, true) => "width, layers",
        Op::Layered(_) | Op::Read(_, true) | Op::Write(_, true) => "width, height, layers",
        Op::Cubemap => "width, width, 6",
        _ => "width, height, depth",
    }
}

/// True when the parameter `p` is a legacy texture or surface reference (by value or by
/// reference, as `tex2DBicubic(const texture<uchar, 2, …> tex, …)` of the CUDA samples):
/// it stands for the file-scope reference its callers pass, so it takes no slot.
pub fn is_reference_param(p: &Node) -> bool {
    p.kind == "ParmVarDecl" && p.ty().is_some_and(is_reference_type)
}

/// True for `texture<…>` and `surface<…>`, `const` or a reference to one.
fn is_reference_type(ty: &str) -> bool {
    let t = types::strip_reference(ty)
        .0
        .trim()
        .trim_start_matches("const ");
    t.starts_with("texture<") || t.starts_with("surface<")
}

/// The legacy texture or surface reference the argument `a` copies, by name.
fn reference_named(a: &Node) -> Option<&str> {
    reference_copied(a).map(|(_, name)| name)
}

/// The declaration id and name of the legacy texture or surface reference (a file-scope
/// `texture<…>` or `surface<…>` variable) the argument `a` copies.
fn reference_copied(a: &Node) -> Option<(&str, &str)> {
    copied(a, "VarDecl")
}

/// The declaration id and name of the texture or surface reference of kind `decl` (a
/// `VarDecl` or a `ParmVarDecl`) the argument `a` copies.
fn copied<'n>(a: &'n Node, decl: &str) -> Option<(&'n str, &'n str)> {
    let mut n = a;
    loop {
        if n.kind == "DeclRefExpr" {
            let (id, kind, name) = n.referenced()?;
            let is_texture = n.ty().is_some_and(is_reference_type);
            return (kind == decl && is_texture).then_some((id, name));
        }
        let copies = matches!(
            n.kind.as_str(),
            "CXXConstructExpr" | "ImplicitCastExpr" | "MaterializeTemporaryExpr" | "ParenExpr"
        );
        if !copies || n.inner.len() != 1 {
            return None;
        }
        n = &n.inner[0];
    }
}

/// A fetch function's clang signature `R (A, B, …)`: the return type and the parameters.
fn signature(callee_ty: &str) -> Option<(String, Vec<String>)> {
    let open = callee_ty.find('(')?;
    let close = callee_ty.rfind(')')?;
    let ret = callee_ty[..open].trim().to_string();
    let mut params = vec![];
    let (mut depth, mut start) = (0i32, open + 1);
    for (i, c) in callee_ty[open + 1..close].char_indices() {
        let at = open + 1 + i;
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                params.push(callee_ty[start..at].trim().to_string());
                start = at + 1;
            }
            _ => {}
        }
    }
    let last = callee_ty[start..close].trim();
    if !last.is_empty() {
        params.push(last.to_string());
    }
    Some((ret, params))
}

/// Which argument is the texture or surface, and the texel type the call names (the
/// result, the pointee of the output pointer, or the value written).
fn texel_spelling(op: Op, ret: &str, params: &[String]) -> (usize, String) {
    let pointer_form = params.first().is_some_and(|p| p.ends_with('*'));
    match op {
        Op::Write(..) => (1, params.first().cloned().unwrap_or_default()),
        _ if pointer_form => {
            let p = params.first().map(String::as_str).unwrap_or("");
            (1, p.trim_end_matches('*').trim().to_string())
        }
        _ => (0, ret.to_string()),
    }
}

/// The texel type named `spelling`, or why it is not one we model.
fn texel(spelling: &str) -> Result<ScalarType, String> {
    let s = spelling.trim().trim_start_matches("const ").trim();
    match types::scalar(s) {
        Ok(Some(t)) => Ok(t),
        _ => Err(format!(
            "texel type `{s}`: only scalar texels are supported (not vector types)"
        )),
    }
}

/// The leaf scalars of a texel type (one for a scalar texel, four for `float4`), as a fetch
/// through a texture object names it.
#[derive(Debug, Clone)]
struct Leaves {
    scalar: ScalarType,
    count: u64,
    spelled: String,
}

/// What one texel of a texture is in its buffer: the buffer's scalar, the scalars per texel,
/// the scalar each leaf starts at, and whether fetches convert it to `float`
/// (`cudaReadModeNormalizedFloat`).
struct Texel {
    elem: ScalarType,
    stride: u64,
    starts: Vec<u64>,
    normalized: bool,
}

/// What a normalized-float read divides an element of type `t` by, and the least value it
/// gives (CUDA Programming Guide, "Texture Memory", read mode): 8- and 16-bit integers only.
fn normalizer(t: ScalarType) -> Option<(f64, f64)> {
    match t {
        ScalarType::U8 => Some((255.0, 0.0)),
        ScalarType::I8 => Some((127.0, -1.0)),
        ScalarType::U16 => Some((65535.0, 0.0)),
        ScalarType::I16 => Some((32767.0, -1.0)),
        _ => None,
    }
}

/// The callee name, its clang signature and the arguments of a call to a fetch function.
fn fetch_call(n: &Node) -> Option<(Op, String, Vec<&Node>)> {
    if n.kind != "CallExpr" {
        return None;
    }
    let callee = strip_implicit(n.inner.first()?);
    let (_, kind, name) = callee.referenced()?;
    if kind != "FunctionDecl" {
        return None;
    }
    let op = op_of(name)?.ok()?;
    let ty = callee.ty()?.to_string();
    Some((op, ty, n.inner.iter().skip(1).collect()))
}

impl Unit<'_> {
    /// Gives each legacy surface reference (`surface<void, 2> s;`) of [`Unit::globals`] the
    /// texel type its accesses in `root` name: a buffer of that scalar, or of a vector's
    /// leaves. One read or written as two types is not modelled (its accesses are rejected).
    pub fn type_surface_references(&mut self, root: &Node) {
        let mut uses: Vec<(String, Result<Leaves, String>)> = vec![];
        self.surface_uses(root, &mut uses, 0);
        for g in self.globals.iter_mut() {
            let mut mine = uses.iter().filter(|(id, _)| *id == g.id).map(|(_, t)| t);
            let Some(first) = mine.next() else { continue };
            let first = match first {
                Ok(t) => t,
                Err(m) => {
                    g.unmodelled = Some(format!("unsupported: the surface `{}`: {m}", g.name));
                    continue;
                }
            };
            if let Some(other) = mine.find(|t| {
                t.as_ref()
                    .map_or(true, |t| (t.scalar, t.count) != (first.scalar, first.count))
            }) {
                let other = match other {
                    Ok(t) => format!("`{}`", t.spelled),
                    Err(m) => m.clone(),
                };
                g.unmodelled = Some(format!(
                    "unsupported: the surface `{}` is accessed as `{}` and as {other}: one \
                     texel type per surface",
                    g.name, first.spelled
                ));
                continue;
            }
            g.param.ty.base = Some(first.scalar);
            if first.count > 1 {
                g.record_stride = Some(first.count);
            }
        }
    }

    /// The surface references (by declaration id) that the surface accesses in `n` name,
    /// with the texel type of each access.
    fn surface_uses(&self, n: &Node, out: &mut Vec<(String, Result<Leaves, String>)>, depth: u32) {
        if depth > 400 {
            return;
        }
        if let Some((op, ty, args)) = fetch_call(n).filter(|(op, _, _)| !op.fetches()) {
            let (ret, params) = signature(&ty).unwrap_or_default();
            let (at, spelling) = texel_spelling(op, &ret, &params);
            let surface = args
                .get(at)
                .and_then(|a| reference_copied(a))
                .map(|(id, _)| id);
            if let Some(id) = surface {
                let span = self.span(n, Span::DUMMY);
                out.push((id.to_string(), self.texel_leaves(&spelling, span)));
            }
        }
        for c in &n.inner {
            self.surface_uses(c, out, depth + 1);
        }
    }

    /// The leaves of the texel type `spelling`: a scalar, or a vector or record whose leaves
    /// share one type (`uchar4`, `float2`).
    fn texel_leaves(&self, spelling: &str, span: Span) -> Result<Leaves, String> {
        let s = spelling.trim().trim_start_matches("const ").trim();
        let spelled = s.to_string();
        if let Ok(t) = texel(s) {
            return Ok(Leaves {
                scalar: t,
                count: 1,
                spelled,
            });
        }
        let layout = self
            .layout_of(s, span)
            .map_err(|e| e.message.trim_start_matches("unsupported: ").to_string())?
            .ok_or_else(|| format!("texel type `{s}`: not a scalar, vector or record type"))?;
        if layout.view.is_some() {
            return Err(format!(
                "texel type `{s}`: a record whose leaves have different types"
            ));
        }
        Ok(Leaves {
            scalar: layout.scalar,
            count: layout.leaves,
            spelled,
        })
    }

    /// The buffer parameter a `cudaTextureObject_t` (read-only) or `cudaSurfaceObject_t`
    /// (read-write) parameter `p` of `f` stands for, `None` for other parameters.
    pub fn texture_param(
        &self,
        f: &FoundFn,
        p: &Node,
        span: Span,
    ) -> Result<Option<ast::ParamDecl>, FrontError> {
        let Some(handle) = p.written_ty().and_then(handle_of) else {
            return Ok(None);
        };
        let name = p.name().unwrap_or("").to_string();
        let mut found: Option<(Leaves, Span)> = None;
        self.texel_uses(f.node, p.id(), &name, span, 0, &mut found)?;
        if let Some((t, _)) = found.as_ref().filter(|(t, _)| t.count > 1) {
            if f.kind == ast::FnKind::Kernel {
                // Extents count texels; the buffer holds their leaves.
                self.record_params
                    .borrow_mut()
                    .push((f.name.clone(), name.clone(), t.count));
            }
        }
        let base = found.map(|(t, _)| t.scalar).unwrap_or(ScalarType::U8);
        Ok(Some(ast::ParamDecl {
            name,
            ty: ast::Type {
                base: Some(base),
                ptr: true,
                konst: handle == Handle::Texture,
                volatile: false,
                span,
            },
            span,
            constant: false,
        }))
    }

    /// Finds the texel type of every fetch in `n` through the parameter `id` (named `name`),
    /// following it into the user functions it is passed to.
    fn texel_uses(
        &self,
        n: &Node,
        id: &str,
        name: &str,
        outer: Span,
        depth: usize,
        found: &mut Option<(Leaves, Span)>,
    ) -> Result<(), FrontError> {
        let span = self.span(n, outer);
        let refers = |a: &Node| {
            let a = strip_implicit(a);
            a.kind == "DeclRefExpr" && a.referenced().is_some_and(|r| r.0 == id)
        };
        if let Some((op, ty, args)) = fetch_call(n) {
            let (ret, params) = signature(&ty).unwrap_or_default();
            let (at, spelling) = texel_spelling(op, &ret, &params);
            if args.get(at).is_some_and(|a| refers(a)) {
                let t = self
                    .texel_leaves(&spelling, span)
                    .map_err(|m| FrontError::new(span, m))?;
                match found {
                    Some((prev, at)) if (prev.scalar, prev.count) != (t.scalar, t.count) => {
                        return Err(FrontError::new(
                            span,
                            format!(
                                "`{name}` is read as `{}` here and as `{}` at bytes {}..{}: \
                                 one texel type per texture",
                                t.spelled, prev.spelled, at.lo, at.hi
                            ),
                        ))
                    }
                    Some(_) => {}
                    None => *found = Some((t, span)),
                }
            }
        } else if n.kind == "CallExpr" && depth < 8 {
            // Passed on to a helper: its parameter's fetches decide.
            let callee = n.inner.first().map(strip_implicit);
            let decl = callee.and_then(|c| c.referenced()).and_then(|(cid, _, _)| {
                match self.callee.get(cid) {
                    Some(super::Callee::User(_, d)) => Some(*d),
                    _ => None,
                }
            });
            if let Some(d) = decl {
                let params: Vec<&Node> =
                    d.inner.iter().filter(|c| c.kind == "ParmVarDecl").collect();
                for (i, a) in n.inner.iter().skip(1).enumerate() {
                    if let (true, Some(q)) = (refers(a), params.get(i)) {
                        if q.written_ty().and_then(handle_of).is_some() {
                            let qname = q.name().unwrap_or("");
                            self.texel_uses(d, q.id(), qname, span, depth + 1, found)?;
                        }
                    }
                }
            }
        }
        for c in &n.inner {
            self.texel_uses(c, id, name, span, depth, found)?;
        }
        Ok(())
    }

    /// The C a call to a texture or surface function `name` (declared in our headers)
    /// stands for, `None` when `name` is not one; `args` are the translated arguments of the
    /// call `n`.
    pub fn texture_call(
        &self,
        name: &str,
        n: &Node,
        span: Span,
    ) -> Option<Result<ExprKind, FrontError>> {
        let op = match op_of(name)? {
            Ok(op) => op,
            Err(m) => return Some(Err(FrontError::new(span, format!("unsupported: {m}")))),
        };
        let args = match self.texture_args(n, span) {
            Ok(a) => a,
            Err(e) => return Some(Err(e)),
        };
        let value = match op {
            Op::Write(..) => match self.record_value(n, span) {
                Ok(v) => v,
                Err(e) => return Some(Err(e)),
            },
            _ => None,
        };
        Some(
            self.texture_call_of(op, name, n, &args, value, span)
                .map_err(|m| FrontError::new(span, format!("unsupported: {m}"))),
        )
    }

    /// The leaves of the record a fetch `n` of a vector texel returns (`float2 v =
    /// tex1Dfetch(t, i)`, a normalized `uchar4` texel read as `float4`), each loaded at the
    /// texel's index with the addressing of a scalar fetch; `None` when `name` is not a
    /// texture fetch.
    pub fn texture_record(
        &self,
        name: &str,
        n: &Node,
        span: Span,
    ) -> Option<Result<Vec<Expr>, FrontError>> {
        let op = match op_of(name)? {
            Ok(op) => op,
            Err(m) => return Some(Err(FrontError::new(span, format!("unsupported: {m}")))),
        };
        let result = self.texture_args(n, span).and_then(|args| {
            let fetched = match op {
                _ if op.fetches() => self.fetch_leaves(op, name, n, &args, span),
                Op::Read(..) => self.surface_leaves(op, name, n, &args, None, span).map(
                    |(check, mut leaves, at)| {
                        if let Some(first) = leaves.first_mut() {
                            *first = Expr::new(
                                ExprKind::Comma(Box::new(check), Box::new(first.clone())),
                                span,
                            );
                        }
                        (leaves, at)
                    },
                ),
                _ => Err(format!("`{name}` has no value")),
            };
            let (leaves, at) =
                fetched.map_err(|m| FrontError::new(span, format!("unsupported: {m}")))?;
            if at != 0 {
                return Err(FrontError::new(
                    span,
                    format!(
                        "unsupported: the pointer form of `{name}` with a vector texel (use the \
                         value it returns: `v = {name}<T>(…)`)"
                    ),
                ));
            }
            Ok(leaves)
        });
        Some(result)
    }

    /// The file-scope reference the helper parameter `id` (see [`is_reference_param`]) stands
    /// for: the one every call of the helper passes, directly or through the callers' own
    /// reference parameters (`depth` bounds that chain).
    fn reference_for_param(&self, id: &str, depth: usize) -> Result<String, String> {
        if depth > 8 {
            return Err("passed through more than 8 helpers".into());
        }
        let mut passed: Vec<String> = vec![];
        for f in &self.functions {
            self.references_passed(f.node, id, depth, &mut passed)?;
        }
        passed.sort();
        passed.dedup();
        match &passed[..] {
            [one] => Ok(one.clone()),
            [] => Err("no call passes it a file-scope texture reference".into()),
            [a, b, ..] => Err(format!(
                "its calls pass different references (`{a}`, `{b}`); one per helper"
            )),
        }
    }

    /// Adds to `out` the reference each call in `n` passes to the parameter `id`.
    fn references_passed(
        &self,
        n: &Node,
        id: &str,
        depth: usize,
        out: &mut Vec<String>,
    ) -> Result<(), String> {
        if n.kind == "CallExpr" {
            let decl = n
                .inner
                .first()
                .map(strip_implicit)
                .and_then(|c| c.referenced())
                .and_then(|(cid, _, _)| match self.callee.get(cid) {
                    Some(super::Callee::User(_, d)) => Some(*d),
                    _ => None,
                });
            let at = decl.and_then(|d| {
                d.inner
                    .iter()
                    .filter(|c| c.kind == "ParmVarDecl")
                    .position(|p| p.id() == id)
            });
            if let Some(a) = at.and_then(|i| n.inner.get(1 + i)) {
                if let Some(name) = reference_named(a) {
                    out.push(name.to_string());
                } else if let Some((outer, _)) = copied(a, "ParmVarDecl") {
                    out.push(self.reference_for_param(outer, depth + 1)?);
                } else {
                    return Err("a call passes it something other than a texture reference".into());
                }
            }
        }
        for c in &n.inner {
            self.references_passed(c, id, depth, out)?;
        }
        Ok(())
    }

    /// The translated arguments of the texture call `n`; a texture reference is named, not
    /// copied.
    fn texture_args(&self, n: &Node, span: Span) -> Result<Vec<Expr>, FrontError> {
        let mut args = vec![];
        for a in n.inner.iter().skip(1) {
            if a.kind == "CXXDefaultArgExpr" {
                continue;
            }
            // A texture reference is passed by value: its copy, not a value we model.
            if let Some(r) = reference_named(a) {
                args.push(Expr::new(
                    ExprKind::Ident(r.to_string()),
                    self.span(a, span),
                ));
                continue;
            }
            // A helper's reference parameter: the reference its callers pass.
            if let Some((id, pname)) = copied(a, "ParmVarDecl") {
                let r = self.reference_for_param(id, 0).map_err(|m| {
                    FrontError::new(
                        span,
                        format!("unsupported: the texture parameter `{pname}`: {m}"),
                    )
                })?;
                args.push(Expr::new(ExprKind::Ident(r), self.span(a, span)));
                continue;
            }
            if self.record(a.ty().unwrap_or("")).is_some() {
                // A vector written to a surface (its leaves: `record_value`) holds the first
                // place; a gradient's leaves only need to be free of effects.
                if args.is_empty() {
                    args.push(Expr::new(ExprKind::Int(0, ScalarType::I32), span));
                } else {
                    args.extend(self.record_fields(a, span)?);
                }
                continue;
            }
            args.push(self.expr(a, span)?);
        }
        Ok(args)
    }

    /// The leaves of the vector or record value the surface write `n` stores, `None` when
    /// it stores a scalar.
    fn record_value(&self, n: &Node, span: Span) -> Result<Option<Vec<Expr>>, FrontError> {
        match n.inner.get(1) {
            Some(a) if self.record(a.ty().unwrap_or("")).is_some() => {
                self.record_fields(a, span).map(Some)
            }
            _ => Ok(None),
        }
    }

    /// The texel of the texture `tex` a call reads: from the reference's type `source_ty`
    /// (its element type and read mode), else the type the call names (`spelling`).
    fn texel_of(
        &self,
        tex: &str,
        source_ty: Option<&str>,
        spelling: &str,
        span: Span,
    ) -> Result<Texel, String> {
        let reference = source_ty.and_then(super::globals::texture_texel);
        let normalized = source_ty.is_some_and(|t| t.contains("cudaReadModeNormalizedFloat"));
        let s = reference.unwrap_or(spelling);
        let s = s.trim().trim_start_matches("const ").trim();
        // Names what is wrong with a texel we cannot lay out.
        self.texel_leaves(s, span)?;
        let mut t = match types::scalar(s).ok().flatten() {
            Some(elem) => Texel {
                elem,
                stride: 1,
                starts: vec![0],
                normalized,
            },
            None => {
                let layout = self
                    .layout_of(s, span)
                    .ok()
                    .flatten()
                    .ok_or_else(|| format!("texel type `{s}` is not laid out in memory"))?;
                Texel {
                    elem: layout.scalar,
                    stride: layout.leaves,
                    starts: layout.starts,
                    normalized,
                }
            }
        };
        if normalized && normalizer(t.elem).is_none() {
            return Err(format!(
                "`cudaReadModeNormalizedFloat` of `{tex}`, whose elements are `{}` (only 8- and \
                 16-bit integers are normalized)",
                t.elem.c_name()
            ));
        }
        // The buffer is the one the reference's global declared.
        if let Some(g) = self
            .globals
            .iter()
            .find(|g| g.name == tex && g.extent.is_none())
        {
            let stride = g.record_stride.unwrap_or(1);
            if g.param.ty.base != Some(t.elem) || stride != t.stride {
                return Err(format!(
                    "texel type `{s}` of `{tex}` is not laid out in memory"
                ));
            }
            t.stride = stride;
        }
        Ok(t)
    }

    fn texture_call_of(
        &self,
        op: Op,
        name: &str,
        n: &Node,
        args: &[Expr],
        value: Option<Vec<Expr>>,
        span: Span,
    ) -> Result<ExprKind, String> {
        if op.fetches() {
            let (leaves, at) = self.fetch_leaves(op, name, n, args, span)?;
            let [value] = <[Expr; 1]>::try_from(leaves)
                .map_err(|_| format!("`{name}` of a vector texel where a scalar is expected"))?;
            let b = Build {
                span,
                ty: ScalarType::F32,
            };
            return Ok(self.deliver(op, at, args, value, &b));
        }
        let (check, leaves, at) = self.surface_leaves(op, name, n, args, value, span)?;
        let b = Build {
            span,
            ty: ScalarType::F32,
        };
        let done = match (op, <[Expr; 1]>::try_from(leaves)) {
            (Op::Write(..), Ok([store])) => store,
            (Op::Write(..), Err(stores)) => stores
                .into_iter()
                .reduce(|a, c| b.e(ExprKind::Comma(Box::new(a), Box::new(c))))
                .ok_or_else(|| format!("`{name}` of an empty texel"))?,
            (_, Ok([value])) => Expr::new(self.deliver(op, at, args, value, &b), span),
            (_, Err(_)) => {
                return Err(format!(
                    "the pointer form of `{name}` with a vector texel (use the value it \
                     returns: `v = {name}<T>(…)`)"
                ))
            }
        };
        Ok(ExprKind::Comma(Box::new(check), Box::new(done)))
    }

    /// A surface access `n`: the assertion that its byte x coordinate is a multiple of the
    /// texel's size, then per leaf of the texel (one for a scalar) the value read or the
    /// store of `value`'s leaf (`args[0]` for a scalar), and which argument is the surface.
    fn surface_leaves(
        &self,
        op: Op,
        name: &str,
        n: &Node,
        args: &[Expr],
        value: Option<Vec<Expr>>,
        span: Span,
    ) -> Result<(Expr, Vec<Expr>, usize), String> {
        let callee_ty = n
            .inner
            .first()
            .map(strip_implicit)
            .and_then(|c| c.ty())
            .unwrap_or("");
        let (ret, params) =
            signature(callee_ty).ok_or_else(|| format!("`{name}` without a signature"))?;
        let (at, spelling) = texel_spelling(op, &ret, &params);
        let Some(ExprKind::Ident(tex)) = args.get(at).map(|a| &a.kind) else {
            return Err(format!(
                "`{name}` of a texture or surface that is not a parameter or texture reference"
            ));
        };
        let texel = self.texel_of(tex, None, &spelling, span)?;
        let b = Build {
            span,
            ty: texel.elem,
        };
        let coords = args.get(at + 1..).unwrap_or(&[]);
        for c in coords {
            if !pure(c) {
                return Err(format!(
                    "`{name}` with a coordinate that has effects or calls a helper \
                     (assign it to a variable first)"
                ));
            }
        }
        let decl = self.textures.decl(tex);
        let tex_e = b.ident(tex);
        let (dims, layered) = match op {
            Op::Read(d, l) | Op::Write(d, l) => (d, l),
            _ => return Err(format!("`{name}` is not a surface access")),
        };
        // The coordinates: x in bytes, the other axes, then the layer.
        let axes = dims + usize::from(layered);
        let mode = match coords.get(axes).map(|m| &m.kind) {
            None => 2,
            Some(ExprKind::Int(m, _)) if *m <= 2 => *m,
            Some(_) => {
                return Err(format!(
                    "`{name}` with a boundary mode that is not a constant"
                ))
            }
        };
        if coords.len() < axes || coords.len() > axes + 1 {
            return Err(format!("`{name}` takes {axes} coordinate(s)"));
        }
        let mut host_bound = false;
        let extents: Vec<Expr> = match self.usable_extents(tex, decl, span) {
            Ok(Some(e)) if e.len() == axes => e,
            _ if axes == 1 => vec![b.call("__warpsafe_buffer_len", vec![tex_e.clone()])],
            Err(m) => return Err(m),
            Ok(None) if self.is_reference(tex) => {
                // A surface reference the host binds to an array: the leading extents are
                // the host's, the last one what the buffer holds of them.
                let len = b.call("__warpsafe_buffer_len", vec![tex_e.clone()]);
                let stride = self
                    .globals
                    .iter()
                    .find(|g| g.name == *tex)
                    .and_then(|g| g.record_stride)
                    .unwrap_or(1);
                host_bound = true;
                b.host_surface_extents(tex, axes, len, stride)
            }
            _ => {
                return Err(format!(
                    "`{name}` of `{tex}` needs its extents: `//@ extent({tex}) = {}`",
                    extent_words(op)
                ));
            }
        };
        let size = texel.stride * u64::from(texel.elem.bits() / 8).max(1);
        let xb = coords[0].clone();
        let aligned = b.bin(
            BinaryOp::Eq,
            b.bin(BinaryOp::Rem, xb.clone(), b.int(size)),
            b.int(0),
        );
        let x = b.bin(BinaryOp::Div, xb, b.int(size));
        let mut index: Vec<Expr> = vec![x];
        index.extend(coords[1..axes].iter().cloned());
        let (linear, inside) = b.surface_index(&index, &extents, mode, layered, host_bound);
        let element = |start: u64| {
            if texel.stride == 1 && start == 0 {
                return linear.clone();
            }
            b.bin(
                BinaryOp::Add,
                b.bin(
                    BinaryOp::Mul,
                    b.cast(ScalarType::I64, linear.clone()),
                    b.e(ExprKind::Int(texel.stride, ScalarType::I64)),
                ),
                b.e(ExprKind::Int(start, ScalarType::I64)),
            )
        };
        let stored = match (op, value) {
            (Op::Write(..), Some(v)) => v,
            (Op::Write(..), None) => vec![args
                .first()
                .cloned()
                .ok_or_else(|| format!("`{name}` without a value"))?],
            _ => vec![],
        };
        if matches!(op, Op::Write(..)) && stored.len() != texel.starts.len() {
            return Err(format!(
                "`{name}` of a value with {} leaves into texels of {}",
                stored.len(),
                texel.starts.len()
            ));
        }
        let mut leaves = vec![];
        for (k, &start) in texel.starts.iter().enumerate() {
            let access = b.index(tex_e.clone(), element(start));
            leaves.push(match stored.get(k) {
                Some(v) => {
                    let store = b.assign(access, v.clone());
                    match &inside {
                        Some(ok) => b.cond(ok.clone(), store, v.clone()),
                        None => store,
                    }
                }
                None => match &inside {
                    Some(ok) => b.cond(ok.clone(), access, b.zero()),
                    None => access,
                },
            });
        }
        let check = b.call("__assert", vec![aligned]);
        Ok((check, leaves, at))
    }

    /// The value of each leaf of the texel a `tex1Dfetch`, `tex1D` or `tex2D` call `n` reads
    /// (one for a scalar texel), and which argument is the texture.
    fn fetch_leaves(
        &self,
        op: Op,
        name: &str,
        n: &Node,
        args: &[Expr],
        span: Span,
    ) -> Result<(Vec<Expr>, usize), String> {
        let callee_ty = n
            .inner
            .first()
            .map(strip_implicit)
            .and_then(|c| c.ty())
            .unwrap_or("");
        let (ret, params) =
            signature(callee_ty).ok_or_else(|| format!("`{name}` without a signature"))?;
        let (at, spelling) = texel_spelling(op, &ret, &params);
        // A legacy reference carries its texel type and read mode in its type.
        let source_ty = n.inner.get(1 + at).map(strip_implicit).and_then(|a| a.ty());
        if op == Op::Level {
            let leaves = self.level_leaves(
                name,
                source_ty,
                &spelling,
                &args[at.min(args.len())..],
                span,
            )?;
            return Ok((leaves, at));
        }
        let Some(ExprKind::Ident(tex)) = args.get(at).map(|a| &a.kind) else {
            return Err(format!(
                "`{name}` of a texture or surface that is not a parameter or texture reference"
            ));
        };
        let texel = self.texel_of(tex, source_ty, &spelling, span)?;
        let by_type = source_ty.and_then(super::globals::texture_texel).is_some();
        let b = Build {
            span,
            ty: texel.elem,
        };
        let coords = args.get(at + 1..).unwrap_or(&[]);
        for c in coords {
            if !pure(c) {
                return Err(format!(
                    "`{name}` with a coordinate that has effects or calls a helper \
                     (assign it to a variable first)"
                ));
            }
        }
        let decl = self.textures.decl(tex);
        let tex_e = b.ident(tex);
        // The number of texels in the buffer, whose length counts scalars.
        let texels_in = |len: Expr| {
            let len = b.cast(ScalarType::I64, len);
            if texel.stride == 1 {
                len
            } else {
                b.bin(
                    BinaryOp::Div,
                    len,
                    b.e(ExprKind::Int(texel.stride, ScalarType::I64)),
                )
            }
        };
        let (index, inside) = match op {
            Op::Fetch => {
                if let (Some(s), false) = (self.textures.host(Host::NormalizedRead), by_type) {
                    return Err(host_message(name, Host::NormalizedRead, s));
                }
                let [x] = coords else {
                    return Err(format!("`{name}` takes one coordinate"));
                };
                let bound = match self.usable_extents(tex, decl, span) {
                    Ok(Some(e)) => extent_product(&e, span),
                    // Without a usable extent the header's length bounds the fetch.
                    _ => texels_in(b.call("__warpsafe_buffer_len", vec![tex_e.clone()])),
                };
                let inside = b.and(
                    b.bin(BinaryOp::Ge, x.clone(), b.int(0)),
                    b.bin(
                        BinaryOp::Lt,
                        b.cast(ScalarType::I64, x.clone()),
                        b.cast(ScalarType::I64, bound),
                    ),
                );
                (x.clone(), Some(inside))
            }
            Op::Sample(_) | Op::Layered(_) | Op::Cubemap => {
                self.sampling_allowed(name, tex, decl, by_type)?;
                let len = texels_in(b.call("__warpsafe_buffer_len", vec![tex_e.clone()]));
                self.sampled_index(op, name, tex, decl, coords, len, &b)?
            }
            _ => return Err(format!("`{name}` is not a texture fetch")),
        };
        let leaves = texel
            .starts
            .iter()
            .map(|&start| {
                let at = if texel.stride == 1 && start == 0 {
                    index.clone()
                } else {
                    b.bin(
                        BinaryOp::Add,
                        b.bin(
                            BinaryOp::Mul,
                            b.cast(ScalarType::I64, index.clone()),
                            b.e(ExprKind::Int(texel.stride, ScalarType::I64)),
                        ),
                        b.e(ExprKind::Int(start, ScalarType::I64)),
                    )
                };
                let load = b.index(tex_e.clone(), at);
                let value = match &inside {
                    Some(ok) => b.cond(ok.clone(), load, b.zero()),
                    None => load,
                };
                b.normalize(value, &texel)
            })
            .collect();
        Ok((leaves, at))
    }

    /// The texel index a sampled fetch (`tex1D`…`tex3D`, `tex1DLayered`, `tex2DLayered`,
    /// `texCubemap`) of `tex` at `coords` reads, and the condition under which it reads it
    /// (border addressing, a reference bound to nothing); `len` is the buffer's length in
    /// texels.
    #[allow(clippy::too_many_arguments)]
    fn sampled_index(
        &self,
        op: Op,
        name: &str,
        tex: &str,
        decl: Option<&TextureDecl>,
        coords: &[Expr],
        len: Expr,
        b: &Build,
    ) -> Result<(Expr, Option<Expr>), String> {
        let span = b.span;
        // Image axes, extents declared, coordinates taken.
        let (spatial, want, given) = match op {
            Op::Sample(d) => (d, d, d),
            Op::Layered(d) => (d, d + 1, d + 1),
            _ => (2, 3, 3),
        };
        let extents = self.usable_extents(tex, decl, span)?;
        let plain = TextureDecl {
            name: tex.to_string(),
            span,
            extents: vec![],
            address: None,
            normalized: false,
        };
        let (d, extents, host_bound) = match (decl, extents.filter(|e| e.len() == want)) {
            (Some(d), Some(e)) => (d, e, false),
            (d, None)
                if d.is_none_or(|d| d.extents.is_empty())
                    && (self.is_reference(tex) || self.has_host_extents(tex)) =>
            {
                let host_axes = if op == Op::Cubemap { 2 } else { want };
                let mut e = b.reference_extents(tex, host_axes);
                if op == Op::Cubemap {
                    e.push(b.int(6));
                }
                (d.unwrap_or(&plain), e, true)
            }
            _ => {
                return Err(format!(
                    "`{name}` of `{tex}` needs its extents: `//@ extent({tex}) = {}`",
                    extent_words(op)
                ));
            }
        };
        if coords.len() != given {
            return Err(format!("`{name}` takes {given} coordinate(s)"));
        }
        let mode = d.address.map(|a| a.0).unwrap_or_default();
        if mode == Address::Wrap && !d.normalized && op != Op::Cubemap {
            return Err(format!(
                "wrap addressing of `{tex}` with unnormalized coordinates (CUDA \
                 switches it to clamp): declare `//@ normalized({tex})` or another mode"
            ));
        }
        let mut index = vec![];
        let mut inside: Option<Expr> = None;
        let mut layer_ok = None;
        if op == Op::Cubemap {
            if !matches!(extents[2].kind, ExprKind::Int(6, _)) {
                return Err(format!(
                    "`{name}` of `{tex}`, whose third extent is not 6 (a cubemap has six faces: \
                     `//@ extent({tex}) = width, width, 6`)"
                ));
            }
            if mode != Address::Clamp {
                return Err(format!(
                    "`{name}` of `{tex}` with border or wrap addressing (cubemap faces are \
                     modelled with clamp only)"
                ));
            }
            index = b.cube_texel(coords, &extents);
        } else {
            for (c, e) in coords.iter().zip(&extents).take(spatial) {
                let (i, ok) = b.texel_index(c, e, mode, d.normalized);
                index.push(i);
                if let Some(ok) = ok {
                    inside = Some(match inside {
                        Some(prev) => b.and(prev, ok),
                        None => ok,
                    });
                }
            }
            if op != Op::Sample(spatial) {
                // The layer is an integer, never filtered or wrapped.
                let layer = b.cast(ScalarType::I32, coords[spatial].clone());
                layer_ok = Some(b.inside(&layer, &extents[spatial]));
                index.push(layer);
            }
        }
        let mut linear = if index.len() > 2 {
            b.linear_wide(&index, &extents)
        } else {
            b.linear(&index, &extents)
        };
        if host_bound {
            // Extents the host binds never exceed the buffer: the texel index is kept
            // below its length (one expression, so the bound is evident to every
            // engine), and a texture bound to nothing reads 0.
            let last = b.bin(
                BinaryOp::Sub,
                len.clone(),
                b.e(ExprKind::Int(1, ScalarType::I64)),
            );
            linear = b.call("min", vec![b.linear_wide(&index, &extents), last]);
            let bound = b.bin(BinaryOp::Gt, len, b.e(ExprKind::Int(0, ScalarType::I64)));
            inside = Some(match inside {
                Some(prev) => b.and(prev, bound),
                None => bound,
            });
        }
        if let Some(ok) = layer_ok {
            // A layer outside the stack reads outside the buffer: a bounds finding.
            linear = b.cond(ok, linear, b.minus_one());
        }
        Ok((linear, inside))
    }

    /// The leaves of a mipmapped fetch (`tex2DLod`, `tex2DGrad`, …): the level of detail picks
    /// an image of the mip chain, which we do not model, so each leaf is an arbitrary value
    /// of the texel's type and no memory is read. `rest` is the texture and the coordinates,
    /// which must have no effects.
    fn level_leaves(
        &self,
        name: &str,
        source_ty: Option<&str>,
        spelling: &str,
        rest: &[Expr],
        span: Span,
    ) -> Result<Vec<Expr>, String> {
        if !rest.iter().all(pure) {
            return Err(format!(
                "`{name}` with a texture or coordinate that has effects or calls a helper \
                 (assign it to a variable first)"
            ));
        }
        let texel = self.texel_of("", source_ty, spelling, span)?;
        let b = Build {
            span,
            ty: texel.elem,
        };
        let leaves = texel
            .starts
            .iter()
            .map(|_| {
                let v = b.call(
                    &format!("__warpsafe_arbitrary_{}", texel.elem.name()),
                    vec![],
                );
                b.normalize(v, &texel)
            })
            .collect();
        Ok(leaves)
    }

    /// The call's result: the value, or its store through the output pointer.
    fn deliver(&self, _op: Op, at: usize, args: &[Expr], value: Expr, b: &Build) -> ExprKind {
        if at == 1 {
            if let Some(out) = args.first() {
                let target = match &out.kind {
                    ExprKind::Unary(UnaryOp::AddrOf, x) => (**x).clone(),
                    _ => Expr::new(
                        ExprKind::Unary(UnaryOp::Deref, Box::new(out.clone())),
                        b.span,
                    ),
                };
                return b.assign(target, value).kind;
            }
        }
        value.kind
    }

    /// The extents of `tex` as expressions valid at the call at `span`: the header's, when
    /// they name only constants, or kernel parameters no local variable of the kernel
    /// shadows. `None` without extents; an error when the call is in a helper (whose names
    /// are not the kernel's) or a local shadows a name.
    fn usable_extents(
        &self,
        tex: &str,
        decl: Option<&TextureDecl>,
        span: Span,
    ) -> Result<Option<Vec<Expr>>, String> {
        let Some(d) = decl.filter(|d| !d.extents.is_empty()) else {
            return Ok(None);
        };
        let mut names = vec![];
        for e in &d.extents {
            ast::visit_subexprs(e, &mut |e| {
                if let ExprKind::Ident(n) = &e.kind {
                    names.push(n.clone());
                }
            });
        }
        if names.is_empty() {
            return Ok(Some(d.extents.clone()));
        }
        let within = |f: &&FoundFn| {
            let s = self.span(f.node, Span::DUMMY);
            !s.is_dummy() && s.lo <= span.lo && span.hi <= s.hi
        };
        let Some(f) = self.functions.iter().find(within) else {
            return Err(format!("the extents of `{tex}` outside a kernel"));
        };
        if f.kind != ast::FnKind::Kernel {
            return Err(format!(
                "the extents of `{tex}` name `{}`, a name of the kernel, but this fetch is in \
                 the helper `{}`: fetch in the kernel, or give constant extents",
                names[0], f.name
            ));
        }
        let mut locals = vec![];
        local_names(f.node, &mut locals);
        if let Some(n) = names.iter().find(|n| locals.contains(n)) {
            return Err(format!(
                "the extents of `{tex}` name `{n}`, which a local variable of `{}` also \
                 names (rename the local)",
                f.name
            ));
        }
        Ok(Some(d.extents.clone()))
    }

    /// Rejects a sampled fetch of `tex` that host code configures beyond what we model.
    /// True when `tex` is a legacy texture reference (`texture<float, 2> tex;`).
    /// The texture-object parameters of `f` get the extents a legacy reference has when no
    /// `//@ extent` line sizes them: scalar parameters the host's object sets
    /// ([`super::globals::extent_params`]), covered for every value by `verify`. A fetch
    /// never faults (its coordinates are clamped), so nothing rests on their values but
    /// which texel is read. Surface objects, whose stores can trap, still need the line.
    pub(super) fn collect_object_extents(&mut self, f: &Node) {
        for p in f.inner.iter().filter(|c| c.kind == "ParmVarDecl") {
            if p.written_ty().and_then(handle_of) != Some(Handle::Texture) {
                continue;
            }
            let Some(name) = p.name().filter(|n| !n.is_empty()) else {
                continue;
            };
            if self.has_host_extents(name) {
                continue;
            }
            let span = self.span(p, Span::DUMMY);
            let extents = super::globals::extent_params(name, p.id(), span);
            self.globals.extend(extents);
        }
    }

    /// True when the texture `tex` has host-bound extent parameters.
    fn has_host_extents(&self, tex: &str) -> bool {
        let first = super::globals::extent_name(tex, 0);
        self.globals.iter().any(|g| g.name == first)
    }

    fn is_reference(&self, tex: &str) -> bool {
        self.globals
            .iter()
            .any(|g| g.name == tex && g.extent.is_none() && g.param.ty.ptr)
    }

    fn sampling_allowed(
        &self,
        name: &str,
        tex: &str,
        decl: Option<&TextureDecl>,
        by_type: bool,
    ) -> Result<(), String> {
        for h in [Host::LinearFilter, Host::NormalizedRead, Host::Mirror] {
            // A reference's read mode is in its type, not in host code.
            if h == Host::NormalizedRead && by_type {
                continue;
            }
            if let Some(s) = self.textures.host(h) {
                return Err(host_message(name, h, s));
            }
        }
        let declared = |want: Address| {
            self.textures
                .decls
                .iter()
                .any(|d| d.address.is_some_and(|a| a.0 == want))
        };
        for (h, mode, word) in [
            (Host::Wrap, Address::Wrap, "wrap"),
            (Host::Border, Address::Border, "border"),
        ] {
            if let (Some(s), false) = (self.textures.host(h), declared(mode)) {
                return Err(format!(
                    "{} selected by host code at bytes {}..{} but no texture declares it: \
                     add `//@ address({tex}) = {word}` if `{name}` reads `{tex}` that way",
                    h.describe(),
                    s.lo,
                    s.hi
                ));
            }
        }
        let normalized_somewhere = self.textures.decls.iter().any(|d| d.normalized);
        if let (Some(s), false) = (
            self.textures.host(Host::NormalizedCoords),
            normalized_somewhere || decl.is_some_and(|d| d.normalized),
        ) {
            return Err(format!(
                "normalized coordinates set by host code at bytes {}..{} but no texture \
                 declares them: add `//@ normalized({tex})` if `{name}` reads `{tex}` that way",
                s.lo, s.hi
            ));
        }
        Ok(())
    }
}

/// The names of the variables declared in `n` (not its parameters).
fn local_names(n: &Node, out: &mut Vec<String>) {
    if n.kind == "VarDecl" {
        if let Some(name) = n.name() {
            out.push(name.to_string());
        }
    }
    for c in &n.inner {
        local_names(c, out);
    }
}

fn host_message(name: &str, h: Host, s: Span) -> String {
    format!(
        "`{name}` in a file whose host code selects {} (bytes {}..{}), which is not modelled",
        h.describe(),
        s.lo,
        s.hi
    )
}

fn extent_product(extents: &[Expr], span: Span) -> Expr {
    let b = Build {
        span,
        ty: ScalarType::I64,
    };
    let mut it = extents.iter();
    let first = it.next().cloned().unwrap_or_else(|| b.int(0));
    it.fold(b.cast(ScalarType::I64, first), |acc, e| {
        b.bin(BinaryOp::Mul, acc, b.cast(ScalarType::I64, e.clone()))
    })
}

/// True for an expression that may be evaluated more than once: no effects, and calls only
/// of math functions.
fn pure(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(..)
        | ExprKind::Float(..)
        | ExprKind::Bool(_)
        | ExprKind::Ident(_)
        | ExprKind::SizeOf(_) => true,
        ExprKind::Member(b, _) | ExprKind::Cast(_, b) | ExprKind::Unary(_, b) => pure(b),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => pure(a) && pure(b),
        ExprKind::Cond(c, a, b) => pure(c) && pure(a) && pure(b),
        ExprKind::Call(f, _, args) => {
            matches!(
                f.as_str(),
                "floorf"
                    | "ceilf"
                    | "roundf"
                    | "truncf"
                    | "fminf"
                    | "fmaxf"
                    | "min"
                    | "max"
                    | "fabsf"
                    | "abs"
                    | "rintf"
                    | "__float2int_rn"
                    | "__float2int_rz"
                    | "__int2float_rn"
            ) && args.iter().all(pure)
        }
        ExprKind::IncDec { .. } | ExprKind::Assign(..) | ExprKind::Comma(..) => false,
    }
}

/// Builds subset expressions at one span, for texels of type `ty`.
struct Build {
    span: Span,
    ty: ScalarType,
}

impl Build {
    fn e(&self, kind: ExprKind) -> Expr {
        Expr::new(kind, self.span)
    }
    fn ident(&self, n: &str) -> Expr {
        self.e(ExprKind::Ident(n.to_string()))
    }
    fn int(&self, v: u64) -> Expr {
        self.e(ExprKind::Int(v, ScalarType::I32))
    }
    fn float(&self, v: f64) -> Expr {
        self.e(ExprKind::Float(v, ScalarType::F32))
    }
    fn zero(&self) -> Expr {
        self.cast(self.ty, self.int(0))
    }
    fn cast(&self, to: ScalarType, e: Expr) -> Expr {
        super::expr::scalar_cast(to, e, self.span)
    }
    fn bin(&self, op: BinaryOp, a: Expr, b: Expr) -> Expr {
        self.e(ExprKind::Binary(op, Box::new(a), Box::new(b)))
    }
    fn and(&self, a: Expr, b: Expr) -> Expr {
        self.bin(BinaryOp::And, a, b)
    }
    fn cond(&self, c: Expr, a: Expr, b: Expr) -> Expr {
        self.e(ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)))
    }
    fn call(&self, f: &str, args: Vec<Expr>) -> Expr {
        self.e(ExprKind::Call(f.to_string(), self.span, args))
    }
    fn index(&self, a: Expr, i: Expr) -> Expr {
        self.e(ExprKind::Index(Box::new(a), Box::new(i)))
    }
    fn assign(&self, target: Expr, value: Expr) -> Expr {
        self.e(ExprKind::Assign(None, Box::new(target), Box::new(value)))
    }
    /// The extents of the texture reference `tex` as the host binds them: the parameters of
    /// [`super::globals::texture_extents`], each at least 1.
    fn reference_extents(&self, tex: &str, dims: usize) -> Vec<Expr> {
        (0..dims)
            .map(|axis| {
                let cell = self.ident(&super::globals::extent_name(tex, axis));
                let at_least_one =
                    self.call("max", vec![cell, self.e(ExprKind::Int(1, ScalarType::U32))]);
                // CUDA's extents are far below `INT_MAX`; the cap keeps `int` clamps exact.
                self.call(
                    "min",
                    vec![
                        at_least_one,
                        self.e(ExprKind::Int(i32::MAX as u64, ScalarType::U32)),
                    ],
                )
            })
            .collect()
    }

    /// A normalized-float read of `value` (see [`normalizer`]) when `texel` is read so.
    fn normalize(&self, value: Expr, texel: &Texel) -> Expr {
        match normalizer(texel.elem).filter(|_| texel.normalized) {
            Some((scale, least)) => {
                let v = self.bin(
                    BinaryOp::Div,
                    self.cast(ScalarType::F32, value),
                    self.float(scale),
                );
                if least < 0.0 {
                    self.call("fmaxf", vec![v, self.float(least)])
                } else {
                    v
                }
            }
            None => value,
        }
    }

    /// `-1`: an index outside every buffer.
    fn minus_one(&self) -> Expr {
        self.e(ExprKind::Unary(UnaryOp::Neg, Box::new(self.int(1))))
    }

    /// `0 <= i && i < n`, compared in `long long`.
    fn inside(&self, i: &Expr, n: &Expr) -> Expr {
        self.and(
            self.bin(BinaryOp::Ge, i.clone(), self.int(0)),
            self.bin(
                BinaryOp::Lt,
                self.cast(ScalarType::I64, i.clone()),
                self.cast(ScalarType::I64, n.clone()),
            ),
        )
    }

    /// The texel `[s, t, face]` a cubemap fetch in direction `c = (x, y, z)` reads, by the
    /// Programming Guide's table ("Cubemap Textures"): the axis of largest magnitude picks
    /// the face (+x 0, -x 1, +y 2, -y 3, +z 4, -z 5) and, with `ma` that magnitude, the face
    /// coordinates are `((sc / ma) + 1) / 2` and `((tc / ma) + 1) / 2` with
    ///
    /// | face | sc | tc |
    /// |------|----|----|
    /// | +x   | -z | -y |
    /// | -x   | +z | -y |
    /// | +y   | +x | +z |
    /// | -y   | +x | -z |
    /// | +z   | +x | -y |
    /// | -z   | -x | -y |
    ///
    /// Ties (`|x| = |y|`) are not in the table: x wins over y and z, y over z. The face
    /// coordinates are normalized and clamped to the face.
    fn cube_texel(&self, c: &[Expr], extents: &[Expr]) -> Vec<Expr> {
        let (x, y, z) = (
            self.cast(ScalarType::F32, c[0].clone()),
            self.cast(ScalarType::F32, c[1].clone()),
            self.cast(ScalarType::F32, c[2].clone()),
        );
        let abs = |e: &Expr| self.call("fabsf", vec![e.clone()]);
        let (ax, ay, az) = (abs(&x), abs(&y), abs(&z));
        let ge = |a: &Expr, b: &Expr| self.bin(BinaryOp::Ge, a.clone(), b.clone());
        let neg = |e: &Expr| self.e(ExprKind::Unary(UnaryOp::Neg, Box::new(e.clone())));
        let x_major = self.and(ge(&ax, &ay), ge(&ax, &az));
        let y_major = ge(&ay, &az);
        let positive = |e: &Expr| ge(e, &self.float(0.0));
        // Chooses among the x-, y- and z-major cases.
        let pick = |xm: Expr, ym: Expr, zm: Expr| {
            self.cond(x_major.clone(), xm, self.cond(y_major.clone(), ym, zm))
        };
        let signed =
            |e: &Expr, pos: u64, negv: u64| self.cond(positive(e), self.int(pos), self.int(negv));
        let face = pick(signed(&x, 0, 1), signed(&y, 2, 3), signed(&z, 4, 5));
        let sc = pick(
            self.cond(positive(&x), neg(&z), z.clone()),
            x.clone(),
            self.cond(positive(&z), x.clone(), neg(&x)),
        );
        let tc = pick(
            neg(&y),
            self.cond(positive(&y), z.clone(), neg(&z)),
            neg(&y),
        );
        let ma = pick(ax, ay, az);
        let face_coord = |sc: Expr| {
            let ratio = self.bin(BinaryOp::Div, sc, ma.clone());
            self.bin(
                BinaryOp::Mul,
                self.bin(BinaryOp::Add, ratio, self.float(1.0)),
                self.float(0.5),
            )
        };
        let (s, _) = self.texel_index(&face_coord(sc), &extents[0], Address::Clamp, true);
        let (t, _) = self.texel_index(&face_coord(tc), &extents[1], Address::Clamp, true);
        vec![s, t, face]
    }

    /// The `axes` extents of the surface reference `tex`, whose buffer holds `len` scalars,
    /// `stride` per texel: the host's (the parameters of [`Build::reference_extents`]) but
    /// the last, which is the texels the buffer holds over the product of the others. For
    /// the array the host binds (exactly its extents) this is its last extent, and every
    /// texel inside them is inside the buffer.
    fn host_surface_extents(&self, tex: &str, axes: usize, len: Expr, stride: u64) -> Vec<Expr> {
        let wide = |e: Expr| self.cast(ScalarType::I64, e);
        let mut texels = wide(len);
        if stride > 1 {
            texels = self.bin(
                BinaryOp::Div,
                texels,
                self.e(ExprKind::Int(stride, ScalarType::I64)),
            );
        }
        let mut extents = self.reference_extents(tex, axes.saturating_sub(1));
        let slice = extents
            .iter()
            .cloned()
            .map(wide)
            .reduce(|a, b| self.bin(BinaryOp::Mul, a, b))
            .unwrap_or_else(|| self.e(ExprKind::Int(1, ScalarType::I64)));
        extents.push(self.bin(BinaryOp::Div, texels, slice));
        extents
    }

    /// `min(max(i, 0), n - 1)` in `int`.
    fn clamp_int(&self, i: Expr, n: &Expr) -> Expr {
        let last = self.bin(
            BinaryOp::Sub,
            self.cast(ScalarType::I32, n.clone()),
            self.int(1),
        );
        let low = self.call("max", vec![i, self.int(0)]);
        self.call("min", vec![low, last])
    }

    /// The texel index along one axis of a sampled fetch at coordinate `c` of extent `n`,
    /// and, for border addressing, the condition that it is inside.
    fn texel_index(
        &self,
        c: &Expr,
        n: &Expr,
        mode: Address,
        normalized: bool,
    ) -> (Expr, Option<Expr>) {
        let nf = self.cast(ScalarType::F32, n.clone());
        let x = self.cast(ScalarType::F32, c.clone());
        let scaled = if normalized {
            self.bin(BinaryOp::Mul, x, nf.clone())
        } else {
            x
        };
        let mut f = self.call("floorf", vec![scaled]);
        if mode == Address::Wrap {
            // f - n * floor(f / n): the texel index modulo the extent, in [0, n).
            let turns = self.call(
                "floorf",
                vec![self.bin(BinaryOp::Div, f.clone(), nf.clone())],
            );
            f = self.bin(BinaryOp::Sub, f, self.bin(BinaryOp::Mul, nf.clone(), turns));
        }
        let inside = (mode == Address::Border).then(|| {
            self.and(
                self.bin(BinaryOp::Ge, f.clone(), self.float(0.0)),
                self.bin(BinaryOp::Lt, f.clone(), nf.clone()),
            )
        });
        // Clamped as a float first (the conversion of an out-of-range float to int is
        // undefined), then as an int (so that bounds are evident without float reasoning).
        let last = self.bin(BinaryOp::Sub, nf, self.float(1.0));
        let held = self.call(
            "fminf",
            vec![self.call("fmaxf", vec![f, self.float(0.0)]), last],
        );
        (self.clamp_int(self.cast(ScalarType::I32, held), n), inside)
    }

    /// Row-major `(z * h + y) * w + x` in `long long` (fewer axes likewise), for extents
    /// only known to be below `INT_MAX`.
    fn linear_wide(&self, index: &[Expr], extents: &[Expr]) -> Expr {
        self.horner(index, extents, ScalarType::I64)
    }

    /// Row-major `(z * h + y) * w + x` in `int` (fewer axes likewise).
    fn linear(&self, index: &[Expr], extents: &[Expr]) -> Expr {
        self.horner(index, extents, ScalarType::I32)
    }

    /// `((i[n-1] * e[n-2] + i[n-2]) * … ) * e[0] + i[0]` in `ty`: the extents are converted
    /// to it, and so are the indices unless `ty` is `int`, which they are already.
    fn horner(&self, index: &[Expr], extents: &[Expr], ty: ScalarType) -> Expr {
        let index_in = |e: &Expr| match ty {
            ScalarType::I32 => e.clone(),
            _ => self.cast(ty, e.clone()),
        };
        let Some((last, rest)) = index.split_last() else {
            return self.int(0);
        };
        let mut acc = index_in(last);
        for (k, i) in rest.iter().enumerate().rev() {
            let w = extents
                .get(k)
                .map(|e| self.cast(ty, e.clone()))
                .unwrap_or_else(|| self.int(1));
            acc = self.bin(BinaryOp::Add, self.bin(BinaryOp::Mul, acc, w), index_in(i));
        }
        acc
    }

    /// The element a surface access at texel coordinates `index` (the layer last when
    /// `layered`) touches under boundary mode `mode` (0 zero, 1 clamp, 2 trap), and the
    /// condition of being inside for zero. Under trap, a coordinate outside its extent gives
    /// an index outside the buffer, as does a layer outside the stack under every mode.
    ///
    /// With `host_bound` (a reference whose last extent is what its buffer holds, see
    /// [`Build::host_surface_extents`]) every axis is checked under trap, the last one too:
    /// past it lies the rest of a buffer that is not a whole number of slices.
    fn surface_index(
        &self,
        index: &[Expr],
        extents: &[Expr],
        mode: u64,
        layered: bool,
        host_bound: bool,
    ) -> (Expr, Option<Expr>) {
        let spatial = index.len() - usize::from(layered);
        let all = |axes: &mut dyn Iterator<Item = usize>| -> Option<Expr> {
            axes.map(|k| self.inside(&index[k], &extents[k]))
                .reduce(|a, b| self.and(a, b))
        };
        let mut at: Vec<Expr> = index.to_vec();
        let mut inside = None;
        let mut guard = match mode {
            1 => {
                for k in 0..spatial {
                    at[k] = self.clamp_int(index[k].clone(), &extents[k]);
                }
                None
            }
            0 => {
                inside = all(&mut (0..spatial));
                None
            }
            // Past its row (or slice) must not land in the next one: out of the buffer. The
            // last axis runs past the end of the buffer by itself.
            _ if host_bound => all(&mut (0..spatial)),
            _ => all(&mut (0..index.len().saturating_sub(1))),
        };
        if layered {
            let layer = all(&mut std::iter::once(spatial));
            guard = match (guard, layer) {
                (Some(g), Some(l)) => Some(self.and(g, l)),
                (g, l) => g.or(l),
            };
        }
        let linear = if at.len() > 2 || host_bound {
            self.linear_wide(&at, extents)
        } else {
            self.linear(&at, extents)
        };
        match guard {
            Some(ok) => (self.cond(ok, linear, self.minus_one()), inside),
            None => (linear, inside),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_split_at_top_level_commas() {
        let (r, p) = signature("float (texture<float, 1, cudaReadModeElementType>, int)")
            .expect("signature");
        assert_eq!(r, "float");
        assert_eq!(p, vec!["texture<float, 1, cudaReadModeElementType>", "int"]);
        let (_, p) = signature(
            "void (float *, cudaSurfaceObject_t, int, int, enum cudaSurfaceBoundaryMode)",
        )
        .expect("signature");
        assert_eq!(
            texel_spelling(Op::Read(2, false), "void", &p),
            (1, "float".to_string())
        );
        assert_eq!(
            texel_spelling(Op::Write(2, false), "void", &["int".into()]).0,
            1
        );
    }

    #[test]
    fn normalized_reads_divide_by_the_largest_value() {
        assert_eq!(normalizer(ScalarType::U8), Some((255.0, 0.0)));
        assert_eq!(normalizer(ScalarType::I8), Some((127.0, -1.0)));
        assert_eq!(normalizer(ScalarType::U16), Some((65535.0, 0.0)));
        assert_eq!(normalizer(ScalarType::I16), Some((32767.0, -1.0)));
        assert_eq!(normalizer(ScalarType::F32), None);
    }

    #[test]
    fn vector_texels_are_named() {
        let e = texel("float4").unwrap_err();
        assert!(e.contains("`float4`"), "{e}");
        assert_eq!(texel("const unsigned char"), Ok(ScalarType::U8));
    }
}
