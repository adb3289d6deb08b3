//! A deterministic, dependency-free mutation fuzzer for stable Rust: the bounded runs of the
//! parser targets that CI does on every test (`cargo test`), next to the libFuzzer targets of
//! `fuzz/fuzz_targets` that need nightly.
//!
//! A run starts from a seed corpus (files of the repository, named by the target) and, for a
//! fixed number of executions, applies stacked byte- and token-level mutations (splices,
//! deletions, duplications, dictionary tokens, huge numbers, deep nesting, truncation) to a
//! corpus entry and feeds the result to the target's entry function. An input whose outcome
//! (`ok`, or the error message with numbers and quoted names blanked) was never seen joins the
//! corpus, a poor man's coverage feedback. Every random choice comes from a seeded generator,
//! so a run is reproducible from its target name, `WARPSAFE_FUZZ_SEED` and
//! `WARPSAFE_FUZZ_EXECS`.
//!
//! A panic is caught, its input minimised (same panic location) and written to
//! `<target dir>/fuzz-failures/<name>/`, and the run fails listing every distinct panic. An
//! execution slower than `WARPSAFE_FUZZ_SLOW_MS` fails the run too. A stack overflow or an
//! allocation past `WARPSAFE_FUZZ_MEM_MB` aborts the process: the input in flight is always in
//! `<target dir>/fuzz-failures/<name>/in-flight`, and the fuzzing thread's name says so.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Once;
use std::time::{Duration, Instant};

/// The function a target fuzzes: parses (and lowers, where cheap) one input, returning the
/// error message of a rejected input; it panics only on a bug.
pub type Entry = fn(&str) -> Result<(), String>;

/// A target of the bounded fuzzer.
pub struct Target {
    /// Short name: seeds the generator and names the failure directory.
    pub name: &'static str,
    /// Seed files or directories, relative to the repository root.
    pub seeds: &'static [&'static str],
    /// File extensions of seed files found in directories (without the dot).
    pub extensions: &'static [&'static str],
    /// The libFuzzer dictionary of the target, relative to the repository root.
    pub dictionary: &'static str,
    /// Executions when `WARPSAFE_FUZZ_EXECS` is not set.
    pub execs: u64,
    /// What to run on each input.
    pub entry: Entry,
}

/// Stack of the fuzzing thread: the size of every spawned Rust thread (tests, rayon workers),
/// so an input that overflows here overflows there.
const STACK_BYTES: usize = 2 << 20;
const MAX_INPUT: usize = 256 << 10;
const MAX_CORPUS_INPUT: usize = 64 << 10;
const MAX_CORPUS: usize = 4096;
/// Corpus entries per message family: quoted input text the signature could not blank (a quote
/// inside a quote) must not fill the corpus with one kind of error.
const MAX_FAMILY: usize = 16;
const MAX_FAILURES: usize = 8;
const MINIMISE_TRIES: usize = 20_000;
/// The slowest input of a run is kept (in `slowest`) once it takes longer than this.
const SAVE_SLOWEST: Duration = Duration::from_millis(200);

