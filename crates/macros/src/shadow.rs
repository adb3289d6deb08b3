//! The type-check copy of a body: kernel code compiled as ordinary Rust against the
//! signatures in `warpsafe::dsl`, so rustc checks types with Rust's own rules (no implicit
//! conversions, literal inference, mutability). The copy differs only where the kernel
//! language is more permissive than Rust: indices of any integer type, `step_by` with a
//! kernel integer, and `len()` as `u64`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{Block, Expr};

struct Rewrite;

impl VisitMut for Rewrite {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        syn::visit_mut::visit_expr_mut(self, e);
        let span = e.span();
        let new: Option<TokenStream> = match e {
            Expr::Index(ix) => {
                let i = &ix.index;
                let isp = i.span();
                let wrapped: Expr = syn::parse_quote_spanned!(isp=> ::warpsafe::dsl::__ix(#i));
                *ix.index = wrapped;
                None
            }
            Expr::MethodCall(m) if m.method == "step_by" && m.args.len() == 1 => {
                let (r, s) = (&m.receiver, &m.args[0]);
                Some(quote_spanned!(span=> ::warpsafe::dsl::__step(#r, #s)))
            }
            Expr::MethodCall(m) if m.method == "len" && m.args.is_empty() => {
                let r = &m.receiver;
                Some(quote_spanned!(span=> ::warpsafe::dsl::__len(&(#r)[..])))
            }
            _ => None,
        };
        if let Some(t) = new {
            if let Ok(x) = syn::parse2::<Expr>(t) {
                *e = x;
            }
        }
    }
}

/// The body rewritten for rustc's check, with the kernel language in scope.
pub fn body(block: &Block) -> TokenStream {
    let mut b = block.clone();
    Rewrite.visit_block_mut(&mut b);
    let stmts = &b.stmts;
    quote!({
        #[allow(unused_imports)]
        use ::warpsafe::dsl::*;
        #(#stmts)*
    })
}
