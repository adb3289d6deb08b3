//! Single-thread checks: assertions, the checks the lowering states about memory (aligned views, no null pointer, no write to read-only memory), and arithmetic hazards: signed `+ - *` and negation overflow, `INT_MIN / -1`, division or
//! remainder by zero, unsigned add/sub/mul that wraps and then reaches a memory index without
//! an intervening `%` or `&`, and affine induction variables that wrap (which the loop
//! summaries assume they do not).

use crate::launch::Launch;
use crate::obligation::{base, query, CexInfo, Obligation};
use crate::symexec::{Hazard, ThreadLog};
use crate::term::Term;
use crate::Property;
use warpsafe_ir::{Category, Kernel};

/// One obligation per hazard.
pub fn obligations(k: &Kernel, l: &Launch, logs: &[ThreadLog; 2], small: &Term) -> Vec<Obligation> {
    checks(
        k,
        l,
        logs,
        &logs[0].hazards,
        Property::Overflow,
        "overflow",
        small,
    )
}

/// One obligation per assertion of the kernel's (`assert`, `__assert`, loop invariants,
/// `__ensures`).
pub fn assertions(k: &Kernel, l: &Launch, logs: &[ThreadLog; 2], small: &Term) -> Vec<Obligation> {
    let own: Vec<Hazard> = (logs[0].asserts.iter())
        .filter(|h| h.cat == Category::Assert)
        .cloned()
        .collect();
    checks(k, l, logs, &own, Property::Assert, "assert", small)
}

/// One obligation per assertion the lowering states about memory (an aligned view, no null
/// pointer, no write to read-only memory): part of the `bounds` property.
pub fn memory_checks(
    k: &Kernel,
    l: &Launch,
    logs: &[ThreadLog; 2],
    small: &Term,
) -> Vec<Obligation> {
    let memory: Vec<Hazard> = (logs[0].asserts.iter())
        .filter(|h| h.cat != Category::Assert)
        .cloned()
        .collect();
    checks(k, l, logs, &memory, Property::Bounds, "memory", small)
}

/// One single-thread obligation per check: can `pc ∧ cond` hold? Queries are named
/// `KERNEL_LABEL_I`.
fn checks(
    k: &Kernel,
    l: &Launch,
    logs: &[ThreadLog; 2],
    list: &[Hazard],
    property: Property,
    label: &str,
    small: &Term,
) -> Vec<Obligation> {
    let mut out = vec![];
    for (i, h) in list.iter().enumerate() {
        let mut asserts = base(l, logs, 1);
        let core = vec![h.pc.clone(), h.cond.clone()];
        asserts.extend(core.iter().cloned());
        out.push(Obligation {
            property,
            query: query(format!("{}_{label}_{i}", k.name), asserts, small),
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
