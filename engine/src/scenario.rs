//! The whole input state of the page as one value, and its versioned share-link codec.
//!
//! A link is a query string: `?v=1&page=roofline&chips=trn2,h100-sxm&fmt=bf16&rfmt=bf16,fp8&op=gemm:8192,8192,8192&custom=trn2|name=X|bf16=7e14`.
//! Decoding never fails as a whole: each part that cannot be read yields a [`Notice`] and
//! keeps that part's default, so a damaged link still opens with everything else intact.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::catalog;
use crate::chip::{Chip, ChipEdit};
use crate::collective::{Algorithm, Op};
use crate::dtype::Dtype;
use crate::job::Job;
use crate::roofline::OpSpec;
use crate::system;
use crate::units::Bytes;

pub use crate::keys;

/// The current link format version. Older versions are decoded with their own defaults.
///
/// Version 1 wrote every key; version 2 writes only what differs from the defaults, so its
/// defaults are part of the format: changing one means a new version that decodes the older
/// ones with their old values (`cli/tests/fixtures/links.json` fails until that is done).
/// Version 3 changed one default: the training-layout model (`wlm`), which costs pipeline
/// sends and searches ZeRO-2/3 and context parallelism; versions 1 and 2 open with the model
/// they were made with (`wlm=2`). Version 4 prices a job on a price basis (`wbasis`, one kind
/// of price from one date for every platform) unless it names one of the chip's rates
/// (`wopt`), reads AWS's NeuronLink figures for Trn2 and Trn3 alike (`wread`) and trains with
/// FSDP's prefetch (`wlm=4`); versions 1 to 3 open with the rate they were made with, the
/// chip's first, the reading they were made with (Trn3's figures per direction) and their
/// training model. Version 5 changed the default price basis to the newest on which
/// Trainium2 and H100 both have a rate (AWS's Capacity Blocks of July 2026); version 4 links
/// that name no basis open on the one of their day
/// ([`crate::tco::rates::LEGACY_BASIS`]). Version 6 times a mixture of experts' serving
/// steps, and FP4's, operation by operation from the chips' kernel tables (`wlm=7`) and may
/// set the serving layout (`wadp`, `wep`); version 5 links open with the model they were made
/// with (`wlm=6`). Version 7 may set the training micro-batch and host offload (`wmb`,
/// `woff`) and opens with its model (`wlm=8`) where it names none; version 8 runs data
/// parallelism's collectives as frameworks run them (`wlm=9`); version 9 lays training
/// pipelines out as frameworks do, the output head and multi-token prediction on the last
/// stage (`wlm=10`).
pub const VERSION: u32 = 9;

/// The Kernels page's keys, read by [`crate::kernels::KernelSpec::from_pairs`].
const KERNEL_KEYS: [&str; 14] = [
    "kern", "km", "kn", "kk", "kin", "kins", "kw", "kws", "kacc", "kout", "kdist", "kseed", "ksr",
    "ksat",
];

/// Most chips or operations a link may hold; more is treated as malformed input.
pub const MAX_ITEMS: usize = 32;
/// Most platforms a serving chart draws besides the job's own.
pub const MAX_CURVES: usize = 7;

/// A page of the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Page {
    /// Chip comparison table.
    Chips,
    /// Roofline chart.
    Roofline,
    /// Scale-up topologies drawn chip by chip.
    Topology,
    /// Collectives: time and bus bandwidth against size.
    Collectives,
    /// Workload and TCO.
    Workload,
    /// Kernels running in the browser.
    Kernels,
    /// Scenarios side by side.
    Compare,
    /// Lessons with exercises.
    Learn,
}

impl Page {
    /// Every page in navigation order.
    pub const ALL: [Page; 8] = [
        Page::Chips,
        Page::Roofline,
        Page::Topology,
        Page::Collectives,
        Page::Workload,
        Page::Kernels,
        Page::Compare,
        Page::Learn,
    ];
    /// Id used in links.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Page::Chips => "chips",
            Page::Roofline => "roofline",
            Page::Topology => "topology",
            Page::Collectives => "collectives",
            Page::Workload => "workload",
            Page::Kernels => "kernels",
            Page::Compare => "compare",
            Page::Learn => "learn",
        }
    }
    /// Navigation label.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Page::Chips => "Chips",
            Page::Roofline => "Roofline",
            Page::Topology => "Topology",
            Page::Collectives => "Collectives",
            Page::Workload => "Workload & TCO",
            Page::Kernels => "Kernels",
            Page::Compare => "Compare",
            Page::Learn => "Learn",
        }
    }
}

