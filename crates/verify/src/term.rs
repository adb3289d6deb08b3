//! verify's terms: the shared index-term language ([`warpsafe_terms`]) over booleans and
//! bit-vectors, with what is verify's own: each free symbol says what it stands for
//! ([`SymKind`], which decides uniformity and what a model reports) and which of the two
//! symbolic threads it belongs to. Folding, substitution and printing are the terms crate's.

use warpsafe_terms::Symbol;
pub use warpsafe_terms::{Node, Op, Sort};

/// What a free symbol stands for; decides uniformity and what a model reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymKind {
    /// Shared by both threads: launch dimensions, parameters, buffer lengths.
    Shared,
    /// `threadIdx` of one thread.
    Tid,
    /// `blockIdx` of one thread (uniform within a block).
    Bid,
    /// A value read from memory, a shuffle result or an opaque float test (never uniform).
    Load,
    /// A havocked loop variable or an unknown control flag (never uniform).
    Havoc,
    /// The iteration index of a loop; `sync` loops compare it across threads.
    Iter {
        /// True for loops containing barriers or warp collectives.
        sync: bool,
    },
    /// The exit iteration of a loop; `sync` loops leave at the same iteration in every
    /// thread of a block (the divergence property checks it).
    Exit {
        /// True for loops containing barriers or warp collectives.
        sync: bool,
    },
}

/// A free symbol of verify's queries.
#[derive(Clone, Debug)]
pub struct Sym {
    /// Its SMT-LIB name (unique within a verification run).
    pub name: String,
    /// Its sort.
    pub sort: Sort,
    /// What it stands for.
    pub kind: SymKind,
    /// 0 for shared symbols, else the thread (1 or 2) it belongs to.
    pub thread: u8,
}

impl Symbol for Sym {
    fn name(&self) -> &str {
        &self.name
    }
    fn sort(&self) -> Sort {
        self.sort
    }
}

/// A term of verify's queries.
pub type Term = warpsafe_terms::Term<Sym>;

/// The free symbol `name` of sort `sort`, standing for `kind`, of `thread` (0: shared).
pub fn sym(name: String, sort: Sort, kind: SymKind, thread: u8) -> Term {
    Term::sym(Sym {
        name,
        sort,
        kind,
        thread,
    })
}

/// The thread a term belongs to when it is a symbol (0 for shared symbols and non-symbols).
pub fn thread(t: &Term) -> u8 {
    t.as_sym().map_or(0, |s| s.thread)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_carry_their_thread_and_kind() {
        let t = sym("tid2_x".into(), Sort::BitVec(32), SymKind::Tid, 2);
        assert_eq!(thread(&t), 2);
        assert_eq!(t.as_sym().map(|s| s.kind), Some(SymKind::Tid));
        assert_eq!(thread(&t.add(&Term::bv(32, 1))), 0);
        assert_eq!(t.sort(), Sort::BitVec(32));
        assert_eq!(t.add(&Term::bv(32, 0)).smt(), "tid2_x");
    }
}
