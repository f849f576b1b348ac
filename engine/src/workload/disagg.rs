//! Disaggregated prefill and decode: prompts are prefilled on one pool of replicas, their KV
//! caches are sent to another pool, and that pool only decodes (Splitwise, DistServe,
//! NVIDIA Dynamo). Decode steps are no longer slowed by prompts slipped in between them, and
//! each pool can have its own chips per replica, batch and even platform; the price is the
//! KV cache's trip between them.
//!
//! A prefill replica of `tp_p` chips takes `T_p` per prompt (compute-bound, so it serves
//! 1/T_p requests a second whatever it batches). A decode replica of `tp_d` chips holding
//! `B` sequences takes a step `s` per token, so it finishes B/(out·s) requests a second.
//! Pools are balanced when prefill replicas ÷ decode replicas = (B/(out·s)) ÷ (1/T_p).
//! A request waits T_p, then the transfer, then one decode step for its first token (no
//! queueing); its tokens then come every step, at the 99th percentile of the decode pool's
//! occupancy for a TPOT target.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::curve::{tail_batch, BATCHES};
use super::serve::{infer_with, InferConfig};
use crate::chip::Chip;
use crate::system::Cluster;

/// One side of a disaggregated deployment: a platform and its price.
#[derive(Clone, Debug)]
pub struct Pool<'a> {
    /// One scale-up domain of the platform.
    pub cluster: &'a Cluster,
    /// Its chip.
    pub chip: &'a Chip,
    /// $ per chip-hour on it.
    pub usd_per_chip_hour: f64,
}

/// How the KV cache travels from a prefill replica to a decode replica.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transfer {
    /// Bytes of one request's KV cache.
    pub bytes: f64,
    /// Time to send them.
    pub seconds: f64,
    /// Whether it stays inside one scale-up domain (otherwise it crosses the scale-out
    /// network).
    pub scale_up: bool,
    /// Bandwidth used, B/s (over all the chips sending at once).
    pub bytes_per_s: f64,
}

/// One disaggregated configuration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Split {
    /// Chips per prefill replica.
    pub tp_prefill: u32,
    /// Chips per decode replica.
    pub tp_decode: u32,
    /// Sequences per decode replica.
    pub batch: u32,
    /// Prefill of one prompt, s.
    pub prefill_s: f64,
    /// Decode step (time per output token), s.
    pub step_s: f64,
    /// Decode step at the 99th percentile of occupancy, s.
    pub step_p99_s: f64,
    /// The KV cache's trip.
    pub transfer: Transfer,
    /// Time to first token: prefill, transfer and one decode step, s.
    pub ttft_s: f64,
    /// Prefill replicas per decode replica that keep both pools busy.
    pub prefill_per_decode: f64,
    /// Share of the chips that prefill.
    pub prefill_share: f64,
    /// Output tokens per second per chip over both pools.
    pub tokens_per_s_per_chip: f64,
    /// $ per million output tokens.
    pub usd_per_mtok: f64,
}

impl Split {
    /// Whether it meets a TTFT target on average and a TPOT target at the 99th percentile.
    #[must_use]
    pub fn meets(&self, ttft_s: f64, tpot_s: f64) -> bool {
        self.ttft_s <= ttft_s && self.step_p99_s <= tpot_s
    }
    /// The pools as whole replicas: prefill replicas and decode replicas in the smallest
    /// counts (up to 64 decode replicas) whose prefill covers the decode pool's demand.
    #[must_use]
    pub fn replicas(&self) -> (u32, u32) {
        (1..=64u32)
            .map(|d| {
                let p = libm::ceil(self.prefill_per_decode * f64::from(d) - 1e-9).max(1.0) as u32;
                // Over-provisioned prefill capacity, relative.
                let waste = f64::from(p) / (self.prefill_per_decode * f64::from(d)) - 1.0;
                (p, d, waste)
            })
            .find(|(_, _, w)| *w <= 0.1)
            .map_or((1, 1), |(p, d, _)| (p, d))
    }
}

