//! The configuration in force for a notebook, as ruff finds it: the
//! `[tool.nbsight]` table of the nearest `pyproject.toml` that has one
//! ([`pyproject`]), the command line's selectors as a layer over it
//! ([`layers`]), and the rules each notebook gets ([`settings`]). Shared by
//! `nbsight check`, `nbsight scan` and `nbsight server`.

mod layers;
mod pyproject;
mod settings;

use std::path::PathBuf;

pub use layers::{CommandLine, resolve};
pub use pyproject::{Config, Loaded, PYPROJECT, check_selector, load, parse, read};
pub use settings::{Resolver, Settings};

/// A configuration that cannot be read or used; the message names the file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{}: cannot read the configuration: {error}", file.display())]
    Read {
        file: PathBuf,
        error: std::io::Error,
    },
    #[error("{}: invalid configuration: {message}", file.display())]
    Invalid { file: PathBuf, message: String },
    #[error("{}invalid rule selection: {message}", file.as_ref().map(|f| format!("{}: ", f.display())).unwrap_or_default())]
    Selection {
        file: Option<PathBuf>,
        message: String,
    },
}
