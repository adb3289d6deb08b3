//! The kernel language: the functions a `#[kernel]` body may call.
//!
//! `#[kernel]` records calls of these as IR. They also exist so that rustc type-checks kernel
//! bodies with Rust's own rules (the macro compiles every body a second time against these
//! signatures), so that IDEs see real items, and for the native backend
//! ([`Backend::native`](crate::Backend::native)), which runs the plain-Rust copy of a kernel:
//! there the launch builtins read the running thread's indices. Functions with a meaning for
//! one host thread (`atomic_*`, math, `warp_size`) behave that way when a `#[kernel_fn]` is
//! called on the host; the others panic outside a kernel.
//!
//! # Permission annotations
//!
//! A kernel can carry fractional-permission annotations (the formula language of the CUDA-C
//! `//@` annotations in `docs/permissions.md`: `Perm(a[tid], 1)`, `Perm(a[0..n], read)`,
//! `c ==> F`, `forall i in lo..hi: F`, facts; `tid` is `thread_idx().x`, locals are named by
//! their Rust names) as `#[perm(key = "formula", …)]` attributes:
//! `kernel_requires`, `kernel_ensures`, `thread_requires` and `thread_ensures` on the function,
//! after `#[kernel]`; `barrier_requires` and `barrier_ensures` on a `sync_threads();`
//! statement; `invariant` on a `for`, `while` or `loop` statement. They do not change the IR
//! or the generated code; the kernel's module lists them in `permissions()` as
//! `(keywords, formula, byte offset in source_file())`, which
//! `warpsafe_perm::check_attributes(k::ir(), &text_of_source_file, k::permissions())` checks.
//!
//! ```
//! use warpsafe::prelude::*;
//!
//! #[kernel]
//! #[perm(kernel_requires = "Perm(a[0..blockDim.x], 1)")]
//! #[perm(thread_requires = "Perm(a[tid], 1)", thread_ensures = "Perm(a[tid], 1)")]
//! fn bump(a: &mut [i32]) {
//!     let tid = thread_idx().x;
//!     let mut i = 0;
//!     #[perm(invariant = "Perm(a[tid], 1)")]
//!     while i < 4 {
//!         #[perm(barrier_ensures = "Perm(a[tid], 1)")]
//!         sync_threads();
//!         a[tid] += 1;
//!         i += 1;
//!     }
//! }
//!
//! let kinds: Vec<&str> = bump::permissions().iter().map(|p| p.0).collect();
//! assert_eq!(
//!     kinds,
//!     ["kernel requires", "thread requires", "thread ensures", "invariant", "barrier ensures"]
//! );
//! assert_eq!(bump::permissions()[3].1, "Perm(a[tid], 1)");
//! ```

use crate::scalar::{Float, Int, Number, Scalar};

/// A 3-D launch index (`thread_idx()`, `block_idx()`, `block_dim()`, `grid_dim()`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Idx3 {
    /// `.x`
    pub x: u32,
    /// `.y`
    pub y: u32,
    /// `.z`
    pub z: u32,
}

fn outside<T>(what: &str) -> T {
    panic!("`{what}` has a meaning only inside a #[kernel] (kernels are recorded, not called)")
}

fn idx3([x, y, z]: [u32; 3]) -> Idx3 {
    Idx3 { x, y, z }
}

fn native_ctx(what: &str) -> crate::native::ThreadCtx {
    crate::native::current().unwrap_or_else(|| outside(what))
}

/// `threadIdx`: this thread's index in its block.
#[inline]
pub fn thread_idx() -> Idx3 {
    idx3(native_ctx("thread_idx").thread)
}

/// `blockIdx`: this block's index in the grid.
#[inline]
pub fn block_idx() -> Idx3 {
    idx3(native_ctx("block_idx").block)
}

/// `blockDim`: threads per block.
#[inline]
pub fn block_dim() -> Idx3 {
    idx3(native_ctx("block_dim").block_dim)
}

/// `gridDim`: blocks per grid.
#[inline]
pub fn grid_dim() -> Idx3 {
    idx3(native_ctx("grid_dim").grid_dim)
}

/// `warpSize` (32).
pub fn warp_size() -> u32 {
    32
}

/// This thread's lane in its warp (linear thread index mod 32).
pub fn lane_id() -> u32 {
    native_ctx("lane_id").linear_thread() % 32
}

/// `__syncthreads()`: block-wide barrier, reached by all threads of the block or by none.
pub fn sync_threads() {
    outside("sync_threads")
}

