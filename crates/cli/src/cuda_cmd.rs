//! `warpsafe cuda` and `warpsafe ptx`: generated CUDA C, and its PTX from NVRTC.

use crate::cli::{CodegenArgs, PtxArgs};
use crate::exit::{CliError, CLEAN};
use crate::source;

/// The generated CUDA C of the kernel, and the kernel's name.
fn generated(file: &std::path::Path, kernel: Option<&str>) -> Result<(String, String), CliError> {
    let loaded = source::load(file)?;
    let kernel = loaded.kernel(kernel)?;
    let cuda = warpsafe_cuda::generate(kernel)
        .map_err(|e| CliError::usage(format!("{}: {e}", loaded.file.name)))?;
    Ok((cuda, kernel.name.clone()))
}

/// Prints the generated CUDA C.
pub fn cuda(args: &CodegenArgs) -> Result<u8, CliError> {
    print!(
        "{}",
        generated(&args.file, args.select.kernel.as_deref())?.0
    );
    Ok(CLEAN)
}

/// Compiles the generated CUDA C with NVRTC and prints the PTX (warnings to stderr).
pub fn ptx(args: &PtxArgs) -> Result<u8, CliError> {
    let (source, name) = generated(&args.file, args.select.kernel.as_deref())?;
    let opts = warpsafe_cuda::CompileOptions {
        arch: args.arch.clone(),
        extra: vec![],
    };
    let compiled = crate::ptx_input::nvrtc(&name, &source, &opts)
        .map_err(|e| CliError::usage(e.to_string()))?;
    if !compiled.log.is_empty() {
        eprintln!("{}", compiled.log);
    }
    print!("{}", compiled.ptx);
    Ok(CLEAN)
}
