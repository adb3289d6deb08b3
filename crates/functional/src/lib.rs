//! Functional correctness for every size: a kernel in which each output element is written by
//! one thread is proved to meet its spec for **every** launch configuration (with the kernel's
//! dimensionality) and every value of its parameters that the contract allows —
//! `∀ config, ∀ inputs, ∀ i in the spec's domain: out[i] = spec(i)` — or the answer is
//! `unknown` with the reason, and callers fall back to a bounded proof.
//!
//! The proof is a set of SMT obligations over one arbitrary thread executed symbolically
//! ([`exec`](crate)): integers exact, floats as reals, buffer contents uninterpreted.
//!
//! - **Safety** (by the parametric verifier, same configurations): no data race, every access
//!   in bounds, no overflow. In a barrier-free kernel race freedom means no thread reads or
//!   writes an element another thread writes.
//! - **Ownership**: no thread writes one element twice (two store events, or two iterations of
//!   one, never share an address) — with race freedom, each element has at most one writer.
//! - **Reads see inputs**: no read of a thread follows its own write to the same element, so
//!   every read returns the buffer's initial contents (by induction over the execution: the
//!   first read that did not would be found).
//! - **Coverage**: every element of the spec's domain is written, by a witness thread and
//!   iteration read off the address ([`coverage`](crate)).
//! - **Value**: the stored value equals the spec at the element the address decomposes to
//!   (row-major by the spec's `shape`); elements outside the domain keep their value.
//! - **Accumulations**: a loop `s = s ⊕ e(t)` paired with the spec's `sum`/`prod` over
//!   `k ∈ [lo, hi)` is proved by the inductive invariant `s_t = s_0 ⊕ spec_{k<lo+t}` from two
//!   obligations: the trip count is `hi − lo`, and the step `e(t) = body(lo + t)` holds in
//!   every iteration. Nothing generated is assumed; every obligation is checked by z3.
//! - **Online softmax** ([`online`](crate)): a running maximum `m` and variables rescaled by
//!   `exp(m_old − m_new)` are accumulations of `x·exp(m)`; `exp` is the real exponential
//!   (`E(a+b) = E(a)·E(b)`, `E > 0`, [`expo`](crate)), and a spec's `exp(s − max)` sums lose
//!   their shift the same way ([`cancel`](crate)). `-INFINITY` may only start such a maximum.
//!
//! Assumptions are reported: the launch has the kernel's dimensionality, each dimension's global
//! index fits in `int`, and the contract's `requires` (where the covering condition, such as
//! `n <= blockDim.x * gridDim.x`, is stated).

mod cancel;
mod congruence;
mod coverage;
mod encode;
mod exec;
mod expo;
mod launch;
mod online;
mod poly;
mod prove;
mod solve;
mod specenc;
mod staged;
mod term;
mod writers;

pub use prove::{prove_all_sizes, Obligation, Options, Outcome};
