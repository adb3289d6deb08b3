//! C++ member functions and the warp match/reduce intrinsics through the clang frontend,
//! run in the interpreter and checked against values computed here in Rust: methods that
//! change their object (on locals, array elements, through pointers and references, on
//! `this`), constructors, operators of a vector type, a functor passed to a template, a
//! lambda, an early `return`; `__match_any_sync`, `__match_all_sync` and every
//! `__reduce_*_sync` over the full warp and over half of it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh directory for one test's files.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warpsafe-methods-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn write_words(dir: &Path, name: &str, words: &[u32]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|v| v.to_le_bytes()).collect();
    let p = dir.join(format!("{name}.bin"));
    std::fs::write(&p, bytes).expect("input written");
    format!("{name}={}", p.display())
}

fn read_words(dir: &Path, name: &str) -> Vec<u32> {
    let bytes = std::fs::read(dir.join(format!("{name}.bin"))).expect("output written");
    bytes
        .chunks(4)
        .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
        .collect()
}

/// Runs `kernel` (a `.cu` source) with `bufs` (`name=file` or `name=zeros:N`); the folder
/// the outputs are in.
fn run(d: &Path, kernel: &str, bufs: &[String]) -> PathBuf {
    let file = d.join("k.cu");
    std::fs::write(&file, kernel).expect("kernel written");
    let out = d.join("out");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warpsafe"));
    cmd.args(["run", "--frontend", "clang"]).arg(&file);
    for b in bufs {
        cmd.arg("--buf").arg(b);
    }
    let r = cmd.arg("--out").arg(&out).output().expect("runs");
    assert!(
        r.status.success(),
        "{}{}",
        String::from_utf8_lossy(&r.stdout),
        String::from_utf8_lossy(&r.stderr)
    );
    out
}

fn xorshift(seed: u64, n: usize) -> Vec<u32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 20) as u32
        })
        .collect()
}

const METHODS: &str = r#"//--blockDim=64 --gridDim=2
//@ len(x) = 128
//@ len(cells) = 128
#include <cuda_runtime.h>
struct Acc {
    int s;
    int n = 0;
    __device__ void add(int v) { s += v; n++; }
    __device__ int get() const { return s * 10 + n; }
    __device__ Acc& operator+=(int v) { this->add(v); return *this; }
};
struct Cell { int a, b; __device__ void bump(int k) { a += k; b = a * 2; } };
struct Vec2 {
    int x, y;
    __device__ Vec2(int a, int b) : x(a), y(b) {}
    __device__ Vec2 operator+(const Vec2& o) const { return Vec2(x + o.x, y + o.y); }
    __device__ Vec2 operator*(int k) const { return Vec2(x * k, y * k); }
    __device__ int dot(const Vec2& o) const { return x * o.x + y * o.y; }
};
struct Clamp {
    int lo, hi;
    __device__ int operator()(int v) const {
        if (v < lo) return lo;
        if (v > hi) return hi;
        return v;
    }
};
template <typename F> __device__ int apply_twice(F f, int v) { return f(f(v) + 1); }
__device__ void twice(Acc& a, int v) { a.add(v); a.add(v); }

__global__ void methods(const int* x, int* out, Cell* cells) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    Acc a{x[i]};
    a.add(3);
    a += 4;
    twice(a, 1);
    Cell* c = cells;
    c[i].bump(x[i]);
    (&c[i])->bump(1);
    Vec2 p(x[i], 2);
    Vec2 q = p + Vec2(1, 1) * 3;
    Clamp clamp{0, 50};
    const int qy = q.y;
    auto shift = [=] __device__ (int v) { return v - qy; };
    out[i * 4 + 0] = a.get();
    out[i * 4 + 1] = q.dot(p);
    out[i * 4 + 2] = apply_twice(clamp, x[i] - 20);
    out[i * 4 + 3] = shift(a.s);
}
"#;

#[test]
fn member_functions_compute_what_cpp_says() {
    let d = dir("methods");
    let x: Vec<u32> = xorshift(7, 128).iter().map(|v| v % 100).collect();
    let cells: Vec<u32> = xorshift(11, 256).iter().map(|v| v % 1000).collect();
    let out = run(
        &d,
        METHODS,
        &[
            write_words(&d, "x", &x),
            write_words(&d, "cells", &cells),
            "out=zeros:512".into(),
        ],
    );
    let got = read_words(&out, "out");
    let got_cells = read_words(&out, "cells");
    for i in 0..128 {
        let xi = x[i] as i32;
        // Acc: s = x + 3 + 4 + 1 + 1, n = 4 (n++ in each add).
        let s = xi + 9;
        assert_eq!(got[i * 4] as i32, s * 10 + 4, "a.get() of thread {i}");
        // q = (x + 3, 5), p = (x, 2).
        assert_eq!(got[i * 4 + 1] as i32, (xi + 3) * xi + 10, "q.dot(p) of {i}");
        let clamp = |v: i32| v.clamp(0, 50);
        assert_eq!(
            got[i * 4 + 2] as i32,
            clamp(clamp(xi - 20) + 1),
            "apply_twice of {i}"
        );
        assert_eq!(got[i * 4 + 3] as i32, s - 5, "lambda of {i}");
        // bump(x) then bump(1) through a pointer.
        let a = cells[2 * i] as i32 + xi + 1;
        assert_eq!(got_cells[2 * i] as i32, a, "cell {i}.a");
        assert_eq!(got_cells[2 * i + 1] as i32, a * 2, "cell {i}.b");
    }
}

