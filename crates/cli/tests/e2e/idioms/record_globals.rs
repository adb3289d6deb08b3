//! `__constant__` and `__device__` globals of record type, read through clang: a record
//! (`__constant__ Params c_params;`), an array of a vector type read in a helper
//! (`__constant__ float4 atoms[64];`), an array of structs read and written per thread
//! (`__device__ Body bodies[256];`), a two-dimensional array of structs. Each is a buffer of
//! the kernels using it, as if they were given a pointer to its records. Each correct kernel
//! has a buggy twin; verdicts are stated in the corpus format (`corpus/mod.rs`) and checked
//! by `warpsafe verify --frontend clang`. A record global we cannot model is rejected where
//! it is used, naming it and why; `run` executes a kernel updating a `__device__` array of
//! structs.

use super::common::*;

/// (file name, source) of every kernel.
const KERNELS: &[(&str, &str)] = &[
    // One `__constant__` record: its count, clamped to the table's extent, bounds a loop
    // over a constant table; the twin reads `c_params.n + 1` entries, one past the end.
    (
        "constant_params.cu",
        r#"//--blockDim=64 --gridDim=4
// verify: race=verified bounds=verified
struct Params { int n; float alpha; float2 scale; };
__constant__ Params c_params;
__constant__ float weights[8];
__global__ void scale(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int n = min(c_params.n, 8);
  float s = 0.0f;
  for (int j = 0; j < n; j++) s += weights[j];
  out[i] = s * c_params.alpha + c_params.scale.y;
}
"#,
    ),
    (
        "constant_params_bug_past_the_end.cu",
        r#"//--blockDim=64 --gridDim=4
// verify: race=verified bounds=violated
struct Params { int n; float alpha; float2 scale; };
__constant__ Params c_params;
__constant__ float weights[8];
__global__ void scale(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int n = min(c_params.n + 1, 8 + 1);
  float s = 0.0f;
  for (int j = 0; j < n; j++) s += weights[j];
  out[i] = s * c_params.alpha + c_params.scale.y;
}
"#,
    ),
    // n-body: each thread is one of 64 atoms and sums the pull of all of them, read in a
    // helper from a `__constant__` array of `float4`.
    (
        "constant_atoms.cu",
        r#"//--blockDim=64 --gridDim=1
// verify: race=verified bounds=verified
#define NATOMS 64
__constant__ float4 atoms[NATOMS];
__device__ float pull(float4 me, int j) {
  float dx = atoms[j].x - me.x, dy = atoms[j].y - me.y, dz = atoms[j].z - me.z;
  return atoms[j].w * rsqrtf(dx * dx + dy * dy + dz * dz + 0.01f);
}
__global__ void energy(float *out) {
  float4 me = atoms[threadIdx.x];
  float e = 0.0f;
  for (int j = 0; j < NATOMS; j++) e += pull(me, j);
  out[threadIdx.x] = e;
}
"#,
    ),
    (
        "constant_atoms_bug_more_threads_than_atoms.cu",
        r#"//--blockDim=128 --gridDim=1
// verify: race=verified bounds=violated
#define NATOMS 64
__constant__ float4 atoms[NATOMS];
__device__ float pull(float4 me, int j) {
  float dx = atoms[j].x - me.x, dy = atoms[j].y - me.y, dz = atoms[j].z - me.z;
  return atoms[j].w * rsqrtf(dx * dx + dy * dy + dz * dz + 0.01f);
}
__global__ void energy(float *out) {
  float4 me = atoms[threadIdx.x];
  float e = 0.0f;
  for (int j = 0; j < NATOMS; j++) e += pull(me, j);
  out[threadIdx.x] = e;
}
"#,
    ),
    // A `__device__` array of structs (float and int leaves), each thread updating its body.
    (
        "device_bodies.cu",
        r#"//--blockDim=64 --gridDim=4
// verify: race=verified bounds=verified
struct Body { float3 pos; float3 vel; float mass; int id; };
__device__ Body bodies[256];
__global__ void step(float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bodies[i].pos.x += bodies[i].vel.x * dt;
  bodies[i].pos.y = 1.0f;
  bodies[i].id = i;
}
"#,
    ),
    (
        "device_bodies_bug_two_threads_one_body.cu",
        r#"//--blockDim=64 --gridDim=4
// verify: race=violated bounds=verified
struct Body { float3 pos; float3 vel; float mass; int id; };
__device__ Body bodies[256];
__global__ void step(float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bodies[i / 2].pos.x += bodies[i / 2].vel.x * dt;
  bodies[i / 2].id = i;
}
"#,
    ),
    // A whole `__device__` record copied, passed by value and by address to helpers.
    (
        "device_record_copies.cu",
        r#"//--blockDim=32 --gridDim=2
// verify: race=verified bounds=verified
struct Acc { float sum; int count; };
__device__ Acc totals[64];
__device__ float mean(Acc a) { return a.count > 0 ? a.sum / a.count : 0.0f; }
__device__ void add(Acc *a, float v) { a->sum += v; a->count += 1; }
__global__ void update(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Acc before = totals[i];
  add(&totals[i], 1.0f);
  out[i] = mean(before);
}
"#,
    ),
    (
        "device_record_copies_bug_neighbour.cu",
        r#"//--blockDim=32 --gridDim=2
// verify: race=violated
struct Acc { float sum; int count; };
__device__ Acc totals[64];
__device__ float mean(Acc a) { return a.count > 0 ? a.sum / a.count : 0.0f; }
__device__ void add(Acc *a, float v) { a->sum += v; a->count += 1; }
__global__ void update(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Acc before = totals[(i + 1) % 64];
  add(&totals[i], 1.0f);
  out[i] = mean(before);
}
"#,
    ),
    // A two-dimensional `__device__` array of structs lies flat, row-major: rows 1 and 2
    // are different records; a 3-D `__constant__` array of `float4` read beside it.
    (
        "device_grid_rows.cu",
        r#"//--blockDim=16 --gridDim=1
// verify: race=verified bounds=verified
struct Cell { float v; int tag; };
__device__ Cell grid[4][8];
__constant__ float4 cube[2][3][4];
__global__ void rows(float *out) {
  unsigned t = threadIdx.x;
  if (t < 8) {
    grid[1][t].tag = 3;
    out[t] = grid[2][t].v + cube[1][2][t % 4].w;
  }
}
"#,
    ),
    (
        "device_grid_rows_bug_past_the_last_row.cu",
        r#"//--blockDim=16 --gridDim=1
// verify: race=verified bounds=violated
struct Cell { float v; int tag; };
__device__ Cell grid[4][8];
__constant__ float4 cube[2][3][4];
__global__ void rows(float *out) {
  unsigned t = threadIdx.x;
  if (t < 8) grid[1][t].tag = 3;
  out[t] = grid[3][t].v + cube[1][2][t % 4].w;
}
"#,
    ),
];

