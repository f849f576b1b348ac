//! Published rental rates, each with its kind of price, its date, its region and its
//! source, and the price basis that puts platforms side by side: one kind of price from one
//! date, so that a comparison never sets a list price before a cut against one after it.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{
    AIINFRAMAP, DSTACK_4110, NEOCLOUD, N_TRN1PERF, SKYPILOT_AWS, USAGE_AI, USAGE_AI_CUT,
    VANTAGE_B300,
};
use crate::source::{Citation, Sourced};

/// Vantage's EC2 instance data as committed to a public repository on 2025-11-30.
pub static VANTAGE_2025_11: Citation = Citation {
    key: "VANTAGE-2025-11",
    title: "Vantage EC2 instances.json as downloaded into tsaol/aws-gpu (data/gpu_instances_raw.json, commit of 2025-11-30): on-demand and reserved rates of p5, p5en, p6-b200, p6-b300 and trn1; no Linux on-demand rate for trn2.48xlarge",
    url: "https://github.com/tsaol/aws-gpu/blob/2d0108c7bd261c8e40493fbd35135437bd6c9099/data/gpu_instances_raw.json",
    date: "2025-11-30",
};
/// SkyPilot's AWS catalog after the June 2025 cut.
pub static SKYPILOT_V8: Citation = Citation {
    key: "SKYPILOT-V8",
    title: "SkyPilot catalog v8, AWS vms.csv (commit 00148f2a; after the June 2025 cut, with p6-b300, so about November 2025): spot trn2.48xlarge $23.0631/h and p5.48xlarge $11.9912/h in use2-az3; trn2's on-demand field is empty",
    url: "https://github.com/skypilot-org/skypilot-catalog/blob/00148f2af3672e2229b4f7bf8157d5a3f36e3c35/catalogs/v8/aws/vms.csv",
    date: "2025-11",
};
/// AWS's Capacity Blocks for ML price table of late 2024.
pub static AWS_CAPACITY_BLOCKS: Citation = Citation {
    key: "AWS-CB-2024",
    title: "AWS: Amazon EC2 Capacity Blocks for ML pricing (rates valid until 1 January 2025): p5.48xlarge $39.33/h, 8 × H200 $43.26/h (us-east-2), trn1.32xlarge $15.49/h (Melbourne)",
    url: "https://aws.amazon.com/ec2/capacityblocks/pricing/",
    date: "2024-12",
};
/// Crusoe's list prices per GPU-hour, as transcribed into dstack's gpuhunt.
pub static CRUSOE_LIST: Citation = Citation {
    key: "CRUSOE-LIST",
    title: "dstackai/gpuhunt, providers/crusoe.py: Crusoe on-demand per GPU-hour (H100 SXM $3.90, transcribed 2026-02-26; H200 SXM $4.29, 2026-03-03)",
    url: "https://github.com/dstackai/gpuhunt/blob/main/src/gpuhunt/providers/crusoe.py",
    date: "2026-03-03",
};

/// AWS's Capacity Blocks for ML price table as a public scraper recorded it on 2026-03-01
/// (unchanged since its first snapshot of 2026-01-31).
pub static AWS_CB_2026_03: Citation = Citation {
    key: "AWS-CB-2026-03",
    title: "AWS: Amazon EC2 Capacity Blocks for ML pricing, as parsed from aws.amazon.com/ec2/capacityblocks/pricing/ into koyakimu/ec2-capacity-blocks-for-ml-pricing-json (data/pricing.json, snapshot of 2026-03-01, the same as those of 2026-01-31 and 2026-02-01): trn2.48xlarge $35.7608/h, trn1.32xlarge $9.532, p5.48xlarge $31.464, p5e $39.799, p5en $41.612, p6-b200 $74.88, p6-b300 $93.60, GB200 $10.582 per GPU; an unofficial scraper of the vendor's page",
    url: "https://github.com/koyakimu/ec2-capacity-blocks-for-ml-pricing-json/blob/ff99bc1afde0907a1af2efae5e21dc19624cf18b/data/pricing.json",
    date: "2026-03-01",
};
/// The same table after AWS's July 2026 update.
pub static AWS_CB_2026_07: Citation = Citation {
    key: "AWS-CB-2026-07",
    title: "AWS: Amazon EC2 Capacity Blocks for ML pricing, as parsed from aws.amazon.com/ec2/capacityblocks/pricing/ into koyakimu/ec2-capacity-blocks-for-ml-pricing-json (data/pricing.json, snapshot of 2026-07-22, after the update of July 2026): trn2.48xlarge $35.7608/h (us-east-2), trn1.32xlarge $9.532, p5.48xlarge $41.528 (US regions), p5e $47.76, p5en $54.92, p6-b200 $98.84, p6-b300 $112.32, u-p6e-gb200x72 $761.904; an unofficial scraper of the vendor's page",
    url: "https://github.com/koyakimu/ec2-capacity-blocks-for-ml-pricing-json/blob/b3a54aee92b6ef6b3c50ea6cacbcc03536675c7e/data/pricing.json",
    date: "2026-07-22",
};
/// Vantage's EC2 instance data as committed to a public repository on 2026-01-21.
pub static VANTAGE_2026_01: Citation = Citation {
    key: "VANTAGE-2026-01",
    title: "Vantage EC2 instance data as generated into tsaol/aws-gpu (data/p5_instances.js, p6-b200_instances.js, p6-b300_instances.js, trn1_instances.js; \"Last updated: 2026-01-21\"): on-demand p5.48xlarge $55.04/h, p6-b200 $113.9328, p6-b300 $142.416, trn1 $21.50",
    url: "https://github.com/tsaol/aws-gpu/blob/7412fd256c5eda04a70a17742a68e8e44824b2cb/data/p5_instances.js",
    date: "2026-01-21",
};
/// Google Cloud's TPU price list: Trillium (v6e) on demand.
pub static GOOGLE_TPU_PRICING: Citation = Citation {
    key: "GCP-TPU-2026",
    title: "Google Cloud: Cloud TPU pricing, Trillium (v6e) $2.70 per chip-hour on demand in us-east5 (1-year commitment $1.89, 3-year $1.22), as quoted from the page with access dates of 2026-08-01 and 2026-09-17; the same as the price announced at general availability in December 2024",
    url: "https://cloud.google.com/tpu/pricing",
    date: "2026-08-01",
};
/// A research note's survey of MI300X rates by provider.
pub static MI300X_PROVIDERS: Citation = Citation {
    key: "MI300X-PROVIDERS-2026",
    title: "Cliff Center: AMD inference economics (2026-05-18): MI300X at TensorWave $1.50, Vultr $1.85 per GPU-hour on demand, Oracle and Azure $6.00",
    url: "https://www.cliffcenter.com/research/amd-inference-economics",
    date: "2026-05-18",
};

