//! The end-to-end tests of the `warpsafe` command, one module per subject, in one test
//! binary (one link instead of one per file: a clean CI build linked 37 of them).

mod corpus;
mod reference;

mod allsizes_e2e;
mod bench_equiv_only;
mod bench_svg;
mod clang_cache;
mod clang_intrinsics;
mod clang_methods;
mod cli_e2e;
mod differential;
mod equiv_attention_sized;
mod equiv_data_addresses;
mod equiv_honest;
mod equiv_sequence;
mod equiv_sgemm_sized;
mod float_bits;
mod grid_sync_e2e;
mod hostile_run;
mod hostile_verify;
mod html_report;
mod idioms;
mod init_inputs;
mod inline_asm;
mod lockstep_volatile_e2e;
mod machine_output;
mod mma_pair;
mod mutate_e2e;
mod perm_e2e;
mod prove_honest;
mod prove_sized_attention;
mod prove_sized_sgemm;
mod ptx_road;
mod readme_commands;
mod real_corpus;
mod sarif_everywhere;
mod solver_choice;
mod soundness_corpus;
mod uniform_flags;
mod validate_e2e;
mod verbose;
mod wmma;
