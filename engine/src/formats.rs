//! Element number formats, bit-exact: how a value is stored and what it reads back as.
//!
//! [`crate::dtype::Dtype`] names the format a chip quotes a rate for; [`Format`] is one exact
//! encoding inside that family (FP8 is E4M3 or E5M2). The 8-bit formats follow the OCP
//! 8-bit floating point specification (v1.0, 2023): E4M3 has no infinity and one NaN per
//! sign, E5M2 follows IEEE 754. The 6- and 4-bit formats follow the OCP Microscaling
//! Formats (MX) specification (v1.0, 2023): every code is finite. Block scaling lives in
//! [`scaled`].

pub mod scaled;

use core::fmt;
use core::str::FromStr;

pub use scaled::{quantize, QuantStats, ScaleFormat, Scaling};

/// One element encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// IEEE binary32.
    Fp32,
    /// TensorFloat-32: binary32 with the mantissa rounded to 10 bits.
    Tf32,
    /// bfloat16.
    Bf16,
    /// IEEE binary16.
    Fp16,
    /// OCP FP8 E4M3 (no infinities; NaN is S.1111.111).
    E4m3,
    /// OCP FP8 E5M2 (IEEE-like: infinities and NaNs).
    E5m2,
    /// MX FP6 E3M2 (all codes finite).
    E3m2,
    /// MX FP6 E2M3 (all codes finite).
    E2m3,
    /// MX FP4 E2M1 (all codes finite).
    E2m1,
    /// Two's-complement 8-bit integer.
    Int8,
}

/// What the top exponent field encodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Specials {
    /// IEEE 754: top exponent is infinity (mantissa 0) or NaN.
    Ieee,
    /// OCP E4M3: top exponent holds normals except mantissa all ones, which is NaN.
    NanOnly,
    /// MX FP6/FP4: every code is a finite number.
    None,
}

/// The bit layout of a binary floating-point format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    exp: u32,
    man: u32,
    bias: i32,
    specials: Specials,
}

/// How a value between two representable neighbours is rounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// Round to nearest, ties to even (IEEE 754 default).
    NearestEven,
    /// Round up with probability equal to the distance from the lower neighbour, using
    /// this uniform 32-bit draw (unbiased in expectation).
    Stochastic(u32),
}

impl Format {
    /// Every format, widest first.
    pub const ALL: [Format; 10] = [
        Format::Fp32,
        Format::Tf32,
        Format::Bf16,
        Format::Fp16,
        Format::E4m3,
        Format::E5m2,
        Format::E3m2,
        Format::E2m3,
        Format::E2m1,
        Format::Int8,
    ];

