//! PTX inputs of `warpsafe run`: a `.ptx` file (its launch contract from a sibling `.cu` of
//! the same stem, or from flags), or a `.cu` kernel compiled through our CUDA codegen and
//! NVRTC (`--via-ptx`). Either way the PTX is parsed, lowered to thread code and run by the
//! interpreter; findings point at PTX lines.

use crate::exit::CliError;
use std::path::Path;
use warpsafe_exec::Program;
use warpsafe_ir::{Kernel, SourceFile};

/// A kernel ready to run from PTX: the PTX text (for diagnostics) and the lowered program,
/// whose [`Program::kernel`] is the launch signature.
pub struct PtxKernel {
    /// The PTX text, named for reports.
    pub file: SourceFile,
    /// The lowered program.
    pub program: Program,
}

/// True for paths ending in `.ptx`.
pub fn is_ptx(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "ptx")
}

/// Loads `path` (a `.ptx` file) and lowers kernel `entry` (the first `.entry` when `None`).
///
/// When `FILE.cu` sits next to `FILE.ptx` (read by the configured front end), its kernel of the same name (or its only kernel
/// with as many parameters) supplies parameter names, element types and the header contract
/// (`//--blockDim`, `//@ arg`, `//@ len`); otherwise everything comes from the flags and
/// parameters keep their PTX names (`k_param_0`).
pub fn load_ptx(path: &Path, entry: Option<&str>) -> Result<PtxKernel, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::io(path, e))?;
    let name = path.display().to_string();
    let module = warpsafe_ptx::parse(&text).map_err(|e| CliError::usage(format!("{name}: {e}")))?;
    let sidecar = path.with_extension("cu");
    let cu_module = if sidecar.is_file() {
        // Read as any `.cu` is (through clang when installed: C++ such as `nvcuda::wmma`).
        match crate::source::load(&sidecar) {
            Ok(loaded) => Some(loaded.module),
            Err(_) => {
                eprintln!(
                    "note: {} does not parse; the launch contract comes from flags only",
                    sidecar.display()
                );
                None
            }
        }
    } else {
        None
    };
    let entry_fn = module
        .functions
        .iter()
        .filter(|f| f.is_entry && !f.is_declaration)
        .find(|f| entry.is_none_or(|e| f.name == e));
    let signature = match (&cu_module, entry_fn) {
        (Some(m), Some(f)) => m
            .kernel(&f.name)
            .or_else(|| crate::demangle::instance_name(&f.name).and_then(|n| m.kernel(&n)))
            .or_else(|| crate::demangle::base_name(&f.name).and_then(|n| m.kernel(n)))
            .or_else(|| {
                let same_arity: Vec<&Kernel> = m
                    .kernels
                    .iter()
                    .filter(|k| k.params.len() == f.params.len())
                    .collect();
                (same_arity.len() == 1).then(|| same_arity[0])
            }),
        _ => None,
    };
    let program = warpsafe_ptx::lower_with(
        &module,
        &warpsafe_ptx::LowerOptions {
            entry,
            signature,
            source: Some(&text),
        },
    )
    .map_err(|e| CliError::usage(format!("{name}: {e}")))?;
    Ok(PtxKernel {
        file: SourceFile::new(name, text),
        program,
    })
}

/// Compiles `kernel` (from `file_name`) to CUDA C, then with NVRTC to PTX, and lowers that PTX
/// with the kernel as its signature.
pub fn via_ptx(file_name: &str, kernel: &Kernel) -> Result<PtxKernel, CliError> {
    let fail = |e: String| CliError::usage(format!("{file_name} (`{}` via PTX): {e}", kernel.name));
    let cuda = warpsafe_cuda::generate(kernel).map_err(|e| fail(e.to_string()))?;
    let ptx = nvrtc(&kernel.name, &cuda, &Default::default())
        .map_err(|e| fail(e.to_string()))?
        .ptx;
    let module = warpsafe_ptx::parse(&ptx).map_err(|e| fail(format!("NVRTC output: {e}")))?;
    let program = warpsafe_ptx::lower_with(
        &module,
        &warpsafe_ptx::LowerOptions {
            entry: Some(&kernel.name),
            signature: Some(kernel),
            source: Some(&ptx),
        },
    )
    .map_err(|e| fail(e.to_string()))?;
    Ok(PtxKernel {
        file: SourceFile::new(format!("{file_name} (PTX of `{}`)", kernel.name), ptx),
        program,
    })
}

