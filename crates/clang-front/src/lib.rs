//! The CUDA C++ frontend of warpsafe: runs a real clang on the file (device side, with our
//! own device headers instead of a CUDA installation), reads its typed AST and lowers every
//! `__global__` kernel to the IR.
//!
//! clang does the C++ (macros, `#include`, templates, overloads, `auto`, `constexpr`,
//! default arguments, namespaces); [`translate`] writes what is left in the subset syntax
//! tree of `warpsafe_cuda_front`, whose lowering, header reader and type checker produce the
//! IR, so both parsers share one lowering. Each kernel stands on its own: a construct we do
//! not model rejects the kernels that use it, with its span, never its neighbours.
//!
//! ```no_run
//! use std::path::Path;
//! use warpsafe_clang_front::{compile_file, Options};
//! let path = Path::new("examples/kernels/vector_add.cu");
//! let source = std::fs::read_to_string(path).unwrap();
//! let out = compile_file(path, &source, &Options::default()).expect("clang runs");
//! assert!(out.module.kernel("vector_add").is_some());
//! assert!(out.rejected.is_empty());
//! ```

mod cache;
mod driver;
mod headers;
mod node;
pub mod translate;

pub use cache::set_cache_dir;
pub use driver::{find_clang, Options};

use std::path::Path;
use translate::Unit;
use warpsafe_cuda_front::ast::{FnKind, Item, TranslationUnit};
use warpsafe_cuda_front::FrontError;
use warpsafe_ir::{Module, Span};

/// A file read through clang: the kernels that lowered, and those that did not with why.
#[derive(Debug)]
pub struct Compiled {
    /// The kernels that lowered and type-checked.
    pub module: Module,
    /// Kernels left out, each with the first construct that stops it.
    pub rejected: Vec<Rejection>,
    /// clang errors outside every kernel (in host code), which cost no kernel.
    pub host_errors: Vec<FrontError>,
    /// What host code fixes about launches (shapes, buffer lengths, argument defaults,
    /// dynamic shared memory), one line each at the place it came from (`len(A) of `add` =
    /// n (cudaMalloc of 4000 bytes; …)`), for the report.
    pub launch_notes: Vec<(warpsafe_ir::Span, String)>,
    /// Assumptions the translation makes about a kernel's launch, one line each at the
    /// place they concern (the device functions a function-pointer parameter may name).
    pub notes: Vec<(warpsafe_ir::Span, String)>,
}

/// A kernel the frontend could not lower.
#[derive(Debug, Clone)]
pub struct Rejection {
    /// The kernel's name.
    pub kernel: String,
    /// Why (the construct and its span).
    pub errors: Vec<FrontError>,
}

/// The file's text with every byte that is not UTF-8 replaced by `?`, one byte for one, so
/// that clang's byte offsets stay valid (sources with Latin-1 comments are common).
pub fn source_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => {
            let mut out = String::with_capacity(bytes.len());
            for chunk in bytes.utf8_chunks() {
                out.push_str(chunk.valid());
                out.extend(std::iter::repeat_n('?', chunk.invalid().len()));
            }
            out
        }
    }
}

/// Runs clang on `path` (whose text is `source`) and lowers each of its kernels. An error
/// only when clang is missing or fails outright, or when no kernel could be read and some
/// error says why.
pub fn compile_file(
    path: &Path,
    source: &str,
    opts: &Options,
) -> Result<Compiled, Vec<FrontError>> {
    let clang = find_clang().ok_or_else(|| {
        vec![FrontError::new(
            Span::DUMMY,
            "clang not found; run scripts/setup.sh (or set WARPSAFE_CLANG)",
        )]
    })?;
    let out = driver::run(&clang, path, opts).map_err(|e| vec![FrontError::new(Span::DUMMY, e)])?;
    let main = path.to_string_lossy().into_owned();
    let source = source.to_string();
    let errors = out.errors;
    let json = out.json;
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let mut root =
                node::parse(&json, &main).map_err(|e| vec![FrontError::new(Span::DUMMY, e)])?;
            translate::types::desugar_members(&mut root);
            lower(&root, &source, &main, &errors)
        })
        .map_err(|e| {
            vec![FrontError::new(
                Span::DUMMY,
                format!("cannot start the frontend: {e}"),
            )]
        })?
        .join()
        .map_err(|_| vec![FrontError::new(Span::DUMMY, "the clang frontend failed")])?
}

