//! The commands, one module each: its flags (a clap `Args` struct whose doc comments are its
//! help), what it computes ([`Run::run`]) and its report in each form it has.

mod api_prices;
mod breakdown;
mod calibration;
mod chip;
mod chips;
mod claims;
mod collective;
mod compare;
mod eval;
mod infer;
mod kernel;
mod kernel_data;
mod keys;
mod learn;
mod model;
mod neuroncore;
mod prices;
mod roofline;
mod scenario;
mod serve_curve;
mod serve_sim;
mod sweep;
mod systems;
mod topology;
mod train;

use clap::Subcommand;

use crate::error::Error;
use crate::report::{render, Format, Report};

/// A command's flags, what it computes from them, and the form they ask for.
pub trait Run {
    /// What the command computes.
    type Output: Report;
    /// Computes it.
    fn run(&self) -> Result<Self::Output, Error>;
    /// The form to print it in.
    fn format(&self) -> Format;
}

/// The commands, in the order `--help` lists them.
#[derive(Subcommand, Debug)]
pub enum Command {
    Chips(chips::Args),
    Chip(chip::Args),
    Roofline(roofline::Args),
    Systems(systems::Args),
    Topology(topology::Args),
    Collective(collective::Args),
    Calibration(calibration::Args),
    Keys(keys::Args),
    Claims(claims::Args),
    Prices(prices::Args),
    ApiPrices(api_prices::Args),
    Train(train::Args),
    Infer(infer::Args),
    ServeCurve(serve_curve::Args),
    ServeSim(serve_sim::Args),
    Model(model::Args),
    Eval(eval::Args),
    Breakdown(breakdown::Args),
    Compare(compare::Args),
    Sweep(sweep::Args),
    Scenario(scenario::Args),
    Kernel(kernel::Args),
    KernelData(kernel_data::Args),
    Neuroncore(neuroncore::Args),
    Learn(learn::Args),
}

/// Runs a command and renders its report in the form its flags ask for.
fn exec<R: Run>(a: &R) -> Result<String, Error> {
    render(&a.run()?, a.format())
}

impl Command {
    /// The command's output, to print as it is.
    pub fn execute(&self) -> Result<String, Error> {
        match self {
            Command::Chips(a) => exec(a),
            Command::Breakdown(a) => exec(a),
            Command::Chip(a) => exec(a),
            Command::Roofline(a) => exec(a),
            Command::Systems(a) => exec(a),
            Command::Topology(a) => exec(a),
            Command::Collective(a) => exec(a),
            Command::Calibration(a) => exec(a),
            Command::Keys(a) => exec(a),
            Command::Claims(a) => exec(a),
            Command::Prices(a) => exec(a),
            Command::ApiPrices(a) => exec(a),
            Command::Train(a) => exec(a),
            Command::Infer(a) => exec(a),
            Command::ServeCurve(a) => exec(a),
            Command::ServeSim(a) => exec(a),
            Command::Model(a) => exec(a),
            Command::Eval(a) => exec(a),
            Command::Compare(a) => exec(a),
            Command::Sweep(a) => exec(a),
            Command::Scenario(a) => exec(a),
            Command::Kernel(a) => exec(a),
            Command::Neuroncore(a) => exec(a),
            Command::Learn(a) => exec(a),
            Command::KernelData(a) => exec(a),
        }
    }
}
