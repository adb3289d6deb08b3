//! Differential tests of the example kernels (`examples/kernels`).
//!
//! Every correct kernel is compiled by the CUDA-C frontend, launched in the interpreter with the
//! launch, default arguments and buffer lengths of its header on seeded random inputs, and must
//! finish without an error finding and leave every writable buffer equal to what its plain-Rust
//! reference (`tests/reference/`) computes. Every buggy twin (`<base>_bug_<what>.cu`) must be
//! reported with each category its `//@ expect` lines name.

use crate::reference;

use reference::{gauss, matrix, reduce, scan, vector, Data, Env, Reference};
use std::collections::BTreeMap;
use std::path::PathBuf;
use warpsafe_exec::{eval_contract_expr, Arg, Buffer, LaunchConfig, Options, Outcome};
use warpsafe_ir::{Category, Kernel, ParamId, ParamKind, ScalarType, Value};

/// Seeds every correct kernel is run with.
const SEEDS: [u64; 3] = [0x9E37_79B9_7F4A_7C15, 0x2545_F491_4F6C_DD1D, 12345];

/// Seed the twins are run with.
const TWIN_SEED: u64 = 7;

fn kernels_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/kernels")
}

/// Compiles `file` and returns its one `__global__` kernel.
fn load(file: &str) -> Kernel {
    let path = kernels_dir().join(file);
    let source = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let module = match warpsafe_cuda_front::compile(&source) {
        Ok(m) => m,
        Err(errors) => panic!("{file} does not compile:\n{errors:#?}"),
    };
    assert_eq!(
        module.kernels.len(),
        1,
        "{file} should define exactly one __global__ kernel"
    );
    module.kernels.into_iter().next().unwrap()
}

/// A small xorshift64* generator: deterministic inputs without a dependency.
struct XorShift(u64);

impl XorShift {
    fn new(seed: u64) -> Self {
        XorShift(seed | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in [-1, 1].
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }

    /// Uniform in [lo, hi).
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo)
    }
}

/// The range integer inputs are drawn from: residues mod p for the F_p kernels, small
/// non-negative values (no overflow in sums) everywhere else.
fn int_range(kernel: &Kernel) -> (u64, u64) {
    if kernel.name.starts_with("gauss") {
        (0, gauss::P)
    } else {
        (0, 100)
    }
}

/// A launch ready to run: the interpreter's arguments and the reference's view of the same.
struct Prepared {
    kernel: Kernel,
    cfg: LaunchConfig,
    args: Vec<Arg>,
    env: Env,
}

fn to_u64(v: Value, what: &str) -> u64 {
    match v.as_i128() {
        Some(i) if i >= 0 && i <= u64::MAX as i128 => i as u64,
        _ => panic!("{what} evaluated to {v}, not a length"),
    }
}

/// Random contents for a buffer of `len` elements of type `elem`: the interpreter's bit
/// patterns and the reference's typed copy.
fn random_buffer(
    rng: &mut XorShift,
    elem: ScalarType,
    len: usize,
    ints: (u64, u64),
) -> (Vec<u64>, Data) {
    let ints =
        |rng: &mut XorShift| -> Vec<u64> { (0..len).map(|_| rng.range(ints.0, ints.1)).collect() };
    match elem {
        ScalarType::F32 => {
            let v: Vec<f32> = (0..len).map(|_| rng.unit() as f32).collect();
            (v.iter().map(|x| x.to_bits() as u64).collect(), Data::F32(v))
        }
        ScalarType::F64 => {
            let v: Vec<f64> = (0..len).map(|_| rng.unit()).collect();
            (v.iter().map(|x| x.to_bits()).collect(), Data::F64(v))
        }
        ScalarType::I32 => {
            let bits = ints(rng);
            let v = bits.iter().map(|&b| b as i32).collect();
            (bits, Data::I32(v))
        }
        ScalarType::U32 => {
            let bits = ints(rng);
            let v = bits.iter().map(|&b| b as u32).collect();
            (bits, Data::U32(v))
        }
        ScalarType::I64 => {
            let bits = ints(rng);
            let v = bits.iter().map(|&b| b as i64).collect();
            (bits, Data::I64(v))
        }
        ScalarType::U64 => {
            let bits = ints(rng);
            (bits.clone(), Data::U64(bits))
        }
        other => panic!("{other} buffers are not used by the examples"),
    }
}

