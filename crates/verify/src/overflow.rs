//! Single-thread checks: assertions, and arithmetic hazards: signed `+ - *` and negation overflow, `INT_MIN / -1`, division or
//! remainder by zero, unsigned add/sub/mul that wraps and then reaches a memory index without
//! an intervening `%` or `&`, and affine induction variables that wrap (which the loop
//! summaries assume they do not).

use crate::launch::Launch;
use crate::obligation::{base, query, CexInfo, Obligation};
use crate::symexec::{Hazard, ThreadLog};
use crate::term::Term;
use crate::Property;
use warpsafe_ir::Kernel;

/// One obligation per hazard.
pub fn obligations(k: &Kernel, l: &Launch, logs: &[ThreadLog; 2], small: &Term) -> Vec<Obligation> {
    checks(k, l, logs, &logs[0].hazards, Property::Overflow, small)
}

/// One obligation per assertion (`assert`, `__assert`, loop invariants, `__ensures`).
pub fn assertions(k: &Kernel, l: &Launch, logs: &[ThreadLog; 2], small: &Term) -> Vec<Obligation> {
    checks(k, l, logs, &logs[0].asserts, Property::Assert, small)
}

/// One single-thread obligation per check: can `pc ∧ cond` hold?
fn checks(
    k: &Kernel,
    l: &Launch,
    logs: &[ThreadLog; 2],
    list: &[Hazard],
    property: Property,
    small: &Term,
) -> Vec<Obligation> {
    let mut out = vec![];
    for (i, h) in list.iter().enumerate() {
        let mut asserts = base(l, logs, 1);
        let core = vec![h.pc.clone(), h.cond.clone()];
        asserts.extend(core.iter().cloned());
        out.push(Obligation {
            property,
            query: query(
                format!("{}_{}_{i}", k.name, property.name()),
                asserts,
                small,
            ),
            cex: CexInfo {
                category: h.cat,
                what: h.what.clone(),
                threads: 1,
                spans: vec![h.span],
                address: None,
                core,
                partial: false,
                epochs: false,
            },
        });
    }
    out
}
