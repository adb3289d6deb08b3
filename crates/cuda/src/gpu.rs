//! Launching a kernel on a real GPU through the CUDA driver API (cudarc).

use crate::nvrtc::{self, CompileOptions, NvrtcError};
use crate::{generate, CodegenError};
use cudarc::driver::sys::CUdevice_attribute as Attr;
use cudarc::driver::{CudaContext, CudaFunction, CudaSlice, CudaStream, PushKernelArg};
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, MutexGuard};
use warpsafe_exec::{eval_contract_expr, Arg, Buffer, LaunchConfig};
use warpsafe_ir::{Kernel, ParamId, ParamKind, Value};

/// Why a GPU launch did not happen or failed.
#[derive(Debug, thiserror::Error)]
pub enum CudaError {
    /// `libcuda.so` is not installed: there is no NVIDIA driver on this machine.
    #[error(
        "no CUDA device: the NVIDIA driver library (libcuda.so) is not installed on this machine"
    )]
    NoDriver,
    /// The driver loaded but found no usable device.
    #[error("no CUDA device: {0}")]
    NoDevice(String),
    /// The kernel could not be turned into CUDA C.
    #[error(transparent)]
    Codegen(#[from] CodegenError),
    /// NVRTC failed.
    #[error(transparent)]
    Nvrtc(#[from] NvrtcError),
    /// The launch does not fit the device or the kernel's contract.
    #[error("invalid launch: {0}")]
    InvalidLaunch(String),
    /// A driver call failed.
    #[error("CUDA driver error during {what}: {message}")]
    Driver {
        /// The operation.
        what: &'static str,
        /// The driver's error.
        message: String,
    },
}

fn driver(what: &'static str) -> impl Fn(cudarc::driver::DriverError) -> CudaError {
    move |e| CudaError::Driver {
        what,
        message: format!("{e:?}"),
    }
}

/// True when a CUDA driver and at least one device are present.
pub fn device_available() -> bool {
    crate::locate::driver_present() && CudaContext::device_count().map(|n| n > 0).unwrap_or(false)
}

fn open_device() -> Result<Arc<CudaContext>, CudaError> {
    if !crate::locate::driver_present() {
        return Err(CudaError::NoDriver);
    }
    match CudaContext::device_count() {
        Ok(n) if n > 0 => {}
        Ok(_) => return Err(CudaError::NoDevice("the driver reports no devices".into())),
        Err(e) => return Err(CudaError::NoDevice(format!("{e:?}"))),
    }
    CudaContext::new(0).map_err(|e| CudaError::NoDevice(format!("{e:?}")))
}

/// Checks the launch against the device's limits and the kernel's contract.
fn validate(
    kernel: &Kernel,
    cfg: &LaunchConfig,
    args: &[Arg],
    ctx: &CudaContext,
) -> Result<(), CudaError> {
    let attr = |a: Attr| ctx.attribute(a).map_err(driver("device query"));
    let threads: u64 = cfg.block.iter().map(|&d| d as u64).product();
    let max_threads = attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)? as u64;
    if threads == 0 || threads > max_threads {
        return Err(CudaError::InvalidLaunch(format!(
            "{threads} threads per block; the device allows 1..={max_threads}"
        )));
    }
    let block_limits = [
        Attr::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
        Attr::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
        Attr::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z,
    ];
    let grid_limits = [
        Attr::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
        Attr::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
        Attr::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z,
    ];
    for d in 0..3 {
        let (b, g) = (attr(block_limits[d])? as u32, attr(grid_limits[d])? as u32);
        if cfg.block[d] == 0 || cfg.block[d] > b || cfg.grid[d] == 0 || cfg.grid[d] > g {
            return Err(CudaError::InvalidLaunch(format!(
                "dimension {d}: block {} (max {b}), grid {} (max {g})",
                cfg.block[d], cfg.grid[d]
            )));
        }
    }
    let smem = attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)? as u64;
    let static_smem: u64 = kernel
        .shared
        .iter()
        .filter(|a| !a.dynamic)
        .map(|a| a.len() * a.elem.size_bytes())
        .sum();
    if static_smem + cfg.dynamic_shared_bytes > smem {
        return Err(CudaError::InvalidLaunch(format!(
            "{} bytes of shared memory per block; the device allows {smem}",
            static_smem + cfg.dynamic_shared_bytes
        )));
    }
    check_contract(kernel, cfg, args)
}

