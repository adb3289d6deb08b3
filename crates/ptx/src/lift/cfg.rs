//! The control-flow graph of thread code: basic blocks, dominators and natural loops.
//!
//! Structuring needs a reducible graph: every cycle is a natural loop entered only through
//! its header. Anything else (a jump into the middle of a loop) is reported, never guessed.

use super::LiftError;
use std::collections::{BTreeSet, HashMap};
use warpsafe_exec::thread::code::{Inst, ThreadCode};

/// A block index into [`Cfg::blocks`].
pub(crate) type BlockId = usize;

/// One basic block: instructions `start..end`, the last possibly a jump, branch or exit.
#[derive(Clone, Debug)]
pub(crate) struct BasicBlock {
    /// First pc.
    pub start: usize,
    /// One past the last pc.
    pub end: usize,
    /// Successor blocks (a branch's taken target first, then its fall-through).
    pub succs: Vec<BlockId>,
}

/// A natural loop.
#[derive(Clone, Debug)]
pub(crate) struct Loop {
    /// Its blocks, header included.
    pub body: BTreeSet<BlockId>,
    /// Blocks inside with an edge back to the header.
    pub latches: Vec<BlockId>,
}

/// Blocks, their dominators and loops.
pub(crate) struct Cfg {
    /// Reachable blocks in program order; block 0 is the entry.
    pub blocks: Vec<BasicBlock>,
    /// The block of each pc (`usize::MAX` for unreachable code).
    pub block_of: Vec<usize>,
    /// Immediate dominator of each block (the entry's is itself).
    idom: Vec<BlockId>,
    /// Reverse post-order number of each block.
    rpo_index: Vec<usize>,
    /// Loops by header.
    pub loops: HashMap<BlockId, Loop>,
}

impl Cfg {
    /// Builds the graph of `code`, rejecting irreducible control flow.
    pub fn new(code: &ThreadCode) -> Result<Cfg, LiftError> {
        let n = code.insts.len();
        let mut leader = vec![false; n + 1];
        leader[0] = true;
        for (pc, inst) in code.insts.iter().enumerate() {
            match *inst {
                Inst::Jump { target } | Inst::Branch { target, .. } => {
                    if target as usize > n {
                        return Err(LiftError::new(format!("jump to {target} past the end"), pc));
                    }
                    leader[target as usize] = true;
                    leader[pc + 1] = true;
                }
                Inst::Exit => leader[pc + 1] = true,
                _ => {}
            }
        }
        // Blocks by start pc, reachable from 0 only.
        let mut start_to_block: HashMap<usize, BlockId> = HashMap::new();
        let mut blocks: Vec<BasicBlock> = Vec::new();
        let mut work = vec![0usize];
        let end_of = |s: usize| (s + 1..=n).find(|&p| leader[p]).unwrap_or(n);
        while let Some(s) = work.pop() {
            if s >= n || start_to_block.contains_key(&s) {
                continue;
            }
            start_to_block.insert(s, blocks.len());
            let end = end_of(s);
            blocks.push(BasicBlock {
                start: s,
                end,
                succs: Vec::new(),
            });
            for t in raw_succs(code, s, end) {
                work.push(t);
            }
        }
        if blocks.is_empty() {
            return Err(LiftError::new("the kernel has no instructions", 0));
        }
        let ids: Vec<BlockId> = (0..blocks.len()).collect();
        for b in ids {
            let (s, e) = (blocks[b].start, blocks[b].end);
            let succs: Vec<BlockId> = raw_succs(code, s, e)
                .into_iter()
                .filter(|t| *t < n)
                .filter_map(|t| start_to_block.get(&t).copied())
                .collect();
            blocks[b].succs = succs;
        }
        let mut block_of = vec![usize::MAX; n];
        for (id, b) in blocks.iter().enumerate() {
            for slot in &mut block_of[b.start..b.end] {
                *slot = id;
            }
        }
        let mut cfg = Cfg {
            idom: Vec::new(),
            rpo_index: Vec::new(),
            loops: HashMap::new(),
            blocks,
            block_of,
        };
        cfg.dominators();
        cfg.find_loops(code)?;
        Ok(cfg)
    }

