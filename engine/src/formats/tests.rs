use super::golden::*;
use super::*;
use alloc::string::ToString;

fn same(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || (a == b && a.is_sign_negative() == b.is_sign_negative())
}

const NARROW: [(Format, &[f64]); 5] = [
    (Format::E4m3, &E4M3_VALUES),
    (Format::E5m2, &E5M2_VALUES),
    (Format::E3m2, &E3M2_VALUES),
    (Format::E2m3, &E2M3_VALUES),
    (Format::E2m1, &E2M1_VALUES),
];

#[test]
fn every_code_point_decodes_as_the_spec_tables() {
    for (f, table) in NARROW {
        assert_eq!(table.len(), 1 << f.bits(), "{f}");
        for (code, &want) in table.iter().enumerate() {
            let got = f.decode(code as u32);
            assert!(same(got, want), "{f} code {code:#04x}: {got} != {want}");
        }
    }
}

#[test]
fn every_number_encodes_back_to_its_own_code() {
    for (f, table) in NARROW {
        for (code, &v) in table.iter().enumerate() {
            if v.is_nan() {
                continue;
            }
            let back = f.encode(v, Rounding::NearestEven, false);
            assert_eq!(back, code as u32, "{f} value {v}");
        }
    }
}

#[test]
fn ties_and_overflow_round_as_the_reference_does() {
    let cases: [(Format, &[(f32, u8)]); 5] = [
        (Format::E4m3, &E4M3_RNE),
        (Format::E5m2, &E5M2_RNE),
        (Format::E3m2, &E3M2_RNE),
        (Format::E2m3, &E2M3_RNE),
        (Format::E2m1, &E2M1_RNE),
    ];
    for (f, pairs) in cases {
        for &(x, want) in pairs {
            let got = f.encode(f64::from(x), Rounding::NearestEven, false);
            let (g, w) = (f.decode(got), f.decode(u32::from(want)));
            assert!(
                same(g, w),
                "{f} {x:e}: code {got:#04x} ({g}) != {want:#04x} ({w})"
            );
        }
    }
}

/// Extreme values as printed in the specs' tables (OCP FP8 v1.0 table 1, OCP MX v1.0
/// tables 2 and 3), typed in by hand rather than derived.
#[test]
fn extreme_values_match_the_specs() {
    let rows = [
        (Format::E4m3, 448.0, 0.015625, 0.001953125),
        (Format::E5m2, 57344.0, 6.103515625e-5, 1.52587890625e-5),
        (Format::E3m2, 28.0, 0.25, 0.0625),
        (Format::E2m3, 7.5, 1.0, 0.125),
        (Format::E2m1, 6.0, 1.0, 0.5),
        (Format::Fp16, 65504.0, 6.103515625e-5, 5.960464477539063e-8),
        (
            Format::Bf16,
            3.3895313892515355e38,
            1.1754943508222875e-38,
            9.183549615799121e-41,
        ),
    ];
    for (f, max, min_normal, min_sub) in rows {
        assert_eq!(f.max(), max, "{f} max");
        assert_eq!(f.min_normal(), min_normal, "{f} min normal");
        assert_eq!(f.min_positive(), min_sub, "{f} min subnormal");
    }
    assert_eq!(Format::E4m3.emax(), 8);
    assert_eq!(Format::E5m2.emax(), 15);
    assert_eq!(Format::E3m2.emax(), 4);
    assert_eq!(Format::E2m3.emax(), 2);
    assert_eq!(Format::E2m1.emax(), 2);
}

#[test]
fn overflow_follows_the_chosen_mode() {
    let rne = Rounding::NearestEven;
    // Saturating: clamp to the largest finite value, infinity included.
    assert_eq!(Format::E4m3.encode(1000.0, rne, true), 0x7e);
    assert_eq!(Format::E4m3.encode(f64::NEG_INFINITY, rne, true), 0xfe);
    assert_eq!(Format::E5m2.encode(f64::INFINITY, rne, true), 0x7b);
    // Non-saturating: E4M3 has no infinity, so NaN; E5M2 goes to infinity.
    assert_eq!(Format::E4m3.encode(480.0, rne, false), 0x7f);
    assert_eq!(
        Format::E4m3.encode(464.0, rne, false),
        0x7e,
        "a tie rounds to even 448"
    );
    assert_eq!(Format::E5m2.encode(1e6, rne, false), 0x7c);
    assert!(Format::E5m2.decode(0x7d).is_nan());
    // MX FP6/FP4 and INT8 have no specials and always saturate.
    assert_eq!(Format::E2m1.round(100.0, rne, false), 6.0);
    assert_eq!(Format::E2m1.round(-7.0, rne, false), -6.0);
    assert_eq!(Format::Int8.round(300.0, rne, false), 127.0);
    assert_eq!(Format::Int8.round(-2.5, rne, false), -2.0);
    assert_eq!(Format::E2m1.encode(f64::NAN, rne, false), 0);
}

