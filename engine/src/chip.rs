//! One accelerator: peak throughput per format (dense and sparse kept apart), memory, cores, power.
//!
//! A [`ChipEdit`] clones a preset and overrides figures; the result is marked custom and the
//! edited figures carry [`crate::source::Source::UserEdit`].

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::dtype::Dtype;
use crate::source::Sourced;
use crate::units::{Bytes, BytesPerSec, FlopPerByte, FlopPerSec, FlopPerWatt, Hertz, Watts};

/// Peak throughput in one format. Sparse is never used where dense is asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Peak {
    /// Dense peak; `None` when the chip does not support the format.
    #[cfg_attr(feature = "serde", serde(rename = "dense_flop_per_s"))]
    pub dense: Option<Sourced<FlopPerSec>>,
    /// Peak with structured sparsity (pattern in [`Chip::sparsity`]); `None` if not offered.
    #[cfg_attr(feature = "serde", serde(rename = "sparse_flop_per_s"))]
    pub sparse: Option<Sourced<FlopPerSec>>,
}

/// One level of on-chip memory (SBUF, PSUM, L2, shared memory).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MemoryLevel {
    /// Name as the vendor uses it: `SBUF`, `L2`.
    pub name: &'static str,
    /// Capacity for the whole chip.
    #[cfg_attr(feature = "serde", serde(rename = "capacity_bytes"))]
    pub capacity: Sourced<Bytes>,
}

/// A clock of one engine or of the tensor datapath.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Clock {
    /// What runs at this clock: `Tensor engine`, `SM boost (tensor peak)`.
    pub engine: &'static str,
    /// Frequency.
    #[cfg_attr(feature = "serde", serde(rename = "frequency_hz"))]
    pub frequency: Sourced<Hertz>,
}

/// An accelerator chip (for GB200/GB300: one GPU of the superchip).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Chip {
    /// Stable id used in URLs and the CLI: `trn2`, `h100-sxm`; custom chips get `custom-N`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// `AWS`, `NVIDIA`, `Google`.
    pub vendor: &'static str,
    /// Peak per format, indexed by [`Dtype::index`].
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser_peaks"))]
    pub peaks: [Peak; Dtype::COUNT],
    /// The structured-sparsity pattern the sparse figures assume, e.g. `2:4`.
    pub sparsity: &'static str,
    /// HBM capacity.
    #[cfg_attr(feature = "serde", serde(rename = "hbm_capacity_bytes"))]
    pub hbm_capacity: Sourced<Bytes>,
    /// HBM bandwidth (both directions of the memory interface, as vendors quote it).
    #[cfg_attr(feature = "serde", serde(rename = "hbm_bandwidth_bytes_per_s"))]
    pub hbm_bandwidth: Sourced<BytesPerSec>,
    /// On-chip memories, chip totals.
    pub sram: Vec<MemoryLevel>,
    /// Number of cores (NeuronCores, SMs, TensorCores).
    pub cores: Sourced<u32>,
    /// What a core is and which engines it holds.
    pub core_kind: &'static str,
    /// Engine clocks.
    pub clocks: Vec<Clock>,
    /// Chip power (TDP/TGP); `None` when no source publishes it.
    #[cfg_attr(feature = "serde", serde(rename = "power_w"))]
    pub power: Option<Sourced<Watts>>,
    /// True when the user cloned and edited this chip.
    pub custom: bool,
    /// The preset a custom chip was cloned from.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub based_on: Option<String>,
}

#[cfg(feature = "serde")]
fn ser_peaks<S: serde::Serializer>(peaks: &[Peak; Dtype::COUNT], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(None)?;
    for d in Dtype::ALL {
        let p = &peaks[d.index()];
        if p.dense.is_some() || p.sparse.is_some() {
            m.serialize_entry(d.id(), p)?;
        }
    }
    m.end()
}

impl Chip {
    /// Whether the chip runs AWS's Neuron software (a Trainium chip, or a copy of one): its
    /// fixed costs per layer, compiled shapes and launches apply.
    #[must_use]
    pub fn runs_neuron(&self) -> bool {
        self.vendor == "AWS"
    }
    /// The peak entry for `d`.
    #[must_use]
    pub fn peak(&self, d: Dtype) -> &Peak {
        &self.peaks[d.index()]
    }

