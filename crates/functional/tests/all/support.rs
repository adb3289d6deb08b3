//! What the proof tests share: paths, proving a source against a spec, printing an outcome.

use std::path::Path;
use warpsafe_equiv::Spec;
use warpsafe_functional::{prove_all_sizes, Options, Outcome};

/// The repository's root.
pub fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// A file of the repository, by its path from the root.
pub fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).expect(rel)
}

/// The first kernel of CUDA source `src` proved against the spec `spec_text` for every size.
pub fn prove_source(src: &str, spec_text: &str) -> Outcome {
    let module = warpsafe_cuda_front::compile(src).expect("parses");
    let spec = Spec::parse(spec_text).expect("spec parses");
    prove_all_sizes(&module.kernels[0], &spec, &Options::default())
}

/// The verdict, its reason and every obligation, for failure messages.
pub fn show(o: &Outcome) -> String {
    let mut s = format!(
        "{} {:?} ({} obligations, {:.1} s)\n",
        o.verdict,
        o.reason,
        o.obligations.len(),
        o.seconds
    );
    for ob in &o.obligations {
        s.push_str(&format!(
            "  {} {} [{}] {} {:?} {:.2}s\n",
            ob.verdict, ob.kind, ob.method, ob.what, ob.reason, ob.seconds
        ));
    }
    s
}

/// Whether z3 is installed (a test that needs it is skipped with a note otherwise).
pub fn z3() -> bool {
    let ok = warpsafe_smt::available();
    if !ok {
        eprintln!("z3 not found: skipped");
    }
    ok
}
