//! Initial contents of global buffers (`//@ init(m) = -inf`, `--init m=-inf`): every element
//! of the buffer starts as one constant instead of an arbitrary input.

use crate::{ParamId, ScalarType, Span, Value};
use serde::{Deserialize, Serialize};

/// `init(buf) = value`: every element of the buffer starts as `value`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BufferInit {
    /// The buffer parameter.
    pub param: ParamId,
    /// The value, of the buffer's element type.
    pub value: Value,
    /// The value as the header wrote it (`-INFINITY`), for reports.
    pub text: String,
    /// The header line.
    pub span: Span,
}

/// Named constants an initial value may use, with an optional leading `-`: C's `INFINITY`,
/// `HUGE_VALF`, `FLT_MAX`, `FLT_MIN` and the short `inf`.
pub fn named_constant(word: &str) -> Option<f64> {
    Some(match word {
        "inf" | "infinity" | "INFINITY" | "HUGE_VALF" | "HUGE_VAL" | "CUDART_INF_F"
        | "CUDART_INF" => f64::INFINITY,
        "FLT_MAX" => f32::MAX as f64,
        "FLT_MIN" => f32::MIN_POSITIVE as f64,
        "DBL_MAX" => f64::MAX,
        "DBL_MIN" => f64::MIN_POSITIVE,
        _ => return None,
    })
}

/// A number as an initial value states it, before it meets a buffer's type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum InitNumber {
    /// An integer, exactly.
    Int(i128),
    /// A floating-point value (infinities included).
    Float(f64),
}

impl InitNumber {
    /// Parses `-inf`, `INFINITY`, `-FLT_MAX`, `0`, `-3`, `0x10`, `2.5`, `1e-3f`.
    pub fn parse(text: &str) -> Option<InitNumber> {
        let t = text.trim();
        let (neg, body) = match t.strip_prefix('-') {
            Some(rest) => (true, rest.trim_start()),
            None => (false, t.strip_prefix('+').unwrap_or(t).trim_start()),
        };
        let sign = if neg { -1.0 } else { 1.0 };
        if let Some(v) = named_constant(body) {
            return Some(InitNumber::Float(sign * v));
        }
        if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            let v = i128::from_str_radix(hex, 16).ok()?;
            return Some(InitNumber::Int(if neg { -v } else { v }));
        }
        if let Ok(v) = body.parse::<i128>() {
            return Some(InitNumber::Int(if neg { -v } else { v }));
        }
        let digits = body.strip_suffix(['f', 'F']).unwrap_or(body);
        let is_number = digits
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+'));
        if digits.is_empty() || !is_number {
            return None;
        }
        digits
            .parse::<f64>()
            .ok()
            .map(|v| InitNumber::Float(sign * v))
    }

    /// The value of element type `elem`, or why it cannot be one: an integer buffer takes
    /// only integers in its type's range (no infinity, no fraction).
    pub fn to_value(self, elem: ScalarType) -> Result<Value, String> {
        if elem.is_float() {
            return Ok(match self {
                InitNumber::Int(v) => Value::from_f64(elem, v as f64),
                InitNumber::Float(v) => Value::from_f64(elem, v),
            });
        }
        let v = match self {
            InitNumber::Int(v) => v,
            InitNumber::Float(f) if !f.is_finite() => {
                return Err(format!("a buffer of {elem} cannot hold {f}"))
            }
            InitNumber::Float(f) if f.fract() != 0.0 => {
                return Err(format!("a buffer of {elem} holds integers, not {f}"))
            }
            InitNumber::Float(f) if f.abs() < 1e38 => f as i128,
            InitNumber::Float(f) => return Err(format!("{f} is out of the range of {elem}")),
        };
        if elem == ScalarType::Bool {
            return match v {
                0 | 1 => Ok(Value::Bool(v == 1)),
                _ => Err(format!("a buffer of bool holds 0 or 1, not {v}")),
            };
        }
        match elem.int_range() {
            Some((lo, hi)) if (lo..=hi).contains(&v) => Ok(Value::from_i128(elem, v)),
            Some((lo, hi)) => Err(format!("{v} is out of the range of {elem} ({lo} to {hi})")),
            None => Ok(Value::from_i128(elem, v)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_values_parse_as_users_write_them() {
        let f = |t: &str| InitNumber::parse(t).and_then(|n| n.to_value(ScalarType::F32).ok());
        assert_eq!(f("-inf"), Some(Value::F32(f32::NEG_INFINITY)));
        assert_eq!(f("-INFINITY"), Some(Value::F32(f32::NEG_INFINITY)));
        assert_eq!(f("inf"), Some(Value::F32(f32::INFINITY)));
        assert_eq!(f("-FLT_MAX"), Some(Value::F32(-f32::MAX)));
        assert_eq!(f("0"), Some(Value::F32(0.0)));
        assert_eq!(f("2.5f"), Some(Value::F32(2.5)));
        assert_eq!(f("1e-3"), Some(Value::F32(1e-3)));
        assert_eq!(f("abc"), None);
        assert_eq!(f(""), None);
        assert_eq!(f("nan"), None);
        let i = |t: &str| InitNumber::parse(t).map(|n| n.to_value(ScalarType::I32));
        assert_eq!(i("-3"), Some(Ok(Value::I32(-3))));
        assert_eq!(i("0x10"), Some(Ok(Value::I32(16))));
        assert!(matches!(i("-inf"), Some(Err(_))));
        assert!(matches!(i("1.5"), Some(Err(_))));
        assert!(matches!(i("4294967296"), Some(Err(_))));
    }
}
