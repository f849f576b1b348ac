//! A small JSON reader for untrusted files (a model's `config.json`): objects, arrays, strings,
//! numbers, booleans and null, with limits on size and depth so a hostile file cannot exhaust
//! memory or the stack. The engine reads JSON without serde so the browser's modules need not
//! carry it.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Largest text read, in bytes.
pub const MAX_BYTES: usize = 1 << 20;
/// Deepest nesting read.
pub const MAX_DEPTH: usize = 32;

/// A JSON value. Objects keep their keys in order (a repeated key is an error).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A string.
    Str(String),
    /// An array.
    Array(Vec<Value>),
    /// An object.
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The member `key` of an object.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    /// What kind of value this is, for messages.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::Str(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }
}

struct Reader<'a> {
    s: &'a [u8],
    at: usize,
}

/// Parse `text` as one JSON value.
///
/// # Errors
/// Where and why the text is not JSON (or is too large or deep).
pub fn parse(text: &str) -> Result<Value, String> {
    if text.len() > MAX_BYTES {
        return Err(format!(
            "{} bytes is more than the {MAX_BYTES} read",
            text.len()
        ));
    }
    let mut r = Reader {
        s: text.as_bytes(),
        at: 0,
    };
    let v = r.value(0)?;
    r.ws();
    if r.at != r.s.len() {
        return Err(r.err("text after the end of the value"));
    }
    Ok(v)
}

impl Reader<'_> {
    fn err(&self, what: &str) -> String {
        let line = 1 + self.s[..self.at.min(self.s.len())]
            .iter()
            .filter(|c| **c == b'\n')
            .count();
        format!("not valid JSON at line {line}: {what}")
    }
    fn ws(&mut self) {
        while self
            .s
            .get(self.at)
            .is_some_and(|c| matches!(c, b' ' | b'\n' | b'\r' | b'\t'))
        {
            self.at += 1;
        }
    }
    fn eat(&mut self, lit: &[u8]) -> bool {
        if self.s[self.at..].starts_with(lit) {
            self.at += lit.len();
            true
        } else {
            false
        }
    }
    fn value(&mut self, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return Err(self.err("nested too deeply"));
        }
        self.ws();
        match self.s.get(self.at) {
            None => Err(self.err("unexpected end")),
            Some(b'{') => {
                self.at += 1;
                let mut m: Vec<(String, Value)> = Vec::new();
                self.ws();
                if self.eat(b"}") {
                    return Ok(Value::Object(m));
                }
                loop {
                    self.ws();
                    let k = self.string()?;
                    self.ws();
                    if !self.eat(b":") {
                        return Err(self.err("expected ':'"));
                    }
                    let v = self.value(depth + 1)?;
                    if m.iter().any(|(x, _)| *x == k) {
                        return Err(self.err(&format!("the key \"{k}\" appears twice")));
                    }
                    m.push((k, v));
                    self.ws();
                    if self.eat(b",") {
                        continue;
                    }
                    if self.eat(b"}") {
                        return Ok(Value::Object(m));
                    }
                    return Err(self.err("expected ',' or '}'"));
                }
            }
            Some(b'[') => {
                self.at += 1;
                let mut a = Vec::new();
                self.ws();
                if self.eat(b"]") {
                    return Ok(Value::Array(a));
                }
                loop {
                    a.push(self.value(depth + 1)?);
                    self.ws();
                    if self.eat(b",") {
                        continue;
                    }
                    if self.eat(b"]") {
                        return Ok(Value::Array(a));
                    }
                    return Err(self.err("expected ',' or ']'"));
                }
            }
            Some(b'"') => self.string().map(Value::Str),
            Some(b't') if self.eat(b"true") => Ok(Value::Bool(true)),
            Some(b'f') if self.eat(b"false") => Ok(Value::Bool(false)),
            Some(b'n') if self.eat(b"null") => Ok(Value::Null),
            Some(c) if *c == b'-' || c.is_ascii_digit() => self.number(),
            Some(_) => Err(self.err("unexpected character")),
        }
    }
    fn number(&mut self) -> Result<Value, String> {
        let start = self.at;
        while self
            .s
            .get(self.at)
            .is_some_and(|c| c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E'))
        {
            self.at += 1;
        }
        let t = core::str::from_utf8(&self.s[start..self.at]).unwrap_or("");
        t.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .map(Value::Number)
            .ok_or_else(|| self.err(&format!("'{t}' is not a number")))
    }
    fn string(&mut self) -> Result<String, String> {
        if !self.eat(b"\"") {
            return Err(self.err("expected a string"));
        }
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(&c) = self.s.get(self.at) else {
                return Err(self.err("unterminated string"));
            };
            self.at += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let Some(&e) = self.s.get(self.at) else {
                        return Err(self.err("unterminated string"));
                    };
                    self.at += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hex = self
                                .s
                                .get(self.at..self.at + 4)
                                .and_then(|h| core::str::from_utf8(h).ok())
                                .and_then(|h| u32::from_str_radix(h, 16).ok())
                                .ok_or_else(|| self.err("bad \\u escape"))?;
                            self.at += 4;
                            char::from_u32(hex).unwrap_or('\u{fffd}')
                        }
                        _ => return Err(self.err("bad escape")),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                c => out.push(c),
            }
        }
        String::from_utf8(out).map_err(|_| self.err("a string is not UTF-8"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_json_and_names_what_is_wrong() {
        let v = parse(r#"{"a": [1, 2.5e3, -3], "b": {"c": "x\"y\u00e9"}, "d": true, "e": null}"#)
            .unwrap();
        assert_eq!(
            v.get("a"),
            Some(&Value::Array(alloc::vec![
                Value::Number(1.0),
                Value::Number(2500.0),
                Value::Number(-3.0)
            ]))
        );
        assert_eq!(
            v.get("b").and_then(|b| b.get("c")),
            Some(&Value::Str("x\"yé".into()))
        );
        assert!(parse("{\"a\": 1,}")
            .unwrap_err()
            .contains("expected a string"));
        assert!(parse("{\"a\": 1, \"a\": 2}").unwrap_err().contains("twice"));
        assert!(parse("[1e999]").unwrap_err().contains("not a number"));
        assert!(parse(&"[".repeat(100)).unwrap_err().contains("deeply"));
        assert!(parse("{\n\"a\" 1}").unwrap_err().contains("line 2"));
        assert!(parse("1 2").unwrap_err().contains("after the end"));
    }
}
