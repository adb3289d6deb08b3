//! Command-line arguments (clap derive). `--help` is the documentation.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// warpsafe: run GPU kernels on a checking CPU interpreter that catches data races, barrier
/// divergence, out-of-bounds accesses, uninitialised reads, division by zero and overflow.
#[derive(Parser, Debug)]
#[command(name = "warpsafe", version, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// How `.cu` files are read (every command).
    #[command(flatten)]
    pub front: FrontArgs,
    /// Where solver queries and answers go (every command that asks a solver).
    #[command(flatten)]
    pub solver: SolverArgs,
    /// Print what the command is doing to stderr, one line per step with the seconds since
    /// it started (reading files, NVRTC compiles, each kernel and property of verify, the
    /// phases of equiv/prove/validate, F4 rounds, bench rows). Accepted by every command,
    /// before or after its name (repeating it changes nothing yet); stdout is the same with
    /// or without it. Progress bars need no flag: they appear on a terminal for work over a
    /// second.
    #[arg(short = 'v', long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
}

/// Solver queries and answers: accepted by every command (before or after the subcommand);
/// commands that ask no solver (run, equiv, cuda, …) have nothing to write or reuse.
#[derive(Args, Debug, Clone, Default)]
pub struct SolverArgs {
    /// Write every SMT query as a replayable `.smt2` file into DIR (default:
    /// `$WARPSAFE_DUMP_SMT`).
    #[arg(long, value_name = "DIR", global = true)]
    pub dump_smt: Option<PathBuf>,
    /// Keep solver answers (sat with the model values used, or unsat) in DIR and reuse them in
    /// later runs: a query is answered from DIR only when its exact text was answered before
    /// by the same solver and version (default: `$WARPSAFE_SMT_CACHE`, else in memory for
    /// this run only). A query that ran out of its time limit is kept with that limit: asked
    /// again with the same or a smaller limit it is `unknown` at once, with a larger one the
    /// solver is asked again.
    /// clang's reading of each `.cu` file is kept there too (`DIR/clang`), used again only
    /// while the file and every header it read are byte for byte the same.
    #[arg(long, value_name = "DIR", global = true)]
    pub cache: Option<PathBuf>,
    /// Which SMT solver every engine asks: `z3` (default) or `cvc5` (default:
    /// `$WARPSAFE_SOLVER`, else z3). `$WARPSAFE_Z3` / `$WARPSAFE_CVC5` name the programs.
    #[arg(long, value_enum, value_name = "SOLVER", global = true)]
    pub solver: Option<crate::solver::SolverName>,
    /// Ask the other solver too (cvc5 when z3 answers, z3 when cvc5 does) about every sat or
    /// unsat answer: a contradiction is said on stderr with a file that replays the query,
    /// and the verdict it fed becomes `unknown` (solvers disagree); the stats line counts the
    /// answers checked and the disagreements. Answers taken from `--cache` are not asked
    /// again (default: `$WARPSAFE_SECOND_OPINION=1`).
    #[arg(long, global = true)]
    pub second_opinion: bool,
}

/// How `.cu` files are read: accepted by every command (before or after the subcommand).
#[derive(Args, Debug, Clone, Default)]
pub struct FrontArgs {
    /// Define a macro for `.cu` files, as the compiler's `-D` (`-D TILE=32`, `-DNDEBUG`).
    #[arg(short = 'D', value_name = "NAME[=VALUE]", global = true)]
    pub define: Vec<String>,
    /// Search DIR for `#include "…"` and `<…>` headers of `.cu` files (after the file's own
    /// directory), as the compiler's `-I`.
    #[arg(short = 'I', value_name = "DIR", global = true)]
    pub include: Vec<PathBuf>,
    /// Which parser reads `.cu` files: `auto` (clang, with the C-subset parser as the
    /// fallback when clang is missing or leaves kernels out that the subset reads;
    /// `$WARPSAFE_FRONTEND=clang|subset` changes the default), `clang` (CUDA C++ through
    /// clang only) or `subset` (the built-in C-subset parser only).
    #[arg(long, value_enum, default_value = "auto", global = true)]
    pub frontend: Frontend,
}

