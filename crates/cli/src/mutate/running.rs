//! One mutant judged twice: by the parametric verifier (every launch the header allows,
//! counterexamples replayed) and by the checking interpreter on the campaign's launches.

use super::configs::Launch;
use super::generate::Mutant;
use serde::Serialize;
use warpsafe_exec::{run, Options, Severity};
use warpsafe_ir::{Category, Kernel};
use warpsafe_verify::{Config, Property, Report, Verdict};

/// The static outcome of a mutant, worst verdict first: any `violated`, else any `possible`,
/// else any `unknown`, else `verified`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Static {
    /// Some property violated (exact or replayed counterexample).
    Violated,
    /// Some property possibly violated (an unconfirmed counterexample), none violated.
    Possible,
    /// Some property undecided, none violated or possible.
    Unknown,
    /// Every property verified.
    Verified,
}

/// One error the interpreter found running a mutant.
#[derive(Clone, Debug, Serialize)]
pub struct DynamicFinding {
    /// Its category.
    pub category: Category,
    /// The interpreter's sentence.
    pub message: String,
    /// The launch it ran (index into the campaign's launches, and its description).
    pub launch: usize,
    /// The launch in words.
    pub launch_text: String,
}

/// What happened to one mutant.
#[derive(Clone, Debug, Serialize)]
pub struct Judged {
    /// The mutation kind.
    pub kind: &'static str,
    /// What was changed.
    pub what: String,
    /// A name for files (`drop_barrier_l23_0`).
    pub slug: String,
    /// The verifier's outcome.
    pub verdict: Static,
    /// Each property and its verdict in a few words (`violated (race, replayed)`).
    pub properties: Vec<(String, String)>,
    /// The interpreter's errors, one per category (first launch that showed it).
    pub dynamic: Vec<DynamicFinding>,
    /// Launches that stopped without an answer (step limit: the mutant may not terminate).
    pub stopped: Vec<String>,
    /// Dynamic finding and every property verified, in a category some property checks:
    /// the verifier missed a real bug.
    pub unsound: bool,
    /// Dynamic findings only in categories no verifier property checks, every property
    /// verified: a gap in what verify covers rather than a wrong proof.
    pub unchecked: bool,
    /// Properties verify proved although the interpreter found their category, while some
    /// other property was not verified (overflow verified, so the proofs were unconditional).
    pub property_missed: Vec<String>,
    /// Static `violated` and no dynamic finding on any launch.
    pub spurious: bool,
    /// Seconds in the verifier.
    pub verify_seconds: f64,
    /// Seconds in the interpreter.
    pub run_seconds: f64,
}

impl Judged {
    /// True when some launch showed an error.
    pub fn killed_dynamically(&self) -> bool {
        !self.dynamic.is_empty()
    }
}

/// The verifier property that decides a finding category, when verify checks it (by name,
/// so that a property verify gains later, like `uninit`, is picked up without a change here).
fn property_of(category: Category, report: &Report) -> Option<Property> {
    let name = match category {
        Category::Oob => "bounds",
        Category::DivByZero => "overflow",
        c => c.name(),
    };
    Property::from_name(name).filter(|p| report.result(*p).is_some())
}

/// Interpreter settings for the campaign: overflow is an error (the verifier's `overflow`
/// property claims its absence), blocks run one after another (mutants run in parallel
/// already), and a step budget ends mutants that no longer terminate.
pub fn interp_options(step_budget: u64) -> Options {
    Options {
        deny: vec![Category::Overflow],
        parallel: false,
        max_block_instructions: step_budget,
        max_total_instructions: step_budget,
        max_memory: Some(1 << 30),
        ..Options::default()
    }
}

/// Verifies `mutant` with `cfg` and runs it on every launch (`budgets[i]` steps for
/// launch `i`).
pub fn judge(mutant: &Mutant, cfg: &Config, launches: &[Launch], budgets: &[u64]) -> Judged {
    let report = warpsafe_verify::verify(&mutant.kernel, cfg);
    let verify_seconds = report.seconds;
    let start = std::time::Instant::now();
    let (dynamic, stopped) = run_all(&mutant.kernel, launches, budgets);
    let run_seconds = start.elapsed().as_secs_f64();
    let verdict = outcome(&report);
    let properties = report
        .results
        .iter()
        .map(|r| {
            (
                r.property.name().to_string(),
                crate::verify_cmd::verdict_word(&r.verdict),
            )
        })
        .collect();
    let verified = |p: Property| {
        report
            .result(p)
            .is_some_and(|r| matches!(r.verdict, Verdict::Verified))
    };
    let checked: Vec<bool> = dynamic
        .iter()
        .map(|f| property_of(f.category, &report).is_some())
        .collect();
    let all_verified = verdict == Static::Verified;
    let unsound = all_verified && checked.iter().any(|c| *c);
    let unchecked = all_verified && !dynamic.is_empty() && !unsound;
    // Verify's race, bounds and divergence verdicts assume the arithmetic the overflow
    // property checks does not wrap; a miss counts only where that assumption was proved.
    let unconditional = report.result(Property::Overflow).is_none() || verified(Property::Overflow);
    let property_missed = if all_verified || !unconditional {
        vec![]
    } else {
        dynamic
            .iter()
            .filter_map(|f| property_of(f.category, &report))
            .filter(|p| verified(*p))
            .map(|p| p.name().to_string())
            .collect()
    };
    Judged {
        kind: mutant.kind.name(),
        what: mutant.what.clone(),
        slug: mutant.slug(),
        verdict,
        properties,
        spurious: verdict == Static::Violated && dynamic.is_empty(),
        dynamic,
        stopped,
        unsound,
        unchecked,
        property_missed,
        verify_seconds,
        run_seconds,
    }
}

