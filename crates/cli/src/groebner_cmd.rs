//! `warpsafe groebner` and `bench groebner`: reduced Gröbner bases over F_p (F4 or
//! Buchberger), the backend of the dense step, and the proof of its kernel.

use crate::cli::{Format, GroebnerArgs, GroebnerBackend, VerifyFormat};
use crate::exit::{CliError, CLEAN};
use crate::progress::{self, Task, Ticker};
use crate::summary::Table;
use serde_json::json;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};
use warpsafe_groebner::{
    dense, Algorithm, KernelBackend, Options, Order, Round, RoundHook, System,
};

fn options(args: &GroebnerArgs) -> Result<Options, CliError> {
    let mut opts = Options {
        threads: args.threads,
        random_combinations: !args.exact,
        ..Options::default()
    };
    if args.backend == GroebnerBackend::Cuda {
        if !warpsafe_cuda::device_available() {
            return Err(CliError::usage(
                "no CUDA device: the NVIDIA driver or a GPU is missing (use --backend cpu)",
            ));
        }
        opts.dense = Arc::new(KernelBackend::cuda());
    }
    Ok(opts)
}

/// Reports F4's rounds: on the spinner, and with `-v` one line each.
fn round_hook(ticker: Ticker) -> RoundHook {
    Arc::new(move |r: &Round| {
        ticker.message(format!(
            "round {}, degree {}, {} pairs pending",
            r.step, r.degree, r.pending
        ));
        progress::say(|| {
            format!(
                "F4 round {}: degree {}, {} pairs, matrix {}x{}, {} new, {} pending ({:.3} s)",
                r.step,
                r.degree,
                r.pairs,
                r.matrix.0,
                r.matrix.1,
                r.new,
                r.pending,
                r.time.as_secs_f64()
            )
        });
    })
}

/// Prints the kernel F4's dense step launches (its CUDA C, generated from the same IR the CPU
/// runs) and its parametric proof.
fn explain() -> Result<(), CliError> {
    let k = dense::contract()
        .map_err(|e| CliError::usage(format!("the gauss_elim kernel does not build: {e}")))?;
    println!(
        "F4's dense elimination step is the #[kernel] `gauss_elim` ({}): one thread per row.",
        dense::gauss_elim::source_file()
    );
    println!(
        "`--backend cpu` runs its body natively (rows in parallel); `--backend cuda` launches"
    );
    println!("this CUDA C, generated from the same IR:");
    match warpsafe_cuda::generate(&k) {
        Ok(c) => {
            for line in c.lines() {
                println!("    {line}");
            }
        }
        Err(e) => println!("    (no CUDA C: {e})"),
    }
    println!("Contract of every launch from F4: len(mat) = nrows * ncols, len(pivot_row) = ncols,");
    println!("pcol < ncols, p >= 1, a one-dimensional launch. `warpsafe verify` on this kernel,");
    println!("for every launch and every matrix size:");
    let report = warpsafe_verify::verify(&k, &warpsafe_verify::Config::for_kernel(&k));
    for p in &report.results {
        let verdict = match &p.verdict {
            warpsafe_verify::Verdict::Verified => "verified".to_string(),
            warpsafe_verify::Verdict::Violated(cx) => format!("VIOLATED: {}", cx.message),
            warpsafe_verify::Verdict::Possible { counterexample, .. } => {
                format!("possibly violated: {}", counterexample.message)
            }
            warpsafe_verify::Verdict::Unknown { reason, .. } => format!("unknown: {reason}"),
        };
        println!(
            "  {:<11} {verdict} ({:.3} s)",
            p.property.name(),
            p.seconds.max(0.0)
        );
    }
    println!();
    Ok(())
}

