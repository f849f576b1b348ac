//! Serving against latency targets: for a model on a platform, each configuration of chips per
//! replica (tensor parallel) and concurrent sequences gives a time to first token, a time per
//! output token, and a throughput per chip; the curve of throughput per chip against
//! interactivity (tokens/s each user sees) is what buyers size with, and the cheapest point
//! that meets a TTFT and TPOT target is what they buy.
//!
//! With continuous batching a replica's requests are staggered: each step advances every
//! sequence by one token, and new requests' prompts are prefilled between steps. So a user
//! sees a token every `prefill ÷ output + decode step` on average (the replica's time per
//! output step, what its throughput is built from), and a first token after its own prompt's
//! prefill and one step. Queueing is not modelled: the points hold below saturation.

use alloc::string::{String, ToString as _};
use alloc::vec::Vec;

use super::serve::{infer_with, InferConfig};
use super::WorkloadError;
use crate::chip::Chip;
use crate::system::Cluster;

/// One configuration on the curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ServePoint {
    /// Chips per replica.
    pub tp: u32,
    /// The attention data-parallel degree.
    pub attn_dp: u32,
    /// The serving expert-parallel degree.
    pub ep: u32,
    /// Concurrent sequences per replica.
    pub batch: u32,
    /// Time to first token, s.
    pub ttft_s: f64,
    /// Time per output token each user sees, s.
    pub tpot_s: f64,
    /// Time per output token when the replica holds its 99th-percentile number of sequences
    /// (see [`tail_batch`]), s: what a target on the 99th percentile must hold.
    pub tpot_p99_s: f64,
    /// Output tokens per second per chip.
    pub tokens_per_s_per_chip: f64,
}

impl ServePoint {
    /// Tokens per second each user sees.
    #[must_use]
    pub fn interactivity(&self) -> f64 {
        1.0 / self.tpot_s
    }
    /// Whether the point meets a TTFT target on average and a TPOT target at the 99th
    /// percentile of occupancy.
    #[must_use]
    pub fn meets(&self, ttft_s: f64, tpot_s: f64) -> bool {
        self.ttft_s <= ttft_s && self.tpot_p99_s <= tpot_s
    }
    /// $ per million output tokens at `usd_per_chip_hour`.
    #[must_use]
    pub fn usd_per_mtok(&self, usd_per_chip_hour: f64) -> f64 {
        usd_per_chip_hour / (self.tokens_per_s_per_chip * 3600.0) * 1e6
    }
}

/// The point of `base` (its batch and chips per replica) on the curve.
///
/// # Errors
/// When the configuration does not fit or its inputs are out of range.
pub fn point(
    cluster: &Cluster,
    chip: &Chip,
    base: &InferConfig,
) -> Result<ServePoint, WorkloadError> {
    let r = infer_with(cluster, chip, base, false)?;
    let out = f64::from(base.output);
    let b = f64::from(base.batch);
    let step = r.decode_step.get();
    let tpot = |r: &super::InferReport| r.prefill.get() / out + r.decode_step.get();
    // At the tail the replica must also hold the extra sequences' KV caches; where it cannot,
    // no tail target can be promised.
    let tail = InferConfig {
        batch: tail_batch(base.batch),
        tp: Some(r.chips_needed),
        attn_dp: Some(r.layout.attn_dp),
        ep: Some(r.layout.ep),
        ..base.clone()
    };
    let tpot_p99_s = infer_with(cluster, chip, &tail, false).map_or(f64::INFINITY, |t| tpot(&t));
    Ok(ServePoint {
        tp: r.chips_needed,
        attn_dp: r.layout.attn_dp,
        ep: r.layout.ep,
        batch: base.batch,
        // Its own prompt (a batch's prefill shared out) and then the step it joins.
        ttft_s: r.prefill.get() / b + step,
        tpot_s: tpot(&r),
        tpot_p99_s,
        tokens_per_s_per_chip: r.tokens_per_s_per_chip,
    })
}

/// The layouts a replica of `chips` chips is tried in: the degrees `base` sets, else for a
/// mixture of experts timed as a graph, attention tensor-parallel or data-parallel over the
/// chips with the experts spread over them (wide expert parallelism), or everything sliced
/// across them; else the default.
fn layouts(base: &InferConfig, chips: u32) -> Vec<(Option<u32>, Option<u32>)> {
    if base.attn_dp.is_some()
        || base.ep.is_some()
        || !base.graph()
        || base.model.experts == 0
        || chips == 1
    {
        return alloc::vec![(base.attn_dp, base.ep)];
    }
    alloc::vec![
        (Some(1), Some(chips)),
        (Some(chips), Some(chips)),
        (Some(1), Some(1)),
    ]
}

