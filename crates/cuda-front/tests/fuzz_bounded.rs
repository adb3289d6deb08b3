//! Bounded fuzzing of the CUDA-C frontend: a fixed number of deterministic mutations of the seed corpus
//! (`fuzz/src/cuda.rs` names it), none of which may panic, overflow the stack or hang.
//! `WARPSAFE_FUZZ_EXECS` and `WARPSAFE_FUZZ_SEED` change the run; see `fuzz/README.md`.

#[path = "../../../fuzz/bounded/driver.rs"]
mod driver;
#[path = "../../../fuzz/src/cuda.rs"]
mod entry;

#[test]
fn bounded_fuzz() {
    driver::run(&driver::Target {
        name: "cuda",
        seeds: entry::SEEDS,
        extensions: entry::EXTENSIONS,
        dictionary: entry::DICTIONARY,
        execs: 3000,
        entry: entry::run,
    });
}
