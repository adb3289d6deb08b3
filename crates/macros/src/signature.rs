//! The signature of a `#[kernel]` or `#[kernel_fn]`: checks and parameter list.

use crate::types::{param, ParamTy};
use proc_macro2::Ident;
use syn::spanned::Spanned;
use syn::{Error, FnArg, Pat, Signature};

/// A parameter: name, `mut`, type.
pub struct Param {
    /// The name.
    pub name: Ident,
    /// Declared `mut`.
    pub mutable: bool,
    /// Its type.
    pub ty: ParamTy,
}

/// Checks what a kernel-language function signature may not have and parses its parameters.
pub fn params(sig: &Signature, errors: &mut Vec<Error>) -> Vec<Param> {
    if let Some(c) = &sig.constness {
        errors.push(Error::new(c.span(), "kernels cannot be `const`"));
    }
    if let Some(a) = &sig.asyncness {
        errors.push(Error::new(a.span(), "kernels cannot be `async`"));
    }
    if let Some(u) = &sig.unsafety {
        errors.push(Error::new(u.span(), "kernels cannot be `unsafe`"));
    }
    if let Some(a) = &sig.abi {
        errors.push(Error::new(a.span(), "kernels cannot declare an ABI"));
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.push(Error::new_spanned(
            &sig.generics,
            "generic kernels are not supported; use constants (`const N: u32 = …;`) instead",
        ));
    }
    if let Some(v) = &sig.variadic {
        errors.push(Error::new(v.span(), "variadic kernels are not supported"));
    }
    let mut out = vec![];
    for arg in &sig.inputs {
        match arg {
            FnArg::Receiver(r) => errors.push(Error::new(r.span(), "kernels cannot take `self`")),
            FnArg::Typed(t) => {
                let (name, mutable) = match &*t.pat {
                    Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => {
                        (p.ident.clone(), p.mutability.is_some())
                    }
                    other => {
                        errors.push(Error::new_spanned(
                            other,
                            "kernel parameters must be plain names",
                        ));
                        continue;
                    }
                };
                match param(&t.ty) {
                    Ok(ty) => out.push(Param { name, mutable, ty }),
                    Err(e) => errors.push(e),
                }
            }
        }
    }
    out
}