/// The KV cache's trip between a prefill replica of `tp_p` chips and a decode replica of
/// `tp_d`: inside one scale-up domain when both pools are on the same platform and both
/// replicas fit one domain, else over the scale-out network. Each of the fewer side's chips
/// sends or receives its share at once, at one link's (or NIC's) effective rate; the
/// transfer is not overlapped with the prefill (a conservative bound: Dynamo and DistServe
/// stream it layer by layer).
#[must_use]
pub fn transfer(bytes: f64, prefill: &Cluster, decode: &Cluster, tp_p: u32, tp_d: u32) -> Transfer {
    let same = prefill.system.id == decode.system.id;
    let lanes = f64::from(tp_p.min(tp_d).max(1));
    let sys = &prefill.system;
    let (rate, latency, scale_up) = if same && tp_p + tp_d <= sys.chips() {
        let link = sys.links.first().map_or(0.0, |l| l.value.get());
        (
            link * sys.link_efficiency.value,
            sys.hop_latency.value.get(),
            true,
        )
    } else {
        // The slower side's network sets the pace.
        let rate =
            |s: &crate::system::System| s.scale_out.value.get() * s.scale_out_efficiency.value;
        (
            rate(sys).min(rate(&decode.system)),
            sys.scale_out_latency
                .value
                .get()
                .max(decode.system.scale_out_latency.value.get()),
            false,
        )
    };
    let bps = rate * lanes;
    Transfer {
        bytes,
        seconds: latency + bytes / bps,
        scale_up,
        bytes_per_s: bps,
    }
}

/// Every disaggregated configuration of `base`'s model and lengths that fits: each
/// power-of-two prefill replica and decode replica within their domains, and each decode
/// batch of [`BATCHES`].
#[must_use]
pub fn splits(prefill: &Pool, decode: &Pool, base: &InferConfig) -> Vec<Split> {
    splits_with(prefill, base, decode, base)
}

/// [`splits`] with the prefill pool's own configuration (its matmul efficiency, on another
/// platform); the model, lengths and formats are `base`'s.
#[must_use]
pub fn splits_with(
    prefill: &Pool,
    prefill_base: &InferConfig,
    decode: &Pool,
    base: &InferConfig,
) -> Vec<Split> {
    let out_tokens = f64::from(base.output);
    let kv_bytes = base.kv_dtype.map_or_else(
        || {
            base.model
                .kv_bytes_per_token(base.dtype)
                .max(base.model.kv_bytes_per_token(crate::dtype::Dtype::Fp8))
        },
        |d| base.model.kv_bytes_per_token(d),
    );
    let fresh_prompt = f64::from(base.prompt) * (1.0 - base.prefix_hit);
    let powers = |domain: u32| {
        let mut v = Vec::new();
        let mut t = 1;
        while t <= domain {
            v.push(t);
            t *= 2;
        }
        v
    };
    // Prefill: one prompt at a time, any output (only the prefill is used).
    let prefills: Vec<(u32, f64)> = powers(prefill.cluster.system.chips())
        .into_iter()
        .filter_map(|tp| {
            let cfg = InferConfig {
                tp: Some(tp),
                batch: 1,
                output: 1,
                draft_tokens: 0,
                ..prefill_base.clone()
            };
            infer_with(prefill.cluster, prefill.chip, &cfg, false)
                .ok()
                .map(|r| (tp, r.prefill.get()))
        })
        .collect();
    let mut out = Vec::new();
    for tp_d in powers(decode.cluster.system.chips()) {
        for b in BATCHES {
            let cfg = InferConfig {
                tp: Some(tp_d),
                batch: b,
                ..base.clone()
            };
            let Ok(r) = infer_with(decode.cluster, decode.chip, &cfg, false) else {
                continue;
            };
            let tail = InferConfig {
                batch: tail_batch(b),
                ..cfg
            };
            let step_p99 = infer_with(decode.cluster, decode.chip, &tail, false)
                .map_or(f64::INFINITY, |t| t.decode_step.get());
            let step = r.decode_step.get();
            for &(tp_p, t_p) in &prefills {
                let tr = transfer(
                    // A windowed layer hands over only its window of the prompt.
                    base.model.attended(fresh_prompt.max(1.0)) * kv_bytes,
                    prefill.cluster,
                    decode.cluster,
                    tp_p,
                    tp_d,
                );
                let per_decode = f64::from(b) * t_p / (out_tokens * step);
                let chips_p = per_decode * f64::from(tp_p);
                let chips_d = f64::from(tp_d);
                // Per decode replica and its share of prefill: tokens/s and $/s.
                let tokens = f64::from(b) / step;
                let usd_per_s = (chips_p * prefill.usd_per_chip_hour
                    + chips_d * decode.usd_per_chip_hour)
                    / 3600.0;
                out.push(Split {
                    tp_prefill: tp_p,
                    tp_decode: tp_d,
                    batch: b,
                    prefill_s: t_p,
                    step_s: step,
                    step_p99_s: step_p99,
                    transfer: tr,
                    ttft_s: t_p + tr.seconds + step,
                    prefill_per_decode: per_decode,
                    prefill_share: chips_p / (chips_p + chips_d),
                    tokens_per_s_per_chip: tokens / (chips_p + chips_d),
                    usd_per_mtok: usd_per_s / tokens * 1e6,
                });
            }
        }
    }
    out
}

