//! `accelscope`: the engine from the command line, for scripts, spreadsheets and tests.
//!
//! Each command parses its flags with clap (one module of `cmd` per command), returns a typed
//! report, and [`report::render`] prints it once: a plain table, JSON (`--json`, snake_case
//! keys ending in their SI unit) or CSV. Bad input prints a message naming the valid choices
//! and exits with code 2; a failure of our own exits with code 1.

mod args;
mod cmd;
mod error;
mod load;
mod parse;
mod pricing;
mod report;

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser;

use crate::cmd::Command;
use crate::error::Error;

/// The engine from the command line, for scripts, spreadsheets and tests.
///
/// Output is a plain table, or JSON (--json) with snake_case keys that end in their SI unit
/// (`_flop_per_s`, `_bytes`, `_w`…). A flag that sets what a link key sets accepts exactly
/// the values the key does (`accelscope keys`).
///
/// Bad input prints a message naming the valid choices and exits with code 2; an internal
/// error exits with code 1.
#[derive(Parser)]
#[command(
    name = "accelscope",
    // A flag given twice takes its last value, as it always has.
    args_override_self = true,
    after_help = "Run `accelscope <command> --help` for a command's options."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return parse_failed(&e),
    };
    match cli.command.execute() {
        Ok(out) => {
            // A closed pipe (`| head`) is not an error worth a panic.
            let _ = writeln!(std::io::stdout(), "{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// What a command line clap refused prints, and its exit code: our own value checks' messages
/// as every other bad input's (`accelscope: …`, 2); clap's (unknown flags, missing values,
/// help) as clap writes them, with its codes (2, or 0 for help).
fn parse_failed(e: &clap::Error) -> ExitCode {
    if let Some(bad) = parse::refusal(e) {
        let e = Error::Usage(bad);
        eprintln!("{e}");
        return ExitCode::from(e.exit_code());
    }
    let _ = e.print();
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn bad_input_exits_2_and_internal_failures_1() {
        let usage = Error::from(engine::find("nope").unwrap_err());
        assert_eq!(usage.exit_code(), 2);
        assert!(usage
            .to_string()
            .starts_with("accelscope: unknown chip 'nope'"));
        // A serialisation failure is ours: a map with keys JSON cannot have.
        let map = std::collections::BTreeMap::from([((1, 2), 3)]);
        let internal = Error::from(serde_json::to_value(map).unwrap_err());
        assert_eq!(internal.exit_code(), 1);
        assert!(internal
            .to_string()
            .starts_with("accelscope: internal error: "));
    }

    #[test]
    fn our_value_checks_read_as_bad_input() {
        let e = Cli::try_parse_from(["accelscope", "train", "--tokens", "-5"]).err();
        let e = e.expect("refused");
        assert_eq!(
            parse::refusal(&e).as_deref(),
            Some("--tokens must be a positive number, got '-5'")
        );
        // clap's own refusals stay clap's.
        let e = Cli::try_parse_from(["accelscope", "chips", "--frobnicate"]).err();
        assert_eq!(parse::refusal(&e.expect("refused")), None);
    }
}