/// The typed contents of an interpreter buffer.
fn data_of(buffer: &Buffer) -> Data {
    let bits = &buffer.data;
    match buffer.elem {
        ScalarType::F32 => Data::F32(bits.iter().map(|&b| f32::from_bits(b as u32)).collect()),
        ScalarType::F64 => Data::F64(bits.iter().map(|&b| f64::from_bits(b)).collect()),
        ScalarType::I32 => Data::I32(bits.iter().map(|&b| b as u32 as i32).collect()),
        ScalarType::U32 => Data::U32(bits.iter().map(|&b| b as u32).collect()),
        ScalarType::I64 => Data::I64(bits.iter().map(|&b| b as i64).collect()),
        ScalarType::U64 => Data::U64(bits.clone()),
        other => panic!("{other} buffers are not used by the examples"),
    }
}

/// Builds the launch of `file` from its header: dims, default scalars, buffer lengths,
/// dynamic shared memory, and random buffer contents from `seed`. Checks the `requires`.
fn prepare(file: &str, seed: u64) -> Prepared {
    let kernel = load(file);
    let c = &kernel.contract;
    let block = c
        .block_dim
        .unwrap_or_else(|| panic!("{file}: header gives no blockDim"));
    let grid = c
        .grid_dim
        .unwrap_or_else(|| panic!("{file}: header gives no gridDim"));
    let mut cfg = LaunchConfig {
        grid,
        block,
        dynamic_shared_bytes: 0,
    };

    let defaults: BTreeMap<ParamId, Value> = c.defaults.iter().copied().collect();
    for (i, p) in kernel.params.iter().enumerate() {
        if let ParamKind::Scalar(ty) = p.kind {
            let v = defaults
                .get(&ParamId(i as u32))
                .unwrap_or_else(|| panic!("{file}: no `//@ arg {} = …` default", p.name));
            assert_eq!(
                v.ty(),
                ty,
                "{file}: default of `{}` has the wrong type",
                p.name
            );
        }
    }
    let scalars = |p: ParamId| defaults.get(&p).copied();

    // Buffer lengths, resolved in header order (a length may mention an earlier len(…)).
    let mut lens: BTreeMap<ParamId, u64> = BTreeMap::new();
    for spec in &c.lengths {
        let known = lens.clone();
        let buffer_len = move |p: ParamId| known.get(&p).copied();
        let v = eval_contract_expr(&kernel, &spec.len, &scalars, &buffer_len, &cfg).unwrap_or_else(
            |e| {
                panic!(
                    "{file}: len({}) does not evaluate: {e:?}",
                    kernel.param(spec.param).name
                )
            },
        );
        lens.insert(spec.param, to_u64(v, "a len(…) line"));
    }
    let buffer_len = |p: ParamId| lens.get(&p).copied();
    if let Some(e) = &c.dynamic_shared_bytes {
        let v = eval_contract_expr(&kernel, e, &scalars, &buffer_len, &cfg)
            .unwrap_or_else(|e| panic!("{file}: shared_bytes does not evaluate: {e:?}"));
        cfg.dynamic_shared_bytes = to_u64(v, "shared_bytes");
    }
    for (k, r) in c.requires.iter().enumerate() {
        let v = eval_contract_expr(&kernel, r, &scalars, &buffer_len, &cfg)
            .unwrap_or_else(|e| panic!("{file}: requires #{k} does not evaluate: {e:?}"));
        assert_eq!(
            v,
            Value::Bool(true),
            "{file}: requires #{k} fails for the defaults"
        );
    }

    let mut rng = XorShift::new(seed);
    let ints = int_range(&kernel);
    let mut args = Vec::new();
    let mut env = Env {
        block,
        grid,
        scalars: BTreeMap::new(),
        buffers: BTreeMap::new(),
    };
    for (i, p) in kernel.params.iter().enumerate() {
        let id = ParamId(i as u32);
        match p.kind {
            ParamKind::Scalar(_) => {
                let v = defaults[&id];
                env.scalars.insert(p.name.clone(), v.as_f64());
                args.push(Arg::Scalar(v));
            }
            ParamKind::Buffer { elem, .. } => {
                let len = *lens
                    .get(&id)
                    .unwrap_or_else(|| panic!("{file}: no `//@ len({}) = …` line", p.name));
                let (bits, data) = random_buffer(&mut rng, elem, len as usize, ints);
                env.buffers.insert(p.name.clone(), data);
                args.push(Arg::Buffer(Buffer { elem, data: bits }));
            }
        }
    }
    Prepared {
        kernel,
        cfg,
        args,
        env,
    }
}

