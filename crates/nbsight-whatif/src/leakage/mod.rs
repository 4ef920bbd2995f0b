//! The ML data-leakage domain (NBLyzer sec. 4.2, made precise). Each variable
//! maps to what its data went through ([`value::Val`]): where its rows were
//! read (`read-file`), statistics fitted on rows that include a split's test
//! rows (the seed's *reset* rule, driven by the knowledge base's
//! `fit-transform`/`transformer` roles, statistics of the data such as
//! `df.mean()`, and user functions that fit, [`functions`]), resampling or
//! augmentation before a split, the side of a split (`split` role, or a
//! part bound by slicing or sampling, [`syntax`]), the model it is or comes
//! from (`fit`). Everything else propagates with a join over what a
//! statement reads (the seed prints a meet; see seed-notes). At a
//! `predict`/`evaluate` sink the model's training data and the test data
//! are compared:
//! - both carry the same `Fitted` tag → preprocessing leakage;
//! - both carry the same `Resampled` tag, or the training data holds the
//!   test side's rows (put back, or never split off) → overlap leakage;
//! - the same test split (or an equivalent one: same data, same
//!   `random_state`) evaluates a second model (or a model trained in a
//!   loop) → multi-test leakage.
//!
//! Cross-validation (`cross-validate` role, or a user function that folds,
//! fits and scores) on data with `Fitted`/`FittedSide`/`Resampled` tags
//! leaks too; a `Pipeline` fitted inside it does not.
//!
//! φ = pre(c) ≠ ∅ ∧ pre(c) ⊆ bound variables (seed sec. 4.2.1).

pub mod functions;
pub mod replay;
pub mod syntax;
pub mod value;

use nbsight_dataflow::effects::Role;
use std::rc::Rc;

use smallvec::SmallVec;

use crate::domain::{Alarm, AlarmKind, Alarms, Domain, StmtCtx};
use nbsight_model::program::{Call, Op, Stmt, WriteKind};
use nbsight_model::vars::{Var, VarSet};
use nbsight_model::{CellInfo, NotebookModel};
use nbsight_notebook::OneIndexed;
use value::{Side, Site, Tag, Val, kind};

/// A trained model: the data it was trained on.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Trained {
    site: Site,
    data: Val,
    in_loop: bool,
}

/// For each test split (sorted), the models evaluated on it (sorted).
type Evals = Vec<(Site, SmallVec<[Site; 2]>)>;

/// The leakage state. Its parts are shared copy-on-write: a cell run that
/// changes nothing in a part keeps sharing it with the state it started
/// from, so clones are cheap and the order and join see shared parts at
/// once (most states the engine compares descend from each other).
#[derive(Debug, Clone, Default)]
pub struct Leak {
    /// The notebook has calls with ML roles; otherwise only `bound` is kept.
    active: bool,
    /// Variables bound on the path (for φ).
    bound: Rc<VarSet>,
    /// Variables with a non-empty value, sorted by variable.
    vals: Rc<Vec<(Var, Rc<Val>)>>,
    /// Models trained, sorted by site.
    trained: Rc<Vec<Trained>>,
    /// For each test split, the models evaluated on it (sorted).
    evals: Rc<Evals>,
    /// Cell runs to replay (a session's; not part of the lattice element).
    memo: Option<Rc<replay::RunMemo>>,
    /// In an exploration (whose states join several orders of runs), the
    /// evaluations of the state it started from; `None` along one order of
    /// runs. Not part of the lattice element.
    baseline: Option<Rc<Evals>>,
    /// What the user functions of the model this state runs in do, read
    /// once per definition (`None`: read at every call). Not part of the
    /// lattice element.
    functions: Option<Rc<functions::FunctionLeaks>>,
}

impl Leak {
    /// The initial state for `model`'s notebook.
    pub fn new(model: &NotebookModel) -> Self {
        // A notebook whose only ML calls are statistics of data
        // (`df.mean()`) trains, transforms and splits nothing: no alarm.
        let active = model.code_cells().any(|c| {
            c.program().is_some_and(|p| {
                p.calls
                    .iter()
                    .any(|call| call.roles.iter().any(|r| r.is_ml()) && !is_statistic(call))
            })
        });
        Leak {
            active,
            ..Leak::default()
        }
    }

    /// Variables bound on the path.
    pub fn bound(&self) -> &VarSet {
        &self.bound
    }

    /// Whether the notebook has anything this domain looks at.
    pub fn is_active(&self) -> bool {
        self.active
    }

    /// Keeps this state's cell runs, and those of the states computed from
    /// it, in a new memo, to replay runs on states that agree with them.
    pub fn remember_runs(&mut self) {
        self.memo = Some(Rc::default());
    }

    /// Stops replaying cell runs (the model no longer matches them).
    pub fn forget_runs(&mut self) {
        self.memo = None;
    }

    /// Reads what the user functions do once per definition, for this
    /// state and those computed from it, which must all run in one model
    /// (a new cache: a state moving to another model calls this again).
    pub fn keep_function_leaks(&mut self) {
        self.functions = Some(Rc::default());
    }

    /// This state moves to a model that differs from its own only in the
    /// code of cell `edited`, whose imports are the same: what the other
    /// cells' functions do is kept (see [`functions::FunctionLeaks`]).
    pub fn move_to_edit(&mut self, edited: usize) {
        self.functions = Some(Rc::new(match &self.functions {
            Some(known) => known.for_edit(edited),
            None => functions::FunctionLeaks::default(),
        }));
    }

    fn get(&self, v: Var) -> Option<&Val> {
        self.get_rc(v).map(|val| &**val)
    }

    fn get_rc(&self, v: Var) -> Option<&Rc<Val>> {
        self.vals
            .binary_search_by_key(&v, |(k, _)| *k)
            .ok()
            .map(|i| &self.vals[i].1)
    }

    /// Sets `v`'s facts to a shared value (`None`: no facts).
    fn put(&mut self, v: Var, val: Option<Rc<Val>>) {
        match (self.vals.binary_search_by_key(&v, |(k, _)| *k), val) {
            (Ok(i), None) => {
                Rc::make_mut(&mut self.vals).remove(i);
            }
            (Ok(i), Some(val)) => {
                let old = &self.vals[i].1;
                if !Rc::ptr_eq(old, &val) && **old != *val {
                    Rc::make_mut(&mut self.vals)[i].1 = val;
                }
            }
            (Err(_), None) => {}
            (Err(i), Some(val)) => Rc::make_mut(&mut self.vals).insert(i, (v, val)),
        }
    }

    fn set(&mut self, v: Var, val: Val) {
        match self.vals.binary_search_by_key(&v, |(k, _)| *k) {
            Ok(i) if val.is_empty() => {
                Rc::make_mut(&mut self.vals).remove(i);
            }
            Ok(i) if *self.vals[i].1 == val => {}
            Ok(i) => Rc::make_mut(&mut self.vals)[i].1 = Rc::new(val),
            Err(_) if val.is_empty() => {}
            Err(i) => Rc::make_mut(&mut self.vals).insert(i, (v, Rc::new(val))),
        }
    }

