//! The hash-consed term store and its simplifying constructors (constant folding, units,
//! IEEE infinities, a canonical operand order for commutative operators).
//!
//! A store holds tens of millions of nodes for a large kernel (every partial sum of a matrix
//! product is one), so a node costs what it must: its 16 bytes in the node table, a 4-byte
//! slot (and a control byte) in the interning table, which hashes the node where it lies
//! instead of keeping a second copy, and one byte of parent count; a store only read from
//! drops the table ([`Store::freeze`]).

use crate::fxhash::FxHashMap;
use crate::rat::{rat_func2, rat_int, rat_rint, rat_to_i128, wrap_int};
use crate::term::{Cmp, ConstId, Func, Func2, IntOp, Node, SymId, SymInfo, TermId};
use hashbrown::hash_table::{Entry, HashTable};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

mod import;

/// Owns every term: structurally equal terms get the same [`TermId`].
#[derive(Clone, Debug, Default)]
pub struct Store {
    nodes: Vec<Node>,
    /// Node indices, hashed by their node (see [`hash_node`]).
    table: HashTable<u32>,
    /// The table was dropped by [`Store::freeze`].
    frozen: bool,
    consts: Vec<BigRational>,
    const_map: FxHashMap<(BigInt, BigInt), ConstId>,
    /// Distinct parents per node, saturating at 255 (only "at most one" is ever asked).
    parents: Vec<u8>,
    syms: Vec<SymInfo>,
    sym_terms: Vec<TermId>,
    /// Symbol names, numbered (so a lookup by name allocates nothing).
    names: FxHashMap<String, u32>,
    sym_map: FxHashMap<(u32, Option<u64>), SymId>,
    /// The term of each constant, by [`ConstId`].
    const_terms: Vec<TermId>,
    opaque: u32,
}

impl Store {
    /// An empty store.
    pub fn new() -> Store {
        Store::default()
    }

    /// An empty store with room for `terms` terms before its tables grow (growing rehashes
    /// every node: a run that knows its size, such as one more block like the last, skips it).
    pub fn with_capacity(terms: usize) -> Store {
        Store {
            nodes: Vec::with_capacity(terms),
            table: HashTable::with_capacity(terms),
            parents: Vec::with_capacity(terms),
            ..Store::default()
        }
    }

    /// A node no other node equals (a new symbol, constant or opaque value): appended to a
    /// store without its table, interned otherwise.
    fn leaf(&mut self, n: Node) -> TermId {
        if self.frozen {
            self.append(n)
        } else {
            self.intern(n)
        }
    }

    /// Number of distinct terms.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when no term was built yet.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node of `t`.
    pub fn node(&self, t: TermId) -> &Node {
        &self.nodes[t.0 as usize]
    }

    /// How many distinct nodes use `t` as an operand (counted up to 255).
    pub fn parents(&self, t: TermId) -> u32 {
        self.parents[t.0 as usize] as u32
    }

    /// The description of symbol `s`.
    pub fn sym(&self, s: SymId) -> &SymInfo {
        &self.syms[s.0 as usize]
    }

    /// Every symbol, in creation order.
    pub fn syms(&self) -> &[SymInfo] {
        &self.syms
    }

    /// Interns `n` (no simplification).
    pub fn intern(&mut self, n: Node) -> TermId {
        if self.frozen {
            self.thaw();
        } else if self.table.len() == self.table.capacity() {
            self.reindex(2 * self.nodes.len().max(16));
        }
        let nodes = &self.nodes;
        let slot = match self.table.entry(
            hash_node(&n),
            |&i| nodes[i as usize] == n,
            |&i| hash_node(&nodes[i as usize]),
        ) {
            Entry::Occupied(e) => return TermId(*e.get()),
            Entry::Vacant(v) => v,
        };
        let t = TermId(self.nodes.len() as u32);
        slot.insert(t.0);
        for &c in n.children().iter() {
            let p = &mut self.parents[c.0 as usize];
            *p = p.saturating_add(1);
        }
        self.nodes.push(n);
        self.parents.push(0);
        t
    }

    /// Frees what only building needs: the interning table and the spare capacity of the
    /// node table (a store is kept for reading after a symbolic run). Building again
    /// ([`Store::intern`] and every constructor) first rebuilds the table.
    pub fn freeze(&mut self) {
        self.unindex();
        self.nodes.shrink_to_fit();
        self.parents.shrink_to_fit();
    }

