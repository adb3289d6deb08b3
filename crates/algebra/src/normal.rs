//! The canonical normal form: every term becomes a quotient of polynomials over atoms
//! (see [`poly`](crate::poly)); non-polynomial operations (`max`, `log`, `sqrt`, comparisons,
//! integer bit operations, …) are atoms over normalised arguments. Normalisation is memoised
//! per term and linear chains of sums are flattened, so work follows the DAG, not its tree.

use crate::fxhash::{FxHashMap, FxHasher};
use crate::poly::{
    add_scaled, as_constant, constant, from_terms, mul_q, AtomId, FracId, Mono, Poly, PolyId, Vars,
};
use crate::rat::rat_to_i128;
use crate::term::{Cmp, Func, Func2, IntOp, Node, SymId, TermId};
use crate::Store;
use hashbrown::hash_table::{Entry, HashTable};
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// The head of a non-polynomial atom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Head {
    /// A real function other than `exp` of a polynomial.
    Fn(Func),
    /// A real function of two arguments.
    Fn2(Func2),
    /// `exp` of a proper quotient.
    ExpFrac,
    /// `max` of a set of arguments (flattened, sorted, deduplicated).
    Max,
    /// `min` of a set of arguments.
    Min,
    /// `a^b` with `b` not a small integer.
    Pow,
    /// `d op 0` for the normalised difference `d`.
    Cmp(Cmp),
    /// Logical negation.
    Not,
    /// Logical and.
    And,
    /// Logical or.
    Or,
    /// `c ? a : b`.
    Select,
    /// Machine-integer operation.
    Int(IntOp, u8, bool),
}

/// An atom: an input symbol, an uninterpreted application over normal forms, or a special
/// value (infinity, NaN, opaque) compared by identity.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// An input symbol.
    Sym(SymId),
    /// `head(args…)` with arguments in normal form.
    App(Head, Vec<FracId>),
    /// A term with no real value.
    Special(TermId),
}

/// A quotient `num / den` of interned polynomials with a canonicalised denominator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Frac {
    /// Numerator.
    pub num: PolyId,
    /// Denominator (1 for polynomials).
    pub den: PolyId,
}

/// Hashing for interned values; polynomials hash their coefficients' numerators and
/// denominators directly (`Ratio`'s own `Hash` expands a continued fraction, far too slow).
trait Key: Eq {
    fn key_hash<H: Hasher>(&self, h: &mut H);
}

impl Key for Poly {
    fn key_hash<H: Hasher>(&self, h: &mut H) {
        h.write_usize(self.len());
        for (m, c) in self {
            m.hash(h);
            c.numer().hash(h);
            c.denom().hash(h);
        }
    }
}

impl Key for Atom {
    fn key_hash<H: Hasher>(&self, h: &mut H) {
        self.hash(h)
    }
}

impl Key for Frac {
    fn key_hash<H: Hasher>(&self, h: &mut H) {
        self.hash(h)
    }
}

/// Values numbered in order of first sight. Each value's hash is kept beside it, so a value
/// is hashed once when looked up and never again when the table grows (a polynomial of a
/// hundred monomials costs as much to hash as to build).
struct Interner<T: Key> {
    items: Vec<Rc<T>>,
    hashes: Vec<u64>,
    table: HashTable<u32>,
}

impl<T: Key> Interner<T> {
    fn new() -> Self {
        Interner {
            items: Vec::new(),
            hashes: Vec::new(),
            table: HashTable::new(),
        }
    }
    fn intern(&mut self, v: T) -> u32 {
        let mut h = FxHasher::default();
        v.key_hash(&mut h);
        let hash = h.finish();
        let (items, hashes) = (&self.items, &self.hashes);
        match self.table.entry(
            hash,
            |&i| hashes[i as usize] == hash && *items[i as usize] == v,
            |&i| hashes[i as usize],
        ) {
            Entry::Occupied(e) => *e.get(),
            Entry::Vacant(slot) => {
                let i = self.items.len() as u32;
                slot.insert(i);
                self.items.push(Rc::new(v));
                self.hashes.push(hash);
                i
            }
        }
    }
    fn get(&self, i: u32) -> Rc<T> {
        self.items[i as usize].clone()
    }
}

