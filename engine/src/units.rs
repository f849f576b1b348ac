//! Typed physical quantities, so a GB/s is never added to a TFLOP/s.
//!
//! Each is a `#[repr(transparent)]` newtype over `f64` in SI base units (bytes, FLOP,
//! seconds, watts, hertz). Only dimensionally meaningful operators exist. Formatting with
//! SI/IEC prefixes lives here too so every edge (CLI, app) prints the same way.

use alloc::format;
use alloc::string::String;
use core::fmt;
use core::ops::{Add, Div, Mul, Sub};

macro_rules! quantity {
    ($(#[$doc:meta])* $name:ident, $unit:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
        #[repr(transparent)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(transparent))]
        pub struct $name(f64);

        impl $name {
            /// The SI unit symbol this quantity is stored in.
            pub const UNIT: &'static str = $unit;
            /// From a value in base SI units.
            #[must_use]
            pub const fn new(v: f64) -> Self {
                Self(v)
            }
            /// The value in base SI units.
            #[must_use]
            pub const fn get(self) -> f64 {
                self.0
            }
            /// True when the value is finite and strictly positive.
            #[must_use]
            pub fn is_positive(self) -> bool {
                self.0.is_finite() && self.0 > 0.0
            }
            /// Human-readable with a decimal SI prefix, e.g. `667 TFLOP/s`.
            #[must_use]
            pub fn display_si(self) -> String {
                si(self.0, $unit)
            }
        }
        impl Add for $name {
            type Output = Self;
            fn add(self, o: Self) -> Self {
                Self(self.0 + o.0)
            }
        }
        impl Sub for $name {
            type Output = Self;
            fn sub(self, o: Self) -> Self {
                Self(self.0 - o.0)
            }
        }
        impl Mul<f64> for $name {
            type Output = Self;
            fn mul(self, k: f64) -> Self {
                Self(self.0 * k)
            }
        }
        impl Div<f64> for $name {
            type Output = Self;
            fn div(self, k: f64) -> Self {
                Self(self.0 / k)
            }
        }
        /// Ratio of two like quantities is a plain number.
        impl Div for $name {
            type Output = f64;
            fn div(self, o: Self) -> f64 {
                self.0 / o.0
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.display_si())
            }
        }
    };
}

quantity!(
    /// A number of bytes.
    Bytes, "B"
);
quantity!(
    /// Bandwidth in bytes per second.
    BytesPerSec, "B/s"
);
quantity!(
    /// A number of floating-point (or integer) operations; a multiply-add is 2.
    Flop, "FLOP"
);
quantity!(
    /// Throughput in operations per second.
    FlopPerSec, "FLOP/s"
);
quantity!(
    /// Arithmetic intensity: operations per byte moved.
    FlopPerByte, "FLOP/B"
);
quantity!(
    /// Energy efficiency: operations per second per watt.
    FlopPerWatt, "FLOP/s/W"
);
quantity!(
    /// Time in seconds.
    Seconds, "s"
);
quantity!(
    /// Power in watts.
    Watts, "W"
);
quantity!(
    /// Frequency in hertz.
    Hertz, "Hz"
);