/// `__syncwarp(mask)`: barrier among the lanes in `mask`.
pub fn sync_warp(mask: u32) {
    let _ = mask;
    outside("sync_warp")
}

/// `__shfl_sync(mask, value, lane)`: `value` as offered by lane `lane`.
pub fn shfl_sync<T: Number, L: Int>(mask: u32, value: T, lane: L) -> T {
    let _ = (mask, value, lane);
    outside("shfl_sync")
}

/// `__shfl_up_sync(mask, value, delta)`: `value` of lane `lane_id() - delta`.
pub fn shfl_up_sync<T: Number, L: Int>(mask: u32, value: T, delta: L) -> T {
    let _ = (mask, value, delta);
    outside("shfl_up_sync")
}

/// `__shfl_down_sync(mask, value, delta)`: `value` of lane `lane_id() + delta`.
pub fn shfl_down_sync<T: Number, L: Int>(mask: u32, value: T, delta: L) -> T {
    let _ = (mask, value, delta);
    outside("shfl_down_sync")
}

/// `__shfl_xor_sync(mask, value, lane_mask)`: `value` of lane `lane_id() ^ lane_mask`.
pub fn shfl_xor_sync<T: Number, L: Int>(mask: u32, value: T, lane_mask: L) -> T {
    let _ = (mask, value, lane_mask);
    outside("shfl_xor_sync")
}

fn rmw<T: Copy>(place: &mut T, new: T) -> T {
    std::mem::replace(place, new)
}

/// `atomicAdd`: adds `v` to `*place`, returns the old value.
pub fn atomic_add<T: Number + std::ops::Add<Output = T>>(place: &mut T, v: T) -> T {
    let new = *place + v;
    rmw(place, new)
}

/// `atomicSub`: subtracts `v` from `*place`, returns the old value.
pub fn atomic_sub<T: Int + std::ops::Sub<Output = T>>(place: &mut T, v: T) -> T {
    let new = *place - v;
    rmw(place, new)
}

/// `atomicMin`: stores the minimum, returns the old value.
pub fn atomic_min<T: Int>(place: &mut T, v: T) -> T {
    let new = if v < *place { v } else { *place };
    rmw(place, new)
}

/// `atomicMax`: stores the maximum, returns the old value.
pub fn atomic_max<T: Int>(place: &mut T, v: T) -> T {
    let new = if v > *place { v } else { *place };
    rmw(place, new)
}

/// `atomicExch`: stores `v`, returns the old value.
pub fn atomic_exch<T: Number>(place: &mut T, v: T) -> T {
    rmw(place, v)
}

/// `atomicCAS`: stores `v` if `*place == compare`, returns the old value.
pub fn atomic_cas<T: Int>(place: &mut T, compare: T, v: T) -> T {
    let new = if *place == compare { v } else { *place };
    rmw(place, new)
}

/// `atomicAnd`: stores `*place & v`, returns the old value.
pub fn atomic_and<T: Int + std::ops::BitAnd<Output = T>>(place: &mut T, v: T) -> T {
    let new = *place & v;
    rmw(place, new)
}

/// `atomicOr`: stores `*place | v`, returns the old value.
pub fn atomic_or<T: Int + std::ops::BitOr<Output = T>>(place: &mut T, v: T) -> T {
    let new = *place | v;
    rmw(place, new)
}

/// `atomicXor`: stores `*place ^ v`, returns the old value.
pub fn atomic_xor<T: Int + std::ops::BitXor<Output = T>>(place: &mut T, v: T) -> T {
    let new = *place ^ v;
    rmw(place, new)
}

/// `atomicInc`: stores `(old >= v) ? 0 : old + 1` (a counter wrapping after `v`), returns the
/// old value.
pub fn atomic_inc(place: &mut u32, v: u32) -> u32 {
    let old = *place;
    rmw(place, if old >= v { 0 } else { old + 1 })
}

/// `atomicDec`: stores `(old == 0 || old > v) ? v : old - 1`, returns the old value.
pub fn atomic_dec(place: &mut u32, v: u32) -> u32 {
    let old = *place;
    rmw(place, if old == 0 || old > v { v } else { old - 1 })
}

/// A `__shared__` array of `N` elements (`let tile = shared::<f32, 256>();`).
pub fn shared<T: Scalar, const N: usize>() -> &'static mut [T; N] {
    outside("shared")
}

/// A 2-D `__shared__` array, `R` rows of `C` (`shared2::<f32, 32, 33>()`, indexed `t[r][c]`).
pub fn shared2<T: Scalar, const R: usize, const C: usize>() -> &'static mut [[T; C]; R] {
    outside("shared2")
}

