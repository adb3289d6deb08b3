//! Unsupported constructs and malformed input give spanned errors that name the problem.

use warpsafe_cuda_front::{compile, FrontError};

fn errors(src: &str) -> Vec<FrontError> {
    match compile(src) {
        Ok(m) => panic!(
            "expected an error, got:\n{:?}",
            m.kernels.iter().map(|k| k.to_string()).collect::<Vec<_>>()
        ),
        Err(e) => e,
    }
}

/// Asserts that compiling fails, that the first error's span covers `needle`, and that its
/// message mentions `word`.
fn rejects(src: &str, needle: &str, word: &str) {
    let errs = errors(src);
    let e = &errs[0];
    let text = src.get(e.span.range()).unwrap_or("");
    assert!(
        text.contains(needle),
        "span `{text}` does not cover `{needle}` (message: {})",
        e.message
    );
    assert!(
        e.message.contains(word),
        "message `{}` does not mention `{word}`",
        e.message
    );
}

fn kernel(body: &str) -> String {
    format!("__global__ void k(float* a, int n) {{\n{body}\n}}\n")
}

#[test]
fn unsupported_types() {
    rejects(&kernel("__nv_bfloat16 h;"), "__nv_bfloat16", "bfloat16");
    rejects(&kernel("float4 v;"), "float4", "float4");
    rejects(&kernel("uchar4 v;"), "uchar4", "uchar4");
    rejects(
        &kernel("unsigned signed char c;"),
        "unsigned signed char",
        "do not form",
    );
    rejects(&kernel("long char c;"), "long char", "do not form");
}

#[test]
fn unsupported_declarations() {
    rejects(
        "template <int N> __global__ void k(float* a) {}",
        "template",
        "template",
    );
    rejects(
        "struct P { int x; };\n__global__ void k() {}",
        "struct",
        "struct",
    );
    rejects("class C {};", "class", "class");
    rejects("union U { int a; };", "union", "union");
    rejects("typedef struct { int x; } P;", "typedef", "typedef");
    rejects(
        "__global__ void k(void (*f)(int)) {}",
        "(",
        "function pointer",
    );
    rejects("__global__ void k(int& r) {}", "&", "reference");
    rejects("__constant__ float c[4];", "__constant__", "__constant__");
}

#[test]
fn unsupported_statements() {
    rejects(&kernel("switch (n) { case 0: break; }"), "switch", "switch");
    rejects(&kernel("goto end; end: ;"), "goto", "goto");
    rejects(&kernel("float* p = new float[4];"), "new", "new");
    rejects(&kernel("auto f = [](int x) { return x; };"), "auto", "auto");
    rejects(&kernel("int x = ([](){ return 1; })();"), "[", "lambda");
    rejects(&kernel("a[0] = n;\nasm(\"nop\");"), "asm", "assembly");
}

#[test]
fn unknown_names_and_functions() {
    rejects(&kernel("a[0] = foo;"), "foo", "unknown identifier");
    rejects(&kernel("a[0] = bar(1);"), "bar", "unknown function");
    rejects(&kernel("printf(\"%d\", n);"), "\"%d\"", "string");
}

#[test]
fn recursion_is_rejected() {
    let src = "__device__ int f(int x) { return x <= 0 ? 0 : f(x - 1); }\n__global__ void k(int* a) { a[0] = f(3); }";
    rejects(src, "f(x - 1)", "recursion");
}

#[test]
fn a_pointer_into_several_memories_is_only_loaded_and_stored_through() {
    // Loads and stores go through a chain over the candidate bases; an atomic does not.
    let src = kernel("float* p;\nif (n) p = a; else p = &b[0];\natomicAdd(p, 1.0f);")
        .replace("int n", "int n, float* b");
    rejects(&src, "p", "several memories");
}

#[test]
fn type_errors_point_at_the_expression() {
    rejects(&kernel("int x = a[0] % 2;"), "a[0] % 2", "integer");
    rejects(&kernel("a[1.5f] = 0;"), "1.5f", "index");
    rejects(
        "__global__ void k(const float* a) { a[0] = 1.0f; }",
        "a[0]",
        "read-only",
    );
    rejects(&kernel("break;"), "break", "outside a loop");
}

#[test]
fn header_errors() {
    rejects(
        &format!("//@ len(zz) = n\n{}", kernel("")),
        "zz",
        "not a parameter",
    );
    rejects(
        &format!("//@ arg m = 3\n{}", kernel("")),
        "m",
        "not a parameter",
    );
    rejects(
        &format!("//@ deny raec\n{}", kernel("")),
        "raec",
        "category",
    );
    rejects(
        &format!("//@ frobnicate\n{}", kernel("")),
        "frobnicate",
        "directive",
    );
    rejects(
        &format!("//@ len(a) = \n{}", kernel("")),
        "len",
        "expression",
    );
    rejects(
        &format!("//--blockDim=[16,x]\n{}", kernel("")),
        "--blockDim=[16,x]",
        "launch dimension",
    );
    rejects(
        &format!("//@ requires threadIdx.x < n\n{}", kernel("")),
        "threadIdx.x",
        "header",
    );
}

#[test]
fn preprocessor_errors() {
    rejects("#if 1\nint x;", "#if", "#endif");
    rejects(
        "#define F(a, b) a\n__global__ void k(int* p) { p[0] = F(1); }",
        "F(1)",
        "argument",
    );
    rejects("#error stop here\n", "#error", "#error");
    rejects(
        "#define A(x) x x x x x x x x\n#define B(x) A(A(A(A(x))))\nB(B(B(1)))",
        "B(B(1))",
        "too large",
    );
}

#[test]
fn macro_errors_point_at_the_invocation() {
    let src = "#define BAD(x) (x + undefined_thing)\n__global__ void k(int* a) { a[0] = BAD(1); }";
    rejects(src, "BAD(1)", "undefined_thing");
}

#[test]
fn ordinary_comments_and_unknown_flags_are_ignored() {
    let src = format!(
        "// a comment\n//--verify --foo=bar --blockDim=32\n{}",
        kernel("a[0] = n;")
    );
    let m = compile(&src).expect("compiles");
    assert_eq!(m.kernels[0].contract.block_dim, Some([32, 1, 1]));
}

#[test]
fn a_flag_line_may_have_a_space_after_the_slashes() {
    // GPUVerify's scalarProd benchmark: `// --gridDim=128 --blockDim=256 --warp-sync=32`.
    let src = format!(
        "//pass\n// --gridDim=128 --blockDim=256 --warp-sync=32\n// -- a dash comment\n{}",
        kernel("a[0] = n;")
    );
    let m = compile(&src).expect("compiles");
    assert_eq!(m.kernels[0].contract.block_dim, Some([256, 1, 1]));
    assert_eq!(m.kernels[0].contract.grid_dim, Some([128, 1, 1]));
    let bad = format!("//  --blockDim=0\n{}", kernel("a[0] = n;"));
    rejects(&bad, "--blockDim=0", "not a positive launch dimension");
}

#[test]
fn pointers_into_rows_of_a_matrix_are_not_compared_by_their_column() {
    // `&t[1][0] - &t[0][0]` was 0 and `==` true: the row index is not in the offset.
    for op in ["-", "=="] {
        let src = format!(
            "__global__ void k(int* a) {{ __shared__ int t[4][8]; a[0] = &t[1][0] {op} &t[0][0]; }}"
        );
        rejects(&src, "&t[1][0]", "multi-dimensional");
    }
}
