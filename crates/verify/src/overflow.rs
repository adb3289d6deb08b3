//! Arithmetic hazards: signed `+ - *` and negation overflow, `INT_MIN / -1`, division or
//! remainder by zero, unsigned add/sub/mul that wraps and then reaches a memory index without
//! an intervening `%` or `&`, and affine induction variables that wrap (which the loop
//! summaries assume they do not).

use crate::launch::Launch;
use crate::obligation::{base, query, CexInfo, Obligation};
use crate::symexec::ThreadLog;
use crate::term::Term;
use crate::Property;
use warpsafe_ir::Kernel;

/// One obligation per hazard.
pub fn obligations(k: &Kernel, l: &Launch, logs: &[ThreadLog; 2], small: &Term) -> Vec<Obligation> {
    let mut out = vec![];
    for (i, h) in logs[0].hazards.iter().enumerate() {
        let mut asserts = base(l, logs, 1);
        let core = vec![h.pc.clone(), h.cond.clone()];
        asserts.extend(core.iter().cloned());
        out.push(Obligation {
            property: Property::Overflow,
            query: query(format!("{}_overflow_{i}", k.name), asserts, small),
            cex: CexInfo {
                category: h.cat,
                what: h.what.clone(),
                threads: 1,
                spans: vec![h.span],
                address: None,
                core,
            },
        });
    }
    out
}