/// The `extern __shared__` array, sized by the launch's dynamic shared memory.
pub fn dyn_shared<T: Scalar>() -> &'static mut [T] {
    outside("dyn_shared")
}

/// A precondition the analyses may assume (`__requires`).
pub fn requires(cond: bool) {
    let _ = cond;
}

/// A property every engine checks (`__assert`); a violation is a finding.
pub fn assert_kernel(cond: bool) {
    assert!(cond, "assert_kernel failed");
}

/// `min(a, b)`.
pub fn min<T: Number>(a: T, b: T) -> T {
    if b < a {
        b
    } else {
        a
    }
}

/// `max(a, b)`.
pub fn max<T: Number>(a: T, b: T) -> T {
    if b > a {
        b
    } else {
        a
    }
}

/// `|x|`.
pub fn abs<T: Number + std::ops::Neg<Output = T>>(x: T) -> T {
    if x < T::default() {
        -x
    } else {
        x
    }
}

macro_rules! float_fn {
    ($($(#[$doc:meta])* $name:ident($($a:ident),*) => $f:expr;)*) => {$(
        $(#[$doc])*
        pub fn $name<T: Float + HostFloat>($($a: T),*) -> T {
            T::from_f64($f($($a.to_f64()),*))
        }
    )*};
}

/// Float conversions for the host versions of the math functions.
#[doc(hidden)]
pub trait HostFloat {
    /// As `f64`.
    fn to_f64(self) -> f64;
    /// From `f64`.
    fn from_f64(v: f64) -> Self;
}

impl HostFloat for f32 {
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn from_f64(v: f64) -> Self {
        v as f32
    }
}

impl HostFloat for f64 {
    fn to_f64(self) -> f64 {
        self
    }
    fn from_f64(v: f64) -> Self {
        v
    }
}

float_fn! {
    /// Square root.
    sqrt(x) => f64::sqrt;
    /// `1 / sqrt(x)`.
    rsqrt(x) => |x: f64| 1.0 / x.sqrt();
    /// `e^x`.
    exp(x) => f64::exp;
    /// `e^x`, fast approximation on the GPU (`__expf`).
    fast_exp(x) => f64::exp;
    /// `2^x`.
    exp2(x) => f64::exp2;
    /// Natural logarithm.
    ln(x) => f64::ln;
    /// Base-2 logarithm.
    log2(x) => f64::log2;
    /// Base-10 logarithm.
    log10(x) => f64::log10;
    /// Sine.
    sin(x) => f64::sin;
    /// Cosine.
    cos(x) => f64::cos;
    /// Tangent.
    tan(x) => f64::tan;
    /// Hyperbolic tangent.
    tanh(x) => f64::tanh;
    /// Round down.
    floor(x) => f64::floor;
    /// Round up.
    ceil(x) => f64::ceil;
    /// Round half away from zero.
    round(x) => f64::round;
    /// Round toward zero.
    trunc(x) => f64::trunc;
    /// `x^y`.
    powf(x, y) => f64::powf;
    /// Fused `a * b + c`.
    fma(a, b, c) => f64::mul_add;
}

/// Converts an index of any integer type (rewritten from `a[i]` for rustc's check).
#[doc(hidden)]
pub fn __ix<I: Int>(i: I) -> usize {
    i.to_i128() as usize
}

/// `x.len()` as `u64`, as the IR has it.
#[doc(hidden)]
pub fn __len<T>(x: &[T]) -> u64 {
    x.len() as u64
}

/// `(start..end).step_by(step)` over a kernel integer type.
#[doc(hidden)]
pub fn __step<I: Int, S: TryInto<i128>>(r: std::ops::Range<I>, step: S) -> StepRange<I> {
    StepRange {
        next: r.start.to_i128(),
        end: r.end.to_i128(),
        step: step.try_into().unwrap_or(1).max(1),
        _t: std::marker::PhantomData,
    }
}

/// The iterator behind `(a..b).step_by(s)` in kernel code.
#[doc(hidden)]
pub struct StepRange<I> {
    next: i128,
    end: i128,
    step: i128,
    _t: std::marker::PhantomData<I>,
}

impl<I: Int> Iterator for StepRange<I> {
    type Item = I;
    fn next(&mut self) -> Option<I> {
        (self.next < self.end).then(|| {
            let v = self.next;
            self.next += self.step;
            I::from_i128(v)
        })
    }
}
