//! Properties of links, generated from the key table (`engine::keys::KEYS`) rather than from
//! hand-written lists: a key added to the table is covered here without a change.
//!
//! - every value inside a bounded key's range is read without a notice, and the state it
//!   opens encodes and decodes back to itself;
//! - every value outside it (below, above, not a number) is named by its key and never
//!   clamped: the state keeps the default;
//! - any mix of in-range keys opens, encodes and reopens as the same state, with no notice
//!   the second time.

use engine::keys::{Key, Kind, KEYS};
use engine::scenario::Scenario;
use proptest::prelude::*;

fn bounded() -> Vec<&'static Key> {
    KEYS.iter().filter(|k| k.kind.bounded()).collect()
}

/// A value inside `k`'s range as a link writes it: whole numbers for counts, sizes in bytes.
fn inside(k: &'static Key) -> BoxedStrategy<String> {
    match k.kind {
        Kind::Count => (k.min as u64..=k.max as u64)
            .prop_map(|v| v.to_string())
            .boxed(),
        Kind::Size => (k.min.ceil() as u64..=k.max as u64)
            .prop_map(|v| format!("{v}B"))
            .boxed(),
        _ => prop_oneof![
            Just(k.min),
            Just(k.max),
            (k.min..=k.max),
            // Ranges that span decades are walked on a log scale too.
            (0.0f64..=1.0).prop_map(move |t| {
                if k.min > 0.0 {
                    (k.min.ln() + t * (k.max / k.min).ln())
                        .exp()
                        .clamp(k.min, k.max)
                } else {
                    k.min + t * (k.max - k.min)
                }
            }),
        ]
        .prop_map(|v| format!("{v}"))
        .boxed(),
    }
}

/// A value outside `k`'s range, or no number at all.
fn outside(k: &'static Key) -> BoxedStrategy<String> {
    let unit = if k.kind == Kind::Size { "B" } else { "" };
    let mut beyond: Vec<BoxedStrategy<f64>> = vec![Just(-1.0 - k.min.abs()).boxed()];
    // A seed spans every 64-bit value: nothing lies above it.
    if k.max < 1e15 {
        beyond.push(
            (1.0f64..1e6)
                .prop_map(move |x| k.max * (1.0 + 1e-6) + x)
                .boxed(),
        );
    }
    if k.min > 0.0 {
        beyond.push((0.0f64..1.0).prop_map(move |t| k.min * t * 0.999).boxed());
    }
    let numbers = proptest::strategy::Union::new(beyond).prop_map(move |v| {
        if k.kind == Kind::Count || k.kind == Kind::Size {
            // A whole number past the end: counts do not take fractions.
            let w = if v < k.min { v.floor() } else { v.ceil() };
            format!("{w}{unit}")
        } else {
            format!("{v}{unit}")
        }
    });
    prop_oneof![
        4 => numbers,
        1 => prop_oneof![Just("NaN".to_string()), Just("inf".to_string()), Just("x".to_string())],
    ]
    .boxed()
}

/// One bounded key and a value inside its range.
fn key_inside() -> impl Strategy<Value = (&'static str, String)> {
    proptest::sample::select(bounded()).prop_flat_map(|k| (Just(k.key), inside(k)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn a_value_in_range_is_read_and_round_trips((key, value) in key_inside()) {
        let q = format!("{key}={value}");
        let (a, notes) = Scenario::from_query(&q);
        prop_assert!(notes.is_empty(), "{q}: {notes:?}");
        let (b, again) = Scenario::from_query(&a.to_query());
        prop_assert_eq!(&a, &b, "{}", q);
        prop_assert!(again.is_empty(), "{q}: {again:?}");
    }

    #[test]
    fn a_value_out_of_range_is_named_and_never_clamped(
        (key, value) in proptest::sample::select(bounded())
            .prop_flat_map(|k| (Just(k.key), outside(k)))
    ) {
        let q = format!("{key}={value}");
        let (a, notes) = Scenario::from_query(&q);
        prop_assert!(notes.iter().any(|n| n.key == key), "{q} is not named: {notes:?}");
        prop_assert_eq!(a, Scenario::default(), "{} changed the state", q);
    }

    #[test]
    fn any_mix_of_values_in_range_round_trips(
        pairs in proptest::collection::vec(key_inside(), 1..12)
    ) {
        let q: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let q = q.join("&");
        let (a, _) = Scenario::from_query(&q);
        let (b, again) = Scenario::from_query(&a.to_query());
        prop_assert_eq!(&a, &b, "{}", q);
        prop_assert!(again.is_empty(), "{q}: {again:?}");
    }
}

/// A key given nothing (`key=`, as a hand-edited or cut link leaves it) never leaves a value the
/// pages need empty: what the state holds encodes and reopens as itself, without a notice.
#[test]
fn an_empty_value_never_empties_what_a_page_needs() {
    for k in KEYS {
        let q = format!("{}=", k.key);
        let (s, _) = Scenario::from_query(&q);
        assert!(!s.chips.is_empty(), "{q}: no chips");
        assert!(!s.collectives.systems.is_empty(), "{q}: no systems");
        assert!(!s.collectives.ops.is_empty(), "{q}: no operations");
        assert!(!s.collectives.algorithms.is_empty(), "{q}: no algorithms");
        assert!(
            !s.job.system.is_empty() && !s.job.model.is_empty(),
            "{q}: no job"
        );
        assert!(!s.topology.system.is_empty(), "{q}: no topology system");
        let (again, notes) = Scenario::from_query(&s.to_query());
        assert_eq!(again, s, "{q}");
        assert!(notes.is_empty(), "{q}: {notes:?}");
    }
}
