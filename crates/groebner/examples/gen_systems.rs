//! Writes the bundled systems to `examples/systems/` of the workspace:
//! `cargo run -p warpsafe-groebner --example gen_systems`.

use std::path::Path;

fn main() -> std::io::Result<()> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/systems");
    std::fs::create_dir_all(&dir)?;
    for (name, sys) in warpsafe_groebner::bundled_systems() {
        let path = dir.join(format!("{name}.txt"));
        std::fs::write(&path, sys.to_text())?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
