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
}

/// A `--buf` value: how to fill a buffer and, optionally, its length.
#[derive(Clone, Debug, PartialEq)]
pub struct BufSpec {
    /// The contents.
    pub fill: Fill,
    /// Length in elements, when stated.
    pub len: Option<u64>,
}

/// Parses the part after `name=` of `--buf`.
pub fn parse_spec(spec: &str) -> Result<BufSpec, CliError> {
    let (kind, len) = match spec.split_once(':') {
        Some((k, n)) => {
            let len = n
                .parse::<u64>()
                .map_err(|_| CliError::usage(format!("bad length `{n}` in --buf `{spec}`")))?;
            (k, Some(len))
        }
        None => (spec, None),
    };
    let fill = match kind {
        "random" => Fill::Random,
        "zeros" => Fill::Zeros,
        "ones" => Fill::Ones,
        "iota" => Fill::Iota,
        _ if len.is_none() => Fill::File(spec.into()),
        _ => {
            return Err(CliError::usage(format!(
                "unknown buffer fill `{kind}` (random, zeros, ones, iota, or a file)"
            )))
        }
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
        Fill::Ones => vec![Value::from_i128(elem, 1).to_bits(); len as usize],
        Fill::Iota => (0..len)
            .map(|i| Value::from_i128(elem, i as i128).to_bits())
            .collect(),
        Fill::File(path) => read_elements(path, elem)?,
    };
    Ok(Buffer { elem, data })
}

/// Reads raw little-endian elements of `elem` from a file.
pub fn read_elements(path: &Path, elem: ScalarType) -> Result<Vec<u64>, CliError> {
    let bytes = std::fs::read(path).map_err(|e| CliError::io(path, e))?;
    let size = elem.size_bytes() as usize;
    if bytes.len() % size != 0 {
        return Err(CliError::usage(format!(
            "{}: {} bytes is not a whole number of {elem} elements",
            path.display(),
            bytes.len()
        )));
    }
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
            parse_spec("data.bin").unwrap().fill,
            Fill::File("data.bin".into())
        );
        assert!(parse_spec("bogus:3").is_err());
        assert!(parse_spec("zeros:x").is_err());
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
        assert_eq!(read_elements(&path, ScalarType::F32).unwrap(), buf.data);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