impl Bytes {
    /// `n` gibibytes (2^30 bytes).
    #[must_use]
    pub const fn gib(n: f64) -> Self {
        Self(n * 1_073_741_824.0)
    }
    /// `n` mebibytes (2^20 bytes).
    #[must_use]
    pub const fn mib(n: f64) -> Self {
        Self(n * 1_048_576.0)
    }
    /// `n` kibibytes (2^10 bytes).
    #[must_use]
    pub const fn kib(n: f64) -> Self {
        Self(n * 1024.0)
    }
    /// `n` gigabytes (10^9 bytes).
    #[must_use]
    pub const fn gb(n: f64) -> Self {
        Self(n * 1e9)
    }
    /// `n` megabytes (10^6 bytes).
    #[must_use]
    pub const fn mb(n: f64) -> Self {
        Self(n * 1e6)
    }
    /// Memory size in GB (10⁹ bytes), the one unit of every memory figure (capacities and what
    /// fills them alike, so they compare at a glance); a whole number of GiB, or of MiB under a
    /// GiB, as a vendor may list it, follows in brackets: `103.1 GB (96 GiB)`, `80 GB`.
    #[must_use]
    pub fn display_memory(self) -> String {
        let unit = [1_073_741_824.0, 1_048_576.0]
            .into_iter()
            .find(|u| self.0 >= *u);
        let whole = unit.is_some_and(|u| libm::fabs(self.0 / u - libm::round(self.0 / u)) < 1e-9);
        if whole {
            format!("{} ({})", si(self.0, "B"), iec(self.0))
        } else {
            si(self.0, "B")
        }
    }
    /// Human-readable with a binary IEC prefix, e.g. `96 GiB`.
    #[must_use]
    pub fn display_iec(self) -> String {
        iec(self.0)
    }
}

impl BytesPerSec {
    /// `n` terabytes per second.
    #[must_use]
    pub const fn tb_s(n: f64) -> Self {
        Self(n * 1e12)
    }
    /// `n` gigabytes per second.
    #[must_use]
    pub const fn gb_s(n: f64) -> Self {
        Self(n * 1e9)
    }
}

impl FlopPerSec {
    /// `n` TFLOP/s.
    #[must_use]
    pub const fn tflops(n: f64) -> Self {
        Self(n * 1e12)
    }
    /// `n` PFLOP/s.
    #[must_use]
    pub const fn pflops(n: f64) -> Self {
        Self(n * 1e15)
    }
}

impl Hertz {
    /// `n` gigahertz.
    #[must_use]
    pub const fn ghz(n: f64) -> Self {
        Self(n * 1e9)
    }
}

impl Watts {
    /// `n` watts.
    #[must_use]
    pub const fn w(n: f64) -> Self {
        Self(n)
    }
}

impl Div<BytesPerSec> for FlopPerSec {
    type Output = FlopPerByte;
    fn div(self, bw: BytesPerSec) -> FlopPerByte {
        FlopPerByte(self.0 / bw.0)
    }
}
impl Mul<BytesPerSec> for FlopPerByte {
    type Output = FlopPerSec;
    fn mul(self, bw: BytesPerSec) -> FlopPerSec {
        FlopPerSec(self.0 * bw.0)
    }
}
impl Div<Bytes> for Flop {
    type Output = FlopPerByte;
    fn div(self, b: Bytes) -> FlopPerByte {
        FlopPerByte(self.0 / b.0)
    }
}
impl Div<FlopPerSec> for Flop {
    type Output = Seconds;
    fn div(self, r: FlopPerSec) -> Seconds {
        Seconds(self.0 / r.0)
    }
}
impl Div<BytesPerSec> for Bytes {
    type Output = Seconds;
    fn div(self, r: BytesPerSec) -> Seconds {
        Seconds(self.0 / r.0)
    }
}
impl Div<Watts> for FlopPerSec {
    type Output = FlopPerWatt;
    fn div(self, p: Watts) -> FlopPerWatt {
        FlopPerWatt(self.0 / p.0)
    }
}
impl Div<FlopPerSec> for Bytes {
    /// Memory per unit of compute, in bytes per (FLOP/s), i.e. seconds·B/FLOP.
    type Output = f64;
    fn div(self, r: FlopPerSec) -> f64 {
        self.0 / r.0
    }
}

const SI: [(f64, &str); 7] = [
    (1e18, "E"),
    (1e15, "P"),
    (1e12, "T"),
    (1e9, "G"),
    (1e6, "M"),
    (1e3, "k"),
    (1.0, ""),
];
const SI_SMALL: [(f64, &str); 3] = [(1e-3, "m"), (1e-6, "µ"), (1e-9, "n")];

