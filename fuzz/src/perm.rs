//! Permission annotations: `//@ kernel requires …` comments in CUDA C, and bare formulas; a
//! sample of them checked (`warpsafe check-perm`) on a tiny kernel.

use warpsafe_perm::{check, extract, parse_formula, PermError};

/// Seed files and directories, relative to the repository root.
pub const SEEDS: &[&str] = &["examples/perm", "fuzz/seeds/perm"];

/// Extensions of seed files found in the seed directories.
pub const EXTENSIONS: &[&str] = &["cu", "txt"];

/// The libFuzzer dictionary, relative to the repository root.
pub const DICTIONARY: &str = "fuzz/dict/perm.dict";

/// A check runs z3 (a few hundred milliseconds), so one input in this many is checked.
const CHECK_EVERY: u64 = 64;

/// A tiny annotated kernel; `FORMULA` is replaced by a formula that parses.
const TINY: &str = "//@ requires n == blockDim.x
//@ kernel requires Perm(a[0..n], 1)
//@ kernel ensures Perm(a[0..n], 1)
//@ thread requires Perm(a[tid], 1) && (FORMULA)
//@ thread ensures Perm(a[tid], 1)
__global__ void k(int* a, int n) { int tid = threadIdx.x; a[tid] = a[tid] + n; }
";

/// Parses all of `src` as one formula and extracts its annotations; every span must point
/// inside `src`. One formula in [`CHECK_EVERY`] is also checked (on one line) as part of the
/// thread precondition of [`TINY`] (whole annotated kernels are not: their proofs can take
/// z3 seconds). The outcome is the extraction's error, else the check's verdict or error,
/// else the formula's.
pub fn run(src: &str) -> Result<(), String> {
    let inside = |e: &PermError, text: &str| {
        if let Some(s) = e.span() {
            assert!(
                s.lo <= s.hi && s.hi as usize <= text.len(),
                "span {}..{} of `{e}` is outside the {}-byte input",
                s.lo,
                s.hi,
                text.len()
            );
        }
    };
    let formula = parse_formula(src, 0).map(|_| ()).map_err(|e| {
        inside(&e, src);
        e.to_string()
    });
    let mut checked = None;
    if formula.is_ok() && fnv(src) < u64::MAX / CHECK_EVERY {
        let text = TINY.replace("FORMULA", &src.replace(['\n', '\r'], " "));
        checked = Some(match check(&text) {
            Ok(r) => {
                let why = r.obligations.iter().find_map(|o| o.reason.clone());
                format!(
                    "checked: {}: {}",
                    r.verdict.as_str(),
                    why.unwrap_or_default()
                )
            }
            Err(e) => {
                inside(&e, &text);
                format!("checked: {e}")
            }
        });
    }
    let ex = extract(src).map_err(|e| {
        inside(&e, src);
        e.to_string()
    })?;
    assert_eq!(ex.frontend_source.len(), src.len());
    for a in &ex.annotations {
        assert!(a.span.hi as usize <= src.len() && a.formula.span.hi as usize <= src.len());
    }
    match checked {
        Some(outcome) => Err(outcome),
        None => formula,
    }
}

/// FNV-1a: a deterministic sample of the inputs.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
