//! The lexer: source text to tokens with byte spans (a `logos` automaton).
//!
//! Comments and line continuations are skipped; newlines are kept because the
//! preprocessor is line-oriented. Keywords are ordinary identifiers: the parser decides.

use crate::error::{err, FrontError, Result};
use logos::Logos;
use warpsafe_ir::{ScalarType, Span};

/// The kinds of tokens.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\r\f\v]+")]
#[logos(skip r"//[^\n]*")]
#[logos(skip r"\\\r?\n")]
pub enum T {
    /// A block comment (skipped; an unterminated one is an error).
    #[token("/*", block_comment)]
    BlockComment,
    /// End of a source line (only the preprocessor sees these).
    /// `\n`
    #[token("\n")]
    Newline,
    /// An identifier or keyword.
    #[regex("[A-Za-z_][A-Za-z0-9_]*")]
    Ident,
    /// A numeric literal, validated by [`parse_number`].
    #[regex(r"([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?[A-Za-z0-9_]*")]
    Number,
    /// A string literal.
    #[regex(r#""([^"\\\n]|\\.)*""#)]
    Str,
    /// A character literal.
    #[regex(r"'([^'\\\n]|\\.)*'")]
    Char,
    /// `(`
    #[token("(")]
    LParen,
    /// `)`
    #[token(")")]
    RParen,
    /// `[`
    #[token("[")]
    LBracket,
    /// `]`
    #[token("]")]
    RBracket,
    /// `{`
    #[token("{")]
    LBrace,
    /// `}`
    #[token("}")]
    RBrace,
    /// `;`
    #[token(";")]
    Semi,
    /// `,`
    #[token(",")]
    Comma,
    /// `.`
    #[token(".")]
    Dot,
    /// `...`
    #[token("...")]
    Ellipsis,
    /// `?`
    #[token("?")]
    Question,
    /// `:`
    #[token(":")]
    Colon,
    /// `::`
    #[token("::")]
    ColonColon,
    /// `->`
    #[token("->")]
    Arrow,
    /// `+`
    #[token("+")]
    Plus,
    /// `-`
    #[token("-")]
    Minus,
    /// `*`
    #[token("*")]
    Star,
    /// `/`
    #[token("/")]
    Slash,
    /// `%`
    #[token("%")]
    Percent,
    /// `&`
    #[token("&")]
    Amp,
    /// `|`
    #[token("|")]
    Pipe,
    /// `^`
    #[token("^")]
    Caret,
    /// `~`
    #[token("~")]
    Tilde,
    /// `!`
    #[token("!")]
    Bang,
    /// `=`
    #[token("=")]
    Assign,
    /// `<`
    #[token("<")]
    Lt,
    /// `>`
    #[token(">")]
    Gt,
    /// `<=`
    #[token("<=")]
    Le,
    /// `>=`
    #[token(">=")]
    Ge,
    /// `==`
    #[token("==")]
    EqEq,
    /// `!=`
    #[token("!=")]
    Ne,
    /// `&&`
    #[token("&&")]
    AndAnd,
    /// `||`
    #[token("||")]
    OrOr,
    /// `<<`
    #[token("<<")]
    Shl,
    /// `>>`
    #[token(">>")]
    Shr,
    /// `++`
    #[token("++")]
    PlusPlus,
    /// `--`
    #[token("--")]
    MinusMinus,
    /// `+=`
    #[token("+=")]
    PlusEq,
    /// `-=`
    #[token("-=")]
    MinusEq,
    /// `*=`
    #[token("*=")]
    StarEq,
    /// `/=`
    #[token("/=")]
    SlashEq,
    /// `%=`
    #[token("%=")]
    PercentEq,
    /// `&=`
    #[token("&=")]
    AmpEq,
    /// `|=`
    #[token("|=")]
    PipeEq,
    /// `^=`
    #[token("^=")]
    CaretEq,
    /// `<<=`
    #[token("<<=")]
    ShlEq,
    /// `>>=`
    #[token(">>=")]
    ShrEq,
    /// `#`
    #[token("#")]
    Hash,
    /// `##`
    #[token("##")]
    HashHash,
    /// A character the lexer does not know (reported only in active source).
    Error,
    /// End of input (appended by the preprocessor).
    Eof,
}

fn block_comment(lex: &mut logos::Lexer<T>) -> logos::FilterResult<(), ()> {
    match lex.remainder().find("*/") {
        Some(end) => {
            lex.bump(end + 2);
            logos::FilterResult::Skip
        }
        None => {
            lex.bump(lex.remainder().len());
            logos::FilterResult::Error(())
        }
    }
}

/// A token: its kind, its text and where it came from. Tokens produced by macro
/// expansion carry the span of the invocation.
#[derive(Debug, Clone, PartialEq)]
pub struct Tok {
    /// The kind.
    pub kind: T,
    /// The text as written.
    pub text: String,
    /// Byte range in the original source.
    pub span: Span,
}

impl Tok {
    /// True when this is the identifier `name`.
    pub fn is_ident(&self, name: &str) -> bool {
        self.kind == T::Ident && self.text == name
    }
}

/// Lexes `src` into tokens (including newlines); `base` is added to every span, so a
/// fragment of a larger file keeps original positions. Unknown characters become
/// [`T::Error`] tokens.
pub fn lex(src: &str, base: usize) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut lx = T::lexer(src);
    while let Some(r) = lx.next() {
        let range = lx.span();
        out.push(Tok {
            kind: r.unwrap_or(T::Error),
            text: lx.slice().to_string(),
            span: Span::new(base + range.start, base + range.end),
        });
    }
    out
}

