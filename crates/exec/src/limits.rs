//! Sizes of memory: parsing `4G`-style limits, printing byte counts, and the default memory
//! limit of a run (a share of the machine's memory).

use std::fmt;
use std::str::FromStr;

/// A number of bytes, parsed from `4G`, `512M`, `64K`, `1.5G` or plain bytes (suffixes are
/// powers of 1024; `B`, `iB` and lower case are accepted) and printed as `4.0 GiB`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ByteSize(pub u64);

impl FromStr for ByteSize {
    type Err = String;

    fn from_str(text: &str) -> Result<ByteSize, String> {
        let bad = || format!("`{text}` is not a size: want e.g. 4G, 512M, 64K or plain bytes");
        let t = text.trim();
        let digits = t
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(t.len());
        let (number, suffix) = t.split_at(digits);
        let unit: u64 = match suffix.trim().to_ascii_lowercase().as_str() {
            "" | "b" => 1,
            "k" | "kb" | "kib" => 1 << 10,
            "m" | "mb" | "mib" => 1 << 20,
            "g" | "gb" | "gib" => 1 << 30,
            "t" | "tb" | "tib" => 1 << 40,
            _ => return Err(bad()),
        };
        if let Ok(n) = number.parse::<u64>() {
            return n.checked_mul(unit).map(ByteSize).ok_or_else(bad);
        }
        let x: f64 = number.parse().map_err(|_| bad())?;
        let bytes = x * unit as f64;
        if !bytes.is_finite() || bytes >= u64::MAX as f64 {
            return Err(bad());
        }
        Ok(ByteSize(bytes as u64))
    }
}

impl fmt::Display for ByteSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
        if self.0 < 1 << 10 {
            return write!(f, "{} bytes", self.0);
        }
        let mut x = self.0 as f64 / 1024.0;
        let mut unit = 0;
        while x >= 1024.0 && unit + 1 < UNITS.len() {
            x /= 1024.0;
            unit += 1;
        }
        write!(f, "{x:.1} {}", UNITS[unit])
    }
}

/// The limit used when none is given: half of the memory this process may use (the
/// machine's `MemTotal`, or a smaller cgroup limit), 4 GiB when neither can be read.
pub fn default_memory_limit() -> u64 {
    let total = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| meminfo_total(&s));
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok());
    match (total, cgroup) {
        (Some(t), Some(c)) => t.min(c) / 2,
        (Some(m), None) | (None, Some(m)) => m / 2,
        (None, None) => 4 << 30,
    }
}

/// `MemTotal` in bytes from the text of `/proc/meminfo`.
fn meminfo_total(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line
        .trim_start_matches("MemTotal:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_suffixes() {
        let p = |s: &str| s.parse::<ByteSize>().map(|b| b.0);
        assert_eq!(p("4G"), Ok(4 << 30));
        assert_eq!(p("512M"), Ok(512 << 20));
        assert_eq!(p("64k"), Ok(64 << 10));
        assert_eq!(p("2GiB"), Ok(2 << 30));
        assert_eq!(p("1.5G"), Ok(3 << 29));
        assert_eq!(p("1048576"), Ok(1 << 20));
        assert_eq!(p(" 7 B "), Ok(7));
        for bad in ["", "G", "4X", "-1G", "1.2.3M", "99999999999T", "abc"] {
            assert!(p(bad).is_err(), "{bad} parsed");
        }
    }

    #[test]
    fn sizes_print_readably() {
        assert_eq!(ByteSize(12).to_string(), "12 bytes");
        assert_eq!(ByteSize(4 << 30).to_string(), "4.0 GiB");
        assert_eq!(ByteSize(1536).to_string(), "1.5 KiB");
        assert_eq!(ByteSize(u64::MAX).to_string(), "16.0 EiB");
    }

    #[test]
    fn meminfo_total_is_read_in_bytes() {
        let text = "MemTotal:       24535680 kB\nMemFree:        23000000 kB\n";
        assert_eq!(meminfo_total(text), Some(24535680 * 1024));
        assert_eq!(meminfo_total("nothing"), None);
        assert!(default_memory_limit() > 0);
    }
}