/// `warpsafe groebner FILE`.
pub fn run(args: &GroebnerArgs) -> Result<u8, CliError> {
    let text = std::fs::read_to_string(&args.file).map_err(|e| CliError::io(&args.file, e))?;
    let mut sys = warpsafe_groebner::parse_system(&text)
        .map_err(|e| CliError::usage(format!("{}:{e}", args.file.display())))?;
    if let Some(o) = &args.order {
        sys.order = o.parse::<Order>().map_err(CliError::usage)?;
    }
    let algo = args.algo.parse::<Algorithm>().map_err(|_| {
        CliError::usage(format!(
            "unknown algorithm `{}` (f4, buchberger)",
            args.algo
        ))
    })?;
    if args.explain && args.format == VerifyFormat::Human {
        explain()?;
    }
    let task = Task::spinner(&format!("{algo}"));
    let opts = Options {
        on_round: Some(round_hook(task.ticker())),
        ..options(args)?
    };
    progress::say(|| {
        format!(
            "{algo} on {} ({} variables, {} polynomials, mod {})",
            args.file.display(),
            sys.vars.len(),
            sys.polys.len(),
            sys.prime
        )
    });
    let basis = warpsafe_groebner::groebner(&sys, algo, &opts)
        .map_err(|e| CliError::usage(e.to_string()))?;
    drop(task);
    progress::say(|| {
        format!(
            "{algo} done: {} elements, {} rounds ({:.3} s)",
            basis.len(),
            basis.stats.steps,
            basis.stats.time.total.as_secs_f64()
        )
    });
    let checked = args.check.then(|| {
        warpsafe_groebner::is_groebner_basis(&sys, &basis) && warpsafe_groebner::is_reduced(&basis)
    });
    let st = &basis.stats;
    let t = &st.time;
    match args.format {
        VerifyFormat::Sarif => {
            let file = args.file.display().to_string();
            println!(
                "{}",
                crate::sarif::render_check("groebner", &file, sarif_results(&file, checked))
            );
        }
        VerifyFormat::Json => {
            let polys: Vec<String> = basis.polys.iter().map(|p| p.to_text(&basis.vars)).collect();
            let j = json!({
                "file": args.file.display().to_string(),
                "algorithm": algo.to_string(),
                "order": sys.order.to_string(),
                "prime": basis.prime,
                "vars": basis.vars,
                "size": basis.len(),
                "basis": polys,
                "checked": checked,
                "stats": {
                    "pairs_created": st.pairs_created, "pairs_reduced": st.pairs_reduced,
                    "zero_reductions": st.zero_reductions, "steps": st.steps,
                    "matrix_rows": st.matrix_rows, "largest_matrix": [st.max_matrix.0, st.max_matrix.1],
                    "largest_dense": [st.max_dense.0, st.max_dense.1],
                },
                "seconds": {
                    "total": t.total.as_secs_f64(), "pairs": t.pairs.as_secs_f64(),
                    "symbolic": t.symbolic.as_secs_f64(), "sparse": t.sparse.as_secs_f64(),
                    "dense": t.dense.as_secs_f64(), "interreduce": t.interreduce.as_secs_f64(),
                },
            });
            crate::report::print_json(&j)?;
        }
        VerifyFormat::Human => {
            print!("{}", basis.to_text());
            eprintln!(
                "{}: reduced basis of {} polynomials ({algo}, {}, p = {}) in {:.4} s: {} steps, {} pairs, largest matrix {}x{}, largest dense block {}x{}",
                args.file.display(), basis.len(), sys.order, basis.prime, t.total.as_secs_f64(),
                st.steps, st.pairs_reduced, st.max_matrix.0, st.max_matrix.1, st.max_dense.0, st.max_dense.1
            );
            if let Some(ok) = checked {
                eprintln!(
                    "check: {}",
                    if ok {
                        "every input and S-pair reduces to 0; the basis is reduced"
                    } else {
                        "FAILED"
                    }
                );
            }
        }
    }
    match checked {
        Some(false) => Ok(crate::exit::FINDINGS),
        _ => Ok(CLEAN),
    }
}

