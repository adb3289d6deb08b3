//! Structured control flow from a reducible graph.
//!
//! A region is walked block by block from its entry. A branch becomes an `if` whose arms run
//! to the branch's immediate post-dominator, where the walk goes on; post-dominators are
//! taken in the region's graph, where inner loops are single nodes (their exits are their
//! successors) and edges that leave the region (to the loop's header, out of the loop, or to
//! a block that only exits) end paths. A loop whose only exit is its only latch's branch is
//! a `do … while`; any other a `for (;;)` with `break` and `continue`. A block reached along
//! several unstructured paths (`if (a || b)`) is emitted on each, within a size bound.

use super::cfg::BlockId;
use super::inst::{not, Lifter};
use super::LiftError;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;
use warpsafe_exec::thread::code::Inst;
use warpsafe_ir::{Block, Expr, Stmt, StmtKind};

/// Where an edge goes, seen from inside a region.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Edge {
    /// A block of the region.
    Node(BlockId),
    /// The enclosing loop's header.
    Continue,
    /// Out of the enclosing loop.
    Break,
    /// A block that ends the thread.
    Return,
}

struct Structurer<'l, 'a> {
    l: &'l mut Lifter<'a>,
    pdoms: HashMap<(Option<BlockId>, BlockId), Rc<BTreeSet<BlockId>>>,
    budget: usize,
}

type R<T> = Result<T, LiftError>;

/// The structured body of the lifter's code.
pub(crate) fn structure(l: &mut Lifter) -> R<Block> {
    let budget = 20 * l.code.insts.len() + 2000;
    let mut s = Structurer {
        l,
        pdoms: HashMap::new(),
        budget,
    };
    let mut body = s.seq(0, None, None)?;
    strip_tail(&mut body, &|k| matches!(k, StmtKind::Return));
    Ok(body)
}

impl Structurer<'_, '_> {
    fn is_ret(&self, b: BlockId) -> bool {
        let blk = &self.l.cfg.blocks[b];
        matches!(self.l.code.insts[blk.start], Inst::Exit)
    }

    fn classify(&self, t: BlockId, ctx: Option<BlockId>) -> Edge {
        if self.is_ret(t) {
            return Edge::Return;
        }
        match ctx {
            Some(h) if t == h => Edge::Continue,
            Some(h) if !self.l.cfg.loops[&h].body.contains(&t) => Edge::Break,
            _ => Edge::Node(t),
        }
    }

    /// Targets of edges leaving loop `h`.
    fn exits(&self, h: BlockId) -> BTreeSet<BlockId> {
        let body = &self.l.cfg.loops[&h].body;
        body.iter()
            .flat_map(|&b| self.l.cfg.blocks[b].succs.iter().copied())
            .filter(|t| !body.contains(t))
            .collect()
    }

    /// Successors of `n` in the graph of region `ctx` (`None`: the path ends).
    fn region_succs(&self, n: BlockId, ctx: Option<BlockId>) -> Vec<Option<BlockId>> {
        let raw: Vec<BlockId> = if self.l.cfg.loops.contains_key(&n) && Some(n) != ctx {
            self.exits(n).into_iter().collect()
        } else {
            self.l.cfg.blocks[n].succs.clone()
        };
        raw.into_iter()
            .map(|t| match self.classify(t, ctx) {
                Edge::Node(x) => Some(x),
                _ => None,
            })
            .collect()
    }

    /// The post-dominators of `n` in region `ctx` (`n` included).
    fn pdom(&mut self, n: BlockId, ctx: Option<BlockId>) -> Rc<BTreeSet<BlockId>> {
        if let Some(p) = self.pdoms.get(&(ctx, n)) {
            return p.clone();
        }
        let mut acc: Option<BTreeSet<BlockId>> = None;
        for s in self.region_succs(n, ctx) {
            let set = match s {
                Some(x) if x != n => (*self.pdom(x, ctx)).clone(),
                _ => BTreeSet::new(),
            };
            acc = Some(match acc {
                None => set,
                Some(a) => a.intersection(&set).copied().collect(),
            });
        }
        let mut p = acc.unwrap_or_default();
        p.insert(n);
        let p = Rc::new(p);
        self.pdoms.insert((ctx, n), p.clone());
        p
    }

