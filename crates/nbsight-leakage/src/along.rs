//! The leakage alarms along one order of cell runs from a fresh kernel:
//! what `nbsight check` reports for notebook order and the saved execution
//! order, each alarm with the cells involved in the order they ran.

use nbsight_absint::Alarm;
use nbsight_model::NotebookModel;

use crate::Leak;

/// An alarm raised by a cell run along an order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlarmAlong {
    /// The cell whose run raised it (a position in the model's cell list).
    pub cell: usize,
    pub alarm: Alarm,
    /// The cells the alarm involves, in the order they ran up to `cell`
    /// (included), each once, where it first ran.
    pub path: Vec<usize>,
}

/// One order of cell runs from a fresh kernel, run: the state before each
/// position of the order (and after the last), and the alarms raised.
#[derive(Debug, Clone, Default)]
pub struct Along {
    /// `states[p]` is the state before the run at position `p`;
    /// `states[order.len()]` the state after the last. Empty when the
    /// notebook has no call this domain looks at.
    pub states: Vec<Leak>,
    /// The alarms, in the order they are raised.
    pub alarms: Vec<AlarmAlong>,
}

/// Runs `order` (positions in the model's cell list; a position out of the
/// list runs nothing) on a fresh kernel. What user functions do is read once
/// per definition for the whole order (and any state computed from its
/// states, in this model).
pub fn run_along(model: &NotebookModel, order: &[usize]) -> Along {
    let mut state = Leak::new(model);
    if !state.is_active() {
        return Along::default();
    }
    state.keep_function_leaks();
    let mut along = Along {
        states: Vec::with_capacity(order.len() + 1),
        alarms: Vec::new(),
    };
    for (position, &c) in order.iter().enumerate() {
        let (after, alarms) = match model.cells.get(c) {
            Some(cell) => state.run_cell(model, cell),
            None => (state.clone(), Vec::new()),
        };
        for alarm in alarms {
            let ran = &order[..=position];
            // A later alarm of a problem already raised adds its cells to
            // the first one, and its message, which counts them all.
            let first = alarm.joins.and_then(|joins| {
                along.alarms.iter_mut().find(|a| {
                    a.alarm.kind == alarm.kind && a.alarm.joins.is_some_and(|j| j.key == joins.key)
                })
            });
            match first {
                Some(first) => {
                    let mut involved = std::mem::take(&mut first.path);
                    involved.extend(alarm.involved);
                    involved.push(c);
                    first.alarm.involved.push(c);
                    // The message of the alarm that sees the most models.
                    let weight =
                        |joins: Option<nbsight_absint::Joins>| joins.map_or(0, |j| j.weight);
                    if weight(alarm.joins) >= weight(first.alarm.joins) {
                        first.alarm.joins = alarm.joins;
                        first.alarm.message = alarm.message;
                    }
                    first.path = path_of(ran, |i| involved.contains(&i));
                }
                None if alarm.joins.is_some_and(|j| !j.opens) => {}
                None => along.alarms.push(AlarmAlong {
                    cell: c,
                    path: path_of(ran, |i| alarm.involved.contains(&i) || i == c),
                    alarm,
                }),
            }
        }
        along.states.push(std::mem::replace(&mut state, after));
    }
    along.states.push(state);
    along
}

/// The cells of `ran` that `involved` says, in the order they ran, each
/// where it first ran.
fn path_of(ran: &[usize], involved: impl Fn(usize) -> bool) -> Vec<usize> {
    let mut path = Vec::new();
    for &i in ran {
        if involved(i) && !path.contains(&i) {
            path.push(i);
        }
    }
    path
}

/// The alarms of running `order` (positions in the model's cell list) on
/// a fresh kernel, in the order they are raised; none when the notebook has
/// no call this domain looks at.
pub fn alarms_along(model: &NotebookModel, order: &[usize]) -> Vec<AlarmAlong> {
    run_along(model, order).alarms
}

#[cfg(test)]
mod tests {
    use super::*;
    use nbsight_absint::AlarmKind;
    use nbsight_dataflow::Effects;
    use nbsight_model::testing::notebook;

    fn model(sources: &[&str]) -> NotebookModel {
        NotebookModel::new(&notebook(sources), &Effects::builtin())
    }

    fn kinds(found: &[AlarmAlong]) -> Vec<(usize, AlarmKind, Vec<usize>)> {
        found
            .iter()
            .map(|a| (a.cell, a.alarm.kind, a.path.clone()))
            .collect()
    }