/// Fuzzes `target` and panics with every distinct failure found (a panic of the entry or a slow
/// input), after writing each minimised input under the failure directory.
pub fn run(target: &Target) {
    let root = repo_root();
    let out_dir = failure_dir(target.name);
    let in_flight = out_dir.join("in-flight");
    let execs = env_u64("WARPSAFE_FUZZ_EXECS").unwrap_or(target.execs);
    let seed = env_u64("WARPSAFE_FUZZ_SEED").unwrap_or(0);
    let slow = Duration::from_millis(env_u64("WARPSAFE_FUZZ_SLOW_MS").unwrap_or(5_000));
    let mem_limit = env_u64("WARPSAFE_FUZZ_MEM_MB").unwrap_or(2048) << 20;
    let seeds = load_seeds(&root, target.seeds, target.extensions);
    assert!(
        !seeds.is_empty(),
        "fuzz {}: no seed files found under {:?}",
        target.name,
        target.seeds
    );
    let dict = load_dictionary(&root.join(target.dictionary));
    let entry = target.entry;
    let name = target.name;
    let thread_name = format!("fuzz {name}: input in flight at {}", in_flight.display());
    let handle = std::thread::Builder::new()
        .name(thread_name)
        .stack_size(STACK_BYTES)
        .spawn(move || {
            let mut fuzzer = Fuzzer {
                entry,
                rng: Rng::new(hash(name.as_bytes()) ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)),
                corpus: seeds,
                dict,
                outcomes: HashSet::new(),
                families: HashMap::new(),
                failures: Vec::new(),
                in_flight: File::create(&in_flight).ok(),
                out_dir,
                slow,
                mem_limit,
                slowest: (Duration::ZERO, 0),
            };
            fuzzer.fuzz(execs);
            fuzzer
        });
    let fuzzer = match handle.map(|h| h.join()) {
        Ok(Ok(f)) => f,
        Ok(Err(_)) => panic!("fuzz {name}: the driver itself panicked"),
        Err(e) => panic!("fuzz {name}: cannot start the fuzzing thread: {e}"),
    };
    let mut outcomes: Vec<&String> = fuzzer.outcomes.iter().collect();
    outcomes.sort();
    let listing: Vec<&str> = outcomes.iter().map(|s| s.as_str()).collect();
    let _ = std::fs::write(fuzzer.out_dir.join("outcomes"), listing.join("\n"));
    eprintln!(
        "fuzz {name}: {execs} executions, corpus {}, {} distinct outcomes, slowest {:?} (input of {} bytes)",
        fuzzer.corpus.len(),
        fuzzer.outcomes.len(),
        fuzzer.slowest.0,
        fuzzer.slowest.1
    );
    if !fuzzer.failures.is_empty() {
        let report: Vec<String> = fuzzer.failures.iter().map(Failure::describe).collect();
        panic!(
            "fuzz {name}: {} failure(s)\n\n{}",
            fuzzer.failures.len(),
            report.join("\n\n")
        );
    }
}

struct Failure {
    what: String,
    input: String,
    file: PathBuf,
}

impl Failure {
    fn describe(&self) -> String {
        let mut shown: String = self.input.chars().take(2000).collect();
        if shown.len() < self.input.len() {
            shown.push_str(" …");
        }
        format!(
            "{}\n  input ({} bytes, saved to {}):\n{:?}",
            self.what,
            self.input.len(),
            self.file.display(),
            shown
        )
    }
}

struct Fuzzer {
    entry: Entry,
    rng: Rng,
    corpus: Vec<String>,
    dict: Vec<String>,
    outcomes: HashSet<String>,
    /// Corpus entries per message family (the outcome up to its first quote).
    families: HashMap<String, usize>,
    failures: Vec<Failure>,
    /// Holds the input being run (rewritten in place: truncating to zero first costs a journal
    /// commit per execution on some file systems).
    in_flight: Option<File>,
    out_dir: PathBuf,
    slow: Duration,
    mem_limit: u64,
    slowest: (Duration, usize),
}

enum Run {
    Done(Result<(), String>, Duration),
    Panicked(String),
}

impl Fuzzer {
    fn fuzz(&mut self, execs: u64) {
        install_panic_hook();
        for i in 0..self.corpus.len() {
            let input = self.corpus[i].clone();
            self.exec(input, false);
        }
        for _ in 0..execs {
            if self.failures.len() >= MAX_FAILURES {
                break;
            }
            let input = self.mutant();
            self.exec(input, true);
        }
    }

    fn exec(&mut self, input: String, add_to_corpus: bool) {
        if let Some(mut f) = self.in_flight.as_ref() {
            let _ = f.seek(SeekFrom::Start(0));
            let _ = f.write_all(input.as_bytes());
            let _ = f.set_len(input.len() as u64);
        }
        match self.run_once(&input) {
            Run::Done(result, took) => {
                if took > self.slowest.0 {
                    self.slowest = (took, input.len());
                    if took > SAVE_SLOWEST {
                        let _ = std::fs::write(self.out_dir.join("slowest"), input.as_bytes());
                    }
                }
                if took > self.slow {
                    let what = format!("slow input: one execution took {took:?}");
                    self.record(what, input);
                    return;
                }
                let outcome = match &result {
                    Ok(()) => "ok".to_string(),
                    Err(message) => normalise(message),
                };
                let family = outcome
                    .split(['`', '"'])
                    .next()
                    .unwrap_or_default()
                    .to_string();
                if !self.outcomes.insert(outcome)
                    || !add_to_corpus
                    || input.len() > MAX_CORPUS_INPUT
                    || self.corpus.len() >= MAX_CORPUS
                {
                    return;
                }
                let members = self.families.entry(family).or_insert(0);
                if *members < MAX_FAMILY {
                    *members += 1;
                    self.corpus.push(input);
                }
            }
            Run::Panicked(what) => {
                if !self.failures.iter().any(|f| f.what == what) {
                    let input = self.minimise(input, &what);
                    self.record(what, input);
                }
            }
        }
    }

