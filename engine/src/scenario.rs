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
/// training model.
pub const VERSION: u32 = 4;

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
}

impl Page {
    /// Every page in navigation order.
    pub const ALL: [Page; 7] = [
        Page::Chips,
        Page::Roofline,
        Page::Topology,
        Page::Collectives,
        Page::Workload,
        Page::Kernels,
        Page::Compare,
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

    /// Encode as a query string (without the leading `?`): the version, then only the keys
    /// whose values differ from the defaults, in a fixed order. The default view is `v=4`.
    #[must_use]
    pub fn to_query(&self) -> String {
        let mine = self.to_query_full();
        let base = Scenario::default().to_query_full();
        let group = |q: &str| -> Vec<(String, Vec<String>)> {
            let mut g: Vec<(String, Vec<String>)> = Vec::new();
            for p in q.split('&').skip(1) {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                match g.iter_mut().find(|(key, _)| key == k) {
                    Some((_, vs)) => vs.push(v.to_string()),
                    None => g.push((k.to_string(), alloc::vec![v.to_string()])),
                }
            }
            g
        };
        let (mine, base) = (group(&mine), group(&base));
        let mut q = alloc::vec![format!("v={VERSION}")];
        for (k, vs) in &mine {
            if base.iter().find(|(b, _)| b == k).map(|(_, bv)| bv) != Some(vs) {
                q.extend(vs.iter().map(|v| format!("{k}={v}")));
            }
        }
        q.join("&")
    }

    /// Every key, defaults included (what version 1 links held).
    #[must_use]
    pub fn to_query_full(&self) -> String {
        let mut q = Vec::new();
        q.push(format!("v={VERSION}"));
        q.push(format!("page={}", self.page.id()));
        q.push(format!("chips={}", enc(&self.chips.join(","))));
        q.push(format!("fmt={}", self.format.id()));
        let rf: Vec<&str> = self.roofline_formats.iter().map(|d| d.id()).collect();
        q.push(format!("rfmt={}", rf.join(",")));
        for op in &self.ops {
            q.push(format!("op={}", enc(&op.to_spec())));
        }
        if self.ops.is_empty() {
            q.push("op=".into());
        }
        for c in &self.custom {
            q.push(format!("custom={}", enc(&c.to_spec())));
        }
        let t = &self.topology;
        q.push(format!("sys={}", enc(&t.system)));
        match t.selected {
            Some(c) => q.push(format!("sel={c}")),
            None => q.push("sel=".into()),
        }
        if let Some(c) = t.failed {
            q.push(format!("fail={c}"));
        }
        let c = &self.collectives;
        q.push(format!("csys={}", enc(&c.systems.join(","))));
        let ops: Vec<&str> = c.ops.iter().map(|o| o.id()).collect();
        q.push(format!("cop={}", ops.join(",")));
        let al: Vec<&str> = c.algorithms.iter().map(|a| a.id()).collect();
        q.push(format!("calgo={}", al.join(",")));
        q.push(format!("nodes={}", c.nodes));
        q.push(format!("size={}", c.bytes));
        let j = &self.job;
        q.push(format!("wsys={}", enc(&j.system)));
        q.push(format!("wnodes={}", j.nodes));
        q.push(format!("wmodel={}", enc(&j.model)));
        q.push(format!("wdtype={}", j.dtype.id()));
        q.push(format!("wtokens={:e}", j.tokens));
        q.push(format!("wgbs={}", j.global_batch));
        if let Some(e) = j.efficiency {
            q.push(format!("weff={e}"));
        }
        q.push(format!("wbatch={}", j.batch));
        q.push(format!("wpr={}", j.prompt));
        q.push(format!("wout={}", j.output));
        q.push(format!("wown={}", u8::from(j.owned)));
        if let Some(p) = j.usd_per_chip_hour {
            q.push(format!("wprice={p}"));
        }
        q.push(format!("wdisc={}", j.discount));
        q.push(format!("wyears={}", j.years));
        q.push(format!("wpue={}", j.pue));
        q.push(format!("wkwh={}", j.usd_per_kwh));
        if let Some(o) = j.rental_option {
            q.push(format!("wopt={o}"));
        }
        if let Some(b) = &j.price_basis {
            q.push(format!("wbasis={b}"));
        }
        q.push(format!("wread={}", j.link_reading.id()));
        if let Some(c) = j.chip_usd {
            q.push(format!("wchip={c}"));
        }
        q.push(format!("wcoc={}", j.cost_of_capital));
        q.push(format!("wfac={}", j.facility_usd_per_kw_month));
        q.push(format!("wmaint={}", j.maintenance));
        if let Some(o) = j.overlap {
            q.push(format!("wov={o}"));
        }
        if let Some(n) = j.network_usd {
            q.push(format!("wnet={n}"));
        }
        q.push(format!("wload={}", j.load));
        q.push(format!("wref={}", enc(&j.compare_with)));
        q.push(format!("wlever={}", j.lever.id()));
        q.push(format!("wttft={}", j.ttft_s));
        q.push(format!("wtpot={}", j.tpot_s));
        q.push(format!("wcurve={}", enc(&j.curve_systems.join(","))));
        q.push(format!(
            "wcy={}",
            if j.curve_per_usd { "usd" } else { "chip" }
        ));
        q.push(format!("wwt={}", j.weight_dtype.map_or("", |d| d.id())));
        q.push(format!("wkv={}", j.kv_dtype.map_or("", |d| d.id())));
        q.push(format!("wdraft={}", j.draft_tokens));
        q.push(format!("wacc={}", j.acceptance));
        q.push(format!("wprefix={}", j.prefix_hit));
        q.push(format!("wpsys={}", enc(&j.prefill_system)));
        q.push(format!("wlm={}", j.model_version));
        for (k, v) in [
            ("wfrate", j.fail_rate),
            ("wrepair", j.repair_h),
            ("wrestart", j.restart_min),
            ("wckpt", j.ckpt_bytes_per_s),
            ("wimb", j.expert_imbalance),
        ] {
            if let Some(x) = v {
                q.push(format!("{k}={x}"));
            }
        }
        q.push(format!("wdsys={}", enc(&j.decode_system)));
        for (k, v) in self.kernel.to_pairs() {
            q.push(format!("{k}={}", enc(&v)));
        }
        if !self.neuroncore.is_empty() {
            q.push(format!("knc={}", enc(&self.neuroncore)));
        }
        if let Some(p) = self.nc_point {
            q.push(format!("kncpt={}", enc(&nc_point_text(p))));
        }
        if !self.device.is_empty() {
            q.push(format!(
                "dev={}",
                enc(&crate::kernels::device::to_spec(&self.device))
            ));
        }
        q.join("&")
    }

    /// Decode a query string (with or without `?`). Unreadable parts keep their defaults
    /// and are reported; this never fails as a whole.
    #[must_use]
    pub fn from_query(query: &str) -> (Scenario, Vec<Notice>) {
        let mut s = Scenario::default();
        let mut notes = Vec::new();
        // A hostile link may hold a million bad parts: name the first few, count the rest.
        let mut dropped = 0usize;
        let mut note = |key: &str, message: String| {
            if notes.len() < MAX_NOTICES {
                notes.push(Notice {
                    key: clip(key),
                    message: clip_n(&message, 300),
                });
            } else {
                dropped += 1;
            }
        };
        let pairs = query_pairs(query);
        if pairs.is_empty() {
            return (s, notes);
        }
        match pairs.iter().find(|(k, _)| k == "v").map(|(_, v)| v.as_str()) {
            Some("1" | "2") => {
                s.job.model_version = 2;
                s.job.rental_option = Some(0);
                s.job.link_reading = system::LinkReading::Legacy;
            }
            Some("3") => {
                s.job.model_version = 3;
                s.job.rental_option = Some(0);
                s.job.link_reading = system::LinkReading::Legacy;
            }
            Some("4") | None => {}
            Some(v) => note(
                "v",
                format!("link version '{v}' is newer than this app understands (version {VERSION}); reading it as version {VERSION}"),
            ),
        }
        // Custom chips first: chip ids may refer to them.
        let mut custom = Vec::new();
        for (_, v) in pairs.iter().filter(|(k, _)| k == "custom") {
            if custom.len() == MAX_ITEMS {
                note(
                    "custom",
                    format!("more than {MAX_ITEMS} custom chips; the rest are ignored"),
                );
                break;
            }
            match ChipEdit::parse_spec(v) {
                Ok(e) if catalog::find(&e.base).is_ok() => custom.push(e),
                Ok(e) => note(
                    "custom",
                    format!(
                        "'{}' is not a preset to clone ({}); custom chip dropped",
                        e.base,
                        catalog::ids().join(", ")
                    ),
                ),
                Err(e) => note("custom", format!("{e}; custom chip dropped")),
            }
        }
        s.custom = custom;
        let known: Vec<String> = catalog::ids()
            .into_iter()
            .map(String::from)
            .chain((0..s.custom.len()).map(custom_id))
            .collect();
        let mut ops = Vec::new();
        let mut saw_op = false;
        for (k, v) in &pairs {
            match k.as_str() {
                "v" | "custom" => {}
                "page" => match Page::ALL.iter().find(|p| p.id() == v) {
                    Some(p) => s.page = *p,
                    None => note("page", format!("no page '{v}'; showing Chips")),
                },
                "chips" => {
                    let mut chips = Vec::new();
                    for id in v.split(',').filter(|x| !x.is_empty()) {
                        if !known.iter().any(|k| k == id) {
                            note(
                                "chips",
                                format!(
                                    "unknown chip '{id}' skipped (valid: {})",
                                    known.join(", ")
                                ),
                            );
                        } else if !chips.iter().any(|c| c == id) && chips.len() < MAX_ITEMS {
                            chips.push(id.to_string());
                        }
                    }
                    if chips.is_empty() {
                        note("chips", "no usable chip; showing the default set".into());
                    } else {
                        s.chips = chips;
                    }
                }
                "fmt" => match v.parse() {
                    Ok(d) => s.format = d,
                    Err(e) => note("fmt", format!("{e}; using BF16")),
                },
                "rfmt" => {
                    let mut f = Vec::new();
                    for x in v.split(',').filter(|x| !x.is_empty()) {
                        match x.parse::<Dtype>() {
                            Ok(d) if !f.contains(&d) => f.push(d),
                            Ok(_) => {}
                            Err(e) => note("rfmt", format!("{e}; skipped")),
                        }
                    }
                    if f.is_empty() {
                        note("rfmt", "no usable format; using BF16".into());
                    } else {
                        s.roofline_formats = f;
                    }
                }
                "op" => {
                    saw_op = true;
                    if v.is_empty() {
                        continue;
                    }
                    if ops.len() == MAX_ITEMS {
                        note(
                            "op",
                            format!("more than {MAX_ITEMS} operations; the rest are ignored"),
                        );
                        continue;
                    }
                    match OpSpec::parse_spec(v) {
                        Ok(o) => ops.push(o),
                        Err(e) => note("op", format!("{e}; operation skipped")),
                    }
                }
                "sys" => match system::find(v) {
                    Ok(_) => s.topology.system = v.clone(),
                    Err(e) => note("sys", format!("{e}; showing {}", s.topology.system)),
                },
                "sel" | "fail" => {
                    // Checked against the system's size once every key is read.
                    match v.parse::<u32>() {
                        Ok(c) if k == "sel" => s.topology.selected = Some(c),
                        Ok(c) => s.topology.failed = Some(c),
                        // `sel=` says no chip is selected (the default selects chip 0).
                        Err(_) if v.is_empty() && k == "sel" => s.topology.selected = None,
                        Err(_) => note(k, format!("'{v}' is not a chip number; ignored")),
                    }
                }
                "csys" => {
                    let mut list = Vec::new();
                    for id in v.split(',').filter(|x| !x.is_empty()) {
                        match system::find(id) {
                            Ok(_) if !list.iter().any(|x| x == id) && list.len() < MAX_ITEMS => {
                                list.push(id.to_string());
                            }
                            Ok(_) => {}
                            Err(e) => note("csys", format!("{e}; skipped")),
                        }
                    }
                    if list.is_empty() {
                        note("csys", "no usable system; showing the default set".into());
                    } else {
                        s.collectives.systems = list;
                    }
                }
                "cop" => {
                    let mut list = Vec::new();
                    for x in v.split(',').filter(|x| !x.is_empty()) {
                        match x.parse::<Op>() {
                            Ok(o) if !list.contains(&o) => list.push(o),
                            Ok(_) => {}
                            Err(e) => note("cop", format!("{e}; skipped")),
                        }
                    }
                    if list.is_empty() {
                        note("cop", "no usable operation; showing all-reduce".into());
                    } else {
                        s.collectives.ops = list;
                    }
                }
                "calgo" => {
                    let mut list = Vec::new();
                    for x in v.split(',').filter(|x| !x.is_empty()) {
                        match x.parse::<Algorithm>() {
                            Ok(a) if !list.contains(&a) => list.push(a),
                            Ok(_) => {}
                            Err(e) => note("calgo", format!("{e}; skipped")),
                        }
                    }
                    if list.is_empty() {
                        note("calgo", "no usable algorithm; using auto".into());
                    } else {
                        s.collectives.algorithms = list;
                    }
                }
                "nodes" => match v.parse::<u32>() {
                    Ok(n) if (1..=MAX_NODES).contains(&n) => s.collectives.nodes = n,
                    _ => note(
                        "nodes",
                        format!("'{v}' is not a node count from 1 to {MAX_NODES}; using 1"),
                    ),
                },
                "size" => match v.parse::<Bytes>() {
                    Ok(b) if keys::range("size").is_some_and(|(lo, hi)| (lo..=hi).contains(&b.get())) => {
                        s.collectives.bytes = b.get();
                    }
                    Ok(_) => note(
                        "size",
                        format!("'{}' is not a size from 1 B to 1 PB; using 1 GiB", clip(v)),
                    ),
                    Err(e) => note("size", format!("{e}; using 1 GiB")),
                },
                "wsys" => match system::find(v) {
                    Ok(_) => s.job.system = v.clone(),
                    Err(e) => note("wsys", format!("{e}; using {}", s.job.system)),
                },
                "wmodel" => match crate::workload::find_model(v) {
                    Ok(_) => s.job.model = v.clone(),
                    Err(e) => note("wmodel", format!("{e}; using {}", s.job.model)),
                },
                "wdtype" => match v.parse() {
                    Ok(d) => s.job.dtype = d,
                    Err(e) => note("wdtype", format!("{e}; using BF16")),
                },
                "wnodes" | "wgbs" | "wbatch" | "wpr" | "wout" => match v.parse::<u32>() {
                    Ok(n) if k == "wnodes" && n > MAX_NODES => note(
                        k,
                        format!(
                            "{n} nodes is more than the {MAX_NODES} a job may use; default kept"
                        ),
                    ),
                    Ok(n) if keys::range(k).is_some_and(|(lo, hi)| (lo..=hi).contains(&f64::from(n))) => match k.as_str() {
                        "wnodes" => s.job.nodes = n,
                        "wgbs" => s.job.global_batch = n,
                        "wpr" => s.job.prompt = n,
                        "wout" => s.job.output = n,
                        _ => s.job.batch = n,
                    },
                    _ => note(
                        k,
                        format!("'{v}' is not a positive whole number; default kept"),
                    ),
                },
                "wref" => match system::find(v) {
                    Ok(_) => s.job.compare_with = v.clone(),
                    Err(e) => note(
                        "wref",
                        format!("{e}; comparing with {}", s.job.compare_with),
                    ),
                },
                "wlever" => match crate::job::Lever::ALL.iter().find(|l| l.id() == v) {
                    Some(l) => s.job.lever = *l,
                    None => note(
                        "wlever",
                        format!("no lever '{v}' (valid: efficiency, discount, price)"),
                    ),
                },
                "wopt" => match v.parse::<u32>() {
                    Ok(n) if keys::range("wopt").is_some_and(|(_, hi)| f64::from(n) <= hi) => {
                        s.job.rental_option = Some(n);
                    }
                    _ => note(
                        "wopt",
                        format!("'{v}' is not a rate option; pricing on the price basis"),
                    ),
                },
                "wread" => match system::LinkReading::parse(v) {
                    Some(r) => s.job.link_reading = r,
                    None => note(
                        "wread",
                        format!(
                            "no reading '{v}' of AWS's link figures (valid: {}); using {}",
                            system::LinkReading::ALL.map(system::LinkReading::id).join(", "),
                            s.job.link_reading.id()
                        ),
                    ),
                },
                "wbasis" => match crate::tco::rates::Basis::parse(v) {
                    Some(b) => s.job.price_basis = Some(b.id()),
                    None => note(
                        "wbasis",
                        format!(
                            "no price basis '{v}' (valid: {}); using {}",
                            crate::tco::rates::basis_ids(),
                            crate::tco::rates::default_basis().id()
                        ),
                    ),
                },
                k if crate::job::range(k).is_some() => {
                    let (lo, hi) = crate::job::range(k).unwrap_or((0.0, 0.0));
                    match v.parse::<f64>() {
                        Ok(x) if x.is_finite() && (lo..=hi).contains(&x) => match k {
                            "wtokens" => s.job.tokens = x,
                            "weff" => s.job.efficiency = Some(x),
                            "wprice" => s.job.usd_per_chip_hour = Some(x),
                            "wdisc" => s.job.discount = x,
                            "wyears" => s.job.years = x,
                            "wpue" => s.job.pue = x,
                            "wchip" => s.job.chip_usd = Some(x),
                            "wcoc" => s.job.cost_of_capital = x,
                            "wfac" => s.job.facility_usd_per_kw_month = x,
                            "wmaint" => s.job.maintenance = x,
                            "wov" => s.job.overlap = Some(x),
                            "wnet" => s.job.network_usd = Some(x),
                            "wload" => s.job.load = x,
                            "wttft" => s.job.ttft_s = x,
                            "wacc" => s.job.acceptance = x,
                            "wprefix" => s.job.prefix_hit = x,
                            "wfrate" => s.job.fail_rate = Some(x),
                            "wrepair" => s.job.repair_h = Some(x),
                            "wrestart" => s.job.restart_min = Some(x),
                            "wckpt" => s.job.ckpt_bytes_per_s = Some(x),
                            "wimb" => s.job.expert_imbalance = Some(x),
                            "wtpot" => s.job.tpot_s = x,
                            _ => s.job.usd_per_kwh = x,
                        },
                        _ => note(
                            k,
                            format!("'{v}' is not a number from {lo} to {hi}; default kept"),
                        ),
                    }
                }
                "wown" => s.job.owned = v == "1",
                "wlm" => match v.parse::<u32>() {
                    Ok(n) if (2..=crate::keys::MODEL_VERSION).contains(&n) => {
                        s.job.model_version = n;
                    }
                    _ => note(
                        "wlm",
                        format!(
                            "'{}' is not a training-layout model (2 to {}); using {}",
                            clip(v),
                            crate::keys::MODEL_VERSION,
                            s.job.model_version
                        ),
                    ),
                },
                "wpsys" | "wdsys" => {
                    let slot = if k == "wpsys" {
                        &mut s.job.prefill_system
                    } else {
                        &mut s.job.decode_system
                    };
                    if v.is_empty() {
                        slot.clear();
                    } else {
                        match system::find(v) {
                            Ok(_) => *slot = v.clone(),
                            Err(e) => note(k, format!("{e}; the job's own platform is used")),
                        }
                    }
                }
                "wwt" | "wkv" => {
                    let slot = if k == "wwt" {
                        &mut s.job.weight_dtype
                    } else {
                        &mut s.job.kv_dtype
                    };
                    if v.is_empty() {
                        *slot = None;
                    } else {
                        match v.parse() {
                            Ok(d) => *slot = Some(d),
                            Err(e) => note(k, format!("{e}; the compute format is used")),
                        }
                    }
                }
                "wdraft" => match v.parse::<u32>() {
                    Ok(n) if n <= crate::keys::MAX_DRAFT => s.job.draft_tokens = n,
                    _ => note(
                        "wdraft",
                        format!(
                            "'{}' is not a number of drafted tokens from 0 to {}; none",
                            clip(v),
                            crate::keys::MAX_DRAFT
                        ),
                    ),
                },
                "wcy" => match v.as_str() {
                    "usd" | "chip" => s.job.curve_per_usd = v == "usd",
                    _ => note("wcy", format!("'{}' is not chip or usd; per chip", clip(v))),
                },
                "wcurve" => {
                    // An empty list is a choice too: the job's own platform alone.
                    let mut list = Vec::new();
                    for id in v.split(',').filter(|x| !x.is_empty()) {
                        match system::find(id) {
                            Ok(_) if !list.iter().any(|x| x == id) && list.len() < MAX_CURVES => {
                                list.push(id.to_string());
                            }
                            Ok(_) => {}
                            Err(e) => note("wcurve", format!("{e}; skipped")),
                        }
                    }
                    s.job.curve_systems = list;
                }
                "knc" if nc_text_ok(v) => s.neuroncore = v.clone(),
                "kncpt" => match parse_nc_point(v) {
                    Some(p) => s.nc_point = Some(p),
                    None => note(
                        "kncpt",
                        "not a NeuronCore result (FLOP/B,FLOP/s, both positive); not drawn".into(),
                    ),
                },
                "knc" => note(
                    "knc",
                    "not a NeuronCore experiment (at most 200 letters, digits, _ and .); the default is shown".into(),
                ),
                "dev" => match crate::kernels::device::parse_spec(v) {
                    Ok(d) => s.device = d,
                    Err(e) => note("dev", format!("{e}; measured roofs dropped")),
                },
                k if k.starts_with('k') && KERNEL_KEYS.contains(&k) => {}
                other => note(other, "unknown setting ignored".into()),
            }
        }
        if saw_op {
            s.ops = ops;
        }
        let (kernel, knotes) = crate::kernels::KernelSpec::from_pairs(
            pairs
                .iter()
                .filter(|(k, _)| KERNEL_KEYS.contains(&k.as_str()))
                .map(|(k, v)| (k.as_str(), v.as_str())),
        );
        s.kernel = kernel;
        for n in knotes {
            let key = n.split(['=', ':']).next().unwrap_or("kernel").to_string();
            note(&key, n);
        }
        let chips = system::find(&s.topology.system).map_or(0, |x| x.chips());
        for (key, slot) in [
            ("sel", &mut s.topology.selected),
            ("fail", &mut s.topology.failed),
        ] {
            if let Some(c) = *slot {
                if c >= chips {
                    *slot = None;
                    note(
                        key,
                        format!("chip {c} does not exist in a {chips}-chip system; ignored"),
                    );
                }
            }
        }
        // Every notice above went through `note`, so this count covers them all.
        if dropped > 0 {
            notes.push(Notice {
                key: "…".into(),
                message: format!("{dropped} more parts could not be read either"),
            });
        }
        (s, notes)
    }
}

/// At most 40 characters of an untrusted value, for a notice.
fn clip(v: &str) -> String {
    clip_n(v, 40)
}

fn clip_n(v: &str, n: usize) -> String {
    let mut c: String = v.chars().take(n).collect();
    if c.len() < v.len() {
        c.push('…');
    }
    c
}

/// Each key's default: its value in a full link of the default state (empty for keys a
/// default link does not write).
#[must_use]
pub fn key_defaults() -> Vec<(&'static str, String)> {
    let full = Scenario::default().to_query_full();
    let pairs = query_pairs(&full);
    keys::KEYS
        .iter()
        .map(|k| {
            let v = pairs
                .iter()
                .find(|(p, _)| p == k.key)
                .map(|(_, v)| v.clone())
                .unwrap_or_default();
            (k.key, v)
        })
        .collect()
}

/// A query string (with or without `?`) as decoded key and value pairs, in order.
#[must_use]
pub fn query_pairs(query: &str) -> Vec<(String, String)> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (dec(k), dec(v))
        })
        .collect()
}

