//! The code generator's state: errors collected so far and what is being translated.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use syn::Error;

/// Translates a kernel or helper body into recording code; see `expr.rs` and `stmt.rs`.
pub struct Gen {
    /// Every unsupported construct found (all are reported, not just the first).
    pub errors: Vec<Error>,
    /// True inside a `#[kernel_fn]` (where `return` is not supported).
    pub in_helper: bool,
    /// The name of the function being translated (to reject direct recursion).
    pub fn_name: String,
}

impl Gen {
    /// A generator for the function `fn_name`.
    pub fn new(fn_name: String, in_helper: bool) -> Gen {
        Gen {
            errors: vec![],
            in_helper,
            fn_name,
        }
    }

    /// Records an error at `span` and returns a placeholder value expression.
    pub fn err(&mut self, span: Span, msg: impl std::fmt::Display) -> TokenStream {
        self.errors.push(Error::new(span, msg));
        let cx = cx();
        quote!(#cx.unit())
    }

    /// Records an error spanning `node`.
    pub fn err_at<T: quote::ToTokens>(
        &mut self,
        node: &T,
        msg: impl std::fmt::Display,
    ) -> TokenStream {
        self.errors.push(Error::new_spanned(node, msg));
        let cx = cx();
        quote!(#cx.unit())
    }

    /// All errors combined, if any.
    pub fn into_error(self) -> Option<Error> {
        let mut it = self.errors.into_iter();
        let mut first = it.next()?;
        for e in it {
            first.combine(e);
        }
        Some(first)
    }
}

/// The recording context variable of generated code (hygienic: user code cannot name it).
pub fn cx() -> Ident {
    Ident::new("__cx", Span::mixed_site())
}

/// A hygienic temporary named `name`.
pub fn tmp(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

/// The path of the runtime support module.
pub fn rt() -> TokenStream {
    quote!(::warpsafe::__private)
}
