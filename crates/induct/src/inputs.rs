//! Which input buffer a scan's data comes from. A [`crate::Summary`] names input elements by
//! index only, so the abstraction cannot tell `x[k]` from `y[k]`: a kernel that scans `y`
//! would meet a spec that scans `x`, and `x[0] + y[1]` would look like a sum of adjacent
//! elements. Both engines therefore take their data from one input buffer, and the spec must
//! name that one.

use crate::bounded::SizeVerdict;
use crate::failure::{Failure, FailureKind};
use warpsafe_equiv::{Spec, SpecExpr, SpecExprKind};
use warpsafe_ir::{Expr, ExprKind, Kernel, MemRef, ParamId, ParamKind, Span, Stmt};

/// `None` when the kernel reads at most one input buffer and the spec names no other; else
/// the verdict at every size: unsupported (two input buffers read), outside the abstraction
/// (a spec over two input buffers), or a failure naming both buffers (the spec's data is
/// another buffer than the kernel's).
pub fn check(k: &Kernel, spec: Option<&Spec>) -> Option<SizeVerdict> {
    let read = kernel_inputs(k);
    if let [(a, _), (b, span), ..] = read.as_slice() {
        return Some(SizeVerdict::Failed(Failure {
            kind: FailureKind::Unsupported(format!(
                "data from two input buffers, `{}` and `{}` (the abstraction names an input \
                 element by its index only)",
                k.param(*a).name,
                k.param(*b).name
            )),
            span: *span,
        }));
    }
    let named = spec_inputs(k, spec?);
    if let [a, b, ..] = named.as_slice() {
        return Some(SizeVerdict::BadSpec(format!(
            "the spec combines two input buffers, `{}` and `{}`",
            k.param(*a).name,
            k.param(*b).name
        )));
    }
    match (read.first(), named.first()) {
        (Some((kernel, span)), Some(spec)) if kernel != spec => {
            Some(SizeVerdict::Failed(Failure {
                kind: FailureKind::WrongInput {
                    spec: k.param(*spec).name.clone(),
                    kernel: k.param(*kernel).name.clone(),
                },
                span: *span,
            }))
        }
        _ => None,
    }
}

fn is_input(k: &Kernel, p: ParamId) -> bool {
    matches!(
        k.params.get(p.0 as usize).map(|p| p.kind),
        Some(ParamKind::Buffer {
            writable: false,
            ..
        })
    )
}

/// Read-only buffers the kernel loads from, each with its first load, in order of first load.
fn kernel_inputs(k: &Kernel) -> Vec<(ParamId, Span)> {
    let mut out: Vec<(ParamId, Span)> = vec![];
    let mut visit = |e: &Expr| {
        if let ExprKind::Load(MemRef::Global(p), _) = e.kind {
            if is_input(k, p) && !out.iter().any(|(q, _)| *q == p) {
                out.push((p, e.span));
            }
        }
    };
    for s in &k.body {
        s.walk(&mut |s: &Stmt| {
            for e in s.exprs() {
                e.walk(&mut visit);
            }
        });
    }
    out
}

/// Read-only buffers the spec's values name, in order of first mention.
fn spec_inputs(k: &Kernel, spec: &Spec) -> Vec<ParamId> {
    fn visit(k: &Kernel, e: &SpecExpr, out: &mut Vec<ParamId>) {
        match &e.kind {
            SpecExprKind::Num(_) | SpecExprKind::Name(_) => {}
            SpecExprKind::Index(buf, idx) => {
                if let Some(p) = k.param_named(buf).filter(|&p| is_input(k, p)) {
                    if !out.contains(&p) {
                        out.push(p);
                    }
                }
                idx.iter().for_each(|i| visit(k, i, out));
            }
            SpecExprKind::Bin(_, a, b) => {
                visit(k, a, out);
                visit(k, b, out);
            }
            SpecExprKind::Neg(a) => visit(k, a, out),
            SpecExprKind::Call(_, args) => args.iter().for_each(|a| visit(k, a, out)),
            SpecExprKind::Reduce(_, r, body) => {
                if let Some(lo) = &r.lo {
                    visit(k, lo, out);
                }
                visit(k, &r.hi, out);
                visit(k, body, out);
            }
        }
    }
    let mut out = vec![];
    for eq in &spec.equations {
        visit(k, &eq.value, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCAN_OF_Y: &str = r#"
//--blockDim=8 --gridDim=1
//@ len(x) = n
//@ len(y) = n
//@ len(z) = n
__global__ void scan_y(const float* x, const float* y, float* z, int n) {
    __shared__ float s[8];
    int t = threadIdx.x;
    s[t] = y[t];
    __syncthreads();
    for (int d = 1; d < blockDim.x; d *= 2) {
        float v = s[t];
        if (t >= d) v = s[t - d] + v;
        __syncthreads();
        s[t] = v;
        __syncthreads();
    }
    z[t] = s[t];
}"#;

    fn kernel(src: &str) -> Kernel {
        match warpsafe_cuda_front::compile(src) {
            Ok(mut f) => f.kernels.remove(0),
            Err(e) => panic!("{e:?}"),
        }
    }

    fn spec(text: &str) -> Spec {
        match Spec::parse(text) {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn a_spec_over_another_buffer_than_the_kernel_reads_is_not_proved() {
        let k = kernel(SCAN_OF_Y);
        let wrong = spec("z[i] = sum(k < i + 1, x[k]) for i < n");
        let v = crate::check_size(&k, Some(&wrong), 8, 1);
        assert!(
            matches!(&v, SizeVerdict::Failed(f) if matches!(&f.kind,
                FailureKind::WrongInput { spec, kernel } if spec == "x" && kernel == "y")),
            "{v:?}"
        );
        let right = spec("z[i] = sum(k < i + 1, y[k]) for i < n");
        assert!(matches!(
            crate::check_size(&k, Some(&right), 8, 1),
            SizeVerdict::Proved { .. }
        ));
        let outcome = crate::prove_all_sizes(&k, Some(&wrong));
        assert!(
            !matches!(
                outcome.verdict,
                crate::Verdict::ProvedAllSizes { .. } | crate::Verdict::ProvedUpTo { .. }
            ),
            "{:?}",
            outcome.verdict
        );
    }

    #[test]
    fn two_input_buffers_are_outside_the_abstraction() {
        let src = SCAN_OF_Y.replace("s[t] = y[t];", "s[t] = (t % 2 == 0) ? x[t] : y[t];");
        let k = kernel(&src);
        let v = crate::check_size(
            &k,
            Some(&spec("z[i] = sum(k < i + 1, x[k]) for i < n")),
            8,
            1,
        );
        assert!(
            matches!(&v, SizeVerdict::Failed(f) if matches!(&f.kind, FailureKind::Unsupported(m) if m.contains("two input buffers"))),
            "{v:?}"
        );
        let k = kernel(SCAN_OF_Y);
        let mixed = spec("z[i] = sum(k < i, y[k]) + x[i] for i < n");
        assert!(matches!(
            crate::check_size(&k, Some(&mixed), 8, 1),
            SizeVerdict::BadSpec(m) if m.contains("two input buffers")
        ));
    }
}
