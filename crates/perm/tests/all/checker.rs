//! The annotation checker on whole files: the rotation kernel verifies, each broken twin is
//! rejected by the check that fails (with its line), and unsupported shapes are `unknown`.

use warpsafe_perm::{check, Report, Verdict};

fn report(src: &str) -> Report {
    check(src).expect("checks")
}

/// The obligations with `verdict`, as `(check, line)`.
fn with(r: &Report, verdict: Verdict) -> Vec<(&'static str, usize)> {
    r.obligations
        .iter()
        .filter(|o| o.verdict == verdict)
        .map(|o| (o.check, o.line))
        .collect()
}

#[test]
fn rotation_verifies() {
    let r = report(include_str!("../../../../examples/perm/rotate.cu"));
    assert_eq!(r.verdict, Verdict::Verified, "{r:#?}");
    for c in ["access", "barrier", "split", "functional", "uniform"] {
        assert!(
            r.obligations.iter().any(|o| o.check == c),
            "no {c} obligation"
        );
    }
    assert!(r.obligations.iter().all(|o| o.reason.is_none()));
}

#[test]
fn wrong_barrier_spec_is_rejected_at_the_write() {
    let r = report(include_str!(
        "../../../../examples/perm/rotate_bad_barrier_spec.cu"
    ));
    assert_eq!(r.verdict, Verdict::Violated);
    assert!(
        with(&r, Verdict::Violated).contains(&("access", 15)),
        "{r:#?}"
    );
}

#[test]
fn reading_a_cell_the_neighbour_holds_is_rejected_at_the_read() {
    let r = report(include_str!(
        "../../../../examples/perm/rotate_read_not_held.cu"
    ));
    assert_eq!(r.verdict, Verdict::Violated);
    assert_eq!(with(&r, Verdict::Violated), vec![("access", 12)], "{r:#?}");
}

#[test]
fn missing_barrier_is_rejected_by_the_split() {
    let r = report(include_str!(
        "../../../../examples/perm/rotate_missing_barrier.cu"
    ));
    assert_eq!(r.verdict, Verdict::Violated);
    assert!(
        with(&r, Verdict::Violated).contains(&("split", 7)),
        "{r:#?}"
    );
}

#[test]
fn write_without_permission_is_rejected() {
    let r = report(include_str!(
        "../../../../examples/perm/rotate_write_no_perm.cu"
    ));
    assert_eq!(r.verdict, Verdict::Violated);
    assert_eq!(with(&r, Verdict::Violated), vec![("access", 13)], "{r:#?}");
}

#[test]
fn precondition_that_does_not_split_is_rejected() {
    let r = report(include_str!(
        "../../../../examples/perm/rotate_bad_split.cu"
    ));
    assert_eq!(r.verdict, Verdict::Violated);
    assert!(
        with(&r, Verdict::Violated).contains(&("split", 6)),
        "{r:#?}"
    );
}

#[test]
fn wrong_functional_postcondition_is_rejected() {
    let r = report(include_str!(
        "../../../../examples/perm/rotate_wrong_post.cu"
    ));
    assert_eq!(r.verdict, Verdict::Violated);
    assert_eq!(
        with(&r, Verdict::Violated),
        vec![("functional", 7)],
        "{r:#?}"
    );
}

#[test]
fn kernel_postcondition_must_follow_from_the_threads() {
    let src = include_str!("../../../../examples/perm/rotate.cu").replace(
        "forall i in 0..n: a[i] == old(a[(i + n - 1) % n])",
        "forall i in 0..n: a[i] == old(a[i])",
    );
    let r = report(&src);
    assert_ne!(r.verdict, Verdict::Verified, "{r:#?}");
    assert!(r
        .obligations
        .iter()
        .any(|o| o.check == "functional" && o.line == 6 && o.verdict != Verdict::Verified));
}

const GUARDED: &str = "//@ kernel requires Perm(a[0..blockDim.x], 1)
//@ thread requires Perm(a[tid], 1)
__global__ void k(int* a, int n)
{
    int tid = threadIdx.x;
    if (tid < n) {
        a[tid] = a[tid] + 1;
    }
}
";

