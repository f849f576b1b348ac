//! Tests of the system presets and their fabrics.
use super::*;
use alloc::string::ToString;

#[test]
fn trn3_follows_the_itemised_links_and_crossing_racks_costs() {
    // AWS's Trn3 instance page: per chip 4 × Gen6 x8 in the server ("256 GB/s of
    // bidirectional bandwidth"), 5 to the rack switch (320), 2 direct between racks (128);
    // 36 servers of 4 chips. Read as labelled: half of each per direction.
    let t = find("trn3-ultra-144").unwrap();
    assert_eq!(t.chips(), 144);
    let m = t.metrics().unwrap();
    assert_eq!(m.diameter, 2);
    assert!((m.injection.get() - 352e9).abs() < 1e6);
    assert!((m.bisection.get() - 72.0 * 64e9).abs() < 1e6);
    // The other reading, per direction, doubles every link.
    let (used, other) = reading(&t).unwrap();
    let per = read_as(t.clone(), LinkReading::PerDirection);
    assert!((per.metrics().unwrap().injection.get() - 704e9).abs() < 1e6);
    assert!(used.contains("128 / 160 / 64") && other.contains("256 / 320 / 128"));
    // AWS's 2.56 TB/s total stays an alternative, not the default.
    assert!(t
        .alternatives
        .iter()
        .any(|a| (a.figure.value - 1280e9).abs() < 1.0));
    // What crossing the racks costs an all-to-all is tested with the collectives.
}

#[test]
fn trainium2_and_trainium3_figures_are_read_alike() {
    // Trn2's 1,024 GB/s per chip over 4 neighbours, bidirectional: 128 per direction per
    // link, as Trn3's 256 GB/s over 4 links is 128 per direction per group.
    for id in [
        "trn2-16",
        "trn2-ultra-64",
        "trn3-ultra-64",
        "trn3-ultra-144",
    ] {
        let s = find(id).unwrap();
        let (used, other) = reading(&s).unwrap_or_else(|| panic!("{id} has no reading"));
        assert!(used.contains("bidirectional") && other.contains("per direction"));
        let per = read_as(s.clone(), LinkReading::PerDirection);
        for (a, b) in s.links.iter().zip(&per.links) {
            assert!((b.value.get() / a.value.get() - 2.0).abs() < 1e-9, "{id}");
        }
        // Links of versions 1 to 3: Trn3 per direction, Trn2 as labelled.
        let old = read_as(s.clone(), LinkReading::Legacy);
        let f = if s.chip == "trn3" { 2.0 } else { 1.0 };
        assert!((old.links[0].value.get() / s.links[0].value.get() - f).abs() < 1e-9);
    }
    assert!((find("trn2-16").unwrap().links[0].value.get() - 128e9).abs() < 1.0);
    let h = find("hgx-h100-8").unwrap();
    assert!(reading(&h).is_none());
    assert_eq!(read_as(h.clone(), LinkReading::PerDirection), h);
}

#[test]
fn every_preset_is_valid_and_sourced() {
    let chips = crate::catalog::ids();
    for s in presets() {
        s.metrics().unwrap();
        assert_eq!(s.chips(), s.fabric().chips(), "{}", s.id);
        assert!(chips.contains(&s.chip), "{}: chip {}", s.id, s.chip);
        let want = match &s.shape {
            Shape::Torus { dims } => dims.len(),
            Shape::Tiered { tiers } => tiers.len(),
            Shape::Switch { .. } => 1,
        };
        assert_eq!(s.links.len(), want, "{}", s.id);
        assert_eq!(
            s.in_network_efficiency.is_some(),
            matches!(
                s.shape,
                Shape::Switch {
                    in_network_reduction: true,
                    ..
                }
            ),
            "{}",
            s.id
        );
    }
    let ids = ids();
    let mut dedup = ids.clone();
    dedup.dedup();
    assert_eq!(ids, dedup);
    assert!(find("nope").unwrap_err().to_string().contains("trn2-16"));
}

#[test]
fn published_per_chip_totals_are_reproduced() {
    // AWS Neuron Trn2: 1,024 GB/s intra-instance, 1.28 TB/s total per chip (bidirectional).
    let t = find("trn2-16").unwrap().metrics().unwrap();
    assert_eq!(t.injection.get() * 2.0, 1024e9);
    let u = find("trn2-ultra-64").unwrap().metrics().unwrap();
    assert_eq!(u.injection.get() * 2.0, 1280e9);
    // NVIDIA: NVL72 has 130 TB/s of NVLink bandwidth per rack ≈ 72 × 1.8 TB/s.
    let n = find("gb200-nvl72").unwrap().metrics().unwrap();
    assert!((n.injection.get() * 2.0 * 72.0 / 130e12 - 1.0).abs() < 0.01);
    // Blast radius: a torus loses the whole domain, NVL72 a 4-GPU tray.
    assert_eq!(u.blast_radius, 64);
    assert_eq!(n.blast_radius, 4);
    assert_eq!(
        find("trn3-ultra-144")
            .unwrap()
            .metrics()
            .unwrap()
            .blast_radius,
        4
    );
}
