//! Vendors' published price-performance and speed-up claims beside what the model says for
//! a comparable job, so an analyst can see where the model and the marketing part ways.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::dtype::Dtype;
use crate::job::{evaluate, Job};
use crate::source::Citation;
use crate::workload::WorkloadError;

/// AWS's Trn2 instance page.
pub static AWS_TRN2_PAGE: Citation = Citation {
    key: "AWS-TRN2",
    title: "AWS: Amazon EC2 Trn2 instances (\"30-40% better price performance than GPU-based EC2 P5e and P5en instances\"; wording as quoted by third parties)",
    url: "https://aws.amazon.com/ec2/instance-types/trn2/",
    date: "2024-12-03",
};
/// AWS's Trn3 launch (re:Invent 2025).
pub static AWS_TRN3_LAUNCH: Citation = Citation {
    key: "AWS-TRN3",
    title: "AWS: Trn3 UltraServers launch (\"up to 4.4x more compute performance\" than Trn2 UltraServers; wording as quoted by third parties)",
    url: "https://aws.amazon.com/ec2/instance-types/trn3/",
    date: "2025-12-02",
};
/// AWS's Trn1 launch wording.
pub static AWS_TRN1_PAGE: Citation = Citation {
    key: "AWS-TRN1",
    title: "AWS: Amazon EC2 Trn1 instances (\"up to 50% cost-to-train savings over comparable Amazon EC2 instances\", against GPU-based P4d; wording as AWS published it at launch)",
    url: "https://aws.amazon.com/ec2/instance-types/trn1/",
    date: "2022-10-10",
};
/// NVIDIA's GB200 NVL72 technical blog.
pub static NV_GB200_BLOG: Citation = Citation {
    key: "NV-GB200-BLOG",
    title: "NVIDIA: GB200 NVL72 Delivers Trillion-Parameter LLM Training and Real-Time Inference (\"4X faster training\" than H100, GPT-MoE-1.8T)",
    url: "https://developer.nvidia.com/blog/nvidia-gb200-nvl72-delivers-trillion-parameter-llm-training-and-real-time-inference/",
    date: "2024-03-18",
};

/// Every citation this module adds.
#[must_use]
pub fn citations() -> Vec<&'static Citation> {
    alloc::vec![
        &AWS_TRN1_PAGE,
        &AWS_TRN2_PAGE,
        &AWS_TRN3_LAUNCH,
        &NV_GB200_BLOG
    ]
}

/// A vendor's claim and the model's figure for a comparable job.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimCheck {
    /// Who claims it.
    pub vendor: &'static str,
    /// The claim, short.
    pub claim: &'static str,
    /// Where it is published.
    pub source: &'static Citation,
    /// The claimed advantage as a ratio range (1.3 to 1.4 for "30-40% better").
    pub claimed: (f64, f64),
    /// The model's ratio for the job below.
    pub model: Result<f64, WorkloadError>,
    /// The job the model was given.
    pub setup: String,
    /// How the claim and the model's job differ.
    pub note: &'static str,
}

/// A job of `model` in `dtype` on `nodes` of `system`, rented at its published rate on the
/// default price basis.
fn job(system: &str, nodes: u32, model: &str, dtype: Dtype) -> Job {
    Job {
        system: system.into(),
        nodes,
        model: model.into(),
        dtype,
        ..Job::default()
    }
}

/// How many times better `a`'s training price-performance is than `b`'s ($ per million
/// tokens of `b` over `a`'s), and the rates both were priced at, with their basis.
fn price_performance(a: &Job, b: &Job) -> (Result<f64, WorkloadError>, String) {
    match (evaluate(a), evaluate(b)) {
        (Ok(ra), Ok(rb)) => (Ok(rb.train_usd_per_mtok / ra.train_usd_per_mtok), {
            let (da, db) = (ra.price.describe(), rb.price.describe());
            format!(
                "${:.2} and ${:.2} per chip-hour ({})",
                ra.usd_per_chip_hour.value,
                rb.usd_per_chip_hour.value,
                if da == db {
                    format!("both at the {da}")
                } else {
                    format!("{da}; {db}")
                }
            )
        }),
        (Err(e), _) | (_, Err(e)) => (Err(e), String::new()),
    }
}

/// How many times `a`'s training throughput is `b`'s.
fn speedup(a: &Job, b: &Job) -> Result<f64, WorkloadError> {
    Ok(evaluate(a)?.train.tokens_per_s / evaluate(b)?.train.tokens_per_s)
}