/// Everything the user has chosen.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Scenario {
    /// Page shown.
    pub page: Page,
    /// Chips compared, by id (presets, or `custom-N` for the N-th entry of `custom`, from 1).
    pub chips: Vec<String>,
    /// Format of the chips table.
    pub format: Dtype,
    /// Formats drawn on the roofline.
    pub roofline_formats: Vec<Dtype>,
    /// Operations placed on the roofline.
    pub ops: Vec<OpSpec>,
    /// User-edited clones of presets.
    pub custom: Vec<ChipEdit>,
    /// What the Topology page shows.
    pub topology: TopologyView,
    /// What the Collectives page shows.
    pub collectives: CollectivesView,
    /// The job on the Workload & TCO page.
    pub job: Job,
    /// The run on the Kernels page.
    #[cfg_attr(feature = "serde", serde(default))]
    pub kernel: crate::kernels::KernelSpec,
    /// This device's roofs as measured on the Kernels page (never re-measured from a link).
    #[cfg_attr(
        feature = "serde",
        serde(default, with = "device_serde", skip_serializing_if = "Vec::is_empty")
    )]
    pub device: Vec<crate::kernels::device::DeviceRoof>,
    /// The NeuronCore experiment on the Kernels page, as text
    /// ([`crate::neuroncore::spec::Experiment`]); empty for the default. The link keeps it as
    /// written; the page reads it and explains what it cannot.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "String::is_empty")
    )]
    pub neuroncore: String,
    /// That experiment's result as the Kernels page last simulated it, for the Roofline page:
    /// FLOP per HBM byte and the whole chip's FLOP/s (every core running the schedule).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub nc_point: Option<[f64; 2]>,
    /// The page's view alone, without the app's navigation: for an iframe in a course page
    /// or a slide.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "core::ops::Not::not")
    )]
    pub embed: bool,
    /// The lesson open on the Learn page (a [`crate::keys::LESSONS`] id); empty for the first.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "String::is_empty")
    )]
    pub lesson: String,
    /// The scenarios the Compare page shows side by side (at most
    /// [`compared::MAX_COMPARED`]); empty for the page's own kept scenarios.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub compared: Vec<compared::Saved>,
}

/// Reads `intensity,flop_per_s` as a link holds a NeuronCore result (the Kernels page writes
/// them to 4 significant digits).
#[must_use]
pub fn parse_nc_point(v: &str) -> Option<[f64; 2]> {
    let (a, b) = v.split_once(',')?;
    let num = |x: &str, hi: f64| {
        let x: f64 = x.trim().parse().ok()?;
        (x.is_finite() && x > 0.0 && x <= hi).then_some(x)
    };
    Some([num(a, 1e7)?, num(b, 1e18)?])
}

/// Writes a NeuronCore result for a link.
#[must_use]
pub fn nc_point_text(p: [f64; 2]) -> String {
    format!("{},{}", p[0], p[1])
}

/// Whether `v` may be kept as a NeuronCore experiment's text: short, and only the characters
/// its grammar uses.
#[must_use]
pub fn nc_text_ok(v: &str) -> bool {
    v.len() <= 200
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
}

#[cfg(feature = "serde")]
mod device_serde {
    use crate::kernels::device::{parse_spec, to_spec, DeviceRoof};
    use alloc::string::String;
    use alloc::vec::Vec;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[DeviceRoof], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&to_spec(v))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<DeviceRoof>, D::Error> {
        parse_spec(&String::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// The Topology page: one system, an optional selected chip and an optional failed chip.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct TopologyView {
    /// System id.
    pub system: String,
    /// Chip whose hop distances are shown.
    pub selected: Option<u32>,
    /// Chip marked as failed.
    pub failed: Option<u32>,
}

impl Default for TopologyView {
    fn default() -> Self {
        Self {
            system: "trn2-ultra-64".into(),
            selected: Some(0),
            failed: None,
        }
    }
}

/// The Collectives page: systems, operations and algorithms compared over message sizes.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct CollectivesView {
    /// System ids.
    pub systems: Vec<String>,
    /// Operations.
    pub ops: Vec<Op>,
    /// Algorithms (`auto` picks the fastest per size).
    pub algorithms: Vec<Algorithm>,
    /// Scale-up domains joined over scale-out.
    pub nodes: u32,
    /// Size of the table's row, bytes (nccl-tests convention).
    pub bytes: f64,
}

