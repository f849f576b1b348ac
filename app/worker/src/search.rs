//! The layout search, run in slices of about 20 ms so the worker answers the page's other
//! requests between them; a newer search replaces the one running, and each slice reports the
//! search so far.

use std::cell::{Cell, RefCell};

use engine::workload::LayoutSearch;
use view::protocol::Reply;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::{now_ms, post, scope};

thread_local! {
    /// The search running: its number, the scenario's link query and the search.
    static RUN: RefCell<Option<(u64, String, LayoutSearch)>> = const { RefCell::new(None) };
    static NEXT: Cell<u64> = const { Cell::new(0) };
}

/// Starts searching the layouts of the job of the scenario `query`.
pub fn start(query: String) {
    let job = engine::Scenario::from_query(&query).0.job;
    let n = NEXT.with(|c| {
        c.set(c.get() + 1);
        c.get()
    });
    match engine::job::layout_search(&job) {
        Ok(s) => {
            RUN.with(|r| *r.borrow_mut() = Some((n, query, s)));
            later(n);
        }
        Err(_) => {
            RUN.with(|r| *r.borrow_mut() = None);
            post(&Reply::Search {
                query,
                tried: 0,
                total: 0,
                rows: String::new(),
                reasons: String::new(),
            });
        }
    }
}

fn later(n: u64) {
    let f = Closure::once_into_js(move || slice(n));
    // A worker's timer: another request's message is handled before it fires.
    let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_0(f.unchecked_ref(), 0);
}

fn slice(n: u64) {
    let report = RUN.with(|r| {
        let mut r = r.borrow_mut();
        let (m, query, s) = r.as_mut()?;
        if *m != n {
            return None;
        }
        let t0 = now_ms();
        while !s.done() && now_ms() - t0 < 20.0 {
            s.step(4);
        }
        let done = s.done();
        Some((
            done,
            Reply::Search {
                query: query.clone(),
                tried: s.tried(),
                total: s.total(),
                rows: view::search::rows_html(s),
                reasons: if done {
                    view::search::reasons_html(s)
                } else {
                    String::new()
                },
            },
        ))
    });
    if let Some((done, reply)) = report {
        post(&reply);
        if done {
            RUN.with(|r| *r.borrow_mut() = None);
        } else {
            later(n);
        }
    }
}
