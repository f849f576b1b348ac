//! Every key a link may carry, written once: its kind, its range, the link version it first
//! appeared in and what it sets, with the limits the ranges are made of. The decoder's
//! bounds, the job's validation, the CLI's flag checks and the fuzz's generators read it;
//! `accelscope keys` prints it with each key's default (`Scenario::key_defaults`). It
//! imports nothing, so every layer may read it.

/// What a key's value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The link's version.
    Version,
    /// A page of the app.
    Page,
    /// One id from a list the app knows (a system, a model, a format…).
    Id,
    /// A comma-separated list of ids.
    Ids,
    /// Text in its own small language (an operation, a custom chip, a schedule…).
    Text,
    /// A whole number within [`Key::min`], [`Key::max`].
    Count,
    /// A number within [`Key::min`], [`Key::max`].
    Number,
    /// 0 or 1.
    Flag,
    /// A size in bytes with its unit (`1GiB`), from [`Key::min`] to [`Key::max`] bytes.
    Size,
}

impl Kind {
    /// Lower-case id.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Kind::Version => "version",
            Kind::Page => "page",
            Kind::Id => "id",
            Kind::Ids => "ids",
            Kind::Text => "text",
            Kind::Count => "count",
            Kind::Number => "number",
            Kind::Flag => "flag",
            Kind::Size => "size",
        }
    }
    /// Whether the key's value is bounded by [`Key::min`] and [`Key::max`].
    #[must_use]
    pub const fn bounded(self) -> bool {
        matches!(self, Kind::Count | Kind::Number | Kind::Size)
    }
}

/// One key of a link.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key {
    /// The key as links write it.
    pub key: &'static str,
    /// What its value is.
    pub kind: Kind,
    /// Least value, for bounded kinds.
    pub min: f64,
    /// Greatest value, for bounded kinds.
    pub max: f64,
    /// The link version it first appeared in.
    pub since: u32,
    /// What it sets, in words (the name error messages use).
    pub what: &'static str,
}

const fn key(key: &'static str, kind: Kind, since: u32, what: &'static str) -> Key {
    Key {
        key,
        kind,
        min: 0.0,
        max: 0.0,
        since,
        what,
    }
}

const fn bounded(
    key: &'static str,
    kind: Kind,
    (min, max): (f64, f64),
    since: u32,
    what: &'static str,
) -> Key {
    Key {
        key,
        kind,
        min,
        max,
        since,
        what,
    }
}

/// Most nodes a collective or a job may span.
pub const MAX_NODES: u32 = 4096;
/// Most notices one decode names (one more counts the rest).
pub const MAX_NOTICES: usize = 20;
/// Largest kernel dimension (M, N or K) a link may ask the Kernels page to run.
pub const MAX_KERNEL_DIM: u32 = 16_384;
/// Most tokens a serving step may draft.
pub const MAX_DRAFT: u32 = 8;
/// The largest expert imbalance a job may set (every token on one rank of 64 is 64).
pub const MAX_EXPERT_IMBALANCE: f64 = 64.0;
/// The model version new links use: 10 lays a training pipeline out as frameworks do (the
/// output head and multi-token prediction modules on the last stage, the layers spread to
/// even the stages out); 9 runs data-parallel collectives as frameworks run them
/// (over the whole scale-up fabric, FSDP's gathers hidden phase by phase); 8 chooses the
/// micro-batch and host offload and times each mixture of experts' own experts; 7 times a mixture of experts' serving steps, and FP4's,
/// operation by operation from the chips' kernel tables and searches attention data-parallel
/// and wide expert-parallel layouts; 6 serves a job at the cheapest configuration meeting its
/// latency targets; 5 makes a prefill pay its tensor-parallel all-reduces
/// and its launches besides its FLOPs, serves Trainium in the shapes Neuron compiles and
/// trains a mixture of experts' routed GEMMs as a grouped GEMM; what each earlier version
/// left out is on `Job::model_version`.
pub const MODEL_VERSION: u32 = 10;
/// The largest attention data-parallel or serving expert-parallel degree a job may set.
pub const MAX_SERVE_DEGREE: u32 = 1024;
/// Most sequences, prompt or output tokens a job may name (64 per node at the most nodes).
pub const MAX_TOKENS_OR_SEQUENCES: u32 = MAX_NODES * 64;

const NODES: (f64, f64) = (1.0, MAX_NODES as f64);
const MANY: (f64, f64) = (1.0, MAX_TOKENS_OR_SEQUENCES as f64);

/// The Learn page's lessons, in teaching order: the values the `lesson` key takes
/// ([`crate::learn`] works each out).
pub const LESSONS: [&str; 6] = ["roofline", "fp8", "torus", "pipeline", "cost", "systolic"];

