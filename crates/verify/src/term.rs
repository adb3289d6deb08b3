//! SMT terms over booleans and bit-vectors, built with constant folding and light
//! simplification so that fixed launch dimensions collapse before the solver sees them.

use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

/// The sort of a term: a boolean or a bit-vector of the given width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sort {
    /// `Bool`.
    Bool,
    /// `(_ BitVec w)`.
    Bv(u32),
}

impl Sort {
    /// The bit width (1 for `Bool`).
    pub fn width(self) -> u32 {
        match self {
            Sort::Bool => 1,
            Sort::Bv(w) => w,
        }
    }
}

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

/// A free symbol.
#[derive(Debug)]
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

/// Operators (the SMT-LIB core and bit-vector theories).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Not,
    And,
    Or,
    Ite,
    Eq,
    Add,
    Sub,
    Mul,
    Neg,
    Udiv,
    Sdiv,
    Urem,
    Srem,
    BvAnd,
    BvOr,
    BvXor,
    BvNot,
    Shl,
    Lshr,
    Ashr,
    Ult,
    Ule,
    Slt,
    Sle,
    Extract(u32, u32),
    Zext(u32),
    Sext(u32),
}

/// The node behind a [`Term`].
#[derive(Debug)]
pub enum Node {
    /// A boolean constant.
    BoolC(bool),
    /// A bit-vector constant of width `.0` (at most 128 bits are representable).
    BvC(u32, u128),
    /// A free symbol.
    Sym(Sym),
    /// An operator applied to arguments.
    App(Op, Vec<Term>, Sort),
    /// `(forall (vars) body)`: the symbols `vars` are bound in `body` (a boolean).
    Forall(Vec<Term>, Term),
}

/// A shared, immutable term.
#[derive(Clone, Debug)]
pub struct Term(pub Arc<Node>);

fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

fn to_signed(w: u32, v: u128) -> i128 {
    if w >= 128 {
        return v as i128;
    }
    if v >> (w - 1) & 1 == 1 {
        (v | !mask(w)) as i128
    } else {
        v as i128
    }
}

impl Term {
    fn mk(n: Node) -> Term {
        Term(Arc::new(n))
    }

    /// A boolean constant.
    pub fn bool(b: bool) -> Term {
        Term::mk(Node::BoolC(b))
    }

    /// `true`.
    pub fn tt() -> Term {
        Term::bool(true)
    }

    /// `false`.
    pub fn ff() -> Term {
        Term::bool(false)
    }

    /// A bit-vector constant (`v` truncated to `w` bits).
    pub fn bv(w: u32, v: u128) -> Term {
        Term::mk(Node::BvC(w, v & mask(w)))
    }

    /// A bit-vector constant from a signed value. Constants hold at most 128 bits, so a
    /// negative one wider than that is the sign extension of its 128-bit form.
    pub fn bvi(w: u32, v: i128) -> Term {
        if w > 128 && v < 0 {
            return Term::app(
                Op::Sext(w - 128),
                vec![Term::bv(128, v as u128)],
                Sort::Bv(w),
            );
        }
        Term::bv(w, v as u128)
    }

    /// A fresh symbol.
    pub fn sym(name: String, sort: Sort, kind: SymKind, thread: u8) -> Term {
        Term::mk(Node::Sym(Sym {
            name,
            sort,
            kind,
            thread,
        }))
    }

    /// The sort of the term.
    pub fn sort(&self) -> Sort {
        match &*self.0 {
            Node::BoolC(_) => Sort::Bool,
            Node::BvC(w, _) => Sort::Bv(*w),
            Node::Sym(s) => s.sort,
            Node::App(_, _, s) => *s,
            Node::Forall(..) => Sort::Bool,
        }
    }

    /// Bit width (1 for booleans).
    pub fn width(&self) -> u32 {
        self.sort().width()
    }

