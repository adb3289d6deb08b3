//! The header: `//--blockDim=… --gridDim=…` lines and `//@` directives, turned into each
//! kernel's [`Contract`](warpsafe_ir::Contract).
//!
//! A directive applies to every kernel that has all the parameters it names; naming a
//! parameter no kernel has is an error.

use crate::ast::{self, ExprKind};
use crate::error::{err, FrontError, Result};
use crate::lexer::{error_token, lex, Tok, T};
use crate::lower::{Binding, Lowerer, Val};
use crate::preprocess::{expand_tokens, Macros};
use crate::types::{convert, to_bool};
use std::collections::HashMap;
use warpsafe_ir::{Category, Kernel, LengthSpec, ParamKind, ScalarType, Span};

/// One `//@` directive, parsed but not yet resolved against kernels.
#[derive(Debug, Clone)]
enum Directive {
    Arg(String, Span, ast::Expr),
    Len(String, Span, ast::Expr),
    Requires(ast::Expr),
    SharedBytes(ast::Expr),
    Deny(Category),
    Expect(Category),
    /// `address(t) = …` or `normalized(t)`: read by the clang frontend's texture fetches;
    /// here only checked to name a buffer.
    Texture(String, Span),
    /// `init(buf) = value`: the buffer's initial contents.
    Init(crate::header_init::InitLine),
}