/// Most scale-up domains a link may join.
pub use keys::MAX_NODES;

impl Default for CollectivesView {
    fn default() -> Self {
        Self {
            systems: [
                "trn2-ultra-64",
                "trn3-ultra-144",
                "hgx-h200-8",
                "gb200-nvl72",
            ]
            .iter()
            .map(|s| (*s).to_string())
            .collect(),
            ops: alloc::vec![Op::AllReduce],
            algorithms: alloc::vec![Algorithm::Auto],
            nodes: 1,
            bytes: 1_073_741_824.0,
        }
    }
}

impl Default for Scenario {
    fn default() -> Self {
        Self {
            page: Page::Chips,
            chips: ["trn2", "trn3", "h100-sxm", "gb300", "tpu-v6e"]
                .iter()
                .map(|s| (*s).to_string())
                .collect(),
            format: Dtype::Bf16,
            roofline_formats: alloc::vec![Dtype::Bf16],
            ops: OpSpec::defaults(),
            custom: Vec::new(),
            topology: TopologyView::default(),
            collectives: CollectivesView::default(),
            job: Job::default(),
            kernel: crate::kernels::KernelSpec::default(),
            device: Vec::new(),
            neuroncore: String::new(),
            nc_point: None,
            embed: false,
            lesson: String::new(),
            compared: Vec::new(),
        }
    }
}

/// Something in a link that could not be used, and what was done instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The query key concerned.
    pub key: String,
    /// What was wrong and which default was kept.
    pub message: String,
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.key, self.message)
    }
}

/// The id a custom chip gets from its position in [`Scenario::custom`] (0-based).
#[must_use]
pub fn custom_id(index: usize) -> String {
    format!("custom-{}", index + 1)
}

/// The 0-based index in [`Scenario::custom`] of a `custom-N` id.
#[must_use]
pub fn custom_index(id: &str) -> Option<usize> {
    id.strip_prefix("custom-")?
        .parse::<usize>()
        .ok()?
        .checked_sub(1)
}

impl Scenario {
    /// This scenario on the Roofline page with one call of the job's operation `op` (from a
    /// step's breakdown: its FLOPs and bytes over its count) placed on it: added after the operations already there (the oldest makes
    /// room when the list is full), the job's chip among the chips drawn and the job's
    /// format among the formats. `None` where the operation does no arithmetic or moves no
    /// bytes (a collective, the bubble, a fixed cost), which has no place on a roofline, or
    /// one call is beyond what an operation may count ([`crate::roofline::MAX_OP_VALUE`]).
    #[must_use]
    pub fn placing(&self, op: &crate::breakdown::Op) -> Option<Scenario> {
        let per = if op.count >= 1.0 { op.count } else { 1.0 };
        let (flop, bytes) = (op.flop / per, op.bytes / per);
        let fits = |x: f64| x > 0.0 && x <= crate::roofline::MAX_OP_VALUE;
        if !(fits(flop) && fits(bytes)) {
            return None;
        }
        let mut s = self.clone();
        s.page = Page::Roofline;
        let spec = OpSpec::Work {
            flop,
            bytes,
            name: op.name.chars().take(crate::roofline::MAX_OP_NAME).collect(),
        };
        // The same operation placed twice is drawn once: compared by the text a link holds.
        let key = spec.to_spec();
        if !s.ops.iter().any(|o| o.to_spec() == key) {
            if s.ops.len() == MAX_ITEMS {
                s.ops.remove(0);
            }
            s.ops.push(spec);
        }
        if let Ok(sys) = system::find(&self.job.system) {
            let chip = sys.chip.to_string();
            if !s.chips.contains(&chip) {
                if s.chips.len() == MAX_ITEMS {
                    s.chips.pop();
                }
                s.chips.insert(0, chip);
            }
        }
        if !s.roofline_formats.contains(&self.job.dtype) {
            s.roofline_formats.push(self.job.dtype);
        }
        Some(s)
    }