    fn run_once(&self, input: &str) -> Run {
        let entry = self.entry;
        QUIET.with(|q| q.set(true));
        start_counting(self.mem_limit);
        let start = Instant::now();
        let result = panic::catch_unwind(AssertUnwindSafe(|| entry(input)));
        let took = start.elapsed();
        stop_counting();
        QUIET.with(|q| q.set(false));
        match result {
            Ok(r) => Run::Done(r, took),
            Err(_) => Run::Panicked(
                LAST_PANIC
                    .with(|p| p.borrow_mut().take())
                    .unwrap_or_else(|| "panic without a message".into()),
            ),
        }
    }

    fn panics_with(&self, input: &str, what: &str) -> bool {
        matches!(self.run_once(input), Run::Panicked(w) if w == what)
    }

    /// Removes lines, then ever smaller chunks, while the same panic remains.
    fn minimise(&self, input: String, what: &str) -> String {
        let mut tries = 0;
        let mut cur = input;
        let lines: Vec<&str> = cur.split_inclusive('\n').collect();
        let mut lines: Vec<String> = lines.into_iter().map(str::to_string).collect();
        let mut i = 0;
        while i < lines.len() && tries < MINIMISE_TRIES {
            let cand: String = lines
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, l)| l.as_str())
                .collect();
            tries += 1;
            if self.panics_with(&cand, what) {
                lines.remove(i);
            } else {
                i += 1;
            }
        }
        cur = lines.concat();
        let mut chunk = cur.len().div_ceil(2).max(1);
        loop {
            let mut at = 0;
            while at < cur.len() && tries < MINIMISE_TRIES {
                let bytes = cur.as_bytes();
                let end = (at + chunk).min(bytes.len());
                let mut cand = bytes[..at].to_vec();
                cand.extend_from_slice(&bytes[end..]);
                let cand = String::from_utf8_lossy(&cand).into_owned();
                tries += 1;
                if cand.len() < cur.len() && self.panics_with(&cand, what) {
                    cur = cand;
                } else {
                    at += chunk;
                }
            }
            if chunk == 1 || tries >= MINIMISE_TRIES {
                return cur;
            }
            chunk = chunk.div_ceil(2);
        }
    }

    fn record(&mut self, what: String, input: String) {
        let file = self
            .out_dir
            .join(format!("failure-{:016x}", hash(input.as_bytes())));
        let _ = std::fs::write(&file, input.as_bytes());
        self.failures.push(Failure { what, input, file });
    }

    fn mutant(&mut self) -> String {
        let base = self.rng.below(self.corpus.len());
        let mut bytes = self.corpus[base].as_bytes().to_vec();
        let most = if self.rng.one_in(8) { 16 } else { 4 };
        let stack = 1 + self.rng.below(most);
        for _ in 0..stack {
            self.mutate(&mut bytes);
            if bytes.len() > MAX_INPUT {
                bytes.truncate(MAX_INPUT);
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }

    fn mutate(&mut self, b: &mut Vec<u8>) {
        let r = &mut self.rng;
        match r.below(18) {
            0 if !b.is_empty() => {
                let at = r.below(b.len());
                b[at] ^= 1 << r.below(8);
            }
            1 if !b.is_empty() => {
                let at = r.below(b.len());
                b[at] = *r.pick(INTERESTING_BYTES);
            }
            2 => {
                let at = r.upto(b.len());
                b.insert(at, *r.pick(INTERESTING_BYTES));
            }
            3 | 4 if !b.is_empty() => {
                let (lo, hi) = r.range(b.len());
                b.drain(lo..hi);
            }
            5 if !b.is_empty() => {
                let (lo, hi) = r.range(b.len());
                let chunk = b[lo..hi].to_vec();
                let at = r.upto(b.len());
                b.splice(at..at, chunk);
            }
            6 | 7 if !self.dict.is_empty() => {
                let word = self.dict[r.below(self.dict.len())].clone();
                let at = r.upto(b.len());
                let mut w = Vec::new();
                if r.one_in(2) {
                    w.push(b' ');
                }
                w.extend_from_slice(word.as_bytes());
                if r.one_in(2) {
                    w.push(b' ');
                }
                b.splice(at..at, w);
            }
            8 if !self.dict.is_empty() => {
                let word = self.dict[r.below(self.dict.len())].clone();
                let (lo, hi) = word_at(b, r.upto(b.len()));
                b.splice(lo..hi, word.bytes());
            }
            9 => {
                let other = self.corpus[r.below(self.corpus.len())].as_bytes();
                let (lo, hi) = r.range(other.len());
                let at = r.upto(b.len());
                let chunk = other[lo..hi].to_vec();
                if r.one_in(2) {
                    b.splice(at..at, chunk);
                } else {
                    b.truncate(at);
                    b.extend_from_slice(&other[lo..]);
                }
            }
            10 => {
                let other = self.corpus[r.below(self.corpus.len())].clone();
                let lines: Vec<&str> = other.split_inclusive('\n').collect();
                if !lines.is_empty() {
                    let line = lines[r.below(lines.len())];
                    let at = line_start(b, r.upto(b.len()));
                    b.splice(at..at, line.bytes());
                }
            }
            11 => {
                let number = *r.pick(HUGE_NUMBERS);
                let at = r.upto(b.len());
                match b[at..].iter().position(u8::is_ascii_digit) {
                    Some(p) if r.one_in(2) => {
                        let lo = at + p;
                        let len = b[lo..]
                            .iter()
                            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'.')
                            .count();
                        b.splice(lo..lo + len, number.bytes());
                    }
                    _ => {
                        b.splice(at..at, number.bytes());
                    }
                }
            }
            12 => self.nest(b),
            13 if !b.is_empty() => {
                let at = r.below(b.len());
                b.truncate(at);
            }
            14 if !b.is_empty() => {
                let (lo, hi) = r.range(b.len());
                let times = *r.pick(&[2, 3, 8, 100, 1000]);
                let chunk = b[lo..hi].to_vec();
                if chunk.len() * times <= MAX_INPUT {
                    let rep: Vec<u8> = chunk.repeat(times - 1);
                    b.splice(hi..hi, rep);
                }
            }
            15 => {
                let mut lines: Vec<Vec<u8>> = b
                    .split_inclusive(|c| *c == b'\n')
                    .map(<[u8]>::to_vec)
                    .collect();
                if lines.len() > 1 {
                    let (i, j) = (r.below(lines.len()), r.below(lines.len()));
                    match r.below(3) {
                        0 => lines.swap(i, j),
                        1 => {
                            let l = lines[i].clone();
                            lines.insert(j, l);
                        }
                        _ => {
                            lines.remove(i);
                        }
                    }
                    *b = lines.concat();
                }
            }
            16 => {
                let s = *r.pick(ODD_TEXT);
                let at = r.upto(b.len());
                b.splice(at..at, s.bytes());
            }
            _ => {
                let at = r.upto(b.len());
                let c = *r.pick(b"()[]{}<>;,.:=+-*/%#@!?&|^~\"'\\\n ");
                b.insert(at, c);
            }
        }
    }

    /// Deep nesting: a dictionary token or bracket repeated many times, closed when it opens a
    /// bracket, around a part of the input or alone.
    fn nest(&mut self, b: &mut Vec<u8>) {
        let r = &mut self.rng;
        let opener: String = if !self.dict.is_empty() && r.one_in(2) {
            self.dict[r.below(self.dict.len())].clone()
        } else {
            (*r.pick(&["(", "[", "{", "-", "!", "~", "*", "&", "+"])).to_string()
        };
        let depth = *r.pick(&[8, 32, 63, 64, 65, 199, 200, 201, 256, 1000, 5000, 100_000]);
        if opener.is_empty() || opener.len() * depth > MAX_INPUT / 2 {
            return;
        }
        let closer: String = opener
            .chars()
            .rev()
            .filter_map(|c| match c {
                '(' => Some(')'),
                '[' => Some(']'),
                '{' => Some('}'),
                _ => None,
            })
            .collect();
        let (lo, hi) = r.range(b.len());
        let close = !closer.is_empty() && !r.one_in(4);
        if close {
            b.splice(hi..hi, closer.repeat(depth).into_bytes());
        }
        b.splice(lo..lo, opener.repeat(depth).into_bytes());
    }
}

