//! Tests of the chip catalog: every figure sourced, the vendors' own numbers reproduced.
use super::*;
use crate::source::Source;
use alloc::string::ToString;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

fn chip(id: &str) -> Chip {
    find(id).unwrap_or_else(|e| panic!("{e}"))
}

/// Dense peak of `id` in `d` equals `expected_tflops`.
fn check(id: &str, d: Dtype, expected_tflops: f64) {
    let got = chip(id)
        .dense(d)
        .unwrap_or_else(|| panic!("{id} has no dense {d}"));
    assert!(
        close(got.get(), expected_tflops * 1e12),
        "{id} {d} dense: got {got}, want {expected_tflops} TFLOP/s"
    );
}

/// Sparse peak of `id` in `d` equals `expected_tflops`.
fn check_sparse(id: &str, d: Dtype, expected_tflops: f64) {
    let got = chip(id)
        .sparse(d)
        .unwrap_or_else(|| panic!("{id} has no sparse {d}"));
    assert!(
        close(got.get(), expected_tflops * 1e12),
        "{id} {d} sparse: got {got}, want {expected_tflops} TFLOP/s"
    );
}

/// Every source a chip cites, with what it is for.
fn sources(c: &Chip) -> Vec<(String, Source)> {
    let mut v = Vec::new();
    for d in Dtype::ALL {
        let p = c.peak(d);
        if let Some(s) = p.dense {
            v.push((alloc::format!("{} dense", d.id()), s.source));
        }
        if let Some(s) = p.sparse {
            v.push((alloc::format!("{} sparse", d.id()), s.source));
        }
    }
    v.push(("hbm capacity".into(), c.hbm_capacity.source));
    v.push(("hbm bandwidth".into(), c.hbm_bandwidth.source));
    v.push(("cores".into(), c.cores.source));
    for m in &c.sram {
        v.push((m.name.into(), m.capacity.source));
    }
    for k in &c.clocks {
        v.push((k.engine.into(), k.frequency.source));
    }
    if let Some(p) = c.power {
        v.push(("power".into(), p.source));
    }
    v
}

#[test]
fn ids_unique_and_match_presets() {
    let chips = presets();
    let got: Vec<&str> = chips.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(got, ids());
    let mut sorted = got.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), got.len(), "duplicate ids in {got:?}");
    // A lookup builds the chip its key names.
    for id in ids() {
        assert_eq!(find(id).unwrap().id, id);
    }
    for c in &chips {
        assert!(!c.custom && c.based_on.is_none(), "{} is a preset", c.id);
        assert!(!c.name.is_empty() && !c.core_kind.is_empty(), "{}", c.id);
    }
}

#[test]
fn every_chip_has_bf16_and_hbm() {
    for c in presets() {
        let bf16 = c.dense(Dtype::Bf16);
        assert!(
            bf16.is_some_and(FlopPerSec::is_positive),
            "{} BF16 dense",
            c.id
        );
        assert!(c.hbm_capacity.value.is_positive(), "{} HBM capacity", c.id);
        assert!(
            c.hbm_bandwidth.value.is_positive(),
            "{} HBM bandwidth",
            c.id
        );
        assert!(
            c.cores.value > 0 || c.cores.note == "not published",
            "{} cores",
            c.id
        );
        if let Some(p) = c.power {
            assert!(p.value.is_positive(), "{} power", c.id);
        }
    }
}

#[test]
fn sparse_at_least_dense_and_pattern_stated() {
    for c in presets() {
        let mut any_sparse = false;
        for d in Dtype::ALL {
            if let Some(s) = c.sparse(d) {
                any_sparse = true;
                assert!(s.is_positive(), "{} {d} sparse", c.id);
                if let Some(dense) = c.dense(d) {
                    assert!(s >= dense, "{} {d}: sparse {s} < dense {dense}", c.id);
                }
            }
        }
        assert_eq!(
            any_sparse,
            c.sparsity != "none",
            "{}: sparse figures vs sparsity '{}'",
            c.id,
            c.sparsity
        );
    }
}

