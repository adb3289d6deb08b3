//! Translation validation through the library: a kernel's IR against the PTX NVRTC makes of
//! it (our CUDA codegen + NVRTC), run symbolically as programs. Skipped without NVRTC.

use std::path::PathBuf;
use warpsafe_equiv::{equiv_programs, EquivConfig, EquivReport, ExecConfig};
use warpsafe_exec::Program;
use warpsafe_ir::Kernel;

fn nvrtc() -> bool {
    let ok = warpsafe_cuda::nvrtc_path().is_ok();
    if !ok {
        eprintln!("note: NVRTC not found; translation-validation tests skipped");
    }
    ok
}

fn kernel(name: &str) -> Kernel {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/kernels")
        .join(format!("{name}.cu"));
    let text = std::fs::read_to_string(&path).expect("example kernel");
    warpsafe_cuda_front::compile(&text)
        .expect("example parses")
        .kernels
        .remove(0)
}

fn ptx_of(k: &Kernel) -> String {
    let cuda = warpsafe_cuda::generate(k).expect("codegen");
    warpsafe_cuda::compile_ptx(&cuda, &Default::default())
        .expect("NVRTC")
        .ptx
}

fn lower(k: &Kernel, ptx: &str) -> Program {
    let module = warpsafe_ptx::parse(ptx).expect("PTX parses");
    warpsafe_ptx::lower_with(
        &module,
        &warpsafe_ptx::LowerOptions {
            entry: Some(&k.name),
            signature: Some(k),
            source: Some(ptx),
        },
    )
    .expect("PTX lowers")
}

fn validate(k: &Kernel, ptx: &str) -> EquivReport {
    let ir = warpsafe_exec::compile(k).expect("IR compiles");
    let cfg = EquivConfig::both(ExecConfig {
        blocks: warpsafe_equiv::BlockSel::All,
        ..ExecConfig::default()
    });
    equiv_programs(&ir, &lower(k, ptx), &cfg).expect("runs")
}

#[test]
fn nvrtc_output_of_vector_add_equals_its_ir() {
    if !nvrtc() {
        return;
    }
    let k = kernel("vector_add");
    let r = validate(&k, &ptx_of(&k));
    assert_eq!(r.verdict, "equal", "{:?}", r.reason);
    assert!(r.outputs.iter().all(|o| o.compared > 0 && o.unknown == 0));
}

#[test]
fn an_add_edited_into_a_sub_is_caught_with_a_counterexample() {
    if !nvrtc() {
        return;
    }
    let k = kernel("vector_add");
    let ptx = ptx_of(&k);
    assert!(ptx.contains("add.f32"), "vector_add's PTX adds floats");
    let broken = ptx.replacen("add.f32", "sub.f32", 1);
    let r = validate(&k, &broken);
    assert_eq!(r.verdict, "different");
    let cx = r.counterexample.expect("a counterexample");
    assert_eq!(cx.buffer, "c");
    assert_ne!(cx.expected, cx.actual);
    assert!(!cx.inputs.is_empty());
}

#[test]
fn unsigned_scan_is_equal_under_wrapping_arithmetic() {
    if !nvrtc() {
        return;
    }
    // exclusive_scan adds `unsigned` data: wrapping 32-bit arithmetic in both.
    let k = kernel("exclusive_scan");
    let r = validate(&k, &ptx_of(&k));
    assert_eq!(r.verdict, "equal", "{:?}", r.reason);
}

fn kernel_at(relative: &str) -> Kernel {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(relative);
    let text = std::fs::read_to_string(&path).expect("kernel file");
    warpsafe_cuda_front::compile(&text)
        .expect("kernel parses")
        .kernels
        .remove(0)
}

#[test]
fn nvrtc_expf_and_fast_expf_are_exp() {
    if !nvrtc() {
        return;
    }
    // `expf` becomes NVRTC's range reduction with a shift into the exponent field, `__expf`
    // an `ex2.approx` of x·log2e: both are `exp` on the PTX road.
    for file in [
        "../../examples/equiv/softmax/softmax_online.cu",
        "tests/data_branches/attention_flash_minimal.cu",
    ] {
        let k = kernel_at(file);
        let r = validate(&k, &ptx_of(&k));
        assert_eq!(r.verdict, "equal", "{file}: {:?}", r.reason);
    }
    // An exponent field one too large is caught.
    let k = kernel_at("../../examples/equiv/softmax/softmax_online.cu");
    let ptx = ptx_of(&k);
    assert!(
        ptx.contains("0fCB40007F"),
        "softmax's PTX has expf's range reduction"
    );
    let broken = ptx.replacen("0fCB40007F", "0fCB40007E", 1);
    let r = validate(&k, &broken);
    assert_ne!(r.verdict, "equal", "{:?}", r.reason);
}
