//! Function pointers to device functions, when the set of targets is known.
//!
//! The targets are the device functions of the file whose address is taken somewhere (a
//! name used other than as a direct callee: `Fn f = add;`, `{add, mul}`, `&neg`, a
//! template argument). A pointer value is the target's number (1, 2, …; 0 is no function),
//! an `int` in the translation, so locals, parameters of device functions, local tables,
//! `switch`es choosing one and comparisons need nothing else. A call through a pointer is a
//! chain `if (p == 1) r = add(a, b); else if (p == 2) r = mul(a, b); else assert(0);` over
//! the targets of the call's type, the pointer and the arguments evaluated once before it:
//! calling a value that is no function of that type is an assertion failure. Where nothing
//! may run before the statement (an arm of `?:`, the right of `&&`: `f ? f(x) : x`), the
//! chain is one expression, `p == 1 ? add(a, b) : … : (assert(0), 0)`. When a target takes
//! a record or a reference, each arm inlines its target with the call's arguments.
//!
//! A kernel parameter of function-pointer type is an `int` parameter too. The host can only
//! pass the address of a device function (read with `cudaMemcpyFromSymbol` from a
//! `__device__` pointer initialised to one), so the parameter's candidates are every
//! `__device__` function of the file with the parameter's type, numbered whether or not
//! device code takes its address, and the kernel's precondition is that the parameter is
//! one of their numbers ([`KernelFnParam`]); a report names them. A null pointer is 0 (`f =
//! NULL`, `f == nullptr`, `if (f)`), so calling one is the chain's assertion failure. Casts
//! of integers or data pointers to function pointers are rejected: such a value's target
//! is unknown.
//!
//! A `__device__` function-pointer variable or table that host or device code may write
//! (named in `cudaMemcpyToSymbol`, assigned, or its address taken) has no known target set
//! and is rejected. A table only read is a constant local of every function that reads it.
//! A call through a template argument (`template <Fn F> … F(a, b)`) is a direct call of
//! the function it names.

use super::expr::strip_implicit;
use super::{Callee, Unit};
use crate::node::Node;
use std::collections::{HashMap, HashSet};
use warpsafe_cuda_front::ast::{
    self, Decl, Declarator, Expr, ExprKind, FnKind, Init, Stmt, StmtKind, Storage,
};
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::{ScalarType, Span};

/// A device function whose address the file takes.
pub struct Target<'a> {
    /// Its unique name (what calls use).
    pub name: String,
    /// Its type, normalised (`float(float,float)`).
    pub signature: String,
    /// Its declaration.
    pub decl: &'a Node,
}

/// A file-scope `__device__` / `__constant__` function-pointer variable or table.
pub struct Table {
    /// Its name.
    pub name: String,
    /// Its extent (`None` for one pointer).
    pub extent: Option<u64>,
    /// The target numbers of its initialiser (0 where it names none), when only read.
    pub codes: Option<Vec<u64>>,
}

/// A kernel parameter of function-pointer type: the device functions the host may pass.
pub struct KernelFnParam {
    /// The kernel's unique name.
    pub kernel: String,
    /// The parameter's name.
    pub param: String,
    /// The candidates' numbers and names, in number order; empty when the file defines no
    /// device function of the parameter's type.
    pub candidates: Vec<(u64, String)>,
    /// Why the candidates cannot be listed (a device function of the type without a body
    /// in this file), if so.
    pub unknown: Option<String>,
    /// The parameter's declaration.
    pub span: Span,
}

/// The function-pointer facts of a file.
#[derive(Default)]
pub struct FnPointers<'a> {
    /// Targets in order; a pointer to `targets[i]` is `i + 1`.
    pub targets: Vec<Target<'a>>,
    /// Declaration id (and any prototype's id) → target number.
    pub codes: HashMap<String, u64>,
    /// File-scope pointer variables and tables by declaration id.
    pub tables: HashMap<String, Table>,
    /// `typedef float (*Fn)(float, float);` and `using Fn = …`: unqualified name → type.
    pub aliases: HashMap<String, String>,
    /// The function-pointer parameters of the file's kernels.
    pub params: Vec<KernelFnParam>,
    /// Functions without a body here whose address the file takes (`sinf`, a prototype):
    /// name and normalised type.
    pub foreign: Vec<(String, String)>,
}

