//! S-expressions built in a hash-consed arena: a handle is a `Copy` index, equal expressions
//! get equal handles, and shared subtrees are stored once.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// A handle to an atom or a list in an [`Arena`]; meaningful only with the arena that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SExpr(u32);

const LIST: u32 = 1 << 31;

impl SExpr {
    fn index(self) -> usize {
        (self.0 & !LIST) as usize
    }

    fn is_list(self) -> bool {
        self.0 & LIST != 0
    }
}

#[derive(Default)]
struct Inner {
    atoms: Vec<Arc<str>>,
    atom_ids: HashMap<Arc<str>, u32>,
    lists: Vec<Arc<[SExpr]>>,
    list_ids: HashMap<Arc<[SExpr]>, u32>,
}

/// The store of S-expressions of one query (or one solver session). Building takes `&self`,
/// so an encoder can hold handles while it builds more.
#[derive(Default)]
pub struct Arena(RefCell<Inner>);

impl Arena {
    /// An empty arena.
    pub fn new() -> Arena {
        Arena::default()
    }

    /// The atom `name` (a symbol, numeral, keyword or bit-vector literal).
    pub fn atom(&self, name: impl AsRef<str>) -> SExpr {
        let name = name.as_ref();
        let mut inner = self.0.borrow_mut();
        if let Some(&i) = inner.atom_ids.get(name) {
            return SExpr(i);
        }
        let i = inner.atoms.len() as u32;
        assert!(i < LIST, "S-expression arena full");
        let s: Arc<str> = Arc::from(name);
        inner.atoms.push(s.clone());
        inner.atom_ids.insert(s, i);
        SExpr(i)
    }

    /// The list of `items`.
    pub fn list(&self, items: Vec<SExpr>) -> SExpr {
        let mut inner = self.0.borrow_mut();
        if let Some(&i) = inner.list_ids.get(items.as_slice()) {
            return SExpr(i | LIST);
        }
        let i = inner.lists.len() as u32;
        assert!(i < LIST, "S-expression arena full");
        let l: Arc<[SExpr]> = Arc::from(items);
        inner.lists.push(l.clone());
        inner.list_ids.insert(l, i);
        SExpr(i | LIST)
    }

    /// `(op args…)`.
    pub fn app(&self, op: &str, args: impl IntoIterator<Item = SExpr>) -> SExpr {
        let mut items = vec![self.atom(op)];
        items.extend(args);
        self.list(items)
    }

    /// A decimal numeral.
    pub fn numeral(&self, v: impl fmt::Display) -> SExpr {
        self.atom(v.to_string())
    }

    /// An integer constant: a numeral, or `(- n)` when negative.
    pub fn int(&self, v: i128) -> SExpr {
        if v < 0 {
            self.app("-", [self.numeral(v.unsigned_abs())])
        } else {
            self.numeral(v)
        }
    }

    /// `true`.
    pub fn true_(&self) -> SExpr {
        self.atom("true")
    }

    /// `false`.
    pub fn false_(&self) -> SExpr {
        self.atom("false")
    }

    /// The sort `Bool`.
    pub fn bool_sort(&self) -> SExpr {
        self.atom("Bool")
    }

    /// The sort `Int`.
    pub fn int_sort(&self) -> SExpr {
        self.atom("Int")
    }

    /// The sort `(_ BitVec w)`.
    pub fn bit_vec_sort(&self, w: u32) -> SExpr {
        self.list(vec![self.atom("_"), self.atom("BitVec"), self.numeral(w)])
    }

    /// `(= a b)`.
    pub fn eq(&self, a: SExpr, b: SExpr) -> SExpr {
        self.app("=", [a, b])
    }

    /// `(=> a b)`.
    pub fn imp(&self, a: SExpr, b: SExpr) -> SExpr {
        self.app("=>", [a, b])
    }

    /// The text of `e` when it is an atom.
    pub fn get_atom(&self, e: SExpr) -> Option<Arc<str>> {
        (!e.is_list()).then(|| self.0.borrow().atoms[e.index()].clone())
    }

    /// The items of `e` when it is a list.
    pub fn get_list(&self, e: SExpr) -> Option<Arc<[SExpr]>> {
        e.is_list()
            .then(|| self.0.borrow().lists[e.index()].clone())
    }

    /// `e` as SMT-LIB text (a `Display` value, written without building a string).
    pub fn display(&self, e: SExpr) -> Display<'_> {
        Display { arena: self, e }
    }

    /// Appends the text of `e` to `out`.
    pub fn write(&self, e: SExpr, out: &mut String) {
        let inner = self.0.borrow();
        write_into(&inner, e, out);
    }
}

fn write_into(inner: &Inner, e: SExpr, out: &mut String) {
    if !e.is_list() {
        out.push_str(&inner.atoms[e.index()]);
        return;
    }
    out.push('(');
    for (i, x) in inner.lists[e.index()].iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        write_into(inner, *x, out);
    }
    out.push(')');
}

/// An S-expression ready to print; see [`Arena::display`].
pub struct Display<'a> {
    arena: &'a Arena,
    e: SExpr,
}

impl fmt::Display for Display<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.arena.write(self.e, &mut s);
        f.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_expressions_share_one_handle_and_print_as_smt_lib() {
        let a = Arena::new();
        let x = a.atom("x");
        let e1 = a.app("bvadd", [x, a.numeral(1)]);
        let e2 = a.app("bvadd", [a.atom("x"), a.atom("1")]);
        assert_eq!(e1, e2);
        assert_ne!(e1, a.app("bvadd", [a.numeral(1), x]));
        assert_eq!(
            a.display(a.eq(e1, a.int(-3))).to_string(),
            "(= (bvadd x 1) (- 3))"
        );
        assert_eq!(a.display(a.bit_vec_sort(32)).to_string(), "(_ BitVec 32)");
        assert_eq!(a.get_atom(x).as_deref(), Some("x"));
        assert!(a.get_atom(e1).is_none());
        assert_eq!(a.get_list(e1).map(|l| l.len()), Some(3));
    }
}