    /// Drops the interning table (keeping the room for nodes): what is added next is appended
    /// ([`Store::import_unshared`]) until something is interned, which rebuilds the table.
    pub fn unindex(&mut self) {
        self.table = HashTable::new();
        self.frozen = true;
    }

    fn thaw(&mut self) {
        self.frozen = false;
        self.reindex(self.nodes.len());
    }

    /// Builds the interning table anew with room for `capacity` nodes, reading the nodes in
    /// order. A full table grows this way rather than by rehashing in place, which reads the
    /// node of every slot in the table's order: a cache miss per node on a large store.
    fn reindex(&mut self, capacity: usize) {
        let nodes = &self.nodes;
        self.table = HashTable::new();
        let mut table = HashTable::with_capacity(capacity.max(nodes.len()));
        for (i, n) in nodes.iter().enumerate() {
            table.insert_unique(hash_node(n), i as u32, |&j| hash_node(&nodes[j as usize]));
        }
        self.table = table;
    }

    /// The rational constant `q`.
    pub fn constant(&mut self, q: BigRational) -> TermId {
        let key = (q.numer().clone(), q.denom().clone());
        let id = match self.const_map.get(&key) {
            Some(&c) => c,
            None => {
                let c = ConstId(self.consts.len() as u32);
                self.consts.push(q);
                self.const_map.insert(key, c);
                let t = self.leaf(Node::Const(c));
                self.const_terms.push(t);
                return t;
            }
        };
        self.const_terms[id.0 as usize]
    }

    /// Number of distinct constants ([`ConstId`]s run from 0 below it).
    pub fn const_count(&self) -> usize {
        self.consts.len()
    }

    /// The value of constant `c`.
    pub fn constant_value(&self, c: ConstId) -> &BigRational {
        &self.consts[c.0 as usize]
    }

    /// The integer constant `n`.
    pub fn int(&mut self, n: i64) -> TermId {
        self.constant(rat_int(n))
    }

    /// The exact value of a float (infinities and NaN included).
    pub fn float(&mut self, v: f64) -> TermId {
        if v.is_nan() {
            self.intern(Node::NaN)
        } else if v.is_infinite() {
            self.intern(Node::Inf(v > 0.0))
        } else {
            let q = BigRational::from_float(v).unwrap_or_else(BigRational::zero);
            self.constant(q)
        }
    }

    /// The input symbol `name[index]` (or scalar `name`), created on first use.
    pub fn symbol(&mut self, name: &str, index: Option<u64>, integer: bool) -> TermId {
        let name_id = match self.names.get(name) {
            Some(&k) => k,
            None => {
                let k = self.names.len() as u32;
                self.names.insert(name.to_string(), k);
                k
            }
        };
        let key = (name_id, index);
        if let Some(&s) = self.sym_map.get(&key) {
            return self.sym_terms[s.0 as usize];
        }
        let s = SymId(self.syms.len() as u32);
        self.syms.push(SymInfo {
            name: name.to_string(),
            index,
            integer,
        });
        self.sym_map.insert(key, s);
        let t = self.leaf(Node::Sym(s));
        self.sym_terms.push(t);
        t
    }

    /// A fresh value with no meaning (compared only by identity).
    pub fn opaque(&mut self) -> TermId {
        self.opaque += 1;
        self.leaf(Node::Opaque(self.opaque))
    }

    /// The constant of `t`, if it is one.
    pub fn as_const(&self, t: TermId) -> Option<&BigRational> {
        match self.node(t) {
            Node::Const(c) => Some(&self.consts[c.0 as usize]),
            _ => None,
        }
    }

    fn is_zero(&self, t: TermId) -> bool {
        self.as_const(t).is_some_and(|q| q.is_zero())
    }

    fn is_one(&self, t: TermId) -> bool {
        self.as_const(t).is_some_and(|q| q.is_one())
    }

    fn inf(&self, t: TermId) -> Option<bool> {
        match self.node(t) {
            Node::Inf(s) => Some(*s),
            _ => None,
        }
    }

    fn is_nan(&self, t: TermId) -> bool {
        matches!(self.node(t), Node::NaN)
    }

    /// True for a term that denotes a real number (not an infinity, NaN or opaque value).
    fn finite(&self, t: TermId) -> bool {
        !matches!(self.node(t), Node::Inf(_) | Node::NaN)
    }

    fn nan(&mut self) -> TermId {
        self.intern(Node::NaN)
    }

    fn bool_const(&mut self, b: bool) -> TermId {
        self.int(b as i64)
    }