/// SARIF results of a computed basis: none when `--check` proved it a reduced Gröbner basis,
/// an error when the check failed, a note when it was not checked (F4's default linear
/// algebra is Monte Carlo, so an unchecked basis is not a proved one).
fn sarif_results(file: &str, checked: Option<bool>) -> Vec<serde_json::Value> {
    let (rule, level, text) = match checked {
        Some(true) => return vec![],
        Some(false) => (
            "not-a-basis",
            "error",
            "--check failed: some input or S-pair does not reduce to 0, or the basis is not reduced",
        ),
        None => (
            "unchecked",
            "note",
            "the basis was computed but not checked; --check proves it a reduced Gröbner basis",
        ),
    };
    vec![crate::sarif::at_line(file, 0, rule, level, text.into())]
}

/// Another system's result on one benchmark system: `None` when it is not installed, else its
/// (seconds, basis size) or why it failed.
type ToolResult = Option<Result<(f64, usize), String>>;

/// Times another system's Gröbner basis computation on `sys` by running its binary, or says
/// why it cannot. Returns (seconds, basis size) on success.
fn other_tool(tool: &str, sys: &System, limit: f64) -> ToolResult {
    let have = |bin: &str| {
        Command::new("sh")
            .args(["-c", &format!("command -v {bin}")])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let vars = sys.vars.join(",");
    let polys: Vec<String> = sys.polys.iter().map(|p| p.to_text(&sys.vars)).collect();
    let (bin, args, script) = match tool {
        "Singular" => {
            if !have("Singular") {
                return None;
            }
            let script = format!(
                "ring r = {}, ({vars}), dp; ideal i = {}; option(redSB); int t = rtimer; ideal g = std(i); int e = rtimer - t; print(string(e) + \" \" + string(size(g))); quit;",
                sys.prime,
                polys.join(", ")
            );
            ("Singular", vec!["-q", "--ticks-per-sec=1000"], script)
        }
        "M2" => {
            if !have("M2") {
                return None;
            }
            let script = format!(
                "R = ZZ/{}[{vars}, MonomialOrder=>GRevLex]; I = ideal({}); r = elapsedTiming groebnerBasis(I, Strategy=>\"F4\"); print(toString(floor(1000 * r#0)) | \" \" | toString(numcols r#1)); exit 0;",
                sys.prime,
                polys.join(", ")
            );
            ("M2", vec!["--script", "/dev/stdin"], script)
        }
        _ => return None,
    };
    let mut child = match Command::new(bin)
        .args(&args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => return Some(Err(e.to_string())),
    };
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        let _ = stdin.write_all(script.as_bytes());
    }
    let deadline = Instant::now() + Duration::from_secs_f64(limit);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Some(Err(format!("over the {limit} s limit")));
            }
            Err(e) => return Some(Err(e.to_string())),
        }
    }
    let out = match child.wait_with_output() {
        Ok(o) => o,
        Err(e) => return Some(Err(e.to_string())),
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let mut it = last.split_whitespace();
    match (
        it.next().and_then(|m| m.parse::<f64>().ok()),
        it.next().and_then(|n| n.parse::<usize>().ok()),
    ) {
        (Some(ms), Some(n)) => Some(Ok((ms / 1000.0, n))),
        _ => Some(Err(format!("unexpected output `{}`", last.trim()))),
    }
}

