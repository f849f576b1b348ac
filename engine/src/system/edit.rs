//! Edited systems: a preset cloned with its fabric (shape and link bandwidths), scale-out
//! bandwidth and latency, rental price and power changed. An edited system is named by its
//! own spec, `edit:BASE;torus=4x8;links=128/128;out=400;outlat=10;usd=3.5;w=900`, so it
//! travels in any link key that names a system and every page resolves it the same way.
//!
//! Units in the spec are the ones people quote: links in GB/s per direction (one per torus
//! axis, tier or switch port), scale-out in Gb/s per chip, latency in µs, price in $ per
//! chip-hour, power in W per chip (all-in).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use super::{find_preset, Shape, System, UnknownSystem};
use crate::source::Sourced;
use crate::units::{BytesPerSec, Seconds};

/// The prefix of an edited system's id.
pub const PREFIX: &str = "edit:";

/// The largest scale-up domain an edit may make. The presets reach 512 chips; beyond a few
/// thousand, drawing every chip and simulating every flow of an all-to-all would stall the
/// page, so a link cannot ask for it.
pub const MAX_EDITED_CHIPS: u32 = 2_048;

/// Changes to a preset system.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SystemEdit {
    /// The preset it starts from.
    pub base: String,
    /// A new torus shape (chips per axis), if any.
    pub torus: Option<Vec<u32>>,
    /// A new switch size (chips), if any.
    pub switch: Option<u32>,
    /// New per-direction link bandwidths, B/s (one per axis, tier or port); empty keeps.
    pub links: Vec<f64>,
    /// Scale-out per chip per direction, B/s.
    pub scale_out: Option<f64>,
    /// Scale-out step latency, s.
    pub scale_out_latency: Option<f64>,
    /// Rental price, $ per chip-hour.
    pub usd_per_chip_hour: Option<f64>,
    /// All-in power per chip, W.
    pub power_w: Option<f64>,
}

/// Why an edited system cannot be read or built.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SystemEditError {
    /// The base is not a preset.
    UnknownBase(UnknownSystem),
    /// A part of the spec is not `key=value` with a known key.
    UnknownKey(String),
    /// A value is not a positive finite number (or a count where one is needed).
    BadValue {
        /// Which key.
        key: String,
        /// What was given.
        value: String,
    },
    /// The shape or link list does not make a valid fabric.
    BadFabric(String),
}

impl fmt::Display for SystemEditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownBase(e) => write!(f, "{e}"),
            Self::UnknownKey(k) => write!(
                f,
                "unknown part '{k}' of an edited system (valid: torus=AxB[xC], switch=N, links=GB/s/…, out=Gb/s, outlat=µs, usd=$/chip-hour, w=W)"
            ),
            Self::BadValue { key, value } => {
                write!(f, "'{value}' is not a valid {key} (a positive number)")
            }
            Self::BadFabric(why) => write!(f, "the edited fabric is not valid: {why}"),
        }
    }
}

impl core::error::Error for SystemEditError {}

fn num(key: &str, v: &str) -> Result<f64, SystemEditError> {
    match v.trim().parse::<f64>() {
        // In the spec's own units (GB/s, Gb/s, µs, $, W): anything outside is a typo.
        Ok(x) if (1e-6..=1e12).contains(&x) => Ok(x),
        _ => Err(SystemEditError::BadValue {
            key: key.into(),
            value: v.into(),
        }),
    }
}

fn count(key: &str, v: &str) -> Result<u32, SystemEditError> {
    match v.trim().parse::<u32>() {
        Ok(x) if (1..=100_000).contains(&x) => Ok(x),
        _ => Err(SystemEditError::BadValue {
            key: key.into(),
            value: v.into(),
        }),
    }
}