    /// `a + b`
    pub fn add(&mut self, a: TermId, b: TermId) -> TermId {
        if self.is_nan(a) || self.is_nan(b) {
            return self.nan();
        }
        match (self.inf(a), self.inf(b)) {
            (Some(x), Some(y)) if x != y => return self.nan(),
            (Some(_), _) => return a,
            (_, Some(_)) => return b,
            _ => {}
        }
        if self.is_zero(a) {
            return b;
        }
        if self.is_zero(b) {
            return a;
        }
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            let q = x + y;
            return self.constant(q);
        }
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        self.intern(Node::Add(a, b))
    }

    /// `a − b`
    pub fn sub(&mut self, a: TermId, b: TermId) -> TermId {
        if self.is_nan(a) || self.is_nan(b) {
            return self.nan();
        }
        match (self.inf(a), self.inf(b)) {
            (Some(x), Some(y)) if x == y => return self.nan(),
            (Some(_), _) => return a,
            (_, Some(y)) => return self.intern(Node::Inf(!y)),
            _ => {}
        }
        if self.is_zero(b) {
            return a;
        }
        if self.is_zero(a) {
            return self.neg(b);
        }
        if a == b {
            return self.int(0);
        }
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            let q = x - y;
            return self.constant(q);
        }
        self.intern(Node::Sub(a, b))
    }

    /// `−a`
    pub fn neg(&mut self, a: TermId) -> TermId {
        match *self.node(a) {
            Node::Const(c) => {
                let q = -self.constant_value(c);
                self.constant(q)
            }
            Node::Inf(s) => self.intern(Node::Inf(!s)),
            Node::NaN => a,
            Node::Neg(x) => x,
            _ => self.intern(Node::Neg(a)),
        }
    }

    /// `a · b`
    pub fn mul(&mut self, a: TermId, b: TermId) -> TermId {
        if self.is_nan(a) || self.is_nan(b) {
            return self.nan();
        }
        let sign = |s: &Store, t: TermId| s.as_const(t).map(|q| q.signum());
        match (self.inf(a), self.inf(b)) {
            (Some(x), Some(y)) => return self.intern(Node::Inf(x == y)),
            (Some(x), None) | (None, Some(x)) => {
                let other = if self.inf(a).is_some() { b } else { a };
                return match sign(self, other) {
                    Some(s) if s.is_zero() => self.nan(),
                    Some(s) => self.intern(Node::Inf(x == s.is_positive())),
                    None => {
                        let (a, b) = if a <= b { (a, b) } else { (b, a) };
                        self.intern(Node::Mul(a, b))
                    }
                };
            }
            _ => {}
        }
        if self.is_zero(a) || self.is_zero(b) {
            return self.int(0);
        }
        if self.is_one(a) {
            return b;
        }
        if self.is_one(b) {
            return a;
        }
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            let q = x * y;
            return self.constant(q);
        }
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        self.intern(Node::Mul(a, b))
    }

    /// `a / b` over the reals (a constant divided by constant zero follows IEEE: ±∞ or NaN).
    pub fn div(&mut self, a: TermId, b: TermId) -> TermId {
        if self.is_nan(a) || self.is_nan(b) {
            return self.nan();
        }
        if self.inf(b).is_some() {
            return if self.finite(a) {
                self.int(0)
            } else {
                self.nan()
            };
        }
        if self.is_one(b) {
            return a;
        }
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            if y.is_zero() {
                return if x.is_zero() {
                    self.nan()
                } else {
                    self.intern(Node::Inf(x.is_positive()))
                };
            }
            let q = x / y;
            return self.constant(q);
        }
        if let (Some(s), Some(y)) = (self.inf(a), self.as_const(b)) {
            if !y.is_zero() {
                return self.intern(Node::Inf(s == y.is_positive()));
            }
        }
        if self.is_zero(a) && self.as_const(b).is_some() {
            return a;
        }
        self.intern(Node::Div(a, b))
    }

    /// `f(a)`
    pub fn func(&mut self, f: Func, a: TermId) -> TermId {
        if self.is_nan(a) {
            return a;
        }
        if let Some(s) = self.inf(a) {
            return match self.func_of_inf(f, s, a) {
                Some(r) => r,
                None => self.intern(Node::Fn(f, a)),
            };
        }
        if let Some(q) = self.as_const(a).cloned() {
            let folded = match f {
                Func::Exp | Func::Exp2 if q.is_zero() => Some(BigRational::one()),
                Func::Log | Func::Log2 | Func::Log10 if q.is_one() => Some(BigRational::zero()),
                Func::Sqrt if q.is_zero() || q.is_one() => Some(q.clone()),
                Func::Abs => Some(q.abs()),
                Func::Floor => Some(q.floor()),
                Func::Ceil => Some(q.ceil()),
                Func::Round => Some(q.round()),
                Func::Trunc => Some(q.trunc()),
                Func::Sin | Func::Tan | Func::Tanh if q.is_zero() => Some(q.clone()),
                Func::Cos if q.is_zero() => Some(BigRational::one()),
                Func::Atan | Func::Asin | Func::Asinh | Func::Atanh | Func::Erf if q.is_zero() => {
                    Some(q.clone())
                }
                Func::Cbrt if q.is_zero() || q.abs().is_one() => Some(q.clone()),
                Func::Acos | Func::Acosh if q.is_one() => Some(BigRational::zero()),
                Func::Erfc if q.is_zero() => Some(BigRational::one()),
                Func::Rint => Some(rat_rint(&q)),
                Func::SinPi if q.is_integer() => Some(BigRational::zero()),
                Func::CosPi if q.is_integer() => {
                    let odd = num_integer::Integer::is_odd(&q.to_integer());
                    Some(rat_int(if odd { -1 } else { 1 }))
                }
                Func::Tgamma if q.is_one() || q == rat_int(2) => Some(BigRational::one()),
                Func::Lgamma if q.is_one() || q == rat_int(2) => Some(BigRational::zero()),
                _ => None,
            };
            if let Some(r) = folded {
                return self.constant(r);
            }
        }
        self.intern(Node::Fn(f, a))
    }

    /// `f(±∞)` where it is exact and rational (`None` for `atan`, whose limits are `±π/2`).
    fn func_of_inf(&mut self, f: Func, positive: bool, a: TermId) -> Option<TermId> {
        let sign = |s: bool| if s { 1 } else { -1 };
        Some(match (f, positive) {
            (Func::Exp | Func::Exp2, false) => self.int(0),
            (Func::Exp | Func::Exp2 | Func::Abs | Func::Lgamma, _) => self.intern(Node::Inf(true)),
            (Func::Log | Func::Log2 | Func::Log10 | Func::Sqrt, true) => a,
            (Func::Floor | Func::Ceil | Func::Round | Func::Trunc | Func::Rint, _) => a,
            (Func::Asinh | Func::Cbrt, _) | (Func::Acosh | Func::Tgamma, true) => a,
            (Func::Tanh | Func::Erf, s) => self.int(sign(s)),
            (Func::Erfc, s) => self.int(if s { 0 } else { 2 }),
            (Func::Atan, _) => return None,
            _ => self.nan(),
        })
    }

    /// `g(a, b)`, folded when both are constants and `g` is rational (a zero divisor of
    /// `fmod`/`remainder` gives NaN, as IEEE does).
    pub fn func2(&mut self, g: Func2, a: TermId, b: TermId) -> TermId {
        if self.is_nan(a) {
            return a;
        }
        // copysign(x, NaN) takes the NaN's sign bit, which no real value carries.
        if self.is_nan(b) && g != Func2::Copysign {
            return b;
        }
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            if g.is_rational() {
                return match rat_func2(g, x, y) {
                    Some(r) => self.constant(r),
                    None => self.nan(),
                };
            }
            if g == Func2::Atan2 && x.is_zero() && y.is_positive() {
                return a;
            }
        }
        self.intern(Node::Fn2(g, a, b))
    }

    /// `a^b`
    pub fn pow(&mut self, a: TermId, b: TermId) -> TermId {
        if self.is_zero(b) {
            return self.int(1);
        }
        if self.is_one(b) {
            return a;
        }
        if let (Some(x), Some(n)) = (self.as_const(a), self.as_const(b).and_then(rat_to_i128)) {
            if n.abs() <= 64 && !(x.is_zero() && n < 0) {
                let q = num_traits::pow::Pow::pow(x, n as i32);
                return self.constant(q);
            }
        }
        self.intern(Node::Pow(a, b))
    }

    fn order(&self, a: TermId, b: TermId) -> Option<std::cmp::Ordering> {
        match (self.node(a), self.node(b)) {
            (Node::Const(x), Node::Const(y)) => {
                Some(self.constant_value(*x).cmp(self.constant_value(*y)))
            }
            (Node::Inf(x), Node::Inf(y)) => Some(x.cmp(y)),
            (Node::Inf(x), Node::Const(_)) => Some(if *x {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Less
            }),
            (Node::Const(_), Node::Inf(y)) => Some(if *y {
                std::cmp::Ordering::Less
            } else {
                std::cmp::Ordering::Greater
            }),
            _ if a == b && self.finite(a) => Some(std::cmp::Ordering::Equal),
            _ => None,
        }
    }

    /// `max(a, b)` (NaN-ignoring, like `fmaxf`).
    pub fn max(&mut self, a: TermId, b: TermId) -> TermId {
        self.extremum(a, b, true)
    }

    /// `min(a, b)` (NaN-ignoring, like `fminf`).
    pub fn min(&mut self, a: TermId, b: TermId) -> TermId {
        self.extremum(a, b, false)
    }

    fn extremum(&mut self, a: TermId, b: TermId, is_max: bool) -> TermId {
        if self.is_nan(a) {
            return b;
        }
        if self.is_nan(b) || a == b {
            return a;
        }
        for (x, y) in [(a, b), (b, a)] {
            if let Some(s) = self.inf(x) {
                // max(−∞, y) = y, max(+∞, y) = +∞ (and dually for min).
                return if s == is_max { x } else { y };
            }
        }
        if let Some(o) = self.order(a, b) {
            let a_wins = (o == std::cmp::Ordering::Greater) == is_max;
            return if a_wins { a } else { b };
        }
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        self.intern(if is_max {
            Node::Max(a, b)
        } else {
            Node::Min(a, b)
        })
    }

    /// `a op b` as a 0/1 term.
    pub fn cmp(&mut self, op: Cmp, a: TermId, b: TermId) -> TermId {
        if self.is_nan(a) || self.is_nan(b) {
            return self.bool_const(op == Cmp::Ne);
        }
        if let Some(o) = self.order(a, b) {
            return self.bool_const(op.holds(o));
        }
        self.intern(Node::Cmp(op, a, b))
    }

    /// Logical not of a 0/1 term.
    pub fn not(&mut self, a: TermId) -> TermId {
        if let Some(q) = self.as_const(a) {
            let v = q.is_zero();
            return self.bool_const(v);
        }
        if let Node::Not(x) = *self.node(a) {
            return x;
        }
        self.intern(Node::Not(a))
    }

    /// Logical and of 0/1 terms.
    pub fn and(&mut self, a: TermId, b: TermId) -> TermId {
        for (x, y) in [(a, b), (b, a)] {
            if let Some(q) = self.as_const(x) {
                return if q.is_zero() { x } else { y };
            }
        }
        if a == b {
            return a;
        }
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        self.intern(Node::And(a, b))
    }

    /// Logical or of 0/1 terms.
    pub fn or(&mut self, a: TermId, b: TermId) -> TermId {
        for (x, y) in [(a, b), (b, a)] {
            if let Some(q) = self.as_const(x) {
                return if q.is_zero() { y } else { x };
            }
        }
        if a == b {
            return a;
        }
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        self.intern(Node::Or(a, b))
    }

    /// `c ? a : b`
    pub fn select(&mut self, c: TermId, a: TermId, b: TermId) -> TermId {
        if let Some(q) = self.as_const(c) {
            return if q.is_zero() { b } else { a };
        }
        if a == b {
            return a;
        }
        self.intern(Node::Select(c, a, b))
    }

    /// An integer operation of a `bits`-bit machine type (`b` ignored for [`IntOp::Wrap`]).
    pub fn int_op(&mut self, op: IntOp, bits: u8, signed: bool, a: TermId, b: TermId) -> TermId {
        if let (Some(x), Some(y)) = (
            self.as_const(a).and_then(rat_to_i128),
            self.as_const(b).and_then(rat_to_i128),
        ) {
            if let Some(r) = eval_int_op(op, bits, signed, x, y) {
                return self.constant(BigRational::from_integer(BigInt::from(r)));
            }
        }
        let b = if op == IntOp::Wrap { a } else { b };
        self.intern(Node::Int(op, bits, signed, a, b))
    }

    /// Adds `n` as a new term without looking for an equal one. The interning table, when
    /// built, gets it too, so later lookups find it; a store without its table
    /// ([`Store::freeze`], [`Store::unindex`]) stays without.
    fn append(&mut self, n: Node) -> TermId {
        let t = TermId(self.nodes.len() as u32);
        if !self.frozen {
            if self.table.len() == self.table.capacity() {
                self.reindex(2 * self.nodes.len().max(16));
            }
            let nodes = &self.nodes;
            self.table
                .insert_unique(hash_node(&n), t.0, |&i| hash_node(&nodes[i as usize]));
        }
        self.push_node(n)
    }

    /// Adds `n` as a new term, in the node table only (the interning table, when built, does
    /// not get it: the caller drops it, or knows no lookup will look for `n`).
    fn push_node(&mut self, n: Node) -> TermId {
        let t = TermId(self.nodes.len() as u32);
        for &c in n.children().iter() {
            let p = &mut self.parents[c.0 as usize];
            *p = p.saturating_add(1);
        }
        self.nodes.push(n);
        self.parents.push(0);
        t
    }
}