/// Why set serving degrees fit no replica of a `domain`-chip scale-up domain: the curve's
/// replicas are powers of two up to the domain, and each must be divisible by both degrees.
/// `None` when some replica fits them (or none is set).
#[must_use]
pub fn layout_misfit(attn_dp: Option<u32>, ep: Option<u32>, domain: u32) -> Option<String> {
    if attn_dp.is_none() && ep.is_none() {
        return None;
    }
    let fits = |tp: u32| {
        [attn_dp, ep]
            .iter()
            .flatten()
            .all(|&d| d > 0 && tp % d == 0)
    };
    let sizes: Vec<u32> = (0..32)
        .map(|i| 1u32 << i)
        .take_while(|&tp| tp <= domain.max(1))
        .collect();
    if sizes.iter().any(|&tp| fits(tp)) {
        return None;
    }
    let set: Vec<String> = [
        attn_dp.map(|d| alloc::format!("attention data-parallel degree {d}")),
        ep.map(|d| alloc::format!("expert-parallel degree {d}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    let list: Vec<String> = sizes.iter().map(u32::to_string).collect();
    Some(alloc::format!(
        "the {} {} no replica of this {domain}-chip domain (a replica has {} chips); choose degrees that divide one of them",
        set.join(" and the "),
        if set.len() > 1 { "divide" } else { "divides" },
        list.join(", ")
    ))
}

/// The 99th percentile of the sequences a replica holds when it holds `batch` on average
/// and requests arrive at random (Poisson). Each request stays for its own service time, so
/// the number in service is an M/G/∞ occupancy, which is Poisson with that mean whatever
/// the service times; its 99th percentile is about mean + 2.326·√mean (the normal
/// approximation, exact enough from a few sequences up).
#[must_use]
pub fn tail_batch(batch: u32) -> u32 {
    let b = f64::from(batch);
    libm::ceil(b + 2.326 * libm::sqrt(b)) as u32
}

/// Batches tried for each tensor degree: powers of two from 1 to 4,096.
pub const BATCHES: [u32; 13] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096];

/// Every configuration that fits: each power-of-two number of chips per replica within the
/// scale-up domain, and each batch of [`BATCHES`], sorted by interactivity.
#[must_use]
pub fn curve(cluster: &Cluster, chip: &Chip, base: &InferConfig) -> Vec<ServePoint> {
    let domain = cluster.system.chips();
    let mut out = Vec::new();
    let mut tp = 1;
    while tp <= domain {
        for (attn_dp, ep) in layouts(base, tp) {
            for b in BATCHES {
                let cfg = InferConfig {
                    tp: Some(tp),
                    batch: b,
                    attn_dp,
                    ep,
                    ..base.clone()
                };
                if let Ok(p) = point(cluster, chip, &cfg) {
                    out.push(p);
                }
            }
        }
        tp *= 2;
    }
    out.sort_by(|a, b| a.interactivity().total_cmp(&b.interactivity()));
    out
}

/// The points no other beats on both throughput per chip and interactivity: the curve as
/// the public dashboards draw it.
#[must_use]
pub fn frontier(points: &[ServePoint]) -> Vec<ServePoint> {
    let mut f: Vec<ServePoint> = points
        .iter()
        .filter(|p| {
            !points.iter().any(|q| {
                q.tokens_per_s_per_chip >= p.tokens_per_s_per_chip
                    && q.interactivity() >= p.interactivity()
                    && (q.tokens_per_s_per_chip > p.tokens_per_s_per_chip
                        || q.interactivity() > p.interactivity())
            })
        })
        .copied()
        .collect();
    f.sort_by(|a, b| a.interactivity().total_cmp(&b.interactivity()));
    f
}

/// The configuration with the most throughput per chip (so the lowest cost per token at a
/// given price) whose TTFT and TPOT meet the targets, if any does: the mean TTFT, and the
/// TPOT at the 99th percentile of occupancy (as MLPerf's Server scenario holds it).
#[must_use]
pub fn cheapest(points: &[ServePoint], ttft_s: f64, tpot_s: f64) -> Option<ServePoint> {
    points
        .iter()
        .filter(|p| p.meets(ttft_s, tpot_s))
        .max_by(|a, b| a.tokens_per_s_per_chip.total_cmp(&b.tokens_per_s_per_chip))
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::Dtype;
    use crate::workload::find_model;

    fn h100() -> (Cluster, Chip) {
        crate::workload::domain_of("hgx-h100-8")
    }

    /// MLPerf Inference v4.1 closed, Llama 2 70B Server on 8 × H100 SXM (FP8): 21,605.79
    /// tokens/s while every request met TTFT ≤ 2 s and TPOT ≤ 200 ms at the 99th percentile
    /// (mlcommons/inference_results_v4.1, closed/NVIDIA/results/DGX-H100_H100-SXM-80GBx8_TRT/
    /// llama2-70b-99/Server). The serving factor was fitted to the H200 Offline run; this
    /// point, at a stated interactivity, entered with the occupancy model it checks: tuned
    /// against, within 30%.
    #[test]
    fn set_degrees_that_divide_no_replica_are_named() {
        let why = layout_misfit(Some(3), Some(5), 8).expect("3 and 5 divide none of 1, 2, 4, 8");
        assert!(why.contains("attention data-parallel degree 3") && why.contains("1, 2, 4, 8"));
        assert_eq!(layout_misfit(Some(8), Some(4), 8), None);
        assert_eq!(layout_misfit(None, None, 8), None);
        assert!(layout_misfit(None, Some(16), 8).is_some());
    }

    #[test]
    fn the_cheapest_point_under_mlperfs_server_targets_matches_its_throughput() {
        let (cl, chip) = h100();
        let base = InferConfig::new(find_model("llama2-70b").unwrap(), Dtype::Fp8, 1, 290, 290);
        let pts = curve(&cl, &chip, &base);
        assert!(pts.len() > 20, "{} points", pts.len());
        let best = cheapest(&pts, 2.0, 0.2).expect("a point meets the targets");
        let total = best.tokens_per_s_per_chip * 8.0;
        let err = total / 21_605.79 - 1.0;
        assert!(
            err.abs() < 0.30,
            "{best:?}: {total:.0} tok/s ({:+.0}%)",
            err * 100.0
        );
        // Tighter targets cost throughput.
        let tight = cheapest(&pts, 0.45, 0.04).expect("the interactive targets can be met");
        assert!(tight.tokens_per_s_per_chip < best.tokens_per_s_per_chip);
        assert!(tight.tpot_p99_s <= 0.04 && tight.ttft_s <= 0.45);
    }

    /// MLPerf Inference v5.0 closed, Llama 2 70B Interactive (a Server run whose requests
    /// must meet TTFT ≤ 450 ms and TPOT ≤ 40 ms at the 99th percentile) on 8 × H200 SXM,
    /// NVIDIA, TensorRT, FP8: 19,424.25 tokens/s (mlcommons/inference_results_v5.0,
    /// closed/NVIDIA/results/H200-SXM-141GBx8_TRT/llama2-70b-interactive-99/Server/
    /// performance/run_1; its p99 TTFT was 363 ms and TPOT 35.7 ms). Nothing was fitted to
    /// it, but it was in view while the occupancy model was built: tuned against. Meeting the TPOT target on the mean instead of the 99th percentile of
    /// occupancy overstated it by 45%; with the tail, within 25%. The same system's Server
    /// run (TTFT ≤ 2 s, TPOT ≤ 200 ms), 33,071.46 tokens/s, is checked alongside.
    #[test]
    fn mlperfs_interactive_targets_on_h200_are_met_at_the_measured_throughput() {
        let (cl, chip) = crate::workload::domain_of("hgx-h200-8");
        let base = InferConfig::new(find_model("llama2-70b").unwrap(), Dtype::Fp8, 1, 290, 290);
        let pts = curve(&cl, &chip, &base);
        for (ttft, tpot, measured) in [(0.45, 0.04, 19_424.25), (2.0, 0.2, 33_071.46)] {
            let best = cheapest(&pts, ttft, tpot).expect("a point meets the targets");
            let err = best.tokens_per_s_per_chip * 8.0 / measured - 1.0;
            assert!(err.abs() < 0.25, "{best:?}: {:+.0}%", err * 100.0);
        }
        // The tail: the interactive pick's mean TPOT sits well inside the target.
        let tight = cheapest(&pts, 0.45, 0.04).unwrap();
        assert!(tight.tpot_s < tight.tpot_p99_s && tight.tpot_p99_s <= 0.04);
    }

    #[test]
    fn the_tail_of_a_poisson_occupancy_grows_as_its_square_root() {
        assert_eq!(tail_batch(100), 124);
        assert_eq!(tail_batch(1), 4);
        assert!(f64::from(tail_batch(4096) - 4096) / 4096.0 < 0.04);
    }

    #[test]
    fn the_frontier_trades_throughput_for_interactivity() {
        let (cl, chip) = h100();
        let base = InferConfig::new(find_model("llama3-70b").unwrap(), Dtype::Fp8, 1, 1024, 256);
        let f = frontier(&curve(&cl, &chip, &base));
        assert!(f.len() >= 3);
        for w in f.windows(2) {
            assert!(w[1].interactivity() > w[0].interactivity());
            assert!(w[1].tokens_per_s_per_chip < w[0].tokens_per_s_per_chip);
        }
        // More users per replica: more throughput, each user slower.
        let p1 = point(
            &cl,
            &chip,
            &InferConfig {
                tp: Some(8),
                batch: 8,
                ..base.clone()
            },
        )
        .unwrap();
        let p2 = point(
            &cl,
            &chip,
            &InferConfig {
                tp: Some(8),
                batch: 256,
                ..base
            },
        )
        .unwrap();
        assert!(p2.tokens_per_s_per_chip > p1.tokens_per_s_per_chip && p2.tpot_s > p1.tpot_s);
    }
}
