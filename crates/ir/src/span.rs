//! Byte ranges into a source file, and the mapping from offsets to lines.

use serde::{Deserialize, Serialize};

/// A half-open byte range `lo..hi` into the source file a kernel came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    /// First byte of the range.
    pub lo: u32,
    /// One past the last byte of the range.
    pub hi: u32,
}

impl Span {
    /// The span of nodes that have no source position (built by the builder API).
    pub const DUMMY: Span = Span { lo: 0, hi: 0 };

    /// Creates the span `lo..hi`.
    pub fn new(lo: usize, hi: usize) -> Span {
        Span {
            lo: lo as u32,
            hi: hi.max(lo) as u32,
        }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        if self.is_dummy() {
            return other;
        }
        if other.is_dummy() {
            return self;
        }
        Span {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }

    /// True for spans that point nowhere.
    pub fn is_dummy(self) -> bool {
        self.lo == 0 && self.hi == 0
    }

    /// The byte range as `usize`s, for slicing source text.
    pub fn range(self) -> std::ops::Range<usize> {
        self.lo as usize..self.hi as usize
    }
}

/// A named source text with a line index, used to turn spans into `file:line:col`.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Path or name shown in diagnostics.
    pub name: String,
    /// The full text.
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// Indexes `text` under `name`.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let offset = (offset as usize).min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        (line + 1, offset - self.line_starts[line] + 1)
    }

    /// 1-based line of the start of `span`, or 0 for a dummy span.
    pub fn line(&self, span: Span) -> usize {
        if span.is_dummy() {
            0
        } else {
            self.line_col(span.lo).0
        }
    }

    /// The text of 1-based line `line`, without its newline.
    pub fn line_text(&self, line: usize) -> &str {
        if line == 0 || line > self.line_starts.len() {
            return "";
        }
        let start = self.line_starts[line - 1];
        let end = self
            .line_starts
            .get(line)
            .map(|e| e - 1)
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches('\r')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_maps_offsets() {
        let f = SourceFile::new("a.cu", "ab\ncd\n\nef");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        assert_eq!(f.line_col(4), (2, 2));
        assert_eq!(f.line_col(7), (4, 1));
        assert_eq!(f.line_text(2), "cd");
        assert_eq!(f.line_text(3), "");
    }

    #[test]
    fn span_union_ignores_dummy() {
        let a = Span::new(3, 5);
        assert_eq!(a.to(Span::DUMMY), a);
        assert_eq!(a.to(Span::new(1, 4)), Span::new(1, 5));
    }
}
