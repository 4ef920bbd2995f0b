//! ## What it reports
//! Statistics fitted on all rows (a scaler's `fit_transform`, an imputer's
//! `fit`, `SelectKBest`, `PCA`, `sklearn.preprocessing.scale`...) before the
//! data is split into train and test, when a model trained on the train part
//! is evaluated (`predict`, `score`, a metric) on the test part: both parts
//! carry the test rows' statistics. Also cross-validation
//! (`cross_val_score`, `GridSearchCV.fit`, `LassoCV.fit`) on data transformed
//! that way, or with statistics fitted on the whole training side of a split
//! (`MinMaxScaler().fit(X_train)`, then `GridSearchCV(...).fit(X_train_scaled,
//! y_train)`): every fold's validation rows shaped them. Reported at the
//! evaluation or cross-validation call.
//!
//! Checked along notebook order (what Run All does) and along the saved
//! execution order; `nbsight whatif` explores the other orders too. The
//! driver, shared by the three leakage rules, is `leakage_orders.rs`; the
//! message is written by the leakage domain of `nbsight-whatif`
//! (`crates/nbsight-whatif/src/leakage/mod.rs`). One finding per cell.
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
//! cell 2:3:1: NBS101 `score` evaluates the model trained (cell 2, line 2) on `X_test`, but the training and test data were both transformed with statistics `fit_transform` fitted on all rows (cell 1, line 5), before the split (cell 2, line 1) separated them: statistics of the test rows leak into training; fit it on the training split only, or use a Pipeline
//!   cells: 1 -> 2
//! ```
//!
//! Split first and fit the scaler on `X_train` only, or put the scaler and
//! the model in one `Pipeline`.
//!
//! ## Not reported
//! - Transformers fitted on the training split, when the model is evaluated
//!   on the test split (not cross-validated on the training split), and
//!   `Pipeline`s fitted on it or cross-validated.
//! - Stateless transformers (`PolynomialFeatures`, `HashingVectorizer`), and
//!   a default `CountVectorizer` or `OneHotEncoder`: they learn which tokens
//!   or categories exist, which no model can use to see a test row (with
//!   `min_df`, `max_df`, `max_features`, `min_frequency` or `max_categories`
//!   they count rows, and are reported). A composite holding one stateful
//!   step is stateful.
//! - A plain fit of an estimator a search holds
//!   (`search.best_estimator_.fit(X, y)`): it does not cross-validate.
//! - Preprocessing of data that is never split and evaluated.
//! - A leak that only another execution order shows (NBLyzer's Figure 1):
//!   `nbsight whatif` finds those.
