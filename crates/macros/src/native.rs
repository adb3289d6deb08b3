//! The native copy of a body: kernel code compiled as plain Rust for the native CPU backend
//! (`warpsafe::native`). It is the type-check copy with every access to a buffer parameter
//! rewritten into a call on the buffer handle (writable buffers are shared by all threads, so
//! they are not `&mut [T]` there), and helper calls routed to the helpers' native copies.

use crate::expr::call_name;
use crate::intrinsics as intr;
use crate::signature::Param;
use crate::types::ParamTy;
use proc_macro2::{Ident, Span, TokenStream};
use quote::{quote, quote_spanned};
use std::collections::HashSet;
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{BinOp, Block, Expr, ReturnType};

/// The native copy of a kernel (`helper` false) or `#[kernel_fn]` helper: `pub fn native`
/// with the parameters `ps`, return type `output` and the body rewritten, documented by `doc`.
pub fn function(
    block: &Block,
    ps: &[Param],
    helper: bool,
    output: &ReturnType,
    doc: &str,
) -> TokenStream {
    let buffers: Vec<(&Ident, bool)> = ps
        .iter()
        .filter_map(|p| match &p.ty {
            ParamTy::Slice { writable, .. } => Some((&p.name, *writable)),
            ParamTy::Scalar(_) => None,
        })
        .collect();
    let params: Vec<TokenStream> = ps
        .iter()
        .map(|p| {
            let n = &p.name;
            let t = param_type(&p.ty, helper);
            let m = p.mutable.then(|| quote!(mut));
            quote!(#m #n: #t)
        })
        .collect();
    let body = body(block, &buffers);
    quote! {
        #[doc = #doc]
        #[allow(unused, unreachable_code, unused_mut, clippy::all)]
        #[inline]
        pub fn native(#(#params),*) #output #body
    }
}

/// The parameter types of a native copy: for a kernel, `&[T]` and `GlobalMut<T>`; for a helper,
/// any buffer handle for read-only buffers.
fn param_type(ty: &ParamTy, helper: bool) -> TokenStream {
    match ty {
        ParamTy::Scalar(s) => {
            let t = &s.rust;
            quote!(#t)
        }
        ParamTy::Slice {
            elem,
            writable: true,
        } => {
            let t = &elem.rust;
            quote!(::warpsafe::native::GlobalMut<'_, #t>)
        }
        ParamTy::Slice {
            elem,
            writable: false,
        } => {
            let t = &elem.rust;
            if helper {
                quote!(impl ::warpsafe::native::NativeBuf<#t>)
            } else {
                quote!(&[#t])
            }
        }
    }
}

struct Rewrite {
    /// Every buffer parameter.
    buffers: HashSet<String>,
    /// The writable ones.
    writable: HashSet<String>,
}

fn tmp(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

/// `a[i]` where `a` is one of `names`: the buffer.
fn buffer_of(names: &HashSet<String>, e: &Expr) -> Option<Ident> {
    let Expr::Index(ix) = e else { return None };
    let Expr::Path(p) = &*ix.expr else {
        return None;
    };
    let id = p.path.get_ident()?;
    names.contains(&id.to_string()).then(|| id.clone())
}

/// Whether `e` names one of the buffers `names`.
fn is_buffer(names: &HashSet<String>, e: &Expr) -> bool {
    match e {
        Expr::Path(p) => p
            .path
            .get_ident()
            .is_some_and(|id| names.contains(&id.to_string())),
        Expr::Paren(p) => is_buffer(names, &p.expr),
        _ => false,
    }
}

/// The index expression of `a[i]`.
fn index_of(e: &mut Expr) -> Option<&mut Expr> {
    match e {
        Expr::Index(ix) => Some(&mut ix.index),
        _ => None,
    }
}

/// The operator of a compound assignment, without the `=`.
fn compound_op(op: &BinOp) -> Option<TokenStream> {
    Some(match op {
        BinOp::AddAssign(_) => quote!(+),
        BinOp::SubAssign(_) => quote!(-),
        BinOp::MulAssign(_) => quote!(*),
        BinOp::DivAssign(_) => quote!(/),
        BinOp::RemAssign(_) => quote!(%),
        BinOp::BitXorAssign(_) => quote!(^),
        BinOp::BitAndAssign(_) => quote!(&),
        BinOp::BitOrAssign(_) => quote!(|),
        BinOp::ShlAssign(_) => quote!(<<),
        BinOp::ShrAssign(_) => quote!(>>),
        _ => return None,
    })
}

/// Whether `name` is a function of `warpsafe::dsl` rather than a `#[kernel_fn]` helper.
fn is_dsl_fn(name: &str) -> bool {
    intr::is_pure_call(name)
        || intr::shuffle(name).is_some()
        || intr::atomic(name).is_some()
        || intr::is_array_ctor(name)
        || matches!(
            name,
            "sync_threads" | "sync_warp" | "requires" | "assert_kernel" | "abs"
        )
}

impl Rewrite {
    /// The rewritten form of `e` when it is a buffer access, a method the kernel language
    /// reads differently from Rust, or a helper call; its children are rewritten first.
    fn rewrite(&mut self, e: &mut Expr) -> Option<TokenStream> {
        let span = e.span();
        let ix = quote_spanned!(span=> ::warpsafe::dsl::__ix);
        let (v, i) = (tmp("__v"), tmp("__i"));
        match e {
            Expr::Assign(a) => {
                let buf = buffer_of(&self.writable, &a.left)?;
                self.visit_expr_mut(&mut a.right);
                let index = index_of(&mut a.left)?;
                self.visit_expr_mut(index);
                let rhs = &a.right;
                Some(quote_spanned!(span=> { let #v = #rhs; #buf.store(#ix(#index), #v) }))
            }
            Expr::Binary(b) => {
                let op = compound_op(&b.op)?;
                let buf = buffer_of(&self.writable, &b.left)?;
                self.visit_expr_mut(&mut b.right);
                let index = index_of(&mut b.left)?;
                self.visit_expr_mut(index);
                let rhs = &b.right;
                Some(quote_spanned!(span=> {
                    let #v = #rhs;
                    let #i = #ix(#index);
                    #buf.store(#i, ::warpsafe::native::NativeBuf::get(&#buf, #i) #op #v)
                }))
            }
            Expr::Index(_) => {
                let buf = buffer_of(&self.buffers, e)?;
                let index = index_of(e)?;
                self.visit_expr_mut(index);
                Some(quote_spanned!(span=> ::warpsafe::native::NativeBuf::get(&#buf, #ix(#index))))
            }
            Expr::MethodCall(m) if m.method == "step_by" && m.args.len() == 1 => {
                self.visit_expr_mut(&mut m.receiver);
                self.visit_expr_mut(&mut m.args[0]);
                let (r, s) = (&m.receiver, &m.args[0]);
                Some(quote_spanned!(span=> ::warpsafe::dsl::__step(#r, #s)))
            }
            Expr::MethodCall(m) if m.method == "len" && m.args.is_empty() => {
                self.visit_expr_mut(&mut m.receiver);
                let r = &m.receiver;
                Some(quote_spanned!(span=> ::warpsafe::native::NativeLen::len_u64(&(#r))))
            }
            Expr::Call(c) => {
                if call_name(c).is_some_and(|n| is_dsl_fn(&n)) {
                    return None;
                }
                let Expr::Path(p) = &*c.func else { return None };
                let path = p.path.clone();
                for a in &mut c.args {
                    // `helper(&x)` passes the buffer `x` itself (its handle, natively).
                    if let Expr::Reference(r) = a {
                        if is_buffer(&self.buffers, &r.expr) {
                            *a = (*r.expr).clone();
                        }
                    }
                    self.visit_expr_mut(a);
                }
                let args = &c.args;
                Some(quote_spanned!(span=> #path::native(#args)))
            }
            _ => None,
        }
    }
}

impl VisitMut for Rewrite {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let Some(t) = self.rewrite(e) {
            if let Ok(x) = syn::parse2::<Expr>(t) {
                *e = x;
            }
            return;
        }
        syn::visit_mut::visit_expr_mut(self, e);
        if let Expr::Index(ix) = e {
            let i = &ix.index;
            let isp = i.span();
            let wrapped: Expr = syn::parse_quote_spanned!(isp=> ::warpsafe::dsl::__ix(#i));
            *ix.index = wrapped;
        }
    }
}

/// The body rewritten for native execution; `buffers` names the buffer parameters and whether
/// each is writable.
fn body(block: &Block, buffers: &[(&Ident, bool)]) -> TokenStream {
    let mut b = block.clone();
    let mut r = Rewrite {
        buffers: buffers.iter().map(|(i, _)| i.to_string()).collect(),
        writable: buffers
            .iter()
            .filter(|(_, w)| *w)
            .map(|(i, _)| i.to_string())
            .collect(),
    };
    r.visit_block_mut(&mut b);
    let stmts = &b.stmts;
    quote!({
        #[allow(unused_imports)]
        use ::warpsafe::dsl::*;
        #(#stmts)*
    })
}
