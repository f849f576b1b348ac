//! Seeded inputs, so a link reproduces a run bit for bit on every machine.

use alloc::vec::Vec;
use core::fmt;

/// xoshiro256** (Blackman and Vigna), seeded through SplitMix64.
#[derive(Clone, Debug)]
pub struct Rng([u64; 4]);

impl Rng {
    /// A generator from a seed; different seeds give independent streams.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        let mut z = seed;
        let mut next = || {
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut x = z;
            x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            x ^ (x >> 31)
        };
        Self([next(), next(), next(), next()])
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.0;
        let out = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        out
    }

    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Standard normal (Box-Muller; one of the pair is dropped to keep the stream simple).
    pub fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.uniform();
        let u2 = self.uniform();
        libm::sqrt(-2.0 * libm::log(u1)) * libm::cos(core::f64::consts::TAU * u2)
    }
}

/// How input values are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Distribution {
    /// Standard normal.
    Normal,
    /// Uniform on [-1, 1).
    Uniform,
    /// Normal, with one value in 1,000 an outlier 20 to 100 times larger.
    HeavyTail,
    /// Like a transformer's activations: normal, except a few channels (one in 128, at
    /// least one) carry values about 30 times larger in every row.
    LlmActivation,
}

impl Distribution {
    /// Every distribution.
    pub const ALL: [Distribution; 4] = [
        Distribution::Normal,
        Distribution::Uniform,
        Distribution::HeavyTail,
        Distribution::LlmActivation,
    ];

    /// Stable id used in links and the CLI.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Distribution::Normal => "normal",
            Distribution::Uniform => "uniform",
            Distribution::HeavyTail => "outliers",
            Distribution::LlmActivation => "llm",
        }
    }

    /// Display label.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Distribution::Normal => "normal",
            Distribution::Uniform => "uniform [-1, 1)",
            Distribution::HeavyTail => "normal with 0.1% outliers (20-100x)",
            Distribution::LlmActivation => "LLM-like activations (a few large channels)",
        }
    }

    /// From an id.
    #[must_use]
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|d| d.id() == s.trim())
    }

    /// `rows x cols` values, row-major; channels are columns.
    #[must_use]
    pub fn sample(self, rng: &mut Rng, rows: usize, cols: usize) -> Vec<f32> {
        let cols = cols.max(1);
        let loud: Vec<usize> = match self {
            Distribution::LlmActivation => {
                let count = (cols / 128).max(1);
                (0..count)
                    .map(|_| (rng.next_u64() % cols as u64) as usize)
                    .collect()
            }
            _ => Vec::new(),
        };
        let mut out = Vec::with_capacity(rows * cols);
        for _ in 0..rows {
            for c in 0..cols {
                let v = match self {
                    Distribution::Normal => rng.normal(),
                    Distribution::Uniform => 2.0 * rng.uniform() - 1.0,
                    Distribution::HeavyTail => {
                        let v = rng.normal();
                        if rng.uniform() < 1e-3 {
                            v * (20.0 + 80.0 * rng.uniform())
                        } else {
                            v
                        }
                    }
                    Distribution::LlmActivation => {
                        let v = rng.normal();
                        if loud.contains(&c) {
                            v * 30.0
                        } else {
                            v
                        }
                    }
                };
                out.push(v as f32);
            }
        }
        out
    }
}

impl fmt::Display for Distribution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}
