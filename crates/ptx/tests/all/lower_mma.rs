//! `ldmatrix` and `mma.sync` on the PTX road: NVRTC's PTX of kernels written with inline
//! `asm` (as real tensor-core code is) run in the interpreter against values computed in Rust
//! from the fragment layouts of the PTX ISA — which element of which 8×8 matrix each lane
//! receives from `ldmatrix` (plain and `.trans`, `.x1`/`.x2`/`.x4`), and `D = A·B + C` of
//! `m16n8k16` (`.f32` accumulators) and `m16n8k8` (`.f16` accumulators, B loaded transposed).
//! Hand-written PTX checks the rejections: shapes and types not modelled, and an A fragment
//! written by something else than `ldmatrix`, each naming the instruction and its line. The
//! NVRTC halves are skipped, with a note, when NVRTC is missing.

use warpsafe_exec::{run_program, Arg, Buffer, LaunchConfig, Options, Outcome, Program};
use warpsafe_ir::{Category, F16};

/// NVRTC's PTX of `src` (for `sm_80`), or `None` (with a note) when NVRTC is not installed.
fn nvrtc(src: &str) -> Option<String> {
    if let Err(e) = warpsafe_cuda::nvrtc_path() {
        eprintln!("note: NVRTC is missing, test skipped: {e}");
        return None;
    }
    let opts = warpsafe_cuda::CompileOptions {
        arch: "sm_80".into(),
        extra: vec![],
    };
    match warpsafe_cuda::compile_ptx(src, &opts) {
        Ok(c) => Some(c.ptx),
        Err(e) => panic!("NVRTC rejects the test kernel: {e}\n{src}"),
    }
}

fn lower(ptx: &str, entry: &str) -> Result<Program, warpsafe_ptx::LowerError> {
    let m = warpsafe_ptx::parse(ptx).unwrap_or_else(|e| panic!("{e}\n{ptx}"));
    warpsafe_ptx::lower(&m, Some(entry))
}

/// A buffer of parameter `k`'s element type holding `bits`.
fn buffer(p: &Program, k: usize, bits: Vec<u64>) -> Arg {
    let elem = match p.kernel().params[k].kind {
        warpsafe_ir::ParamKind::Buffer { elem, .. } => elem,
        ref other => panic!("parameter {k} is {other:?}"),
    };
    Arg::Buffer(Buffer { elem, data: bits })
}

/// One warp of `p` on `args`; no finding allowed.
fn run_warp(p: &Program, args: Vec<Arg>) -> Outcome {
    let o = run_program(p, &LaunchConfig::linear(1, 32), args, &Options::default()).expect("runs");
    assert!(o.findings.is_empty(), "{:#?}", o.findings);
    o
}

fn out_bits(o: &Outcome, k: usize) -> Vec<u64> {
    match &o.args[k] {
        Arg::Buffer(b) => b.data.clone(),
        a => panic!("argument {k} is {a:?}"),
    }
}

/// The bits of `x` as a half.
fn h(x: f32) -> u64 {
    u64::from(F16::from_f32(x).to_bits())
}

const LDMATRIX: &str = r#"
#define LDM(NAME, SHAPE, N, ROW)                                                              \
extern "C" __global__ void NAME(const unsigned short* in, unsigned* out) {                   \
    __shared__ __align__(16) unsigned short s[256];                                           \
    for (int k = threadIdx.x; k < 256; k += 32) s[k] = in[k];                                 \
    __syncthreads();                                                                          \
    unsigned addr = (unsigned)__cvta_generic_to_shared(&s[(ROW) * 8]);                        \
    unsigned r[4] = {0, 0, 0, 0};                                                             \
    LOAD_##N(SHAPE)                                                                           \
    for (int j = 0; j < 4; ++j) out[threadIdx.x * 4 + j] = r[j];                              \
}
#define LOAD_1(SHAPE) asm volatile("ldmatrix.sync.aligned.m8n8." SHAPE ".shared.b16 {%0}, [%1];" \
    : "=r"(r[0]) : "r"(addr));
