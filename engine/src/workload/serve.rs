//! Serving: the chips a replica needs, prefill, the decode step by part, and throughput.

use alloc::format;
use alloc::string::String;

use crate::chip::Chip;
use crate::dtype::Dtype;
use crate::efficiency;
use crate::roofline::Roofline;
use crate::system::Cluster;
use crate::units::{Bytes, Seconds};

use super::train::tp_allreduce;
use super::{Memory, Model, WorkloadError};

/// What serving kernels reach of the format's large-matmul rate, fitted to one measurement:
/// MLPerf Inference v4.1 closed, 8 × H200 SXM (TP1, 806 sequences, FP8), Llama 2 70B Offline,
/// 31,302.7 tokens/s (mlcommons/inference_results_v4.1,
/// closed/NVIDIA/results/H200-SXM-141GBx8_TRT) by `calibration::fit_serving_factor`; the
/// 8 × H100 run is held out. Below 1 because serving also runs small kernels, sampling and
/// scheduling between the GEMMs.
pub const SERVING_KERNEL_FACTOR: f64 = 0.80;
/// Default fraction of HBM bandwidth a decode step streams at (an assumption: no measured
/// figure is in the calibration set).
pub const SERVING_MEMORY_EFFICIENCY: f64 = 0.85;

/// Inputs of an inference estimate (offline serving: batches of equal requests).
#[derive(Clone, Debug, PartialEq)]
pub struct InferConfig {
    /// The model.
    pub model: Model,
    /// Weight and compute format (KV cache in the same format, at least 1 byte).
    pub dtype: Dtype,
    /// Concurrent sequences per model replica.
    pub batch: u32,
    /// Prompt tokens per request.
    pub prompt: u32,
    /// Generated tokens per request.
    pub output: u32,
    /// Chips per replica (tensor parallel); `None` picks the fewest that fit (a power of two
    /// within the scale-up domain).
    pub tp: Option<u32>,
    /// Fraction of the dense BF16 peak large BF16 matmuls reach; `None` takes the chip's
    /// default ([`efficiency::default_bf16`]). Other formats scale by the chip's ratio.
    pub matmul_efficiency: Option<f64>,
    /// What serving kernels reach of the large-matmul rate ([`SERVING_KERNEL_FACTOR`]).
    pub kernel_factor: f64,
    /// Fraction of HBM bandwidth a decode step streams at.
    pub memory_efficiency: f64,
}

impl InferConfig {
    /// A configuration with the serving defaults: the fewest chips that fit, the chip's
    /// matmul efficiency less [`SERVING_KERNEL_FACTOR`], and HBM at
    /// [`SERVING_MEMORY_EFFICIENCY`].
    #[must_use]
    pub fn new(model: Model, dtype: Dtype, batch: u32, prompt: u32, output: u32) -> Self {
        Self {
            model,
            dtype,
            batch,
            prompt,
            output,
            tp: None,
            matmul_efficiency: None,
            kernel_factor: SERVING_KERNEL_FACTOR,
            memory_efficiency: SERVING_MEMORY_EFFICIENCY,
        }
    }
}

/// An inference estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct InferReport {
    /// Chips per replica.
    pub chips_needed: u32,
    /// Replicas the cluster holds.
    pub replicas: u32,
    /// One decode step for the whole batch of a replica.
    pub decode_step: Seconds,
    /// Whether the decode step is bound by memory or compute.
    pub decode_bound: &'static str,
    /// Prefill of one batch's prompts.
    pub prefill: Seconds,
    /// Output tokens per second per chip.
    pub tokens_per_s_per_chip: f64,
    /// Output tokens per second over the cluster.
    pub tokens_per_s: f64,
    /// Time between a request's tokens during decode.
    pub latency_per_token: Seconds,
    /// Memory per chip.
    pub memory: Memory,
    /// How it was computed.
    pub formula: String,
    /// The decode step by part (they add up to it).
    pub decode_parts: DecodeParts,
}

/// A decode step's time by part.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DecodeParts {
    /// The weight GEMMs: their compute, or streaming the weights once, whichever is slower.
    pub weights: Seconds,
    /// The fixed cost of launching each GEMM.
    pub launches: Seconds,
    /// Attention over each sequence's KV cache.
    pub attention: Seconds,
    /// Tensor-parallel all-reduces.
    pub tp_comm: Seconds,
}

/// Estimate offline inference: every replica prefills its batch, then decodes `output` steps.
///
/// # Errors
/// When the model does not fit the scale-up domain, or the chip lacks the format.
pub fn infer(
    cluster: &Cluster,
    chip: &Chip,
    cfg: &InferConfig,
) -> Result<InferReport, WorkloadError> {
    infer_with(cluster, chip, cfg, true)
}

