//! What a selection chose, for the provenance recorder (3.12+): the
//! element `max(xs)`/`min(xs)` returns (its position in `xs`), or the rank
//! of each element a sort (`sorted(xs)`, `xs.sort()`) orders by, equal
//! elements equal ranks (the replay makes the order from them, `reverse=
//! True`'s too), computed from the CALL event's argument before the call
//! runs. Only where that runs no user code and has no effect: `xs` an
//! exact list (or tuple, or view of a dict) of exact ints, bools, floats
//! (not NaN) or strs, or of exact tuples of them, compared as CPython's
//! own `max`, `min` and stable `list.sort` compare them. With a `key=`
//! that is a user function (a lambda, a `def` recorded in the notebook),
//! the keys are the values its calls return (read from their PY_RETURN
//! events, [`Keyed`]) and are compared the same way when they are plain.
//! Anything else (a builtin key, a generator, objects with their own
//! comparisons) is not computed, and the replay answers that any element
//! may have been chosen.

use std::cmp::Ordering;

use nbsight_lineage::ProvenanceWhat as What;

use super::builtin_keys::BuiltinKey;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyList, PyString, PyTuple};

/// Longest argument whose choice is computed: `max`/`min` (one pass).
const SCAN: usize = 100_000;
/// Longest argument whose order is computed and logged (`sorted`, `.sort`).
const SORT: usize = 10_000;

/// The callables whose choice is logged.
pub(crate) struct Selectors {
    max: Py<PyAny>,
    min: Py<PyAny>,
    sorted: Py<PyAny>,
    list_sort: Py<PyAny>,
    /// The types of a dict's views (`d.items()`, `d.keys()`, `d.values()`):
    /// iterating one runs no user code.
    views: [Py<PyAny>; 3],
    /// NumPy's `argmax`/`argmin`, once the user imported NumPy (the
    /// recorder never imports it).
    numpy: std::sync::OnceLock<Numpy>,
}

/// NumPy's selections.
struct Numpy {
    ndarray: Py<PyAny>,
    argmax: Py<PyAny>,
    argmin: Py<PyAny>,
    /// `ndarray.argmax`, `ndarray.argmin` (a method call's callable).
    method_argmax: Py<PyAny>,
    method_argmin: Py<PyAny>,
}

impl Numpy {
    /// NumPy's selections, when NumPy is imported.
    fn imported(py: Python<'_>) -> Option<Numpy> {
        let module = py
            .import("sys")
            .and_then(|sys| sys.getattr("modules"))
            .and_then(|m| m.get_item("numpy"))
            .ok()?;
        let ndarray = module.getattr("ndarray").ok()?;
        Some(Numpy {
            argmax: module.getattr("argmax").ok()?.unbind(),
            argmin: module.getattr("argmin").ok()?.unbind(),
            method_argmax: ndarray.getattr("argmax").ok()?.unbind(),
            method_argmin: ndarray.getattr("argmin").ok()?.unbind(),
            ndarray: ndarray.unbind(),
        })
    }

    /// The elements of `arg`, an exact one-dimensional array of booleans,
    /// integers or floats (as Python numbers), or an exact list or tuple of
    /// such numbers (NumPy flattens nested sequences: tuples are not taken).
    fn items<'py>(&self, arg: &Bound<'py, PyAny>) -> Option<Vec<Bound<'py, PyAny>>> {
        if !arg.get_type().is(&self.ndarray) {
            let items = plain_items(arg, false)?;
            return items.iter().all(is_number).then_some(items);
        }
        let flat = arg.getattr("ndim").ok()?.extract::<u32>().ok()? == 1;
        let kind = arg
            .getattr("dtype")
            .and_then(|d| d.getattr("kind"))
            .and_then(|k| k.extract::<String>())
            .ok()?;
        let size = arg.getattr("size").ok()?.extract::<usize>().ok()?;
        if !flat || !matches!(kind.as_str(), "b" | "i" | "u" | "f") || size > SCAN {
            return None;
        }
        let list = arg.call_method0("tolist").ok()?;
        plain_items(&list, true)
    }
}