fn lower(
    root: &node::Node,
    source: &str,
    main: &str,
    clang_errors: &[driver::Diagnostic],
) -> Result<Compiled, Vec<FrontError>> {
    let gpuverify = driver::gpuverify_form(source);
    let mut unit = Unit::collect(root, source.len(), gpuverify);
    unit.collect_record_globals(root);
    unit.textures = translate::texture::Textures::read(root, source);
    unit.source = source.to_string();
    let mut host_errors = vec![];
    let mut errors_at: Vec<FrontError> = vec![];
    for d in clang_errors {
        // GPUVerify's dialect: the variable is the device's (`Unit::device_var`).
        if gpuverify && d.message.starts_with("reference to __host__ variable") {
            continue;
        }
        let err = if d.file == main {
            let offset = line_col_offset(source, d.line, d.col);
            FrontError::new(
                Span::new(offset, offset + 1),
                format!("clang: {}", d.message),
            )
        } else {
            FrontError::new(Span::DUMMY, format!("clang: {}", d.message))
                .with_note(format!("in {}:{}:{}", d.file, d.line, d.col))
        };
        errors_at.push(err);
    }
    // After a fatal error clang reports nothing more and its AST may silently lack what
    // it could not parse (a statement using a macro from a header not found is dropped):
    // no kernel of the file can be trusted.
    if let Some(i) = clang_errors.iter().position(|d| d.fatal) {
        const WHY: &str = "clang stops at a fatal error, so nothing of this file is checked \
                           (a header's directory is given with -I)";
        let cause = errors_at[i].clone();
        let note = match &cause.note {
            Some(n) => format!("{n}; {WHY}"),
            None => WHY.to_string(),
        };
        let cause = cause.with_note(note);
        let rejected: Vec<Rejection> = unit
            .functions
            .iter()
            .filter(|f| f.kind == FnKind::Kernel)
            .map(|f| Rejection {
                kernel: f.name.clone(),
                errors: vec![cause.clone()],
            })
            .collect();
        if rejected.is_empty() {
            return Err(vec![cause]);
        }
        return Ok(Compiled {
            module: Module { kernels: vec![] },
            rejected,
            host_errors: vec![],
            launch_notes: vec![],
            notes: vec![],
        });
    }
    // Translate every function; a helper that fails costs the kernels that call it.
    let mut helpers = vec![];
    let mut kernels = vec![];
    let mut rejected = vec![];
    for f in &unit.functions {
        let span = unit.span(f.node, Span::DUMMY);
        let inside: Vec<FrontError> = errors_at
            .iter()
            .filter(|e| {
                !e.span.is_dummy() && e.span.lo >= span.lo && e.span.hi <= span.hi.max(span.lo + 1)
            })
            .cloned()
            .collect();
        let translated = if inside.is_empty() {
            unit.function(f).map_err(|e| vec![e])
        } else {
            Err(inside)
        };
        // Function-pointer tables only read are constants of the functions that read them.
        let translated = translated.map(|mut func| {
            let mut body = unit.fn_table_decls(&func, f.node);
            body.append(&mut func.body);
            func.body = body;
            func
        });
        match (f.kind, translated) {
            (FnKind::Kernel, Ok(func)) => kernels.push(func),
            (FnKind::Kernel, Err(errs)) => rejected.push(Rejection {
                kernel: f.name.clone(),
                errors: errs,
            }),
            (FnKind::Device, r) => helpers.push((f.name.clone(), r)),
        }
    }
    assume_axioms(&mut kernels, &helpers);
    for e in &errors_at {
        let in_function = unit.functions.iter().any(|f| {
            let s = unit.span(f.node, Span::DUMMY);
            !e.span.is_dummy() && e.span.lo >= s.lo && e.span.lo < s.hi
        });
        if !in_function {
            host_errors.push(e.clone());
        }
    }
    // An expression clang could not type is the echo of an earlier error outside the
    // function (a header not found, a macro the file expects from `-D`): name that cause.
    if let Some(cause) = host_errors.first() {
        let cause = describe_cause(cause, source);
        let rejected_errors = rejected.iter_mut().flat_map(|r| r.errors.iter_mut());
        let helper_errors = helpers
            .iter_mut()
            .filter_map(|(_, r)| r.as_mut().err())
            .flat_map(|errs| errs.iter_mut());
        for e in rejected_errors.chain(helper_errors) {
            if e.message == translate::UNTYPED && e.note.is_none() {
                e.note = Some(format!("clang's first error: {cause}"));
            }
        }
    }
    // Kernels whose helpers failed are rejected with the helper's error.
    let failed: Vec<(&String, &Vec<FrontError>)> = helpers
        .iter()
        .filter_map(|(n, r)| r.as_ref().err().map(|e| (n, e)))
        .collect();
    let ok_helpers: Vec<warpsafe_cuda_front::ast::Function> = helpers
        .iter()
        .filter_map(|(_, r)| r.as_ref().ok().cloned())
        .collect();
    kernels.retain(|k| {
        let mut calls = vec![];
        collect_calls(k, &ok_helpers, &mut calls);
        match failed.iter().find(|(n, _)| calls.contains(n)) {
            Some((n, errs)) => {
                rejected.push(Rejection {
                    kernel: k.name.clone(),
                    errors: errs
                        .iter()
                        .map(|e| {
                            e.clone()
                                .with_note(format!("in `{n}`, called by `{}`", k.name))
                        })
                        .collect(),
                });
                false
            }
            None => true,
        }
    });
    // File-scope arrays become buffers of the kernels that use them.
    let mut added: Vec<(String, String, u64)> = vec![];
    let mut bound_textures: Vec<(String, String)> = vec![];
    for k in &mut kernels {
        let mut reach = vec![];
        collect_calls(k, &ok_helpers, &mut reach);
        for g in unit.globals.iter().filter(|g| g.unmodelled.is_none()) {
            let used = translate::globals::mentions(k, &g.name)
                || ok_helpers
                    .iter()
                    .any(|h| reach.contains(&h.name) && translate::globals::mentions(h, &g.name));
            if used {
                k.params.push(g.param.clone());
                if let Some(stride) = g.record_stride {
                    // Records: the length below counts them, scaled to scalar units.
                    unit.record_params
                        .borrow_mut()
                        .push((k.name.clone(), g.name.clone(), stride));
                }
                match g.extent {
                    Some(extent) => added.push((k.name.clone(), g.name.clone(), extent)),
                    None if g.param.ty.ptr => bound_textures.push((k.name.clone(), g.name.clone())),
                    None => {}
                }
            }
        }
    }
    // Lower the kernels together (the header applies to all of them); a kernel whose
    // lowering fails is set aside and the rest lowered again.
    let mut text = source.to_string();
    loop {
        let mut items = unit.constants.clone();
        items.extend(ok_helpers.iter().cloned().map(Item::Function));
        items.extend(kernels.iter().cloned().map(Item::Function));
        let tu = TranslationUnit { items };
        match warpsafe_cuda_front::compile_unit(&tu, &text) {
            Ok(mut module) => {
                for (kernel, array, extent) in &added {
                    give_length(&mut module, kernel, array, *extent);
                }
                for (kernel, param, stride) in unit.record_params.borrow().iter() {
                    scale_length(&mut module, kernel, param, *stride);
                }
                // After the scaling: a bound texture's length is its buffer's, already in units.
                for (kernel, texture) in &bound_textures {
                    any_length(&mut module, kernel, texture);
                }
                let launch_notes = translate::launch_facts::apply(
                    &mut module,
                    &unit.launches(root),
                    &unit.record_params.borrow(),
                    source,
                );
                let mut notes = fn_param_preconditions(&mut module, &unit.fn_pointers.params);
                notes.extend(unit.notes.borrow().iter().cloned());
                return Ok(Compiled {
                    module,
                    rejected,
                    host_errors,
                    launch_notes,
                    notes,
                });
            }
            Err(errs) => {
                let guilty: Vec<usize> = kernels
                    .iter()
                    .enumerate()
                    .filter(|(_, k)| {
                        errs.iter().any(|e| {
                            e.note.as_deref() == Some(&format!("in kernel `{}`", k.name))
                                || !e.span.is_dummy()
                                    && e.span.lo >= k.span.lo
                                    && e.span.hi <= k.span.hi
                        })
                    })
                    .map(|(i, _)| i)
                    .collect();
                if guilty.is_empty() {
                    if drop_set_aside_lines(&mut text, &errs, &unit, &rejected) {
                        continue;
                    }
                    return Err(errs);
                }
                for i in guilty.into_iter().rev() {
                    let k = kernels.remove(i);
                    let mine: Vec<FrontError> = errs
                        .iter()
                        .filter(|e| {
                            e.note.as_deref() == Some(&format!("in kernel `{}`", k.name))
                                || !e.span.is_dummy()
                                    && e.span.lo >= k.span.lo
                                    && e.span.hi <= k.span.hi
                        })
                        .cloned()
                        .collect();
                    rejected.push(Rejection {
                        kernel: k.name,
                        errors: mine,
                    });
                }
                if kernels.is_empty() {
                    return Ok(Compiled {
                        module: Module { kernels: vec![] },
                        rejected,
                        host_errors,
                        launch_notes: vec![],
                        notes: vec![],
                    });
                }
            }
        }
    }
}

