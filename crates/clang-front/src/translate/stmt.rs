//! Statements and local declarations in the subset's terms.

use super::expr::{address_of, describe, is_expr};
use super::{types, Unit};
use crate::node::Node;
use warpsafe_cuda_front::ast::{Decl, Declarator, Expr, ExprKind, Init, Stmt, StmtKind, Storage};
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::Span;

fn unsupported(span: Span, what: impl std::fmt::Display) -> FrontError {
    FrontError::new(span, format!("unsupported: {what}"))
}

impl Unit<'_> {
    /// The subset statement for `n`, with what its expressions hoist (inlined calls) in
    /// a block before it.
    pub fn stmt(&self, n: &Node, outer: Span) -> Result<Stmt, FrontError> {
        let (s, hoisted) = self.with_pending(|| self.stmt_here(n, outer));
        let s = s?;
        if hoisted.is_empty() {
            return Ok(s);
        }
        let span = s.span;
        let mut all = hoisted;
        all.push(s);
        Ok(Stmt {
            kind: StmtKind::Block(all),
            span,
        })
    }

    /// `n` itself; what it hoists goes to the enclosing statement.
    fn stmt_here(&self, n: &Node, outer: Span) -> Result<Stmt, FrontError> {
        let span = self.span(n, outer);
        if matches!(
            n.kind.as_str(),
            "DeclStmt" | "CXXOperatorCallExpr" | "ExprWithCleanups"
        ) {
            if let Some(many) = self.record_stmts(n, span)? {
                if n.kind == "DeclStmt" {
                    return Err(unsupported(
                        span,
                        "a record declared here (declare it in a block)",
                    ));
                }
                return Ok(Stmt {
                    kind: StmtKind::Block(many),
                    span,
                });
            }
        }
        let kind = match n.kind.as_str() {
            "CompoundStmt" => StmtKind::Block(self.stmts(&n.inner, span)?),
            "DeclStmt" => return self.decl_stmt(n, span),
            "NullStmt" => StmtKind::Empty,
            "ReturnStmt" if self.in_frame() => return self.frame_return(n, span),
            "ReturnStmt" => StmtKind::Return(match n.inner.iter().find(|c| is_expr(c)) {
                Some(e) => Some(self.expr(e, span)?),
                None => None,
            }),
            "BreakStmt" => StmtKind::Break,
            "ContinueStmt" => StmtKind::Continue,
            "IfStmt" => return self.if_stmt(n, span),
            "ForStmt" => return self.for_stmt(n, span),
            "WhileStmt" => {
                if n.flag("hasVar") {
                    return Err(unsupported(span, "declaration in a `while` condition"));
                }
                let parts: Vec<&Node> = n.inner.iter().collect();
                let [cond, body] = parts[..] else {
                    return Err(unsupported(span, "malformed `while`"));
                };
                let cond = self.guarded("in a loop condition", || self.expr(cond, span))?;
                StmtKind::While(cond, Box::new(self.loop_body(body, span)?))
            }
            "DoStmt" => {
                let parts: Vec<&Node> = n.inner.iter().collect();
                let [body, cond] = parts[..] else {
                    return Err(unsupported(span, "malformed `do`"));
                };
                let cond = self.guarded("in a loop condition", || self.expr(cond, span))?;
                StmtKind::DoWhile(Box::new(self.loop_body(body, span)?), cond)
            }
            "AttributedStmt" => {
                // `#pragma unroll` and `[[likely]]`: the statement is the last child.
                let body = n
                    .inner
                    .last()
                    .ok_or_else(|| unsupported(span, "empty attributed statement"))?;
                return self.stmt(body, span);
            }
            "SwitchStmt" => return self.switch_stmt(n, span),
            "GotoStmt" => return self.goto_stmt(n, span),
            "LabelStmt" => {
                // A label no `goto` reaches from outside this statement (the enclosing
                // block's `goto_list` checked the ones that do).
                let inner = n
                    .inner
                    .first()
                    .ok_or_else(|| unsupported(span, "empty labelled statement"))?;
                return self.stmt(inner, span);
            }
            "IndirectGotoStmt" => {
                return Err(unsupported(
                    span,
                    "computed `goto *p` (write the jump as a `switch`)",
                ))
            }
            "GCCAsmStmt" => return self.asm_stmt(n, span),
            _ if is_expr(n) => match self.memop_stmt(n, span)? {
                Some(s) => return Ok(s),
                None if self.void_call(n, span)? => StmtKind::Empty,
                None => StmtKind::Expr(self.expr(n, span)?),
            },
            other => return Err(unsupported(span, describe(other))),
        };
        Ok(Stmt { kind, span })
    }

    /// `T* sdata = SharedMemory<T>();` — the CUDA samples' idiom: a class whose conversion
    /// to `T*` returns its `extern __shared__` array. The pointer is declared over a dynamic
    /// shared array of `T` (`extern __shared__ T sdata__smem[]; T* sdata = sdata__smem;`).
    fn dynamic_shared_pointer(
        &self,
        n: &Node,
        span: Span,
    ) -> Result<Option<Vec<Stmt>>, FrontError> {
        let [v] = &n.inner[..] else {
            return Ok(None);
        };
        if n.kind != "DeclStmt" || v.kind != "VarDecl" {
            return Ok(None);
        }
        let mut init = match v.inner.iter().find(|c| is_expr(c)) {
            Some(e) => e,
            None => return Ok(None),
        };
        while matches!(init.kind.as_str(), "ExprWithCleanups" | "ImplicitCastExpr") {
            match init.inner.first() {
                Some(c) => init = c,
                None => return Ok(None),
            }
        }
        let method = init
            .inner
            .first()
            .filter(|m| init.kind == "CXXMemberCallExpr" && m.kind == "MemberExpr")
            .and_then(|m| m.str("referencedMemberDecl"))
            .and_then(|id| self.conversions.get(id));
        let Some(method) = method else {
            return Ok(None);
        };
        if !returns_extern_shared(method) {
            return Ok(None);
        }
        let vspan = self.span(v, span);
        let name = self.var_name(v.id(), v.name().unwrap_or(""));
        let spelled = v.ty().unwrap_or("");
        let ty = match self.record_pointer(spelled, vspan)? {
            // `float4 *p = SharedMemory<float4>()`: memory of the records' scalars.
            Some((ty, _)) => ty,
            None => types::scalar_or_pointer(spelled, vspan)
                .map_err(|e| unsupported(vspan, format!("declaration of `{name}`: {e}")))?,
        };
        if !ty.ptr {
            return Ok(None);
        }
        let mut elem = ty;
        elem.ptr = false;
        let smem = format!("{name}__smem");
        let decl = |storage: Storage, declarator: Declarator| Stmt {
            kind: StmtKind::Decl(Decl {
                storage,
                base: elem,
                declarators: vec![declarator],
            }),
            span: vspan,
        };
        Ok(Some(vec![
            decl(
                Storage {
                    shared: true,
                    extern_: true,
                    konst: false,
                    file_scope: false,
                },
                Declarator {
                    name: smem.clone(),
                    name_span: vspan,
                    ptr: false,
                    dims: vec![None],
                    init: None,
                    span: vspan,
                },
            ),
            decl(
                Storage::default(),
                Declarator {
                    name,
                    name_span: vspan,
                    ptr: true,
                    dims: vec![],
                    init: Some(Init::Expr(Expr::new(ExprKind::Ident(smem), vspan))),
                    span: vspan,
                },
            ),
        ]))
    }

    /// `T x = cg::reduce(tile, v, op);` and `x = cg::reduce(…);`: the variable, then the
    /// reduction written out (`groups::group_reduce`).
    fn reduce_stmt(&self, n: &Node, span: Span) -> Result<Option<Vec<Stmt>>, FrontError> {
        let n = match n.inner.first() {
            Some(inner) if n.kind == "ExprWithCleanups" => inner,
            _ => n,
        };
        match n.kind.as_str() {
            "DeclStmt" => {
                let [v] = &n.inner[..] else {
                    return Ok(None);
                };
                let Some(init) = v.inner.iter().find(|c| is_expr(c)) else {
                    return Ok(None);
                };
                let name = &self.var_name(v.id(), v.name().unwrap_or(""));
                let Some(reduce) = self.group_reduce(name, init, self.span(v, span))? else {
                    return Ok(None);
                };
                let vspan = self.span(v, span);
                let mut base = types::scalar_or_pointer(v.ty().unwrap_or(""), vspan)
                    .map_err(|e| unsupported(vspan, format!("`cg::reduce` into {e}")))?;
                base.konst = false;
                let mut out = vec![Stmt {
                    kind: StmtKind::Decl(Decl {
                        storage: Storage::default(),
                        base,
                        declarators: vec![Declarator {
                            name: name.to_string(),
                            name_span: vspan,
                            ptr: false,
                            dims: vec![],
                            init: None,
                            span: vspan,
                        }],
                    }),
                    span,
                }];
                out.extend(reduce);
                Ok(Some(out))
            }
            "BinaryOperator" if n.str("opcode") == Some("=") => {
                let (Some(lhs), Some(rhs)) = (n.inner.first(), n.inner.get(1)) else {
                    return Ok(None);
                };
                let lhs = super::expr::strip_implicit(lhs);
                let Some((id, "VarDecl" | "ParmVarDecl", name)) = lhs.referenced() else {
                    return Ok(None);
                };
                if self.alias(id).is_some() {
                    return Ok(None);
                }
                self.group_reduce(&self.var_name(id, name), rhs, span)
            }
            _ => Ok(None),
        }
    }

    /// The statements of a block; what each hoists comes right before it, in the block.
    pub(super) fn stmts(&self, nodes: &[Node], span: Span) -> Result<Vec<Stmt>, FrontError> {
        if nodes.iter().any(super::goto::has_goto) {
            let items: Vec<&Node> = nodes.iter().collect();
            return self.goto_list(&items, span);
        }
        let mut out = vec![];
        for c in nodes {
            out.extend(self.list_item(c, span)?);
        }
        Ok(out)
    }

    /// One statement of a block, with what it hoists before it.
    pub(super) fn list_item(&self, c: &Node, span: Span) -> Result<Vec<Stmt>, FrontError> {
        let (r, hoisted) = self.with_pending(|| match self.record_stmts(c, span)? {
            Some(many) => Ok(many),
            None => Ok(vec![self.stmt_here(c, span)?]),
        });
        let mut out = hoisted;
        out.extend(r?);
        Ok(out)
    }

    /// A call statement inlined whole (a member function, a user operator, a function
    /// over records): its statements are hoisted and nothing is left of it.
    fn void_call(&self, n: &Node, span: Span) -> Result<bool, FrontError> {
        let mut e = n;
        while matches!(e.kind.as_str(), "ExprWithCleanups" | "CXXBindTemporaryExpr") {
            match e.inner.first() {
                Some(c) => e = c,
                None => return Ok(false),
            }
        }
        if !matches!(
            e.kind.as_str(),
            "CXXMemberCallExpr" | "CXXOperatorCallExpr" | "CallExpr"
        ) {
            return Ok(false);
        }
        Ok(self.call_value(e, span)?.is_some())
    }

    /// One declarator of a `DeclStmt` declaring records: its statements.
    fn record_declarator(&self, v: &Node, span: Span) -> Result<Vec<Stmt>, FrontError> {
        let mut out = vec![];
        let vspan = self.span(v, span);
        if let Some(many) = self.record_var_decl(v, vspan)? {
            return Ok(many);
        }
        if let Some(key) = v.ty().and_then(|t| self.record_key_of(t)) {
            self.reject_union_value(&key, vspan)?;
        }
        let Some(fields) = v.ty().and_then(|t| self.record(t)).cloned() else {
            return Err(unsupported(
                vspan,
                "a record declared beside other variables",
            ));
        };
        let name = &self.var_name(v.id(), v.name().unwrap_or(""));
        let init = match v.inner.iter().find(|c| is_expr(c)) {
            Some(e) if !(e.kind == "CXXConstructExpr" && e.inner.is_empty()) => {
                Some(self.record_fields(e, vspan)?)
            }
            _ => None,
        };
        for (i, (f, fty)) in fields.iter().enumerate() {
            let ty = types::scalar_or_pointer(fty, vspan)
                .map_err(|e| unsupported(vspan, format!("field `{f}` of `{name}`: {e}")))?;
            let mut base = ty;
            base.ptr = false;
            out.push(Stmt {
                kind: StmtKind::Decl(Decl {
                    storage: Storage::default(),
                    base,
                    declarators: vec![Declarator {
                        name: super::aggregate::field_local(name, f),
                        name_span: vspan,
                        ptr: ty.ptr,
                        dims: vec![],
                        init: init.as_ref().map(|vals| Init::Expr(vals[i].clone())),
                        span: vspan,
                    }],
                }),
                span: vspan,
            });
        }
        Ok(out)
    }

    /// Statements about records, which become several statements in the enclosing block:
    /// a declaration of record locals (one local per field) and a record assignment (one
    /// assignment per field). `None` for every other statement.
    fn record_stmts(&self, n: &Node, outer: Span) -> Result<Option<Vec<Stmt>>, FrontError> {
        let span = self.span(n, outer);
        let n = match n.inner.first() {
            Some(inner) if n.kind == "ExprWithCleanups" => inner,
            _ => n,
        };
        if let Some(many) = self.dynamic_shared_pointer(n, span)? {
            return Ok(Some(many));
        }
        if let Some(many) = self.reduce_stmt(n, span)? {
            return Ok(Some(many));
        }
        match n.kind.as_str() {
            "DeclStmt" => {
                let has_record = n.inner.iter().any(|v| {
                    v.kind == "VarDecl" && v.ty().is_some_and(|t| self.record(t).is_some())
                });
                if !has_record {
                    return Ok(None);
                }
                // Each declarator after what the one before it declares: what its initial
                // value hoists (`float3 p = a + b, l = normalize(c - p);`) lands just before it.
                let mut out = vec![];
                // A record the statement defines (`union { … } u;`) was collected with the
                // function's other local records.
                for v in n.inner.iter().filter(|v| v.kind == "VarDecl") {
                    let (r, hoisted) = self.with_pending(|| self.record_declarator(v, span));
                    out.extend(hoisted);
                    out.extend(r?);
                }
                Ok(Some(out))
            }
            "CXXOperatorCallExpr" => self.record_assignment(n, span),
            _ => Ok(None),
        }
    }

    /// The copies `a = b` makes for an implicit record assignment `n` (a
    /// `CXXOperatorCallExpr` of `operator=`); `None` for any other node, and for a
    /// user-defined `operator=` (inlined like any member function).
    pub(super) fn record_assignment(
        &self,
        n: &Node,
        span: Span,
    ) -> Result<Option<Vec<Stmt>>, FrontError> {
        let callee = n.inner.first().map(super::expr::strip_implicit);
        let is_assign = callee
            .and_then(|c| c.referenced())
            .is_some_and(|(_, _, name)| name == "operator=");
        let (true, Some(lhs), Some(rhs)) = (is_assign, n.inner.get(1), n.inner.get(2)) else {
            return Ok(None);
        };
        if lhs.ty().and_then(|t| self.record(t)).is_none() {
            return Ok(None);
        }
        let op_id = callee
            .and_then(|c| c.referenced())
            .map(|r| r.0)
            .unwrap_or("");
        if self
            .methods
            .get(op_id)
            .is_some_and(|m| !m.flag("isImplicit"))
        {
            return Ok(None);
        }
        let to = self.record_fields(lhs, span)?;
        let from = self.record_fields(rhs, span)?;
        // Leaf by leaf, each converted to the memory it lands in (a record of mixed leaf
        // types in memory holds their bits).
        let copies = to
            .into_iter()
            .zip(from)
            .map(|(a, b)| {
                let kind = self.leaf_assign(None, a, b, span)?;
                Ok(Stmt {
                    kind: StmtKind::Expr(Expr::new(kind, span)),
                    span,
                })
            })
            .collect::<Result<Vec<_>, FrontError>>()?;
        Ok(Some(copies))
    }

    fn if_stmt(&self, n: &Node, span: Span) -> Result<Stmt, FrontError> {
        if n.flag("hasInit") || n.flag("hasVar") {
            return Err(unsupported(span, "declaration in an `if` condition"));
        }
        if n.flag("isConstexpr") {
            // `if constexpr`: clang instantiated the branch that holds; the other is dead.
        }
        let mut it = n.inner.iter();
        let cond = it
            .next()
            .ok_or_else(|| unsupported(span, "malformed `if`"))?;
        let then = it
            .next()
            .ok_or_else(|| unsupported(span, "malformed `if`"))?;
        let otherwise = match it.next() {
            Some(e) => Some(Box::new(self.stmt(e, span)?)),
            None => None,
        };
        Ok(Stmt {
            kind: StmtKind::If(
                self.expr(cond, span)?,
                Box::new(self.stmt(then, span)?),
                otherwise,
            ),
            span,
        })
    }

    fn for_stmt(&self, n: &Node, span: Span) -> Result<Stmt, FrontError> {
        let parts: Vec<&Node> = n.inner.iter().collect();
        let [init, cond_var, cond, inc, body] = parts[..] else {
            return Err(unsupported(span, "malformed `for`"));
        };
        if !cond_var.is_empty() {
            return Err(unsupported(span, "declaration in a `for` condition"));
        }
        let init = if init.is_empty() {
            None
        } else {
            Some(Box::new(self.stmt(init, span)?))
        };
        let opt = |e: &Node| -> Result<Option<Expr>, FrontError> {
            if e.is_empty() {
                Ok(None)
            } else {
                self.guarded("in a loop condition or update", || self.expr(e, span))
                    .map(Some)
            }
        };
        Ok(Stmt {
            kind: StmtKind::For {
                init,
                cond: opt(cond)?,
                update: opt(inc)?,
                body: Box::new(self.loop_body(body, span)?),
            },
            span,
        })
    }

    /// `int i = 0, j;` as one declaration when the declarators share a base type, else a
    /// block-free sequence is impossible in the subset tree, so each must agree.
    /// The declaration, at the start of a kernel, of a file-scope `__shared__` variable
    /// (`__shared__ float tile[64];`, `extern __shared__ unsigned char smem[];` outside any
    /// function): shared memory is per block, so it is the kernel's own `__shared__` array.
    pub(super) fn file_shared_decl(&self, v: &Node, span: Span) -> Result<Stmt, FrontError> {
        let vspan = self.span(v, span);
        let (mut storage, base, declarator) = self.var_decl(v, vspan)?;
        storage.file_scope = true;
        Ok(Stmt {
            kind: StmtKind::Decl(Decl {
                storage,
                base,
                declarators: vec![declarator],
            }),
            span: vspan,
        })
    }

    fn decl_stmt(&self, n: &Node, span: Span) -> Result<Stmt, FrontError> {
        let mut decl: Option<Decl> = None;
        for v in &n.inner {
            let vspan = self.span(v, span);
            match v.kind.as_str() {
                "VarDecl" => {}
                "TypedefDecl" | "TypeAliasDecl" | "CXXRecordDecl" | "EnumDecl"
                | "StaticAssertDecl" | "UsingDecl" | "UsingDirectiveDecl"
                | "NamespaceAliasDecl" => continue,
                other => return Err(unsupported(vspan, describe(other))),
            }
            if super::groups::group_of(v.ty().unwrap_or(""))
                .map_err(|e| unsupported(vspan, e))?
                .is_some()
            {
                // A cooperative-groups handle: its value is fixed by its type.
                continue;
            }
            let (storage, base, declarator) = self.var_decl(v, vspan)?;
            match &mut decl {
                None => {
                    decl = Some(Decl {
                        storage,
                        base,
                        declarators: vec![declarator],
                    })
                }
                Some(d) if d.storage == storage && same_base(&d.base, &base) => {
                    d.declarators.push(declarator)
                }
                Some(_) => {
                    return Err(unsupported(
                        vspan,
                        "declarators of different types in one declaration",
                    ))
                }
            }
        }
        Ok(Stmt {
            kind: match decl {
                Some(d) => StmtKind::Decl(d),
                None => StmtKind::Empty,
            },
            span,
        })
    }

    /// The elements of a (possibly nested, possibly partial) initialiser list of an array
    /// with `extents`, row-major, missing ones zero as C++ says.
    fn flatten_init(
        &self,
        list: &Node,
        extents: &[u64],
        zero: &Expr,
        span: Span,
        out: &mut Vec<Expr>,
    ) -> Result<(), FrontError> {
        let Some((&extent, inner)) = extents.split_first() else {
            return Err(unsupported(span, "an initialiser list for a scalar"));
        };
        let per: u64 = inner.iter().product();
        let items: Vec<&Node> = list
            .inner
            .iter()
            .filter(|c| is_expr(c) && c.kind != "ImplicitValueInitExpr")
            .collect();
        if items.len() as u64 > extent {
            return Err(unsupported(span, "more initialisers than array elements"));
        }
        for item in &items {
            if inner.is_empty() {
                out.push(self.expr(item, span)?);
            } else if item.kind == "InitListExpr" {
                self.flatten_init(item, inner, zero, span, out)?;
            } else {
                return Err(unsupported(
                    span,
                    "a brace-elided initialiser of a nested array",
                ));
            }
        }
        let missing = (extent - items.len() as u64).saturating_mul(per.max(1));
        if missing > 1 << 20 {
            return Err(unsupported(span, "an initialiser list for a huge array"));
        }
        out.extend(std::iter::repeat_n(zero.clone(), missing as usize));
        Ok(())
    }

    fn var_decl(
        &self,
        v: &Node,
        span: Span,
    ) -> Result<(Storage, warpsafe_cuda_front::ast::Type, Declarator), FrontError> {
        let name = self.var_name(v.id(), v.name().unwrap_or(""));
        if let Some(d) = self.view_var_decl(v, &name, span)? {
            return Ok(d);
        }
        let (spelled, is_ref) = types::strip_reference(v.ty().unwrap_or("int"));
        if !is_ref {
            if let Some((ty, _)) = self.record_pointer(spelled, span)? {
                // A pointer to records points at their scalars; its uses step by records
                // (see `aggregate`), and arithmetic on it is rejected there.
                let init = match v.inner.iter().find(|c| is_expr(c)) {
                    Some(e) => Some(Init::Expr(self.record_pointer_init(e, span)?)),
                    None => None,
                };
                let mut base = ty;
                base.ptr = false;
                return Ok((
                    Storage::default(),
                    base,
                    Declarator {
                        name,
                        name_span: span,
                        ptr: true,
                        dims: vec![],
                        init,
                        span,
                    },
                ));
            }
        }
        let flattened = self.record_array(spelled, span)?;
        let spelled = flattened.as_deref().unwrap_or(spelled);
        let declared = types::declared(spelled, span)
            .map_err(|e| unsupported(span, format!("declaration of `{name}`: {e}")))?;
        let shared = v.inner.iter().any(|c| c.kind == "CUDASharedAttr");
        if v.inner.iter().any(|c| c.kind == "CUDAConstantAttr")
            || v.str("storageClass") == Some("static") && !shared
        {
            return Err(unsupported(span, format!("static local `{name}`")));
        }
        let storage = Storage {
            shared,
            extern_: v.str("storageClass") == Some("extern"),
            konst: v.flag("constexpr") || spelled.starts_with("const ") && !declared.ty.ptr,
            file_scope: false,
        };
        let init = match v.inner.iter().find(|c| is_expr(c)) {
            None => None,
            // The default construction of an array of records: no initial value.
            Some(e) if e.kind == "CXXConstructExpr" && e.inner.is_empty() => None,
            Some(e) if e.kind == "InitListExpr" => {
                let mut items = vec![];
                let zero = match declared.ty.base {
                    Some(t) if t.is_float() => ExprKind::Float(0.0, t),
                    Some(t) => ExprKind::Int(0, t),
                    None => return Err(unsupported(span, "initialiser of a `void` array")),
                };
                let zero = Expr::new(zero, span);
                let extents: Vec<u64> = declared.dims.iter().map(|d| d.unwrap_or(0)).collect();
                self.flatten_init(e, &extents, &zero, span, &mut items)?;
                Some(Init::List(items, self.span(e, span)))
            }
            Some(e) if is_ref => Some(Init::Expr(address_of(self.expr(e, span)?))),
            Some(e) => Some(Init::Expr(self.expr(e, span)?)),
        };
        let dims = declared
            .dims
            .iter()
            .map(|d| d.map(|n| Expr::new(ExprKind::Int(n, warpsafe_ir::ScalarType::U64), span)))
            .collect();
        let mut base = declared.ty;
        if is_ref && (base.ptr || !declared.dims.is_empty()) {
            return Err(unsupported(
                span,
                format!("reference to a pointer or array `{name}`"),
            ));
        }
        let ptr = base.ptr || is_ref;
        base.ptr = false;
        Ok((
            storage,
            base,
            Declarator {
                name,
                name_span: span,
                ptr,
                dims,
                init,
                span,
            },
        ))
    }
}

