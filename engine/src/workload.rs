//! Transformer workloads: model shapes, FLOPs and bytes per token, memory per chip, and the
//! time of a training step or an inference batch on a cluster.
//!
//! FLOPs follow the PaLM convention used for MFU: 6·N per token for the parameter matmuls
//! (N = active non-embedding parameters plus the output head) and 12·L·d·s for attention.

use alloc::string::String;
use core::fmt;

use crate::units::Bytes;

/// One scale-up domain of a preset system and its chip, for tests.
#[cfg(test)]
pub(crate) fn domain_of(id: &str) -> (crate::system::Cluster, crate::chip::Chip) {
    let sys = crate::system::find(id).unwrap();
    let chip = crate::catalog::find(sys.chip).unwrap();
    (
        crate::system::Cluster {
            system: sys,
            nodes: 1,
        },
        chip,
    )
}
pub mod curve;
pub mod custom;
pub mod disagg;
mod experts;
mod model;
pub mod ops;
mod search;
mod serve;
mod train;

pub(crate) use experts::training_experts_table;
pub use model::{check_model, find_model, models, Mla, Model, MODEL_IDS};
pub use search::{best_layout, LayoutSearch};
pub use serve::{
    infer, tokens_per_step, Compiled, DecodeParts, InferConfig, InferReport, PrefillParts,
    StepModel, MAX_DRAFT, NEURON_LAYER_FIXED_S, SERVING_KERNEL_FACTOR, SERVING_MEMORY_EFFICIENCY,
};
pub use train::{
    bubble_share, bubble_slots, ep_network_share, ep_overlapped, micro_batch_options, train,
    train_best_micro, training_memory, Dispatch, DpParts, Layout, Memory, StepCounts, StepParts,
    TrainConfig, TrainReport, EP_OVERLAP_SM_SHARE, MAX_EXPERT_IMBALANCE,
};
pub(crate) use train::{train_in, CommMemo};

/// Why a workload cannot be evaluated.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum WorkloadError {
    /// Not a model id.
    UnknownModel(String),
    /// The layout's degrees do not multiply to the chip count, or one is zero.
    BadLayout(String),
    /// The layout does not fit in memory: needed and available bytes per chip.
    DoesNotFit {
        /// Bytes needed per chip.
        needed: f64,
        /// HBM per chip.
        available: f64,
        /// What dominates.
        detail: String,
    },
    /// The chip has no figure for this format.
    NoFormat(String),
    /// Some input is out of range.
    BadInput(String),
}

impl fmt::Display for WorkloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownModel(s) => write!(
                f,
                "unknown model '{s}' (valid: {})",
                model::MODEL_IDS.join(", ")
            ),
            Self::BadLayout(s) => write!(f, "invalid parallel layout: {s}"),
            Self::DoesNotFit {
                needed,
                available,
                detail,
            } => write!(
                f,
                "does not fit: needs {} per chip, has {} ({detail})",
                Bytes::new(*needed).display_si(),
                Bytes::new(*available).display_si()
            ),
            Self::NoFormat(s) | Self::BadInput(s) => f.write_str(s),
        }
    }
}