const INTERESTING_BYTES: &[u8] =
    b"\0\x01\x7f\xff\xc3\xe2\t\r\n \"'\\`$@#0123456789eExXfFuU._-+()[]{}<>;,:=!?*/%&|^~";

const HUGE_NUMBERS: &[&str] = &[
    "0",
    "-1",
    "127",
    "255",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "170141183460469231731687303715884105727",
    "170141183460469231731687303715884105728",
    "340282366920938463463374607431768211456",
    "99999999999999999999999999999999999999999999999999999999999999999999999999999999",
    "0xffffffffffffffffffffffffffffffffffffffff",
    "0x8000000000000000",
    "0b11111111111111111111111111111111111111111111111111111111111111111",
    "077777777777777777777777",
    "1e308",
    "1e309",
    "1e-400",
    "1e2147483647",
    "1e-2147483648",
    "1e99999999999",
    "0.00000000000000000000000000000000000000000000001",
    "3.4028236e38",
    "0f7FC00000",
    "0fFFFFFFFF",
    "0d7FF0000000000000",
    "1.5e",
    "1..2",
    "0x",
    "00",
    "1u",
    "1.0f",
];

const ODD_TEXT: &[&str] = &[
    "é", "\u{202e}", "\u{feff}", "𝕏", "\u{0}", "\r\n", "\r", "\\\n", "/*", "*/", "//", "//@ ",
    "\"", "'", "#", "\t", "\u{a0}",
];

