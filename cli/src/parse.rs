//! Value parsers for flags. Each check's message names the flag and what it takes; clap
//! refuses the value with it, and `main` prints it as every other bad input
//! (`accelscope: …`, exit code 2).
//!
//! Flags whose values may start with `-` (a negative number) take `allow_hyphen_values`, so
//! the value reaches its check rather than reading as a flag.

use std::ffi::OsStr;
use std::fmt;
use std::str::FromStr;

use clap::builder::TypedValueParser;
use clap::{Arg, Command};

/// A value one of our checks refused, with the check's message.
#[derive(Debug)]
pub struct Invalid(pub String);

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Invalid {}

/// The message of our check in a clap error, if one of ours refused the value.
pub fn refusal(e: &clap::Error) -> Option<String> {
    std::error::Error::source(e)
        .and_then(|s| s.downcast_ref::<Invalid>())
        .map(|i| i.0.clone())
}

/// A value parser from a check `f(flag, value)`, `flag` being the flag's long name.
#[derive(Clone)]
pub struct Check<F>(pub F);

impl<T, F> TypedValueParser for Check<F>
where
    F: Fn(&str, &str) -> Result<T, String> + Clone + Send + Sync + 'static,
    T: Clone + Send + Sync + 'static,
{
    type Value = T;

    fn parse_ref(&self, cmd: &Command, arg: Option<&Arg>, value: &OsStr) -> Result<T, clap::Error> {
        let flag = arg.and_then(Arg::get_long).unwrap_or("value").to_owned();
        let check = self.0.clone();
        // clap's parser of a closure keeps the closure's error as the source of its own.
        let f = move |v: &str| check(&flag, v).map_err(Invalid);
        f.parse_ref(cmd, arg, value)
    }
}

/// Largest count a flag takes (nodes, parallel degrees): as a link allows, and small enough
/// that their products stay inside the engine's integers.
pub const MAX_COUNT: u32 = engine::scenario::MAX_NODES;

/// At most the first 40 characters of a value, for a message.
fn clip(x: &str) -> String {
    x.chars().take(40).collect()
}

/// A whole number from 1 to [`MAX_COUNT`].
pub fn count() -> Check<impl Fn(&str, &str) -> Result<u32, String> + Clone> {
    Check(|flag: &str, x: &str| match x.trim().parse::<u32>() {
        Ok(n) if (1..=MAX_COUNT).contains(&n) => Ok(n),
        _ => Err(format!(
            "--{flag} must be a whole number from 1 to {MAX_COUNT}, got '{}'",
            clip(x)
        )),
    })
}

/// A whole number from 1 to `hi`.
pub fn whole(hi: u32) -> Check<impl Fn(&str, &str) -> Result<u32, String> + Clone> {
    Check(move |flag: &str, x: &str| match x.trim().parse::<u32>() {
        Ok(n) if (1..=hi).contains(&n) => Ok(n),
        _ => Err(format!(
            "--{flag} must be a whole number from 1 to {hi}, got '{}'",
            clip(x)
        )),
    })
}

/// A whole number within the range of the link key `key` (the link-key table's): a flag and
/// its link key accept exactly the same values.
pub fn keyed(key: &'static str) -> Check<impl Fn(&str, &str) -> Result<u32, String> + Clone> {
    Check(move |flag: &str, x: &str| {
        let (lo, hi) = engine::scenario::keys::range(key).unwrap_or((1.0, f64::from(MAX_COUNT)));
        match x.trim().parse::<u32>() {
            Ok(n) if (lo..=hi).contains(&f64::from(n)) => Ok(n),
            _ => Err(format!(
                "--{flag} must be a whole number from {lo} to {hi} (as the link key {key}), got '{}'",
                clip(x)
            )),
        }
    })
}

/// A number within the range of the link key `key`: a flag and its link key accept exactly
/// the same values.
pub fn keyed_number(
    key: &'static str,
) -> Check<impl Fn(&str, &str) -> Result<f64, String> + Clone> {
    Check(move |flag: &str, x: &str| {
        let (lo, hi) = engine::scenario::keys::range(key).unwrap_or((0.0, f64::MAX));
        match x.trim().parse::<f64>() {
            Ok(n) if n.is_finite() && (lo..=hi).contains(&n) => Ok(n),
            _ => Err(format!(
                "--{flag} must be a number from {lo} to {hi} (as the link key {key}), got '{}'",
                clip(x)
            )),
        }
    })
}

