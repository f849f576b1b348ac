//! One module per page of the app.

pub mod chips;
pub mod collectives;
pub mod compare;
pub mod lazy;
pub mod learn;
pub mod roofline;
pub mod serving;
pub mod topology;
pub mod workload;