/// Why a term has no normal form.
pub type NormalError = String;

/// Asked now and then during long work; `Some(reason)` stops it (a memory or time budget
/// spent elsewhere), and the work answers `Err(reason)`.
pub type Interrupt = std::sync::Arc<dyn Fn() -> Option<String> + Send + Sync>;

/// Nodes normalised between two questions to the [`Interrupt`].
const INTERRUPT_EVERY: u32 = 256;

/// Normalises terms of one store (which may grow between calls); normal forms are comparable
/// only within one normaliser.
pub struct Normalizer {
    atoms: Interner<Atom>,
    polys: Interner<Poly>,
    fracs: Interner<Frac>,
    memo: Vec<FracId>,
    exp_add: FxHashMap<(PolyId, PolyId), PolyId>,
    exp_neg: FxHashMap<PolyId, PolyId>,
    inv_cache: FxHashMap<FracId, FracId>,
    interrupt: Option<Interrupt>,
    ticks: u32,
}

/// One operand of a node being normalised: `±t` or, for a flattened product, `±t·with`.
struct Dep {
    t: TermId,
    pos: bool,
    with: Option<TermId>,
}

const NONE: FracId = u32::MAX;
const ZERO: PolyId = 0;
const ONE: PolyId = 1;

impl Default for Normalizer {
    fn default() -> Self {
        Normalizer::new()
    }
}

impl Normalizer {
    /// A normaliser with no forms yet.
    pub fn new() -> Normalizer {
        let mut polys = Interner::new();
        polys.intern(Poly::new());
        polys.intern(constant(BigRational::one()));
        Normalizer {
            atoms: Interner::new(),
            polys,
            fracs: Interner::new(),
            memo: Vec::new(),
            exp_add: FxHashMap::default(),
            exp_neg: FxHashMap::default(),
            inv_cache: FxHashMap::default(),
            interrupt: None,
            ticks: 0,
        }
    }

    /// Makes [`Normalizer::normalize`] ask `f` every few hundred nodes and stop with its reason.
    pub fn set_interrupt(&mut self, f: Option<Interrupt>) {
        self.interrupt = f;
    }

    /// The quotient `f`.
    pub fn frac(&self, f: FracId) -> Frac {
        *self.fracs.get(f)
    }

    /// The polynomial `p`.
    pub fn poly(&self, p: PolyId) -> Rc<Poly> {
        self.polys.get(p)
    }

    /// The atom `a`.
    pub fn atom(&self, a: AtomId) -> Rc<Atom> {
        self.atoms.get(a)
    }

    /// Number of monomials of the normal form `f` (numerator plus denominator).
    pub fn size(&self, f: FracId) -> usize {
        let q = self.frac(f);
        self.poly(q.num).len()
            + if q.den == ONE {
                0
            } else {
                self.poly(q.den).len()
            }
    }

    /// True when `a` and `b` denote the same function: identical forms, or equal
    /// cross-multiplied numerators.
    pub fn same(&mut self, a: FracId, b: FracId) -> bool {
        if a == b {
            return true;
        }
        let (fa, fb) = (self.frac(a), self.frac(b));
        if fa.den == fb.den {
            return false; // canonical numerators over the same denominator differ
        }
        let l = self.mul_poly(&self.poly(fa.num), &self.poly(fb.den));
        let r = self.mul_poly(&self.poly(fb.num), &self.poly(fa.den));
        l == r
    }

    fn known(&self, t: TermId) -> bool {
        self.memo.get(t.0 as usize).is_some_and(|&f| f != NONE)
    }

    fn nf(&self, t: TermId) -> FracId {
        self.memo[t.0 as usize]
    }