/// Which parser reads `.cu` files.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Frontend {
    /// clang, with the subset parser as the fallback.
    #[default]
    Auto,
    /// clang only (CUDA C++: templates, classes, headers).
    Clang,
    /// The built-in C-subset parser only.
    Subset,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run kernels on the CPU interpreter with every dynamic check on.
    ///
    /// With one file: runs its kernel and reports findings; `--out DIR` writes every writable
    /// buffer as raw little-endian binary `DIR/NAME.bin`. With several files or a directory:
    /// runs each with its header's defaults and prints a summary table.
    ///
    /// Examples:
    ///   warpsafe run examples/kernels/saxpy.cu
    ///   warpsafe run examples/kernels/matrix_mul.cu --arg n=128 --grid 8,8 --block 16,16
    ///   warpsafe run k.cu --buf x=random:1024 --buf y=zeros:1024 --out results/
    ///   warpsafe run examples/kernels --check-expect
    ///   warpsafe run examples/kernels/saxpy.cu --via-ptx
    ///   warpsafe run k.ptx --grid 4 --block 256 --arg k_param_2=1000 --buf k_param_0=random:1000
    ///   warpsafe run big.cu --max-memory 16G --max-steps 100000000000
    ///
    /// PTX: a `.ptx` file is parsed, lowered and run by the same interpreter (findings point at
    /// PTX lines). Its launch contract comes from a sibling `.cu` of the same stem when there is
    /// one (its header and parameter names), else from the flags; parameters then keep their PTX
    /// names and buffer element types follow the loads and stores. `--via-ptx` compiles a `.cu`
    /// kernel through warpsafe's CUDA codegen and NVRTC and runs the PTX instead of the source.
    /// Signed overflow is C-level undefined behaviour that compiles to wrapping PTX arithmetic,
    /// so it is not reported (nor expected by --check-expect) for PTX runs.
    ///
    /// Sizes are checked before anything is allocated: a buffer length, shared memory size or
    /// launch shape that is negative, beyond CUDA's limits or beyond --max-memory is an error
    /// naming the flag or header line it came from.
    ///
    /// Exit codes: 0 no finding (warnings allowed), 1 at least one finding, 2 usage or parse
    /// error (a launch over --max-memory included), 3 unknown (the --max-steps limit was
    /// reached). With --check-expect: 0 when every file shows exactly the findings its
    /// `//@ expect` lines declare.
    Run(RunArgs),
    /// Print a kernel's IR (or its thread code, or JSON).
    ///
    /// Examples:
    ///   warpsafe ir examples/kernels/dot_product.cu
    ///   warpsafe ir examples/kernels/dot_product.cu --format json > dot.json
    ///   warpsafe ir dot.json --thread-code
    Ir(IrArgs),
    /// Prove race freedom, barrier-divergence freedom, in-bounds access and no overflow for
    /// every launch configuration the header allows (two-thread abstraction + SMT).
    ///
    /// Dimensions fixed by the header (`//--blockDim=…`) or by --block/--grid are used as
    /// given; `--block any` makes them symbolic. Every violation comes with a counterexample
    /// (threads, blocks, dims, parameters, source lines), replayed in the interpreter.
    ///
    /// Examples:
    ///   warpsafe verify examples/kernels/matrix_mul_tiled.cu
    ///   warpsafe verify examples/kernels/reduce_warp_unrolled_bug_nosync.cu --lockstep-warps
    ///   warpsafe verify k.cu --property race,divergence --format sarif > k.sarif
    ///   warpsafe verify k.cu --arg n=128 --buf x=128
    ///
    /// Exit codes: 0 all verified, 1 any violated, 3 unknown, 2 usage or parse error.
    Verify(VerifyArgs),
    /// Prove that an optimised kernel computes the same outputs as a reference, for one launch
    /// configuration, with symbolic input data (floats as reals, as fast-math compilers assume).
    ///
    /// Both kernels run symbolically on every block (--block0-only: block 0 only, said in the
    /// verdict); each output element's term is compared exactly. `different` comes only with
    /// a concrete input on which both kernels, run in the interpreter, give different values
    /// (both printed); a symbolic difference the interpreter does not reproduce is `unknown`.
    /// A race, divergence or out-of-bounds access in either kernel is reported with its
    /// category. --max-memory and --timeout are budgets: running out is `unknown`.
    ///
    /// Examples:
    ///   warpsafe equiv examples/equiv/sgemm/sgemm1_naive.cu examples/equiv/sgemm/sgemm5_2d_blocktiling.cu
    ///   warpsafe equiv examples/equiv/reduce/reduce0_reference.cu examples/equiv/reduce/reduce5_warp_unrolled.cu --lockstep-warps
    ///
    /// Exit codes: 0 equal, 1 different or a finding, 3 unknown, 2 usage or parse error.
    Equiv(EquivArgs),
    /// Prove that a kernel meets a mathematical spec for one launch configuration.
    ///
    /// A spec states each output element: `r[i] = a*x[i] + y[i] for i < n`,
    /// `out[i] = sum(j < i, in[j])`, `C[i][j] = sum(k < K, A[i][k]*B[k][j])` (ranges, sum,
    /// product, max, exp). SPEC is a file or the spec text itself.
    ///
    /// Example: warpsafe prove examples/kernels/saxpy.cu --spec examples/equiv/specs/saxpy.spec
    ///
    /// Without size flags (--grid, --block, --arg, or a length by --buf or --len) the spec is
    /// first proved for every size; when that proof fails, prove says which obligation failed
    /// and why, then proves the header's configuration and names it (grid, block, parameters,
    /// blocks checked).
    ///
    /// Exit codes: 0 proved (for every size, or for the configuration the flags give),
    /// 4 proved only for the header's configuration (the all-sizes proof failed),
    /// 1 different or a finding, 3 unknown, 2 usage or parse error (a spec that states no
    /// property and a missing z3 included). JSON carries `scope`: `all-sizes` or
    /// `configuration`.
    Prove(ProveArgs),
    /// Translation validation: prove that the PTX NVRTC makes of a kernel computes what the
    /// kernel's IR computes, for one launch configuration.
    ///
    /// The kernel is compiled with warpsafe's CUDA codegen and NVRTC; the PTX is parsed and
    /// lowered with the kernel's signature, and both the IR and the PTX run symbolically on
    /// every block of the launch (integers exact, floats as reals). Every output element is
    /// compared exactly; a difference comes with a concrete input and both values. NVRTC's
    /// contraction of `a*b+c` into `fma` is reported; it is equal over the reals.
    ///
    /// FILE is CUDA-C (`.cu`) or IR (`.json`): a `#[kernel]`'s `k::ir()` serialised with
    /// serde_json, or `warpsafe ir FILE --format json`; IR carries no launch header, so give
    /// the launch with flags.
    ///
    /// Examples:
    ///   warpsafe validate examples/kernels/saxpy.cu
    ///   warpsafe validate examples/kernels/matrix_mul.cu --arg n=16 --grid 1,1 --block 16,16
    ///   warpsafe validate saxpy.json --grid 2 --block 32 --arg n=50 --arg a=2 --len x=50 --len y=50
    ///
    /// Exit codes: 0 equal, 1 different or a finding, 3 unknown, 2 usage or parse error
    /// (NVRTC missing included).
    Validate(ValidateArgs),
    /// Compute the reduced Gröbner basis of a polynomial system over F_p (F4 or Buchberger).
    ///
    /// The file format: a line of variables, a line with the prime, then one polynomial per
    /// line (examples/systems/README.md). The basis goes to stdout, statistics to stderr.
    ///
    /// Examples:
    ///   warpsafe groebner examples/systems/katsura8.txt
    ///   warpsafe groebner examples/systems/cyclic6.txt --algo buchberger --check
    ///   warpsafe groebner examples/systems/katsura8.txt --explain   # the dense kernel's proof
    Groebner(GroebnerArgs),
    /// Print the CUDA C that warpsafe generates for a kernel (`.cu` or IR `.json`).
    ///
    /// Example: warpsafe cuda examples/kernels/saxpy.cu
    Cuda(CodegenArgs),
    /// Compile a kernel's generated CUDA C with NVRTC and print the PTX.
    ///
    /// NVRTC is loaded from `$WARPSAFE_NVRTC`, the active Python's site-packages (the
    /// `nvidia-cuda-nvrtc` wheel), or `$LD_LIBRARY_PATH`. Results are cached on disk.
    ///
    /// Example: warpsafe ptx examples/kernels/saxpy.cu --arch sm_90
    Ptx(PtxArgs),
    /// Benchmarks that print tables.
    Bench(BenchArgs),
    /// Check a kernel's fractional-permission annotations (`//@ thread requires Perm(a[tid], 1)`,
    /// `//@ barrier ensures …`; see docs/permissions.md) for every block size, with z3.
    ///
    /// Reports each obligation (access, barrier, split, invariant, functional, uniform,
    /// fragment) with its line, and a counterexample for each violated one. Several files:
    /// one report each, then a summary table.
    ///
    /// Examples: warpsafe check-perm examples/perm/kogge_stone.cu;
    /// warpsafe check-perm examples/perm/*.cu
    ///
    /// Exit codes: 0 verified, 1 violated, 3 unknown, 2 usage or parse error (the worst
    /// over all files).
    CheckPerm(PermArgs),
}

