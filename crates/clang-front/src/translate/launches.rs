//! Launches in host code: each `kernel<<<grid, block, shmem>>>(…)` and
//! `cudaLaunchKernel((void *)kernel, grid, block, args, shmem, stream)` (or
//! `cudaLaunchCooperativeKernel`, whose `args` is `void *args[] = {&a, &b}`) of the file,
//! and each driver-API `cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, stream, args,
//! nullptr)` (or `cuLaunchCooperativeKernel`) whose handle `f` one
//! `cuModuleGetFunction(&f, mod, "name")` sets to a kernel of the file (by its symbol: the
//! plain name of an `extern "C"` kernel, else the mangled one),
//! with what host code fixes about it: the dimensions (`256`, `dim3(16, 16)`, a local
//! `dim3 block(16, 16)`, `(n + threads - 1) / threads` over variables that keep their
//! constant initialisers), the dynamic shared-memory size, the values of scalar arguments
//! and the `cudaMalloc` byte counts of the pointers passed ([`super::host_values`] says
//! which variables count). A kernel whose every launch agrees gets these when the header
//! and flags give none, and the report says where each came from.

use super::expr::strip_implicit;
use super::host_values::{
    launch_api, launch_array, Eval, FileFacts, HostInt, HostScope, DRIVER_LAUNCHES,
};
use super::{Callee, Unit};
use crate::headers;
use crate::node::Node;
use std::collections::HashMap;
use warpsafe_cuda_front::ast::FnKind;
use warpsafe_ir::Span;

/// One launch site.
#[derive(Debug, Clone)]
pub struct Launch {
    /// The kernel's unique name.
    pub kernel: String,
    /// `gridDim`, when constant.
    pub grid: Option<[u32; 3]>,
    /// `blockDim`, when constant.
    pub block: Option<[u32; 3]>,
    /// Where the launch is written.
    pub span: Span,
    /// What the launch passes, by the kernel's parameter names, where host code tells.
    pub args: Vec<(String, HostArg)>,
    /// The dynamic shared-memory size in bytes (0 when the launch gives none), when known.
    pub shared_bytes: Option<HostInt>,
}

/// What a launch passes for one kernel parameter.
#[derive(Debug, Clone)]
pub enum HostArg {
    /// A pointer that one `cudaMalloc`/`cudaMallocManaged`/`cuMemAlloc` of `bytes` bytes
    /// allocated.
    Buffer {
        /// The allocation's size in bytes.
        bytes: HostInt,
        /// Where the allocation is written.
        at: Span,
        /// The allocating function (`cudaMalloc`, `cuMemAlloc`).
        allocator: String,
    },
    /// An integer value.
    Int(HostInt),
    /// A floating-point value.
    Float(f64),
}

/// Kinds of the declarations whose bodies host code lives in.
const FUNCTIONS: [&str; 4] = [
    "FunctionDecl",
    "CXXMethodDecl",
    "CXXConstructorDecl",
    "CXXDestructorDecl",
];