fn run(p: &Prepared, options: &Options) -> Outcome {
    warpsafe_exec::run(&p.kernel, &p.cfg, p.args.clone(), options)
        .unwrap_or_else(|e| panic!("{}: the interpreter failed: {e:?}", p.kernel.name))
}

fn describe(outcome: &Outcome) -> String {
    outcome
        .findings
        .iter()
        .map(|f| format!("  {:?} {}: {}\n", f.severity, f.category, f.message))
        .collect()
}

/// Float tolerance: the kernels sum in a different order (and in `f32`) than the references.
fn close(got: f64, want: f64) -> bool {
    (got - want).abs() <= 2e-4 * want.abs().max(1.0) || (got.is_nan() && want.is_nan())
}

/// Compares one buffer; returns a description of the first mismatches.
fn compare(name: &str, got: &Data, want: &Data) -> Option<String> {
    if got.len() != want.len() {
        return Some(format!(
            "`{name}` has {} elements, expected {}",
            got.len(),
            want.len()
        ));
    }
    fn diffs<T: Copy + std::fmt::Debug>(
        got: &[T],
        want: &[T],
        same: impl Fn(T, T) -> bool,
    ) -> Vec<String> {
        got.iter()
            .zip(want)
            .enumerate()
            .filter(|(_, (&g, &w))| !same(g, w))
            .map(|(i, (g, w))| format!("[{i}] = {g:?}, expected {w:?}"))
            .collect()
    }
    let bad = match (got, want) {
        (Data::F32(g), Data::F32(w)) => diffs(g, w, |a, b| close(a as f64, b as f64)),
        (Data::F64(g), Data::F64(w)) => diffs(g, w, close),
        (Data::I32(g), Data::I32(w)) => diffs(g, w, |a, b| a == b),
        (Data::U32(g), Data::U32(w)) => diffs(g, w, |a, b| a == b),
        (Data::I64(g), Data::I64(w)) => diffs(g, w, |a, b| a == b),
        (Data::U64(g), Data::U64(w)) => diffs(g, w, |a, b| a == b),
        _ => return Some(format!("`{name}` has the wrong element type")),
    };
    if bad.is_empty() {
        return None;
    }
    let shown: Vec<_> = bad.iter().take(8).cloned().collect();
    Some(format!(
        "`{name}`: {} of {} elements differ: {}",
        bad.len(),
        got.len(),
        shown.join("; ")
    ))
}

