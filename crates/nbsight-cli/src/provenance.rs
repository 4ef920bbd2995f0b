//! `nbsight provenance DB_OR_NOTEBOOK SYMBOL [--session N]`: the
//! provenance of a value as a live kernel answered `nbsight.provenance`
//! at the end of its session, from its history: the session's runs are
//! replayed by the lineage's provenance engine (`nbsight-history`), with
//! the events the kernel recorded and its library-effects files.

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;
use nbsight_dataflow::Effects;
use nbsight_history::{History, InputRef, SessionId, SessionProvenance, SessionRow};
use serde::Serialize;

use crate::Outcome;
use crate::cells::Format;
use crate::history::time::{rfc3339, utc};
use crate::history::{DB_OR_NOTEBOOK_HELP, check_session, open};

/// Arguments of `nbsight provenance`.
#[derive(Debug, Args)]
#[command(
    after_help = "The answer is the one `nbsight.provenance(SYMBOL)` gave in the kernel at the end of its session (SYMBOL a name, or a path such as `res[0]`, `d['k']`, `df['a']`): the session's runs are replayed from the history as the kernel replayed them. `where` lists the inputs copied or computed into the value, `why` those read by the decisions that let them in or kept others out (each an input symbol with the cell that made it), `files` the files it derives from. Provenance is computed for the cells run with recording on (`%nbsight provenance on`); a value computed by a run that was not recorded is its own input (`recorded: false`).\n\nThe session is the latest in which SYMBOL was bound at its end, unless --session says. The library-effects files the kernel read (NBSIGHT_EFFECTS) are read again; one that is gone is said on standard error and the built-in knowledge base is used.\n\nExit status: 0 when the value was found, 2 on usage or input errors (no history there, a file that is not one, an unknown session, a symbol bound in no session)."
)]
pub struct ProvenanceArgs {
    #[arg(value_name = "DB_OR_NOTEBOOK", help = DB_OR_NOTEBOOK_HELP)]
    pub history: PathBuf,
    /// The symbol whose value's provenance to show.
    pub symbol: String,
    /// The session (default: the latest in which SYMBOL was bound at its end).
    #[arg(long, value_name = "N", value_parser = crate::history::parse_session_id)]
    pub session: Option<SessionId>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// An input, as `nbsight.provenance` gives it.
#[derive(Debug, Serialize)]
struct InputJson<'a> {
    /// `null`: made out of nbsight's sight.
    cell: Option<&'a str>,
    symbol: &'a str,
}

/// The execution that last set the value's root name.
#[derive(Debug, Serialize)]
struct LastSetJson<'a> {
    execution: u32,
    cell: &'a str,
    execution_count: Option<u32>,
    counter: u32,
    time: Option<String>,
}

/// A recorded execution whose replay gave up.
#[derive(Debug, Serialize)]
struct GaveUpJson<'a> {
    execution: u32,
    reason: &'a str,
}

/// The JSON contract of `nbsight provenance --format json`: the keys of
/// `nbsight.provenance` (`where`, `why`, `files`, `recorded`, `followed`,
/// `reason`) and where the
/// answer comes from.
#[derive(Debug, Serialize)]
struct ProvenanceJson<'a> {
    symbol: &'a str,
    history: String,
    session: i64,
    #[serde(rename = "where")]
    where_: Vec<InputJson<'a>>,
    why: Vec<InputJson<'a>>,
    files: &'a [String],
    recorded: bool,
    followed: bool,
    reason: Option<&'a str>,
    last_set: Option<LastSetJson<'a>>,
    replay_gave_up: Vec<GaveUpJson<'a>>,
}

fn inputs_json(list: &[InputRef]) -> Vec<InputJson<'_>> {
    list.iter()
        .map(|i| InputJson {
            cell: i.cell.as_deref(),
            symbol: &i.symbol,
        })
        .collect()
}