impl FnPointers<'_> {
    /// The function-pointer type `ty` spells, through the file's aliases (`Fn[2]` is
    /// `float (*[2])(float, float)`); `None` for any other type.
    pub fn resolve(&self, ty: &str) -> Option<String> {
        let ty = ty.trim();
        if is_fn_pointer(ty) {
            return Some(ty.to_string());
        }
        let t = ty.strip_prefix("const ").unwrap_or(ty);
        let (base, dims) = t.split_at(t.find('[').unwrap_or(t.len()));
        let (base, konst) = match base.trim().strip_suffix("const") {
            Some(b) => (b.trim(), true),
            None => (base.trim(), false),
        };
        let last = base.rsplit("::").next().unwrap_or(base);
        let target = self.aliases.get(last)?;
        let open = target.find("(*")? + 2;
        let qual = if konst { "const" } else { "" };
        Some(format!(
            "{}{qual}{}{}",
            &target[..open],
            dims.trim(),
            &target[open..]
        ))
    }
}

/// True for a clang spelling of a function pointer type or array of them
/// (`float (*)(float, float)`, `float (*const[2])(float)`).
pub fn is_fn_pointer(ty: &str) -> bool {
    ty.contains("(*") && ty.trim_end().ends_with(')')
}

/// The declared extents of a function pointer spelling (`float (*[2])(float)` → `[2]`),
/// and whether the pointer is `const`.
pub fn fn_pointer_dims(ty: &str) -> Option<(Vec<Option<u64>>, bool)> {
    let open = ty.find("(*")?;
    let close = open + ty[open..].find(')')?;
    let inner = ty[open + 2..close].trim();
    let konst = inner.starts_with("const");
    let inner = inner.trim_start_matches("const").trim();
    let mut dims = vec![];
    let mut rest = inner;
    while let Some(r) = rest.strip_prefix('[') {
        let end = r.find(']')?;
        let n = r[..end].trim();
        dims.push(if n.is_empty() {
            None
        } else {
            Some(n.parse().ok()?)
        });
        rest = r[end + 1..].trim_start();
    }
    rest.is_empty().then_some((dims, konst))
}

/// The function type a pointer type points to, normalised: `float (*)(float, float)` and
/// `float (float, float)` are both `float(float,float)`.
pub fn signature(ty: &str) -> String {
    let mut s: String = ty.chars().filter(|c| !c.is_whitespace()).collect();
    if let Some(open) = s.find("(*") {
        if let Some(close) = s[open..].find(')') {
            s.replace_range(open..open + close + 1, "");
        }
    }
    s
}

fn unsupported(span: Span, what: impl std::fmt::Display) -> FrontError {
    FrontError::new(span, format!("unsupported: {what}"))
}

/// True for a `__device__` function (not a kernel).
fn is_device(decl: &Node) -> bool {
    decl.inner.iter().any(|c| c.kind == "CUDADeviceAttr")
        && !decl.inner.iter().any(|c| c.kind == "CUDAGlobalAttr")
}

/// Numbers `decl` (called `name`) as a target, unless it has a number.
fn add_target<'a>(fp: &mut FnPointers<'a>, name: &str, decl: &'a Node, id: Option<&str>) -> u64 {
    if let Some(c) = fp.codes.get(decl.id()) {
        return *c;
    }
    let code = fp.targets.len() as u64 + 1;
    fp.codes.insert(decl.id().to_string(), code);
    if let Some(id) = id {
        fp.codes.insert(id.to_string(), code);
    }
    if let Some(prev) = decl.str("previousDecl") {
        fp.codes.insert(prev.to_string(), code);
    }
    fp.targets.push(Target {
        name: name.to_string(),
        signature: signature(decl.ty().unwrap_or("")),
        decl,
    });
    code
}

