//! The `//@` directives of textures and surfaces, which kernels see as buffers of texels:
//!
//! ```text
//! //@ extent(img) = w, h      texels along x, then y (row-major, no padding); len(img) = w * h
//! //@ extent(lut) = n         a one-dimensional texture or surface of n texels
//! //@ extent(vol) = w, h, d   a volume (x fastest, then y, then z); a layered texture's last
//! //@                         extent is its layers, a cubemap's is 6 (faces of w × h)
//! //@ address(img) = wrap     clamp (the default) | border | wrap (normalized coordinates only)
//! //@ normalized(img)         tex1D/tex2D coordinates are in [0, 1), scaled by the extent
//! ```
//!
//! The header reader ([`crate::header`]) turns `extent` into the buffer's length and checks
//! that the other two name a buffer; the clang frontend reads them all with
//! [`texture_decls`] to write each fetch's addressing.

use crate::ast::{self, BinaryOp, Expr, ExprKind};
use crate::error::{err, Result};
use crate::lexer::{lex, Tok, T};
use crate::preprocess::{self, expand_tokens, Macros};
use warpsafe_ir::{ScalarType, Span};

/// What a fetch does with a coordinate outside the texture (CUDA's `cudaTextureAddressMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Address {
    /// `cudaAddressModeClamp`: the nearest edge texel (CUDA's default).
    #[default]
    Clamp,
    /// `cudaAddressModeBorder`: zero.
    Border,
    /// `cudaAddressModeWrap`: the coordinate modulo the extent (normalized coordinates only).
    Wrap,
}

/// Everything the header says about one texture or surface.
#[derive(Debug, Clone)]
pub struct TextureDecl {
    /// The buffer's name (a kernel parameter or a texture reference).
    pub name: String,
    /// Where the name is written in the first directive about it.
    pub span: Span,
    /// Texels along x, then y, then z or layers (from `extent`, or a `len` when there is no
    /// `extent`).
    pub extents: Vec<Expr>,
    /// The addressing mode, with where it is declared.
    pub address: Option<(Address, Span)>,
    /// True when `tex1D`/`tex2D` coordinates are normalized.
    pub normalized: bool,
}

/// A texture directive, parsed.
#[derive(Debug, Clone)]
pub(crate) enum Parsed {
    /// `extent(t) = e1[, e2[, e3]]`.
    Extent(String, Span, Vec<Expr>),
    /// `address(t) = mode`.
    Address(String, Span, Address),
    /// `normalized(t)`.
    Normalized(String, Span),
}

impl Parsed {
    /// The texture it is about, and where its name is.
    pub(crate) fn name(&self) -> (&str, Span) {
        match self {
            Parsed::Extent(n, s, _) | Parsed::Address(n, s, _) | Parsed::Normalized(n, s) => {
                (n, *s)
            }
        }
    }
}

/// True for the directive words this module reads.
pub(crate) fn is_texture_directive(head: &str) -> bool {
    matches!(head, "extent" | "address" | "normalized")
}

/// Parses the texture directive `toks` (the first is its word) of the line `line`.
pub(crate) fn parse(toks: &[Tok], line: Span, macros: &Macros) -> Result<Parsed> {
    let expect = |i: usize, kind: T, what: &str| -> Result<&Tok> {
        match toks.get(i) {
            Some(t) if t.kind == kind => Ok(t),
            Some(t) => err(t.span, format!("expected {what}, found `{}`", t.text)),
            None => err(line, format!("expected {what}")),
        }
    };
    let head = expect(0, T::Ident, "a directive")?;
    expect(1, T::LParen, "`(`")?;
    let name = expect(2, T::Ident, "a texture or surface name")?;
    expect(3, T::RParen, "`)`")?;
    let (n, s) = (name.text.clone(), name.span);
    match head.text.as_str() {
        "normalized" => match toks.get(4) {
            None => Ok(Parsed::Normalized(n, s)),
            Some(t) => err(t.span, "`normalized(t)` takes nothing after it"),
        },
        "address" => {
            expect(4, T::Assign, "`=`")?;
            let mode = expect(5, T::Ident, "`clamp`, `border` or `wrap`")?;
            let a = match mode.text.as_str() {
                "clamp" => Address::Clamp,
                "border" => Address::Border,
                "wrap" => Address::Wrap,
                "mirror" => {
                    return err(
                        mode.span,
                        "`mirror` addressing is not supported (clamp, border or wrap)",
                    )
                }
                other => {
                    return err(
                        mode.span,
                        format!("unknown addressing mode `{other}` (clamp, border or wrap)"),
                    )
                }
            };
            if let Some(t) = toks.get(6) {
                return err(t.span, "expected the end of the directive");
            }
            Ok(Parsed::Address(n, s, a))
        }
        _ => {
            expect(4, T::Assign, "`=`")?;
            let rest = toks.get(5..).unwrap_or(&[]);
            if rest.is_empty() {
                return err(
                    line,
                    "expected the extents: `extent(t) = width[, height[, depth]]`",
                );
            }
            let expanded = expand_tokens(macros, rest.to_vec())?;
            let e = crate::parser::parse_expr_tokens(expanded, line)?;
            let mut extents = vec![];
            flatten_commas(e, &mut extents);
            if extents.len() > 3 {
                return err(
                    extents[3].span,
                    "textures and surfaces of more than three extents are not supported",
                );
            }
            Ok(Parsed::Extent(n, s, extents))
        }
    }
}

fn flatten_commas(e: Expr, out: &mut Vec<Expr>) {
    match e.kind {
        ExprKind::Comma(a, b) => {
            flatten_commas(*a, out);
            flatten_commas(*b, out);
        }
        kind => out.push(Expr::new(kind, e.span)),
    }
}

