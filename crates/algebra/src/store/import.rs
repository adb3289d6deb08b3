//! Copying terms from one store into another: one term at a time ([`Store::import`],
//! [`Store::import_unshared`]), or many at once in node order ([`Store::import_many`]).

use super::{ImportMemo, Store};
use crate::term::{Node, TermId};

impl Store {
    /// Copies term `t` of `other` into this store (symbols matched by name), memoised in `memo`.
    pub fn import(&mut self, other: &Store, t: TermId, memo: &mut ImportMemo) -> TermId {
        self.copy_in(other, t, memo, true)
    }

    /// [`Store::import`] without sharing the copied operations with equal terms already here:
    /// their nodes are appended, not looked up (symbols, constants and the other leaves are
    /// still matched). A term equal to one here may then have a second id, which costs only
    /// the shortcuts that compare ids; merging many stores of distinct terms (the blocks of a
    /// symbolic run) skips one hash lookup per node, most of the merge on large runs.
    pub fn import_unshared(&mut self, other: &Store, t: TermId, memo: &mut ImportMemo) -> TermId {
        self.copy_in(other, t, memo, false)
    }

    /// Copies the terms `roots` of `other` into this store, sharing the copied operations with
    /// equal terms already here as [`Store::import`] does, and gives their ids here in order.
    ///
    /// All at once and in node order: the nodes the roots reach are marked in one pass down
    /// the ids of `other` (an operand's id is below its user's) and copied in one pass up, so
    /// both stores are read in order rather than by a depth-first walk. A node with an operand
    /// new to this store cannot equal one already here, nor (the nodes of `other` being
    /// distinct) another copied one: it is appended without a lookup. That is most nodes when
    /// the two stores share only their inputs and a few early sums. Appended nodes are not
    /// entered in the interning table, so it is dropped at the end when there are any (the
    /// next interning rebuilds it, as after [`Store::freeze`]).
    pub fn import_many(&mut self, other: &Store, roots: &[TermId]) -> Vec<TermId> {
        let Some(top) = roots.iter().map(|t| t.0 as usize).max() else {
            return Vec::new();
        };
        let mut need = vec![false; top + 1];
        for r in roots {
            need[r.0 as usize] = true;
        }
        let mut count = 0;
        for i in (0..=top).rev() {
            if need[i] {
                count += 1;
                for c in other.nodes[i].children().iter() {
                    need[c.0 as usize] = true;
                }
            }
        }
        if self.frozen {
            // Room for every copied node at once: the table is built once, not grown.
            self.frozen = false;
            self.reindex(self.nodes.len() + count);
        }
        self.nodes.reserve(count);
        self.parents.reserve(count);
        let base = self.nodes.len() as u32;
        let mut map = vec![u32::MAX; top + 1];
        let mut unindexed = false;
        for (i, node) in other.nodes[..=top].iter().enumerate() {
            if !need[i] {
                continue;
            }
            let new = match self.translate(other, node, |k| TermId(map[k.0 as usize])) {
                Err(leaf) => leaf,
                Ok(n) if n.children().iter().any(|c| c.0 >= base) => {
                    unindexed = true;
                    self.push_node(n)
                }
                Ok(n) => self.intern(n),
            };
            map[i] = new.0;
        }
        if unindexed {
            self.unindex();
        }
        roots.iter().map(|r| TermId(map[r.0 as usize])).collect()
    }

    pub(super) fn copy_in(
        &mut self,
        other: &Store,
        t: TermId,
        memo: &mut ImportMemo,
        share: bool,
    ) -> TermId {
        if memo.map.len() < other.len() {
            memo.map.resize(other.len(), u32::MAX);
        }
        if share && self.frozen {
            // Room for all of `other` at once: the table is built once, not grown.
            self.frozen = false;
            self.reindex(self.nodes.len() + other.len());
        }
        let done = |memo: &ImportMemo, k: TermId| memo.map[k.0 as usize] != u32::MAX;
        if done(memo, t) {
            return TermId(memo.map[t.0 as usize]);
        }
        let mut stack = vec![t];
        while let Some(&x) = stack.last() {
            if done(memo, x) {
                stack.pop();
                continue;
            }
            let node = other.node(x);
            let before = stack.len();
            for &k in node.children().iter() {
                if !done(memo, k) {
                    stack.push(k);
                }
            }
            if stack.len() > before {
                continue;
            }
            let new = match self.translate(other, node, |k| TermId(memo.map[k.0 as usize])) {
                Err(leaf) => leaf,
                Ok(n) if share => self.intern(n),
                Ok(n) => self.append(n),
            };
            memo.map[x.0 as usize] = new.0;
            stack.pop();
        }
        TermId(memo.map[t.0 as usize])
    }

    /// The node of `other` with its operands mapped by `m` (operands in this store's order, as
    /// the constructors put them), or the term here of a leaf (symbols matched by name,
    /// constants by value).
    fn translate(
        &mut self,
        other: &Store,
        node: &Node,
        m: impl Fn(TermId) -> TermId,
    ) -> Result<Node, TermId> {
        let m = |k: &TermId| m(*k);
        Ok(match node {
            Node::Sym(s) => {
                let info = other.sym(*s);
                return Err(self.symbol(&info.name, info.index, info.integer));
            }
            Node::Const(c) => return Err(self.constant(other.constant_value(*c).clone())),
            Node::Inf(_) | Node::NaN => return Err(self.intern(*node)),
            Node::Opaque(_) => return Err(self.opaque()),
            Node::Add(a, b) => Node::Add(m(a).min(m(b)), m(a).max(m(b))),
            Node::Sub(a, b) => Node::Sub(m(a), m(b)),
            Node::Mul(a, b) => Node::Mul(m(a).min(m(b)), m(a).max(m(b))),
            Node::Div(a, b) => Node::Div(m(a), m(b)),
            Node::Neg(a) => Node::Neg(m(a)),
            Node::Fn(f, a) => Node::Fn(*f, m(a)),
            Node::Fn2(g, a, b) => Node::Fn2(*g, m(a), m(b)),
            Node::Pow(a, b) => Node::Pow(m(a), m(b)),
            Node::Max(a, b) => Node::Max(m(a), m(b)),
            Node::Min(a, b) => Node::Min(m(a), m(b)),
            Node::Cmp(op, a, b) => Node::Cmp(*op, m(a), m(b)),
            Node::Not(a) => Node::Not(m(a)),
            Node::And(a, b) => Node::And(m(a), m(b)),
            Node::Or(a, b) => Node::Or(m(a), m(b)),
            Node::Select(c, a, b) => Node::Select(m(c), m(a), m(b)),
            Node::Int(op, bits, s, a, b) => Node::Int(*op, *bits, *s, m(a), m(b)),
        })
    }
}
