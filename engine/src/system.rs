//! Deployable systems: a chip, its scale-up fabric, and the scale-out network that joins
//! several of them, every figure with its source.
//!
//! Bandwidths are per direction. AWS and NVIDIA quote bidirectional per-chip totals; the
//! notes say how each per-link figure was derived from them.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use crate::catalog::{GCP_V6E, MLE_ACC, NV_GB200, NV_GB300, N_T1, N_T3};
use crate::citations::AWSOME_NCCL;
use crate::source::{Citation, Sourced};
use crate::topology::{Fabric, Metrics, TopologyError};
use crate::units::{BytesPerSec, Seconds};

mod edit;
mod more;

pub use edit::{SystemEdit, SystemEditError, PREFIX as EDIT_PREFIX};

/// AWS Neuron: EC2 Trn1 architecture.
pub static N_TRN1: Citation = Citation {
    key: "N-TRN1",
    title: "AWS Neuron docs: Amazon EC2 Trn1/Trn1n architecture (docs snapshot)",
    url: "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/arch/neuron-hardware/trn1-arch.html",
    date: "2026-08-21",
};
/// AWS Neuron: EC2 Trn2 architecture.
pub static N_TRN2: Citation = Citation {
    key: "N-TRN2",
    title: "AWS Neuron docs: Amazon EC2 Trn2 architecture (docs snapshot)",
    url: "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/arch/neuron-hardware/trn2-arch.html",
    date: "2026-08-21",
};
/// AWS Neuron: EC2 Trn3 architecture.
pub static N_TRN3: Citation = Citation {
    key: "N-TRN3",
    title: "AWS Neuron docs: Amazon EC2 Trn3 architecture (docs snapshot)",
    url: "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/arch/neuron-hardware/trn3-arch.html",
    date: "2026-08-21",
};
/// AWS Neuron: intra-node collectives.
pub static N_INTRA: Citation = Citation {
    key: "N-INTRA",
    title: "AWS Neuron runtime: intra-node collective communication (docs snapshot)",
    url: "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/neuron-runtime/explore/intranode-collective-comm.html",
    date: "2026-08-21",
};
/// AWS Neuron: inter-node collectives.
pub static N_INTER: Citation = Citation {
    key: "N-INTER",
    title: "AWS Neuron runtime: inter-node collective communication (docs snapshot)",
    url: "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/neuron-runtime/explore/internode-collective-comm.html",
    date: "2026-08-21",
};
/// AWS EC2 accelerated computing instance specifications.
pub static EC2_AC: Citation = Citation {
    key: "EC2-AC",
    title: "AWS EC2: accelerated computing instance specifications",
    url: "https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html",
    date: "2026-08-21",
};
/// ml-engineering: network chapter.
pub static MLE_NET: Citation = Citation {
    key: "MLE-NET",
    title: "Stas Bekman, ml-engineering: Network (repo snapshot 744d01e)",
    url: "https://github.com/stas00/ml-engineering/blob/master/network/README.md",
    date: "2026-08-22",
};
/// The measured 8-byte all-reduce floor on two p6-b200 instances.
pub static DSTACK_3961: Citation = Citation {
    key: "DSTACK-3961",
    title: "dstack PR #3961: NCCL all-reduce of 8 B on 2 × p6-b200 takes ~50–55 µs",
    url: "https://github.com/dstackai/dstack/pull/3961",
    date: "2026",
};
/// NVIDIA BCM NVLink chapter (NVL72 domain size).
pub static NV_BCM: Citation = Citation {
    key: "NV-BCM",
    title: "NVIDIA Base Command Manager / Mission Control: NVLink information",
    url: "https://docs.nvidia.com/base-command-manager/product-manuals/nvidia-mission-control/nvlinkinfo",
    date: "2025",
};
/// SemiAnalysis' Trainium2 article, a source of concepts and what-ifs.
pub static BRIEF_T2: Citation = Citation {
    key: "BRIEF-T2",
    title: "SemiAnalysis, Amazon's AI Self Sufficiency: Trainium2 Architecture & Networking",
    url: "https://newsletter.semianalysis.com/p/amazons-ai-self-sufficiency-trainium2-architecture-networking",
    date: "2024-12-03",
};

/// SemiAnalysis: AWS Trainium3 deep dive (rack layouts of Trn2 and Trn3 UltraServers).
pub static SA_T3: Citation = Citation {
    key: "SA-T3",
    title: "SemiAnalysis: AWS Trainium3 Deep Dive (third-party)",
    url: "https://newsletter.semianalysis.com/p/aws-trainium3-deep-dive-a-potential",
    date: "2025-12-04",
};
/// NVIDIA DGX SuperPOD reference architecture (DGX B300): four 8-GPU systems per rack.
pub static NV_POD: Citation = Citation {
    key: "NV-POD",
    title: "NVIDIA DGX SuperPOD reference architecture: DGX B300 with XDR (four systems per rack, about 56 kW)",
    url: "https://docs.nvidia.com/dgx-superpod/reference-architecture/scalable-infrastructure-b300-xdr/latest/dgx-superpod-architecture.html",
    date: "2026-08-21",
};