    /// The boolean constant, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match &*self.0 {
            Node::BoolC(b) => Some(*b),
            _ => None,
        }
    }

    /// The bit-vector constant (unsigned), if this is one.
    pub fn as_bv(&self) -> Option<u128> {
        match &*self.0 {
            Node::BvC(_, v) => Some(*v),
            _ => None,
        }
    }

    /// The symbol, if this is one.
    pub fn as_sym(&self) -> Option<&Sym> {
        match &*self.0 {
            Node::Sym(s) => Some(s),
            _ => None,
        }
    }

    /// The thread a symbol belongs to (0 for shared symbols and non-symbols).
    pub fn thread(&self) -> u8 {
        self.as_sym().map_or(0, |s| s.thread)
    }

    /// True when the two terms are the same by pointer, constant or symbol name.
    pub fn same(&self, o: &Term) -> bool {
        if Arc::ptr_eq(&self.0, &o.0) {
            return true;
        }
        match (&*self.0, &*o.0) {
            (Node::BoolC(a), Node::BoolC(b)) => a == b,
            (Node::BvC(w1, a), Node::BvC(w2, b)) => w1 == w2 && a == b,
            (Node::Sym(a), Node::Sym(b)) => a.name == b.name,
            (Node::App(o1, a1, _), Node::App(o2, a2, _)) => {
                o1 == o2 && a1.len() == a2.len() && a1.iter().zip(a2).all(|(x, y)| x.same(y))
            }
            _ => false,
        }
    }

    /// Pointer identity, for memo tables.
    pub fn id(&self) -> usize {
        Arc::as_ptr(&self.0) as usize
    }

    fn app(op: Op, args: Vec<Term>, sort: Sort) -> Term {
        Term::mk(Node::App(op, args, sort))
    }

    // ---- booleans -------------------------------------------------------------------

    /// `(not a)`.
    pub fn not(&self) -> Term {
        match &*self.0 {
            Node::BoolC(b) => Term::bool(!b),
            Node::App(Op::Not, a, _) => a[0].clone(),
            _ => Term::app(Op::Not, vec![self.clone()], Sort::Bool),
        }
    }

    /// Conjunction of `xs`.
    pub fn and_all(xs: impl IntoIterator<Item = Term>) -> Term {
        let mut out: Vec<Term> = vec![];
        for x in xs {
            match x.as_bool() {
                Some(true) => {}
                Some(false) => return Term::ff(),
                None => {
                    if let Node::App(Op::And, inner, _) = &*x.0 {
                        for i in inner {
                            if !out.iter().any(|o| o.same(i)) {
                                out.push(i.clone());
                            }
                        }
                    } else if !out.iter().any(|o| o.same(&x)) {
                        out.push(x);
                    }
                }
            }
        }
        match out.len() {
            0 => Term::tt(),
            1 => out.pop().unwrap_or_else(Term::tt),
            _ => Term::app(Op::And, out, Sort::Bool),
        }
    }

    /// Disjunction of `xs`.
    pub fn or_all(xs: impl IntoIterator<Item = Term>) -> Term {
        let mut out: Vec<Term> = vec![];
        for x in xs {
            match x.as_bool() {
                Some(false) => {}
                Some(true) => return Term::tt(),
                None => {
                    if !out.iter().any(|o| o.same(&x)) {
                        out.push(x);
                    }
                }
            }
        }
        match out.len() {
            0 => Term::ff(),
            1 => out.pop().unwrap_or_else(Term::ff),
            _ => Term::app(Op::Or, out, Sort::Bool),
        }
    }

    /// `a ∧ b`.
    pub fn and(&self, b: &Term) -> Term {
        Term::and_all([self.clone(), b.clone()])
    }

    /// `a ∨ b`.
    pub fn or(&self, b: &Term) -> Term {
        Term::or_all([self.clone(), b.clone()])
    }

    /// `a → b`.
    pub fn implies(&self, b: &Term) -> Term {
        self.not().or(b)
    }

    /// `(ite c a b)`.
    pub fn ite(c: &Term, a: &Term, b: &Term) -> Term {
        match c.as_bool() {
            Some(true) => return a.clone(),
            Some(false) => return b.clone(),
            None => {}
        }
        if a.same(b) {
            return a.clone();
        }
        if a.sort() == Sort::Bool {
            match (a.as_bool(), b.as_bool()) {
                (Some(true), Some(false)) => return c.clone(),
                (Some(false), Some(true)) => return c.not(),
                (Some(true), None) => return c.or(b),
                (Some(false), None) => return c.not().and(b),
                (None, Some(true)) => return c.not().or(a),
                (None, Some(false)) => return c.and(a),
                _ => {}
            }
        }
        Term::app(Op::Ite, vec![c.clone(), a.clone(), b.clone()], a.sort())
    }

    /// `(= a b)`.
    pub fn eq(&self, b: &Term) -> Term {
        if self.same(b) {
            return Term::tt();
        }
        match (&*self.0, &*b.0) {
            (Node::BoolC(x), Node::BoolC(y)) => return Term::bool(x == y),
            (Node::BvC(_, x), Node::BvC(_, y)) => return Term::bool(x == y),
            (Node::BoolC(true), _) => return b.clone(),
            (_, Node::BoolC(true)) => return self.clone(),
            (Node::BoolC(false), _) => return b.not(),
            (_, Node::BoolC(false)) => return self.not(),
            _ => {}
        }
        Term::app(Op::Eq, vec![self.clone(), b.clone()], Sort::Bool)
    }

    /// `(distinct a b)` as `(not (= a b))`.
    pub fn ne(&self, b: &Term) -> Term {
        self.eq(b).not()
    }

    // ---- bit-vectors ----------------------------------------------------------------

    fn bin(op: Op, a: &Term, b: &Term) -> Term {
        let w = a.width();
        if let (Some(x), Some(y)) = (a.as_bv(), b.as_bv()) {
            if w <= 128 {
                if let Some(r) = fold_bin(op, w, x, y) {
                    return r;
                }
            }
        }
        let (ca, cb) = (a.as_bv(), b.as_bv());
        match op {
            Op::Add => {
                if ca == Some(0) {
                    return b.clone();
                }
                if cb == Some(0) {
                    return a.clone();
                }
            }
            Op::Sub if cb == Some(0) => return a.clone(),
            Op::Sub if a.same(b) => return Term::bv(w, 0),
            Op::Mul => {
                if ca == Some(0) || cb == Some(0) {
                    return Term::bv(w, 0);
                }
                if ca == Some(1) {
                    return b.clone();
                }
                if cb == Some(1) {
                    return a.clone();
                }
            }
            Op::Udiv | Op::Sdiv if cb == Some(1) => return a.clone(),
            Op::Shl | Op::Lshr | Op::Ashr if cb == Some(0) => return a.clone(),
            Op::BvAnd if ca == Some(0) || cb == Some(0) => return Term::bv(w, 0),
            Op::BvOr | Op::BvXor if cb == Some(0) => return a.clone(),
            Op::BvOr | Op::BvXor if ca == Some(0) => return b.clone(),
            _ => {}
        }
        let sort = match op {
            Op::Ult | Op::Ule | Op::Slt | Op::Sle => Sort::Bool,
            _ => Sort::Bv(w),
        };
        if sort == Sort::Bool && a.same(b) {
            return Term::bool(matches!(op, Op::Ule | Op::Sle));
        }
        Term::app(op, vec![a.clone(), b.clone()], sort)
    }

    /// `bvadd`.
    pub fn add(&self, b: &Term) -> Term {
        Term::bin(Op::Add, self, b)
    }
    /// `bvsub`.
    pub fn sub(&self, b: &Term) -> Term {
        Term::bin(Op::Sub, self, b)
    }
    /// `bvmul`.
    pub fn mul(&self, b: &Term) -> Term {
        Term::bin(Op::Mul, self, b)
    }
    /// `bvudiv`.
    pub fn udiv(&self, b: &Term) -> Term {
        Term::bin(Op::Udiv, self, b)
    }
    /// `bvsdiv`.
    pub fn sdiv(&self, b: &Term) -> Term {
        Term::bin(Op::Sdiv, self, b)
    }
    /// `bvurem`.
    pub fn urem(&self, b: &Term) -> Term {
        Term::bin(Op::Urem, self, b)
    }
    /// `bvsrem`.
    pub fn srem(&self, b: &Term) -> Term {
        Term::bin(Op::Srem, self, b)
    }
    /// `bvand`.
    pub fn bvand(&self, b: &Term) -> Term {
        Term::bin(Op::BvAnd, self, b)
    }
    /// `bvor`.
    pub fn bvor(&self, b: &Term) -> Term {
        Term::bin(Op::BvOr, self, b)
    }
    /// `bvxor`.
    pub fn bvxor(&self, b: &Term) -> Term {
        Term::bin(Op::BvXor, self, b)
    }
    /// `bvshl`.
    pub fn shl(&self, b: &Term) -> Term {
        Term::bin(Op::Shl, self, b)
    }
    /// `bvlshr`.
    pub fn lshr(&self, b: &Term) -> Term {
        Term::bin(Op::Lshr, self, b)
    }
    /// `bvashr`.
    pub fn ashr(&self, b: &Term) -> Term {
        Term::bin(Op::Ashr, self, b)
    }
    /// `bvult`.
    pub fn ult(&self, b: &Term) -> Term {
        Term::bin(Op::Ult, self, b)
    }
    /// `bvule`.
    pub fn ule(&self, b: &Term) -> Term {
        Term::bin(Op::Ule, self, b)
    }
    /// `bvslt`.
    pub fn slt(&self, b: &Term) -> Term {
        Term::bin(Op::Slt, self, b)
    }
    /// `bvsle`.
    pub fn sle(&self, b: &Term) -> Term {
        Term::bin(Op::Sle, self, b)
    }

    /// `bvneg`.
    pub fn neg(&self) -> Term {
        if let Some(v) = self.as_bv().filter(|_| self.width() <= 128) {
            return Term::bv(self.width(), v.wrapping_neg());
        }
        Term::app(Op::Neg, vec![self.clone()], self.sort())
    }

    /// `bvnot`.
    pub fn bvnot(&self) -> Term {
        if let Some(v) = self.as_bv().filter(|_| self.width() <= 128) {
            return Term::bv(self.width(), !v);
        }
        Term::app(Op::BvNot, vec![self.clone()], self.sort())
    }

    /// `((_ extract hi lo) a)`.
    pub fn extract(&self, hi: u32, lo: u32) -> Term {
        let w = self.width();
        if lo == 0 && hi + 1 == w {
            return self.clone();
        }
        if let Some(v) = self.as_bv() {
            return Term::bv(hi - lo + 1, v.checked_shr(lo).unwrap_or(0));
        }
        if let Node::App(Op::Zext(_) | Op::Sext(_), a, _) = &*self.0 {
            if lo == 0 && hi + 1 == a[0].width() {
                return a[0].clone();
            }
        }
        Term::app(
            Op::Extract(hi, lo),
            vec![self.clone()],
            Sort::Bv(hi - lo + 1),
        )
    }

    /// Zero-extends to `w` bits (or truncates when narrower).
    pub fn zext_to(&self, w: u32) -> Term {
        let cur = self.width();
        if w == cur {
            return self.clone();
        }
        if w < cur {
            return self.extract(w - 1, 0);
        }
        if let Some(v) = self.as_bv() {
            return Term::bv(w, v);
        }
        Term::app(Op::Zext(w - cur), vec![self.clone()], Sort::Bv(w))
    }

    /// Sign-extends to `w` bits (or truncates when narrower).
    pub fn sext_to(&self, w: u32) -> Term {
        let cur = self.width();
        if w == cur {
            return self.clone();
        }
        if w < cur {
            return self.extract(w - 1, 0);
        }
        if let Some(v) = self.as_bv() {
            if w <= 128 {
                return Term::bvi(w, to_signed(cur, v));
            }
        }
        Term::app(Op::Sext(w - cur), vec![self.clone()], Sort::Bv(w))
    }

    /// Extends to `w` bits, signed or not.
    pub fn ext_to(&self, w: u32, signed: bool) -> Term {
        if signed {
            self.sext_to(w)
        } else {
            self.zext_to(w)
        }
    }

    /// Calls `f` on every distinct free symbol of the term.
    pub fn syms(&self, out: &mut Vec<Term>, seen: &mut HashSet<usize>) {
        if !seen.insert(self.id()) {
            return;
        }
        match &*self.0 {
            Node::Sym(_) => out.push(self.clone()),
            Node::App(_, args, _) => args.iter().for_each(|a| a.syms(out, seen)),
            Node::Forall(vars, body) => {
                let bound: HashSet<&str> = vars
                    .iter()
                    .filter_map(|v| v.as_sym().map(|s| s.name.as_str()))
                    .collect();
                out.extend(
                    body.free_syms()
                        .into_iter()
                        .filter(|s| s.as_sym().is_some_and(|x| !bound.contains(x.name.as_str()))),
                );
            }
            _ => {}
        }
    }

    /// `∀ vars. body` (a constant body stays a constant; no variable, no quantifier).
    pub fn forall(vars: Vec<Term>, body: Term) -> Term {
        if body.as_bool().is_some() || vars.is_empty() {
            return body;
        }
        Term::mk(Node::Forall(vars, body))
    }

    /// The term with every symbol that `f` maps replaced (operators rebuilt, so constants
    /// fold again).
    pub fn subst(&self, f: &dyn Fn(&Sym) -> Option<Term>) -> Term {
        self.subst_memo(f, &mut std::collections::HashMap::new())
    }

    fn subst_memo(
        &self,
        f: &dyn Fn(&Sym) -> Option<Term>,
        memo: &mut std::collections::HashMap<usize, Term>,
    ) -> Term {
        if let Some(t) = memo.get(&self.id()) {
            return t.clone();
        }
        let out = match &*self.0 {
            Node::Sym(s) => f(s).unwrap_or_else(|| self.clone()),
            Node::App(op, args, _) => {
                let a: Vec<Term> = args.iter().map(|x| x.subst_memo(f, memo)).collect();
                Term::rebuild(*op, &a).unwrap_or_else(|| self.clone())
            }
            Node::Forall(vars, body) => {
                let names: HashSet<&str> = vars
                    .iter()
                    .filter_map(|v| v.as_sym().map(|s| s.name.as_str()))
                    .collect();
                let inner = body.subst(&|s: &Sym| {
                    if names.contains(s.name.as_str()) {
                        None
                    } else {
                        f(s)
                    }
                });
                Term::forall(vars.clone(), inner)
            }
            _ => self.clone(),
        };
        memo.insert(self.id(), out.clone());
        out
    }

    /// `op` applied to `a` through the folding constructors (`None` for a wrong arity).
    fn rebuild(op: Op, a: &[Term]) -> Option<Term> {
        Some(match (op, a) {
            (Op::Not, [x]) => x.not(),
            (Op::And, xs) => Term::and_all(xs.iter().cloned()),
            (Op::Or, xs) => Term::or_all(xs.iter().cloned()),
            (Op::Ite, [c, x, y]) => Term::ite(c, x, y),
            (Op::Eq, [x, y]) => x.eq(y),
            (Op::Neg, [x]) => x.neg(),
            (Op::BvNot, [x]) => x.bvnot(),
            (Op::Extract(h, l), [x]) => x.extract(h, l),
            (Op::Zext(n), [x]) => x.zext_to(x.width() + n),
            (Op::Sext(n), [x]) => x.sext_to(x.width() + n),
            (op, [x, y]) => Term::bin(op, x, y),
            _ => return None,
        })
    }

    /// The distinct free symbols of the term.
    pub fn free_syms(&self) -> Vec<Term> {
        let mut out = vec![];
        self.syms(&mut out, &mut HashSet::new());
        out
    }
}

