//! Lowering: syntax tree to kernel IR. This module holds the lowering context (scopes,
//! bindings, fresh variables) and kernel set-up; the submodules lower expressions,
//! assignments, statements, intrinsic calls, pointers and helper inlining.

mod assign;
mod calls;
mod expr;
mod inline;
mod pointers;
mod scan;
mod stmt;

use crate::ast::{self, FnKind, Item, TranslationUnit};
use crate::consteval::{self, Num};
use crate::error::{err, FrontError, Result};
use std::collections::{HashMap, HashSet};
use warpsafe_ir::{
    ArrayId, Contract, Expr, Kernel, MemRef, Param, ParamId, ParamKind, ScalarType, Span, Stmt,
    StmtKind, VarDecl, VarId,
};

pub(crate) use pointers::PtrVal;
use pointers::{Candidates, PtrVar, SharedPtr};

/// The value of a lowered expression.
#[derive(Debug, Clone)]
pub(crate) enum Val {
    /// A scalar.
    Scalar(Expr),
    /// A pointer (or an array, which decays to one).
    Ptr(PtrVal),
    /// The result of a `void` call.
    Void,
}

/// What a name in scope stands for.
#[derive(Debug, Clone)]
pub(crate) enum Binding {
    /// A local variable; `konst` holds the value of a `const` variable with a constant initialiser.
    Var {
        id: VarId,
        ty: ScalarType,
        konst: Option<Num>,
    },
    /// A scalar kernel parameter that is never assigned.
    Param { id: ParamId, ty: ScalarType },
    /// A file-scope constant.
    Const { value: Num, ty: ScalarType },
    /// A pointer variable: its candidate bases, offset and tag (see `pointers`).
    Ptr(PtrVar),
    /// A shared or local array.
    Array {
        mem: MemRef,
        elem: ScalarType,
        dims: Vec<u64>,
    },
    /// A scalar stored as a one-element array: a `__shared__` scalar, or a local whose
    /// address is taken.
    Cell { mem: MemRef, elem: ScalarType },
    /// A `__shared__` pointer, kept in shared cells.
    SharedPtr(SharedPtr),
}

/// The state of an inlined helper's `return`s.
#[derive(Debug, Clone)]
pub(crate) struct ReturnCtx {
    name: String,
    result: Option<(VarId, ScalarType)>,
    /// The result of a helper returning a pointer.
    ptr_result: Option<PtrVar>,
    wrapped: bool,
    done: Option<VarId>,
}

/// Limits that keep lowering bounded on hostile input.
const MAX_INLINE_DEPTH: usize = 16;
const MAX_INLINED_CALLS: usize = 2_000;
const MAX_STMT_DEPTH: usize = 400;
const MAX_VARS: usize = 200_000;

/// Lowers a function body (or header expressions) of one kernel.
pub(crate) struct Lowerer<'a> {
    pub(crate) k: Kernel,
    scopes: Vec<HashMap<String, Binding>>,
    globals: &'a HashMap<String, Binding>,
    helpers: &'a HashMap<String, &'a ast::Function>,
    inline_stack: Vec<String>,
    inlined: usize,
    ret: Option<ReturnCtx>,
    loop_depth: usize,
    depth: usize,
    assigned: HashSet<String>,
    /// Names whose address is taken (`&x`) in the body being lowered.
    addr_taken: HashSet<String>,
    /// The candidate bases of pointer variables across lowering runs.
    cands: Candidates,
    shared_decls: HashMap<(u32, u32, String), ArrayId>,
    /// The cells of `__shared__` pointers (offset, base tag) by declaration.
    shared_ptrs: HashMap<(u32, u32), (ArrayId, Option<ArrayId>)>,
    /// The kernel's parameters, visible in inlined helpers too: a file-scope `__constant__`
    /// or `__device__` array a helper reads reaches the kernel as one of them.
    kernel_params: HashMap<String, Binding>,
    pub(crate) header: bool,
    /// The kernel's `__ensures` postconditions, as assertions to check where it ends.
    pub(crate) ensures: Vec<Stmt>,
    /// While an annotation statement of the kernel's own body is lowered: the parameters no
    /// earlier statement names, so no access through them has happened yet (GPUVerify's
    /// `__no_read(p)` and `__no_write(p)` hold there).
    pub(crate) untouched: HashSet<String>,
    /// The buffers of `__constant__` variables ([`ast::ParamDecl::constant`]).
    pub(crate) constant_mems: HashSet<MemRef>,
    /// The `__ensures` conditions of the helper being inlined, checked where it ends.
    pub(crate) helper_post: Vec<(ast::Expr, Span)>,
    /// What `__return_val_*()` stands for while a helper's postcondition is lowered.
    pub(crate) return_val: Option<Val>,
}

