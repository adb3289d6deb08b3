//! Forward `goto` as real kernels write it (leaving nested loops, skipping to the end of an
//! iteration, leaving a `switch`), run on the interpreter against the same algorithm in
//! Rust; and the jumps we do not read, each rejected at the `goto`.

use crate::common;

use warpsafe_clang_front::Compiled;
use warpsafe_exec::{Arg, Buffer};
use warpsafe_ir::Value;

fn clang(name: &str, source: &str) -> Compiled {
    common::clang_in("gotos", name, source)
}

/// 64 threads (2 blocks of 32), each over its own row of 8 values.
const THREADS: usize = 64;
const ROW: usize = 8;

fn rows() -> Vec<i32> {
    (0..THREADS * ROW)
        .map(|i| ((i * 37 + 11) % 23) as i32 - 5)
        .collect()
}

#[test]
fn a_goto_out_of_two_loops_skips_the_for_updates_and_the_statements_up_to_its_label() {
    // The first (i, j) with row[i*4 + j] < 0, as i*4 + j, or -1; `i` and `j` are read
    // after the jump, so running either update once more would show.
    let src = r#"
__global__ void first_negative(const int *a, int *out, int *where) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int *row = a + t * 8;
  int i, j;
  for (i = 0; i < 2; i++) {
    for (j = 0; j < 4; j++) {
      if (row[i * 4 + j] < 0)
        goto found;
    }
  }
  out[t] = -1;
  where[t] = -1;
  return;
found:
  out[t] = row[i * 4 + j];
  where[t] = i * 4 + j;
}
"#;
    let got = clang("first_negative.cu", src);
    let k = common::kernel(&got, "first_negative");
    let a = rows();
    let bufs = common::run_buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_i32(&a)),
            Arg::Buffer(Buffer::from_i32(&[0; THREADS])),
            Arg::Buffer(Buffer::from_i32(&[0; THREADS])),
        ],
    );
    let (out, at) = (bufs[1].to_i32(), bufs[2].to_i32());
    for t in 0..THREADS {
        let row = &a[t * ROW..(t + 1) * ROW];
        let want = row.iter().position(|&v| v < 0);
        assert_eq!(at[t], want.map_or(-1, |p| p as i32), "thread {t}");
        assert_eq!(out[t], want.map_or(-1, |p| row[p]), "thread {t}");
    }
}

#[test]
fn a_label_at_the_end_of_an_outer_loop_body_is_reached_again_in_the_next_iteration() {
    // Per row: skip the rest of the row at its first zero (`goto next_row`), summing the
    // values before it; the flag must be clear again for the next row.
    let src = r#"
__global__ void sums_to_zero(const int *a, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int total = 0;
  for (int r = 0; r < 4; r++) {
    int k = 0;
    while (k < 2) {
      if (a[t * 8 + r * 2 + k] == 0)
        goto next_row;
      total += a[t * 8 + r * 2 + k];
      k++;
    }
    total += 100;
  next_row:
    total += 1000;
  }
  out[t] = total;
}
"#;
    let got = clang("sums_to_zero.cu", src);
    let k = common::kernel(&got, "sums_to_zero");
    let a: Vec<i32> = (0..THREADS * ROW).map(|i| ((i * 7) % 5) as i32).collect();
    let bufs = common::run_buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_i32(&a)),
            Arg::Buffer(Buffer::from_i32(&[0; THREADS])),
        ],
    );
    let out = bufs[1].to_i32();
    for t in 0..THREADS {
        let mut total = 0;
        for r in 0..4 {
            let pair = &a[t * 8 + r * 2..t * 8 + r * 2 + 2];
            match pair.iter().position(|&v| v == 0) {
                Some(p) => total += pair[..p].iter().sum::<i32>(),
                None => total += pair.iter().sum::<i32>() + 100,
            }
            total += 1000;
        }
        assert_eq!(out[t], total, "thread {t}");
    }
}

