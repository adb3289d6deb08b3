//! `#[kernel]`: a function becomes a module with `ir()`, `try_ir()`, `launch` and `launch_with`.

use crate::context::{cx, rt, Gen};
use crate::launch::{launch_fns, LaunchParam};
use crate::signature::params;
use crate::span::ir_span;
use crate::types::ParamTy;
use proc_macro2::TokenStream;
use quote::quote;
use syn::{Error, ItemFn, ReturnType};

/// Expands `#[kernel]` on `item`.
pub fn expand(attr: TokenStream, item: TokenStream) -> Result<TokenStream, Error> {
    if !attr.is_empty() {
        return Err(Error::new_spanned(attr, "`#[kernel]` takes no arguments"));
    }
    let mut f: ItemFn = syn::parse2(item)?;
    let mut gen = Gen::new(f.sig.ident.to_string(), false);
    let annotations = crate::perm::strip(&mut f, &mut gen.errors);
    let name = &f.sig.ident;
    let name_str = name.to_string();
    let ps = params(&f.sig, &mut gen.errors);
    if let ReturnType::Type(_, t) = &f.sig.output {
        gen.errors.push(Error::new_spanned(
            t,
            "kernels return nothing; write results to a `&mut [T]` buffer",
        ));
    }
    let body = gen.block_stmts(&f.block);
    if let Some(e) = gen.into_error() {
        return Err(e);
    }
    let cx = cx();
    let rt = rt();
    let bindings: Vec<TokenStream> = ps
        .iter()
        .map(|p| {
            let n = &p.name;
            let ns = n.to_string();
            let sp = ir_span(n);
            let bind = match &p.ty {
                ParamTy::Scalar(s) => {
                    let t = s.ir();
                    quote!(let #n = #cx.scalar_param(#ns, #t, #sp);)
                }
                ParamTy::Slice { elem, writable } => {
                    let t = elem.ir();
                    quote!(let #n = #cx.buffer_param(#ns, #t, #writable, #sp);)
                }
            };
            if p.mutable && matches!(p.ty, ParamTy::Scalar(_)) {
                quote!(#bind let #n = #cx.let_(#ns, ::core::option::Option::Some(#n), ::core::option::Option::None, #sp);)
            } else {
                bind
            }
        })
        .collect();
    let launch_params: Vec<LaunchParam> = ps
        .iter()
        .map(|p| LaunchParam {
            name: p.name.clone(),
            ty: p.ty.clone(),
        })
        .collect();
    let launch = launch_fns(&name_str, &launch_params);
    let shadow_body = crate::shadow::body(&f.block);
    let native = crate::native::function(
        &f.block,
        &ps,
        false,
        &ReturnType::Default,
        "One thread's run of the kernel, as plain Rust (what `Backend::native()` calls for \
         every thread; the launch builtins read the running thread's indices).",
    );
    let inputs = &f.sig.inputs;
    let vis = &f.vis;
    let docs = f.attrs.iter().filter(|a| a.path().is_ident("doc"));
    let kspan = ir_span(&f.sig.ident);
    let permissions = crate::perm::table(&annotations);
    let ir_doc = format!(
        "The IR of `{name_str}`, built on first use (panics if it cannot be built; see `try_ir`)."
    );
    let try_doc = format!("The IR of `{name_str}`, built on first use and cached.");
    Ok(quote! {
        #(#docs)*
        #[allow(non_snake_case, clippy::all, unused_braces)]
        #vis mod #name {
            #[allow(unused_imports)]
            use super::*;

            #[allow(unused, unreachable_code, clippy::all)]
            fn __type_check(#inputs) #shadow_body

            #native

            #[allow(unused, unused_braces, clippy::all)]
            fn __record(#cx: &mut #rt::Scope) {
                #(#bindings)*
                #body
            }

            static __IR: ::std::sync::OnceLock<
                ::core::result::Result<::warpsafe::ir::Kernel, ::warpsafe::BuildError>,
            > = ::std::sync::OnceLock::new();

            #[doc = #try_doc]
            pub fn try_ir() -> ::core::result::Result<&'static ::warpsafe::ir::Kernel, ::warpsafe::BuildError> {
                __IR.get_or_init(|| #rt::build_kernel(#name_str, #kspan, __record))
                    .as_ref()
                    .map_err(::core::clone::Clone::clone)
            }

            #[doc = #ir_doc]
            pub fn ir() -> &'static ::warpsafe::ir::Kernel {
                match try_ir() {
                    ::core::result::Result::Ok(k) => k,
                    ::core::result::Result::Err(e) => ::core::panic!("{}", e),
                }
            }

            /// The Rust source file the kernel is written in.
            pub fn source_file() -> &'static str {
                ::core::file!()
            }

            /// The kernel's `#[perm(...)]` permission annotations, in source order: the
            /// checker's keywords (`"barrier ensures"`, …), the formula, and the byte offset of
            /// the formula text in `source_file()` (the measure of the IR's spans), as
            /// `warpsafe_perm::check_attributes` takes them.
            pub fn permissions() -> &'static [(&'static str, &'static str, usize)] {
                #permissions
            }

            #launch
        }
    })
}
