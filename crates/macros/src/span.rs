//! Source positions for the IR: byte offsets into the Rust file a kernel is written in.

use proc_macro2::{Span, TokenStream};
use quote::{quote, ToTokens};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::PathBuf;

thread_local! {
    static FILES: RefCell<HashMap<PathBuf, Option<Vec<usize>>>> = RefCell::new(HashMap::new());
}

/// Byte offset of a (1-based line, 0-based char column) position, using the file's line starts.
fn offset(span: Span, end: bool) -> Option<usize> {
    let path = span.local_file()?;
    let lc = if end { span.end() } else { span.start() };
    if lc.line == 0 {
        return None;
    }
    FILES.with(|files| {
        let mut files = files.borrow_mut();
        let entry = files.entry(path.clone()).or_insert_with(|| {
            let text = std::fs::read_to_string(&path).ok()?;
            Some(line_byte_columns(&text))
        });
        let starts = entry.as_ref()?;
        let line_start = *starts.get(lc.line - 1)?;
        Some(line_start + lc.column)
    })
}

/// Line start offsets; columns are assumed ASCII-width (exact for ASCII source lines).
fn line_byte_columns(text: &str) -> Vec<usize> {
    let mut v = vec![0];
    v.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    v
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