/// Lowers every kernel of a translation unit. Kernels come back with an empty contract but
/// for the memory they reach through `volatile`.
pub fn lower_unit(tu: &TranslationUnit) -> Result<Vec<Kernel>, Vec<FrontError>> {
    let mut errors = Vec::new();
    let globals = match file_constants(tu) {
        Ok(g) => g,
        Err(e) => return Err(vec![e]),
    };
    let mut helpers: HashMap<String, &ast::Function> = HashMap::new();
    let mut kernel_names = HashSet::new();
    for item in &tu.items {
        let Item::Function(f) = item else { continue };
        let fresh = match f.kind {
            FnKind::Device => helpers.insert(f.name.clone(), f).is_none(),
            FnKind::Kernel => kernel_names.insert(f.name.clone()),
        };
        if !fresh {
            errors.push(FrontError::new(
                f.name_span,
                format!("`{}` is defined twice", f.name),
            ));
        }
    }
    let mut kernels = Vec::new();
    for item in &tu.items {
        match item {
            Item::Function(f) if f.kind == FnKind::Kernel => {
                match lower_kernel(f, &globals, &helpers) {
                    Ok(k) => kernels.push(k),
                    Err(e) => errors.push(e),
                }
            }
            _ => {}
        }
    }
    if errors.is_empty() {
        Ok(kernels)
    } else {
        Err(errors)
    }
}

/// The file-scope constants, as bindings.
pub(crate) fn file_constants(tu: &TranslationUnit) -> Result<HashMap<String, Binding>> {
    let mut globals = HashMap::new();
    for item in &tu.items {
        let Item::Const(d) = item else { continue };
        for dc in &d.declarators {
            let Some(ty) = d.base.base.filter(|_| !dc.ptr && dc.dims.is_empty()) else {
                return err(dc.span, "only scalar file-scope constants are supported");
            };
            let Some(ast::Init::Expr(init)) = &dc.init else {
                return err(dc.span, "a file-scope constant needs an initialiser");
            };
            let lookup = |n: &str| match globals.get(n) {
                Some(Binding::Const { value, .. }) => Some(*value),
                _ => None,
            };
            let Some(v) = consteval::eval(init, &lookup) else {
                return err(
                    init.span,
                    "a file-scope constant must have a constant initialiser",
                );
            };
            let value = Num::from_value(v.to_value(ty));
            globals.insert(dc.name.clone(), Binding::Const { value, ty });
        }
    }
    Ok(globals)
}

/// How many times a kernel is lowered at most while its pointers gain candidate bases.
const MAX_POINTER_RUNS: usize = 8;

fn lower_kernel(
    f: &ast::Function,
    globals: &HashMap<String, Binding>,
    helpers: &HashMap<String, &ast::Function>,
) -> Result<Kernel> {
    let mut hint = HashMap::new();
    for _ in 0..MAX_POINTER_RUNS {
        let (k, cands) = lower_kernel_once(f, globals, helpers, hint.clone())?;
        if !cands.grew {
            if let Some((span, what)) = cands.unassigned {
                return err(span, what);
            }
            return Ok(k);
        }
        for (key, bases) in cands.seen {
            let h: &mut Vec<pointers::Base> = hint.entry(key).or_default();
            for b in bases {
                if !h.contains(&b) {
                    h.push(b);
                }
            }
        }
    }
    err(
        f.name_span,
        "the bases pointer variables may point into did not settle",
    )
}