/// `warpsafe check-perm`.
#[derive(Args, Debug)]
pub struct PermArgs {
    /// `.cu` files with permission annotations (several: one report each, then a summary).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The kernel to check in each file (default: the first); its annotations are those
    /// between the kernel before it and its end.
    #[arg(long)]
    pub kernel: Option<String>,
    /// Output format (SARIF: one result per violated or undecided obligation).
    #[arg(long, value_enum, default_value_t)]
    pub format: VerifyFormat,
}

/// Output formats of the commands that report findings (`run`, `verify`, `equiv`, `prove`,
/// `validate`, `check-perm`, `groebner`, `bench verify`, `bench suite`).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum VerifyFormat {
    /// Readable text.
    #[default]
    Human,
    /// One JSON document.
    Json,
    /// SARIF 2.1.0, for code-scanning annotations.
    Sarif,
}

/// `warpsafe verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// A `.cu` file, an IR `.json` file or a `.ptx` file (its contract from a sibling `.cu`).
    pub file: PathBuf,
    #[command(flatten)]
    pub select: KernelSelect,
    /// Block dimensions `X[,Y[,Z]]`, or `any` for symbolic (default: the header's).
    #[arg(long, value_name = "X[,Y[,Z]]|any")]
    pub block: Option<String>,
    /// Grid dimensions `X[,Y[,Z]]`, or `any` for symbolic (default: the header's).
    #[arg(long, value_name = "X[,Y[,Z]]|any")]
    pub grid: Option<String>,
    /// Fix a scalar parameter, `name=value` (repeatable; default: the header's `//@ arg` for
    /// equiv/prove/validate, symbolic for verify, where it is checked as `requires name ==
    /// value`).
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    pub args: Vec<String>,
    /// A buffer, as `run` takes it (repeatable): `name=N` or `name=random:N` fix its length
    /// (its contents stay symbolic: every content is covered), `name=zeros:N` / `ones:N` also
    /// fix its initial contents where the command takes them (`--init`), `name=FILE.bin` fixes
    /// the length from the file's size (contents not used by a symbolic check).
    #[arg(long = "buf", value_name = "NAME=SPEC")]
    pub bufs: Vec<String>,
    /// Buffer length in elements, `name=N` (repeatable; default: the header's `//@ len`): an
    /// alias of `--buf name=N`.
    #[arg(long = "len", value_name = "NAME=N")]
    pub lens: Vec<String>,
    /// Properties to check (comma-separated or repeated): race, divergence, bounds, overflow,
    /// assert, uninit.
    #[arg(long, value_name = "LIST")]
    pub property: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: VerifyFormat,
    /// Time budget of the whole run, in seconds: each kernel of the file, and each property of
    /// a kernel, gets an equal part of what is left (time one leaves unused passes on);
    /// queries still open when their part is spent answer `unknown: time budget`.
    #[arg(long, value_name = "SECS", default_value_t = 600.0)]
    pub timeout: f64,
    /// Solver time limit per query, in seconds (within --timeout).
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub query_timeout: f64,
    /// Legacy lock-step warp model: the lanes of a warp execute together, so their accesses to
    /// memory the kernel reaches through `volatile` are ordered; other accesses in
    /// warp-synchronous code still race (the compiler may keep them in registers).
    #[arg(long)]
    pub lockstep_warps: bool,
    /// Solver processes to run in parallel (default: one per core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Do not replay counterexamples in the interpreter.
    #[arg(long)]
    pub no_replay: bool,
    /// Treat a buffer without a declared length (`//@ len(x) = …`) as having any length, so
    /// that every access may be out of bounds. By default the weakest length requirement of
    /// its accesses is inferred and printed (`needs len(out) >= gridDim.x * blockDim.x`).
    #[arg(long)]
    pub strict_bounds: bool,
    /// Report two unordered writes of the same constant to a cell (`*found = true` by many
    /// threads) as a race. By default such a benign race is tolerated, as GPUVerify does,
    /// and the report says so.
    #[arg(long)]
    pub strict_races: bool,
    /// Verify the PTX that NVRTC makes of each kernel (through our CUDA codegen) instead of
    /// the source: the code checked is the code that runs. Loops and branches are recovered
    /// from the PTX's control-flow graph; what cannot be recovered is `unknown` with the
    /// reason. A `.ptx` file is always verified this way.
    #[arg(long)]
    pub via_ptx: bool,
    /// Also write the report as one self-contained HTML page (no network, no external
    /// files): the source with each finding's two sides highlighted, the barrier intervals,
    /// the counterexample's launch and values, and the verdict per property.
    /// Example: `--html report.html`.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// Launch, warp model and output of a symbolic run, shared by `equiv`, `prove` and