    /// `v`'s facts ⊔= `val`, sharing `val` when `v` has none.
    fn join_fact(&mut self, v: Var, val: &Rc<Val>) {
        match self.vals.binary_search_by_key(&v, |(k, _)| *k) {
            Ok(i) if entry_leq(val, &self.vals[i].1) => {}
            Ok(i) => entry_join(&mut Rc::make_mut(&mut self.vals)[i].1, val),
            Err(i) => Rc::make_mut(&mut self.vals).insert(i, (v, val.clone())),
        }
    }

    fn join_into(&mut self, v: Var, val: &Val) {
        match self.vals.binary_search_by_key(&v, |(k, _)| *k) {
            Ok(i) if val.leq(&self.vals[i].1) => {}
            Ok(i) => Rc::make_mut(&mut Rc::make_mut(&mut self.vals)[i].1).join(val),
            Err(_) if val.is_empty() => {}
            Err(i) => Rc::make_mut(&mut self.vals).insert(i, (v, Rc::new(val.clone()))),
        }
    }

    fn bind(&mut self, v: Var) {
        if !self.bound.contains(v) {
            Rc::make_mut(&mut self.bound).insert(v);
        }
    }

    fn unbind(&mut self, v: Var) {
        if self.bound.contains(v) {
            Rc::make_mut(&mut self.bound).remove(v);
        }
    }

    fn value_of(&self, op: &Op, results: &[Val], first_call: u32) -> Val {
        let mut val = Val::default();
        self.join_value_of(op, results, first_call, &mut val);
        val
    }

    /// `into := into ⊔ value of op`.
    fn join_value_of(&self, op: &Op, results: &[Val], first_call: u32, into: &mut Val) {
        if let Op::Call(c) = op
            && let Some(x) = results.get((c - first_call) as usize)
        {
            into.join(x);
        }
        for &v in op.vars() {
            if let Some(x) = self.get(v) {
                into.join(x);
            }
        }
    }

    fn trained(&self, site: Site) -> Option<&Trained> {
        self.trained
            .binary_search_by_key(&site, |t| t.site)
            .ok()
            .map(|i| &self.trained[i])
    }

    /// Sets the model trained at `site` (`None`: not trained).
    fn put_trained(&mut self, site: Site, trained: Option<&Trained>) {
        match (
            self.trained.binary_search_by_key(&site, |t| t.site),
            trained,
        ) {
            (Ok(i), Some(t)) if self.trained[i] == *t => {}
            (Ok(i), Some(t)) => Rc::make_mut(&mut self.trained)[i] = t.clone(),
            (Ok(i), None) => {
                Rc::make_mut(&mut self.trained).remove(i);
            }
            (Err(i), Some(t)) => Rc::make_mut(&mut self.trained).insert(i, t.clone()),
            (Err(_), None) => {}
        }
    }

    /// The models evaluated on test split `split`.
    fn evals_at(&self, split: Site) -> Option<&SmallVec<[Site; 2]>> {
        evals_entry(&self.evals, split)
    }

    /// The models evaluated on `split` when the exploration started
    /// (`None` outside an exploration).
    fn baseline_at(&self, split: Site) -> Option<Option<&SmallVec<[Site; 2]>>> {
        self.baseline.as_ref().map(|b| evals_entry(b, split))
    }

    /// Sets the models evaluated on `split` (`None`: none).
    fn put_evals(&mut self, split: Site, models: Option<&SmallVec<[Site; 2]>>) {
        match (self.evals.binary_search_by_key(&split, |(s, _)| *s), models) {
            (Ok(i), Some(m)) if self.evals[i].1 == *m => {}
            (Ok(i), Some(m)) => Rc::make_mut(&mut self.evals)[i].1 = m.clone(),
            (Ok(i), None) => {
                Rc::make_mut(&mut self.evals).remove(i);
            }
            (Err(i), Some(m)) => Rc::make_mut(&mut self.evals).insert(i, (split, m.clone())),
            (Err(_), None) => {}
        }
    }

    fn train(&mut self, site: Site, data: Val, in_loop: bool) {
        let trained = Trained {
            site,
            data: data.data(),
            in_loop,
        };
        match self.trained.binary_search_by_key(&site, |t| t.site) {
            Ok(i) => {
                let old = &self.trained[i];
                if trained.data.leq(&old.data) && (old.in_loop || !in_loop) {
                    return;
                }
                let old = &mut Rc::make_mut(&mut self.trained)[i];
                old.data.join(&trained.data);
                old.in_loop |= in_loop;
            }
            Err(i) => Rc::make_mut(&mut self.trained).insert(i, trained),
        }
    }

    /// Records that `model` was evaluated on test split `split`; returns the
    /// number of models evaluated on it so far, and whether `model` is new.
    fn evaluated(&mut self, split: Site, model: Site) -> (usize, bool) {
        let i = match self.evals.binary_search_by_key(&split, |(s, _)| *s) {
            Ok(i) => i,
            Err(i) => {
                Rc::make_mut(&mut self.evals).insert(i, (split, SmallVec::new()));
                i
            }
        };
        match self.evals[i].1.binary_search(&model) {
            Ok(_) => (self.evals[i].1.len(), false),
            Err(at) => {
                let models = &mut Rc::make_mut(&mut self.evals)[i].1;
                models.insert(at, model);
                (models.len(), true)
            }
        }
    }

    fn evals_of(&self, split: Site) -> SmallVec<[Site; 2]> {
        self.evals_at(split).cloned().unwrap_or_default()
    }

