use super::*;
use crate::formats::Rounding;

fn spec(kernel: Kernel, m: u32, n: u32, k: u32, fmt: &str) -> KernelSpec {
    let o = Operand::parse(fmt).unwrap();
    KernelSpec {
        kernel,
        m,
        n,
        k,
        input: o,
        weight: o,
        ..KernelSpec::default()
    }
}

fn snr(fmt: &str) -> f64 {
    run(&spec(Kernel::Gemm, 48, 48, 1024, fmt))
        .unwrap()
        .error
        .snr_db
}

#[test]
fn the_fast_gemm_agrees_with_f64_on_ragged_shapes() {
    let mut rng = Rng::new(3);
    for (m, n, k) in [(7, 13, 300), (33, 17, 513), (1, 1, 1), (4, 8, 256)] {
        let a = Distribution::Normal.sample(&mut rng, m, k);
        let bt = Distribution::Normal.sample(&mut rng, n, k);
        let c = gemm::gemm_f32(&a, &bt, m, n, k);
        let r = gemm::gemm_f64(&a, &bt, m, n, k);
        let e = ErrorStats::compare(&c, &r);
        assert!(e.snr_db > 110.0, "{m}x{n}x{k}: {} dB", e.snr_db);
    }
}

/// Quantization theory, not the encoder: rounding to nearest with p significand bits leaves
/// an error uniform over half an ulp, so for values spread over binades the signal-to-noise
/// ratio is 10 log10(12 E[m^2] 4^(p-1)) = 6.02 p + 8.1 dB (m the significand, log-uniform on
/// [1, 2), E[m^2] = 3 / (2 ln 2)).
#[test]
fn per_element_snr_follows_the_significand_bits() {
    let mut rng = Rng::new(11);
    let x = Distribution::Normal.sample(&mut rng, 1, 1 << 16);
    let x64: alloc::vec::Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
    for (f, p) in [
        (Format::Fp16, 11),
        (Format::Tf32, 11),
        (Format::Bf16, 8),
        (Format::E4m3, 4),
        (Format::E5m2, 3),
    ] {
        let (q, _) = quantize(&x, x.len(), f, Operand::new(f).scaling, None, true);
        let got = ErrorStats::compare(&q, &x64).snr_db;
        let theory = 10.0
            * libm::log10(
                12.0 * 3.0 / (2.0 * core::f64::consts::LN_2) * libm::pow(4.0, f64::from(p - 1)),
            );
        assert!(
            (got - theory).abs() < 1.0,
            "{f}: {got:.2} dB vs {theory:.2} dB"
        );
    }
}

#[test]
fn formats_rank_as_their_bits_and_scales_say() {
    let (bf16, int8, e4m3, mxfp8, mxfp4, nvfp4) = (
        snr("bf16"),
        snr("int8"),
        snr("fp8e4m3"),
        snr("mxfp8"),
        snr("mxfp4"),
        snr("nvfp4"),
    );
    // Two rounded operands: about 3 dB under the per-element figure (6.02 p + 8.1).
    assert!((bf16 - 53.3).abs() < 1.5, "bf16 {bf16}");
    assert!((e4m3 - 29.2).abs() < 1.5, "e4m3 {e4m3}");
    assert!(
        (mxfp8 - e4m3).abs() < 2.0,
        "MXFP8 {mxfp8} is E4M3 with finer scales"
    );
    assert!(bf16 > int8 && int8 > e4m3, "{bf16} {int8} {e4m3}");
    assert!(
        nvfp4 > mxfp4 && mxfp4 > 10.0,
        "NVFP4's finer scale wins: {nvfp4} vs {mxfp4}"
    );
    assert!(e4m3 > nvfp4 + 8.0);
}

#[test]
fn a_narrow_accumulator_loses_a_long_sum() {
    let mut s = spec(Kernel::Gemm, 16, 16, 2048, "bf16");
    let fp32 = run(&s).unwrap().error.snr_db;
    s.acc = Accumulator::Bf16;
    let bf16 = run(&s).unwrap().error.snr_db;
    s.acc = Accumulator::Fp16;
    let fp16 = run(&s).unwrap().error.snr_db;
    assert!(fp32 > bf16 + 15.0, "fp32 {fp32}, bf16 {bf16}");
    assert!(fp16 > bf16, "fp16 keeps 3 more bits: {fp16} vs {bf16}");
}

#[test]
fn every_kernel_in_fp32_matches_its_reference() {
    for kernel in Kernel::ALL {
        let r = run(&spec(kernel, 24, 40, 32, "fp32")).unwrap();
        assert!(r.error.snr_db > 100.0, "{kernel}: {} dB", r.error.snr_db);
        assert_eq!(r.error.non_finite, 0);
        let low = run(&spec(kernel, 24, 40, 32, "fp8e4m3")).unwrap();
        assert!(low.error.snr_db < r.error.snr_db - 30.0, "{kernel} in FP8");
    }
}