/// Blanks (in `text`) the header lines whose only fault is to name a parameter of kernels
/// already set aside (`//@ extent(t) = …` where every kernel taking `t` was rejected): such a
/// line concerns only those kernels. True when every error in `errs` is one of them.
fn drop_set_aside_lines(
    text: &mut String,
    errs: &[FrontError],
    unit: &translate::Unit,
    rejected: &[Rejection],
) -> bool {
    let params: Vec<&str> = unit
        .functions
        .iter()
        .filter(|f| rejected.iter().any(|r| r.kernel == f.name))
        .flat_map(|f| f.node.inner.iter().filter(|c| c.kind == "ParmVarDecl"))
        .filter_map(|p| p.name())
        .collect();
    let named = |e: &FrontError| {
        let name = e.message.strip_prefix('`')?.split_once('`')?.0;
        let about_kernels = e.message.ends_with("of any kernel in this file");
        (about_kernels && params.contains(&name)).then_some(e.span.lo as usize)
    };
    let at: Option<Vec<usize>> = errs.iter().map(named).collect();
    let Some(at) = at.filter(|a| !a.is_empty()) else {
        return false;
    };
    for lo in at {
        let start = text[..lo.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
        let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let blank = " ".repeat(end - start);
        text.replace_range(start..end, &blank);
    }
    true
}

/// A clang error as `message (line N)`, or with the header position its note gives.
fn describe_cause(e: &FrontError, source: &str) -> String {
    if e.span.is_dummy() {
        match &e.note {
            Some(n) => format!("{} ({n})", e.message),
            None => e.message.clone(),
        }
    } else {
        let upto = (e.span.lo as usize).min(source.len());
        let line = source.as_bytes()[..upto]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1;
        format!("{} (line {line})", e.message)
    }
}

/// `len(array) = extent` for the buffer standing for a file-scope array, unless the header
/// says otherwise.
fn give_length(module: &mut Module, kernel: &str, array: &str, extent: u64) {
    let Some(k) = module.kernels.iter_mut().find(|k| k.name == kernel) else {
        return;
    };
    let Some(param) = k.param_named(array) else {
        return;
    };
    if k.contract.lengths.iter().all(|l| l.param != param) {
        k.contract.lengths.push(warpsafe_ir::LengthSpec {
            param,
            len: warpsafe_ir::Expr::u64(extent),
        });
    }
}

/// A kernel's function-pointer parameter is the number of one of the device functions of
/// its type (the host passes one's address): a precondition, and a note naming them.
fn fn_param_preconditions(
    module: &mut Module,
    params: &[translate::fn_pointers::KernelFnParam],
) -> Vec<(Span, String)> {
    use warpsafe_ir::{BinOp, Expr, ExprKind, LogicOp, ScalarType};
    let mut notes = vec![];
    for fp in params {
        let Some(k) = module.kernels.iter_mut().find(|k| k.name == fp.kernel) else {
            continue;
        };
        let Some(id) = k.param_named(&fp.param) else {
            continue;
        };
        let value = Expr::new(ExprKind::Param(id), ScalarType::I32).with_span(fp.span);
        let one_of = fp
            .candidates
            .iter()
            .map(|(c, _)| Expr::binary(BinOp::Eq, value.clone(), Expr::i32(*c as i32)))
            .reduce(|a, b| Expr::logical(LogicOp::Or, a, b));
        let Some(one_of) = one_of else { continue };
        k.contract.requires.push(one_of);
        let names: Vec<String> = fp
            .candidates
            .iter()
            .map(|(c, n)| format!("{n} (--arg {}={c})", fp.param))
            .collect();
        notes.push((
            fp.span,
            format!(
                "`{}` of `{}` is taken to point to one of: {}: the device functions of its \
                 type, one of whose addresses the host passes",
                fp.param,
                fp.kernel,
                names.join(", ")
            ),
        ));
    }
    notes
}

/// GPUVerify's file-scope `__axiom(e)` (our header makes it a helper `__axiom_N` returning
/// `e`): an assumption at the start of every kernel.
fn assume_axioms(
    kernels: &mut [warpsafe_cuda_front::ast::Function],
    helpers: &[(
        String,
        Result<warpsafe_cuda_front::ast::Function, Vec<FrontError>>,
    )],
) {
    use warpsafe_cuda_front::ast::{Expr, ExprKind, Stmt, StmtKind};
    let is_axiom = |n: &str| {
        n.strip_prefix("__axiom_")
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
    };
    for k in kernels.iter_mut() {
        let span = k.span;
        let assumptions = helpers.iter().filter(|(n, _)| is_axiom(n)).map(|(n, _)| {
            let holds = Expr::new(ExprKind::Call(n.clone(), span, vec![]), span);
            let call = ExprKind::Call("__axiom".into(), span, vec![holds]);
            Stmt {
                kind: StmtKind::Expr(Expr::new(call, span)),
                span,
            }
        });
        let body = std::mem::take(&mut k.body);
        k.body = assumptions.chain(body).collect();
    }
}

/// A texture reference the header gives no length: whatever the host binds. Every fetch
/// through it stays inside the buffer by construction (clamped, or tested against its
/// length), so no length requirement is inferred for it.
fn any_length(module: &mut Module, kernel: &str, texture: &str) {
    let Some(k) = module.kernels.iter_mut().find(|k| k.name == kernel) else {
        return;
    };
    let Some(param) = k.param_named(texture) else {
        return;
    };
    if k.contract.lengths.iter().all(|l| l.param != param) {
        let len = warpsafe_ir::Expr::new(
            warpsafe_ir::ExprKind::BufferLen(param),
            warpsafe_ir::ScalarType::U64,
        );
        k.contract
            .lengths
            .push(warpsafe_ir::LengthSpec { param, len });
    }
}

/// A header length of a pointer-to-record parameter counts records; the buffer holds
/// `stride` scalars per record.
fn scale_length(module: &mut Module, kernel: &str, param: &str, stride: u64) {
    let Some(k) = module.kernels.iter_mut().find(|k| k.name == kernel) else {
        return;
    };
    let Some(id) = k.param_named(param) else {
        return;
    };
    for l in k.contract.lengths.iter_mut().filter(|l| l.param == id) {
        l.len = warpsafe_ir::Expr::binary(
            warpsafe_ir::BinOp::Mul,
            l.len.clone(),
            warpsafe_ir::Expr::u64(stride),
        );
    }
}

/// The names of the helpers `f` calls, directly or through other helpers.
fn collect_calls(
    f: &warpsafe_cuda_front::ast::Function,
    helpers: &[warpsafe_cuda_front::ast::Function],
    out: &mut Vec<String>,
) {
    let mut names = vec![];
    for s in &f.body {
        warpsafe_cuda_front::ast::visit_stmt_exprs(s, &mut |e| {
            warpsafe_cuda_front::ast::visit_calls(e, &mut |n| names.push(n.to_string()))
        });
    }
    for n in names {
        if out.contains(&n) {
            continue;
        }
        out.push(n.clone());
        if let Some(h) = helpers.iter().find(|h| h.name == n) {
            collect_calls(h, helpers, out);
        }
    }
}

/// The byte offset of 1-based `line`, `col` in `source` (clamped into it).
fn line_col_offset(source: &str, line: usize, col: usize) -> usize {
    let start: usize = source
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + col.saturating_sub(1)).min(source.len())
}
