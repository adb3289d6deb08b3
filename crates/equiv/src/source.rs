//! Convenience entry points from CUDA-C source text: compile, pick the kernel, run, and fill
//! in source lines of findings.

use crate::{equiv, EquivConfig, EquivError, EquivReport};
use warpsafe_ir::Kernel;

/// Compiles CUDA-C `source` and returns its kernel called `name` (or its only/first kernel).
pub fn kernel_from_source(source: &str, name: Option<&str>) -> Result<Kernel, EquivError> {
    let module = warpsafe_cuda_front::compile(source).map_err(|errs| {
        EquivError::Source(
            errs.iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; "),
        )
    })?;
    let k = match name {
        Some(n) => module.kernel(n).cloned(),
        None => module.kernels.first().cloned(),
    };
    k.ok_or_else(|| EquivError::Source(format!("no kernel {}", name.unwrap_or("in the source"))))
}

/// [`equiv`] on two CUDA-C sources (first kernel of each), with source lines in findings.
pub fn equiv_sources(
    reference: &str,
    optimized: &str,
    cfg: &EquivConfig,
) -> Result<EquivReport, EquivError> {
    let r = kernel_from_source(reference, None)?;
    let o = kernel_from_source(optimized, None)?;
    let mut rep = equiv(&r, &o, cfg)?;
    for f in &mut rep.reference.findings {
        f.set_lines(reference);
    }
    for f in &mut rep.optimized.findings {
        f.set_lines(optimized);
    }
    Ok(rep)
}
