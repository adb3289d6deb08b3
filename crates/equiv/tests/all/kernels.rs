//! The symbolic executor on the example corpus: correct kernels have no findings, every buggy
//! twin shows its expected categories.

use std::path::Path;
use warpsafe_equiv::{run_symbolic, BlockSel, ExecConfig, Issue};

fn corpus() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/kernels");
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("examples/kernels") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "cu") {
            let name = p.file_stem().unwrap().to_string_lossy().to_string();
            out.push((name, std::fs::read_to_string(&p).expect("read")));
        }
    }
    out.sort();
    out
}

#[test]
fn example_kernels_show_their_expected_categories() {
    let mut failures = Vec::new();
    for (name, src) in corpus() {
        let module = warpsafe_cuda_front::compile(&src).expect("compiles");
        for k in &module.kernels {
            let cfg = ExecConfig {
                blocks: BlockSel::All,
                ..ExecConfig::default()
            };
            let out = match run_symbolic(k, &cfg) {
                Ok(o) => o,
                Err(e) => {
                    failures.push(format!("{name}: {e}"));
                    continue;
                }
            };
            let mut found: Vec<_> = out
                .findings
                .iter()
                .filter_map(|f| f.issue.category())
                .filter(|c| !c.is_warning_by_default() || k.contract.deny.contains(c))
                .collect();
            found.sort();
            found.dedup();
            let structured = out.findings.iter().all(|f| f.issue != Issue::NotStructured);
            // Integer overflow on input data is a no-overflow obligation the exact executor
            // does not discharge (integers that depend on inputs are mathematical integers).
            let mut expect: Vec<_> = k
                .contract
                .expect
                .iter()
                .copied()
                .filter(|c| *c != warpsafe_ir::Category::Overflow)
                .collect();
            expect.sort();
            eprintln!(
                "{name:40} expect {:?} found {:?} structured {structured} ({:.2}s)",
                expect, found, out.stats.seconds
            );
            if structured && found != expect {
                failures.push(format!(
                    "{name}: expected {expect:?}, found {found:?}: {:?}",
                    out.findings.first().map(|f| &f.message)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
