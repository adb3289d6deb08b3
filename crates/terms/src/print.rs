//! The one printer to SMT-LIB text: plainly (every subterm spelled where it occurs), or
//! with every non-leaf subterm that occurs more than once named once by a `let`, so a DAG
//! (a chain of divisions, a merged branch) prints linear in its size.

use crate::{Node, Sort, Symbol, Term};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed};
use std::collections::{BTreeMap, HashMap};
use std::fmt::{self, Write as _};

impl<S: Symbol> Term<S> {
    /// Appends the plain SMT-LIB text of the term.
    pub fn write_smt(&self, out: &mut String) {
        write(self, &HashMap::new(), &mut 0, out);
    }

    /// The plain SMT-LIB text.
    pub fn smt(&self) -> String {
        let mut s = String::new();
        self.write_smt(&mut s);
        s
    }

    /// Appends the SMT-LIB text with shared subterms named by `let` (`t!0`, `t!1`, …,
    /// names no source can spell).
    pub fn write_shared(&self, out: &mut String) {
        write_shared(self, &mut 0, out);
    }

    /// The SMT-LIB text with shared subterms named by `let`.
    pub fn smt_shared(&self) -> String {
        let mut s = String::new();
        self.write_shared(&mut s);
        s
    }

    /// Appends the SMT-LIB text of the term, spelling each subterm that `names` holds (by
    /// [`Term::id`]) as its name: for callers that name shared subterms themselves, e.g. by
    /// `define-fun`. Quantifier bodies are spelled without the names (a name may stand for
    /// a term over a symbol the quantifier binds) and name their own shared subterms by
    /// `let`.
    pub fn write_named(&self, names: &HashMap<usize, String>, out: &mut String) {
        write(self, names, &mut 0, out);
    }
}

/// The plain SMT-LIB text.
impl<S: Symbol> fmt::Display for Term<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.smt())
    }
}

/// Writes `t`, using `names` for the subterms named so far; `fresh` numbers the names of
/// quantifier bodies' own `let`s.
fn write<S: Symbol>(
    t: &Term<S>,
    names: &HashMap<usize, String>,
    fresh: &mut usize,
    out: &mut String,
) {
    if let Some(n) = names.get(&t.id()) {
        out.push_str(n);
        return;
    }
    match &*t.0 {
        Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Node::Int(v) if *v < 0 => {
            let _ = write!(out, "(- {})", v.unsigned_abs());
        }
        Node::Int(v) => {
            let _ = write!(out, "{v}");
        }
        Node::Real(r) => write_real(r, out),
        Node::Bv(w, v) => {
            let _ = write!(out, "(_ bv{v} {w})");
        }
        Node::Sym(s) => out.push_str(s.name()),
        Node::App(op, args, _) => {
            let arg_sort = args.last().map_or(Sort::Bool, Term::sort);
            out.push('(');
            out.push_str(&op.smt_name(arg_sort));
            for a in args {
                out.push(' ');
                write(a, names, fresh, out);
            }
            out.push(')');
        }
        Node::Call(f, args) => {
            if args.is_empty() {
                out.push_str(f.name());
                return;
            }
            out.push('(');
            out.push_str(f.name());
            for a in args {
                out.push(' ');
                write(a, names, fresh, out);
            }
            out.push(')');
        }
        Node::Forall(vars, body) => {
            out.push_str("(forall (");
            for v in vars {
                let _ = write!(out, "({} {})", v.smt(), v.sort());
            }
            out.push_str(") ");
            if names.is_empty() {
                write(body, names, fresh, out);
            } else {
                write_shared(body, fresh, out);
            }
            out.push(')');
        }
    }
}

fn write_real(r: &BigRational, out: &mut String) {
    let (num, den) = (r.numer(), r.denom());
    let mag = |n: &BigInt| format!("{}.0", n.abs());
    let body = if den.is_one() {
        mag(num)
    } else {
        format!("(/ {} {})", mag(num), mag(den))
    };
    if num.is_negative() {
        let _ = write!(out, "(- {body})");
    } else {
        out.push_str(&body);
    }
}

/// Writes `t` with every non-leaf subterm met more than once (outside quantifier bodies,
/// which name their own) bound by a `let`; bindings are grouped by depth, so each `let`
/// refers only to names of the `let`s around it.
fn write_shared<S: Symbol>(t: &Term<S>, fresh: &mut usize, out: &mut String) {
    // Parents of each subterm, and a post-order.
    let mut refs: HashMap<usize, u32> = HashMap::new();
    let mut order: Vec<&Term<S>> = vec![];
    let mut stack: Vec<(&Term<S>, bool)> = vec![(t, false)];
    while let Some((x, done)) = stack.pop() {
        if done {
            order.push(x);
            continue;
        }
        let c = refs.entry(x.id()).or_insert(0);
        *c += 1;
        if *c > 1 {
            continue;
        }
        stack.push((x, true));
        if !matches!(&*x.0, Node::Forall(..)) {
            for a in x.children().iter().rev() {
                stack.push((a, false));
            }
        }
    }
    let mut names: HashMap<usize, String> = HashMap::new();
    let mut depth: HashMap<usize, usize> = HashMap::new();
    let mut levels: BTreeMap<usize, Vec<(String, String)>> = BTreeMap::new();
    for x in order {
        let d = if matches!(&*x.0, Node::Forall(..)) {
            0
        } else {
            x.children()
                .iter()
                .map(|c| depth.get(&c.id()).copied().unwrap_or(0))
                .max()
                .unwrap_or(0)
        };
        let named = x.id() != t.id() && !x.is_leaf() && refs.get(&x.id()).copied().unwrap_or(0) > 1;
        if named {
            let mut text = String::new();
            write(x, &names, fresh, &mut text);
            let name = format!("t!{}", *fresh);
            *fresh += 1;
            names.insert(x.id(), name.clone());
            levels.entry(d + 1).or_default().push((name, text));
            depth.insert(x.id(), d + 1);
        } else {
            depth.insert(x.id(), d);
        }
    }
    for binds in levels.values() {
        out.push_str("(let (");
        for (n, e) in binds {
            let _ = write!(out, "({n} {e})");
        }
        out.push_str(") ");
    }
    // A body with no names of its own still gets `names` non-empty for quantifiers below,
    // so they name their shared subterms too.
    if names.is_empty() {
        names.insert(usize::MAX, String::new());
    }
    write(t, &names, fresh, out);
    for _ in 0..levels.len() {
        out.push(')');
    }
}
