//! Source positions for the IR: byte offsets into the Rust file a kernel is written in.

use proc_macro2::{Span, TokenStream};
use quote::{quote, ToTokens};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::PathBuf;

thread_local! {
    static FILES: RefCell<HashMap<PathBuf, Option<Text>>> = RefCell::new(HashMap::new());
}

/// A source file's text and the byte offsets at which its lines start.
struct Text {
    text: String,
    line_starts: Vec<usize>,
}

impl Text {
    fn new(text: String) -> Text {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Text { text, line_starts }
    }

    /// The byte offset of (1-based `line`, 0-based character `column`).
    fn byte_offset(&self, line: usize, column: usize) -> Option<usize> {
        let start = *self.line_starts.get(line.checked_sub(1)?)?;
        let rest = &self.text[start..];
        let within = rest
            .char_indices()
            .map(|(i, _)| i)
            .chain(std::iter::once(rest.len()))
            .nth(column)?;
        Some(start + within)
    }
}

/// Byte offset of a span's start (or end) in its file: the compiler gives a 1-based line and a
/// 0-based column counted in characters, which the file's text turns into bytes.
fn offset(span: Span, end: bool) -> Option<usize> {
    let path = span.local_file()?;
    let lc = if end { span.end() } else { span.start() };
    if lc.line == 0 {
        return None;
    }
    FILES.with(|files| {
        let mut files = files.borrow_mut();
        files
            .entry(path.clone())
            .or_insert_with(|| std::fs::read_to_string(&path).ok().map(Text::new))
            .as_ref()?
            .byte_offset(lc.line, lc.column)
    })
}

/// The IR span covering `node`, as an expression `::warpsafe::__private::sp(lo, hi)`.
pub fn ir_span<T: ToTokens>(node: &T) -> TokenStream {
    let tokens = node.to_token_stream();
    let mut iter = tokens.into_iter();
    let first = iter.next().map(|t| t.span());
    let last = iter.last().map(|t| t.span()).or(first);
    let (lo, hi) = match (
        first.and_then(|s| offset(s, false)),
        last.and_then(|s| offset(s, true)),
    ) {
        (Some(lo), Some(hi)) if hi >= lo => (lo as u32, hi as u32),
        (Some(lo), _) => (lo as u32, lo as u32 + 1),
        _ => (0, 0),
    };
    quote!(::warpsafe::__private::sp(#lo, #hi))
}

/// The byte offset, in the same file and measure as [`ir_span`], of the first character inside
/// the string literal `lit` (after `"`, `r"` or `r#"`); 0 where the compiler gives no file, as
/// for IR spans.
pub fn lit_text_offset(lit: &syn::LitStr) -> usize {
    let open = lit.token().to_string().find('"').map_or(1, |i| i + 1);
    offset(lit.span(), false).map_or(0, |o| o + open)
}

#[cfg(test)]
mod tests {
    use super::Text;

    #[test]
    fn columns_count_characters() {
        let t = Text::new("ab\n\u{e9}x = 1;\nz".to_string());
        assert_eq!(t.byte_offset(1, 1), Some(1));
        assert_eq!(t.byte_offset(2, 0), Some(3));
        assert_eq!(t.byte_offset(2, 1), Some(5));
        assert_eq!(t.byte_offset(3, 0), Some(12));
        assert_eq!(t.byte_offset(3, 1), Some(13));
        assert_eq!(t.byte_offset(4, 0), None);
        assert_eq!(t.byte_offset(0, 0), None);
    }
}