/// Every key, in the order a full link writes them.
pub const KEYS: &[Key] = &[
    key("v", Kind::Version, 1, "link version"),
    key("page", Kind::Page, 1, "page shown"),
    key("embed", Kind::Flag, 4, "the view alone, for an iframe"),
    key(
        "cmp",
        Kind::Text,
        9,
        "scenario compared on the Compare page",
    ),
    key("lesson", Kind::Id, 4, "lesson on the Learn page"),
    key("chips", Kind::Ids, 1, "chips compared"),
    key("fmt", Kind::Id, 1, "format of the chips table"),
    key("rfmt", Kind::Ids, 1, "roofline formats"),
    key("op", Kind::Text, 1, "operation on the roofline"),
    key("custom", Kind::Text, 1, "custom chip"),
    key("sys", Kind::Id, 1, "system on the topology page"),
    key("sel", Kind::Text, 1, "selected chip on the topology page"),
    key("fail", Kind::Text, 1, "failed chip on the topology page"),
    key("csys", Kind::Ids, 1, "systems on the collectives page"),
    key("cop", Kind::Ids, 1, "collective operations"),
    key("calgo", Kind::Ids, 1, "collective algorithms"),
    bounded("nodes", Kind::Count, NODES, 1, "collective node count"),
    bounded("size", Kind::Size, (1.0, 1e15), 1, "collective size"),
    key("wsys", Kind::Id, 1, "job system"),
    bounded("wnodes", Kind::Count, NODES, 1, "job nodes"),
    key("wmodel", Kind::Id, 1, "job model"),
    key("wdtype", Kind::Id, 1, "job format"),
    bounded("wtokens", Kind::Number, (1.0, 1e16), 1, "training tokens"),
    bounded("wgbs", Kind::Count, MANY, 1, "global batch (sequences)"),
    bounded("weff", Kind::Number, (0.01, 1.0), 1, "matmul efficiency"),
    bounded("wbatch", Kind::Count, MANY, 1, "serving batch per replica"),
    bounded("wpr", Kind::Count, MANY, 1, "prompt tokens"),
    bounded("wout", Kind::Count, MANY, 1, "output tokens"),
    key("wown", Kind::Flag, 1, "own the chips instead of renting"),
    bounded(
        "wprice",
        Kind::Number,
        (0.0001, 1000.0),
        1,
        "$ per chip-hour",
    ),
    bounded("wdisc", Kind::Number, (0.0, 0.95), 1, "rental discount"),
    bounded(
        "wyears",
        Kind::Number,
        (0.5, 20.0),
        1,
        "years of depreciation",
    ),
    bounded("wpue", Kind::Number, (1.0, 3.0), 1, "PUE"),
    bounded("wkwh", Kind::Number, (0.0, 5.0), 1, "$ per kWh"),
    bounded(
        "wopt",
        Kind::Count,
        (0.0, 15.0),
        1,
        "one of the chip's published rates",
    ),
    key("wbasis", Kind::Id, 4, "price basis"),
    key("wread", Kind::Id, 4, "reading of AWS's link figures"),
    bounded("wchip", Kind::Number, (1.0, 1e7), 1, "price per chip"),
    bounded("wcoc", Kind::Number, (0.0, 0.5), 1, "cost of capital"),
    bounded(
        "wfac",
        Kind::Number,
        (0.0, 5000.0),
        1,
        "facility $ per kW-month",
    ),
    bounded(
        "wmaint",
        Kind::Number,
        (0.0, 0.5),
        1,
        "maintenance per year",
    ),
    bounded("wov", Kind::Number, (0.0, 1.0), 1, "communication overlap"),
    bounded("wnet", Kind::Number, (0.0, 1e6), 1, "networking $ per chip"),
    bounded("wload", Kind::Number, (0.05, 1.0), 1, "average load"),
    bounded(
        "wsrate",
        Kind::Number,
        (0.001, 10_000.0),
        4,
        "serving simulation: requests/s",
    ),
    key("wstraffic", Kind::Id, 4, "serving simulation: traffic"),
    key("wseng", Kind::Id, 4, "serving simulation: engine"),
    key(
        "wsvary",
        Kind::Flag,
        4,
        "serving simulation: lengths spread about their means",
    ),
    bounded(
        "wshkv",
        Kind::Number,
        (0.0, 100_000.0),
        4,
        "serving simulation: host memory for evicted KV blocks, GB",
    ),
    bounded(
        "wshbw",
        Kind::Number,
        (0.1, 10_000.0),
        4,
        "serving simulation: host-to-HBM bandwidth, GB/s",
    ),
    bounded(
        "wsdur",
        Kind::Number,
        (1.0, 3600.0),
        4,
        "serving simulation: seconds",
    ),
    key("wspc", Kind::Flag, 4, "serving simulation: prefix cache"),
    key("wref", Kind::Id, 1, "platform compared with"),
    key("wlever", Kind::Id, 1, "break-even lever"),
    bounded(
        "wttft",
        Kind::Number,
        (0.001, 3600.0),
        2,
        "time-to-first-token target (s)",
    ),
    bounded(
        "wtpot",
        Kind::Number,
        (0.0001, 60.0),
        2,
        "time-per-output-token target (s)",
    ),
    key("wcurve", Kind::Ids, 2, "platforms on the serving chart"),
    key("wcy", Kind::Id, 2, "serving chart per chip or per dollar"),
    key("wwt", Kind::Id, 2, "weight format"),
    key("wkv", Kind::Id, 2, "KV-cache format"),
    bounded(
        "wdraft",
        Kind::Count,
        (0.0, MAX_DRAFT as f64),
        2,
        "drafted tokens per step",
    ),
    bounded(
        "wacc",
        Kind::Number,
        (0.0, 0.99),
        2,
        "draft acceptance rate",
    ),
    bounded(
        "wprefix",
        Kind::Number,
        (0.0, 0.99),
        2,
        "prefix-cache hit rate",
    ),
    key("wpsys", Kind::Id, 2, "prefill system"),
    key("wdsys", Kind::Id, 2, "decode system"),
    bounded(
        "wlm",
        Kind::Count,
        (2.0, MODEL_VERSION as f64),
        3,
        "model version",
    ),
    bounded(
        "wfrate",
        Kind::Number,
        (1e-9, 0.01),
        3,
        "interruptions per chip-hour",
    ),
    bounded("wrepair", Kind::Number, (0.01, 720.0), 3, "repair hours"),
    bounded("wrestart", Kind::Number, (0.1, 600.0), 3, "restart minutes"),
    bounded(
        "wckpt",
        Kind::Number,
        (1e6, 1e12),
        3,
        "checkpoint write bytes/s per chip",
    ),
    bounded(
        "wimb",
        Kind::Number,
        (1.0, MAX_EXPERT_IMBALANCE),
        4,
        "expert imbalance (busiest rank over the mean)",
    ),
    bounded(
        "wadp",
        Kind::Count,
        (1.0, MAX_SERVE_DEGREE as f64),
        6,
        "attention data-parallel degree",
    ),
    bounded(
        "wep",
        Kind::Count,
        (1.0, MAX_SERVE_DEGREE as f64),
        6,
        "serving expert-parallel degree",
    ),
    bounded(
        "wmb",
        Kind::Count,
        MANY,
        7,
        "training micro-batch (sequences a device runs in one pass)",
    ),
    key(
        "woff",
        Kind::Flag,
        7,
        "offload layer inputs to host memory (absent: where nothing else fits)",
    ),
    key("knc", Kind::Text, 3, "NeuronCore schedule"),
    key("kncpt", Kind::Text, 3, "NeuronCore timeline view"),
    key("dev", Kind::Text, 1, "this machine's measured device"),
    key("kern", Kind::Id, 1, "kernel"),
    bounded(
        "km",
        Kind::Count,
        (1.0, MAX_KERNEL_DIM as f64),
        1,
        "kernel M",
    ),
    bounded(
        "kn",
        Kind::Count,
        (1.0, MAX_KERNEL_DIM as f64),
        1,
        "kernel N",
    ),
    bounded(
        "kk",
        Kind::Count,
        (1.0, MAX_KERNEL_DIM as f64),
        1,
        "kernel K",
    ),
    key("kin", Kind::Id, 1, "kernel input format"),
    key("kins", Kind::Text, 1, "kernel input scaling"),
    key("kw", Kind::Id, 1, "kernel weight format"),
    key("kws", Kind::Text, 1, "kernel weight scaling"),
    key("kacc", Kind::Id, 1, "kernel accumulator"),
    key("kout", Kind::Id, 1, "kernel output format"),
    key("kdist", Kind::Id, 1, "kernel input distribution"),
    bounded(
        "kseed",
        Kind::Count,
        (0.0, 18_446_744_073_709_551_615.0),
        1,
        "kernel seed",
    ),
    key("ksr", Kind::Flag, 1, "kernel stochastic rounding"),
    key("ksat", Kind::Flag, 1, "kernel saturation"),
];

/// The key `k`, if links have it.
#[must_use]
pub fn find(k: &str) -> Option<&'static Key> {
    KEYS.iter().find(|x| x.key == k)
}

/// The range of a bounded key (a count, a number or a size).
#[must_use]
pub fn range(k: &str) -> Option<(f64, f64)> {
    find(k).filter(|x| x.kind.bounded()).map(|x| (x.min, x.max))
}