#define LOAD_2(SHAPE) asm volatile("ldmatrix.sync.aligned.m8n8." SHAPE ".shared.b16 {%0,%1}, [%2];" \
    : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
#define LOAD_4(SHAPE) asm volatile("ldmatrix.sync.aligned.m8n8." SHAPE ".shared.b16 {%0,%1,%2,%3}, [%4];" \
    : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
LDM(ldm_x4, "x4", 4, threadIdx.x)
LDM(ldm_x4_trans, "x4.trans", 4, threadIdx.x)
LDM(ldm_x2, "x2", 2, threadIdx.x % 16)
LDM(ldm_x1_trans, "x1.trans", 1, threadIdx.x % 8)
"#;

/// What lane `l` receives in register `j` from `ldmatrix` of the matrices stored one after
/// another (matrix `j`, row `r`, column `c` at `in[64j + 8r + c]`).
fn ldmatrix_expected(input: &[u64], l: usize, j: usize, trans: bool) -> u64 {
    let m = |r: usize, c: usize| input[64 * j + 8 * r + c];
    let (lo, hi) = if trans {
        (m(2 * (l % 4), l / 4), m(2 * (l % 4) + 1, l / 4))
    } else {
        (m(l / 4, 2 * (l % 4)), m(l / 4, 2 * (l % 4) + 1))
    };
    lo | hi << 16
}

#[test]
fn ldmatrix_gives_each_lane_the_elements_the_isa_names() {
    let Some(ptx) = nvrtc(LDMATRIX) else { return };
    assert!(
        ptx.contains("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"),
        "{ptx}"
    );
    // Distinct halves (1.0 + k/1024: every bit pattern differs).
    let input: Vec<u64> = (0..256).map(|k| 0x3c00 + k as u64).collect();
    for (entry, count, trans) in [
        ("ldm_x4", 4, false),
        ("ldm_x4_trans", 4, true),
        ("ldm_x2", 2, false),
        ("ldm_x1_trans", 1, true),
    ] {
        let p = lower(&ptx, entry).unwrap_or_else(|e| panic!("{entry}: {e}"));
        let o = run_warp(
            &p,
            vec![buffer(&p, 0, input.clone()), buffer(&p, 1, vec![0; 128])],
        );
        let got = out_bits(&o, 1);
        for l in 0..32 {
            for j in 0..4 {
                let want = if j < count {
                    ldmatrix_expected(&input, l, j, trans)
                } else {
                    0
                };
                assert_eq!(got[4 * l + j], want, "{entry}: lane {l}, register {j}");
            }
        }
    }
}

const MMA: &str = r#"
extern "C" __global__ void mma_m16n8k16(const unsigned short* a, const unsigned short* bt,
                                        const float* c, float* d) {
    // A 16x16 row-major, B given as its transpose (8x16: B column-major), C and D 16x8
    // row-major.
    __shared__ __align__(16) unsigned short sa[256];
    __shared__ __align__(16) unsigned short sb[128];
    int l = threadIdx.x;
    for (int k = l; k < 256; k += 32) sa[k] = a[k];
    for (int k = l; k < 128; k += 32) sb[k] = bt[k];
    __syncthreads();
    int j = l / 8, i = l % 8;
    unsigned aaddr = (unsigned)__cvta_generic_to_shared(&sa[(i + 8 * (j & 1)) * 16 + 8 * (j >> 1)]);
    unsigned baddr = (unsigned)__cvta_generic_to_shared(&sb[i * 16 + 8 * (j & 1)]);
    unsigned a0, a1, a2, a3, b0, b1;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(aaddr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                 : "=r"(b0), "=r"(b1) : "r"(baddr));
    int g = l >> 2, t = l & 3;
    float c0 = c[g * 8 + 2 * t], c1 = c[g * 8 + 2 * t + 1];
    float c2 = c[(g + 8) * 8 + 2 * t], c3 = c[(g + 8) * 8 + 2 * t + 1];
    float d0, d1, d2, d3;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1),
                   "f"(c0), "f"(c1), "f"(c2), "f"(c3));
    d[g * 8 + 2 * t] = d0;
    d[g * 8 + 2 * t + 1] = d1;
    d[(g + 8) * 8 + 2 * t] = d2;
    d[(g + 8) * 8 + 2 * t + 1] = d3;
}

