//! Expressions: clang's typed expression nodes in the subset's terms. Implicit conversions
//! are dropped (the subset's lowering applies C's conversions itself, the same ones clang
//! wrote down); explicit casts are kept.

use super::{types, Callee, Unit};
use crate::node::Node;
use warpsafe_cuda_front::ast::{BinaryOp, Expr, ExprKind, Stmt, StmtKind, UnaryOp};
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::{ScalarType, Span};

/// True for nodes that are expressions (as opposed to declarations, attributes, `{}`).
pub fn is_expr(n: &Node) -> bool {
    n.kind.ends_with("Expr")
        || n.kind.ends_with("Operator")
        || n.kind.ends_with("Literal")
        || n.kind == "ExprWithCleanups"
}

pub(super) fn unsupported(span: Span, what: impl std::fmt::Display) -> FrontError {
    FrontError::new(span, format!("unsupported: {what}"))
}

impl Unit<'_> {
    /// The subset expression for `n`; `outer` is the span of the nearest node written in the
    /// main file.
    pub fn expr(&self, n: &Node, outer: Span) -> Result<Expr, FrontError> {
        let span = self.span(n, outer);
        let arithmetic = matches!(
            n.kind.as_str(),
            "BinaryOperator" | "CompoundAssignOperator" | "UnaryOperator"
        ) && !matches!(n.str("opcode"), Some("=" | "*" | "&" | "," | "==" | "!="));
        let difference = n.kind == "BinaryOperator"
            && n.str("opcode") == Some("-")
            && n.inner
                .first()
                .and_then(|a| strip_implicit(a).ty())
                .is_some_and(|t| self.is_record_pointer(t));
        if difference || arithmetic && n.ty().is_some_and(|t| self.is_record_pointer(t)) {
            if let Some(e) = self.record_pointer_step(n, span)? {
                return Ok(e);
            }
            return Err(unsupported(
                span,
                "arithmetic on a pointer to records (index it instead: `p[i]`)",
            ));
        }
        if let Some(e) = self.fn_pointer_expr(n, span) {
            return e;
        }
        if let Some(b) = self.null_comparison(n) {
            return Ok(Expr::new(ExprKind::Bool(b), span));
        }
        if let Some(e) = self.view_load(n, span)? {
            return Ok(e);
        }
        let kind = match n.kind.as_str() {
            "IntegerLiteral" | "CharacterLiteral" => self.int_literal(n, span)?,
            "FloatingLiteral" => {
                let ty = scalar_of(n, span)?;
                let v: f64 = n
                    .fields
                    .get("value")
                    .and_then(|v| v.as_str().map(str::to_string).or(Some(v.to_string())))
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| unsupported(span, "floating literal"))?;
                ExprKind::Float(v, ty)
            }
            "CXXBoolLiteralExpr" => ExprKind::Bool(n.flag("value")),
            "ConstantExpr" => match n.str("value") {
                Some(v)
                    if scalar_of(n, span)?.is_int() || scalar_of(n, span)? == ScalarType::Bool =>
                {
                    literal(v, scalar_of(n, span)?, span)?
                }
                _ => return self.only_child(n, span),
            },
            "ParenExpr"
            | "ExprWithCleanups"
            | "MaterializeTemporaryExpr"
            | "CXXBindTemporaryExpr"
            | "ImplicitCastExpr" => return self.only_child(n, span),
            "CStyleCastExpr"
            | "CXXStaticCastExpr"
            | "CXXFunctionalCastExpr"
            | "CXXReinterpretCastExpr"
            | "CXXConstCastExpr" => return self.cast(n, span),
            "SubstNonTypeTemplateParmExpr" => {
                let last = n
                    .inner
                    .iter()
                    .rev()
                    .find(|c| is_expr(c))
                    .ok_or_else(|| unsupported(span, "template parameter"))?;
                return self.expr(last, span);
            }
            "DeclRefExpr" => self.decl_ref(n, span)?,
            "MemberExpr" => {
                let field = n.name().unwrap_or("").to_string();
                if let Some(v) = n
                    .str("referencedMemberDecl")
                    .and_then(|id| self.enumerators.get(id))
                {
                    // `frag.num_elements`: an enumerator named through an object.
                    let ty = scalar_of(n, span).unwrap_or(ScalarType::I32);
                    let ty = if ty.is_int() { ty } else { ScalarType::I32 };
                    return Ok(Expr::new(literal(&v.to_string(), ty, span)?, span));
                }
                if let Some(m) = self.group_member(n, &field, span)? {
                    return Ok(m);
                }
                let launch_var = n.inner.first().map(strip_implicit).and_then(|b| {
                    let (_, _, name) = b.referenced()?;
                    matches!(name, "threadIdx" | "blockIdx" | "blockDim" | "gridDim")
                        .then_some(name)
                });
                let on_this = n
                    .inner
                    .first()
                    .is_some_and(|b| strip_implicit(b).kind == "CXXThisExpr");
                if on_this {
                    return match self.member_slot(n, span)? {
                        super::place::Slot::Expr(e) => Ok(Expr::new(e.kind, span)),
                        _ => Err(unsupported(
                            span,
                            format!("member `{field}` (a record) used as a value"),
                        )),
                    };
                }
                if let (Some(var), false) = (launch_var, n.flag("isArrow")) {
                    ExprKind::Member(
                        Box::new(Expr::new(ExprKind::Ident(var.to_string()), span)),
                        field,
                    )
                } else if let Some(e) = self.record_member(n, span)? {
                    return Ok(e);
                } else {
                    return Err(unsupported(span, format!("member access `{field}`")));
                }
            }
            "ArraySubscriptExpr" => {
                if let Some(e) = self.global_element(n, span)? {
                    return Ok(Expr::new(e, span));
                }
                let base = self.child(n, 0, span)?;
                let index = self.child(n, 1, span)?;
                if let Some(buffer) = self.pointer_array_element(&base, &index, span)? {
                    return Ok(buffer);
                }
                // `(&a[k])[i]` is `a[k + i]` (an array field of a record in memory).
                let first = match &base.kind {
                    ExprKind::Unary(UnaryOp::AddrOf, inner) => match &inner.kind {
                        ExprKind::Index(a, k) => Some((a.clone(), k.clone())),
                        _ => None,
                    },
                    _ => None,
                };
                match first {
                    Some((a, k)) => {
                        let at =
                            Expr::new(ExprKind::Binary(BinaryOp::Add, k, Box::new(index)), span);
                        ExprKind::Index(a, Box::new(at))
                    }
                    None => ExprKind::Index(Box::new(base), Box::new(index)),
                }
            }
            "UnaryOperator" => self.unary(n, span)?,
            "BinaryOperator" | "CompoundAssignOperator" => self.binary(n, span)?,
            "ConditionalOperator" => {
                let cond = self.child(n, 0, span)?;
                let why = "in an arm of `?:`";
                ExprKind::Cond(
                    Box::new(cond),
                    Box::new(self.guarded(why, || self.child(n, 1, span))?),
                    Box::new(self.guarded(why, || self.child(n, 2, span))?),
                )
            }
            "CallExpr" => match self.call_value(n, span)? {
                Some(v) => return value_expr(v, span),
                None => self.call(n, span)?,
            },
            "CXXMemberCallExpr" => {
                if let Some(e) = self.conversion_call(n, span)? {
                    return Ok(e);
                }
                if let Some(v) = self.call_value(n, span)? {
                    return value_expr(v, span);
                }
                return self.group_call(n, span);
            }
            "CXXOperatorCallExpr" => {
                if let Some(v) = self.call_value(n, span)? {
                    return value_expr(v, span);
                }
                return self.operator_call(n, span);
            }
            "CXXThisExpr" => {
                return Err(unsupported(
                    span,
                    "`this` as a value (only its members are read)",
                ))
            }
            "CXXConstructExpr" | "CXXTemporaryObjectExpr" => return self.scalar_construct(n, span),
            "UnaryExprOrTypeTraitExpr" if n.str("name") == Some("sizeof") => {
                let spelled = n
                    .fields
                    .get("argType")
                    .and_then(|t| t.get("desugaredQualType").or_else(|| t.get("qualType")))
                    .and_then(|t| t.as_str())
                    .map(str::to_string)
                    .or_else(|| n.inner.first().and_then(|e| e.ty().map(str::to_string)))
                    .ok_or_else(|| unsupported(span, "sizeof"))?;
                if self.record_key_of(&spelled).is_some() {
                    let key = self.record_key_of(&spelled).unwrap_or_default();
                    let size = self.record_bytes(&key, &key, span)?.size;
                    return Ok(Expr::new(ExprKind::Int(size, ScalarType::U64), span));
                }
                let ty = types::scalar_or_pointer(&spelled, span)
                    .map_err(|e| unsupported(span, format!("sizeof: {e}")))?;
                ExprKind::SizeOf(ty)
            }
            "CXXDefaultArgExpr" => {
                return Err(unsupported(span, "default argument outside a call"));
            }
            "RecoveryExpr" => return Err(FrontError::new(span, super::UNTYPED)),
            other => return Err(unsupported(span, describe(other))),
        };
        Ok(Expr::new(kind, span))
    }

    /// `h.operator float()` on a scalar class (`__half`): a conversion.
    fn conversion_call(&self, n: &Node, span: Span) -> Result<Option<Expr>, FrontError> {
        let Some(member) = n.inner.first().map(strip_implicit) else {
            return Ok(None);
        };
        let is_conversion = member.kind == "MemberExpr"
            && member
                .name()
                .is_some_and(|m| m.starts_with("operator ") && !m.contains('='));
        let Some(base) = member.inner.first().filter(|_| is_conversion) else {
            return Ok(None);
        };
        let to = scalar_of(n, span)?;
        let from = self.expr(base, span)?;
        Ok(Some(scalar_cast(to, from, span)))
    }

    /// A constructor of a scalar class (`__half(x)`, `__half h = 1.0f`): a conversion.
    fn scalar_construct(&self, n: &Node, span: Span) -> Result<Expr, FrontError> {
        let to = scalar_of(n, span).map_err(|_| {
            unsupported(span, format!("constructor of `{}`", n.ty().unwrap_or("?")))
        })?;
        let [arg] = &n.inner[..] else {
            return Err(unsupported(
                span,
                "a constructor without exactly one argument",
            ));
        };
        let operand = self.expr(arg, span)?;
        if strip_implicit(arg)
            .ty()
            .and_then(|t| types::scalar(t.trim_start_matches("const ")).ok().flatten())
            == Some(to)
        {
            return Ok(operand);
        }
        Ok(scalar_cast(to, operand, span))
    }

    /// An operator declared in our headers on scalar classes (`__half + __half`): the
    /// operator itself. User-defined operators are rejected.
    fn operator_call(&self, n: &Node, span: Span) -> Result<Expr, FrontError> {
        let callee = n
            .inner
            .first()
            .map(strip_implicit)
            .ok_or_else(|| unsupported(span, "operator call"))?;
        let (id, _, name) = callee
            .referenced()
            .ok_or_else(|| unsupported(span, "operator call"))?;
        let ours = matches!(self.callee.get(id), Some(Callee::Builtin(_)))
            || !matches!(self.callee.get(id), Some(Callee::User(..)));
        let op = name.strip_prefix("operator").unwrap_or("");
        if !ours || scalar_of(n, span).is_err() && op != "=" {
            return Err(unsupported(span, format!("overloaded operator `{name}`")));
        }
        let args: Vec<&Node> = n.inner.iter().skip(1).collect();
        let kind = match (op, &args[..]) {
            ("=", [a, b]) => ExprKind::Assign(
                None,
                Box::new(self.expr(a, span)?),
                Box::new(self.expr(b, span)?),
            ),
            ("-", [a]) => ExprKind::Unary(UnaryOp::Neg, Box::new(self.expr(a, span)?)),
            ("+", [a]) => ExprKind::Unary(UnaryOp::Plus, Box::new(self.expr(a, span)?)),
            ("++" | "--", [a, ..]) => ExprKind::IncDec {
                inc: op == "++",
                prefix: args.len() == 1,
                target: Box::new(self.expr(a, span)?),
            },
            (op, [a, b]) => {
                let (a, b) = (Box::new(self.expr(a, span)?), Box::new(self.expr(b, span)?));
                match op.strip_suffix('=').and_then(binary_op) {
                    Some(o) if !matches!(op, "==" | "!=" | "<=" | ">=") => {
                        ExprKind::Assign(Some(o), a, b)
                    }
                    _ => ExprKind::Binary(
                        binary_op(op)
                            .ok_or_else(|| unsupported(span, format!("operator `{name}`")))?,
                        a,
                        b,
                    ),
                }
            }
            _ => return Err(unsupported(span, format!("operator `{name}`"))),
        };
        Ok(Expr::new(kind, span))
    }

    /// `p != nullptr`, `p == NULL`, `!p` and `if (p)` on a data pointer: buffers are valid
    /// allocations in every launch warpsafe checks, so a pointer is never null. `None` for
    /// other expressions (a function pointer may be null: `fn_pointers.rs`).
    fn null_comparison(&self, n: &Node) -> Option<bool> {
        let is_null = |e: &Node| {
            let e = strip_implicit(e);
            matches!(e.kind.as_str(), "CXXNullPtrLiteralExpr" | "GNUNullExpr")
                || e.kind == "IntegerLiteral" && e.str("value") == Some("0")
        };
        let is_pointer = |e: &Node| {
            let t = strip_implicit(e).ty();
            t.is_some_and(|t| t.contains('*') && self.fn_pointers.resolve(t).is_none())
        };
        if !super::memops::repeatable(n) {
            // The pointer is computed with an effect (a call, an assignment): it must run.
            return None;
        }
        match n.kind.as_str() {
            "BinaryOperator" if matches!(n.str("opcode"), Some("==" | "!=")) => {
                let (a, b) = (n.inner.first()?, n.inner.get(1)?);
                let null_vs_pointer = is_null(a) && is_pointer(b) || is_null(b) && is_pointer(a);
                null_vs_pointer.then(|| n.str("opcode") == Some("!="))
            }
            "ImplicitCastExpr" if n.str("castKind") == Some("PointerToBoolean") => Some(true),
            _ => None,
        }
    }

    fn only_child(&self, n: &Node, span: Span) -> Result<Expr, FrontError> {
        let c = n
            .inner
            .iter()
            .find(|c| is_expr(c))
            .ok_or_else(|| unsupported(span, format!("empty `{}`", n.kind)))?;
        self.expr(c, span)
    }

    /// The `i`-th expression child.
    fn child(&self, n: &Node, i: usize, span: Span) -> Result<Expr, FrontError> {
        let c = n
            .inner
            .iter()
            .filter(|c| is_expr(c))
            .nth(i)
            .ok_or_else(|| unsupported(span, format!("malformed `{}`", n.kind)))?;
        self.expr(c, span)
    }

    fn int_literal(&self, n: &Node, span: Span) -> Result<ExprKind, FrontError> {
        let ty = scalar_of(n, span)?;
        let v = n
            .fields
            .get("value")
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| v.to_string())
            })
            .unwrap_or_default();
        literal(&v, ty, span)
    }

    fn cast(&self, n: &Node, span: Span) -> Result<Expr, FrontError> {
        let inner = n
            .inner
            .iter()
            .find(|c| is_expr(c))
            .ok_or_else(|| unsupported(span, "empty cast"))?;
        let to = n.ty().unwrap_or("");
        let from = strip_implicit(inner).ty().unwrap_or("");
        let target = types::scalar_or_pointer(to, span)
            .map_err(|e| unsupported(span, format!("cast to {e}")))?;
        if target.ptr {
            if let Some(p) = self.view_as_pointer(n, span)? {
                return Ok(p);
            }
        }
        let operand = self.expr(inner, span)?;
        if target.ptr {
            let source = types::scalar_or_pointer(from, span).ok();
            return match source {
                Some(s) if s.ptr && s.base == target.base => Ok(operand),
                _ => Err(unsupported(
                    span,
                    format!(
                        "pointer cast from `{from}` to `{to}` (reinterpreting memory) used as \
                         a value: a view of memory is read and written through `p[i]`, `*p`, \
                         atomics and a local pointer holding it, not passed on or compared"
                    ),
                )),
            };
        }
        Ok(Expr::new(ExprKind::Cast(target, Box::new(operand)), span))
    }

    fn decl_ref(&self, n: &Node, span: Span) -> Result<ExprKind, FrontError> {
        let (id, kind, name) = n
            .referenced()
            .ok_or_else(|| unsupported(span, "reference without a declaration"))?;
        self.reject_view_var(id, name, span)?;
        match self.alias(id) {
            Some(super::place::Slot::Expr(e)) => return Ok(e.kind),
            Some(_) => {
                return Err(unsupported(
                    span,
                    format!("record `{name}` used as a value"),
                ))
            }
            None => {}
        }
        if let Some(v) = self.static_vars.get(id) {
            // A static data member: its (constant) initialiser.
            let init = v.inner.iter().find(|c| is_expr(c)).ok_or_else(|| {
                unsupported(span, format!("static member `{name}` without a value"))
            })?;
            return Ok(self.expr(init, span)?.kind);
        }
        self.check_record_global(id, span)?;
        let renamed = self.var_name(id, name);
        let name = renamed.as_str();
        let is_ref = n
            .fields
            .get("referencedDecl")
            .and_then(|d| d.get("type"))
            .and_then(|t| t.get("qualType"))
            .and_then(|t| t.as_str())
            .is_some_and(|t| types::strip_reference(t).1);
        match kind {
            "VarDecl" | "ParmVarDecl" if is_ref => Ok(ExprKind::Unary(
                UnaryOp::Deref,
                Box::new(Expr::new(ExprKind::Ident(name.to_string()), span)),
            )),
            "VarDecl" if self.fn_pointers.tables.contains_key(id) => self
                .fn_table_ref(id, span)
                .unwrap_or_else(|| Ok(ExprKind::Ident(name.to_string()))),
            "VarDecl" if self.globals.iter().any(|g| g.scalar && g.id == id) => {
                // A `__constant__`/`__device__` scalar is element 0 of its buffer.
                Ok(ExprKind::Index(
                    Box::new(Expr::new(ExprKind::Ident(name.to_string()), span)),
                    Box::new(Expr::new(ExprKind::Int(0, ScalarType::I32), span)),
                ))
            }
            "VarDecl" | "ParmVarDecl" => Ok(ExprKind::Ident(name.to_string())),
            "EnumConstantDecl" => {
                let v = self
                    .enumerators
                    .get(id)
                    .ok_or_else(|| unsupported(span, format!("enumerator `{name}`")))?;
                let ty = scalar_of(n, span).unwrap_or(ScalarType::I32);
                let ty = if ty.is_int() { ty } else { ScalarType::I32 };
                literal(&v.to_string(), ty, span)
            }
            "FunctionDecl" => self.fn_code(id, name, span),
            other => Err(unsupported(
                span,
                format!("reference to a {}", describe(other)),
            )),
        }
    }

    fn unary(&self, n: &Node, span: Span) -> Result<ExprKind, FrontError> {
        let op = n.str("opcode").unwrap_or("");
        if matches!(op, "++" | "--") {
            if let Some(k) = self.view_incdec(n, span)? {
                return Ok(k);
            }
        }
        if op == "&" && n.inner.first().is_some_and(|c| self.is_view_element(c)) {
            return Err(unsupported(
                span,
                "the address of an element of a pointer view used as a value: a view is \
                 read and written through `p[i]`, `*p`, atomics and a local pointer holding \
                 it, not passed on or compared",
            ));
        }
        if let Some(f) = n.inner.first().map(strip_implicit).filter(|_| op == "&") {
            if let Some((id, "FunctionDecl", name)) = f.referenced() {
                // `&f`: the function's number, as `f` alone.
                return self.fn_code(id, name, span);
            }
        }
        let operand = Box::new(self.child(n, 0, span)?);
        let op = match op {
            "-" => UnaryOp::Neg,
            "+" => UnaryOp::Plus,
            "!" => UnaryOp::Not,
            "~" => UnaryOp::BitNot,
            "*" => UnaryOp::Deref,
            "&" => {
                self.leaf_address(&operand, n, span)?;
                UnaryOp::AddrOf
            }
            "++" | "--" => {
                return self.leaf_incdec(op == "++", !n.flag("isPostfix"), *operand, n, span);
            }
            other => return Err(unsupported(span, format!("operator `{other}`"))),
        };
        Ok(ExprKind::Unary(op, operand))
    }

    fn binary(&self, n: &Node, span: Span) -> Result<ExprKind, FrontError> {
        let opcode = n.str("opcode").unwrap_or("");
        if n.kind == "CompoundAssignOperator" || opcode == "=" {
            if let Some(k) = self.view_assign(n, span)? {
                return Ok(k);
            }
        }
        let a = Box::new(self.child(n, 0, span)?);
        if matches!(opcode, "&&" | "||") && self.can_hoist() {
            return self.short_circuit(opcode == "&&", *a, n, span);
        }
        let b = Box::new(if matches!(opcode, "&&" | "||") {
            self.guarded("on the right of `&&` or `||`", || self.child(n, 1, span))?
        } else {
            self.child(n, 1, span)?
        });
        if opcode == "," {
            return Ok(ExprKind::Comma(a, b));
        }
        if opcode == "=" {
            return self.leaf_assign(None, *a, *b, span);
        }
        if let Some(op) = opcode.strip_suffix('=').and_then(binary_op) {
            if !matches!(opcode, "==" | "!=" | "<=" | ">=") {
                return self.leaf_assign(Some(op), *a, *b, span);
            }
        }
        let op =
            binary_op(opcode).ok_or_else(|| unsupported(span, format!("operator `{opcode}`")))?;
        Ok(ExprKind::Binary(op, a, b))
    }

    /// `a && b` (`and`) or `a || b` where statements may be hoisted: when `b` hoists
    /// statements of its own (an inlined call), they run only where `a` lets `b` be
    /// evaluated: `bool c = a; if (c) { …; c = b; }` (`if (!c)` for `||`) before the
    /// statement, whose value is `c`.
    fn short_circuit(
        &self,
        and: bool,
        a: Expr,
        n: &Node,
        span: Span,
    ) -> Result<ExprKind, FrontError> {
        let (b, stmts) = self.with_pending(|| self.child(n, 1, span));
        let b = b?;
        let op = if and { BinaryOp::And } else { BinaryOp::Or };
        if stmts.is_empty() {
            return Ok(ExprKind::Binary(op, Box::new(a), Box::new(b)));
        }
        let name = format!("__cond{}", self.fresh());
        let c = || Expr::new(ExprKind::Ident(name.clone()), span);
        let truth = |e: Expr| scalar_cast(ScalarType::Bool, e, span);
        let decl = self.local_decl(&name, "bool", Some(truth(a)), span)?;
        let mut body = stmts;
        body.push(Stmt {
            kind: StmtKind::Expr(Expr::new(
                ExprKind::Assign(None, Box::new(c()), Box::new(truth(b))),
                span,
            )),
            span,
        });
        let guard = if and {
            c()
        } else {
            Expr::new(ExprKind::Unary(UnaryOp::Not, Box::new(c())), span)
        };
        let block = Stmt {
            kind: StmtKind::Block(body),
            span,
        };
        let branch = Stmt {
            kind: StmtKind::If(guard, Box::new(block), None),
            span,
        };
        self.hoist(vec![decl, branch], span)?;
        Ok(c().kind)
    }

    fn call(&self, n: &Node, span: Span) -> Result<ExprKind, FrontError> {
        let callee_node = n
            .inner
            .first()
            .map(strip_implicit)
            .ok_or_else(|| unsupported(span, "call without a callee"))?;
        if let Some(name) = super::memops::memop_name(n) {
            return Err(unsupported(
                span,
                format!("`{name}` whose value is used (call it as a statement)"),
            ));
        }
        if callee_node.kind == "MemberExpr" {
            // A static member function (`tile.size()` of a `thread_block_tile`).
            return self.group_call(n, span).map(|e| e.kind);
        }
        let callee_node = self.template_callee(callee_node).unwrap_or(callee_node);
        let through_pointer = match callee_node.kind.as_str() {
            "DeclRefExpr" => callee_node
                .referenced()
                .is_some_and(|(_, kind, _)| matches!(kind, "VarDecl" | "ParmVarDecl")),
            _ => {
                self.fn_pointers
                    .resolve(callee_node.ty().unwrap_or(""))
                    .is_some()
                    || callee_node.kind == "UnaryOperator"
            }
        };
        if through_pointer {
            return self.indirect_call(n, callee_node, span);
        }
        if callee_node.kind != "DeclRefExpr" {
            return Err(unsupported(
                span,
                format!("call through a {}", describe(&callee_node.kind)),
            ));
        }
        let (id, _, name) = callee_node
            .referenced()
            .ok_or_else(|| unsupported(span, "call without a callee"))?;
        let callee_span = self.span(callee_node, span);
        let (name, decl) = match self.callee.get(id) {
            Some(Callee::Builtin(b)) => (b.clone(), None),
            Some(Callee::User(u, d)) => (u.clone(), Some(*d)),
            None => (name.to_string(), None),
        };
        let params: Vec<&Node> = decl
            .map(|d| d.inner.iter().filter(|c| c.kind == "ParmVarDecl").collect())
            .unwrap_or_default();
        if let Some(g) = self.group_free_call(&name, n, span) {
            return g;
        }
        if let (None, Some(proto)) = (decl, self.prototypes.get(id)) {
            if !is_legacy_warp_function(&name) {
                return self.bodiless_call(&name, proto, n, span);
            }
            // `__device__ unsigned int any(unsigned int);` (CUDA SDK's simpleVoteIntrinsics):
            // the file declares a pre-CUDA-9 warp function, which the lowering knows.
        }
        let name = if name == "__global_assert" {
            // GPUVerify's assertion over all threads: each thread's check is the same.
            "__assert".to_string()
        } else {
            name
        };
        if decl.is_none() && super::printf::is_print(&name) {
            return self.print_call(&name, n, span);
        }
        if decl.is_none() {
            match name.as_str() {
                "__builtin_inff" | "__builtin_huge_valf" => {
                    return Ok(ExprKind::Float(f64::INFINITY, ScalarType::F32))
                }
                "__builtin_inf" | "__builtin_huge_val" => {
                    return Ok(ExprKind::Float(f64::INFINITY, ScalarType::F64))
                }
                _ => {}
            }
            if let Some(e) = self.texture_call(&name, n, span) {
                return e;
            }
        }
        if decl.is_none() {
            if let Some(k) = self.view_atomic(&name, n, span)? {
                return Ok(k);
            }
        }
        let mut args = vec![];
        for (i, a) in n.inner.iter().skip(1).enumerate() {
            if super::groups::group_of(strip_implicit(a).ty().unwrap_or(""))
                .ok()
                .flatten()
                .is_some()
                || params
                    .get(i)
                    .is_some_and(|p| super::texture::is_reference_param(p))
            {
                continue;
            }
            if a.kind == "CXXDefaultArgExpr" && decl.is_none() {
                // A builtin's default (`__syncwarp()`'s full mask, a shuffle's width): the
                // lowering knows it.
                continue;
            }
            if a.kind == "CXXDefaultArgExpr" {
                let default = params
                    .get(i)
                    .and_then(|p| p.inner.iter().find(|c| is_expr(c)))
                    .ok_or_else(|| unsupported(span, format!("default argument of `{name}`")))?;
                args.push(self.expr(default, span)?);
            } else {
                let by_ref = params
                    .get(i)
                    .and_then(|p| p.ty())
                    .is_some_and(|t| types::strip_reference(t).1);
                let sa = strip_implicit(a);
                let record_ptr = !by_ref
                    && sa.kind == "UnaryOperator"
                    && sa.str("opcode") == Some("&")
                    && sa
                        .inner
                        .first()
                        .is_some_and(|x| strip_implicit(x).kind == "ArraySubscriptExpr")
                    && self.record_pointer(a.ty().unwrap_or(""), span)?.is_some();
                // `&states[id]` into a helper's record pointer: the offset of record `id` in
                // the memory of its scalars (a whole record per step, not a scalar).
                let arg = if record_ptr {
                    self.record_pointer_init(a, span)?
                } else {
                    self.expr(a, span)?
                };
                args.push(if by_ref { address_of(arg) } else { arg });
            }
        }
        if decl.is_none() {
            if let Some(e) = super::intrinsics::expand(&name, &args, span) {
                return e.map_err(|m| unsupported(span, m));
            }
        }
        Ok(ExprKind::Call(name, callee_span, args))
    }
}

