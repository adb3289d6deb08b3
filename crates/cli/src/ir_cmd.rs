//! `warpsafe ir`: print a kernel's IR, its thread code, or the module as JSON.

use crate::cli::{IrArgs, IrFormat as Format};
use crate::exit::{CliError, CLEAN};
use crate::source;

/// Runs the command.
pub fn run(args: &IrArgs) -> Result<u8, CliError> {
    if args.format == Format::Sarif {
        return Err(CliError::usage(
            "--format sarif makes no sense for `ir`: it prints code, not findings (SARIF holds \
             findings); use --format human or --format json",
        ));
    }
    let loaded = source::load(&args.file)?;
    if args.format == Format::Json {
        let json = match &args.select.kernel {
            Some(_) => serde_json::to_string_pretty(loaded.kernel(args.select.kernel.as_deref())?),
            None => serde_json::to_string_pretty(&loaded.module),
        };
        println!("{}", json.map_err(|e| CliError::usage(e.to_string()))?);
        return Ok(CLEAN);
    }
    let kernels: Vec<&warpsafe_ir::Kernel> = match &args.select.kernel {
        Some(_) => vec![loaded.kernel(args.select.kernel.as_deref())?],
        None => loaded.module.kernels.iter().collect(),
    };
    for k in kernels {
        if args.via_ptx {
            let p = crate::ptx_input::via_ptx(&loaded.file.name, k)?;
            if args.thread_code {
                println!("// thread code of `{}` (from PTX)", k.name);
                print!("{}", warpsafe_exec::thread_code_text(&p.program));
                continue;
            }
            let lifted = warpsafe_ptx::lift(&p.program).map_err(|e| {
                let at = if e.span.is_dummy() {
                    String::new()
                } else {
                    let (l, _) = p.file.line_col(e.span.lo);
                    format!(" (PTX line {l}: {})", p.file.line_text(l).trim())
                };
                CliError::usage(format!("`{}`: PTX road: {}{at}", k.name, e.message))
            })?;
            print!("{lifted}");
        } else if args.thread_code {
            let program = warpsafe_exec::compile(k)
                .map_err(|e| CliError::usage(format!("cannot lower `{}`: {e}", k.name)))?;
            println!("// thread code of `{}`", k.name);
            print!("{}", warpsafe_exec::thread_code_text(&program));
        } else {
            print!("{k}");
        }
    }
    Ok(CLEAN)
}