#[test]
fn record_globals_get_their_expected_verdicts() {
    check_all("record_globals", KERNELS);
}

/// A `__constant__` record is read-only: a write to it is a bounds finding where it is
/// reached (a write through a pointer to const is rejected instead: the C++ forbids it).
#[test]
fn writing_a_constant_record_is_a_bounds_finding() {
    let d = dir("const");
    let f = d.join("write_constant.cu");
    std::fs::write(
        &f,
        "//--blockDim=32 --gridDim=1\nstruct Params { int n; float alpha; };\n\
         __constant__ Params c_params;\n\
         __global__ void set() { if (threadIdx.x == 5) c_params.alpha = 2.0f; }\n",
    )
    .expect("write kernel");
    let o = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(["verify", "--frontend", "clang", "--property", "bounds"])
        .arg(&f)
        .output()
        .expect("warpsafe runs");
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    let _ = std::fs::remove_dir_all(&d);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("write to read-only memory"), "{text}");
    assert!(text.contains("thread [5, 0, 0]"), "{text}");
}

/// Record globals we do not model (a pointer field, a union, no extent) reject the
/// kernels using them at the reference, naming the global and why; the others are checked.
#[test]
fn unmodelled_record_globals_are_rejected_by_name() {
    let d = dir("unmodelled");
    let f = d.join("unmodelled.cu");
    std::fs::write(
        &f,
        r#"struct Span { float *data; int n; };
__constant__ Span c_span;
union Bits { int i; float f; };
__device__ Bits bits[4];
struct Cell { float v; int tag; };
extern __device__ Cell cells[];
__global__ void a(float *out) { out[threadIdx.x] = c_span.n; }
__global__ void b(float *out) { out[threadIdx.x] = bits[threadIdx.x % 4].f; }
__global__ void c(float *out) { out[threadIdx.x] = cells[threadIdx.x].v; }
__global__ void ok(float *out) { out[threadIdx.x] = 1.0f; }
"#,
    )
    .expect("write kernel");
    let o = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(["verify", "--frontend", "clang"])
        .arg(&f)
        .output()
        .expect("warpsafe runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&d);
    assert!(!text.contains("unknown identifier"), "{text}");
    for why in [
        "global `c_span` of type `Span`: its record `Span` cannot be laid out in memory (pointer field `data`",
        "global `bits` of type `Bits[4]`: the union `Bits` in it is not modelled",
        "global `cells` of type `Cell[]`: its extent is not a known constant",
    ] {
        assert!(text.contains(why), "missing `{why}`:\n{text}");
    }
    assert!(text.contains("kernel `ok`"), "{text}");
}

/// `run` executes the bodies kernel: each thread's body gets its id and `pos.y = 1`, and
/// `pos.x` moves by `vel.x · dt`.
#[test]
fn run_updates_a_device_array_of_structs() {
    let d = dir("run");
    let f = d.join("bodies.cu");
    let src = KERNELS
        .iter()
        .find(|(n, _)| *n == "device_bodies.cu")
        .map(|(_, s)| *s)
        .expect("kernel");
    std::fs::write(&f, src).expect("write kernel");
    let out = d.join("out");
    // A Body is 8 four-byte units: pos (3), vel (3), mass, id.
    let o = Command::new(env!("CARGO_BIN_EXE_warpsafe"))
        .args(["run", "--frontend", "clang"])
        .arg(&f)
        .args(["--block", "64", "--grid", "4", "--arg", "dt=0.5"])
        .args(["--buf", "bodies=zeros:2048"])
        .arg("--out")
        .arg(&out)
        .output()
        .expect("warpsafe runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success() && text.contains("no findings"), "{text}");
    let bytes = std::fs::read(out.join("bodies.bin")).expect("bodies written");
    let _ = std::fs::remove_dir_all(&d);
    let units: Vec<[u8; 4]> = bytes.chunks(4).map(|b| [b[0], b[1], b[2], b[3]]).collect();
    assert_eq!(units.len(), 2048, "{text}");
    for i in 0..256 {
        let body = &units[i * 8..i * 8 + 8];
        assert_eq!(f32::from_le_bytes(body[0]), 0.0, "pos.x of body {i}");
        assert_eq!(f32::from_le_bytes(body[1]), 1.0, "pos.y of body {i}");
        assert_eq!(i32::from_le_bytes(body[7]), i as i32, "id of body {i}");
    }
}