impl<'a> Unit<'a> {
    /// Finds the device functions whose address the file takes and its function-pointer
    /// variables and tables.
    pub(super) fn collect_fn_pointers(&mut self, root: &'a Node) {
        let mut taken: Vec<&'a Node> = vec![];
        let mut writes: HashSet<String> = HashSet::new();
        let mut globals: Vec<&'a Node> = vec![];
        let mut fp = FnPointers::default();
        scan(
            root,
            &[],
            &mut Found {
                taken: &mut taken,
                writes: &mut writes,
                globals: &mut globals,
                aliases: &mut fp.aliases,
            },
            0,
        );
        for r in taken {
            let Some((id, _, _)) = r.referenced() else {
                continue;
            };
            let Some(Callee::User(name, decl)) = self.callee.get(id) else {
                // A library function (`sinf`) or one without a body here, made a pointer.
                let name = r.referenced().map_or("", |(_, _, n)| n).to_string();
                fp.foreign.push((name, signature(r.ty().unwrap_or(""))));
                continue;
            };
            if is_device(decl) {
                add_target(&mut fp, name, decl, Some(id));
            }
        }
        self.kernel_fn_params(&mut fp);
        for g in globals {
            let resolved = g.ty().and_then(|t| fp.resolve(t));
            let Some((dims, _)) = resolved.as_deref().and_then(fn_pointer_dims) else {
                continue;
            };
            let extent = match dims[..] {
                [] => None,
                [Some(n)] => Some(n),
                _ => continue,
            };
            let codes = if writes.contains(g.id()) {
                None
            } else {
                initial_codes(g, extent, &fp.codes)
            };
            fp.tables.insert(
                g.id().to_string(),
                Table {
                    name: g.name().unwrap_or("").to_string(),
                    extent,
                    codes,
                },
            );
        }
        self.fn_pointers = fp;
    }

    /// The candidates of the kernels' function-pointer parameters: every device function
    /// of the parameter's type, each numbered.
    fn kernel_fn_params(&self, fp: &mut FnPointers<'a>) {
        for k in self.functions.iter().filter(|f| f.kind == FnKind::Kernel) {
            let parms = k.node.inner.iter().filter(|c| c.kind == "ParmVarDecl");
            for (i, p) in parms.enumerate() {
                let Some(pty) = p.ty().and_then(|t| fp.resolve(t)) else {
                    continue;
                };
                let sig = signature(&pty);
                let mut candidates = vec![];
                for f in self.functions.iter().filter(|f| f.kind == FnKind::Device) {
                    let same = signature(f.node.ty().unwrap_or("")) == sig;
                    if same && is_device(f.node) {
                        candidates.push((add_target(fp, &f.name, f.node, None), f.name.clone()));
                    }
                }
                candidates.sort();
                // A device function of the type defined elsewhere (separate compilation)
                // is a candidate we cannot call.
                let mut bodiless: Vec<&str> = self
                    .prototypes
                    .values()
                    .filter(|d| {
                        let name = d.name();
                        let defined = self
                            .functions
                            .iter()
                            .any(|f| f.node.name() == name && f.kind == FnKind::Device);
                        signature(d.ty().unwrap_or("")) == sig && !defined && is_device(d)
                    })
                    .filter_map(|d| d.name())
                    .collect();
                bodiless.sort();
                let foreign = fp.foreign.iter().find(|(_, s)| *s == sig);
                let unknown = match (bodiless.first(), foreign) {
                    (Some(name), _) => Some(format!(
                        "device function `{name}` of that type has no body in this file"
                    )),
                    (None, Some((name, _))) => Some(format!(
                        "the file takes the address of `{name}`, a function of that type \
                         without a body here"
                    )),
                    (None, None) => None,
                };
                let param = match p.name() {
                    Some(n) if !n.is_empty() => n.to_string(),
                    _ => format!("__unnamed{i}"),
                };
                fp.params.push(KernelFnParam {
                    kernel: k.name.clone(),
                    param,
                    candidates,
                    unknown,
                    span: self.span(p, Span::DUMMY),
                });
            }
        }
    }