/// How much of the communication a platform hides behind compute. Trainium has dedicated
/// collective-communication cores (CC-cores) beside its compute engines, so collectives can
/// run asynchronously; NVIDIA's NCCL kernels share the SMs with the matmuls. Tensor-parallel
/// all-reduces sit between dependent matmuls, so little hides either way. Both values are
/// assumptions, bounded by the Trn1 GPT-3 calibration run: above about 20% the model
/// overshoots its 33.14% MFU by more than 20%.
fn overlap_of(chip: &str) -> Sourced<f64> {
    if chip.starts_with("trn") {
        Sourced::assumption(0.1).note(
            "CC-cores (6 on Trn1, 16 or 20 on Trn2/Trn3 per AWS) run collectives beside compute; the fraction hidden is an assumption bounded by the Trn1 GPT-3 calibration",
        )
    } else {
        Sourced::assumption(0.0).note(
            "collectives run as kernels on the same SMs (or cores) as the matmuls; none assumed hidden",
        )
    }
}

/// Chips per rack by system.
fn rack_of(id: &str) -> Sourced<u32> {
    match id {
        "trn2-16" | "trn2-ultra-64" | "trn2-ultra-256" => Sourced::estimate(32, &SA_T3)
            .note("two 16-chip servers per rack; an UltraServer spans two racks (third-party)"),
        "trn3-ultra-64" => Sourced::estimate(32, &SA_T3).note("Gen1: two air-cooled racks of 32 chips (third-party)"),
        "trn3-ultra-144" => Sourced::estimate(72, &SA_T3).note(
            "Gen2: two liquid-cooled racks of 18 four-chip trays (third-party; one press report says 144 per rack)",
        ),
        "gb200-nvl72" => Sourced::vendor(72, &NV_GB200).note("one NVL72 rack"),
        "gb300-nvl72" => Sourced::vendor(72, &NV_GB300).note("one NVL72 rack"),
        "vr-nvl72" => Sourced::estimate(72, &crate::catalog::NV_VR).note("one NVL72 rack (announced)"),
        "helios-72" => Sourced::estimate(72, &crate::catalog::AMD_MI455X).note("one Helios rack (announced)"),
        "tpu-v5p-512" | "tpu7x-512" => Sourced::assumption(64)
            .note("assumption: one 4×4×4 cube per rack, as Google built TPU v4"),
        "hgx-h100-8" | "hgx-h200-8" | "hgx-b200-8" | "hgx-b300-8" => Sourced::estimate(32, &NV_POD)
            .note("four 8-GPU systems per rack, as NVIDIA plans DGX SuperPOD racks"),
        _ => Sourced::assumption(32).note("no published rack layout found; 32 chips per rack assumed"),
    }
}

/// Every citation this module adds.
#[must_use]
pub fn citations() -> Vec<&'static Citation> {
    vec![
        &N_TRN1,
        &N_TRN2,
        &N_TRN3,
        &N_INTRA,
        &N_INTER,
        &EC2_AC,
        &MLE_NET,
        &DSTACK_3961,
        &NV_BCM,
        &SA_T3,
        &NV_POD,
        &BRIEF_T2,
    ]
}

/// The shape of the scale-up domain; bandwidths live in [`System::links`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case", tag = "kind"))]
pub enum Shape {
    /// A torus of these dimensions (one link figure per axis).
    Torus {
        /// Chips per axis.
        dims: Vec<u32>,
    },
    /// A non-blocking switch (one port figure).
    Switch {
        /// Chips on the switch.
        chips: u32,
        /// Whether the switch reduces in flight.
        in_network_reduction: bool,
    },
    /// Tiers of switches, innermost first: chips per server, servers per rack, racks joined
    /// by direct links (one port figure per tier).
    Tiered {
        /// Group size at each tier.
        tiers: Vec<u32>,
    },
}

/// Another published value for a figure, shown beside the one the model uses.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Alternative {
    /// Which figure: `scale-up per chip per direction`.
    pub what: &'static str,
    /// The other value, SI units, with its source.
    pub figure: Sourced<f64>,
    /// Unit of `figure.value`.
    pub unit: &'static str,
}

/// How AWS's NeuronLink figures are read. AWS quotes them per chip ("1,024 GB/s" inside a
/// Trn2 instance, "256 GB/s of bidirectional bandwidth" per group of four PCIe Gen6 x8 links
/// on Trn3) without always saying per direction or both; the presets read Trn2 and Trn3
/// alike, as labelled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum LinkReading {
    /// As AWS labels them: bidirectional, half of each figure per direction.
    #[default]
    AsLabelled,
    /// Per direction: each figure as given (for Trn3, what 64 GB/s per direction per PCIe
    /// Gen6 x8 link adds up to).
    PerDirection,
    /// What links of versions 1 to 3 were made with: Trn2 as labelled, Trn3 per direction.
    Legacy,
}