/// The hash of a node for the interning table: the node packed into two words, mixed by one
/// 128-bit multiplication (the table is hot; the derived `Hash` fed the hasher field by field).
fn hash_node(n: &Node) -> u64 {
    let two = |a: TermId, b: TermId| a.0 as u64 | (b.0 as u64) << 32;
    let (tag, extra, ops): (u64, u64, u64) = match *n {
        Node::Const(c) => (0, c.0 as u64, 0),
        Node::Inf(s) => (1, s as u64, 0),
        Node::NaN => (2, 0, 0),
        Node::Sym(s) => (3, s.0 as u64, 0),
        Node::Add(a, b) => (4, 0, two(a, b)),
        Node::Sub(a, b) => (5, 0, two(a, b)),
        Node::Mul(a, b) => (6, 0, two(a, b)),
        Node::Div(a, b) => (7, 0, two(a, b)),
        Node::Neg(a) => (8, 0, a.0 as u64),
        Node::Fn(f, a) => (9, f as u64, a.0 as u64),
        Node::Pow(a, b) => (10, 0, two(a, b)),
        Node::Max(a, b) => (11, 0, two(a, b)),
        Node::Min(a, b) => (12, 0, two(a, b)),
        Node::Cmp(op, a, b) => (13, op as u64, two(a, b)),
        Node::Not(a) => (14, 0, a.0 as u64),
        Node::And(a, b) => (15, 0, two(a, b)),
        Node::Or(a, b) => (16, 0, two(a, b)),
        Node::Select(c, a, b) => (17, c.0 as u64, two(a, b)),
        Node::Int(op, bits, signed, a, b) => (
            18,
            op as u64 | (bits as u64) << 8 | (signed as u64) << 16,
            two(a, b),
        ),
        Node::Opaque(k) => (19, k as u64, 0),
        Node::Fn2(g, a, b) => (20, g as u64, two(a, b)),
    };
    let w = tag | extra << 8;
    let m = (ops ^ 0x243f_6a88_85a3_08d3) as u128 * (w ^ 0x1319_8a2e_0370_7344) as u128;
    (m as u64) ^ ((m >> 64) as u64)
}

