//! Systems added after the first catalog: AMD's 8-GPU Instinct platforms and the announced
//! Helios rack, HGX B300, the announced Vera Rubin NVL72, and 8×8×8 slices of the TPU v5p and
//! TPU7x pods.

use alloc::vec;
use alloc::vec::Vec;

use super::{
    assumed_eff, efa_eff, gbit, gbs, hgx, nvl72, overlap_of, rack_of, Alternative, Shape, System,
    EC2_AC, GB, US,
};
use crate::catalog::{AMD_MI300X, AMD_MI355X, AMD_MI455X, GCP_7X, GCP_V5P, NV_VR};
use crate::citations::RCCL_MI300X;
use crate::source::{Citation, Sourced};
use crate::units::{BytesPerSec, Seconds};

/// An 8-GPU Instinct board: every GPU joined to the other seven by its own Infinity Fabric
/// link, modelled as a switch whose port is the seven links together (a ring or a direct
/// exchange uses them all at once; one pair of GPUs gets one link).
fn instinct8(
    id: &'static str,
    name: &'static str,
    chip: &'static str,
    per_peer: f64,
    c: &'static Citation,
) -> System {
    System {
        id,
        name,
        chip,
        concept: false,
        shape: Shape::Switch {
            chips: 8,
            in_network_reduction: false,
        },
        links: vec![Sourced::estimate(BytesPerSec::new(7.0 * per_peer * GB), c).note(
            "derived: 7 Infinity Fabric links to the peers, each read as bidirectional (ml-engineering), so 7 × half the link rate per direction; one peer gets one link",
        )],
        hop_latency: Sourced::assumption(Seconds::new(2.0 * US))
            .note("assumption: one step for what-if algorithms; RCCL's rings use NCCL's tuning latencies"),
        link_efficiency: Sourced::estimate(315.69 / 448.0, &RCCL_MI300X).note(
            "fitted: rccl-tests ring all-reduce busbw 315.69 GB/s at 8 GiB on 8 × MI300X against 7 links × 64 GB/s; assumed for MI325X and MI355X",
        ),
        in_network_efficiency: None,
        scale_out: Sourced::assumption(BytesPerSec::new(400.0 * GB / 8.0))
            .note("assumption: one 400G NIC per GPU, as AMD's reference designs and most clouds build them"),
        scale_out_latency: Sourced::assumption(Seconds::new(0.0))
            .note("assumption: InfiniBand or RoCE, whose latency NCCL's constants already hold"),
        scale_out_efficiency: efa_eff(),
        service_unit: Sourced::vendor(8, c).note("one 8-GPU server"),
        overlap: overlap_of(chip),
        rack_chips: rack_of(id),
        usd_per_chip_hour: None,
        power_w: None,
        edited: false,
        alternatives: vec![],
    }
}

/// An 8×8×8 slice of a TPU pod: a 3D torus of 512 chips (wraparound through the pod's optical
/// switches), ICI split evenly over six links.
fn tpu_slice(
    id: &'static str,
    name: &'static str,
    chip: &'static str,
    dcn_gbit: f64,
    c: &'static Citation,
) -> System {
    let link = || {
        gbs(100.0, c).note(
            "derived: 1,200 GB/s bidirectional ICI per chip over 6 links = 100 GB/s per link per direction",
        )
    };
    System {
        id,
        name,
        chip,
        concept: false,
        shape: Shape::Torus {
            dims: vec![8, 8, 8],
        },
        links: vec![link(), link(), link()],
        hop_latency: Sourced::assumption(Seconds::new(1.0 * US))
            .note("assumption: no ICI latency published"),
        link_efficiency: assumed_eff(),
        in_network_efficiency: None,
        scale_out: gbit(dcn_gbit, c).note("data-centre network per chip, across slices"),
        scale_out_latency: Sourced::assumption(Seconds::new(15.0 * US))
            .note("assumption: the EFA figure"),
        scale_out_efficiency: efa_eff(),
        service_unit: Sourced::estimate(4, c).note("one 4-chip host"),
        overlap: overlap_of(chip),
        rack_chips: rack_of(id),
        usd_per_chip_hour: None,
        power_w: None,
        edited: false,
        alternatives: vec![],
    }
}