#[test]
fn the_reference_softmax_rows_sum_to_one() {
    let x = [1.0, 2.0, 3.0, -1.0, 0.0, 1000.0];
    let p = ops::softmax_f64(&x, 3);
    assert!((p[..3].iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!((p[5] - 1.0).abs() < 1e-12, "no overflow on large inputs");
}

#[test]
fn runs_are_reproducible_from_the_seed() {
    let mut s = spec(Kernel::Gemm, 8, 8, 64, "fp8e4m3");
    s.stochastic = true;
    let a = run(&s).unwrap();
    assert_eq!(a, run(&s).unwrap());
    s.seed = 2;
    assert_ne!(a.error, run(&s).unwrap().error);
}

#[test]
fn stochastic_rounding_is_unbiased_where_nearest_is_not() {
    // 1000 copies of 1.2 in FP4 sum to 1000 under RNE (each rounds to 1.0), 1200 on average
    // under stochastic rounding.
    let sum = |r: &dyn Fn(u64) -> Rounding| -> f64 {
        (0..1000).map(|i| Format::E2m1.round(1.2, r(i), true)).sum()
    };
    assert_eq!(sum(&|_| Rounding::NearestEven), 1000.0);
    let sr = sum(&|i| Rounding::Stochastic(crate::formats::scaled::draw(9, i)));
    assert!((sr - 1200.0).abs() < 30.0, "{sr}");
}

#[test]
fn links_round_trip_and_bad_values_are_named() {
    let s = KernelSpec {
        kernel: Kernel::Attention,
        m: 64,
        n: 300,
        k: 128,
        input: Operand::parse("nvfp4").unwrap(),
        weight: Operand {
            format: Format::E5m2,
            scaling: Scaling::Block {
                size: 64,
                scale: ScaleFormat::Fp32,
            },
        },
        acc: Accumulator::Fp16,
        output: Format::Bf16,
        dist: Distribution::LlmActivation,
        seed: 42,
        stochastic: true,
        saturate: false,
    };
    let pairs = s.to_pairs();
    let (back, notes) = KernelSpec::from_pairs(pairs.iter().map(|(k, v)| (*k, v.as_str())));
    assert_eq!(back, s);
    assert!(notes.is_empty(), "{notes:?}");
    assert!(
        KernelSpec::default().to_pairs().is_empty(),
        "a default run adds nothing to a link"
    );

    let (d, notes) = KernelSpec::from_pairs([
        ("kern", "fft"),
        ("km", "1e103"),
        ("kin", "fp7"),
        ("kins", "b0e8m0"),
        ("kseed", "-1"),
        ("page", "kernels"),
    ]);
    assert_eq!(d, KernelSpec::default());
    assert_eq!(notes.len(), 5, "{notes:?}");
    assert!(
        notes[0].contains("fft") && notes[2].contains("fp7"),
        "{notes:?}"
    );
}

#[test]
fn runs_too_large_are_refused_before_they_start() {
    let big = spec(Kernel::Gemm, 16_384, 16_384, 16_384, "bf16");
    assert!(big.check().unwrap_err().contains("elements"));
    let deep = spec(Kernel::Gemm, 4096, 4096, 1024, "bf16");
    assert!(deep.check().unwrap_err().contains("multiply-adds"));
    assert!(prepare(&deep).is_err());
    let (s, notes) = KernelSpec::from_pairs([("km", "16384"), ("kn", "16384"), ("kk", "16384")]);
    assert_eq!((s.m, s.n, s.k), (512, 512, 512));
    assert_eq!(notes.len(), 1);
    let small = spec(Kernel::Gemm, 512, 512, 512, "bf16").estimate_seconds();
    let large = spec(Kernel::Gemm, 2048, 2048, 1024, "bf16").estimate_seconds();
    assert!(large > 10.0 * small, "{small} {large}");
}

#[test]
fn stream_kernels_touch_every_element() {
    let mut a = alloc::vec![1.0f32; 1024];
    let b = alloc::vec![2.0f32; 1024];
    let c = alloc::vec![3.0f32; 1024];
    assert_eq!(stream::Stream::Read.run(&mut a, &b, &c, 0.5), 1024.0);
    assert_eq!(stream::Stream::Triad.run(&mut a, &b, &c, 0.5), 3.5);
    assert_eq!(stream::Stream::Copy.run(&mut a, &b, &c, 0.5), 2.0);
    assert_eq!(stream::Stream::Write.run(&mut a, &b, &c, 0.5), 0.5);
}
