//! FlashAttention for every sequence length: the tiled, online-softmax kernel of
//! examples/equiv/attention/attention_sized_flash_every_n.cu is proved equal to
//! softmax(scale · Q Kᵀ) V for every n that is a multiple of its key tile; its planted bugs
//! (no rescale, a dropped barrier, a short tile, a wrong bound) are never proved.
//!
//! The shipped file has D = 8 and tiles of 16 (3000 obligations, a minute and a half on two
//! cores); these tests read it with D = 2 and tiles of 4, the same proof at a size CI affords.

use crate::support::{read, show};
use warpsafe_equiv::Spec;
use warpsafe_functional::{prove_all_sizes, Options, Outcome};

/// `src` with head dimension 2 and key tiles of 4 rows.
fn small(src: &str) -> String {
    assert!(src.contains("#define D 8\n#define BC 16\n"));
    src.replace(
        "#define D 8\n#define BC 16\n",
        "#define D 2\n#define BC 4\n",
    )
    .replace("//--blockDim=16 ", "//--blockDim=4 ")
}

/// The shipped spec at head dimension 2.
fn spec() -> Spec {
    let text = read("examples/equiv/specs/attention.spec")
        .replace("8]", "2]")
        .replace("< 8,", "< 2,")
        .replace("c < 8", "c < 2");
    Spec::parse(&text).expect("spec parses")
}

fn prove(src: &str) -> Outcome {
    let module = warpsafe_cuda_front::compile(src).expect("parses");
    prove_all_sizes(&module.kernels[0], &spec(), &Options::default())
}

fn z3() -> bool {
    let ok = warpsafe_smt::available();
    if !ok {
        eprintln!("z3 not found: skipped");
    }
    ok
}

fn kernel() -> String {
    small(&read(
        "examples/equiv/attention/attention_sized_flash_every_n.cu",
    ))
}

/// The kernel with `from` replaced by `to`.
fn twin(from: &str, to: &str) -> String {
    let src = kernel();
    assert!(src.contains(from), "{from}");
    src.replace(from, to)
}

#[test]
fn flash_attention_is_proved_for_every_n() {
    if !z3() {
        return;
    }
    let o = prove(&kernel());
    println!("{}", show(&o));
    assert_eq!(o.verdict, "proved", "{}", show(&o));
    // The size assumptions are printed with the proof.
    assert!(
        o.assumptions
            .iter()
            .any(|a| a.starts_with("requires") && a.contains("blockDim.x")),
        "{:?}",
        o.assumptions
    );
}

#[test]
fn the_shipped_twin_without_rescale_is_not_proved() {
    if !z3() {
        return;
    }
    let o = prove(&small(&read(
        "examples/equiv/attention/attention_sized_flash_every_n_bug_norescale.cu",
    )));
    println!("{}", show(&o));
    assert_eq!(o.verdict, "unknown", "{}", show(&o));
}

/// The twin of the kernel with `from` replaced by `to` is not proved.
fn not_proved(what: &str, from: &str, to: &str) {
    if !z3() {
        return;
    }
    let o = prove(&twin(from, to));
    println!("{what}: {}", show(&o));
    assert_ne!(o.verdict, "proved", "{what}: {}", show(&o));
}

#[test]
fn output_not_rescaled() {
    not_proved(
        "output not rescaled",
        "o[c] = o[c] * alpha + acc;",
        "o[c] = o[c] + acc;",
    );
}

#[test]
fn barrier_after_staging_dropped() {
    not_proved(
        "barrier after staging dropped",
        "        }\n        __syncthreads();\n        float mt",
        "        }\n        float mt",
    );
}

#[test]
fn barrier_after_the_tile_dropped() {
    not_proved(
        "barrier after the tile dropped",
        "        m = mt;\n        __syncthreads();",
        "        m = mt;",
    );
}

#[test]
fn last_key_of_a_tile_skipped() {
    not_proved(
        "last key of a tile skipped",
        "for (int j = 0; j < BC; j++) acc += s[j]",
        "for (int j = 0; j < BC - 1; j++) acc += s[j]",
    );
}

#[test]
fn staging_one_element_short() {
    not_proved(
        "staging one element short",
        "e < BC * D;",
        "e < BC * D - 1;",
    );
}

#[test]
fn last_tile_skipped() {
    not_proved("last tile skipped", "kb < n;", "kb < n - BC;");
}