/// Checks argument kinds, buffer lengths and `requires` lines before any device work.
pub fn check_contract(kernel: &Kernel, cfg: &LaunchConfig, args: &[Arg]) -> Result<(), CudaError> {
    if args.len() != kernel.params.len() {
        return Err(CudaError::InvalidLaunch(format!(
            "`{}` takes {} arguments, {} given",
            kernel.name,
            kernel.params.len(),
            args.len()
        )));
    }
    for (p, a) in kernel.params.iter().zip(args) {
        let ok = match (p.kind, a) {
            (ParamKind::Scalar(t), Arg::Scalar(v)) => v.ty() == t,
            (ParamKind::Buffer { elem, .. }, Arg::Buffer(b)) => b.elem == elem,
            _ => false,
        };
        if !ok {
            return Err(CudaError::InvalidLaunch(format!(
                "argument `{}` has the wrong type",
                p.name
            )));
        }
    }
    let scalar = |p: ParamId| match args.get(p.0 as usize) {
        Some(Arg::Scalar(v)) => Some(*v),
        _ => None,
    };
    let len = |p: ParamId| match args.get(p.0 as usize) {
        Some(Arg::Buffer(b)) => Some(b.data.len() as u64),
        _ => None,
    };
    let eval = |e| {
        eval_contract_expr(kernel, e, &scalar, &len, cfg)
            .map_err(|err| CudaError::InvalidLaunch(format!("{}: {err}", kernel.expr_to_string(e))))
    };
    for l in &kernel.contract.lengths {
        let want = eval(&l.len)?.as_i128();
        let have = len(l.param).map(|n| n as i128);
        if want != have {
            return Err(CudaError::InvalidLaunch(format!(
                "buffer `{}` has {} elements; the kernel requires len = {}",
                kernel.param(l.param).name,
                have.unwrap_or(0),
                want.map(|w| w.to_string()).unwrap_or_else(|| "?".into())
            )));
        }
    }
    for r in &kernel.contract.requires {
        if eval(r)? != Value::Bool(true) {
            return Err(CudaError::InvalidLaunch(format!(
                "precondition `{}` does not hold",
                kernel.expr_to_string(r)
            )));
        }
    }
    Ok(())
}

/// A kernel with a grid barrier is launched cooperatively: the device must support it and hold
/// every block of the launch at once.
fn check_cooperative(
    ctx: &CudaContext,
    func: &CudaFunction,
    cfg: &LaunchConfig,
) -> Result<(), CudaError> {
    let attr = |a: Attr| ctx.attribute(a).map_err(driver("device query"));
    if attr(Attr::CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH)? == 0 {
        return Err(CudaError::InvalidLaunch(
            "the kernel has a grid barrier (this_grid().sync()), which needs a cooperative launch; this device does not support one".into(),
        ));
    }
    let sms = attr(Attr::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)? as u64;
    let threads = cfg.block.iter().map(|&d| d as u64).product::<u64>();
    let per_sm = func
        .occupancy_max_active_blocks_per_multiprocessor(
            u32::try_from(threads).unwrap_or(u32::MAX),
            usize::try_from(cfg.dynamic_shared_bytes).unwrap_or(usize::MAX),
            None,
        )
        .map_err(driver("occupancy query"))? as u64;
    let resident = per_sm * sms;
    let blocks = cfg.num_blocks();
    if blocks > resident {
        return Err(CudaError::InvalidLaunch(format!(
            "the kernel has a grid barrier (this_grid().sync()), so all {blocks} blocks must be resident at once; this device holds at most {resident} ({per_sm} per multiprocessor x {sms})"
        )));
    }
    Ok(())
}

fn to_bytes(b: &Buffer) -> Vec<u8> {
    let size = b.elem.size_bytes() as usize;
    let mut out = Vec::with_capacity(b.data.len().max(1) * size);
    for v in &b.data {
        out.extend_from_slice(&v.to_le_bytes()[..size]);
    }
    if out.is_empty() {
        out.resize(size, 0);
    }
    out
}

fn from_bytes(elem: warpsafe_ir::ScalarType, bytes: &[u8], len: usize) -> Buffer {
    let size = elem.size_bytes() as usize;
    let data = bytes
        .chunks_exact(size)
        .take(len)
        .map(|c| {
            let mut w = [0u8; 8];
            w[..size].copy_from_slice(c);
            u64::from_le_bytes(w)
        })
        .collect();
    Buffer { elem, data }
}