/// Outcome signature: the start of the message with digits and quoted text blanked, so that
/// inputs that differ only in names, numbers or the text they quote count once. A quote closes
/// only where the message goes on (a space, punctuation then a space, or the end), since the
/// quoted text may itself hold a quote character.
fn normalise(message: &str) -> String {
    let chars: Vec<char> = message.chars().collect();
    let closes = |i: usize| match chars.get(i + 1) {
        None => true,
        Some(c) if c.is_whitespace() => true,
        Some(',' | '.' | ';' | ':' | ')' | '!' | '?') => {
            chars.get(i + 2).is_none_or(|c| c.is_whitespace())
        }
        Some(_) => false,
    };
    let mut out = String::new();
    let mut quote: Option<char> = None;
    let mut last_digit = false;
    for (i, &c) in chars.iter().enumerate() {
        if out.len() >= 48 {
            break;
        }
        match quote {
            Some(q) if c == q && closes(i) => {
                quote = None;
                out.push(c);
                continue;
            }
            Some(_) => continue,
            None if c == '`' || c == '"' => {
                quote = Some(c);
                out.push(c);
                continue;
            }
            None => {}
        }
        if c.is_ascii_digit() {
            if !last_digit {
                out.push('0');
            }
            last_digit = true;
            continue;
        }
        last_digit = false;
        out.push(c);
    }
    out
}

fn word_at(b: &[u8], at: usize) -> (usize, usize) {
    let word = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'.' || *c == b'%';
    let mut lo = at.min(b.len());
    while lo > 0 && word(&b[lo - 1]) {
        lo -= 1;
    }
    let mut hi = at.min(b.len());
    while hi < b.len() && word(&b[hi]) {
        hi += 1;
    }
    if lo == hi && hi < b.len() {
        hi += 1;
    }
    (lo, hi)
}

fn line_start(b: &[u8], at: usize) -> usize {
    b[..at]
        .iter()
        .rposition(|c| *c == b'\n')
        .map_or(0, |p| p + 1)
}

/// xorshift64*: small, fast and good enough to steer mutations.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// Uniform in `0..=n`.
    fn upto(&mut self, n: usize) -> usize {
        self.below(n + 1)
    }

    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }

    /// A range of `0..len`, mostly short, empty only when `len` is 0.
    fn range(&mut self, len: usize) -> (usize, usize) {
        if len == 0 {
            return (0, 0);
        }
        let lo = self.below(len);
        let max = len - lo;
        let n = if self.one_in(4) {
            1 + self.below(max)
        } else {
            1 + self.below(max.min(16))
        };
        (lo, lo + n)
    }
}

