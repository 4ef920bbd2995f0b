//! The `--effects FILE` option shared by the analysing commands, and the
//! `NBSIGHT_EFFECTS` environment variable (a `:`-separated list of files):
//! user knowledge-base files merged over the built-in one.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use nbsight_dataflow::Effects;
use nbsight_dataflow::effects::{EFFECTS_ENV_VAR, paths_from_env_value};

/// Options selecting the library-effects knowledge base.
#[derive(Debug, Args)]
pub struct EffectsArgs {
    /// Extra library-effects file (TOML, see docs/effects.md); repeatable.
    /// Also read from NBSIGHT_EFFECTS (paths separated by ':').
    #[arg(long = "effects", value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

impl EffectsArgs {
    /// The built-in knowledge base with the user's files merged in.
    pub fn load(&self) -> anyhow::Result<Effects> {
        let mut files: Vec<PathBuf> = std::env::var_os(EFFECTS_ENV_VAR)
            .map(|value| paths_from_env_value(&value))
            .unwrap_or_default();
        files.extend(self.files.iter().cloned());
        Effects::with_user_files(&files).context("cannot load the library-effects files")
    }
}
