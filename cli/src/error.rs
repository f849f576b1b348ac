//! Why a command failed: bad input (exit code 2) apart from a failure of our own (exit code 1).

use std::fmt;

/// Why a command failed.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// Bad input: an unknown id, a value out of range, a file that cannot be read. The
    /// message says what was wrong and what is valid; exit code 2.
    Usage(String),
    /// A failure no input should cause: a serialisation error, an engine result that should
    /// not happen. Exit code 1.
    Internal(String),
}

impl Error {
    /// A usage error with this message.
    pub fn usage(msg: impl Into<String>) -> Self {
        Error::Usage(msg.into())
    }

    /// An internal error with this message.
    pub fn internal(msg: impl Into<String>) -> Self {
        Error::Internal(msg.into())
    }

    /// The message alone, without the `accelscope:` prefix.
    pub fn message(&self) -> &str {
        match self {
            Error::Usage(m) | Error::Internal(m) => m,
        }
    }

    /// The process's exit code.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_) => 2,
            Error::Internal(_) => 1,
        }
    }
}

/// The line for stderr.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(m) => write!(f, "accelscope: {m}"),
            Error::Internal(m) => write!(f, "accelscope: internal error: {m}"),
        }
    }
}

/// Engine errors that describe bad input: each names what was wrong and what is valid.
macro_rules! bad_input {
    ($($t:ty),* $(,)?) => {
        $(impl From<$t> for Error {
            fn from(e: $t) -> Self {
                Error::Usage(e.to_string())
            }
        })*
    };
}

bad_input!(
    engine::CatalogError,
    engine::ParseDtypeError,
    engine::OpSpecError,
    engine::ParseQuantityError,
    engine::system::UnknownSystem,
    engine::topology::TopologyError,
    engine::collective::CollectiveError,
    engine::workload::WorkloadError,
    engine::neuroncore::ScheduleError,
);

/// Writing JSON fails only on a bug of ours. (Reading the user's JSON maps its errors to
/// [`Error::Usage`] where it is read.)
impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        Error::Internal(format!("cannot write JSON: {e}"))
    }
}
