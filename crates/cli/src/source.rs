//! Loading kernel files: CUDA C through the frontend, or IR as JSON.

use crate::cli::{FrontArgs, Frontend};
use crate::diagnostics;
use crate::exit::CliError;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use warpsafe_cuda_front::FrontError;
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
    let bytes = std::fs::read(path).map_err(|e| CliError::io(path, e))?;
    let text = warpsafe_clang_front::source_text(&bytes);
    let name = path.display().to_string();
    if path.extension().is_some_and(|e| e == "json") {
        let module = parse_ir_json(&text).map_err(|e| CliError::usage(format!("{name}: {e}")))?;
        return Ok(Loaded {
            file: SourceFile::new(name, String::new()),
            module,
        });
    }
    let file = SourceFile::new(name.clone(), text);
    let mut front = FRONT.get().cloned().unwrap_or_default();
    if front.frontend == Frontend::Auto {
        match std::env::var("WARPSAFE_FRONTEND").as_deref() {
            Ok("clang") => front.frontend = Frontend::Clang,
            Ok("subset") => front.frontend = Frontend::Subset,
            _ => {}
        }
    }
    let clang = match front.frontend {
        Frontend::Subset => None,
        _ => warpsafe_clang_front::find_clang(),
    };
    let Some(clang) = clang else {
        if front.frontend == Frontend::Auto {
            eprintln!(
                "note: clang not found; {name} is read by the C-subset parser (run scripts/setup.sh for CUDA C++)"
            );
        }
        return match subset(&name, &file.text) {
            Ok(module) => Ok(Loaded { file, module }),
            Err(errors) => Err(parse_error(&file, &errors)),
        };
    };
    let read = crate::progress::step(
        &format!("read {name} through clang ({})", clang.display()),
        || warpsafe_clang_front::compile_file(path, &file.text, &clang_options()),
        |r| match r {
            Ok(c) => format!(
                "{} kernel(s), {} left out",
                c.module.kernels.len(),
                c.rejected.len()
            ),
            Err(e) => format!("{} error(s)", e.len()),
        },
    );
    let whole = matches!(&read, Ok(c) if c.rejected.is_empty() && !c.module.kernels.is_empty());
    if !whole && front.frontend == Frontend::Auto {
        // The subset parser may still read a file clang's road leaves kernels of.
        if let Ok(module) = subset(&name, &file.text) {
            return Ok(Loaded { file, module });
        }
    }
    match read {
        Ok(c) if !c.module.kernels.is_empty() => {
            for (span, note) in &c.launch_notes {
                let (line, _) = file.line_col(span.lo);
                // Printed before the command reads its flags: a flag (`--arg`, `--block`, …) that
                // gives the same fact replaces it.
                eprintln!("{name}:{line}: note: {note}; used where the header and flags give none");
            }
            for (span, note) in &c.notes {
                let (line, _) = file.line_col(span.lo);
                eprintln!("{name}:{line}: note: {note}");
            }
            for r in &c.rejected {
                diagnostics::front_errors(&file, &r.errors);
                eprintln!(
                    "{name}: kernel `{}` left out (the error above); the others are checked",
                    r.kernel
                );
            }
            Ok(Loaded {
                file,
                module: c.module,
            })
        }
        Ok(c) => {
            let errors: Vec<FrontError> = c.rejected.into_iter().flat_map(|r| r.errors).collect();
            if errors.is_empty() {
                return Err(CliError::usage(format!("{name}: no __global__ kernel")));
            }
            Err(parse_error(&file, &errors))
        }
        Err(errors) => Err(parse_error(&file, &errors)),
    }
}

/// Reads `text` with the C-subset parser, saying so under `-v`.
fn subset(name: &str, text: &str) -> Result<Module, Vec<FrontError>> {
    crate::progress::step(
        &format!("read {name} with the C-subset parser"),
        || warpsafe_cuda_front::compile(text),
        |r| match r {
            Ok(m) => format!("{} kernel(s)", m.kernels.len()),
            Err(e) => format!("{} error(s)", e.len()),
        },
    )
}

/// How `.cu` files are read, set once from the command line.
static FRONT: OnceLock<FrontArgs> = OnceLock::new();

/// Records the `-D`, `-I` and `--frontend` flags for every later [`load`].
pub fn configure(front: &FrontArgs) {
    let _ = FRONT.set(front.clone());
}

/// clang's options from `-D` and `-I`.
pub fn clang_options() -> warpsafe_clang_front::Options {
    let front = FRONT.get().cloned().unwrap_or_default();
    warpsafe_clang_front::Options {
        defines: front.define,
        include_dirs: front.include,
    }
}

/// Renders `errors` and returns the parse error.
fn parse_error(file: &SourceFile, errors: &[FrontError]) -> CliError {
    diagnostics::front_errors(file, errors);
    let errors = errors
        .iter()
        .map(|e| {
            let placed = !e.span.is_dummy();
            let (line, column) = if placed {
                file.line_col(e.span.lo)
            } else {
                (0, 0)
            };
            crate::exit::Located {
                message: e.message.clone(),
                line,
                column,
                span: placed.then_some(crate::exit::ByteSpan {
                    lo: e.span.lo,
                    hi: e.span.hi,
                }),
                note: e.note.clone(),
            }
        })
        .collect();
    CliError::Parse {
        file: file.name.clone(),
        errors,
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
