//! The preprocessor: conditional inclusion and macro expansion over tokens.
//!
//! Macros are expanded with hide sets (a macro is not re-expanded inside its own
//! expansion). Every token an expansion produces carries the span of the invocation,
//! so errors in expanded code point at the macro use. Expansion is bounded in depth and
//! size so that hostile input cannot hang or exhaust memory.

use crate::error::{err, FrontError, Result};
use crate::lexer::{error_token, lex, Tok, T};
use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use warpsafe_ir::Span;

const MAX_EXPANSION_WORK: usize = 500_000;
const MAX_OUTPUT_TOKENS: usize = 1_000_000;
const MAX_ARG_DEPTH: usize = 64;

/// A `#define`d macro.
#[derive(Debug, Clone)]
pub struct Macro {
    /// Parameter names for a function-like macro; `None` for an object-like one.
    pub params: Option<Vec<String>>,
    /// The replacement list.
    pub body: Vec<Tok>,
}

/// The macro table, by name.
pub type Macros = HashMap<String, Rc<Macro>>;

/// An open conditional group (`#if` … `#endif`).
#[derive(Clone, Copy)]
struct Cond {
    /// The current branch is the one taken.
    taken: bool,
    /// Some branch of the conditional was taken.
    done: bool,
    /// `#else` was seen.
    else_seen: bool,
    /// The enclosing groups are all active.
    parent: bool,
    span: Span,
}

/// Whether source at the innermost open group is active (kept), in O(1).
fn is_active(conds: &[Cond]) -> bool {
    conds.last().is_none_or(|c| c.parent && c.taken)
}

/// The result of preprocessing: the token stream for the parser (no newlines, ending
/// with [`T::Eof`]) and the macros defined at the end of the file.
#[derive(Debug, Clone)]
pub struct Preprocessed {
    /// Tokens of the active source with macros expanded.
    pub tokens: Vec<Tok>,
    /// Macros defined at the end of the file (used for header expressions).
    pub macros: Macros,
}

/// Preprocesses a whole source file.
pub fn preprocess(source: &str) -> Result<Preprocessed> {
    let toks = lex(source, 0);
    let mut pp = Preprocessor {
        macros: Cow::Owned(predefined()),
        steps: 0,
    };
    let mut out = Vec::new();
    let mut chunk = Vec::new();
    let mut conds: Vec<Cond> = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < toks.len() {
        let t = &toks[i];
        let active = is_active(&conds);
        if t.kind == T::Newline {
            line_start = true;
            i += 1;
            continue;
        }
        if line_start && t.kind == T::Hash {
            let mut end = i + 1;
            while end < toks.len() && toks[end].kind != T::Newline {
                end += 1;
            }
            let line = &toks[i + 1..end];
            i = end;
            if active {
                out.extend(pp.expand(std::mem::take(&mut chunk), 0)?);
            }
            pp.directive(t.span, line, &mut conds, active)?;
            continue;
        }
        line_start = false;
        if active {
            if t.kind == T::Error {
                return Err(error_token(t));
            }
            chunk.push(t.clone());
        }
        i += 1;
    }
    if let Some(c) = conds.last() {
        return err(c.span, "conditional directive without a matching `#endif`");
    }
    out.extend(pp.expand(chunk, 0)?);
    if out.len() > MAX_OUTPUT_TOKENS {
        return err(Span::DUMMY, "the source is too large after macro expansion");
    }
    let end = Span::new(source.len(), source.len());
    out.push(Tok {
        kind: T::Eof,
        text: String::new(),
        span: end,
    });
    Ok(Preprocessed {
        tokens: out,
        macros: pp.macros.into_owned(),
    })
}

/// Floating-point limits that CUDA code uses without including anything (nvcc's
/// `cuda_runtime.h` brings in `<math.h>`): `INFINITY`, `HUGE_VALF`, `FLT_MAX`, …, and the
/// `CUDART_INF_F` family of `<math_constants.h>`. An infinity is the literal `1e999f`, which
/// the lexer reads as IEEE infinity; a `#define` of the file replaces any of them.
const PREDEFINED: &[(&str, &str)] = &[
    ("INFINITY", "1e999f"),
    ("HUGE_VALF", "1e999f"),
    ("HUGE_VAL", "1e999"),
    ("CUDART_INF_F", "1e999f"),
    ("CUDART_INF", "1e999"),
    ("FLT_MAX", "3.40282347e+38f"),
    ("FLT_MIN", "1.17549435e-38f"),
    ("FLT_EPSILON", "1.19209290e-07f"),
    ("CUDART_MAX_NORMAL_F", "3.40282347e+38f"),
    ("DBL_MAX", "1.7976931348623157e+308"),
    ("DBL_MIN", "2.2250738585072014e-308"),
    ("DBL_EPSILON", "2.2204460492503131e-16"),
];