fn fold_bin(op: Op, w: u32, x: u128, y: u128) -> Option<Term> {
    let m = mask(w);
    let (sx, sy) = (to_signed(w, x), to_signed(w, y));
    let bv = |v: u128| Some(Term::bv(w, v & m));
    match op {
        Op::Add => bv(x.wrapping_add(y)),
        Op::Sub => bv(x.wrapping_sub(y)),
        Op::Mul => bv(x.wrapping_mul(y)),
        Op::Udiv if y != 0 => bv(x / y),
        Op::Urem if y != 0 => bv(x % y),
        Op::Sdiv if y != 0 && w < 128 => bv(sx.wrapping_div(sy) as u128),
        Op::Srem if y != 0 && w < 128 => bv(sx.wrapping_rem(sy) as u128),
        Op::BvAnd => bv(x & y),
        Op::BvOr => bv(x | y),
        Op::BvXor => bv(x ^ y),
        Op::Shl => bv(if y >= w as u128 { 0 } else { x << y }),
        Op::Lshr => bv(if y >= w as u128 { 0 } else { x >> y }),
        Op::Ashr if w < 128 => {
            let s = if y >= w as u128 { w - 1 } else { y as u32 };
            bv((sx >> s) as u128)
        }
        Op::Ult => Some(Term::bool(x < y)),
        Op::Ule => Some(Term::bool(x <= y)),
        Op::Slt => Some(Term::bool(sx < sy)),
        Op::Sle => Some(Term::bool(sx <= sy)),
        _ => None,
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &*self.0 {
            Node::BoolC(b) => write!(f, "{b}"),
            Node::BvC(w, v) => write!(f, "(_ bv{v} {w})"),
            Node::Sym(s) => f.write_str(&s.name),
            Node::App(op, args, _) => {
                write!(f, "({}", op_name(*op))?;
                for a in args {
                    write!(f, " {a}")?;
                }
                f.write_str(")")
            }
            Node::Forall(vars, body) => {
                f.write_str("(forall (")?;
                for v in vars {
                    let w = v.width();
                    match v.sort() {
                        Sort::Bool => write!(f, "({v} Bool)")?,
                        Sort::Bv(_) => write!(f, "({v} (_ BitVec {w}))")?,
                    }
                }
                write!(f, ") {body})")
            }
        }
    }
}

