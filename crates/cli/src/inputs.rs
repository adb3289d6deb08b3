//! Buffer contents for launches: random, constant, counting, or read from a file.

use crate::exit::CliError;
use std::path::Path;
use warpsafe_exec::Buffer;
use warpsafe_ir::{ScalarType, Value};

/// How to fill one buffer.
#[derive(Clone, Debug, PartialEq)]
pub enum Fill {
    /// Uniform random: floats in [-1, 1), integers in [0, 65536), bools fair.
    Random,
    /// All zero.
    Zeros,
    /// All one.
    Ones,
    /// 0, 1, 2, ….
    Iota,
    /// Raw little-endian elements from a file.
    File(std::path::PathBuf),
    /// Every element the same value (`--init`, the header's `//@ init`).
    Const(Value),
}

/// A `--buf` value: how to fill a buffer and, optionally, its length.
#[derive(Clone, Debug, PartialEq)]
pub struct BufSpec {
    /// The contents.
    pub fill: Fill,
    /// Length in elements, when stated.
    pub len: Option<u64>,
}

/// Parses the part after `name=` of `--buf`: `N` (N random elements), `FILL[:N]` for a known
/// fill, else a file path.
pub fn parse_spec(spec: &str) -> Result<BufSpec, CliError> {
    const FILLS: &str = "N, random:N, zeros:N, ones:N, iota:N, or a file of raw elements";
    if spec.trim().is_empty() {
        return Err(CliError::usage(format!("empty buffer spec: want {FILLS}")));
    }
    if let Ok(n) = spec.trim().parse::<u64>() {
        return Ok(BufSpec {
            fill: Fill::Random,
            len: Some(n),
        });
    }
    let (kind, len) = match spec.split_once(':') {
        Some((k, n)) => (k, Some(n)),
        None => (spec, None),
    };
    let fill = match kind {
        "random" => Fill::Random,
        "zeros" => Fill::Zeros,
        "ones" => Fill::Ones,
        "iota" => Fill::Iota,
        _ => {
            return Ok(BufSpec {
                fill: Fill::File(spec.into()),
                len: None,
            })
        }
    };
    let len = match len {
        None => None,
        Some(n) => Some(n.trim().parse::<u64>().map_err(|_| {
            CliError::usage(format!(
                "bad length `{n}`: want a whole number of elements from 0 to {}",
                u64::MAX
            ))
        })?),
    };
    Ok(BufSpec { fill, len })
}

/// A small deterministic generator (xorshift64*), so runs are reproducible by seed.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A random value of type `ty` in the default ranges of [`Fill::Random`].
    pub fn value(&mut self, ty: ScalarType) -> Value {
        let r = self.next_u64();
        if ty.is_float() {
            let unit = (r >> 11) as f64 / (1u64 << 53) as f64;
            Value::from_f64(ty, unit * 2.0 - 1.0)
        } else if ty == ScalarType::Bool {
            Value::Bool(r & 1 == 1)
        } else {
            Value::from_i128(ty, (r >> 48) as i128)
        }
    }
}

/// Builds a buffer of `len` elements of `elem` as `fill` says.
pub fn make_buffer(
    elem: ScalarType,
    len: u64,
    fill: &Fill,
    rng: &mut Rng,
) -> Result<Buffer, CliError> {
    let data: Vec<u64> = match fill {
        Fill::Random => (0..len).map(|_| rng.value(elem).to_bits()).collect(),
        Fill::Zeros => vec![0; len as usize],
        Fill::Const(v) => vec![v.to_bits(); len as usize],
        Fill::Ones => vec![Value::from_i128(elem, 1).to_bits(); len as usize],
        Fill::Iota => (0..len)
            .map(|i| Value::from_i128(elem, i as i128).to_bits())
            .collect(),
        Fill::File(path) => {
            let bytes = len.saturating_mul(elem.size_bytes());
            let data = read_elements_within(path, elem, bytes)?;
            if data.len() as u64 != len {
                return Err(CliError::usage(format!(
                    "{}: changed while being read ({} elements, {len} expected)",
                    path.display(),
                    data.len()
                )));
            }
            data
        }
    };
    Ok(Buffer { elem, data })
}

/// The number of `elem` elements a regular file holds, from its size, without reading it;
/// `None` for a pipe or another file that must be read to know its length.
pub fn file_elements(path: &Path, elem: ScalarType) -> Result<Option<u64>, CliError> {
    let meta = std::fs::metadata(path).map_err(|e| CliError::io(path, e))?;
    if meta.is_dir() {
        return Err(CliError::usage(format!(
            "{}: is a directory, not a file of raw elements",
            path.display()
        )));
    }
    if !meta.is_file() {
        return Ok(None);
    }
    whole_elements(path, meta.len(), elem).map(Some)
}