/// `validate`.
#[derive(Args, Debug, Clone, Default)]
pub struct SymLaunch {
    /// Grid dimensions `X[,Y[,Z]]` (default: the header's).
    #[arg(long, value_name = "X[,Y[,Z]]")]
    pub grid: Option<String>,
    /// Block dimensions `X[,Y[,Z]]` (default: the header's).
    #[arg(long, value_name = "X[,Y[,Z]]")]
    pub block: Option<String>,
    /// Fix a scalar parameter, `name=value` (repeatable; default: the header's `//@ arg` for
    /// equiv/prove/validate, symbolic for verify, where it is checked as `requires name ==
    /// value`).
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    pub args: Vec<String>,
    /// A buffer, as `run` takes it (repeatable): `name=N` or `name=random:N` fix its length
    /// (its contents stay symbolic: every content is covered), `name=zeros:N` / `ones:N` also
    /// fix its initial contents where the command takes them (`--init`), `name=FILE.bin` fixes
    /// the length from the file's size (contents not used by a symbolic check).
    #[arg(long = "buf", value_name = "NAME=SPEC")]
    pub bufs: Vec<String>,
    /// Buffer length in elements, `name=N` (repeatable; default: the header's `//@ len`): an
    /// alias of `--buf name=N`.
    #[arg(long = "len", value_name = "NAME=N")]
    pub lens: Vec<String>,
    /// Initial contents of a buffer, `name=VALUE` (repeatable; default: the header's
    /// `//@ init(name) = VALUE`): every element starts as VALUE (a number, `inf`, `-inf`,
    /// `INFINITY`, `-FLT_MAX`, …) instead of an input symbol. Both kernels of `equiv` get it.
    /// Example: `--init m=-inf --init l=0`.
    #[arg(long = "init", value_name = "NAME=VALUE")]
    pub inits: Vec<String>,
    /// Dynamic shared memory in bytes.
    #[arg(long, value_name = "BYTES")]
    pub shared_bytes: Option<u64>,
    /// Legacy lock-step warp model.
    #[arg(long)]
    pub lockstep_warps: bool,
    /// Output format (SARIF: one run, one result per finding, difference or unknown).
    #[arg(long, value_enum, default_value_t)]
    pub format: VerifyFormat,
}

/// Symbolic-execution options of `equiv` and `prove`.
#[derive(Args, Debug, Clone, Default)]
pub struct SymArgs {
    #[command(flatten)]
    pub launch: SymLaunch,
    /// Run block 0 only (faster): outputs other blocks write are not compared, and the verdict
    /// says so. By default every block runs and every output element is compared.
    #[arg(long, conflicts_with = "all_blocks")]
    pub block0_only: bool,
    /// Run every block (in parallel): the default (accepted for compatibility).
    #[arg(long)]
    pub all_blocks: bool,
    /// Memory the check may use (resident memory of the process): `4G`, `512M`, `64K` or
    /// plain bytes (default: a third of this machine's memory). Running out ends the check with
    /// `unknown: memory budget` (exit 3) and how many elements were decided, never an abort.
    /// Example: `--max-memory 2G`.
    #[arg(long, value_name = "SIZE")]
    pub max_memory: Option<String>,
    /// Time budget of the whole check, in seconds (default: none). Running out ends the
    /// check with `unknown: time budget` (exit 3).
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
}

