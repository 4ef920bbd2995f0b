//! ## What it reports
//! Over-sampling or resampling (`SMOTE().fit_resample`, `RandomOverSampler`,
//! `sklearn.utils.resample`) before the data is split into train and test,
//! when a model trained on the train part is evaluated on the test part:
//! copies of test rows end up in the training set. Also cross-validation on
//! data resampled that way. Reported at the evaluation or cross-validation
//! call.
//!
//! Checked along notebook order (what Run All does) and along the saved
//! execution order; `nbsight whatif` explores the other orders too. The
//! driver, shared by the three leakage rules, is `leakage_orders.rs`; the
//! message is written by the leakage domain of `nbsight-whatif`
//! (`crates/nbsight-whatif/src/leakage/mod.rs`). One finding per cell.
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
//! - Resampling the training split only, or inside an imblearn `Pipeline`.
//! - A leak that only another execution order shows: `nbsight whatif` finds
//!   those.
