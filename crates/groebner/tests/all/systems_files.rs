//! The files in `examples/systems/` are exactly what the generators produce, and parse back.

use std::path::Path;
use warpsafe_groebner::{bundled_systems, parse_system};

#[test]
fn bundled_files_are_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/systems");
    for (name, sys) in bundled_systems() {
        let path = dir.join(format!("{name}.txt"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; regenerate with `cargo run -p warpsafe-groebner --example gen_systems`",
                path.display()
            )
        });
        assert_eq!(
            text,
            sys.to_text(),
            "{name}.txt is stale; regenerate with `cargo run -p warpsafe-groebner --example gen_systems`"
        );
        assert_eq!(parse_system(&text).expect("parses"), sys, "{name}");
    }
}