    /// The edited systems (`edit:…` ids) this scenario names anywhere, first seen first: the
    /// pickers offer them beside the presets.
    #[must_use]
    pub fn edited_systems(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let named = core::iter::once(&self.topology.system)
            .chain(self.collectives.systems.iter())
            .chain([&self.job.system, &self.job.compare_with])
            .chain(self.job.curve_systems.iter())
            .chain([&self.job.prefill_system, &self.job.decode_system]);
        for id in named {
            if id.starts_with(system::EDIT_PREFIX) && !out.contains(id) {
                out.push(id.clone());
            }
        }
        out
    }

    /// Every chip available to this scenario: the presets, then the custom chips.
    #[must_use]
    pub fn available_chips(&self) -> Vec<Chip> {
        let mut all = catalog::presets();
        for (i, e) in self.custom.iter().enumerate() {
            if let Some(base) = all.iter().find(|c| c.id == e.base) {
                let c = e.apply(base, &custom_id(i));
                all.push(c);
            }
        }
        all
    }

    /// The chosen chips, in the chosen order.
    #[must_use]
    pub fn chosen_chips(&self) -> Vec<Chip> {
        let all = self.available_chips();
        self.chips
            .iter()
            .filter_map(|id| all.iter().find(|c| &c.id == id).cloned())
            .collect()
    }

    /// Clone the chip `id` (a preset or a custom chip) into a new custom chip, add it to
    /// the chosen chips, and return its id; `None` if no chip has that id.
    pub fn add_clone(&mut self, id: &str) -> Option<String> {
        let edit = if let Some(i) = custom_index(id) {
            let mut e = self.custom.get(i)?.clone();
            e.name = format!("{} (copy)", e.name);
            e
        } else {
            ChipEdit::clone_of(&catalog::find(id).ok()?)
        };
        self.custom.push(edit);
        let new_id = custom_id(self.custom.len() - 1);
        self.chips.push(new_id.clone());
        Some(new_id)
    }

    /// Delete custom chip `index` (0-based), renumbering the later ones in `chips`.
    pub fn remove_custom(&mut self, index: usize) {
        if index >= self.custom.len() {
            return;
        }
        self.custom.remove(index);
        let gone = custom_id(index);
        self.chips.retain(|c| *c != gone);
        for c in &mut self.chips {
            if let Some(k) = custom_index(c) {
                if k > index {
                    *c = custom_id(k - 1);
                }
            }
        }
    }

    /// Takes a lazily loaded page's own keys back (the Kernels page's `kern=…&dev=…`);
    /// everything else in the scenario stays as it is.
    pub fn apply_page_query(&mut self, query: &str) {
        let pairs = query_pairs(query);
        let (kernel, _) = crate::kernels::KernelSpec::from_pairs(
            pairs
                .iter()
                .filter(|(k, _)| KERNEL_KEYS.contains(&k.as_str()))
                .map(|(k, v)| (k.as_str(), v.as_str())),
        );
        self.kernel = kernel;
        self.neuroncore = pairs
            .iter()
            .find(|(k, v)| k == "knc" && nc_text_ok(v))
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        self.nc_point = pairs
            .iter()
            .find(|(k, _)| k == "kncpt")
            .and_then(|(_, v)| parse_nc_point(v));
        self.device = pairs
            .iter()
            .find(|(k, _)| k == "dev")
            .and_then(|(_, v)| crate::kernels::device::parse_spec(v).ok())
            .unwrap_or_default();
    }

    /// Checks a scenario that did not come from a link (a JSON file): every value goes
    /// through the link's own rules, so files, links and the CLI accept the same values.
    /// Returns what is out of range, named by its link key; empty when all is well.
    #[must_use]
    pub fn check(&self) -> Vec<Notice> {
        let (back, mut notes) = Scenario::from_query(&self.to_query());
        if notes.is_empty() && back != *self {
            notes.push(Notice {
                key: "scenario".into(),
                message: "some settings repeat or go past a limit (the same chip or system twice, more than 32 of them, a measured roof past 4 digits); as a link it would open differently".into(),
            });
        }
        notes
    }
}

/// Most notices one link produces before the rest are only counted.
pub use crate::keys::MAX_NOTICES;

pub mod compared;
mod link;
mod percent;
pub use link::key_defaults;
pub use percent::{dec, enc, query_pairs};

#[cfg(test)]
mod tests;