/// [`infer`], with the formula written out only when `explain` is set: a serving curve
/// evaluates hundreds of points and shows none of their formulas.
pub(crate) fn infer_with(
    cluster: &Cluster,
    chip: &Chip,
    cfg: &InferConfig,
    explain: bool,
) -> Result<InferReport, WorkloadError> {
    let m = &cfg.model;
    if cfg.batch == 0 || cfg.prompt == 0 || cfg.output == 0 {
        return Err(WorkloadError::BadInput(
            "batch, prompt and output must be at least 1".into(),
        ));
    }
    let roof = Roofline::dense(chip, cfg.dtype).ok_or_else(|| {
        WorkloadError::NoFormat(format!("{} has no dense {} figure", chip.id, cfg.dtype))
    })?;
    let hbm = chip.hbm_capacity.value.get();
    // Continuous (in-flight) batching staggers requests, so the live KV cache averages the
    // prompt plus half the output per sequence.
    let mean_ctx = f64::from(cfg.prompt) + f64::from(cfg.output) / 2.0;
    let weights = m.params_total() * cfg.dtype.bytes();
    let kv_bytes = m
        .kv_bytes_per_token(cfg.dtype)
        .max(m.kv_bytes_per_token(Dtype::Fp8));
    let kv = f64::from(cfg.batch) * mean_ctx * kv_bytes;
    // Leave 10% of HBM for activations and the runtime.
    let usable = 0.9 * hbm;
    let domain = cluster.system.chips();
    let tp = match cfg.tp {
        Some(t) if t >= 1 && t <= domain => t,
        Some(t) => {
            return Err(WorkloadError::BadLayout(format!(
                "{t} chips per replica do not fit the {domain}-chip scale-up domain"
            )))
        }
        None => {
            let mut t = 1;
            while (weights + kv) / f64::from(t) > usable && t < domain {
                t = (t * 2).min(domain);
            }
            t
        }
    };
    let memory = Memory {
        weights: weights / f64::from(tp),
        gradients: 0.0,
        optimizer: 0.0,
        activations: 0.0,
        kv_cache: kv / f64::from(tp),
    };
    if memory.total() > usable {
        return Err(WorkloadError::DoesNotFit {
            needed: memory.total(),
            available: usable,
            detail: format!("the weights and a KV cache for {} sequences of {mean_ctx} tokens on average need more than {tp} chips", cfg.batch),
        });
    }
    let t = f64::from(tp);
    let b = f64::from(cfg.batch);
    let eff = efficiency::matmul(chip, cfg.dtype);
    let bf16 = cfg
        .matmul_efficiency
        .unwrap_or_else(|| efficiency::default_bf16(chip).value);
    if !(bf16 > 0.0 && bf16 <= 1.0 && cfg.kernel_factor > 0.0 && cfg.kernel_factor <= 1.0) {
        return Err(WorkloadError::BadInput(
            "the matmul efficiency and the kernel factor must be in (0, 1]".into(),
        ));
    }
    let peak = roof.peak.get() * eff.large(bf16) * cfg.kernel_factor;
    let ffn_mats = if m.gated { 3.0 } else { 2.0 };
    let calls = f64::from(m.layers) * (2.0 + ffn_mats) * eff.per_gemm.value.get();
    let bw = roof.bandwidth.get() * cfg.memory_efficiency;
    // A decode step runs the weight GEMMs (compute, or streaming the weights once, whichever
    // is slower) and then attention, which streams each sequence's KV cache: separate kernels,
    // so their times add.
    let attn_flops = 4.0 * f64::from(m.layers) * m.d() * mean_ctx;
    let gemm_flops = b * (m.forward_flops_per_token(mean_ctx) - attn_flops) / t;
    let (t_compute, t_weights) = (gemm_flops / peak, weights / t / bw);
    let t_attn = (b * attn_flops / t / peak).max(b * mean_ctx * kv_bytes / t / bw);
    let tp_comm = if tp > 1 {
        tp_allreduce(cluster, tp, Bytes::new(b * m.d() * 2.0))? * 2.0 * f64::from(m.layers)
    } else {
        0.0
    };
    let decode = t_compute.max(t_weights) + calls + t_attn + tp_comm;
    let prefill =
        b * f64::from(cfg.prompt) * m.forward_flops_per_token(f64::from(cfg.prompt) / 2.0)
            / t
            / peak;
    let per_replica = b * f64::from(cfg.output) / (prefill + f64::from(cfg.output) * decode);
    let replicas = cluster.chips() / tp;
    let tokens_per_s = per_replica * f64::from(replicas);
    Ok(InferReport {
        chips_needed: tp,
        replicas,
        decode_step: Seconds::new(decode),
        decode_bound: if t_compute >= t_weights + t_attn {
            "compute"
        } else {
            "memory"
        },
        prefill: Seconds::new(prefill),
        tokens_per_s_per_chip: per_replica / t,
        tokens_per_s,
        latency_per_token: Seconds::new(decode),
        memory,
        decode_parts: DecodeParts {
            weights: Seconds::new(t_compute.max(t_weights)),
            launches: Seconds::new(calls),
            attention: Seconds::new(t_attn),
            tp_comm: Seconds::new(tp_comm),
        },
        formula: if !explain {
            String::new()
        } else {
            format!(
            "decode step = max({} GEMMs B·FLOP/token ÷ (t·peak·e) = {}, weights ÷ (t·BW·e) = {}) + {} GEMM calls × {} = {} + attention B·ctx·KV ÷ (t·BW·e) = {} + TP all-reduces {}; e = {:.1}% of the {} peak (BF16 {:.1}% × {} ratio {:.3} × serving kernels {:.2}); prefill {}; tokens/s = B·out ÷ (prefill + out·step) × replicas",
            cfg.dtype,
            Seconds::new(t_compute),
            Seconds::new(t_weights),
            f64::from(m.layers) * (2.0 + ffn_mats),
            eff.per_gemm.value,
            Seconds::new(calls),
            Seconds::new(t_attn),
            Seconds::new(tp_comm),
            peak / roof.peak.get() * 100.0,
            cfg.dtype,
            bf16 * 100.0,
            cfg.dtype,
            eff.ratio.value,
            cfg.kernel_factor,
            Seconds::new(prefill)
        )
        },
    })
}