impl LinkReading {
    /// Every reading.
    pub const ALL: [LinkReading; 3] = [
        LinkReading::AsLabelled,
        LinkReading::PerDirection,
        LinkReading::Legacy,
    ];
    /// Id in links.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            LinkReading::AsLabelled => "labelled",
            LinkReading::PerDirection => "per-direction",
            LinkReading::Legacy => "legacy",
        }
    }
    /// The reading named `id`.
    #[must_use]
    pub fn parse(id: &str) -> Option<LinkReading> {
        Self::ALL.into_iter().find(|r| r.id() == id)
    }
    /// How many times the presets' per-direction figure a link of `chip` carries.
    fn factor(self, chip: &str) -> f64 {
        match (self, chip) {
            (LinkReading::PerDirection, _) | (LinkReading::Legacy, "trn3") => 2.0,
            _ => 1.0,
        }
    }
}

/// `sys` with its NeuronLink figures read as `reading`; other systems, and edited ones (whose
/// links are the user's), are returned as they are.
#[must_use]
pub fn read_as(mut sys: System, reading: LinkReading) -> System {
    if sys.edited || !matches!(sys.chip, "trn2" | "trn3") {
        return sys;
    }
    let f = reading.factor(sys.chip);
    if f != 1.0 {
        for l in &mut sys.links {
            l.value = BytesPerSec::new(l.value.get() * f);
            l.note = "AWS's figure read per direction: twice the preset, which reads it as labelled (bidirectional)";
        }
    }
    sys
}

/// The reading of a Trainium preset's link figures and the other one, each with its
/// arithmetic; `None` for other systems.
#[must_use]
pub fn reading(sys: &System) -> Option<(String, String)> {
    if sys.edited || !matches!(sys.chip, "trn2" | "trn3") {
        return None;
    }
    let list = |f: f64| {
        sys.links
            .iter()
            .map(|l| alloc::format!("{}", l.value.get() / 1e9 * f))
            .collect::<Vec<_>>()
            .join(" / ")
    };
    let figures = if sys.chip == "trn2" {
        "AWS's 1,024 GB/s per chip inside an instance (4 torus neighbours) and 256 GB/s between instances (2 Z neighbours)"
    } else {
        "AWS's 256, 320 and 128 GB/s \"of bidirectional bandwidth\" per group of 4, 5 and 2 PCIe Gen6 x8 links"
    };
    Some((
        alloc::format!(
            "{figures}, read as labelled (bidirectional): {} GB/s per direction per link group",
            list(1.0)
        ),
        alloc::format!(
            "read per direction (a PCIe Gen6 x8 link carries 64 GB/s each way): {} GB/s",
            list(2.0)
        ),
    ))
}

/// A deployable scale-up domain.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct System {
    /// Stable id: `trn2-ultra-64`.
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Catalog id of the chip.
    pub chip: &'static str,
    /// A concept from a published analysis (SemiAnalysis's Trainium2 article), not a product.
    pub concept: bool,
    /// Scale-up shape.
    pub shape: Shape,
    /// Per-direction bandwidth of one link per torus axis, or of one chip's switch port.
    #[cfg_attr(feature = "serde", serde(rename = "links_bytes_per_s"))]
    pub links: Vec<Sourced<BytesPerSec>>,
    /// Latency of one scale-up step (one hop, software included).
    #[cfg_attr(feature = "serde", serde(rename = "hop_latency_s"))]
    pub hop_latency: Sourced<Seconds>,
    /// Fraction of link bandwidth a bulk collective achieves.
    pub link_efficiency: Sourced<f64>,
    /// If the switch reduces: the bus bandwidth of a switch-reduced all-reduce as a fraction
    /// of a port's two directions (it holds as ranks are added; the algorithm's rate on n
    /// chips is that × n ÷ (2(n−1))).
    pub in_network_efficiency: Option<Sourced<f64>>,
    /// Scale-out bandwidth per chip, per direction.
    #[cfg_attr(feature = "serde", serde(rename = "scale_out_bytes_per_s"))]
    pub scale_out: Sourced<BytesPerSec>,
    /// Latency of one scale-out step; on NVIDIA systems, what EFA adds to each network step
    /// beyond NCCL's own latency constant.
    #[cfg_attr(feature = "serde", serde(rename = "scale_out_latency_s"))]
    pub scale_out_latency: Sourced<Seconds>,
    /// Fraction of scale-out bandwidth achieved.
    pub scale_out_efficiency: Sourced<f64>,
    /// Chips taken out of service together to repair one (a server or tray).
    pub service_unit: Sourced<u32>,
    /// Fraction of a training step's communication (tensor, expert and data parallel) hidden
    /// behind compute.
    pub overlap: Sourced<f64>,
    /// Chips per rack, for racks and power per rack.
    pub rack_chips: Sourced<u32>,
    /// Other published values of uncertain figures.
    pub alternatives: Vec<Alternative>,
    /// Rental price per chip-hour set on an edited system (presets take the chip's rates).
    pub usd_per_chip_hour: Option<Sourced<f64>>,
    /// All-in power per chip set on an edited system, W (presets take the chip's default).
    pub power_w: Option<Sourced<f64>>,
    /// True for a system the user edited (its id is then `edit`, its spec the link's).
    pub edited: bool,
}