#[test]
fn guarded_access_verifies_and_its_shifted_twin_does_not() {
    assert_eq!(report(GUARDED).verdict, Verdict::Verified);
    let bad = report(&GUARDED.replace("a[tid] = a[tid] + 1", "a[tid + 1] = a[tid] + 1"));
    assert_eq!(
        with(&bad, Verdict::Violated),
        vec![("access", 7)],
        "{bad:#?}"
    );
}

#[test]
fn shared_reads_verify_and_shared_halves_do_not() {
    let reads = "//@ kernel requires Perm(a[0..blockDim.x], 1)
//@ thread requires Perm(a[0], read)
__global__ void k(int* a, int* out)
{
    int x = a[0];
}
";
    assert_eq!(report(reads).verdict, Verdict::Verified);
    // Every thread holding 1/2 of a[0] is more than the block owns once there are 3 threads.
    let halves = reads.replace("Perm(a[0], read)", "Perm(a[0], 1/2)");
    assert_eq!(report(&halves).verdict, Verdict::Violated);
    // A read needs some share; a write needs all of it.
    let write = reads.replace("int x = a[0];", "a[0] = 1;");
    assert_eq!(
        with(&report(&write), Verdict::Violated),
        vec![("access", 5)]
    );
}

#[test]
fn permissions_the_block_does_not_own_are_rejected() {
    let src = "//@ kernel requires Perm(a[0..blockDim.x], 1)
//@ thread requires Perm(a[tid + 1], 1)
__global__ void k(int* a)
{
    a[threadIdx.x + 1] = 0;
}
";
    let r = report(src);
    assert_eq!(with(&r, Verdict::Violated), vec![("split", 2)], "{r:#?}");
}

const LOOP: &str = "//@ kernel requires Perm(a[0..blockDim.x], 1)
//@ thread requires Perm(a[tid], 1)
__global__ void k(int* a)
{
    for (int s = 1; s < 4; s = s * 2) {
        a[threadIdx.x] = s;
        //@ barrier ensures Perm(a[tid], 1)
        __syncthreads();
    }
}
";

#[test]
fn a_loop_with_barriers_keeps_what_its_barriers_give_back() {
    let r = report(LOOP);
    assert_eq!(r.verdict, Verdict::Verified, "{r:#?}");
    assert!(r
        .obligations
        .iter()
        .any(|o| o.check == "uniform" && o.what.contains("loop condition")));
    // Without the barrier's specification the thread ends an iteration holding nothing.
    let bare = report(&LOOP.replace("        //@ barrier ensures Perm(a[tid], 1)\n", ""));
    assert_ne!(bare.verdict, Verdict::Verified, "{bare:#?}");
    assert!(bare
        .obligations
        .iter()
        .any(|o| o.check == "invariant" && o.verdict != Verdict::Verified));
}

#[test]
fn a_loop_variable_that_differs_between_threads_makes_the_barrier_loop_divergent() {
    let r = report(&LOOP.replace("int s = 1;", "int s = threadIdx.x;"));
    assert_ne!(r.verdict, Verdict::Verified, "{r:#?}");
    assert!(
        r.obligations
            .iter()
            .any(|o| o.check == "uniform" && o.line == 5 && o.verdict != Verdict::Verified),
        "{r:#?}"
    );
}

#[test]
fn barrier_under_a_thread_dependent_branch_is_rejected() {
    let src = "//@ kernel requires Perm(a[0..blockDim.x], 1)
//@ thread requires Perm(a[tid], 1)
__global__ void k(int* a)
{
    if (threadIdx.x < 16) {
        __syncthreads();
    }
}
";
    let r = report(src);
    assert_eq!(r.verdict, Verdict::Violated);
    assert_eq!(with(&r, Verdict::Violated), vec![("uniform", 6)], "{r:#?}");
}

#[test]
fn barrier_under_a_uniform_branch_verifies() {
    let src = "//@ kernel requires Perm(a[0..blockDim.x], 1)
//@ thread requires Perm(a[tid], 1)
//@ thread ensures Perm(a[tid], 1)
__global__ void k(int* a, int n)
{
    if (n > 16) {
        a[threadIdx.x] = 1;
        //@ barrier ensures Perm(a[tid], 1)
        __syncthreads();
    }
    a[threadIdx.x] = 2;
}
";
    let r = report(src);
    assert_eq!(r.verdict, Verdict::Verified, "{r:#?}");
}