    /// The error for kernel `kernel`'s function-pointer parameter `param` (of type `ty`)
    /// whose candidates cannot be listed; `None` when they can.
    pub(super) fn kernel_fn_param_error(
        &self,
        kernel: &str,
        param: &str,
        ty: &str,
        span: Span,
    ) -> Option<FrontError> {
        let p = self
            .fn_pointers
            .params
            .iter()
            .find(|p| p.kernel == kernel && p.param == param)?;
        let why = match &p.unknown {
            Some(why) => why.clone(),
            None if p.candidates.is_empty() => {
                "this file defines no `__device__` function of that type".to_string()
            }
            None => return None,
        };
        Some(unsupported(
            span,
            format!(
                "function-pointer kernel parameter `{param}` of type `{ty}`: the host passes \
                 the address of a device function of that type, but {why}, so the functions \
                 it may call are unknown"
            ),
        ))
    }

    /// Null function pointers, casts to function pointers and comparisons of function
    /// pointers: the subset expression, an error, or `None` for any other expression.
    pub(super) fn fn_pointer_expr(&self, n: &Node, span: Span) -> Option<Result<Expr, FrontError>> {
        let is_fp = |e: &Node| e.ty().and_then(|t| self.fn_pointers.resolve(t)).is_some();
        let int = |v: u64| Expr::new(ExprKind::Int(v, ScalarType::I32), span);
        let cast = n.str("castKind");
        match n.kind.as_str() {
            _ if cast == Some("NullToPointer") && is_fp(n) => Some(Ok(int(0))),
            _ if cast == Some("PointerToBoolean") => {
                let p = n.inner.first()?;
                if !is_fp(strip_implicit(p)) {
                    return None;
                }
                // `if (f)`, `!f`: a null function pointer is 0.
                Some(self.expr(p, span).map(|p| {
                    Expr::new(
                        ExprKind::Binary(ast::BinaryOp::Ne, Box::new(p), Box::new(int(0))),
                        span,
                    )
                }))
            }
            _ if cast.is_some()
                && (n.kind != "ImplicitCastExpr"
                    || matches!(cast, Some("BitCast" | "IntegralToPointer"))) =>
            {
                // The operand as converted so far (`(Fn)0` is a no-op over `0` made null).
                let from = n.inner.iter().find(|c| super::expr::is_expr(c))?;
                // A function pointer, or a function (`add` before its decay).
                let from_fn = is_fp(from)
                    || from.str("castKind") == Some("FunctionToPointerDecay")
                    || strip_implicit(from)
                        .referenced()
                        .is_some_and(|(_, kind, _)| kind == "FunctionDecl");
                if is_fp(n) == from_fn {
                    return None;
                }
                let from_ty = from.ty().unwrap_or("?");
                let to_ty = n.ty().unwrap_or("?");
                Some(Err(unsupported(
                    span,
                    format!(
                        "cast of `{from_ty}` to `{to_ty}`: a function pointer here is one of the \
                         file's device functions or null, never another address or number"
                    ),
                )))
            }
            "BinaryOperator" if matches!(n.str("opcode"), Some("<" | "<=" | ">" | ">=")) => {
                let fp = n.inner.iter().any(|c| is_fp(strip_implicit(c)));
                fp.then(|| {
                    Err(unsupported(
                        span,
                        "ordering of function pointers (the order of functions' addresses is \
                         unknown)",
                    ))
                })
            }
            _ => None,
        }
    }

    /// The value of function `id` used as a pointer.
    pub(super) fn fn_code(&self, id: &str, name: &str, span: Span) -> Result<ExprKind, FrontError> {
        match self.fn_pointers.codes.get(id) {
            Some(c) => Ok(ExprKind::Int(*c, ScalarType::I32)),
            None => Err(unsupported(
                span,
                format!("function `{name}` used as a value (only device functions are)"),
            )),
        }
    }

    /// A reference to a file-scope function-pointer variable or table: its name (a local
    /// constant of the function), or the error when host or device code may write it.
    pub(super) fn fn_table_ref(
        &self,
        id: &str,
        span: Span,
    ) -> Option<Result<ExprKind, FrontError>> {
        let t = self.fn_pointers.tables.get(id)?;
        Some(match t.codes {
            Some(_) => Ok(ExprKind::Ident(t.name.clone())),
            None => Err(unsupported(
                span,
                format!(
                    "function pointer `{}` is written by host or device code (or has no \
                     initialiser of device functions): the functions it may call are unknown",
                    t.name
                ),
            )),
        })
    }