    /// Interprets one call; returns the value of its result.
    fn call(
        &mut self,
        call: &Call,
        here: Site,
        data: Val,
        recv: Val,
        ctx: &StmtCtx<'_>,
        alarms: &mut Alarms,
    ) -> Val {
        let receiver_var = match (&call.receiver, call.method) {
            (Op::Var(v), true) => Some(*v),
            _ => None,
        };
        if !call.method && call.constructor {
            let mut k = 0;
            for (role, bit) in [
                (Role::Transformer, kind::TRANSFORMER),
                (Role::Sampler, kind::SAMPLER),
                (Role::Pipeline, kind::PIPELINE),
                (Role::CrossValidate, kind::CV),
                (Role::Stateless, kind::STATELESS),
            ] {
                if call.has(role) {
                    k |= bit;
                }
            }
            if call.has(Role::Transformer) && !call.has(Role::Stateless) {
                k |= kind::STATEFUL;
            }
            return Val {
                kind: k,
                ..Val::default()
            };
        }
        if call.has(Role::CrossValidate) {
            self.cross_validated(call, &data, ctx, alarms);
            return Val::default();
        }
        if call.has(Role::Split) && !call.method {
            return data.data();
        }
        if call.has(Role::Resample) {
            let mut res = data.data();
            if !data.is_split() {
                res.add(Tag::Resampled(here));
            }
            return res;
        }
        if is_statistic(call)
            && recv.kind & (kind::TRANSFORMER | kind::PIPELINE | kind::SAMPLER) == 0
        {
            // A statistic of the receiver's rows (`df.mean()`, `X.std()`):
            // data filled or rescaled with it carries statistics of those
            // rows, as if a transformer had been fitted on them.
            let rows = recv.data();
            let mut res = Val::default();
            res.add(fitted_tag(&rows, here));
            return res;
        }
        if call.has(Role::FitTransform) {
            let mut res = data.data();
            if !kind::is_stateless(recv.kind) {
                let tag = fitted_tag(&data, here);
                res.add(tag);
                if let Some(v) = receiver_var {
                    let mut fitted = recv.clone();
                    fitted.add(tag);
                    self.set(v, fitted);
                }
            }
            return res;
        }
        if call.has(Role::Fit) {
            if call.method && recv.kind & kind::TRANSFORMER != 0 {
                let mut fitted = recv.clone();
                if !kind::is_stateless(recv.kind) {
                    fitted.add(fitted_tag(&data, here));
                }
                if let Some(v) = receiver_var {
                    self.set(v, fitted.clone());
                }
                return fitted;
            }
            if recv.kind & kind::SAMPLER != 0 {
                return recv;
            }
            if recv.kind & kind::CV != 0 {
                self.cross_validated(call, &data, ctx, alarms);
            }
            if call.has(Role::Predict) {
                // fit_predict: clustering or outlier detection on the data.
                let mut res = data.data();
                res.add(Tag::Model(here));
                return res;
            }
            // The same model refit on the same data (a re-run, `model.fit`
            // again after `compile`) is not another model: the receiver is
            // the object trained before, on the same rows.
            let data = data.data();
            let site = recv
                .models()
                .find(|&m| self.trained(m).is_some_and(|t| t.data == data))
                .unwrap_or(here);
            self.train(site, data, ctx.in_loop);
            let mut model = Val {
                kind: recv.kind,
                ..Val::default()
            };
            model.add(Tag::Model(site));
            if let Some(v) = receiver_var {
                self.set(v, model.clone());
            }
            return model;
        }
        if call.has(Role::Transform) {
            let mut res = data.data();
            for tag in recv.fitted() {
                res.add(tag);
            }
            return res;
        }
        if call.has(Role::Predict) || call.has(Role::Evaluate) {
            let mut models: SmallVec<[Site; 2]> = recv.models().collect();
            models.extend(data.models());
            models.sort_unstable();
            models.dedup();
            for &m in &models {
                self.check_evaluation(m, call, &data, ctx, alarms);
            }
            let mut res = data.data();
            for m in models {
                res.add(Tag::Model(m));
            }
            return res;
        }
        if call.has(Role::ReadFile) {
            let mut rows = Val::default();
            rows.add(Tag::Source(here));
            return rows;
        }
        let mut res = data;
        res.join(&recv.data());
        res
    }

    /// Cross-validation (or a CV search's `fit`) on data whose statistics or
    /// rows were prepared on all of it.
    fn cross_validated(&self, call: &Call, data: &Val, ctx: &StmtCtx<'_>, alarms: &mut Alarms) {
        self.cross_validated_at(
            short(&call.callee),
            (call.line, call.column),
            data,
            ctx,
            alarms,
        );
    }

    /// [`Leak::cross_validated`] by `name` at `at`.
    fn cross_validated_at(
        &self,
        name: &str,
        (line, column): (OneIndexed, OneIndexed),
        data: &Val,
        ctx: &StmtCtx<'_>,
        alarms: &mut Alarms,
    ) {
        if !alarms.on {
            return;
        }
        for &f in &data.fitted_by {
            alarms.push(Alarm {
                kind: AlarmKind::PreprocessingLeakage,
                line,
                column,
                message: format!(
                    "`{name}` cross-validates on data {}, before the folds are split: every fold's test part leaks into its training part; put that step in a Pipeline",
                    fitted_by_text(ctx.model, f)
                ),
                involved: functions::definition_cell(ctx.model, ctx.cell, f).into_iter().collect(),
            });
        }
        for tag in data.fitted() {
            let (rule, what) = match tag {
                Tag::Fitted(s) => (AlarmKind::PreprocessingLeakage, fitted_text(ctx.model, s)),
                Tag::FittedSide(s) => (
                    AlarmKind::PreprocessingLeakage,
                    fitted_side_text(ctx.model, s),
                ),
                Tag::Resampled(s) => (AlarmKind::OverlapLeakage, resampled_text(ctx.model, s)),
                _ => continue,
            };
            alarms.push(Alarm {
                kind: rule,
                line,
                column,
                message: format!(
                    "`{name}` cross-validates on data {what}, before the folds are split: every fold's test part leaks into its training part; put that step in a Pipeline"
                ),
                involved: vec![site_of(ctx.model, tag)],
            });
        }
    }

    /// Preprocessing and overlap leakage at an evaluation: the training and
    /// the test data share statistics fitted, or rows resampled, before the
    /// split that separated them.
    fn shared_preparation(
        model: Site,
        call: &Call,
        data: &Val,
        splits: &[Site],
        trained: &Trained,
        ctx: &StmtCtx<'_>,
        alarms: &mut Alarms,
    ) {
        let test_name = test_data_name(call, ctx);
        // The message of a leak through the training and test data.
        let evaluated = |what: &str, fix: &str| {
            format!(
                "`{}` evaluates the model trained {} on {test_name}, but the training and test data were both {what}: {fix}",
                short(&call.callee),
                site_text(ctx.model, model),
            )
        };
        const REFIT: &str = "statistics of the test rows leak into training; fit it on the training split only, or use a Pipeline";
        for &f in &data.fitted_by {
            if trained.data.fitted_by.binary_search(&f).is_err() {
                continue;
            }
            alarms.push(Alarm {
                kind: AlarmKind::PreprocessingLeakage,
                line: call.line,
                column: call.column,
                message: evaluated(
                    &format!(
                        "{}, among them those {} holds out",
                        fitted_by_text(ctx.model, f),
                        split_text(ctx.model, splits[0]),
                    ),
                    REFIT,
                ),
                involved: functions::definition_cell(ctx.model, ctx.cell, f)
                    .into_iter()
                    .chain([ctx.model.sites.cell(splits[0]), ctx.model.sites.cell(model)])
                    .collect(),
            });
        }
        for tag in data.leaky() {
            if !trained.data.has(tag) {
                continue;
            }
            let split = split_text(ctx.model, splits[0]);
            let (rule, what) = match tag {
                Tag::Fitted(s) => (
                    AlarmKind::PreprocessingLeakage,
                    format!(
                        "transformed with statistics `{}` {} fitted on rows that include those {split} holds out",
                        callee_at(ctx.model, s),
                        site_text(ctx.model, s),
                    ),
                ),
                Tag::Resampled(s) => (
                    AlarmKind::OverlapLeakage,
                    format!(
                        "{}, before {split} separated them",
                        resampled_text(ctx.model, s)
                    ),
                ),
                _ => continue,
            };
            let fix = match rule {
                AlarmKind::OverlapLeakage => {
                    "test rows (or copies of them) are also in the training set; resample the training split only"
                }
                _ => REFIT,
            };
            alarms.push(Alarm {
                kind: rule,
                line: call.line,
                column: call.column,
                message: evaluated(&what, fix),
                involved: vec![
                    site_of(ctx.model, tag),
                    ctx.model.sites.cell(splits[0]),
                    ctx.model.sites.cell(model),
                ],
            });
        }
    }

