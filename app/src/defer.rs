//! Work that follows an input but must not hold up its paint. An input recomputes what the
//! user is looking at (the headline figures) at once; the heavier views derived from the same
//! input (a break-even curve, a serving frontier, the step's breakdown) are worked out each
//! in its own task after the frame that paints the input's result (the heaviest, the tornado
//! and other platforms, in the worker: `crate::background::derived`). Until
//! a view's new value arrives, the old one stays on the page, marked as updating; a value
//! worked out for an input that a newer one has replaced is never computed, let alone shown.

use std::time::Duration;

use leptos::prelude::*;

/// A value of `source` worked out by `work` after the next paint.
pub struct Deferred<T: Send + Sync + 'static> {
    /// The latest value worked out (`None` until the first arrives).
    pub value: ReadSignal<Option<T>>,
    /// Whether a newer input's value is still being worked out.
    pub updating: ReadSignal<bool>,
}

impl<T: Send + Sync + 'static> Clone for Deferred<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Send + Sync + 'static> Copy for Deferred<T> {}

/// Tracks `source`; after each change, once the frame showing the change is painted, runs
/// `work` on the newest input (inputs replaced meanwhile are skipped) and publishes its value.
pub fn deferred<S, T>(
    source: impl Fn() -> S + Send + Sync + 'static,
    work: impl Fn(&S) -> T + Send + Sync + Clone + 'static,
) -> Deferred<T>
where
    S: Clone + Send + Sync + 'static,
    T: Send + Sync + 'static,
{
    let (value, set_value) = signal(None::<T>);
    let (updating, set_updating) = signal(false);
    // The generation of the newest input: a task that finds a newer one drops its input.
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        let input = source();
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        set_updating.set(true);
        let work = work.clone();
        // After the frame that paints the input's own result (animation frame), in a task of
        // its own (timeout), so the browser paints first and input events can run between.
        request_animation_frame(move || {
            set_timeout(
                move || {
                    if generation.try_get_value() != Some(mine) {
                        return;
                    }
                    let v = work(&input);
                    set_value.set(Some(v));
                    set_updating.set(false);
                },
                Duration::ZERO,
            );
        });
    });
    Deferred { value, updating }
}

/// Children drawn in a task of their own after the first paint of their page: views below
/// the fold need not hold up the answer above it, nor the moment the page answers input.
#[component]
pub fn Later(children: ChildrenFn) -> impl IntoView {
    let (ready, set_ready) = signal(false);
    request_animation_frame(move || {
        set_timeout(move || set_ready.set(true), Duration::ZERO);
    });
    move || ready.get().then(|| children())
}