extern "C" __global__ void mma_m16n8k8_f16(const unsigned short* a, const unsigned short* b,
                                           const unsigned* c, unsigned* d) {
    // A 16x8 row-major, B 8x8 row-major (loaded with .trans), C and D 16x8 row-major halves
    // in pairs.
    __shared__ __align__(16) unsigned short sa[128];
    __shared__ __align__(16) unsigned short sb[64];
    int l = threadIdx.x;
    for (int k = l; k < 128; k += 32) sa[k] = a[k];
    for (int k = l; k < 64; k += 32) sb[k] = b[k];
    __syncthreads();
    unsigned aaddr = (unsigned)__cvta_generic_to_shared(&sa[(l % 16) * 8]);
    unsigned baddr = (unsigned)__cvta_generic_to_shared(&sb[(l % 8) * 8]);
    unsigned a0, a1, b0;
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                 : "=r"(a0), "=r"(a1) : "r"(aaddr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                 : "=r"(b0) : "r"(baddr));
    int g = l >> 2, t = l & 3;
    unsigned c0 = c[g * 4 + t], c1 = c[(g + 8) * 4 + t];
    unsigned d0, d1;
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%5,%6};"
                 : "=r"(d0), "=r"(d1) : "r"(a0), "r"(a1), "r"(b0), "r"(c0), "r"(c1));
    d[g * 4 + t] = d0;
    d[(g + 8) * 4 + t] = d1;
}

extern "C" __global__ void mma_half_warp(const unsigned short* a, float* d) {
    __shared__ __align__(16) unsigned short sa[256];
    int l = threadIdx.x;
    for (int k = l; k < 256; k += 32) sa[k] = a[k];
    __syncthreads();
    if (l < 16) {
        unsigned addr = (unsigned)__cvta_generic_to_shared(&sa[l * 16]);
        unsigned a0, a1, a2, a3;
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(addr));
        d[l] = a0 + a1 + a2 + a3;
    }
}
"#;

/// Small integers (exact in `f16` and in every sum here) from a seed.
fn ints(n: usize, seed: u32) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
            ((s >> 16) % 7) as f32 - 3.0
        })
        .collect()
}

#[test]
fn mma_m16n8k16_with_f32_accumulators_is_a_times_b_plus_c() {
    let Some(ptx) = nvrtc(MMA) else { return };
    let p = lower(&ptx, "mma_m16n8k16").expect("lowers");
    let (a, bt, c) = (ints(256, 1), ints(128, 2), ints(128, 3));
    let o = run_warp(
        &p,
        vec![
            buffer(&p, 0, a.iter().map(|&x| h(x)).collect()),
            buffer(&p, 1, bt.iter().map(|&x| h(x)).collect()),
            buffer(&p, 2, c.iter().map(|&x| u64::from(x.to_bits())).collect()),
            buffer(&p, 3, vec![0; 128]),
        ],
    );
    let d = out_bits(&o, 3);
    for r in 0..16 {
        for n in 0..8 {
            let want: f32 =
                c[r * 8 + n] + (0..16).map(|k| a[r * 16 + k] * bt[n * 16 + k]).sum::<f32>();
            assert_eq!(f32::from_bits(d[r * 8 + n] as u32), want, "D[{r}][{n}]");
        }
    }
}