    /// The normal form of `t`.
    pub fn normalize(&mut self, store: &Store, t: TermId) -> Result<FracId, NormalError> {
        if self.memo.len() < store.len() {
            self.memo.resize(store.len(), NONE);
        }
        let mut stack = vec![t];
        let mut deps = Vec::new();
        while let Some(&x) = stack.last() {
            if self.known(x) {
                stack.pop();
                continue;
            }
            deps.clear();
            self.deps(store, x, &mut deps);
            let before = stack.len();
            for d in deps.iter() {
                for u in [Some(d.t), d.with].into_iter().flatten() {
                    if !self.known(u) {
                        stack.push(u);
                    }
                }
            }
            if stack.len() > before {
                continue;
            }
            self.ticks = self.ticks.wrapping_add(1);
            if self.ticks % INTERRUPT_EVERY == 0 {
                if let Some(why) = self.interrupt.as_ref().and_then(|f| f()) {
                    return Err(why);
                }
            }
            let f = self.compute(store, x, &deps)?;
            self.memo[x.0 as usize] = f;
            stack.pop();
        }
        Ok(self.nf(t))
    }

    /// The operands `x` needs first; sums are flattened through unshared sum nodes (with
    /// signs), and unshared products inside them become direct products of their operands.
    fn deps(&self, store: &Store, x: TermId, out: &mut Vec<Dep>) {
        match *store.node(x) {
            Node::Add(..) | Node::Sub(..) | Node::Neg(_) => {
                let mut work = vec![(x, true)];
                while let Some((t, pos)) = work.pop() {
                    let expand = t == x || (store.parents(t) <= 1 && !self.known(t));
                    match *store.node(t) {
                        Node::Add(a, b) if expand => {
                            work.push((b, pos));
                            work.push((a, pos));
                        }
                        Node::Sub(a, b) if expand => {
                            work.push((b, !pos));
                            work.push((a, pos));
                        }
                        Node::Neg(a) if expand => work.push((a, !pos)),
                        Node::Mul(a, b) if expand => out.push(Dep {
                            t: a,
                            pos,
                            with: Some(b),
                        }),
                        _ => out.push(Dep { t, pos, with: None }),
                    }
                }
            }
            ref n => out.extend(n.children().iter().map(|&c| Dep {
                t: c,
                pos: true,
                with: None,
            })),
        }
    }

    fn compute(&mut self, store: &Store, x: TermId, deps: &[Dep]) -> Result<FracId, NormalError> {
        let arg = |i: usize| self.memo[deps[i].t.0 as usize];
        let node = *store.node(x);
        match node {
            Node::Const(c) => self.poly_frac(constant(store.constant_value(c).clone())),
            Node::Inf(_) | Node::NaN | Node::Opaque(_) => self.atom_frac(Atom::Special(x)),
            Node::Sym(s) => self.atom_frac(Atom::Sym(s)),
            Node::Add(..) | Node::Sub(..) | Node::Neg(_) => self.sum_deps(deps),
            Node::Mul(..) => {
                let (a, b) = (arg(0), arg(1));
                self.mul(a, b)
            }
            Node::Div(..) => {
                let (a, b) = (arg(0), arg(1));
                let inv = self.inv(b)?;
                self.mul(a, inv)
            }
            Node::Fn(f, _) => {
                let a = arg(0);
                self.func(f, a)
            }
            Node::Fn2(g, ..) => self.app(Head::Fn2(g), vec![arg(0), arg(1)]),
            Node::Pow(..) => {
                let (a, b) = (arg(0), arg(1));
                let fb = self.frac(b);
                let n = if fb.den == ONE {
                    as_constant(&self.poly(fb.num)).and_then(|q| rat_to_i128(&q))
                } else {
                    None
                };
                match n {
                    Some(n) if n.abs() <= 64 => self.powi(a, n as i32),
                    _ => self.app(Head::Pow, vec![a, b]),
                }
            }
            Node::Max(..) | Node::Min(..) => {
                let head = if matches!(node, Node::Max(..)) {
                    Head::Max
                } else {
                    Head::Min
                };
                self.extremum(head, arg(0), arg(1))
            }
            Node::Cmp(op, ..) => {
                let (a, b) = (arg(0), arg(1));
                let d = self.sum(&[(a, true), (b, false)])?;
                if let Some(q) = self.constant_of(d) {
                    let holds = op.holds(q.cmp(&BigRational::zero()));
                    return self
                        .poly_frac(constant(BigRational::from_integer((holds as i64).into())));
                }
                self.app(Head::Cmp(op), vec![d])
            }
            Node::Not(_) => self.app(Head::Not, vec![arg(0)]),
            Node::And(..) | Node::Or(..) => {
                let head = if matches!(node, Node::And(..)) {
                    Head::And
                } else {
                    Head::Or
                };
                let mut args = vec![arg(0), arg(1)];
                args.sort_unstable();
                args.dedup();
                self.app(head, args)
            }
            Node::Select(..) => {
                let (c, a, b) = (arg(0), arg(1), arg(2));
                if a == b {
                    return Ok(a);
                }
                if let Some(q) = self.constant_of(c) {
                    return Ok(if q.is_zero() { b } else { a });
                }
                self.app(Head::Select, vec![c, a, b])
            }
            Node::Int(op, bits, signed, ..) => {
                let args = if op == IntOp::Wrap {
                    vec![arg(0)]
                } else {
                    vec![arg(0), arg(1)]
                };
                self.app(Head::Int(op, bits, signed), args)
            }
        }
    }

