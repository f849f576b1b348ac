use super::attention::{self, AttentionSpec};
use super::matmul::{self, MatmulSpec, Side};
use super::spec::{Experiment, Kernel};
use super::tune::{lower_bound, tune};
use super::*;

fn run(core: &Core, spec: &MatmulSpec) -> Run {
    simulate(&matmul::schedule(core, spec).expect("fits"))
}

/// Every instruction starts after what it waits for has ended, and each lane runs its
/// instructions in program order without overlap.
fn check_causal(s: &Schedule, r: &Run) {
    let mut last_end = vec![0.0f64; 4 + usize::from(s.queues)];
    for (i, ins) in s.instrs.iter().enumerate() {
        let (a, b) = r.spans[i];
        assert!(a.is_finite() && b >= a, "instruction {i} never ran");
        for d in &ins.deps {
            assert!(
                r.spans[d.on as usize].1 <= a + 1e-12,
                "{i} started before {}",
                d.on
            );
        }
        let l = ins.unit.lane();
        assert!(a + 1e-12 >= last_end[l], "lane {l} overlaps at {i}");
        last_end[l] = b;
    }
}

#[test]
fn cores_come_from_the_catalog() {
    // NKI architecture guides: Tensor 2.8 / 2.4 / 2.4 GHz; SBUF 192 / 224 / 256 KiB per
    // partition; PSUM 16 KiB per partition.
    for (chip, ghz, sbuf) in [("trn1", 2.8, 192), ("trn2", 2.4, 224), ("trn3", 2.4, 256)] {
        let c = Core::of(chip).unwrap();
        assert!((c.tensor_hz / 1e9 - ghz).abs() < 1e-9, "{chip}");
        assert_eq!(c.sbuf_bytes, sbuf * 1024, "{chip}");
        assert_eq!(c.psum_bytes, 16 * 1024, "{chip}");
        // 128 × 128 × 2 × clock is the per-core BF16 figure the guides print (92 / 79 / 79).
        let tf = c.array_peak(Dtype::Bf16) / 1e12;
        assert!((tf - 2.0 * 128.0 * 128.0 * ghz / 1e3).abs() < 1e-6);
    }
    // Trn2's FP8 and Trn3's MXFP8 per-core peaks (158 and 315 TFLOP/s, NKI-T2 / NKI-T3) are
    // 2× and 4× BF16.
    let t2 = Core::of("trn2").unwrap();
    assert!((t2.array_peak(Dtype::Fp8) / 1e12 - 157.3).abs() < 0.1);
    let t3 = Core::of("trn3").unwrap();
    assert!((t3.array_peak(Dtype::Fp8) / 1e12 - 314.6).abs() < 0.1);
    assert!(Core::of("h100").is_err());
    assert!(t2.rows(Dtype::Fp4).is_err());
    // Every parameter is listed with a source, and estimates are marked.
    let params = t2.params();
    assert!(params.iter().any(|p| p.estimate));
    assert!(params
        .iter()
        .all(|p| !p.source.is_empty() && !p.why.is_empty()));
}

#[test]
fn large_square_bf16_matmul_reaches_the_catalog_peak_per_core() {
    // Bar: within 10% of the per-core peak the catalog implies (Trn2: 667 TFLOP/s ÷ 8 cores).
    // AWS's NKI trn2 matmul tutorial reports its tuned kernel keeping TensorE about 99.5%
    // busy; the model's schedule is compute-bound with ~97% of the array's own peak.
    let core = Core::of("trn2").unwrap();
    let spec = MatmulSpec::new(4096, 4096, 4096, Dtype::Bf16);
    let s = matmul::schedule(&core, &spec).unwrap();
    let r = simulate(&s);
    check_causal(&s, &r);
    let catalog = core.catalog_peak(Dtype::Bf16).unwrap();
    let got = r.flops_per_s();
    assert!(got >= 0.9 * catalog, "{got:e} vs {catalog:e}");
    assert!(got <= core.array_peak(Dtype::Bf16) * (1.0 + 1e-9));
    assert!(r.busy(0) > 0.95, "tensor busy {}", r.busy(0));
    // FP8 double-row mode on the same shape is faster, and nothing beats the array's peak.
    let f8 = run(&core, &MatmulSpec::new(4096, 4096, 4096, Dtype::Fp8));
    assert!(f8.seconds < r.seconds * 0.8);
    assert!(f8.flops_per_s() <= core.array_peak(Dtype::Fp8) * (1.0 + 1e-9));
}

#[test]
fn a_k_of_100_uses_100_of_128_rows() {
    let core = Core::of("trn2").unwrap();
    let r = run(&core, &MatmulSpec::new(2048, 2048, 100, Dtype::Bf16));
    let used = r.array_use(&core, 128);
    assert!((used - 100.0 / 128.0).abs() < 1e-9, "{used}");
    assert!(r.flops_per_s() <= core.array_peak(Dtype::Bf16) * 100.0 / 128.0 * (1.0 + 1e-9));
    // A full K of 128 uses every row.
    let full = run(&core, &MatmulSpec::new(2048, 2048, 128, Dtype::Bf16));
    assert!((full.array_use(&core, 128) - 1.0).abs() < 1e-9);
}