/// A system id that is not a preset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSystem(pub String);

impl fmt::Display for UnknownSystem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(why) = self.0.strip_prefix(edit::PREFIX) {
            return f.write_str(why);
        }
        write!(
            f,
            "unknown system '{}' (valid: {}, or edit:BASE;… for an edited one)",
            self.0,
            ids().join(", ")
        )
    }
}

impl core::error::Error for UnknownSystem {}

impl System {
    /// The scale-up fabric with the nominal link bandwidths.
    #[must_use]
    pub fn fabric(&self) -> Fabric {
        match &self.shape {
            Shape::Torus { dims } => Fabric::Torus {
                dims: dims.clone(),
                links: self.links.iter().map(|l| l.value).collect(),
            },
            Shape::Tiered { tiers } => Fabric::Tiered {
                tiers: tiers.clone(),
                ports: self.links.iter().map(|l| l.value).collect(),
            },
            Shape::Switch {
                chips,
                in_network_reduction,
            } => Fabric::Switch {
                chips: *chips,
                port: self.links[0].value,
                in_network_reduction: *in_network_reduction,
            },
        }
    }

    /// Chips in one scale-up domain.
    #[must_use]
    pub fn chips(&self) -> u32 {
        // As [`Fabric::chips`] counts them, without building the fabric (a layout search
        // asks this for every candidate).
        match &self.shape {
            Shape::Torus { dims } => dims.iter().product(),
            Shape::Tiered { tiers } => tiers.iter().product(),
            Shape::Switch { chips, .. } => *chips,
        }
    }

    /// Graph figures of the scale-up fabric, with the blast radius widened to the service unit.
    ///
    /// # Errors
    /// When the fabric is invalid (a preset never is).
    pub fn metrics(&self) -> Result<Metrics, TopologyError> {
        let mut m = self.fabric().metrics()?;
        m.blast_radius = m.blast_radius.max(self.service_unit.value);
        Ok(m)
    }
}

/// Preset ids in order.
#[must_use]
pub fn ids() -> Vec<&'static str> {
    presets().iter().map(|s| s.id).collect()
}

/// The system with this id.
///
/// # Errors
/// [`UnknownSystem`] listing the valid ids.
pub fn find(id: &str) -> Result<System, UnknownSystem> {
    if id.starts_with(edit::PREFIX) {
        return SystemEdit::parse(id)
            .and_then(|e| e.apply())
            .map_err(|e| UnknownSystem(alloc::format!("{}{e}", edit::PREFIX)));
    }
    find_preset(id)
}

/// The preset with this id (no edits).
///
/// # Errors
/// [`UnknownSystem`] listing the valid ids.
pub fn find_preset(id: &str) -> Result<System, UnknownSystem> {
    presets()
        .into_iter()
        .find(|s| s.id == id)
        .ok_or_else(|| UnknownSystem(id.into()))
}

const GB: f64 = 1e9;
const US: f64 = 1e-6;

fn gbs(v: f64, c: &'static Citation) -> Sourced<BytesPerSec> {
    Sourced::vendor(BytesPerSec::new(v * GB), c)
}
fn gbit(v: f64, c: &'static Citation) -> Sourced<BytesPerSec> {
    Sourced::vendor(BytesPerSec::new(v * GB / 8.0), c)
}