    /// Stable id used in links, JSON and the CLI: `fp8e4m3`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Format::Fp32 => "fp32",
            Format::Tf32 => "tf32",
            Format::Bf16 => "bf16",
            Format::Fp16 => "fp16",
            Format::E4m3 => "fp8e4m3",
            Format::E5m2 => "fp8e5m2",
            Format::E3m2 => "fp6e3m2",
            Format::E2m3 => "fp6e2m3",
            Format::E2m1 => "fp4e2m1",
            Format::Int8 => "int8",
        }
    }

    /// Display label: `FP8 E4M3`.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Format::Fp32 => "FP32",
            Format::Tf32 => "TF32",
            Format::Bf16 => "BF16",
            Format::Fp16 => "FP16",
            Format::E4m3 => "FP8 E4M3",
            Format::E5m2 => "FP8 E5M2",
            Format::E3m2 => "FP6 E3M2",
            Format::E2m3 => "FP6 E2M3",
            Format::E2m1 => "FP4 E2M1",
            Format::Int8 => "INT8",
        }
    }

    /// Storage width in bits (TF32 is held in 32-bit words).
    #[must_use]
    pub const fn bits(self) -> u32 {
        match self {
            Format::Fp32 | Format::Tf32 => 32,
            Format::Bf16 | Format::Fp16 => 16,
            Format::E4m3 | Format::E5m2 | Format::Int8 => 8,
            Format::E3m2 | Format::E2m3 => 6,
            Format::E2m1 => 4,
        }
    }

    /// The datasheet family this encoding is quoted under.
    #[must_use]
    pub const fn dtype(self) -> crate::dtype::Dtype {
        match self {
            Format::Fp32 => crate::dtype::Dtype::Fp32,
            Format::Tf32 => crate::dtype::Dtype::Tf32,
            Format::Bf16 => crate::dtype::Dtype::Bf16,
            Format::Fp16 => crate::dtype::Dtype::Fp16,
            Format::E4m3 | Format::E5m2 => crate::dtype::Dtype::Fp8,
            Format::E3m2 | Format::E2m3 => crate::dtype::Dtype::Fp6,
            Format::E2m1 => crate::dtype::Dtype::Fp4,
            Format::Int8 => crate::dtype::Dtype::Int8,
        }
    }

    const fn layout(self) -> Option<Layout> {
        let (exp, man, bias, specials) = match self {
            Format::Fp32 => (8, 23, 127, Specials::Ieee),
            Format::Tf32 => (8, 10, 127, Specials::Ieee),
            Format::Bf16 => (8, 7, 127, Specials::Ieee),
            Format::Fp16 => (5, 10, 15, Specials::Ieee),
            Format::E4m3 => (4, 3, 7, Specials::NanOnly),
            Format::E5m2 => (5, 2, 15, Specials::Ieee),
            Format::E3m2 => (3, 2, 3, Specials::None),
            Format::E2m3 => (2, 3, 1, Specials::None),
            Format::E2m1 => (2, 1, 1, Specials::None),
            Format::Int8 => return None,
        };
        Some(Layout {
            exp,
            man,
            bias,
            specials,
        })
    }

    /// The largest finite value.
    #[must_use]
    pub fn max(self) -> f64 {
        match self.layout() {
            None => 127.0,
            Some(l) => l.max(),
        }
    }

    /// The smallest positive value (a subnormal for the float formats).
    #[must_use]
    pub fn min_positive(self) -> f64 {
        match self.layout() {
            None => 1.0,
            Some(l) => pow2(1 - l.bias - l.man as i32),
        }
    }

    /// The smallest positive normal value.
    #[must_use]
    pub fn min_normal(self) -> f64 {
        match self.layout() {
            None => 1.0,
            Some(l) => pow2(1 - l.bias),
        }
    }

    /// The exponent of the largest normal power of two (`emax` in the MX spec).
    #[must_use]
    pub fn emax(self) -> i32 {
        match self.layout() {
            None => 6,
            Some(l) => exponent(l.max()),
        }
    }

    /// True when the format can hold a NaN.
    #[must_use]
    pub fn has_nan(self) -> bool {
        self.layout().is_some_and(|l| l.specials != Specials::None)
    }

    /// The value a code reads back as (codes above the width are masked off).
    #[must_use]
    pub fn decode(self, code: u32) -> f64 {
        match self.layout() {
            None => f64::from(code as u8 as i8),
            Some(l) => l.decode(code),
        }
    }

    /// The code that stores `x`. Out of range, `saturate` clamps to the largest finite value;
    /// otherwise overflow gives infinity (IEEE layouts) or NaN (E4M3), as the OCP spec's
    /// non-saturating mode does. The MX 6- and 4-bit formats and INT8 always saturate. A NaN
    /// input gives NaN where the format has one and zero where it has none (MX carries NaN in
    /// the block scale instead).
    #[must_use]
    pub fn encode(self, x: f64, rounding: Rounding, saturate: bool) -> u32 {
        match self.layout() {
            None => encode_int8(x, rounding),
            Some(l) => l.encode(x, rounding, saturate),
        }
    }

    /// `x` rounded to this format and read back (`decode(encode(x))`).
    #[must_use]
    pub fn round(self, x: f64, rounding: Rounding, saturate: bool) -> f64 {
        match self {
            Format::Fp32 if rounding == Rounding::NearestEven => f64::from(x as f32),
            _ => self.decode(self.encode(x, rounding, saturate)),
        }
    }

    /// The ids of every format, for error messages.
    #[must_use]
    pub fn valid_ids() -> alloc::string::String {
        let ids: alloc::vec::Vec<&str> = Self::ALL.iter().map(|f| f.id()).collect();
        ids.join(", ")
    }
}

impl Layout {
    fn max(self) -> f64 {
        let top_exp = (1i32 << self.exp) - 1;
        let (e, frac_codes) = match self.specials {
            Specials::Ieee => (top_exp - 1, (1u64 << self.man) - 1),
            Specials::NanOnly => (top_exp, (1u64 << self.man) - 2),
            Specials::None => (top_exp, (1u64 << self.man) - 1),
        };
        (1.0 + frac_codes as f64 / (1u64 << self.man) as f64) * pow2(e - self.bias)
    }

    fn sign_bit(self) -> u32 {
        1 << (self.exp + self.man)
    }

    fn nan(self) -> u32 {
        let all_exp = ((1u32 << self.exp) - 1) << self.man;
        match self.specials {
            Specials::Ieee => all_exp | (1 << (self.man - 1)),
            Specials::NanOnly => all_exp | ((1 << self.man) - 1),
            Specials::None => 0,
        }
    }

    fn inf(self) -> u32 {
        ((1u32 << self.exp) - 1) << self.man
    }