fn whole_elements(path: &Path, bytes: u64, elem: ScalarType) -> Result<u64, CliError> {
    let size = elem.size_bytes();
    if !bytes.is_multiple_of(size) {
        return Err(CliError::usage(format!(
            "{}: {bytes} bytes is not a whole number of {elem} elements",
            path.display()
        )));
    }
    Ok(bytes / size)
}

/// Reads raw little-endian elements of `elem` from a file (or pipe), refusing one longer than
/// `max_bytes` instead of reading on.
pub fn read_elements_within(
    path: &Path,
    elem: ScalarType,
    max_bytes: u64,
) -> Result<Vec<u64>, CliError> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| CliError::io(path, e))?;
    let mut bytes = Vec::new();
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::io(path, e))?;
    if bytes.len() as u64 > max_bytes {
        return Err(CliError::usage(format!(
            "{}: longer than {} (more than the memory limit allows; raise it with --max-memory)",
            path.display(),
            warpsafe_exec::ByteSize(max_bytes)
        )));
    }
    whole_elements(path, bytes.len() as u64, elem)?;
    let size = elem.size_bytes() as usize;
    Ok(bytes
        .chunks_exact(size)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..size].copy_from_slice(c);
            u64::from_le_bytes(b)
        })
        .collect())
}

/// Writes a buffer's elements as raw little-endian bytes.
pub fn write_elements(path: &Path, buf: &Buffer) -> Result<(), CliError> {
    let size = buf.elem.size_bytes() as usize;
    let mut bytes = Vec::with_capacity(buf.data.len() * size);
    for v in &buf.data {
        bytes.extend_from_slice(&v.to_le_bytes()[..size]);
    }
    std::fs::write(path, bytes).map_err(|e| CliError::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!(
            parse_spec("random:16").unwrap(),
            BufSpec {
                fill: Fill::Random,
                len: Some(16)
            }
        );
        assert_eq!(parse_spec("zeros").unwrap().len, None);
        assert_eq!(
            parse_spec("4000").unwrap(),
            BufSpec {
                fill: Fill::Random,
                len: Some(4000)
            }
        );
        assert_eq!(
            parse_spec("data.bin").unwrap().fill,
            Fill::File("data.bin".into())
        );
        assert_eq!(
            parse_spec("runs:3/data.bin").unwrap().fill,
            Fill::File("runs:3/data.bin".into())
        );
        assert!(parse_spec("zeros:x").is_err());
        assert!(parse_spec("zeros:-3").is_err());
        assert!(parse_spec("random:").is_err());
        assert!(parse_spec("").is_err());
    }

    #[test]
    fn file_reads_stop_at_the_limit() {
        let dir = std::env::temp_dir().join(format!("warpsafe-limit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("b.bin");
        std::fs::write(&path, [0u8; 64]).unwrap();
        assert_eq!(file_elements(&path, ScalarType::F32).unwrap(), Some(16));
        assert_eq!(
            read_elements_within(&path, ScalarType::F32, 64)
                .unwrap()
                .len(),
            16
        );
        assert!(read_elements_within(&path, ScalarType::F32, 63).is_err());
        assert!(read_elements_within(Path::new("/dev/zero"), ScalarType::F32, 1 << 20).is_err());
        assert_eq!(
            file_elements(Path::new("/dev/zero"), ScalarType::F32).unwrap(),
            None
        );
        assert!(file_elements(&dir, ScalarType::F32).is_err());
        std::fs::write(&path, [0u8; 6]).unwrap();
        assert!(file_elements(&path, ScalarType::F32).is_err());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn random_values_stay_in_range() {
        let mut rng = Rng::new(7);
        for _ in 0..1000 {
            let f = rng.value(ScalarType::F32).as_f64();
            assert!((-1.0..1.0).contains(&f));
            let i = rng.value(ScalarType::I32).as_i128().unwrap();
            assert!((0..65536).contains(&i));
        }
    }

    #[test]
    fn elements_round_trip_through_files() {
        let dir = std::env::temp_dir().join(format!("warpsafe-inputs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("b.bin");
        let buf = Buffer {
            elem: ScalarType::F32,
            data: vec![1.5f32.to_bits() as u64, 7],
        };
        write_elements(&path, &buf).unwrap();
        assert_eq!(
            read_elements_within(&path, ScalarType::F32, 8).unwrap(),
            buf.data
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}
