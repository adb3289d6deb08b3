//! The native CPU backend: a kernel body compiled as plain Rust (`#[kernel]` emits it as
//! `KERNEL::native`) and run once per thread, blocks in parallel with rayon.
//!
//! Only kernels without barriers, shared memory, warp collectives or atomics run here
//! ([`native_support`]): for such kernels every interleaving of the threads is a legal CUDA
//! schedule, so running each thread to completion, one after the other within a block, is one of
//! them. Writable buffers are [`GlobalMut`] handles whose accesses are relaxed atomic loads and
//! stores, so even a racy kernel cannot cause undefined behaviour on the host (it gets one of
//! the values a racing GPU could produce). There are no dynamic checks: an out-of-bounds index,
//! a division by zero or (in debug builds) an arithmetic overflow is a panic of the thread,
//! reported as [`LaunchError::Native`].

use crate::report::{Engine, LaunchError, Report};
use rayon::prelude::*;
use std::cell::Cell;
use std::marker::PhantomData;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{
    AtomicBool, AtomicI32, AtomicI64, AtomicU32, AtomicU64, Ordering::Relaxed,
};
use warpsafe_exec::LaunchConfig;
use warpsafe_ir::{Kernel, StmtKind};

/// The launch indices of the thread running on this host thread, read by the `warpsafe::dsl`
/// builtins.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ThreadCtx {
    pub(crate) thread: [u32; 3],
    pub(crate) block: [u32; 3],
    pub(crate) block_dim: [u32; 3],
    pub(crate) grid_dim: [u32; 3],
}

impl ThreadCtx {
    /// The linear index of the thread in its block.
    pub(crate) fn linear_thread(&self) -> u32 {
        let [x, y, z] = self.thread;
        let [bx, by, _] = self.block_dim;
        (z * by + y) * bx + x
    }
}

thread_local! {
    static CTX: Cell<Option<ThreadCtx>> = const { Cell::new(None) };
}

/// The context of the kernel thread running here, if any.
pub(crate) fn current() -> Option<ThreadCtx> {
    CTX.with(Cell::get)
}

/// Clears the context when a block is done (or panics).
struct CtxGuard;

impl Drop for CtxGuard {
    fn drop(&mut self) {
        CTX.with(|c| c.set(None));
    }
}

/// A writable global buffer as native kernel code sees it: shared by every thread, each access
/// a relaxed atomic load or store of one element.
pub struct GlobalMut<'a, T> {
    ptr: *const T,
    len: usize,
    _borrow: PhantomData<&'a mut [T]>,
}

impl<T> Clone for GlobalMut<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for GlobalMut<'_, T> {}

// SAFETY: the handle is built from an exclusive borrow for `'a`, and every access through it is
// an atomic operation on one element, which is defined under concurrency.
unsafe impl<T: NativeScalar> Send for GlobalMut<'_, T> {}
// SAFETY: as for `Send`.
unsafe impl<T: NativeScalar> Sync for GlobalMut<'_, T> {}

impl<'a, T: NativeScalar> GlobalMut<'a, T> {
    /// Shares `xs` among the threads of one launch.
    pub fn new(xs: &'a mut [T]) -> Self {
        GlobalMut {
            ptr: xs.as_mut_ptr(),
            len: xs.len(),
            _borrow: PhantomData,
        }
    }

    /// Element `i`.
    ///
    /// # Panics
    /// If `i` is out of bounds (the thread fails; the launch reports it).
    #[inline(always)]
    pub fn load(&self, i: usize) -> T {
        assert!(
            i < self.len,
            "index {i} out of bounds (length {})",
            self.len
        );
        // SAFETY: `i < len`, so the element lies in the borrowed slice.
        unsafe { T::load(self.ptr.add(i)) }
    }

    /// Writes element `i`.
    ///
    /// # Panics
    /// If `i` is out of bounds (the thread fails; the launch reports it).
    #[inline(always)]
    pub fn store(&self, i: usize, v: T) {
        assert!(
            i < self.len,
            "index {i} out of bounds (length {})",
            self.len
        );
        // SAFETY: `i < len`, so the element lies in the borrowed slice.
        unsafe { T::store(self.ptr.add(i), v) }
    }
}

/// A scalar that native kernels access atomically in writable buffers.
pub trait NativeScalar: crate::Scalar + Send + Sync {
    /// A relaxed atomic load.
    ///
    /// # Safety
    /// `p` must point to a live, aligned element that is only accessed atomically meanwhile.
    unsafe fn load(p: *const Self) -> Self;
    /// A relaxed atomic store.
    ///
    /// # Safety
    /// As for [`NativeScalar::load`].
    unsafe fn store(p: *const Self, v: Self);
}

macro_rules! native_scalar {
    ($($t:ty => $a:ty, $to:expr, $from:expr;)*) => {$(
        const _: () = assert!(
            std::mem::size_of::<$t>() == std::mem::size_of::<$a>()
                && std::mem::align_of::<$t>() == std::mem::align_of::<$a>()
        );
        impl NativeScalar for $t {
            #[inline(always)]
            unsafe fn load(p: *const Self) -> Self {
                // SAFETY: same size and alignment (checked above); the caller's contract.
                let v = unsafe { <$a>::from_ptr(p as *mut _) }.load(Relaxed);
                $from(v)
            }
            #[inline(always)]
            unsafe fn store(p: *const Self, v: Self) {
                // SAFETY: as for `load`.
                unsafe { <$a>::from_ptr(p as *mut _) }.store($to(v), Relaxed)
            }
        }
    )*};
}

