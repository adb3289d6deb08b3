//! What a solver prints back: `sat`, `(error "…")`, `((x #x0001) (b true))`, read into an
//! owned tree; and the values of a model as numbers.

use std::fmt;

/// One S-expression printed by a solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A symbol, numeral, literal or string (strings keep their quotes).
    Atom(String),
    /// A parenthesised list.
    List(Vec<Reply>),
}

impl Reply {
    /// The atom's text.
    pub fn atom(&self) -> Option<&str> {
        match self {
            Reply::Atom(a) => Some(a),
            Reply::List(_) => None,
        }
    }

    /// The list's items.
    pub fn list(&self) -> Option<&[Reply]> {
        match self {
            Reply::List(l) => Some(l),
            Reply::Atom(_) => None,
        }
    }

    /// True for `(error …)`.
    pub fn is_error(&self) -> bool {
        matches!(self.list(), Some([Reply::Atom(e), ..]) if e == "error")
    }

    /// A model value as an unsigned number: `true`/`false` as 1/0, `#x…`, `#b…`, a numeral,
    /// or `(_ bvN w)`; `None` for anything else (negative integers included).
    pub fn as_u128(&self) -> Option<u128> {
        match self {
            Reply::Atom(a) => match a.as_str() {
                "true" => Some(1),
                "false" => Some(0),
                _ => {
                    if let Some(h) = a.strip_prefix("#x") {
                        u128::from_str_radix(h, 16).ok()
                    } else if let Some(b) = a.strip_prefix("#b") {
                        u128::from_str_radix(b, 2).ok()
                    } else {
                        a.parse().ok()
                    }
                }
            },
            Reply::List(l) => match l.as_slice() {
                [Reply::Atom(u), Reply::Atom(v), _] if u == "_" => {
                    v.strip_prefix("bv")?.parse().ok()
                }
                _ => None,
            },
        }
    }

    /// The definitions of a `get-model` answer, name and value (the body of a
    /// `(define-fun NAME (ARGS) SORT BODY)`): z3 4.8 prints `(model (define-fun …) …)` or
    /// `((define-fun …) …)`, cvc5 `(\n(define-fun …)\n…)`; comments and other items are left
    /// out. `None` when the reply is no model (an error).
    pub fn model(&self) -> Option<Vec<(String, Reply)>> {
        let items = self.list()?;
        let items = match items {
            [Reply::Atom(m), rest @ ..] if m == "model" => rest,
            _ => items,
        };
        let mut out = vec![];
        for item in items {
            let l = item.list()?;
            match l {
                [Reply::Atom(d), Reply::Atom(name), _args, _sort, body]
                    if d == "define-fun" || d == "define-fun-rec" =>
                {
                    out.push((name.clone(), body.clone()));
                }
                // cvc5 declares the sorts and elements of uninterpreted sorts.
                [Reply::Atom(d), ..] if d.starts_with("declare-") => {}
                _ => return None,
            }
        }
        Some(out)
    }

    /// Parses the first complete S-expression of `text`; `None` while it is incomplete or
    /// when there is none. The second result is the number of bytes read.
    pub fn parse(text: &str) -> Option<(Reply, usize)> {
        let b = text.as_bytes();
        let mut i = 0;
        let mut stack: Vec<Vec<Reply>> = vec![];
        loop {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if i >= b.len() {
                return None;
            }
            let item = match b[i] {
                b'(' => {
                    stack.push(vec![]);
                    i += 1;
                    continue;
                }
                b')' => {
                    i += 1;
                    Reply::List(stack.pop()?)
                }
                b';' => {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                    continue;
                }
                _ => {
                    let start = i;
                    i = atom_end(b, i)?;
                    Reply::Atom(text[start..i].to_string())
                }
            };
            match stack.last_mut() {
                Some(top) => top.push(item),
                None => return Some((item, i)),
            }
        }
    }
}

/// The end of the atom starting at `i` (strings and `|quoted|` symbols whole); `None` when it
/// is cut off.
fn atom_end(b: &[u8], mut i: usize) -> Option<usize> {
    match b[i] {
        b'"' => {
            i += 1;
            loop {
                match b.get(i)? {
                    // `""` inside a string is an escaped quote.
                    b'"' if b.get(i + 1) == Some(&b'"') => i += 2,
                    b'"' => return Some(i + 1),
                    _ => i += 1,
                }
            }
        }
        b'|' => {
            let close = b[i + 1..].iter().position(|&c| c == b'|')?;
            Some(i + close + 2)
        }
        _ => {
            while i < b.len() && !b[i].is_ascii_whitespace() && !matches!(b[i], b'(' | b')') {
                i += 1;
            }
            Some(i)
        }
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Atom(a) => f.write_str(a),
            Reply::List(l) => {
                f.write_str("(")?;
                for (i, x) in l.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str(")")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_models_of_both_solvers() {
        let z3 =
            "(\n  (define-fun y () Int\n    (- 1))\n  (define-fun x () (_ BitVec 8)\n    #xf1)\n)";
        let z3_old = "(model \n  (define-fun x () (_ BitVec 8) #xf1)\n)";
        let cvc5 = "(\n(define-fun x () (_ BitVec 8) #b11110001)\n(define-fun y () Int (- 1))\n)";
        for text in [z3, z3_old, cvc5] {
            let (r, _) = Reply::parse(text).unwrap();
            let m = r.model().unwrap_or_else(|| panic!("{text}"));
            let x = m.iter().find(|(n, _)| n == "x").map(|(_, v)| v.as_u128());
            assert_eq!(x, Some(Some(0xf1)), "{text}");
            if let Some((_, y)) = m.iter().find(|(n, _)| n == "y") {
                assert_eq!(y.to_string(), "(- 1)");
            }
        }
        let (e, _) = Reply::parse("(error \"model is not available\")").unwrap();
        assert_eq!(e.model(), None);
    }

    #[test]
    fn reads_cvc5_values() {
        // cvc5 prints bit-vectors in binary and rationals as divisions.
        let (r, _) = Reply::parse("((x #b00000111) ((< y 2) true) (r (/ 7 2)) (z (- 3)))").unwrap();
        let vals: Vec<Option<u128>> = r
            .list()
            .unwrap()
            .iter()
            .map(|p| p.list().unwrap()[1].as_u128())
            .collect();
        assert_eq!(vals, vec![Some(7), Some(1), None, None]);
    }

    #[test]
    fn reads_answers_errors_and_values() {
        assert_eq!(Reply::parse("sat\n"), Some((Reply::Atom("sat".into()), 3)));
        assert!(Reply::parse("((x #x0").is_none());
        let (r, _) = Reply::parse("((x #x00ff) (b true) (y (_ bv7 8)) (z (- 4)))").unwrap();
        let vals: Vec<Option<u128>> = r
            .list()
            .unwrap()
            .iter()
            .map(|p| p.list().unwrap()[1].as_u128())
            .collect();
        assert_eq!(vals, vec![Some(255), Some(1), Some(7), None]);
        let (e, _) = Reply::parse("(error \"line 1: \"\"x\"\" (unknown)\")").unwrap();
        assert!(e.is_error());
        assert_eq!(e.list().unwrap().len(), 2);
        assert_eq!(
            r.to_string(),
            "((x #x00ff) (b true) (y (_ bv7 8)) (z (- 4)))"
        );
    }
}
