//! `warpsafe validate`: translation validation of warpsafe's CUDA codegen plus NVRTC. The IR
//! kernel and the PTX NVRTC made of it both run symbolically for one launch; their outputs
//! must be equal element by element (integers exact, floats as reals).

use crate::cli::{ValidateArgs, VerifyFormat};
use crate::equiv_cmd::{
    code, exec_config, fixed_inputs, label_starts, print_counterexample, set_lines,
};
use crate::exit::CliError;
use crate::fixed::Fixed;
use crate::{ptx_input, sarif, source};
use serde::Serialize;
use warpsafe_equiv::{EquivConfig, EquivReport, KernelRun};
use warpsafe_ir::SourceFile;
use warpsafe_ptx::Item;

/// What `validate` reports: the comparison, plus what NVRTC did that is equal only over the
/// reals.
#[derive(Serialize)]
struct ValidateReport<'a> {
    file: &'a str,
    kernel: &'a str,
    verdict: &'static str,
    reason: Option<&'a str>,
    /// `fma` (and float `mad`) instructions in the PTX.
    fma: usize,
    /// What the fma count means for the verdict, when there are some.
    fma_note: Option<&'static str>,
    /// The scalar values, buffer lengths and contents `--arg`/`--buf`/`--len` fixed.
    #[serde(skip_serializing_if = "Fixed::is_empty")]
    fixed: &'a Fixed,
    equiv: &'a EquivReport,
}

const FMA_NOTE: &str = "NVRTC contracted multiply-adds into fused `fma` (one rounding instead of two); fma is equal over the reals, so it does not break equality, but bit-exact results may differ from unfused arithmetic";

/// Fused multiply-adds in the PTX text: `fma.*` and float `mad.*` (0 if it does not parse;
/// the lowering already accepted it, so that does not happen).
fn count_fma(ptx: &str) -> usize {
    fn walk(items: &[Item]) -> usize {
        items
            .iter()
            .map(|it| match it {
                Item::Instr(i) => {
                    let float = i.types.iter().any(|t| t.starts_with('f'));
                    usize::from(i.opcode == "fma" || (i.opcode == "mad" && float))
                }
                Item::Block(b) => walk(b),
                _ => 0,
            })
            .sum()
    }
    warpsafe_ptx::parse(ptx)
        .map(|m| m.functions.iter().map(|f| walk(&f.body)).sum())
        .unwrap_or(0)
}

/// `warpsafe validate FILE`.
pub fn validate(args: &ValidateArgs) -> Result<u8, CliError> {
    let loaded = source::load(&args.file)?;
    let kernel = loaded.kernel(args.select.kernel.as_deref())?;
    let fixed = fixed_inputs(&[kernel], &args.launch)?;
    let exec = exec_config(kernel, &args.launch, &fixed, !args.first_block)?;
    let ir = warpsafe_exec::compile(kernel)
        .map_err(|e| CliError::usage(format!("{}: {e}", loaded.file.name)))?;
    let ptx = ptx_input::via_ptx(&loaded.file.name, kernel)?;
    let fma = count_fma(&ptx.file.text);
    let task = crate::progress::Task::spinner("validate");
    let mut report = warpsafe_equiv::equiv_programs(&ir, &ptx.program, &EquivConfig::both(exec))
        .map_err(|e| CliError::usage(format!("{}: {e}", loaded.file.name)))?;
    set_lines(&mut report.reference, &loaded.file);
    set_lines(&mut report.optimized, &ptx.file);
    label_starts(&mut report.reference, &fixed);
    label_starts(&mut report.optimized, &fixed);
    drop(task);
    crate::phases::equiv(&report, "IR", "PTX");
    match args.launch.format {
        VerifyFormat::Json => {
            let out = ValidateReport {
                file: &loaded.file.name,
                kernel: &kernel.name,
                verdict: report.verdict,
                reason: report.reason.as_deref(),
                fma,
                fma_note: (fma > 0).then_some(FMA_NOTE),
                fixed: &fixed,
                equiv: &report,
            };
            crate::report::print_json(&out)?;
        }
        VerifyFormat::Sarif => {
            let mut results = sarif::sym_findings(&loaded.file, "IR", &report.reference);
            results.extend(sarif::sym_findings(&ptx.file, "PTX", &report.optimized));
            results.extend(
                report
                    .counterexample
                    .iter()
                    .map(|cx| sarif::difference(&loaded.file, cx)),
            );
            if report.verdict == "unknown" {
                let why = report.reason.as_deref().unwrap_or("no reason given");
                let text = format!("IR vs NVRTC PTX of `{}`: unknown: {why}", kernel.name);
                results.push(sarif::undecided(&loaded.file, "unknown", text, None));
            }
            println!("{}", sarif::render_check("validate", &kernel.name, results));
        }
        VerifyFormat::Human => {
            println!(
                "{} (`{}`): IR vs NVRTC PTX: {} ({:.3} s)",
                loaded.file.name, kernel.name, report.verdict, report.seconds
            );
            if !fixed.is_empty() {
                println!("  fixed by flags: {}", fixed.human());
            }
            if let Some(why) = &report.reason {
                println!("  reason: {why}");
            }
            crate::equiv_cmd::print_starts(&report.reference);
            print_findings("IR", &loaded.file, &report.reference);
            print_findings("PTX", &ptx.file, &report.optimized);
            for s in &report.outputs {
                println!(
                    "  output {}: {} compared, {} equal, {} different, {} unknown",
                    s.name, s.compared, s.equal, s.different, s.unknown
                );
            }
            if fma > 0 {
                println!("  note: {fma} fma instruction(s): {FMA_NOTE}");
            }
            if let Some(cx) = &report.counterexample {
                print_counterexample(cx);
            }
        }
    }
    Ok(code(report.exit_code()))
}

fn print_findings(side: &str, file: &SourceFile, run: &KernelRun) {
    for f in &run.findings {
        let at =
            f.at.line
                .map(|l| format!(" {}:{l}: {}", file.name, file.line_text(l).trim()))
                .unwrap_or_default();
        println!("  [{side} {}] {}{at}", f.kind, f.message);
    }
}

#[cfg(test)]
mod tests {
    use super::count_fma;

    #[test]
    fn counts_fused_multiply_adds() {
        let ptx = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(\n.param .u64 k_param_0\n)\n{\n.reg .f32 %f<4>;\n.reg .b32 %r<3>;\nfma.rn.f32 %f3, %f1, %f2, %f1;\nmad.lo.s32 %r2, %r1, %r1, %r1;\nret;\n}\n";
        assert_eq!(count_fma(ptx), 1);
    }
}
