//! Inputs as an answer lists them: elements of one container in the same
//! role (all in `where`, or all in `why`) at consecutive positions are one
//! slice, `numbers[0:100000]` (end exclusive, as Python slices), when there
//! are more than [`MIN_RUN`] of them; fewer are listed one by one.

use super::InputRef;

/// The longest run of consecutive elements still listed one by one.
pub(crate) const MIN_RUN: usize = 10;

/// `base[i]` with `i` a non-negative integer: `(base, i)`.
fn position(symbol: &str) -> Option<(&str, u64)> {
    let inner = symbol.strip_suffix(']')?;
    let open = inner.rfind('[')?;
    let index = inner[open + 1..].parse::<u64>().ok()?;
    Some((&inner[..open], index))
}

/// Sorts `refs` (positions in numeric order), drops repeats and folds runs
/// of more than [`MIN_RUN`] consecutive elements of one container into a
/// slice.
pub(crate) fn summarise(mut refs: Vec<InputRef>) -> Vec<InputRef> {
    refs.sort_by_cached_key(|r| match position(&r.symbol) {
        Some((base, i)) => (r.cell.clone(), base.to_string(), Some(i)),
        None => (r.cell.clone(), r.symbol.clone(), None),
    });
    refs.dedup();
    let mut out: Vec<InputRef> = Vec::with_capacity(refs.len());
    let mut i = 0;
    while i < refs.len() {
        let Some((base, start)) = position(&refs[i].symbol) else {
            out.push(refs[i].clone());
            i += 1;
            continue;
        };
        let mut end = i + 1;
        while end < refs.len()
            && refs[end].cell == refs[i].cell
            && position(&refs[end].symbol) == Some((base, start + (end - i) as u64))
        {
            end += 1;
        }
        if end - i > MIN_RUN {
            out.push(InputRef {
                cell: refs[i].cell.clone(),
                symbol: format!("{base}[{start}:{}]", start + (end - i) as u64),
            });
        } else {
            out.extend(refs[i..end].iter().cloned());
        }
        i = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(cell: &str, symbol: &str) -> InputRef {
        InputRef {
            cell: Some(cell.into()),
            symbol: symbol.into(),
        }
    }

    #[test]
    fn long_runs_become_slices_short_ones_stay() {
        let mut refs: Vec<InputRef> = (0..100_000)
            .rev()
            .map(|i| r("c1", &format!("L[{i}]")))
            .collect();
        refs.push(r("c2", "factor"));
        refs.extend((0..3).map(|i| r("c1", &format!("xs[{i}]"))));
        refs.push(r("c1", "L[100001]"));
        let out = summarise(refs);
        let shown: Vec<&str> = out.iter().map(|r| r.symbol.as_str()).collect();
        assert_eq!(
            shown,
            [
                "L[0:100000]",
                "L[100001]",
                "xs[0]",
                "xs[1]",
                "xs[2]",
                "factor"
            ]
        );
    }

    #[test]
    fn positions_sort_as_numbers() {
        let out = summarise(vec![r("c", "a[10]"), r("c", "a[2]"), r("c", "a['k']")]);
        let shown: Vec<&str> = out.iter().map(|r| r.symbol.as_str()).collect();
        assert_eq!(shown, ["a[2]", "a[10]", "a['k']"]);
    }
}