/// A value with a decimal prefix and up to 4 significant digits: `2.9 TB/s`.
#[must_use]
pub fn si(v: f64, unit: &str) -> String {
    if !v.is_finite() {
        return format!("— {unit}");
    }
    let a = libm::fabs(v);
    if a == 0.0 {
        return format!("0 {unit}");
    }
    let table = if a >= 1.0 { &SI[..] } else { &SI_SMALL[..] };
    let (scale, p) = table
        .iter()
        .find(|(s, _)| a >= *s * 0.999_95)
        .copied()
        .unwrap_or(if a >= 1.0 { (1.0, "") } else { (1e-9, "n") });
    format!("{} {p}{unit}", sig(v / scale, 4))
}

/// A byte count with a binary prefix: `96 GiB`, `24 MiB`.
#[must_use]
pub fn iec(v: f64) -> String {
    const T: [(f64, &str); 5] = [
        (1_099_511_627_776.0, "TiB"),
        (1_073_741_824.0, "GiB"),
        (1_048_576.0, "MiB"),
        (1024.0, "KiB"),
        (1.0, "B"),
    ];
    let a = libm::fabs(v);
    let (s, u) = T
        .iter()
        .find(|(s, _)| a >= *s)
        .copied()
        .unwrap_or((1.0, "B"));
    format!("{} {u}", sig(v / s, 4))
}

/// `v` with at most `digits` significant digits and no trailing zeros.
#[must_use]
pub fn sig(v: f64, digits: i32) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let mag = libm::floor(libm::log10(libm::fabs(v))) as i32;
    let decimals = (digits - 1 - mag).max(0) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').into()
    } else {
        s
    }
}

/// Why a quantity could not be read.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ParseQuantityError {
    /// No number at the start of the text.
    NotANumber(String),
    /// A unit or prefix that is not known for this quantity.
    UnknownUnit(String),
    /// Zero, negative, infinite or NaN where a positive amount is required.
    NotPositive(String),
}

impl fmt::Display for ParseQuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotANumber(s) => write!(f, "'{s}' does not start with a number"),
            Self::UnknownUnit(s) => write!(
                f,
                "unknown unit '{s}' (use B, kB, MB, GB, TB, KiB, MiB, GiB, TiB, optionally with /s)"
            ),
            Self::NotPositive(s) => write!(f, "'{s}' must be a positive, finite amount"),
        }
    }
}

impl core::error::Error for ParseQuantityError {}

/// Split `"2.9 TB/s"` into `(2.9, "TB/s")`.
fn split_number(s: &str) -> Result<(f64, &str), ParseQuantityError> {
    let s = s.trim();
    let end = s
        .char_indices()
        .find(|&(i, c)| {
            !(c.is_ascii_digit()
                || c == '.'
                || c == '-'
                || c == '+'
                || ((c == 'e' || c == 'E')
                    && s[i + 1..].starts_with(|d: char| d.is_ascii_digit() || d == '-')))
        })
        .map_or(s.len(), |(i, _)| i);
    let v: f64 = s[..end]
        .parse()
        .map_err(|_| ParseQuantityError::NotANumber(s.into()))?;
    Ok((v, s[end..].trim()))
}

fn prefix_scale(p: &str) -> Option<f64> {
    Some(match p {
        "" => 1.0,
        "k" | "K" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "E" => 1e18,
        "Ki" => 1024.0,
        "Mi" => 1_048_576.0,
        "Gi" => 1_073_741_824.0,
        "Ti" => 1_099_511_627_776.0,
        _ => return None,
    })
}

fn parse_positive(s: &str, unit: &str) -> Result<f64, ParseQuantityError> {
    let (v, rest) = split_number(s)?;
    let rest = match rest.strip_suffix(unit) {
        Some(p) => p.trim_end(),
        None if rest.is_empty() => "",
        None => return Err(ParseQuantityError::UnknownUnit(rest.into())),
    };
    let k = prefix_scale(rest).ok_or_else(|| ParseQuantityError::UnknownUnit(rest.into()))?;
    let x = v * k;
    if x.is_finite() && x > 0.0 {
        Ok(x)
    } else {
        Err(ParseQuantityError::NotPositive(s.into()))
    }
}