    /// The immediate post-dominator of `n` in region `ctx`, if paths from `n` meet again.
    fn ipdom(&mut self, n: BlockId, ctx: Option<BlockId>) -> Option<BlockId> {
        let p = self.pdom(n, ctx);
        let want = p.len() - 1;
        let cands: Vec<BlockId> = p.iter().copied().filter(|&m| m != n).collect();
        cands.into_iter().find(|&m| self.pdom(m, ctx).len() == want)
    }

    fn special(&mut self, e: Edge, pc: usize) -> Stmt {
        let kind = match e {
            Edge::Continue => StmtKind::Continue,
            Edge::Break => StmtKind::Break,
            _ => StmtKind::Return,
        };
        self.l.emitted += 1;
        Stmt::new(kind).with_span(
            self.l
                .code
                .spans
                .get(pc)
                .copied()
                .unwrap_or(warpsafe_ir::Span::DUMMY),
        )
    }

    fn arm(&mut self, e: Edge, stop: Option<BlockId>, ctx: Option<BlockId>, pc: usize) -> R<Block> {
        match e {
            Edge::Node(x) => self.seq(x, stop, ctx),
            other => Ok(vec![self.special(other, pc)]),
        }
    }

    /// The statements of the straight-line part of block `b`; returns its last pc.
    fn block_body(&mut self, b: BlockId, out: &mut Block) -> R<usize> {
        let (start, end) = (self.l.cfg.blocks[b].start, self.l.cfg.blocks[b].end);
        self.l.begin_block();
        let last = end - 1;
        let body_end = match self.l.code.insts[last] {
            Inst::Jump { .. } | Inst::Branch { .. } | Inst::Exit => last,
            _ => end,
        };
        for pc in start..body_end {
            out.extend(self.l.lift(pc)?);
        }
        if self.l.emitted > self.budget {
            return Err(LiftError::new(
                "control flow too tangled to structure within the size bound",
                start,
            ));
        }
        Ok(last)
    }

    /// The statements from block `b` up to (not including) `stop`, in region `ctx`.
    fn seq(&mut self, mut b: BlockId, stop: Option<BlockId>, ctx: Option<BlockId>) -> R<Block> {
        let mut out = Vec::new();
        loop {
            if Some(b) == stop {
                return Ok(out);
            }
            if self.l.cfg.loops.contains_key(&b) && Some(b) != ctx {
                let (stmt, follow) = self.emit_loop(b)?;
                out.push(stmt);
                let Some(f) = follow else {
                    return Ok(out);
                };
                match self.classify(f, ctx) {
                    Edge::Node(x) => {
                        b = x;
                        continue;
                    }
                    e => {
                        let pc = self.l.cfg.blocks[f].start;
                        out.push(self.special(e, pc));
                        return Ok(out);
                    }
                }
            }
            let last = self.block_body(b, &mut out)?;
            let succs = self.l.cfg.blocks[b].succs.clone();
            match (self.l.code.insts[last], succs.as_slice()) {
                (Inst::Exit, _) | (_, []) => {
                    out.push(self.special(Edge::Return, last));
                    return Ok(out);
                }
                (Inst::Branch { .. }, &[t, f]) => {
                    let cond = self.l.branch_cond(last)?;
                    let (et, ef) = (self.classify(t, ctx), self.classify(f, ctx));
                    let m = self.ipdom(b, ctx);
                    let ends = m.is_none() || m == stop;
                    if ends {
                        match (et, ef) {
                            (Edge::Node(_), Edge::Node(_)) => {}
                            (Edge::Node(x), special) => {
                                let s = self.special(special, last);
                                out.push(if_stmt(not(cond), vec![s], vec![], last, self.l));
                                b = x;
                                continue;
                            }
                            (special, Edge::Node(x)) => {
                                let s = self.special(special, last);
                                out.push(if_stmt(cond, vec![s], vec![], last, self.l));
                                b = x;
                                continue;
                            }
                            _ => {}
                        }
                    }
                    let inner = if ends { stop } else { m };
                    let then = self.arm(et, inner, ctx, last)?;
                    let els = self.arm(ef, inner, ctx, last)?;
                    out.push(if_stmt(cond, then, els, last, self.l));
                    match m {
                        Some(x) if !ends => b = x,
                        _ => return Ok(out),
                    }
                }
                (_, &[t, ..]) => match self.classify(t, ctx) {
                    Edge::Node(x) => b = x,
                    e => {
                        out.push(self.special(e, last));
                        return Ok(out);
                    }
                },
            }
        }
    }