impl core::error::Error for WorkloadError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chip::Chip;
    use crate::dtype::Dtype;
    use crate::system::Cluster;

    use crate::catalog;
    use crate::system::find;
    use alloc::string::ToString;

    fn check_params(id: &str, total: f64, active: f64) {
        let m = find_model(id).unwrap();
        assert!(
            (m.params_total() / total - 1.0).abs() < 0.02,
            "{id}: {:.4e}",
            m.params_total()
        );
        assert!(
            (m.params_active() / active - 1.0).abs() < 0.04,
            "{id}: {:.4e}",
            m.params_active()
        );
    }

    #[test]
    fn parameter_counts_match_the_published_sizes() {
        // Meta Llama 3 model cards: 8.03B and 70.6B; Llama 3.1: 405B.
        check_params("llama3-8b", 8.03e9, 7.5e9);
        check_params("llama3-70b", 70.6e9, 69.5e9);
        check_params("llama3-405b", 405.9e9, 403.8e9);
        // Brown et al. 2020: GPT-3 175B.
        check_params("gpt3-175b", 175e9, 175e9);
        // Mistral AI: Mixtral 8x7B has 46.7B parameters, 12.9B active.
        check_params("mixtral-8x7b", 46.7e9, 12.9e9);
        // DeepSeek-V3 technical report: 671B total, 37B active.
        check_params("deepseek-v3", 671e9, 37e9);
    }

    fn trn1_gpt3(eff: f64) -> Result<TrainReport, WorkloadError> {
        let cl = Cluster {
            system: find("trn1-16").unwrap(),
            nodes: 32,
        };
        let layout = Layout {
            tp: 16,
            pp: 8,
            dp: 4,
            ..Layout::START
        };
        let mut cfg = TrainConfig::new(
            find_model("gpt3-175b").unwrap(),
            Dtype::Bf16,
            1024,
            layout,
            eff,
        );
        cfg.tp_overlap = cl.system.overlap.value;
        cfg.dp_overlap = cl.system.overlap.value;
        train(&cl, &catalog::find("trn1").unwrap(), &cfg)
    }

    #[test]
    fn trn1_gpt3_mfu_within_20_percent_of_the_published_run() {
        // AWS Neuron Trn1 training performance (Neuron 2.13): GPT-3 175B pretraining on 512
        // Trainium chips, BF16, TP32 PP8 DP4 over NeuronCores (TP16 over chips), global batch
        // 1024, MFU 33.14%. Defaults: matmuls at 80% of peak (the measured H100 BF16 figure,
        // MLE-ACC; none is published for Trainium), full recomputation, and the platform's
        // communication overlap (10% for Trainium).
        let r = trn1_gpt3(0.8).unwrap();
        assert!((r.mfu / 0.3314 - 1.0).abs() < 0.20, "MFU {:.3}", r.mfu);
        assert!(r.memory.total() < 32.0 * 1_073_741_824.0);
    }

    #[test]
    fn interleaving_shrinks_the_bubble_and_needs_pipeline_stages() {
        let cl = Cluster {
            system: find("hgx-h100-8").unwrap(),
            nodes: 16,
        };
        let chip = catalog::find("h100-sxm").unwrap();
        let mut cfg = TrainConfig::new(
            find_model("llama3-70b").unwrap(),
            Dtype::Bf16,
            64,
            Layout {
                tp: 8,
                pp: 8,
                dp: 2,
                ..Layout::START
            },
            0.8,
        );
        let one = train(&cl, &chip, &cfg).unwrap().bubble.get();
        cfg.layout.interleave = 2;
        let two = train(&cl, &chip, &cfg).unwrap().bubble.get();
        assert!((one / two - 2.0).abs() < 1e-9);
        cfg.layout = Layout {
            tp: 8,
            pp: 1,
            dp: 16,
            interleave: 2,
            ..Layout::START
        };
        assert!(train(&cl, &chip, &cfg)
            .unwrap_err()
            .to_string()
            .contains("more than one pipeline stage"));
    }

    #[test]
    fn faster_matmuls_never_slow_training() {
        let mut last = 0.0;
        for e in [0.3, 0.5, 0.7, 0.9, 1.0] {
            let t = trn1_gpt3(e).unwrap().tokens_per_s;
            assert!(t > last);
            last = t;
        }
    }

    #[test]
    fn fp4_halves_the_chips_a_model_needs_and_doubles_tokens_per_chip() {
        // "Amazon Trainium: Scaling AI Without Breaking the Bank": a model that needs 16 chips
        // in FP8 and 8 in FP4 halves the cost per token.
        let cl = Cluster {
            system: find("gb300-nvl72").unwrap(),
            nodes: 1,
        };
        let chip = catalog::find("gb300").unwrap();
        let run = |d, graph| {
            let model = find_model("deepseek-v3").unwrap();
            let cfg = InferConfig {
                op_graph: graph,
                ..InferConfig::new(model, d, 32, 2048, 512)
            };
            infer(&cl, &chip, &cfg).unwrap()
        };
        for graph in [false, true] {
            let (f8, f4) = (run(Dtype::Fp8, graph), run(Dtype::Fp4, graph));
            assert_eq!(
                f8.chips_needed,
                2 * f4.chips_needed,
                "{} vs {}",
                f8.chips_needed,
                f4.chips_needed
            );
            // The article's arithmetic holds where a step is one GEMM term; timed from the
            // measured kernels, FP4's grouped GEMMs at this batch gain less than twice.
            let gain = f4.tokens_per_s_per_chip / f8.tokens_per_s_per_chip;
            assert!(gain > if graph { 1.2 } else { 1.8 }, "{graph}: {gain}");
        }
    }

    #[test]
    fn more_chips_never_lower_the_hardware_cost_of_a_fixed_run() {
        // A fixed run: train Llama 3 8B on 1e11 tokens. More nodes finish sooner but never
        // for fewer chip-hours (communication and bubbles only grow with scale).
        let chip = catalog::find("trn2").unwrap();
        let mut last = 0.0;
        for nodes in [1, 2, 4, 8, 16] {
            let cl = Cluster {
                system: find("trn2-16").unwrap(),
                nodes,
            };
            let model = find_model("llama3-8b").unwrap();
            let cfg = TrainConfig::new(model, Dtype::Bf16, 256, Layout::START, 0.8);
            let r = best_layout(&cl, &chip, &cfg).unwrap();
            let chip_hours = 1e11 / r.tokens_per_s / 3600.0 * f64::from(cl.chips());
            assert!(
                chip_hours >= last * (1.0 - 1e-9),
                "{nodes} nodes: {chip_hours} < {last}"
            );
            last = chip_hours;
        }
    }

    fn deepseek_on_trn2_ultra() -> (Cluster, Chip, TrainConfig) {
        let cl = Cluster {
            system: find("trn2-ultra-64").unwrap(),
            nodes: 16,
        };
        let model = find_model("deepseek-v3").unwrap();
        let cfg = TrainConfig::new(model, Dtype::Bf16, 1024, Layout::START, 0.8);
        (cl, catalog::find("trn2").unwrap(), cfg)
    }

    #[test]
    fn expert_parallelism_and_uneven_stages_open_up_faster_layouts_for_moe() {
        // DeepSeek-V3's 61 layers divide only by 1 and 61: without uneven stages and expert
        // parallelism the search is left with deep tensor parallelism.
        let (cl, chip, cfg) = deepseek_on_trn2_ultra();
        let best = best_layout(&cl, &chip, &cfg).unwrap();
        let mut search = LayoutSearch::new(&cl, &chip, &cfg);
        search.step(usize::MAX);
        let even_dense = search
            .ranked(usize::MAX)
            .into_iter()
            .filter(|r| r.layout.ep == 1 && cfg.model.layers % r.layout.pp == 0)
            .map(|r| r.tokens_per_s)
            .fold(0.0, f64::max);
        assert!(
            best.tokens_per_s > 1.5 * even_dense,
            "{} vs {even_dense}",
            best.tokens_per_s
        );
    }

    #[test]
    fn expert_parallelism_trades_memory_for_all_to_all() {
        let (cl, chip, mut cfg) = deepseek_on_trn2_ultra();
        cfg.layout = Layout {
            tp: 4,
            pp: 4,
            dp: 64,
            ..Layout::START
        };
        let no_ep = train(&cl, &chip, &cfg);
        cfg.layout.ep = 32;
        let ep = train(&cl, &chip, &cfg).unwrap();
        assert!(ep.ep_comm.get() > 0.0);
        // Without expert parallelism every replica holds all 256 experts: it does not fit.
        assert!(no_ep.unwrap_err().to_string().contains("does not fit"));
    }

    #[test]
    fn the_busiest_expert_rank_sets_the_pace() {
        let (cl, chip, mut cfg) = deepseek_on_trn2_ultra();
        cfg.layout = Layout {
            tp: 4,
            pp: 4,
            dp: 64,
            ep: 32,
            ..Layout::START
        };
        let even = train(&cl, &chip, &cfg).unwrap();
        cfg.expert_imbalance = 1.5;
        let skewed = train(&cl, &chip, &cfg).unwrap();
        // The all-to-alls wait on the busiest rank's tokens: 1.5 times as long.
        assert!((skewed.ep_comm.get() / even.ep_comm.get() - 1.5).abs() < 1e-9);
        // The routed experts' GEMMs too, the rest of the step not at all.
        assert!(skewed.parts.gemm.get() > even.parts.gemm.get());
        assert!(skewed.parts.gemm.get() < 1.5 * even.parts.gemm.get());
        assert_eq!(skewed.parts.attention, even.parts.attention);
    }

    #[test]
    fn each_expert_reads_its_own_weights_however_few_its_tokens() {
        // 128 experts on every chip (no expert parallelism) and short micro-batches: each
        // expert's GEMM streams its weights for 16 tokens, which one GEMM over all routed
        // tokens (before model version 5) did not see.
        let (cl, chip, mut cfg) = deepseek_on_trn2_ultra();
        let q30 = find_model(
            "m:l48,d2048,h32,kv4,f6144,v151936,s256,e128,k8,ef768,hd128,n:Qwen3-30B-A3B",
        )
        .unwrap();
        let small = Cluster {
            system: find("trn2-16").unwrap(),
            nodes: 1,
        };
        let mut q = TrainConfig::new(
            q30,
            Dtype::Bf16,
            64,
            Layout {
                tp: 4,
                pp: 1,
                dp: 4,
                ..Layout::START
            },
            0.5,
        );
        let gemm =
            |cl: &Cluster, cfg: &TrainConfig| train(cl, &chip, cfg).unwrap().parts.gemm.get();
        let grouped = gemm(&small, &q);
        q.grouped_experts = false;
        let one = gemm(&small, &q);
        assert!(grouped > 1.5 * one, "{grouped} against {one}");
        cfg.grouped_experts = true;
        // With expert parallelism and long sequences each expert gets many tokens: the
        // grouped GEMM costs what one GEMM does, to within its weights' reads.
        cfg.layout = Layout {
            tp: 16,
            pp: 4,
            dp: 16,
            ep: 16,
            ..Layout::START
        };
        let g = gemm(&cl, &cfg);
        cfg.grouped_experts = false;
        let o = gemm(&cl, &cfg);
        assert!(g >= o && g < 1.1 * o, "{g} against {o}");
    }

    #[test]
    fn uneven_stages_are_paced_by_the_largest() {
        // As model version 9 laid stages out: 61 layers over 4 stages, the largest holds 16,
        // so the step is as slow as 64 over 4.
        let (cl, chip, mut cfg) = deepseek_on_trn2_ultra();
        cfg.stage_extras = false;
        // The optimizer step scales with the parameters; the passes over the layers do not.
        let step = |cfg: &TrainConfig| {
            let r = train(&cl, &chip, cfg).unwrap();
            r.compute.get() - r.parts.optimizer.get()
        };
        cfg.layout = Layout {
            tp: 16,
            pp: 4,
            dp: 16,
            ep: 8,
            ..Layout::START
        };
        let a = step(&cfg);
        cfg.model.layers = 64;
        cfg.model.dense_layers = 3 + 3;
        assert!((step(&cfg) / a - 1.0).abs() < 1e-9);
        cfg.model.layers = 3;
        cfg.model.dense_layers = 0;
        assert!(train(&cl, &chip, &cfg)
            .unwrap_err()
            .to_string()
            .contains("4 pipeline stages are more than the model's 3 layers"));
    }

    /// The last stage runs the output head and the prediction modules; the layers spread to
    /// even the stages out.
    #[test]
    fn the_last_stage_runs_the_head_and_the_prediction_modules() {
        use train::{busiest_stage, Stage};
        let stage = |layers, heads| Stage { layers, heads };
        // Before: ⌈61/4⌉ layers and a quarter of the head, whatever the head costs.
        assert_eq!(busiest_stage(61, 4, 1, 1.0, 9.0, false), stage(16.0, 0.25));
        // One stage runs everything: the layers, the module and both head passes.
        assert_eq!(busiest_stage(61, 1, 1, 1.0, 1.6, true), stage(62.0, 2.0));
        // Llama 3 70B on 4 stages, a head pass 1.2 layers' time: 20 layers and the head on the
        // last (21.2) is slower than 17 there (18.2) and 21 on each of the others.
        assert_eq!(busiest_stage(80, 4, 0, 1.0, 1.2, true), stage(21.0, 0.0));
        // DeepSeek-V3 on 16 stages, a head pass 1.6 layers' time: the module and two head
        // passes (4.2) leave the last stage no layer, the others ⌈61/15⌉ = 5.
        assert_eq!(busiest_stage(61, 16, 1, 1.0, 1.6, true), stage(5.0, 0.0));
        // A head heavier than every layer together runs alone, and paces the pipeline.
        assert_eq!(busiest_stage(10, 2, 0, 1.0, 12.0, true), stage(0.0, 1.0));
        // Through a step: the model's prediction module slows DeepSeek-V3 on one stage by a
        // layer and a head pass.
        let (cl, chip, mut cfg) = deepseek_on_trn2_ultra();
        cfg.layout = Layout {
            tp: 16,
            dp: 64,
            ep: 64,
            zero: 3,
            ..Layout::START
        };
        let with = train(&cl, &chip, &cfg).unwrap();
        cfg.model.mtp = 0;
        let without = train(&cl, &chip, &cfg).unwrap();
        assert_eq!(
            (with.parts.counts.layers, without.parts.counts.layers),
            (62.0, 61.0)
        );
        let head = without.parts.head.get();
        assert!((with.parts.head.get() / head - 2.0).abs() < 1e-9);
        assert!(with.compute.get() > without.compute.get() + head);
    }

    /// `nodes` of preset `system`, and its chip.
    fn cluster_on(system: &str, nodes: u32) -> (Cluster, Chip) {
        let sys = find(system).unwrap();
        let chip = catalog::find(sys.chip).unwrap();
        (Cluster { system: sys, nodes }, chip)
    }

    fn llama70b_on(system: &str, nodes: u32, layout: Layout) -> (Cluster, Chip, TrainConfig) {
        let (cl, chip) = cluster_on(system, nodes);
        let model = find_model("llama3-70b").unwrap();
        let mut cfg = TrainConfig::new(model, Dtype::Bf16, 1024, layout, 0.7);
        cfg.dp_overlap = 0.5;
        (cl, chip, cfg)
    }

    /// ZeRO shards what data parallelism replicates: stage 1 the optimizer states, 2 the
    /// gradients too, 3 (FSDP) the weights too, keeping two layers gathered.
    #[test]
    fn each_zero_stage_shards_one_more_thing_and_pays_for_it_in_gathers() {
        let l = |zero| Layout {
            tp: 8,
            pp: 1,
            dp: 32,
            zero,
            recompute: true,
            ..Layout::START
        };
        let m = find_model("llama3-70b").unwrap();
        let mem: Vec<Memory> = (0..=3).map(|z| training_memory(&m, &l(z))).collect();
        assert!((mem[0].optimizer / mem[1].optimizer - 32.0).abs() < 1e-9);
        assert!((mem[1].gradients / mem[2].gradients - 32.0).abs() < 1e-9);
        assert!(mem[3].weights < mem[2].weights / 10.0);
        for w in mem.windows(2) {
            assert!(w[1].total() < w[0].total());
        }
        // 1,024 sequences over 32 replicas: 32 micro-batches, each of which ZeRO-3 gathers
        // the weights for twice and reduce-scatters once: far more traffic than one
        // all-reduce a step.
        let (cl, chip, mut cfg) = llama70b_on("hgx-h100-8", 32, l(1));
        let one = train(&cl, &chip, &cfg).unwrap();
        cfg.layout = l(3);
        cfg.fsdp_prefetch = false;
        let three = train(&cl, &chip, &cfg).unwrap();
        let r = three.dp_comm.get() / one.dp_comm.get();
        assert!((r - 1.5 * 32.0).abs() < 1e-6, "{r}");
        // With prefetch each layer's gather and reduce-scatter run beside another layer's
        // compute: less shows than the traffic (exposed as it was), never less than the first
        // gather and the last reduce-scatter, one layer's share of it.
        cfg.fsdp_prefetch = true;
        let hidden = train(&cl, &chip, &cfg).unwrap().dp_comm.get();
        let traffic = three.dp_comm.get();
        assert!(hidden < traffic, "{hidden} against {traffic}");
        assert!(hidden >= traffic / f64::from(m.layers) * 0.999, "{hidden}");
    }

    /// Model version 9: FSDP's forward gathers hide only behind the forward pass, its
    /// backward gathers and reduce-scatters behind the backward pass, each operation's
    /// exposed part stated; and a whole TPU slice's replicas reduce over the torus's every
    /// axis as the collective module has it, not one ring over one link.
    #[test]
    fn fsdp_hides_phase_by_phase_over_the_whole_fabric() {
        let layout = |zero| Layout {
            tp: 1,
            pp: 1,
            dp: 256,
            zero,
            micro_batch: 4,
            recompute: true,
            ..Layout::START
        };
        // Data parallelism over a whole v5p slice (its 95 GB hold an 8B model's replica).
        let (v5p, v5p_chip, mut cfg) = llama70b_on("tpu-v5p-512", 1, layout(1));
        cfg.model = find_model("llama3-8b").unwrap();
        cfg.layout.dp = 512;
        cfg.layout.micro_batch = 1;
        cfg.dp_overlap = 0.0;
        let grads = training_memory(&cfg.model, &cfg.layout).gradients;
        let r = train(&v5p, &v5p_chip, &cfg).unwrap();
        let torus = crate::workload::train::group_collective(
            &v5p,
            crate::collective::Op::AllReduce,
            512,
            1,
            crate::units::Bytes::new(grads),
        )
        .unwrap();
        assert!((r.dp_parts.all_reduce.get() / torus - 1.0).abs() < 1e-9);
        cfg.dp_as_run = false;
        let ring = train(&v5p, &v5p_chip, &cfg).unwrap().dp_comm.get();
        assert!(ring > 1.5 * torus, "{ring} against {torus}");
        let (cl, chip, mut cfg) = llama70b_on("tpu-v6e-256", 1, layout(3));
        cfg.layout.offload = true;
        // FSDP: the parts add up, and no phase hides more than its own compute covers.
        let r = train(&cl, &chip, &cfg).unwrap();
        let p = r.dp_parts;
        assert!((p.total() - r.dp_comm.get()).abs() < 1e-12);
        assert!(p.all_reduce.get() == 0.0 && p.gather_forward.get() > 0.0);
        assert!(p.reduce_scatter.get() >= p.gather_backward.get());
        // On a slower fabric the forward's gathers show first: the forward pass is a quarter
        // of the compute (with recomputation) but carries a third of the traffic.
        let mut slow = cl.clone();
        slow.system.link_efficiency.value /= 40.0;
        for l in &mut slow.system.links {
            l.value = crate::units::BytesPerSec::new(l.value.get() / 40.0);
        }
        let s = train(&slow, &chip, &cfg).unwrap().dp_parts;
        assert!(s.gather_forward.get() > s.gather_backward.get(), "{s:?}");
    }

    /// Hybrid sharding: FSDP within each replica group (one TPU slice here), the groups'
    /// shards of the gradients all-reduced across the slices once a step.
    #[test]
    fn hybrid_sharding_shards_within_a_group_and_reduces_across_groups() {
        let layout = |replicate| Layout {
            tp: 1,
            pp: 1,
            dp: 1024,
            zero: 3,
            replicate,
            recompute: true,
            offload: true,
            ..Layout::START
        };
        let (cl, chip, mut cfg) = llama70b_on("tpu-v6e-256", 4, layout(4));
        cfg.dp_overlap = 0.0;
        let one_slice = training_memory(
            &cfg.model,
            &Layout {
                dp: 256,
                replicate: 1,
                ..layout(4)
            },
        );
        assert_eq!(training_memory(&cfg.model, &layout(4)), one_slice);
        let hybrid = train(&cl, &chip, &cfg).unwrap();
        // The all-reduce across slices is the only all-reduce, and it carries a slice's
        // shard of the gradients over the scale-out network.
        assert!(hybrid.dp_parts.all_reduce.get() > 0.0);
        cfg.layout = layout(1);
        let flat = train(&cl, &chip, &cfg).unwrap();
        assert_eq!(flat.dp_parts.all_reduce.get(), 0.0);
        assert!(flat.memory.total() < hybrid.memory.total());
        // What does not divide, or shards nothing, is named.
        for bad in [
            layout(3),
            Layout {
                zero: 1,
                ..layout(4)
            },
        ] {
            cfg.layout = bad;
            assert!(matches!(
                train(&cl, &chip, &cfg),
                Err(WorkloadError::BadLayout(w)) if w.contains("hybrid sharding")
            ));
        }
    }

    /// Model version 9 times a mixture of experts' routed GEMMs in training from the grouped
    /// kernels measured on the chip (block-scaled FP8 on Qwen3-30B-A3B's own experts), never
    /// faster than the chip's peak.
    #[test]
    fn training_experts_come_from_kernels_measured_on_the_chip() {
        let qwen = "m:l48,d2048,h32,kv4,f6144,v151936,s4096,e128,k8,ef768,hd128,n:Qwen3-30B-A3B";
        let run = |system: &str, kernels: bool| {
            let (cl, chip) = cluster_on(system, 1);
            let layout = Layout {
                dp: 8,
                ep: 8,
                micro_batch: 4,
                recompute: true,
                ..Layout::START
            };
            let mut cfg = TrainConfig::new(find_model(qwen).unwrap(), Dtype::Fp8, 512, layout, 0.8);
            cfg.kernel_experts = kernels;
            let r = train(&cl, &chip, &cfg).unwrap();
            (
                r.parts.experts_measured,
                r.parts.gemms[3].get(),
                r.parts.costs[2].0,
                chip,
            )
        };
        let (measured, with, flops, chip) = run("hgx-b200-8", true);
        let (roofline, without, _, _) = run("hgx-b200-8", false);
        assert!(measured && !roofline);
        // Small experts run well below the large-matmul efficiency, and never above peak.
        assert!(with > without, "{with} against {without}");
        let peak = chip.dense(Dtype::Fp8).unwrap().get();
        assert!(with >= flops / peak);
        let (hopper, a, _, _) = run("hgx-h100-8", true);
        let (_, b, _, _) = run("hgx-h100-8", false);
        assert!(hopper && a > b);
    }

    /// Model version 9 trains latent attention as it runs: its projections' GEMMs hold
    /// every attention weight (the latent norms aside), where multi-head attention of the
    /// model's head dimension held far fewer for DeepSeek-V2's 128 heads of 40.
    #[test]
    fn latent_attention_trains_through_its_own_projections() {
        let v2 = find_model(
            "m:l60,d5120,h128,kv128,f12288,v102400,s4096,e160,k6,sh2,ef1536,dl1,mla1536.512.128.64.128,n:DeepSeek-V2",
        )
        .unwrap();
        let tokens = 4096.0;
        let flops = |latent| -> f64 {
            crate::workload::train::layer_gemms(&v2, tokens, 1.0, latent)[..2]
                .iter()
                .map(|(m, n, k)| 2.0 * m * n * k)
                .sum()
        };
        let a = v2.mla.unwrap();
        let norms = f64::from(a.q_lora + a.kv_lora);
        let want = 2.0 * tokens * (v2.attn_params() - norms);
        assert!(
            (flops(true) / want - 1.0).abs() < 1e-9,
            "{} against {want}",
            flops(true)
        );
        assert!(flops(false) < 0.8 * want);
    }

    /// DeepEP's and HybridEP's dispatch sends a token across the network once for each
    /// domain holding one of its experts: DeepSeek-V3's 8 experts over EP32 on four HGX
    /// nodes cross it in 4·(1 − (3/4)^8)/8 = 45% of the copies Megatron's all-to-all sends,
    /// and inside one node nothing changes.
    #[test]
    fn a_token_crosses_the_network_once_for_each_domain_of_its_experts() {
        let (cl, chip) = cluster_on("hgx-b200-8", 32);
        let l = Layout {
            pp: 8,
            dp: 32,
            ep: 32,
            recompute: false,
            ..Layout::START
        };
        let share = ep_network_share(Dispatch::PerDomain, &cl, &l, 8);
        assert!((share - 4.0 * (1.0 - 0.75f64.powi(8)) / 8.0).abs() < 1e-12);
        assert_eq!(ep_network_share(Dispatch::PerExpert, &cl, &l, 8), 1.0);
        let one_node = Layout { ep: 8, ..l };
        assert_eq!(
            ep_network_share(Dispatch::PerDomain, &cl, &one_node, 8),
            1.0
        );
        let mut cfg =
            TrainConfig::new(find_model("deepseek-v3").unwrap(), Dtype::Fp8, 4096, l, 0.8);
        let direct = train(&cl, &chip, &cfg).unwrap().ep_comm.get();
        cfg.ep_dispatch = Dispatch::PerDomain;
        let deduplicated = train(&cl, &chip, &cfg).unwrap().ep_comm.get();
        assert!(
            deduplicated < 0.6 * direct,
            "{deduplicated} against {direct}"
        );
    }

    /// Overlapped, an all-to-all shows only where the compute beside it runs out, and the
    /// compute it overlaps slows by the processors it holds; the pipeline's fill and drain
    /// show it whole.
    #[test]
    fn overlapped_all_to_alls_show_only_past_the_compute_beside_them() {
        let s = EP_OVERLAP_SM_SHARE;
        // All hidden: only the slowed compute shows.
        assert!((ep_overlapped(2.0, 10.0, 0.0) - 2.0 * s / (1.0 - s)).abs() < 1e-12);
        // More traffic than compute: the excess shows, and the compute is slowed whole.
        assert!((ep_overlapped(10.0, 4.0, 0.0) - (6.0 + 4.0 * s / (1.0 - s))).abs() < 1e-12);
        // No partner at all: exposed whole.
        assert!((ep_overlapped(3.0, 10.0, 1.0) - 3.0).abs() < 1e-12);
        assert!(ep_overlapped(3.0, 10.0, 0.5) < 3.0);
    }

    /// A MaxText-style FSDP run: every TPU v5p chip a data-parallel replica, the weights,
    /// gradients and optimizer sharded over all of them; without ZeRO-3 it does not fit.
    #[test]
    fn fsdp_over_a_whole_tpu_slice_fits_where_replicas_do_not() {
        let layout = |zero| Layout {
            tp: 1,
            pp: 1,
            dp: 512,
            zero,
            recompute: true,
            ..Layout::START
        };
        let (cl, chip, mut cfg) = llama70b_on("tpu-v5p-512", 1, layout(1));
        assert!(matches!(
            train(&cl, &chip, &cfg),
            Err(WorkloadError::DoesNotFit { .. })
        ));
        cfg.layout = layout(3);
        let r = train(&cl, &chip, &cfg).unwrap();
        assert!(r.memory.total() < chip.hbm_capacity.value.get());
        assert!(r.to_owned().layout.to_string().contains("ZeRO-3"));
    }

    /// NeMo's CP2: each chip holds half of every sequence, so half the activations; the
    /// keys and values go round the ring in every attention layer.
    #[test]
    fn context_parallelism_halves_activations_and_exchanges_keys_and_values() {
        let layout = |cp, dp| Layout {
            tp: 4,
            pp: 4,
            dp,
            cp,
            interleave: 5,
            recompute: false,
            ..Layout::START
        };
        let (cl, chip, mut cfg) = llama70b_on("hgx-h100-8", 8, layout(1, 4));
        cfg.global_batch = 128;
        let m = &cfg.model;
        let (a, b) = (
            training_memory(m, &layout(1, 4)),
            training_memory(m, &layout(2, 2)),
        );
        assert!((a.activations / b.activations - 2.0).abs() < 1e-9);
        cfg.layout = layout(2, 2);
        let r = train(&cl, &chip, &cfg).unwrap();
        assert!(r.layout.to_string().contains("cp 2"));
        // The ring's exposed time by hand: a chip's chunk of keys and values (seq/cp tokens
        // × K and V × 8/4 KV heads per tensor rank × head dim 128 × 2 bytes), sent
        // 3(cp − 1) times a layer, less the attention it feeds, over the busiest stage's
        // layers and the 128/dp micro-batches. A hop is the link's latency plus bytes over its
        // bandwidth × efficiency: NVLink while tp·cp fits the 8-GPU node, else the network.
        let s = &cl.system;
        let ring = |r: &TrainReport, cp: u32, dp: u32| {
            let kv = 8192.0 / f64::from(cp) * 2.0 * 2.0 * 128.0 * 2.0;
            let hop = if 4 * cp <= 8 {
                s.hop_latency.value.get() + kv / (s.links[0].value.get() * s.link_efficiency.value)
            } else {
                s.scale_out_latency.value.get()
                    + kv / (s.scale_out.value.get() * s.scale_out_efficiency.value)
            };
            let (layers, micro) = (r.parts.counts.layers, 128.0 / f64::from(dp));
            let attention = r.parts.attention.get() / (layers * micro);
            let exposed = (3.0 * f64::from(cp - 1) * hop - attention).max(0.0);
            (
                exposed * layers * micro,
                3.0 * f64::from(cp - 1) * hop / attention,
            )
        };
        // CP2 inside a node: 4 MiB a hop over NVLink (13.5 µs), 40 µs a layer against 1.2 ms
        // of attention: all of it hidden, nothing shows.
        let (want, share) = ring(&r, 2, 2);
        assert!(share < 0.05, "{share}");
        assert_eq!((r.cp_comm.get(), want), (0.0, 0.0));
        // CP4 spans two nodes: 2 MiB a hop over 400 Gb/s (86 µs), 9 hops a layer (776 µs)
        // against 595 µs of attention: 181 µs a layer shows, 0.463 s a step.
        cfg.layout = layout(4, 1);
        let wide = train(&cl, &chip, &cfg).unwrap();
        let (want, share) = ring(&wide, 4, 1);
        assert!(share > 1.0, "{share}");
        let got = wide.cp_comm.get();
        assert!((got / want - 1.0).abs() < 1e-9, "{got} against {want}");
        // Two sequences' worth of work per chip per micro-batch is the same as with DP4.
        cfg.layout = layout(1, 4);
        let plain = train(&cl, &chip, &cfg).unwrap();
        assert_eq!(plain.cp_comm.get(), 0.0);
        assert!(r.tokens_per_s > 0.8 * plain.tokens_per_s);
        // A sequence that does not split into 2 × cp chunks is refused.
        cfg.model.seq = 8190;
        cfg.layout = layout(2, 2);
        assert!(train(&cl, &chip, &cfg)
            .unwrap_err()
            .to_string()
            .contains("equal chunks"));
    }

    /// Pipeline stages send each micro-batch's activations forward and gradients back; links
    /// of version 2 were made with a model that left the sends out.
    #[test]
    fn pipeline_sends_cost_more_across_nodes_than_inside_one() {
        let layout = |tp, pp, dp| Layout {
            tp,
            pp,
            dp,
            recompute: true,
            ..Layout::START
        };
        let (cl, chip, mut cfg) = llama70b_on("hgx-h100-8", 8, layout(2, 4, 8));
        let inside = train(&cl, &chip, &cfg).unwrap();
        assert!(inside.pp_comm.get() > 0.0);
        cfg.layout = layout(8, 4, 2);
        let across = train(&cl, &chip, &cfg).unwrap();
        // TP2 × PP4 stays in one 8-GPU node; TP8's stages sit in different nodes. Per byte
        // sent (a micro-batch's activations, split over the tensor ranks), the network is
        // several times slower than NVLink.
        let act = 8192.0 * 8192.0 * 2.0;
        let per_byte = |r: &TrainReport, micro: f64, tp: f64| {
            r.pp_comm.get() / (2.0 * (micro + 3.0)) / (act / tp)
        };
        let ratio = per_byte(&across, 512.0, 8.0) / per_byte(&inside, 128.0, 2.0);
        assert!(ratio > 4.0, "{ratio}");
        cfg.pipeline_sends = false;
        assert_eq!(train(&cl, &chip, &cfg).unwrap().pp_comm.get(), 0.0);
    }

    #[test]
    fn a_search_in_slices_ends_where_one_run_does() {
        let (cl, chip, cfg) = deepseek_on_trn2_ultra();
        let mut s = LayoutSearch::new(&cl, &chip, &cfg);
        let first = s.total();
        assert!(first > 100, "{first} candidates");
        while !s.step(7) {
            assert!(s.tried() <= s.total());
        }
        // The second round (ZeRO-2/3, context parallelism) was added once the first ended.
        let total = s.total();
        assert!(total > first, "{total} after {first}");
        assert_eq!(s.tried(), total);
        assert_eq!(s.ranked(usize::MAX).len() + s.rejected().len(), total);
        let best = s.ranked(1)[0].tokens_per_s;
        assert!((best_layout(&cl, &chip, &cfg).unwrap().tokens_per_s - best).abs() < 1e-9);
    }

    #[test]
    fn layouts_that_cannot_work_say_why() {
        let cl = Cluster {
            system: find("trn2-16").unwrap(),
            nodes: 2,
        };
        let chip = catalog::find("trn2").unwrap();
        let mut cfg = TrainConfig {
            model: find_model("llama3-70b").unwrap(),
            dtype: Dtype::Bf16,
            global_batch: 64,
            layout: Layout {
                tp: 32,
                pp: 1,
                dp: 1,
                ep: 1,
                micro_batch: 1,
                interleave: 1,
                zero: 1,
                recompute: true,
                cp: 1,
                offload: false,
                replicate: 1,
            },
            matmul_efficiency: 0.8,
            dp_overlap: 0.5,
            tp_overlap: 0.0,
            pipeline_sends: true,
            fsdp_prefetch: true,
            dp_as_run: true,
            kernel_experts: true,
            latent_attention: true,
            ep_dispatch: Dispatch::PerExpert,
            ep_overlap: false,
            expert_imbalance: 1.0,
            grouped_experts: true,
            stage_extras: true,
            choose_micro_batch: false,
            choose_offload: false,
        };
        assert!(train(&cl, &chip, &cfg)
            .unwrap_err()
            .to_string()
            .contains("inside the 16-chip scale-up domain"));
        cfg.layout = Layout {
            tp: 4,
            pp: 4,
            dp: 1,
            ..cfg.layout
        };
        assert!(train(&cl, &chip, &cfg)
            .unwrap_err()
            .to_string()
            .contains("the cluster has 32 chips"));
        cfg.layout = Layout {
            tp: 1,
            pp: 1,
            dp: 32,
            zero: 0,
            ..cfg.layout
        };
        let e = train(&cl, &chip, &cfg).unwrap_err().to_string();
        assert!(e.contains("does not fit"), "{e}");
        assert!(find_model("gpt-5")
            .unwrap_err()
            .to_string()
            .contains("valid: llama3-8b"));
    }
}