impl Unit<'_> {
    /// Every launch written in the file's host code.
    pub fn launches(&self, root: &Node) -> Vec<Launch> {
        let file = FileFacts::collect(root, &self.enumerators);
        let mut scopes = HashMap::new();
        let mut out = vec![];
        self.find_launches(root, None, &file, &mut scopes, &mut out, 0);
        out
    }

    fn find_launches<'n>(
        &self,
        n: &'n Node,
        func: Option<&'n Node>,
        file: &FileFacts<'n, '_>,
        scopes: &mut HashMap<String, HostScope<'n>>,
        out: &mut Vec<Launch>,
        depth: u32,
    ) {
        if depth > 4000 || headers::is_ours(&n.file) && n.kind != "TranslationUnitDecl" {
            return;
        }
        let func = if FUNCTIONS.contains(&n.kind.as_str()) {
            Some(n)
        } else {
            func
        };
        let api = launch_api(n).is_some();
        if n.kind == "CUDAKernelCallExpr" || api {
            if let Some(f) = func {
                let scope = scopes
                    .entry(f.id().to_string())
                    .or_insert_with(|| HostScope::of(f));
                let site = if api {
                    api_site(n, scope)
                } else {
                    chevron_site(n)
                };
                if let Some(l) = site.and_then(|s| self.launch(n, &s, scope, file)) {
                    out.push(l);
                }
            }
        }
        for c in &n.inner {
            self.find_launches(c, func, file, scopes, out, depth + 1);
        }
    }

    fn launch(&self, n: &Node, site: &Site, scope: &HostScope, file: &FileFacts) -> Option<Launch> {
        let span = self.span(n, Span::DUMMY);
        let (kernel, decl) = match site.kernel {
            Target::Named(k) => {
                let (id, _, _) = strip_casts(k).referenced()?;
                let Some(Callee::User(kernel, decl)) = self.callee.get(id) else {
                    return None;
                };
                (kernel, *decl)
            }
            Target::Handle(h) => {
                let (id, kind, _) = strip_casts(h).referenced()?;
                (kind == "VarDecl").then_some(())?;
                let symbol = scope.kernel_symbol(id, span.lo)?;
                self.kernel_by_symbol(&symbol)?
            }
        };
        let params: Vec<&Node> = decl
            .inner
            .iter()
            .filter(|c| c.kind == "ParmVarDecl")
            .collect();
        // Through an argument array the kernel reads each slot as its parameter's type:
        // a count that differs or a variable of another type fixes no argument.
        let args: Vec<Option<&Node>> = match &site.args {
            Args::Converted(a) => a.iter().map(|a| Some(*a)).collect(),
            Args::Slots(slots) if slots.len() == params.len() => params
                .iter()
                .zip(slots)
                .map(|(p, v)| v.filter(|v| same_slot_type(p, v)))
                .collect(),
            Args::Slots(_) => vec![],
        };
        let args = || {
            params
                .iter()
                .zip(&args)
                .filter_map(|(p, a)| Some((p, (*a)?)))
        };
        // Variables passed as scalar arguments: sizes over them follow the parameter.
        let mut passed = HashMap::new();
        for (p, a) in args() {
            let a = strip_implicit(a);
            if let (Some(name), Some((var, "VarDecl", _))) = (p.name(), a.referenced()) {
                if !is_pointer(p) && !name.is_empty() {
                    passed
                        .entry(var.to_string())
                        .or_insert_with(|| name.to_string());
                }
            }
        }
        let ev = Eval {
            scope,
            file,
            passed,
        };
        let mut host_args = vec![];
        for (p, a) in args() {
            let Some(name) = p.name().filter(|n| !n.is_empty()) else {
                continue;
            };
            let value = if is_pointer(p) {
                let a = strip_implicit(a);
                let Some((var, "VarDecl", _)) = a.referenced() else {
                    continue;
                };
                let Some((call, bytes)) = scope.allocation(var, span.lo) else {
                    continue;
                };
                let allocator = call
                    .inner
                    .first()
                    .map(strip_casts)
                    .and_then(Node::referenced)
                    .map_or("cudaMalloc", |(_, _, name)| name);
                ev.int(bytes).map(|bytes| HostArg::Buffer {
                    bytes,
                    at: self.span(call, span),
                    allocator: allocator.to_string(),
                })
            } else if p.ty().is_some_and(is_floating) {
                ev.float(a).map(HostArg::Float)
            } else {
                ev.int(a).map(HostArg::Int)
            };
            if let Some(v) = value {
                host_args.push((name.to_string(), v));
            }
        }
        let shared_bytes = match site.shared {
            None => Some(HostInt::constant(0)),
            Some(s) if s.kind == "CXXDefaultArgExpr" => Some(HostInt::constant(0)),
            Some(s) => ev.int(s),
        };
        Some(Launch {
            kernel: kernel.clone(),
            grid: site.grid.as_ref().and_then(|g| g.value(&ev)),
            block: site.block.as_ref().and_then(|b| b.value(&ev)),
            span,
            args: host_args,
            shared_bytes,
        })
    }

    /// The kernel of the file whose symbol is `symbol`: the plain name of an `extern "C"`
    /// kernel, the mangled name of any other (as the driver's `cuModuleGetFunction` finds
    /// it); nothing unless exactly one kernel has it.
    fn kernel_by_symbol(&self, symbol: &str) -> Option<(&String, &Node)> {
        let mut found = self
            .functions
            .iter()
            .filter(|f| f.kind == FnKind::Kernel && f.node.str("mangledName") == Some(symbol));
        let first = found.next()?;
        if found.any(|f| f.name != first.name) {
            return None;
        }
        Some((&first.name, first.node))
    }
}