    /// The local declarations of the read-only function-pointer tables `f` (declared by
    /// `node`) reads.
    pub fn fn_table_decls(&self, f: &ast::Function, node: &Node) -> Vec<Stmt> {
        let mut out = vec![];
        let mut tables: Vec<(&String, &Table)> = self.fn_pointers.tables.iter().collect();
        tables.sort_by(|a, b| a.1.name.cmp(&b.1.name));
        for (id, t) in tables {
            let Some(codes) = &t.codes else { continue };
            if !refers_to(node, id, 0) {
                continue;
            }
            let span = f.span;
            let int = |c: u64| Expr::new(ExprKind::Int(c, ScalarType::I32), span);
            let (dims, init) = match t.extent {
                Some(n) => (
                    vec![Some(int(n))],
                    Init::List(codes.iter().map(|c| int(*c)).collect(), span),
                ),
                None => (vec![], Init::Expr(int(codes.first().copied().unwrap_or(0)))),
            };
            out.push(Stmt {
                kind: StmtKind::Decl(Decl {
                    storage: Storage {
                        konst: true,
                        ..Default::default()
                    },
                    base: ast::Type {
                        base: Some(ScalarType::I32),
                        ptr: false,
                        konst: true,
                        volatile: false,
                        span,
                    },
                    declarators: vec![Declarator {
                        name: t.name.clone(),
                        name_span: span,
                        ptr: false,
                        dims,
                        init: Some(init),
                        span,
                    }],
                }),
                span,
            });
        }
        out
    }

