//! `memcpy` and `memset` (and their `__builtin_` forms) in device code, written out as the
//! element-wise loads and stores they perform, so that bounds and race checks see every
//! access: a copy of records is a record assignment per record (leaf by leaf), a copy of
//! scalars one assignment per element, a `memset` one store of the element value its byte
//! pattern makes. The byte count must be a compile-time constant and a whole number of
//! elements; both sides of a copy must have the same element type.

use super::expr::strip_implicit;
use super::types::{self, scalar};
use super::Unit;
use crate::node::Node;
use serde_json::{json, Value};
use warpsafe_cuda_front::ast::{Expr, ExprKind, Stmt, StmtKind};
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::{ScalarType, Span};

/// The most element copies one call is written out as.
const MAX_COPIES: u64 = 1024;

fn unsupported(span: Span, what: impl std::fmt::Display) -> FrontError {
    FrontError::new(span, format!("unsupported: {what}"))
}

/// What a buffer operand's elements are.
enum Elem {
    Scalar(ScalarType),
    Record(String),
}

/// A `memcpy`/`memset` call: its name and arguments.
fn memop_call(n: &Node) -> Option<(&'static str, Vec<&Node>)> {
    let mut n = n;
    while matches!(
        n.kind.as_str(),
        "ExprWithCleanups" | "CStyleCastExpr" | "ParenExpr"
    ) {
        n = n.inner.first()?;
    }
    if n.kind != "CallExpr" {
        return None;
    }
    let callee = strip_implicit(n.inner.first()?);
    let (_, "FunctionDecl", name) = callee.referenced()? else {
        return None;
    };
    let name = match name {
        "memcpy" | "__builtin_memcpy" => "memcpy",
        "memset" | "__builtin_memset" => "memset",
        _ => return None,
    };
    Some((name, n.inner.iter().skip(1).collect()))
}

/// `memcpy` or `memset` when `n` calls one of them (in any spelling).
pub(super) fn memop_name(n: &Node) -> Option<&'static str> {
    memop_call(n).map(|(name, _)| name)
}

/// True for a null pointer constant (`0`, `NULL`, `nullptr`) as a pointer argument.
fn is_null(n: &Node) -> bool {
    let mut n = n;
    loop {
        match n.kind.as_str() {
            "ImplicitCastExpr" | "CStyleCastExpr" | "ParenExpr" => match n.inner.first() {
                Some(c) => n = c,
                None => return false,
            },
            "IntegerLiteral" => return n.str("value") == Some("0"),
            "CXXNullPtrLiteralExpr" | "GNUNullExpr" => return true,
            _ => return false,
        }
    }
}

/// True when evaluating `n` twice is the same as once (no assignment, increment or call).
pub(super) fn repeatable(n: &Node) -> bool {
    let effect = match n.kind.as_str() {
        "CallExpr" | "CXXMemberCallExpr" | "CXXOperatorCallExpr" | "CompoundAssignOperator" => true,
        "BinaryOperator" => n.str("opcode") == Some("="),
        "UnaryOperator" => matches!(n.str("opcode"), Some("++" | "--")),
        _ => false,
    };
    !effect && n.inner.iter().all(repeatable)
}

/// The pointer operand under the conversion to `void *`.
fn operand(n: &Node) -> &Node {
    let mut n = n;
    while n.kind == "ImplicitCastExpr"
        && matches!(n.str("castKind"), Some("BitCast" | "NoOp"))
        && n.ty().is_some_and(|t| t.contains("void"))
    {
        match n.inner.first() {
            Some(c) => n = c,
            None => break,
        }
    }
    n
}

fn node(kind: &str, ty: &str, fields: Value, inner: Vec<Node>, span: Option<Span>) -> Node {
    let mut map = match fields {
        Value::Object(m) => m,
        _ => serde_json::Map::new(),
    };
    map.insert("type".into(), json!({ "qualType": ty }));
    Node {
        kind: kind.into(),
        fields: map,
        span,
        file: String::new(),
        inner,
    }
}

