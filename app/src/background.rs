//! Work a page hands to the Web Worker (the Kernels page's worker, typed messages in
//! `view::protocol`), so that it never runs on the page's thread: the published runs behind
//! the ranges and their tables. The worker starts at a page's first request, after the next
//! paint; requests wait until it says it is ready; every reply goes to the views listening,
//! and the worker stops when the last of them is cleaned up.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use leptos::prelude::*;
use view::protocol::{Reply, Request, View};
use view::workers::{reply, retire, send, spawn, Live};

type Listener = Rc<dyn Fn(&Reply)>;

thread_local! {
    /// The worker, once started, and whether it has said it is ready.
    static LIVE: RefCell<Option<(Live, bool)>> = const { RefCell::new(None) };
    /// Requests made before it was ready.
    static QUEUED: RefCell<Vec<Request>> = const { RefCell::new(Vec::new()) };
    /// The views listening, each by a number of its own.
    static LISTENERS: RefCell<Vec<(u64, Listener)>> = const { RefCell::new(Vec::new()) };
    static NEXT: Cell<u64> = const { Cell::new(0) };
}

/// `f` hears every reply while the current owner (a view) lives; a worker that fails to start
/// or stops reaches it as [`Reply::Error`].
pub fn listen(f: impl Fn(&Reply) + 'static) {
    let id = NEXT.with(|n| {
        n.set(n.get() + 1);
        n.get()
    });
    LISTENERS.with(|l| l.borrow_mut().push((id, Rc::new(f))));
    on_cleanup(move || {
        let none_left = LISTENERS.with(|l| {
            let mut l = l.borrow_mut();
            l.retain(|(i, _)| *i != id);
            l.is_empty()
        });
        if none_left {
            LIVE.with(|l| retire(l.borrow_mut().take().map(|(l, _)| l)));
            QUEUED.with(|q| q.borrow_mut().clear());
        }
    });
}

/// Sends `r` to the worker after the next paint, starting the worker if it is not running.
pub fn ask(r: Request) {
    request_animation_frame(move || {
        let r = LIVE.with(|l| match l.borrow().as_ref() {
            Some((live, true)) => {
                send(live, &r);
                None
            }
            _ => Some(r),
        });
        let Some(r) = r else { return };
        QUEUED.with(|q| q.borrow_mut().push(r));
        if LIVE.with(|l| l.borrow().is_none()) {
            start();
        }
    });
}

fn start() {
    let on_msg = move |e: web_sys::MessageEvent| match reply(&e) {
        Some(Ok(Reply::Ready)) => LIVE.with(|l| {
            if let Some((live, ready)) = l.borrow_mut().as_mut() {
                *ready = true;
                for r in QUEUED.with(|q| std::mem::take(&mut *q.borrow_mut())) {
                    send(live, &r);
                }
            }
        }),
        Some(Ok(r)) => dispatch(&r),
        Some(Err(why)) => dispatch(&Reply::Error(why)),
        None => {}
    };
    match spawn(on_msg, |why| dispatch(&Reply::Error(why.into()))) {
        Ok(live) => LIVE.with(|l| *l.borrow_mut() = Some((live, false))),
        Err(why) => dispatch(&Reply::Error(why)),
    }
}

fn dispatch(r: &Reply) {
    // A listener may add or remove listeners: call a copy of the list.
    let all: Vec<Listener> =
        LISTENERS.with(|l| l.borrow().iter().map(|(_, f)| f.clone()).collect());
    for f in all {
        f(r);
    }
}

/// A view's value worked out in the worker (as [`crate::defer::deferred`] works one out after
/// the paint, but off the page's thread): for each change of the scenario, `ask_for` makes the
/// request from its link query, and `take` reads a reply for a query and its value. Only the
/// reply for the newest query is shown; until it arrives the old value stays, marked as
/// updating.
pub fn derived<T, A, K>(ask_for: A, take: K) -> crate::defer::Deferred<T>
where
    T: Send + Sync + 'static,
    A: Fn(String) -> Request + 'static,
    K: Fn(&Reply) -> Option<(&str, T)> + 'static,
{
    let value = RwSignal::new(None::<T>);
    let updating = RwSignal::new(false);
    let newest = StoredValue::new(String::new());
    listen(move |r| {
        if let Some((q, v)) = take(r) {
            if newest.try_with_value(|n| n == q) == Some(true) {
                value.try_set(Some(v));
                updating.try_set(false);
            }
        } else if matches!(r, Reply::Error(_)) {
            updating.try_set(false);
        }
    });
    let sc = crate::state::use_scenario();
    Effect::new(move |_| {
        let q = sc.with(engine::Scenario::to_query);
        if newest.with_value(|n| *n == q) {
            return;
        }
        newest.set_value(q.clone());
        updating.set(true);
        ask(ask_for(q));
    });
    crate::defer::Deferred {
        value: value.read_only(),
        updating: updating.read_only(),
    }
}

/// A view of the scenario the worker draws as HTML ([`View`]), following every change of the
/// scenario as [`derived`] does (empty: nothing to show).
pub fn drawn(which: View) -> crate::defer::Deferred<String> {
    derived(
        move |q| Request::View(which, q),
        move |r| match r {
            Reply::View { view, query, html } if *view == which => {
                Some((query.as_str(), html.clone()))
            }
            _ => None,
        },
    )
}
