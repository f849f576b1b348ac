//! What arrives at a serving replica: requests one by one (Poisson or bursty), sessions of
//! turns (chat, agentic) whose next turn follows the last one's answer, or a trace.
//! Everything random comes from one seeded generator, so a seed gives the same traffic.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// A small, fast, seeded generator (SplitMix64): the same seed, the same numbers, on every
/// platform.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in (0, 1).
    pub fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }
    /// Exponential with mean `mean`.
    pub fn exp(&mut self, mean: f64) -> f64 {
        -mean * libm::log(self.uniform())
    }
    /// Gamma with shape `k` < 1 and mean `mean` (Ahrens–Dieter's method, for bursts).
    pub fn gamma_small(&mut self, k: f64, mean: f64) -> f64 {
        let scale = mean / k;
        let e = core::f64::consts::E;
        loop {
            let (u, v) = (self.uniform(), self.uniform());
            let b = (e + k) / e;
            let p = b * u;
            if p <= 1.0 {
                let x = libm::pow(p, 1.0 / k);
                if v <= libm::exp(-x) {
                    return x * scale;
                }
            } else {
                let x = -libm::log((b - p) / k);
                if v <= libm::pow(x, k - 1.0) {
                    return x * scale;
                }
            }
        }
    }
    /// A length around `mean` (log-normal, its spread σ = 0.5), at least 1.
    pub fn length(&mut self, mean: f64) -> u32 {
        let (u1, u2) = (self.uniform(), self.uniform());
        let z = libm::sqrt(-2.0 * libm::log(u1)) * libm::cos(2.0 * core::f64::consts::PI * u2);
        let s = 0.5;
        let x = mean * libm::exp(s * z - s * s / 2.0);
        libm::round(x).clamp(1.0, 1e7) as u32
    }
}

/// The kind of traffic.
#[derive(Clone, Debug, PartialEq)]
pub enum Traffic {
    /// Requests one at a time, arriving as a Poisson process, every one of the given lengths.
    Poisson,
    /// Requests arriving in bursts: gaps drawn from a gamma distribution whose coefficient of
    /// variation is 2 (four times a Poisson process's variance), the given lengths.
    Bursty,
    /// Chat sessions: a few turns each (4 on average), a user reading and typing between
    /// them; each turn sends the whole conversation so far and a new message.
    Chat,
    /// Agentic sessions: many turns (12 on average) of tool calls, each adding the tool's
    /// output to a growing context and waiting on the tool between turns.
    Agentic,
    /// Requests as a trace gives them.
    Trace(Vec<TraceRow>),
}

/// One request of a trace.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TraceRow {
    /// When it arrives, seconds from the start.
    pub at_s: f64,
    /// Its prompt, tokens.
    pub prompt: u32,
    /// Its output, tokens.
    pub output: u32,
}

/// The most requests a trace may hold.
pub const MAX_TRACE_ROWS: usize = 1_000_000;

impl Traffic {
    /// The ids a command line and a link take.
    pub const IDS: [&'static str; 4] = ["poisson", "bursty", "chat", "agentic"];

    /// The traffic named `id` (not a trace).
    #[must_use]
    pub fn named(id: &str) -> Option<Traffic> {
        match id {
            "poisson" => Some(Traffic::Poisson),
            "bursty" => Some(Traffic::Bursty),
            "chat" => Some(Traffic::Chat),
            "agentic" => Some(Traffic::Agentic),
            _ => None,
        }
    }

    /// Its id (`trace` for a trace).
    #[must_use]
    pub fn id(&self) -> &'static str {
        match self {
            Traffic::Poisson => "poisson",
            Traffic::Bursty => "bursty",
            Traffic::Chat => "chat",
            Traffic::Agentic => "agentic",
            Traffic::Trace(_) => "trace",
        }
    }

    /// Turns a session holds on average (1 for requests that come alone).
    #[must_use]
    pub fn mean_turns(&self) -> f64 {
        match self {
            Traffic::Chat => 4.0,
            Traffic::Agentic => 12.0,
            _ => 1.0,
        }
    }

    /// Reads a trace: one request a line, `arrival_s,prompt,output` (a header line, blank
    /// lines and `#` comments are skipped), in any order.
    ///
    /// # Errors
    /// A line that is not three numbers, a negative or non-finite time, a length of 0 or
    /// over 10 million, or more than [`MAX_TRACE_ROWS`] requests; the message names the line.
    pub fn parse_trace(text: &str) -> Result<Traffic, String> {
        let mut rows = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split(',').map(str::trim).collect();
            let header =
                f.first().is_some_and(|x| x.parse::<f64>().is_err()) && rows.is_empty() && i == 0;
            if header {
                continue;
            }
            let bad = || {
                format!(
                    "trace line {}: '{}' is not arrival_s,prompt,output",
                    i + 1,
                    line.chars().take(40).collect::<String>()
                )
            };
            if f.len() != 3 {
                return Err(bad());
            }
            let at: f64 = f[0].parse().map_err(|_| bad())?;
            let len = |x: &str| {
                x.parse::<u32>()
                    .ok()
                    .filter(|n| (1..=10_000_000).contains(n))
            };
            let (Some(prompt), Some(output)) = (len(f[1]), len(f[2])) else {
                return Err(format!(
                    "trace line {}: prompt and output are whole numbers from 1 to 10,000,000",
                    i + 1
                ));
            };
            if !(at.is_finite() && at >= 0.0) {
                return Err(format!(
                    "trace line {}: the arrival time {at} is not a time from 0",
                    i + 1
                ));
            }
            if rows.len() == MAX_TRACE_ROWS {
                return Err(format!("a trace holds at most {MAX_TRACE_ROWS} requests"));
            }
            rows.push(TraceRow {
                at_s: at,
                prompt,
                output,
            });
        }
        if rows.is_empty() {
            return Err("the trace holds no request".into());
        }
        rows.sort_by(|a, b| a.at_s.total_cmp(&b.at_s));
        Ok(Traffic::Trace(rows))
    }
}
