//! Charts as pure functions over any plotters backend; components only hand them a canvas.

pub mod roofline;