#[test]
fn citations_complete_and_used() {
    let all = citations();
    let mut keys: Vec<&str> = all.iter().map(|c| c.key).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), all.len(), "duplicate citation keys");
    for c in &all {
        assert!(
            c.url.starts_with("https://") && c.url.len() > 8,
            "{} url",
            c.key
        );
        assert!(!c.title.is_empty(), "{} title", c.key);
        assert!(
            c.date.len() >= 4 && c.date[..4].bytes().all(|b| b.is_ascii_digit()),
            "{} date",
            c.key
        );
    }
    let mut used: Vec<&str> = Vec::new();
    for chip in presets() {
        for (what, s) in sources(&chip) {
            match s {
                Source::Cited { citation } => {
                    assert!(
                        all.iter().any(|c| core::ptr::eq(*c, citation)),
                        "{} {what} cites {} which citations() does not list",
                        chip.id,
                        citation.key
                    );
                    used.push(citation.key);
                }
                Source::UserEdit | Source::Assumption => {
                    panic!("{} {what} is not cited", chip.id)
                }
            }
        }
    }
    for c in &all {
        assert!(used.contains(&c.key), "{} is listed but never cited", c.key);
    }
}

#[test]
fn unknown_chip_lists_valid_ids() {
    let e = find("trn9").unwrap_err();
    assert_eq!(e, CatalogError::UnknownChip("trn9".into()));
    let msg = e.to_string();
    assert!(
        msg.contains("trn9") && msg.contains("h100-sxm") && msg.contains("tpu-v7"),
        "{msg}"
    );
}

#[test]
fn estimates_are_flagged() {
    // Power of Trn2 and Trn3 is not published by AWS (both figures are marked estimates).
    for id in ["trn2", "trn3"] {
        assert!(chip(id).power.is_some_and(|p| p.estimate), "{id} power");
    }
    // Nothing publishes Trn1 or TPU power.
    for id in ["trn1", "tpu-v6e", "tpu-v7"] {
        assert!(chip(id).power.is_none(), "{id} power");
    }
}

#[test]
fn published_figures() {
    // N-T2 (AWS Neuron, Trainium2 architecture): 667 BF16 dense, 1,299 FP8 dense,
    // 2,563 sparse.
    check("trn2", Dtype::Bf16, 667.0);
    check("trn2", Dtype::Fp8, 1_299.0);
    check_sparse("trn2", Dtype::Fp8, 2_563.0);
    // NV-H100 / MLE-ACC: BF16 989.4 dense, 1,979 with 2:4 sparsity; HBM 3.35 TB/s.
    check("h100-sxm", Dtype::Bf16, 989.4);
    check_sparse("h100-sxm", Dtype::Bf16, 1_979.0);
    assert!(close(chip("h100-sxm").hbm_bandwidth.value.get(), 3.35e12));
    // GCP-v6e (Google Cloud TPU v6e): 918 TFLOP/s BF16, 1,638 GBps HBM.
    check("tpu-v6e", Dtype::Bf16, 918.0);
    assert!(close(chip("tpu-v6e").hbm_bandwidth.value.get(), 1_638e9));
    // N-T3 (AWS Neuron, Trainium3 architecture): 2,517 TFLOP/s MXFP8 dense.
    check("trn3", Dtype::Fp8, 2_517.0);
    // NV-GB300 (GB300 NVL72): 1,080 PF dense FP4 per 72 GPUs = 15 PF per GPU.
    check("gb300", Dtype::Fp4, 15_000.0);
}

#[test]
fn the_presets_that_run_neuron_are_the_trn_ones() {
    for c in presets() {
        assert_eq!(c.runs_neuron(), c.id.starts_with("trn"), "{}", c.id);
    }
}