fn hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    })
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.trim().parse().ok()
}

fn repo_root() -> PathBuf {
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    while !dir.join("fuzz").join("dict").is_dir() {
        if !dir.pop() {
            return PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        }
    }
    dir
}

/// `<target dir>/fuzz-failures/<name>`: the test executable lives in `<target dir>/<profile>/deps`.
fn failure_dir(name: &str) -> PathBuf {
    let base = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.parent()?.to_path_buf()))
        .unwrap_or_else(std::env::temp_dir);
    let dir = base.join("fuzz-failures").join(name);
    let _ = std::fs::create_dir_all(&dir);
    dir
}

fn load_seeds(root: &Path, paths: &[&str], extensions: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    for p in paths {
        let path = root.join(p);
        if path.is_dir() {
            collect(&path, extensions, &mut files);
        } else if path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    files
        .iter()
        .filter_map(|f| std::fs::read(f).ok())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .collect()
}

fn collect(dir: &Path, extensions: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, extensions, out);
        } else if p
            .extension()
            .and_then(|x| x.to_str())
            .is_some_and(|x| extensions.contains(&x))
        {
            out.push(p);
        }
    }
}

/// Reads a libFuzzer dictionary: one `"token"` (optionally `name="token"`) per line, with
/// `\\`, `\"` and `\xNN` escapes.
fn load_dictionary(path: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        let (Some(a), Some(b)) = (line.find('"'), line.rfind('"')) else {
            continue;
        };
        if b <= a {
            continue;
        }
        let mut bytes = Vec::new();
        let mut chars = line[a + 1..b].bytes();
        while let Some(c) = chars.next() {
            if c != b'\\' {
                bytes.push(c);
                continue;
            }
            match chars.next() {
                Some(b'x') => {
                    let hex: Vec<u8> = chars.by_ref().take(2).collect();
                    let v = std::str::from_utf8(&hex)
                        .ok()
                        .and_then(|h| u8::from_str_radix(h, 16).ok());
                    bytes.extend(v);
                }
                Some(c) => bytes.push(c),
                None => {}
            }
        }
        out.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    out
}

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static LIMIT: Cell<i64> = const { Cell::new(i64::MAX) };
}

/// Panics on the fuzzing thread are recorded (message and location) instead of printed;
/// other threads keep the previous hook.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) {
                let message = info
                    .payload()
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| info.payload().downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                let place = info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
                    .unwrap_or_default();
                let first: String = message
                    .lines()
                    .next()
                    .unwrap_or("")
                    .chars()
                    .take(300)
                    .collect();
                LAST_PANIC.with(|p| *p.borrow_mut() = Some(format!("panic at {place}: {first}")));
            } else {
                previous(info);
            }
        }));
    });
}

fn start_counting(limit: u64) {
    LIVE.with(|l| l.set(0));
    LIMIT.with(|l| l.set(i64::try_from(limit).unwrap_or(i64::MAX)));
}

fn stop_counting() {
    LIMIT.with(|l| l.set(i64::MAX));
}

/// Counts the bytes the current thread holds while an input runs and refuses an allocation
/// past the limit, so that an input asking for unbounded memory aborts the run (its input is
/// in the in-flight file) instead of exhausting the machine.
struct Counting;

// SAFETY: every call forwards to `System` with the same arguments; the counters are plain
// thread-local cells without destructors, which allocate nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !admit(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !admit(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded unchanged.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        release(layout.size());
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() && !admit(new_size - layout.size()) {
            return std::ptr::null_mut();
        }
        if new_size < layout.size() {
            release(layout.size() - new_size);
        }
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

fn admit(size: usize) -> bool {
    let size = i64::try_from(size).unwrap_or(i64::MAX);
    LIVE.try_with(|live| {
        let now = live.get().saturating_add(size);
        if now > LIMIT.try_with(Cell::get).unwrap_or(i64::MAX) {
            return false;
        }
        live.set(now);
        true
    })
    .unwrap_or(true)
}

fn release(size: usize) {
    let size = i64::try_from(size).unwrap_or(i64::MAX);
    let _ = LIVE.try_with(|live| live.set(live.get().saturating_sub(size)));
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;
