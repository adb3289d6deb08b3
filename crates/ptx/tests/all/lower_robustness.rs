//! Malformed PTX that still parses lowers to an error or to a program that runs to a result
//! or an error: never a panic.

use warpsafe_exec::{Arg, Buffer, LaunchConfig, Options};
use warpsafe_ir::{ParamKind, Value};

const PTX: &str = include_str!("../data/reduce_warp_shuffle.ptx");

fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed | 1;
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    }
}

/// Lowers `text` when it parses and runs the result on a small launch.
fn lower_and_run(text: &str) -> bool {
    let Ok(m) = warpsafe_ptx::parse(text) else {
        return false;
    };
    let Ok(p) = warpsafe_ptx::lower(&m, None) else {
        return false;
    };
    let args = p
        .kernel()
        .params
        .iter()
        .map(|q| match q.kind {
            ParamKind::Buffer { elem, .. } => Arg::Buffer(Buffer::zeros(elem, 64)),
            ParamKind::Scalar(t) => Arg::Scalar(Value::from_bits(t, 40)),
        })
        .collect();
    let mut cfg = LaunchConfig::linear(2, 64);
    cfg.dynamic_shared_bytes = 256;
    let opts = Options {
        max_block_instructions: 200_000,
        parallel: false,
        ..Default::default()
    };
    let _ = warpsafe_exec::run_program(&p, &cfg, args, &opts);
    true
}

#[test]
fn fixture_lowers_and_runs() {
    assert!(lower_and_run(PTX));
}

#[test]
fn line_level_mutations_never_panic() {
    let lines: Vec<&str> = PTX.lines().collect();
    let tokens = [
        "%r1",
        "%rd1",
        "%f1",
        "%p1",
        "%tid.x",
        "0",
        "-1",
        "4",
        "[%rd1]",
        "[%r1+4]",
        ".u64",
        ".s32",
        ".f32",
        ".pred",
        "$L__BB0_2",
        "_",
        "{%f1, %f2}",
    ];
    let mut next = xorshift(0x7e57_10e4);
    let mut lowered = 0;
    for _ in 0..1500 {
        let mut ls: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        for _ in 0..1 + next() % 3 {
            let a = (next() % ls.len() as u64) as usize;
            let b = (next() % ls.len() as u64) as usize;
            match next() % 4 {
                0 => {
                    ls.remove(a);
                }
                1 => {
                    let l = ls[a].clone();
                    ls.insert(b, l);
                }
                2 => ls.swap(a, b),
                _ => {
                    let words: Vec<&str> = ls[a].split_whitespace().collect();
                    if words.len() > 1 {
                        let w = 1 + (next() % (words.len() as u64 - 1)) as usize;
                        let t = tokens[(next() % tokens.len() as u64) as usize];
                        let mut v: Vec<String> = words.iter().map(|s| s.to_string()).collect();
                        v[w] = if v[w].ends_with(';') {
                            format!("{t};")
                        } else if v[w].ends_with(',') {
                            format!("{t},")
                        } else {
                            t.to_string()
                        };
                        ls[a] = format!("\t{}", v.join(" "));
                    }
                }
            }
        }
        lowered += lower_and_run(&ls.join("\n")) as usize;
    }
    eprintln!("{lowered} of 1500 mutants lowered");
    assert!(lowered > 0, "no mutant lowered at all");
}