/// The SMT-LIB spelling of an operator.
pub fn op_name(op: Op) -> String {
    match op {
        Op::Not => "not".into(),
        Op::And => "and".into(),
        Op::Or => "or".into(),
        Op::Ite => "ite".into(),
        Op::Eq => "=".into(),
        Op::Add => "bvadd".into(),
        Op::Sub => "bvsub".into(),
        Op::Mul => "bvmul".into(),
        Op::Neg => "bvneg".into(),
        Op::Udiv => "bvudiv".into(),
        Op::Sdiv => "bvsdiv".into(),
        Op::Urem => "bvurem".into(),
        Op::Srem => "bvsrem".into(),
        Op::BvAnd => "bvand".into(),
        Op::BvOr => "bvor".into(),
        Op::BvXor => "bvxor".into(),
        Op::BvNot => "bvnot".into(),
        Op::Shl => "bvshl".into(),
        Op::Lshr => "bvlshr".into(),
        Op::Ashr => "bvashr".into(),
        Op::Ult => "bvult".into(),
        Op::Ule => "bvule".into(),
        Op::Slt => "bvslt".into(),
        Op::Sle => "bvsle".into(),
        Op::Extract(h, l) => format!("(_ extract {h} {l})"),
        Op::Zext(n) => format!("(_ zero_extend {n})"),
        Op::Sext(n) => format!("(_ sign_extend {n})"),
    }
}