impl Unit<'_> {
    /// A call of the file's own `__device__` function `name` declared without a body
    /// (`proto`): it touches no memory the caller can see only when no pointer or reference
    /// reaches it, so its arguments are read (a record argument's copy reads every leaf;
    /// `keep_reads`)
    /// and its value, if used, is arbitrary (`__warpsafe_arbitrary_<type>()`: GPUVerify's
    /// `int x = nondet();`). A pointer or reference argument, or a record or pointer
    /// returned, is rejected (what it would write, or return, is unknown).
    fn bodiless_call(
        &self,
        name: &str,
        proto: &Node,
        n: &Node,
        span: Span,
    ) -> Result<ExprKind, FrontError> {
        let ret = proto
            .ty()
            .and_then(|t| t.split_once('('))
            .map_or("void", |(r, _)| r.trim());
        let ret_ty = match types::scalar(ret) {
            Ok(t) => t,
            Err(_) => {
                return Err(unsupported(
                    span,
                    format!(
                        "a call of `{name}`, declared without a body, that returns a `{ret}` (a \
                         value of that type that nothing is known about is not modelled)"
                    ),
                ))
            }
        };
        let params: Vec<&Node> = proto
            .inner
            .iter()
            .filter(|c| c.kind == "ParmVarDecl")
            .collect();
        let mut reads = vec![];
        for (i, a) in n.inner.iter().skip(1).enumerate() {
            // A default argument is the prototype's initialiser, read like a written one.
            let a = match a.kind.as_str() {
                "CXXDefaultArgExpr" => params
                    .get(i)
                    .and_then(|p| p.inner.iter().find(|c| is_expr(c)))
                    .ok_or_else(|| unsupported(span, format!("default argument of `{name}`")))?,
                _ => a,
            };
            if super::printf::is_string_literal(a) {
                // Constant text nothing writes: reading it cannot race or leave its bounds.
                continue;
            }
            let ty = a.ty().unwrap_or("");
            let reaches_pointer = |t: &str| t.contains('*') || types::strip_reference(t).1;
            if reaches_pointer(ty) {
                return Err(unsupported(
                    span,
                    format!(
                        "a call of `{name}`, declared without a body, given the pointer or \
                         reference `{ty}` (what it does with that memory is unknown)"
                    ),
                ));
            }
            if let Some(key) = self.record_key_of(ty) {
                let b = self.record_bytes(&key, &key, span).map_err(|_| {
                    unsupported(
                        span,
                        format!(
                            "a call of `{name}`, declared without a body, given a `{key}` that \
                             may hold a pointer (what it does with that memory is unknown)"
                        ),
                    )
                })?;
                if b.leaves.is_empty() {
                    continue;
                }
                let fields = self.record_fields(a, span)?;
                reads.extend(fields.into_iter().zip(b.leaves.iter().map(|l| l.1)));
            } else {
                reads.push((self.expr(a, span)?, scalar_of(a, span)?));
            }
        }
        self.keep_reads(name, reads, span)?;
        // Its value is one nothing is known about, drawn after the arguments are read.
        Ok(match ret_ty {
            Some(t) => super::printf::arbitrary(t, span).kind,
            None => ExprKind::Int(0, ScalarType::I32),
        })
    }
}

