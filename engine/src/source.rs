//! Where a figure comes from: a citation, or the user's own edit, and whether it is an estimate.

use core::fmt;

/// A published document a figure was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Citation {
    /// Short stable key, e.g. `N-T2`.
    pub key: &'static str,
    /// Document title.
    pub title: &'static str,
    /// Where to read it.
    pub url: &'static str,
    /// Publication or snapshot date (ISO 8601, as precise as known).
    pub date: &'static str,
}

/// The origin of one figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case", tag = "kind"))]
pub enum Source {
    /// Read from (or derived by stated arithmetic from) a published document.
    Cited {
        /// The document.
        #[cfg_attr(feature = "serde", serde(flatten))]
        citation: &'static Citation,
    },
    /// Typed in by the user on a cloned chip.
    UserEdit,
    /// A default chosen by accelscope where no published figure was found.
    Assumption,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Cited { citation: c } => write!(f, "{} ({}, {})", c.title, c.url, c.date),
            Source::UserEdit => f.write_str("edited by the user"),
            Source::Assumption => f.write_str("an assumption: no published figure was found"),
        }
    }
}

/// A value with its source, an estimate flag and an optional note
/// (where sources disagree, the note records the other figure).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Sourced<T> {
    /// The figure, in SI base units.
    pub value: T,
    /// Where it comes from.
    pub source: Source,
    /// True for analyst or press estimates and our own assumptions, not vendor specifications.
    pub estimate: bool,
    /// Disagreements, derivations, caveats; empty when there is nothing to add.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "str::is_empty"))]
    pub note: &'static str,
}

impl<T> Sourced<T> {
    /// A vendor figure from `c`.
    #[must_use]
    pub const fn vendor(value: T, c: &'static Citation) -> Self {
        Self {
            value,
            source: Source::Cited { citation: c },
            estimate: false,
            note: "",
        }
    }
    /// An estimate (press, analyst, or our own arithmetic) from `c`.
    #[must_use]
    pub const fn estimate(value: T, c: &'static Citation) -> Self {
        Self {
            value,
            source: Source::Cited { citation: c },
            estimate: true,
            note: "",
        }
    }
    /// A default with no published source, always flagged as an estimate.
    #[must_use]
    pub const fn assumption(value: T) -> Self {
        Self {
            value,
            source: Source::Assumption,
            estimate: true,
            note: "",
        }
    }
    /// A value the user typed in.
    #[must_use]
    pub const fn user(value: T) -> Self {
        Self {
            value,
            source: Source::UserEdit,
            estimate: false,
            note: "",
        }
    }
    /// The same figure with a note attached.
    #[must_use]
    pub const fn note(mut self, note: &'static str) -> Self {
        self.note = note;
        self
    }
}

impl Source {
    /// True when the figure was typed in by the user.
    #[must_use]
    pub fn is_user(&self) -> bool {
        matches!(self, Source::UserEdit)
    }
}
