//! `accelscope kernel-data`: the kernel tables measured on each chip, with their sources; and
//! a GEMM's time read from one of them.

use engine::kerneldata::{self, KernelOp, KernelTable};
use serde_json::{json, Value};

use super::Run;
use crate::args::Json;
use crate::error::Error;
use crate::report::{Format, Report};

/// Kernel tables measured on each chip: chip, kernel, format, points, source
///
/// Every table of measured kernel timings the engine holds (GEMMs, grouped expert GEMMs,
/// attention and latent attention, prefill and decode), each with the number of measured
/// points, its source, commit and license. With --gemm M,N,K and --chip, the time of one GEMM
/// read from the chip's table in --format, never under the chip's roofline.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Only this chip's tables (a catalog id, e.g. b200)
    #[arg(long, value_name = "ID")]
    chip: Option<String>,
    /// A GEMM to time from the chip's table: M,N,K (tokens, outputs, inputs)
    #[arg(long, value_name = "M,N,K", requires = "chip", value_parser = parse_gemm)]
    gemm: Option<[f64; 3]>,
    /// The table's format for --gemm: bf16, fp8, nvfp4, fp8-block, mxfp4
    #[arg(long, value_name = "F", default_value = "bf16")]
    format: String,
    #[command(flatten)]
    out: Json,
}

fn parse_gemm(s: &str) -> Result<[f64; 3], String> {
    let v: Vec<f64> = s
        .split(',')
        .map(|x| x.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("'{s}' is not M,N,K"))?;
    match <[f64; 3]>::try_from(v) {
        Ok(d) if d.iter().all(|x| x.is_finite() && (1.0..=1e7).contains(x)) => Ok(d),
        _ => Err(format!("'{s}' is not three sizes from 1 to 1e7")),
    }
}

/// The tables, and a GEMM's time if one was asked for.
pub struct KernelData {
    tables: Vec<KernelTable>,
    gemm: Option<([f64; 3], f64, std::sync::Arc<KernelTable>)>,
}

impl Run for Args {
    type Output = KernelData;
    fn run(&self) -> Result<KernelData, Error> {
        let mut tables = kerneldata::tables();
        if let Some(c) = &self.chip {
            engine::find(c).map_err(|e| Error::usage(e.to_string()))?;
            tables.retain(|t| &t.chip == c);
        }
        let gemm = match (self.gemm, &self.chip) {
            (Some(d), Some(c)) => {
                let chip = engine::find(c).map_err(|e| Error::usage(e.to_string()))?;
                let formats: Vec<&str> = tables
                    .iter()
                    .filter(|t| t.op == KernelOp::Gemm)
                    .map(|t| t.format.as_str())
                    .collect();
                let (s, t) = kerneldata::gemm_time(&chip, &self.format, d[0], d[1], d[2])
                    .ok_or_else(|| {
                        Error::usage(format!(
                            "no {} GEMM table for {c} (its GEMM tables: {})",
                            self.format,
                            if formats.is_empty() {
                                "none".to_string()
                            } else {
                                formats.join(", ")
                            }
                        ))
                    })?;
                Some((d, s, t))
            }
            _ => None,
        };
        Ok(KernelData { tables, gemm })
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

impl Report for KernelData {
    fn json(&self) -> serde_json::Result<Value> {
        let tables: Vec<Value> = self
            .tables
            .iter()
            .map(|t| {
                json!({
                    "chip": t.chip, "op": t.op.id(), "dtype": t.format, "shape": t.shape,
                    "dims": t.dims, "points": t.points.len(), "kind": t.kind,
                    "measured_points": if t.kind == "measured" { t.points.len() } else { 0 },
                    "source": t.source,
                    "kernel_source": t.url, "license": t.license, "date": t.date,
                })
            })
            .collect();
        let gemm = self.gemm.as_ref().map(|(d, s, t)| {
            json!({ "m": d[0], "n": d[1], "k": d[2], "time_s": s,
                    "flop_per_s": 2.0 * d[0] * d[1] * d[2] / s, "kernel_source": t.url })
        });
        Ok(json!({ "tables": tables, "gemm": gemm }))
    }

    fn text(&self) -> Option<String> {
        let mut s = format!(
            "{:<9} {:<18} {:<12} {:>6} {:<9} shape; source\n",
            "chip", "kernel", "format", "points", "kind"
        );
        for t in &self.tables {
            s += &format!(
                "{:<9} {:<18} {:<12} {:>6} {:<9} {}; {}\n",
                t.chip,
                t.op.id(),
                t.format,
                t.points.len(),
                t.kind,
                t.shape,
                t.url
            );
        }
        if let Some((d, secs, t)) = &self.gemm {
            s += &format!(
                "\nGEMM {}×{}×{} on {} ({}): {:.2} µs, {:.1} TFLOP/s, from {}\n",
                d[0],
                d[1],
                d[2],
                t.chip,
                t.format,
                secs * 1e6,
                2.0 * d[0] * d[1] * d[2] / secs / 1e12,
                t.url
            );
        }
        let measured = |kind: &str| {
            self.tables
                .iter()
                .filter(|t| t.kind == kind)
                .map(|t| t.points.len())
                .sum::<usize>()
        };
        s += &format!(
            "{} tables, {} measured points and {} modelled (Trainium's, by the NeuronCore simulator); figures as published, interpolated between shapes and never past the roofline.",
            self.tables.len(),
            measured("measured"),
            measured("modelled")
        );
        Some(s)
    }
}
