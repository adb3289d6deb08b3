//! Finding permission annotations in CUDA-C source: the `//@` comments whose first words
//! name an annotation kind. Every other `//@` line is a header directive for the frontend.

use crate::error::PermError;
use crate::parse::parse_formula;
use crate::syntax::{AnnotKind, Annotation};
use warpsafe_ir::Span;

/// The annotations of a file, and the source with them blanked out (same byte offsets) for
/// the CUDA-C frontend, which rejects `//@` lines it does not know.
#[derive(Clone, Debug)]
pub struct Extracted {
    /// Parsed annotations in source order.
    pub annotations: Vec<Annotation>,
    /// The source with every permission annotation replaced by spaces.
    pub frontend_source: String,
}

/// Words that start a permission annotation (so a typo after them is an error here,
/// not an "unknown directive" in the frontend).
const LEADS: [&str; 4] = ["kernel", "thread", "barrier", "invariant"];

/// Extracts and parses every permission annotation of `source`.
pub fn extract(source: &str) -> Result<Extracted, PermError> {
    let mut annotations = vec![];
    let mut blank = source.as_bytes().to_vec();
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let content = line.trim_end();
        let Some(at) = content.find("//@") else {
            continue;
        };
        if !content[..at].trim().is_empty() {
            continue;
        }
        let body_at = start + at + 3;
        let body = &content[at + 3..];
        let words = body.trim_start();
        let words_at = body_at + (body.len() - words.len());
        let lead = words.split_whitespace().next().unwrap_or("");
        if !LEADS.contains(&lead) {
            continue;
        }
        let kind = AnnotKind::ALL.iter().copied().find(|k| {
            let mut w = words.split_whitespace();
            k.keywords().split(' ').all(|kw| w.next() == Some(kw))
        });
        let span = Span::new(start + at, start + content.len());
        let Some(kind) = kind else {
            let end = words_at + words.find(char::is_whitespace).unwrap_or(words.len());
            let expected: Vec<&str> = AnnotKind::ALL.iter().map(|k| k.keywords()).collect();
            return Err(PermError::annotation(
                Span::new(words_at, end),
                format!(
                    "unknown permission annotation; expected one of: {}",
                    expected.join(", ")
                ),
            ));
        };
        let kw_end = keyword_end(words, kind.keywords());
        let formula = parse_formula(&words[kw_end..], words_at + kw_end)?;
        annotations.push(Annotation {
            kind,
            formula,
            span,
        });
        for b in &mut blank[start + at..start + content.len()] {
            *b = b' ';
        }
    }
    let frontend_source = String::from_utf8(blank)
        .map_err(|_| PermError::annotation(Span::DUMMY, "annotations must be ASCII text"))?;
    Ok(Extracted {
        annotations,
        frontend_source,
    })
}

/// Parses one annotation given apart from CUDA-C comments (a `#[kernel]` attribute, say):
/// `kind` is its keywords (`"barrier ensures"`), `formula` its text, which starts at byte
/// `offset` of the source the kernel's spans point into.
pub fn annotation(kind: &str, formula: &str, offset: usize) -> Result<Annotation, PermError> {
    let span = Span::new(offset, offset + formula.len());
    let words: Vec<&str> = kind.split_whitespace().collect();
    let kind = AnnotKind::ALL
        .iter()
        .copied()
        .find(|k| k.keywords().split(' ').eq(words.iter().copied()))
        .ok_or_else(|| {
            let expected: Vec<&str> = AnnotKind::ALL.iter().map(|k| k.keywords()).collect();
            PermError::annotation(
                span,
                format!(
                    "unknown permission annotation `{kind}`; expected one of: {}",
                    expected.join(", ")
                ),
            )
        })?;
    Ok(Annotation {
        kind,
        formula: parse_formula(formula, offset)?,
        span,
    })
}

fn keyword_end(words: &str, keywords: &str) -> usize {
    let mut pos = 0;
    for kw in keywords.split(' ') {
        let rest = &words[pos..];
        let skip = rest.len() - rest.trim_start().len();
        pos += skip + kw.len();
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "//@ requires n > 0\n//@ thread requires Perm(a[tid], 1)\n__global__ void k(int* a, int n) {\n    //@ barrier ensures Perm(a[tid], 1/2)\n    __syncthreads();\n}\n";

    #[test]
    fn finds_annotations_and_keeps_offsets() {
        let ex = extract(SRC).expect("extracts");
        assert_eq!(ex.annotations.len(), 2);
        assert_eq!(ex.annotations[0].kind, AnnotKind::ThreadRequires);
        assert_eq!(ex.annotations[1].kind, AnnotKind::BarrierEnsures);
        assert_eq!(ex.frontend_source.len(), SRC.len());
        assert!(ex.frontend_source.contains("//@ requires n > 0"));
        assert!(!ex.frontend_source.contains("Perm"));
        let f = &ex.annotations[0].formula;
        assert_eq!(&SRC[f.span.range()], "Perm(a[tid], 1)");
    }

    #[test]
    fn annotation_given_apart_keeps_its_offset() {
        let a = annotation("barrier ensures", "Perm(a[tid], 1)", 100).expect("parses");
        assert_eq!(a.kind, AnnotKind::BarrierEnsures);
        assert_eq!(a.formula.span, Span::new(100, 115));
        assert!(annotation("barrier ensure", "Perm(a[tid], 1)", 0).is_err());
    }

    #[test]
    fn misspelled_kind_is_an_error_with_span() {
        let src = "//@ thread ensure Perm(a[0], 1)\n";
        let err = extract(src).expect_err("typo");
        assert_eq!(err.span(), Some(Span::new(4, 10)));
    }
}
