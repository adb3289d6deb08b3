//! The typed launch functions of a kernel: Rust types in, buffers copied back.

use crate::context::rt;
use crate::types::ParamTy;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// One kernel parameter as the launch function takes it.
pub struct LaunchParam {
    /// Its name.
    pub name: Ident,
    /// Its type.
    pub ty: ParamTy,
}

/// `launch(backend, grid, block, …)` and `launch_with(backend, cfg, …)`.
pub fn launch_fns(kernel: &str, params: &[LaunchParam]) -> TokenStream {
    let rt = rt();
    let backend = Ident::new("backend", Span::mixed_site());
    let grid = Ident::new("grid", Span::mixed_site());
    let block = Ident::new("block", Span::mixed_site());
    let cfg = Ident::new("cfg", Span::mixed_site());
    let names: Vec<&Ident> = params.iter().map(|p| &p.name).collect();
    let sig: Vec<TokenStream> = params
        .iter()
        .map(|p| {
            let n = &p.name;
            match &p.ty {
                ParamTy::Scalar(s) => {
                    let t = &s.rust;
                    quote!(#n: #t)
                }
                ParamTy::Slice {
                    elem,
                    writable: false,
                } => {
                    let t = &elem.rust;
                    quote!(#n: &[#t])
                }
                ParamTy::Slice {
                    elem,
                    writable: true,
                } => {
                    let t = &elem.rust;
                    quote!(#n: &mut [#t])
                }
            }
        })
        .collect();
    let args: Vec<TokenStream> = params
        .iter()
        .map(|p| {
            let n = &p.name;
            match &p.ty {
                ParamTy::Scalar(_) => quote!(#rt::scalar_arg(#n)),
                ParamTy::Slice { .. } => quote!(#rt::slice_arg(&*#n)),
            }
        })
        .collect();
    let copy_back: Vec<TokenStream> = params
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p.ty, ParamTy::Slice { writable: true, .. }))
        .map(|(i, p)| {
            let n = &p.name;
            quote!(#rt::copy_back(&__out.args, #i, #n)?;)
        })
        .collect();
    let writable: Vec<&Ident> = params
        .iter()
        .filter(|p| matches!(p.ty, ParamTy::Slice { writable: true, .. }))
        .map(|p| &p.name)
        .collect();
    let doc = format!(
        "Launches `{kernel}` on `backend` with `grid` blocks of `block` threads; `&mut` buffers \
         receive what the kernel wrote. Error findings of the CPU checks are \
         `Err(LaunchError::Findings)` (buffers are copied back first)."
    );
    let doc_with = format!(
        "Launches `{kernel}` with a full launch configuration (for dynamic shared memory); \
         otherwise as `launch`."
    );
    quote! {
        #[doc = #doc]
        #[allow(clippy::too_many_arguments)]
        pub fn launch(
            #backend: &::warpsafe::Backend,
            #grid: impl ::core::convert::Into<::warpsafe::Dim3>,
            #block: impl ::core::convert::Into<::warpsafe::Dim3>,
            #(#sig),*
        ) -> ::core::result::Result<::warpsafe::Report, ::warpsafe::LaunchError> {
            let #cfg = #rt::config(#grid, #block);
            launch_with(#backend, &#cfg, #(#names),*)
        }

        #[doc = #doc_with]
        #[allow(clippy::too_many_arguments)]
        pub fn launch_with(
            #backend: &::warpsafe::Backend,
            #cfg: &::warpsafe::exec::LaunchConfig,
            #(#sig),*
        ) -> ::core::result::Result<::warpsafe::Report, ::warpsafe::LaunchError> {
            let __kernel = try_ir()?;
            if #backend.is_native() && ::warpsafe::native::native_support(__kernel).is_none() {
                #(let #writable = ::warpsafe::native::GlobalMut::new(&mut *#writable);)*
                return ::warpsafe::native::run(__kernel, #cfg, &|| native(#(#names),*));
            }
            let __args = ::std::vec![#(#args),*];
            let __out = #backend.launch_kernel(__kernel, #cfg, __args)?;
            #(#copy_back)*
            __out.report.into_result()
        }
    }
}
