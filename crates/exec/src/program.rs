//! A kernel compiled to thread code, reusable across runs.

use crate::thread::code::ThreadCode;
use crate::thread::{display, lower};
use crate::ExecError;
use warpsafe_ir::Kernel;

/// Compiled thread code for one kernel, together with the kernel it came from.
#[derive(Clone, Debug)]
pub struct Program {
    kernel: Kernel,
    code: ThreadCode,
}

impl Program {
    /// The kernel this program's code was lowered from: for [`compile`], the optimised kernel
    /// (the source kernel's parameters, shared arrays and contract; its variables, followed by
    /// any the optimiser added; the local arrays that kept their memory).
    pub fn kernel(&self) -> &Kernel {
        &self.kernel
    }

    /// The thread code.
    pub fn code(&self) -> &ThreadCode {
        &self.code
    }

    /// Pairs thread code from another frontend (PTX) with the kernel signature it runs under:
    /// the kernel's parameters, shared arrays and contract describe the launch, its body is
    /// not used. Global allocations must name buffer parameters of `kernel`.
    pub fn from_parts(kernel: Kernel, code: ThreadCode) -> Program {
        Program { kernel, code }
    }
}

/// Optimises `kernel` ([`warpsafe_ir::opt::optimize`]: same outputs, same findings) and
/// lowers it to thread code. Should the optimised kernel not lower, the kernel is lowered as
/// written, so errors are the source kernel's.
pub fn compile(kernel: &Kernel) -> Result<Program, ExecError> {
    let optimized = warpsafe_ir::opt::optimize(kernel);
    match lower::lower_kernel(&optimized) {
        Ok(code) => Ok(Program {
            kernel: optimized,
            code,
        }),
        Err(_) => compile_as_written(kernel),
    }
}

/// Lowers `kernel` to thread code as written, statement by statement (what
/// `Program::from_parts(k.clone(), thread::lower::lower_kernel(&k)?)` builds from outside).
fn compile_as_written(kernel: &Kernel) -> Result<Program, ExecError> {
    let code = lower::lower_kernel(kernel)?;
    Ok(Program {
        kernel: kernel.clone(),
        code,
    })
}

/// The thread code of `p` as text (for `warpsafe ir --thread-code`).
pub fn thread_code_text(p: &Program) -> String {
    display::render(&p.code)
}