/// Every citation this module adds.
#[must_use]
pub fn citations() -> Vec<&'static Citation> {
    alloc::vec![
        &VANTAGE_2025_11,
        &SKYPILOT_V8,
        &AWS_CAPACITY_BLOCKS,
        &CRUSOE_LIST,
        &AWS_CB_2026_03,
        &AWS_CB_2026_07,
        &VANTAGE_2026_01,
        &GOOGLE_TPU_PRICING,
        &MI300X_PROVIDERS
    ]
}

/// What kind of price a rate is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum PriceKind {
    /// A cloud's on-demand list price.
    OnDemand,
    /// A cloud's capacity reservation for a fixed window (AWS Capacity Blocks), as an
    /// effective hourly rate.
    CapacityBlock,
    /// A one-year commitment (reserved instance or savings plan), no upfront payment.
    Reserved1y,
    /// A three-year commitment, no upfront payment.
    Reserved3y,
    /// A spot price: one observation of a market that moves, in one zone.
    Spot,
    /// A smaller cloud's published list price per GPU-hour.
    NeocloudList,
    /// No published price: another chip's or instance's rate taken in its place.
    Assumed,
}

impl PriceKind {
    /// Every kind, in the order tables list them.
    pub const ALL: [PriceKind; 7] = [
        PriceKind::OnDemand,
        PriceKind::CapacityBlock,
        PriceKind::Reserved1y,
        PriceKind::Reserved3y,
        PriceKind::Spot,
        PriceKind::NeocloudList,
        PriceKind::Assumed,
    ];
    /// Id as links and the CLI write it.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            PriceKind::OnDemand => "on-demand",
            PriceKind::CapacityBlock => "capacity-block",
            PriceKind::Reserved1y => "reserved-1y",
            PriceKind::Reserved3y => "reserved-3y",
            PriceKind::Spot => "spot",
            PriceKind::NeocloudList => "neocloud-list",
            PriceKind::Assumed => "assumed",
        }
    }
    /// Words for a label.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            PriceKind::OnDemand => "on-demand",
            PriceKind::CapacityBlock => "capacity block",
            PriceKind::Reserved1y => "1-year commitment",
            PriceKind::Reserved3y => "3-year commitment",
            PriceKind::Spot => "spot",
            PriceKind::NeocloudList => "neocloud list",
            PriceKind::Assumed => "assumed",
        }
    }
    /// Whether a basis of this kind can be chosen for the user: a published price one can
    /// plan a run on. Spot moves by the hour and an assumption is no price at all.
    #[must_use]
    pub const fn plannable(self) -> bool {
        !matches!(self, PriceKind::Spot | PriceKind::Assumed)
    }
}

/// One kind of price on one date: the ground on which platforms are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Basis {
    /// The kind of price.
    pub kind: PriceKind,
    /// The date the prices held (ISO 8601, to the month or the day).
    pub as_of: &'static str,
}

impl Basis {
    /// `on-demand@2025-05`: the form links and the CLI use.
    #[must_use]
    pub fn id(self) -> String {
        format!("{}@{}", self.kind.id(), self.as_of)
    }
    /// The basis named by `id`, if some published rate stands on it.
    #[must_use]
    pub fn parse(id: &str) -> Option<Basis> {
        bases().into_iter().find(|b| b.id() == id)
    }
}

impl core::fmt::Display for Basis {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} prices as of {}", self.kind.label(), self.as_of)
    }
}

