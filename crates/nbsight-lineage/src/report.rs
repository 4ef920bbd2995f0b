//! Texts for people: the warning before a cell reads a stale value, and the
//! `why`, `deps` and status reports the magics show. One place words them,
//! for the kernel and (later) the command line alike.

use std::fmt::Write as _;

use crate::answers::{Deps, StaleRead, SymbolRef};
use crate::session::Status;

/// `a`, `a` and `b`, `a`, `b` and `c`, each in backquotes.
fn quoted(items: &[String]) -> String {
    let items: Vec<String> = items.iter().map(|i| format!("`{i}`")).collect();
    match items.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn cells(list: &[String]) -> String {
    let list: Vec<String> = list.iter().map(|c| format!("cell {c}")).collect();
    match list.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{}, then {last}", init.join(", ")),
    }
}

/// One line per stale symbol: what made it stale and what to re-run.
fn explain_line(read: &StaleRead) -> String {
    let mut line = format!("`{}`", read.symbol);
    if let Some(cell) = &read.set_by {
        let _ = write!(line, " (set by cell {cell})");
    }
    match &read.ancestor {
        Some(a) => {
            let by = a
                .cell
                .as_ref()
                .map(|c| format!(" by cell {c}"))
                .unwrap_or_default();
            // A cell named by its execution count (`cell [3]`) already
            // says when.
            let when = if by.ends_with(']') {
                String::new()
            } else {
                format!(" [{}]", a.counter)
            };
            let _ = write!(
                line,
                " was computed from `{}`, updated since{by}{when}",
                a.symbol
            );
        }
        None => line.push_str(" was computed from values updated since"),
    }
    if !read.rerun.is_empty() {
        let _ = write!(line, "; re-run {}", cells(&read.rerun));
    }
    line
}

/// The cells to re-run for all of `reads`, in order, each once.
pub fn rerun_order(reads: &[StaleRead]) -> Vec<String> {
    let mut order: Vec<String> = Vec::new();
    for read in reads {
        for cell in &read.rerun {
            if !order.contains(cell) {
                order.push(cell.clone());
            }
        }
    }
    order
}

/// The warning printed before a cell that reads stale values runs.
pub fn warning(reads: &[StaleRead]) -> String {
    let symbols: Vec<String> = reads.iter().map(|r| r.symbol.clone()).collect();
    let mut text = format!("nbsight: this cell reads stale {}:\n", quoted(&symbols));
    for read in reads {
        let _ = writeln!(text, "  {}", explain_line(read));
    }
    let order = rerun_order(reads);
    if !order.is_empty() {
        let _ = writeln!(text, "  To refresh: re-run {} first.", cells(&order));
    }
    text
}

/// The error a blocked cell raises.
pub fn blocked(reads: &[StaleRead]) -> String {
    let symbols: Vec<String> = reads.iter().map(|r| r.symbol.clone()).collect();
    let order = rerun_order(reads);
    let mut text = format!(
        "nbsight (block mode) did not run this cell: it reads stale {}",
        quoted(&symbols)
    );
    if !order.is_empty() {
        let _ = write!(text, "; re-run {} first", cells(&order));
    }
    text.push('.');
    text
}

/// `%nbsight why CELL`.
pub fn why(cell: &str, reads: &[StaleRead]) -> String {
    if reads.is_empty() {
        return format!("cell {cell} reads nothing stale\n");
    }
    let mut text = format!("cell {cell} reads stale values:\n");
    for read in reads {
        let _ = writeln!(text, "  {}", explain_line(read));
    }
    text
}

fn symbol_ref(r: &SymbolRef) -> String {
    match &r.cell {
        Some(cell) => format!("`{}` (cell {cell}, [{}])", r.symbol, r.timestamp),
        None => format!("`{}`", r.symbol),
    }
}

/// `%nbsight deps SYMBOL`.
pub fn deps(deps: &Deps) -> String {
    let mut text = format!(
        "`{}`{}{}\n",
        deps.symbol,
        deps.cell
            .as_ref()
            .map(|c| format!(", set by cell {c} [{}]", deps.timestamp))
            .unwrap_or_default(),
        if deps.stale { ", stale" } else { "" }
    );
    let list = |refs: &[SymbolRef]| {
        if refs.is_empty() {
            "(none)".to_string()
        } else {
            refs.iter().map(symbol_ref).collect::<Vec<_>>().join(", ")
        }
    };
    let _ = writeln!(text, "  computed from: {}", list(&deps.parents));
    let _ = writeln!(text, "  used by:       {}", list(&deps.children));
    text
}

/// `%nbsight status`.
pub fn status(status: &Status) -> String {
    let list = |ids: &[String]| {
        if ids.is_empty() {
            "(none)".to_string()
        } else {
            ids.join(", ")
        }
    };
    let mut text = String::new();
    let _ = writeln!(text, "stale cells:      {}", list(&status.stale_cells));
    let _ = writeln!(text, "fresh cells:      {}", list(&status.fresh_cells));
    let _ = writeln!(text, "refresher cells:  {}", list(&status.refresher_cells));
    let _ = writeln!(text, "stale symbols:    {}", list(&status.stale_symbols));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answers::UpdatedAncestor;

    #[test]
    fn the_warning_names_symbols_causes_and_cells() {
        let read = StaleRead {
            symbol: "agg_by_col".into(),
            set_by: Some("c2".into()),
            ancestor: Some(UpdatedAncestor {
                symbol: "custom_agg".into(),
                cell: Some("c1".into()),
                counter: 4,
            }),
            rerun: vec!["c2".into()],
        };
        insta::assert_snapshot!(warning(std::slice::from_ref(&read)), @r"
        nbsight: this cell reads stale `agg_by_col`:
          `agg_by_col` (set by cell c2) was computed from `custom_agg`, updated since by cell c1 [4]; re-run cell c2
          To refresh: re-run cell c2 first.
        ");
        assert_eq!(
            blocked(&[read]),
            "nbsight (block mode) did not run this cell: it reads stale `agg_by_col`; re-run cell c2 first."
        );
    }
}