const WARP: &str = r#"//--blockDim=64 --gridDim=1
//@ len(key) = 64
//@ len(val) = 64
#include <cuda_runtime.h>
__global__ void warp_ops(const unsigned* key, const int* val, unsigned* any, unsigned* all,
                         int* pred, int* add, int* mn, int* mx, unsigned* an, unsigned* orr,
                         unsigned* xr, unsigned* half) {
    const unsigned t = threadIdx.x;
    const unsigned lane = t % 32;
    int p = -1;
    any[t] = __match_any_sync(0xffffffffu, key[t]);
    all[t] = __match_all_sync(0xffffffffu, key[t] / 64u, &p);
    pred[t] = p;
    add[t] = __reduce_add_sync(0xffffffffu, val[t]);
    mn[t] = __reduce_min_sync(0xffffffffu, val[t]);
    mx[t] = __reduce_max_sync(0xffffffffu, val[t]);
    an[t] = __reduce_and_sync(0xffffffffu, key[t]);
    orr[t] = __reduce_or_sync(0xffffffffu, key[t]);
    xr[t] = __reduce_xor_sync(0xffffffffu, key[t]);
    if (lane < 16) {
        unsigned m = __match_any_sync(0x0000ffffu, key[t] % 3u);
        half[t] = m + (unsigned)__reduce_add_sync(0x0000ffffu, (unsigned)val[t]);
    } else {
        half[t] = 7u;
    }
}
"#;

#[test]
fn warp_match_and_reduce_are_exact() {
    let d = dir("warp");
    let key: Vec<u32> = xorshift(3, 64).iter().map(|v| v % 6).collect();
    let val: Vec<u32> = xorshift(5, 64)
        .iter()
        .map(|v| (*v as i32 % 2000 - 1000) as u32)
        .collect();
    let mut bufs = vec![write_words(&d, "key", &key), write_words(&d, "val", &val)];
    for b in [
        "any", "all", "pred", "add", "mn", "mx", "an", "orr", "xr", "half",
    ] {
        bufs.push(format!("{b}=zeros:64"));
    }
    let out = run(&d, WARP, &bufs);
    let w = |n: &str| read_words(&out, n);
    let (any, all, pred) = (w("any"), w("all"), w("pred"));
    let (add, mn, mx) = (w("add"), w("mn"), w("mx"));
    let (an, orr, xr, half) = (w("an"), w("orr"), w("xr"), w("half"));
    for t in 0..64 {
        let warp = (t / 32) * 32..(t / 32) * 32 + 32;
        let lanes_where = |f: &dyn Fn(usize) -> bool| -> u32 {
            warp.clone()
                .filter(|&u| f(u))
                .fold(0u32, |m, u| m | 1 << (u % 32))
        };
        assert_eq!(any[t], lanes_where(&|u| key[u] == key[t]), "match_any {t}");
        // key / 64 is 0 everywhere: every lane matches.
        assert_eq!(all[t], 0xffff_ffff, "match_all {t}");
        assert_eq!(pred[t], 1, "match_all pred {t}");
        let vals: Vec<i32> = warp.clone().map(|u| val[u] as i32).collect();
        let keys: Vec<u32> = warp.clone().map(|u| key[u]).collect();
        assert_eq!(add[t] as i32, vals.iter().sum::<i32>(), "reduce_add {t}");
        assert_eq!(mn[t] as i32, *vals.iter().min().expect("lanes"), "min {t}");
        assert_eq!(mx[t] as i32, *vals.iter().max().expect("lanes"), "max {t}");
        assert_eq!(an[t], keys.iter().fold(!0, |a, k| a & k), "and {t}");
        assert_eq!(orr[t], keys.iter().fold(0, |a, k| a | k), "or {t}");
        assert_eq!(xr[t], keys.iter().fold(0, |a, k| a ^ k), "xor {t}");
        if t % 32 < 16 {
            let low = (t / 32) * 32..(t / 32) * 32 + 16;
            let m = low
                .clone()
                .filter(|&u| key[u] % 3 == key[t] % 3)
                .fold(0u32, |m, u| m | 1 << (u % 32));
            let s = low.fold(0u32, |a, u| a.wrapping_add(val[u]));
            assert_eq!(half[t], m.wrapping_add(s), "half-warp {t}");
        } else {
            assert_eq!(half[t], 7, "idle lane {t}");
        }
    }
}

#[test]
fn match_all_reports_disagreement() {
    let d = dir("matchall");
    let kernel = r#"//--blockDim=32 --gridDim=1
//@ len(key) = 32
__global__ void m(const unsigned* key, unsigned* all, int* pred) {
    int p = 5;
    all[threadIdx.x] = __match_all_sync(0xffffffffu, key[threadIdx.x], &p);
    pred[threadIdx.x] = p;
}
"#;
    let mut key = vec![9u32; 32];
    key[17] = 4;
    let out = run(
        &d,
        kernel,
        &[
            write_words(&d, "key", &key),
            "all=zeros:32".into(),
            "pred=zeros:32".into(),
        ],
    );
    assert!(read_words(&out, "all").iter().all(|&m| m == 0));
    assert!(read_words(&out, "pred").iter().all(|&p| p == 0));
}