#[test]
fn kogge_stone_verifies_with_permissions_per_iteration() {
    let r = report(include_str!("../../../../examples/perm/kogge_stone.cu"));
    assert_eq!(r.verdict, Verdict::Verified, "{r:#?}");
    for c in ["access", "barrier", "split", "invariant", "uniform"] {
        assert!(
            r.obligations.iter().any(|o| o.check == c),
            "no {c} obligation"
        );
    }
}

#[test]
fn kogge_stone_without_its_first_barrier_is_rejected_at_the_read() {
    let r = report(include_str!(
        "../../../../examples/perm/kogge_stone_missing_barrier.cu"
    ));
    assert_eq!(with(&r, Verdict::Violated), vec![("access", 17)], "{r:#?}");
}

#[test]
fn kogge_stone_with_a_barrier_that_keeps_a_write_share_is_rejected() {
    let r = report(include_str!(
        "../../../../examples/perm/kogge_stone_bad_barrier_spec.cu"
    ));
    assert_eq!(with(&r, Verdict::Violated), vec![("barrier", 16)], "{r:#?}");
}

#[test]
fn kogge_stone_with_an_invariant_nobody_establishes_is_rejected() {
    let r = report(include_str!(
        "../../../../examples/perm/kogge_stone_bad_invariant.cu"
    ));
    assert_eq!(r.verdict, Verdict::Violated);
    assert!(
        r.obligations.iter().any(|o| o.check == "invariant"
            && o.what.contains("on entry")
            && o.verdict == Verdict::Violated),
        "{r:#?}"
    );
}

#[test]
fn kogge_stone_with_a_thread_dependent_loop_bound_is_rejected() {
    let r = report(include_str!(
        "../../../../examples/perm/kogge_stone_divergent_loop.cu"
    ));
    assert_eq!(with(&r, Verdict::Violated), vec![("uniform", 14)], "{r:#?}");
}

#[test]
fn a_barrier_condition_read_from_memory_is_uniform_when_the_read_is_race_free() {
    let r = report(include_str!("../../../../examples/perm/uniform_flag.cu"));
    assert_eq!(r.verdict, Verdict::Verified, "{r:#?}");
}

#[test]
fn a_racy_read_feeding_a_barrier_condition_is_rejected() {
    let r = report(include_str!(
        "../../../../examples/perm/uniform_flag_racy.cu"
    ));
    assert_eq!(r.verdict, Verdict::Violated);
    assert_eq!(with(&r, Verdict::Violated), vec![("access", 11)], "{r:#?}");
    // The per-thread view makes the condition look uniform; that does not count.
    let barrier = r
        .obligations
        .iter()
        .find(|o| o.check == "uniform" && o.line == 17)
        .expect("the barrier's uniformity obligation");
    assert_eq!(barrier.verdict, Verdict::Unknown, "{r:#?}");
    assert!(barrier
        .reason
        .as_deref()
        .is_some_and(|m| m.contains("race freedom")));
}

#[test]
fn misplaced_annotations_are_errors() {
    let src =
        "__global__ void k(int* a)\n{\n    a[0] = 1;\n    //@ barrier ensures Perm(a[0], 1)\n}\n";
    assert!(check(src).is_err());
    let src = "__global__ void k(int* a)\n{\n    a[0] = 1;\n    //@ invariant Perm(a[0], 1)\n}\n";
    assert!(check(src).is_err());
}

#[test]
fn malformed_amounts_and_unknown_arrays_are_errors() {
    let src = "//@ thread requires Perm(a[tid], 2)\n__global__ void k(int* a) {}\n";
    assert!(check(src).is_err());
    let src = "//@ thread requires Perm(b[tid], 1)\n__global__ void k(int* a) {}\n";
    assert!(check(src).is_err());
}

#[test]
fn values_stored_before_a_barrier_are_not_tracked_so_the_postcondition_is_unknown() {
    let src = "//@ kernel requires Perm(a[0..blockDim.x], 1)
//@ thread requires Perm(a[tid], 1)
//@ thread ensures Perm(a[tid], 1) && a[tid] == 2
__global__ void k(int* a)
{
    int tid = threadIdx.x;
    a[tid] = 1;
    //@ barrier ensures Perm(a[tid], 1)
    __syncthreads();
    a[tid] = a[tid] + 1;
}
";
    let r = report(src);
    assert_eq!(r.verdict, Verdict::Unknown, "{r:#?}");
    assert_eq!(with(&r, Verdict::Unknown), vec![("functional", 3)]);
}