#[cfg(test)]
mod micro_batch_tests {
    use super::*;
    use crate::catalog;
    use crate::dtype::Dtype;
    use crate::system::{find, Cluster};

    #[test]
    fn micro_batches_are_powers_of_two_within_a_rank_s_share_and_no_more() {
        let at = |gbs: u32, dp: u32| {
            micro_batch_options(
                gbs,
                &Layout {
                    dp,
                    ..Layout::START
                },
            )
        };
        assert_eq!(at(1024, 256), [1, 2, 4]);
        assert_eq!(at(1, 256), [1]);
        // The largest batch a link may carry ends, every option a power of two.
        let all = at(u32::MAX, 1);
        assert_eq!(all.len(), 32);
        assert!(all.iter().all(|b| b.is_power_of_two()));
        // A micro-batch past a rank's share is named, not wrapped around.
        let cl = Cluster {
            system: find("tpu-v6e-256").unwrap(),
            nodes: 1,
        };
        let chip = catalog::find("tpu-v6e").unwrap();
        let layout = Layout {
            dp: 256,
            micro_batch: u32::MAX,
            ..Layout::START
        };
        let cfg = TrainConfig::new(
            find_model("llama3-8b").unwrap(),
            Dtype::Bf16,
            1024,
            layout,
            0.8,
        );
        let e = train(&cl, &chip, &cfg).unwrap_err().to_string();
        assert!(e.contains("more than the 4 each"), "{e}");
    }
}
