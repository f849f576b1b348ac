//! `accelscope roofline`: a chip's ridge point and what an intensity or operation attains.

use std::fmt::Write as _;

use engine::{catalog, Chip, Dtype, FlopPerByte, OpSpec, Roofline};
use serde_json::{json, Value};

use super::Run;
use crate::args::Json;
use crate::error::Error;
use crate::parse::{self, Check};
use crate::report::{Format, Report};

/// Ridge point and attainable FLOP/s of a chip in one number format
///
/// The chip's dense peak and HBM bandwidth in the format, its ridge point, and the FLOP/s an
/// arithmetic intensity (--intensity, or an operation's, --op) attains and what bounds it.
///
/// ridge = peak / bandwidth; attainable = min(peak, intensity × bandwidth).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The chip, as `accelscope chips` lists them
    #[arg(long, value_name = "ID")]
    chip: String,
    /// The number format (fp64, fp32, tf32, bf16, fp16, fp8, fp6, fp4, int8)
    #[arg(long, value_name = "FMT", value_parser = parse::parsed::<Dtype>())]
    dtype: Dtype,
    /// An arithmetic intensity in FLOP per byte of HBM traffic (or give --op)
    #[arg(long, value_name = "X", allow_hyphen_values = true, value_parser = intensity())]
    intensity: Option<FlopPerByte>,
    /// An operation whose intensity is used, e.g. gemm:8192,8192,8192 (--help lists the kinds)
    ///
    /// One of:
    ///   gemm:M,N,K
    ///   elem:elements,reads,writes,flop_per_element
    ///   prefill:batch,seq,heads,kv_heads,head_dim
    ///   attn-decode:batch,context,heads,kv_heads,head_dim
    ///   decode:params,batch,context,layers,heads,kv_heads,head_dim
    ///   moe:experts,tokens_per_expert,d_model,d_ff
    #[arg(long, value_name = "SPEC", value_parser = op(), verbatim_doc_comment)]
    op: Option<OpSpec>,
    #[command(flatten)]
    out: Json,
}

fn intensity() -> Check<impl Fn(&str, &str) -> Result<FlopPerByte, String> + Clone> {
    Check(|_: &str, x: &str| match x.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(FlopPerByte::new(v)),
        _ => Err(format!(
            "--intensity must be a positive number of FLOP per byte, got '{x}'"
        )),
    })
}

fn op() -> Check<impl Fn(&str, &str) -> Result<OpSpec, String> + Clone> {
    Check(|_: &str, x: &str| OpSpec::parse_spec(x).map_err(|e| e.to_string()))
}

/// The roofline, and where an intensity falls on it.
pub struct RooflineReport {
    chip: Chip,
    dtype: Dtype,
    roof: Roofline,
    intensity: Option<FlopPerByte>,
    op: Option<OpSpec>,
}

impl Run for Args {
    type Output = RooflineReport;
    fn run(&self) -> Result<RooflineReport, Error> {
        let chip = catalog::find(&self.chip)?;
        let d = self.dtype;
        let roof = Roofline::dense(&chip, d).ok_or_else(|| {
            let have: Vec<&str> = chip.formats().map(Dtype::id).collect();
            Error::usage(format!(
                "{} has no dense {} figure (it has: {})",
                chip.id,
                d.label(),
                have.join(", ")
            ))
        })?;
        let intensity = match (self.intensity, &self.op) {
            (Some(_), Some(_)) => return Err(Error::usage("give --intensity or --op, not both")),
            (Some(x), None) => Some(x),
            (None, Some(o)) => Some(o.cost(d).intensity()),
            (None, None) => None,
        };
        Ok(RooflineReport {
            chip,
            dtype: d,
            roof,
            intensity,
            op: self.op.clone(),
        })
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

impl Report for RooflineReport {
    fn json(&self) -> serde_json::Result<Value> {
        let (roof, d) = (self.roof, self.dtype);
        let mut v = json!({
            "chip": self.chip.id,
            "dtype": d.id(),
            "peak_flop_per_s": roof.peak.get(),
            "hbm_bandwidth_bytes_per_s": roof.bandwidth.get(),
            "ridge_flop_per_byte": roof.ridge().get(),
            "formula": "ridge = peak / bandwidth; attainable = min(peak, intensity × bandwidth)",
        });
        if let Some(op) = &self.op {
            let c = op.cost(d);
            v["operation"] = json!({
                "spec": op.to_spec(),
                "label": op.label(),
                "flop": c.flop.get(),
                "hbm_bytes": c.bytes.get(),
                "formula": op.formula(),
            });
        }
        if let Some(i) = self.intensity {
            let b = roof.bound(i);
            v["intensity_flop_per_byte"] = json!(i.get());
            v["attainable_flop_per_s"] = json!(roof.attainable(i).get());
            v["fraction_of_peak"] = json!(roof.attainable(i) / roof.peak);
            v["bound"] = json!(b.kind());
            v["bound_detail"] = json!(b.to_string());
        }
        Ok(v)
    }

    fn text(&self) -> Option<String> {
        let roof = self.roof;
        let mut s = format!(
            "{} {}: peak {}, HBM {}, ridge {}",
            self.chip.name,
            self.dtype.label(),
            roof.peak,
            roof.bandwidth,
            roof.ridge()
        );
        if let Some(i) = self.intensity {
            let _ = write!(
                s,
                "\nat {}: attainable {} ({})",
                i,
                roof.attainable(i),
                roof.bound(i)
            );
        }
        Some(s)
    }
}