/// `warpsafe equiv`.
#[derive(Args, Debug)]
pub struct EquivArgs {
    /// The reference kernel (`.cu`, IR `.json`, or `.ptx` with a sibling `.cu` or flags).
    pub reference: PathBuf,
    /// The optimised kernel (`.cu`, IR `.json`, or `.ptx`).
    pub optimized: PathBuf,
    /// The kernel to take from each file that defines it; a file that does not takes its
    /// only kernel (default: the first kernel of each file).
    #[arg(long)]
    pub kernel: Option<String>,
    /// Compare the PTX NVRTC makes of each `.cu` kernel (compiled by warpsafe's codegen).
    #[arg(long)]
    pub via_ptx: bool,
    /// Input buffers (comma-separated; informational — every buffer element is symbolic).
    #[arg(long, value_name = "LIST")]
    pub inputs: Option<String>,
    /// Output buffers to compare (comma-separated; default: writable buffers of both).
    #[arg(long, value_name = "LIST")]
    pub outputs: Option<String>,
    /// Decide every output element by canonical forms. By default, when both kernels compute
    /// polynomials of their inputs (+, -, *, FMA, division by constants; integer control
    /// flow), each kernel runs once per random point with every float a value modulo a random
    /// 62-bit prime and no term built (Schwartz-Zippel: equal values at every point prove
    /// `equal` up to a printed bound, about 2^-44 for SGEMM at 256³ with one point); other
    /// pairs, and any difference, run on terms, where a polynomial element is decided by its
    /// terms' values at random points. `different` always needs a counterexample replayed in
    /// the interpreter, with or without this flag.
    #[arg(long)]
    pub exact: bool,
    /// Random points of the prime field (default: 1 when the kernels run in the field, 2 for
    /// terms): each point of the first kind is one more run of both kernels, and squares the
    /// bound on a wrong `equal`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=16))]
    pub field_points: Option<u32>,
    /// Run these kernels of the optimised file one after another as its side (comma-separated,
    /// in launch order: `--sequence splitk_partial,splitk_reduce`): each takes its launch from
    /// the file's host launcher or header, and reads the buffers the earlier ones left (by
    /// parameter name). `--arg`, `--buf`, `--len` and `--init` apply to the kernels that have
    /// the parameter; `--grid`, `--block` and `--shared-bytes` are refused with it.
    #[arg(long, value_name = "LIST", conflicts_with = "kernel")]
    pub sequence: Option<String>,
    #[command(flatten)]
    pub sym: SymArgs,
}

/// `warpsafe prove`.
#[derive(Args, Debug)]
pub struct ProveArgs {
    /// The kernel (`.cu` or IR `.json`).
    pub file: PathBuf,
    #[command(flatten)]
    pub select: KernelSelect,
    /// The spec: a file, or the spec text.
    #[arg(long)]
    pub spec: String,
    /// Prove for every size instead of one launch: for kernels in which each output element
    /// has one writer, the per-thread proof (ownership, coverage, value, accumulation-loop
    /// induction; also what `prove` without size flags does); for barrier-phased scans and
    /// reductions, the interval abstraction at every size up to 1024, then SMT induction over
    /// the barrier loops (symbolic size, thread and loop variable). Each obligation is
    /// reported with the method that settled it.
    /// Example: warpsafe prove --all-sizes examples/kernels/kogge_stone_scan.cu --spec examples/specs/kogge_stone_scan.spec
    #[arg(long)]
    pub all_sizes: bool,
    #[command(flatten)]
    pub sym: SymArgs,
}

/// `warpsafe validate`.
#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// A `.cu` file or an IR `.json` file.
    pub file: PathBuf,
    #[command(flatten)]
    pub select: KernelSelect,
    #[command(flatten)]
    pub launch: SymLaunch,
    /// Run block 0 only (faster; outputs other blocks write are not compared). By default every
    /// block runs. `--first-block` is an alias.
    #[arg(long = "block0-only", visible_alias = "first-block")]
    pub first_block: bool,
}

/// Where F4's dense elimination step runs.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GroebnerBackend {
    /// The gauss_elim kernel compiled natively (warpsafe native backend), parallel over rows.
    #[default]
    Cpu,
    /// The gauss_elim kernel's generated CUDA C on a GPU.
    Cuda,
}

/// `warpsafe groebner`.
#[derive(Args, Debug)]
pub struct GroebnerArgs {
    /// The polynomial system.
    pub file: PathBuf,
    /// Monomial order (default grevlex; the file format states none): grevlex, lex, or block:K (elimination order: the first K variables outweigh the rest; grevlex within each block).
    #[arg(long)]
    pub order: Option<String>,
    /// Algorithm: f4 or buchberger.
    #[arg(long, default_value = "f4")]
    pub algo: String,
    /// Where the dense elimination step runs.
    #[arg(long, value_enum, default_value_t)]
    pub backend: GroebnerBackend,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Check the result: every input and every S-pair reduces to 0, and the basis is reduced.
    #[arg(long)]
    pub check: bool,
    /// Deterministic linear algebra: reduce every matrix row. By default F4 reduces random
    /// combinations of the rows (Monte Carlo: a matrix's result is incomplete with
    /// probability below k·2^-60 for k combinations; `--check` proves a basis exactly).
    #[arg(long)]
    pub exact: bool,
    /// Show the parametric proof of the dense elimination kernel before computing.
    #[arg(long)]
    pub explain: bool,
    /// Output format (JSON: basis, size, statistics, timings; SARIF: a result when the
    /// basis fails `--check` or is not checked, none when it is checked).
    #[arg(long, value_enum, default_value_t)]
    pub format: VerifyFormat,
}

