//! Charts as pure functions over any plotters backend; components only hand them a canvas.

pub mod canvas;
pub mod roofline;
pub mod topology;