#[test]
fn files_without_kernels_or_with_frontend_errors_are_errors() {
    assert!(check("").is_err());
    assert!(check("//@ thread requires Perm(a[tid], 1)\n").is_err());
    assert!(check("__global__ void k(int* a) { a[0] = ; }\n").is_err());
}

#[test]
fn kernel_without_annotations_is_not_verified() {
    let r = report("__global__ void k(int* a) { a[threadIdx.x] = 1; }\n");
    assert_eq!(r.verdict, Verdict::Violated, "{r:#?}");
    let r = report("__global__ void k(int* a) { }\n");
    assert_eq!(r.verdict, Verdict::Unknown, "{r:#?}");
}

#[test]
fn a_quantified_clause_naming_one_cell_twice_is_rejected() {
    let src = "//@ kernel requires Perm(a[0..2], 1)
//@ thread requires tid == 0 ==> forall i in 0..2: Perm(a[i - i], 1)
__global__ void k(int* a)
{
    if (threadIdx.x == 0) {
        a[0] = 1;
    }
}
";
    let r = report(src);
    // (the access is rejected too: `i - i` cannot be solved for `i`)
    assert!(
        with(&r, Verdict::Violated).contains(&("split", 2)),
        "{r:#?}"
    );
    let ok = src.replace("a[i - i]", "a[i]");
    assert_eq!(report(&ok).verdict, Verdict::Verified);
}

#[test]
fn tree_reduction_verifies_with_permissions_per_step() {
    let src = include_str!("../../../../examples/perm/reduce_tree.cu");
    let r = report(src);
    assert_eq!(r.verdict, Verdict::Verified, "{r:#?}");
    // Without the barrier at the end of a step, the next step's shares are never handed out.
    let racy = src.replace(
        "        //@ barrier ensures tid < s / 2 ==> Perm(a[tid], 1) && Perm(a[tid + s / 2], read)\n        __syncthreads();\n",
        "",
    );
    assert_ne!(racy, src);
    let r = report(&racy);
    assert_eq!(r.verdict, Verdict::Violated, "{r:#?}");
    assert!(
        r.obligations.iter().any(|o| o.check == "invariant"
            && o.what.contains("after an iteration")
            && o.verdict == Verdict::Violated),
        "{r:#?}"
    );
}

#[test]
fn tree_reduction_with_the_current_steps_shares_is_rejected() {
    let r = report(include_str!(
        "../../../../examples/perm/reduce_tree_bad_barrier_spec.cu"
    ));
    assert_eq!(r.verdict, Verdict::Violated);
    assert!(
        with(&r, Verdict::Violated).contains(&("barrier", 21)),
        "{r:#?}"
    );
}

#[test]
fn the_kernel_postcondition_must_combine_from_the_threads_postconditions() {
    let src = include_str!("../../../../examples/perm/rotate.cu");
    let halves = src.replace(
        "//@ thread ensures Perm(a[tid], 1)",
        "//@ thread ensures Perm(a[tid], 1/2)",
    );
    assert_ne!(halves, src);
    let r = report(&halves);
    assert_eq!(r.verdict, Verdict::Violated, "{r:#?}");
    assert!(
        with(&r, Verdict::Violated).contains(&("split", 6)),
        "{r:#?}"
    );
}

const SHIFT_ADD: &str = include_str!("../../../../examples/perm/shift_add.cu");

#[test]
fn facts_given_up_at_a_barrier_establish_what_the_neighbour_is_told() {
    let r = report(SHIFT_ADD);
    assert_eq!(r.verdict, Verdict::Verified, "{r:#?}");
    assert!(r.obligations.iter().any(|o| o.check == "barrier"
        && o.what.contains("establish `barrier ensures`")
        && o.verdict == Verdict::Verified));
}

#[test]
fn a_fact_given_up_that_is_false_is_rejected_at_the_barrier() {
    let r = report(include_str!(
        "../../../../examples/perm/shift_add_wrong_fact.cu"
    ));
    assert_eq!(r.verdict, Verdict::Violated);
    assert!(
        with(&r, Verdict::Violated).contains(&("barrier", 18)),
        "{r:#?}"
    );
}

