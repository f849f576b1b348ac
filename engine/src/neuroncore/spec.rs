//! A NeuronCore experiment as one line of text, for links and the command line:
//! `trn2_mm_4096x4096x4096_bf16_t1024x1024x1024_b2_sA` (chip, kernel, M×N×K, format, blocks
//! M×N×K, buffers, stationary operand) or `trn2_attn_512x4096x128_bf16_kt512_b2` (queries ×
//! keys × head dimension, key block). An `h0.5` token scales the core's HBM bandwidth.

use super::attention::AttentionSpec;
use super::matmul::{MatmulSpec, Side};
use super::{Core, Schedule, ScheduleError};
use crate::dtype::Dtype;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// The kernel of an experiment.
#[derive(Clone, Debug, PartialEq)]
pub enum Kernel {
    /// A tiled matmul.
    Matmul(MatmulSpec),
    /// A fused attention tile.
    Attention(AttentionSpec),
}

/// A core and a kernel on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Experiment {
    /// Catalog chip id.
    pub chip: String,
    /// The kernel.
    pub kernel: Kernel,
    /// Multiplier on the core's HBM bandwidth (1 as built).
    pub hbm_scale: f64,
}

impl Default for Experiment {
    fn default() -> Self {
        Experiment {
            chip: "trn2".into(),
            kernel: Kernel::Matmul(MatmulSpec::new(4096, 4096, 4096, Dtype::Bf16)),
            hbm_scale: 1.0,
        }
    }
}

fn bad(why: String) -> ScheduleError {
    ScheduleError::Invalid(why)
}

fn dims(t: &str, what: &str) -> Result<[u32; 3], ScheduleError> {
    let parts: Vec<&str> = t.split('x').collect();
    if parts.len() != 3 {
        return Err(bad(format!(
            "'{t}' is not {what} (three numbers joined by x)"
        )));
    }
    let mut out = [0u32; 3];
    for (o, p) in out.iter_mut().zip(&parts) {
        *o = p
            .parse()
            .map_err(|_| bad(format!("'{p}' in '{t}' is not a whole number")))?;
    }
    Ok(out)
}

impl Experiment {
    /// Read an experiment from its text form.
    ///
    /// # Errors
    /// An unknown chip or kernel, or a token that does not parse; the message names it.
    pub fn parse(text: &str) -> Result<Experiment, ScheduleError> {
        let text = text.trim();
        if text.len() > 200 {
            return Err(bad(
                "a NeuronCore experiment is at most 200 characters".into()
            ));
        }
        let mut tok = text.split('_');
        let chip = tok.next().unwrap_or("").to_string();
        Core::of(&chip)?;
        let kind = tok.next().unwrap_or("");
        let shape = tok.next().unwrap_or("");
        let mut e = Experiment {
            chip,
            kernel: match kind {
                "mm" => {
                    let [m, n, k] = dims(shape, "M×N×K")?;
                    Kernel::Matmul(MatmulSpec::new(m, n, k, Dtype::Bf16))
                }
                "attn" => {
                    let [q, kv, d] = dims(shape, "queries×keys×head dimension")?;
                    let mut a = AttentionSpec::new(q, kv, Dtype::Bf16);
                    a.head_dim = d;
                    Kernel::Attention(a)
                }
                other => {
                    return Err(bad(format!(
                        "no NeuronCore kernel '{other}' (mm for a matmul, attn for attention)"
                    )))
                }
            },
            hbm_scale: 1.0,
        };
        for t in tok {
            let num = |s: &str| -> Result<u32, ScheduleError> {
                s.parse()
                    .map_err(|_| bad(format!("'{t}': '{s}' is not a whole number")))
            };
            match (&mut e.kernel, t.as_bytes().first()) {
                (_, Some(b'h')) => {
                    let x: f64 = t[1..]
                        .parse()
                        .map_err(|_| bad(format!("'{t}' is not an HBM factor like h0.5")))?;
                    if !(0.01..=100.0).contains(&x) {
                        return Err(bad(format!("HBM factor {x} is outside 0.01 to 100")));
                    }
                    e.hbm_scale = x;
                }
                (Kernel::Matmul(m), Some(b't')) => {
                    let [a, b, c] = dims(&t[1..], "blocks M×N×K")?;
                    (m.tile_m, m.tile_n, m.tile_k) = (a, b, c);
                }
                (Kernel::Matmul(m), Some(b's')) => {
                    m.stationary = match &t[1..] {
                        "A" | "a" => Side::A,
                        "B" | "b" => Side::B,
                        o => return Err(bad(format!("stationary '{o}' is not A or B"))),
                    }
                }
                (Kernel::Attention(a), Some(b'k')) if t.starts_with("kt") => {
                    a.kv_tile = num(&t[2..])?;
                }
                (Kernel::Matmul(m), Some(b'b')) if t.len() <= 3 && t != "bf16" => {
                    m.bufs = num(&t[1..])?;
                }
                (Kernel::Attention(a), Some(b'b')) if t.len() <= 3 && t != "bf16" => {
                    a.bufs = num(&t[1..])?;
                }
                (kernel, _) => {
                    let d: Dtype = t.parse().map_err(|_| {
                        bad(format!(
                            "'{t}' is not a format, blocks (t…), buffers (b…), stationary (sA/sB), key block (kt…) or HBM factor (h…)"
                        ))
                    })?;
                    match kernel {
                        Kernel::Matmul(m) => m.dtype = d,
                        Kernel::Attention(a) => a.dtype = d,
                    }
                }
            }
        }
        Ok(e)
    }

    /// The text form ([`Experiment::parse`] reads it back).
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut s = match &self.kernel {
            Kernel::Matmul(m) => format!(
                "{}_mm_{}x{}x{}_{}_t{}x{}x{}_b{}_s{}",
                self.chip,
                m.m,
                m.n,
                m.k,
                m.dtype.id(),
                m.tile_m,
                m.tile_n,
                m.tile_k,
                m.bufs,
                match m.stationary {
                    Side::A => "A",
                    Side::B => "B",
                }
            ),
            Kernel::Attention(a) => format!(
                "{}_attn_{}x{}x{}_{}_kt{}_b{}",
                self.chip,
                a.seq_q,
                a.seq_kv,
                a.head_dim,
                a.dtype.id(),
                a.kv_tile,
                a.bufs
            ),
        };
        if self.hbm_scale != 1.0 {
            s.push_str(&format!("_h{}", self.hbm_scale));
        }
        s
    }

    /// The core, with its HBM bandwidth scaled.
    ///
    /// # Errors
    /// An unknown or non-Trainium chip.
    pub fn core(&self) -> Result<Core, ScheduleError> {
        let mut c = Core::of(&self.chip)?;
        c.hbm_bw *= self.hbm_scale;
        Ok(c)
    }

    /// The experiment's schedule.
    ///
    /// # Errors
    /// As [`super::matmul::schedule`] and [`super::attention::schedule`].
    pub fn schedule(&self) -> Result<Schedule, ScheduleError> {
        let core = self.core()?;
        match &self.kernel {
            Kernel::Matmul(m) => super::matmul::schedule(&core, m),
            Kernel::Attention(a) => super::attention::schedule(&core, a),
        }
    }
}
