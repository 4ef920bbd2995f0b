//! `nbsight slice --history DB_OR_NOTEBOOK --cell ID [--forward]`: the
//! dynamic slice over the execution history a live kernel wrote, as
//! `nbsight-history` rebuilds it (the answer `nbsight.backward_slice` gave
//! in the kernel), for people or as JSON.

use std::path::Path;

use anyhow::{Context, bail};
use serde::Serialize;

use super::{SliceArgs, SliceFormat};
use crate::Outcome;
use crate::history::{check_session, open};

/// The JSON contract of `nbsight slice --history ... --format json`.
#[derive(Debug, Serialize)]
struct HistorySliceJson<'a> {
    history: String,
    session: i64,
    cell: &'a str,
    direction: &'static str,
    /// Cell ids in notebook order.
    cells: &'a [String],
}

pub fn run(args: &SliceArgs, db: &Path) -> anyhow::Result<Outcome> {
    if args.format == SliceFormat::Html {
        bail!("--format html draws a notebook's graph: give the notebook instead of --history");
    }
    let history = open(db)?;
    let path = history.path().display().to_string();
    let cell = args.cell.as_str();
    let session = match args.session {
        Some(session) => {
            check_session(&history, session)?;
            session
        }
        None => match history.latest_session_of(cell)? {
            Some(session) => session,
            None => bail!("cell `{cell}` never ran in the history {path}"),
        },
    };
    let Some(cells) = history.dynamic_slice(session, cell, args.forward)? else {
        bail!("cell `{cell}` did not run in session {session} of the history {path}");
    };
    let direction = if args.forward { "forward" } else { "backward" };
    match args.format {
        SliceFormat::Json => {
            let report = HistorySliceJson {
                history: path,
                session: session.0,
                cell,
                direction,
                cells: &cells,
            };
            let out = serde_json::to_string_pretty(&report).context("cannot write JSON")?;
            println!("{out}");
        }
        SliceFormat::Text | SliceFormat::Html => {
            println!("{direction} slice of cell {cell} in session {session} of {path}");
            println!("cells: {}", cells.join(", "));
        }
    }
    Ok(Outcome::Clean)
}