    /// Overlap leakage at an evaluation: the test data is the held-out side
    /// of a split, and the model's training data holds that side's rows
    /// too, because they were put back into it (`pd.concat([X_train,
    /// X_test])`) or because it was trained on the rows before that split
    /// separated them (`model.fit(X, y)`, then scored on `X_test`).
    fn overlap(
        model: Site,
        call: &Call,
        data: &Val,
        trained: &Trained,
        ctx: &StmtCtx<'_>,
        alarms: &mut Alarms,
    ) {
        for tag in data.tags.iter() {
            let Tag::Split(split, Side::Test) = tag else {
                continue;
            };
            if !scored(ctx.model, split, call) {
                continue;
            }
            let (why, source) = if trained.data.has(Tag::Split(split, Side::Test)) {
                (
                    "its training data also holds those held-out rows (put back into it)"
                        .to_string(),
                    None,
                )
            } else if !trained.data.has(Tag::Split(split, Side::Train))
                && !on_opposite_sides(&trained.data, data)
                && let Some(r) = trained.data.sources().find(|&r| data.has(Tag::Source(r)))
            {
                (
                    format!(
                        "it was trained on all the rows read {}, before the split separated them",
                        site_text(ctx.model, r)
                    ),
                    Some(ctx.model.sites.cell(r)),
                )
            } else {
                continue;
            };
            alarms.push(Alarm {
                kind: AlarmKind::OverlapLeakage,
                line: call.line,
                column: call.column,
                message: format!(
                    "`{}` evaluates the model trained {} on {}, the held-out side of {}, but {why}: the test rows are in the training set; train on the training side only",
                    short(&call.callee),
                    site_text(ctx.model, model),
                    test_data_name(call, ctx),
                    split_text(ctx.model, split),
                ),
                involved: source
                    .into_iter()
                    .chain([ctx.model.sites.cell(split), ctx.model.sites.cell(model)])
                    .collect(),
            });
        }
    }

    /// Calls of user functions in `stmt` (read from their definitions,
    /// [`functions`]): one that fits statistics on the data it is given
    /// marks the statement's value (before any split); one that
    /// cross-validates checks the data it is given as cross-validation
    /// does.
    fn user_functions(&self, stmt: &Stmt, ctx: &StmtCtx<'_>, value: &mut Val, alarms: &mut Alarms) {
        for &f in &stmt.reads {
            if !ctx.model.function_definitions.contains_key(&f) {
                continue;
            }
            let leak = match &self.functions {
                Some(known) => known.get(ctx.model, ctx.cell, f),
                None => functions::function_leak(ctx.model, ctx.cell, f),
            };
            if leak.is_none() {
                continue;
            }
            let mut data = Val::default();
            for &v in &stmt.reads {
                if let Some(x) = self.get(v) {
                    data.join(x);
                }
            }
            if leak.fits && !data.is_split() {
                value.add_fitted_by(f);
            }
            if leak.cross_validates && alarms.on {
                let name = ctx.model.vars.name(f);
                self.cross_validated_at(name, (stmt.line, stmt.column), &data, ctx, alarms);
            }
        }
    }

    /// The parsed cell of `stmt` when it binds one name (strongly) from
    /// values with rows read: the statements whose syntax says more
    /// (augmentation, one part of a split).
    fn binding_of_rows<'m>(
        &self,
        stmt: &Stmt,
        ctx: &StmtCtx<'m>,
    ) -> Option<&'m nbsight_notebook::ParsedCell> {
        let strong = stmt
            .writes
            .iter()
            .filter(|(_, kind)| *kind == WriteKind::Strong)
            .count();
        let has_rows = |v: Var| self.get(v).is_some_and(|x| x.has_sources());
        if strong != 1 || !stmt.reads.iter().any(|&v| has_rows(v)) {
            return None;
        }
        ctx.model.cells.get(ctx.cell)?.parsed.as_deref()
    }

    /// Data augmented with altered copies of its own rows before any split
    /// (`X_aug = np.vstack([X, X + noise])`): named, as resampled rows, by
    /// where the rows were read, since the stacking has no call site of
    /// its own.
    fn augmented(&self, stmt: &Stmt, ctx: &StmtCtx<'_>, value: &mut Val) {
        let Some(parsed) = self.binding_of_rows(stmt, ctx) else {
            return;
        };
        let is_module = |name: &str| is_imported(ctx.model, name);
        let Some(repeated) = syntax::repeated_rows_at(parsed, stmt.line, stmt.column, &is_module)
        else {
            return;
        };
        let Some(rows) = stmt
            .reads
            .iter()
            .find(|&&v| ctx.model.vars.name(v) == repeated)
            .and_then(|&v| self.get(v))
        else {
            return;
        };
        let sources: SmallVec<[Site; 2]> = rows.sources().collect();
        for r in sources {
            value.add(Tag::Resampled(r));
        }
    }

    /// The value a statement binds when it binds one part of a split made
    /// without a split function (`X_test = X[n:]`, `test =
    /// df.drop(train.index)`): the data's value with the side of the split
    /// of its rows (named by where they were read).
    fn split_part(&self, stmt: &Stmt, ctx: &StmtCtx<'_>) -> Option<Val> {
        let parsed = self.binding_of_rows(stmt, ctx)?;
        let part = syntax::part_at(parsed, stmt.line, stmt.column)?;
        let var_of = |name: &str| {
            stmt.reads
                .iter()
                .copied()
                .find(|&v| ctx.model.vars.name(v) == name)
        };
        let (base, side, other) = match &part {
            syntax::Part::Head(base) => {
                if !syntax::has_complement(ctx.model, base) {
                    return None;
                }
                (base, Side::Train, None)
            }
            syntax::Part::Tail(base) => (base, Side::Test, None),
            syntax::Part::Rest { base, other } => (base, Side::Test, Some(var_of(other)?)),
        };
        let mut val = self.get(var_of(base)?)?.clone();
        let sources: SmallVec<[Site; 2]> = val
            .sources()
            .filter(|&r| {
                other.is_none_or(|o| {
                    self.get(o)
                        .is_some_and(|x| x.has(Tag::Split(r, Side::Train)))
                })
            })
            .collect();
        if sources.is_empty() {
            return None;
        }
        for r in sources {
            val.add(Tag::Split(r, side));
        }
        Some(val)
    }

    /// A model trained at `model` meets test data at a predict/evaluate call.
    fn check_evaluation(
        &mut self,
        model: Site,
        call: &Call,
        data: &Val,
        ctx: &StmtCtx<'_>,
        alarms: &mut Alarms,
    ) {
        let Some(trained) = self.trained(model) else {
            return;
        };
        // Test data: the test side of a split whose train side trained the model.
        let splits: SmallVec<[Site; 2]> = data
            .tags
            .iter()
            .filter_map(|t| match t {
                Tag::Split(s, Side::Test)
                    if trained.data.has(Tag::Split(s, Side::Train))
                        && scored(ctx.model, s, call) =>
                {
                    Some(s)
                }
                _ => None,
            })
            .collect();
        // Messages are only built on the pass that collects alarms.
        if alarms.on {
            Self::overlap(model, call, data, trained, ctx, alarms);
        }
        if splits.is_empty() {
            return;
        }
        if alarms.on {
            Self::shared_preparation(model, call, data, &splits, trained, ctx, alarms);
        }
        let trained_in_loop = trained.in_loop;
        for split in splits {
            // Choosing on a validation split (held out from another split's
            // training side, or named so) is the recommended practice, not
            // multi-test leakage: its models are recorded but not compared.
            if is_validation(ctx.model, split, data) {
                continue;
            }
            let (_, new) = self.evaluated(split, model);
            // Models of other targets (a denoiser and a classifier on the
            // same rows) are not candidates for the same choice.
            let target = target_of(ctx.model, model);
            let count = self.evals_at(split).map_or(0, |models| {
                models
                    .iter()
                    .filter(|&&m| same_target(ctx.model, target, target_of(ctx.model, m)))
                    .count()
            });
            // When a second model meets the split, or a model trained in a
            // loop does (inside loops the alarm pass sees the fixpoint state,
            // where the models are no longer new). In an exploration the
            // state joins runs that happen in either order: the evaluation
            // meets another model when it is new since the exploration
            // started and another model is there.
            let second = match &self.baseline {
                None => new && count == 2,
                Some(baseline) => count >= 2 && !evaluated_in(baseline, split, model),
            };
            if alarms.on && (second || trained_in_loop || (ctx.in_loop && count >= 2)) {
                let why = if count >= 2 {
                    format!("{count} different models are evaluated on it")
                } else {
                    format!(
                        "the model is trained in a loop {} and each candidate is evaluated on it",
                        site_text(ctx.model, model)
                    )
                };
                alarms.push(Alarm {
                    kind: AlarmKind::MultiTestLeakage,
                    line: call.line,
                    column: call.column,
                    message: format!(
                        "the test set of {}{} is used to choose among models: {why}; choose on a validation split or with cross-validation, and touch the test set once",
                        split_text(ctx.model, split),
                        same_rows_text(ctx.model, split, data),
                    ),
                    involved: self.evals_of(split).iter().map(|&m| ctx.model.sites.cell(m)).chain([ctx.model.sites.cell(split)]).collect(),
                });
            }
        }
    }
}

