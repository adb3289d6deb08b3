//! Launches in host code: each `kernel<<<grid, block, shmem>>>(…)` of the file, with what
//! host code fixes about it: the dimensions (`256`, `dim3(16, 16)`, a local
//! `dim3 block(16, 16)`, `(n + threads - 1) / threads` over variables that keep their
//! constant initialisers), the dynamic shared-memory size, the values of scalar arguments
//! and the `cudaMalloc` byte counts of the pointers passed ([`super::host_values`] says
//! which variables count). A kernel whose every launch agrees gets these when the header
//! and flags give none, and the report says where each came from.

use super::expr::strip_implicit;
use super::host_values::{Eval, FileFacts, HostInt, HostScope};
use super::{Callee, Unit};
use crate::headers;
use crate::node::Node;
use std::collections::HashMap;
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
    /// A pointer that one `cudaMalloc`/`cudaMallocManaged` of `bytes` bytes allocated.
    Buffer {
        /// The allocation's size in bytes.
        bytes: HostInt,
        /// Where the allocation is written.
        at: Span,
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
        if n.kind == "CUDAKernelCallExpr" {
            if let Some(f) = func {
                let scope = scopes
                    .entry(f.id().to_string())
                    .or_insert_with(|| HostScope::of(f));
                if let Some(l) = self.launch(n, scope, file) {
                    out.push(l);
                }
            }
        }
        for c in &n.inner {
            self.find_launches(c, func, file, scopes, out, depth + 1);
        }
    }

    fn launch(&self, n: &Node, scope: &HostScope, file: &FileFacts) -> Option<Launch> {
        let callee = strip_implicit(n.inner.first()?);
        let (id, _, _) = callee.referenced()?;
        let Some(Callee::User(kernel, decl)) = self.callee.get(id) else {
            return None;
        };
        let span = self.span(n, Span::DUMMY);
        let config = n.inner.get(1)?;
        let params: Vec<&Node> = decl
            .inner
            .iter()
            .filter(|c| c.kind == "ParmVarDecl")
            .collect();
        let args: Vec<&Node> = n.inner.iter().skip(2).collect();
        // Variables passed as scalar arguments: sizes over them follow the parameter.
        let mut passed = HashMap::new();
        for (p, a) in params.iter().zip(&args) {
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
        for (p, a) in params.iter().zip(&args) {
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
                ev.int(bytes).map(|bytes| HostArg::Buffer {
                    bytes,
                    at: self.span(call, span),
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
        let arg = |i: usize| config.inner.get(i + 1);
        let shared_bytes = match arg(2) {
            None => Some(HostInt::constant(0)),
            Some(s) if s.kind == "CXXDefaultArgExpr" => Some(HostInt::constant(0)),
            Some(s) => ev.int(s),
        };
        Some(Launch {
            kernel: kernel.clone(),
            grid: arg(0).and_then(|g| dim3(&ev, g, 0)),
            block: arg(1).and_then(|b| dim3(&ev, b, 0)),
            span,
            args: host_args,
            shared_bytes,
        })
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
