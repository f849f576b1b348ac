//! The kernel tables read whole, stand where physics lets them, and interpolate through
//! their own points.

use super::*;
use crate::catalog;

#[test]
fn every_committed_table_reads_and_is_listed() {
    // Each file under engine/data/kernels is in `TEXTS` and reads.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/kernels");
    let on_disk = std::fs::read_dir(dir).unwrap().count();
    assert_eq!(
        on_disk, FILES,
        "a table on disk is not listed, or one listed is gone"
    );
    for (name, text) in TEXTS {
        let t = parse(text).unwrap_or_else(|e| panic!("{e}: {}", &text[..80]));
        assert!(catalog::find(&t.chip).is_ok(), "{}: no such chip", t.chip);
        assert!(t.url.starts_with("https://github.com/") && t.url.contains("/blob/"));
        assert!(!t.license.is_empty() && !t.source.is_empty());
        assert!(t.points.len() >= 4, "{} {} {}", t.chip, t.op.id(), t.format);
        // The file's name says what it holds (and, for a grouped-expert table measured on
        // other experts than the first one's, whose), so a lookup by name finds it.
        let base = alloc::format!("{}_{}_{}", t.chip, t.op.id(), t.format);
        match name.strip_prefix(base.as_str()) {
            Some("") => assert_eq!(find(&t.chip, t.op, &t.format).as_deref(), Some(&t)),
            Some(shape) => {
                assert_eq!(t.op, KernelOp::GroupedGemm, "{name}");
                let p = t.points[0];
                let want = alloc::format!(
                    "_{}x{}e{}k{}",
                    p[1],
                    p[2],
                    t.fixed("experts").unwrap(),
                    t.fixed("topk").unwrap()
                );
                assert_eq!(shape, want, "{name}");
            }
            None => panic!("{name} is not named {base}…"),
        }
        assert!(find_all(&t.chip, t.op, &t.format).iter().any(|f| **f == t));
    }
    assert_eq!(tables().len(), FILES);
}

#[test]
fn the_tables_cover_every_vendor_they_can() {
    // GEMM on H100, H200, B200 and AMD; grouped experts and attention on three chips or more;
    // FP4 on two or more.
    let all = tables();
    let has = |chip: &str, op: KernelOp| all.iter().any(|t| t.chip == chip && t.op == op);
    // NVIDIA, AMD, Google (Ironwood), and AWS (Trainium2, modelled: nothing measured is
    // published by shape).
    for chip in [
        "h100-sxm", "h200", "b200", "gb200", "mi355x", "mi300x", "tpu-v7", "trn2",
    ] {
        assert!(has(chip, KernelOp::Gemm), "{chip}");
    }
    assert!(all
        .iter()
        .filter(|t| t.kind == "modelled")
        .all(|t| t.chip.starts_with("trn")));
    for op in [
        KernelOp::GroupedGemm,
        KernelOp::AttentionDecode,
        KernelOp::AttentionPrefill,
    ] {
        let mut chips: Vec<&str> = all
            .iter()
            .filter(|t| t.op == op)
            .map(|t| t.chip.as_str())
            .collect();
        chips.dedup();
        assert!(chips.len() >= 3, "{}: {chips:?}", op.id());
    }
    let mut fp4: Vec<&str> = all
        .iter()
        .filter(|t| compute_dtype(&t.format) == Some(Dtype::Fp4))
        .map(|t| t.chip.as_str())
        .collect();
    fp4.sort_unstable();
    fp4.dedup();
    assert!(fp4.len() >= 2, "{fp4:?}");
}

#[test]
fn no_measured_gemm_beats_its_chips_roofline() {
    // Physics bounds every figure: a measured GEMM is never faster than the chip's dense peak
    // in its format allows, nor than reading its operands at the HBM bandwidth (a point that
    // is, is a mislabelled format or a mistyped figure). AMD's tables stand for their
    // architecture's pair and are held to the faster of the two.
    for t in tables().iter().filter(|t| t.op == KernelOp::Gemm) {
        let d = compute_dtype(&t.format).unwrap();
        let chip = catalog::find(&t.chip).unwrap();
        for p in &t.points {
            let floor = gemm_floor(&chip, d, p[0], p[1], p[2]).unwrap();
            assert!(
                p[3] >= floor * 0.98,
                "{} {} {:?}: {:.3e} s is under the roofline's {:.3e} s",
                t.chip,
                t.format,
                p,
                p[3],
                floor
            );
        }
    }
}