    /// The loop headed by `h`, and the block it leaves to (if it leaves).
    fn emit_loop(&mut self, h: BlockId) -> R<(Stmt, Option<BlockId>)> {
        let head_pc = self.l.cfg.blocks[h].start;
        let exits: Vec<BlockId> = self
            .exits(h)
            .into_iter()
            .filter(|&t| !self.is_ret(t))
            .collect();
        if exits.len() > 1 {
            return Err(LiftError::new(
                "a loop that leaves to several places (not structurable without flags)",
                head_pc,
            ));
        }
        let follow = exits.first().copied();
        let lp = &self.l.cfg.loops[&h];
        let latches = lp.latches.clone();
        let exiting: Vec<BlockId> = lp
            .body
            .iter()
            .copied()
            .filter(|&b| {
                self.l.cfg.blocks[b]
                    .succs
                    .iter()
                    .any(|t| Some(*t) == follow)
            })
            .collect();
        if let (&[latch], Some(f)) = (latches.as_slice(), follow) {
            let lb = &self.l.cfg.blocks[latch];
            let last = lb.end - 1;
            let bottom_tested = exiting == [latch]
                && matches!(self.l.code.insts[last], Inst::Branch { .. })
                && lb.succs.len() == 2
                && lb.succs.contains(&h)
                && lb.succs.contains(&f);
            if bottom_tested {
                let taken_to_header = lb.succs[0] == h;
                let mut body = if latch == h {
                    Vec::new()
                } else {
                    self.seq(h, Some(latch), Some(h))?
                };
                let last = self.block_body(latch, &mut body)?;
                let c = self.l.branch_cond(last)?;
                let mut cond = if taken_to_header { c } else { not(c) };
                let at = self.l.code.spans.get(last).copied();
                super::inst::fill_spans(&mut cond, at.unwrap_or(warpsafe_ir::Span::DUMMY));
                let span = self
                    .l
                    .code
                    .spans
                    .get(head_pc)
                    .copied()
                    .unwrap_or(warpsafe_ir::Span::DUMMY);
                let s = Stmt::new(StmtKind::DoWhile { body, cond }).with_span(span);
                return Ok((s, follow));
            }
        }
        let mut body = self.seq(h, None, Some(h))?;
        strip_tail(&mut body, &|k| matches!(k, StmtKind::Continue));
        let span = self
            .l
            .code
            .spans
            .get(head_pc)
            .copied()
            .unwrap_or(warpsafe_ir::Span::DUMMY);
        let s = Stmt::new(StmtKind::For {
            init: Vec::new(),
            cond: None,
            update: Vec::new(),
            body,
        })
        .with_span(span);
        Ok((s, follow))
    }
}

/// `if (cond) then else els`, with an empty `then` swapped away.
fn if_stmt(cond: Expr, then: Block, els: Block, pc: usize, l: &mut Lifter) -> Stmt {
    l.emitted += 1;
    let span = l
        .code
        .spans
        .get(pc)
        .copied()
        .unwrap_or(warpsafe_ir::Span::DUMMY);
    let mut cond = cond;
    super::inst::fill_spans(&mut cond, span);
    let (cond, then_body, else_body) = if then.is_empty() && !els.is_empty() {
        (not(cond), els, then)
    } else {
        (cond, then, els)
    };
    Stmt::new(StmtKind::If {
        cond,
        then_body,
        else_body,
    })
    .with_span(span)
}

/// Drops a trailing statement that `redundant` accepts (a `continue` at the end of a loop
/// body, a `return` at the end of the kernel), also at the ends of a trailing `if`'s arms.
fn strip_tail(b: &mut Block, redundant: &dyn Fn(&StmtKind) -> bool) {
    match b.last_mut().map(|s| &mut s.kind) {
        Some(k) if redundant(k) => {
            b.pop();
        }
        Some(StmtKind::If {
            then_body,
            else_body,
            ..
        }) => {
            strip_tail(then_body, redundant);
            strip_tail(else_body, redundant);
        }
        _ => {}
    }
}
