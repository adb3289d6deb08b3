//! Statements: `let`, assignment, control flow and calls, recorded into the current body.

use crate::context::{cx, rt, Gen};
use crate::expr::{bin_op, call_name, impure, is_statement_like, peel};
use crate::intrinsics as intr;
use crate::span::ir_span;
use crate::types::scalar;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Block, Expr, GenericArgument, Local, Pat, Stmt, Type};

/// A `let` pattern: the bound name, whether it is `mut`, and its type annotation.
struct Binding<'a> {
    ident: Option<&'a syn::Ident>,
    mutable: bool,
    ty: Option<&'a Type>,
}

impl Gen {
    /// Records every statement of `b` (the tail expression's value, if any, is discarded).
    pub fn block_stmts(&mut self, b: &Block) -> TokenStream {
        let stmts: Vec<TokenStream> = b
            .stmts
            .iter()
            .map(|s| match s {
                Stmt::Expr(e, None) => self.stmt_expr(e),
                s => self.stmt(s),
            })
            .collect();
        quote!({ #(#stmts)* })
    }

    /// Records one statement.
    pub fn stmt(&mut self, s: &Stmt) -> TokenStream {
        match s {
            Stmt::Local(l) => self.local(l),
            Stmt::Item(syn::Item::Const(c)) => quote!(#c),
            Stmt::Item(i) => {
                self.err_at(
                    i,
                    "items other than `const` are not supported inside kernels",
                );
                quote!()
            }
            Stmt::Expr(e, _) => self.stmt_expr(e),
            Stmt::Macro(m) => {
                let name = m
                    .mac
                    .path
                    .segments
                    .last()
                    .map(|s| s.ident.to_string())
                    .unwrap_or_default();
                self.err_at(
                    m,
                    format!("macros (`{name}!`) are not supported in kernels"),
                );
                quote!()
            }
        }
    }

    fn binding<'a>(&mut self, pat: &'a Pat) -> Option<Binding<'a>> {
        match pat {
            Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => Some(Binding {
                ident: Some(&p.ident),
                mutable: p.mutability.is_some(),
                ty: None,
            }),
            Pat::Wild(_) => Some(Binding {
                ident: None,
                mutable: false,
                ty: None,
            }),
            Pat::Type(t) => {
                let mut b = self.binding(&t.pat)?;
                b.ty = Some(&t.ty);
                Some(b)
            }
            other => {
                self.err_at(
                    other,
                    "only `let name`, `let mut name` and `let _` patterns are supported in kernels",
                );
                None
            }
        }
    }

    fn local(&mut self, l: &Local) -> TokenStream {
        let cx = cx();
        let sp = ir_span(l);
        let Some(b) = self.binding(&l.pat) else {
            return quote!();
        };
        if let Some(init) = &l.init {
            if let Some((_, d)) = &init.diverge {
                self.err_at(d, "`let … else` is not supported in kernels");
                return quote!();
            }
        }
        let init = l.init.as_ref().map(|i| &*i.expr);
        let name_str = b.ident.map(|i| i.to_string()).unwrap_or_else(|| "_".into());
        let bind = |value: TokenStream| match b.ident {
            Some(id) => quote!(let #id = #value;),
            None => quote!(let _ = #value;),
        };
        // Arrays: shared, dynamic shared, local.
        if let Some(init) = init {
            match peel(init) {
                Expr::Call(c) if call_name(c).as_deref().is_some_and(intr::is_array_ctor) => {
                    return match self.shared_decl(c, &name_str) {
                        Some(code) => bind(code),
                        None => quote!(),
                    };
                }
                Expr::Repeat(_) => {
                    let (fill, dims) = self.repeat_dims(init);
                    let fill = self.expr(fill);
                    let fill = self.annotate_elem(fill, b.ty, &sp);
                    return bind(quote!({
                        let __f = #fill;
                        #cx.local_fill(#name_str, __f, ::std::vec![#(#dims),*], #sp)
                    }));
                }
                Expr::Array(a) => {
                    let es: Vec<&Expr> = a.elems.iter().collect();
                    let vals: Vec<TokenStream> = es.iter().map(|e| self.expr(e)).collect();
                    let vals: Vec<TokenStream> = vals
                        .into_iter()
                        .map(|v| self.annotate_elem(v, b.ty, &sp))
                        .collect();
                    return bind(quote!({
                        let __items = ::std::vec![#(#vals),*];
                        #cx.local_list(#name_str, __items, #sp)
                    }));
                }
                _ => {}
            }
        }
        let annot = match b.ty {
            Some(t) => match scalar(t) {
                Ok(s) => {
                    let t = s.ir();
                    quote!(::core::option::Option::Some(#t))
                }
                Err(e) => {
                    self.errors.push(e);
                    return quote!();
                }
            },
            None => quote!(::core::option::Option::None),
        };
        let value = match init {
            Some(e) => {
                let v = self.expr(e);
                quote!(::core::option::Option::Some(#v))
            }
            None => quote!(::core::option::Option::None),
        };
        if b.ident.is_none() && init.is_some() {
            return quote!(let _ = #value;);
        }
        bind(quote!({ let __init = #value; #cx.let_(#name_str, __init, #annot, #sp) }))
    }

    /// Unifies a local array element with the annotation `[T; N]`, if one is written.
    fn annotate_elem(
        &mut self,
        v: TokenStream,
        ty: Option<&Type>,
        sp: &TokenStream,
    ) -> TokenStream {
        let cx = cx();
        let mut t = match ty {
            Some(t) => t,
            None => return v,
        };
        while let Type::Array(a) = t {
            t = &a.elem;
        }
        match scalar(t) {
            Ok(s) => {
                let st = s.ir();
                quote!({ let __e = #v; #cx.arg_val("_", __e, #st, #sp) })
            }
            Err(e) => {
                self.errors.push(e);
                v
            }
        }
    }

    fn repeat_dims<'a>(&mut self, e: &'a Expr) -> (&'a Expr, Vec<TokenStream>) {
        let mut dims = vec![];
        let mut cur = peel(e);
        while let Expr::Repeat(r) = cur {
            let len = &r.len;
            dims.push(quote!((#len) as u64));
            cur = peel(&r.expr);
        }
        (cur, dims)
    }

    fn shared_decl(&mut self, c: &syn::ExprCall, name: &str) -> Option<TokenStream> {
        let cx = cx();
        let sp = ir_span(c);
        let fname = call_name(c).unwrap_or_default();
        if !c.args.is_empty() {
            self.err_at(&c.args, format!("`{fname}` takes no arguments"));
            return None;
        }
        let Expr::Path(p) = &*c.func else { return None };
        let generics: Vec<&GenericArgument> = match &p.path.segments[0].arguments {
            syn::PathArguments::AngleBracketed(a) => a.args.iter().collect(),
            _ => vec![],
        };
        let want = match fname.as_str() {
            "shared" => 2,
            "shared2" => 3,
            _ => 1,
        };
        let usage = match fname.as_str() {
            "shared" => "shared::<T, N>()",
            "shared2" => "shared2::<T, ROWS, COLS>()",
            _ => "dyn_shared::<T>()",
        };
        if generics.len() != want {
            self.err_at(c, format!("write `{usage}`"));
            return None;
        }
        let elem = match generics[0] {
            GenericArgument::Type(t) => match scalar(t) {
                Ok(s) => s.ir(),
                Err(e) => {
                    self.errors.push(e);
                    return None;
                }
            },
            other => {
                self.err_at(other, format!("write `{usage}` with a scalar element type"));
                return None;
            }
        };
        let mut dims = vec![];
        for g in &generics[1..] {
            match g {
                GenericArgument::Const(e) => dims.push(quote!((#e) as u64)),
                GenericArgument::Type(Type::Path(t)) if t.qself.is_none() => {
                    dims.push(quote!((#t) as u64))
                }
                other => {
                    self.err_at(other, "array extents must be constant expressions");
                    return None;
                }
            }
        }
        Some(if fname == "dyn_shared" {
            quote!(#cx.dyn_shared(#name, #elem, #sp))
        } else {
            quote!(#cx.shared(#name, #elem, ::std::vec![#(#dims),*], #sp))
        })
    }

    /// Records an expression in statement position.
    pub fn stmt_expr(&mut self, e: &Expr) -> TokenStream {
        let cx = cx();
        let rt = rt();
        let sp = ir_span(e);
        match e {
            Expr::Paren(p) => self.stmt_expr(&p.expr),
            Expr::Group(g) => self.stmt_expr(&g.expr),
            Expr::Assign(a) => self.assign(&a.left, &a.right, None, &sp),
            Expr::Binary(b) if matches!(bin_op(&b.op), Some((_, true))) => {
                let op = bin_op(&b.op).map(|(o, _)| o).unwrap_or("Add");
                self.assign(&b.left, &b.right, Some(op), &sp)
            }
            Expr::If(i) => self.if_stmt(i),
            Expr::While(w) => {
                if w.label.is_some() {
                    self.err_at(&w.label, "loop labels are not supported in kernels");
                    return quote!();
                }
                if let Expr::Let(_) = peel(&w.cond) {
                    self.err_at(&w.cond, "`while let` is not supported in kernels");
                    return quote!();
                }
                let body = self.block_stmts(&w.body);
                if impure(&w.cond) {
                    let c = self.expr(&w.cond);
                    quote!({
                        #cx.begin();
                        let __c = #c;
                        let __n = #cx.unary(#rt::RustUnOp::Not, __c, #sp);
                        #cx.begin();
                        #cx.break_(#sp);
                        let __x = #cx.end();
                        #cx.if_(__n, __x, ::std::vec::Vec::new(), #sp);
                        #body
                        let __b = #cx.end();
                        #cx.loop_(__b, #sp);
                    })
                } else {
                    let c = self.expr(&w.cond);
                    quote!({
                        let __c = #c;
                        #cx.begin();
                        #body
                        let __b = #cx.end();
                        #cx.while_(__c, __b, #sp);
                    })
                }
            }
            Expr::Loop(l) => {
                if l.label.is_some() {
                    self.err_at(&l.label, "loop labels are not supported in kernels");
                    return quote!();
                }
                let body = self.block_stmts(&l.body);
                quote!({ #cx.begin(); #body let __b = #cx.end(); #cx.loop_(__b, #sp); })
            }
            Expr::ForLoop(f) => self.for_loop(f),
            Expr::Break(b) => {
                if b.label.is_some() || b.expr.is_some() {
                    self.err_at(
                        e,
                        "`break` with a label or a value is not supported in kernels",
                    );
                    return quote!();
                }
                quote!(#cx.break_(#sp);)
            }
            Expr::Continue(c) => {
                if c.label.is_some() {
                    self.err_at(e, "`continue` with a label is not supported in kernels");
                    return quote!();
                }
                quote!(#cx.continue_(#sp);)
            }
            Expr::Return(r) => {
                if self.in_helper {
                    self.err_at(e, "`return` is not supported in `#[kernel_fn]` helpers; end the body with the value");
                    return quote!();
                }
                if r.expr.is_some() {
                    self.err_at(e, "kernels return nothing: write `return;`");
                    return quote!();
                }
                quote!(#cx.return_(#sp);)
            }
            Expr::Block(b) if b.label.is_none() => self.block_stmts(&b.block),
            _ if is_statement_like(e) => {
                self.err_at(e, "unsupported statement in kernels");
                quote!()
            }
            _ => {
                let v = self.expr_mode(e, false);
                quote!(let _ = #v;)
            }
        }
    }

    fn assign(
        &mut self,
        left: &Expr,
        right: &Expr,
        op: Option<&str>,
        sp: &TokenStream,
    ) -> TokenStream {
        let cx = cx();
        let rt = rt();
        let v = self.expr(right);
        match peel(left) {
            Expr::Path(p) if p.qself.is_none() => match op {
                None => quote!({ let __v = #v; #rt::assign(&(#p), #cx, __v, #sp); }),
                Some(op) => {
                    let op = format_ident!("{}", op);
                    quote!({ let __v = #v; #rt::compound_assign(#rt::BinOp::#op, &(#p), #cx, __v, #sp); })
                }
            },
            l @ Expr::Index(_) => {
                let idx_impure = {
                    let mut any = false;
                    let mut cur = l;
                    while let Expr::Index(ix) = peel(cur) {
                        any |= impure(&ix.index);
                        cur = &ix.expr;
                    }
                    any
                };
                let Some((base, idx)) = self.place(l) else {
                    return quote!();
                };
                let v = if idx_impure {
                    quote!({ let __v = #v; #cx.stable(__v, #sp) })
                } else {
                    v
                };
                match op {
                    None => {
                        quote!({ let __v = #v; let __idx = #idx; #rt::store(&(#base), #cx, __idx, __v, #sp); })
                    }
                    Some(op) => {
                        let op = format_ident!("{}", op);
                        quote!({ let __v = #v; let __idx = #idx; #rt::compound_store(#rt::BinOp::#op, &(#base), #cx, __idx, __v, #sp); })
                    }
                }
            }
            other => {
                self.err_at(
                    other,
                    "only variables and indexed buffers/arrays can be assigned in kernels",
                );
                quote!()
            }
        }
    }

    fn if_stmt(&mut self, i: &syn::ExprIf) -> TokenStream {
        let cx = cx();
        let sp = ir_span(i);
        if let Expr::Let(_) = peel(&i.cond) {
            self.err_at(&i.cond, "`if let` is not supported in kernels");
            return quote!();
        }
        let c = self.expr(&i.cond);
        let then_b = self.block_stmts(&i.then_branch);
        let else_b = match &i.else_branch {
            Some((_, e)) => self.stmt_expr(e),
            None => quote!(),
        };
        quote!({
            let __c = #c;
            #cx.begin();
            #then_b
            let __tb = #cx.end();
            #cx.begin();
            #else_b
            let __eb = #cx.end();
            #cx.if_(__c, __tb, __eb, #sp);
        })
    }

    fn for_loop(&mut self, f: &syn::ExprForLoop) -> TokenStream {
        let cx = cx();
        let sp = ir_span(f);
        if f.label.is_some() {
            self.err_at(&f.label, "loop labels are not supported in kernels");
            return quote!();
        }
        let Some(b) = self.binding(&f.pat) else {
            return quote!();
        };
        if b.ty.is_some() {
            self.err_at(
                &f.pat,
                "type annotations on loop variables are not supported",
            );
            return quote!();
        }
        let (range, step) = match peel(&f.expr) {
            Expr::MethodCall(m) if m.method == "step_by" && m.args.len() == 1 => {
                (peel(&m.receiver), Some(&m.args[0]))
            }
            other => (other, None),
        };
        let (start, end) = match range {
            Expr::Range(r) => {
                match (&r.start, &r.end, &r.limits) {
                    (Some(s), Some(e), syn::RangeLimits::HalfOpen(_)) => (&**s, &**e),
                    (_, _, syn::RangeLimits::Closed(_)) => {
                        self.err_at(range, "inclusive ranges (`a..=b`) are not supported in kernels; write `a..b + 1`");
                        return quote!();
                    }
                    _ => {
                        self.err_at(range, "`for` loops need both bounds: `for i in a..b`");
                        return quote!();
                    }
                }
            }
            other => {
                self.err_at(
                    other,
                    "`for` loops are supported over `a..b` and `(a..b).step_by(s)` only",
                );
                return quote!();
            }
        };
        let [s_v, e_v] = self.operands([start, end]);
        let step = step.map(|s| match peel(s) {
            Expr::Cast(c) if matches!(&*c.ty, Type::Path(t) if t.path.is_ident("usize")) => {
                &*c.expr
            }
            other => other,
        });
        let st_v = step.map(|s| self.expr(s));
        let s_v = if step.is_some_and(impure) {
            quote!({ let __v = #s_v; #cx.stable(__v, #sp) })
        } else {
            s_v
        };
        let step_code = match st_v {
            Some(v) => quote!(::core::option::Option::Some({ let __v = #v; #cx.stable(__v, #sp) })),
            None => quote!(::core::option::Option::None),
        };
        let name = b
            .ident
            .map(|i| i.to_string())
            .unwrap_or_else(|| "_i".into());
        let bind = match (b.ident, b.mutable) {
            (None, _) => quote!(),
            (Some(id), false) => quote!(let #id = __var.clone();),
            (Some(id), true) => quote!(
                let #id = { let __r = #cx.read(&__var, #sp); #cx.let_(#name, ::core::option::Option::Some(__r), ::core::option::Option::None, #sp) };
            ),
        };
        let body = self.block_stmts(&f.body);
        quote!({
            let __s = #s_v;
            let __e = { let __v = #e_v; #cx.stable(__v, #sp) };
            let __st = #step_code;
            let __var = #cx.range_var(#name, &__s, &__e, #sp);
            #cx.begin();
            { #bind #body }
            let __b = #cx.end();
            #cx.for_range(&__var, __s, __e, __st, __b, #sp);
        })
    }
}