/// NeuronLink step latency: the Neuron runtime docs give ~1–2 µs per hop.
fn neuronlink_hop() -> Sourced<Seconds> {
    Sourced::estimate(Seconds::new(1.5 * US), &N_INTRA)
        .note("AWS: ~1–2 µs per hop, depending on HBM load; midpoint")
}
/// NVLink step latency for the algorithms NCCL does not run (NCCL's own are in
/// `collective::nccl`): an assumption.
fn nvlink_hop() -> Sourced<Seconds> {
    Sourced::estimate(Seconds::new(2.0 * US), &DSTACK_3961)
        .note("assumption: one step over NVLink for what-if algorithms; NCCL's rings and trees use its own tuning latencies")
}
/// EFA step latency for Trainium's collectives, as the Neuron runtime docs give it.
fn efa_hop() -> Sourced<Seconds> {
    Sourced::estimate(Seconds::new(15.0 * US), &N_INTER)
        .note("AWS Neuron: ~15 µs per inter-node hop, software included")
}
/// EFA's latency per network step beyond NCCL's InfiniBand constant, per EFA generation,
/// each fitted to one point: p6-b200's (EFA v4) to the 8 B all-reduce on 2 × p6-b200
/// (~52.5 µs); p5's (EFA v2, 32 × 100G) to the 1 MiB all-reduce on 2 × p5.48xlarge
/// (123.2 µs), whose other sizes check it (tuned against).
fn efa_nccl_extra(p5: bool) -> Sourced<Seconds> {
    if p5 {
        Sourced::estimate(Seconds::new(42.1 * US), &AWSOME_NCCL).note(
            "fitted: NCCL's ring/LL latency over 2 nodes (6.6 + 28 × 0.6 + 2 × 2.7 µs) plus 2 × this and the bytes = 123.2 µs, the measured 1 MiB all-reduce on 2 × p5.48xlarge (EFA v2)",
        )
    } else {
        Sourced::estimate(Seconds::new(13.65 * US), &DSTACK_3961).note(
            "fitted: NCCL's tree/LL latency 6.8 + 2·(7 × 0.6 + 5.0) µs plus 2 × this = 52.5 µs, the measured 8 B all-reduce on 2 × p6-b200 (EFA v4); assumed for EFA v3 too",
        )
    }
}
/// Bulk NVLink efficiency of NCCL's rings, per NVLink generation, each fitted to one
/// nccl-tests ring all-reduce at 8 GiB (NVLS off).
fn nvlink_eff(nvlink5: bool) -> Sourced<f64> {
    if nvlink5 {
        Sourced::estimate(682.2 / 900.0, &MLE_NET).note(
            "fitted: ring all-reduce busbw 682.2 GB/s on 8 × B200 (p6-b200, NVLS off, 8 GiB); NVL72's 680 checks it (tuned against: an input when the efficiency was first set)",
        )
    } else {
        Sourced::estimate(365.6 / 450.0, &MLE_NET).note(
            "fitted: ring all-reduce busbw 365.6 GB/s on 8 × H200 (NVLS off, 8 GiB); 8 × H100's ~370 checks it (tuned against: an input when the efficiency was first set)",
        )
    }
}
/// NVLink SHARP (NVLS) all-reduce rate against the port, per NVLink generation, each
/// fitted to one nccl-tests NVLS all-reduce at 8 GiB.
fn nvls_eff(nvlink5: bool) -> Sourced<f64> {
    if nvlink5 {
        Sourced::estimate(0.4674, &MLE_NET).note(
            "fitted: NVLS busbw 838.0 GB/s on 8 × B200 (p6-b200, 8 GiB), of a port's 2 × 900 GB/s; NVL72's 839–850 check it (tuned against)",
        )
    } else {
        Sourced::estimate(0.5268, &MLE_NET).note(
            "fitted: NVLS busbw 473.1 GB/s on 8 × H200 (8 GiB), of a port's 2 × 450 GB/s; 8 × H100's ~480 and the size sweeps check it (tuned against)",
        )
    }
}
/// Point-to-point links without a measurement: the NVLink figure, as an assumption.
fn assumed_eff() -> Sourced<f64> {
    Sourced::estimate(0.80, &MLE_NET)
        .note("assumption: no collective measurement published; the NVLink figure is used")
}
/// Scale-out efficiency: ib_write_bw over one 200G EFA device reached 96.9%.
fn efa_eff() -> Sourced<f64> {
    Sourced::estimate(0.95, &MLE_NET)
        .note("p5en: 193.72 Gb/s of 200 on one EFA device (96.9%); 95% leaves room for collectives")
}