/// A decode-like product: 128 tokens against an 8192 × 8192 weight, streamed once.
fn skinny(bufs: u32) -> MatmulSpec {
    MatmulSpec {
        tile_m: 128,
        tile_n: 2048,
        tile_k: 1024,
        bufs,
        ..MatmulSpec::new(128, 8192, 8192, Dtype::Bf16)
    }
}

#[test]
fn halving_hbm_slows_a_memory_bound_schedule_about_twice_and_not_a_compute_bound_one() {
    let core = Core::of("trn2").unwrap();
    let mut half = core.clone();
    half.hbm_bw /= 2.0;
    let (a, b) = (run(&core, &skinny(2)), run(&half, &skinny(2)));
    let ratio = b.seconds / a.seconds;
    assert!((1.8..=2.05).contains(&ratio), "memory-bound: {ratio}");
    // Blocks of 2048 × 1024 × 512 reuse A and B enough (about 585 FLOP per HBM byte) to stay
    // above even the halved ridge point (79 TFLOP/s ÷ 181 GB/s = 434 FLOP/B).
    let big = MatmulSpec {
        tile_m: 2048,
        tile_n: 1024,
        tile_k: 512,
        ..MatmulSpec::new(4096, 4096, 4096, Dtype::Bf16)
    };
    assert!(run(&core, &big).intensity() > 500.0);
    let ratio = run(&half, &big).seconds / run(&core, &big).seconds;
    assert!((1.0..1.05).contains(&ratio), "compute-bound: {ratio}");
}

#[test]
fn double_buffering_beats_single_on_a_dma_bound_shape() {
    let core = Core::of("trn2").unwrap();
    let (one, two, three) = (
        run(&core, &skinny(1)),
        run(&core, &skinny(2)),
        run(&core, &skinny(3)),
    );
    assert!(
        one.seconds > 1.3 * two.seconds,
        "{} vs {}",
        one.seconds,
        two.seconds
    );
    assert!(three.seconds <= two.seconds * 1.001);
    // Single buffering makes the loads wait for their buffer; the tensor engine then waits
    // on DMA.
    let dma0 = &one.units[Unit::Dma(1).lane()];
    assert!(
        dma0.stalls[2] > 0.0,
        "single-buffered loads wait for a free buffer"
    );
    assert!(one.units[0].stalls[0] > two.units[0].stalls[0]);
    // DMA never beats its ceiling.
    assert!(two.dma_bw() <= core.dma_ceiling() * (1.0 + 1e-9));
}

#[test]
fn a_schedule_that_overflows_sbuf_is_rejected_with_its_sizes() {
    let core = Core::of("trn2").unwrap();
    let spec = MatmulSpec {
        tile_m: 1024,
        tile_n: 8192,
        tile_k: 8192,
        ..MatmulSpec::new(8192, 8192, 8192, Dtype::Bf16)
    };
    match matmul::schedule(&core, &spec) {
        Err(
            e @ ScheduleError::Overflow {
                mem: Mem::Sbuf,
                need,
                have,
                ..
            },
        ) => {
            assert_eq!(have, 224 * 1024);
            assert!(need > have);
            let msg = e.to_string();
            assert!(msg.contains("224 KiB available"), "{msg}");
            assert!(msg.contains("B block (moving) 2 × 1024 KiB"), "{msg}");
        }
        other => panic!("not rejected: {other:?}"),
    }
    // Trn3's larger SBUF takes what Trn2's cannot.
    let ok = MatmulSpec {
        tile_k: 2048,
        bufs: 3,
        ..MatmulSpec::new(4096, 4096, 4096, Dtype::Bf16)
    };
    assert!(matmul::schedule(&core, &ok).is_err());
    assert!(matmul::schedule(&Core::of("trn3").unwrap(), &ok).is_ok());
}

#[test]
fn high_water_marks_stay_within_what_the_pools_reserve() {
    let core = Core::of("trn2").unwrap();
    for spec in [
        skinny(1),
        skinny(3),
        MatmulSpec {
            stationary: Side::B,
            ..MatmulSpec::new(1000, 700, 300, Dtype::Bf16)
        },
    ] {
        let s = matmul::schedule(&core, &spec).unwrap();
        let r = simulate(&s);
        check_causal(&s, &r);
        for m in 0..2 {
            assert!(
                r.peak[m] > 0 && r.peak[m] <= r.reserved[m],
                "{m}: {:?} {:?}",
                r.peak,
                r.reserved
            );
            assert!(r.reserved[m] <= r.capacity[m]);
        }
        assert!(lower_bound(&s) <= r.seconds * (1.0 + 1e-9));
        for i in 0..r.units.len() {
            assert!(r.busy(i) <= 1.0 + 1e-9);
        }
    }
}