    /// NBLyzer's Figure 1 (seed 000): scaling on all rows leaks when the
    /// cell reading the file again is skipped, not along notebook order.
    #[test]
    fn figure_1_leaks_only_with_the_reread_skipped() {
        let m = model(&[
            "import pandas as pd\nd = pd.read_csv('data.csv')",
            "from sklearn.preprocessing import MinMaxScaler\nx = MinMaxScaler().fit_transform(d)",
            "x = pd.read_csv('data.csv').values",
            "from sklearn.model_selection import train_test_split\nx_train, x_test, y_train, y_test = train_test_split(x[:, :-1], x[:, -1])",
            "from sklearn.linear_model import LogisticRegression\nmodel = LogisticRegression().fit(x_train, y_train)\nmodel.score(x_test, y_test)",
        ]);
        assert!(alarms_along(&m, &[0, 1, 2, 3, 4]).is_empty());
        assert_eq!(
            kinds(&alarms_along(&m, &[0, 1, 3, 4])),
            vec![(4, AlarmKind::PreprocessingLeakage, vec![1, 3, 4])]
        );
    }

    /// Oversampling before the split is overlap leakage; a second model
    /// scored on the same test set is multi-test leakage; each alarm's
    /// path lists the cells involved in the order they ran.
    #[test]
    fn overlap_and_multi_test_along_one_order() {
        let m = model(&[
            "import pandas as pd\nfrom imblearn.over_sampling import SMOTE\nfrom sklearn.model_selection import train_test_split\nfrom sklearn.linear_model import LogisticRegression\nfrom sklearn.tree import DecisionTreeClassifier",
            "df = pd.read_csv('data.csv')\ny = df.pop('label')\nX, y = SMOTE().fit_resample(df, y)",
            "X_train, X_test, y_train, y_test = train_test_split(X, y)",
            "a = LogisticRegression().fit(X_train, y_train)\na.score(X_test, y_test)",
            "b = DecisionTreeClassifier().fit(X_train, y_train)\nb.score(X_test, y_test)",
        ]);
        let found = kinds(&alarms_along(&m, &[0, 1, 2, 3, 4]));
        assert!(found.contains(&(3, AlarmKind::OverlapLeakage, vec![1, 2, 3])));
        assert!(found.contains(&(4, AlarmKind::MultiTestLeakage, vec![2, 3, 4])));
        // Cells out of the order are not run: no model, no alarm.
        assert!(alarms_along(&m, &[0, 1, 2]).is_empty());
    }

    /// A third model scored on a test set already used to choose joins the
    /// one alarm: raised at the second evaluation, its path names every
    /// evaluation, in the order they ran, and its message counts them.
    #[test]
    fn further_models_join_the_multi_test_alarm() {
        let m = model(&[
            "import pandas as pd\nfrom sklearn.model_selection import train_test_split\nfrom sklearn.linear_model import LogisticRegression\nfrom sklearn.tree import DecisionTreeClassifier\nfrom sklearn.svm import SVC",
            "df = pd.read_csv('data.csv')\ny = df.pop('label')\nX_train, X_test, y_train, y_test = train_test_split(df, y)",
            "a = LogisticRegression().fit(X_train, y_train)\na.score(X_test, y_test)",
            "b = DecisionTreeClassifier().fit(X_train, y_train)\nb.score(X_test, y_test)",
            "c = SVC().fit(X_train, y_train)\nc.score(X_test, y_test)",
        ]);
        let found = alarms_along(&m, &[0, 1, 2, 3, 4]);
        assert_eq!(
            kinds(&found),
            vec![(3, AlarmKind::MultiTestLeakage, vec![1, 2, 3, 4])]
        );
        assert!(found[0].alarm.message.contains("3 different models"));
        // Run in another order, the path follows it.
        let found = alarms_along(&m, &[0, 1, 4, 2, 3]);
        assert_eq!(
            kinds(&found),
            vec![(2, AlarmKind::MultiTestLeakage, vec![1, 4, 2, 3])]
        );
    }

    /// A notebook without ML calls is not interpreted at all.
    #[test]
    fn nothing_without_ml_calls() {
        let m = model(&["x = 1", "y = x + 1"]);
        assert!(alarms_along(&m, &[0, 1]).is_empty());
        assert!(!Leak::new(&m).is_active());
    }
}
