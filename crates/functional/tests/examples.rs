//! Every barrier-free benchmark kernel is proved against its shipped spec for every size; wrong
//! specs and buggy kernels never are.

use std::path::Path;
use warpsafe_equiv::Spec;
use warpsafe_functional::{prove_all_sizes, Options, Outcome};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn prove_files(kernel: &str, spec_text: &str) -> Outcome {
    let path = root().join("examples/kernels").join(format!("{kernel}.cu"));
    let src = std::fs::read_to_string(&path).expect("kernel source");
    let module = warpsafe_cuda_front::compile(&src).expect("parses");
    let spec = Spec::parse(spec_text).expect("spec parses");
    prove_all_sizes(&module.kernels[0], &spec, &Options::default())
}

fn spec_of(kernel: &str) -> String {
    std::fs::read_to_string(root().join("examples/specs").join(format!("{kernel}.spec"))).expect("spec")
}

fn show(o: &Outcome) -> String {
    let mut s = format!("{} {:?}\n", o.verdict, o.reason);
    for ob in &o.obligations {
        s.push_str(&format!("  {} {} [{}] {} {:?}\n", ob.verdict, ob.kind, ob.method, ob.what, ob.reason));
    }
    s
}

#[test]
fn shipped_specs_prove_for_every_size() {
    for k in ["vector_add", "vector_square", "saxpy", "scalar_mul", "template_scale", "matrix_transpose", "matrix_mul", "gauss_elim"] {
        let o = prove_files(k, &spec_of(k));
        println!("{k}: {}", show(&o));
        assert_eq!(o.verdict, "proved", "{k}: {}", show(&o));
    }
}