/// `warpsafe cuda`.
#[derive(Args, Debug)]
pub struct CodegenArgs {
    /// A `.cu` file or an IR `.json` file.
    pub file: PathBuf,
    #[command(flatten)]
    pub select: KernelSelect,
}

/// `warpsafe ptx`.
#[derive(Args, Debug)]
pub struct PtxArgs {
    /// A `.cu` file or an IR `.json` file.
    pub file: PathBuf,
    #[command(flatten)]
    pub select: KernelSelect,
    /// Target architecture.
    #[arg(long, default_value = "sm_90")]
    pub arch: String,
}

/// Where `run` executes.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BackendChoice {
    /// The checking CPU interpreter.
    #[default]
    Cpu,
    /// A CUDA GPU (error when none is present).
    Cuda,
    /// A CUDA GPU when one is present, else the CPU interpreter (and say so).
    Auto,
}

/// How reports are written.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// Readable text with source excerpts.
    #[default]
    Human,
    /// One JSON document on stdout.
    Json,
}

/// Output formats of `ir`, which prints code rather than findings.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IrFormat {
    /// The IR as text.
    #[default]
    Human,
    /// The module (or the kernel) as JSON.
    Json,
    /// Not offered (hidden): accepted only to refuse it with a message that says why.
    #[value(hide = true)]
    Sarif,
}

/// Options shared by commands that read a kernel file.
#[derive(Args, Debug, Clone)]
pub struct KernelSelect {
    /// Kernel to use when the file defines several (default: the only or first one).
    #[arg(long)]
    pub kernel: Option<String>,
}

/// Launch configuration overrides (the file header gives the defaults).
#[derive(Args, Debug, Clone, Default)]
pub struct LaunchArgs {
    /// Grid dimensions, `X[,Y[,Z]]` (also `[X,Y,Z]`).
    #[arg(long, value_name = "X[,Y[,Z]]", allow_hyphen_values = true)]
    pub grid: Option<String>,
    /// Block dimensions, `X[,Y[,Z]]` (also `[X,Y,Z]`).
    #[arg(long, value_name = "X[,Y[,Z]]", allow_hyphen_values = true)]
    pub block: Option<String>,
    /// Scalar argument value, `name=value` (repeatable).
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    pub args: Vec<String>,
    /// Buffer contents: `name=N` (N random elements), `name=random:N`, `name=zeros:N`,
    /// `name=ones:N`, `name=iota:N`, or `name=FILE.bin` (raw little-endian elements). N may be
    /// omitted when the header gives `len(name)` (`name=zeros`).
    #[arg(long = "buf", value_name = "NAME=SPEC")]
    pub bufs: Vec<String>,
    /// Buffer length in elements, `name=N` (repeatable): an alias of `--buf name=N`.
    #[arg(long = "len", value_name = "NAME=N")]
    pub lens: Vec<String>,
    /// Initial contents of a buffer, `name=VALUE` (repeatable): every element is VALUE (a
    /// number, `inf`, `-inf`, `INFINITY`, `-FLT_MAX`, …), overriding the header's
    /// `//@ init(name) = VALUE`; `--buf name=N` may still give the length. Example:
    /// `--init m=-inf`.
    #[arg(long = "init", value_name = "NAME=VALUE")]
    pub inits: Vec<String>,
    /// Dynamic shared memory in bytes (for `extern __shared__` arrays).
    #[arg(long, value_name = "BYTES", allow_negative_numbers = true)]
    pub shared_bytes: Option<u64>,
    /// Seed of the random buffer contents.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Checking options.
#[derive(Args, Debug, Clone, Default)]
pub struct CheckArgs {
    /// Legacy lock-step warp model: threads of a warp are implicitly synchronised.
    #[arg(long)]
    pub lockstep_warps: bool,
    /// Treat a warning category as an error (repeatable), e.g. `--deny overflow`.
    #[arg(long, value_name = "CATEGORY")]
    pub deny: Vec<String>,
    /// Run blocks one after another instead of in parallel.
    #[arg(long)]
    pub sequential: bool,
    /// Also run N random legal schedules and compare the outputs bit for bit with the
    /// default schedule's (a difference exits 1).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub schedules: u64,
    // Issue 16 (never crash): memory and work bounds of the interpreter.
    /// Memory the interpreter may use for one launch: `4G`, `512M`, `64K` or plain bytes
    /// (default: half of this machine's memory, 4G when it cannot be read). The estimate
    /// counts buffers, race-detector state and each running block's state; over the limit,
    /// fewer blocks run at once, or the launch is refused (exit 2) with the estimate.
    /// Example: `--max-memory 8G`.
    #[arg(long, value_name = "SIZE")]
    pub max_memory: Option<String>,
    /// Thread-instructions one launch may execute, in all and in each block (default
    /// 4294967296). Past it the run stops and reports `unknown: step limit` (exit 3): an
    /// infinite loop ends here. Example: `--max-steps 100000000000`.
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u64).range(1..),
        allow_negative_numbers = true
    )]
    pub max_steps: Option<u64>,
}