fn positive_number(flag: &str, x: &str) -> Result<f64, String> {
    match x.trim().parse::<f64>() {
        Ok(n) if n.is_finite() && n > 0.0 => Ok(n),
        _ => Err(format!("--{flag} must be a positive number, got '{x}'")),
    }
}

/// A positive number (e notation allowed).
pub fn positive() -> Check<impl Fn(&str, &str) -> Result<f64, String> + Clone> {
    Check(positive_number)
}

/// A fraction in (0, 1].
pub fn fraction() -> Check<impl Fn(&str, &str) -> Result<f64, String> + Clone> {
    Check(|flag: &str, x: &str| {
        let v = positive_number(flag, x)?;
        if v > 1.0 {
            return Err(format!("--{flag} must be in (0, 1], got '{v}'"));
        }
        Ok(v)
    })
}

/// A rate from 0 to 0.99 (a draft's acceptance, a prefix-cache hit rate).
pub fn rate() -> Check<impl Fn(&str, &str) -> Result<f64, String> + Clone> {
    Check(|flag: &str, x: &str| match x.parse::<f64>() {
        Ok(v) if (0.0..=0.99).contains(&v) => Ok(v),
        _ => Err(format!("--{flag} must be from 0 to 0.99, got '{x}'")),
    })
}

/// A duration in seconds: seconds, or a number with `s`, `ms` or `us`, up to an hour.
pub fn duration() -> Check<impl Fn(&str, &str) -> Result<f64, String> + Clone> {
    Check(|flag: &str, v: &str| {
        let t = v.trim();
        let (num, scale) = if let Some(x) = t.strip_suffix("ms") {
            (x, 1e-3)
        } else if let Some(x) = t.strip_suffix("us") {
            (x, 1e-6)
        } else if let Some(x) = t.strip_suffix('s') {
            (x, 1.0)
        } else {
            (t, 1.0)
        };
        match num.trim().parse::<f64>() {
            Ok(x) if x.is_finite() && x > 0.0 && x * scale <= 3600.0 => Ok(x * scale),
            _ => Err(format!(
                "--{flag} wants a duration such as 2s, 50ms or 0.2 (up to an hour), got '{v}'"
            )),
        }
    })
}

/// A value the engine parses (a number format, an operation, a size), refused with the
/// engine's message, which names the valid choices.
pub fn parsed<T>() -> Check<impl Fn(&str, &str) -> Result<T, String> + Clone>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    Check(|_: &str, x: &str| x.parse::<T>().map_err(|e| e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `p`'s value of `--flag=v`, or our check's message.
    fn run<T: Clone + Send + Sync + 'static>(
        p: impl TypedValueParser<Value = T>,
        flag: &'static str,
        v: &str,
    ) -> Result<T, String> {
        let arg = Arg::new("x")
            .long(flag)
            .allow_hyphen_values(true)
            .value_parser(p);
        Command::new("t")
            .arg(arg)
            .try_get_matches_from(["t".to_string(), format!("--{flag}={v}")])
            .map(|m| m.get_one::<T>("x").cloned().expect("parsed"))
            .map_err(|e| refusal(&e).expect("our message"))
    }

    #[test]
    fn checks_name_the_flag_and_the_range() {
        assert_eq!(run(count(), "tp", " 8 "), Ok(8));
        assert_eq!(
            run(count(), "tp", "0"),
            Err("--tp must be a whole number from 1 to 4096, got '0'".into())
        );
        let (_, hi) = engine::scenario::keys::range("wpr").unwrap();
        assert_eq!(run(keyed("wpr"), "prompt", &hi.to_string()), Ok(hi as u32));
        assert!(run(keyed("wpr"), "prompt", &(hi + 1.0).to_string())
            .unwrap_err()
            .contains("(as the link key wpr)"));
        assert_eq!(
            run(fraction(), "memory-efficiency", "1.5"),
            Err("--memory-efficiency must be in (0, 1], got '1.5'".into())
        );
        assert_eq!(run(duration(), "slo-tpot", "50ms"), Ok(0.05));
        assert_eq!(run(duration(), "slo-ttft", "2"), Ok(2.0));
        assert!(run(rate(), "acceptance", "1").is_err());
        assert!(run(parsed::<engine::Dtype>(), "dtype", "fp7")
            .unwrap_err()
            .contains("valid: fp64"));
    }
}