/// Every preset, in display order.
#[must_use]
pub fn presets() -> Vec<System> {
    let trn2_link = || {
        gbs(128.0, &N_TRN2).note("derived: 1,024 GB/s bidirectional per chip inside the instance = 4 neighbours × 128 GB/s × 2")
    };
    let trn2_z = || {
        gbs(64.0, &N_TRN2).note("derived: 256 GB/s bidirectional inter-instance per chip = 2 Z neighbours × 64 GB/s × 2")
    };
    let trn2_efa = || {
        gbit(200.0, &EC2_AC).note("trn2.48xlarge: 16 × 200 Gbps EFAv3 per 16 chips = 200 Gb/s per chip (SemiAnalysis's 800 Gb/s is contradicted)")
    };
    let semianalysis_800 = || Alternative {
        what: "scale-out per chip (SemiAnalysis's premise)",
        figure: Sourced::estimate(800.0 * GB / 8.0, &BRIEF_T2)
            .note("contradicted by AWS: 200 Gb/s per chip; a what-if"),
        unit: "B/s",
    };
    let mut v = vec![
        System {
            id: "trn1-16",
            name: "Trn1 (trn1.32xlarge, 16 chips)",
            chip: "trn1",
            concept: false,
            shape: Shape::Torus { dims: vec![4, 4] },
            links: vec![
                gbs(48.0, &N_T1).note("estimate: 384 GB/s per chip over 4 links, read as bidirectional = 48 GB/s per link per direction"),
                gbs(48.0, &N_T1).note("estimate: 384 GB/s per chip over 4 links, read as bidirectional = 48 GB/s per link per direction"),
            ],
            hop_latency: neuronlink_hop(),
            link_efficiency: assumed_eff(),
            in_network_efficiency: None,
            scale_out: gbit(50.0, &EC2_AC).note("trn1.32xlarge: 800 Gbps per 16 chips; trn1n: 1,600 Gbps"),
            scale_out_latency: efa_hop(),
            scale_out_efficiency: efa_eff(),
            service_unit: Sourced::vendor(16, &N_TRN1).note("one instance"),
            overlap: overlap_of("trn1"),
            rack_chips: rack_of("trn1-16"),
            usd_per_chip_hour: None,
            power_w: None,
            edited: false,
            alternatives: vec![
                Alternative {
                    what: "scale-up per link per direction (384 GB/s read as one direction)",
                    figure: Sourced::estimate(96.0 * GB, &N_T1),
                    unit: "B/s",
                },
                Alternative {
                    what: "scale-up per chip, trn1n.32xlarge row",
                    figure: Sourced::vendor(768.0 * GB, &N_TRN1).note("unexplained difference to trn1"),
                    unit: "B/s",
                },
            ],
        },
        System {
            id: "trn2-16",
            name: "Trn2 (trn2.48xlarge, 16 chips)",
            chip: "trn2",
            concept: false,
            shape: Shape::Torus { dims: vec![4, 4] },
            links: vec![trn2_link(), trn2_link()],
            hop_latency: neuronlink_hop(),
            link_efficiency: assumed_eff(),
            in_network_efficiency: None,
            scale_out: trn2_efa(),
            scale_out_latency: efa_hop(),
            scale_out_efficiency: efa_eff(),
            service_unit: Sourced::vendor(16, &N_TRN2).note("one instance"),
            overlap: overlap_of("trn2"),
            rack_chips: rack_of("trn2-16"),
            usd_per_chip_hour: None,
            power_w: None,
            edited: false,
            alternatives: vec![semianalysis_800()],
        },
        System {
            id: "trn2-ultra-64",
            name: "Trn2 UltraServer (64 chips)",
            chip: "trn2",
            concept: false,
            shape: Shape::Torus { dims: vec![4, 4, 4] },
            links: vec![trn2_link(), trn2_link(), trn2_z()],
            hop_latency: neuronlink_hop(),
            link_efficiency: assumed_eff(),
            in_network_efficiency: None,
            scale_out: trn2_efa(),
            scale_out_latency: efa_hop(),
            scale_out_efficiency: efa_eff(),
            service_unit: Sourced::vendor(16, &N_TRN2).note("one trn2u.48xlarge of the four"),
            overlap: overlap_of("trn2"),
            rack_chips: rack_of("trn2-ultra-64"),
            usd_per_chip_hour: None,
            power_w: None,
            edited: false,
            alternatives: vec![],
        },
        System {
            id: "trn2-ultra-256",
            name: "Trn2-Ultra 4×4×16 (concept)",
            chip: "trn2",
            concept: true,
            shape: Shape::Torus { dims: vec![4, 4, 16] },
            links: vec![trn2_link(), trn2_link(), trn2_z().note("concept: SemiAnalysis's long axis at the Z-link speed")],
            hop_latency: neuronlink_hop(),
            link_efficiency: assumed_eff(),
            in_network_efficiency: None,
            scale_out: trn2_efa(),
            scale_out_latency: efa_hop(),
            scale_out_efficiency: efa_eff(),
            service_unit: Sourced::estimate(16, &BRIEF_T2).note("concept: 16 physical servers of 16 chips"),
            overlap: overlap_of("trn2"),
            rack_chips: rack_of("trn2-ultra-256"),
            usd_per_chip_hour: None,
            power_w: None,
            edited: false,
            alternatives: vec![],
        },
        trn3(64, "Trn3 Gen1 UltraServer (64 chips)", 16, "4 servers × 16 chips"),
        trn3(144, "Trn3 Gen2 UltraServer (144 chips)", 4, "36 servers × 4 chips"),
        hgx("hgx-h100-8", "HGX H100 (p5.48xlarge, 8 GPUs)", "h100-sxm", 450.0, 400.0),
        hgx("hgx-h200-8", "HGX H200 (p5en.48xlarge, 8 GPUs)", "h200", 450.0, 400.0),
        hgx("hgx-b200-8", "HGX B200 (p6-b200.48xlarge, 8 GPUs)", "b200", 900.0, 400.0),
        System {
            scale_out: gbit(400.0, &MLE_NET).note("DGX GB200: 4 × ConnectX-7 400G per 4-GPU tray"),
            alternatives: vec![Alternative {
                what: "scale-out per GPU on AWS p6e-gb200",
                figure: Sourced::vendor(800.0 * GB / 8.0, &EC2_AC).note("3,200 Gbps per 4 GPUs"),
                unit: "B/s",
            }],
            ..nvl72("gb200-nvl72", "GB200 NVL72", "gb200", &NV_GB200)
        },
        System {
            scale_out: gbit(800.0, &NV_GB300).note("ConnectX-8, 800 Gb/s per GPU"),
            ..nvl72("gb300-nvl72", "GB300 NVL72", "gb300", &NV_GB300)
        },
        System {
            id: "tpu-v6e-256",
            name: "TPU v6e pod (256 chips)",
            chip: "tpu-v6e",
            concept: false,
            shape: Shape::Torus { dims: vec![16, 16] },
            links: vec![
                gbs(100.0, &GCP_V6E).note("derived: 800 GB/s bidirectional ICI per chip over 4 ports = 100 GB/s per link per direction"),
                gbs(100.0, &GCP_V6E).note("derived: 800 GB/s bidirectional ICI per chip over 4 ports = 100 GB/s per link per direction"),
            ],
            hop_latency: Sourced::estimate(Seconds::new(1.0 * US), &GCP_V6E).note("assumption: no ICI latency published"),
            link_efficiency: assumed_eff(),
            in_network_efficiency: None,
            scale_out: Sourced::estimate(BytesPerSec::new(100.0 * GB / 8.0), &GCP_V6E)
                .note("assumption: v6e DCN bandwidth not read; v5p's page gives 50 Gb/s per chip"),
            scale_out_latency: Sourced::estimate(Seconds::new(22.0 * US), &GCP_V6E).note("assumption: the EFA figure"),
            scale_out_efficiency: efa_eff(),
            service_unit: Sourced::estimate(8, &GCP_V6E).note("one 8-chip host"),
            overlap: overlap_of("tpu-v6e"),
            rack_chips: rack_of("tpu-v6e-256"),
            usd_per_chip_hour: None,
            power_w: None,
            edited: false,
            alternatives: vec![],
        },
    ];
    v.extend(more::presets());
    v
}