/// Signed-overflow condition of `a op b` for `op` in add, sub, mul (width-doubling check).
pub fn signed_overflow(op: Op, a: &Term, b: &Term) -> Term {
    let w = a.width();
    let ww = 2 * w;
    let (xa, xb) = (a.sext_to(ww), b.sext_to(ww));
    let exact = match op {
        Op::Add => xa.add(&xb),
        Op::Sub => xa.sub(&xb),
        _ => xa.mul(&xb),
    };
    let min = Term::bvi(ww, -(1i128 << (w - 1)));
    let max = Term::bvi(ww, (1i128 << (w - 1)) - 1);
    exact.slt(&min).or(&max.slt(&exact))
}

/// Unsigned-wrap condition of `a op b` for `op` in add, sub, mul.
pub fn unsigned_wrap(op: Op, a: &Term, b: &Term) -> Term {
    let w = a.width();
    match op {
        Op::Sub => a.ult(b),
        Op::Add => {
            let s = a.zext_to(w + 1).add(&b.zext_to(w + 1));
            s.extract(w, w).eq(&Term::bv(1, 1))
        }
        _ => {
            let p = a.zext_to(2 * w).mul(&b.zext_to(2 * w));
            p.extract(2 * w - 1, w).ne(&Term::bv(w, 0))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_constants_with_wrapping() {
        let a = Term::bv(32, 0xffff_ffff);
        assert_eq!(a.add(&Term::bv(32, 1)).as_bv(), Some(0));
        assert_eq!(
            Term::bvi(32, -8).ashr(&Term::bv(32, 1)).as_bv(),
            Some(0xffff_fffc)
        );
        assert_eq!(Term::bv(32, 1).shl(&Term::bv(32, 40)).as_bv(), Some(0));
        assert_eq!(
            Term::bvi(32, -7).sdiv(&Term::bv(32, 2)).as_bv(),
            Some((-3i32) as u32 as u128)
        );
        assert_eq!(
            Term::bvi(32, -1).slt(&Term::bv(32, 0)).as_bool(),
            Some(true)
        );
        assert_eq!(Term::bvi(8, -1).sext_to(16).as_bv(), Some(0xffff));
    }

    #[test]
    fn overflow_conditions_fold() {
        let big = Term::bv(32, 65520);
        assert_eq!(signed_overflow(Op::Mul, &big, &big).as_bool(), Some(true));
        let small = Term::bv(32, 100);
        assert_eq!(
            signed_overflow(Op::Mul, &small, &small).as_bool(),
            Some(false)
        );
        assert_eq!(unsigned_wrap(Op::Sub, &small, &big).as_bool(), Some(true));
        assert_eq!(
            unsigned_wrap(Op::Add, &Term::bv(32, 0xffff_ffff), &Term::bv(32, 1)).as_bool(),
            Some(true)
        );
    }
}