    /// Predecessors of every block.
    pub fn preds(&self) -> Vec<Vec<BlockId>> {
        let mut p = vec![Vec::new(); self.blocks.len()];
        for (b, blk) in self.blocks.iter().enumerate() {
            for &s in &blk.succs {
                p[s].push(b);
            }
        }
        p
    }

    /// True when block `a` dominates block `b`.
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        let mut x = b;
        loop {
            if x == a {
                return true;
            }
            let up = self.idom[x];
            if up == x {
                return false;
            }
            x = up;
        }
    }

    /// Cooper, Harvey and Kennedy's iterative dominator algorithm.
    fn dominators(&mut self) {
        let n = self.blocks.len();
        let mut order = Vec::with_capacity(n);
        let mut seen = vec![false; n];
        let mut stack: Vec<(BlockId, usize)> = vec![(0, 0)];
        seen[0] = true;
        while let Some((b, i)) = stack.pop() {
            if let Some(&s) = self.blocks[b].succs.get(i) {
                stack.push((b, i + 1));
                if !seen[s] {
                    seen[s] = true;
                    stack.push((s, 0));
                }
            } else {
                order.push(b);
            }
        }
        order.reverse();
        let mut rpo_index = vec![usize::MAX; n];
        for (i, &b) in order.iter().enumerate() {
            rpo_index[b] = i;
        }
        let preds = self.preds();
        let mut idom = vec![usize::MAX; n];
        idom[0] = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for &b in order.iter().skip(1) {
                let mut new = usize::MAX;
                for &p in &preds[b] {
                    if idom[p] == usize::MAX {
                        continue;
                    }
                    new = if new == usize::MAX {
                        p
                    } else {
                        intersect(&idom, &rpo_index, p, new)
                    };
                }
                if new != usize::MAX && idom[b] != new {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        self.idom = idom;
        self.rpo_index = rpo_index;
    }

    /// Natural loops from back edges; a retreating edge that is not a back edge makes the
    /// graph irreducible.
    fn find_loops(&mut self, code: &ThreadCode) -> Result<(), LiftError> {
        let preds = self.preds();
        for (b, blk) in self.blocks.iter().enumerate() {
            for &h in &blk.succs {
                if self.rpo_index[h] > self.rpo_index[b] {
                    continue;
                }
                if !self.dominates(h, b) {
                    return Err(LiftError::new(
                        "irreducible control flow (a jump into the middle of a loop)",
                        blk.end
                            .saturating_sub(1)
                            .min(code.insts.len().saturating_sub(1)),
                    ));
                }
                let lp = self.loops.entry(h).or_insert_with(|| Loop {
                    body: BTreeSet::from([h]),
                    latches: Vec::new(),
                });
                lp.latches.push(b);
                let mut work = vec![b];
                while let Some(x) = work.pop() {
                    if lp.body.insert(x) {
                        work.extend(preds[x].iter().copied());
                    }
                }
            }
        }
        Ok(())
    }
}

/// Successor pcs of the block `start..end`.
fn raw_succs(code: &ThreadCode, start: usize, end: usize) -> Vec<usize> {
    debug_assert!(start < end);
    match code.insts[end - 1] {
        Inst::Jump { target } => vec![target as usize],
        Inst::Branch { target, .. } => {
            if target as usize == end {
                vec![end]
            } else {
                vec![target as usize, end]
            }
        }
        Inst::Exit => Vec::new(),
        _ => vec![end],
    }
}

fn intersect(idom: &[usize], rpo: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while rpo[a] > rpo[b] {
            a = idom[a];
        }
        while rpo[b] > rpo[a] {
            b = idom[b];
        }
    }
    a
}
