//! Member functions, constructors, user operators, lambdas and functions over records,
//! inlined where they are called.
//!
//! A call becomes statements hoisted before the statement that contains it: one local per
//! by-value parameter (renamed `name__iK` for the K-th inlined body, so nothing it declares
//! meets a name of the caller), then the body, where `this->f` (and an implicit `f`) is
//! the field's slot in the object's [`Place`]: what a method writes lands in the object
//! itself, and through a reference in what it refers to. A parameter bound to a reference
//! is the argument's lvalue; a read-only parameter given a constant, a launch builtin or
//! (when the callee changes nothing of the caller's) a plain variable is that expression,
//! so `op(a, b)` of a functor is `a + b` with no statement at all. A body with an early
//! `return` runs in `do { … } while (false)` with `return` as `break`; a `return` inside a
//! loop or `switch` of an inlined body is rejected.
//!
//! Statements cannot be hoisted out of a place that is evaluated lazily (the right of `&&`
//! and `||`, the arms of `?:`, a loop's condition or update): a call there that needs
//! statements is rejected with its span.

use super::expr::{is_expr, strip_implicit};
use super::place::{Place, Slot};
use super::vector_math::VecCall;
use super::{types, Callee, Unit};
use crate::node::Node;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use warpsafe_cuda_front::ast::{
    Decl, Declarator, Expr, ExprKind, Init, Stmt, StmtKind, Storage, UnaryOp,
};
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::{ScalarType, Span};

const MAX_DEPTH: usize = 24;

fn unsupported(span: Span, what: impl std::fmt::Display) -> FrontError {
    FrontError::new(span, format!("unsupported: {what}"))
}

/// The inlining state of one translation unit.
#[derive(Default)]
pub struct State {
    frames: RefCell<Vec<Frame>>,
    /// Statements hoisted before the statement being translated; `Err` where hoisting is
    /// not allowed (with why).
    pending: RefCell<Vec<Result<Vec<Stmt>, &'static str>>>,
    /// Record variables whose place is not the default one (reference variables, records
    /// with reference members), by (frame, declaration id).
    vars: RefCell<HashMap<(u32, String), Place>>,
    /// File- and namespace-scope variables, never renamed.
    pub file_vars: RefCell<HashSet<String>>,
}

/// What the body being inlined returns into.
#[derive(Clone)]
enum Ret {
    Void,
    /// A scalar local assigned by every `return`.
    Var(String),
    /// Record locals assigned by every `return`.
    Record(Place),
    /// The one, final `return`: its value is the call's.
    Direct,
}

struct Frame {
    id: u32,
    fn_id: String,
    name: String,
    this: Option<Place>,
    aliases: HashMap<String, Slot>,
    ret: Ret,
    by_ref: bool,
    wrapped: bool,
    value: Option<(Value, bool)>,
}

/// The value of an inlined call.
#[derive(Debug, Clone)]
pub enum Value {
    /// A `void` function's.
    Void,
    /// A scalar (an lvalue when the function returns a reference).
    Scalar(Expr),
    /// A record.
    Record(Place),
}

/// The name of declaration `name` in the `id`-th inlined body.
fn local_name(name: &str, id: u32) -> String {
    format!("{name}__i{id}")
}

/// A constant or launch builtin: the same value wherever it is evaluated.
fn constant_like(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(..) | ExprKind::Float(..) | ExprKind::Bool(_) => true,
        ExprKind::Member(b, _) => matches!(&b.kind, ExprKind::Ident(n)
            if matches!(n.as_str(), "threadIdx" | "blockIdx" | "blockDim" | "gridDim")),
        ExprKind::Unary(UnaryOp::Neg, x) | ExprKind::Cast(_, x) => constant_like(x),
        _ => false,
    }
}

/// True when every use of declaration `id` in `n` only reads it.
fn read_only(n: &Node, id: &str) -> bool {
    n.inner.iter().all(|c| {
        let refers =
            |x: &Node| x.kind == "DeclRefExpr" && x.referenced().is_some_and(|r| r.0 == id);
        if refers(c) {
            // Only an lvalue-to-rvalue conversion of it reads it and nothing else.
            return n.kind == "ImplicitCastExpr" && n.str("castKind") == Some("LValueToRValue");
        }
        read_only(c, id)
    })
}

/// The return type spelling of a function declaration (`Acc &(float)` → `Acc &`).
fn return_spelling(f: &Node) -> String {
    f.fields
        .get("type")
        .and_then(|t| t.get("qualType"))
        .and_then(|t| t.as_str())
        .and_then(|t| t.split_once('(').map(|(r, _)| r.trim().to_string()))
        .unwrap_or_else(|| "void".into())
}

/// Whether the body needs `do { … } while (false)` (a `return` before its end); an error
/// for a `return` inside a loop or `switch`.
fn needs_wrap(body: &Node, name: &str, span: Span) -> Result<bool, FrontError> {
    fn scan(n: &Node, in_loop: bool, name: &str, span: Span) -> Result<bool, FrontError> {
        if n.kind == "LambdaExpr" {
            return Ok(false);
        }
        if n.kind == "ReturnStmt" {
            if in_loop {
                return Err(unsupported(
                    span,
                    format!("a `return` inside a loop or `switch` of `{name}` (inlined)"),
                ));
            }
            return Ok(true);
        }
        let inner_loop = in_loop
            || matches!(
                n.kind.as_str(),
                "ForStmt" | "WhileStmt" | "DoStmt" | "SwitchStmt" | "CXXForRangeStmt"
            );
        let mut any = false;
        for c in &n.inner {
            any |= scan(c, inner_loop, name, span)?;
        }
        Ok(any)
    }
    let stmts: Vec<&Node> = body.inner.iter().collect();
    let mut wrap = false;
    for (i, s) in stmts.iter().enumerate() {
        if s.kind == "ReturnStmt" && i + 1 == stmts.len() {
            continue;
        }
        wrap |= scan(s, false, name, span)?;
    }
    Ok(wrap)
}

fn stmt(kind: StmtKind, span: Span) -> Stmt {
    Stmt { kind, span }
}

