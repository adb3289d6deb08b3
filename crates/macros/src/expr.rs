//! Expressions: each Rust expression becomes code that records it and yields a `Val`.

use crate::context::{cx, rt, tmp, Gen};
use crate::intrinsics as intr;
use crate::span::ir_span;
use crate::types::scalar;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::visit::Visit;
use syn::{BinOp, Expr, ExprCall, ExprIf, ExprMethodCall, Lit, UnOp};

/// True when evaluating `e` may emit statements (atomics, shuffles, helper calls, blocks with
/// statements), so that operands evaluated before it must be snapshotted.
pub fn impure(e: &Expr) -> bool {
    struct V(bool);
    impl<'a> Visit<'a> for V {
        fn visit_expr_call(&mut self, c: &'a ExprCall) {
            match call_name(c) {
                Some(n) if intr::is_pure_call(&n) => {}
                _ => self.0 = true,
            }
            syn::visit::visit_expr_call(self, c);
        }
        fn visit_expr_block(&mut self, _: &'a syn::ExprBlock) {
            self.0 = true;
        }
        fn visit_expr_if(&mut self, i: &'a ExprIf) {
            if select_arms(i).is_none() {
                self.0 = true;
            }
            syn::visit::visit_expr_if(self, i);
        }
        fn visit_expr_binary(&mut self, b: &'a syn::ExprBinary) {
            if matches!(b.op, BinOp::And(_) | BinOp::Or(_)) && impure(&b.right) {
                self.0 = true;
            }
            syn::visit::visit_expr_binary(self, b);
        }
    }
    let mut v = V(false);
    v.visit_expr(e);
    v.0
}

/// The name of a call to a single-identifier path (`sqrt(x)`, `helper(a)`).
pub fn call_name(c: &ExprCall) -> Option<String> {
    match &*c.func {
        Expr::Path(p)
            if p.qself.is_none()
                && p.path.leading_colon.is_none()
                && p.path.segments.len() == 1 =>
        {
            Some(p.path.segments[0].ident.to_string())
        }
        _ => None,
    }
}

/// The two arm expressions of `if c { a } else { b }` when both are single pure expressions.
fn select_arms(i: &ExprIf) -> Option<(&Expr, &Expr)> {
    fn single(b: &syn::Block) -> Option<&Expr> {
        match b.stmts.as_slice() {
            [syn::Stmt::Expr(e, None)] if !impure(e) => Some(e),
            _ => None,
        }
    }
    let a = single(&i.then_branch)?;
    let b = match &i.else_branch {
        Some((_, e)) => match &**e {
            Expr::Block(b) if b.label.is_none() => single(&b.block)?,
            e @ Expr::If(inner) => {
                select_arms(inner)?;
                e
            }
            _ => return None,
        },
        None => return None,
    };
    Some((a, b))
}

/// `BinOp` → (IR operator variant, is compound assignment).
pub fn bin_op(op: &BinOp) -> Option<(&'static str, bool)> {
    Some(match op {
        BinOp::Add(_) => ("Add", false),
        BinOp::Sub(_) => ("Sub", false),
        BinOp::Mul(_) => ("Mul", false),
        BinOp::Div(_) => ("Div", false),
        BinOp::Rem(_) => ("Rem", false),
        BinOp::BitAnd(_) => ("BitAnd", false),
        BinOp::BitOr(_) => ("BitOr", false),
        BinOp::BitXor(_) => ("BitXor", false),
        BinOp::Shl(_) => ("Shl", false),
        BinOp::Shr(_) => ("Shr", false),
        BinOp::Eq(_) => ("Eq", false),
        BinOp::Ne(_) => ("Ne", false),
        BinOp::Lt(_) => ("Lt", false),
        BinOp::Le(_) => ("Le", false),
        BinOp::Gt(_) => ("Gt", false),
        BinOp::Ge(_) => ("Ge", false),
        BinOp::AddAssign(_) => ("Add", true),
        BinOp::SubAssign(_) => ("Sub", true),
        BinOp::MulAssign(_) => ("Mul", true),
        BinOp::DivAssign(_) => ("Div", true),
        BinOp::RemAssign(_) => ("Rem", true),
        BinOp::BitAndAssign(_) => ("BitAnd", true),
        BinOp::BitOrAssign(_) => ("BitOr", true),
        BinOp::BitXorAssign(_) => ("BitXor", true),
        BinOp::ShlAssign(_) => ("Shl", true),
        BinOp::ShrAssign(_) => ("Shr", true),
        _ => return None,
    })
}

