//! Loading kernel files: CUDA C through the frontend, or IR as JSON.

use crate::diagnostics;
use crate::exit::CliError;
use std::path::{Path, PathBuf};
use warpsafe_ir::{Kernel, Module, SourceFile};

/// A parsed file: its text (for diagnostics) and its kernels.
pub struct Loaded {
    /// The source text with a line index (empty for IR JSON).
    pub file: SourceFile,
    /// The kernels it defines.
    pub module: Module,
}

impl Loaded {
    /// The kernel called `name`, or the first kernel when `name` is `None`.
    pub fn kernel(&self, name: Option<&str>) -> Result<&Kernel, CliError> {
        match name {
            Some(n) => self.module.kernel(n).ok_or_else(|| {
                let have: Vec<&str> = self
                    .module
                    .kernels
                    .iter()
                    .map(|k| k.name.as_str())
                    .collect();
                CliError::usage(format!(
                    "{}: no kernel `{n}` (kernels: {})",
                    self.file.name,
                    have.join(", ")
                ))
            }),
            None => self.module.kernels.first().ok_or_else(|| {
                CliError::usage(format!("{}: no __global__ kernel", self.file.name))
            }),
        }
    }
}

/// Reads and parses `path`; parse errors are rendered to stderr.
pub fn load(path: &Path) -> Result<Loaded, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::io(path, e))?;
    let name = path.display().to_string();
    if path.extension().is_some_and(|e| e == "json") {
        let module = parse_ir_json(&text).map_err(|e| CliError::usage(format!("{name}: {e}")))?;
        return Ok(Loaded {
            file: SourceFile::new(name, String::new()),
            module,
        });
    }
    let file = SourceFile::new(name.clone(), text);
    match warpsafe_cuda_front::compile(&file.text) {
        Ok(module) => Ok(Loaded { file, module }),
        Err(errors) => {
            diagnostics::front_errors(&file, &errors);
            Err(CliError::Parse {
                file: name,
                count: errors.len(),
            })
        }
    }
}

/// Accepts a serialised [`Module`] or a single [`Kernel`], and type-checks it.
fn parse_ir_json(text: &str) -> Result<Module, String> {
    let module = match serde_json::from_str::<Module>(text) {
        Ok(m) => m,
        Err(module_err) => match serde_json::from_str::<Kernel>(text) {
            Ok(k) => Module { kernels: vec![k] },
            Err(_) => return Err(format!("not warpsafe IR JSON: {module_err}")),
        },
    };
    for k in &module.kernels {
        if let Err(errors) = warpsafe_ir::check_kernel(k) {
            let msgs: Vec<String> = errors.iter().map(|e| e.message.clone()).collect();
            return Err(format!(
                "kernel `{}` is ill-typed: {}",
                k.name,
                msgs.join("; ")
            ));
        }
    }
    Ok(module)
}

/// Expands directories into their `.cu` and `.json` files (sorted); keeps files as given.
pub fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut out = vec![];
    for p in paths {
        if p.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| CliError::io(p, e))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|e| e == "cu" || e == "json"))
                .collect();
            entries.sort();
            out.extend(entries);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}