#[derive(Clone, Copy)]
enum Selector {
    Max,
    Min,
    Sorted,
    Sort,
    /// `np.argmax(xs)`, `xs.argmax()`: the position of the first largest.
    ArgMax,
    /// `np.argmin(xs)`, `xs.argmin()`.
    ArgMin,
}

impl Selectors {
    pub fn new(py: Python<'_>) -> PyResult<Selectors> {
        let builtins = py.import("builtins")?;
        Ok(Selectors {
            max: builtins.getattr("max")?.unbind(),
            min: builtins.getattr("min")?.unbind(),
            sorted: builtins.getattr("sorted")?.unbind(),
            list_sort: py.get_type::<PyList>().getattr("sort")?.unbind(),
            views: [
                py.eval(c"type({}.items())", None, None)?.unbind(),
                py.eval(c"type({}.keys())", None, None)?.unbind(),
                py.eval(c"type({}.values())", None, None)?.unbind(),
            ],
            numpy: std::sync::OnceLock::new(),
        })
    }

    /// NumPy's selections, once NumPy is imported.
    fn numpy(&self, py: Python<'_>) -> Option<&Numpy> {
        if let Some(numpy) = self.numpy.get() {
            return Some(numpy);
        }
        let numpy = Numpy::imported(py)?;
        Some(self.numpy.get_or_init(|| numpy))
    }

