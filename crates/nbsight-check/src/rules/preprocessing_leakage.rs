//! ## What it reports
//! Statistics fitted on rows that include the test rows, when a model
//! trained on the training part is evaluated (`predict`, `score`, a metric)
//! on the test part: both parts carry the test rows' statistics. That is:
//! - a transformer fitted on all rows before the split (a scaler's
//!   `fit_transform`, an imputer's `fit`, `SelectKBest`, `PCA`,
//!   `sklearn.preprocessing.scale`), or on the two sides of a split put back
//!   together (`tfv.fit(list(x_train) + list(x_valid))`);
//! - gaps filled or columns rescaled with a statistic of all rows
//!   (`df["age"].fillna(df["age"].mean())`, `df.fillna(df.median())`,
//!   `(X - X.mean()) / X.std()`: `mean`, `median`, `mode`, `std`, `var`,
//!   `quantile` of the data, also named as a string: target encoding by
//!   `df.groupby("city")["target"].transform("mean")`, `.agg("median")`;
//!   not a row's own statistic, `df[cols].mean(axis=1)`);
//! - a user function whose body does either, called on the whole data
//!   (`def prep(d): return StandardScaler().fit_transform(d)`, then
//!   `X = prep(X)` before the split).
//!
//! The model may have been trained on another split than the one whose
//! test part it is evaluated on (the split of an undersampled copy of the
//! data): both still carry the statistics.
//!
//! An evaluation is a `score`, a metric, or predictions compared with the
//! labels of the same rows (`np.mean(pred != y_test)`, `y_test - pred`),
//! also inside a user function that fits a model on some of its arguments
//! and scores it on others (`def log_reg(X_tr, y_tr, X_te, y_te)`), or
//! that scores a model passed to it (`def report(model, X, y):
//! print(model.score(X, y))`), where it is called.
//!
//! Also cross-validation (`cross_val_score`, `learning_curve`,
//! `GridSearchCV.fit`, `LassoCV.fit`, or a user function that splits into
//! folds and fits and scores, such as a hand-written `KFold` loop) on data
//! prepared that way, or with statistics fitted on the whole training side
//! of a split, however the split was made (`MinMaxScaler().fit(X_train)`,
//! then `GridSearchCV(...).fit(X_train_scaled, y_train)`): every fold's
//! validation rows shaped them. Reported at the evaluation or
//! cross-validation call; the message names the cell and line of the fit
//! (or of the call that passes the whole data through the user function)
//! and of the split.
//!
//! Checked along notebook order (what Run All does) and along the saved
//! execution order; `nbsight whatif` explores the other orders too. The
//! driver, shared by the three leakage rules, is `leakage_orders.rs`; the
//! detector and its message are in the leakage domain's crate
//! (`crates/nbsight-leakage/src/preprocessing.rs`). One finding per cell. The
//! labeled cases are `tests/fixtures/leakage_suite/`.
//!
//! ## Why it matters
//! The test set no longer stands for unseen data: what the model learnt
//! from the scaled or selected features includes the test rows, so the test
//! score is optimistic and the model does worse on new data.
//!
//! ## Example
//! ```python
//! # %%
//! import pandas as pd
//! from sklearn.linear_model import LogisticRegression
//! from sklearn.model_selection import train_test_split
//! from sklearn.preprocessing import StandardScaler
//!
//! # %%
//! df = pd.read_csv("churn.csv")
//! X = df.drop(columns=["target"])
//! y = df["target"]
//! scaler = StandardScaler()
//! X_scaled = scaler.fit_transform(X)
//!
//! # %%
//! X_train, X_test, y_train, y_test = train_test_split(X_scaled, y)
//! model = LogisticRegression().fit(X_train, y_train)
//! model.score(X_test, y_test)
//! ```
//!
//! `nbsight check` reports:
//! ```text
//! cell 2:3:1: NBS101 `score` evaluates the model trained (cell 2, line 2) on `X_test`, but the training and test data were both transformed with statistics `fit_transform` (cell 1, line 5) fitted on rows that include those the split (cell 2, line 1) holds out: statistics of the test rows leak into training; fit it on the training split only, or use a Pipeline
//!   cells: 1 -> 2
//! ```
//!
//! Split first and fit the scaler on `X_train` only, or put the scaler and
//! the model in one `Pipeline`.
//!
//! ## Not reported
//! - Transformers (or statistics) fitted on the training split, or on
//!   train + validation inside it, when the model is evaluated on the test
//!   split (not cross-validated on the training split), and `Pipeline`s
//!   fitted on it or cross-validated.
//! - Gaps filled with a constant (`df.fillna(0)`), or with the training
//!   split's statistics (`X_test.fillna(X_train.mean())`).
//! - A statistic of all rows that only decides which rows are kept
//!   (`df[df.x < df.x.quantile(0.99)]`; bound to names first: `low, high =
//!   df.x.quantile([0.05, 0.9])`, then `df[df.x.between(low, high)]` or a
//!   mask `keep = df.x < high` and `df[keep]`), or is stored in a column
//!   that the features, selected by name, leave out (`df["m"] =
//!   df.age.mean()`, then `X = df[["age", "income"]]` or `X =
//!   df.drop(columns=["m", "y"])`; also through a name, `m =
//!   df.age.mean()` then `df["age"] = df.age.fillna(m)` with `age` left
//!   out). A mask stored as a feature column is reported. The same in a
//!   user function (`def drop_outliers(d): mean, std = ...; return
//!   d[(d.x > mean - std) & (d.x < mean + std)]`, or quartiles and
//!   `.any(axis=1)`).
//! - A user function taking a statistic of one element at a time, called on
//!   a loop's or a comprehension's element (`[avg_vector(doc) for doc in
//!   docs]`, `for i in range(n): avg_vector(docs[i])`): a feature of that
//!   row. Called on columns (`for c in cols: fill(X[c])`) it is reported.
//!   The same written inline: a statistic of a loop's element, or of a
//!   name the loop binds from one (`for i in range(n): img =
//!   imread(paths[i]); img.mean()`).
//! - Stateless transformers (`PolynomialFeatures`, `HashingVectorizer`;
//!   another library's class of the same name, such as
//!   `category_encoders.OneHotEncoder`, is taken for what it is), and
//!   a default `CountVectorizer` or `OneHotEncoder`: they learn which tokens
//!   or categories exist, which no model can use to see a test row (the
//!   same for `LabelEncoder`, `LabelBinarizer` and a default
//!   `OrdinalEncoder`; with
//!   `min_df`, `max_df`, `max_features`, `min_frequency` or `max_categories`
//!   they count rows, and are reported). A composite holding one stateful
//!   step is stateful.
//! - A plain fit of an estimator a search holds
//!   (`search.best_estimator_.fit(X, y)`, or `best = search.best_estimator_`
//!   then `best.fit(X, y)`): it does not cross-validate.
//! - Predictions of a competition's unlabelled test file stacked with the
//!   training file for cleaning and sliced apart again
//!   (`X_test = all_data[ntrain:]`): nothing is scored on it.
//! - Preprocessing of data that is never split and evaluated.
//! - A leak that only another execution order shows: notebook order with
//!   some cells skipped (NBLyzer's Figure 1) is `leakage-with-cells-skipped`
//!   (NBS104); other orders, `nbsight whatif`.
