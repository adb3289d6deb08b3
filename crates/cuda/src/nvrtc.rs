//! Compiling CUDA C to PTX with NVRTC, with diagnostics mapped to the generated source.

use crate::cache;
use crate::locate;
use std::ffi::CString;
use std::path::PathBuf;

/// What went wrong compiling with NVRTC.
#[derive(Debug, Clone, thiserror::Error)]
pub enum NvrtcError {
    /// The library is not installed where we look.
    #[error(
        "NVRTC (libnvrtc.so.13) not found; install it with `pip install nvidia-cuda-nvrtc` \
         or set WARPSAFE_NVRTC to its path (looked in: {tried})"
    )]
    NotFound {
        /// The paths tried, comma-separated.
        tried: String,
    },
    /// The source did not compile; `log` holds NVRTC's messages with source lines quoted.
    #[error("NVRTC rejected the generated CUDA C:\n{log}")]
    Compile {
        /// NVRTC's log, each diagnostic followed by the generated line it refers to.
        log: String,
    },
    /// An NVRTC call failed for another reason.
    #[error("NVRTC failed: {0}")]
    Api(String),
}

/// Options of one compilation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CompileOptions {
    /// Target architecture, e.g. `sm_90`.
    pub arch: String,
    /// Extra NVRTC options, passed as given.
    pub extra: Vec<String>,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            arch: "sm_90".into(),
            extra: vec![],
        }
    }
}

/// PTX produced by NVRTC, with its (possibly empty) log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compiled {
    /// The PTX text.
    pub ptx: String,
    /// NVRTC's messages (warnings), each followed by the generated line it refers to.
    pub log: String,
    /// True when the result came from the on-disk cache.
    pub cached: bool,
}

/// Loads NVRTC if needed and returns its `(major, minor)` version.
pub fn version() -> Result<(i32, i32), NvrtcError> {
    ensure_loaded()?;
    let (mut major, mut minor) = (0, 0);
    // SAFETY: NVRTC is loaded; the out-pointers are valid for writes.
    let r = unsafe { cudarc::nvrtc::sys::nvrtcVersion(&mut major, &mut minor) };
    r.result().map_err(|e| NvrtcError::Api(format!("{e:?}")))?;
    Ok((major, minor))
}

/// The path NVRTC was loaded from.
pub fn library_path() -> Result<PathBuf, NvrtcError> {
    locate::load_nvrtc().map_err(|s| NvrtcError::NotFound {
        tried: s
            .tried
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
    })
}

fn ensure_loaded() -> Result<(), NvrtcError> {
    library_path().map(|_| ())
}

/// Compiles `source` to PTX, using the on-disk cache keyed by (source, options, NVRTC
/// version).
pub fn compile(source: &str, opts: &CompileOptions) -> Result<Compiled, NvrtcError> {
    let v = version()?;
    let key = cache::key(&[
        source,
        &opts.arch,
        &opts.extra.join("\u{1}"),
        &format!("{}.{}", v.0, v.1),
    ]);
    if let Some((ptx, log)) = cache::load(&key) {
        return Ok(Compiled {
            ptx,
            log,
            cached: true,
        });
    }
    let (ptx, log) = compile_uncached(source, opts)?;
    cache::store(&key, &ptx, &log);
    Ok(Compiled {
        ptx,
        log,
        cached: false,
    })
}

fn c_text(v: Vec<std::ffi::c_char>) -> String {
    let bytes: Vec<u8> = v
        .into_iter()
        .map(|c| c as u8)
        .take_while(|b| *b != 0)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn compile_uncached(source: &str, opts: &CompileOptions) -> Result<(String, String), NvrtcError> {
    use cudarc::nvrtc::result as nv;
    let src = CString::new(source).map_err(|_| NvrtcError::Api("source contains NUL".into()))?;
    let name = c"warpsafe.cu";
    let api = |e: cudarc::nvrtc::result::NvrtcError| NvrtcError::Api(format!("{e:?}"));
    let prog = nv::create_program(&src, Some(name)).map_err(api)?;
    let mut options = vec![format!("--gpu-architecture={}", opts.arch)];
    options.extend(opts.extra.iter().cloned());
    // SAFETY: `prog` was created above and is destroyed exactly once below.
    let compiled = unsafe { nv::compile_program(prog, &options) };
    // SAFETY: as above.
    let log = unsafe { nv::get_program_log(prog) }
        .map(c_text)
        .unwrap_or_default();
    let log = annotate_log(&log, source);
    let result = match compiled {
        Ok(()) => {
            // SAFETY: as above; compilation succeeded.
            unsafe { nv::get_ptx(prog) }
                .map(c_text)
                .map(|ptx| (ptx, log))
                .map_err(api)
        }
        Err(_) => Err(NvrtcError::Compile { log }),
    };
    // SAFETY: as above.
    let _ = unsafe { nv::destroy_program(prog) };
    result
}

/// Follows every `warpsafe.cu(LINE): …` message with the generated line it refers to.
pub fn annotate_log(log: &str, source: &str) -> String {
    let lines: Vec<&str> = source.lines().collect();
    let mut out = String::new();
    for l in log.lines() {
        out.push_str(l);
        out.push('\n');
        let line_no = l
            .strip_prefix("warpsafe.cu(")
            .and_then(|rest| rest.split(')').next())
            .and_then(|n| n.parse::<usize>().ok());
        if let Some(text) = line_no.and_then(|n| lines.get(n.wrapping_sub(1))) {
            out.push_str(&format!("    | {}\n", text.trim_end()));
        }
    }
    out.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::annotate_log;

    #[test]
    fn log_lines_quote_the_generated_source() {
        let log = "warpsafe.cu(2): error: identifier \"y\" is undefined\n1 error detected";
        let src = "extern \"C\" __global__ void k() {\n    y = 1;\n}\n";
        let out = annotate_log(log, src);
        assert!(out.contains("    |     y = 1;"), "{out}");
    }
}
