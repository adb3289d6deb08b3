//! Recording kernels: the runtime half of `#[kernel]`. Generated code calls into [`Scope`]
//! twice, first to infer the types of unsuffixed literals, then to emit the final IR.

mod infer;
mod operand;
mod scope;

pub use infer::Ty;
pub use operand::{
    assign, atomic, compound_assign, compound_store, helper_arg, helper_mem, len, load, read,
    store, HelperArg, Operand,
};
pub use scope::{BuildMessage, Mem, RustUnOp, Scope, Val, Var};

use infer::Infer;
use std::fmt;
use warpsafe_ir::{check_kernel, Kernel, Span};

/// Why a `#[kernel]` could not be turned into IR (a bug in the macro or a type error rustc
/// did not see); every message carries a span into the Rust source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError {
    /// The kernel.
    pub kernel: String,
    /// What went wrong, in source order.
    pub messages: Vec<BuildMessage>,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "kernel `{}` could not be built:", self.kernel)?;
        for m in &self.messages {
            write!(f, " {};", m.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for BuildError {}

/// Records the kernel `name` by running `body` twice: once to infer literal types, once to
/// emit IR with every type resolved. The result passes [`check_kernel`].
pub fn build_kernel(
    name: &str,
    span: Span,
    body: impl Fn(&mut Scope),
) -> Result<Kernel, BuildError> {
    let fail = |messages| BuildError {
        kernel: name.to_string(),
        messages,
    };
    let mut first = Scope::new(name, span, Infer::default());
    body(&mut first);
    let (_, mut infer, errors) = first.into_parts();
    if !errors.is_empty() {
        return Err(fail(errors));
    }
    let mut second = Scope::new(name, span, Infer::replaying(infer.solve()));
    body(&mut second);
    let (kernel, _, errors) = second.into_parts();
    if !errors.is_empty() {
        return Err(fail(errors));
    }
    check_kernel(&kernel).map_err(|errs| {
        fail(
            errs.into_iter()
                .map(|e| BuildMessage {
                    message: e.message,
                    span: e.span,
                })
                .collect(),
        )
    })?;
    Ok(kernel)
}