/// What grew in a leakage state.
#[derive(Debug, Clone, Default)]
pub struct LeakGrowth {
    /// Variables newly bound or with new facts.
    pub vars: VarSet,
    /// New trained models or evaluations (looked up by predict and
    /// evaluate calls; a fit only adds to them).
    pub models: bool,
}

impl crate::domain::Growth for LeakGrowth {
    fn is_empty(&self) -> bool {
        !self.models && self.vars.is_clear()
    }

    fn merge(&mut self, other: &Self) {
        self.vars.union_with(&other.vars);
        self.models |= other.models;
    }
}

impl Domain for Leak {
    type Growth = LeakGrowth;

    fn leq(&self, other: &Self) -> bool {
        (Rc::ptr_eq(&self.bound, &other.bound) || self.bound.is_subset(&other.bound))
            && (Rc::ptr_eq(&self.vals, &other.vals) || vals_leq(&self.vals, &other.vals))
            && self.models_leq(other)
    }

    fn join(&mut self, other: &Self) {
        self.active |= other.active;
        if self.memo.is_none() {
            self.memo.clone_from(&other.memo);
        }
        if self.baseline.is_none() {
            self.baseline.clone_from(&other.baseline);
        }
        if self.functions.is_none() {
            self.functions.clone_from(&other.functions);
        }
        if !Rc::ptr_eq(&self.bound, &other.bound) && !other.bound.is_subset(&self.bound) {
            Rc::make_mut(&mut self.bound).union_with(&other.bound);
        }
        if !Rc::ptr_eq(&self.vals, &other.vals) {
            if self.vals.is_empty() {
                self.vals = other.vals.clone();
            } else if !vals_leq(&other.vals, &self.vals) {
                // In place when this state owns its map and `other` binds
                // nothing new (the common case: facts grow, names stay).
                let in_place = Rc::get_mut(&mut self.vals)
                    .is_some_and(|vals| join_vals_in_place(vals, &other.vals));
                if !in_place {
                    self.vals = Rc::new(join_vals(&self.vals, &other.vals));
                }
            }
        }
        if !Rc::ptr_eq(&self.trained, &other.trained) {
            for t in other.trained.iter() {
                self.train(t.site, t.data.clone(), t.in_loop);
            }
        }
        if !Rc::ptr_eq(&self.evals, &other.evals) {
            for (s, models) in other.evals.iter() {
                for &m in models {
                    self.evaluated(*s, m);
                }
            }
        }
    }

    fn transfer(&mut self, stmt: &Stmt, ctx: &StmtCtx<'_>, alarms: &mut Alarms) {
        if self.active {
            self.interpret(stmt, ctx, alarms);
        } else {
            for &(v, kind) in &stmt.writes {
                match kind {
                    WriteKind::Delete => self.unbind(v),
                    _ => self.bind(v),
                }
            }
        }
    }

    /// The seed's φ (pre(c) ≠ ∅, every variable of pre(c) bound, and
    /// leakage facts to propagate: the seed asks every variable of pre(c) to
    /// be non-⊥; here one suffices, since our ⊥ is "no facts" rather than
    /// "unreached"). Cells that read no variable with facts cannot create an
    /// alarm from this state; the code-impact edges reach them when they
    /// read what changed.
    fn phi(&self, cell: &CellInfo) -> bool {
        self.active
            && !cell.pre.is_clear()
            && cell.pre.is_subset(&self.bound)
            && cell.pre.iter().any(|v| self.get(v).is_some())
    }

    fn growth(&self, old: &Self, into: &mut LeakGrowth) {
        if !Rc::ptr_eq(&self.bound, &old.bound) {
            for v in self.bound.iter() {
                if !old.bound.contains(v) {
                    into.vars.insert(v);
                }
            }
        }
        if !Rc::ptr_eq(&self.vals, &old.vals) {
            let mut rest = old.vals.iter().peekable();
            for (v, val) in self.vals.iter() {
                while rest.next_if(|(w, _)| w < v).is_some() {}
                let below = rest
                    .peek()
                    .is_some_and(|(w, other)| w == v && (Rc::ptr_eq(val, other) || val.leq(other)));
                if !below {
                    into.vars.insert(*v);
                }
            }
        }
        into.models = into.models || !self.models_leq(old);
    }

    /// Replays a kept run when the memo has one for a state agreeing with
    /// this one; interprets the cell (and keeps the run) otherwise.
    fn run(
        &self,
        model: &NotebookModel,
        cell: &CellInfo,
        _grown: Option<&LeakGrowth>,
    ) -> (Self, Vec<Alarm>) {
        let memo = self.replays();
        if let Some(replayed) = memo.and_then(|m| m.replay(self, cell)) {
            return replayed;
        }
        self.run_and_keep(model, cell, memo)
    }

    /// [`Leak::run`], replaying into `into` without building the result.
    fn run_join(
        &self,
        model: &NotebookModel,
        cell: &CellInfo,
        _grown: Option<&LeakGrowth>,
        into: &mut Self,
        added: &mut LeakGrowth,
    ) -> Vec<Alarm> {
        let memo = self.replays();
        if let Some(alarms) = memo.and_then(|m| m.replay_join(self, cell, into, added)) {
            return alarms;
        }
        let (after, alarms) = self.run_and_keep(model, cell, memo);
        crate::domain::join_result(self, &after, into, added);
        alarms
    }

    fn start_exploration(&mut self) {
        self.baseline = Some(self.evals.clone());
    }

    fn affects(&self, grown: &LeakGrowth, cell: &CellInfo) -> bool {
        grown.vars.intersects(&cell.feeds)
            || (grown.models && cell.compiled.as_deref().is_some_and(|c| c.evaluates))
    }
}