fn short(x: f64) -> String {
    let r = libm::round(x * 1000.0) / 1000.0;
    if (r - libm::round(r)).abs() < 1e-9 {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

impl SystemEdit {
    /// Read a spec (with or without the `edit:` prefix).
    ///
    /// # Errors
    /// An unknown base or key, or a value that is not a positive number.
    pub fn parse(spec: &str) -> Result<Self, SystemEditError> {
        let spec = spec.strip_prefix(PREFIX).unwrap_or(spec);
        let mut parts = spec.split(';');
        let base = parts.next().unwrap_or("").trim();
        find_preset(base).map_err(SystemEditError::UnknownBase)?;
        let mut e = SystemEdit {
            base: base.into(),
            ..SystemEdit::default()
        };
        for p in parts.filter(|p| !p.trim().is_empty()) {
            let (k, v) = p
                .split_once('=')
                .ok_or_else(|| SystemEditError::UnknownKey(p.into()))?;
            match k.trim() {
                "torus" => {
                    let dims = v
                        .split('x')
                        .map(|d| count("torus", d))
                        .collect::<Result<Vec<_>, _>>()?;
                    e.torus = Some(dims);
                }
                "switch" => e.switch = Some(count("switch", v)?),
                "links" => {
                    e.links = v
                        .split('/')
                        .map(|b| num("links", b).map(|x| x * 1e9))
                        .collect::<Result<Vec<_>, _>>()?;
                }
                "out" => e.scale_out = Some(num("out", v)? * 1e9 / 8.0),
                "outlat" => e.scale_out_latency = Some(num("outlat", v)? * 1e-6),
                "usd" => e.usd_per_chip_hour = Some(num("usd", v)?),
                "w" => e.power_w = Some(num("w", v)?),
                other => return Err(SystemEditError::UnknownKey(other.into())),
            }
        }
        Ok(e)
    }

    /// The spec, prefix included (the system's id).
    #[must_use]
    pub fn to_spec(&self) -> String {
        let mut s = format!("{PREFIX}{}", self.base);
        if let Some(d) = &self.torus {
            let d: Vec<String> = d.iter().map(ToString::to_string).collect();
            s += &format!(";torus={}", d.join("x"));
        }
        if let Some(n) = self.switch {
            s += &format!(";switch={n}");
        }
        if !self.links.is_empty() {
            let l: Vec<String> = self.links.iter().map(|b| short(b / 1e9)).collect();
            s += &format!(";links={}", l.join("/"));
        }
        if let Some(x) = self.scale_out {
            s += &format!(";out={}", short(x * 8.0 / 1e9));
        }
        if let Some(x) = self.scale_out_latency {
            s += &format!(";outlat={}", short(x * 1e6));
        }
        if let Some(x) = self.usd_per_chip_hour {
            s += &format!(";usd={}", short(x));
        }
        if let Some(x) = self.power_w {
            s += &format!(";w={}", short(x));
        }
        s
    }

    /// The edited system: the base with every change applied and marked as the user's.
    ///
    /// # Errors
    /// An unknown base, or a shape and link list that do not make a valid fabric.
    pub fn apply(&self) -> Result<System, SystemEditError> {
        let mut s = find_preset(&self.base).map_err(SystemEditError::UnknownBase)?;
        let in_network = matches!(
            s.shape,
            Shape::Switch {
                in_network_reduction: true,
                ..
            }
        );
        if let Some(d) = &self.torus {
            s.shape = Shape::Torus { dims: d.clone() };
            s.in_network_efficiency = None;
        } else if let Some(n) = self.switch {
            s.shape = Shape::Switch {
                chips: n,
                in_network_reduction: in_network,
            };
        }
        let want = match &s.shape {
            Shape::Torus { dims } => dims.len(),
            Shape::Tiered { tiers } => tiers.len(),
            Shape::Switch { .. } => 1,
        };
        if !self.links.is_empty() {
            if self.links.len() != want {
                return Err(SystemEditError::BadFabric(format!(
                    "{} link bandwidths for a fabric that needs {want}",
                    self.links.len()
                )));
            }
            s.links = self
                .links
                .iter()
                .map(|b| Sourced::user(BytesPerSec::new(*b)))
                .collect();
        } else if s.links.len() != want {
            // A new shape with as many axes as links keeps them; otherwise every axis takes
            // the base's first link.
            let first = s.links[0];
            s.links = alloc::vec![first; want];
        }
        if let Some(x) = self.scale_out {
            s.scale_out = Sourced::user(BytesPerSec::new(x));
        }
        if let Some(x) = self.scale_out_latency {
            s.scale_out_latency = Sourced::user(Seconds::new(x));
        }
        s.usd_per_chip_hour = self.usd_per_chip_hour.map(Sourced::user);
        s.power_w = self.power_w.map(Sourced::user);
        s.edited = true;
        s.id = "edit";
        s.fabric()
            .validate()
            .map_err(|e| SystemEditError::BadFabric(format!("{e}")))?;
        if s.chips() > MAX_EDITED_CHIPS {
            return Err(SystemEditError::BadFabric(format!(
                "{} chips is more than the {MAX_EDITED_CHIPS} an edited domain may hold",
                s.chips()
            )));
        }
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::find;
    use alloc::string::ToString;

    #[test]
    fn a_spec_round_trips_and_applies() {
        let spec = "edit:trn2-16;torus=4x8;links=128/64;out=400;outlat=10;usd=3.5;w=900";
        let e = SystemEdit::parse(spec).unwrap();
        assert_eq!(e.to_spec(), spec);
        let s = find(spec).unwrap();
        assert_eq!(s.chips(), 32);
        assert!(s.edited && s.links[1].source.is_user());
        assert!((s.links[1].value.get() - 64e9).abs() < 1.0);
        assert!((s.scale_out.value.get() - 50e9).abs() < 1.0);
        assert_eq!(s.usd_per_chip_hour.map(|p| p.value), Some(3.5));
        // The base is untouched.
        assert_eq!(find("trn2-16").unwrap().chips(), 16);
    }

    #[test]
    fn a_switch_can_become_a_torus_and_back() {
        let s = find("edit:hgx-h100-8;torus=4x4").unwrap();
        assert!(matches!(s.shape, Shape::Torus { .. }) && s.in_network_efficiency.is_none());
        assert_eq!(s.links.len(), 2);
        let s = find("edit:trn2-ultra-64;switch=64;links=640").unwrap();
        assert_eq!(s.metrics().unwrap().diameter, 1);
    }

    #[test]
    fn bad_specs_say_why() {
        let err = |s: &str| find(s).unwrap_err().to_string();
        assert!(err("edit:nope;torus=4x4").contains("unknown system"));
        assert!(err("edit:trn2-16;torus=4xq").contains("torus"));
        assert!(err("edit:trn2-16;links=1/2/3").contains("needs 2"));
        assert!(err("edit:trn2-16;colour=red").contains("unknown part"));
        assert!(err("edit:trn2-16;usd=-1").contains("usd"));
        assert!(err("edit:trn2-16;links=1e-300/1").contains("links"));
        assert!(err("edit:trn2-16;out=NaN").contains("out"));
        assert!(err("edit:trn2-16;torus=1x1").contains("not valid"));
        // A domain too large to draw or simulate from a link is refused, not attempted.
        assert!(err("edit:gb200-nvl72;switch=65536").contains("2048"));
        assert!(err("edit:trn2-16;torus=256x256").contains("2048"));
    }
}