/// The pre-CUDA-9 warp functions without a mask that cuda-front's lowering rewrites to their
/// `_sync` form (`legacy_warp_call` in its `lower/calls.rs`): a file that declares one
/// without a body (as CUDA's SDK samples do) still means the warp function.
fn is_legacy_warp_function(name: &str) -> bool {
    matches!(
        name,
        "__shfl"
            | "__shfl_up"
            | "__shfl_down"
            | "__shfl_xor"
            | "__any"
            | "any"
            | "__all"
            | "all"
            | "__ballot"
    )
}

/// The expression of an inlined call's value (a scalar; a record or nothing is an error).
fn value_expr(v: super::inline::Value, span: Span) -> Result<Expr, FrontError> {
    match v {
        super::inline::Value::Scalar(e) => Ok(e),
        super::inline::Value::Void => Err(unsupported(span, "the value of a `void` call")),
        super::inline::Value::Record(p) => Err(unsupported(
            span,
            format!("a record (`{}`) where a scalar is needed", p.key),
        )),
    }
}

/// `&e`, with `&*p` written `p` (a reference passed on).
pub fn address_of(e: Expr) -> Expr {
    match e.kind {
        ExprKind::Unary(UnaryOp::Deref, inner) => *inner,
        kind => {
            let span = e.span;
            Expr::new(
                ExprKind::Unary(UnaryOp::AddrOf, Box::new(Expr::new(kind, span))),
                span,
            )
        }
    }
}

