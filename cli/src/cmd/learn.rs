//! `accelscope learn`: the Learn page's lessons, with each exercise's answer: an answer key.

use engine::learn::{self, Lesson, Tolerance};
use engine::units::sig;
use serde_json::{json, Value};

use super::Run;
use crate::args::Json;
use crate::error::Error;
use crate::report::{Format, Report};

/// The Learn page's lessons, each exercise with the answer the model works out
///
/// Without `--lesson`, every lesson; each exercise with its question, answer, unit, tolerance
/// and worked answer: an answer key for a class. The figures come from the same catalog and
/// model as every other command.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// One lesson, by id (as the link key `lesson` takes it)
    #[arg(long, value_name = "ID")]
    lesson: Option<String>,
    #[command(flatten)]
    out: Json,
}

/// The lessons asked for.
pub struct Lessons(Vec<Lesson>);

impl Run for Args {
    type Output = Lessons;
    fn run(&self) -> Result<Lessons, Error> {
        match &self.lesson {
            None => Ok(Lessons(learn::lessons())),
            Some(id) => learn::find(id).map(|l| Lessons(vec![l])).ok_or_else(|| {
                Error::usage(format!(
                    "no lesson '{id}' (valid: {})",
                    learn::IDS.join(", ")
                ))
            }),
        }
    }
    fn format(&self) -> Format {
        self.out.format()
    }
}

fn tolerance_json(t: Tolerance) -> Value {
    match t {
        Tolerance::Relative(r) => json!({ "relative": r }),
        Tolerance::Absolute(a) => json!({ "absolute": a }),
    }
}

impl Report for Lessons {
    fn json(&self) -> serde_json::Result<Value> {
        let lessons: Vec<Value> = self
            .0
            .iter()
            .map(|l| {
                json!({
                    "id": l.id, "title": l.title, "summary": l.summary,
                    "link": format!("?{}", l.view.to_query()),
                    "exercises": l.exercises.iter().map(|e| json!({
                        "id": e.id, "question": e.question, "answer": e.answer, "unit": e.unit,
                        "tolerance": tolerance_json(e.tolerance), "hint": e.hint, "worked": e.worked,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        Ok(json!({ "lessons": lessons }))
    }

    fn text(&self) -> Option<String> {
        let mut s = String::new();
        for l in &self.0 {
            s += &format!("{} ({})\n  ?{}\n", l.title, l.id, l.view.to_query());
            for e in &l.exercises {
                s += &format!(
                    "  {}: {}\n    answer {} {} ({})\n",
                    e.id,
                    e.question,
                    sig(e.answer, 4),
                    e.unit,
                    e.tolerance_text()
                );
            }
            s += "\n";
        }
        Some(s.trim_end().to_string())
    }
}