    /// The callee of a call through a template argument (`F(a, b)` with `F = add`): the
    /// function's `DeclRefExpr`.
    pub(super) fn template_callee<'n>(&self, callee: &'n Node) -> Option<&'n Node> {
        if callee.kind != "SubstNonTypeTemplateParmExpr" {
            return None;
        }
        let mut e = callee
            .inner
            .iter()
            .rev()
            .find(|c| super::expr::is_expr(c))?;
        loop {
            e = strip_implicit(e);
            match e.kind.as_str() {
                "UnaryOperator" if e.str("opcode") == Some("&") => e = e.inner.first()?,
                "DeclRefExpr" => {
                    let (_, kind, _) = e.referenced()?;
                    return (kind == "FunctionDecl").then_some(e);
                }
                _ => return None,
            }
        }
    }

    /// `p(args)` through a pointer expression `p`: the dispatch over the targets of its
    /// type, hoisted before the statement; the call's value.
    pub(super) fn indirect_call(
        &self,
        n: &Node,
        pointer: &Node,
        span: Span,
    ) -> Result<ExprKind, FrontError> {
        let mut pointer = strip_implicit(pointer);
        if pointer.kind == "UnaryOperator" && pointer.str("opcode") == Some("*") {
            pointer = pointer.inner.first().map(strip_implicit).unwrap_or(pointer);
        }
        let Some(pty) = pointer.ty().and_then(|t| self.fn_pointers.resolve(t)) else {
            return Err(unsupported(
                span,
                format!(
                    "call through a `{}` (not a pointer to a device function)",
                    pointer.kind
                ),
            ));
        };
        let sig = signature(&pty);
        let targets: Vec<&Target> = self
            .fn_pointers
            .targets
            .iter()
            .filter(|t| t.signature == sig)
            .collect();
        if targets.is_empty() {
            return Err(unsupported(
                span,
                format!(
                    "call through a function pointer of type `{pty}`: no device function of \
                     that type has its address taken in this file, so its targets are unknown"
                ),
            ));
        }
        let inlined = targets.iter().any(|t| {
            let mut params = t.decl.inner.iter().filter(|c| c.kind == "ParmVarDecl");
            params.any(|p| {
                let ty = p.ty().unwrap_or("");
                super::types::strip_reference(ty).1 || self.record(ty).is_some()
            })
        });
        if inlined {
            return self.inlined_dispatch(n, pointer, &targets, span);
        }
        let k = self.fresh();
        let local =
            |name: String, ty: &str, init: Option<Expr>| self.local_decl(&name, ty, init, span);
        let ident = |name: &str| Expr::new(ExprKind::Ident(name.to_string()), span);
        let mut pre = vec![];
        let p = format!("__fp{k}");
        let pv = self.expr(pointer, span)?;
        pre.push(local(p.clone(), "int", Some(pv.clone()))?);
        let mut args = vec![];
        let mut values = vec![];
        for (i, a) in n.inner.iter().skip(1).enumerate() {
            let ty = a.ty().unwrap_or("int").to_string();
            let name = format!("__fp{k}_a{i}");
            let v = self.expr(a, span)?;
            values.push(v.clone());
            pre.push(local(name.clone(), &ty, Some(v))?);
            args.push(ident(&name));
        }
        let ret = n.ty().unwrap_or("void").to_string();
        let result = (ret != "void").then(|| format!("__fp{k}_r"));
        if let Some(r) = &result {
            pre.push(local(r.clone(), &ret, None)?);
        }
        let trap = Stmt {
            kind: StmtKind::Expr(Expr::new(
                ExprKind::Call(
                    "assert".into(),
                    span,
                    vec![Expr::new(ExprKind::Int(0, ScalarType::I32), span)],
                ),
                span,
            )),
            span,
        };
        let mut chain = trap;
        for t in targets.iter().rev() {
            let code = self
                .fn_pointers
                .codes
                .get(t.decl.id())
                .copied()
                .unwrap_or(0);
            let call = Expr::new(ExprKind::Call(t.name.clone(), span, args.clone()), span);
            let body = match &result {
                Some(r) => Expr::new(
                    ExprKind::Assign(None, Box::new(ident(r)), Box::new(call)),
                    span,
                ),
                None => call,
            };
            let cond = Expr::new(
                ExprKind::Binary(
                    ast::BinaryOp::Eq,
                    Box::new(ident(&p)),
                    Box::new(Expr::new(ExprKind::Int(code, ScalarType::I32), span)),
                ),
                span,
            );
            chain = Stmt {
                kind: StmtKind::If(
                    cond,
                    Box::new(Stmt {
                        kind: StmtKind::Expr(body),
                        span,
                    }),
                    Some(Box::new(chain)),
                ),
                span,
            };
        }
        pre.push(chain);
        if let Err(e) = self.hoist(pre, span) {
            // Where nothing may run before the statement (an arm of `?:`, the right of
            // `&&`): the chain as an expression, when it has a value.
            return self
                .dispatch_expr(&targets, &pv, &values, &ret, span)
                .ok_or(e);
        }
        Ok(match result {
            Some(r) => ExprKind::Ident(r),
            // A `void` call's value is never read: a statement of its own.
            None => ExprKind::Int(0, ScalarType::I32),
        })
    }
}