/// The added presets, in display order.
pub(super) fn presets() -> Vec<System> {
    vec![
        System {
            scale_out: gbit(800.0, &EC2_AC).note("p6-b300.48xlarge: 6,400 Gbps EFA per 8 GPUs"),
            ..hgx(
                "hgx-b300-8",
                "HGX B300 (p6-b300.48xlarge, 8 GPUs)",
                "b300",
                900.0,
                800.0,
            )
        },
        System {
            links: vec![Sourced::estimate(BytesPerSec::new(1_800.0 * GB), &NV_VR)
                .note("announced: NVLink 6, 3.6 TB/s bidirectional per GPU")],
            scale_out: Sourced::estimate(BytesPerSec::new(1_600.0 * GB / 8.0), &NV_VR)
                .note("announced: 2 × ConnectX-9 at 800 Gb/s per GPU"),
            alternatives: vec![Alternative {
                what: "NVLink per rack (earlier copies of the page)",
                figure: Sourced::estimate(216e12, &NV_VR).note("216 TB/s; 260 TB/s in the 2026-08 reading"),
                unit: "B/s",
            }],
            ..nvl72(
                "vr-nvl72",
                "Vera Rubin NVL72 (announced)",
                "rubin",
                &NV_VR,
            )
        },
        instinct8(
            "mi300x-8",
            "AMD Instinct MI300X platform (8 GPUs)",
            "mi300x",
            64.0,
            &AMD_MI300X,
        ),
        instinct8(
            "mi325x-8",
            "AMD Instinct MI325X platform (8 GPUs)",
            "mi325x",
            64.0,
            &AMD_MI300X,
        ),
        instinct8(
            "mi355x-8",
            "AMD Instinct MI355X platform (8 GPUs)",
            "mi355x",
            76.5,
            &AMD_MI355X,
        ),
        System {
            id: "helios-72",
            name: "AMD Helios rack, 72 × MI455X (announced)",
            chip: "mi455x",
            concept: false,
            shape: Shape::Switch {
                chips: 72,
                in_network_reduction: false,
            },
            links: vec![Sourced::estimate(BytesPerSec::new(1_800.0 * GB), &AMD_MI455X).note(
                "announced: 3.6 TB/s scale-up per GPU, read as bidirectional; UALink over Ethernet switches",
            )],
            hop_latency: Sourced::assumption(Seconds::new(2.0 * US))
                .note("assumption: no published figure"),
            link_efficiency: assumed_eff(),
            in_network_efficiency: None,
            scale_out: Sourced::estimate(BytesPerSec::new(2_400.0 * GB / 8.0), &AMD_MI455X)
                .note("announced: 3 × 800G Pensando Vulcano NICs per GPU (third-party reading)"),
            scale_out_latency: Sourced::assumption(Seconds::new(15.0 * US))
                .note("assumption: one network step"),
            scale_out_efficiency: efa_eff(),
            service_unit: Sourced::estimate(4, &AMD_MI455X).note("a 4-GPU tray"),
            overlap: overlap_of("mi455x"),
            rack_chips: rack_of("helios-72"),
            usd_per_chip_hour: None,
            power_w: None,
            edited: false,
            alternatives: vec![],
        },
        tpu_slice(
            "tpu-v5p-512",
            "TPU v5p slice 8×8×8 (512 chips)",
            "tpu-v5p",
            50.0,
            &GCP_V5P,
        ),
        tpu_slice(
            "tpu7x-512",
            "TPU7x (Ironwood) slice 8×8×8 (512 chips)",
            "tpu-v7",
            100.0,
            &GCP_7X,
        ),
    ]
}