/// The claims, each checked with today's model and defaults.
#[must_use]
pub fn checks() -> Vec<ClaimCheck> {
    let mut out = Vec::new();
    // AWS: price-performance against p5e/p5en and Trn1's cost to train, both sides priced on
    // the default basis (one kind of price from one date).
    for dtype in [Dtype::Bf16, Dtype::Fp8] {
        let (model, rates) = price_performance(
            &job("trn2-16", 16, "llama3-70b", dtype),
            &job("hgx-h200-8", 32, "llama3-70b", dtype),
        );
        out.push(ClaimCheck {
            vendor: "AWS",
            claim: "Trn2: 30-40% better price performance than P5e and P5en",
            source: &AWS_TRN2_PAGE,
            claimed: (1.3, 1.4),
            model,
            setup: format!(
                "Llama 3 70B pretraining in {dtype} on 256 chips: 16 trn2.48xlarge against 32 p5en.48xlarge, training $ per million tokens at {rates}"
            ),
            note: "AWS does not say which workload its claim rests on; the model's figure is for one dense training job",
        });
    }
    let (model, rates) = price_performance(
        &job("trn1-16", 16, "llama3-70b", Dtype::Bf16),
        &job("hgx-h100-8", 32, "llama3-70b", Dtype::Bf16),
    );
    out.push(ClaimCheck {
        vendor: "AWS",
        claim: "Trn1: up to 50% lower cost to train than comparable GPU instances",
        source: &AWS_TRN1_PAGE,
        // "Up to" half the cost: at best twice the price-performance.
        claimed: (2.0, 2.0),
        model,
        setup: format!(
            "Llama 3 70B pretraining in BF16 on 256 chips: 16 trn1.32xlarge against 32 p5.48xlarge, training $ per million tokens at {rates}"
        ),
        note: "AWS's baseline was the A100 (P4d), which the catalog does not hold; H100 (p5) on the same price basis is the nearest, and a harder one",
    });
    out.push(ClaimCheck {
        vendor: "AWS",
        claim: "Trn3 UltraServer: up to 4.4x the compute performance of a Trn2 UltraServer",
        source: &AWS_TRN3_LAUNCH,
        claimed: (4.4, 4.4),
        model: speedup(
            &job("trn3-ultra-144", 1, "llama3-70b", Dtype::Fp8),
            &job("trn2-ultra-64", 1, "llama3-70b", Dtype::Fp8),
        ),
        setup: String::from(
            "Llama 3 70B pretraining in FP8 (MXFP8 on Trainium3): one 144-chip Trn3 Gen2 UltraServer against one 64-chip Trn2 UltraServer, tokens per second",
        ),
        note: "the claim compares marketed compute (144 × 2,517 against 64 × 1,299 FP8 TFLOP/s is 4.36x); a job also waits on attention in BF16, memory and communication",
    });
    out.push(ClaimCheck {
        vendor: "NVIDIA",
        claim: "GB200 NVL72: 4x faster LLM training than H100",
        source: &NV_GB200_BLOG,
        claimed: (4.0, 4.0),
        model: speedup(
            &job("gb200-nvl72", 16, "deepseek-v3", Dtype::Fp8),
            &job("hgx-h100-8", 144, "deepseek-v3", Dtype::Fp8),
        ),
        setup: String::from(
            "DeepSeek-V3 (671B MoE) pretraining in FP8 on 1,152 GPUs: 16 NVL72 racks against 144 HGX H100 nodes, tokens per second",
        ),
        note: "NVIDIA's figure is for GPT-MoE-1.8T at a larger scale, where H100's 8-GPU NVLink domain forces expert all-to-alls over the network; DeepSeek-V3 is the largest MoE in the catalog",
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const L70: &str = "llama3-70b";
    const DS3: &str = "deepseek-v3";
    /// Each claim's two jobs, in order, written out again from its setup: system and nodes
    /// of the side claimed better, of the other, the model and its format.
    const JOBS: [(&str, u32, &str, u32, &str, Dtype); 5] = [
        ("trn2-16", 16, "hgx-h200-8", 32, L70, Dtype::Bf16),
        ("trn2-16", 16, "hgx-h200-8", 32, L70, Dtype::Fp8),
        ("trn1-16", 16, "hgx-h100-8", 32, L70, Dtype::Bf16),
        ("trn3-ultra-144", 1, "trn2-ultra-64", 1, L70, Dtype::Fp8),
        ("gb200-nvl72", 16, "hgx-h100-8", 144, DS3, Dtype::Fp8),
    ];

    #[test]
    fn every_claim_gets_a_model_figure_and_none_is_copied() {
        let all = checks();
        assert_eq!(all.len(), JOBS.len());
        for (c, (sa, na, sb, nb, model, dtype)) in all.iter().zip(JOBS) {
            let m = *c
                .model
                .as_ref()
                .unwrap_or_else(|e| panic!("{}: {e}", c.claim));
            // The figure is the engine's own evaluation of the two jobs, through its API...
            let run = |system: &str, nodes| {
                let job = Job {
                    system: system.into(),
                    nodes,
                    model: model.into(),
                    dtype,
                    ..Job::default()
                };
                evaluate(&job).unwrap()
            };
            let (ra, rb) = (run(sa, na), run(sb, nb));
            // Price-performance claims compare $ per million tokens, the others throughput.
            let want = if c.claim.contains("price") || c.claim.contains("cost") {
                rb.train_usd_per_mtok / ra.train_usd_per_mtok
            } else {
                ra.train.tokens_per_s / rb.train.tokens_per_s
            };
            assert!(
                (m / want - 1.0).abs() < 1e-12,
                "{}: {m} against {want}",
                c.claim
            );
            // ...and not the vendor's number: it differs from both ends of the claimed range.
            for claimed in [c.claimed.0, c.claimed.1] {
                assert!(
                    (m / claimed - 1.0).abs() > 1e-6,
                    "{}: {m} copies {claimed}",
                    c.claim
                );
            }
            assert!(!c.setup.is_empty() && !c.note.is_empty());
        }
    }

    #[test]
    fn trn3_gains_less_than_its_marketed_compute() {
        // Attention stays in BF16, whose peak barely moved (667 → 671 TFLOP/s), so a
        // training job cannot gain the full ratio of marketed FP8 compute.
        let c = checks()
            .into_iter()
            .find(|c| c.claim.starts_with("Trn3"))
            .unwrap();
        let m = c.model.unwrap();
        assert!(m > 1.5 && m < 4.36, "{m}");
    }
}