/// A Trn3 UltraServer as AWS's Trn3 instance page itemises its links: 4 PCIe Gen6 x8 to the
/// server's switch ("256 GB/s of bidirectional bandwidth"), 5 to the rack's switch (320), 2
/// direct to the same position in the other rack (128). They are read as AWS labels them,
/// bidirectional, as Trn2's 1,024 GB/s is: half of each per direction. The other reading,
/// per direction (4 × x8 Gen6 at 64 GB/s per direction is 256), is [`reading`]'s alternative.
/// AWS's totals (2.56 TB/s on the chip page, 2,048 GiB/s on the instance page) stay
/// alternatives too.
fn trn3(chips: u32, name: &'static str, unit: u32, unit_note: &'static str) -> System {
    let gen2 = chips == 144;
    let (tiers, links) = if gen2 {
        (
            vec![4, 18, 2],
            vec![
                gbs(128.0, &N_TRN3).note("derived: 4 × PCIe Gen6 x8 to the intra-server switch, AWS's 256 GB/s bidirectional ÷ 2"),
                gbs(160.0, &N_TRN3).note("derived: 5 × PCIe Gen6 x8 to the inter-server switch of the rack, AWS's 320 GB/s bidirectional ÷ 2"),
                gbs(64.0, &N_TRN3).note("derived: 2 × PCIe Gen6 x8 direct to the same position in the other rack, AWS's 128 GB/s bidirectional ÷ 2"),
            ],
        )
    } else {
        // Gen1: two racks of two 16-chip servers whose pair shares a NeuronSwitch (AWS's
        // diagram); the itemised links are given for Gen2, so the split is an estimate.
        (
            vec![32, 1, 2],
            vec![
                Sourced::estimate(BytesPerSec::new(288.0 * GB), &N_TRN3).note(
                    "estimate: the 9 switch links of a Gen2 chip ((256 + 320) GB/s bidirectional ÷ 2) into the switch two servers share",
                ),
                Sourced::estimate(BytesPerSec::new(288.0 * GB), &N_TRN3)
                    .note("estimate: the same switch (one pair of servers per rack)"),
                gbs(64.0, &N_TRN3).note("derived: 2 × PCIe Gen6 x8 direct to the other rack, AWS's 128 GB/s bidirectional ÷ 2 (Gen2 itemisation)"),
            ],
        )
    };
    let id = if gen2 {
        "trn3-ultra-144"
    } else {
        "trn3-ultra-64"
    };
    System {
        id,
        name,
        chip: "trn3",
        concept: false,
        shape: Shape::Tiered { tiers },
        links,
        hop_latency: neuronlink_hop(),
        link_efficiency: assumed_eff(),
        in_network_efficiency: None,
        scale_out: gbit(200.0, &N_TRN3).note("derived: 12,800 Gbps per 64 chips and 28,800 per 144"),
        scale_out_latency: efa_hop(),
        scale_out_efficiency: efa_eff(),
        service_unit: Sourced::vendor(unit, &N_TRN3).note(unit_note),
        overlap: overlap_of("trn3"),
        rack_chips: rack_of(id),
        usd_per_chip_hour: None,
        power_w: None,
        edited: false,
        alternatives: vec![
            Alternative {
                what: "scale-up per chip per direction: 2.56 TB/s NeuronLink-v4 (Trainium3 chip page) read as bidirectional",
                figure: Sourced::estimate(1280.0 * GB, &N_T3),
                unit: "B/s",
            },
            Alternative {
                what: "scale-up per chip per direction: 2,048 GiB/s (Trn3 instance page) halved",
                figure: Sourced::estimate(1024.0 * 1_073_741_824.0, &N_TRN3),
                unit: "B/s",
            },
            Alternative {
                what: "scale-up per chip per direction: the itemised links read per direction (the PCIe arithmetic)",
                figure: Sourced::estimate(704.0 * GB, &N_TRN3).note("256 + 320 + 128 GB/s; the default halves each, as labelled"),
                unit: "B/s",
            },
        ],
    }
}