/// `(to)e`.
pub fn scalar_cast(to: ScalarType, e: Expr, span: Span) -> Expr {
    let ty = warpsafe_cuda_front::ast::Type {
        base: Some(to),
        ptr: false,
        konst: false,
        volatile: false,
        span,
    };
    Expr::new(ExprKind::Cast(ty, Box::new(e)), span)
}

/// `n` without the implicit conversions and parentheses around it.
pub fn strip_implicit(mut n: &Node) -> &Node {
    while matches!(n.kind.as_str(), "ImplicitCastExpr" | "ParenExpr") {
        match n.inner.iter().find(|c| is_expr(c)) {
            Some(c) => n = c,
            None => break,
        }
    }
    n
}

pub(super) fn scalar_of(n: &Node, span: Span) -> Result<ScalarType, FrontError> {
    let t = n.ty().unwrap_or("int");
    let t = t.strip_prefix("const ").unwrap_or(t);
    match types::scalar(t) {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err(unsupported(span, "void value")),
        Err(e) => Err(unsupported(span, e)),
    }
}

fn literal(v: &str, ty: ScalarType, span: Span) -> Result<ExprKind, FrontError> {
    if ty == ScalarType::Bool {
        return Ok(ExprKind::Bool(v != "0" && v != "false"));
    }
    if let Ok(u) = v.parse::<u64>() {
        return Ok(ExprKind::Int(u, ty));
    }
    let i: i64 = v
        .parse()
        .map_err(|_| unsupported(span, format!("integer constant `{v}`")))?;
    Ok(ExprKind::Unary(
        UnaryOp::Neg,
        Box::new(Expr::new(ExprKind::Int(i.unsigned_abs(), ty), span)),
    ))
}