#[test]
fn mma_m16n8k8_with_f16_accumulators_and_b_loaded_transposed() {
    let Some(ptx) = nvrtc(MMA) else { return };
    let p = lower(&ptx, "mma_m16n8k8_f16").expect("lowers");
    let (a, b, c) = (ints(128, 4), ints(64, 5), ints(128, 6));
    let pairs = |v: &[f32]| -> Vec<u64> { v.chunks(2).map(|q| h(q[0]) | h(q[1]) << 16).collect() };
    let o = run_warp(
        &p,
        vec![
            buffer(&p, 0, a.iter().map(|&x| h(x)).collect()),
            buffer(&p, 1, b.iter().map(|&x| h(x)).collect()),
            buffer(&p, 2, pairs(&c)),
            buffer(&p, 3, vec![0; 64]),
        ],
    );
    let d = out_bits(&o, 3);
    for r in 0..16 {
        for n in 0..8 {
            let want: f32 = c[r * 8 + n] + (0..8).map(|k| a[r * 8 + k] * b[k * 8 + n]).sum::<f32>();
            let word = d[(r * 8 + n) / 2] >> (16 * (n % 2)) & 0xffff;
            assert_eq!(word, h(want), "D[{r}][{n}]");
        }
    }
}

#[test]
fn ldmatrix_in_half_a_warp_is_reported_not_assumed_away() {
    let Some(ptx) = nvrtc(MMA) else { return };
    let p = lower(&ptx, "mma_half_warp").expect("lowers");
    let args = vec![buffer(&p, 0, vec![h(1.0); 256]), buffer(&p, 1, vec![0; 32])];
    let o = run_program(&p, &LaunchConfig::linear(1, 32), args, &Options::default()).expect("runs");
    let cats: Vec<Category> = o.findings.iter().map(|f| f.category).collect();
    assert!(
        !cats.is_empty(),
        "a warp-collective load in half a warp passes silently"
    );
}

/// A kernel whose only instruction of note is `inst` on line 14 (A and B registers are read
/// but never written, which lowering alone does not mind).
fn one_instruction(inst: &str) -> String {
    format!(
        r#".version 8.0
.target sm_80
.address_size 64

.visible .entry k(
    .param .u64 k_param_0
)
{{
    .reg .b32 %r<16>;
    .reg .f32 %f<16>;
    .reg .b64 %rd<4>;

    ld.param.u64 %rd1, [k_param_0];
    {inst}
    ret;
}}
"#
    )
}

fn rejection(inst: &str) -> warpsafe_ptx::LowerError {
    let ptx = one_instruction(inst);
    let m = warpsafe_ptx::parse(&ptx).unwrap_or_else(|e| panic!("{e}\n{ptx}"));
    warpsafe_ptx::lower(&m, None).expect_err(inst)
}

#[test]
fn unmodelled_shapes_and_types_are_rejected_naming_the_instruction_and_line() {
    for (inst, what) in [
        (
            "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, {%r1,%r2}, {%r3,%r4}, {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};",
            "`.m8n8k4`",
        ),
        (
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f1,%f2,%f3,%f4};",
            "`.bf16`",
        ),
        (
            "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%r9,%r10,%r11,%r12}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%r9,%r10,%r11,%r12};",
            "`.m16n8k32`",
        ),
        (
            "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r1,%r2}, [%rd1];",
            "`.m16n16`",
        ),
    ] {
        let e = rejection(inst);
        assert!(e.message.contains(what), "{inst}: {e}");
        let op = inst.split(' ').next().unwrap_or_default();
        assert!(e.message.contains(op), "{inst}: the message does not name it: {e}");
        assert_eq!(e.line, 14, "{inst}: {e}");
    }
}

#[test]
fn an_a_fragment_written_by_another_instruction_is_refused_naming_it() {
    let e = rejection(
        "mov.b32 %r1, 0;\n    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f1,%f2,%f3,%f4};",
    );
    assert!(
        e.message.contains("`%r1`") && e.message.contains("`mov`"),
        "{e}"
    );
    assert_eq!(e.line, 14, "{e}");
}
