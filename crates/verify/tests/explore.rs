mod common;
use warpsafe_verify::{verify, Verdict};

#[test]
#[ignore]
fn explore() {
    let only = std::env::var("ONLY").unwrap_or_default();
    for f in common::all_files() {
        if !f.contains(&only) {
            continue;
        }
        let k = common::kernel(&f);
        let cfg = common::config(&k);
        let r = verify(&k, &cfg);
        let mut line = format!("{f:45} {:5.2}s q={:3}", r.seconds, r.queries);
        for p in &r.results {
            let v = match &p.verdict {
                Verdict::Verified => "ok".to_string(),
                Verdict::Violated(c) => format!(
                    "VIOL[{}{}]",
                    c.category,
                    match &c.replay {
                        Some(r) if r.reproduced => "+R",
                        Some(_) => "-R",
                        None => "",
                    }
                ),
                Verdict::Unknown { reason, .. } => {
                    format!("UNK({})", &reason[..reason.len().min(60)])
                }
            };
            line.push_str(&format!(" {}={} ({:.2}s)", p.property.name(), v, p.seconds));
        }
        println!("{line}");
        if std::env::var("DETAIL").is_ok() {
            for p in &r.results {
                if let Verdict::Violated(c) = &p.verdict {
                    println!(
                        "   {}: {} replay={:?}",
                        p.property.name(),
                        c.message,
                        c.replay
                    );
                }
            }
        }
    }
}