/// The macros every file starts with ([`PREDEFINED`]).
fn predefined() -> Macros {
    PREDEFINED
        .iter()
        .map(|(name, body)| {
            let body = lex(body, 0)
                .into_iter()
                .filter(|t| !matches!(t.kind, T::Newline | T::Eof))
                .collect();
            (name.to_string(), Rc::new(Macro { params: None, body }))
        })
        .collect()
}

/// Macro-expands a token sequence (without directives) against a finished macro table.
pub fn expand_tokens(macros: &Macros, tokens: Vec<Tok>) -> Result<Vec<Tok>> {
    let mut pp = Preprocessor {
        macros: Cow::Borrowed(macros),
        steps: 0,
    };
    pp.expand(tokens, 0)
}

/// The macro table is borrowed when only expanding (header expressions: copying it for each
/// one made a file with many macros and header lines quadratic).
struct Preprocessor<'m> {
    macros: Cow<'m, Macros>,
    steps: usize,
}

/// A token during expansion, with the names of the macros it must not re-expand.
#[derive(Clone)]
struct HTok {
    tok: Tok,
    hide: Rc<Vec<Rc<str>>>,
}

fn directive_name(line: &[Tok]) -> (&str, Span) {
    match line.first() {
        Some(t) => (t.text.as_str(), t.span),
        None => ("", Span::DUMMY),
    }
}

