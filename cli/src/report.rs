//! What a command returns and the one renderer that prints it: a plain table, JSON or CSV.

use serde_json::Value;

use crate::error::Error;

/// A command's result, in each form it has.
pub trait Report {
    /// The JSON form: snake_case keys ending in their SI unit.
    fn json(&self) -> serde_json::Result<Value>;

    /// The plain-text form; `None` where the command's plain output is its JSON.
    fn text(&self) -> Option<String> {
        None
    }

    /// The CSV form, where the command has one.
    fn csv(&self) -> Option<String> {
        None
    }
}

/// The form to print, as a command's flags choose it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The plain table or text (the JSON where there is none).
    Text,
    /// `--json`.
    Json,
    /// `--csv`.
    Csv,
}

/// The report in `format`, to print as it is (`main` adds the final newline).
pub fn render(r: &dyn Report, format: Format) -> Result<String, Error> {
    match format {
        Format::Text => match r.text() {
            Some(t) => Ok(t),
            None => pretty(&r.json()?),
        },
        Format::Json => pretty(&r.json()?),
        Format::Csv => r
            .csv()
            .ok_or_else(|| Error::usage("this command has no CSV form (try --json)")),
    }
}

/// Indented JSON.
pub fn pretty(v: &Value) -> Result<String, Error> {
    Ok(serde_json::to_string_pretty(v)?)
}

/// A number for JSON, or null where it is not finite (a figure that does not apply, an exact
/// result's SNR).
pub fn finite(x: f64) -> Value {
    if x.is_finite() {
        Value::from(x)
    } else {
        Value::Null
    }
}

/// Rows of flat objects as CSV, columns in the first row's order (then any others as they
/// first appear); strings quoted, null empty.
pub fn to_csv(rows: &[Value]) -> String {
    let Some(Value::Object(first)) = rows.first() else {
        return String::new();
    };
    let mut cols: Vec<String> = first.keys().cloned().collect();
    for r in rows {
        if let Value::Object(m) = r {
            for k in m.keys() {
                if !cols.contains(k) {
                    cols.push(k.clone());
                }
            }
        }
    }
    let cell = |v: &Value| match v {
        Value::Null => String::new(),
        Value::String(s) => format!("\"{}\"", s.replace('"', "\"\"")),
        other => other.to_string(),
    };
    let mut out = cols.join(",");
    for r in rows {
        out.push('\n');
        let line: Vec<String> = cols
            .iter()
            .map(|c| cell(r.get(c).unwrap_or(&Value::Null)))
            .collect();
        out.push_str(&line.join(","));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    struct Plain;
    impl Report for Plain {
        fn json(&self) -> serde_json::Result<Value> {
            Ok(json!({"a_s": 1.5, "b": "x\"y", "c": null}))
        }
        fn text(&self) -> Option<String> {
            Some("plain".into())
        }
    }

    struct Rows;
    impl Report for Rows {
        fn json(&self) -> serde_json::Result<Value> {
            Ok(json!([]))
        }
        fn csv(&self) -> Option<String> {
            Some(to_csv(&[json!({"a_s": 1.5, "b": "x\"y", "c": null})]))
        }
    }

    #[test]
    fn one_renderer_for_every_form() {
        assert_eq!(render(&Plain, Format::Text).unwrap(), "plain");
        assert!(render(&Plain, Format::Json)
            .unwrap()
            .contains("\"a_s\": 1.5"));
        assert_eq!(render(&Rows, Format::Text).unwrap(), "[]");
        assert_eq!(
            render(&Rows, Format::Csv).unwrap(),
            "a_s,b,c\n1.5,\"x\"\"y\","
        );
        // CSV of a command without one is the user's mistake: exit code 2.
        let e = render(&Plain, Format::Csv).unwrap_err();
        assert_eq!(e.exit_code(), 2);
    }
}