/// The buffer length the extents give: their product, in 64 bits.
pub(crate) fn length(extents: &[Expr], span: Span) -> Expr {
    let wide = |e: &Expr| {
        let ty = ast::Type {
            base: Some(ScalarType::U64),
            ptr: false,
            konst: false,
            volatile: false,
            span,
        };
        Expr::new(ExprKind::Cast(ty, Box::new(e.clone())), e.span)
    };
    let mut it = extents.iter();
    let Some(first) = it.next() else {
        return Expr::new(ExprKind::Int(0, ScalarType::U64), span);
    };
    it.fold(wide(first), |acc, e| {
        Expr::new(
            ExprKind::Binary(BinaryOp::Mul, Box::new(acc), Box::new(wide(e))),
            span,
        )
    })
}

/// Every texture the header lines of `source` describe, in order of first mention. Lines
/// that do not parse are left out (the header reader reports them); a `len(t) = n` gives
/// the extent of a texture that has no `extent` line.
pub fn texture_decls(source: &str) -> Vec<TextureDecl> {
    let macros = preprocess::preprocess(&preprocess::defines_only(source))
        .map(|pp| pp.macros)
        .unwrap_or_default();
    let mut decls: Vec<TextureDecl> = vec![];
    let mut lens: Vec<(String, Span, Expr)> = vec![];
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim_start();
        let Some(rest) = trimmed.trim_end().strip_prefix("//@") else {
            continue;
        };
        let base = start + (line.len() - trimmed.len()) + 3;
        let toks: Vec<Tok> = lex(rest, base)
            .into_iter()
            .filter(|t| t.kind != T::Newline)
            .collect();
        let span = Span::new(base, base + rest.len());
        let head = toks.first().map(|t| t.text.as_str()).unwrap_or("");
        if head == "len" {
            if let (Some(name), Some(e)) = (toks.get(2), len_expr(&toks, span, &macros)) {
                lens.push((name.text.clone(), name.span, e));
            }
            continue;
        }
        if !is_texture_directive(head) {
            continue;
        }
        let Ok(parsed) = parse(&toks, span, &macros) else {
            continue;
        };
        let (name, name_span) = parsed.name();
        let i = match decls.iter().position(|d| d.name == name) {
            Some(i) => i,
            None => {
                decls.push(TextureDecl {
                    name: name.to_string(),
                    span: name_span,
                    extents: vec![],
                    address: None,
                    normalized: false,
                });
                decls.len() - 1
            }
        };
        let d = &mut decls[i];
        match parsed {
            Parsed::Extent(_, _, e) => d.extents = e,
            Parsed::Address(_, s, a) => d.address = Some((a, s)),
            Parsed::Normalized(..) => d.normalized = true,
        }
    }
    for (name, span, e) in lens {
        match decls.iter_mut().find(|d| d.name == name) {
            Some(d) if d.extents.is_empty() => d.extents = vec![e],
            Some(_) => {}
            None => decls.push(TextureDecl {
                name,
                span,
                extents: vec![e],
                address: None,
                normalized: false,
            }),
        }
    }
    decls
}

/// The length of `len(x) = e`, when the line is one.
fn len_expr(toks: &[Tok], line: Span, macros: &Macros) -> Option<Expr> {
    let shape = [T::Ident, T::LParen, T::Ident, T::RParen, T::Assign];
    if toks.len() <= shape.len() || toks.iter().zip(shape).any(|(t, k)| t.kind != k) {
        return None;
    }
    let expanded = expand_tokens(macros, toks[5..].to_vec()).ok()?;
    crate::parser::parse_expr_tokens(expanded, line).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_extents_modes_and_lengths() {
        let src = "#define W 64\n//@ extent(img) = W, h\n//@ address(img) = wrap\n\
                   //@ normalized(img)\n//@ len(lut) = n\n//@ extent(s) = 8\n";
        let d = texture_decls(src);
        let img = d.iter().find(|d| d.name == "img").expect("img");
        assert_eq!(img.extents.len(), 2);
        assert!(matches!(img.extents[0].kind, ExprKind::Int(64, _)));
        assert!(matches!(&img.extents[1].kind, ExprKind::Ident(h) if h == "h"));
        assert_eq!(img.address.map(|a| a.0), Some(Address::Wrap));
        assert!(img.normalized);
        let lut = d.iter().find(|d| d.name == "lut").expect("lut");
        assert_eq!(lut.extents.len(), 1);
        assert!(!lut.normalized && lut.address.is_none());
        assert_eq!(
            d.iter().find(|d| d.name == "s").map(|d| d.extents.len()),
            Some(1)
        );
    }

    #[test]
    fn rejects_unknown_modes_and_four_extents() {
        let m = Macros::default();
        let toks = |s: &str| -> Vec<Tok> {
            lex(s, 0)
                .into_iter()
                .filter(|t| t.kind != T::Newline)
                .collect()
        };
        let e = parse(&toks("address(t) = mirror"), Span::DUMMY, &m).unwrap_err();
        assert!(e.message.contains("`mirror`"), "{}", e.message);
        let e = parse(&toks("address(t) = sideways"), Span::DUMMY, &m).unwrap_err();
        assert!(e.message.contains("`sideways`"), "{}", e.message);
        match parse(&toks("extent(t) = a, b, c"), Span::DUMMY, &m) {
            Ok(Parsed::Extent(_, _, e)) => assert_eq!(e.len(), 3),
            other => panic!("{other:?}"),
        }
        let e = parse(&toks("extent(t) = a, b, c, d"), Span::DUMMY, &m).unwrap_err();
        assert!(e.message.contains("three extents"), "{}", e.message);
    }
}
