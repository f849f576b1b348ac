//! accelscope's model of AI accelerator systems: pure functions from inputs to results.
//!
//! No DOM, no clock, no I/O: the same numbers come out in the browser, the CLI and the tests.
//! Builds without `std` (`--no-default-features`) for `wasm32-unknown-unknown`.
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

extern crate alloc;

pub mod breakdown;
pub mod calibration;
pub mod catalog;
pub mod chip;
pub mod citations;
pub mod claims;
pub mod collective;
pub mod compare;
pub mod dtype;
pub mod efficiency;
pub mod formats;
pub mod hostlink;
pub mod job;
pub mod json;
pub mod kerneldata;
pub mod kernels;
pub mod keys;
pub mod learn;
pub mod neuroncore;
pub mod reliability;
pub mod roofline;
pub mod scenario;
pub mod servesim;
pub mod serving;
pub mod source;
pub mod system;
pub mod tco;
pub mod topology;
pub mod uncertainty;
pub mod units;
pub mod workload;

pub use catalog::{find, presets, CatalogError};
pub use chip::{Chip, ChipEdit, EditError, Field, MemoryLevel, Peak};
pub use dtype::{Dtype, ParseDtypeError};
pub use roofline::{Bound, OpCost, OpSpec, OpSpecError, Placement, Roofline};
pub use scenario::{Notice, Page, Scenario};

pub use source::{Citation, Source, Sourced};
pub use units::{
    Bytes, BytesPerSec, Flop, FlopPerByte, FlopPerSec, FlopPerWatt, Hertz, ParseQuantityError,
    Seconds, Watts,
};