    /// Dense peak in `d`, if supported.
    #[must_use]
    pub fn dense(&self, d: Dtype) -> Option<FlopPerSec> {
        self.peak(d).dense.map(|s| s.value)
    }

    /// Sparse peak in `d`, if offered.
    #[must_use]
    pub fn sparse(&self, d: Dtype) -> Option<FlopPerSec> {
        self.peak(d).sparse.map(|s| s.value)
    }

    /// Formats with a dense peak, widest first.
    pub fn formats(&self) -> impl Iterator<Item = Dtype> + '_ {
        Dtype::ALL.into_iter().filter(|d| self.dense(*d).is_some())
    }

    /// Dense FLOP per HBM byte at which compute and memory time are equal.
    #[must_use]
    pub fn ridge(&self, d: Dtype) -> Option<FlopPerByte> {
        self.dense(d).map(|f| f / self.hbm_bandwidth.value)
    }

    /// Dense FLOP/s per watt, if the power is known.
    #[must_use]
    pub fn flops_per_watt(&self, d: Dtype) -> Option<FlopPerWatt> {
        Some(self.dense(d)? / self.power?.value)
    }

    /// HBM bytes per dense FLOP/s: how much memory backs each unit of compute.
    #[must_use]
    pub fn bytes_per_flops(&self, d: Dtype) -> Option<f64> {
        Some(self.hbm_capacity.value / self.dense(d)?)
    }

    /// Total on-chip SRAM over all levels.
    #[must_use]
    pub fn sram_total(&self) -> Bytes {
        self.sram
            .iter()
            .fold(Bytes::new(0.0), |a, m| a + m.capacity.value)
    }
}

/// A figure of a chip that a user can edit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "String", try_from = "String"))]
pub enum Field {
    /// Dense peak in a format, FLOP/s.
    Dense(Dtype),
    /// Sparse peak in a format, FLOP/s.
    Sparse(Dtype),
    /// HBM capacity, bytes.
    HbmCapacity,
    /// HBM bandwidth, bytes/s.
    HbmBandwidth,
    /// Power, watts.
    Power,
}

impl Field {
    /// Stable id: `bf16`, `bf16_sparse`, `hbm_bytes`, `hbm_bytes_per_s`, `power_w`.
    #[must_use]
    pub fn id(self) -> String {
        match self {
            Field::Dense(d) => d.id().to_string(),
            Field::Sparse(d) => format!("{}_sparse", d.id()),
            Field::HbmCapacity => "hbm_bytes".into(),
            Field::HbmBandwidth => "hbm_bytes_per_s".into(),
            Field::Power => "power_w".into(),
        }
    }

    /// Every editable field.
    #[must_use]
    pub fn all() -> Vec<Field> {
        let mut v = alloc::vec![Field::HbmCapacity, Field::HbmBandwidth, Field::Power];
        v.extend(Dtype::ALL.iter().map(|d| Field::Dense(*d)));
        v.extend(Dtype::ALL.iter().map(|d| Field::Sparse(*d)));
        v
    }

    /// The ids of every field, for error messages.
    #[must_use]
    pub fn valid_ids() -> String {
        let v: Vec<String> = Self::all().into_iter().map(Field::id).collect();
        v.join(", ")
    }
}

impl From<Field> for String {
    fn from(f: Field) -> String {
        f.id()
    }
}

impl TryFrom<String> for Field {
    type Error = EditError;
    fn try_from(s: String) -> Result<Self, EditError> {
        s.parse()
    }
}

impl core::str::FromStr for Field {
    type Err = EditError;
    fn from_str(s: &str) -> Result<Self, EditError> {
        Self::all()
            .into_iter()
            .find(|f| f.id() == s)
            .ok_or_else(|| EditError::UnknownField(s.into()))
    }
}

/// A custom chip: a preset cloned, renamed, and with some figures overridden.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChipEdit {
    /// Id of the preset it was cloned from.
    pub base: String,
    /// Display name of the custom chip.
    pub name: String,
    /// Overridden figures, in SI base units; later entries win.
    pub overrides: Vec<(Field, f64)>,
}

/// Why a chip edit cannot be applied.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum EditError {
    /// The field id is not editable.
    UnknownField(String),
    /// The value is not a positive finite number.
    BadValue {
        /// Which field.
        field: String,
        /// What was given.
        value: String,
    },
    /// The compact spec text could not be read.
    Malformed(String),
    /// The name is longer than [`MAX_NAME`] characters.
    NameTooLong(usize),
}