impl Unit<'_> {
    /// The dispatch of a call through `pointer` to targets of which some take a record or a
    /// reference: each arm inlines its target with the call's arguments (evaluated in the
    /// arm, after the pointer), hoisted before the statement; the call's value.
    fn inlined_dispatch(
        &self,
        n: &Node,
        pointer: &Node,
        targets: &[&Target],
        span: Span,
    ) -> Result<ExprKind, FrontError> {
        let k = self.fresh();
        let ident = |name: &str| Expr::new(ExprKind::Ident(name.to_string()), span);
        let int = |v: u64| Expr::new(ExprKind::Int(v, ScalarType::I32), span);
        let stmt = |kind: StmtKind| Stmt { kind, span };
        let p = format!("__fp{k}");
        let pv = self.expr(pointer, span)?;
        let mut pre = vec![self.local_decl(&p, "int", Some(pv), span)?];
        let ret = n.ty().unwrap_or("void").to_string();
        let result = (ret != "void").then(|| format!("__fp{k}_r"));
        if let Some(r) = &result {
            pre.push(self.local_decl(r, &ret, None, span)?);
        }
        let args: Vec<&Node> = n.inner.iter().skip(1).collect();
        let assert = ExprKind::Call("assert".into(), span, vec![int(0)]);
        let mut chain = stmt(StmtKind::Expr(Expr::new(assert, span)));
        for t in targets.iter().rev() {
            let code = self
                .fn_pointers
                .codes
                .get(t.decl.id())
                .copied()
                .unwrap_or(0);
            let (value, mut body) =
                self.with_pending(|| self.inline_fn(t.decl, None, &args, vec![], span));
            let value = value?;
            if let Some(r) = &result {
                let v = match value {
                    super::inline::Value::Scalar(e) => e,
                    _ => {
                        return Err(unsupported(
                            span,
                            format!(
                                "call through a function pointer to `{}`, whose value is no \
                                 scalar",
                                t.name
                            ),
                        ))
                    }
                };
                let set = ExprKind::Assign(None, Box::new(ident(r)), Box::new(v));
                body.push(stmt(StmtKind::Expr(Expr::new(set, span))));
            }
            let cond =
                ExprKind::Binary(ast::BinaryOp::Eq, Box::new(ident(&p)), Box::new(int(code)));
            chain = stmt(StmtKind::If(
                Expr::new(cond, span),
                Box::new(stmt(StmtKind::Block(body))),
                Some(Box::new(chain)),
            ));
        }
        pre.push(chain);
        self.hoist(pre, span)?;
        Ok(match result {
            Some(r) => ExprKind::Ident(r),
            None => ExprKind::Int(0, ScalarType::I32),
        })
    }

    /// The dispatch of a call through pointer `p` as one expression, `p == 1 ? add(a, b) : p
    /// == 2 ? mul(a, b) : (assert(0), (float)0)`, which evaluates the arguments once (in the
    /// arm taken). `None` when the pointer expression has effects or the call's value is no
    /// scalar.
    fn dispatch_expr(
        &self,
        targets: &[&Target],
        p: &Expr,
        args: &[Expr],
        ret: &str,
        span: Span,
    ) -> Option<ExprKind> {
        if !is_pure(p, 0) {
            return None;
        }
        let ty = super::types::scalar_or_pointer(ret, span).ok()?;
        if ty.ptr || ty.base.is_none() {
            return None;
        }
        let int = |v: u64| Expr::new(ExprKind::Int(v, ScalarType::I32), span);
        let assert = ExprKind::Call("assert".into(), span, vec![int(0)]);
        let zero = Expr::new(ExprKind::Cast(ty, Box::new(int(0))), span);
        let mut chain = ExprKind::Comma(Box::new(Expr::new(assert, span)), Box::new(zero));
        for t in targets.iter().rev() {
            let code = self.fn_pointers.codes.get(t.decl.id()).copied()?;
            let call = Expr::new(ExprKind::Call(t.name.clone(), span, args.to_vec()), span);
            let cond =
                ExprKind::Binary(ast::BinaryOp::Eq, Box::new(p.clone()), Box::new(int(code)));
            chain = ExprKind::Cond(
                Box::new(Expr::new(cond, span)),
                Box::new(call),
                Box::new(Expr::new(chain, span)),
            );
        }
        Some(chain)
    }
}

/// True for an expression without effects (evaluating it again changes nothing).
fn is_pure(e: &Expr, depth: u32) -> bool {
    if depth > 64 {
        return false;
    }
    match &e.kind {
        ExprKind::Int(..) | ExprKind::Float(..) | ExprKind::Bool(_) | ExprKind::Ident(_) => true,
        ExprKind::Member(a, _) | ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => {
            is_pure(a, depth + 1)
        }
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
            is_pure(a, depth + 1) && is_pure(b, depth + 1)
        }
        ExprKind::Cond(c, a, b) => {
            is_pure(c, depth + 1) && is_pure(a, depth + 1) && is_pure(b, depth + 1)
        }
        _ => false,
    }
}

/// True when `n` mentions declaration `id`.
pub(super) fn refers_to(n: &Node, id: &str, depth: u32) -> bool {
    depth < 4000
        && (n.referenced().is_some_and(|(r, _, _)| r == id)
            || n.inner.iter().any(|c| refers_to(c, id, depth + 1)))
}