#[test]
fn a_fact_received_that_nobody_gave_is_rejected() {
    let src = SHIFT_ADD.replace(" && a[tid] == old(a[tid]) + 1\n", "\n");
    assert_ne!(src, SHIFT_ADD);
    let r = report(&src);
    assert_eq!(r.verdict, Verdict::Violated, "{r:#?}");
    assert!(r.obligations.iter().any(|o| o.check == "barrier"
        && o.what.contains("establish `barrier ensures`")
        && o.verdict == Verdict::Violated));
}

#[test]
fn a_permission_received_that_nobody_gave_up_is_rejected() {
    let src = SHIFT_ADD.replace(
        "barrier requires Perm(a[tid], 1) && Perm(b[tid], 1) &&",
        "barrier requires Perm(a[tid], 1) &&",
    );
    assert_ne!(src, SHIFT_ADD);
    let r = report(&src);
    assert_eq!(r.verdict, Verdict::Violated, "{r:#?}");
    let bad: Vec<&str> = r
        .obligations
        .iter()
        .filter(|o| o.verdict == Verdict::Violated)
        .map(|o| o.what.as_str())
        .collect();
    assert_eq!(
        bad,
        vec!["`barrier ensures Perm(b[tid], 1)` given up by some thread"],
        "{r:#?}"
    );
}

const FACTS_AT_LAUNCH: &str = "//@ requires n == blockDim.x
//@ kernel requires Perm(a[0..n], 1) && forall i in 0..n: old(a[i]) > 0
//@ thread requires Perm(a[tid], 1) && a[tid] > 0
//@ thread ensures Perm(a[tid], 1) && a[tid] > 1
__global__ void inc(int* a, int n)
{
    a[threadIdx.x] = a[threadIdx.x] + 1;
}
";

#[test]
fn thread_precondition_facts_follow_from_the_kernels_and_are_assumed() {
    let r = report(FACTS_AT_LAUNCH);
    assert_eq!(r.verdict, Verdict::Verified, "{r:#?}");
    let weak = report(&FACTS_AT_LAUNCH.replace("old(a[i]) > 0", "old(a[i]) >= 0"));
    assert_eq!(
        with(&weak, Verdict::Violated),
        vec![("split", 3)],
        "{weak:#?}"
    );
    let unowned = report(&FACTS_AT_LAUNCH.replace("a[tid] > 0", "a[tid] > 0 && a[0] > 0"));
    assert!(
        with(&unowned, Verdict::Violated).contains(&("split", 3)),
        "{unowned:#?}"
    );
}

#[test]
fn a_loop_under_a_branch_changes_nothing_for_threads_that_skip_it() {
    let src = "//@ kernel requires Perm(a[0..blockDim.x], 1)
//@ thread requires Perm(a[tid], 1)
__global__ void k(int* a)
{
    int i = threadIdx.x;
    if (threadIdx.x == 0) {
        //@ invariant i >= 0
        while (i < 10) {
            i = i + 1;
        }
    }
    a[i] = 1;
}
";
    // Thread 0 leaves the loop with i >= 10 and writes a cell it does not hold; every other
    // thread writes its own cell.
    let r = report(src);
    assert_eq!(with(&r, Verdict::Violated), vec![("access", 12)], "{r:#?}");
    let fixed = report(&src.replace("    a[i] = 1;\n", "    a[threadIdx.x] = i;\n"));
    assert_eq!(fixed.verdict, Verdict::Verified, "{fixed:#?}");
}

#[test]
fn loads_in_conditional_operands_happen_only_when_selected() {
    let src = include_str!("../../../../examples/perm/kogge_stone.cu");
    let ternary = src.replace(
        "        int v = 0;\n        if (tid >= offset) {\n            v = a[tid - offset];\n        }\n",
        "        int v = tid >= offset ? a[tid - offset] : 0;\n",
    );
    assert_ne!(ternary, src);
    assert_eq!(report(&ternary).verdict, Verdict::Verified);
    let short = src.replace(
        "        int v = 0;\n        if (tid >= offset) {\n            v = a[tid - offset];\n        }\n",
        "        int v = (tid >= offset && a[tid - offset] > 0) ? 1 : 0;\n",
    );
    assert_eq!(report(&short).verdict, Verdict::Verified);
    let eager = src.replace(
        "        int v = 0;\n        if (tid >= offset) {\n            v = a[tid - offset];\n        }\n",
        "        int v = (a[tid - offset] > 0 && tid >= offset) ? 1 : 0;\n",
    );
    assert_eq!(report(&eager).verdict, Verdict::Violated);
}