/// `warpsafe run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// `.cu` files, IR `.json` files, `.ptx` files, or directories of `.cu`/`.json` files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub select: KernelSelect,
    #[command(flatten)]
    pub launch: LaunchArgs,
    #[command(flatten)]
    pub check: CheckArgs,
    /// Directory to write every writable buffer to, as `NAME.bin`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Output format (SARIF: one run holding every file's findings, at their lines).
    #[arg(long, value_enum, default_value_t)]
    pub format: VerifyFormat,
    /// Compare each file's findings with its `//@ expect` lines (exit 0 when all match).
    #[arg(long)]
    pub check_expect: bool,
    /// Where to run: the checking CPU interpreter, a CUDA GPU, or the GPU when present.
    #[arg(long, value_enum, default_value_t)]
    pub backend: BackendChoice,
    /// Compile each `.cu` kernel with warpsafe's CUDA codegen and NVRTC, and run the PTX on the
    /// interpreter instead of the source (needs NVRTC; `.ptx` files always run as PTX).
    #[arg(long)]
    pub via_ptx: bool,
    /// Also write the run's report as one self-contained HTML page (one kernel only): the
    /// source with each finding's sides highlighted, the barrier intervals, the launch and
    /// argument values. Example: `--html report.html`.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// `warpsafe ir`.
#[derive(Args, Debug)]
pub struct IrArgs {
    /// A `.cu` file or an IR `.json` file.
    pub file: PathBuf,
    #[command(flatten)]
    pub select: KernelSelect,
    /// Print the lowered thread code instead of the structured IR.
    #[arg(long)]
    pub thread_code: bool,
    /// Print the IR recovered from the PTX that NVRTC makes of each kernel (what
    /// `verify --via-ptx` checks).
    #[arg(long)]
    pub via_ptx: bool,
    /// `human` prints the IR as text; `json` prints the whole module as JSON.
    #[arg(long, value_enum, default_value_t)]
    pub format: IrFormat,
}

/// `warpsafe bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Which benchmark.
    #[command(subcommand)]
    pub which: BenchKind,
}

