//! `nbsight history DB_OR_NOTEBOOK [--session N|all]`: the executions a
//! live kernel wrote to its history (`nbsight-history`, docs/history.md),
//! one line each (session, cell, execution count and counter, time,
//! duration, status, symbols read and written) or JSON; and what the other
//! readers of a history share: opening the file a `DB_OR_NOTEBOOK`
//! argument names, choosing a session, dates.

mod json;
mod text;
pub(crate) mod time;

use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow, bail};
use clap::Args;
use nbsight_history::{ExecutionRow, History, HistoryError, SessionId, locate};

use crate::Outcome;
use crate::cells::Format;

/// What `DB_OR_NOTEBOOK` means, for the help texts.
pub(crate) const DB_OR_NOTEBOOK_HELP: &str = "The history: its SQLite file, a notebook (its history is .nbsight/NAME.sqlite beside it) or a folder (.nbsight/history.sqlite in it)";

/// Arguments of `nbsight history`.
#[derive(Debug, Args)]
#[command(
    after_help = "A kernel with nbsight loaded (`%load_ext nbsight`) writes every cell run to an SQLite file, by default .nbsight/NAME.sqlite beside the notebook NAME.ipynb (or .nbsight/history.sqlite in the working directory when the kernel does not know its notebook); see docs/history.md. This command reads it after the kernel is gone.\n\nOne line per execution: the session (one per kernel), the cell id, the kernel's execution count (`-` for a run that stored none) and nbsight's counter, when it started (UTC), how long it took, ok or error, the symbols it read and those it wrote. --format json gives a list of objects with the same and the cell's source, the reads' whole/part flags and the executions each depended on.\n\nExit status: 0 when the history was read, 2 on usage or input errors (no history there, a file that is not one, an unknown session)."
)]
pub struct HistoryArgs {
    #[arg(value_name = "DB_OR_NOTEBOOK", help = DB_OR_NOTEBOOK_HELP)]
    pub history: PathBuf,
    /// The session to show: its number (see the first column), or `all`.
    #[arg(long, value_name = "N|all", default_value = "all", value_parser = parse_session)]
    pub session: SessionChoice,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Which sessions a command reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionChoice {
    All,
    One(SessionId),
}

fn parse_session(text: &str) -> Result<SessionChoice, String> {
    if text == "all" {
        return Ok(SessionChoice::All);
    }
    parse_session_id(text).map(SessionChoice::One)
}

/// A session number, as `--session N` takes it.
pub(crate) fn parse_session_id(text: &str) -> Result<SessionId, String> {
    match text.parse::<i64>() {
        Ok(n) if n > 0 => Ok(SessionId(n)),
        _ => Err(format!(
            "`{text}` is not a session number (1, 2, ... as `nbsight history` lists them)"
        )),
    }
}

/// Opens the history `arg` names (`DB_OR_NOTEBOOK`), for reading; an error
/// naming the file when there is none or it is not a history.
pub(crate) fn open(arg: &Path) -> anyhow::Result<History> {
    let path = locate(arg);
    History::open_existing(&path).map_err(|error| match error {
        HistoryError::Missing { .. } if path != arg => anyhow!(
            "no history for {}: {} does not exist (a kernel with nbsight loaded writes it; see docs/history.md)",
            arg.display(),
            path.display()
        ),
        HistoryError::Missing { .. } => anyhow!(
            "no history at {}: no such file (a kernel with nbsight loaded writes one; see docs/history.md)",
            path.display()
        ),
        other => anyhow!(other),
    })
}

/// Checks that `session` is in the history.
pub(crate) fn check_session(history: &History, session: SessionId) -> anyhow::Result<()> {
    let sessions = history.sessions()?;
    if sessions.iter().any(|s| s.id == session) {
        return Ok(());
    }
    let known = match (sessions.first(), sessions.last()) {
        (Some(first), Some(last)) if first.id == last.id => {
            format!("its only session is {}", first.id)
        }
        (Some(first), Some(last)) => format!("its sessions are {} to {}", first.id, last.id),
        _ => "it has no session".to_string(),
    };
    bail!(
        "no session {session} in the history {} ({known})",
        history.path().display()
    )
}

pub fn run(args: &HistoryArgs) -> anyhow::Result<Outcome> {
    let history = open(&args.history)?;
    let sessions = match args.session {
        SessionChoice::All => history.sessions()?.into_iter().map(|s| s.id).collect(),
        SessionChoice::One(id) => {
            check_session(&history, id)?;
            vec![id]
        }
    };
    let mut executions: Vec<ExecutionRow> = Vec::new();
    for session in sessions {
        executions.extend(history.executions(session)?);
    }
    match args.format {
        Format::Json => {
            let rows: Vec<json::ExecutionJson<'_>> =
                executions.iter().map(json::ExecutionJson::new).collect();
            let out = serde_json::to_string_pretty(&rows).context("cannot write JSON")?;
            println!("{out}");
        }
        Format::Text => print!("{}", text::render(history.path(), &executions)),
    }
    Ok(Outcome::Clean)
}