/// Strips parentheses and invisible groups.
pub fn peel(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => peel(&p.expr),
        Expr::Group(g) => peel(&g.expr),
        _ => e,
    }
}

impl Gen {
    /// Records `e` and yields its value.
    pub fn expr(&mut self, e: &Expr) -> TokenStream {
        self.expr_mode(e, true)
    }

    /// Records `e` whose value is not used (atomics then need no result variable).
    pub fn expr_mode(&mut self, e: &Expr, want: bool) -> TokenStream {
        let cx = cx();
        let rt = rt();
        let sp = ir_span(e);
        match e {
            Expr::Paren(p) => self.expr_mode(&p.expr, want),
            Expr::Group(g) => self.expr_mode(&g.expr, want),
            Expr::Lit(l) => self.lit(&l.lit),
            Expr::Path(p) => {
                if p.qself.is_some() {
                    return self.err_at(e, "qualified paths are not supported in kernels");
                }
                quote!(#rt::read(&(#p), #cx, #sp))
            }
            Expr::Binary(b) => {
                let Some((op, compound)) = bin_op(&b.op) else {
                    return self.logical(b);
                };
                if compound {
                    return self.err_at(e, "compound assignment is a statement, not a value, in kernels");
                }
                let op = format_ident!("{}", op);
                let [l, r] = self.operands([&*b.left, &*b.right]);
                let (a, bb) = (tmp("__a"), tmp("__b"));
                quote!({ let #a = #l; let #bb = #r; #cx.binary(#rt::BinOp::#op, #a, #bb, #sp) })
            }
            Expr::Unary(u) => {
                let op = match u.op {
                    UnOp::Neg(_) => quote!(#rt::RustUnOp::Neg),
                    UnOp::Not(_) => quote!(#rt::RustUnOp::Not),
                    _ => return self.err_at(e, "dereference (`*`) is not supported in kernels"),
                };
                let v = self.expr(&u.expr);
                let a = tmp("__a");
                quote!({ let #a = #v; #cx.unary(#op, #a, #sp) })
            }
            Expr::Cast(c) => {
                let ty = match scalar(&c.ty) {
                    Ok(s) => s.ir(),
                    Err(err) => {
                        self.errors.push(err);
                        return quote!(#cx.unit());
                    }
                };
                let v = self.expr(&c.expr);
                let a = tmp("__a");
                quote!({ let #a = #v; #cx.cast(#a, #ty, #sp) })
            }
            Expr::Index(_) => {
                let Some((base, idx)) = self.place(e) else {
                    return quote!(#cx.unit());
                };
                quote!({ let __idx = #idx; #rt::load(&(#base), #cx, __idx, #sp) })
            }
            Expr::Field(f) => self.field(f),
            Expr::Call(c) => self.call(c, want),
            Expr::MethodCall(m) => self.method(m),
            Expr::If(i) => self.if_value(i),
            Expr::Block(b) => {
                if b.label.is_some() {
                    return self.err_at(e, "labelled blocks are not supported in kernels");
                }
                self.block_value(&b.block)
            }
            Expr::Unsafe(_) => self.err_at(e, "`unsafe` blocks are not supported in kernels"),
            Expr::Closure(_) => self.err_at(e, "closures are not supported in kernels"),
            Expr::Match(_) => self.err_at(e, "`match` is not supported in kernels; use `if`/`else`"),
            Expr::Macro(m) => self.err_at(
                e,
                format!(
                    "macros (`{}!`) are not supported in kernels",
                    m.mac.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default()
                ),
            ),
            Expr::Repeat(_) | Expr::Array(_) => self.err_at(
                e,
                "array expressions are only supported as `let` initialisers of local arrays",
            ),
            Expr::Reference(_) => self.err_at(
                e,
                "references are only supported as `&mut a[i]` in atomics and as buffer arguments of helpers",
            ),
            Expr::Range(_) => self.err_at(e, "ranges are only supported in `for` loops"),
            Expr::Assign(_) => self.err_at(e, "assignment is a statement, not a value, in kernels"),
            Expr::Tuple(t) if t.elems.is_empty() => quote!(#cx.unit()),
            Expr::Tuple(_) => self.err_at(e, "tuples are not supported in kernels"),
            Expr::Struct(_) => self.err_at(e, "struct literals are not supported in kernels"),
            Expr::Let(_) => self.err_at(e, "`if let`/`while let` are not supported in kernels"),
            Expr::Try(_) => self.err_at(e, "`?` is not supported in kernels"),
            Expr::ForLoop(_) | Expr::While(_) | Expr::Loop(_) => {
                self.err_at(e, "loops are statements, not values, in kernels")
            }
            Expr::Return(_) | Expr::Break(_) | Expr::Continue(_) => {
                self.err_at(e, "control flow is only supported as a statement in kernels")
            }
            _ => self.err_at(e, "this expression is not supported in kernels"),
        }
    }

    /// Evaluates operands left to right; an operand followed by an impure one is snapshotted.
    pub fn operands<const N: usize>(&mut self, es: [&Expr; N]) -> [TokenStream; N] {
        let cx = cx();
        let mut out: [TokenStream; N] = std::array::from_fn(|_| TokenStream::new());
        for (k, e) in es.iter().enumerate() {
            let v = self.expr(e);
            let later_impure = es[k + 1..].iter().any(|x| impure(x));
            out[k] = if later_impure {
                let sp = ir_span(e);
                quote!({ let __v = #v; #cx.stable(__v, #sp) })
            } else {
                v
            };
        }
        out
    }

    fn operand_list(&mut self, es: &[&Expr]) -> Vec<TokenStream> {
        let cx = cx();
        es.iter()
            .enumerate()
            .map(|(k, e)| {
                let v = self.expr(e);
                if es[k + 1..].iter().any(|x| impure(x)) {
                    let sp = ir_span(e);
                    quote!({ let __v = #v; #cx.stable(__v, #sp) })
                } else {
                    v
                }
            })
            .collect()
    }

    fn lit(&mut self, l: &Lit) -> TokenStream {
        let cx = cx();
        let rt = rt();
        let sp = ir_span(l);
        match l {
            Lit::Int(i) => {
                let suffix = i.suffix();
                if suffix.is_empty() {
                    match i.base10_parse::<i128>() {
                        Ok(v) => quote!(#cx.lit_int(#v, #sp)),
                        Err(_) => self.err(l.span(), "integer literal out of range"),
                    }
                } else {
                    self.typed_lit(l, suffix, i.base10_digits())
                }
            }
            Lit::Float(f) => {
                let suffix = f.suffix();
                if suffix.is_empty() {
                    match f.base10_parse::<f64>() {
                        Ok(v) => quote!(#cx.lit_float(#v, #sp)),
                        Err(_) => self.err(l.span(), "bad float literal"),
                    }
                } else {
                    self.typed_lit(l, suffix, f.base10_digits())
                }
            }
            Lit::Bool(b) => {
                let v = b.value;
                quote!(#cx.constant(#rt::Value::Bool(#v), #sp))
            }
            _ => self.err(
                l.span(),
                "only integer, float and bool literals are supported in kernels",
            ),
        }
    }

    fn typed_lit(&mut self, l: &Lit, suffix: &str, digits: &str) -> TokenStream {
        let cx = cx();
        let rt = rt();
        let sp = ir_span(l);
        let Some(variant) = crate::types::scalar_variant(suffix) else {
            return self.err(
                l.span(),
                format!("`{suffix}` literals are not supported in kernels"),
            );
        };
        let v = format_ident!("{}", variant);
        let ty = format_ident!("{}", suffix);
        let value: TokenStream = match format!("{digits}{suffix}").parse() {
            Ok(t) => t,
            Err(_) => return self.err(l.span(), "bad literal"),
        };
        let _ = ty;
        quote!(#cx.constant(#rt::Value::#v(#value), #sp))
    }

    fn logical(&mut self, b: &syn::ExprBinary) -> TokenStream {
        let cx = cx();
        let rt = rt();
        let sp = ir_span(b);
        let (op, is_and) = match b.op {
            BinOp::And(_) => (quote!(And), true),
            BinOp::Or(_) => (quote!(Or), false),
            _ => return self.err_at(&b.op, "unsupported operator in kernels"),
        };
        if !impure(&b.right) {
            let [l, r] = self.operands([&*b.left, &*b.right]);
            return quote!({ let __a = #l; let __b = #r; #cx.logical(#rt::LogicOp::#op, __a, __b, #sp) });
        }
        // `a && b` with side effects in `b`: `t = a; if t { t = b }` (`if !t` for `||`).
        let l = self.expr(&b.left);
        let r = self.expr(&b.right);
        let test = if is_and {
            quote!(#cx.read(&__t, #sp))
        } else {
            quote!({ let __r = #cx.read(&__t, #sp); #cx.unary(#rt::RustUnOp::Not, __r, #sp) })
        };
        quote!({
            let __l = #l;
            let __t = #cx.let_("_sc", ::core::option::Option::Some(__l), ::core::option::Option::None, #sp);
            let __c = #test;
            #cx.begin();
            { let __r = #r; #cx.assign(&__t, __r, #sp); }
            let __body = #cx.end();
            #cx.if_(__c, __body, ::std::vec::Vec::new(), #sp);
            #cx.read(&__t, #sp)
        })
    }

    /// `base[i][j]…` → the base expression and code for the index vector.
    pub fn place(&mut self, e: &Expr) -> Option<(TokenStream, TokenStream)> {
        let mut indices = vec![];
        let mut cur = peel(e);
        while let Expr::Index(ix) = cur {
            indices.push(&*ix.index);
            cur = peel(&ix.expr);
        }
        indices.reverse();
        let base = match cur {
            Expr::Path(p) if p.qself.is_none() => quote!(#p),
            other => {
                self.err_at(
                    other,
                    "only named buffers and arrays can be indexed in kernels",
                );
                return None;
            }
        };
        let vals = self.operand_list(&indices);
        Some((base, quote!(::std::vec![#(#vals),*])))
    }

    fn field(&mut self, f: &syn::ExprField) -> TokenStream {
        let cx = cx();
        let rt = rt();
        let sp = ir_span(f);
        let dim = match &f.member {
            syn::Member::Named(n) if n == "x" => quote!(X),
            syn::Member::Named(n) if n == "y" => quote!(Y),
            syn::Member::Named(n) if n == "z" => quote!(Z),
            _ => {
                return self.err_at(
                    &f.member,
                    "only `.x`, `.y` and `.z` of launch builtins are supported",
                )
            }
        };
        if let Expr::Call(c) = peel(&f.base) {
            if let Some(code) = call_name(c).as_deref().and_then(intr::dim_builtin) {
                if !c.args.is_empty() {
                    return self.err_at(&c.args, "launch builtins take no arguments");
                }
                return quote!(#cx.builtin(#rt::Scope::builtin_dim(#code, #rt::Dim::#dim), #sp));
            }
        }
        self.err_at(
            f,
            "field access is only supported on `thread_idx()`, `block_idx()`, `block_dim()` and `grid_dim()`",
        )
    }

    fn args(&mut self, c: &ExprCall, n: usize, name: &str) -> Option<Vec<TokenStream>> {
        if c.args.len() != n {
            self.err_at(c, format!("`{name}` takes {n} argument(s)"));
            return None;
        }
        let es: Vec<&Expr> = c.args.iter().collect();
        Some(self.operand_list(&es))
    }

    fn call(&mut self, c: &ExprCall, want: bool) -> TokenStream {
        let cx = cx();
        let rt = rt();
        let sp = ir_span(c);
        let name = call_name(c);
        let Some(name) = name else {
            return self.helper_call(c);
        };
        let n = name.as_str();
        if intr::dim_builtin(n).is_some() {
            return self.err_at(
                c,
                format!("`{n}()` is a 3-D index: use `{n}().x`, `.y` or `.z`"),
            );
        }
        if let Some(b) = intr::scalar_builtin(n) {
            let b = format_ident!("{}", b);
            if !c.args.is_empty() {
                return self.err_at(&c.args, format!("`{n}` takes no arguments"));
            }
            return quote!(#cx.builtin(#rt::Builtin::#b, #sp));
        }
        if let Some(f) = intr::unary_math(n, true) {
            let f = format_ident!("{}", f);
            let Some(a) = self.args(c, 1, n) else {
                return quote!(#cx.unit());
            };
            return quote!({ let __a = ::std::vec![#(#a),*]; #cx.math(#rt::MathFn::#f, __a, #sp) });
        }
        match n {
            "min" | "max" => {
                let max = n == "max";
                let Some(a) = self.args(c, 2, n) else {
                    return quote!(#cx.unit());
                };
                let (x, y) = (&a[0], &a[1]);
                return quote!({ let __a = #x; let __b = #y; #cx.min_max(#max, __a, __b, #sp) });
            }
            "powf" | "fma" => {
                let (f, k) = if n == "powf" {
                    (quote!(Pow), 2)
                } else {
                    (quote!(Fma), 3)
                };
                let Some(a) = self.args(c, k, n) else {
                    return quote!(#cx.unit());
                };
                return quote!({ let __a = ::std::vec![#(#a),*]; #cx.math(#rt::MathFn::#f, __a, #sp) });
            }
            "sync_threads" => {
                if !c.args.is_empty() {
                    return self.err_at(&c.args, "`sync_threads` takes no arguments");
                }
                return quote!({ #cx.sync_threads(#sp); #cx.unit() });
            }
            "sync_warp" | "requires" | "assert_kernel" => {
                let Some(a) = self.args(c, 1, n) else {
                    return quote!(#cx.unit());
                };
                let a = &a[0];
                let m = format_ident!(
                    "{}",
                    match n {
                        "sync_warp" => "sync_warp",
                        "requires" => "assume",
                        _ => "assert",
                    }
                );
                return quote!({ let __a = #a; #cx.#m(__a, #sp); #cx.unit() });
            }
            _ => {}
        }
        if let Some(k) = intr::shuffle(n) {
            let k = format_ident!("{}", k);
            let Some(a) = self.args(c, 3, n) else {
                return quote!(#cx.unit());
            };
            let (m, v, l) = (&a[0], &a[1], &a[2]);
            return quote!({
                let __m = #m; let __v = #v; let __l = #l;
                #cx.shuffle(#rt::ShuffleKind::#k, __m, __v, __l, #sp)
            });
        }
        if let Some(op) = intr::atomic(n) {
            return self.atomic(c, n, op, want);
        }
        if intr::is_array_ctor(n) {
            return self.err_at(
                c,
                format!("`{n}` declares an array: bind it with `let name = {n}::<…>();`"),
            );
        }
        if n == self.fn_name {
            return self.err_at(c, "recursion is not supported in kernels");
        }
        self.helper_call(c)
    }

    fn atomic(&mut self, c: &ExprCall, n: &str, op: &str, want: bool) -> TokenStream {
        let cx = cx();
        let rt = rt();
        let sp = ir_span(c);
        let arity = if op == "Cas" { 3 } else { 2 };
        if c.args.len() != arity {
            return self.err_at(c, format!("`{n}` takes {arity} arguments"));
        }
        let target = match peel(&c.args[0]) {
            Expr::Reference(r)
                if r.mutability.is_some() && matches!(peel(&r.expr), Expr::Index(_)) =>
            {
                &*r.expr
            }
            other => {
                return self.err_at(
                    other,
                    format!("the first argument of `{n}` must be `&mut a[i]`"),
                )
            }
        };
        let rest: Vec<&Expr> = c.args.iter().skip(1).collect();
        let rest_impure = rest.iter().any(|e| impure(e));
        let Some((base, idx)) = self.place(target) else {
            return quote!(#cx.unit());
        };
        let idx = if rest_impure {
            quote!({ let __i: ::std::vec::Vec<_> = #idx; __i.into_iter().map(|v| #cx.stable(v, #sp)).collect::<::std::vec::Vec<_>>() })
        } else {
            idx
        };
        let vals = self.operand_list(&rest);
        let op = format_ident!("{}", op);
        let value = if vals.len() == 2 {
            let (cmp, v) = (&vals[0], &vals[1]);
            quote!({ let __c = #cmp; let __v = #v; (__v, ::core::option::Option::Some(__c)) })
        } else {
            let v = &vals[0];
            quote!((#v, ::core::option::Option::None))
        };
        quote!({
            let __idx = #idx;
            let (__v, __c) = #value;
            #rt::atomic(#rt::AtomicOp::#op, &(#base), #cx, __idx, __v, __c, #want, #sp)
        })
    }

    fn helper_call(&mut self, c: &ExprCall) -> TokenStream {
        let cx = cx();
        let rt = rt();
        let path = match &*c.func {
            Expr::Path(p) if p.qself.is_none() => &p.path,
            other => {
                return self.err_at(
                    other,
                    "only calls to named functions are supported in kernels",
                )
            }
        };
        if path.segments.iter().any(|s| !s.arguments.is_empty()) {
            return self.err_at(
                path,
                "generic arguments are not supported on kernel helper calls",
            );
        }
        let es: Vec<&Expr> = c.args.iter().collect();
        let mut args = vec![];
        for (k, e) in es.iter().enumerate() {
            let sp = ir_span(e);
            let later_impure = es[k + 1..].iter().any(|x| impure(x));
            let by_name = match peel(e) {
                Expr::Path(p) if p.qself.is_none() => Some(quote!(#p)),
                Expr::Reference(r) => match peel(&r.expr) {
                    Expr::Path(p) if p.qself.is_none() => Some(quote!(#p)),
                    _ => None,
                },
                _ => None,
            };
            let a = match by_name {
                Some(p) => quote!(#rt::helper_arg(&(#p), #cx, #sp)),
                None => {
                    let v = self.expr(e);
                    if later_impure {
                        quote!(#rt::HelperArg::Val({ let __v = #v; #cx.stable(__v, #sp) }))
                    } else {
                        quote!(#rt::HelperArg::Val(#v))
                    }
                }
            };
            args.push(a);
        }
        let names: Vec<_> = (0..args.len()).map(|k| format_ident!("__h{}", k)).collect();
        quote!({ #(let #names = #args;)* #path::expand(#cx, #(#names),*) })
    }

    fn method(&mut self, m: &ExprMethodCall) -> TokenStream {
        let cx = cx();
        let rt = rt();
        let sp = ir_span(m);
        let name = m.method.to_string();
        if m.turbofish.is_some() {
            return self.err_at(m, "generic method calls are not supported in kernels");
        }
        if name == "len" && m.args.is_empty() {
            return match peel(&m.receiver) {
                Expr::Path(p) => quote!(#rt::len(&(#p), #cx, #sp)),
                other => self.err_at(other, "`len()` is supported on named buffers and arrays"),
            };
        }
        let mut es: Vec<&Expr> = vec![&m.receiver];
        es.extend(m.args.iter());
        let check = |g: &mut Gen, k: usize| -> bool {
            if m.args.len() != k {
                g.err_at(m, format!("`{name}` takes {k} argument(s)"));
                false
            } else {
                true
            }
        };
        if let Some(f) = intr::unary_math(&name, false) {
            if !check(self, 0) {
                return quote!(#cx.unit());
            }
            let f = format_ident!("{}", f);
            let a = self.operand_list(&es);
            return quote!({ let __a = ::std::vec![#(#a),*]; #cx.math(#rt::MathFn::#f, __a, #sp) });
        }
        match name.as_str() {
            "min" | "max" => {
                if !check(self, 1) {
                    return quote!(#cx.unit());
                }
                let max = name == "max";
                let a = self.operand_list(&es);
                let (x, y) = (&a[0], &a[1]);
                quote!({ let __a = #x; let __b = #y; #cx.min_max(#max, __a, __b, #sp) })
            }
            "clamp" => {
                if !check(self, 2) {
                    return quote!(#cx.unit());
                }
                let a = self.operand_list(&es);
                let (x, lo, hi) = (&a[0], &a[1], &a[2]);
                quote!({
                    let __x = #x; let __lo = #lo; let __hi = #hi;
                    let __m = #cx.min_max(true, __x, __lo, #sp);
                    #cx.min_max(false, __m, __hi, #sp)
                })
            }
            "powf" | "mul_add" | "atan2" | "hypot" | "copysign" => {
                let (f, k) = match name.as_str() {
                    "powf" => (quote!(Pow), 1),
                    "atan2" => (quote!(Atan2), 1),
                    "hypot" => (quote!(Hypot), 1),
                    "copysign" => (quote!(Copysign), 1),
                    _ => (quote!(Fma), 2),
                };
                if !check(self, k) {
                    return quote!(#cx.unit());
                }
                let a = self.operand_list(&es);
                quote!({ let __a = ::std::vec![#(#a),*]; #cx.math(#rt::MathFn::#f, __a, #sp) })
            }
            _ => self.err_at(
                &m.method,
                format!(
                    "method `{name}` is not in the kernel subset (supported: {})",
                    intr::METHODS
                ),
            ),
        }
    }

    fn if_value(&mut self, i: &ExprIf) -> TokenStream {
        let cx = cx();
        let sp = ir_span(i);
        if let Some((a, b)) = select_arms(i) {
            let [c, x, y] = self.operands([&*i.cond, a, b]);
            return quote!({ let __c = #c; let __x = #x; let __y = #y; #cx.select(__c, __x, __y, #sp) });
        }
        let Some((_, els)) = &i.else_branch else {
            return self.err_at(i, "an `if` used as a value needs an `else`");
        };
        let c = self.expr(&i.cond);
        let then_v = self.block_value(&i.then_branch);
        let else_v = self.expr(els);
        quote!({
            let __t = #cx.let_("_if", ::core::option::Option::None, ::core::option::Option::None, #sp);
            let __c = #c;
            #cx.begin();
            { let __v = #then_v; #cx.assign(&__t, __v, #sp); }
            let __tb = #cx.end();
            #cx.begin();
            { let __v = #else_v; #cx.assign(&__t, __v, #sp); }
            let __eb = #cx.end();
            #cx.if_(__c, __tb, __eb, #sp);
            #cx.read(&__t, #sp)
        })
    }

    /// Records the statements of `b` and yields the value of its tail expression (or unit).
    pub fn block_value(&mut self, b: &syn::Block) -> TokenStream {
        let cx = cx();
        let (init, tail) = match b.stmts.split_last() {
            Some((syn::Stmt::Expr(e, None), init)) => (init, Some(e)),
            _ => (b.stmts.as_slice(), None),
        };
        let stmts: Vec<TokenStream> = init.iter().map(|s| self.stmt(s)).collect();
        let tail = match tail {
            Some(e) if is_statement_like(e) => {
                let s = self.stmt_expr(e);
                quote!({ #s #cx.unit() })
            }
            Some(e) => self.expr(e),
            None => quote!(#cx.unit()),
        };
        quote!({ #(#stmts)* #tail })
    }
}

/// Expressions that are statements even in tail position (`if` without `else`, loops, …).
pub fn is_statement_like(e: &Expr) -> bool {
    match e {
        Expr::If(i) => i.else_branch.is_none(),
        Expr::ForLoop(_)
        | Expr::While(_)
        | Expr::Loop(_)
        | Expr::Assign(_)
        | Expr::Return(_)
        | Expr::Break(_)
        | Expr::Continue(_) => true,
        Expr::Binary(b) => matches!(bin_op(&b.op), Some((_, true))),
        _ => false,
    }
}
