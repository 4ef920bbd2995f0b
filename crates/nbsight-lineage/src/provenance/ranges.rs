//! Inputs as an answer lists them: elements of one container in the same
//! role (all in `where`, or all in `why`) at consecutive positions are one
//! slice, `numbers[0:100000]` (end exclusive, as Python slices), when there
//! are more than [`MIN_RUN`] of them; fewer are listed one by one.

use super::InputRef;
use super::symbol::Symbol;

/// The longest run of consecutive elements still listed one by one.
pub(crate) const MIN_RUN: usize = 10;

/// The inputs of an answer, each as its cell and symbol (`None`: never
/// bound, a `<literal>`), sorted (positions in numeric order), repeats
/// dropped, runs of more than [`MIN_RUN`] consecutive elements of one
/// container folded into a slice.
pub(crate) fn summarise(listed: Vec<(Option<&str>, Option<&Symbol>)>) -> Vec<InputRef> {
    let mut keys: Vec<(Option<&str>, &str, Option<u64>)> = listed
        .into_iter()
        .map(|(cell, symbol)| match symbol {
            None => (cell, "<literal>", None),
            Some(symbol) => match symbol.position() {
                Some((base, i)) => (cell, base, Some(i)),
                None => match symbol {
                    Symbol::Path(path) => (cell, &**path, None),
                    Symbol::Element(base, _) => (cell, &**base, None),
                },
            },
        })
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let one = |cell: Option<&str>, symbol: String| InputRef {
        cell: cell.map(str::to_string),
        symbol,
    };
    let mut out: Vec<InputRef> = Vec::with_capacity(keys.len().min(1024));
    let mut i = 0;
    while i < keys.len() {
        let (cell, base, index) = keys[i];
        let Some(start) = index else {
            out.push(one(cell, base.to_string()));
            i += 1;
            continue;
        };
        let mut end = i + 1;
        while end < keys.len() && keys[end] == (cell, base, Some(start + (end - i) as u64)) {
            end += 1;
        }
        if end - i > MIN_RUN {
            out.push(one(
                cell,
                format!("{base}[{start}:{}]", start + (end - i) as u64),
            ));
        } else {
            out.extend(
                (start..start + (end - i) as u64).map(|k| one(cell, format!("{base}[{k}]"))),
            );
        }
        i = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(cell: &str, symbol: &str) -> (String, Symbol) {
        (cell.to_string(), Symbol::Path(symbol.into()))
    }

    fn summarised(refs: &[(String, Symbol)]) -> Vec<InputRef> {
        summarise(
            refs.iter()
                .map(|(c, s)| (Some(c.as_str()), Some(s)))
                .collect(),
        )
    }

    #[test]
    fn long_runs_become_slices_short_ones_stay() {
        let mut refs: Vec<(String, Symbol)> = (0..100_000)
            .rev()
            .map(|i| r("c1", &format!("L[{i}]")))
            .collect();
        refs.push(r("c2", "factor"));
        refs.extend((0..3).map(|i| r("c1", &format!("xs[{i}]"))));
        refs.push(r("c1", "L[100001]"));
        let out = summarised(&refs);
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
        let out = summarised(&[r("c", "a[10]"), r("c", "a[2]"), r("c", "a['k']")]);
        let shown: Vec<&str> = out.iter().map(|r| r.symbol.as_str()).collect();
        assert_eq!(shown, ["a[2]", "a[10]", "a['k']"]);
    }

    #[test]
    fn elements_and_paths_of_one_position_are_one_input() {
        let base: std::sync::Arc<str> = "L".into();
        let mut refs: Vec<(String, Symbol)> = (0..12)
            .map(|i| ("c".to_string(), Symbol::Element(base.clone(), i)))
            .collect();
        refs.push(r("c", "L[3]"));
        refs.push(("c".to_string(), Symbol::Element(base.clone(), 20)));
        let out = summarised(&refs);
        let shown: Vec<&str> = out.iter().map(|r| r.symbol.as_str()).collect();
        assert_eq!(shown, ["L[0:12]", "L[20]"]);
    }
}
