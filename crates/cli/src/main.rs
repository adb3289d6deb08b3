//! The `warpsafe` binary: parses arguments, calls the library crates, formats reports.

mod allsizes_cmd;
mod bench;
mod cli;
mod confirm;
mod cuda_cmd;
mod demangle;
mod diagnostics;
mod equiv_cmd;
mod exit;
mod fixed;
mod groebner_cmd;
mod html;
mod inputs;
mod intake;
mod ir_cmd;
mod launch;
mod mutate;
mod perm_cmd;
mod phases;
mod progress;
mod ptx_input;
mod report;
mod run_cmd;
mod sarif;
mod scans_bench;
mod schedules;
mod solver;
mod source;
mod suite;
mod summary;
mod validate_cmd;
mod verify_cmd;

use clap::Parser;
use cli::{BenchKind, Cli, Command};

fn main() -> std::process::ExitCode {
    restore_sigpipe();
    let argv: Vec<String> = std::env::args().collect();
    let json = exit::json_requested(&argv);
    let cli = match Cli::try_parse_from(&argv) {
        Ok(cli) => cli,
        Err(e) if json && e.use_stderr() => {
            let _ = e.print();
            let text = e.to_string();
            let first = text.lines().next().unwrap_or_default();
            let msg = exit::CliError::usage(first.trim_start_matches("error: "));
            println!("{}", exit::error_json(&msg));
            return std::process::ExitCode::from(exit::USAGE);
        }
        Err(e) => e.exit(),
    };
    progress::configure(cli.verbose, json);
    source::configure(&cli.front);
    if let Err(e) = solver::configure(&cli.solver) {
        return exit::finish(Err(e), json);
    }
    if let Some(dir) = cli.solver.cache.clone() {
        warpsafe_smt::set_cache_dir(Some(dir));
    }
    if let Some(dir) = cli.solver.dump_smt.clone() {
        warpsafe_smt::set_dump_dir(Some(dir));
    }
    // The cache directory also keeps clang's answers (reading a file is most of a warm run).
    if let Some(dir) = warpsafe_smt::settings().cache_dir {
        warpsafe_clang_front::set_cache_dir(Some(dir.join("clang")));
    }
    if solver::needed_by(&cli.command) {
        if let Err(e) = solver::require_z3() {
            return exit::finish(Err(e), json);
        }
    }
    let result = match cli.command {
        Command::Run(args) => run_cmd::run(&args),
        Command::Ir(args) => ir_cmd::run(&args),
        Command::Verify(args) => verify_cmd::run(&args),
        Command::Groebner(args) => groebner_cmd::run(&args),
        Command::Equiv(args) => equiv_cmd::equiv(&args),
        Command::Prove(args) if args.all_sizes => {
            allsizes_cmd::check_flags(&args.sym).and_then(|()| {
                allsizes_cmd::run(
                    &args.file,
                    Some(std::path::Path::new(&args.spec)),
                    args.select.kernel.as_deref(),
                    args.sym.launch.format,
                )
            })
        }
        Command::Prove(args) => equiv_cmd::prove(&args),
        Command::Validate(args) => validate_cmd::validate(&args),
        Command::Cuda(args) => cuda_cmd::cuda(&args),
        Command::Ptx(args) => cuda_cmd::ptx(&args),
        Command::CheckPerm(args) => perm_cmd::run(&args),
        Command::Bench(b) => match b.which {
            BenchKind::Interp {
                repeat,
                kernels,
                format,
                svg,
            } => bench::interp(repeat, &kernels, format, svg.as_deref()),
            BenchKind::Groebner {
                repeat,
                limit,
                exact,
                format,
                svg,
            } => groebner_cmd::bench(repeat, limit, exact, format, svg.as_deref()),
            BenchKind::Intake { dir, format, svg } => intake::bench(&dir, format, svg.as_deref()),
            BenchKind::Verify {
                kernels,
                repeat,
                format,
                svg,
            } => bench::verify(&kernels, repeat, format, svg.as_deref()),
            BenchKind::Scans { bound, format, svg } => {
                scans_bench::bench(std::path::Path::new("."), bound, format, svg.as_deref())
            }
            BenchKind::Suite {
                kernels,
                specs,
                max_size,
                only,
                format,
                svg,
            } => suite::bench(&kernels, &specs, max_size, &only, format, svg.as_deref()),
            BenchKind::Equiv {
                dir,
                only,
                repeat,
                format,
                svg,
            } => equiv_cmd::bench(&dir, &only, repeat, format, svg.as_deref()),
            BenchKind::Mutate {
                kernels,
                only,
                limit,
                configs,
                timeout,
                format,
                svg,
            } => mutate::bench(&mutate::Options {
                kernels,
                only,
                limit: limit.map(|n| n as usize),
                configs: configs as usize,
                timeout,
                format,
                svg,
            }),
        },
    };
    exit::finish(result, json)
}

/// Lets a closed pipe (`warpsafe … | head`) end the process quietly, as for any Unix tool,
/// instead of a panic inside `println!`: Rust ignores SIGPIPE by default.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any other thread exists; resetting a
    // signal's disposition to its default has no other effect on this process.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
