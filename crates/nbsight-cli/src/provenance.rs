//! `nbsight provenance DB_OR_NOTEBOOK SYMBOL`: the provenance a live kernel
//! recorded for a symbol's value (the latest recorded), read from its
//! history: where the value came from, why (the values that decided it),
//! the files it derives from.

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::Outcome;
use crate::cells::Format;
use crate::history::time::{rfc3339, utc};
use crate::history::{DB_OR_NOTEBOOK_HELP, open};

/// Arguments of `nbsight provenance`.
#[derive(Debug, Args)]
#[command(
    after_help = "The provenance is the one the kernel recorded last for SYMBOL (a name, or a path such as `res[0]`, `d['k']`, `df['a']`), as the execution that left it: `where` lists the inputs copied or computed into the value, `why` those read by the decisions that let them in or kept others out (each an input symbol with the cell that made it), `files` the files it derives from. Provenance is recorded for the cells run with `%nbsight provenance on`.\n\nExit status: 0 when a provenance was found, 2 on usage or input errors (no history there, a file that is not one, no provenance recorded for SYMBOL)."
)]
pub struct ProvenanceArgs {
    #[arg(value_name = "DB_OR_NOTEBOOK", help = DB_OR_NOTEBOOK_HELP)]
    pub history: PathBuf,
    /// The symbol whose value's provenance to show.
    pub symbol: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// The JSON report: the execution that left the value, then the stored
/// provenance's own keys (`where`, `why`, `files`, ...).
#[derive(Debug, Serialize)]
struct ProvenanceJson<'a> {
    symbol: &'a str,
    history: String,
    session: i64,
    /// The execution that left the value (index in its session's log).
    execution: u32,
    cell: &'a str,
    execution_count: Option<u32>,
    counter: u32,
    time: Option<String>,
    #[serde(flatten)]
    provenance: &'a Map<String, Value>,
}

/// An input as people read it: `symbol (cell C)`.
fn input(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Object(map) => match (map.get("symbol"), map.get("cell")) {
            (Some(Value::String(symbol)), Some(Value::String(cell))) => {
                format!("{symbol} (cell {cell})")
            }
            (Some(Value::String(symbol)), _) => symbol.clone(),
            _ => value.to_string(),
        },
        other => other.to_string(),
    }
}

/// A list of the stored JSON as one line, `(none)` when empty or absent.
fn inputs(list: Option<&Value>) -> String {
    match list {
        Some(Value::Array(items)) if !items.is_empty() => {
            items.iter().map(input).collect::<Vec<_>>().join(", ")
        }
        Some(Value::Array(_)) | None | Some(Value::Null) => "(none)".to_string(),
        Some(other) => input(other),
    }
}

pub fn run(args: &ProvenanceArgs) -> anyhow::Result<Outcome> {
    let history = open(&args.history)?;
    let path = history.path().display().to_string();
    let Some(found) = history.provenance(&args.symbol)? else {
        bail!(
            "no provenance was recorded for `{}` in the history {path} (it is recorded for the cells run with `%nbsight provenance on`)",
            args.symbol
        );
    };
    let stored: Map<String, Value> = match serde_json::from_str(&found.json) {
        Ok(Value::Object(map)) => map,
        Ok(_) => bail!(
            "{path}: the provenance stored for `{}` is not a JSON object",
            args.symbol
        ),
        Err(error) => bail!(
            "{path}: the provenance stored for `{}` is not JSON ({error})",
            args.symbol
        ),
    };
    let e = &found.execution;
    match args.format {
        Format::Json => {
            // The report's own keys win over stored ones of the same name.
            let mut stored = stored.clone();
            for key in [
                "symbol",
                "history",
                "session",
                "execution",
                "cell",
                "execution_count",
                "counter",
                "time",
            ] {
                stored.remove(key);
            }
            let report = ProvenanceJson {
                symbol: &args.symbol,
                history: path,
                session: e.session.0,
                execution: e.index,
                cell: &e.cell_id,
                execution_count: e.execution_count,
                counter: e.counter,
                time: rfc3339(e.started),
                provenance: &stored,
            };
            let out = serde_json::to_string_pretty(&report).context("cannot write JSON")?;
            println!("{out}");
        }
        Format::Text => {
            let run = match e.execution_count {
                Some(count) => format!("[{count}]"),
                None => format!("counter {}", e.counter),
            };
            let own = if stored.get("recorded") == Some(&Value::Bool(false)) {
                " (not recorded: it is its own input)"
            } else {
                ""
            };
            println!(
                "`{}`{own}, as cell {} left it (session {}, run {run} at {} UTC)",
                args.symbol,
                e.cell_id,
                e.session,
                utc(e.started)
            );
            println!("  where: {}", inputs(stored.get("where")));
            println!("  why:   {}", inputs(stored.get("why")));
            println!("  files: {}", inputs(stored.get("files")));
        }
    }
    Ok(Outcome::Clean)
}