/// A kernel argument held in the form the driver reads.
enum Held {
    Scalar(Value),
    /// A half scalar as its bits: the generated code declares it `unsigned short`.
    Half(u16),
    Buffer(CudaSlice<u8>, Buffer),
}

fn push_scalar<'a>(b: &mut cudarc::driver::LaunchArgs<'a>, v: &'a Value) {
    match v {
        Value::Bool(x) => b.arg(x),
        Value::I8(x) => b.arg(x),
        Value::U8(x) => b.arg(x),
        Value::I16(x) => b.arg(x),
        Value::U16(x) => b.arg(x),
        // Never reached: `launch` holds half scalars as `Held::Half`.
        Value::F16(_) => b,
        Value::I32(x) => b.arg(x),
        Value::U32(x) => b.arg(x),
        Value::I64(x) => b.arg(x),
        Value::U64(x) => b.arg(x),
        Value::F32(x) => b.arg(x),
        Value::F64(x) => b.arg(x),
    };
}

/// Compiles `kernel` (codegen + NVRTC for the device's architecture), copies the arguments
/// in, launches, and returns the arguments with buffers as the device left them. A kernel with
/// a grid barrier is launched cooperatively (`cuLaunchCooperativeKernel`), and refused when
/// the device cannot hold all its blocks at once.
///
/// The device context and each generated kernel's loaded function are kept for the process's
/// lifetime, so repeated launches (F4 launches once per pivot row) pay only for the copies and
/// the launch. A driver error drops both, so the next launch opens the device again; after a
/// fault CUDA documents as sticky (an illegal address) that fails too, with the driver's error.
pub fn launch(kernel: &Kernel, cfg: &LaunchConfig, args: Vec<Arg>) -> Result<Vec<Arg>, CudaError> {
    check_contract(kernel, cfg, &args)?;
    let ctx = context()?;
    let out = launch_on(&ctx, kernel, cfg, args);
    if matches!(out, Err(CudaError::Driver { .. })) {
        forget_device();
    }
    out
}

/// The device context, opened once. Dropping it releases the primary context, and opening
/// that again costs far more than a small launch.
static CONTEXT: Mutex<Option<Arc<CudaContext>>> = Mutex::new(None);

/// Functions loaded on [`CONTEXT`], by generated CUDA C source.
static FUNCTIONS: LazyLock<Mutex<HashMap<String, CudaFunction>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// Locks `m`; a panic elsewhere while it was held leaves nothing half-written here.
fn locked<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn context() -> Result<Arc<CudaContext>, CudaError> {
    let mut held = locked(&CONTEXT);
    if let Some(ctx) = held.as_ref() {
        // The calling thread may not be the one that opened it; some driver calls (the
        // occupancy query) use the thread's current context.
        ctx.bind_to_thread().map_err(driver("context bind"))?;
        return Ok(ctx.clone());
    }
    let ctx = open_device()?;
    *held = Some(ctx.clone());
    Ok(ctx)
}

/// Drops the cached context and functions (after a driver error, which can leave the context
/// unusable).
fn forget_device() {
    locked(&FUNCTIONS).clear();
    *locked(&CONTEXT) = None;
}

