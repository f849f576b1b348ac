//! Scenarios from the user: a JSON file, standard input (`-`), or a link the app wrote.

use engine::Scenario;

use crate::error::Error;

/// The scenario of a link (a whole URL or its query); refused if any part cannot be read.
pub fn link(link: &str) -> Result<Scenario, Error> {
    let query = link.split_once('?').map_or(link, |(_, q)| q);
    let query = query.split_once('#').map_or(query, |(q, _)| q);
    let (sc, notes) = Scenario::from_query(query);
    refuse_notices(sc, &notes, "the link has parts that cannot be read")
}

/// The scenario in `file` (`-`: standard input), refused if it holds what a link would refuse.
pub fn file(file: &str) -> Result<Scenario, Error> {
    let text = if file == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| Error::usage(format!("cannot read standard input: {e}")))?;
        s
    } else {
        std::fs::read_to_string(file)
            .map_err(|e| Error::usage(format!("cannot read '{file}': {e}")))?
    };
    let sc: Scenario = serde_json::from_str(&text)
        .map_err(|e| Error::usage(format!("'{file}' is not a scenario: {e}")))?;
    let bad = sc.check();
    refuse_notices(
        sc,
        &bad,
        &format!("'{file}' holds values a link would refuse (named by their link keys)"),
    )
}

/// A link if it has a query (`=`), else a file name.
pub fn link_or_file(s: &str) -> Result<Scenario, Error> {
    if s.contains('=') {
        link(s)
    } else {
        file(s)
    }
}

/// The scenario, or an error listing what could not be used.
fn refuse_notices(sc: Scenario, notes: &[engine::Notice], what: &str) -> Result<Scenario, Error> {
    if notes.is_empty() {
        return Ok(sc);
    }
    let list: Vec<String> = notes
        .iter()
        .map(|n| format!("{}: {}", n.key, n.message))
        .collect();
    Err(Error::usage(format!("{what}: {}", list.join("; "))))
}