    fn of(&self, callable: &Bound<'_, PyAny>, argc: u32) -> Option<Selector> {
        let is = |f: &Py<PyAny>| callable.is(f);
        match argc {
            1 if is(&self.max) => Some(Selector::Max),
            1 if is(&self.min) => Some(Selector::Min),
            1 if is(&self.sorted) => Some(Selector::Sorted),
            // `xs.sort()`: the method and its receiver as the argument.
            0 if is(&self.list_sort) => Some(Selector::Sort),
            0 | 1 => {
                let numpy = self.numpy(callable.py())?;
                match argc {
                    1 if is(&numpy.argmax) => Some(Selector::ArgMax),
                    1 if is(&numpy.argmin) => Some(Selector::ArgMin),
                    0 if is(&numpy.method_argmax) => Some(Selector::ArgMax),
                    0 if is(&numpy.method_argmin) => Some(Selector::ArgMin),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Is `arg` exactly a dict, or a view of one (`d.items()`...)? Iterating
    /// it runs no user code.
    fn is_view(&self, arg: &Bound<'_, PyAny>) -> bool {
        let t = arg.get_type();
        arg.is_exact_instance_of::<pyo3::types::PyDict>() || self.views.iter().any(|v| t.is(v))
    }

    /// Is `callable`, called with `argc` positional arguments, a selection
    /// whose choice is logged?
    pub fn selects(&self, callable: &Bound<'_, PyAny>, argc: u32) -> bool {
        self.of(callable, argc).is_some()
    }

    /// A call of `callable` with `argc` positional arguments and a `key=`
    /// over `arg0` (an exact list, or tuple unless sorting in place) made
    /// at `at` of the code at address `caller`: the keys to wait for.
    pub fn keyed(
        &self,
        callable: &Bound<'_, PyAny>,
        argc: u32,
        arg0: &Bound<'_, PyAny>,
        caller: usize,
        at: (u32, u32),
    ) -> Option<Keyed> {
        let selector = self.of(callable, argc)?;
        let n = self.elements(selector, arg0)?.len();
        (n > 0 && n <= longest(selector)).then(|| Keyed {
            selector,
            n,
            keys: Vec::with_capacity(n),
            key_code: None,
            caller,
            at,
        })
    }

    /// The positions of `arg0`'s elements the call of `callable` with
    /// `argc` arguments (`arg0` the first, or the receiver of a method)
    /// returns or leaves, in order; `None` when it is not a selection or
    /// cannot be computed without running user code.
    pub fn order(
        &self,
        callable: &Bound<'_, PyAny>,
        argc: u32,
        arg0: &Bound<'_, PyAny>,
    ) -> Option<What> {
        let selector = self.of(callable, argc)?;
        let items = if matches!(selector, Selector::ArgMax | Selector::ArgMin) {
            self.numpy(arg0.py())?.items(arg0)?
        } else {
            plain(self.elements(selector, arg0)?)?
        };
        if items.len() > longest(selector) || items.is_empty() {
            return None;
        }
        select(selector, &items)
    }

    /// What the call of `callable` (a selection with `argc` arguments)
    /// over `arg0` chose with the builtin `key=` `key`, computed here (it
    /// calls no Python code to observe); `None` when it cannot be without
    /// running user code.
    pub fn order_by_builtin(
        &self,
        callable: &Bound<'_, PyAny>,
        argc: u32,
        arg0: &Bound<'_, PyAny>,
        key: BuiltinKey,
    ) -> Option<What> {
        let selector = self.of(callable, argc)?;
        let items = self.elements(selector, arg0)?;
        if items.is_empty() || items.len() > longest(selector) {
            return None;
        }
        let function = key.resolve(arg0.py())?;
        let keys = plain(key.keys(&function, &items)?)?;
        select(selector, &keys)
    }

    /// The elements `selector` takes from `arg0`, when iterating it runs no
    /// user code: an exact list, or (not sorting in place) an exact tuple,
    /// dict or view of one.
    fn elements<'py>(
        &self,
        selector: Selector,
        arg0: &Bound<'py, PyAny>,
    ) -> Option<Vec<Bound<'py, PyAny>>> {
        if let Ok(list) = arg0.cast_exact::<PyList>() {
            Some(list.iter().collect())
        } else if matches!(selector, Selector::Sort) {
            None
        } else if let Ok(tuple) = arg0.cast_exact::<PyTuple>() {
            Some(tuple.iter().collect())
        } else if self.is_view(arg0) {
            arg0.try_iter().ok()?.collect::<PyResult<Vec<_>>>().ok()
        } else {
            None
        }
    }
}

/// A selection with a `key=` running (3.12+).
pub(crate) struct Keyed {
    selector: Selector,
    /// How many elements: as many keys are computed.
    n: usize,
    keys: Vec<Py<PyAny>>,
    /// The key function's code (the first key's): every key comes from it.
    key_code: Option<usize>,
    /// The address of the code making the call: the key function's frames
    /// are called from its frame.
    pub caller: usize,
    /// Where the call starts.
    pub at: (u32, u32),
}

/// What a key returned means for its selection.
pub(crate) enum KeyStep {
    /// More keys to come.
    More,
    /// All keys are in: what the selection chose or the ranks it sorted by.
    Done(What),
    /// The choice cannot be computed (a key that is not plain).
    Lost,
}

impl Keyed {
    /// The function of code `code` returned `key` for the next element.
    pub fn key(&mut self, code: usize, key: &Bound<'_, PyAny>) -> KeyStep {
        if *self.key_code.get_or_insert(code) != code {
            return KeyStep::Lost;
        }
        self.keys.push(key.clone().unbind());
        if self.keys.len() < self.n {
            return KeyStep::More;
        }
        let py = key.py();
        let keys: Vec<Bound<'_, PyAny>> = self.keys.iter().map(|k| k.bind(py).clone()).collect();
        match plain(keys).and_then(|keys| select(self.selector, &keys)) {
            Some(order) => KeyStep::Done(order),
            None => KeyStep::Lost,
        }
    }
}

/// The rank of each of `keys` (equal keys, equal ranks; 0 the smallest)
/// when they are plain: what a `max`, `min` or sort by them makes
/// (3.10/3.11, where the call's name is known to the replay only).
pub(crate) fn ranks(keys: &[Bound<'_, PyAny>]) -> Option<Vec<u32>> {
    let keys = plain(keys.to_vec())?;
    if keys.len() > SORT {
        return None;
    }
    let order = stable_order(&keys)?;
    let mut ranks = vec![0u32; keys.len()];
    let mut rank = 0u32;
    for pair in order.windows(2) {
        let (a, b) = (&keys[pair[0] as usize], &keys[pair[1] as usize]);
        if a.lt(b).ok()? {
            rank += 1;
        }
        ranks[pair[1] as usize] = rank;
    }
    Some(ranks)
}

/// Longest argument whose choice or order is computed.
fn longest(selector: Selector) -> usize {
    match selector {
        Selector::Max | Selector::Min | Selector::ArgMax | Selector::ArgMin => SCAN,
        Selector::Sorted | Selector::Sort => SORT,
    }
}

/// What `selector` makes of `items` (plain values, [`plain`]): the
/// element `max`/`min` chose, or the ranks a sort orders by (with ties, so
/// that the replay makes `reverse=True`'s stable order too).
fn select(selector: Selector, items: &[Bound<'_, PyAny>]) -> Option<What> {
    match selector {
        Selector::Max | Selector::ArgMax => {
            chosen(items, |item, best| item.gt(best)).map(|i| What::Order(vec![i]))
        }
        Selector::Min | Selector::ArgMin => {
            chosen(items, |item, best| item.lt(best)).map(|i| What::Order(vec![i]))
        }
        Selector::Sorted | Selector::Sort => ranks(items).map(What::Ranks),
    }
}

/// The elements of an exact list (or, unless `list_only`, tuple) when
/// every one is an exact int, bool or float (not NaN), or every one an
/// exact str: comparing them runs no user code.
fn plain_items<'py>(arg: &Bound<'py, PyAny>, list_only: bool) -> Option<Vec<Bound<'py, PyAny>>> {
    let items: Vec<Bound<'py, PyAny>> = if let Ok(list) = arg.cast_exact::<PyList>() {
        list.iter().collect()
    } else if !list_only && let Ok(tuple) = arg.cast_exact::<PyTuple>() {
        tuple.iter().collect()
    } else {
        return None;
    };
    plain(items)
}

/// `items` when every one is an exact int, bool or float (not NaN), or
/// every one an exact str, or every one an exact tuple of such (a key
/// `(e['dept'], -e['salary'])`) whose elements at each position are all
/// numbers or all strs: comparing them runs no user code.
fn plain(items: Vec<Bound<'_, PyAny>>) -> Option<Vec<Bound<'_, PyAny>>> {
    let scalars = |column: &mut dyn Iterator<Item = Bound<'_, PyAny>>| {
        let (mut numbers, mut texts) = (true, true);
        for x in column {
            numbers &= is_number(&x);
            texts &= x.is_exact_instance_of::<PyString>();
            if !numbers && !texts {
                return false;
            }
        }
        true
    };
    if scalars(&mut items.iter().cloned()) {
        return Some(items);
    }
    let tuples: Vec<&Bound<'_, PyTuple>> = items
        .iter()
        .map(|x| x.cast_exact::<PyTuple>().ok())
        .collect::<Option<_>>()?;
    let width = tuples.iter().map(|t| t.len()).max()?;
    (0..width)
        .all(|i| scalars(&mut tuples.iter().filter_map(|t| t.get_item(i).ok())))
        .then_some(items)
}

/// An exact int, bool or float that is not NaN.
fn is_number(x: &Bound<'_, PyAny>) -> bool {
    x.is_exact_instance_of::<PyInt>()
        || x.is_exact_instance_of::<PyBool>()
        || (x.is_exact_instance_of::<PyFloat>()
            && x.cast::<PyFloat>().is_ok_and(|f| !f.value().is_nan()))
}

/// The first element `better` than all before it stays chosen, as
/// CPython's `max` (`>`) and `min` (`<`) scan.
fn chosen<'py>(
    items: &[Bound<'py, PyAny>],
    better: impl Fn(&Bound<'py, PyAny>, &Bound<'py, PyAny>) -> PyResult<bool>,
) -> Option<u32> {
    let mut best = 0;
    for (i, item) in items.iter().enumerate().skip(1) {
        if better(item, &items[best]).ok()? {
            best = i;
        }
    }
    u32::try_from(best).ok()
}

/// The positions in the order a stable sort by `<` leaves them (CPython's
/// `list.sort` only compares with `<`).
fn stable_order(items: &[Bound<'_, PyAny>]) -> Option<Vec<u32>> {
    let mut failed = false;
    let mut order: Vec<u32> = (0..u32::try_from(items.len()).ok()?).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&items[a as usize], &items[b as usize]);
        match (x.lt(y), y.lt(x)) {
            (Ok(true), _) => Ordering::Less,
            (Ok(false), Ok(true)) => Ordering::Greater,
            (Ok(false), Ok(false)) => Ordering::Equal,
            _ => {
                failed = true;
                Ordering::Equal
            }
        }
    });
    (!failed).then_some(order)
}