/// The cheapest configuration meeting the targets, if any does.
#[must_use]
pub fn cheapest(splits: &[Split], ttft_s: f64, tpot_s: f64) -> Option<Split> {
    splits
        .iter()
        .filter(|s| s.meets(ttft_s, tpot_s))
        .min_by(|a, b| a.usd_per_mtok.total_cmp(&b.usd_per_mtok))
        .copied()
}

/// Why nothing fits, for a message: the model on either platform.
#[must_use]
pub fn explain_empty(prefill: &Pool, decode: &Pool, base: &InferConfig) -> String {
    let widest = |p: &Pool| InferConfig {
        tp: Some(p.cluster.system.chips()),
        batch: 1,
        ..base.clone()
    };
    for (side, p) in [("prefill", prefill), ("decode", decode)] {
        if let Err(e) = infer_with(p.cluster, p.chip, &widest(p), false) {
            return format!("the {side} pool: {e}");
        }
    }
    String::from("no configuration fits")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::Dtype;
    use crate::workload::curve::{cheapest as colocated, curve};
    use crate::workload::find_model;

    use crate::workload::domain_of as domain;

    /// Llama 3 70B's KV cache: 80 layers × 8 KV heads × 128 × 2 (K and V) = 160 KiB per token
    /// in FP8, 320 KiB in BF16.
    #[test]
    fn the_kv_trip_counts_the_caches_bytes_over_the_right_link() {
        let m = find_model("llama3-70b").unwrap();
        assert_eq!(m.kv_bytes_per_token(Dtype::Bf16), 327_680.0);
        let (h100, _) = domain("hgx-h100-8");
        let (gb200, _) = domain("gb200-nvl72");
        let bytes = 1024.0 * m.kv_bytes_per_token(Dtype::Fp8);
        let inside = transfer(bytes, &gb200, &gb200, 8, 8);
        assert!(inside.scale_up);
        let across = transfer(bytes, &h100, &h100, 8, 8);
        assert!(
            !across.scale_up,
            "two 8-GPU replicas do not fit one 8-GPU node"
        );
        // NVLink moves it an order of magnitude faster than the NICs.
        assert!(across.seconds > 5.0 * inside.seconds);
    }

    #[test]
    fn long_prompts_and_short_answers_want_more_prefill_chips() {
        // Splitwise's two Azure traces: coding (1,500-token prompts, 13-token answers) and
        // conversation (1,020 and 129); its best splits gave coding more prompt machines
        // (35 prompt : 5 token) than conversation (25 : 15) at 70 requests/s (Patel et al.,
        // "Splitwise", ISCA 2024). Here the pools are sized for cost at large decode batches,
        // so both lean further to prefill than Splitwise's latency-bound machines; the
        // order is what is checked.
        let (cl, chip) = domain("hgx-h100-8");
        let pool = Pool {
            cluster: &cl,
            chip: &chip,
            usd_per_chip_hour: 4.0,
        };
        let share = |prompt, output| {
            let base = InferConfig::new(
                find_model("llama2-70b").unwrap(),
                Dtype::Fp8,
                1,
                prompt,
                output,
            );
            cheapest(&splits(&pool, &pool, &base), 2.0, 0.1)
                .expect("a split meets the targets")
                .prefill_share
        };
        let (coding, conversation) = (share(1500, 13), share(1020, 129));
        assert!(coding > conversation, "{coding} against {conversation}");
        assert!(
            1.0 - conversation > 5.0 * (1.0 - coding),
            "{coding}, {conversation}"
        );
    }

    #[test]
    fn splitting_pays_where_prompts_crowd_out_decode_steps() {
        // Long prompts, tight TPOT: co-located, each step carries its share of the prompts
        // (TPOT = prefill ÷ output + step); disaggregated, decode steps carry none.
        let (cl, chip) = domain("gb200-nvl72");
        let pool = Pool {
            cluster: &cl,
            chip: &chip,
            usd_per_chip_hour: 10.0,
        };
        let base = InferConfig::new(find_model("llama3-70b").unwrap(), Dtype::Fp8, 1, 8192, 256);
        let split = cheapest(&splits(&pool, &pool, &base), 2.0, 0.025).expect("a split meets it");
        let together =
            colocated(&curve(&cl, &chip, &base), 2.0, 0.025).expect("co-located meets it");
        let together_usd = together.usd_per_mtok(10.0);
        assert!(
            split.usd_per_mtok < together_usd,
            "{} against {together_usd}",
            split.usd_per_mtok
        );
        assert!(split.transfer.scale_up);
        // The pools balance: prefill capacity meets decode demand.
        let (p, d) = split.replicas();
        assert!(f64::from(p) >= split.prefill_per_decode * f64::from(d) - 1e-9);
    }
}