/// The target numbers of a table's initialiser.
fn initial_codes(g: &Node, extent: Option<u64>, codes: &HashMap<String, u64>) -> Option<Vec<u64>> {
    let init = g.inner.iter().find(|c| super::expr::is_expr(c))?;
    let code_of = |e: &Node| -> Option<u64> {
        let mut e = strip_implicit(e);
        if e.kind == "UnaryOperator" && e.str("opcode") == Some("&") {
            e = strip_implicit(e.inner.first()?);
        }
        match e.kind.as_str() {
            "DeclRefExpr" => codes.get(e.referenced()?.0).copied(),
            "CXXNullPtrLiteralExpr" | "GNUNullExpr" => Some(0),
            "IntegerLiteral" if e.str("value") == Some("0") => Some(0),
            _ => None,
        }
    };
    match extent {
        None => Some(vec![code_of(init)?]),
        Some(n) => {
            if init.kind != "InitListExpr" {
                return None;
            }
            let mut out: Vec<u64> = init.inner.iter().map(code_of).collect::<Option<_>>()?;
            // Elements without an initialiser are null.
            if out.len() as u64 > n {
                return None;
            }
            out.resize(n as usize, 0);
            Some(out)
        }
    }
}

/// What [`scan`] finds: function names used as values, the ids of variables written or
/// exposed anywhere, the file-scope variables that may be function-pointer tables, and the
/// function-pointer aliases.
struct Found<'f, 'a> {
    taken: &'f mut Vec<&'a Node>,
    writes: &'f mut HashSet<String>,
    globals: &'f mut Vec<&'a Node>,
    aliases: &'f mut HashMap<String, String>,
}

fn scan<'a>(n: &'a Node, parents: &[&'a Node], out: &mut Found<'_, 'a>, depth: u32) {
    if depth > 4000 {
        return;
    }
    match n.kind.as_str() {
        "DeclRefExpr" => {
            if let Some((id, kind, _)) = n.referenced() {
                let parent = parents.last().copied();
                if kind == "FunctionDecl" && !is_direct_callee(n, parents) {
                    out.taken.push(n);
                }
                if kind == "VarDecl" && !is_read(parent, parents) {
                    out.writes.insert(id.to_string());
                }
            }
        }
        "VarDecl"
            if parents.last().is_some_and(|p| {
                matches!(p.kind.as_str(), "TranslationUnitDecl" | "NamespaceDecl")
            }) =>
        {
            out.globals.push(n);
        }
        "TypedefDecl" | "TypeAliasDecl" => {
            if let (Some(name), Some(ty)) = (n.name(), n.ty()) {
                if is_fn_pointer(ty) && !ty.contains('[') {
                    out.aliases.insert(name.to_string(), ty.to_string());
                }
            }
        }
        _ => {}
    }
    let mut ps = parents.to_vec();
    ps.push(n);
    for c in &n.inner {
        scan(c, &ps, out, depth + 1);
    }
}

/// `f(…)`: the reference is the callee of its call.
fn is_direct_callee(r: &Node, parents: &[&Node]) -> bool {
    let [.., call, cast] = parents else {
        return false;
    };
    cast.kind == "ImplicitCastExpr"
        && cast.str("castKind") == Some("FunctionToPointerDecay")
        && matches!(call.kind.as_str(), "CallExpr" | "CUDAKernelCallExpr")
        && call.inner.first().is_some_and(|c| std::ptr::eq(c, *cast))
        && cast.inner.first().is_some_and(|c| std::ptr::eq(c, r))
}

/// True when a variable reference under `parent` only reads it (directly, or one element
/// of it).
fn is_read(parent: Option<&Node>, parents: &[&Node]) -> bool {
    let Some(p) = parent else { return false };
    if p.kind != "ImplicitCastExpr" {
        return false;
    }
    match p.str("castKind") {
        Some("LValueToRValue") => true,
        Some("ArrayToPointerDecay") => {
            // `table[i]` read: the decay is the base of a subscript that is read, possibly
            // through parentheses (`(*(table[i]))(x)`, the CUDA samples' FunctionPointers).
            let n = parents.len();
            n >= 3
                && parents[n - 2].kind == "ArraySubscriptExpr"
                && (parents[..n - 2].iter().rev())
                    .find(|a| a.kind != "ParenExpr")
                    .is_some_and(|a| {
                        a.kind == "ImplicitCastExpr" && a.str("castKind") == Some("LValueToRValue")
                    })
        }
        _ => false,
    }
}
