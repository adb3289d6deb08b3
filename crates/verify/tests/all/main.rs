//! The integration tests of `verify`, one module per subject, in one test binary (one
//! link instead of one per file).

mod common;

mod budget_share;
mod examples;
mod grid_sync;
mod inferred_lengths;
mod narrow_types;
mod pinned_params;
mod soundness;
mod uniformity;
mod votes;