/// Compiles the generated CUDA C of kernel `name` with NVRTC (or finds its PTX in the cache):
/// a spinner when it takes over a second, and with `-v` a line saying which and how long.
pub fn nvrtc(
    name: &str,
    cuda: &str,
    opts: &warpsafe_cuda::CompileOptions,
) -> Result<warpsafe_cuda::Compiled, warpsafe_cuda::NvrtcError> {
    crate::progress::step(
        &format!("NVRTC compile of `{name}` for {}", opts.arch),
        || warpsafe_cuda::compile_ptx(cuda, opts),
        |r| match r {
            Ok(c) if c.cached => format!("PTX from the cache ({} bytes)", c.ptx.len()),
            Ok(c) => format!("compiled ({} bytes of PTX)", c.ptx.len()),
            Err(e) => format!("failed: {e}"),
        },
    )
}

#[cfg(test)]
mod tests {
    use crate::cli::{Cli, Command};
    use crate::exit::{CLEAN, FINDINGS};
    use clap::Parser;
    use std::path::PathBuf;

    fn run(argv: &[&str]) -> Result<u8, crate::exit::CliError> {
        let mut all = vec!["warpsafe", "run"];
        all.extend_from_slice(argv);
        let cli = Cli::try_parse_from(all).expect("valid flags");
        let Command::Run(args) = cli.command else {
            unreachable!()
        };
        crate::run_cmd::run(&args)
    }

    fn examples() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/kernels")
    }

    fn nvrtc() -> bool {
        let ok = warpsafe_cuda::nvrtc_path().is_ok();
        if !ok {
            eprintln!("note: NVRTC not found; PTX CLI tests skipped");
        }
        ok
    }

    #[test]
    fn every_example_behaves_as_declared_via_ptx() {
        if !nvrtc() {
            return;
        }
        let dir = examples();
        let dir = dir.to_string_lossy();
        let code = run(&[&dir, "--check-expect", "--via-ptx", "--format", "json"]);
        assert_eq!(code.expect("runs"), CLEAN);
    }

    #[test]
    fn ptx_file_takes_its_contract_from_a_sibling_cu_or_from_flags() {
        if !nvrtc() {
            return;
        }
        let cu = examples().join("vector_add_bug_oob.cu");
        let text = std::fs::read_to_string(&cu).expect("example");
        let kernel = warpsafe_cuda_front::compile(&text).expect("parses").kernels[0].clone();
        let ptx = warpsafe_cuda::compile_ptx(
            &warpsafe_cuda::generate(&kernel).expect("codegen"),
            &Default::default(),
        )
        .expect("NVRTC")
        .ptx;
        let dir = std::env::temp_dir().join(format!("warpsafe-ptx-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let with = dir.join("vector_add_bug_oob.ptx");
        std::fs::write(&with, &ptx).expect("write");
        std::fs::copy(&cu, dir.join("vector_add_bug_oob.cu")).expect("copy");
        let alone = dir.join("alone.ptx");
        std::fs::write(&alone, &ptx).expect("write");

        let with = with.to_string_lossy().into_owned();
        assert_eq!(run(&[&with, "--format", "json"]).expect("runs"), FINDINGS);
        let alone = alone.to_string_lossy().into_owned();
        assert!(run(&[&alone]).is_err(), "no launch contract without flags");
        let flags = [
            alone.as_str(),
            "--grid",
            "16",
            "--block",
            "256",
            "--arg",
            "vector_add_param_3=4000",
            "--buf",
            "vector_add_param_0=random:4000",
            "--buf",
            "vector_add_param_1=random:4000",
            "--buf",
            "vector_add_param_2=zeros:4000",
            "--format",
            "json",
        ];
        assert_eq!(run(&flags).expect("runs"), FINDINGS);
        let mut fixed = flags.to_vec();
        fixed[6] = "vector_add_param_3=3000";
        assert_eq!(run(&fixed).expect("runs"), CLEAN);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