/// The error for a [`T::Error`] token: an unterminated comment or literal is named as such and
/// points at its opening, anything else names the one character the lexer does not know.
pub fn error_token(tok: &Tok) -> FrontError {
    let lo = tok.span.lo as usize;
    let (what, len) = if tok.text.starts_with("/*") {
        ("unterminated `/*` comment".to_string(), 2)
    } else if tok.text.starts_with('"') {
        ("unterminated string literal".to_string(), 1)
    } else if tok.text.starts_with('\'') {
        ("unterminated character literal".to_string(), 1)
    } else {
        let c = tok.text.chars().next().unwrap_or(' ');
        (format!("unexpected character `{c}`"), c.len_utf8())
    };
    FrontError::new(Span::new(lo, (lo + len).min(tok.span.hi as usize)), what)
}

/// A numeric literal with its C type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    /// An integer literal: value and type after C's literal typing rules.
    Int(u64, ScalarType),
    /// A floating literal: `f32` with an `f` suffix, else `f64`.
    Float(f64, ScalarType),
}

/// Parses a numeric literal (`42`, `0x1F`, `017`, `1u`, `2ll`, `1.5f`, `1e-3`) and gives it
/// its C type: an unsuffixed decimal is the first of int/long long that fits; hex and octal
/// may also become unsigned; `u` makes it unsigned; `l`/`ll` make it 64-bit.
pub fn parse_number(text: &str, span: Span) -> Result<Number> {
    let lower = text.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    let is_float = !is_hex && (lower.contains('.') || lower.contains('e'));
    if is_float {
        let (digits, single) = match lower.strip_suffix('f') {
            Some(d) => (d, true),
            None => (lower.strip_suffix('l').unwrap_or(&lower), false),
        };
        return match digits.parse::<f64>() {
            Ok(v) if single => Ok(Number::Float(v, ScalarType::F32)),
            Ok(v) => Ok(Number::Float(v, ScalarType::F64)),
            Err(_) => err(span, format!("malformed floating-point literal `{text}`")),
        };
    }
    let body = if is_hex { &lower[2..] } else { &lower[..] };
    let split = body
        .find(|c: char| !c.is_ascii_hexdigit() || (!is_hex && c.is_ascii_alphabetic()))
        .unwrap_or(body.len());
    let (digits, suffix) = body.split_at(split);
    let (unsigned, long) = match suffix {
        "" => (false, false),
        "u" => (true, false),
        "l" | "ll" => (false, true),
        "ul" | "ull" | "lu" | "llu" => (true, true),
        _ => return err(span, format!("unsupported literal suffix in `{text}`")),
    };
    let radix = if is_hex {
        16
    } else if digits.len() > 1 && digits.starts_with('0') {
        8
    } else {
        10
    };
    let value = match u64::from_str_radix(digits, radix) {
        Ok(v) if !digits.is_empty() => v,
        _ => {
            return err(
                span,
                format!("malformed or too large integer literal `{text}`"),
            )
        }
    };
    let fits_i32 = value <= i32::MAX as u64;
    let fits_u32 = value <= u32::MAX as u64;
    let fits_i64 = value <= i64::MAX as u64;
    let ty = match (unsigned, long) {
        (false, false) if fits_i32 => ScalarType::I32,
        (false, false) if radix != 10 && fits_u32 => ScalarType::U32,
        (false, _) if fits_i64 => ScalarType::I64,
        (true, false) if fits_u32 => ScalarType::U32,
        _ => ScalarType::U64,
    };
    Ok(Number::Int(value, ty))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<T> {
        lex(s, 0).into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn lexes_operators_longest_first() {
        assert_eq!(
            kinds("a<<=b>>c->d...e"),
            vec![
                T::Ident,
                T::ShlEq,
                T::Ident,
                T::Shr,
                T::Ident,
                T::Arrow,
                T::Ident,
                T::Ellipsis,
                T::Ident
            ]
        );
    }

    #[test]
    fn skips_comments_and_continuations_keeps_newlines() {
        assert_eq!(
            kinds("a // x\n/* y\n z */ b \\\n c"),
            vec![T::Ident, T::Newline, T::Ident, T::Ident]
        );
    }

    #[test]
    fn spans_are_offset() {
        let t = lex("  foo", 10);
        assert_eq!(t[0].span, Span::new(12, 15));
    }

    #[test]
    fn numbers_get_c_types() {
        let n = |s: &str| parse_number(s, Span::DUMMY).unwrap();
        assert_eq!(n("42"), Number::Int(42, ScalarType::I32));
        assert_eq!(n("1u"), Number::Int(1, ScalarType::U32));
        assert_eq!(n("2ll"), Number::Int(2, ScalarType::I64));
        assert_eq!(n("0xFFFFFFFF"), Number::Int(0xFFFF_FFFF, ScalarType::U32));
        assert_eq!(n("4294967296"), Number::Int(1 << 32, ScalarType::I64));
        assert_eq!(n("017"), Number::Int(15, ScalarType::I32));
        assert_eq!(n("1.5f"), Number::Float(1.5, ScalarType::F32));
        assert_eq!(n("1e-3"), Number::Float(1e-3, ScalarType::F64));
        assert_eq!(n(".5"), Number::Float(0.5, ScalarType::F64));
        assert!(parse_number("1q", Span::DUMMY).is_err());
        assert!(parse_number("099", Span::DUMMY).is_err());
        assert!(parse_number("99999999999999999999999", Span::DUMMY).is_err());
    }

    #[test]
    fn unknown_characters_are_error_tokens() {
        assert_eq!(kinds("a @ b"), vec![T::Ident, T::Error, T::Ident]);
    }
}
