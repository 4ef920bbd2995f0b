//! ## What it reports
//! A model evaluated on the held-out side of a split whose rows (or copies
//! of them) are also in its training data:
//! - over-sampling or resampling before the split (`SMOTE().fit_resample`,
//!   `RandomOverSampler`, `sklearn.utils.resample`, rows drawn with
//!   replacement `minority.sample(n, replace=True)`), or augmentation that
//!   stacks altered copies of the rows onto them (`np.vstack([X, X +
//!   noise])`, `pd.concat([df, df.sample(frac=0.3)])`, along rows);
//! - the test rows put back into the training data (`pd.concat([X_train,
//!   X_test])`, `np.concatenate(...)`, then `fit`);
//! - a model fitted on all the rows (`model.fit(X, y)`, or on a sample of
//!   all of them), then scored on the held-out side of a split of those
//!   rows (`model.score(X_test, y_test)`).
//!
//! Also a training side resampled and then split again (the validation
//! part holds neighbours or copies of training rows), and
//! cross-validation on data resampled before the folds. Reported at
//! the evaluation or cross-validation call; the message names the cells of
//! the resampling (or of the read), the split and the fit.
//!
//! Checked along notebook order (what Run All does) and along the saved
//! execution order; `nbsight whatif` explores the other orders too. The
//! driver, shared by the three leakage rules, is `leakage_orders.rs`; the
//! detector and its message are in the leakage domain's crate
//! (`crates/nbsight-leakage/src/overlap.rs`). One finding per cell. The
//! labeled cases are `tests/fixtures/leakage_suite/`.
//!
//! ## Why it matters
//! The model is tested on rows it was trained on (or on synthetic neighbours
//! of them), so the score measures memory, not generalisation.
//!
//! ## Example
//! ```python
//! # %%
//! import pandas as pd
//! from imblearn.over_sampling import SMOTE
//! from sklearn.ensemble import RandomForestClassifier
//! from sklearn.model_selection import train_test_split
//!
//! # %%
//! df = pd.read_csv("fraud.csv")
//! X = df.drop(columns=["fraud"])
//! y = df["fraud"]
//! X_res, y_res = SMOTE().fit_resample(X, y)
//!
//! # %%
//! X_train, X_test, y_train, y_test = train_test_split(X_res, y_res)
//! forest = RandomForestClassifier().fit(X_train, y_train)
//! forest.score(X_test, y_test)
//! ```
//!
//! `nbsight check` reports:
//! ```text
//! cell 2:3:1: NBS102 `score` evaluates the model trained (cell 2, line 2) on `X_test`, but the training and test data were both resampled by `fit_resample` (cell 1, line 4), before the split (cell 2, line 1) separated them: test rows (or copies of them) are also in the training set; resample the training split only
//!   cells: 1 -> 2
//! ```
//!
//! Split first and resample `X_train, y_train` only (or use imblearn's
//! `Pipeline`, which resamples inside each training fold).
//!
//! ## Not reported
//! - Resampling or augmenting the training split only, or inside an
//!   imblearn `Pipeline`.
//! - Training and validation sides put back together for the final refit
//!   (`pd.concat([X_tr, X_val])`), scored on a test split they never held.
//! - A model of the training side scored on a validation set carved from
//!   the test side: the two sides share no row.
//! - A model fitted on all rows that predicts other data (a new file).
//! - Columns concatenated (`pd.concat([df, dummies], axis=1)`), or named
//!   after another frame's (`df[X_train.columns]`, `columns=X.columns`):
//!   what data looks like is not its rows.
//! - Lag features of one series (`X = s[:-1]`, `y = s[1:]`): slicing is a
//!   split only as a complementary pair, `x[:n]` and `x[n:]`.
//! - A model trained on the training side of a split, scored on the
//!   held-out side of another split of the same data with the same
//!   `random_state`: the same rows are held out.
//! - Monitoring sets passed to `fit` (`eval_set=`, `validation_data=`,
//!   also through a `**fit_params` dict) or watched by `xgb.train(...,
//!   evals=watchlist)`: they are not training rows.
//! - Names bound together from a tuple (`X_train, X_test = train["text"],
//!   test["text"]`): each holds its own element's rows.
//! - A leak that only another execution order shows: notebook order with
//!   some cells skipped is `leakage-with-cells-skipped` (NBS104); other
//!   orders, `nbsight whatif`.
