//! Finding NVIDIA's shared libraries and loading them by absolute path.
//!
//! NVRTC comes from the PyPI wheel `nvidia-cuda-nvrtc` (library under
//! `site-packages/nvidia/cu13/lib`). cudarc opens libraries by file name, so we first open
//! the one we found by absolute path with `RTLD_GLOBAL`: the dynamic loader then resolves
//! cudarc's later open of `libnvrtc.so.13` to the library already loaded (same soname).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Where a library was looked for, for the error message when it was not found.
#[derive(Debug, Clone)]
pub struct Search {
    /// The candidate paths tried, in order.
    pub tried: Vec<PathBuf>,
}

const NVRTC_FILE: &str = "libnvrtc.so.13";

/// Site-packages directories of the active Python (`python3`), asked once.
fn python_site_dirs() -> &'static [PathBuf] {
    static DIRS: OnceLock<Vec<PathBuf>> = OnceLock::new();
    DIRS.get_or_init(|| {
        let script = "import site,sysconfig\n\
            ps=[sysconfig.get_paths()['purelib'],sysconfig.get_paths()['platlib']]\n\
            ps+=getattr(site,'getsitepackages',lambda:[])()\n\
            ps.append(site.getusersitepackages())\n\
            print('\\n'.join(ps))";
        let out = std::process::Command::new("python3")
            .args(["-c", script])
            .stderr(std::process::Stdio::null())
            .output();
        match out {
            Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout)
                .lines()
                .map(PathBuf::from)
                .collect(),
            _ => vec![],
        }
    })
}

/// Candidate locations of NVRTC: `$WARPSAFE_NVRTC` (a file or a directory), the active
/// Python's site-packages, then every directory of `$LD_LIBRARY_PATH`.
pub fn nvrtc_candidates() -> Vec<PathBuf> {
    let mut out = vec![];
    if let Some(p) = std::env::var_os("WARPSAFE_NVRTC") {
        let p = PathBuf::from(p);
        if p.is_dir() {
            out.push(p.join(NVRTC_FILE));
        } else {
            out.push(p);
        }
    }
    for site in python_site_dirs() {
        out.push(site.join("nvidia/cu13/lib").join(NVRTC_FILE));
    }
    if let Some(paths) = std::env::var_os("LD_LIBRARY_PATH") {
        for dir in std::env::split_paths(&paths) {
            out.push(dir.join(NVRTC_FILE));
        }
    }
    out
}

/// Opens `path` with `RTLD_NOW | RTLD_GLOBAL` and keeps it loaded for the process lifetime.
fn preload(path: &Path) -> bool {
    use libloading::os::unix::{Library, RTLD_GLOBAL, RTLD_NOW};
    // SAFETY: loading NVIDIA's library runs its initialisers, which have no preconditions.
    match unsafe { Library::open(Some(path), RTLD_NOW | RTLD_GLOBAL) } {
        Ok(lib) => {
            std::mem::forget(lib);
            true
        }
        Err(_) => false,
    }
}

/// Loads NVRTC (once per process) and returns the path it came from, or where it looked.
pub fn load_nvrtc() -> Result<PathBuf, Search> {
    static LOADED: OnceLock<Result<PathBuf, Search>> = OnceLock::new();
    LOADED
        .get_or_init(|| {
            let tried = nvrtc_candidates();
            for c in &tried {
                if c.is_file() && preload(c) {
                    return Ok(c.clone());
                }
            }
            // Last resort: whatever the system loader finds by name.
            // SAFETY: only probes whether the library can be opened.
            if unsafe { cudarc::nvrtc::sys::is_culib_present() } {
                return Ok(PathBuf::from(NVRTC_FILE));
            }
            Err(Search { tried })
        })
        .clone()
}

/// True when the CUDA driver library (`libcuda.so`) can be loaded.
pub fn driver_present() -> bool {
    // SAFETY: only probes whether the library can be opened.
    unsafe { cudarc::driver::sys::is_culib_present() }
}