impl Leak {
    /// The memo of cell runs, when runs can be replayed from this state.
    fn replays(&self) -> Option<&replay::RunMemo> {
        self.memo.as_deref().filter(|_| self.active)
    }

    /// Interprets `cell` (the abstract cell transformer) and keeps the run
    /// in `memo`.
    fn run_and_keep(
        &self,
        model: &NotebookModel,
        cell: &CellInfo,
        memo: Option<&replay::RunMemo>,
    ) -> (Self, Vec<Alarm>) {
        let (after, alarms) = crate::transformer::run_cell(self, model, cell, true);
        if let Some(memo) = memo {
            memo.keep(model, cell, self, &after, &alarms);
        }
        (after, alarms)
    }

    /// The variables whose facts or binding differ in the two states, and
    /// whether their trained models or evaluations differ.
    pub fn difference(&self, other: &Leak) -> (VarSet, bool) {
        let mut differ = VarSet::new();
        if !Rc::ptr_eq(&self.bound, &other.bound) {
            let mut sym = (*self.bound).clone();
            sym.symmetric_difference_with(&other.bound);
            differ.union_with(&sym);
        }
        if !Rc::ptr_eq(&self.vals, &other.vals) {
            let (a, b) = (&self.vals, &other.vals);
            let (mut i, mut j) = (0, 0);
            while i < a.len() || j < b.len() {
                match (a.get(i), b.get(j)) {
                    (Some((v, x)), Some((w, y))) if v == w => {
                        if !Rc::ptr_eq(x, y) && x != y {
                            differ.insert(*v);
                        }
                        i += 1;
                        j += 1;
                    }
                    (Some((v, _)), Some((w, _))) if v < w => {
                        differ.insert(*v);
                        i += 1;
                    }
                    (_, Some((w, _))) => {
                        differ.insert(*w);
                        j += 1;
                    }
                    (Some((v, _)), None) => {
                        differ.insert(*v);
                        i += 1;
                    }
                    (None, None) => break,
                }
            }
        }
        let models = !(Rc::ptr_eq(&self.trained, &other.trained) || self.trained == other.trained)
            || !(Rc::ptr_eq(&self.evals, &other.evals) || self.evals == other.evals);
        (differ, models)
    }

    /// The trained models and evaluations are below `other`'s.
    fn models_leq(&self, other: &Self) -> bool {
        (Rc::ptr_eq(&self.trained, &other.trained)
            || self.trained.iter().all(|t| {
                other
                    .trained(t.site)
                    .is_some_and(|o| t.data.leq(&o.data) && (!t.in_loop || o.in_loop))
            }))
            && (Rc::ptr_eq(&self.evals, &other.evals)
                || self.evals.iter().all(|(s, models)| {
                    other
                        .evals
                        .binary_search_by_key(s, |(k, _)| *k)
                        .is_ok_and(|i| models.iter().all(|m| other.evals[i].1.contains(m)))
                }))
    }

    fn interpret(&mut self, stmt: &Stmt, ctx: &StmtCtx<'_>, alarms: &mut Alarms) {
        let calls = &ctx.program.calls[stmt.calls.start as usize..stmt.calls.end as usize];
        let mut results: SmallVec<[Val; 2]> = SmallVec::new();
        for (i, call) in calls.iter().enumerate() {
            let index = stmt.calls.start + i as u32;
            let mut data = Val::default();
            let fit = call.has(Role::Fit);
            for (i, arg) in call.args.iter().enumerate() {
                // `fit(X, y, eval_set=[(X_val, y_val)])` trains on `X`: the
                // set it monitors is not training data.
                if fit && keyword(call, i).is_some_and(names_monitored_set) {
                    continue;
                }
                self.join_value_of(arg, &results, stmt.calls.start, &mut data);
            }
            let recv = if call.method {
                let mut recv = self.value_of(&call.receiver, &results, stmt.calls.start);
                if call.receiver_attribute {
                    // `search.best_estimator_.fit(X, y)` fits one estimator.
                    recv.kind = 0;
                }
                recv
            } else {
                Val::default()
            };
            let res = self.call(
                call,
                ctx.model.sites.id(ctx.cell, index),
                data,
                recv,
                ctx,
                alarms,
            );
            results.push(res);
        }
        let mut value = Val::default();
        if calls.is_empty() {
            for &v in &stmt.reads {
                if let Some(x) = self.get(v) {
                    value.join(x);
                }
            }
            // `best = search.best_estimator_`: what the search is (a CV
            // search) says nothing of the estimator it holds.
            if value.kind != 0
                && let Some(parsed) = ctx
                    .model
                    .cells
                    .get(ctx.cell)
                    .and_then(|c| c.parsed.as_deref())
                && syntax::assigns_attribute(parsed, stmt.line, stmt.column)
            {
                value.kind = 0;
            }
        } else {
            for (call, res) in calls.iter().zip(&results) {
                if !call.consumed {
                    value.join(res);
                }
            }
            for &v in &stmt.free_reads {
                if let Some(x) = self.get(v) {
                    value.join(x);
                }
            }
        }
        // The targets of a split alternate train, test (x_tr, x_te, y_tr, y_te).
        let split = calls
            .iter()
            .enumerate()
            .rev()
            .find(|(_, c)| !c.consumed)
            .filter(|(_, c)| c.has(Role::Split) && !c.method)
            .map(|(i, _)| ctx.model.sites.id(ctx.cell, stmt.calls.start + i as u32));
        // A second split of the same data with the same seed holds out the
        // same rows: its sides are also the first one's.
        let same_rows = split.and_then(|s| equivalent_split(ctx.model, s));
        if split.is_none()
            && let Some(part) = self.split_part(stmt, ctx)
        {
            value = part;
        }
        self.user_functions(stmt, ctx, &mut value, alarms);
        if split.is_none() && !value.is_split() {
            self.augmented(stmt, ctx, &mut value);
        }
        let mut position = 0;
        for &(v, kind) in &stmt.writes {
            match kind {
                WriteKind::Strong => {
                    let mut val = value.clone();
                    if let Some(s) = split {
                        let side = if position % 2 == 0 {
                            Side::Train
                        } else {
                            Side::Test
                        };
                        val.add(Tag::Split(s, side));
                        if let Some(first) = same_rows {
                            val.add(Tag::Split(first, side));
                        }
                        position += 1;
                    }
                    self.set(v, val);
                    self.bind(v);
                }
                WriteKind::Weak => {
                    self.join_into(v, &value);
                    self.bind(v);
                }
                WriteKind::Delete => {
                    self.set(v, Val::default());
                    self.unbind(v);
                }
            }
        }
    }
}

/// The variable holding the labels a model was fitted on (`y_train` in
/// `fit(X_train, y_train)`), when one variable does.
fn target_of(model: &NotebookModel, site: Site) -> Option<Var> {
    let call = model
        .cells
        .get(model.sites.cell(site))?
        .program()?
        .calls
        .get(model.sites.call(site) as usize)?;
    match call.args.get(1)? {
        Op::Var(v) => Some(*v),
        Op::Reads(vs) if vs.len() == 1 => Some(vs[0]),
        _ => None,
    }
}

