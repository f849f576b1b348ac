//! Learn page: lessons built around the app's own views (each open in place, live, as an
//! embed), with exercises the page checks. The lessons, their figures and their answers come
//! from the engine ([`engine::learn`]); progress stays in this browser. Built as its own module
//! (`app/lazy`), so it adds nothing to the first page.

use engine::learn::{self, Exercise, Verdict};
use engine::Scenario;
use leptos::prelude::*;

use crate::state::use_scenario;

/// Where the exercises answered right are kept, as their ids separated by commas.
const STORE_KEY: &str = "accelscope.learn";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// The exercises answered right in this browser (ids of today's lessons only).
fn load_solved() -> Vec<String> {
    storage()
        .and_then(|s| s.get_item(STORE_KEY).ok().flatten())
        .map(|t| {
            t.split(',')
                .filter(|id| learn::IDS.iter().any(|l| id.starts_with(l)))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn save_solved(ids: &[String]) {
    if let Some(s) = storage() {
        // Nothing to tell: progress not kept lasts until the page closes.
        let _ = s.set_item(STORE_KEY, &ids.join(","));
    }
}

/// The link of scenario `s`, as `?v=…`.
fn href(s: &Scenario) -> String {
    format!("?{}", s.to_query())
}

/// Adds the Learn page's own stylesheet (once).
pub fn add_style() {
    crate::module::add_style("learn", include_str!("../../../styles/learn.css"));
}

/// The Learn page: the lessons listed, the open one with its view and exercises.
#[component]
pub fn LearnPage() -> impl IntoView {
    let sc = use_scenario();
    let solved = RwSignal::new(load_solved());
    // What was typed into each exercise, by its id: a lesson opens with its own answers, never
    // another's.
    let answers = Answers(RwSignal::new(Vec::new()));
    let open = Memo::new(move |_| {
        sc.with(|s| {
            if s.lesson.is_empty() {
                learn::IDS[0].to_string()
            } else {
                s.lesson.clone()
            }
        })
    });
    // Each exercise's id carries its lesson's as a prefix (`torus-2`).
    let count = move |lesson: &str| {
        solved.with(|v| {
            v.iter()
                .filter(|id| id.rsplit_once('-').is_some_and(|(l, _)| l == lesson))
                .count()
        })
    };
    let list = learn::titles()
        .enumerate()
        .map(|(i, (id, title))| {
            let link = sc.with_untracked(|s| {
                let mut s = s.clone();
                s.page = engine::scenario::Page::Learn;
                s.lesson = id.into();
                href(&s)
            });
            view! {
                <li data-lesson=id class:current=move || open.get() == id>
                    <a href=link
                        aria-current=move || (open.get() == id).then_some("page")
                        on:click=move |ev| {
                            if !ev.ctrl_key() && !ev.meta_key() && !ev.shift_key() && ev.button() == 0 {
                                ev.prevent_default();
                                sc.update(|s| s.lesson = id.into());
                            }
                        }>
                        <span class="num">{i + 1}". "</span>{title}
                    </a>
                    <span class="done">
                        {move || match count(id) { 0 => String::new(), n => format!("{n} ✓") }}
                    </span>
                </li>
            }
        })
        .collect_view();
    let total = move || solved.with(Vec::len);
    view! {
        <section class="page learn-page">
            <h1>"Learn"</h1>
            <p class="lead">
                "Short lessons on what decides an accelerator's speed and cost, each built around one of the app's own views, live, with exercises the page checks. "
                "Every figure in them comes from the same catalog and model as the rest of the app. Your answers stay in this browser."
            </p>
            <div class="learn-grid answer">
                <nav class="lessons" aria-label="Lessons">
                    <ol>{list}</ol>
                    <p class="small-note" id="learn-progress">
                        {move || format!("{} exercise{} solved", total(), if total() == 1 { "" } else { "s" })}
                    </p>
                </nav>
                {move || {
                    let id = open.get();
                    match learn::find(&id) {
                        Some(l) => view! { <LessonView lesson=l solved=solved answers=answers/> }.into_any(),
                        None => view! { <p class="error">"This lesson cannot be worked out with today's catalog."</p> }.into_any(),
                    }
                }}
            </div>
        </section>
    }
}

/// One lesson: its text, its live view, links and exercises.
#[component]
fn LessonView(
    lesson: learn::Lesson,
    solved: RwSignal<Vec<String>>,
    answers: Answers,
) -> impl IntoView {
    let mut embedded = lesson.view.clone();
    embedded.embed = true;
    let body = lesson
        .body
        .iter()
        .map(|p| view! { <p>{p.clone()}</p> })
        .collect_view();
    let links = lesson
        .links
        .iter()
        .map(|(label, s)| view! { <li><a href=href(s)>{label.clone()}" ↗"</a></li> })
        .collect_view();
    let exercises = lesson
        .exercises
        .into_iter()
        .enumerate()
        .map(|(i, e)| view! { <ExerciseView n=i + 1 exercise=e solved=solved answers=answers/> })
        .collect_view();
    view! {
        <article class="lesson card" data-lesson=lesson.id id="lesson">
            <h2>{lesson.title}</h2>
            <p class="lead">{lesson.summary}</p>
            {body}
            <figure class="live-view">
                <iframe prop:loading="lazy" src=href(&embedded) title=format!("{}: the app's view", lesson.title)></iframe>
                <figcaption class="small-note">
                    "The app's own view, live: change anything in it. "
                    <a href=href(&lesson.view)>"Open it in the whole app ↗"</a>
                </figcaption>
            </figure>
            {(!lesson.links.is_empty()).then(|| view! { <p class="small-note">"Also worth opening:"</p><ul class="links">{links}</ul> })}
            <h3>"Exercises"</h3>
            {exercises}
        </article>
    }
}

/// What was typed into each exercise, by the exercise's id.
#[derive(Clone, Copy)]
struct Answers(RwSignal<Vec<(String, String)>>);

/// An exercise: the question, an answer field checked against the model's answer, a hint
/// after a wrong answer and the worked answer behind a click.
#[component]
fn ExerciseView(
    n: usize,
    exercise: Exercise,
    solved: RwSignal<Vec<String>>,
    answers: Answers,
) -> impl IntoView {
    let id = exercise.id.clone();
    let done = {
        let id = id.clone();
        Memo::new(move |_| solved.with(|v| v.contains(&id)))
    };
    // The last answer's verdict, or none yet.
    let verdict = RwSignal::new(None::<Verdict>);
    // This exercise's own answer: what was typed into it before, else nothing.
    let text = RwSignal::new(answers.0.with_untracked(|a| {
        a.iter()
            .find(|(k, _)| *k == id)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }));
    let keep = {
        let id = id.clone();
        move |v: String| {
            answers
                .0
                .update(|a| match a.iter_mut().find(|(k, _)| *k == id) {
                    Some(slot) => slot.1 = v,
                    None => a.push((id.clone(), v)),
                });
        }
    };
    let e = StoredValue::new(exercise.clone());
    let check = {
        let id = id.clone();
        move || {
            let v = e.with_value(|e| e.check(&text.get_untracked()));
            // Solved is what the latest answer says: right adds it, anything else takes it
            // back.
            let was = solved.with_untracked(|s| s.contains(&id));
            if (v == Verdict::Right) != was {
                solved.update(|s| {
                    if was {
                        s.retain(|x| *x != id);
                    } else {
                        s.push(id.clone());
                    }
                });
                solved.with_untracked(|s| save_solved(s));
            }
            verdict.set(Some(v));
        }
    };
    let state = move || match verdict.get() {
        Some(Verdict::Right) => "right",
        Some(Verdict::Wrong(_)) => "wrong",
        Some(Verdict::Unreadable(_)) => "unreadable",
        None if done.get() => "solved",
        None => "open",
    };
    let message = move || {
        verdict.get().map(|v| match v {
            Verdict::Right => view! { <p class="verdict right" role="status">"Right ✓"</p> }.into_any(),
            Verdict::Wrong(why) => {
                let hint = e.with_value(|e| e.hint.clone());
                view! { <p class="verdict wrong" role="status">{format!("Not quite: {why} ")}<span class="hint">{format!("Hint: {hint}")}</span></p> }.into_any()
            }
            Verdict::Unreadable(why) => view! { <p class="verdict wrong" role="status">{why}</p> }.into_any(),
        })
    };
    let field = format!("answer-{id}");
    view! {
        <div class="exercise" data-exercise=id.clone() data-state=state>
            <p class="question"><b>{format!("{n}. ")}</b>{exercise.question.clone()}</p>
            <form class="answer" on:submit=move |ev| { ev.prevent_default(); check(); }>
                <label for=field.clone() class="sr-only">"Your answer"</label>
                <input type="text" id=field name="answer" inputmode="decimal" autocomplete="off"
                    placeholder="your answer"
                    prop:value=move || text.get()
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        keep(v.clone());
                        text.set(v);
                    }/>
                <span class="unit">{exercise.unit}</span>
                <button type="submit">"Check"</button>
                <span class="small-note">{format!("({})", exercise.tolerance_text())}</span>
                {move || done.get().then(|| view! { <span class="solved-mark" title="Solved in this browser">"✓ solved"</span> })}
            </form>
            {message}
            <details class="worked">
                <summary>"Show the worked answer"</summary>
                <p>{exercise.worked.clone()}</p>
            </details>
        </div>
    }
}