/// What [`Store::import`] has copied already (term of the source → term of the target).
#[derive(Clone, Debug, Default)]
pub struct ImportMemo {
    map: Vec<u32>,
}

/// Exact integer semantics of [`IntOp`] in a `bits`-bit machine type (`None`: division by zero).
pub fn eval_int_op(op: IntOp, bits: u8, signed: bool, x: i128, y: i128) -> Option<i128> {
    let w = |v: i128| wrap_int(v, bits, signed);
    let (x, y) = (w(x), w(y));
    let unsigned = |v: i128| wrap_int(v, bits, false);
    Some(w(match op {
        IntOp::Div => {
            if y == 0 {
                return None;
            }
            x / y
        }
        IntOp::Rem => {
            if y == 0 {
                return None;
            }
            x % y
        }
        IntOp::And => x & y,
        IntOp::Or => x | y,
        IntOp::Xor => x ^ y,
        IntOp::Shl => {
            if !(0..bits as i128).contains(&y) {
                0
            } else {
                x << y
            }
        }
        IntOp::Shr => {
            if !(0..bits as i128).contains(&y) {
                if signed && x < 0 {
                    -1
                } else {
                    0
                }
            } else if signed {
                x >> y
            } else {
                unsigned(x) >> y
            }
        }
        IntOp::Wrap => x,
    }))
}

impl Store {
    /// The term of symbol `s`.
    pub fn sym_term(&self, s: SymId) -> TermId {
        self.sym_terms[s.0 as usize]
    }
}