#[test]
fn ragged_shapes_count_every_flop() {
    let core = Core::of("trn1").unwrap();
    let spec = MatmulSpec::new(300, 777, 129, Dtype::Fp32);
    let s = matmul::schedule(&core, &spec).unwrap();
    let macs: f64 = s
        .instrs
        .iter()
        .map(|i| match i.op {
            Op::Matmul { k, cols, n, .. } => f64::from(k) * f64::from(cols) * f64::from(n),
            _ => 0.0,
        })
        .sum();
    assert_eq!(macs, 300.0 * 777.0 * 129.0);
    let stored: f64 = s
        .instrs
        .iter()
        .map(|i| match i.op {
            Op::Store { rows, row_bytes } => f64::from(rows) * f64::from(row_bytes),
            _ => 0.0,
        })
        .sum();
    assert_eq!(stored, 300.0 * 777.0 * 4.0);
    check_causal(&s, &simulate(&s));
}

#[test]
fn attention_tile_runs_and_scales_with_keys() {
    let core = Core::of("trn2").unwrap();
    let a = AttentionSpec::new(512, 4096, Dtype::Bf16);
    let s = attention::schedule(&core, &a).unwrap();
    let r = simulate(&s);
    check_causal(&s, &r);
    assert!(r.flops_per_s() < core.array_peak(Dtype::Bf16));
    // Softmax's engines, not the array, bound a head dimension of 128.
    let busiest = (0..4)
        .max_by(|&x, &y| r.busy(x).total_cmp(&r.busy(y)))
        .unwrap();
    assert_ne!(
        busiest,
        0,
        "{:?}",
        (0..4).map(|i| r.busy(i)).collect::<Vec<_>>()
    );
    let r2 =
        simulate(&attention::schedule(&core, &AttentionSpec::new(512, 8192, Dtype::Bf16)).unwrap());
    let ratio = r2.seconds / r.seconds;
    assert!((1.8..2.1).contains(&ratio), "{ratio}");
    assert!(attention::schedule(
        &core,
        &AttentionSpec {
            head_dim: 256,
            ..a.clone()
        }
    )
    .is_err());
}

#[test]
fn tuning_finds_a_schedule_at_least_as_fast_as_the_default() {
    let core = Core::of("trn2").unwrap();
    let base = MatmulSpec::new(2048, 2048, 2048, Dtype::Bf16);
    let found = tune(&core, &base, 5, |_, _| true);
    assert!(!found.best.is_empty() && found.best.len() <= 5);
    assert!(found.overflowing > 0 && found.fitting > found.simulated);
    let default = run(&core, &base).seconds;
    assert!(found.best[0].run.seconds <= default * (1.0 + 1e-9));
    for w in found.best.windows(2) {
        assert!(w[0].run.seconds <= w[1].run.seconds);
    }
}

#[test]
fn experiments_round_trip_as_text_and_explain_bad_tokens() {
    for t in [
        "trn2_mm_4096x4096x4096_bf16_t1024x1024x1024_b2_sA",
        "trn3_mm_128x8192x8192_fp8_t128x2048x1024_b3_sB_h0.5",
        "trn1_attn_512x4096x128_bf16_kt512_b2",
    ] {
        let e = Experiment::parse(t).unwrap();
        assert_eq!(e.to_text(), t);
    }
    assert_eq!(
        Experiment::parse(&Experiment::default().to_text()).unwrap(),
        Experiment::default()
    );
    for (t, says) in [
        ("h100-sxm_mm_1x1x1", "not a Trainium"),
        ("trn2_conv_1x1x1", "no NeuronCore kernel"),
        ("trn2_mm_1x1", "three numbers"),
        ("trn2_mm_8x8x8_zz", "'zz' is not a format"),
        ("trn2_mm_8x8x8_h0", "outside 0.01"),
        ("trn2_mm_8x8x8_sC", "not A or B"),
    ] {
        let e = Experiment::parse(t).unwrap_err().to_string();
        assert!(e.contains(says), "{t}: {e}");
    }
    let e = Experiment::parse("trn2_mm_0x8x8").unwrap();
    assert!(e.schedule().unwrap_err().to_string().contains("M = 0"));
    assert!(matches!(
        Experiment::parse("trn2_attn_128x128x64_fp8")
            .unwrap()
            .kernel,
        Kernel::Attention(_)
    ));
}

#[test]
fn held_out_trn1_matmul_tutorial() {
    // AWS NKI matrix-multiplication tutorial (aws-neuron-sdk, nki tutorials, Trn1): its
    // fully optimized kernel multiplies [4096, 8192] by [8192, 8192] in BF16 in 6.97 ms
    // ("~85% utilization"). Not fitted: the model, with its default blocks, is optimistic by
    // about 14% (6.0 ms, 99.7% of the array): it lacks the instruction-issue and
    // synchronisation costs a real kernel pays between matmuls.
    let core = Core::of("trn1").unwrap();
    let r = run(&core, &MatmulSpec::new(4096, 8192, 8192, Dtype::Bf16));
    let err = r.seconds / 6.97e-3 - 1.0;
    assert!((-0.2..0.0).contains(&err), "{err}");
}