/// `kernel` compiled for the device (codegen + NVRTC) and loaded, once per generated source.
fn function(ctx: &Arc<CudaContext>, kernel: &Kernel) -> Result<CudaFunction, CudaError> {
    let source = generate(kernel)?;
    let mut loaded = locked(&FUNCTIONS);
    if let Some(f) = loaded.get(&source) {
        return Ok(f.clone());
    }
    let major = ctx
        .attribute(Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
        .map_err(driver("device query"))?;
    let minor = ctx
        .attribute(Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
        .map_err(driver("device query"))?;
    // No contraction of `a * b + c` into one FMA: the GPU then rounds every operation as the
    // interpreter does (an `fmaf` in the source is an FMA on both), so the two backends write
    // the same bits.
    let opts = CompileOptions {
        arch: format!("sm_{major}{minor}"),
        extra: vec!["--fmad=false".into()],
    };
    let compiled = nvrtc::compile(&source, &opts)?;
    let module = ctx
        .load_module(cudarc::nvrtc::Ptx::from_src(compiled.ptx))
        .map_err(driver("module load"))?;
    let func = module
        .load_function(&kernel.name)
        .map_err(driver("function lookup"))?;
    loaded.insert(source, func.clone());
    Ok(func)
}

fn launch_on(
    ctx: &Arc<CudaContext>,
    kernel: &Kernel,
    cfg: &LaunchConfig,
    args: Vec<Arg>,
) -> Result<Vec<Arg>, CudaError> {
    validate(kernel, cfg, &args, ctx)?;
    let func = function(ctx, kernel)?;
    let cooperative = crate::codegen::uses_grid_sync(kernel);
    if cooperative {
        check_cooperative(ctx, &func, cfg)?;
    }
    let stream: Arc<CudaStream> = ctx.default_stream();
    let mut held = Vec::with_capacity(args.len());
    for a in args {
        held.push(match a {
            Arg::Scalar(Value::F16(h)) => Held::Half(h.to_bits()),
            Arg::Scalar(v) => Held::Scalar(v),
            Arg::Buffer(b) => {
                let dev = stream
                    .clone_htod(&to_bytes(&b))
                    .map_err(driver("copy to device"))?;
                Held::Buffer(dev, b)
            }
        });
    }
    let launch_cfg = cudarc::driver::LaunchConfig {
        grid_dim: (cfg.grid[0], cfg.grid[1], cfg.grid[2]),
        block_dim: (cfg.block[0], cfg.block[1], cfg.block[2]),
        shared_mem_bytes: u32::try_from(cfg.dynamic_shared_bytes)
            .map_err(|_| CudaError::InvalidLaunch("dynamic shared memory too large".into()))?,
    };
    {
        let mut builder = stream.launch_builder(&func);
        for h in &held {
            match h {
                Held::Scalar(v) => push_scalar(&mut builder, v),
                Held::Half(bits) => {
                    builder.arg(bits);
                }
                Held::Buffer(dev, _) => {
                    builder.arg(dev);
                }
            }
        }
        // SAFETY: the argument list matches the generated kernel's signature one to one
        // (checked by `check_contract`), buffers are sized as the contract requires, and
        // every device allocation outlives the launch (`held` is dropped after the sync).
        if cooperative {
            // SAFETY: as above; every block is resident at once (checked by
            // `check_cooperative`), which the generated grid barrier needs.
            unsafe { builder.launch_cooperative(launch_cfg) }
                .map_err(driver("cooperative kernel launch"))?;
        } else {
            unsafe { builder.launch(launch_cfg) }.map_err(driver("kernel launch"))?;
        }
    }
    stream.synchronize().map_err(driver("kernel execution"))?;
    held.into_iter()
        .map(|h| match h {
            Held::Scalar(v) => Ok(Arg::Scalar(v)),
            Held::Half(bits) => Ok(Arg::Scalar(Value::F16(warpsafe_ir::F16::from_bits(bits)))),
            Held::Buffer(dev, b) => {
                let bytes = stream
                    .clone_dtoh(&dev)
                    .map_err(driver("copy from device"))?;
                Ok(Arg::Buffer(from_bytes(b.elem, &bytes, b.data.len())))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_round_trip_through_bytes() {
        let b = Buffer {
            elem: warpsafe_ir::ScalarType::F32,
            data: vec![1.5f32.to_bits() as u64, (-2.0f32).to_bits() as u64],
        };
        let bytes = to_bytes(&b);
        assert_eq!(bytes.len(), 8);
        assert_eq!(from_bytes(b.elem, &bytes, 2), b);
    }

    #[test]
    fn launch_without_a_driver_is_an_error_not_a_panic() {
        if device_available() {
            return;
        }
        let mut kb = warpsafe_ir::KernelBuilder::new("k");
        kb.buffer_param("x", warpsafe_ir::ScalarType::F32, true);
        let k = kb.finish();
        let cfg = LaunchConfig {
            grid: [1, 1, 1],
            block: [1, 1, 1],
            dynamic_shared_bytes: 0,
        };
        let args = vec![Arg::Buffer(Buffer {
            elem: warpsafe_ir::ScalarType::F32,
            data: vec![0],
        })];
        let err = launch(&k, &cfg, args).unwrap_err();
        assert!(err.to_string().contains("no CUDA device"), "{err}");
    }
}