/// Fills the contracts of `kernels` from the header lines of `source`.
pub fn apply_header(
    source: &str,
    macros: &Macros,
    globals: &HashMap<String, Binding>,
    kernels: &mut [Kernel],
) -> Result<(), Vec<FrontError>> {
    let mut errors = Vec::new();
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim_start();
        let at = start + (line.len() - trimmed.len());
        let trimmed = trimmed.trim_end();
        let r = if let Some((flags, skip)) = flag_line(trimmed) {
            launch_flags(flags, at + skip, kernels)
        } else if let Some(rest) = trimmed.strip_prefix("//@") {
            if is_permission_annotation(rest) {
                Ok(())
            } else {
                directive(rest, at + 3, macros).and_then(|d| apply(d, globals, kernels))
            }
        } else {
            Ok(())
        };
        if let Err(e) = r {
            errors.push(e);
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// `//@ kernel …`, `//@ thread …`, `//@ barrier …`, `//@ invariant …`: permission
/// annotations, which `warpsafe check-perm` (the `warpsafe-perm` crate) reads; every other
/// tool compiles the kernel without them.
fn is_permission_annotation(text: &str) -> bool {
    let lead = text.split_whitespace().next().unwrap_or("");
    ["kernel", "thread", "barrier", "invariant"].contains(&lead)
}

/// The flags of a line `//--blockDim=64 …` (or `// --blockDim=64 …`, as one of GPUVerify's
/// own benchmarks writes it), and how many bytes precede them.
fn flag_line(line: &str) -> Option<(&str, usize)> {
    let rest = line.strip_prefix("//")?;
    let gap = rest.len() - rest.trim_start().len();
    let flags = rest[gap..].strip_prefix("--")?;
    Some((flags, 2 + gap + 2))
}

/// `--blockDim=[16,16] --gridDim=64 --other-flags` (GPUVerify's form).
fn launch_flags(text: &str, base: usize, kernels: &mut [Kernel]) -> Result<()> {
    let full = format!("--{text}");
    let base = base - 2;
    for (name, is_block) in [("--blockDim=", true), ("--gridDim=", false)] {
        let Some(pos) = full.find(name) else { continue };
        let vstart = pos + name.len();
        let rest = &full[vstart..];
        let (value, len) = if let Some(inner) = rest.strip_prefix('[') {
            match inner.find(']') {
                Some(end) => (&inner[..end], end + 2),
                None => return err(Span::new(base + pos, base + full.len()), "missing `]`"),
            }
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            (&rest[..end], end)
        };
        let span = Span::new(base + pos, base + vstart + len);
        let parts: Vec<&str> = value.split(',').map(str::trim).collect();
        if parts.is_empty() || parts.len() > 3 {
            return err(span, "a launch dimension has 1 to 3 components");
        }
        let mut dims = [1u32; 3];
        for (d, p) in dims.iter_mut().zip(&parts) {
            match p.parse::<u32>() {
                Ok(v) if v > 0 => *d = v,
                _ => return err(span, format!("`{p}` is not a positive launch dimension")),
            }
        }
        for k in kernels.iter_mut() {
            if is_block {
                k.contract.block_dim = Some(dims);
            } else {
                k.contract.grid_dim = Some(dims);
            }
        }
    }
    Ok(())
}

fn expr_from(toks: &[Tok], macros: &Macros, span: Span) -> Result<ast::Expr> {
    if toks.is_empty() {
        return err(span, "expected an expression");
    }
    let expanded = expand_tokens(macros, toks.to_vec())?;
    crate::parser::parse_expr_tokens(expanded, span)
}

fn directive(text: &str, base: usize, macros: &Macros) -> Result<Directive> {
    let toks: Vec<Tok> = lex(text, base)
        .into_iter()
        .filter(|t| t.kind != T::Newline)
        .collect();
    let line = Span::new(base, base + text.len());
    let Some(head) = toks.first() else {
        return err(line, "empty `//@` directive");
    };
    if let Some(bad) = toks.iter().find(|t| t.kind == T::Error) {
        return Err(error_token(bad));
    }
    let expect = |i: usize, kind: T, what: &str| -> Result<&Tok> {
        match toks.get(i) {
            Some(t) if t.kind == kind => Ok(t),
            Some(t) => err(t.span, format!("expected {what}, found `{}`", t.text)),
            None => err(line, format!("expected {what}")),
        }
    };
    let rest = |i: usize| toks.get(i..).unwrap_or(&[]);
    match head.text.as_str() {
        word if crate::texture_decl::is_texture_directive(word) => {
            Ok(match crate::texture_decl::parse(&toks, line, macros)? {
                crate::texture_decl::Parsed::Extent(name, span, extents) => {
                    Directive::Len(name, span, crate::texture_decl::length(&extents, line))
                }
                other => {
                    let (name, span) = other.name();
                    Directive::Texture(name.to_string(), span)
                }
            })
        }
        "arg" => {
            let name = expect(1, T::Ident, "a parameter name")?;
            expect(2, T::Assign, "`=`")?;
            Ok(Directive::Arg(
                name.text.clone(),
                name.span,
                expr_from(rest(3), macros, line)?,
            ))
        }
        "len" => {
            expect(1, T::LParen, "`(`")?;
            let name = expect(2, T::Ident, "a buffer name")?;
            expect(3, T::RParen, "`)`")?;
            expect(4, T::Assign, "`=`")?;
            Ok(Directive::Len(
                name.text.clone(),
                name.span,
                expr_from(rest(5), macros, line)?,
            ))
        }
        "init" => {
            expect(1, T::LParen, "`(`")?;
            let name = expect(2, T::Ident, "a buffer name")?;
            expect(3, T::RParen, "`)`")?;
            expect(4, T::Assign, "`=`")?;
            let value = text.split_once('=').map_or("", |(_, v)| v.trim());
            Ok(Directive::Init(crate::header_init::InitLine {
                name: name.text.clone(),
                span: name.span,
                value: expr_from(rest(5), macros, line)?,
                text: value.to_string(),
            }))
        }
        "requires" => Ok(Directive::Requires(expr_from(rest(1), macros, line)?)),
        "shared_bytes" => {
            expect(1, T::Assign, "`=`")?;
            Ok(Directive::SharedBytes(expr_from(rest(2), macros, line)?))
        }
        "deny" | "expect" => {
            let words = text.trim_start().get(head.text.len()..).unwrap_or("");
            let name = words.trim().trim_end_matches(',');
            let span = Span::new(head.span.hi as usize, base + text.len());
            let Some(c) = Category::from_name(name) else {
                let known: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
                return err(
                    span,
                    format!(
                        "unknown finding category `{name}` (known: {})",
                        known.join(", ")
                    ),
                );
            };
            Ok(if head.text == "deny" {
                Directive::Deny(c)
            } else {
                Directive::Expect(c)
            })
        }
        other => err(head.span, format!("unknown `//@` directive `{other}`")),
    }
}

/// Identifiers an expression names (excluding builtins and file constants).
fn names(e: &ast::Expr, globals: &HashMap<String, Binding>, out: &mut Vec<(String, Span)>) {
    match &e.kind {
        ExprKind::Ident(n) if !globals.contains_key(n) && n != "warpSize" => {
            out.push((n.clone(), e.span))
        }
        ExprKind::Member(..) | ExprKind::Ident(_) => {}
        ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => names(a, globals, out),
        ExprKind::Index(a, b)
        | ExprKind::Binary(_, a, b)
        | ExprKind::Comma(a, b)
        | ExprKind::Assign(_, a, b) => {
            names(a, globals, out);
            names(b, globals, out);
        }
        ExprKind::Cond(c, a, b) => {
            names(c, globals, out);
            names(a, globals, out);
            names(b, globals, out);
        }
        ExprKind::IncDec { target, .. } => names(target, globals, out),
        ExprKind::Call(_, _, args) => args.iter().for_each(|a| names(a, globals, out)),
        ExprKind::Int(..) | ExprKind::Float(..) | ExprKind::Bool(_) | ExprKind::SizeOf(_) => {}
    }
}

fn apply(d: Directive, globals: &HashMap<String, Binding>, kernels: &mut [Kernel]) -> Result<()> {
    let (mut named, expr) = match &d {
        Directive::Deny(c) | Directive::Expect(c) => {
            for k in kernels.iter_mut() {
                let list = if matches!(d, Directive::Deny(_)) {
                    &mut k.contract.deny
                } else {
                    &mut k.contract.expect
                };
                if !list.contains(c) {
                    list.push(*c);
                }
            }
            return Ok(());
        }
        Directive::Texture(name, span) => {
            let is_buffer = |k: &Kernel| {
                k.param_named(name)
                    .and_then(|p| k.params.get(p.0 as usize))
                    .is_some_and(|p| matches!(p.kind, ParamKind::Buffer { .. }))
            };
            if kernels.is_empty() || kernels.iter().any(is_buffer) {
                return Ok(());
            }
            return err(
                *span,
                format!("`{name}` is not a texture, surface or buffer of any kernel in this file"),
            );
        }
        Directive::Init(line) => return crate::header_init::apply(line, globals, kernels),
        Directive::Arg(n, s, e) | Directive::Len(n, s, e) => (vec![(n.clone(), *s)], e),
        Directive::Requires(e) | Directive::SharedBytes(e) => (vec![], e),
    };
    names(expr, globals, &mut named);
    let mut applied = false;
    for k in kernels.iter_mut() {
        if !named.iter().all(|(n, _)| k.param_named(n).is_some()) {
            continue;
        }
        applied = true;
        apply_to(&d, expr, globals, k)?;
    }
    if applied || kernels.is_empty() {
        return Ok(());
    }
    let missing = named
        .iter()
        .find(|(n, _)| kernels.iter().all(|k| k.param_named(n).is_none()));
    let (name, span) = missing.cloned().unwrap_or_else(|| ("?".into(), expr.span));
    err(
        span,
        format!("`{name}` is not a parameter of any kernel in this file"),
    )
}

/// The kernel as a header expression sees it: its signature, without the body, variables and
/// contract (copying those for every directive made a long file quadratic).
fn header_view(k: &mut Kernel) -> Kernel {
    let body = std::mem::take(&mut k.body);
    let vars = std::mem::take(&mut k.vars);
    let contract = std::mem::take(&mut k.contract);
    let view = k.clone();
    k.body = body;
    k.vars = vars;
    k.contract = contract;
    view
}

fn apply_to(
    d: &Directive,
    e: &ast::Expr,
    globals: &HashMap<String, Binding>,
    k: &mut Kernel,
) -> Result<()> {
    let helpers = HashMap::new();
    let mut lw = Lowerer::new(header_view(k), globals, &helpers);
    lw.bind_params_for_header();
    let mut effects = Vec::new();
    let v = lw.expr(e, &mut effects)?;
    let Val::Scalar(v) = v else {
        return err(e.span, "a header expression must be a number");
    };
    if !effects.is_empty() {
        return err(e.span, "a header expression cannot have side effects");
    }
    match d {
        Directive::Arg(name, span, _) => {
            let p = k
                .param_named(name)
                .and_then(|p| Some((p, k.params.get(p.0 as usize)?.kind)));
            let Some((p, ParamKind::Scalar(ty))) = p else {
                return err(
                    *span,
                    format!("`{name}` is a buffer; give its length with `//@ len({name}) = …`"),
                );
            };
            let Some(value) = crate::consteval::eval(e, &|n| match globals.get(n) {
                Some(Binding::Const { value, .. }) => Some(*value),
                _ => None,
            }) else {
                return err(e.span, "a default argument must be a constant");
            };
            k.contract.defaults.retain(|(q, _)| *q != p);
            k.contract.defaults.push((p, value.to_value(ty)));
        }
        Directive::Len(name, span, _) => {
            let p = k
                .param_named(name)
                .and_then(|p| Some((p, k.params.get(p.0 as usize)?.kind)));
            let Some((param, ParamKind::Buffer { .. })) = p else {
                return err(*span, format!("`{name}` is not a buffer parameter"));
            };
            if !v.ty.is_int() {
                return err(e.span, "a buffer length must be an integer");
            }
            k.contract.lengths.retain(|l| l.param != param);
            k.contract.lengths.push(LengthSpec {
                param,
                len: convert(v, ScalarType::U64),
            });
        }
        Directive::Requires(_) => k.contract.requires.push(to_bool(v)),
        Directive::SharedBytes(_) => {
            if !v.ty.is_int() {
                return err(e.span, "the shared memory size must be an integer");
            }
            k.contract.dynamic_shared_bytes = Some(convert(v, ScalarType::U64));
        }
        Directive::Deny(_)
        | Directive::Expect(_)
        | Directive::Texture(..)
        | Directive::Init(..) => {}
    }
    Ok(())
}