/// One lowering run with the pointer candidates `hint` found by the previous one.
fn lower_kernel_once(
    f: &ast::Function,
    globals: &HashMap<String, Binding>,
    helpers: &HashMap<String, &ast::Function>,
    hint: HashMap<pointers::PtrKey, Vec<pointers::Base>>,
) -> Result<(Kernel, Candidates)> {
    let kernel = Kernel {
        name: f.name.clone(),
        params: vec![],
        vars: vec![],
        shared: vec![],
        locals: vec![],
        body: vec![],
        contract: Contract::default(),
        span: f.span,
    };
    let mut lw = Lowerer::new(kernel, globals, helpers);
    lw.cands.hint = hint;
    lw.assigned = scan::assigned_names(&f.body);
    lw.addr_taken = scan::address_taken(&f.body);
    let mut body = Vec::new();
    for p in &f.params {
        lw.kernel_param(p, &mut body)?;
    }
    lw.inline_stack.push(f.name.clone());
    let mut named = HashSet::new();
    for s in &f.body {
        if scan::is_local_annotation(s) {
            lw.untouched = (f.params.iter())
                .filter(|p| !named.contains(&p.name))
                .map(|p| p.name.clone())
                .collect();
        }
        lw.stmt(s, &mut body)?;
        lw.untouched.clear();
        scan::mentioned_names(s, &mut named);
    }
    let ensures = std::mem::take(&mut lw.ensures);
    ensure_at_exits(&mut body, &ensures);
    body.extend(ensures);
    lw.k.body = body;
    Ok((lw.k, lw.cands))
}

/// Puts the postconditions `post` before every `return` of `body`.
fn ensure_at_exits(body: &mut Vec<Stmt>, post: &[Stmt]) {
    if post.is_empty() {
        return;
    }
    let mut out = Vec::with_capacity(body.len());
    for mut s in std::mem::take(body) {
        match &mut s.kind {
            StmtKind::Return => out.extend(post.iter().cloned()),
            StmtKind::If {
                then_body,
                else_body,
                ..
            } => {
                ensure_at_exits(then_body, post);
                ensure_at_exits(else_body, post);
            }
            StmtKind::For {
                init, update, body, ..
            } => {
                ensure_at_exits(init, post);
                ensure_at_exits(update, post);
                ensure_at_exits(body, post);
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
                ensure_at_exits(body, post)
            }
            _ => {}
        }
        out.push(s);
    }
    *body = out;
}