/// `warpsafe bench groebner`: Cyclic-5..8 and Katsura-6..11 with F4 (single thread, medians),
/// beside Singular's `std` and Macaulay2's F4 when they are installed.
pub fn bench(
    repeat: usize,
    limit: f64,
    exact: bool,
    format: Format,
    svg: Option<&std::path::Path>,
) -> Result<u8, CliError> {
    let systems = warpsafe_groebner::bench_systems();
    let opts = Options {
        threads: Some(1),
        time_limit: Some(Duration::from_secs_f64(limit)),
        random_combinations: !exact,
        ..Options::default()
    };
    let start = Instant::now();
    let task = Task::bar("bench groebner", systems.len() as u64);
    let mut rows = vec![];
    let mut others: Vec<Vec<ToolResult>> = vec![];
    for one in systems.chunks(1) {
        task.message(one[0].0.clone());
        rows.extend(warpsafe_groebner::bench_table(
            one,
            Algorithm::F4,
            repeat,
            &opts,
        ));
        others.push(
            ["Singular", "M2"]
                .iter()
                .map(|t| other_tool(t, &one[0].1, limit))
                .collect(),
        );
        if let Some(r) = rows.last() {
            progress::say(|| {
                format!(
                    "row {}: {} elements, {} s{}",
                    r.name,
                    r.size.map_or("-".into(), |n| n.to_string()),
                    r.median
                        .map_or("-".into(), |d| format!("{:.4}", d.as_secs_f64())),
                    if r.note.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", r.note)
                    }
                )
            });
        }
        task.inc(1);
    }
    drop(task);
    let cell = |c: &ToolResult| match c {
        None => "not installed".to_string(),
        Some(Ok((s, n))) => format!("{s:.3} ({n})"),
        Some(Err(e)) if e.starts_with("over the") => format!("> {limit}"),
        Some(Err(e)) => format!("error: {e}"),
    };
    match format {
        Format::Json => {
            let j: Vec<_> = rows
                .iter()
                .zip(&others)
                .map(|(r, o)| {
                    json!({
                        "system": r.name, "vars": r.nvars, "size": r.size,
                        "seconds": r.median.map(|d| d.as_secs_f64()), "note": r.note,
                        "singular": cell(&o[0]), "macaulay2": cell(&o[1]),
                    })
                })
                .collect();
            crate::report::print_json(&j)?;
        }
        Format::Human => {
            let mut t = Table::new(&[
                "system",
                "vars",
                "size",
                "warpsafe F4 s",
                "Singular std s (size)",
                "Macaulay2 F4 s (size)",
                "note",
            ]);
            for (r, o) in rows.iter().zip(&others) {
                t.row(vec![
                    r.name.clone(),
                    r.nvars.to_string(),
                    r.size.map_or("-".into(), |n| n.to_string()),
                    r.median
                        .map_or("-".into(), |d| format!("{:.4}", d.as_secs_f64())),
                    cell(&o[0]),
                    cell(&o[1]),
                    r.note.clone(),
                ]);
            }
            println!(
                "Gröbner bases, grevlex mod 65521, one thread, {} linear algebra, median of {} run(s) ({:.0} s in all)",
                if exact {
                    "exact"
                } else {
                    "Monte Carlo (random row combinations, error < k·2^-60 per matrix)"
                },
                repeat.max(1),
                start.elapsed().as_secs_f64()
            );
            print!("{}", t.render());
        }
    }
    if let Some(path) = svg {
        let mut seconds = vec![];
        for (r, o) in rows.iter().zip(&others) {
            if let Some(d) = r.median {
                seconds.push((format!("{} (warpsafe F4)", r.name), d.as_secs_f64()));
            }
            for (tool, c) in ["Singular", "Macaulay2"].iter().zip(o) {
                if let Some(Ok((s, _))) = c {
                    seconds.push((format!("{} ({tool})", r.name), *s));
                }
            }
        }
        let title = format!(
            "warpsafe bench groebner: seconds per system (one thread, median of {}; systems over the {limit} s limit left out)",
            repeat.max(1)
        );
        std::fs::write(path, crate::html::bar_chart(&title, &seconds))
            .map_err(|e| CliError::io(path, e))?;
    }
    Ok(CLEAN)
}

#[cfg(test)]
mod tests {
    use super::sarif_results;

    #[test]
    fn sarif_has_a_result_only_for_a_failed_or_missing_check() {
        assert!(sarif_results("s.txt", Some(true)).is_empty());
        let failed = sarif_results("s.txt", Some(false));
        assert_eq!(failed.len(), 1);
        assert_eq!(failed[0]["level"], "error");
        assert_eq!(failed[0]["ruleId"], "not-a-basis");
        let unchecked = sarif_results("s.txt", None);
        assert_eq!(unchecked[0]["level"], "note");
        assert_eq!(unchecked[0]["ruleId"], "unchecked");
        let uri = &unchecked[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
        assert_eq!(uri, "s.txt");
    }
}
