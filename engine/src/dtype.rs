//! Number formats that accelerators quote throughput for, with their storage width.
//!
//! FP8 covers both e4m3 and e5m2 (and MXFP8): vendors quote one rate for the family.
//! FP4 covers e2m1 (NVFP4, MXFP4). Element encodings and rounding come with the kernels.

use core::fmt;
use core::str::FromStr;

/// A number format as it appears in a chip's datasheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Dtype {
    /// IEEE binary64.
    Fp64,
    /// IEEE binary32.
    Fp32,
    /// NVIDIA TensorFloat-32: fp32 range, 10-bit mantissa, stored as 32 bits.
    Tf32,
    /// bfloat16: fp32 range, 7-bit mantissa.
    Bf16,
    /// IEEE binary16.
    Fp16,
    /// 8-bit floats (e4m3 / e5m2, incl. MXFP8 and Trainium's cFP8).
    Fp8,
    /// 6-bit floats (e2m3 / e3m2).
    Fp6,
    /// 4-bit floats (e2m1: NVFP4, MXFP4).
    Fp4,
    /// 8-bit integers.
    Int8,
}

impl Dtype {
    /// Every format, widest first; the index of each is its position here.
    pub const ALL: [Dtype; 9] = [
        Dtype::Fp64,
        Dtype::Fp32,
        Dtype::Tf32,
        Dtype::Bf16,
        Dtype::Fp16,
        Dtype::Fp8,
        Dtype::Fp6,
        Dtype::Fp4,
        Dtype::Int8,
    ];
    /// Number of formats.
    pub const COUNT: usize = Self::ALL.len();

    /// Position in [`Dtype::ALL`].
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Stable lower-case id used in URLs, JSON and the CLI: `bf16`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Dtype::Fp64 => "fp64",
            Dtype::Fp32 => "fp32",
            Dtype::Tf32 => "tf32",
            Dtype::Bf16 => "bf16",
            Dtype::Fp16 => "fp16",
            Dtype::Fp8 => "fp8",
            Dtype::Fp6 => "fp6",
            Dtype::Fp4 => "fp4",
            Dtype::Int8 => "int8",
        }
    }

    /// Display label: `BF16`.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Dtype::Fp64 => "FP64",
            Dtype::Fp32 => "FP32",
            Dtype::Tf32 => "TF32",
            Dtype::Bf16 => "BF16",
            Dtype::Fp16 => "FP16",
            Dtype::Fp8 => "FP8",
            Dtype::Fp6 => "FP6",
            Dtype::Fp4 => "FP4",
            Dtype::Int8 => "INT8",
        }
    }

    /// Storage width of one element in bits (TF32 is stored in 32-bit words).
    #[must_use]
    pub const fn bits(self) -> u32 {
        match self {
            Dtype::Fp64 => 64,
            Dtype::Fp32 | Dtype::Tf32 => 32,
            Dtype::Bf16 | Dtype::Fp16 => 16,
            Dtype::Fp8 | Dtype::Int8 => 8,
            Dtype::Fp6 => 6,
            Dtype::Fp4 => 4,
        }
    }

    /// Storage width of one element in bytes (fractional for sub-byte formats).
    #[must_use]
    pub fn bytes(self) -> f64 {
        f64::from(self.bits()) / 8.0
    }

    /// The ids of every format, for error messages.
    #[must_use]
    pub fn valid_ids() -> alloc::string::String {
        let ids: alloc::vec::Vec<&str> = Self::ALL.iter().map(|d| d.id()).collect();
        ids.join(", ")
    }
}

impl fmt::Display for Dtype {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A format id that is not one of [`Dtype::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseDtypeError(pub alloc::string::String);

impl fmt::Display for ParseDtypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown number format '{}' (valid: {})",
            self.0,
            Dtype::valid_ids()
        )
    }
}

impl core::error::Error for ParseDtypeError {}

impl FromStr for Dtype {
    type Err = ParseDtypeError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let l = s.trim().to_ascii_lowercase();
        let alias = match l.as_str() {
            "fp8_e4m3" | "e4m3" | "fp8_e5m2" | "e5m2" | "mxfp8" | "cfp8" => "fp8",
            "nvfp4" | "mxfp4" | "e2m1" => "fp4",
            "mxfp6" => "fp6",
            "float32" | "f32" => "fp32",
            "float16" | "f16" => "fp16",
            "bfloat16" => "bf16",
            other => other,
        };
        Self::ALL
            .iter()
            .copied()
            .find(|d| d.id() == alias)
            .ok_or_else(|| ParseDtypeError(s.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn ids_round_trip_and_index_matches_position() {
        for (i, d) in Dtype::ALL.iter().enumerate() {
            assert_eq!(d.index(), i);
            assert_eq!(d.id().parse::<Dtype>(), Ok(*d));
            assert_eq!(d.label().parse::<Dtype>(), Ok(*d));
        }
    }

    #[test]
    fn aliases_and_errors() {
        assert_eq!("MXFP8".parse(), Ok(Dtype::Fp8));
        assert_eq!("nvfp4".parse(), Ok(Dtype::Fp4));
        let e = "fp7".parse::<Dtype>().unwrap_err().to_string();
        assert!(e.contains("fp7") && e.contains("bf16"), "{e}");
    }

    #[test]
    fn widths() {
        assert_eq!(Dtype::Bf16.bytes(), 2.0);
        assert_eq!(Dtype::Fp4.bytes(), 0.5);
        assert_eq!(Dtype::Tf32.bytes(), 4.0);
    }
}