native_scalar! {
    bool => AtomicBool, |v| v, |v| v;
    i32 => AtomicI32, |v| v, |v| v;
    u32 => AtomicU32, |v| v, |v| v;
    i64 => AtomicI64, |v| v, |v| v;
    u64 => AtomicU64, |v| v, |v| v;
    f32 => AtomicU32, f32::to_bits, f32::from_bits;
    f64 => AtomicU64, f64::to_bits, f64::from_bits;
}

/// `x.len()` in native kernel code: the length as `u64`, for slices, arrays and [`GlobalMut`].
#[doc(hidden)]
pub trait NativeLen {
    /// The number of elements.
    fn len_u64(&self) -> u64;
}

impl<T> NativeLen for [T] {
    fn len_u64(&self) -> u64 {
        self.len() as u64
    }
}

impl<T, const N: usize> NativeLen for [T; N] {
    fn len_u64(&self) -> u64 {
        N as u64
    }
}

impl<X: NativeLen + ?Sized> NativeLen for &X {
    fn len_u64(&self) -> u64 {
        (**self).len_u64()
    }
}

impl<X: NativeLen + ?Sized> NativeLen for &mut X {
    fn len_u64(&self) -> u64 {
        (**self).len_u64()
    }
}

impl<T> NativeLen for GlobalMut<'_, T> {
    fn len_u64(&self) -> u64 {
        self.len as u64
    }
}

/// A buffer native kernel code reads: `&[T]` or [`GlobalMut`] (what a `#[kernel_fn]`'s
/// read-only buffer parameters accept natively).
pub trait NativeBuf<T>: NativeLen + Copy + Sync {
    /// Element `i`.
    ///
    /// # Panics
    /// If `i` is out of bounds (the thread fails; the launch reports it).
    fn get(&self, i: usize) -> T;
}

impl<T: NativeScalar> NativeBuf<T> for &[T] {
    #[inline(always)]
    fn get(&self, i: usize) -> T {
        self[i]
    }
}

impl<T: NativeScalar> NativeBuf<T> for GlobalMut<'_, T> {
    #[inline(always)]
    fn get(&self, i: usize) -> T {
        self.load(i)
    }
}

/// Why a kernel cannot run natively: the first construct that needs threads of a block to run
/// together (or atomically), or `None` when it can.
pub fn native_support(kernel: &Kernel) -> Option<&'static str> {
    if !kernel.shared.is_empty() || kernel.contract.dynamic_shared_bytes.is_some() {
        return Some("it uses shared memory");
    }
    let mut why = None;
    for stmt in &kernel.body {
        stmt.walk(&mut |s| {
            let w = match &s.kind {
                StmtKind::SyncThreads => Some("it has a barrier (`sync_threads`)"),
                StmtKind::SyncGrid => Some("it has a grid barrier (`this_grid().sync()`)"),
                StmtKind::SyncWarp { .. } | StmtKind::Shuffle { .. } => {
                    Some("it uses warp collectives")
                }
                StmtKind::Atomic { .. } => Some("it uses atomics"),
                _ => None,
            };
            why = why.or(w);
        });
    }
    why
}

/// Runs `thread` once for every thread of the launch `cfg` of `kernel`, blocks in parallel,
/// the threads of a block one after the other; the context read by `thread_idx()` and the
/// other builtins is set for each. Kernels [`native_support`] refuses are not run here: the
/// caller falls back to the interpreter.
pub fn run(
    kernel: &Kernel,
    cfg: &LaunchConfig,
    thread: &(dyn Fn() + Sync),
) -> Result<Report, LaunchError> {
    cfg.validate()?;
    let [gx, gy, gz] = cfg.grid.map(u64::from);
    let [bx, by, bz] = cfg.block;
    let blocks = gx * gy * gz;
    let run_block = |b: u64| {
        let _guard = CtxGuard;
        let block = [
            (b % gx) as u32,
            (b / gx % gy) as u32,
            (b / (gx * gy)) as u32,
        ];
        for z in 0..bz {
            for y in 0..by {
                for x in 0..bx {
                    let ctx = ThreadCtx {
                        thread: [x, y, z],
                        block,
                        block_dim: cfg.block,
                        grid_dim: cfg.grid,
                    };
                    CTX.with(|c| c.set(Some(ctx)));
                    thread();
                }
            }
        }
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        if blocks == 1 {
            run_block(0);
        } else {
            (0..blocks).into_par_iter().for_each(run_block);
        }
    }));
    if let Err(payload) = outcome {
        let msg = payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a thread panicked".into());
        return Err(LaunchError::Native(format!("{}: {msg}", kernel.name)));
    }
    Ok(Report {
        kernel: kernel.name.clone(),
        engine: Engine::Native,
        reason: None,
        findings: vec![],
        stats: None,
    })
}