/// A published (or, flagged, assumed) rental rate.
#[derive(Clone, Debug, PartialEq)]
pub struct Rate {
    /// Catalog chip id.
    pub chip: &'static str,
    /// What is rented: an instance type, or a provider's GPU.
    pub instance: &'static str,
    /// Chips in one instance.
    pub chips: u32,
    /// $ per instance-hour.
    pub usd_per_instance_hour: f64,
    /// The kind of price.
    pub kind: PriceKind,
    /// The region or zone it was read for.
    pub region: &'static str,
    /// The date the price held (ISO 8601, to the month or the day).
    pub as_of: &'static str,
    /// Where it is published.
    pub source: &'static Citation,
    /// Whether the figure is an estimate (a proxy, or a date not stated).
    pub estimate: bool,
    /// What a reader should know: how the date is bounded, what stands in for what.
    pub note: &'static str,
}

impl Rate {
    /// $ per chip-hour.
    #[must_use]
    pub fn usd_per_chip_hour(&self) -> f64 {
        self.usd_per_instance_hour / f64::from(self.chips.max(1))
    }
    /// The basis it stands on.
    #[must_use]
    pub fn basis(&self) -> Basis {
        Basis {
            kind: self.kind,
            as_of: self.as_of,
        }
    }
    /// `AWS trn2.48xlarge on-demand, us-east-2, as of 2025-05 ($85.964/h ÷ 16)`.
    #[must_use]
    pub fn label(&self) -> String {
        let per = if self.chips > 1 {
            format!(
                " (${}/h ÷ {})",
                trim(self.usd_per_instance_hour),
                self.chips
            )
        } else {
            String::new()
        };
        format!(
            "{} {}, {}, as of {}{per}",
            self.instance,
            self.kind.label(),
            self.region,
            self.as_of
        )
    }
    /// The rate per chip-hour with its source, estimate flag and note.
    #[must_use]
    pub fn sourced(&self) -> Sourced<f64> {
        let s = if self.kind == PriceKind::Assumed {
            Sourced::assumption(self.usd_per_chip_hour())
        } else if self.estimate {
            Sourced::estimate(self.usd_per_chip_hour(), self.source)
        } else {
            Sourced::vendor(self.usd_per_chip_hour(), self.source)
        };
        if self.note.is_empty() {
            s
        } else {
            s.note(self.note)
        }
    }
}

fn trim(x: f64) -> String {
    let s = format!("{x:.4}");
    String::from(s.trim_end_matches('0').trim_end_matches('.'))
}

/// The Capacity Block tables of 2026: before AWS's July update (unchanged from January to
/// March) and after it.
const CB_MARCH: &str = "2026-03";
const CB_JULY: &str = "2026-07";
const CB_TRN_NOTE: &str =
    "a reservation's effective hourly rate; unchanged from January to at least July 2026";
const CB_MARCH_NOTE: &str =
    "a reservation's effective hourly rate, as in force from January to March 2026";
const CB_JULY_NOTE: &str = "a reservation's effective hourly rate after AWS's July 2026 update";

/// When SkyPilot's v7 snapshot held: after trn2's launch (3 December 2024), before the
/// June 2025 cut of p5 prices that it does not yet show.
const SKY_V7: &str = "2025-05";
const SKY_V7_NOTE: &str = "AWS's list price in a catalog snapshot bounded by what it holds: after trn2's launch in December 2024, before the June 2025 cut of p5 prices";

#[allow(clippy::too_many_arguments)]
const fn rate(
    chip: &'static str,
    instance: &'static str,
    chips: u32,
    usd: f64,
    kind: PriceKind,
    region: &'static str,
    as_of: &'static str,
    source: &'static Citation,
    estimate: bool,
    note: &'static str,
) -> Rate {
    Rate {
        chip,
        instance,
        chips,
        usd_per_instance_hour: usd,
        kind,
        region,
        as_of,
        source,
        estimate,
        note,
    }
}

use PriceKind::{Assumed, CapacityBlock, NeocloudList, OnDemand, Reserved1y, Reserved3y, Spot};

