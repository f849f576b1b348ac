//! One module per page of the app.

pub mod chips;
pub mod coming;
pub mod roofline;
pub mod topology;