    // ---- quotients ----

    fn constant_of(&self, f: FracId) -> Option<BigRational> {
        let q = self.frac(f);
        if q.den != ONE {
            return None;
        }
        as_constant(&self.poly(q.num))
    }

    fn poly_frac(&mut self, p: Poly) -> Result<FracId, NormalError> {
        let num = self.polys.intern(p);
        Ok(self.fracs.intern(Frac { num, den: ONE }))
    }

    fn atom_frac(&mut self, a: Atom) -> Result<FracId, NormalError> {
        let id = self.atoms.intern(a);
        let mut p = Poly::new();
        p.insert(
            Mono {
                vars: [(id, 1)].into_iter().collect(),
                exp: ZERO,
            },
            BigRational::one(),
        );
        self.poly_frac(p)
    }

    fn app(&mut self, head: Head, args: Vec<FracId>) -> Result<FracId, NormalError> {
        self.atom_frac(Atom::App(head, args))
    }

    /// Builds the canonical quotient `num / den`.
    fn make_frac(&mut self, num: Poly, den: Poly) -> Result<FracId, NormalError> {
        if den.is_empty() {
            return Err("division by a quotient that is identically zero".into());
        }
        if num.is_empty() {
            return self.poly_frac(num);
        }
        let (lead, lc) = if den.len() == 1 {
            let (m, c) = den
                .iter()
                .next()
                .map(|(m, c)| (m.clone(), c.clone()))
                .unwrap_or_default();
            (m, c)
        } else if let Some(c) = den.get(&Mono::unit()) {
            (Mono::unit(), c.clone())
        } else {
            let (m, c) = den
                .iter()
                .next_back()
                .map(|(m, c)| (m.clone(), c.clone()))
                .unwrap_or_default();
            (m, c)
        };
        if lc.is_zero() {
            return Err("zero leading coefficient".into());
        }
        if den.len() > 1 && lead.is_unit() && lc.is_one() {
            // Already canonical: nothing to divide by.
            let num = self.polys.intern(num);
            let den = self.polys.intern(den);
            return Ok(self.fracs.intern(Frac { num, den }));
        }
        let inv_m = self.inv_mono(&lead);
        let inv_c = lc.recip();
        let num = self.mul_mono(&num, &inv_m, &inv_c);
        if den.len() == 1 {
            return self.poly_frac(num);
        }
        let den = self.mul_mono(&den, &inv_m, &inv_c);
        // num = k · den exactly?
        if num.len() == den.len() {
            if let Some(k) = num.get(&Mono::unit()).cloned() {
                let scaled_eq = den
                    .iter()
                    .all(|(m, c)| num.get(m).is_some_and(|d| *d == c * &k));
                if scaled_eq {
                    return self.poly_frac(constant(k));
                }
            }
        }
        let num = self.polys.intern(num);
        let den = self.polys.intern(den);
        Ok(self.fracs.intern(Frac { num, den }))
    }

