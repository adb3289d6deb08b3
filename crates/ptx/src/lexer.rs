//! Splits PTX text into tokens, dropping whitespace and comments.

use crate::error::ParseError;

/// A token's kind and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    /// `ld`, `%r1`, `$L__BB0_2`, `_Z6kernelPf`, `_`.
    Ident(String),
    /// A dotted word, dot included: `.global`, `.f32`, `.x`.
    Dir(String),
    /// A numeric literal as written: `8`, `0x1F`, `0f3F800000`, `8.8`.
    Num(String),
    /// A quoted string, quotes removed.
    Str(String),
    /// One punctuation character.
    Punct(char),
}

/// A token with its 1-based position; `glued` means no space or comment precedes it.
#[derive(Debug, Clone)]
pub(crate) struct Token {
    pub tok: Tok,
    pub line: usize,
    pub col: usize,
    pub glued: bool,
}

fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// Tokenizes `src`; fails only on characters PTX never uses and unterminated comments or strings.
pub(crate) fn lex(src: &str) -> Result<Vec<Token>, ParseError> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1usize, 1usize);
    let mut glued = false;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            i += 1;
            line += 1;
            col = 1;
            glued = false;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            col += 1;
            glued = false;
            continue;
        }
        if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            glued = false;
            continue;
        }
        if c == '/' && at(i + 1) == '*' {
            let (sl, sc) = (line, col);
            i += 2;
            col += 2;
            loop {
                if i >= chars.len() {
                    return Err(ParseError::new("unterminated `/*` comment", sl, sc));
                }
                if chars[i] == '*' && at(i + 1) == '/' {
                    i += 2;
                    col += 2;
                    break;
                }
                if chars[i] == '\n' {
                    line += 1;
                    col = 1;
                } else {
                    col += 1;
                }
                i += 1;
            }
            glued = false;
            continue;
        }
        let start = i;
        let tok = if c == '.' && (at(i + 1).is_ascii_alphanumeric() || at(i + 1) == '_') {
            i += 1;
            loop {
                while i < chars.len() && ident_char(chars[i]) {
                    i += 1;
                }
                // A scope qualifier continues the directive: `.shared::cta`.
                if at(i) == ':' && at(i + 1) == ':' && ident_char(at(i + 2)) {
                    i += 2;
                } else {
                    break;
                }
            }
            Tok::Dir(chars[start..i].iter().collect())
        } else if c.is_ascii_alphabetic() || c == '_' || c == '$' || c == '%' {
            i += 1;
            while i < chars.len() && ident_char(chars[i]) {
                i += 1;
            }
            Tok::Ident(chars[start..i].iter().collect())
        } else if c.is_ascii_digit() {
            let radix_prefixed = c == '0' && matches!(at(i + 1), 'x' | 'X' | 'f' | 'F' | 'd' | 'D');
            while i < chars.len() {
                let d = chars[i];
                // A sign continues a number only as a decimal exponent: `1.5e-3`.
                let exponent_sign =
                    (d == '+' || d == '-') && !radix_prefixed && matches!(chars[i - 1], 'e' | 'E');
                if !(d.is_ascii_alphanumeric() || d == '.' || exponent_sign) {
                    break;
                }
                i += 1;
            }
            Tok::Num(chars[start..i].iter().collect())
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' && chars[i] != '\n' {
                i += 1;
            }
            if at(i) != '"' {
                return Err(ParseError::new("unterminated string", line, col));
            }
            i += 1;
            Tok::Str(chars[start + 1..i - 1].iter().collect())
        } else if ",;:{}[]()<>+-!@|=".contains(c) {
            i += 1;
            Tok::Punct(c)
        } else {
            return Err(ParseError::new(
                format!("unexpected character `{}`", c.escape_default()),
                line,
                col,
            ));
        };
        out.push(Token {
            tok,
            line,
            col,
            glued,
        });
        col += i - start;
        glued = true;
    }
    Ok(out)
}
