//! `#[perm(...)]`: fractional-permission annotations on a kernel (checked by `warpsafe-perm`).
//!
//! They are taken off the function and its statements before anything else reads the body, so
//! the IR, the type-check copy and the native copy are those of the unannotated kernel, and the
//! spans of the annotated statements start at the statements themselves (which is how the
//! checker attaches a `barrier ensures` to the first barrier after it).

use crate::expr::call_name;
use crate::span::lit_text_offset;
use proc_macro2::TokenStream;
use quote::quote;
use syn::punctuated::Punctuated;
use syn::visit_mut::VisitMut;
use syn::{Attribute, Error, Expr, ItemFn, Lit, Meta, MetaNameValue, Stmt, Token};

/// What an annotation may be written on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Anchor {
    /// The kernel function (after `#[kernel]`).
    Kernel,
    /// A `sync_threads();` statement.
    Barrier,
    /// A `for`, `while` or `loop` statement.
    Loop,
    /// Anything else.
    Other,
}

/// The attribute keys, the checker's keywords for them, and where they go.
const KEYS: [(&str, &str, Anchor); 7] = [
    ("kernel_requires", "kernel requires", Anchor::Kernel),
    ("kernel_ensures", "kernel ensures", Anchor::Kernel),
    ("thread_requires", "thread requires", Anchor::Kernel),
    ("thread_ensures", "thread ensures", Anchor::Kernel),
    ("barrier_requires", "barrier requires", Anchor::Barrier),
    ("barrier_ensures", "barrier ensures", Anchor::Barrier),
    ("invariant", "invariant", Anchor::Loop),
];

/// One annotation: the checker's keywords, the formula, and the byte offset of the formula
/// text in the kernel's source file.
pub struct Annotation {
    keywords: &'static str,
    formula: String,
    offset: usize,
}

/// Removes every `#[perm(...)]` from `f` (the function's own and those in its body) and
/// returns them in source order, kernel-level ones first; misplaced or malformed ones are
/// errors in `errors`.
pub fn strip(f: &mut ItemFn, errors: &mut Vec<Error>) -> Vec<Annotation> {
    let mut s = Strip {
        found: vec![],
        errors,
    };
    let attrs = std::mem::take(&mut f.attrs);
    for a in attrs {
        if is_perm(&a) {
            s.take(&a, Anchor::Kernel);
        } else {
            f.attrs.push(a);
        }
    }
    s.visit_block_mut(&mut f.block);
    s.found
}

/// Removes every `#[perm(...)]` from a `#[kernel_fn]` helper, each one an error (helpers are
/// inlined into kernels, which carry the annotations).
pub fn reject(f: &mut ItemFn, errors: &mut Vec<Error>) {
    let mut found = Reject(f.attrs.iter().filter(|a| is_perm(a)).cloned().collect());
    f.attrs.retain(|a| !is_perm(a));
    found.visit_block_mut(&mut f.block);
    errors.extend(found.0.iter().map(|a| {
        Error::new_spanned(
            a,
            "permission annotations are not supported in `#[kernel_fn]` helpers; annotate the \
             kernel that calls the helper",
        )
    }));
}