    /// `num / den` for the denominator of a normal form other than 1, which [`make_frac`]
    /// keeps as it is (it holds the monomial 1 with coefficient 1): the same quotient without
    /// copying and hashing the denominator again.
    ///
    /// [`make_frac`]: Normalizer::make_frac
    fn over_canonical(&mut self, num: Poly, den: PolyId) -> Result<FracId, NormalError> {
        debug_assert!({
            let d = self.poly(den);
            d.len() > 1 && d.get(&Mono::unit()).is_some_and(|c| c.is_one())
        });
        if num.is_empty() {
            return self.poly_frac(num);
        }
        let num = self.polys.intern(num);
        Ok(self.fracs.intern(Frac { num, den }))
    }

    /// A flattened sum: direct products of polynomial operands are accumulated without
    /// interning them.
    fn sum_deps(&mut self, deps: &[Dep]) -> Result<FracId, NormalError> {
        let mut direct = Vec::new();
        let mut items = Vec::new();
        for d in deps {
            let f = self.nf(d.t);
            match d.with {
                None => items.push((f, d.pos)),
                Some(w) => {
                    let g = self.nf(w);
                    let (fa, fb) = (self.frac(f), self.frac(g));
                    if fa.den == ONE && fb.den == ONE {
                        let (pa, pb) = (self.poly(fa.num), self.poly(fb.num));
                        for (am, ac) in pa.iter() {
                            for (bm, bc) in pb.iter() {
                                let m = self.mono_mul(am, bm);
                                let c = mul_q(ac, bc);
                                direct.push((m, if d.pos { c } else { -c }));
                            }
                        }
                    } else {
                        let p = self.mul(f, g)?;
                        items.push((p, d.pos));
                    }
                }
            }
        }
        let direct = from_terms(direct);
        if !direct.is_empty() || items.is_empty() {
            let f = self.poly_frac(direct)?;
            items.push((f, true));
        }
        self.sum(&items)
    }

    fn sum(&mut self, items: &[(FracId, bool)]) -> Result<FracId, NormalError> {
        if let [(f, true)] = *items {
            return Ok(f);
        }
        // Group by denominator so sums of polynomials stay polynomial arithmetic.
        let mut groups: Vec<(PolyId, Poly)> = Vec::new();
        let mut index: FxHashMap<PolyId, usize> = FxHashMap::default();
        let one = BigRational::one();
        let minus = -BigRational::one();
        for &(f, pos) in items {
            let q = self.frac(f);
            let g = *index.entry(q.den).or_insert_with(|| {
                groups.push((q.den, Poly::new()));
                groups.len() - 1
            });
            let num = self.poly(q.num);
            add_scaled(&mut groups[g].1, &num, if pos { &one } else { &minus });
        }
        if let [(den, _)] = groups[..] {
            if den != ONE {
                let num = groups.pop().map(|g| g.1).unwrap_or_default();
                return self.over_canonical(num, den);
            }
        }
        let mut acc: Option<(Poly, Poly)> = None;
        for (den, num) in groups {
            let den = (*self.poly(den)).clone();
            acc = Some(match acc {
                None => (num, den),
                Some((an, ad)) => {
                    let l = self.mul_poly(&an, &den);
                    let r = self.mul_poly(&num, &ad);
                    let mut n = l;
                    add_scaled(&mut n, &r, &one);
                    (n, self.mul_poly(&ad, &den))
                }
            });
        }
        match acc {
            None => self.poly_frac(Poly::new()),
            Some((n, d))
                if d.len() == 1 && d.contains_key(&Mono::unit()) && d[&Mono::unit()].is_one() =>
            {
                self.poly_frac(n)
            }
            Some((n, d)) => self.make_frac(n, d),
        }
    }