impl core::str::FromStr for Bytes {
    type Err = ParseQuantityError;
    /// `"1GiB"`, `"512 KiB"`, `"8B"`, `"96e9"`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_positive(s, "B").map(Bytes)
    }
}

impl core::str::FromStr for BytesPerSec {
    type Err = ParseQuantityError;
    /// `"2.9TB/s"`, `"820 GB/s"`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_positive(s, "B/s").map(BytesPerSec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_si(v: f64, unit: &str, want: &str) {
        assert_eq!(si(v, unit), want, "si({v}, {unit})");
    }

    #[test]
    fn si_prefixes() {
        check_si(667e12, "FLOP/s", "667 TFLOP/s");
        check_si(2.9e12, "B/s", "2.9 TB/s");
        check_si(1.2994e15, "FLOP/s", "1.299 PFLOP/s");
        check_si(999.99e9, "B/s", "1 TB/s");
        check_si(230.0, "FLOP/B", "230 FLOP/B");
        check_si(0.0015, "s", "1.5 ms");
        check_si(0.0, "W", "0 W");
    }

    #[test]
    fn iec_prefixes() {
        assert_eq!(Bytes::gib(96.0).display_iec(), "96 GiB");
        assert_eq!(Bytes::mib(24.0).display_iec(), "24 MiB");
        assert_eq!(Bytes::new(8.0).display_iec(), "8 B");
        assert_eq!(Bytes::gib(96.0).display_memory(), "103.1 GB (96 GiB)");
        assert_eq!(Bytes::gb(80.0).display_memory(), "80 GB");
        assert_eq!(Bytes::mb(126.0).display_memory(), "126 MB");
        assert_eq!(Bytes::mib(24.0).display_memory(), "25.17 MB (24 MiB)");
        // A computed size that happens to be whole MiB above a GiB is no vendor's figure.
        assert_eq!(Bytes::mib(1280.0).display_memory(), "1.342 GB");
    }

    #[test]
    fn dimensional_operators() {
        let ridge = FlopPerSec::tflops(667.0) / BytesPerSec::tb_s(2.9);
        assert!((ridge.get() - 230.0).abs() < 0.01);
        let back = ridge * BytesPerSec::tb_s(2.9);
        assert!((back.get() - 667e12).abs() < 1.0);
        let t = Bytes::gb(2.9) / BytesPerSec::tb_s(2.9);
        assert!((t.get() - 1e-3).abs() < 1e-12);
    }

    #[test]
    fn parse_sizes() {
        let ok =
            |s: &str, want: f64| assert_eq!(s.parse::<Bytes>().map(Bytes::get), Ok(want), "{s}");
        ok("1GiB", 1_073_741_824.0);
        ok("512 KiB", 524_288.0);
        ok("8B", 8.0);
        ok("96e9", 96e9);
        ok("1.5 GB", 1.5e9);
        assert_eq!(
            "2.9TB/s".parse::<BytesPerSec>().map(BytesPerSec::get),
            Ok(2.9e12)
        );
        assert!(matches!(
            "-1GiB".parse::<Bytes>(),
            Err(ParseQuantityError::NotPositive(_))
        ));
        assert!(matches!(
            "0B".parse::<Bytes>(),
            Err(ParseQuantityError::NotPositive(_))
        ));
        assert!(matches!(
            "3 furlongs".parse::<Bytes>(),
            Err(ParseQuantityError::UnknownUnit(_))
        ));
        assert!(matches!(
            "GiB".parse::<Bytes>(),
            Err(ParseQuantityError::NotANumber(_))
        ));
    }
}