/// The parts of one launch site.
struct Site<'n> {
    /// The kernel launched.
    kernel: Target<'n>,
    /// The grid, block and dynamic shared-memory arguments, where written.
    grid: Option<Dims<'n>>,
    block: Option<Dims<'n>>,
    shared: Option<&'n Node>,
    /// The kernel's arguments.
    args: Args<'n>,
}

/// How a launch names its kernel.
enum Target<'n> {
    /// The function itself (`k<<<…>>>`, `(void *)k`).
    Named(&'n Node),
    /// A driver-API `CUfunction` variable.
    Handle(&'n Node),
}

/// A launch's grid or block shape as written.
enum Dims<'n> {
    /// One `dim3` (or integer) expression.
    Dim3(&'n Node),
    /// Three integers (`cuLaunchKernel`'s `gridDimX, gridDimY, gridDimZ`).
    Xyz([&'n Node; 3]),
}

impl Dims<'_> {
    /// The constant shape, when host code fixes it.
    fn value(&self, ev: &Eval) -> Option<[u32; 3]> {
        match self {
            Dims::Dim3(n) => dim3(ev, n, 0),
            Dims::Xyz(xyz) => {
                let mut d = [1u32; 3];
                for (slot, n) in d.iter_mut().zip(xyz) {
                    *slot = u32::try_from(ev.int(n)?.value).ok().filter(|v| *v > 0)?;
                }
                Some(d)
            }
        }
    }
}

/// A launch's kernel arguments.
enum Args<'n> {
    /// `<<<…>>>(a, b)`: expressions converted to the parameters' types.
    Converted(Vec<&'n Node>),
    /// `void *args[] = {&a, &b}`: the variables whose bytes the kernel reads as its
    /// parameters (`None` for a slot that is not `&variable`).
    Slots(Vec<Option<&'n Node>>),
}

/// `kernel<<<grid, block, shmem>>>(args)`.
fn chevron_site(n: &Node) -> Option<Site<'_>> {
    let config = n.inner.get(1)?;
    let arg = |i: usize| config.inner.get(i + 1);
    Some(Site {
        kernel: Target::Named(n.inner.first()?),
        grid: arg(0).map(Dims::Dim3),
        block: arg(1).map(Dims::Dim3),
        shared: arg(2),
        args: Args::Converted(n.inner.iter().skip(2).collect()),
    })
}

/// `cudaLaunchKernel((void *)kernel, grid, block, args, shmem, stream)` or
/// `cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, stream, args, extra)`: the arguments
/// are known when `args` is an argument array host code uses only for launches. A
/// `cuLaunchKernel` whose `extra` is not a null pointer constant is no launch we read (its
/// arguments may come through `extra`, and with both the launch fails).
fn api_site<'n>(n: &'n Node, scope: &HostScope<'n>) -> Option<Site<'n>> {
    let (api, _) = launch_api(n)?;
    let slots = launch_array(n)
        .and_then(|a| scope.launch_args(a))
        .map(<[_]>::to_vec)
        .unwrap_or_default();
    if DRIVER_LAUNCHES.contains(&api) {
        if api == "cuLaunchKernel" && !is_null(n.inner.get(11)?) {
            return None;
        }
        let arg = |i: usize| n.inner.get(i + 1);
        return Some(Site {
            kernel: Target::Handle(arg(0)?),
            grid: Some(Dims::Xyz([arg(1)?, arg(2)?, arg(3)?])),
            block: Some(Dims::Xyz([arg(4)?, arg(5)?, arg(6)?])),
            // The driver has no default: the size is always written.
            shared: Some(arg(7)?),
            args: Args::Slots(slots),
        });
    }
    Some(Site {
        kernel: Target::Named(n.inner.get(1)?),
        grid: n.inner.get(2).map(Dims::Dim3),
        block: n.inner.get(3).map(Dims::Dim3),
        shared: n.inner.get(5),
        args: Args::Slots(slots),
    })
}

/// A null pointer constant: `nullptr`, `NULL`, `0` (under casts).
fn is_null(n: &Node) -> bool {
    let n = strip_casts(n);
    match n.kind.as_str() {
        "CXXNullPtrLiteralExpr" | "GNUNullExpr" => true,
        "IntegerLiteral" => n.str("value") == Some("0"),
        _ => false,
    }
}

/// Casts, parentheses and `&` around a function name (`(void *)&kernel`).
fn strip_casts(mut n: &Node) -> &Node {
    loop {
        let through = matches!(
            n.kind.as_str(),
            "ImplicitCastExpr"
                | "ParenExpr"
                | "CStyleCastExpr"
                | "CXXStaticCastExpr"
                | "CXXReinterpretCastExpr"
                | "CXXFunctionalCastExpr"
        ) || (n.kind == "UnaryOperator" && n.str("opcode") == Some("&"));
        match n.inner.iter().find(|c| !c.kind.ends_with("Decl")) {
            Some(c) if through => n = c,
            _ => return n,
        }
    }
}

/// True when variable `v` has the bytes parameter `p` reads: both pointers (a driver-API
/// `CUdeviceptr` counts as a pointer), or the same scalar type.
fn same_slot_type(p: &Node, v: &Node) -> bool {
    let bare_written = v.written_ty().map(|t| {
        let t = t.strip_prefix("const ").unwrap_or(t).trim();
        t.strip_suffix(" const").unwrap_or(t).to_string()
    });
    if bare_written.as_deref() == Some("CUdeviceptr") {
        return p
            .ty()
            .is_some_and(|pt| pt.contains('*') && !pt.contains('('));
    }
    let bare = |t: &str| {
        let t = t.strip_prefix("const ").unwrap_or(t).trim();
        t.strip_suffix(" const").unwrap_or(t).to_string()
    };
    match (p.ty(), v.ty()) {
        (Some(pt), Some(vt)) if pt.contains('*') || vt.contains('*') => {
            pt.contains('*') && vt.contains('*') && !pt.contains('(') && !vt.contains('(')
        }
        (Some(pt), Some(vt)) => {
            let (pt, vt) = (bare(pt), bare(vt));
            pt == vt
                || matches!(
                    (super::types::scalar(&pt), super::types::scalar(&vt)),
                    (Ok(Some(a)), Ok(Some(b))) if a == b
                )
        }
        _ => false,
    }
}

fn is_pointer(p: &Node) -> bool {
    p.ty().is_some_and(|t| t.contains('*'))
}

fn is_floating(t: &str) -> bool {
    let t = t.strip_prefix("const ").unwrap_or(t);
    matches!(t, "float" | "double" | "__half" | "half")
}

/// A constant `dim3` value.
fn dim3(ev: &Eval, n: &Node, depth: u32) -> Option<[u32; 3]> {
    if depth > 16 {
        return None;
    }
    match n.kind.as_str() {
        "ImplicitCastExpr"
        | "MaterializeTemporaryExpr"
        | "ExprWithCleanups"
        | "ParenExpr"
        | "CXXBindTemporaryExpr"
        | "CXXFunctionalCastExpr" => dim3(ev, n.inner.first()?, depth + 1),
        "CXXConstructExpr" | "CXXTemporaryObjectExpr" => match &n.inner[..] {
            [one] if one.ty().is_some_and(|t| t.contains("dim3")) => dim3(ev, one, depth + 1),
            args if !args.is_empty() && args.len() <= 3 => {
                let mut d = [1u32; 3];
                for (i, a) in args.iter().enumerate() {
                    if a.kind != "CXXDefaultArgExpr" {
                        d[i] = u32::try_from(ev.int(a)?.value).ok()?;
                    }
                }
                Some(d)
            }
            _ => None,
        },
        "DeclRefExpr" if n.ty().is_some_and(|t| t.contains("dim3")) => {
            let (id, _, _) = n.referenced()?;
            dim3(ev, ev.var_init(id)?, depth + 1)
        }
        _ => {
            let x = u32::try_from(ev.int(n)?.value).ok()?;
            Some([x, 1, 1])
        }
    }
}