/// The benchmarks.
#[derive(Subcommand, Debug)]
pub enum BenchKind {
    /// Kogge–Stone and Blelloch scans (real and integer data) proved for every block size up
    /// to a bound by the interval abstraction, one abstract run per size.
    Scans {
        /// Largest block size.
        #[arg(long, default_value_t = 4096)]
        bound: u32,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Also write the seconds per scan as an SVG bar chart, one standalone file.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// `warpsafe equiv` on the benchmark families (reductions, SGEMM, softmax, attention).
    Equiv {
        /// Directory holding the families.
        #[arg(long, default_value = "examples/equiv")]
        dir: PathBuf,
        /// Only the pairs whose family or compared file contains one of these texts
        /// (comma-separated or repeated), e.g. `attention` or `sgemm12`: the sized SGEMM
        /// pairs at 256³ alone take minutes.
        #[arg(long, value_name = "TEXT[,TEXT]", value_delimiter = ',')]
        only: Vec<String>,
        /// Repetitions per pair; the median is reported.
        #[arg(long, default_value_t = 3)]
        repeat: usize,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Also write the seconds per pair (the median) as an SVG bar chart, one standalone
        /// file.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// Gröbner bases of Cyclic-5..8 and Katsura-6..11 (F4, one thread), beside Singular and
    /// Macaulay2 when they are installed.
    Groebner {
        /// Repetitions per system; the median is reported.
        #[arg(long, default_value_t = 3)]
        repeat: usize,
        /// Skip a system once one run takes longer than this many seconds.
        #[arg(long, default_value_t = 60.0)]
        limit: f64,
        /// Deterministic linear algebra: reduce every matrix row instead of random
        /// combinations of them.
        #[arg(long)]
        exact: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Also write the seconds per system (warpsafe F4, and Singular and Macaulay2 where
        /// they ran) as an SVG bar chart, one standalone file.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// How much of a codebase the frontends read: every `.cu` under DIR (recursively) through
    /// clang (and, for comparison, the subset parser), kernels accepted or the construct that
    /// stops each, grouped and counted. `-D`/`-I` apply.
    ///
    /// Example:
    ///   warpsafe bench intake tests/real
    ///   warpsafe bench intake ~/src/my-project -I ~/src/my-project/include
    Intake {
        /// Directory to scan.
        dir: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Also write the kernels accepted and the count of each cause that stops one as
        /// an SVG bar chart, one standalone file.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// `warpsafe verify` on every bundled kernel and twin: verdict, seconds and SMT queries
    /// per property.
    Verify {
        /// Directory holding the example kernels.
        #[arg(long, default_value = "examples/kernels")]
        kernels: PathBuf,
        /// Repetitions per kernel; the median is reported.
        #[arg(long, default_value_t = 3)]
        repeat: usize,
        /// Output format (SARIF: one result per verdict that is not verified).
        #[arg(long, value_enum, default_value_t)]
        format: VerifyFormat,
        /// Also write the seconds per kernel (all properties, the median) as an SVG bar
        /// chart, one standalone file. Example: `--svg verify.svg`.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// The verification table: per benchmark kernel, the four safety verdicts (parametric)
    /// and functional correctness against its spec (for every size where the kernel's shape
    /// allows, else the exact engine over a sweep of sizes).
    Suite {
        /// Directory holding the example kernels.
        #[arg(long, default_value = "examples/kernels")]
        kernels: PathBuf,
        /// Directory holding one `<kernel>.spec` per suite kernel.
        #[arg(long, default_value = "examples/specs")]
        specs: PathBuf,
        /// Largest problem size in the functional sweep.
        #[arg(long, default_value_t = 128)]
        max_size: i64,
        /// Only these suite kernels (comma-separated or repeated), e.g. `saxpy,matrix_mul`.
        #[arg(long, value_name = "NAME[,NAME]", value_delimiter = ',')]
        only: Vec<String>,
        /// Output format (SARIF: one result per safety or functional verdict that is not
        /// verified or proved for every size).
        #[arg(long, value_enum, default_value_t)]
        format: VerifyFormat,
        /// Also write the table as an SVG image to this file.
        #[arg(long)]
        svg: Option<PathBuf>,
    },
    /// The mutation campaign: every example kernel that verifies (no `_bug_` in its name,
    /// every property verified) is mutated at the IR level — each barrier dropped, each
    /// memory index moved by +1 and by -1, threadIdx/blockIdx .x and .y swapped in one index
    /// (or index variable), `<`/`<=` and `>`/`>=` flipped in one guard, one `volatile`
    /// dropped, one atomic made a plain read-modify-write — and each mutant is judged by
    /// `verify` (static, counterexamples replayed) and by the checking interpreter on random
    /// launches the header allows (dynamic, overflow denied).
    ///
    /// The table counts, per kernel, per mutation kind and in total: mutants, killed
    /// statically (some property violated), killed dynamically (an interpreter error),
    /// unsound (an interpreter error in a category verify checks while every property is
    /// verified: a verifier bug, listed with the mutation and the finding), spurious
    /// (violated, but no interpreter finding on any launch), possible, unknown, unchecked
    /// (all verified, the interpreter's finding in a category no property covers) and
    /// survived. Total seconds and peak memory close the report.
    ///
    /// Examples:
    ///   warpsafe bench mutate
    ///   warpsafe bench mutate --only saxpy,reduce_interleaved --limit 3 --configs 2 --format json
    ///   warpsafe bench mutate --svg mutate.svg
    ///
    /// Exit codes: 0 no unsound mutant, 1 some mutant unsound, 2 usage error or no z3.
    Mutate {
        /// Directory holding the example kernels.
        #[arg(long, default_value = "examples/kernels")]
        kernels: PathBuf,
        /// Only these kernel files (stems, comma-separated or repeated), e.g. `saxpy`.
        #[arg(long, value_name = "NAME[,NAME]")]
        only: Vec<String>,
        /// At most N mutants per kernel, spread over the mutation kinds and their sites
        /// (default: every mutant).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        limit: Option<u64>,
        /// Random launches the interpreter runs each mutant on (the first uses the header's
        /// defaults).
        #[arg(long, value_name = "N", default_value_t = 3,
              value_parser = clap::value_parser!(u64).range(1..=1000))]
        configs: u64,
        /// Solver time limit per query of each verification, in seconds.
        #[arg(long, value_name = "SECS", default_value_t = 10.0)]
        timeout: f64,
        /// Output format (JSON: every mutant with its verdicts and findings, and the counts).
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Also write a bar chart of the counts as an SVG image to this file.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// Interpreter throughput (thread-instructions/s, all checks on) against native Rust.
    Interp {
        /// Repetitions per case; the median is reported.
        #[arg(long, default_value_t = 5)]
        repeat: usize,
        /// Directory holding the example kernels.
        #[arg(long, default_value = "examples/kernels")]
        kernels: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Also write the throughput per case (million thread-instructions per second) as
        /// an SVG bar chart, one standalone file.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::Parser;

    /// Every `$W …` command of the README (`bench` ones included, which the end-to-end test
    /// `readme_commands` does not run) parses: subcommand, flags and values as written.
    #[test]
    fn readme_commands_parse() {
        let readme = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
        let text = std::fs::read_to_string(readme).expect("README.md");
        let mut checked = 0;
        for line in text.lines().filter(|l| l.starts_with("$W ")) {
            let command = line.split(" #").next().unwrap_or(line);
            for part in command.split("&&") {
                let part = part.split('>').next().unwrap_or(part).trim();
                let Some(args) = part.strip_prefix("$W") else {
                    continue;
                };
                let argv = std::iter::once("warpsafe").chain(args.split_whitespace());
                if let Err(e) = Cli::try_parse_from(argv) {
                    panic!("README command `{part}` does not parse:\n{e}");
                }
                checked += 1;
            }
        }
        assert!(checked >= 35, "checked only {checked} README commands");
    }

    #[test]
    fn solver_flags_go_before_or_after_any_command() {
        for argv in [
            "warpsafe --cache c --dump-smt d verify k.cu",
            "warpsafe verify k.cu --cache c --dump-smt d",
            "warpsafe prove k.cu --spec s --all-sizes --dump-smt d",
            "warpsafe bench verify --cache c",
            "warpsafe check-perm k.cu --cache c",
        ] {
            let cli = Cli::try_parse_from(argv.split_whitespace())
                .unwrap_or_else(|e| panic!("`{argv}` does not parse:\n{e}"));
            let dump = cli.solver.dump_smt.is_some() == argv.contains("--dump-smt");
            let cache = cli.solver.cache.is_some() == argv.contains("--cache");
            assert!(dump && cache, "`{argv}`: {:?}", cli.solver);
        }
    }
}