/// Two models may be candidates for the same choice: they were fitted on
/// the same labels (the same variable, or the same side of equivalent
/// splits: `y_tr` and `y_tr2` of two `train_test_split(X, y,
/// random_state=0)`), or the labels of one are not known.
fn same_target(model: &NotebookModel, a: Option<Var>, b: Option<Var>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => {
            a == b || {
                let (x, y) = (label_origin(model, a), label_origin(model, b));
                x.is_some() && x == y
            }
        }
        _ => true,
    }
}

/// The split (the first of its equivalent ones) and the target position
/// that bind `var`, when one split call statement does.
fn label_origin(model: &NotebookModel, var: Var) -> Option<(Site, usize)> {
    let mut found = None;
    for cell in model.code_cells() {
        let Some(program) = cell.program() else {
            continue;
        };
        for stmt in &program.stmts {
            let Some(position) = stmt
                .writes
                .iter()
                .filter(|(_, kind)| *kind == WriteKind::Strong)
                .position(|(v, _)| *v == var)
            else {
                continue;
            };
            let split = stmt.calls.clone().rev().find_map(|i| {
                let call = program.calls.get(i as usize)?;
                (!call.consumed && call.has(Role::Split) && !call.method)
                    .then(|| model.sites.id(cell.index, i))
            });
            let origin = split.map(|s| (equivalent_split(model, s).unwrap_or(s), position));
            match (found, origin) {
                (_, None) => return None,
                (None, Some(o)) => found = Some(o),
                (Some(f), Some(o)) if f != o => return None,
                _ => {}
            }
        }
    }
    found
}

/// The held-out side of `split` is a validation set: the split was made
/// inside the training side of another split (the test data also carries
/// that side), or its held-out targets are named as validation data
/// (`X_val`, `y_valid`, `X_validation`, `X_dev`).
fn is_validation(model: &NotebookModel, split: Site, data: &Val) -> bool {
    let nested = data
        .tags
        .iter()
        .any(|t| matches!(t, Tag::Split(s, Side::Train) if s != split));
    nested || held_out_names(model, split).any(|name| names_validation(&name))
}

/// The names the held-out side of the split made at `split` is bound to
/// (the odd targets: `x_tr, x_te, y_tr, y_te`).
fn held_out_names(model: &NotebookModel, split: Site) -> impl Iterator<Item = String> + '_ {
    let call = model.sites.call(split);
    model
        .cells
        .get(model.sites.cell(split))
        .and_then(|c| c.program())
        .and_then(|p| p.stmts.iter().find(|st| st.calls.contains(&call)))
        .into_iter()
        .flat_map(|st| {
            st.writes
                .iter()
                .filter(|(_, kind)| *kind == WriteKind::Strong)
                .skip(1)
                .step_by(2)
        })
        .map(|(v, _)| model.vars.name(*v).to_ascii_lowercase())
}

/// `X_val`, `y_valid`, `Xval`, `X_validation`, `valid_X`, `X_dev`.
fn names_validation(name: &str) -> bool {
    name.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|part| !part.is_empty())
        .any(|part| {
            matches!(part, "val" | "valid" | "validation" | "dev" | "vali")
                || (part.len() <= 6
                    && (part.ends_with("val") || part.ends_with("valid"))
                    && !matches!(part, "interval" | "eval"))
        })
}

/// The models evaluated on `split` in `evals`.
fn evals_entry(evals: &Evals, split: Site) -> Option<&SmallVec<[Site; 2]>> {
    evals
        .binary_search_by_key(&split, |(s, _)| *s)
        .ok()
        .map(|i| &evals[i].1)
}

/// Was `model` evaluated on `split` in `evals`?
fn evaluated_in(evals: &Evals, split: Site, model: Site) -> bool {
    evals_entry(evals, split).is_some_and(|models| models.contains(&model))
}

/// A variable's facts, shared between the states that did not change them.
type Entry = (Var, Rc<Val>);

/// `a ⊑ b` for two facts (the same shared value at once).
fn entry_leq(a: &Rc<Val>, b: &Rc<Val>) -> bool {
    Rc::ptr_eq(a, b) || a.leq(b)
}

/// `a := a ⊔ b` for two facts.
fn entry_join(a: &mut Rc<Val>, b: &Rc<Val>) {
    if !entry_leq(b, a) {
        Rc::make_mut(a).join(b);
    }
}

/// Pointwise order of two variable maps sorted by variable (one merge walk).
fn vals_leq(a: &[Entry], b: &[Entry]) -> bool {
    if a.len() > b.len() {
        return false;
    }
    let mut rest = b.iter();
    'outer: for (v, val) in a {
        for (w, other) in rest.by_ref() {
            match w.cmp(v) {
                std::cmp::Ordering::Less => continue,
                std::cmp::Ordering::Equal if entry_leq(val, other) => continue 'outer,
                _ => return false,
            }
        }
        return false;
    }
    true
}

/// `a := a ⊔ b` when every variable of `b` is in `a` (both sorted by
/// variable); `false`, with `a` unchanged, otherwise.
fn join_vals_in_place(a: &mut [Entry], b: &[Entry]) -> bool {
    let mut j = 0;
    // First check the keys, so that a failure leaves `a` alone.
    for (w, _) in b {
        while j < a.len() && a[j].0 < *w {
            j += 1;
        }
        if j == a.len() || a[j].0 != *w {
            return false;
        }
    }
    let mut j = 0;
    for (w, val) in b {
        while a[j].0 < *w {
            j += 1;
        }
        entry_join(&mut a[j].1, val);
    }
    true
}

/// The pointwise join of two variable maps sorted by variable (one merge
/// walk).
fn join_vals(a: &[Entry], b: &[Entry]) -> Vec<Entry> {
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => {
                out.push(a[i].clone());
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j].clone());
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                let mut val = a[i].1.clone();
                entry_join(&mut val, &b[j].1);
                out.push((a[i].0, val));
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// `the split (cell N, line L)`, or for a split made by slicing or
/// sampling data in separate statements (named by where its rows were
/// read), `the split by slicing or sampling of the rows read (cell N, line L)`.
fn split_text(model: &NotebookModel, s: Site) -> String {
    let read = call_at(model, s).is_some_and(|c| c.has(Role::ReadFile));
    if read {
        format!(
            "the split by slicing or sampling of the rows read {}",
            site_text(model, s)
        )
    } else {
        format!("the split {}", site_text(model, s))
    }
}

fn call_at(model: &NotebookModel, s: Site) -> Option<&Call> {
    model
        .cells
        .get(model.sites.cell(s))?
        .program()?
        .calls
        .get(model.sites.call(s) as usize)
}

/// The training and the test data lie on opposite sides of some split:
/// they share no row (a validation set carved from the test side, a model
/// of the training side).
fn on_opposite_sides(train: &Val, test: &Val) -> bool {
    train.tags.iter().any(|t| match t {
        Tag::Split(s, Side::Train) => {
            test.has(Tag::Split(s, Side::Test)) && !test.has(Tag::Split(s, Side::Train))
        }
        Tag::Split(s, Side::Test) => {
            test.has(Tag::Split(s, Side::Train)) && !test.has(Tag::Split(s, Side::Test))
        }
        _ => false,
    })
}