/// The IR operator of a C binary operator's spelling.
pub(super) fn binary_op(op: &str) -> Option<BinaryOp> {
    Some(match op {
        "+" => BinaryOp::Add,
        "-" => BinaryOp::Sub,
        "*" => BinaryOp::Mul,
        "/" => BinaryOp::Div,
        "%" => BinaryOp::Rem,
        "<<" => BinaryOp::Shl,
        ">>" => BinaryOp::Shr,
        "<" => BinaryOp::Lt,
        "<=" => BinaryOp::Le,
        ">" => BinaryOp::Gt,
        ">=" => BinaryOp::Ge,
        "==" => BinaryOp::Eq,
        "!=" => BinaryOp::Ne,
        "&" => BinaryOp::BitAnd,
        "^" => BinaryOp::BitXor,
        "|" => BinaryOp::BitOr,
        "&&" => BinaryOp::And,
        "||" => BinaryOp::Or,
        _ => return None,
    })
}

/// A clang node kind in words (`CXXMemberCallExpr` → `member function call`).
pub fn describe(kind: &str) -> String {
    match kind {
        "CXXMemberCallExpr" => "member function call (C++ classes)".into(),
        "CXXOperatorCallExpr" => "overloaded operator".into(),
        "CXXConstructExpr" | "CXXTemporaryObjectExpr" => {
            "constructor call (structs and classes)".into()
        }
        "LambdaExpr" => "lambda".into(),
        "InitListExpr" => "initialiser list".into(),
        "CXXThisExpr" => "`this`".into(),
        "StringLiteral" => "string literal".into(),
        "CXXNullPtrLiteralExpr" | "GNUNullExpr" => "null pointer".into(),
        "GCCAsmStmt" => "inline PTX `asm`".into(),
        other => format!("`{other}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_keep_their_type_and_sign() {
        assert!(matches!(
            literal("7", ScalarType::U32, Span::DUMMY),
            Ok(ExprKind::Int(7, ScalarType::U32))
        ));
        assert!(matches!(
            literal("-3", ScalarType::I32, Span::DUMMY),
            Ok(ExprKind::Unary(UnaryOp::Neg, _))
        ));
        assert!(literal("x", ScalarType::I32, Span::DUMMY).is_err());
    }
}