impl Preprocessor<'_> {
    fn directive(
        &mut self,
        hash: Span,
        line: &[Tok],
        conds: &mut Vec<Cond>,
        active: bool,
    ) -> Result<()> {
        let (name, name_span) = directive_name(line);
        let span = hash.to(name_span);
        let rest = line.get(1..).unwrap_or(&[]);
        match name {
            "ifdef" | "ifndef" => {
                let Some(m) = rest.first().filter(|t| t.kind == T::Ident) else {
                    return err(span, format!("`#{name}` needs a macro name"));
                };
                let defined = self.macros.contains_key(&m.text);
                let taken = defined == (name == "ifdef");
                conds.push(Cond {
                    taken,
                    done: taken,
                    else_seen: false,
                    parent: active,
                    span,
                });
            }
            "if" => {
                let taken = active && self.eval_condition(rest, span)?;
                conds.push(Cond {
                    taken,
                    done: taken,
                    else_seen: false,
                    parent: active,
                    span,
                });
            }
            "elif" => {
                let Some(top) = conds.last().copied() else {
                    return err(span, "`#elif` without `#if`");
                };
                if top.else_seen {
                    return err(span, "`#elif` after `#else`");
                }
                let taken = !top.done && top.parent && self.eval_condition(rest, span)?;
                if let Some(c) = conds.last_mut() {
                    c.taken = taken;
                    c.done = top.done || taken;
                }
            }
            "else" => match conds.last_mut() {
                Some(c) if !c.else_seen => {
                    c.taken = !c.done;
                    c.done = true;
                    c.else_seen = true;
                }
                Some(_) => return err(span, "duplicate `#else`"),
                None => return err(span, "`#else` without `#if`"),
            },
            "endif" => {
                if conds.pop().is_none() {
                    return err(span, "`#endif` without `#if`");
                }
            }
            _ if !active => {}
            "define" => self.define(span, rest)?,
            "undef" => {
                if let Some(m) = rest.first() {
                    self.macros.to_mut().remove(&m.text);
                }
            }
            "include" | "pragma" | "line" | "" => {}
            "error" => return err(span, "`#error` directive reached"),
            _ => {
                return err(
                    span,
                    format!("unsupported preprocessor directive `#{name}`"),
                )
            }
        }
        Ok(())
    }

    fn define(&mut self, span: Span, rest: &[Tok]) -> Result<()> {
        let Some(name) = rest.first().filter(|t| t.kind == T::Ident) else {
            return err(span, "`#define` needs a macro name");
        };
        let mut body_start = 1;
        let mut params = None;
        // A function-like macro has `(` immediately after the name, with no space.
        if let Some(lp) = rest
            .get(1)
            .filter(|t| t.kind == T::LParen && t.span.lo == name.span.hi)
        {
            let mut names = Vec::new();
            let mut j = 2;
            loop {
                match rest.get(j) {
                    Some(t) if t.kind == T::RParen && names.is_empty() => break,
                    Some(t) if t.kind == T::Ident => names.push(t.text.clone()),
                    Some(t) if t.kind == T::Ellipsis => {
                        return err(t.span, "variadic macros are not supported")
                    }
                    _ => return err(lp.span, "malformed macro parameter list"),
                }
                j += 1;
                match rest.get(j) {
                    Some(t) if t.kind == T::Comma => j += 1,
                    Some(t) if t.kind == T::RParen => break,
                    _ => return err(lp.span, "malformed macro parameter list"),
                }
            }
            body_start = j + 1;
            params = Some(names);
        }
        let body = rest.get(body_start..).unwrap_or(&[]).to_vec();
        if let Some(bad) = body.iter().find(|t| t.kind == T::Error) {
            return Err(error_token(bad));
        }
        self.macros
            .to_mut()
            .insert(name.text.clone(), Rc::new(Macro { params, body }));
        Ok(())
    }

    fn eval_condition(&mut self, rest: &[Tok], span: Span) -> Result<bool> {
        let mut toks = Vec::new();
        let mut i = 0;
        while i < rest.len() {
            let t = &rest[i];
            if t.is_ident("defined") {
                let (name, next) = match (rest.get(i + 1), rest.get(i + 2), rest.get(i + 3)) {
                    (Some(l), Some(n), Some(r))
                        if l.kind == T::LParen && n.kind == T::Ident && r.kind == T::RParen =>
                    {
                        (n, i + 4)
                    }
                    (Some(n), _, _) if n.kind == T::Ident => (n, i + 2),
                    _ => return err(t.span, "malformed `defined`"),
                };
                let v = if self.macros.contains_key(&name.text) {
                    "1"
                } else {
                    "0"
                };
                toks.push(number_tok(v, t.span));
                i = next;
            } else {
                toks.push(t.clone());
                i += 1;
            }
        }
        let expanded = self.expand(toks, 0)?;
        let toks: Vec<Tok> = expanded
            .into_iter()
            .map(|t| match t.kind {
                T::Ident if t.text == "true" => number_tok("1", t.span),
                T::Ident => number_tok("0", t.span),
                _ => t,
            })
            .collect();
        if toks.is_empty() {
            return err(span, "`#if` needs a condition");
        }
        let e = crate::parser::parse_expr_tokens(toks, span)?;
        match crate::consteval::eval(&e, &|_| None) {
            Some(v) => Ok(v.truthy()),
            None => err(
                e.span,
                "`#if` condition is not an integer constant expression",
            ),
        }
    }

    fn charge(&mut self, work: usize, span: Span) -> Result<()> {
        self.steps = self.steps.saturating_add(work);
        if self.steps > MAX_EXPANSION_WORK {
            return err(span, "macro expansion is too large (recursive macro?)");
        }
        Ok(())
    }

    /// Fully macro-expands `input`.
    fn expand(&mut self, input: Vec<Tok>, depth: usize) -> Result<Vec<Tok>> {
        let empty = Rc::new(Vec::new());
        let queue = input
            .into_iter()
            .map(|tok| HTok {
                tok,
                hide: empty.clone(),
            })
            .collect();
        Ok(self
            .expand_h(queue, depth)?
            .into_iter()
            .map(|h| h.tok)
            .collect())
    }

    fn expand_h(&mut self, mut queue: VecDeque<HTok>, depth: usize) -> Result<Vec<HTok>> {
        if depth > MAX_ARG_DEPTH {
            let span = queue.front().map(|h| h.tok.span).unwrap_or_default();
            return err(span, "macro arguments nest too deeply");
        }
        let mut out = Vec::new();
        while let Some(h) = queue.pop_front() {
            if out.len() > MAX_OUTPUT_TOKENS {
                return err(h.tok.span, "the source is too large after macro expansion");
            }
            let name = &h.tok.text;
            let m = match self.macros.get(name) {
                Some(m) if h.tok.kind == T::Ident && !h.hide.iter().any(|n| **n == **name) => {
                    Rc::clone(m)
                }
                _ => {
                    out.push(h);
                    continue;
                }
            };
            let mut hide = (*h.hide).clone();
            hide.push(Rc::from(name.as_str()));
            let hide = Rc::new(hide);
            self.charge(m.body.len() + 1, h.tok.span)?;
            let Some(params) = &m.params else {
                let body = paste(m.body.clone(), h.tok.span)?;
                for tok in body.into_iter().rev() {
                    let tok = Tok {
                        span: h.tok.span,
                        ..tok
                    };
                    queue.push_front(HTok {
                        tok,
                        hide: hide.clone(),
                    });
                }
                continue;
            };
            if queue.front().map(|n| n.tok.kind) != Some(T::LParen) {
                out.push(h);
                continue;
            }
            let (args, close) = collect_args(&mut queue, h.tok.span)?;
            let span = h.tok.span.to(close);
            let args = if params.is_empty() && args.len() == 1 && args[0].is_empty() {
                vec![]
            } else {
                args
            };
            if args.len() != params.len() {
                return err(
                    span,
                    format!(
                        "macro `{name}` takes {} argument(s), {} given",
                        params.len(),
                        args.len()
                    ),
                );
            }
            let mut expanded_args = Vec::with_capacity(args.len());
            for a in &args {
                let q = a.iter().cloned().collect();
                expanded_args.push(self.expand_h(q, depth + 1)?);
            }
            let cost = m
                .body
                .iter()
                .map(|t| match params.iter().position(|p| *p == t.text) {
                    Some(k) => expanded_args[k].len().max(args[k].len()),
                    None => 1,
                });
            self.charge(cost.sum(), span)?;
            let body = substitute(&m.body, params, &args, &expanded_args, span)?;
            for tok in body.into_iter().rev() {
                let tok = Tok { span, ..tok };
                queue.push_front(HTok {
                    tok,
                    hide: hide.clone(),
                });
            }
        }
        Ok(out)
    }
}