fn assign(to: Expr, from: Expr, span: Span) -> Stmt {
    stmt(
        StmtKind::Expr(Expr::new(
            ExprKind::Assign(None, Box::new(to), Box::new(from)),
            span,
        )),
        span,
    )
}

impl Unit<'_> {
    /// The number of the innermost inlined body (0 outside every one).
    pub fn frame_id(&self) -> u32 {
        self.inl.frames.borrow().last().map_or(0, |f| f.id)
    }

    /// The name a local declaration has in the translation (renamed inside inlined bodies).
    pub fn var_name(&self, id: &str, name: &str) -> String {
        let frame = self.frame_id();
        if frame == 0 || self.inl.file_vars.borrow().contains(id) {
            name.to_string()
        } else {
            local_name(name, frame)
        }
    }

    /// What a parameter or capture of the innermost inlined body stands for, when it is an
    /// alias of the caller's expression or object.
    pub fn alias(&self, id: &str) -> Option<Slot> {
        self.inl
            .frames
            .borrow()
            .last()
            .and_then(|f| f.aliases.get(id).cloned())
    }

    /// The place of the record a record-pointer expression `p` points at when that is a
    /// record variable: `&r` of a local record `r` (or `&r.f` of a record field), or a
    /// parameter bound to such a pointer. `None` for the rest (pointers into buffers, which
    /// the pointer translation handles, and arithmetic on them).
    pub fn local_record_pointee(&self, p: &Node) -> Option<Place> {
        let p = strip_implicit(p);
        match p.kind.as_str() {
            "DeclRefExpr" => {
                let (id, _, _) = p.referenced()?;
                let pointer = p.ty().is_some_and(|t| t.trim_end().ends_with('*'));
                match self.alias(id) {
                    Some(Slot::Record(place)) if pointer => Some(place),
                    _ => None,
                }
            }
            "UnaryOperator" if p.str("opcode") == Some("&") => {
                let r = strip_implicit(p.inner.first()?);
                let local = match r.kind.as_str() {
                    "DeclRefExpr" => {
                        let (id, kind, _) = r.referenced()?;
                        kind == "VarDecl" && self.record_global_of(id).is_none()
                    }
                    "MemberExpr" => !r.flag("isArrow"),
                    _ => false,
                };
                if !local {
                    return None;
                }
                self.place_of(r, Span::DUMMY).ok()
            }
            _ => None,
        }
    }

    /// The registered place of record variable `id` in the current body.
    pub fn record_var(&self, id: &str) -> Option<Place> {
        let key = (self.frame_id(), id.to_string());
        self.inl.vars.borrow().get(&key).cloned()
    }

    fn set_record_var(&self, id: &str, place: Place) {
        let key = (self.frame_id(), id.to_string());
        self.inl.vars.borrow_mut().insert(key, place);
    }

    /// The object `this` points at in the innermost member function.
    pub fn this_place(&self, span: Span) -> Result<Place, FrontError> {
        self.inl
            .frames
            .borrow()
            .last()
            .and_then(|f| f.this.clone())
            .ok_or_else(|| unsupported(span, "`this` outside an inlined member function"))
    }

    /// True inside an inlined body.
    pub fn in_frame(&self) -> bool {
        !self.inl.frames.borrow().is_empty()
    }

    /// Puts `stmts` before the statement being translated.
    pub fn hoist(&self, stmts: Vec<Stmt>, span: Span) -> Result<(), FrontError> {
        if stmts.is_empty() {
            return Ok(());
        }
        let mut pending = self.inl.pending.borrow_mut();
        match pending.last_mut() {
            Some(Ok(v)) => {
                v.extend(stmts);
                Ok(())
            }
            Some(Err(why)) => Err(unsupported(
                span,
                format!("a call inlined with statements of its own (member function, constructor or record value) {why}"),
            )),
            None => Err(unsupported(span, "a call inlined outside a statement")),
        }
    }

    /// True where statements may be hoisted before the statement being translated.
    pub fn can_hoist(&self) -> bool {
        matches!(self.inl.pending.borrow().last(), Some(Ok(_)))
    }

    /// Runs `f` collecting what it hoists.
    pub fn with_pending<T>(
        &self,
        f: impl FnOnce() -> Result<T, FrontError>,
    ) -> (Result<T, FrontError>, Vec<Stmt>) {
        self.inl.pending.borrow_mut().push(Ok(vec![]));
        let r = f();
        let got = self.inl.pending.borrow_mut().pop();
        (r, got.and_then(Result::ok).unwrap_or_default())
    }

    /// Runs `f` where nothing may be hoisted (`why` says where that is).
    pub fn guarded<T>(
        &self,
        why: &'static str,
        f: impl FnOnce() -> Result<T, FrontError>,
    ) -> Result<T, FrontError> {
        self.inl.pending.borrow_mut().push(Err(why));
        let r = f();
        self.inl.pending.borrow_mut().pop();
        r
    }

    /// True for a call of a user function (not a builtin of our headers).
    pub fn is_user_call(&self, n: &Node) -> bool {
        n.inner
            .first()
            .map(strip_implicit)
            .and_then(|c| c.referenced())
            .is_some_and(|(id, _, _)| {
                matches!(self.callee.get(id), Some(Callee::User(..)))
                    || self.methods.contains_key(id)
            })
    }

    /// The value of a call this module inlines: a member function, a user operator, a
    /// lambda, a function taking or returning records. `None` for every other call.
    pub fn call_value(&self, n: &Node, span: Span) -> Result<Option<Value>, FrontError> {
        let span = self.span(n, span);
        // An operator clang could not resolve (an operand it could not type, with overloads of
        // the operator in scope, as helper_math.h's): the expression clang could not type.
        let unresolved = n.kind == "CXXOperatorCallExpr"
            && n.inner
                .first()
                .map(strip_implicit)
                .is_some_and(|c| c.kind == "UnresolvedLookupExpr");
        if unresolved {
            return Err(FrontError::new(span, super::UNTYPED));
        }
        if let Some(v) = self.vector_call(n, span)? {
            return Ok(Some(match v {
                VecCall::Scalar(e) => Value::Scalar(e),
                VecCall::Leaves(key, leaves) => {
                    Value::Record(self.vector_place(&key, leaves, span)?)
                }
                VecCall::Done => Value::Void,
            }));
        }
        match n.kind.as_str() {
            "CXXMemberCallExpr" => {
                let Some(member) = n.inner.first().map(strip_implicit) else {
                    return Ok(None);
                };
                if member.kind != "MemberExpr" {
                    return Ok(None);
                }
                let id = member.str("referencedMemberDecl").unwrap_or("");
                let Some(&method) = self.methods.get(id) else {
                    return Ok(None);
                };
                if method.flag("isImplicit") || method.kind != "CXXMethodDecl" {
                    return Ok(None);
                }
                let args: Vec<&Node> = n.inner.iter().skip(1).collect();
                if method.str("storageClass") == Some("static") {
                    return self.inline_fn(method, None, &args, vec![], span).map(Some);
                }
                let base = member
                    .inner
                    .first()
                    .ok_or_else(|| unsupported(span, "malformed member call"))?;
                let object = self.object_place(base, member.flag("isArrow"), span)?;
                let extra = self.capture_aliases(&object, span)?;
                self.inline_fn(method, Some(object), &args, extra, span)
                    .map(Some)
            }
            "CXXOperatorCallExpr" => {
                let Some((id, _, _)) = n
                    .inner
                    .first()
                    .map(strip_implicit)
                    .and_then(|c| c.referenced())
                else {
                    return Ok(None);
                };
                let args: Vec<&Node> = n.inner.iter().skip(1).collect();
                if let Some(&method) = self.methods.get(id) {
                    if method.flag("isImplicit") {
                        return Ok(None);
                    }
                    let [object, rest @ ..] = &args[..] else {
                        return Err(unsupported(span, "operator call without an object"));
                    };
                    let object = self.place_of(object, span)?;
                    let extra = self.capture_aliases(&object, span)?;
                    return self
                        .inline_fn(method, Some(object), rest, extra, span)
                        .map(Some);
                }
                match self.callee.get(id) {
                    Some(Callee::User(_, decl)) => {
                        let decl = self.definition(decl);
                        self.inline_fn(decl, None, &args, vec![], span).map(Some)
                    }
                    _ => Ok(None),
                }
            }
            "CallExpr" => {
                let Some((id, _, _)) = n
                    .inner
                    .first()
                    .map(strip_implicit)
                    .and_then(|c| c.referenced())
                else {
                    return Ok(None);
                };
                let Some(Callee::User(_, decl)) = self.callee.get(id) else {
                    return Ok(None);
                };
                let decl = self.definition(decl);
                let args: Vec<&Node> = n.inner.iter().skip(1).collect();
                // A pointer to a record variable has no buffer to pass: the call is inlined
                // here, the parameter standing for the record (see `bind_params`).
                let local_pointer = || args.iter().any(|a| self.local_record_pointee(a).is_some());
                // A view of memory (`(unsigned int *)bytes`) is not a pointer the helper road
                // can pass: inlined here, the parameter becomes the view (`view_param`).
                let view = || args.iter().any(|a| self.is_view(a));
                if !self.takes_records(decl) && !local_pointer() && !view() {
                    return Ok(None);
                }
                self.inline_fn(decl, None, &args, vec![], span).map(Some)
            }
            _ => Ok(None),
        }
    }

    /// The declaration with a body for a user function.
    fn definition<'n>(&self, decl: &'n Node) -> &'n Node {
        decl
    }

    /// True for a function with a record parameter or a record result (or a lambda
    /// parameter), which the helper road cannot pass.
    pub fn takes_records(&self, f: &Node) -> bool {
        let rec = |t: &str| {
            self.record_key_of(t).is_some() && super::groups::group_of(t).ok().flatten().is_none()
        };
        rec(&return_spelling(f))
            || f.inner
                .iter()
                .filter(|c| c.kind == "ParmVarDecl")
                .any(|p| p.ty().is_some_and(rec))
    }

    /// The object a member call is made on: `obj.m()`, `p->m()`, `this->m()`, `m()`.
    fn object_place(&self, base: &Node, arrow: bool, span: Span) -> Result<Place, FrontError> {
        let b = strip_implicit(base);
        if b.kind == "CXXThisExpr" {
            return self.this_place(span);
        }
        if !arrow {
            return self.place_of(base, span);
        }
        let ty = b.ty().unwrap_or("");
        let key = ty
            .rsplit_once('*')
            .and_then(|(p, _)| self.record_key_of(p))
            .ok_or_else(|| unsupported(span, format!("member call through `{ty}`")))?;
        let (at, _) = self.record_scalars(base, span)?;
        self.memory_place_at(&key, at, span)
    }

    /// A lambda's captured declarations as aliases of its closure's fields.
    fn capture_aliases(
        &self,
        object: &Place,
        span: Span,
    ) -> Result<Vec<(String, Slot)>, FrontError> {
        let Some(captured) = self.captures.get(&object.key) else {
            return Ok(vec![]);
        };
        let mut out = vec![];
        for (i, c) in captured.iter().enumerate() {
            let id = c
                .clone()
                .ok_or_else(|| unsupported(span, "a lambda capturing `this` or an init-capture"))?;
            let slot = object
                .slots
                .get(i)
                .cloned()
                .ok_or_else(|| unsupported(span, "lambda capture"))?;
            out.push((id, slot));
        }
        Ok(out)
    }

    /// Inlines function (or member function) `f` on `this` with `args`, hoisting its
    /// statements; its value.
    pub fn inline_fn(
        &self,
        f: &Node,
        this: Option<Place>,
        args: &[&Node],
        extra: Vec<(String, Slot)>,
        span: Span,
    ) -> Result<Value, FrontError> {
        let name = f.name().unwrap_or("function").to_string();
        let body = f
            .inner
            .iter()
            .find(|c| c.kind == "CompoundStmt")
            .ok_or_else(|| unsupported(span, format!("`{name}` has no body here")))?;
        self.check_depth(f, &name, span)?;
        let id = self.fresh() + 1;
        let mut stmts = vec![];
        let mut aliases: HashMap<String, Slot> = extra.into_iter().collect();
        let pure = f.kind == "CXXConstructorDecl"
            || this.is_none()
            || f.ty().is_some_and(|t| t.trim_end().ends_with("const"));
        self.bind_params(f, body, args, id, pure, span, &mut stmts, &mut aliases)?;
        let ret_spelling = return_spelling(f);
        let (rty, by_ref) = types::strip_reference(&ret_spelling);
        let wrapped = needs_wrap(body, &name, span)?;
        let ret = if rty == "void" {
            Ret::Void
        } else if by_ref {
            if wrapped {
                return Err(unsupported(
                    span,
                    format!("`{name}` returns a reference from more than one `return`"),
                ));
            }
            Ret::Direct
        } else if !wrapped {
            Ret::Direct
        } else if let Some(key) = self.record_key_of(rty) {
            let (decls, place) = self.fresh_record(&key, &local_name("ret", id), false, span)?;
            stmts.extend(decls);
            Ret::Record(place)
        } else {
            let v = local_name("ret", id);
            stmts.push(self.local_decl(&v, rty, None, span)?);
            Ret::Var(v)
        };
        self.inl.frames.borrow_mut().push(Frame {
            id,
            fn_id: f.id().to_string(),
            name: name.clone(),
            this,
            aliases,
            ret: ret.clone(),
            by_ref,
            wrapped,
            value: None,
        });
        let r = self.stmts(&body.inner, span);
        let frame = self.inl.frames.borrow_mut().pop();
        let body_stmts: Vec<Stmt> = r?
            .into_iter()
            .filter(|s| !matches!(s.kind, StmtKind::Empty))
            .collect();
        if wrapped {
            stmts.push(stmt(
                StmtKind::DoWhile(
                    Box::new(stmt(StmtKind::Block(body_stmts), span)),
                    Expr::new(ExprKind::Bool(false), span),
                ),
                span,
            ));
        } else {
            stmts.extend(body_stmts);
        }
        let direct = frame.and_then(|f| f.value);
        let value = match ret {
            Ret::Void => Value::Void,
            Ret::Var(v) => Value::Scalar(Expr::new(ExprKind::Ident(v), span)),
            Ret::Record(p) => Value::Record(p),
            Ret::Direct => match direct {
                None => return Err(unsupported(span, format!("`{name}` returns no value"))),
                Some((v, _)) if by_ref || stmts.is_empty() => v,
                Some((Value::Scalar(e), _)) => {
                    // Read the value where the body ends, not where the caller uses it.
                    let v = local_name("ret", id);
                    stmts.push(self.local_decl(&v, rty, Some(e), span)?);
                    Value::Scalar(Expr::new(ExprKind::Ident(v), span))
                }
                Some((Value::Record(p), false)) => {
                    let (decls, copy) =
                        self.fresh_record(&p.key, &local_name("ret", id), false, span)?;
                    stmts.extend(decls);
                    for (a, b) in copy.scalars(span)?.into_iter().zip(p.scalars(span)?) {
                        stmts.push(assign(a, b, span));
                    }
                    Value::Record(copy)
                }
                Some((v, _)) => v,
            },
        };
        self.hoist(stmts, span)?;
        Ok(value)
    }

    fn check_depth(&self, f: &Node, name: &str, span: Span) -> Result<(), FrontError> {
        let frames = self.inl.frames.borrow();
        if frames.iter().any(|fr| fr.fn_id == f.id()) {
            return Err(unsupported(
                span,
                format!("recursive call to `{name}`: recursion is not supported"),
            ));
        }
        if frames.len() >= MAX_DEPTH {
            return Err(unsupported(span, "member functions nested too deeply"));
        }
        Ok(())
    }

    /// Binds the parameters of `f` to `args`: references and read-only simple arguments as
    /// aliases, the rest as fresh locals.
    #[allow(clippy::too_many_arguments)]
    fn bind_params(
        &self,
        f: &Node,
        body: &Node,
        args: &[&Node],
        id: u32,
        pure: bool,
        span: Span,
        stmts: &mut Vec<Stmt>,
        aliases: &mut HashMap<String, Slot>,
    ) -> Result<(), FrontError> {
        let params: Vec<&Node> = f.inner.iter().filter(|c| c.kind == "ParmVarDecl").collect();
        if args.len() != params.len() {
            return Err(unsupported(
                span,
                format!(
                    "`{}` called with {} argument(s) for {} parameter(s)",
                    f.name().unwrap_or("?"),
                    args.len(),
                    params.len()
                ),
            ));
        }
        // A plain variable may stand for a parameter only when the callee cannot change
        // what it names (no reference parameter, no change to its object).
        let no_refs = params.iter().all(|p| {
            let (t, r) = types::strip_reference(p.ty().unwrap_or(""));
            !r || t.starts_with("const ")
        });
        for (i, (p, a)) in params.iter().zip(args).enumerate() {
            let a: &Node = if a.kind == "CXXDefaultArgExpr" {
                p.inner
                    .iter()
                    .find(|c| is_expr(c))
                    .ok_or_else(|| unsupported(span, "default argument"))?
            } else {
                a
            };
            let pty = p.ty().unwrap_or("int").trim();
            let (inner, is_ref) = types::strip_reference(pty);
            let inner = inner.trim_end_matches('&').trim_end();
            let pname = match p.name() {
                Some(n) if !n.is_empty() => local_name(n, id),
                _ => local_name(&format!("__p{i}"), id),
            };
            if let Some(key) = self.record_key_of(inner) {
                if super::groups::group_of(inner).ok().flatten().is_some() {
                    continue;
                }
                let src = self.place_of(a, span)?;
                let lvalue = a.str("valueCategory") == Some("lvalue")
                    || strip_implicit(a).str("valueCategory") == Some("lvalue");
                let place = if is_ref || !lvalue || src.fields.is_empty() {
                    src
                } else {
                    let (decls, copy) = self.fresh_record(&key, &pname, false, span)?;
                    stmts.extend(decls);
                    for (x, y) in copy.scalars(span)?.into_iter().zip(src.scalars(span)?) {
                        stmts.push(assign(x, y, span));
                    }
                    copy
                };
                aliases.insert(p.id().to_string(), Slot::Record(place));
                continue;
            }
            if is_ref && !inner.starts_with("const ") {
                let e = self.expr(a, span)?;
                aliases.insert(p.id().to_string(), Slot::Expr(e));
                continue;
            }
            if is_ref && self.record_pointer(inner, span)?.is_none() {
                // `const float &c`: an lvalue is named again at each use (it sees the
                // callee's writes through other references); a temporary is a local copy.
                let e = self.expr(a, span)?;
                let lvalue = strip_implicit(a).str("valueCategory") == Some("lvalue");
                let slot = if lvalue {
                    e
                } else {
                    stmts.push(self.local_decl(&pname, inner, Some(e), span)?);
                    Expr::new(ExprKind::Ident(pname), span)
                };
                aliases.insert(p.id().to_string(), Slot::Expr(slot));
                continue;
            }
            if let Some(decl) = self.view_param(p, a, &pname, span)? {
                stmts.push(decl);
                continue;
            }
            let record_ptr = self.record_pointer(inner, span)?.is_some();
            if record_ptr {
                // A pointer to a local record (`curandState s = states[id]; curand(&s);`, an
                // out-parameter `Pt q; where(&q);`) stands for that record's place: `p->f`
                // is its field, and passing `p` on passes the place.
                if let Some(place) = self.local_record_pointee(a) {
                    aliases.insert(p.id().to_string(), Slot::Record(place));
                    continue;
                }
            }
            let e = if record_ptr {
                self.record_pointer_init(a, span)?
            } else {
                self.expr(a, span)?
            };
            let plain = matches!(e.kind, ExprKind::Ident(_)) && pure && no_refs;
            if (constant_like(&e) || plain) && read_only(body, p.id()) {
                aliases.insert(p.id().to_string(), Slot::Expr(e));
            } else {
                stmts.push(self.local_decl(&pname, inner, Some(e), span)?);
            }
        }
        Ok(())
    }

    /// `T name = init;` for a scalar or pointer type spelling.
    pub fn local_decl(
        &self,
        name: &str,
        spelling: &str,
        init: Option<Expr>,
        span: Span,
    ) -> Result<Stmt, FrontError> {
        self.field_decl(name, spelling, false, init, span)
    }

    /// The declaration of one local (or `__shared__`) scalar, pointer or array.
    fn field_decl(
        &self,
        name: &str,
        spelling: &str,
        shared: bool,
        init: Option<Expr>,
        span: Span,
    ) -> Result<Stmt, FrontError> {
        let ty = match self.record_pointer(spelling, span)? {
            Some((t, _)) => types::Declared {
                ty: t,
                dims: vec![],
            },
            None => {
                let flat = self.record_array(spelling, span)?;
                types::declared(flat.as_deref().unwrap_or(spelling), span)
                    .map_err(|e| unsupported(span, format!("`{name}`: {e}")))?
            }
        };
        let mut base = ty.ty;
        let ptr = base.ptr;
        base.ptr = false;
        if !ptr {
            base.konst = false;
        }
        if base.base.is_none() {
            return Err(unsupported(span, format!("`void` local `{name}`")));
        }
        let dims = ty
            .dims
            .iter()
            .map(|d| d.map(|n| Expr::new(ExprKind::Int(n, ScalarType::U64), span)))
            .collect();
        Ok(stmt(
            StmtKind::Decl(Decl {
                storage: Storage {
                    shared,
                    ..Default::default()
                },
                base,
                declarators: vec![Declarator {
                    name: name.to_string(),
                    name_span: span,
                    ptr,
                    dims,
                    init: init.map(Init::Expr),
                    span,
                }],
            }),
            span,
        ))
    }

    /// Fresh locals (`base__field`) for a record of type `key`, declared without values;
    /// reference members stay unbound.
    pub fn fresh_record(
        &self,
        key: &str,
        base: &str,
        shared: bool,
        span: Span,
    ) -> Result<(Vec<Stmt>, Place), FrontError> {
        let place = self.local_place(key, base, span)?;
        let mut out = vec![];
        self.declare_place(&place, shared, &mut [], &mut out, span)?;
        Ok((out, place))
    }

    fn declare_place(
        &self,
        place: &Place,
        shared: bool,
        inits: &mut [Option<Expr>],
        out: &mut Vec<Stmt>,
        span: Span,
    ) -> Result<(), FrontError> {
        if let Some(u) = &place.units {
            // A union variable: one local array of the units its members share.
            let ExprKind::Ident(n) = &u.base.kind else {
                return Err(unsupported(
                    span,
                    format!("union `{}` in memory", place.key),
                ));
            };
            if inits.iter().any(Option::is_some) {
                return Err(unsupported(
                    span,
                    format!("a braced initialiser of the union `{}`", place.key),
                ));
            }
            let spelling = format!("{}[{}]", u.unit.c_name(), u.count);
            out.push(self.field_decl(n, &spelling, shared, None, span)?);
            return Ok(());
        }
        for (i, (slot, (_, ty))) in place.slots.iter().zip(&place.fields).enumerate() {
            match slot {
                Slot::Expr(Expr {
                    kind: ExprKind::Ident(n),
                    ..
                }) => {
                    let init = inits.get_mut(i).and_then(Option::take);
                    out.push(self.field_decl(n, ty, shared, init, span)?);
                }
                Slot::Record(p) => self.declare_place(p, shared, &mut [], out, span)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// The constructor a construction runs: `Some(Some(ctor))` for a user constructor,
    /// `Some(None)` for an implicit default constructor of a record with default member
    /// initialisers, `None` for a copy or move (or a record with nothing to run).
    pub fn user_constructor(&self, n: &Node) -> Option<Option<&Node>> {
        let key = self.record_key_of(n.ty()?)?;
        let decl = self.record_decls.get(&key)?;
        let want = n
            .fields
            .get("ctorType")
            .and_then(|t| t.get("qualType"))
            .and_then(|t| t.as_str())
            .unwrap_or("");
        let ctors: Vec<&Node> = decl
            .inner
            .iter()
            .filter(|c| c.kind == "CXXConstructorDecl")
            .collect();
        let nargs = n.inner.iter().filter(|c| is_expr(c)).count();
        let by_type = ctors.iter().find(|c| {
            c.fields
                .get("type")
                .and_then(|t| t.get("qualType"))
                .and_then(|t| t.as_str())
                == Some(want)
        });
        let user: Vec<&&Node> = ctors
            .iter()
            .filter(|c| {
                !c.flag("isImplicit")
                    && c.inner.iter().filter(|p| p.kind == "ParmVarDecl").count() == nargs
            })
            .collect();
        let ctor = match (by_type, &user[..]) {
            (Some(c), _) => Some(*c),
            (None, [one]) => Some(**one),
            _ => None,
        };
        let defaults = decl
            .inner
            .iter()
            .any(|c| c.kind == "FieldDecl" && c.inner.iter().any(is_expr));
        match ctor {
            Some(c) if !c.flag("isImplicit") => {
                Some(Some(self.methods.get(c.id()).copied().unwrap_or(c)))
            }
            _ if nargs == 0 && defaults => Some(None),
            _ => None,
        }
    }

    /// Constructs a record of type `key` into fresh locals named `base__field` (or into
    /// `__shared__` arrays and scalars) with constructor `ctor` (or only the default member
    /// initialisers) on `args`, hoisting the statements; the object's place.
    pub fn construct(
        &self,
        key: &str,
        ctor: Option<&Node>,
        args: &[&Node],
        base: &str,
        shared: bool,
        span: Span,
    ) -> Result<Place, FrontError> {
        let decl = self
            .record_decls
            .get(key)
            .copied()
            .ok_or_else(|| unsupported(span, format!("record `{key}`")))?;
        self.reject_union_value(key, span)?;
        let place = self.local_place(key, base, span)?;
        let id = self.fresh() + 1;
        let mut stmts = vec![];
        let mut aliases = HashMap::new();
        if let Some(c) = ctor {
            self.check_depth(c, key, span)?;
            let body = c
                .inner
                .iter()
                .find(|b| b.kind == "CompoundStmt")
                .ok_or_else(|| {
                    unsupported(span, format!("constructor of `{key}` without a body"))
                })?;
            if c.inner
                .iter()
                .any(|i| i.kind == "CXXCtorInitializer" && i.fields.contains_key("baseInit"))
            {
                return Err(unsupported(span, format!("base classes of `{key}`")));
            }
            self.bind_params(c, body, args, id, true, span, &mut stmts, &mut aliases)?;
        }
        self.inl.frames.borrow_mut().push(Frame {
            id,
            fn_id: ctor.map_or_else(|| key.to_string(), |c| c.id().to_string()),
            name: key.to_string(),
            this: Some(place.clone()),
            aliases,
            ret: Ret::Void,
            by_ref: false,
            wrapped: false,
            value: None,
        });
        let r = self.construct_fields(decl, ctor, shared, span, &mut stmts);
        let r = r.and_then(|()| {
            match ctor.and_then(|c| c.inner.iter().find(|b| b.kind == "CompoundStmt")) {
                Some(body) if !body.inner.is_empty() => {
                    if needs_wrap(body, key, span)? {
                        return Err(unsupported(
                            span,
                            format!("a `return` in the constructor of `{key}`"),
                        ));
                    }
                    self.stmts(&body.inner, span)
                }
                _ => Ok(vec![]),
            }
        });
        let frame = self.inl.frames.borrow_mut().pop();
        stmts.extend(r?);
        let place = frame.and_then(|f| f.this).unwrap_or(place);
        self.hoist(stmts, span)?;
        Ok(place)
    }

    /// Declares the fields of the object under construction, in order, each with its
    /// member initialiser or default member initialiser; binds reference members.
    fn construct_fields(
        &self,
        decl: &Node,
        ctor: Option<&Node>,
        shared: bool,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<(), FrontError> {
        let field_decls: Vec<&Node> = decl
            .inner
            .iter()
            .filter(|c| c.kind == "FieldDecl")
            .collect();
        let place = self.this_place(span)?;
        for (i, fd) in field_decls.iter().enumerate() {
            let (fname, fty) = place.fields[i].clone();
            let from_ctor = ctor.and_then(|c| {
                c.inner.iter().find(|ci| {
                    ci.kind == "CXXCtorInitializer"
                        && ci
                            .fields
                            .get("anyInit")
                            .and_then(|a| a.get("name"))
                            .and_then(|n| n.as_str())
                            == Some(fname.as_str())
                })
            });
            let mut init = from_ctor.and_then(|ci| ci.inner.iter().find(|e| is_expr(e)));
            while let Some(e) =
                init.filter(|e| e.kind == "ParenListExpr" || e.kind == "ExprWithCleanups")
            {
                init = e.inner.iter().find(|x| is_expr(x));
            }
            if init.is_none_or(|e| e.kind == "CXXDefaultInitExpr") {
                init = fd.inner.iter().find(|e| is_expr(e));
            }
            let (_, is_ref) = types::strip_reference(&fty);
            let slot = place.slots[i].clone();
            match (slot, init) {
                (Slot::Unbound, Some(e)) if is_ref => {
                    let bound = if self.record_key_of(&fty).is_some() {
                        Slot::Record(self.place_of(e, span)?)
                    } else {
                        Slot::Expr(self.expr(e, span)?)
                    };
                    if let Some(fr) = self.inl.frames.borrow_mut().last_mut() {
                        if let Some(t) = fr.this.as_mut() {
                            t.slots[i] = bound;
                        }
                    }
                }
                (Slot::Unbound, _) => {
                    return Err(unsupported(
                        span,
                        format!("reference member `{fname}` without an initialiser"),
                    ))
                }
                (Slot::Record(p), init) => {
                    let mut decls = vec![];
                    self.declare_place(&p, shared, &mut [], &mut decls, span)?;
                    out.extend(decls);
                    if let Some(e) = init {
                        let src = self.place_of(e, span)?;
                        for (a, b) in p.scalars(span)?.into_iter().zip(src.scalars(span)?) {
                            out.push(assign(a, b, span));
                        }
                    }
                }
                (Slot::Expr(target), init) => {
                    let value = match init {
                        Some(e) if shared => {
                            return Err(unsupported(
                                self.span(e, span),
                                format!("an initial value of `__shared__` field `{fname}`"),
                            ))
                        }
                        Some(e) if e.kind == "InitListExpr" && e.inner.is_empty() => {
                            Some(zero_of(&fty, span))
                        }
                        Some(e) => Some(self.expr(e, span)?),
                        None => None,
                    };
                    match (&target.kind, value) {
                        (ExprKind::Ident(n), v) => {
                            out.push(self.field_decl(n, &fty, shared, v, span)?)
                        }
                        (_, Some(v)) => out.push(assign(target.clone(), v, span)),
                        (_, None) => {}
                    }
                }
            }
        }
        Ok(())
    }

    /// A temporary record (a constructor call, a braced list, a lambda) in fresh locals.
    pub fn temporary(&self, n: &Node, key: &str, span: Span) -> Result<Place, FrontError> {
        let base = format!("__tmp{}", self.fresh());
        match n.kind.as_str() {
            "CXXFunctionalCastExpr" => {
                let inner = n
                    .inner
                    .iter()
                    .find(|c| is_expr(c))
                    .ok_or_else(|| unsupported(span, "empty cast"))?;
                self.place_of(inner, span)
            }
            "LambdaExpr" => {
                let inits: Vec<&Node> = n
                    .inner
                    .iter()
                    .filter(|c| c.kind != "CXXRecordDecl" && c.kind != "CompoundStmt")
                    .collect();
                let mut place = self.local_place(key, &base, span)?;
                let mut stmts = vec![];
                for (i, e) in inits.iter().enumerate() {
                    let (_, ty) = place.fields[i].clone();
                    if types::strip_reference(&ty).1 {
                        place.slots[i] = Slot::Expr(self.expr(e, span)?);
                        continue;
                    }
                    if let Slot::Expr(Expr {
                        kind: ExprKind::Ident(name),
                        ..
                    }) = &place.slots[i]
                    {
                        let v = self.expr(e, span)?;
                        stmts.push(self.field_decl(name, &ty, false, Some(v), span)?);
                    } else {
                        return Err(unsupported(span, "a lambda capturing a record by value"));
                    }
                }
                self.hoist(stmts, span)?;
                Ok(place)
            }
            "InitListExpr" => {
                self.reject_union_value(key, span)?;
                let decl = self.record_decls.get(key).copied();
                let field_decls: Vec<&Node> = decl
                    .map(|d| d.inner.iter().filter(|c| c.kind == "FieldDecl").collect())
                    .unwrap_or_default();
                let place = self.local_place(key, &base, span)?;
                let items: Vec<&Node> = n.inner.iter().filter(|c| is_expr(c)).collect();
                let mut inits = vec![];
                for (i, (f, _)) in place.fields.iter().enumerate() {
                    let e = match items.get(i) {
                        Some(e) if e.kind == "CXXDefaultInitExpr" => field_decls
                            .get(i)
                            .and_then(|d| d.inner.iter().find(|x| is_expr(x))),
                        Some(e) => Some(*e),
                        None => None,
                    };
                    inits.push(match e {
                        Some(e) => Some(self.expr(e, span)?),
                        None => {
                            return Err(unsupported(
                                span,
                                format!("field `{f}` left out of a braced initialiser"),
                            ))
                        }
                    });
                }
                let mut out = vec![];
                self.declare_place(&place, false, &mut inits, &mut out, span)?;
                self.hoist(out, span)?;
                Ok(place)
            }
            _ => {
                let args: Vec<&Node> = n.inner.iter().filter(|c| is_expr(c)).collect();
                match self.user_constructor(n) {
                    Some(ctor) => self.construct(key, ctor, &args, &base, false, span),
                    None => match &args[..] {
                        [one] if self.record_key_of(one.ty().unwrap_or("")).is_some() => {
                            let src = self.place_of(one, span)?;
                            let lvalue = strip_implicit(one).str("valueCategory") == Some("lvalue")
                                || one.str("valueCategory") == Some("lvalue");
                            if !lvalue || src.fields.is_empty() {
                                return Ok(src);
                            }
                            let (mut decls, copy) = self.fresh_record(key, &base, false, span)?;
                            for (a, b) in copy.scalars(span)?.into_iter().zip(src.scalars(span)?) {
                                decls.push(assign(a, b, span));
                            }
                            self.hoist(decls, span)?;
                            Ok(copy)
                        }
                        [] => {
                            let (mut decls, place) = self.fresh_record(key, &base, false, span)?;
                            if n.flag("zeroing") {
                                for ((_, ty), e) in place.fields.iter().zip(place.scalars(span)?) {
                                    decls.push(assign(e, zero_of(ty, span), span));
                                }
                            }
                            self.hoist(decls, span)?;
                            Ok(place)
                        }
                        _ => Err(unsupported(span, format!("constructor of `{key}`"))),
                    },
                }
            }
        }
    }

    /// A `return` inside an inlined body: the value into the result, and `break` out of
    /// the `do { … } while (false)` when the body needs it.
    pub fn frame_return(&self, n: &Node, span: Span) -> Result<Stmt, FrontError> {
        let (ret, wrapped, by_ref, name) = {
            let frames = self.inl.frames.borrow();
            let f = frames
                .last()
                .ok_or_else(|| unsupported(span, "`return` outside a function"))?;
            (f.ret.clone(), f.wrapped, f.by_ref, f.name.clone())
        };
        let e = n.inner.iter().find(|c| is_expr(c));
        let mut out = vec![];
        match (ret, e) {
            (Ret::Void, Some(e)) => {
                if let Some(Value::Void) = self.call_value(strip_implicit(e), span)? {
                } else {
                    out.push(stmt(StmtKind::Expr(self.expr(e, span)?), span));
                }
            }
            (Ret::Void, None) => {}
            (Ret::Var(v), Some(e)) => {
                let value = self.expr(e, span)?;
                out.push(assign(Expr::new(ExprKind::Ident(v), span), value, span));
            }
            (Ret::Record(p), Some(e)) => {
                let src = self.place_of(e, span)?;
                for (a, b) in p.scalars(span)?.into_iter().zip(src.scalars(span)?) {
                    out.push(assign(a, b, span));
                }
            }
            (Ret::Direct, Some(e)) => {
                let record = e.ty().and_then(|t| self.record_key_of(t)).is_some();
                let value = if record {
                    let s = strip_implicit(e);
                    let fresh = match s.kind.as_str() {
                        "DeclRefExpr" => s
                            .referenced()
                            .is_some_and(|(id, _, _)| self.alias(id).is_none()),
                        "UnaryOperator" | "MemberExpr" | "ArraySubscriptExpr" => false,
                        _ => true,
                    };
                    (Value::Record(self.place_of(e, span)?), fresh || by_ref)
                } else {
                    (Value::Scalar(self.expr(e, span)?), true)
                };
                if let Some(f) = self.inl.frames.borrow_mut().last_mut() {
                    f.value = Some(value);
                }
            }
            (_, None) => return Err(unsupported(span, format!("`{name}` must return a value"))),
        }
        if wrapped {
            out.push(stmt(StmtKind::Break, span));
        }
        Ok(match out.len() {
            0 => stmt(StmtKind::Empty, span),
            1 => out.remove(0),
            _ => stmt(StmtKind::Block(out), span),
        })
    }

    /// Declares the record variable `v` (a `DeclStmt`'s `VarDecl` of record type) when it
    /// needs more than the plain field-by-field copy: a user or defaulted constructor, a
    /// `__shared__` object, members that are arrays, records or references, a reference
    /// variable, a lambda. `None` leaves it to the plain road.
    pub fn record_var_decl(&self, v: &Node, span: Span) -> Result<Option<Vec<Stmt>>, FrontError> {
        let ty = v.ty().unwrap_or("");
        let Some(key) = self.record_key_of(ty) else {
            return Ok(None);
        };
        let fields = self.records.get(&key).cloned().unwrap_or_default();
        let name = self.var_name(v.id(), v.name().unwrap_or(""));
        let shared = v.inner.iter().any(|c| c.kind == "CUDASharedAttr");
        let init = v.inner.iter().find(|c| is_expr(c));
        let (_, is_ref) = types::strip_reference(ty);
        let (r, stmts) = self.with_pending(|| {
            if is_ref {
                let init = init.ok_or_else(|| unsupported(span, "reference without a value"))?;
                let place = self.place_of(init, span)?;
                self.set_record_var(v.id(), place);
                return Ok(true);
            }
            if self.captures.contains_key(&key) {
                let init = init.ok_or_else(|| unsupported(span, "lambda without a value"))?;
                let place = self.place_of(init, span)?;
                self.set_record_var(v.id(), place);
                return Ok(true);
            }
            let mut construct = init;
            while let Some(c) = construct.filter(|c| {
                matches!(
                    c.kind.as_str(),
                    "ExprWithCleanups" | "ImplicitCastExpr" | "CXXBindTemporaryExpr"
                )
            }) {
                construct = c.inner.iter().find(|x| is_expr(x));
            }
            let ctor = construct
                .filter(|c| {
                    matches!(
                        c.kind.as_str(),
                        "CXXConstructExpr" | "CXXTemporaryObjectExpr"
                    )
                })
                .and_then(|c| self.user_constructor(c));
            let odd_fields = self.is_union(&key)
                || fields.iter().any(|(_, t)| {
                    let t = t.trim();
                    t.contains('[') || t.ends_with('&') || self.record_key_of(t).is_some()
                });
            let plain_init =
                construct.is_none_or(|c| c.kind == "CXXConstructExpr" && c.inner.is_empty());
            if ctor.is_none() && !shared && !odd_fields {
                let defaults_in_list = construct.is_some_and(|c| {
                    c.kind == "InitListExpr"
                        && c.inner.iter().any(|x| x.kind == "CXXDefaultInitExpr")
                });
                if !defaults_in_list {
                    return Ok(false);
                }
            }
            let place = match (ctor, construct) {
                (Some(ctor), Some(c)) => {
                    let args: Vec<&Node> = c.inner.iter().filter(|x| is_expr(x)).collect();
                    self.construct(&key, ctor, &args, &name, shared, span)?
                }
                (None, _) if plain_init => {
                    let (decls, place) = self.fresh_record(&key, &name, shared, span)?;
                    self.hoist(decls, span)?;
                    place
                }
                (None, Some(c)) if !shared => {
                    let src = self.place_of(c, span)?;
                    let (mut decls, place) = self.fresh_record(&key, &name, false, span)?;
                    for (a, b) in place.scalars(span)?.into_iter().zip(src.scalars(span)?) {
                        decls.push(assign(a, b, span));
                    }
                    self.hoist(decls, span)?;
                    place
                }
                _ => {
                    return Err(unsupported(
                        span,
                        format!("an initial value of `__shared__` `{name}`"),
                    ))
                }
            };
            self.set_record_var(v.id(), place);
            Ok(true)
        });
        if r? {
            Ok(Some(stmts))
        } else {
            Ok(None)
        }
    }
}

/// A zero of the scalar type spelled `ty`.
fn zero_of(ty: &str, span: Span) -> Expr {
    let t = types::scalar(ty.trim_start_matches("const ").trim())
        .ok()
        .flatten()
        .unwrap_or(ScalarType::I32);
    let kind = if t.is_float() {
        ExprKind::Float(0.0, t)
    } else if t == ScalarType::Bool {
        ExprKind::Bool(false)
    } else {
        ExprKind::Int(0, t)
    };
    Expr::new(kind, span)
}