/// A list of inputs as one line: `numbers[2] (cell c1), ...`, `(none)`.
fn inputs_text(list: &[InputRef]) -> String {
    if list.is_empty() {
        return "(none)".to_string();
    }
    list.iter()
        .map(|i| match &i.cell {
            Some(cell) => format!("{} (cell {cell})", i.symbol),
            None => i.symbol.clone(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The knowledge base the session's kernel read: the built-in one and its
/// files; the built-in one alone (said once) when a file cannot be read.
fn session_effects(session: &SessionRow) -> Effects {
    if session.effects.is_empty() {
        return Effects::builtin();
    }
    let files: Vec<PathBuf> = session.effects.iter().map(PathBuf::from).collect();
    match Effects::with_user_files(&files) {
        Ok(effects) => effects,
        Err(error) => {
            eprintln!(
                "nbsight: warning: the library-effects files of session {} cannot be read again ({error}); using the built-in knowledge base",
                session.id
            );
            Effects::builtin()
        }
    }
}

/// The provenance of `symbol` in `session`, or in the latest session in
/// which it was bound at the end.
fn find(
    history: &History,
    session: Option<SessionId>,
    symbol: &str,
) -> anyhow::Result<Option<SessionProvenance>> {
    let sessions = history.sessions()?;
    let rows: HashMap<SessionId, &SessionRow> = sessions.iter().map(|s| (s.id, s)).collect();
    let candidates: Vec<SessionId> = match session {
        Some(id) => {
            check_session(history, id)?;
            vec![id]
        }
        None => sessions.iter().rev().map(|s| s.id).collect(),
    };
    let mut effects: HashMap<&[String], Effects> = HashMap::new();
    for id in candidates {
        let Some(row) = rows.get(&id) else {
            continue;
        };
        let kb = effects
            .entry(row.effects.as_slice())
            .or_insert_with(|| session_effects(row));
        if let Some(found) = history.provenance(id, symbol, kb)? {
            return Ok(Some(found));
        }
    }
    Ok(None)
}

pub fn run(args: &ProvenanceArgs) -> anyhow::Result<Outcome> {
    let history = open(&args.history)?;
    let path = history.path().display().to_string();
    let symbol = args.symbol.as_str();
    let Some(found) = find(&history, args.session, symbol)? else {
        match args.session {
            Some(session) => bail!(
                "`{symbol}` was not bound at the end of session {session} of the history {path}"
            ),
            None => {
                bail!("`{symbol}` was not bound at the end of any session of the history {path}")
            }
        }
    };
    let report = &found.report;
    match args.format {
        Format::Json => {
            let json = ProvenanceJson {
                symbol,
                history: path,
                session: found.session.0,
                where_: inputs_json(&report.where_),
                why: inputs_json(&report.why),
                files: &report.files,
                recorded: report.recorded,
                followed: report.followed,
                reason: report.reason.as_deref(),
                last_set: found.last_set.as_ref().map(|e| LastSetJson {
                    execution: e.index,
                    cell: &e.cell_id,
                    execution_count: e.execution_count,
                    counter: e.counter,
                    time: rfc3339(e.started),
                }),
                replay_gave_up: found
                    .gave_up
                    .iter()
                    .map(|(execution, reason)| GaveUpJson {
                        execution: *execution,
                        reason,
                    })
                    .collect(),
            };
            let out = serde_json::to_string_pretty(&json).context("cannot write JSON")?;
            println!("{out}");
        }
        Format::Text => {
            let set = match &found.last_set {
                Some(e) => {
                    let run = match e.execution_count {
                        Some(count) => format!("[{count}]"),
                        None => format!("counter {}", e.counter),
                    };
                    format!(
                        ", last set by cell {} (run {run} at {} UTC)",
                        e.cell_id,
                        utc(e.started)
                    )
                }
                None => String::new(),
            };
            println!(
                "provenance of `{symbol}` at the end of session {} of {path}{set}",
                found.session
            );
            if let Some(reason) = report.reason.as_deref().filter(|_| !report.followed) {
                println!("  not followed: {reason}; it is its own input");
            } else if !report.recorded {
                println!(
                    "  not recorded: the run that computed it was not recorded, it is its own input"
                );
            }
            println!("  where: {}", inputs_text(&report.where_));
            println!("  why:   {}", inputs_text(&report.why));
            let files = if report.files.is_empty() {
                "(none)".to_string()
            } else {
                report.files.join(", ")
            };
            println!("  files: {files}");
            for (execution, reason) in &found.gave_up {
                println!(
                    "  note: the replay of execution {execution} gave up ({reason}); what it wrote is its own input"
                );
            }
        }
    }
    Ok(Outcome::Clean)
}