/// Longest name of an edited chip, in characters.
pub const MAX_NAME: usize = 80;

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownField(s) => {
                write!(
                    f,
                    "unknown chip field '{s}' (valid: {})",
                    Field::valid_ids()
                )
            }
            Self::BadValue { field, value } => {
                write!(f, "{field} must be a positive number, got '{value}'")
            }
            Self::NameTooLong(n) => write!(
                f,
                "a chip's name has at most {MAX_NAME} characters, this one {n}"
            ),
            Self::Malformed(s) => write!(
                f,
                "cannot read custom chip '{s}' (expected BASE|name=NAME|FIELD=VALUE…)"
            ),
        }
    }
}

impl core::error::Error for EditError {}

impl ChipEdit {
    /// A fresh clone of `base` with no overrides.
    #[must_use]
    pub fn clone_of(base: &Chip) -> Self {
        Self {
            base: base.id.clone(),
            name: format!("{} (custom)", base.name),
            overrides: Vec::new(),
        }
    }

    /// Set (or replace) one figure.
    ///
    /// # Errors
    /// [`EditError::BadValue`] unless `v` is positive and finite.
    pub fn set(&mut self, field: Field, v: f64) -> Result<(), EditError> {
        if !(v.is_finite() && v > 0.0) {
            return Err(EditError::BadValue {
                field: field.id(),
                value: format!("{v}"),
            });
        }
        self.overrides.retain(|(f, _)| *f != field);
        self.overrides.push((field, v));
        Ok(())
    }

    /// The chip that results from applying this edit to `base`, with id `id`.
    #[must_use]
    pub fn apply(&self, base: &Chip, id: &str) -> Chip {
        let mut c = base.clone();
        c.id = id.into();
        c.name = self.name.clone();
        c.custom = true;
        c.based_on = Some(base.id.clone());
        for &(f, v) in &self.overrides {
            match f {
                Field::Dense(d) => {
                    c.peaks[d.index()].dense = Some(Sourced::user(FlopPerSec::new(v)))
                }
                Field::Sparse(d) => {
                    c.peaks[d.index()].sparse = Some(Sourced::user(FlopPerSec::new(v)));
                }
                Field::HbmCapacity => c.hbm_capacity = Sourced::user(Bytes::new(v)),
                Field::HbmBandwidth => c.hbm_bandwidth = Sourced::user(BytesPerSec::new(v)),
                Field::Power => c.power = Some(Sourced::user(Watts::new(v))),
            }
        }
        c
    }

    /// Compact text form for links: `trn2|name=My chip|bf16=7e14|hbm_bytes_per_s=3.2e12`.
    #[must_use]
    pub fn to_spec(&self) -> String {
        let mut s = format!("{}|name={}", self.base, self.name.replace('|', "/"));
        for (f, v) in &self.overrides {
            s.push_str(&format!("|{}={v:e}", f.id()));
        }
        s
    }

    /// Read the form written by [`ChipEdit::to_spec`].
    ///
    /// # Errors
    /// When the text is malformed, a field is unknown or a value is not positive.
    pub fn parse_spec(s: &str) -> Result<Self, EditError> {
        let mut parts = s.split('|');
        let base = parts.next().unwrap_or("").trim();
        if base.is_empty() {
            return Err(EditError::Malformed(s.into()));
        }
        let mut e = ChipEdit {
            base: base.into(),
            name: format!("{base} (custom)"),
            overrides: Vec::new(),
        };
        for p in parts {
            let (k, v) = p
                .split_once('=')
                .ok_or_else(|| EditError::Malformed(s.into()))?;
            if k == "name" {
                let n = v.trim().chars().count();
                if n > MAX_NAME {
                    return Err(EditError::NameTooLong(n));
                }
                e.name = v.trim().into();
                continue;
            }
            let f: Field = k.parse()?;
            let x: f64 = v.parse().map_err(|_| EditError::BadValue {
                field: k.into(),
                value: v.into(),
            })?;
            e.set(f, x).map_err(|_| EditError::BadValue {
                field: k.into(),
                value: v.into(),
            })?;
        }
        Ok(e)
    }
}