/// Checks every writable buffer of `outcome` against the reference's result.
fn compare_outputs(file: &str, seed: u64, p: &Prepared, outcome: &Outcome, reference: Reference) {
    let mut env = p.env.clone();
    reference(&mut env);
    let mut problems = Vec::new();
    for (i, param) in p.kernel.params.iter().enumerate() {
        if let ParamKind::Buffer { writable: true, .. } = param.kind {
            let Some(Arg::Buffer(b)) = outcome.args.get(i) else {
                panic!("{file}: the outcome has no buffer for `{}`", param.name);
            };
            if let Some(msg) = compare(&param.name, &data_of(b), &env.buffers[&param.name]) {
                problems.push(msg);
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{file} (seed {seed:#x}) differs from its reference:\n{}",
        problems.join("\n")
    );
}

/// Runs a correct kernel on every seed: no error finding, outputs equal to the reference.
fn check_against_reference(file: &str, reference: Reference) {
    for seed in SEEDS {
        let p = prepare(file, seed);
        assert!(
            p.kernel.contract.expect.is_empty(),
            "{file} is a correct kernel but has `//@ expect`"
        );
        let outcome = run(&p, &Options::default());
        assert!(
            !outcome
                .findings
                .iter()
                .any(|f| f.severity == warpsafe_exec::Severity::Error),
            "{file} (seed {seed:#x}) has error findings:\n{}",
            describe(&outcome)
        );
        compare_outputs(file, seed, &p, &outcome, reference);
    }
}

/// Runs a buggy twin: every category it expects must be reported as an error.
fn check_twin(file: &str) {
    let p = prepare(file, TWIN_SEED);
    let expect = p.kernel.contract.expect.clone();
    assert!(!expect.is_empty(), "{file} is a twin without `//@ expect`");
    let outcome = run(&p, &Options::default());
    let missing: Vec<Category> = expect
        .iter()
        .copied()
        .filter(|&c| {
            !outcome
                .findings
                .iter()
                .any(|f| f.category == c && f.severity == warpsafe_exec::Severity::Error)
        })
        .collect();
    assert!(
        missing.is_empty(),
        "{file}: expected {missing:?} as error findings; got:\n{}",
        describe(&outcome)
    );
}

macro_rules! differential {
    ($($test:ident => $file:literal, $reference:path;)*) => {
        $(
            #[test]
            fn $test() {
                check_against_reference($file, $reference);
            }
        )*
        /// The correct kernels covered by a differential test.
        const REFERENCE_FILES: &[&str] = &[$($file),*];
    };
}

macro_rules! twins {
    ($($test:ident => $file:literal;)*) => {
        $(
            #[test]
            fn $test() {
                check_twin($file);
            }
        )*
        /// The buggy twins covered by a test.
        const TWIN_FILES: &[&str] = &[$($file),*];
    };
}

differential! {
    vector_add => "vector_add.cu", vector::vector_add;
    vector_square => "vector_square.cu", vector::vector_square;
    saxpy => "saxpy.cu", vector::saxpy;
    scalar_mul => "scalar_mul.cu", vector::scalar_mul;
    template_scale => "template_scale.cu", vector::template_scale;
    matrix_transpose => "matrix_transpose.cu", matrix::matrix_transpose;
    matrix_transpose_tiled => "matrix_transpose_tiled.cu", matrix::matrix_transpose;
    matrix_mul => "matrix_mul.cu", matrix::matrix_mul;
    matrix_mul_tiled => "matrix_mul_tiled.cu", matrix::matrix_mul;
    exclusive_scan => "exclusive_scan.cu", scan::exclusive_scan;
    kogge_stone_scan => "kogge_stone_scan.cu", scan::kogge_stone_scan;
    blelloch_scan => "blelloch_scan.cu", scan::blelloch_scan;
    dot_product => "dot_product.cu", reduce::dot_product;
    gauss_elim => "gauss_elim.cu", gauss::gauss_elim;
    reduce_interleaved => "reduce_interleaved.cu", reduce::block_sums;
    reduce_interleaved_strided => "reduce_interleaved_strided.cu", reduce::block_sums;
    reduce_sequential => "reduce_sequential.cu", reduce::block_sums;
    reduce_first_add => "reduce_first_add.cu", reduce::double_block_sums;
    reduce_warp_shuffle => "reduce_warp_shuffle.cu", reduce::double_block_sums;
    reduce_warp_unrolled => "reduce_warp_unrolled.cu", reduce::double_block_sums;
}

twins! {
    twin_vector_add_bug_oob => "vector_add_bug_oob.cu";
    twin_vector_square_bug_noguard => "vector_square_bug_noguard.cu";
    twin_saxpy_bug_stride => "saxpy_bug_stride.cu";
    twin_scalar_mul_bug_overlap => "scalar_mul_bug_overlap.cu";
    twin_template_scale_bug_race => "template_scale_bug_race.cu";
    twin_matrix_transpose_bug_stride => "matrix_transpose_bug_stride.cu";
    twin_matrix_transpose_tiled_bug_uninit => "matrix_transpose_tiled_bug_uninit.cu";
    twin_matrix_transpose_tiled_bug_nosync => "matrix_transpose_tiled_bug_nosync.cu";
    twin_matrix_mul_bug_oob => "matrix_mul_bug_oob.cu";
    twin_matrix_mul_tiled_bug_nosync => "matrix_mul_tiled_bug_nosync.cu";
    twin_matrix_mul_tiled_bug_divergent => "matrix_mul_tiled_bug_divergent.cu";
    twin_exclusive_scan_bug_offset => "exclusive_scan_bug_offset.cu";
    twin_kogge_stone_scan_bug_race => "kogge_stone_scan_bug_race.cu";
    twin_blelloch_scan_bug_nosync => "blelloch_scan_bug_nosync.cu";
    twin_blelloch_scan_bug_divergent => "blelloch_scan_bug_divergent.cu";
    twin_dot_product_bug_divergent => "dot_product_bug_divergent.cu";
    twin_gauss_elim_bug_overflow => "gauss_elim_bug_overflow.cu";
    twin_gauss_elim_bug_pivot_race => "gauss_elim_bug_pivot_race.cu";
    twin_reduce_interleaved_bug_nosync => "reduce_interleaved_bug_nosync.cu";
    twin_reduce_interleaved_strided_bug_oob => "reduce_interleaved_strided_bug_oob.cu";
    twin_reduce_sequential_bug_early_return => "reduce_sequential_bug_early_return.cu";
    twin_reduce_first_add_bug_oob => "reduce_first_add_bug_oob.cu";
    twin_reduce_warp_shuffle_bug_tailsync => "reduce_warp_shuffle_bug_tailsync.cu";
    twin_reduce_warp_shuffle_bug_mask => "reduce_warp_shuffle_bug_mask.cu";
    twin_reduce_warp_unrolled_bug_nosync => "reduce_warp_unrolled_bug_nosync.cu";
    twin_reduce_warp_unrolled_bug_nonvolatile => "reduce_warp_unrolled_bug_nonvolatile.cu";
}

/// Every `.cu` in the examples is tested: correct kernels against a reference, twins for
/// their expected findings; and every correct kernel has at least one twin.
#[test]
fn every_example_kernel_is_covered() {
    let mut files: Vec<String> = std::fs::read_dir(kernels_dir())
        .expect("examples/kernels exists")
        .map(|e| {
            e.expect("readable entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|f| f.ends_with(".cu"))
        .collect();
    files.sort();
    for f in &files {
        let listed = if f.contains("_bug_") {
            TWIN_FILES.contains(&f.as_str())
        } else {
            REFERENCE_FILES.contains(&f.as_str())
        };
        assert!(listed, "{f} is not listed in tests/differential.rs");
    }
    for f in REFERENCE_FILES.iter().chain(TWIN_FILES) {
        assert!(files.iter().any(|g| g == f), "{f} is listed but missing");
    }
    for f in REFERENCE_FILES {
        let base = f.trim_end_matches(".cu");
        assert!(
            TWIN_FILES
                .iter()
                .any(|t| t.starts_with(&format!("{base}_bug_"))),
            "{f} has no buggy twin"
        );
    }
}

/// Under the legacy lock-step warp model Harris's `volatile` unrolled warp is correct: no race,
/// and the right sums.
#[test]
fn unrolled_warp_without_syncwarp_is_correct_under_lockstep() {
    let file = "reduce_warp_unrolled_bug_nosync.cu";
    for seed in SEEDS {
        let p = prepare(file, seed);
        let options = Options {
            lockstep_warps: true,
            ..Options::default()
        };
        let outcome = run(&p, &options);
        assert!(
            !outcome
                .findings
                .iter()
                .any(|f| f.category == Category::Race),
            "{file} under lock-step warps reports a race:\n{}",
            describe(&outcome)
        );
        assert!(
            !outcome
                .findings
                .iter()
                .any(|f| f.severity == warpsafe_exec::Severity::Error),
            "{file} under lock-step warps has error findings:\n{}",
            describe(&outcome)
        );
        compare_outputs(file, seed, &p, &outcome, reduce::double_block_sums);
    }
}
