//! Rendering errors and findings with source excerpts (ariadne).

use ariadne::{Color, Config, Label, Report, ReportKind, Source};
use warpsafe_cuda_front::FrontError;
use warpsafe_exec::{Finding, Severity};
use warpsafe_ir::{SourceFile, Span};

fn clamp(file: &SourceFile, span: Span) -> std::ops::Range<usize> {
    let len = file.text.len();
    let lo = (span.lo as usize).min(len);
    let hi = (span.hi as usize).clamp(lo, len);
    lo..hi
}

/// Colours only when stderr is a terminal.
fn config() -> Config {
    Config::default().with_color(std::io::IsTerminal::is_terminal(&std::io::stderr()))
}

fn emit(file: &SourceFile, report: Report<'_, (String, std::ops::Range<usize>)>) {
    let cache = (file.name.clone(), Source::from(file.text.as_str()));
    let _ = report.eprint(cache);
}

/// Prints frontend errors to stderr.
pub fn front_errors(file: &SourceFile, errors: &[FrontError]) {
    for e in errors {
        let range = clamp(file, e.span);
        let mut r = Report::build(ReportKind::Error, (file.name.clone(), range.clone()))
            .with_config(config())
            .with_message(&e.message)
            .with_label(
                Label::new((file.name.clone(), range))
                    .with_message(&e.message)
                    .with_color(Color::Red),
            );
        if let Some(n) = &e.note {
            r = r.with_note(n);
        }
        emit(file, r.finish());
    }
}

/// Prints one finding to stderr, pointing at both sites when there are two.
pub fn finding(file: &SourceFile, f: &Finding) {
    if file.text.is_empty() || f.at.span.is_dummy() {
        eprintln!(
            "{}[{}]: {}",
            severity_word(f.severity),
            f.category,
            f.message
        );
        return;
    }
    let kind = match f.severity {
        Severity::Error => ReportKind::Error,
        Severity::Warning => ReportKind::Warning,
    };
    let range = clamp(file, f.at.span);
    let mut r = Report::build(kind, (file.name.clone(), range.clone()))
        .with_config(config())
        .with_code(f.category.name())
        .with_message(&f.message)
        .with_label(
            Label::new((file.name.clone(), range))
                .with_message(format!(
                    "thread {:?} of block {:?}",
                    f.at.thread, f.at.block
                ))
                .with_color(Color::Red),
        );
    if let Some(o) = &f.other {
        if !o.span.is_dummy() {
            r = r.with_label(
                Label::new((file.name.clone(), clamp(file, o.span)))
                    .with_message(format!("thread {:?} of block {:?}", o.thread, o.block))
                    .with_color(Color::Yellow),
            );
        }
    }
    if f.count > 1 {
        r = r.with_note(format!("seen {} times", f.count));
    }
    emit(file, r.finish());
}

/// `error` or `warning`.
pub fn severity_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}
