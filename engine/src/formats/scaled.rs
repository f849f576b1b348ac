//! Scaled quantization: a tensor, or each block of it, shares one scale so narrow elements
//! cover the values' range. MX formats (OCP MX v1.0, section 6.3) use 32-element blocks with a
//! power-of-two E8M0 scale; NVFP4 uses 16-element blocks with an E4M3 scale on top of one
//! FP32 scale for the tensor (NVIDIA, "Introducing NVFP4", 2025).

use super::{exponent, pow2, Format, Rounding};
use alloc::vec::Vec;
use core::fmt;

/// The format a block's shared scale is stored in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScaleFormat {
    /// A power of two, 2^-127 to 2^127 (MX). Chosen as `floor(log2(amax)) - emax`.
    E8m0,
    /// An FP8 E4M3 value times one FP32 scale for the whole tensor (NVFP4).
    E4m3,
    /// An exact FP32 scale `amax / max`: the ideal the others approximate.
    Fp32,
}

impl ScaleFormat {
    /// Every scale format.
    pub const ALL: [ScaleFormat; 3] = [ScaleFormat::E8m0, ScaleFormat::E4m3, ScaleFormat::Fp32];

    /// Stable id used in links and the CLI.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            ScaleFormat::E8m0 => "e8m0",
            ScaleFormat::E4m3 => "e4m3",
            ScaleFormat::Fp32 => "fp32",
        }
    }

    /// From an id.
    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|f| f.id() == s.trim())
    }
}

/// How a tensor is scaled before its elements are rounded to the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scaling {
    /// No scale: values are rounded as they are.
    None,
    /// One FP32 scale for the tensor, `amax / max(format)` (per-tensor FP8 and INT8 recipes).
    Tensor,
    /// One scale per `size` consecutive elements along the reduction dimension.
    Block {
        /// Elements per block (MX: 32, NVFP4: 16).
        size: u32,
        /// The scale's own format.
        scale: ScaleFormat,
    },
}

impl Scaling {
    /// MX block scaling: 32 elements, E8M0 scale.
    pub const MX: Scaling = Scaling::Block {
        size: 32,
        scale: ScaleFormat::E8m0,
    };
    /// NVFP4 block scaling: 16 elements, E4M3 scale, FP32 tensor scale.
    pub const NV: Scaling = Scaling::Block {
        size: 16,
        scale: ScaleFormat::E4m3,
    };
    /// Largest block size accepted.
    pub const MAX_BLOCK: u32 = 4096;

    /// Short label: `MX block 32 (E8M0)`.
    #[must_use]
    pub fn label(self) -> alloc::string::String {
        match self {
            Scaling::None => "no scaling".into(),
            Scaling::Tensor => "per-tensor FP32 scale".into(),
            Scaling::Block { size, scale } => {
                alloc::format!("block of {size}, {} scale", scale.id().to_uppercase())
            }
        }
    }
}

/// What rounding did to a tensor.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct QuantStats {
    /// Elements clipped to the format's largest value.
    pub clipped: usize,
    /// Non-zero elements that became zero.
    pub flushed: usize,
    /// Elements that read back as NaN.
    pub nan: usize,
}

impl fmt::Display for QuantStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} clipped, {} flushed to zero, {} NaN",
            self.clipped, self.flushed, self.nan
        )
    }
}

/// A uniform 32-bit draw for element `i` under `seed` (SplitMix64), so stochastic rounding
/// is reproducible from a link.
#[must_use]
pub fn draw(seed: u64, i: u64) -> u32 {
    let mut z = seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) as u32
}

/// Rounds `x` (row-major, rows of `k` elements, blocks along each row) to `format` under
/// `scaling`, and returns the values it reads back as, with scales applied. `stochastic`
/// gives a seed for stochastic rounding; `None` rounds to nearest even. Without scaling,
/// `saturate` chooses the OCP overflow mode; scaled tensors always saturate, as MX does.
#[must_use]
pub fn quantize(
    x: &[f32],
    k: usize,
    format: Format,
    scaling: Scaling,
    stochastic: Option<u64>,
    saturate: bool,
) -> (Vec<f32>, QuantStats) {
    let k = k.max(1);
    let mut out = Vec::with_capacity(x.len());
    let mut stats = QuantStats::default();
    let fmax = format.max();
    let amax_t = amax(x);
    let rounding = |i: usize| match stochastic {
        None => Rounding::NearestEven,
        Some(seed) => Rounding::Stochastic(draw(seed, i as u64)),
    };
    let mut push = |i: usize, v: f64, scale: f64, sat: bool| {
        let q = if scale.is_nan() {
            f64::NAN
        } else if scale == 0.0 {
            0.0
        } else {
            format.round(v / scale, rounding(i), sat) * scale
        };
        if q.is_nan() {
            stats.nan += 1;
        } else if v != 0.0 && q == 0.0 {
            stats.flushed += 1;
        } else if (q.abs() - fmax * scale).abs() <= f64::EPSILON * q.abs() && v.abs() > q.abs() {
            stats.clipped += 1;
        }
        out.push(q as f32);
    };
    match scaling {
        Scaling::None => {
            for (i, &v) in x.iter().enumerate() {
                push(i, f64::from(v), 1.0, saturate);
            }
        }
        Scaling::Tensor => {
            let s = ideal_scale(amax_t, fmax);
            for (i, &v) in x.iter().enumerate() {
                push(i, f64::from(v), s, true);
            }
        }
        Scaling::Block { size, scale } => {
            let size = (size.clamp(1, Scaling::MAX_BLOCK)) as usize;
            let tensor = ideal_scale(amax_t, fmax * Format::E4m3.max());
            let mut base = 0;
            for row in x.chunks(k) {
                for block in row.chunks(size) {
                    let s = block_scale(amax(block), fmax, format, scale, tensor);
                    for (j, &v) in block.iter().enumerate() {
                        push(base + j, f64::from(v), s, true);
                    }
                    base += block.len();
                }
            }
        }
    }
    (out, stats)
}

/// Largest magnitude, or NaN if any value is not finite.
fn amax(x: &[f32]) -> f64 {
    let mut m = 0.0f64;
    for &v in x {
        if !v.is_finite() {
            return f64::NAN;
        }
        m = m.max(f64::from(v.abs()));
    }
    m
}

fn ideal_scale(amax: f64, fmax: f64) -> f64 {
    if amax.is_nan() {
        f64::NAN
    } else if amax == 0.0 {
        1.0
    } else {
        amax / fmax
    }
}

fn block_scale(amax: f64, fmax: f64, format: Format, scale: ScaleFormat, tensor: f64) -> f64 {
    if amax.is_nan() || (scale == ScaleFormat::E4m3 && tensor.is_nan()) {
        return f64::NAN;
    }
    if amax == 0.0 {
        return 0.0;
    }
    match scale {
        ScaleFormat::E8m0 => {
            // OCP MX v1.0 6.3: X = 2^(floor(log2(amax)) - emax_elem), within E8M0's range.
            pow2((exponent(amax) - format.emax()).clamp(-127, 127))
        }
        ScaleFormat::E4m3 => {
            let s = Format::E4m3.round(amax / fmax / tensor, Rounding::NearestEven, true);
            s * tensor
        }
        ScaleFormat::Fp32 => f64::from((amax / fmax) as f32),
    }
}