/// An NVL72 rack: 72 GPUs on one NVLink 5 switch fabric with in-network reduction. The
/// scale-out and the alternatives are the caller's.
fn nvl72(id: &'static str, name: &'static str, chip: &'static str, c: &'static Citation) -> System {
    System {
        id,
        name,
        chip,
        concept: false,
        shape: Shape::Switch {
            chips: 72,
            in_network_reduction: true,
        },
        links: vec![gbs(900.0, c).note("NVLink 5: 1.8 TB/s bidirectional per GPU")],
        hop_latency: nvlink_hop(),
        link_efficiency: nvlink_eff(true),
        in_network_efficiency: Some(nvls_eff(true)),
        scale_out: gbit(400.0, c),
        scale_out_latency: efa_nccl_extra(false),
        scale_out_efficiency: efa_eff(),
        service_unit: Sourced::vendor(4, c)
            .note("a compute tray holds 2 Grace + 4 Blackwell GPUs; 18 trays per rack"),
        overlap: overlap_of(chip),
        rack_chips: rack_of(id),
        usd_per_chip_hour: None,
        power_w: None,
        edited: false,
        alternatives: vec![],
    }
}

fn hgx(
    id: &'static str,
    name: &'static str,
    chip: &'static str,
    nvlink: f64,
    nic_gbit: f64,
) -> System {
    let c = if chip == "b200" { &MLE_ACC } else { &MLE_NET };
    System {
        id,
        name,
        chip,
        concept: false,
        shape: Shape::Switch {
            chips: 8,
            in_network_reduction: true,
        },
        links: vec![gbs(nvlink, c).note(if nvlink > 500.0 {
            "NVLink 5: 18 links, 1.8 TB/s bidirectional per GPU"
        } else {
            "NVLink 4: 18 links, 900 GB/s bidirectional per GPU"
        })],
        hop_latency: nvlink_hop(),
        link_efficiency: nvlink_eff(nvlink > 500.0),
        in_network_efficiency: Some(nvls_eff(nvlink > 500.0)),
        scale_out: gbit(nic_gbit, &EC2_AC).note("3,200 Gbps EFA per 8 GPUs"),
        scale_out_latency: efa_nccl_extra(chip == "h100-sxm"),
        scale_out_efficiency: efa_eff(),
        service_unit: Sourced::vendor(8, &EC2_AC).note("one 8-GPU server"),
        overlap: overlap_of(chip),
        rack_chips: rack_of(id),
        usd_per_chip_hour: None,
        power_w: None,
        edited: false,
        alternatives: vec![],
    }
}

/// A system joined `nodes` times over its scale-out network.
#[derive(Clone, Debug, PartialEq)]
pub struct Cluster {
    /// The scale-up domain.
    pub system: System,
    /// How many of them.
    pub nodes: u32,
}

impl Cluster {
    /// All chips.
    #[must_use]
    pub fn chips(&self) -> u32 {
        // Saturates rather than wraps: a job refuses more than `job::MAX_CHIPS` anyway.
        self.system.chips().saturating_mul(self.nodes)
    }
}

#[cfg(test)]
mod tests;