/// Every rate. A chip's rates keep their order here: links name a chip's rate by its index
/// among them (`wopt`), so new rates are added after a chip's old ones.
const TABLE: [Rate; 57] = [
    // Trainium (trn1.32xlarge, 16 chips).
    rate("trn1", "AWS trn1.32xlarge", 16, 21.50, OnDemand, "us-east-1", "2026-06-25", &USAGE_AI, false, ""),
    rate("trn1", "AWS trn1.32xlarge", 16, 8.197, Reserved3y, "us-east-1", "2026-08-21", &N_TRN1PERF, false, "the RI-effective rate AWS prices its own Trn1 tables at"),
    rate("trn1", "AWS trn1.32xlarge", 16, 21.50, OnDemand, "us-east-2", SKY_V7, &SKYPILOT_AWS, false, SKY_V7_NOTE),
    rate("trn1", "AWS trn1.32xlarge", 16, 21.50, OnDemand, "us-east-1", "2025-11-30", &VANTAGE_2025_11, false, ""),
    rate("trn1", "AWS trn1.32xlarge", 16, 13.22895, Reserved1y, "us-east-1", "2025-11-30", &VANTAGE_2025_11, false, "reserved instance, 1 year, standard, no upfront"),
    rate("trn1", "AWS trn1.32xlarge", 16, 8.19666, Reserved3y, "us-east-1", "2025-11-30", &VANTAGE_2025_11, false, "reserved instance, 3 years, standard, no upfront"),
    rate("trn1", "AWS trn1.32xlarge", 16, 15.49, CapacityBlock, "ap-southeast-4", "2024-12", &AWS_CAPACITY_BLOCKS, false, "Melbourne, the only region listed for trn1"),
    // H100 (p5.48xlarge, 8 GPUs).
    rate("h100-sxm", "AWS p5.48xlarge", 8, 55.04, OnDemand, "us-east-1", "2025-06", &USAGE_AI_CUT, false, "after AWS's June 2025 cut"),
    rate("h100-sxm", "AWS p5.48xlarge", 8, 98.32, OnDemand, "us-east-2", SKY_V7, &SKYPILOT_AWS, false, SKY_V7_NOTE),
    rate("h100-sxm", "tier-2 cloud H100", 1, 2.75, NeocloudList, "n/a", "2026-03", &NEOCLOUD, true, "a survey's range of $2.49–3.0 per GPU-hour"),
    rate("h100-sxm", "AWS p5.48xlarge", 8, 55.04, OnDemand, "us-east-2", "2025-11-30", &VANTAGE_2025_11, false, ""),
    rate("h100-sxm", "AWS p5.48xlarge", 8, 43.344, Reserved1y, "us-east-2", "2025-11-30", &VANTAGE_2025_11, false, "reserved instance, 1 year, convertible, no upfront"),
    rate("h100-sxm", "AWS p5.48xlarge", 8, 23.77728, Reserved3y, "us-east-2", "2025-11-30", &VANTAGE_2025_11, false, "reserved instance, 3 years, standard, no upfront"),
    rate("h100-sxm", "AWS p5.48xlarge", 8, 39.33, CapacityBlock, "us-east-1", "2024-12", &AWS_CAPACITY_BLOCKS, false, "effective hourly rate of a reservation; updated with supply and demand"),
    rate("h100-sxm", "AWS p5.48xlarge", 8, 11.9912, Spot, "us-east-2 (use2-az3)", "2025-11", &SKYPILOT_V8, false, "one observation in one zone"),
    rate("h100-sxm", "Crusoe H100 SXM", 1, 3.90, NeocloudList, "n/a", "2026-02-26", &CRUSOE_LIST, false, ""),
    // H200 (p5en.48xlarge, 8 GPUs).
    rate("h200", "AWS p5en.48xlarge", 8, 63.296, OnDemand, "us-east-2", "2026-08-06", &DSTACK_4110, false, ""),
    rate("h200", "AWS p5en.48xlarge", 8, 84.80, OnDemand, "us-east-2", SKY_V7, &SKYPILOT_AWS, false, SKY_V7_NOTE),
    rate("h200", "AWS p5en.48xlarge", 8, 63.296, OnDemand, "us-east-2", "2025-11-30", &VANTAGE_2025_11, false, ""),
    rate("h200", "AWS p5e.48xlarge", 8, 43.26, CapacityBlock, "us-east-2", "2024-12", &AWS_CAPACITY_BLOCKS, true, "the stored table lost the instance name of this 8 × H200 row; p5e is the probable one"),
    rate("h200", "Crusoe H200 SXM", 1, 4.29, NeocloudList, "n/a", "2026-03-03", &CRUSOE_LIST, false, ""),
    // B200, B300 (p6 instances, 8 GPUs).
    rate("b200", "AWS p6-b200.48xlarge", 8, 113.9328, OnDemand, "us-east-1", "2025-06", &USAGE_AI_CUT, true, "Vantage data, date not stated"),
    rate("b200", "AWS p6-b200.48xlarge", 8, 113.9328, OnDemand, "us-east-2", "2025-11-30", &VANTAGE_2025_11, false, ""),
    rate("b300", "AWS p6-b300.48xlarge", 8, 142.42, OnDemand, "us-west-2", "2026-08", &VANTAGE_B300, true, "Vantage data via a public write-up"),
    rate("b300", "AWS p6-b300.48xlarge", 8, 142.416, OnDemand, "us-west-2", "2025-11-30", &VANTAGE_2025_11, false, "us-west-2 is its only region"),
    // Trainium2 (trn2.48xlarge, 16 chips): on-demand only in the snapshot before June 2025.
    rate("trn2", "AWS trn2.48xlarge", 16, 85.964, OnDemand, "us-east-2", SKY_V7, &SKYPILOT_AWS, false, "AWS's list price in a catalog snapshot from before June 2025 (its p5 rate predates that month's cut); later catalogs (Vantage 2025-11-30, SkyPilot v8) carry no Linux on-demand rate for trn2, and in October 2026 AWS's price list showed trn2 only as Capacity Blocks"),
    rate("trn2", "AWS trn2.48xlarge", 16, 23.0631, Spot, "us-east-2 (use2-az3)", "2025-11", &SKYPILOT_V8, false, "one observation in one zone"),
    // No published price: the nearest rate stands in, flagged.
    rate("trn3", "no published price: trn2.48xlarge's rate per chip", 16, 85.964, Assumed, "n/a", SKY_V7, &SKYPILOT_AWS, true, "AWS sells Trn3 only as UltraServers and publishes no price; Trn2's on-demand rate per chip is assumed"),
    rate("gb200", "no published price: p6-b200's rate per GPU", 8, 113.9328, Assumed, "n/a", "2025-11-30", &VANTAGE_2025_11, true, "no p6e-gb200 price was found; the same Blackwell GPU's p6-b200 rate is assumed"),
    rate("gb300", "no published price: p6-b300's rate per GPU", 8, 142.416, Assumed, "n/a", "2025-11-30", &VANTAGE_2025_11, true, "no GB300 NVL72 rental price was found; the HGX B300 instance's rate per GPU is assumed"),
    rate("mi300x", "no primary price read: about $2 per GPU-hour at neoclouds", 1, 2.0, Assumed, "n/a", "2026", &AIINFRAMAP, true, "third-party surveys put MI300X at about $1.5–2 per GPU-hour at neoclouds and about $6 on Azure and OCI; no provider's own page was read"),
    rate("mi325x", "no primary price read: about $2.1 per GPU-hour at neoclouds", 1, 2.1, Assumed, "n/a", "2026", &AIINFRAMAP, true, "third-party surveys put MI325X at $2.0–2.25 per GPU-hour; no provider's own page was read"),
    // 2026: AWS's Capacity Block table before and after its July update (each chip's rates
    // after its older ones, as links index them).
    rate("trn2", "AWS trn2.48xlarge", 16, 35.7608, CapacityBlock, "us-east-2", CB_MARCH, &AWS_CB_2026_03, false, CB_TRN_NOTE),
    rate("trn2", "AWS trn2.48xlarge", 16, 35.7608, CapacityBlock, "us-east-2", CB_JULY, &AWS_CB_2026_07, false, CB_TRN_NOTE),
    rate("trn1", "AWS trn1.32xlarge", 16, 9.532, CapacityBlock, "us-east-1", CB_MARCH, &AWS_CB_2026_03, false, CB_TRN_NOTE),
    rate("trn1", "AWS trn1.32xlarge", 16, 9.532, CapacityBlock, "us-east-1", CB_JULY, &AWS_CB_2026_07, false, CB_TRN_NOTE),
    rate("h100-sxm", "AWS p5.48xlarge", 8, 31.464, CapacityBlock, "us-east-2", CB_MARCH, &AWS_CB_2026_03, false, CB_MARCH_NOTE),
    rate("h100-sxm", "AWS p5.48xlarge", 8, 41.528, CapacityBlock, "us-east-2", CB_JULY, &AWS_CB_2026_07, false, CB_JULY_NOTE),
    // p5en first: the H200 preset is the p5en.48xlarge, so a basis prices it at p5en's rate.
    rate("h200", "AWS p5en.48xlarge", 8, 41.612, CapacityBlock, "us-east-2", CB_MARCH, &AWS_CB_2026_03, false, CB_MARCH_NOTE),
    rate("h200", "AWS p5en.48xlarge", 8, 54.92, CapacityBlock, "us-east-2", CB_JULY, &AWS_CB_2026_07, false, CB_JULY_NOTE),
    rate("h200", "AWS p5e.48xlarge", 8, 39.799, CapacityBlock, "us-east-2", CB_MARCH, &AWS_CB_2026_03, false, CB_MARCH_NOTE),
    rate("h200", "AWS p5e.48xlarge", 8, 47.76, CapacityBlock, "us-east-2", CB_JULY, &AWS_CB_2026_07, false, CB_JULY_NOTE),
    rate("b200", "AWS p6-b200.48xlarge", 8, 74.88, CapacityBlock, "us-east-2", CB_MARCH, &AWS_CB_2026_03, false, CB_MARCH_NOTE),
    rate("b200", "AWS p6-b200.48xlarge", 8, 98.84, CapacityBlock, "us-east-2", CB_JULY, &AWS_CB_2026_07, false, CB_JULY_NOTE),
    rate("b300", "AWS p6-b300.48xlarge", 8, 93.60, CapacityBlock, "us-west-2", CB_MARCH, &AWS_CB_2026_03, false, CB_MARCH_NOTE),
    rate("b300", "AWS p6-b300.48xlarge", 8, 112.32, CapacityBlock, "us-west-2", CB_JULY, &AWS_CB_2026_07, false, CB_JULY_NOTE),
    rate("gb200", "AWS u-p6e-gb200x72 (GB200 NVL72)", 72, 761.904, CapacityBlock, "us-east-1-dfw-2a (Dallas Local Zone)", CB_MARCH, &AWS_CB_2026_03, false, "the snapshot holds $10.582 per GPU (a parse of the per-accelerator column), 72 × $10.582 = $761.904 an UltraServer-hour; a 72-GPU reservation only"),
    rate("gb200", "AWS u-p6e-gb200x72 (GB200 NVL72)", 72, 761.904, CapacityBlock, "us-east-1-dfw-2a (Dallas Local Zone)", CB_JULY, &AWS_CB_2026_07, false, "a whole 72-GPU UltraServer reserved for a block"),
    // 2026 on-demand readings.
    rate("h100-sxm", "AWS p5.48xlarge", 8, 55.04, OnDemand, "us-east-2", "2026-01-21", &VANTAGE_2026_01, false, "unchanged since AWS's June 2025 cut"),
    rate("b200", "AWS p6-b200.48xlarge", 8, 113.9328, OnDemand, "us-east-2", "2026-01-21", &VANTAGE_2026_01, false, ""),
    rate("b300", "AWS p6-b300.48xlarge", 8, 142.416, OnDemand, "us-west-2", "2026-01-21", &VANTAGE_2026_01, false, "us-west-2 is its only region"),
    rate("trn1", "AWS trn1.32xlarge", 16, 21.50, OnDemand, "us-east-1", "2026-01-21", &VANTAGE_2026_01, false, ""),
    // TPU v6e and MI300X from their providers' lists.
    rate("tpu-v6e", "Google Cloud TPU v6e (Trillium)", 1, 2.70, OnDemand, "us-east5", "2026-08-01", &GOOGLE_TPU_PRICING, true, "the page's figure as quoted by notes that read it; not read here, but the same as the general-availability price of December 2024"),
    rate("mi300x", "Vultr MI300X", 1, 1.85, NeocloudList, "n/a", "2026-05-18", &MI300X_PROVIDERS, true, "a provider's own rate as a research note reports it; TensorWave $1.50 in the same note"),
    rate("mi300x", "Oracle OCI BM.GPU.MI300X.8", 8, 48.0, OnDemand, "n/a", "2026-05-18", &MI300X_PROVIDERS, true, "$6.00 per GPU-hour as a research note reports Oracle's list price (Azure's ND MI300X v5 the same)"),
    // The assumptions of 2026: the nearest chip's July 2026 Capacity Block rate.
    rate("trn3", "no published price: trn2.48xlarge's Capacity Block rate per chip", 16, 35.7608, Assumed, "n/a", CB_JULY, &AWS_CB_2026_07, true, "AWS sells Trn3 only as UltraServers and publishes no price; Trn2's July 2026 Capacity Block rate per chip is assumed"),
    rate("gb300", "no published price: p6-b300's Capacity Block rate per GPU", 8, 112.32, Assumed, "n/a", CB_JULY, &AWS_CB_2026_07, true, "no GB300 NVL72 rental price was found; the HGX B300 instance's July 2026 Capacity Block rate per GPU is assumed"),
];