/// The worst verdict of a report.
pub fn outcome(report: &Report) -> Static {
    let any = |f: fn(&Verdict) -> bool| report.results.iter().any(|r| f(&r.verdict));
    if any(|v| matches!(v, Verdict::Violated(_))) {
        Static::Violated
    } else if any(|v| matches!(v, Verdict::Possible { .. })) {
        Static::Possible
    } else if any(|v| matches!(v, Verdict::Unknown { .. })) {
        Static::Unknown
    } else {
        Static::Verified
    }
}

/// Runs `k` on every launch: its errors (the first per category) and the launches that
/// stopped without an answer.
pub fn run_all(
    k: &Kernel,
    launches: &[Launch],
    budgets: &[u64],
) -> (Vec<DynamicFinding>, Vec<String>) {
    let mut found: Vec<DynamicFinding> = vec![];
    let mut stopped = vec![];
    for (i, (l, budget)) in launches.iter().zip(budgets).enumerate() {
        match run(k, &l.config, l.args.clone(), &interp_options(*budget)) {
            Ok(out) => {
                for f in out
                    .findings
                    .iter()
                    .filter(|f| f.severity == Severity::Error)
                {
                    if found.iter().all(|g| g.category != f.category) {
                        found.push(DynamicFinding {
                            category: f.category,
                            message: f.message.clone(),
                            launch: i,
                            launch_text: l.text.clone(),
                        });
                    }
                }
            }
            // A step limit usually means the mutant no longer terminates: no verdict either way.
            Err(e) => stopped.push(format!("{}: {e}", l.text)),
        }
    }
    (found, stopped)
}

#[cfg(test)]
mod tests {
    use super::super::{configs, generate};
    use super::*;

    #[test]
    fn an_atomic_made_plain_races_where_the_atomic_did_not() {
        let src = "//--blockDim=64 --gridDim=2
//@ len(c) = 1
//@ len(o) = 128
__global__ void k(int* c, int* o) {
    int old = atomicAdd(&c[0], 1);
    o[blockIdx.x * blockDim.x + threadIdx.x] = old;
}
";
        let k = warpsafe_cuda_front::compile(src).expect("parses").kernels[0].clone();
        let file = warpsafe_ir::SourceFile::new("k.cu", src);
        let launches = configs::launches(&k, 1, 1);
        let budgets = [1 << 24];
        let (clean, stopped) = run_all(&k, &launches, &budgets);
        assert!(
            clean.is_empty() && stopped.is_empty(),
            "{clean:?} {stopped:?}"
        );
        let m = generate::mutants(&k, &file)
            .into_iter()
            .find(|m| m.kind == generate::Kind::DropAtomic)
            .expect("the atomic is a site");
        let (found, _) = run_all(&m.kernel, &launches, &budgets);
        assert!(
            found.iter().any(|f| f.category == Category::Race),
            "{found:?}"
        );
    }

    #[test]
    fn a_mutant_that_never_stops_is_stopped_not_judged() {
        let src = "//--blockDim=32 --gridDim=1
//@ len(x) = 32
__global__ void k(float* x) {
    for (unsigned int s = 16; s > 0; s >>= 1) {
        x[threadIdx.x] += 1.0f;
    }
}
";
        let k = warpsafe_cuda_front::compile(src).expect("parses").kernels[0].clone();
        let file = warpsafe_ir::SourceFile::new("k.cu", src);
        let launches = configs::launches(&k, 1, 1);
        let m = generate::mutants(&k, &file)
            .into_iter()
            .find(|m| m.kind == generate::Kind::FlipGuard)
            .expect("s > 0 is a guard");
        assert!(m.what.contains(">="), "{}", m.what);
        let (found, stopped) = run_all(&m.kernel, &launches, &[100_000]);
        assert!(found.is_empty(), "{found:?}");
        assert_eq!(stopped.len(), 1, "the step budget ends it");
    }
}