/// Most notices one link produces before the rest are only counted.
pub use crate::keys::MAX_NOTICES;

/// Percent-encode for a query value, keeping `,:|.-_~*` readable.
#[must_use]
pub fn enc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b",:|.-_~*".contains(&b) {
            o.push(b as char);
        } else if b == b' ' {
            o.push('+');
        } else {
            o.push_str(&format!("%{b:02X}"));
        }
    }
    o
}

/// Decode `%XX` and `+`; invalid escapes are kept as written, invalid UTF-8 is replaced.
#[must_use]
pub fn dec(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                let h = core::str::from_utf8(&b[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match h {
                    Some(x) => {
                        out.push(x);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pasted_models_shape_travels_in_a_link_unescaped() {
        // Only the name of a model read from a config.json may need escapes in a link.
        for text in [
            include_str!("../tests/data/hf/deepseek-v3.json"),
            include_str!("../tests/data/hf/qwen3-30b-a3b.json"),
            include_str!("../tests/data/hf/gpt2.json"),
            include_str!("../tests/data/hf/qwen2.5-72b.json"),
        ] {
            let (m, _) = crate::workload::custom::from_hf_config(text).unwrap();
            let shape = m.id.split(",n:").next().unwrap();
            assert_eq!(enc(shape), shape);
        }
    }

    #[test]
    fn the_decoder_reads_every_key_of_the_table_and_no_other() {
        for k in keys::KEYS {
            for v in ["1", "x"] {
                let (_, notes) = Scenario::from_query(&alloc::format!("{}={v}", k.key));
                assert!(
                    notes.iter().all(|n| !n.message.contains("unknown setting")),
                    "{}: {notes:?}",
                    k.key
                );
            }
        }
        let (_, notes) = Scenario::from_query("wzz=1");
        assert!(notes.iter().any(|n| n.message.contains("unknown setting")));
    }

    #[test]
    fn keys_are_unique_and_bounded_kinds_have_a_range() {
        for (i, k) in keys::KEYS.iter().enumerate() {
            assert!(
                keys::KEYS[..i].iter().all(|o| o.key != k.key),
                "{} twice",
                k.key
            );
            assert!(k.since >= 1 && k.since <= VERSION, "{}", k.key);
            if k.kind.bounded() {
                assert!(
                    k.min <= k.max && k.max > 0.0,
                    "{}: {} to {}",
                    k.key,
                    k.min,
                    k.max
                );
            }
            assert!(!k.what.is_empty());
        }
        assert!(keys::KEYS.len() >= 60);
    }

    #[test]
    fn a_value_at_either_end_is_accepted_and_beyond_is_named() {
        for k in keys::KEYS
            .iter()
            .filter(|k| matches!(k.kind, keys::Kind::Count | keys::Kind::Number))
        {
            // A seed spans every 64-bit value: nothing lies beyond it.
            let beyond = (k.max < 1e15).then_some((k.max * 2.0 + 1.0, false));
            for (v, ok) in [(k.min, true), (k.max, true)].into_iter().chain(beyond) {
                let text = if k.kind == keys::Kind::Count {
                    alloc::format!("{}", v as u64)
                } else {
                    alloc::format!("{v}")
                };
                let (_, notes) = Scenario::from_query(&alloc::format!("{}={text}", k.key));
                let named = notes.iter().any(|n| n.key == k.key);
                assert_eq!(!named, ok, "{}={text}: {notes:?}", k.key);
            }
        }
    }

    #[test]
    fn defaults_come_from_the_default_state() {
        let d = key_defaults();
        assert_eq!(d.len(), keys::KEYS.len());
        let get = |k: &str| d.iter().find(|(x, _)| *x == k).map(|(_, v)| v.clone());
        assert_eq!(get("v").as_deref(), Some("4"));
        assert_eq!(get("page").as_deref(), Some("chips"));
    }
    use crate::chip::Field;

    /// Mutated links: every decode ends, names at most [`MAX_NOTICES`] + 1 problems, and what
    /// it keeps encodes and decodes back to itself.
    #[test]
    fn fuzzed_links_decode_to_a_stable_state() {
        use crate::kernels::Rng;
        // Every key of the table, and one no link has.
        let keys: Vec<&str> = keys::KEYS
            .iter()
            .map(|k| k.key)
            .chain(core::iter::once("zzz"))
            .collect();
        let values = [
            "",
            "0",
            "1",
            "-1",
            "1e308",
            "1e-304",
            "NaN",
            "inf",
            "-0",
            "4294967296",
            "5000",
            "trn2",
            "trn2-16",
            "gb200-nvl72",
            "edit:trn2-16;torus=4x8",
            "gemm:1,2,3",
            "gemm:1e15,1e15,1e15",
            "elem:1,2,1,1",
            "bf16,fp8",
            "all-reduce",
            "ring,auto",
            "1GiB",
            "llama3-70b",
            "roofline",
            "kernels",
            "mxfp4",
            "b0e8m0",
            "cpu1:1,1",
            "%FF%FE",
            "%",
            "a,b,,c",
            "trn2:hbm=1e99",
            "😀",
        ];
        let mut rng = Rng::new(2024);
        for _ in 0..20_000 {
            let parts = 1 + (rng.next_u64() % 8) as usize;
            let mut q = alloc::vec::Vec::new();
            for _ in 0..parts {
                let k = keys[(rng.next_u64() % keys.len() as u64) as usize];
                let mut v = String::from(values[(rng.next_u64() % values.len() as u64) as usize]);
                if rng.next_u64() % 4 == 0 {
                    v.push_str(values[(rng.next_u64() % values.len() as u64) as usize]);
                }
                q.push(alloc::format!("{k}={v}"));
            }
            let q = q.join("&");
            let (a, notes) = Scenario::from_query(&q);
            assert!(notes.len() <= MAX_NOTICES + 1, "{q}");
            let (b, again) = Scenario::from_query(&a.to_query());
            assert_eq!(a, b, "{q}");
            assert!(again.is_empty(), "{q}: {again:?}");
        }
    }

    #[test]
    fn links_carry_only_what_differs_from_the_defaults() {
        assert_eq!(
            Scenario::default().to_query(),
            alloc::format!("v={VERSION}")
        );
        let (s, notes) = Scenario::from_query(
            "page=workload&wsys=gb300-nvl72&wnodes=8&wmodel=deepseek-v3&wdtype=fp8&wprice=3.25&wown=1&wyears=4",
        );
        assert!(notes.is_empty(), "{notes:?}");
        let q = s.to_query();
        assert!(q.len() < 300, "{} characters: {q}", q.len());
        assert_eq!(Scenario::from_query(&q).0, s);
        // Every key written out opens as the same state as the short form.
        assert_eq!(Scenario::from_query(&s.to_query_full()).0, s);
        // A version 1 or 2 link opens with the training-layout model it was made with, and
        // keeps it when written again.
        for v in ["v=1", "v=2"] {
            let old = s
                .to_query_full()
                .replacen(&alloc::format!("v={VERSION}"), v, 1)
                .replace(&alloc::format!("&wlm={}", crate::keys::MODEL_VERSION), "");
            let (o, notes) = Scenario::from_query(&old);
            assert!(notes.is_empty(), "{notes:?}");
            assert_eq!(o.job.model_version, 2);
            assert!(o.to_query().contains("&wlm=2"));
            assert_eq!(Scenario::from_query(&o.to_query()).0, o);
        }
        // A version 3 link opens with the rate it was made with (the chip's first), not on
        // today's price basis, and keeps it when written again.
        let (o, notes) = Scenario::from_query("v=3&page=workload&wsys=hgx-h100-8");
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(o.job.rental_option, Some(0));
        assert_eq!(Scenario::from_query(&o.to_query()).0, o);
        let (_, notes) = Scenario::from_query(&alloc::format!("v={}", VERSION + 1));
        assert!(notes[0].message.contains("newer"));
        // The app's navigation relies on the page coming right after the version.
        let mut on = s.clone();
        on.page = Page::Roofline;
        let mut off = s.clone();
        off.page = Page::Chips;
        let q = off.to_query();
        let (v, rest) = q.split_once('&').unwrap();
        assert_eq!(on.to_query(), alloc::format!("{v}&page=roofline&{rest}"));
    }

    #[test]
    fn decode_encode_decode_is_stable() {
        for q in [
            "op=gemm:1.23456789,2.5,3e7",
            "op=elem:1e-3,1,1,1",
            "op=gemm:0.1,0.2,0.30000000000000004",
            "sys=trn2-16&sel=15&fail=3",
            "sys=trn2-16&sel=16",
            "sel=5&sys=trn2-16",
            "sys=gb200-nvl72&sel=71",
            "size=1.5GiB&nodes=3",
            "wtokens=1.234567e12&wprice=2.123456789",
            "kin=nvfp4&kins=b64e8m0&kseed=18446744073709551615",
        ] {
            let (a, _) = Scenario::from_query(q);
            let (b, notes) = Scenario::from_query(&a.to_query());
            assert_eq!(a, b, "{q}");
            assert!(notes.is_empty(), "{q}: {notes:?}");
        }
    }

    #[test]
    fn hostile_links_are_bounded_and_named() {
        // An operation too large for finite FLOP is refused, not drawn as infinity.
        let (sc, notes) = Scenario::from_query("page=roofline&op=gemm:1e103,1e103,1e103");
        assert!(
            notes
                .iter()
                .any(|n| n.key == "op" && n.message.contains("1e15")),
            "{notes:?}"
        );
        assert!(sc
            .ops
            .iter()
            .all(|o| o.cost(Dtype::Bf16).intensity().get().is_finite()));
        // A vanishing message size is refused (the simulation would never end).
        let (sc, notes) = Scenario::from_query("size=1e-304");
        assert_eq!(sc.collectives.bytes, CollectivesView::default().bytes);
        assert_eq!(notes.len(), 1);
        // Too many nodes is said, not silently clamped.
        let (sc, notes) = Scenario::from_query("wnodes=5000");
        assert_eq!(sc.job.nodes, Job::default().nodes);
        assert!(notes[0].message.contains("4096"), "{notes:?}");
        // A million bad ids make 20 short notices and a count, not half a million.
        let q = alloc::format!("chips={}", alloc::vec!["nope"; 200_000].join(","));
        let (_, notes) = Scenario::from_query(&q);
        assert_eq!(notes.len(), MAX_NOTICES + 1);
        assert!(notes.iter().all(|n| n.message.len() < 400));
        let long = alloc::format!("wsys={}", "x".repeat(1 << 20));
        let (_, notes) = Scenario::from_query(&long);
        assert!(notes[0].message.len() < 400);
    }

    #[test]
    fn default_round_trips() {
        let s = Scenario::default();
        let (back, notes) = Scenario::from_query(&s.to_query());
        assert_eq!(back, s);
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn full_state_round_trips() {
        let mut e = ChipEdit::clone_of(&catalog::find("trn2").unwrap());
        e.name = "Trn2 & friends, 3.2 TB/s".into();
        e.set(Field::HbmBandwidth, 3.2e12).unwrap();
        e.set(Field::Dense(Dtype::Bf16), 7.1e14).unwrap();
        let s = Scenario {
            page: Page::Roofline,
            chips: alloc::vec!["custom-1".into(), "h100-sxm".into()],
            format: Dtype::Fp8,
            roofline_formats: alloc::vec![Dtype::Fp8, Dtype::Bf16],
            ops: alloc::vec![OpSpec::parse_spec("gemm:1,2,3").unwrap()],
            custom: alloc::vec![e],
            topology: TopologyView {
                system: "gb200-nvl72".into(),
                selected: Some(71),
                failed: Some(3),
            },
            collectives: CollectivesView {
                systems: alloc::vec!["trn2-16".into(), "tpu-v6e-256".into()],
                ops: alloc::vec![Op::AllToAll, Op::Broadcast],
                algorithms: alloc::vec![Algorithm::Ring, Algorithm::Auto],
                nodes: 16,
                bytes: 524_288.0,
            },
            job: Job {
                system: "gb300-nvl72".into(),
                nodes: 8,
                model: "deepseek-v3".into(),
                dtype: Dtype::Fp8,
                tokens: 1.5e13,
                global_batch: 4096,
                efficiency: Some(0.65),
                batch: 16,
                prompt: 4096,
                output: 1024,
                owned: true,
                usd_per_chip_hour: Some(3.25),
                discount: 0.3,
                years: 4.0,
                pue: 1.35,
                usd_per_kwh: 0.11,
                rental_option: Some(1),
                price_basis: Some("on-demand@2025-11-30".into()),
                link_reading: system::LinkReading::PerDirection,
                chip_usd: Some(27_500.0),
                cost_of_capital: 0.1,
                facility_usd_per_kw_month: 180.0,
                maintenance: 0.04,
                overlap: Some(0.65),
                network_usd: Some(2_500.0),
                load: 0.7,
                compare_with: "trn3-ultra-144".into(),
                lever: crate::job::Lever::Discount,
                ttft_s: 0.45,
                tpot_s: 0.04,
                curve_systems: alloc::vec!["gb300-nvl72".into(), "mi355x-8".into()],
                curve_per_usd: true,
                weight_dtype: Some(Dtype::Fp4),
                kv_dtype: Some(Dtype::Fp8),
                draft_tokens: 2,
                acceptance: 0.8,
                prefix_hit: 0.4,
                prefill_system: "hgx-b200-8".into(),
                decode_system: "trn2-ultra-64".into(),
                model_version: 2,
                fail_rate: Some(3e-5),
                repair_h: Some(12.0),
                restart_min: Some(4.0),
                ckpt_bytes_per_s: Some(5e9),
                expert_imbalance: Some(1.25),
            },
            kernel: crate::kernels::KernelSpec {
                kernel: crate::kernels::Kernel::Softmax,
                m: 64,
                input: crate::kernels::Operand::parse("mxfp6").unwrap(),
                seed: 9,
                ..Default::default()
            },
            device: crate::kernels::device::parse_spec("cpu1:20.5,12;gpu:800,250").unwrap(),
            neuroncore: "trn3_mm_128x8192x8192_fp8_t128x2048x1024_b3_sB_h0.5".into(),
            nc_point: parse_nc_point("124.1,3.242e14"),
        };
        let q = s.to_query();
        let (back, notes) = Scenario::from_query(&q);
        assert_eq!(back, s, "{q}");
        assert!(notes.is_empty(), "{notes:?}");
        let chips = back.chosen_chips();
        assert_eq!(chips[0].id, "custom-1");
        assert!(chips[0].custom);
        assert_eq!(chips[0].hbm_bandwidth.value.get(), 3.2e12);
        assert!(chips[0].hbm_bandwidth.source.is_user());
    }

    #[test]
    fn clones_and_removals_keep_ids_consistent() {
        let mut s = Scenario::default();
        assert_eq!(s.add_clone("trn2").as_deref(), Some("custom-1"));
        assert_eq!(s.add_clone("h200").as_deref(), Some("custom-2"));
        assert_eq!(s.add_clone("custom-1").as_deref(), Some("custom-3"));
        assert_eq!(s.custom[2].base, "trn2");
        assert_eq!(s.add_clone("nope"), None);
        s.remove_custom(0);
        assert_eq!(s.custom.len(), 2);
        assert!(s
            .chips
            .ends_with(&["custom-1".to_string(), "custom-2".to_string()]));
        let ids: Vec<String> = s.chosen_chips().iter().map(|c| c.id.clone()).collect();
        assert!(ids.ends_with(&["custom-1".to_string(), "custom-2".to_string()]));
        assert_eq!(
            s.chosen_chips().last().unwrap().based_on.as_deref(),
            Some("trn2")
        );
    }

    #[test]
    fn empty_op_list_survives() {
        let s = Scenario {
            ops: Vec::new(),
            ..Scenario::default()
        };
        assert_eq!(Scenario::from_query(&s.to_query()).0.ops, Vec::new());
    }

    #[test]
    fn damaged_links_keep_what_they_can() {
        let (s, notes) = Scenario::from_query(
            "?v=1&page=nowhere&chips=trn2,bogus,h200&fmt=fp7&rfmt=fp8,xx&op=gemm:1,2&op=gemm:4,4,4&zzz=1&custom=nochip|name=x",
        );
        assert_eq!(s.page, Page::Chips);
        assert_eq!(s.chips, ["trn2", "h200"]);
        assert_eq!(s.format, Dtype::Bf16);
        assert_eq!(s.roofline_formats, [Dtype::Fp8]);
        assert_eq!(s.ops, [OpSpec::parse_spec("gemm:4,4,4").unwrap()]);
        assert!(s.custom.is_empty());
        let keys: Vec<&str> = notes.iter().map(|n| n.key.as_str()).collect();
        assert_eq!(
            keys,
            ["custom", "page", "chips", "fmt", "rfmt", "op", "zzz"]
        );
        assert!(notes[2].message.contains("bogus"));
    }

    #[test]
    fn damaged_topology_and_collective_settings_keep_defaults() {
        let (s, notes) = Scenario::from_query(
            "sys=trn2-16&sel=99&fail=x&csys=gb200-nvl72,warp-drive&cop=all-gather,gossip&calgo=magic&nodes=0&size=-5GiB",
        );
        assert_eq!(s.topology.system, "trn2-16");
        assert_eq!(s.topology.selected, None);
        assert_eq!(s.topology.failed, None);
        assert_eq!(s.collectives.systems, ["gb200-nvl72"]);
        assert_eq!(s.collectives.ops, [Op::AllGather]);
        assert_eq!(
            s.collectives.algorithms,
            CollectivesView::default().algorithms
        );
        assert_eq!(s.collectives.nodes, 1);
        assert_eq!(s.collectives.bytes, CollectivesView::default().bytes);
        let keys: Vec<&str> = notes.iter().map(|n| n.key.as_str()).collect();
        for k in [
            "fail", "csys", "cop", "calgo", "calgo", "nodes", "size", "sel",
        ] {
            assert!(keys.contains(&k), "{k} in {keys:?}");
        }
        assert!(notes.iter().any(|n| n.message.contains("16-chip")));
        assert_eq!(Scenario::from_query("size=8B").0.collectives.bytes, 8.0);
    }

    #[test]
    fn damaged_job_settings_keep_defaults() {
        let (s, notes) = Scenario::from_query(
            "wsys=x&wmodel=y&wdtype=fp7&wnodes=0&weff=2&wpue=0.5&wtokens=abc&wown=1",
        );
        let d = Job::default();
        assert_eq!(
            (s.job.system.as_str(), s.job.model.as_str()),
            (d.system.as_str(), d.model.as_str())
        );
        assert_eq!(
            (s.job.nodes, s.job.efficiency, s.job.pue, s.job.tokens),
            (d.nodes, d.efficiency, d.pue, d.tokens)
        );
        assert!(s.job.owned);
        assert_eq!(notes.len(), 7, "{notes:?}");
    }

    #[test]
    fn garbage_never_panics() {
        for q in [
            "%",
            "%%%",
            "a=%zz&&=&chips=,,,",
            "v=99",
            "chips=%FF%FE",
            "op=moe:",
            "custom=|||",
        ] {
            let (s, _) = Scenario::from_query(q);
            assert!(!s.chips.is_empty());
        }
        assert!(!Scenario::from_query("v=99").1.is_empty());
    }

    #[test]
    fn percent_codec() {
        assert_eq!(dec(&enc("a b&c=d|é,%")), "a b&c=d|é,%");
        assert_eq!(dec("%4"), "%4");
        assert_eq!(dec("%zz"), "%zz");
    }
}