impl Unit<'_> {
    /// The statements a `memcpy`/`memset` call statement performs; `None` for any other
    /// statement.
    pub(super) fn memop_stmt(&self, n: &Node, span: Span) -> Result<Option<Stmt>, FrontError> {
        let Some((name, args)) = memop_call(n) else {
            return Ok(None);
        };
        let [dst, second, len] = args[..] else {
            return Err(unsupported(
                span,
                format!("`{name}` with {} arguments", args.len()),
            ));
        };
        // A null pointer dereferenced: a failing check (an out-of-bounds finding where the
        // call is reached) instead of the copy.
        if is_null(dst) || name == "memcpy" && is_null(second) {
            let never = Expr::new(ExprKind::Bool(false), span);
            let check = Expr::new(
                ExprKind::Call("__warpsafe_check_nonnull".into(), span, vec![never]),
                span,
            );
            return Ok(Some(Stmt {
                kind: StmtKind::Expr(check),
                span,
            }));
        }
        let bytes = self.const_int(len).ok_or_else(|| {
            unsupported(
                self.span(len, span),
                format!(
                    "`{name}` whose byte count is not a compile-time constant (write the \
                     count as a constant expression such as `n * sizeof(T)` with a constant `n`)"
                ),
            )
        })?;
        let bytes = u64::try_from(bytes)
            .map_err(|_| unsupported(span, format!("`{name}` of {bytes} bytes")))?;
        let to = operand(dst);
        let (elem, size) = self.elem_of(to, name, span)?;
        let count = bytes / size;
        let tail = match (bytes % size, &elem) {
            (0, _) => 0,
            (rest, Elem::Record(key)) => self.leaf_prefix(key, rest, span).ok_or_else(|| {
                unsupported(
                    span,
                    format!(
                        "`{name}` of {bytes} bytes over records `{key}` of {size} bytes (the \
                         last record is cut inside a field)"
                    ),
                )
            })?,
            (_, Elem::Scalar(_)) => {
                return Err(unsupported(
                    span,
                    format!(
                        "`{name}` of {bytes} bytes over elements of {size} bytes (not a whole \
                         number of elements)"
                    ),
                ))
            }
        };
        if count > MAX_COPIES {
            return Err(unsupported(
                span,
                format!("`{name}` of {count} elements (at most {MAX_COPIES} are written out)"),
            ));
        }
        let stmts = match name {
            "memcpy" => {
                let from = operand(second);
                let (src_elem, _) = self.elem_of(from, name, span)?;
                match (&elem, &src_elem) {
                    (Elem::Scalar(a), Elem::Scalar(b)) if a == b => {}
                    (Elem::Record(a), Elem::Record(b)) if a == b => {}
                    _ => {
                        return Err(unsupported(
                            span,
                            format!(
                                "`memcpy` from `{}` to `{}` (only copies between buffers of \
                                 one element type are read element by element)",
                                from.ty().unwrap_or("?"),
                                to.ty().unwrap_or("?")
                            ),
                        ))
                    }
                }
                self.copies(to, from, &elem, (count, tail), span)?
            }
            _ => {
                let byte = self.const_int(second).ok_or_else(|| {
                    unsupported(
                        self.span(second, span),
                        "`memset` whose value is not a compile-time constant",
                    )
                })?;
                self.fills(to, &elem, (byte & 0xff) as u8, (count, tail), span)?
            }
        };
        Ok(Some(Stmt {
            kind: StmtKind::Block(stmts),
            span,
        }))
    }

    /// The element type of the buffer operand `p` and its size in bytes.
    fn elem_of(&self, p: &Node, name: &str, span: Span) -> Result<(Elem, u64), FrontError> {
        let ty = p.ty().unwrap_or("");
        let pointee = ty
            .trim()
            .strip_suffix('*')
            .map(|t| t.trim().trim_end_matches(" __restrict__").trim())
            .ok_or_else(|| unsupported(span, format!("`{name}` on an operand of type `{ty}`")))?;
        if let Some(key) = self.record_key_of(pointee) {
            let bytes = self.record_bytes(&key, &key, span)?;
            return Ok((Elem::Record(key), bytes.size));
        }
        match types::scalar_or_pointer(pointee, span) {
            Ok(t) if !t.ptr => match t.base {
                Some(s) => Ok((Elem::Scalar(s), s.size_bytes())),
                None => Err(unsupported(
                    span,
                    format!("`{name}` through a `void *` (its element type is unknown)"),
                )),
            },
            _ => Err(unsupported(
                span,
                format!("`{name}` on elements of type `{pointee}`"),
            )),
        }
    }

    /// The lvalue node of element `k` of the buffer operand `p`.
    fn element(&self, p: &Node, k: u64, count: u64, span: Span) -> Result<Node, FrontError> {
        if !repeatable(p) {
            return Err(unsupported(
                span,
                "a `memcpy`/`memset` operand with side effects (compute the pointer first)",
            ));
        }
        let pointee = p
            .ty()
            .and_then(|t| t.trim().strip_suffix('*'))
            .unwrap_or("")
            .trim()
            .to_string();
        let stripped = strip_implicit(p);
        if stripped.kind == "UnaryOperator" && stripped.str("opcode") == Some("&") {
            let Some(target) = stripped.inner.first() else {
                return Err(unsupported(span, "malformed `&`"));
            };
            if k == 0 {
                return Ok(target.clone());
            }
            let t = strip_implicit(target);
            if t.kind == "ArraySubscriptExpr" {
                if let [base, index] = &t.inner[..] {
                    let ity = index.ty().unwrap_or("long").to_string();
                    let lit = node(
                        "IntegerLiteral",
                        &ity,
                        json!({ "value": k.to_string() }),
                        vec![],
                        index.span,
                    );
                    let sum = node(
                        "BinaryOperator",
                        &ity,
                        json!({ "opcode": "+" }),
                        vec![index.clone(), lit],
                        index.span,
                    );
                    return Ok(node(
                        "ArraySubscriptExpr",
                        &pointee,
                        json!({ "valueCategory": "lvalue" }),
                        vec![base.clone(), sum],
                        t.span,
                    ));
                }
            }
            return Err(unsupported(
                span,
                format!(
                    "`memcpy`/`memset` of {count} elements at the address of one object \
                     (past its end)"
                ),
            ));
        }
        let lit = node(
            "IntegerLiteral",
            "long",
            json!({ "value": k.to_string() }),
            vec![],
            p.span,
        );
        Ok(node(
            "ArraySubscriptExpr",
            &pointee,
            json!({ "valueCategory": "lvalue" }),
            vec![p.clone(), lit],
            p.span,
        ))
    }

    /// `count` whole elements and the first `tail` leaves of the next record.
    fn copies(
        &self,
        to: &Node,
        from: &Node,
        elem: &Elem,
        (count, tail): (u64, usize),
        span: Span,
    ) -> Result<Vec<Stmt>, FrontError> {
        let mut out = vec![];
        let last = count + u64::from(tail > 0);
        for k in 0..last {
            let (a, b) = (
                self.element(to, k, last, span)?,
                self.element(from, k, last, span)?,
            );
            match elem {
                Elem::Scalar(_) => {
                    let (a, b) = (self.expr(&a, span)?, self.expr(&b, span)?);
                    out.push(assign(
                        ExprKind::Assign(None, Box::new(a), Box::new(b)),
                        span,
                    ));
                }
                Elem::Record(_) => {
                    let leaves = self.record_fields(&a, span)?;
                    let values = self.record_fields(&b, span)?;
                    let take = if k < count { leaves.len() } else { tail };
                    for (x, y) in leaves.into_iter().zip(values).take(take) {
                        out.push(assign(self.leaf_assign(None, x, y, span)?, span));
                    }
                }
            }
        }
        Ok(out)
    }

    /// How many leading leaves of record `key` lie wholly in its first `bytes` bytes, when no
    /// leaf is cut there.
    fn leaf_prefix(&self, key: &str, bytes: u64, span: Span) -> Option<usize> {
        let layout = self.record_bytes(key, key, span).ok()?;
        let mut n = 0;
        for (off, ty) in &layout.leaves {
            let end = off + ty.size_bytes();
            if end <= bytes {
                n += 1;
            } else if *off < bytes {
                return None;
            }
        }
        Some(n)
    }

    fn fills(
        &self,
        to: &Node,
        elem: &Elem,
        byte: u8,
        (count, tail): (u64, usize),
        span: Span,
    ) -> Result<Vec<Stmt>, FrontError> {
        let value = |s: ScalarType| -> Result<Expr, FrontError> {
            let kind = match (s.is_float(), byte) {
                (true, 0) => ExprKind::Float(0.0, s),
                (true, _) => {
                    return Err(unsupported(
                        span,
                        format!(
                            "`memset` of `{s}` elements with byte {byte:#04x} (only byte 0 is \
                             read for floating-point elements)"
                        ),
                    ))
                }
                (false, _) => {
                    let mut v: u64 = 0;
                    for _ in 0..s.size_bytes() {
                        v = (v << 8) | u64::from(byte);
                    }
                    ExprKind::Int(v, s)
                }
            };
            Ok(Expr::new(kind, span))
        };
        let mut out = vec![];
        let last = count + u64::from(tail > 0);
        for k in 0..last {
            let a = self.element(to, k, last, span)?;
            match elem {
                Elem::Scalar(s) => {
                    let a = self.expr(&a, span)?;
                    out.push(assign(
                        ExprKind::Assign(None, Box::new(a), Box::new(value(*s)?)),
                        span,
                    ));
                }
                Elem::Record(_) if byte == 0 => {
                    let leaves = self.record_fields(&a, span)?;
                    let take = if k < count { leaves.len() } else { tail };
                    for x in leaves.into_iter().take(take) {
                        let zero = Expr::new(ExprKind::Int(0, ScalarType::I32), span);
                        out.push(assign(self.leaf_assign(None, x, zero, span)?, span));
                    }
                }
                Elem::Record(key) => {
                    return Err(unsupported(
                        span,
                        format!(
                            "`memset` of records `{key}` with byte {byte:#04x} (only byte 0 is \
                             read for records)"
                        ),
                    ))
                }
            }
        }
        Ok(out)
    }

    /// The value of an integer constant expression (literals, `sizeof`, enumerators,
    /// arithmetic); `None` for anything else.
    pub(super) fn const_int(&self, n: &Node) -> Option<i128> {
        if let Some(v) = n.fields.get("value").and_then(Value::as_str) {
            if matches!(n.kind.as_str(), "ConstantExpr" | "IntegerLiteral") {
                return v.parse().ok();
            }
        }
        match n.kind.as_str() {
            "ImplicitCastExpr"
            | "CStyleCastExpr"
            | "ParenExpr"
            | "ConstantExpr"
            | "CXXStaticCastExpr"
            | "CXXFunctionalCastExpr" => self.const_int(n.inner.first()?),
            "CharacterLiteral" => n
                .fields
                .get("value")
                .and_then(Value::as_i64)
                .map(i128::from),
            "UnaryExprOrTypeTraitExpr" if n.name() == Some("sizeof") => {
                let ty = match n.fields.get("argType") {
                    Some(t) => t
                        .get("desugaredQualType")
                        .or_else(|| t.get("qualType"))
                        .and_then(Value::as_str)?
                        .to_string(),
                    None => n.inner.first()?.ty()?.to_string(),
                };
                self.size_of(&ty).map(i128::from)
            }
            "DeclRefExpr" => match n.referenced()? {
                (id, "EnumConstantDecl", _) => self.enumerators.get(id).copied(),
                (id, "VarDecl", _) => self.read_only_local(id),
                _ => None,
            },
            "UnaryOperator" => {
                let v = self.const_int(n.inner.first()?)?;
                match n.str("opcode")? {
                    "-" => Some(-v),
                    "+" => Some(v),
                    _ => None,
                }
            }
            "BinaryOperator" => {
                let a = self.const_int(n.inner.first()?)?;
                let b = self.const_int(n.inner.get(1)?)?;
                match n.str("opcode")? {
                    "+" => a.checked_add(b),
                    "-" => a.checked_sub(b),
                    "*" => a.checked_mul(b),
                    "/" if b != 0 => Some(a / b),
                    "%" if b != 0 => Some(a % b),
                    "<<" if (0..64).contains(&b) => a.checked_shl(b as u32),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The value of the local `id` when its initialiser is a constant and every use of it
    /// in its function only reads it (`size_t len = 4; memcpy(d, s, len);`).
    fn read_only_local(&self, id: &str) -> Option<i128> {
        let bodies = self
            .functions
            .iter()
            .map(|f| f.node)
            .chain(self.methods.values().copied());
        for f in bodies {
            let Some(v) = find_decl(f, id) else {
                continue;
            };
            let local = v.str("storageClass").is_none()
                && !v.inner.iter().any(|a| a.kind == "CUDASharedAttr");
            if !local || !only_read(f, id) {
                return None;
            }
            let scalar = v
                .ty()
                .and_then(|t| scalar(t.trim_start_matches("const ")).ok().flatten());
            if !scalar.is_some_and(|t| t.is_int()) {
                return None;
            }
            let init = v.inner.iter().find(|c| super::expr::is_expr(c))?;
            if names(init, id) {
                return None; // `int n = n;`
            }
            return self.const_int(init);
        }
        None
    }

    /// `sizeof(ty)` for a scalar, pointer or record type.
    fn size_of(&self, ty: &str) -> Option<u64> {
        if let Some((base, dims)) = ty.split_once('[') {
            let mut n: u64 = 1;
            for d in dims.split('[') {
                n = n.checked_mul(d.trim().trim_end_matches(']').trim().parse().ok()?)?;
            }
            return self.size_of(base.trim())?.checked_mul(n);
        }
        if let Some(key) = self.record_key_of(ty) {
            return self
                .record_bytes(&key, &key, Span::default())
                .ok()
                .map(|b| b.size);
        }
        let t = types::scalar_or_pointer(ty, Span::default()).ok()?;
        match (t.ptr, t.base) {
            (true, _) => Some(8),
            (false, Some(s)) => Some(s.size_bytes()),
            (false, None) => None,
        }
    }
}

/// The declaration `id` in `n`.
fn find_decl<'n>(n: &'n Node, id: &str) -> Option<&'n Node> {
    if n.kind == "VarDecl" && n.id() == id {
        return Some(n);
    }
    n.inner.iter().find_map(|c| find_decl(c, id))
}

/// True when `n` refers to the declaration `id`.
fn names(n: &Node, id: &str) -> bool {
    n.kind == "DeclRefExpr" && n.referenced().is_some_and(|r| r.0 == id)
        || n.inner.iter().any(|c| names(c, id))
}

/// True when every reference to `id` in `n` is read for its value (under an
/// lvalue-to-rvalue conversion): no assignment, increment, address or reference binding.
fn only_read(n: &Node, id: &str) -> bool {
    n.inner.iter().all(|c| {
        let names = c.kind == "DeclRefExpr" && c.referenced().is_some_and(|r| r.0 == id);
        let read = n.kind == "ImplicitCastExpr" && n.str("castKind") == Some("LValueToRValue");
        (!names || read) && only_read(c, id)
    })
}

fn assign(kind: ExprKind, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Expr(Expr::new(kind, span)),
        span,
    }
}
