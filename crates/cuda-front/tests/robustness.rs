//! `compile` never panics: random token soup, mutated real kernels, deep nesting.

use proptest::prelude::*;
use warpsafe_cuda_front::compile;

const SEED: &str = r#"
#define TILE 16
#define IDX(r, c) ((r) * TILE + (c))
//--blockDim=[16,16]
//@ len(a) = n
__device__ float helper(volatile float* s, int i) { if (i < 0) return 0.0f; s[i] += 1.0f; return s[i]; }
__global__ void k(float* a, const int* b, int n) {
    __shared__ float t[TILE][TILE + 1];
    extern __shared__ float dyn[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float* p = a + i;
    for (int j = 0; __invariant(j >= 0), j < n; j += 2) { t[threadIdx.y][threadIdx.x] = p[j]; }
    __syncthreads();
    unsigned old = atomicAdd((unsigned*)0, 1u);
    a[IDX(i, 1)] = i > 3 && b[i] ? helper(dyn, i++) : __shfl_xor_sync(0xffffffff, a[i], 1);
    do { i--; } while (i > 0);
}
"#;

const WORDS: &[&str] = &[
    "__global__",
    "__device__",
    "void",
    "int",
    "float",
    "unsigned",
    "double",
    "bool",
    "const",
    "__shared__",
    "extern",
    "if",
    "else",
    "for",
    "while",
    "do",
    "return",
    "break",
    "continue",
    "threadIdx",
    ".",
    "x",
    "y",
    "blockDim",
    "a",
    "b",
    "n",
    "i",
    "p",
    "k",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ";",
    ",",
    "=",
    "+=",
    "++",
    "--",
    "+",
    "-",
    "*",
    "/",
    "%",
    "&",
    "&&",
    "||",
    "<",
    "<<",
    ">>",
    "?",
    ":",
    "!",
    "~",
    "0",
    "1",
    "2.5f",
    "0x10",
    "__syncthreads",
    "atomicAdd",
    "__shfl_down_sync",
    "min",
    "sqrtf",
    "#define",
    "#if",
    "#endif",
    "\n",
    "//@ len(a) = n\n",
    "//--blockDim=",
    "__invariant",
    "__assert",
    "sizeof",
    "static_cast",
    "<float>",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(WORDS), 0..120).prop_map(|w| w.join(" "))
}

fn mutated() -> impl Strategy<Value = String> {
    let len = SEED.len();
    prop::collection::vec((0..len, 0..len, prop::sample::select(WORDS)), 1..6).prop_map(|edits| {
        let mut s = SEED.to_string();
        for (at, to, word) in edits {
            let (a, b) = (
                at.min(to).min(s.len()),
                at.max(to).min(s.len()).min(at.min(to) + 8),
            );
            if s.is_char_boundary(a) && s.is_char_boundary(b) {
                s.replace_range(a..b, word);
            }
        }
        s
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn token_soup_never_panics(src in soup()) {
        let _ = compile(&src);
    }

    #[test]
    fn mutated_kernels_never_panic(src in mutated()) {
        let _ = compile(&src);
    }

    #[test]
    fn arbitrary_text_never_panics(src in "\\PC{0,200}") {
        let _ = compile(&src);
    }
}

#[test]
fn deep_nesting_is_rejected_cleanly() {
    let parens = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
    assert!(compile(&format!("__global__ void k(int* a) {{ a[0] = {parens}; }}")).is_err());
    let blocks = format!("{}{}", "{".repeat(100_000), "}".repeat(100_000));
    assert!(compile(&format!("__global__ void k() {blocks}")).is_err());
    let ifs = "if (1) ".repeat(50_000);
    assert!(compile(&format!("__global__ void k(int* a) {{ {ifs} a[0] = 1; }}")).is_err());
    let chain = vec!["a[0]"; 100_000].join(" + ");
    assert!(compile(&format!("__global__ void k(int* a) {{ a[1] = {chain}; }}")).is_err());
}

#[test]
fn deep_but_legal_nesting_compiles() {
    let parens = format!("{}1{}", "(".repeat(60), ")".repeat(60));
    let chain = vec!["a[0]"; 60].join(" + ");
    let src = format!("__global__ void k(int* a) {{ a[0] = {parens}; a[1] = {chain}; }}");
    assert!(compile(&src).is_ok());
}

#[test]
fn exponential_helper_inlining_is_bounded() {
    let mut src = String::from("__device__ int f0(int x) { return x + 1; }\n");
    for i in 1..30 {
        src.push_str(&format!(
            "__device__ int f{i}(int x) {{ return f{p}(x) + f{p}(x); }}\n",
            p = i - 1
        ));
    }
    src.push_str("__global__ void k(int* a) { a[0] = f29(1); }\n");
    assert!(compile(&src).is_err());
}

#[test]
fn seed_kernel_is_reasonable() {
    // The seed uses a null pointer on purpose; it must be rejected, not crash.
    assert!(compile(SEED).is_err());
    assert!(compile(&SEED.replace(
        "atomicAdd((unsigned*)0, 1u)",
        "atomicAdd((unsigned*)&b[0], 1u)"
    ))
    .is_err());
}

#[test]
fn nesting_right_below_the_limit_does_not_overflow_the_stack() {
    for n in [50, 90, 100, 150, 199, 201] {
        let parens = format!("{}a[0]{}", "(".repeat(n), ")".repeat(n));
        let negs = format!("{}a[0]", "-".repeat(n));
        let casts = format!("{}a[0]", "(float)(int)".repeat(n / 2));
        let ifs = "if (a[0]) ".repeat(n);
        let blocks = format!(
            "{}a[0] = 1;{}",
            "{ for (;;) ".repeat(n / 2),
            "}".repeat(n / 2)
        );
        for body in [
            format!("a[1] = {parens};"),
            format!("a[1] = {negs};"),
            format!("a[1] = {casts};"),
            format!("{ifs} a[0] = 1;"),
            blocks,
        ] {
            let _ = compile(&format!("__global__ void k(int* a) {{ {body} }}"));
        }
    }
}