static RATES: [Rate; TABLE.len()] = TABLE;

/// Each rate's chip and basis, in the table's order, worked out when the engine is compiled:
/// what a link's basis is checked against without the table's sources and notes (the app's
/// first page decodes links but shows no price).
const BASES_OF: [(&str, Basis); TABLE.len()] = {
    let mut out = [(
        "",
        Basis {
            kind: OnDemand,
            as_of: "",
        },
    ); TABLE.len()];
    let mut i = 0;
    while i < TABLE.len() {
        out[i] = (
            TABLE[i].chip,
            Basis {
                kind: TABLE[i].kind,
                as_of: TABLE[i].as_of,
            },
        );
        i += 1;
    }
    out
};

/// Whether two bases are one (in a `const` context).
const fn same_basis(a: Basis, b: Basis) -> bool {
    let (x, y) = (a.as_of.as_bytes(), b.as_of.as_bytes());
    if a.kind as u8 != b.kind as u8 || x.len() != y.len() {
        return false;
    }
    let mut i = 0;
    while i < x.len() {
        if x[i] != y[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// How many distinct bases the rates stand on.
const DISTINCT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < TABLE.len() {
        let mut j = 0;
        while j < i && !same_basis(BASES_OF[j].1, BASES_OF[i].1) {
            j += 1;
        }
        if j == i {
            n += 1;
        }
        i += 1;
    }
    n
};

/// Each distinct basis once, in the table's order, worked out when the engine is compiled:
/// all a link's basis is checked against, so the first page carries neither the rates nor
/// one entry per rate.
const DISTINCT_BASES: [Basis; DISTINCT] = {
    let mut out = [BASES_OF[0].1; DISTINCT];
    let (mut n, mut i) = (0, 0);
    while i < TABLE.len() {
        let mut j = 0;
        while j < n && !same_basis(out[j], BASES_OF[i].1) {
            j += 1;
        }
        if j == n {
            out[n] = BASES_OF[i].1;
            n += 1;
        }
        i += 1;
    }
    out
};

/// Every rate, chip by chip.
#[must_use]
pub fn rates() -> &'static [Rate] {
    &RATES
}

/// `chip`'s rates in their fixed order (links index them); a chip with none gets an
/// assumption of $3 per chip-hour, flagged.
#[must_use]
pub fn rates_for(chip: &str) -> Vec<Rate> {
    let own: Vec<Rate> = RATES.iter().filter(|r| r.chip == chip).cloned().collect();
    if own.is_empty() {
        alloc::vec![Rate {
            chip: "",
            instance: "no published price",
            chips: 1,
            usd_per_instance_hour: 3.0,
            kind: PriceKind::Assumed,
            region: "n/a",
            as_of: "2026",
            source: &AIINFRAMAP,
            estimate: true,
            note: "no price found for this chip; an assumption to edit, not a quote",
        }]
    } else {
        own
    }
}

/// Every basis some rate stands on, newest first (ties: the order of [`PriceKind::ALL`]).
#[must_use]
pub fn bases() -> Vec<Basis> {
    let rank = |k: PriceKind| PriceKind::ALL.iter().position(|x| *x == k).unwrap_or(0);
    let before = |a: &Basis, b: &Basis| {
        a.as_of > b.as_of || (a.as_of == b.as_of && rank(a.kind) < rank(b.kind))
    };
    // Each new basis goes in its place (a handful: no general sort in the first page's code).
    let mut out: Vec<Basis> = Vec::new();
    for b in &DISTINCT_BASES {
        let at = out.iter().position(|o| before(b, o)).unwrap_or(out.len());
        out.insert(at, *b);
    }
    out
}

/// Every basis's id, comma-separated: what a message about a bad basis lists.
#[must_use]
pub fn basis_ids() -> String {
    bases()
        .iter()
        .map(|b| b.id())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The chips the default basis must price alike: the comparison the product exists to
/// answer, Trainium2 against H100.
pub const HEADLINE_CHIPS: [&str; 2] = ["trn2", "h100-sxm"];

/// The most recent plannable basis (not spot, not an assumption) on which every chip of
/// `chips` has a rate; `None` when there is none.
#[must_use]
pub fn common_basis(chips: &[&str]) -> Option<Basis> {
    bases().into_iter().find(|b| {
        b.kind.plannable()
            && chips
                .iter()
                .all(|c| BASES_OF.iter().any(|(chip, rb)| chip == c && rb == b))
    })
}

/// The basis jobs price on unless the user picks another: [`common_basis`] of
/// [`HEADLINE_CHIPS`].
#[must_use]
pub fn default_basis() -> Basis {
    common_basis(&HEADLINE_CHIPS).unwrap_or(Basis {
        kind: PriceKind::OnDemand,
        as_of: SKY_V7,
    })
}

/// The rate `chip` is priced at on `basis`, and whether it had to fall back. A chip with no
/// rate on the basis takes what it was priced at then: its newest plannable rate dated no
/// later than the basis; else the assumption that stands in for it then (the newest dated no
/// later than the basis, or its first), if one does; else its oldest plannable rate after the
/// basis; else an assumption.
#[must_use]
pub fn rate_on(chip: &str, basis: Basis) -> (Rate, bool) {
    let own = rates_for(chip);
    if let Some(r) = own.iter().find(|r| r.basis() == basis) {
        return (r.clone(), false);
    }
    let plannable = || own.iter().filter(|r| r.kind.plannable());
    let then = plannable()
        .filter(|r| r.as_of <= basis.as_of)
        .max_by(|a, b| a.as_of.cmp(b.as_of));
    let assumptions = || own.iter().filter(|r| r.kind == PriceKind::Assumed);
    let assumed = assumptions()
        .filter(|r| r.as_of <= basis.as_of)
        .max_by(|a, b| a.as_of.cmp(b.as_of))
        .or_else(|| assumptions().next());
    let later = plannable().min_by(|a, b| a.as_of.cmp(b.as_of));
    let r = then
        .or(assumed)
        .or(later)
        .or_else(|| own.first())
        .cloned()
        .unwrap_or_else(|| rates_for("")[0].clone());
    (r, true)
}

/// The basis links made before version 5 price on when they name none: the default of
/// their day (trn2's and p5's on-demand rates before June 2025).
pub const LEGACY_BASIS: Basis = Basis {
    kind: PriceKind::OnDemand,
    as_of: SKY_V7,
};

/// Whole months from `from` to `to` (ISO 8601 dates, to the month or the day; a year alone
/// counts from its January); `None` when either is not a date.
#[must_use]
pub fn months_between(from: &str, to: &str) -> Option<i32> {
    let ym = |d: &str| -> Option<(i32, i32)> {
        let y: i32 = d.get(..4)?.parse().ok()?;
        let m: i32 = match d.get(5..7) {
            Some(m) => m.parse().ok().filter(|m| (1..=12).contains(m))?,
            None if d.len() == 4 => 1,
            None => return None,
        };
        Some((y, m))
    };
    let (fy, fm) = ym(from)?;
    let (ty, tm) = ym(to)?;
    Some((ty - fy) * 12 + (tm - fm))
}

/// A price older than this many months on the day a figure is read is no longer a quote: the
/// ranges ([`crate::uncertainty`]) take the chip's published rates into them.
pub const STALE_AFTER_MONTHS: i32 = 6;

/// What a job's rate stands on: the kind and date of the price, and whether the platform
/// had no rate on the basis asked for and fell back to another.
#[derive(Clone, Debug, PartialEq)]
pub struct PriceOrigin {
    /// [`PriceKind::id`], or `user`, `edited system` or `owned` when no published rate is used.
    pub kind: &'static str,
    /// The date the price held (empty when no published rate is used).
    pub as_of: &'static str,
    /// Region or zone (empty when no published rate is used).
    pub region: &'static str,
    /// The basis the job asked for.
    pub basis: Option<Basis>,
    /// Whether the rate is from another basis than the one asked for.
    pub fell_back: bool,
}

impl PriceOrigin {
    /// A rate chosen from the published ones, on (or instead of) `basis`.
    #[must_use]
    pub fn of_rate(r: &Rate, basis: Basis, fell_back: bool) -> Self {
        Self {
            kind: r.kind.id(),
            as_of: r.as_of,
            region: r.region,
            basis: Some(basis),
            fell_back,
        }
    }
    /// A rate the user gave or an ownership cost: no published price, so no basis.
    #[must_use]
    pub fn of_own(kind: &'static str) -> Self {
        Self {
            kind,
            as_of: "",
            region: "",
            basis: None,
            fell_back: false,
        }
    }
    /// One line for a card: `on-demand, as of 2025-05` and, on a fallback, what it replaces.
    #[must_use]
    pub fn describe(&self) -> String {
        match (self.basis, self.fell_back) {
            (Some(b), true) if self.kind == PriceKind::Assumed.id() => format!(
                "no published price for this platform: an assumption stands in (dated {}), not a rate on the basis chosen ({b})",
                self.as_of
            ),
            (Some(b), true) => format!(
                "{} price as of {}: this platform has no rate on the basis chosen ({b})",
                self.kind, self.as_of
            ),
            (Some(_), false) => format!("{} price as of {}", self.kind, self.as_of),
            (None, _) => format!("{} price", self.kind),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_basis_prices_trainium2_and_h100_alike() {
        // AWS's Capacity Block table after its July 2026 update is the newest on which both
        // have a rate: trn2.48xlarge $35.7608/h, p5.48xlarge $41.528/h (US regions).
        let b = default_basis();
        assert_eq!(b.id(), "capacity-block@2026-07");
        let (t, fell) = rate_on("trn2", b);
        assert!(!fell && (t.usd_per_chip_hour() - 35.7608 / 16.0).abs() < 1e-9);
        let (h, fell) = rate_on("h100-sxm", b);
        assert!(!fell && (h.usd_per_chip_hour() - 41.528 / 8.0).abs() < 1e-9);
        assert_eq!(t.as_of, h.as_of);
        // On the legacy basis each keeps the rate links of its day priced at.
        let (t, fell) = rate_on("trn2", LEGACY_BASIS);
        assert!(!fell && (t.usd_per_chip_hour() - 85.964 / 16.0).abs() < 1e-9);
        // A chip without a rate on a basis takes its newest rate up to the basis's date...
        let nov = Basis::parse("on-demand@2025-11-30").unwrap();
        let (t2, fell) = rate_on("trn2", nov);
        assert!(fell && t2.as_of == SKY_V7 && t2.kind == PriceKind::OnDemand);
        // ...else the assumption that stands in for it, and says so...
        let (g, fell) = rate_on("gb200", LEGACY_BASIS);
        assert!(fell && g.kind == PriceKind::Assumed);
        let said = PriceOrigin::of_rate(&g, LEGACY_BASIS, fell).describe();
        assert!(said.starts_with("no published price"), "{said}");
        // ...else its oldest rate after it.
        let (b2, fell) = rate_on("b200", LEGACY_BASIS);
        assert!(fell && b2.as_of == "2025-06");
    }

    #[test]
    fn months_count_whole_calendar_months() {
        assert_eq!(months_between("2025-05", "2026-11-26"), Some(18));
        assert_eq!(months_between("2026-07-22", "2026-11-26"), Some(4));
        assert_eq!(months_between("2026", "2026-03"), Some(2));
        assert_eq!(months_between("2026-13", "2026-03"), None);
        assert_eq!(months_between("n/a", "2026-03"), None);
    }

    #[test]
    fn every_rate_is_dated_typed_and_positive() {
        for r in rates() {
            assert!(
                r.usd_per_chip_hour() > 0.0 && r.usd_per_chip_hour() < 100.0,
                "{r:?}"
            );
            let d = r.as_of.as_bytes();
            assert!(
                d.len() >= 4 && d[..4].iter().all(u8::is_ascii_digit),
                "{}",
                r.as_of
            );
            assert!(!r.source.url.is_empty() && !r.region.is_empty());
            assert_eq!(Basis::parse(&r.basis().id()), Some(r.basis()));
        }
        assert!(rates().len() >= 12);
        assert_eq!(Basis::parse("on-demand@1999-01"), None);
    }

    #[test]
    fn spot_is_never_the_default_however_recent() {
        // Trn2's and p5's spot pair (2025-11) is newer than several bases they share, but no
        // run is planned on it, nor on an assumption, for any pair of chips.
        let spot = Basis::parse("spot@2025-11").unwrap();
        assert!(HEADLINE_CHIPS.iter().all(|c| !rate_on(c, spot).1));
        let chips: Vec<&str> = rates().iter().map(|r| r.chip).collect();
        for a in &chips {
            for b in &chips {
                if let Some(basis) = common_basis(&[a, b]) {
                    assert!(basis.kind.plannable(), "{a}, {b}: {}", basis.id());
                }
            }
        }
    }
}