#[test]
fn a_gemm_is_its_measured_time_at_a_measured_point_and_between_its_neighbours_elsewhere() {
    let all = tables();
    let t = all
        .iter()
        .find(|t| t.chip == "h100-sxm" && t.op == KernelOp::Gemm && t.format == "fp8")
        .unwrap();
    for p in &t.points {
        let got = t.gemm_seconds(p[0], p[1], p[2]).unwrap();
        assert!((got / p[3] - 1.0).abs() < 1e-12, "{p:?}: {got}");
    }
    // Between two measured M on one shape: between their times.
    let at = |m: f64| t.gemm_seconds(m, 8192.0, 8192.0).unwrap();
    let mid = at(1024.0);
    assert!(at(512.0) < mid && mid < at(4096.0));
    // Past the last measured M the last point's rate holds: twice the tokens, twice the time.
    assert!((at(32_768.0) / at(16_384.0) - 2.0).abs() < 1e-12);
    // A shape between two measured weight sizes lies between their times.
    let between = t.gemm_seconds(4096.0, 8192.0, 12_288.0).unwrap();
    let (small, large) = (
        t.gemm_seconds(4096.0, 8192.0, 8192.0).unwrap(),
        t.gemm_seconds(4096.0, 16_384.0, 8192.0).unwrap(),
    );
    assert!(
        small < between && between < large,
        "{small} {between} {large}"
    );
    // The time `gemm_time` gives is never under the roofline's floor.
    let h100 = catalog::find("h100-sxm").unwrap();
    for (m, n, k) in [
        (1.0, 8192.0, 8192.0),
        (65_536.0, 65_536.0, 8192.0),
        (7.0, 100.0, 100.0),
    ] {
        let (got, _) = gemm_time(&h100, "fp8", m, n, k).unwrap();
        assert!(got >= gemm_floor(&h100, Dtype::Fp8, m, n, k).unwrap());
    }
    assert!(
        gemm_time(&h100, "nvfp4", 1.0, 1.0, 1.0).is_none(),
        "Hopper has no FP4 table"
    );
}

#[test]
fn a_table_that_does_not_read_says_why() {
    for (text, why) in [
        (
            "# kernel: gemm\n# dims: m,n,k\nm,n,k,seconds\n1,2,3,4\n",
            "no '# chip:' line",
        ),
        ("# kernel: conv\n", "unknown kernel 'conv'"),
        ("# kernel: gemm\n# dims: m,n\n", "are not three"),
        (
            "# kernel: gemm\n# dims: m,n,k\nm,n,k,seconds\n1,2,3,-4\n",
            "four positive numbers",
        ),
    ] {
        let e = parse(text).unwrap_err().to_string();
        assert!(e.contains(why), "{e}");
    }
}

/// The modelled table's rows with the simulator's time for each: the default schedule on one
/// core for its share of the columns.
fn simulated_trn2_rows(t: &KernelTable) -> Vec<[f64; 4]> {
    use crate::neuroncore::{matmul, simulate, Core};
    let core = Core::of("trn2").unwrap();
    let cores = f64::from(catalog::find("trn2").unwrap().cores.value);
    t.points
        .iter()
        .map(|p| {
            let spec = matmul::MatmulSpec::new(
                p[0] as u32,
                (p[1] / cores) as u32,
                p[2] as u32,
                Dtype::Bf16,
            );
            let run = simulate(&matmul::schedule(&core, &spec).unwrap());
            [p[0], p[1], p[2], run.seconds]
        })
        .collect()
}

#[test]
fn the_modelled_table_is_the_neuroncore_simulators_own() {
    // Trainium2's GEMM table is the simulator's output, written once here: when the
    // simulator changes, this fails until the file is rewritten with
    // ACCELSCOPE_WRITE_TABLES=1 cargo test -p engine --lib modelled_table.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/kernels/trn2_gemm_bf16.csv"
    );
    let t = find("trn2", KernelOp::Gemm, "bf16").unwrap();
    assert_eq!(t.kind, "modelled");
    let rows = simulated_trn2_rows(&t);
    if std::env::var_os("ACCELSCOPE_WRITE_TABLES").is_some() {
        let text = std::fs::read_to_string(path).unwrap();
        let head: Vec<&str> = text.lines().take_while(|l| !l.starts_with("m,")).collect();
        let mut out = head.join("\n") + "\nm,n,k,seconds\n";
        for r in &rows {
            out += &alloc::format!("{},{},{},{:?}\n", r[0], r[1], r[2], r[3]);
        }
        std::fs::write(path, out).unwrap();
        return;
    }
    for (p, r) in t.points.iter().zip(&rows) {
        assert!(
            (p[3] / r[3] - 1.0).abs() < 1e-9,
            "{p:?}: the simulator now gives {}",
            r[3]
        );
    }
}

#[test]
fn the_neuroncore_simulator_meets_the_nki_tutorials_trn1_matmul() {
    // AWS's NKI matrix-multiplication tutorial (aws-neuron/aws-neuron-sdk,
    // general/nki/tutorials/matrix_multiplication.rst at cca378474a50): its fully optimised
    // kernel multiplies [4096, 8192] by [8192, 8192] in BF16 on one Trn1 NeuronCore in
    // 6.97 ms (85.24% of the hardware's peak). The simulator's default schedule is an ideal
    // one: no slower than the hand-optimised kernel, and within 20% of it.
    use crate::neuroncore::{matmul, simulate, Core};
    let core = Core::of("trn1").unwrap();
    let spec = matmul::MatmulSpec::new(4096, 8192, 8192, Dtype::Bf16);
    let t = simulate(&matmul::schedule(&core, &spec).unwrap()).seconds;
    let r = t / 6.97e-3;
    assert!(
        (0.8..=1.0).contains(&r),
        "{:.3} ms: {r:.3} of the measured",
        t * 1e3
    );
}
