//! The legacy lock-step warp model orders a warp's accesses only when both are `volatile`:
//! Harris's reduction 5 with `volatile` on its warp tail is equal to the reference under
//! lock-step warps, the same kernel without `volatile` races (the compiler may keep the
//! partial sums in registers), both from CUDA C and through NVRTC's PTX (issue 16, item 6).

use std::path::Path;
use warpsafe_equiv::{
    equiv_programs, equiv_sources, BlockSel, EquivConfig, EquivReport, ExecConfig, Issue,
};
use warpsafe_ir::{Category, Kernel};

fn read(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/equiv/reduce")
        .join(file);
    std::fs::read_to_string(path).expect("example file")
}

fn lockstep() -> EquivConfig {
    EquivConfig::both(ExecConfig {
        blocks: BlockSel::All,
        lockstep_warps: true,
        ..ExecConfig::default()
    })
}

fn races(r: &EquivReport) -> Vec<&str> {
    r.optimized
        .findings
        .iter()
        .filter(|f| f.issue == Issue::Bug(Category::Race))
        .map(|f| f.message.as_str())
        .collect()
}

#[test]
fn nonvolatile_warp_tail_races_under_lockstep() {
    let r = equiv_sources(
        &read("reduce0_reference.cu"),
        &read("reduce5_bug_nonvolatile.cu"),
        &lockstep(),
    )
    .expect("runs");
    assert_eq!(r.verdict, "race");
    let races = races(&r);
    assert!(
        races.iter().any(|m| m.contains("shared `sdata`")),
        "{races:?}"
    );
}

#[test]
fn volatile_warp_tails_stay_equal_under_lockstep() {
    for f in [
        "reduce5_warp_unrolled.cu",
        "reduce6_complete_unroll.cu",
        "reduce7_multiple_elements.cu",
    ] {
        let r = equiv_sources(&read("reduce0_reference.cu"), &read(f), &lockstep()).expect("runs");
        assert_eq!(r.verdict, "equal", "{f}: {:?}", races(&r));
    }
}

fn nvrtc() -> bool {
    let ok = warpsafe_cuda::nvrtc_path().is_ok();
    if !ok {
        eprintln!("note: NVRTC not found; PTX lock-step tests skipped");
    }
    ok
}

fn kernel(file: &str) -> Kernel {
    warpsafe_equiv::kernel_from_source(&read(file), None).expect("example parses")
}

/// The kernel compiled through our CUDA codegen and NVRTC, lowered from its PTX.
fn via_ptx(k: &Kernel) -> warpsafe_exec::Program {
    let cuda = warpsafe_cuda::generate(k).expect("codegen");
    let ptx = warpsafe_cuda::compile_ptx(&cuda, &Default::default())
        .expect("NVRTC")
        .ptx;
    let module = warpsafe_ptx::parse(&ptx).expect("PTX parses");
    warpsafe_ptx::lower_with(
        &module,
        &warpsafe_ptx::LowerOptions {
            entry: Some(&k.name),
            signature: Some(k),
            source: Some(&ptx),
        },
    )
    .expect("PTX lowers")
}

/// NVRTC keeps `volatile` as `ld.volatile`/`st.volatile`: the volatile tail is equal through
/// PTX too, and the plain one (whose sums NVRTC does keep in registers) is not.
#[test]
fn ptx_route_agrees_under_lockstep() {
    if !nvrtc() {
        return;
    }
    let reference = via_ptx(&kernel("reduce0_reference.cu"));
    let volatile = via_ptx(&kernel("reduce5_warp_unrolled.cu"));
    let r = equiv_programs(&reference, &volatile, &lockstep()).expect("runs");
    assert_eq!(r.verdict, "equal", "{:?}", races(&r));
    let plain = via_ptx(&kernel("reduce5_bug_nonvolatile.cu"));
    let r = equiv_programs(&reference, &plain, &lockstep()).expect("runs");
    assert_ne!(r.verdict, "equal");
    assert!(!races(&r).is_empty(), "verdict {}", r.verdict);
}
