//! ## What it reports
//! The same test split evaluates a second model, or a model trained in a
//! loop over hyper-parameters: the test set is being used to choose
//! (families compared across cells or in a loop, grid searches compared,
//! `k` or a depth chosen by test score). A split is made by
//! `train_test_split` and the like; by slicing the same data into a head
//! and a tail, in one statement or in separate ones and cells
//! (`X_train, X_test = X[:n], X[n:]`, `X_train = X[:60000]` then
//! `X_test = X[60000:]`, `df.iloc[:n]` / `df.iloc[n:]`); or by sampling
//! (`train = df.sample(frac=0.8)`, `test = df.drop(train.index)`). A
//! second `train_test_split` of the same data with the same keyword
//! arguments and `random_state` holds out the same rows: models (or
//! feature sets) scored on either are compared on one test set. Early
//! stopping on the test split (`fit(..., eval_set=[(X_test, y_test)],
//! early_stopping_rounds=10)`, an early-stopping callback) chooses the
//! model on it too, when the model is then scored there. Reported at the
//! evaluation that makes the test set a chooser (the second model's, or
//! the one inside the loop); every later model scored on the same split
//! joins that finding, whose path names each evaluating cell and whose
//! message counts the models. An evaluation is a `score`, a metric, or
//! predictions compared with the labels (`np.mean(pred != y_test)`), also
//! in a user function called with the test split.
//!
//! Checked along notebook order (what Run All does) and along the saved
//! execution order; `nbsight whatif` explores the other orders too. The
//! driver, shared by the three leakage rules, is `leakage_orders.rs`; the
//! detector and its message are in the leakage domain's crate
//! (`crates/nbsight-leakage/src/multi_test.rs`). One finding per cell. The
//! labeled cases are `tests/fixtures/leakage_suite/`.
//!
//! ## Why it matters
//! Once the test set has picked the winner, its score is no longer an
//! unbiased estimate of how the winner does on new data: the choice was
//! fitted to the test rows.
//!
//! ## Example
//! ```python
//! # %%
//! import pandas as pd
//! from sklearn.ensemble import RandomForestClassifier
//! from sklearn.linear_model import LogisticRegression
//! from sklearn.model_selection import train_test_split
//!
//! # %%
//! df = pd.read_csv("churn.csv")
//! X = df.drop(columns=["target"])
//! y = df["target"]
//! X_train, X_test, y_train, y_test = train_test_split(X, y)
//!
//! # %%
//! logreg = LogisticRegression().fit(X_train, y_train)
//! logreg.score(X_test, y_test)
//!
//! # %%
//! forest = RandomForestClassifier().fit(X_train, y_train)
//! forest.score(X_test, y_test)
//! ```
//!
//! `nbsight check` reports:
//! ```text
//! cell 3:2:1: NBS103 the test set of the split (cell 1, line 4) is used to choose among models: 2 different models are evaluated on it; choose on a validation split or with cross-validation, and touch the test set once
//!   cells: 1 -> 2 -> 3
//! ```
//!
//! Choose with cross-validation on the training split (or on a validation
//! split), then score the chosen model on the test set once.
//!
//! ## Not reported
//! - Predictions no metric compares with the labels (`rf.predict(X_test)`
//!   counted or plotted).
//! - A loop that splits another target in each iteration (`for col in
//!   targets: y = df[col]; ...`), or fits one model to each label column
//!   (`for c in labels: pipe.fit(X_train, train[c])`): its models answer
//!   different questions.
//! - One model made before a loop, refit on a split drawn again, unseeded,
//!   at each iteration (`for i in range(100): split; fit; score`, to
//!   average the score): each test set scores one fit. So is a model made
//!   in that loop from an outer loop's setting only (`for d in degrees:
//!   for rep in range(9): split; SVC(degree=d).fit; score`, then the
//!   scores averaged per degree: repeated hold-out). A model the
//!   splitting loop's own variable makes (`for k in ks: split; knn =
//!   KNN(k)`) is a candidate each time and is reported.
//! - Two seeded splits of names bound to other data in between
//!   (`X = pd.read_csv("b.csv")`): other rows, not the same test set.
//! - One object holding one of several models chosen by cross-validation
//!   (`best = a if a.best_score_ > b.best_score_ else b`), scored once.
//! - Several metrics of one model (accuracy, F1, a confusion matrix of the
//!   same predictions): nothing is chosen.
//! - Candidates compared by cross-validation on the training split, the
//!   chosen one scored on the test set once.
//! - Candidates compared on a validation split (early stopping, a
//!   hyper-parameter loop): a split of another split's training side, or
//!   one whose held-out side is named as validation data (`X_val`,
//!   `y_valid`, `X_validation`, `X_dev`). The final model scored on the test
//!   set once is the recommended practice.
//! - The same model refit on the same data (a re-run, `fit` again after
//!   `compile`): the object trained before, on the same rows, is not another
//!   model. A model rebuilt under the same name is.
//! - A head or a sample without its complement (`X = X[:10000]`, a
//!   shuffle `df.sample(frac=1)`): a subsample, not a split.
//! - Predictions only (no score or metric) of the tail of a competition's
//!   train and test files stacked and sliced apart again: it has no labels.
//! - Models fitted on different label variables (a denoiser fitted to
//!   reproduce `X_train` and a classifier of `y_train`): they are not
//!   candidates for the same choice (labels bound at the same place by
//!   equivalent splits are the same labels). Labels copied under a new name
//!   (`y_train_expanded`) count as another target too, a known miss.