    fn mul(&mut self, a: FracId, b: FracId) -> Result<FracId, NormalError> {
        let (fa, fb) = (self.frac(a), self.frac(b));
        let num = self.mul_poly(&self.poly(fa.num), &self.poly(fb.num));
        if fa.den == ONE && fb.den == ONE {
            return self.poly_frac(num);
        }
        if fa.den == ONE || fb.den == ONE {
            return self.over_canonical(num, fa.den.max(fb.den));
        }
        let den = self.mul_poly(&self.poly(fa.den), &self.poly(fb.den));
        self.make_frac(num, den)
    }

    fn inv(&mut self, a: FracId) -> Result<FracId, NormalError> {
        if let Some(&r) = self.inv_cache.get(&a) {
            return Ok(r);
        }
        let r = self.inv_uncached(a)?;
        self.inv_cache.insert(a, r);
        Ok(r)
    }

    fn inv_uncached(&mut self, a: FracId) -> Result<FracId, NormalError> {
        let fa = self.frac(a);
        let num = (*self.poly(fa.den)).clone();
        let den = (*self.poly(fa.num)).clone();
        self.make_frac(num, den)
    }

    fn powi(&mut self, a: FracId, n: i32) -> Result<FracId, NormalError> {
        let base = if n < 0 { self.inv(a)? } else { a };
        let mut acc = self.poly_frac(constant(BigRational::one()))?;
        for _ in 0..n.unsigned_abs() {
            acc = self.mul(acc, base)?;
        }
        Ok(acc)
    }

    fn func(&mut self, f: Func, a: FracId) -> Result<FracId, NormalError> {
        let fa = self.frac(a);
        match f {
            Func::Exp if fa.den == ONE => {
                let mut p = Poly::new();
                p.insert(
                    Mono {
                        vars: Vars::new(),
                        exp: fa.num,
                    },
                    BigRational::one(),
                );
                self.poly_frac(p)
            }
            Func::Exp => self.app(Head::ExpFrac, vec![a]),
            Func::Log if fa.den == ONE => {
                // log(exp(e)) = e
                let num = self.poly(fa.num);
                if num.len() == 1 {
                    if let Some((m, c)) = num.iter().next() {
                        if m.vars.is_empty() && c.is_one() && m.exp != ZERO {
                            let e = m.exp;
                            return Ok(self.fracs.intern(Frac { num: e, den: ONE }));
                        }
                    }
                }
                self.app(Head::Fn(f), vec![a])
            }
            _ => self.app(Head::Fn(f), vec![a]),
        }
    }

    fn extremum(&mut self, head: Head, a: FracId, b: FracId) -> Result<FracId, NormalError> {
        if a == b {
            return Ok(a);
        }
        if let (Some(x), Some(y)) = (self.constant_of(a), self.constant_of(b)) {
            let pick_a = (x >= y) == (head == Head::Max);
            return Ok(if pick_a { a } else { b });
        }
        let mut args = Vec::new();
        for f in [a, b] {
            match self.single_atom(f).map(|id| self.atom(id)) {
                Some(atom) => match &*atom {
                    Atom::App(h, inner) if *h == head => args.extend(inner.iter().copied()),
                    _ => args.push(f),
                },
                None => args.push(f),
            }
        }
        // Of several constant arguments only the extreme one matters.
        let mut best: Option<(FracId, BigRational)> = None;
        let mut rest = Vec::with_capacity(args.len());
        for f in args {
            match self.constant_of(f) {
                Some(q) => {
                    let better =
                        best.as_ref().is_none_or(
                            |(_, b)| {
                                if head == Head::Max {
                                    q > *b
                                } else {
                                    q < *b
                                }
                            },
                        );
                    if better {
                        best = Some((f, q));
                    }
                }
                None => rest.push(f),
            }
        }
        let mut args = rest;
        if let Some((f, _)) = best {
            args.push(f);
        }
        args.sort_unstable();
        args.dedup();
        if args.len() == 1 {
            return Ok(args[0]);
        }
        self.app(head, args)
    }