fn number_tok(v: &str, span: Span) -> Tok {
    Tok {
        kind: T::Number,
        text: v.into(),
        span,
    }
}

/// Takes `( a, b, ... )` off the front of the queue; returns the arguments and the span of `)`.
fn collect_args(queue: &mut VecDeque<HTok>, name: Span) -> Result<(Vec<Vec<HTok>>, Span)> {
    queue.pop_front();
    let mut args = vec![Vec::new()];
    let mut depth = 0usize;
    while let Some(h) = queue.pop_front() {
        match h.tok.kind {
            T::LParen | T::LBracket | T::LBrace => depth += 1,
            T::RParen if depth == 0 => return Ok((args, h.tok.span)),
            T::RParen | T::RBracket | T::RBrace => depth = depth.saturating_sub(1),
            T::Comma if depth == 0 => {
                args.push(Vec::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = args.last_mut() {
            last.push(h);
        }
    }
    err(name, "unterminated macro invocation")
}

fn substitute(
    body: &[Tok],
    params: &[String],
    raw: &[Vec<HTok>],
    expanded: &[Vec<HTok>],
    span: Span,
) -> Result<Vec<Tok>> {
    let mut out = Vec::new();
    for (i, t) in body.iter().enumerate() {
        let idx = (t.kind == T::Ident)
            .then(|| params.iter().position(|p| *p == t.text))
            .flatten();
        if t.kind == T::Hash {
            return err(span, "the `#` stringizing operator is not supported");
        }
        match idx {
            Some(k) => {
                let next_paste = body.get(i + 1).map(|n| n.kind) == Some(T::HashHash);
                let prev_paste = i > 0 && body.get(i - 1).map(|n| n.kind) == Some(T::HashHash);
                let src = if next_paste || prev_paste {
                    &raw[k]
                } else {
                    &expanded[k]
                };
                out.extend(src.iter().map(|h| h.tok.clone()));
            }
            None => out.push(t.clone()),
        }
    }
    paste(out, span)
}

/// Applies `##` token pasting.
fn paste(toks: Vec<Tok>, span: Span) -> Result<Vec<Tok>> {
    if !toks.iter().any(|t| t.kind == T::HashHash) {
        return Ok(toks);
    }
    let mut out: Vec<Tok> = Vec::new();
    let mut it = toks.into_iter();
    while let Some(t) = it.next() {
        if t.kind != T::HashHash {
            out.push(t);
            continue;
        }
        let (Some(left), Some(right)) = (out.pop(), it.next()) else {
            return err(span, "`##` at the edge of a macro body");
        };
        let text = format!("{}{}", left.text, right.text);
        let mut relexed = lex(&text, 0);
        match (relexed.pop(), relexed.is_empty()) {
            (Some(tok), true) if tok.kind != T::Error => out.push(Tok { span, ..tok }),
            _ => {
                return Err(FrontError::new(
                    span,
                    format!("pasting gives `{text}`, not a token"),
                ))
            }
        }
    }
    Ok(out)
}

/// `source` with everything but its `#define` lines (and their `\` continuations) blanked out,
/// byte offsets kept: the macros a header expression may use, without the C++ around them
/// that this preprocessor does not read.
pub fn defines_only(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut continued = false;
    for line in source.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let keep = continued || {
            let t = body.trim_start();
            t.strip_prefix('#')
                .is_some_and(|d| d.trim_start().starts_with("define"))
        };
        if keep {
            out.push_str(line);
            continued = body.ends_with('\\');
        } else {
            out.extend(line.bytes().map(|b| if b == b'\n' { '\n' } else { ' ' }));
            continued = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(src: &str) -> String {
        let p = preprocess(src).unwrap();
        let words: Vec<String> = p.tokens.iter().map(|t| t.text.clone()).collect();
        words.join(" ").trim().to_string()
    }

    #[test]
    fn object_and_function_macros() {
        assert_eq!(text("#define N 16\nint a[N+1];"), "int a [ 16 + 1 ] ;");
        assert_eq!(
            text("#define IDX(r, c, w) ((r) * (w) + (c))\nx = IDX(f(a, b), (c), N);"),
            "x = ( ( f ( a , b ) ) * ( N ) + ( ( c ) ) ) ;"
        );
    }

    #[test]
    fn nested_macros_and_self_reference_terminate() {
        assert_eq!(text("#define A B + 1\n#define B A\nA"), "A + 1");
        assert_eq!(
            text("#define SQ(x) ((x)*(x))\nSQ(SQ(2))"),
            "( ( ( ( 2 ) * ( 2 ) ) ) * ( ( ( 2 ) * ( 2 ) ) ) )"
        );
        assert_eq!(text("#define F(x) x\nF"), "F");
    }

    #[test]
    fn expanded_tokens_carry_invocation_span() {
        let src = "#define TWO (1+1)\nx = TWO;";
        let p = preprocess(src).unwrap();
        let two = src.find("TWO;").unwrap();
        let one = p.tokens.iter().find(|t| t.text == "1").unwrap();
        assert_eq!(one.span, Span::new(two, two + 3));
    }

    #[test]
    fn conditionals() {
        let src = "#define X\n#ifdef X\na\n#else\nb\n#endif\n#if 0\n@garbage'\n#elif defined(X) && 1\nc\n#endif\n#ifndef X\nd\n#endif";
        assert_eq!(text(src), "a c");
        assert!(preprocess("#if 1\na").is_err());
        assert!(preprocess("#endif").is_err());
    }

    #[test]
    fn pasting_and_undef() {
        assert_eq!(text("#define CAT(a,b) a##b\nCAT(x, 1)"), "x1");
        assert_eq!(text("#define N 1\n#undef N\nN"), "N");
    }

    #[test]
    fn runaway_expansion_is_an_error() {
        let src = "#define A(x) x x x x x x x x\n#define B(x) A(A(A(A(x))))\nB(B(B(1)))";
        assert!(preprocess(src).is_err());
    }

    #[test]
    fn ignores_include_and_pragma() {
        assert_eq!(text("#include <cuda.h>\n#pragma unroll\nx"), "x");
    }
}
