//! The Rust types a kernel signature may use, and their IR scalar types.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::{Error, Type};

/// A scalar type name: `bool`, `i32`, `u32`, `i64`, `u64`, `f32`, `f64`.
#[derive(Clone)]
pub struct Scalar {
    /// The IR variant name (`F32`, …).
    pub variant: &'static str,
    /// The Rust type as written.
    pub rust: Type,
}

impl Scalar {
    /// `::warpsafe::__private::ScalarType::F32`.
    pub fn ir(&self) -> TokenStream {
        let v = format_ident!("{}", self.variant);
        quote!(::warpsafe::__private::ScalarType::#v)
    }
}

/// What a kernel or helper parameter is.
#[derive(Clone)]
pub enum ParamTy {
    /// Passed by value.
    Scalar(Scalar),
    /// `&[T]` (read-only) or `&mut [T]`.
    Slice {
        /// Element type.
        elem: Scalar,
        /// `&mut`.
        writable: bool,
    },
}

/// The IR variant of a scalar type name, if it is one.
pub fn scalar_variant(name: &str) -> Option<&'static str> {
    Some(match name {
        "bool" => "Bool",
        "i32" => "I32",
        "u32" => "U32",
        "i64" => "I64",
        "u64" => "U64",
        "f32" => "F32",
        "f64" => "F64",
        _ => return None,
    })
}

const SCALARS: &str = "bool, i32, u32, i64, u64, f32 or f64";

/// Parses a scalar type, or explains what is supported.
pub fn scalar(ty: &Type) -> Result<Scalar, Error> {
    if let Type::Path(p) = ty {
        if p.qself.is_none() {
            if let Some(id) = p.path.get_ident() {
                if let Some(v) = scalar_variant(&id.to_string()) {
                    return Ok(Scalar {
                        variant: v,
                        rust: ty.clone(),
                    });
                }
                if matches!(
                    id.to_string().as_str(),
                    "usize" | "isize" | "i8" | "u8" | "i16" | "u16"
                ) {
                    return Err(Error::new_spanned(
                        ty,
                        format!("`{id}` is not a kernel type; kernel scalars are {SCALARS}"),
                    ));
                }
            }
        }
    }
    if let Type::Group(g) = ty {
        return scalar(&g.elem);
    }
    Err(Error::new_spanned(
        ty,
        format!("unsupported type in a kernel: expected {SCALARS}"),
    ))
}

/// Parses a parameter type: a scalar, `&[T]` or `&mut [T]`.
pub fn param(ty: &Type) -> Result<ParamTy, Error> {
    match ty {
        Type::Reference(r) => {
            if r.lifetime.is_some() {
                return Err(Error::new(r.lifetime.span(), "lifetimes are not supported on kernel parameters"));
            }
            match &*r.elem {
                Type::Slice(s) => Ok(ParamTy::Slice {
                    elem: scalar(&s.elem)?,
                    writable: r.mutability.is_some(),
                }),
                other if r.mutability.is_some() && scalar(other).is_ok() => Err(Error::new_spanned(
                    ty,
                    "`&mut` of a scalar is not a kernel parameter: scalars are passed by value; \
                     to return values, write them to a `&mut [T]` buffer",
                )),
                _ => Err(Error::new_spanned(
                    ty,
                    format!("unsupported parameter type: expected a scalar ({SCALARS}), `&[T]` or `&mut [T]`"),
                )),
            }
        }
        _ => scalar(ty)
            .map(ParamTy::Scalar)
            .map_err(|_| {
                Error::new_spanned(
                    ty,
                    format!("unsupported parameter type: expected a scalar ({SCALARS}), `&[T]` or `&mut [T]`"),
                )
            }),
    }
}
