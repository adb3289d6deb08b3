//! `run --schedules N`: the kernel again under N random legal schedules, outputs compared
//! bit for bit with the default schedule's. A race-free kernel without floating-point atomics
//! must give the same bits every time; a difference is a schedule-dependent result (a race
//! the dynamic checker did not see, or an order-dependent atomic).

use crate::exit::CliError;
use warpsafe_exec::{Arg, LaunchConfig, Options, Outcome, Program};
use warpsafe_ir::Kernel;

/// What the extra schedules showed.
#[derive(serde::Serialize)]
pub struct ScheduleCheck {
    /// Random schedules run.
    pub schedules: u64,
    /// The first difference from the default schedule's outputs, if any.
    pub difference: Option<String>,
}

/// Runs `schedules` random schedules (seeds 1..=schedules) and compares every buffer with
/// `base`, the default schedule's outcome.
pub fn check(
    kernel: &Kernel,
    ptx: Option<&Program>,
    config: &LaunchConfig,
    args: &[Arg],
    opts: &Options,
    base: &Outcome,
    schedules: u64,
) -> Result<ScheduleCheck, CliError> {
    for seed in 1..=schedules {
        let opts = Options {
            schedule_seed: Some(seed),
            ..opts.clone()
        };
        let out = match ptx {
            Some(p) => warpsafe_exec::run_program(p, config, args.to_vec(), &opts),
            None => warpsafe_exec::run(kernel, config, args.to_vec(), &opts),
        }
        .map_err(|e| CliError::usage(format!("cannot launch `{}`: {e}", kernel.name)))?;
        if let Some(d) = first_difference(kernel, base, &out) {
            return Ok(ScheduleCheck {
                schedules: seed,
                difference: Some(format!("schedule {seed}: {d}")),
            });
        }
    }
    Ok(ScheduleCheck {
        schedules,
        difference: None,
    })
}

fn first_difference(kernel: &Kernel, a: &Outcome, b: &Outcome) -> Option<String> {
    for ((p, x), y) in kernel.params.iter().zip(&a.args).zip(&b.args) {
        let (Arg::Buffer(x), Arg::Buffer(y)) = (x, y) else {
            continue;
        };
        if let Some(i) = (0..x.data.len()).find(|&i| x.data.get(i) != y.data.get(i)) {
            let show = |buf: &warpsafe_exec::Buffer| {
                buf.data
                    .get(i)
                    .map(|&bits| warpsafe_ir::Value::from_bits(buf.elem, bits).to_string())
                    .unwrap_or_default()
            };
            return Some(format!(
                "{}[{i}] = {} (default schedule: {})",
                p.name,
                show(y),
                show(x)
            ));
        }
    }
    None
}
