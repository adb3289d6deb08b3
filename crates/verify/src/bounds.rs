//! In-bounds access: every global access below its buffer's length (and not negative), every
//! shared or local access within each static extent, dynamic shared memory within the launch's
//! dynamic shared bytes.

use crate::launch::Launch;
use crate::obligation::{base, no_hazards, query, CexInfo, Obligation};
use crate::symexec::ThreadLog;
use crate::term::Term;
use crate::Property;
use warpsafe_ir::{Category, Kernel, MemRef};

/// One obligation per access that is not trivially in bounds. Accesses of the buffer
/// parameters in `inferred` (no declared length; the requirement is inferred instead) are
/// out of bounds only below index 0.
pub fn obligations(
    k: &Kernel,
    l: &Launch,
    logs: &[ThreadLog; 2],
    small: &Term,
    inferred: &[usize],
) -> Vec<Obligation> {
    let mut out = vec![];
    for (i, a) in logs[0].accesses.iter().enumerate() {
        let bad = match a.mem {
            MemRef::Global(p) if inferred.contains(&(p.0 as usize)) => a.nonneg.not(),
            _ => a.inb.not(),
        };
        if bad.as_bool() == Some(false) || a.pc.as_bool() == Some(false) {
            continue;
        }
        let mut asserts = base(l, logs, 1);
        let refine = no_hazards(logs, 1, &[&a.pc, &a.inb]);
        let core = vec![a.pc.clone(), bad];
        asserts.extend(core.iter().cloned());
        let name = k.mem_name(a.mem).to_string();
        let mut q = query(format!("{}_bounds_{i}", k.name), asserts, small);
        q.refine = refine;
        out.push(Obligation {
            property: Property::Bounds,
            query: q,
            cex: CexInfo {
                category: Category::Oob,
                what: format!(
                    "out-of-bounds {} of `{name}`",
                    if a.write { "write" } else { "read" }
                ),
                threads: 1,
                spans: vec![a.span],
                address: Some((name, a.flat.clone())),
                core,
                partial: false,
                epochs: false,
            },
        });
    }
    out
}