#[test]
fn every_violated_obligation_names_threads_and_launch() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/perm");
    let mut violated = 0;
    for entry in std::fs::read_dir(dir).expect("examples/perm") {
        let path = entry.expect("entry").path();
        let src = std::fs::read_to_string(&path).expect("readable");
        for o in report(&src).obligations {
            if o.verdict == Verdict::Violated {
                violated += 1;
                let c = o.counterexample.as_deref().unwrap_or_default();
                assert!(c.contains("blockDim.x = "), "{}: {o:?}", path.display());
            } else {
                assert!(o.counterexample.is_none(), "{}: {o:?}", path.display());
            }
        }
    }
    assert!(violated >= 10);
}

#[test]
fn the_counterexample_of_a_divergent_loop_names_two_threads_that_disagree() {
    let r = report(include_str!(
        "../../../../examples/perm/kogge_stone_divergent_loop.cu"
    ));
    let o = r
        .obligations
        .iter()
        .find(|o| o.verdict == Verdict::Violated)
        .expect("violated");
    let c = o.counterexample.as_deref().expect("counterexample");
    let value = |name: &str| -> i64 {
        let at = c.find(&format!("{name} = ")).expect(name) + name.len() + 3;
        c[at..]
            .split(',')
            .next()
            .and_then(|v| v.trim().parse().ok())
            .expect("number")
    };
    let (t1, t2, offset) = (value("t1"), value("t2"), value("offset"));
    // `offset <= tid` holds in one thread and not in the other.
    assert_ne!(offset <= t1, offset <= t2, "{c}");
}

#[test]
fn the_double_buffered_kogge_stone_verifies_and_without_the_swap_it_does_not() {
    let src = include_str!("../../../../examples/perm/kogge_stone_double_buffer.cu");
    let r = report(src);
    assert_eq!(r.verdict, Verdict::Verified, "{r:#?}");
    // Without swapping the rows, each step writes the row every thread is reading.
    let no_swap = src.replace("        pout = 1 - pout;\n        pin = 1 - pout;\n", "");
    assert_ne!(no_swap, src);
    let r = report(&no_swap);
    assert_eq!(r.verdict, Verdict::Violated, "{r:#?}");
    assert!(
        r.obligations
            .iter()
            .any(|o| o.check == "access" && o.verdict == Verdict::Violated),
        "{r:#?}"
    );
    // Without the overflow precondition, the global index may wrap and leave the segment.
    let wraps = src.replace(
        "//@ requires (unsigned long long)blockDim.x * gridDim.x <= 2147483647\n",
        "",
    );
    assert_ne!(wraps, src);
    assert_eq!(report(&wraps).verdict, Verdict::Violated);
}

const NESTED: &str = "//@ requires n == blockDim.x
//@ kernel requires Perm(a[0..n], 1)
//@ thread requires Perm(a[tid], 1)
//@ thread ensures Perm(a[tid], 1)
__global__ void twice(int* a, int n, int rounds)
{
    int tid = threadIdx.x;
    //@ invariant Perm(a[tid], 1)
    for (int r = 0; r < rounds; r++) {
        //@ invariant offset >= 1 && Perm(a[tid], 1)
        for (int offset = 1; offset < n; offset *= 2) {
            //@ barrier ensures Perm(a[tid], read) && (tid >= offset ==> Perm(a[tid - offset], read))
            __syncthreads();
            int v = 0;
            if (tid >= offset) {
                v = a[tid - offset];
            }
            //@ barrier ensures Perm(a[tid], 1)
            __syncthreads();
            a[tid] = a[tid] + v;
        }
    }
}
";

#[test]
fn nested_barrier_loops_verify_and_a_thread_dependent_outer_bound_diverges() {
    let r = report(NESTED);
    assert_eq!(r.verdict, Verdict::Verified, "{r:#?}");
    let r = report(&NESTED.replace("r < rounds", "r < tid"));
    assert_eq!(with(&r, Verdict::Violated), vec![("uniform", 9)], "{r:#?}");
}