    /// The atom when `f` is exactly `1 · atom`.
    fn single_atom(&self, f: FracId) -> Option<AtomId> {
        let q = self.frac(f);
        if q.den != ONE {
            return None;
        }
        let p = self.poly(q.num);
        if p.len() != 1 {
            return None;
        }
        let (m, c) = p.iter().next()?;
        (c.is_one() && m.exp == ZERO && m.vars.len() == 1 && m.vars[0].1 == 1).then(|| m.vars[0].0)
    }

    // ---- polynomial arithmetic ----

    fn add_exp(&mut self, a: PolyId, b: PolyId) -> PolyId {
        if a == ZERO {
            return b;
        }
        if b == ZERO {
            return a;
        }
        let key = if a <= b { (a, b) } else { (b, a) };
        if let Some(&r) = self.exp_add.get(&key) {
            return r;
        }
        let mut p = (*self.poly(a)).clone();
        add_scaled(&mut p, &self.poly(b), &BigRational::one());
        let r = self.polys.intern(p);
        self.exp_add.insert(key, r);
        r
    }

    fn neg_exp(&mut self, a: PolyId) -> PolyId {
        if a == ZERO {
            return a;
        }
        if let Some(&r) = self.exp_neg.get(&a) {
            return r;
        }
        let p: Poly = self.poly(a).iter().map(|(m, c)| (m.clone(), -c)).collect();
        let r = self.polys.intern(p);
        self.exp_neg.insert(a, r);
        r
    }

    fn mono_mul(&mut self, a: &Mono, b: &Mono) -> Mono {
        Mono {
            vars: Mono::mul_vars(&a.vars, &b.vars),
            exp: self.add_exp(a.exp, b.exp),
        }
    }

    fn inv_mono(&mut self, m: &Mono) -> Mono {
        Mono {
            vars: m.vars.iter().map(|&(a, k)| (a, -k)).collect(),
            exp: self.neg_exp(m.exp),
        }
    }

    fn mul_mono(&mut self, p: &Poly, m: &Mono, c: &BigRational) -> Poly {
        let mut terms = Vec::with_capacity(p.len());
        for (pm, pc) in p {
            terms.push((self.mono_mul(pm, m), mul_q(pc, c)));
        }
        from_terms(terms)
    }

    fn mul_poly(&mut self, a: &Poly, b: &Poly) -> Poly {
        let mut terms = Vec::with_capacity(a.len() * b.len());
        for (am, ac) in a {
            for (bm, bc) in b {
                terms.push((self.mono_mul(am, bm), mul_q(ac, bc)));
            }
        }
        from_terms(terms)
    }

    /// Renders the normal form `f` as text (atoms by id, exponentials as `exp(#p)`).
    pub fn show(&self, f: FracId) -> String {
        let q = self.frac(f);
        let num = self.show_poly(q.num);
        if q.den == ONE {
            num
        } else {
            format!("({num}) / ({})", self.show_poly(q.den))
        }
    }

    fn show_poly(&self, p: PolyId) -> String {
        let p = self.poly(p);
        if p.is_empty() {
            return "0".into();
        }
        let mut parts = Vec::new();
        for (m, c) in p.iter() {
            let mut s = crate::rat::rat_text(c);
            for &(a, k) in &m.vars {
                s.push_str(&format!("*a{a}^{k}"));
            }
            if m.exp != ZERO {
                s.push_str(&format!("*exp(#{})", m.exp));
            }
            parts.push(s);
        }
        parts.join(" + ")
    }
}