/// The body of the generated `permissions()`.
pub fn table(annotations: &[Annotation]) -> TokenStream {
    let rows = annotations.iter().map(|a| {
        let (k, f, o) = (a.keywords, &a.formula, a.offset);
        quote!((#k, #f, #o))
    });
    quote!(&[#(#rows),*])
}

fn is_perm(a: &Attribute) -> bool {
    a.path().is_ident("perm")
}

/// Where each key belongs, in words.
fn placement(anchor: Anchor) -> &'static str {
    match anchor {
        Anchor::Kernel => "on the kernel function, written after `#[kernel]`",
        Anchor::Barrier => "on a `sync_threads();` statement",
        Anchor::Loop | Anchor::Other => "on a `for`, `while` or `loop` statement",
    }
}

/// The anchor a statement offers: barriers and loops; everything else is `Other`.
fn anchor_of(e: &Expr) -> Anchor {
    match e {
        Expr::Call(c) if call_name(c).as_deref() == Some("sync_threads") => Anchor::Barrier,
        Expr::ForLoop(_) | Expr::While(_) | Expr::Loop(_) => Anchor::Loop,
        _ => Anchor::Other,
    }
}

/// The attributes of the statement expressions that can carry annotations.
fn anchor_attrs(e: &mut Expr) -> Option<&mut Vec<Attribute>> {
    match e {
        Expr::Call(c) => Some(&mut c.attrs),
        Expr::ForLoop(f) => Some(&mut f.attrs),
        Expr::While(w) => Some(&mut w.attrs),
        Expr::Loop(l) => Some(&mut l.attrs),
        _ => None,
    }
}

struct Strip<'a> {
    found: Vec<Annotation>,
    errors: &'a mut Vec<Error>,
}

impl Strip<'_> {
    /// Records the annotations of `attr`, written on `anchor`.
    fn take(&mut self, attr: &Attribute, anchor: Anchor) {
        let usage =
            "write `#[perm(key = \"formula\")]`, with one or more `key = \"formula\"` pairs";
        if !matches!(attr.meta, Meta::List(_)) {
            self.errors.push(Error::new_spanned(attr, usage));
            return;
        }
        let pairs =
            match attr.parse_args_with(Punctuated::<MetaNameValue, Token![,]>::parse_terminated) {
                Ok(p) if p.is_empty() => {
                    self.errors.push(Error::new_spanned(attr, usage));
                    return;
                }
                Ok(p) => p,
                Err(e) => {
                    self.errors
                        .push(Error::new(e.span(), format!("{e}: {usage}")));
                    return;
                }
            };
        for pair in pairs {
            let name = pair.path.get_ident().map(|i| i.to_string());
            let Some(&(key, keywords, home)) =
                KEYS.iter().find(|(k, _, _)| name.as_deref() == Some(*k))
            else {
                let keys: Vec<&str> = KEYS.iter().map(|(k, _, _)| *k).collect();
                let path = &pair.path;
                self.errors.push(Error::new_spanned(
                    path,
                    format!(
                        "unknown permission annotation `{}`; expected one of: {}",
                        quote!(#path).to_string().replace(' ', ""),
                        keys.join(", ")
                    ),
                ));
                continue;
            };
            let lit = match &pair.value {
                Expr::Lit(l) => match &l.lit {
                    Lit::Str(s) => Some(s),
                    _ => None,
                },
                _ => None,
            };
            let Some(lit) = lit else {
                self.errors.push(Error::new_spanned(
                    &pair.value,
                    format!("the formula is a string literal: `{key} = \"Perm(a[tid], 1)\"`"),
                ));
                continue;
            };
            if home != anchor {
                self.errors.push(Error::new_spanned(
                    attr,
                    format!("`{key}` belongs {}", placement(home)),
                ));
                continue;
            }
            let formula = lit.value();
            let token = lit.token().to_string();
            let written = token
                .find('"')
                .zip(token.rfind('"'))
                .and_then(|(a, b)| token.get(a + 1..b));
            if written != Some(formula.as_str()) {
                self.errors.push(Error::new_spanned(
                    lit,
                    "write the formula without escape sequences, so that its spans point into \
                     the file",
                ));
                continue;
            }
            self.found.push(Annotation {
                keywords,
                formula,
                offset: lit_text_offset(lit),
            });
        }
    }
}

impl VisitMut for Strip<'_> {
    fn visit_stmt_mut(&mut self, s: &mut Stmt) {
        if let Stmt::Expr(e, _) = s {
            let anchor = anchor_of(e);
            if let Some(attrs) = anchor_attrs(e) {
                let all = std::mem::take(attrs);
                for a in all {
                    if is_perm(&a) {
                        self.take(&a, anchor);
                    } else {
                        attrs.push(a);
                    }
                }
            }
        }
        syn::visit_mut::visit_stmt_mut(self, s);
    }

    fn visit_attribute_mut(&mut self, a: &mut Attribute) {
        // Annotations left here are on statements or expressions that cannot carry them.
        if is_perm(a) {
            self.take(a, Anchor::Other);
        }
    }
}

/// Collects every `#[perm]` in a helper body (they are all errors).
struct Reject(Vec<Attribute>);

impl VisitMut for Reject {
    fn visit_attribute_mut(&mut self, a: &mut Attribute) {
        if is_perm(a) {
            self.0.push(a.clone());
        }
    }
}