impl<'a> Lowerer<'a> {
    pub(crate) fn new(
        k: Kernel,
        globals: &'a HashMap<String, Binding>,
        helpers: &'a HashMap<String, &'a ast::Function>,
    ) -> Lowerer<'a> {
        Lowerer {
            k,
            scopes: vec![HashMap::new()],
            globals,
            helpers,
            inline_stack: vec![],
            inlined: 0,
            ret: None,
            loop_depth: 0,
            depth: 0,
            assigned: HashSet::new(),
            addr_taken: HashSet::new(),
            cands: Candidates::default(),
            shared_decls: HashMap::new(),
            shared_ptrs: HashMap::new(),
            kernel_params: HashMap::new(),
            header: false,
            ensures: vec![],
            untouched: HashSet::new(),
            constant_mems: HashSet::new(),
            helper_post: vec![],
            return_val: None,
        }
    }

    fn kernel_param(&mut self, p: &ast::ParamDecl, out: &mut Vec<Stmt>) -> Result<()> {
        if self.k.params.iter().any(|q| q.name == p.name) {
            return err(p.span, format!("parameter `{}` is declared twice", p.name));
        }
        let Some(base) = p.ty.base else {
            return err(
                p.ty.span,
                "`void` parameters (and `void*`) are not supported",
            );
        };
        let kind = if p.ty.ptr {
            ParamKind::Buffer {
                elem: base,
                writable: !p.ty.konst,
            }
        } else {
            ParamKind::Scalar(base)
        };
        let id = ParamId(self.k.params.len() as u32);
        self.mark_volatile(MemRef::Global(id), p.ty.ptr && p.ty.volatile);
        if p.constant {
            self.constant_mems.insert(MemRef::Global(id));
        }
        self.k.params.push(Param {
            name: p.name.clone(),
            kind,
            span: p.span,
        });
        let assigned = self.assigned.contains(&p.name);
        let binding = match kind {
            ParamKind::Buffer { elem, writable } => {
                let init = PtrVal {
                    mem: MemRef::Global(id),
                    elem,
                    writable,
                    prefix: vec![],
                    off: None,
                    rest: 1,
                    choice: None,
                };
                let v = self.bind_pointer_var(
                    &p.name,
                    p.span,
                    elem,
                    Some(init),
                    false,
                    assigned,
                    p.span,
                    out,
                )?;
                Binding::Ptr(v)
            }
            ParamKind::Scalar(ty) if self.addr_taken.contains(&p.name) => {
                let init = Expr::new(warpsafe_ir::ExprKind::Param(id), ty).with_span(p.span);
                self.cell(&p.name, ty, Some(init), p.span, out)?
            }
            ParamKind::Scalar(ty) if assigned => {
                let init = Expr::new(warpsafe_ir::ExprKind::Param(id), ty).with_span(p.span);
                let v = self.let_var(&p.name, init, p.span, out)?;
                Binding::Var {
                    id: v,
                    ty,
                    konst: None,
                }
            }
            ParamKind::Scalar(ty) => Binding::Param { id, ty },
        };
        self.kernel_params.insert(p.name.clone(), binding.clone());
        self.bind(&p.name, binding);
        Ok(())
    }

    /// Binds the parameters of a finished kernel for header expressions.
    pub(crate) fn bind_params_for_header(&mut self) {
        self.header = true;
        let params = self.k.params.clone();
        for (i, p) in params.iter().enumerate() {
            let id = ParamId(i as u32);
            let b = match p.kind {
                ParamKind::Scalar(ty) => Binding::Param { id, ty },
                ParamKind::Buffer { elem, writable } => Binding::Ptr(PtrVar {
                    key: (p.span.lo, p.span.hi),
                    elem,
                    writable,
                    bases: vec![Some(MemRef::Global(id))],
                    off: None,
                    tag: None,
                }),
            };
            self.bind(&p.name, b);
        }
    }

    pub(crate) fn bind(&mut self, name: &str, b: Binding) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), b);
        }
    }

    pub(crate) fn lookup(&self, name: &str) -> Option<&Binding> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name))
            .or_else(|| self.globals.get(name))
    }

    /// Runs `f` in a fresh inner scope.
    pub(crate) fn scoped<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        self.scopes.push(HashMap::new());
        let r = f(self);
        self.scopes.pop();
        r
    }

    /// Runs `f` with a separate output block; returns its result and the statements it emitted.
    pub(crate) fn sub_block<T>(
        &mut self,
        f: impl FnOnce(&mut Self, &mut Vec<Stmt>) -> Result<T>,
    ) -> Result<(T, Vec<Stmt>)> {
        let mut block = Vec::new();
        let r = f(self, &mut block)?;
        Ok((r, block))
    }

    /// A scalar `name` kept in a one-element thread-local array (its address is taken).
    pub(crate) fn cell(
        &mut self,
        name: &str,
        elem: ScalarType,
        init: Option<Expr>,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<Binding> {
        let id = ArrayId(self.k.locals.len() as u32);
        self.k.locals.push(warpsafe_ir::ArrayDecl {
            name: name.to_string(),
            elem,
            dims: vec![1],
            dynamic: false,
            span,
        });
        let mem = MemRef::Local(id);
        if let Some(value) = init {
            let indices = vec![Expr::i32(0).with_span(span)];
            let kind = StmtKind::Store {
                mem,
                indices,
                value: crate::types::convert(value, elem),
            };
            out.push(Stmt::new(kind).with_span(span));
        }
        Ok(Binding::Cell { mem, elem })
    }

    /// Declares a fresh variable (without emitting its `Let`).
    pub(crate) fn new_var(&mut self, name: &str, ty: ScalarType, span: Span) -> Result<VarId> {
        if self.k.vars.len() >= MAX_VARS {
            return err(span, "the kernel needs too many variables");
        }
        self.k.vars.push(VarDecl {
            name: name.to_string(),
            ty,
            span,
        });
        Ok(VarId(self.k.vars.len() as u32 - 1))
    }

    /// Declares a fresh variable initialised to `init` and emits its `Let`.
    pub(crate) fn let_var(
        &mut self,
        name: &str,
        init: Expr,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<VarId> {
        let v = self.new_var(name, init.ty, span)?;
        out.push(
            Stmt::new(StmtKind::Let {
                var: v,
                init: Some(init),
            })
            .with_span(span),
        );
        Ok(v)
    }

    /// Binds `init` to a fresh temporary and returns a read of it.
    pub(crate) fn temp(&mut self, name: &str, init: Expr, out: &mut Vec<Stmt>) -> Result<Expr> {
        let (ty, span) = (init.ty, init.span);
        let v = self.let_var(name, init, span, out)?;
        Ok(Expr::var(v, ty).with_span(span))
    }

    pub(crate) fn var_expr(&self, v: VarId, span: Span) -> Expr {
        let ty = self
            .k
            .vars
            .get(v.0 as usize)
            .map(|d| d.ty)
            .unwrap_or(ScalarType::I32);
        Expr::var(v, ty).with_span(span)
    }

    fn enter(&mut self, span: Span) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_STMT_DEPTH {
            return err(span, "the code nests too deeply (after inlining helpers)");
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}