const EARLY_EXIT: &str = "//@ kernel requires Perm(a[0..blockDim.x], 1)
//@ thread requires Perm(a[tid], 1)
//@ thread ensures Perm(a[tid], 1) && (tid < n ==> a[tid] == 1)
__global__ void k(int* a, int n)
{
    if (threadIdx.x >= n) {
        return;
    }
    a[threadIdx.x] = 1;
}
";

#[test]
fn an_early_return_ends_the_thread_with_its_postcondition() {
    let r = report(EARLY_EXIT);
    assert_eq!(r.verdict, Verdict::Verified, "{r:#?}");
    // The postcondition is checked where the returning threads end, too.
    let strict = report(&EARLY_EXIT.replace("(tid < n ==> a[tid] == 1)", "a[tid] == 1"));
    assert_eq!(strict.verdict, Verdict::Violated, "{strict:#?}");
    assert!(with(&strict, Verdict::Violated).contains(&("functional", 3)));
}

#[test]
fn a_barrier_after_an_early_return_diverges_unless_the_return_is_uniform() {
    let racy = EARLY_EXIT.replace(
        "    a[threadIdx.x] = 1;\n",
        "    //@ barrier ensures Perm(a[tid], 1)\n    __syncthreads();\n    a[threadIdx.x] = 1;\n",
    );
    let r = report(&racy);
    assert!(
        with(&r, Verdict::Violated).contains(&("uniform", 10)),
        "{r:#?}"
    );
    let uniform = racy.replace("threadIdx.x >= n", "n <= 0");
    let r = report(&uniform);
    assert_eq!(with(&r, Verdict::Violated), vec![], "{r:#?}");
    assert!(r
        .obligations
        .iter()
        .any(|o| o.check == "uniform" && o.line == 10 && o.verdict == Verdict::Verified));
}

const ONE_ARMED_BARRIER: &str = "//@ requires n == blockDim.x
//@ kernel requires Perm(a[0..n], 1)
//@ thread requires Perm(a[tid], 1)
__global__ void k(int* a, int n, int m)
{
    int tid = threadIdx.x;
    if (m > 0) {
        //@ barrier ensures Perm(a[(tid + 1) % n], 1)
        __syncthreads();
    }
    a[tid] = 1;
}
";

#[test]
fn a_barrier_in_one_arm_leaves_that_arm_with_its_own_permissions() {
    // When `m > 0` every thread ends up holding its right neighbour's cell, not its own.
    let r = report(ONE_ARMED_BARRIER);
    assert_eq!(with(&r, Verdict::Violated), vec![("access", 11)], "{r:#?}");
    // Writing the cell each arm holds verifies.
    let fixed = report(&ONE_ARMED_BARRIER.replace(
        "    a[tid] = 1;\n",
        "    if (m > 0) {\n        a[(tid + 1) % n] = 1;\n    } else {\n        a[tid] = 1;\n    }\n",
    ));
    assert_eq!(fixed.verdict, Verdict::Verified, "{fixed:#?}");
}

const DATA_DEPENDENT_EXIT: &str = "//@ requires n == blockDim.x
//@ kernel requires Perm(a[0..n], 1)
//@ thread requires Perm(a[tid], 1)
//@ thread ensures Perm(a[tid], 1)
__global__ void k(int* a, int n)
{
    int tid = threadIdx.x;
    int s = 0;
    //@ invariant Perm(a[tid], 1)
    for (int i = 0; i < n; i++) {
        s = s + a[tid];
        //@ barrier ensures Perm(a[tid], 1)
        __syncthreads();
        if (s > 5) { i = n; }
    }
}
";

#[test]
fn a_loop_variable_set_from_data_makes_a_barrier_loop_divergent() {
    let r = report(DATA_DEPENDENT_EXIT);
    assert_eq!(with(&r, Verdict::Violated), vec![("uniform", 10)], "{r:#?}");
    let without = report(&DATA_DEPENDENT_EXIT.replace("        if (s > 5) { i = n; }\n", ""));
    assert_eq!(without.verdict, Verdict::Verified, "{without:#?}");
}