fn same_base(a: &warpsafe_cuda_front::ast::Type, b: &warpsafe_cuda_front::ast::Type) -> bool {
    a.base == b.base && a.konst == b.konst && a.volatile == b.volatile
}

/// True for a conversion operator whose body is `extern __shared__ X a[]; return (T*)a;`.
fn returns_extern_shared(method: &Node) -> bool {
    let Some(body) = method.inner.iter().find(|c| c.kind == "CompoundStmt") else {
        return false;
    };
    let [decl, ret] = &body.inner[..] else {
        return false;
    };
    let array = decl.inner.first().filter(|v| {
        decl.kind == "DeclStmt"
            && v.kind == "VarDecl"
            && v.str("storageClass") == Some("extern")
            && v.inner.iter().any(|a| a.kind == "CUDASharedAttr")
    });
    let Some(array) = array else {
        return false;
    };
    let mut e = match ret.inner.first() {
        Some(e) if ret.kind == "ReturnStmt" => e,
        _ => return false,
    };
    while matches!(
        e.kind.as_str(),
        "CStyleCastExpr"
            | "ImplicitCastExpr"
            | "CXXReinterpretCastExpr"
            | "CXXStaticCastExpr"
            | "ParenExpr"
    ) {
        match e.inner.first() {
            Some(c) => e = c,
            None => return false,
        }
    }
    e.kind == "DeclRefExpr" && e.referenced().is_some_and(|(id, _, _)| id == array.id())
}
