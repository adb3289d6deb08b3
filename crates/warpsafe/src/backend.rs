//! Where kernels run: the checking CPU interpreter, a CUDA GPU, or whichever is available.

use crate::report::{Engine, LaunchError, Report};
use warpsafe_exec::{Arg, Checks, LaunchConfig, Options};
use warpsafe_ir::{Category, Kernel};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    Cpu,
    Native,
    Cuda,
    Auto,
}

/// A launch target with its options; build one with [`Backend::cpu`], [`Backend::native`],
/// [`Backend::cuda`] or [`Backend::auto`] and refine it with the builder methods.
#[derive(Clone, Debug)]
pub struct Backend {
    choice: Choice,
    options: Options,
}

/// The buffers after a launch together with its report (the untyped launch API).
#[derive(Clone, Debug)]
pub struct Launched {
    /// The arguments after the run; buffers hold what the kernel wrote.
    pub args: Vec<Arg>,
    /// What ran and what it found.
    pub report: Report,
}

impl Backend {
    /// The warpsafe interpreter with every check on (races, divergence, bounds, uninitialised
    /// reads, division by zero, overflow, assertions) and independent warp scheduling.
    pub fn cpu() -> Backend {
        Backend {
            choice: Choice::Cpu,
            options: Options::default(),
        }
    }

    /// The kernel body compiled as plain Rust, every thread run natively, blocks in parallel
    /// (see [`crate::native`]); no dynamic checks. Kernels with barriers, shared memory, warp
    /// collectives or atomics, and untyped launches of bare IR, run on the interpreter
    /// instead (the report says why).
    pub fn native() -> Backend {
        Backend {
            choice: Choice::Native,
            ..Backend::cpu()
        }
    }

    /// True for [`Backend::native`].
    pub fn is_native(&self) -> bool {
        self.choice == Choice::Native
    }

    /// A real GPU through CUDA; fails with [`LaunchError::Cuda`] when there is none.
    pub fn cuda() -> Backend {
        Backend {
            choice: Choice::Cuda,
            ..Backend::cpu()
        }
    }

    /// CUDA when a device is present, else the CPU interpreter; the report says which ran and why.
    pub fn auto() -> Backend {
        Backend {
            choice: Choice::Auto,
            ..Backend::cpu()
        }
    }

    /// Legacy lock-step warps: accesses within a warp are ordered (CPU engine).
    pub fn lockstep_warps(mut self, on: bool) -> Backend {
        self.options.lockstep_warps = on;
        self
    }

    /// Chooses the dynamic checks (CPU engine).
    pub fn checks(mut self, checks: Checks) -> Backend {
        self.options.checks = checks;
        self
    }

    /// Reports category `c` (for example overflow) as an error rather than a warning.
    pub fn deny(mut self, c: Category) -> Backend {
        self.options.deny.push(c);
        self
    }

    /// Runs blocks one after the other instead of in parallel (results are identical).
    pub fn sequential(mut self) -> Backend {
        self.options.parallel = false;
        self
    }

    /// Replaces all interpreter options.
    pub fn with_options(mut self, options: Options) -> Backend {
        self.options = options;
        self
    }

    /// The interpreter options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Launches any IR kernel with untyped arguments (what `#[kernel]`'s typed `launch` calls).
    /// Error findings are not an `Err` here; see [`Report::into_result`].
    pub fn launch_kernel(
        &self,
        kernel: &Kernel,
        cfg: &LaunchConfig,
        args: Vec<Arg>,
    ) -> Result<Launched, LaunchError> {
        match self.choice {
            Choice::Cpu => self.run_cpu(kernel, cfg, args, None),
            Choice::Native => {
                let why = match crate::native::native_support(kernel) {
                    Some(w) => format!("cannot run natively: {w}; ran on the CPU interpreter"),
                    None => "no native code for this kernel; ran on the CPU interpreter".into(),
                };
                self.run_cpu(kernel, cfg, args, Some(why))
            }
            Choice::Cuda => run_cuda(kernel, cfg, args, None),
            Choice::Auto => {
                if warpsafe_cuda::device_available() {
                    run_cuda(kernel, cfg, args, Some("a CUDA device is present".into()))
                } else {
                    let why = "no CUDA device found; ran on the CPU interpreter".to_string();
                    self.run_cpu(kernel, cfg, args, Some(why))
                }
            }
        }
    }

    fn run_cpu(
        &self,
        kernel: &Kernel,
        cfg: &LaunchConfig,
        args: Vec<Arg>,
        reason: Option<String>,
    ) -> Result<Launched, LaunchError> {
        let out = warpsafe_exec::run(kernel, cfg, args, &self.options)?;
        Ok(Launched {
            args: out.args,
            report: Report {
                kernel: kernel.name.clone(),
                engine: Engine::Cpu,
                reason,
                findings: out.findings,
                stats: Some(out.stats),
            },
        })
    }
}

fn run_cuda(
    kernel: &Kernel,
    cfg: &LaunchConfig,
    args: Vec<Arg>,
    reason: Option<String>,
) -> Result<Launched, LaunchError> {
    let args =
        warpsafe_cuda::launch(kernel, cfg, args).map_err(|e| LaunchError::Cuda(e.to_string()))?;
    Ok(Launched {
        args,
        report: Report {
            kernel: kernel.name.clone(),
            engine: Engine::Cuda,
            reason,
            findings: vec![],
            stats: None,
        },
    })
}
