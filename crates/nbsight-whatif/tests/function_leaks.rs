//! A session keeps what each user function does with its arguments (fits a
//! transformer, splits...) across its queries. An edit that changes a
//! function's body must be answered with the new body: a session that has
//! already answered other queries answers an edit of the defining cell
//! exactly as a fresh session does, and the edit does change the answer.

use std::path::Path;

use nbsight_dataflow::Effects;
use nbsight_notebook::{Notebook, load_percent_str};
use nbsight_whatif::{Event, Executed, WhatIfSession};

const NOTEBOOK: &str = "\
# %%
import pandas as pd
from sklearn.preprocessing import StandardScaler
from sklearn.model_selection import train_test_split
from sklearn.linear_model import LogisticRegression
# %%
def prepare(frame):
    return StandardScaler().fit_transform(frame)
# %%
df = pd.read_csv('data.csv')
y = df.pop('label')
X = prepare(df)
# %%
X_train, X_test, y_train, y_test = train_test_split(X, y)
model = LogisticRegression().fit(X_train, y_train)
print(model.score(X_test, y_test))
";

/// The defining cell rewritten so that the function learns nothing.
const STATELESS: &str = "def prepare(frame):\n    return frame * 2\n";
/// ... and back to a body that fits on all rows.
const FITTING: &str = "def prepare(frame):\n    return StandardScaler().fit_transform(frame)\n";

fn notebook() -> Notebook {
    load_percent_str(Path::new("functions.py"), NOTEBOOK)
}

fn answer(session: &WhatIfSession<'_>, source: &str) -> String {
    let event = Event::Edit {
        cell: 1,
        source: source.to_string(),
    };
    format!("{:?}", session.query(&event, None).expect("valid query"))
}

#[test]
fn edits_of_a_function_are_answered_with_its_new_body() {
    let effects = Effects::builtin();
    let notebook = notebook();
    let fresh = |source: &str| {
        let session = WhatIfSession::new(&notebook, &effects, &Executed::Saved).expect("session");
        answer(&session, source)
    };
    let (fresh_stateless, fresh_fitting) = (fresh(STATELESS), fresh(FITTING));
    assert_ne!(
        fresh_stateless, fresh_fitting,
        "the edit must matter for the test to mean anything"
    );

    // A session that has run queries reading `prepare` first.
    let session = WhatIfSession::new(&notebook, &effects, &Executed::Saved).expect("session");
    for cell in 0..notebook.cells.len() {
        session
            .query(&Event::Execute(cell), None)
            .expect("valid query");
    }
    assert_eq!(answer(&session, STATELESS), fresh_stateless);
    assert_eq!(answer(&session, FITTING), fresh_fitting);
    assert_eq!(answer(&session, STATELESS), fresh_stateless);
}