/// An evaluation on the held-out side of `split` that can measure the
/// model: any predict or score on a split function's side, but only a
/// score or metric on a part bound by slicing or sampling (named by where
/// its rows were read): notebooks that stack a competition's train and
/// test files and slice them apart again only predict the unlabelled tail.
fn scored(model: &NotebookModel, split: Site, call: &Call) -> bool {
    call.has(Role::Evaluate) || !call_at(model, split).is_some_and(|c| c.has(Role::ReadFile))
}

/// ` (the same rows the split (cell N, line L) holds out: same data, same
/// random_state)` when the test data went through a later split equivalent
/// to `split`.
fn same_rows_text(model: &NotebookModel, split: Site, data: &Val) -> String {
    data.tags
        .iter()
        .find_map(|t| match t {
            Tag::Split(s, Side::Test)
                if s != split && equivalent_split(model, s) == Some(split) =>
            {
                Some(format!(
                    " (the same rows {} holds out: the same data and `random_state`)",
                    split_text(model, s)
                ))
            }
            _ => None,
        })
        .unwrap_or_default()
}

/// A statistic of the receiver's rows (`df.mean()`, `s.quantile(0.9)`):
/// a `fit-transform` method of the data itself (the knowledge base's
/// statistics), not a transformer's `fit_transform(X)`.
fn is_statistic(call: &Call) -> bool {
    call.method
        && call.has(Role::FitTransform)
        && call.roles.len() == 1
        && short(&call.callee) != "fit_transform"
}

/// The number of positional arguments of a call (its arguments end with
/// the keyword ones).
fn positional(call: &Call) -> usize {
    call.args.len().saturating_sub(call.keywords.len())
}

/// The keyword of argument `i` of `call`, when it is a keyword argument.
fn keyword(call: &Call, i: usize) -> Option<&str> {
    i.checked_sub(positional(call))
        .and_then(|k| call.keywords.get(k))
        .map(|k| k.as_str())
}

/// The keyword arguments of a `fit` that pass data it monitors, not data it
/// trains on (early stopping, validation curves).
fn names_monitored_set(keyword: &str) -> bool {
    matches!(
        keyword,
        "eval_set" | "validation_data" | "valid_sets" | "eval_sample_weight"
    )
}

/// An earlier split equivalent to the split call at `site`: the same
/// function, on the same variables, with the same keyword arguments, made
/// reproducible by a `random_state` (or `shuffle=False`): it holds out the
/// same rows. The first such split (by site) names them all.
fn equivalent_split(model: &NotebookModel, site: Site) -> Option<Site> {
    let call = call_at(model, site)?;
    let cell = model.cells.get(model.sites.cell(site))?;
    let keywords = syntax::keywords_at(cell.parsed.as_deref()?, call.line, call.column)?;
    let reproducible = keywords
        .iter()
        .any(|(k, v)| k == "random_state" && v != "None" || k == "shuffle" && v == "False");
    if !reproducible {
        return None;
    }
    let data: SmallVec<[&[Var]; 3]> = call.args[..positional(call)]
        .iter()
        .map(|a| a.vars())
        .collect();
    for other in model.code_cells() {
        let Some(program) = other.program() else {
            continue;
        };
        for (i, c) in program.calls.iter().enumerate() {
            let s = model.sites.id(other.index, i as u32);
            if s >= site || s == nbsight_model::NO_SITE {
                continue;
            }
            let same = c.callee == call.callee
                && c.has(Role::Split)
                && !c.method
                && positional(c) == data.len()
                && c.args[..positional(c)]
                    .iter()
                    .zip(&data)
                    .all(|(a, d)| a.vars() == *d)
                && other
                    .parsed
                    .as_deref()
                    .and_then(|p| syntax::keywords_at(p, c.line, c.column))
                    == Some(keywords.clone());
            if same {
                return Some(s);
            }
        }
    }
    None
}

/// `name` is bound by an import somewhere in the notebook (a module or a
/// library function, not data).
fn is_imported(model: &NotebookModel, name: &str) -> bool {
    model.code_cells().any(|c| {
        c.compiled
            .as_deref()
            .is_some_and(|c| c.imports.iter().any(|(v, _)| model.vars.name(*v) == name))
    })
}

fn fitted_by_text(model: &NotebookModel, f: Var) -> String {
    let name = model.vars.name(f);
    match model.function_definitions.get(&f).and_then(|d| d.first()) {
        Some((cell, _)) => format!(
            "passed through `{name}` (defined in cell {cell}), which fits statistics on the rows it is given"
        ),
        None => {
            format!("passed through `{name}`, which fits statistics on the rows it is given")
        }
    }
}

/// The cell of the site a leaky tag names.
fn site_of(model: &NotebookModel, tag: Tag) -> usize {
    model.sites.cell(tag.site())
}

/// `(cell N, line L)` for a call site.
fn site_text(model: &NotebookModel, s: Site) -> String {
    let cell = model.sites.cell(s);
    match model.cells.get(cell).and_then(|c| c.program()) {
        Some(p) => match p.calls.get(model.sites.call(s) as usize) {
            Some(call) => format!("(cell {cell}, line {})", call.line),
            None => format!("(cell {cell})"),
        },
        None => format!("(cell {cell})"),
    }
}

/// The last part of a dotted name.
fn short(callee: &str) -> &str {
    callee.rsplit('.').next().unwrap_or(callee)
}

fn callee_at(model: &NotebookModel, s: Site) -> String {
    model
        .cells
        .get(model.sites.cell(s))
        .and_then(|c| c.program())
        .and_then(|p| p.calls.get(model.sites.call(s) as usize))
        .map(|c| short(&c.callee).to_string())
        .unwrap_or_else(|| "fit".into())
}

fn fitted_text(model: &NotebookModel, s: Site) -> String {
    format!(
        "transformed with statistics `{}` fitted on all rows {}",
        callee_at(model, s),
        site_text(model, s)
    )
}

fn fitted_side_text(model: &NotebookModel, s: Site) -> String {
    format!(
        "transformed with statistics `{}` fitted on all of a split's training side {}",
        callee_at(model, s),
        site_text(model, s)
    )
}

/// The tag of statistics fitted at `here` on `data`: before any split, or
/// on both sides of the splits it went through put back together
/// (`tfv.fit(list(x_train) + list(x_valid))`): on all their rows; or on a
/// side of one (the training side, or train + validation inside it).
fn fitted_tag(data: &Val, here: Site) -> Tag {
    let whole = data.tags.iter().all(|t| match t {
        Tag::Split(s, _) => {
            data.has(Tag::Split(s, Side::Train)) && data.has(Tag::Split(s, Side::Test))
        }
        _ => true,
    });
    if whole {
        Tag::Fitted(here)
    } else {
        Tag::FittedSide(here)
    }
}

fn resampled_text(model: &NotebookModel, s: Site) -> String {
    if call_at(model, s).is_some_and(|c| c.has(Role::ReadFile)) {
        return format!(
            "augmented with altered copies of their own rows (read {}) stacked onto them",
            site_text(model, s)
        );
    }
    format!(
        "resampled by `{}` {}",
        callee_at(model, s),
        site_text(model, s)
    )
}

/// The name of the variable holding the test data, for messages.
fn test_data_name(call: &Call, ctx: &StmtCtx<'_>) -> String {
    call.args
        .iter()
        .find_map(|a| match a {
            Op::Var(v) => Some(format!("`{}`", ctx.model.vars.name(*v))),
            _ => None,
        })
        .unwrap_or_else(|| "the test data".into())
}