    fn decode(self, code: u32) -> f64 {
        let code = code & (u32::MAX >> (31 - self.exp - self.man));
        let sign = if code & self.sign_bit() != 0 {
            -1.0
        } else {
            1.0
        };
        let e = ((code >> self.man) & ((1 << self.exp) - 1)) as i32;
        let m = code & ((1 << self.man) - 1);
        let top = (1i32 << self.exp) - 1;
        match self.specials {
            Specials::Ieee if e == top => {
                return if m == 0 {
                    sign * f64::INFINITY
                } else {
                    f64::NAN
                };
            }
            Specials::NanOnly if e == top && m == (1 << self.man) - 1 => return f64::NAN,
            _ => {}
        }
        let frac = f64::from(m) / f64::from(1u32 << self.man);
        if e == 0 {
            sign * frac * pow2(1 - self.bias)
        } else {
            sign * (1.0 + frac) * pow2(e - self.bias)
        }
    }

    fn encode(self, x: f64, rounding: Rounding, saturate: bool) -> u32 {
        let sign = if x.is_sign_negative() {
            self.sign_bit()
        } else {
            0
        };
        if x.is_nan() {
            return self.nan();
        }
        let saturate = saturate || self.specials == Specials::None;
        let overflow = || {
            if saturate {
                sign | self.encode_magnitude(self.max())
            } else if self.specials == Specials::Ieee {
                sign | self.inf()
            } else {
                sign | self.nan()
            }
        };
        let a = x.abs();
        if a.is_infinite() {
            return overflow();
        }
        if a == 0.0 {
            return sign;
        }
        // Quantum of the binade holding `a`; subnormals share the lowest normal binade's.
        let emin = 1 - self.bias;
        let e = exponent(a).max(emin);
        let quantum = pow2(e - self.man as i32);
        let n = a / quantum;
        let mut r = round_integer(n, rounding);
        let mut e = e;
        if r >= f64::from(1u32 << (self.man + 1)) {
            e += 1;
            r /= 2.0;
        }
        let v = r * pow2(e - self.man as i32);
        if v > self.max() {
            return overflow();
        }
        if r == 0.0 {
            return sign;
        }
        sign | self.pack(e, r as u32)
    }

    /// Code of a representable magnitude.
    fn encode_magnitude(self, v: f64) -> u32 {
        let e = exponent(v).max(1 - self.bias);
        let r = v / pow2(e - self.man as i32);
        self.pack(e, r as u32)
    }

    /// Packs binade exponent `e` and integer significand `r` (hidden bit included).
    fn pack(self, e: i32, r: u32) -> u32 {
        if r < (1 << self.man) {
            r // subnormal: exponent field 0
        } else {
            (((e + self.bias) as u32) << self.man) | (r - (1 << self.man))
        }
    }
}

fn round_integer(n: f64, rounding: Rounding) -> f64 {
    let f = libm::floor(n);
    let frac = n - f;
    match rounding {
        Rounding::NearestEven => {
            if frac > 0.5 || (frac == 0.5 && libm::fmod(f, 2.0) != 0.0) {
                f + 1.0
            } else {
                f
            }
        }
        Rounding::Stochastic(u) => {
            if f64::from(u) / 4_294_967_296.0 < frac {
                f + 1.0
            } else {
                f
            }
        }
    }
}

fn encode_int8(x: f64, rounding: Rounding) -> u32 {
    if x.is_nan() {
        return 0;
    }
    let r = round_integer(x.clamp(-128.0, 127.0), rounding).clamp(-128.0, 127.0);
    u32::from(r as i8 as u8)
}

/// `2^e`, exactly, for the exponents any format here needs.
#[must_use]
pub fn pow2(e: i32) -> f64 {
    if (-1022..=1023).contains(&e) {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else {
        libm::ldexp(1.0, e)
    }
}

/// `floor(log2(a))` of a finite positive value, exactly, from its bits.
#[must_use]
pub fn exponent(a: f64) -> i32 {
    let bits = a.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32;
    if e == 0 {
        // f64 subnormal: far below every format here; scale up and retry.
        exponent(a * pow2(64)) - 64
    } else {
        e - 1023
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A format id that is not one of [`Format::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseFormatError(pub alloc::string::String);

impl fmt::Display for ParseFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown element format '{}' (valid: {})",
            self.0,
            Format::valid_ids()
        )
    }
}

impl core::error::Error for ParseFormatError {}

impl FromStr for Format {
    type Err = ParseFormatError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let l = s.trim().to_ascii_lowercase().replace(['_', '-', ' '], "");
        let alias = match l.as_str() {
            "e4m3" | "fp8" | "e4m3fn" | "fp8e4m3fn" => "fp8e4m3",
            "e5m2" => "fp8e5m2",
            "e3m2" => "fp6e3m2",
            "e2m3" => "fp6e2m3",
            "e2m1" | "fp4" => "fp4e2m1",
            "f32" | "float32" => "fp32",
            "f16" | "float16" | "half" => "fp16",
            "bfloat16" => "bf16",
            other => other,
        };
        Self::ALL
            .iter()
            .copied()
            .find(|f| f.id() == alias)
            .ok_or_else(|| ParseFormatError(s.into()))
    }
}

#[cfg(test)]
#[allow(clippy::unreadable_literal, clippy::approx_constant)]
mod golden;
#[cfg(test)]
mod tests;
