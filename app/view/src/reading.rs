//! What reading AWS's NeuronLink figures the other way changes in a Trainium job's headline
//! figures: the job evaluated again with the other reading, in the worker.

use alloc::format;
use alloc::string::String;

use engine::job::Job;
use engine::system::{self, LinkReading};
use engine::units::sig;

use crate::{escape, thousands};

/// The reading a job's link figures would take at one click: today's from an old link's,
/// otherwise the one not in use.
#[must_use]
pub fn flipped(r: LinkReading) -> LinkReading {
    match r {
        LinkReading::AsLabelled => LinkReading::PerDirection,
        LinkReading::PerDirection | LinkReading::Legacy => LinkReading::AsLabelled,
    }
}

/// The job's training cost and rate read the other way against as it reads now, as a
/// sentence (HTML); empty for a platform whose links read one way only, or a job that does
/// not evaluate.
#[must_use]
pub fn effect_html(j: &Job, evaluate: crate::Evaluate<'_>) -> String {
    let reads_two_ways = system::find(&j.system)
        .ok()
        .is_some_and(|sys| system::reading(&sys).is_some());
    if !reads_two_ways {
        return String::new();
    }
    let other = Job {
        link_reading: flipped(j.link_reading),
        ..j.clone()
    };
    // The other reading straight from the engine: `evaluate` keeps the job as it is.
    let (Ok(here), Ok(there)) = (evaluate(j), engine::job::evaluate(&other)) else {
        return String::new();
    };
    let (c0, t0) = (here.train_usd_per_mtok, here.train.tokens_per_s);
    escape(&format!(
        "Read the other way, training costs ${} per million tokens instead of ${} ({:+.1}%) and runs at {} tokens/s instead of {}.",
        sig(there.train_usd_per_mtok, 4),
        sig(c0, 4),
        (there.train_usd_per_mtok / c0 - 1.0) * 100.0,
        thousands(there.train.tokens_per_s),
        thousands(t0)
    ))
}