#[test]
fn a_goto_out_of_a_switch_in_a_loop_and_a_declaration_after_a_goto_in_a_nested_block() {
    // A tiny byte-code interpreter per thread: op 0 stops (`goto halt`), 1 adds, 2 doubles.
    // `int v` after a `goto` keeps its scope for the statements after it, and the
    // `goto` in a `case` leaves the `switch` and the loop.
    let src = r#"
__global__ void interpret(const int *code, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int acc = 1;
  for (int pc = 0; pc < 8; pc++) {
    int op = code[t * 8 + pc] % 3;
    if (op == 0)
      goto halt;
    int v = code[t * 8 + pc];
    switch (op) {
    case 1:
      if (acc > 50)
        goto halt;
      acc += v;
      break;
    default:
      acc *= 2;
      break;
    }
  }
  acc = -acc;
halt:
  out[t] = acc;
}
"#;
    let got = clang("interpret.cu", src);
    let k = common::kernel(&got, "interpret");
    let code: Vec<i32> = (0..THREADS * ROW)
        .map(|i| ((i * 13 + i / 8) % 11) as i32)
        .collect();
    let bufs = common::run_buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_i32(&code)),
            Arg::Buffer(Buffer::from_i32(&[0; THREADS])),
        ],
    );
    let out = bufs[1].to_i32();
    for t in 0..THREADS {
        let mut acc = 1;
        let mut halted = false;
        for &c in &code[t * 8..t * 8 + 8] {
            match c % 3 {
                0 => halted = true,
                1 if acc > 50 => halted = true,
                1 => acc += c,
                _ => acc *= 2,
            }
            if halted {
                break;
            }
        }
        let want = if halted { acc } else { -acc };
        assert_eq!(out[t], want, "thread {t}");
    }
}

#[test]
fn a_helper_with_a_goto_inlined_twice_keeps_one_flag_per_call() {
    let src = r#"
__device__ int find(const int *row, int key) {
  int i;
  for (i = 0; i < 8; i++)
    if (row[i] == key)
      goto hit;
  return -1;
hit:
  return i;
}
__global__ void two_lookups(const int *a, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = find(a + t * 8, 3) * 100 + find(a + t * 8, 7);
}
"#;
    let got = clang("two_lookups.cu", src);
    let k = common::kernel(&got, "two_lookups");
    let a: Vec<i32> = (0..THREADS * ROW)
        .map(|i| ((i * 11 + 5) % 13) as i32)
        .collect();
    let bufs = common::run_buffers(
        k,
        vec![
            Arg::Buffer(Buffer::from_i32(&a)),
            Arg::Buffer(Buffer::from_i32(&[0; THREADS])),
        ],
    );
    let out = bufs[1].to_i32();
    let find = |row: &[i32], key: i32| row.iter().position(|&v| v == key).map_or(-1, |p| p as i32);
    for t in 0..THREADS {
        let row = &a[t * ROW..(t + 1) * ROW];
        assert_eq!(out[t], find(row, 3) * 100 + find(row, 7), "thread {t}");
    }
}

#[test]
fn a_label_no_goto_reaches_is_its_statement() {
    let src = r#"
__global__ void plain(int *out) {
  unused:
  out[blockIdx.x * blockDim.x + threadIdx.x] = 7;
}
"#;
    let got = clang("plain.cu", src);
    let k = common::kernel(&got, "plain");
    let bufs = common::run_buffers(k, vec![Arg::Buffer(Buffer::from_i32(&[0; THREADS]))]);
    assert_eq!(bufs[0].to_i32(), vec![7; THREADS]);
    assert_eq!(bufs[0].get(0), Value::I32(7));
}

#[test]
fn backward_gotos_jumps_into_blocks_and_computed_gotos_are_rejected_at_the_goto() {
    let src = r#"
__global__ void backward(int *a) {
  int i = 0;
again:
  a[i] = 0;
  if (++i < 4) goto again;
}
__global__ void into_block(int *a, int n) {
  if (n > 0) goto inside;
  while (n < 4) {
  inside:
    a[threadIdx.x] = n;
    n++;
  }
}
__global__ void computed(int *a, int n) {
  void *target = n > 0 ? &&pos : &&neg;
  goto *target;
pos:
  a[threadIdx.x] = 1;
neg:
  a[threadIdx.x] = 2;
}
__global__ void fine(int *a) { a[threadIdx.x] = 1; }
"#;
    let got = clang("rejected.cu", src);
    let (msg, at) = common::rejection(&got, src, "backward");
    assert!(msg.contains("backward `goto`"), "{msg}");
    assert!(at.starts_with("goto again"), "{at:?}");
    let (msg, at) = common::rejection(&got, src, "into_block");
    assert!(msg.contains("`goto` into a block"), "{msg}");
    assert!(at.starts_with("goto inside"), "{at:?}");
    let (msg, at) = common::rejection(&got, src, "computed");
    assert!(msg.contains("computed `goto *p`"), "{msg}");
    assert!(at.starts_with("goto *target"), "{at:?}");
    common::kernel(&got, "fine");
}
