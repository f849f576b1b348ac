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

/// Every citation this module adds.
#[must_use]
pub fn citations() -> Vec<&'static Citation> {
    alloc::vec![
        &VANTAGE_2025_11,
        &SKYPILOT_V8,
        &AWS_CAPACITY_BLOCKS,
        &CRUSOE_LIST
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
const TABLE: [Rate; 32] = [
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
    for (_, b) in &BASES_OF {
        if !out.contains(b) {
            let at = out.iter().position(|o| before(b, o)).unwrap_or(out.len());
            out.insert(at, *b);
        }
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

/// The rate `chip` is priced at on `basis`, and whether it had to fall back: to its newest
/// plannable rate when it has none on the basis, or to an assumption when it has no
/// published rate at all.
#[must_use]
pub fn rate_on(chip: &str, basis: Basis) -> (Rate, bool) {
    let own = rates_for(chip);
    if let Some(r) = own.iter().find(|r| r.basis() == basis) {
        return (r.clone(), false);
    }
    let newest = own
        .iter()
        .filter(|r| r.kind.plannable())
        .max_by(|a, b| a.as_of.cmp(b.as_of))
        .or_else(|| own.first())
        .cloned()
        .unwrap_or_else(|| rates_for("")[0].clone());
    (newest, true)
}

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
        // SkyPilot's v7 snapshot is the latest on which both have an on-demand rate: trn2's
        // $85.964/h and p5's pre-cut $98.32/h (us-east-2).
        let b = default_basis();
        assert_eq!(b.kind, PriceKind::OnDemand);
        let (t, fell) = rate_on("trn2", b);
        assert!(!fell && (t.usd_per_chip_hour() - 85.964 / 16.0).abs() < 1e-9);
        let (h, fell) = rate_on("h100-sxm", b);
        assert!(!fell && (h.usd_per_chip_hour() - 98.32 / 8.0).abs() < 1e-9);
        assert_eq!(t.as_of, h.as_of);
        // A chip without a rate on it falls back, and says so; one with no published rate
        // at all says that.
        let (b2, fell) = rate_on("b200", b);
        assert!(fell && b2.as_of == "2025-11-30");
        let (t3, fell) = rate_on("trn3", b);
        assert!(fell && t3.kind == PriceKind::Assumed);
        let said = PriceOrigin::of_rate(&t3, b, fell).describe();
        assert!(said.starts_with("no published price"), "{said}");
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
        // The spot pair (2025-11) is newer than the on-demand one, but no run is planned on it.
        assert!(common_basis(&HEADLINE_CHIPS).is_some_and(|b| b.kind != PriceKind::Spot));
        assert!(bases()
            .iter()
            .any(|b| b.kind == PriceKind::Spot && b.as_of > default_basis().as_of));
    }
}
