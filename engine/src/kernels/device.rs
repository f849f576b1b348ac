//! The user's own machine as measured in the browser: roofs that sit on the Roofline page
//! beside the catalog's chips, and travel in a link as numbers (a link never re-measures).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// What was measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The CPU, this many threads (one wasm instance per Web Worker).
    Cpu(u32),
    /// The GPU through WebGPU.
    Gpu,
}

/// One measured roof: f32 GEMM throughput and streaming (triad) bandwidth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeviceRoof {
    /// CPU threads or GPU.
    pub engine: Engine,
    /// Measured f32 GEMM rate, GFLOP/s.
    pub gflops: f64,
    /// Measured triad bandwidth, GB/s.
    pub gbps: f64,
}

/// Most threads a measurement may name.
pub const MAX_THREADS: u32 = 1024;

impl DeviceRoof {
    /// `this device · 4 threads` / `this device · GPU`.
    #[must_use]
    pub fn label(&self) -> String {
        match self.engine {
            Engine::Cpu(1) => "This device · 1 thread".into(),
            Engine::Cpu(n) => format!("This device · {n} threads"),
            Engine::Gpu => "This device · GPU (WebGPU)".into(),
        }
    }

    fn id(&self) -> String {
        match self.engine {
            Engine::Cpu(n) => format!("cpu{n}"),
            Engine::Gpu => "gpu".into(),
        }
    }
}

/// Encodes measured roofs for a link: `cpu1:27.7,16.4;cpu4:98,21;gpu:900,300`.
#[must_use]
pub fn to_spec(roofs: &[DeviceRoof]) -> String {
    let parts: Vec<String> = roofs
        .iter()
        .map(|r| {
            format!(
                "{}:{},{}",
                r.id(),
                crate::units::sig(r.gflops, 4),
                crate::units::sig(r.gbps, 4)
            )
        })
        .collect();
    parts.join(";")
}

/// Reads measured roofs from a link; at most 4, each checked for range.
///
/// # Errors
/// Names the part that could not be read.
pub fn parse_spec(s: &str) -> Result<Vec<DeviceRoof>, String> {
    let mut out = Vec::new();
    for part in s.split(';').filter(|p| !p.is_empty()) {
        if out.len() == 4 {
            return Err("more than 4 measured roofs".into());
        }
        let bad = || {
            format!(
                "'{}' is not engine:GFLOP/s,GB/s",
                part.chars().take(40).collect::<String>()
            )
        };
        let (id, nums) = part.split_once(':').ok_or_else(bad)?;
        let engine = if id == "gpu" {
            Engine::Gpu
        } else {
            let n: u32 = id
                .strip_prefix("cpu")
                .and_then(|n| n.parse().ok())
                .ok_or_else(bad)?;
            if !(1..=MAX_THREADS).contains(&n) {
                return Err(format!("{n} threads is outside 1 to {MAX_THREADS}"));
            }
            Engine::Cpu(n)
        };
        let (f, b) = nums.split_once(',').ok_or_else(bad)?;
        // Read at the precision a link writes (4 significant digits), so a decoded roof
        // encodes and decodes to itself.
        let num = |v: &str, hi: f64| {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x > 0.0 && *x <= hi)
                .and_then(|x| crate::units::sig(x, 4).parse::<f64>().ok())
                .filter(|x| *x > 0.0)
        };
        // Ceilings far above any machine today: a petaflop and a petabyte per second.
        let gflops =
            num(f, 1e6).ok_or_else(|| format!("{f} GFLOP/s is not a rate from 0 to 1e6"))?;
        let gbps = num(b, 1e6).ok_or_else(|| format!("{b} GB/s is not a rate from 0 to 1e6"))?;
        out.push(DeviceRoof {
            engine,
            gflops,
            gbps,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roofs_round_trip_and_nonsense_is_refused() {
        let r = alloc::vec![
            DeviceRoof {
                engine: Engine::Cpu(1),
                gflops: 27.7,
                gbps: 16.4
            },
            DeviceRoof {
                engine: Engine::Cpu(8),
                gflops: 180.0,
                gbps: 41.25
            },
            DeviceRoof {
                engine: Engine::Gpu,
                gflops: 900.0,
                gbps: 300.0
            },
        ];
        assert_eq!(parse_spec(&to_spec(&r)), Ok(r));
        for bad in [
            "cpu0:1,1",
            "cpu1:NaN,1",
            "cpu1:1,inf",
            "cpu1:-3,1",
            "tpu:1,1",
            "cpu1:1e9,1",
            "cpu1",
        ] {
            assert!(parse_spec(bad).is_err(), "{bad}");
        }
        assert!(parse_spec("gpu:1,1;gpu:1,1;gpu:1,1;gpu:1,1;gpu:1,1").is_err());
    }
}