/// bf16 and fp16 against the `half` crate: every code, and conversions of many f32 values.
#[test]
fn sixteen_bit_formats_agree_with_half() {
    for code in 0..=u16::MAX {
        let b = f64::from(half::bf16::from_bits(code).to_f32());
        let h = f64::from(half::f16::from_bits(code).to_f32());
        assert!(
            same(Format::Bf16.decode(u32::from(code)), b),
            "bf16 {code:#06x}"
        );
        assert!(
            same(Format::Fp16.decode(u32::from(code)), h),
            "fp16 {code:#06x}"
        );
    }
    let mut s = 1u64;
    for i in 0..200_000u64 {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let x = f32::from_bits((s >> 32) as u32);
        if x.is_nan() {
            continue;
        }
        let x64 = f64::from(x);
        let b = f64::from(half::bf16::from_f32(x).to_f32());
        let h = f64::from(half::f16::from_f32(x).to_f32());
        let rne = Rounding::NearestEven;
        assert!(
            same(Format::Bf16.round(x64, rne, false), b),
            "bf16 of {x:e} (#{i})"
        );
        assert!(
            same(Format::Fp16.round(x64, rne, false), h),
            "fp16 of {x:e} (#{i})"
        );
    }
}

#[test]
fn tf32_keeps_ten_mantissa_bits() {
    let rne = Rounding::NearestEven;
    assert_eq!(
        Format::Tf32.round(1.0 + 1.0 / 1024.0, rne, false),
        1.0 + 1.0 / 1024.0
    );
    assert_eq!(
        Format::Tf32.round(1.0 + 1.0 / 2048.0, rne, false),
        1.0,
        "tie to even"
    );
    assert_eq!(
        Format::Tf32.round(1.0 + 3.0 / 2048.0, rne, false),
        1.0 + 2.0 / 1024.0
    );
    assert_eq!(
        Format::Tf32.max(),
        f64::from(f32::MAX) - (2f64.powi(127 - 10) - 2f64.powi(127 - 23))
    );
}

#[test]
fn e8m0_scales_are_the_powers_of_two_of_the_spec() {
    for (code, &want) in E8M0_VALUES.iter().enumerate() {
        if code == 0xff {
            assert!(want.is_nan());
        } else {
            assert_eq!(pow2(code as i32 - 127), want, "E8M0 code {code}");
        }
    }
}

#[test]
fn stochastic_rounding_is_unbiased() {
    // 1.2 sits between FP4's 1.0 and 1.5: rounds up 40% of the time, so the mean is 1.2.
    let n = 100_000;
    let sum: f64 = (0..n)
        .map(|i| Format::E2m1.round(1.2, Rounding::Stochastic(scaled::draw(7, i)), true))
        .sum();
    let mean = sum / n as f64;
    assert!((mean - 1.2).abs() < 0.005, "{mean}");
    assert_eq!(Format::E2m1.round(1.2, Rounding::NearestEven, true), 1.0);
}

#[test]
fn mx_block_scale_is_the_spec_power_of_two_and_clips_the_top() {
    // amax 100: floor(log2 100) = 6, E2M1 emax = 2, so X = 2^4 = 16; 100/16 = 6.25 clips to 6.
    let mut x = [0.0f32; 32];
    x[0] = 100.0;
    x[1] = 8.0; // 8/16 = 0.5, exact
    x[2] = 20.0; // 1.25 ties to 1.0 (even), so 16
    let (q, st) = quantize(&x, 32, Format::E2m1, Scaling::MX, None, false);
    assert_eq!(&q[..3], &[96.0, 8.0, 16.0]);
    assert_eq!(st.clipped, 1);
    // Two blocks of 32 get their own scales.
    let y: alloc::vec::Vec<f32> = (0..64)
        .map(|i| if i < 32 { 0.01 } else { 1000.0 })
        .collect();
    let (q, _) = quantize(&y, 64, Format::E4m3, Scaling::MX, None, false);
    assert!((q[0] - 0.01).abs() < 0.01 * 0.07, "{}", q[0]);
    // 1000: X = 2^(9 - 8) = 2 and 500 is above E4M3's 448, so it clips to 896 (as the spec does).
    assert_eq!(q[40], 896.0);
}

#[test]
fn nvfp4_uses_an_e4m3_block_scale_under_a_tensor_scale() {
    // Tensor amax 2688 = 6 * 448, so the tensor scale is 1 and block scales are E4M3 values.
    let mut x = [0.0f32; 32];
    x[0] = 2688.0;
    x[16] = 3.0; // second block: amax 3, scale 0.5, so 3 is exactly 6 * 0.5
    x[17] = 0.7; // 1.4 rounds to 1.5 -> 0.75
    let (q, _) = quantize(&x, 32, Format::E2m1, Scaling::NV, None, false);
    assert_eq!(q[0], 2688.0);
    assert_eq!(q[16], 3.0);
    assert_eq!(q[17], 0.75);
}

#[test]
fn a_nan_in_a_block_makes_the_block_nan() {
    let mut x = [1.0f32; 64];
    x[3] = f32::NAN;
    let (q, st) = quantize(&x, 64, Format::E4m3, Scaling::MX, None, false);
    assert!(
        q[..32].iter().all(|v| v.is_nan()),
        "MX carries NaN in the scale"
    );
    assert_eq!(st.nan, 32, "the other block keeps its values");
    let (_, st) = quantize(&x, 64, Format::E2m1, Scaling::NV, None, false);
    assert_eq!(st.nan, 64, "NVFP4's tensor scale is NaN, so every block is");
}

#[test]
fn ids_round_trip() {
    for f in Format::ALL {
        assert_eq!(f.id().parse::<Format>(), Ok(f));
    }
    assert_eq!("E4M3".parse::<Format>(), Ok(Format::E4m3));
    assert!("fp7"
        .parse::<Format>()
        .unwrap_err()
        .to_string()
        .contains("fp8e4m3"));
}
