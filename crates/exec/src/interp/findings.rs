//! Collecting findings: deduplication by category and site pair, counts, the cap, and the
//! deterministic merge of per-block findings in block order.

use super::context::Ctx;
use crate::report::{Finding, Location, Severity};
use std::collections::HashMap;
use warpsafe_ir::Category;

/// One party of a finding: a thread of a block at an instruction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Party {
    pub block: [u32; 3],
    pub tid: u32,
    pub pc: u32,
}

type Key = (Category, u64, u64);

/// Findings of one block (or, after merging, of the whole run).
#[derive(Default)]
pub(crate) struct Sink {
    list: Vec<(Key, Finding)>,
    index: HashMap<Key, usize>,
}

fn key_part(ctx: &Ctx, p: Option<Party>) -> u64 {
    match p {
        None => u64::MAX,
        Some(p) => {
            let s = ctx.span(p.pc);
            if s.is_dummy() {
                (1 << 63) | p.pc as u64
            } else {
                ((s.lo as u64) << 32) | s.hi as u64
            }
        }
    }
}

impl Sink {
    /// Records a finding; `describe` builds the message and location only for a new site pair.
    pub fn report(
        &mut self,
        ctx: &Ctx,
        category: Category,
        severity: Severity,
        at: Party,
        other: Option<Party>,
        describe: impl FnOnce() -> (String, Option<Location>),
    ) {
        let key = (category, key_part(ctx, Some(at)), key_part(ctx, other));
        if let Some(&i) = self.index.get(&key) {
            self.list[i].1.count += 1;
            return;
        }
        if self.list.len() >= ctx.max_findings {
            return;
        }
        let (message, location) = describe();
        let f = Finding {
            category,
            severity,
            message,
            at: ctx.site(at.block, at.tid, at.pc),
            other: other.map(|o| ctx.site(o.block, o.tid, o.pc)),
            location,
            count: 1,
        };
        self.index.insert(key, self.list.len());
        self.list.push((key, f));
    }

    /// Appends the findings of a later block, adding counts for site pairs already present.
    pub fn merge(&mut self, later: Sink, cap: usize) {
        for (key, f) in later.list {
            if let Some(&i) = self.index.get(&key) {
                self.list[i].1.count += f.count;
            } else if self.list.len() < cap {
                self.index.insert(key, self.list.len());
                self.list.push((key, f));
            }
        }
    }

    /// The findings in order.
    pub fn into_findings(self) -> Vec<Finding> {
        self.list.into_iter().map(|(_, f)| f).collect()
    }

    /// Empties the sink for reuse.
    pub fn take(&mut self) -> Sink {
        std::mem::take(self)
    }
}
