//! The model's errors on the published runs held out for a chip, which a page's ranges stand
//! on: worked out in the worker ([`crate::background`]), once a chip, since evaluating every
//! published run is one long task.

use engine::uncertainty::Errors;
use leptos::prelude::*;
use view::protocol::{Reply, Request};

/// A chip's errors on held-out runs: training's, then serving's.
pub type ChipErrors = (Errors, Errors);

/// Each chip's errors as they arrive, or why they could not be worked out.
#[derive(Clone, Copy)]
pub struct HeldOut {
    known: RwSignal<Vec<(String, Result<ChipErrors, String>)>>,
    asked: StoredValue<Vec<String>>,
}

impl HeldOut {
    /// Listens to the worker while the current owner (the page) lives.
    #[must_use]
    pub fn listen() -> Self {
        let this = Self {
            known: RwSignal::new(Vec::new()),
            asked: StoredValue::new(Vec::new()),
        };
        crate::background::listen(move |r| match r {
            Reply::Errors {
                chip,
                training,
                serving,
            } => {
                let e = Errors::decode(training).and_then(|t| Ok((t, Errors::decode(serving)?)));
                this.known.try_update(|k| k.push((chip.clone(), e)));
            }
            Reply::Error(why) => this.fail(why),
            _ => {}
        });
        this
    }

    /// The errors of `chip` (tracked: the caller runs again when they arrive), or why they
    /// could not be worked out; `None` while they are on their way.
    #[must_use]
    pub fn get(self, chip: &str) -> Option<Result<ChipErrors, String>> {
        self.known
            .with(|k| k.iter().find(|(c, _)| c == chip).map(|(_, e)| e.clone()))
    }

    /// Asks for `chip`'s errors, once per chip.
    pub fn ask(self, chip: &str) {
        if self.asked.with_value(|a| a.iter().any(|c| c == chip)) {
            return;
        }
        self.asked.update_value(|a| a.push(chip.to_string()));
        crate::background::ask(Request::Errors(chip.to_string()));
    }

    /// Every chip still waiting gets the reason instead of its errors.
    fn fail(self, why: &str) {
        let waiting: Vec<String> = self.asked.with_value(|a| {
            a.iter()
                .filter(|c| {
                    self.known
                        .with_untracked(|k| k.iter().all(|(x, _)| x != *c))
                })
                .cloned()
                .collect()
        });
        self.known.try_update(|k| {
            k.extend(waiting.into_iter().map(|c| (c, Err(why.to_string()))));
        });
    }
}
