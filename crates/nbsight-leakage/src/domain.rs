//! The leakage state [`Leak`]: what each variable's data went through
//! ([`Val`]), the models trained and the evaluations made, its lattice
//! (order, join, growth) and its transfer function, which interprets a
//! statement and, at a `predict`/`evaluate` sink or a cross-validation,
//! asks the detectors of each alarm kind (`preprocessing.rs`,
//! `overlap.rs`, `multi_test.rs`) what the data met.

mod replay;

use nbsight_dataflow::effects::Role;
use std::rc::Rc;

use smallvec::SmallVec;

use crate::calls::{call_at, keyword, positional};
use crate::models::{Evals, Trained, evals_entry, record_evaluation};
use crate::splits::{equivalent_split, scored};
use crate::text::short;
use crate::value::{Side, Site, Tag, Val, kind};
use crate::{functions, multi_test, overlap, preprocessing, row_filters, syntax};
use nbsight_absint::{Alarm, Alarms, Domain, StmtCtx};
use nbsight_model::program::{Call, Op, Stmt, UNPACKED, WriteKind};
use nbsight_model::vars::{Var, VarSet};
use nbsight_model::{CellInfo, NotebookModel};
use nbsight_notebook::OneIndexed;

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
    pub(crate) baseline: Option<Rc<Evals>>,
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

    /// Runs `cell` on this state (a cell run along one order): the state
    /// after it and the alarms it raises. A state sharing a memo ([`Leak::share_runs`]) replays a kept run
    /// of the cell on a state agreeing with it on what it reads.
    pub fn run_cell(&self, model: &NotebookModel, cell: &CellInfo) -> (Leak, Vec<Alarm>) {
        <Leak as Domain>::run(self, model, cell, None)
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

    /// Keeps this state's cell runs, and those of the states computed from
    /// it, in `other`'s memo (a new one when it has none, then shared by
    /// both).
    pub fn share_runs(&mut self, other: &mut Leak) {
        if other.memo.is_none() {
            other.remember_runs();
        }
        self.memo.clone_from(&other.memo);
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
    /// cells' functions do is kept (see `functions.rs`, `FunctionLeaks`).
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
            monitored: SmallVec::new(),
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

    /// The model trained at `site` monitored the held-out sides of
    /// `splits` to stop early.
    fn monitor(&mut self, site: Site, splits: &[Site]) {
        let Ok(i) = self.trained.binary_search_by_key(&site, |t| t.site) else {
            return;
        };
        if splits.iter().all(|s| self.trained[i].monitored.contains(s)) {
            return;
        }
        let monitored = &mut Rc::make_mut(&mut self.trained)[i].monitored;
        for &s in splits {
            if let Err(at) = monitored.binary_search(&s) {
                monitored.insert(at, s);
            }
        }
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
            // Synthetic or repeated rows: harmless on a training side that
            // stays training data, an overlap once a later split (or
            // cross-validation's folds) puts neighbours on both sides.
            let mut res = data.data();
            // `rows.sample(n, replace=True)` draws from its receiver.
            if call.method {
                res.join(&recv.data());
            }
            res.add(Tag::Resampled(here));
            return res;
        }
        if is_statistic(call)
            && ctx.in_loop
            && parsed_cell(ctx)
                .is_some_and(|p| syntax::method_of_element(p, (call.line, call.column)))
        {
            // One element's own statistic (`for p in paths: img =
            // imread(p); img.mean()`), not all rows': a value of that row.
            let mut res = data.data();
            res.join(&recv.data());
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
            // A pipeline may end in a transformer or (mostly) a model: its
            // `fit` trains a model that also carries the statistics fitted.
            let pipeline = recv.kind & kind::PIPELINE != 0;
            if call.method && recv.kind & kind::TRANSFORMER != 0 && !pipeline {
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
            let pipeline_fitted =
                (pipeline && recv.kind & kind::TRANSFORMER != 0 && !kind::is_stateless(recv.kind))
                    .then(|| fitted_tag(&data, here));
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
            if let Some(tag) = pipeline_fitted {
                model.add(tag);
            }
            if let Some(v) = receiver_var {
                self.set(v, model.clone());
            }
            return model;
        }
        if call.has(Role::Transform) {
            // The statistics the transformer was fitted with; not the rows
            // it saw (resampled training rows stay in the training data).
            let mut res = data.data();
            for tag in recv.fitted() {
                if !matches!(tag, Tag::Resampled(_)) {
                    res.add(tag);
                }
            }
            return res;
        }
        if call.has(Role::Predict) || call.has(Role::Evaluate) {
            let mut models: SmallVec<[Site; 2]> = recv.models().collect();
            // One object that is one of several models (`best = a if
            // a.best_score_ > b.best_score_ else b`), outside a loop: one
            // candidate is evaluated, whichever was chosen.
            let alternatives = (models.len() > 1 && !ctx.in_loop).then(|| models[0]);
            models.extend(data.models());
            models.sort_unstable();
            models.dedup();
            for &m in &models {
                let candidate =
                    alternatives.is_none_or(|first| first == m || !recv.has(Tag::Model(m)));
                self.check_evaluation(m, call, &data, candidate, ctx, alarms);
            }
            // A score or a report is a number, not data: what the data went
            // through does not flow on through it (into dicts of scores,
            // the names a loop over them binds).
            if call.has(Role::Evaluate) && !call.has(Role::Predict) {
                return Val::default();
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
        Self::cross_validated_at(
            short(&call.callee),
            (call.line, call.column),
            data,
            ctx,
            alarms,
        );
    }

    /// [`Leak::cross_validated`] by `name` at `at`: the detectors of
    /// preprocessing and overlap leakage, tag by tag.
    fn cross_validated_at(
        name: &str,
        at: (OneIndexed, OneIndexed),
        data: &Val,
        ctx: &StmtCtx<'_>,
        alarms: &mut Alarms,
    ) {
        if !alarms.on {
            return;
        }
        for &f in &data.fitted_by {
            alarms.push(preprocessing::cross_validated_through(name, at, f, ctx));
        }
        for tag in data.fitted() {
            let alarm = match tag {
                Tag::Resampled(s) => Some(overlap::cross_validated(name, at, s, ctx)),
                _ => preprocessing::cross_validated(name, at, tag, ctx),
            };
            if let Some(alarm) = alarm {
                alarms.push(alarm);
            }
        }
    }

    /// Preprocessing and overlap leakage at an evaluation: the training and
    /// the test data share statistics fitted, or rows resampled, before the
    /// split that separated them (`splits[0]`).
    fn shared_preparation(
        model: Site,
        call: &Call,
        data: &Val,
        splits: &[Site],
        trained: &Trained,
        ctx: &StmtCtx<'_>,
        alarms: &mut Alarms,
    ) {
        let split = splits[0];
        for &f in &data.fitted_by {
            if trained.data.fitted_by.binary_search(&f).is_ok() {
                alarms.push(preprocessing::evaluated_through(call, model, split, f, ctx));
            }
        }
        for tag in data.leaky() {
            if !trained.data.has(tag) {
                continue;
            }
            alarms.push(match tag {
                Tag::Resampled(s) => overlap::evaluated(call, model, split, s, ctx),
                _ => preprocessing::evaluated(call, model, split, tag.site(), ctx),
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
            let leak = self.function_leak(ctx, f);
            if leak.is_none() {
                continue;
            }
            let mut data = Val::default();
            for &v in &stmt.reads {
                if let Some(x) = self.get(v) {
                    data.join(x);
                }
            }
            // A helper taking a statistic of one element at a time (a
            // document's mean word vector) makes a feature of that element.
            let per_element = || {
                parsed_cell(ctx).is_some_and(|p| {
                    syntax::called_per_element(p, (stmt.line, stmt.column), ctx.model.vars.name(f))
                })
            };
            if leak.fits && !data.is_split() && !per_element() {
                // Named by the call that applies it to the whole data (its
                // cell is the one to fix), else by the function.
                match user_call_site(stmt, ctx, f) {
                    Some(site) => value.add(Tag::Fitted(site)),
                    None => value.add_fitted_by(f),
                }
            }
            if leak.cross_validates && alarms.on {
                let name = ctx.model.vars.name(f);
                Self::cross_validated_at(name, (stmt.line, stmt.column), &data, ctx, alarms);
            }
        }
    }

    /// What the user function `f` that `ctx`'s cell calls does (read once
    /// per definition when this state keeps what functions do).
    fn function_leak(&self, ctx: &StmtCtx<'_>, f: Var) -> functions::FunctionLeak {
        match &self.functions {
            Some(known) => known.get(ctx.model, ctx.cell, f),
            None => functions::function_leak(ctx.model, ctx.cell, f),
        }
    }

    /// A call of a user function (`log_reg(X_train, y_train, X_test,
    /// y_test)`): one whose body fits a model on some of its arguments and
    /// evaluates it on others trains a model here and evaluates it, as the
    /// same code written inline would. Its result is a score; any other
    /// call's is `data`, what its arguments hold.
    fn user_call(
        &mut self,
        call: &Call,
        (here, data): (Site, Val),
        stmt: &Stmt,
        (results, first_call): (&[Val], u32),
        ctx: &StmtCtx<'_>,
        alarms: &mut Alarms,
    ) -> Val {
        let Some(f) = read_named(stmt, ctx, &call.callee)
            .filter(|f| ctx.model.function_definitions.contains_key(f))
        else {
            return data;
        };
        let leak = self.function_leak(ctx, f);
        if leak.evaluates_passed() {
            return self.passed_model_evaluated(call, leak, (results, first_call), ctx, alarms);
        }
        if !leak.evaluates() {
            return data;
        }
        let (mut train, mut test) = (Val::default(), Val::default());
        for (i, arg) in call.args[..positional(call)].iter().enumerate().take(32) {
            if leak.trains & (1 << i) != 0 {
                self.join_value_of(arg, results, first_call, &mut train);
            } else if leak.tested() & (1 << i) != 0 {
                self.join_value_of(arg, results, first_call, &mut test);
            }
        }
        self.train(here, train.data(), ctx.in_loop);
        let evaluation = evaluation_of(call, leak.tested());
        self.check_evaluation(here, &evaluation, &test, true, ctx, alarms);
        Val::default()
    }

    /// A call of a user function that evaluates a model passed to it
    /// (`show(X_test, y_test, model)`, [`functions::FunctionLeak::
    /// evaluates_passed`]): each model the model arguments hold is
    /// evaluated on the other arguments the body tests on, as the same code
    /// written inline would be. Its result is a score.
    fn passed_model_evaluated(
        &mut self,
        call: &Call,
        leak: functions::FunctionLeak,
        (results, first_call): (&[Val], u32),
        ctx: &StmtCtx<'_>,
        alarms: &mut Alarms,
    ) -> Val {
        let (mut models, mut test) = (Val::default(), Val::default());
        let tested = leak.tested() & !leak.models;
        for (i, arg) in call.args[..positional(call)].iter().enumerate().take(32) {
            if leak.models & (1 << i) != 0 {
                self.join_value_of(arg, results, first_call, &mut models);
            } else if tested & (1 << i) != 0 {
                self.join_value_of(arg, results, first_call, &mut test);
            }
        }
        let evaluation = evaluation_of(call, tested);
        let trained: SmallVec<[Site; 2]> = models.models().collect();
        for m in trained {
            self.check_evaluation(m, &evaluation, &test, true, ctx, alarms);
        }
        Val::default()
    }

    /// The value of each element of the tuple display `stmt` assigns to as
    /// many names (`a, b = x[...], y[...]`), in the order of the targets.
    fn tuple_elements(&self, stmt: &Stmt, ctx: &StmtCtx<'_>) -> Option<Vec<Val>> {
        let strong = stmt
            .writes
            .iter()
            .filter(|(_, k)| *k == WriteKind::Strong)
            .count();
        if strong < 2 {
            return None;
        }
        let elements = syntax::tuple_display_at(parsed_cell(ctx)?, (stmt.line, stmt.column))?;
        if elements.len() != strong {
            return None;
        }
        Some(
            elements
                .iter()
                .map(|names| {
                    let mut val = Val::default();
                    for name in names {
                        if let Some(x) = read_named(stmt, ctx, name).and_then(|v| self.get(v)) {
                            val.join(x);
                        }
                    }
                    val
                })
                .collect(),
        )
    }

    /// The values of the two frames `stmt` aligns (`a2, b2 = a.align(b)`),
    /// in the order of its targets.
    fn aligned(&self, stmt: &Stmt, ctx: &StmtCtx<'_>) -> Option<[Option<Val>; 2]> {
        let strong = stmt
            .writes
            .iter()
            .filter(|(_, k)| *k == WriteKind::Strong)
            .count();
        if strong != 2 || !stmt.calls.is_empty() {
            return None;
        }
        let parsed = parsed_cell(ctx)?;
        let (a, b) = syntax::aligned_at(parsed, (stmt.line, stmt.column))?;
        let val = |name: &str| {
            read_named(stmt, ctx, name)
                .and_then(|v| self.get(v))
                .cloned()
        };
        Some([val(&a), val(&b)])
    }

    /// `X = df[features]` or `X = df.drop(columns=[...])` selects columns
    /// by name: statistics stored in a column it leaves out (`df["age_mean"]
    /// = df.age.mean()`), and in columns made from it only, do not reach `X`.
    fn selected_columns(&self, stmt: &Stmt, ctx: &StmtCtx<'_>, value: &mut Val) {
        if !value.tags.iter().any(|t| matches!(t, Tag::Fitted(_))) {
            return;
        }
        let Some(parsed) = parsed_cell(ctx) else {
            return;
        };
        let Some((frame, columns)) =
            syntax::selected_columns_at(ctx.model, parsed, (stmt.line, stmt.column))
        else {
            return;
        };
        let left_out = |site: Site| {
            let Some(call) = call_at(ctx.model, site).filter(|c| is_statistic(c)) else {
                return false;
            };
            let Some(stat_parsed) = crate::calls::parsed_at(ctx.model, site) else {
                return false;
            };
            let at = (call.line, call.column);
            // Stored in a column there, or bound to a name stored from
            // there into one column (the statements storing it).
            let Some((stored, storing)) = syntax::stored_column_at(stat_parsed, at)
                .map(|c| (c, Vec::new()))
                .or_else(|| syntax::stored_through_name(ctx.model, stat_parsed, at))
            else {
                return false;
            };
            let derived = syntax::columns_derived_from(ctx.model, &stored);
            match &columns {
                syntax::Columns::Kept(kept) => {
                    !kept.iter().any(|c| *c == stored || derived.contains(c))
                }
                // Dropped, the column leaves every other column as it
                // was only when no other statement uses it (an in-place
                // `fillna(df["m"])` or `.loc[...] =` may have) than the
                // ones storing it, the columns made from it (dropped too)
                // and this selection.
                syntax::Columns::Dropped(dropped) => {
                    if !(dropped.contains(&stored) && derived.iter().all(|c| dropped.contains(c))) {
                        return false;
                    }
                    let (cell, line) = (ctx.model.sites.cell(site), call.line);
                    let making: Vec<(usize, OneIndexed)> = derived
                        .iter()
                        .flat_map(|c| syntax::statements_naming_column(ctx.model, c))
                        .collect();
                    syntax::statements_naming_column(ctx.model, &stored)
                        .iter()
                        .all(|&(c, l)| {
                            (c == cell && l == line)
                                || (c == ctx.cell && l == stmt.line)
                                || making.contains(&(c, l))
                                || storing.contains(&(c, l))
                                || leaves_other_columns(ctx.model, (c, l), &frame, &stored)
                        })
                }
            }
        };
        value.tags = value.tags.filtered(|t| match t {
            Tag::Fitted(s) => !left_out(s),
            _ => true,
        });
    }

    /// What `stmt` reads only to select rows, when something it reads or
    /// calls carries fitted statistics (the syntax is read only then).
    fn row_selection(
        &self,
        stmt: &Stmt,
        calls: &[Call],
        results: &[Val],
        ctx: &StmtCtx<'_>,
    ) -> Option<row_filters::RowSelection> {
        let fitted = |x: &Val| {
            !x.fitted_by.is_empty()
                || x.tags
                    .iter()
                    .any(|t| matches!(t, Tag::Fitted(_) | Tag::FittedSide(_)))
        };
        let matters = stmt
            .free_reads
            .iter()
            .any(|&v| self.get(v).is_some_and(fitted))
            || calls
                .iter()
                .zip(results)
                .any(|(c, r)| !c.consumed && fitted(r));
        if !matters {
            return None;
        }
        parsed_cell(ctx).map(|p| row_filters::row_selection_at(p, (stmt.line, stmt.column)))
    }

    /// Predictions compared with the labels of the same rows without a
    /// metric function (`np.mean(pred != y_test)`, `(y_test - a) ** 2`): an
    /// evaluation of the models that made them.
    fn compared(&mut self, stmt: &Stmt, ctx: &StmtCtx<'_>, alarms: &mut Alarms) {
        let held_out = |x: &Val| {
            x.tags
                .iter()
                .any(|t| matches!(t, Tag::Split(_, Side::Test)))
        };
        let predicted = |x: &Val| x.models().next().is_some();
        let mut predictions = false;
        let mut labels = false;
        for &v in &stmt.reads {
            if let Some(x) = self.get(v).filter(|x| held_out(x)) {
                predictions |= predicted(x);
                labels |= !predicted(x);
            }
        }
        if !(predictions && labels) {
            return;
        }
        let Some(parsed) = parsed_cell(ctx) else {
            return;
        };
        let is_module = |name: &str| is_imported(ctx.model, name);
        let var = |name: &str| read_named(stmt, ctx, name);
        for (left, right, text) in
            syntax::comparisons_at(parsed, (stmt.line, stmt.column), &is_module)
        {
            let (Some(a), Some(b)) = (var(&left), var(&right)) else {
                continue;
            };
            let (Some(x), Some(y)) = (self.get(a), self.get(b)) else {
                continue;
            };
            if predicted(x) == predicted(y) {
                continue;
            }
            let mut data = x.clone();
            data.join(y);
            let models: SmallVec<[Site; 2]> = data.models().collect();
            let call = Call {
                callee: text.into(),
                method: false,
                roles: SmallVec::from_slice(&[Role::Evaluate]),
                receiver: Op::Reads(SmallVec::new()),
                receiver_attribute: false,
                receiver_slice: false,
                args: SmallVec::new(),
                positional: 0,
                keywords: SmallVec::new(),
                first_str: None,
                consumed: false,
                constructor: false,
                user: false,
                line: stmt.line,
                column: stmt.column,
            };
            for m in models {
                self.check_evaluation(m, &call, &data, true, ctx, alarms);
            }
        }
    }

    /// The model `trained` (a fit's result) stopped early on `monitored`:
    /// the held-out sides of the splits whose training side trained it.
    fn stopped_early_on(&mut self, trained: &Val, monitored: &Val) {
        for m in trained.models() {
            let Some(t) = self.trained(m) else {
                continue;
            };
            let splits: SmallVec<[Site; 1]> = monitored
                .tags
                .iter()
                .filter_map(|tag| match tag {
                    Tag::Split(s, Side::Test) if t.data.has(Tag::Split(s, Side::Train)) => Some(s),
                    _ => None,
                })
                .collect();
            if !splits.is_empty() {
                self.monitor(m, &splits);
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
        parsed_cell(ctx)
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
        let Some(rows) = read_named(stmt, ctx, &repeated).and_then(|v| self.get(v)) else {
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
        let var_of = |name: &str| read_named(stmt, ctx, name);
        let (side, other) = match &part {
            syntax::Part::Head { .. } | syntax::Part::Tail { .. }
                if !syntax::has_complement(ctx.model, &part) =>
            {
                return None;
            }
            syntax::Part::Head { .. } => (Side::Train, None),
            syntax::Part::Tail { .. } => (Side::Test, None),
            syntax::Part::Rest { other, .. } => (Side::Test, Some(var_of(other)?)),
        };
        let base = part.base();
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
    /// `candidate`: the evaluation is one of a choice among models (not
    /// another of the alternatives one object may be).
    fn check_evaluation(
        &mut self,
        model: Site,
        call: &Call,
        data: &Val,
        candidate: bool,
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
            overlap::held_out_rows(model, call, data, trained, ctx, alarms);
        }
        if splits.is_empty() {
            // Tested on the held-out side of a split whose training side did
            // not train the model (trained on another split of the same
            // rows, an undersampled copy): statistics both sides share
            // still leak.
            let held_out: SmallVec<[Site; 2]> = data
                .tags
                .iter()
                .filter_map(|t| match t {
                    Tag::Split(s, Side::Test) if scored(ctx.model, s, call) => Some(s),
                    _ => None,
                })
                .collect();
            if alarms.on && !held_out.is_empty() {
                Self::shared_preparation(model, call, data, &held_out, trained, ctx, alarms);
            }
            return;
        }
        if alarms.on {
            Self::shared_preparation(model, call, data, &splits, trained, ctx, alarms);
        }
        // Predictions not (yet) compared with labels choose nothing: the
        // metric or `score` that compares them is the evaluation.
        if !call.has(Role::Evaluate) || !candidate {
            return;
        }
        if alarms.on {
            for &split in &splits {
                // Stopping early on a validation split is what it is for.
                if trained.monitored.contains(&split)
                    && !multi_test::is_validation(ctx.model, split, data)
                {
                    alarms.push(multi_test::stopped_early_on(model, call, split, ctx));
                }
            }
        }
        let trained_in_loop = trained.in_loop;
        multi_test::at_evaluation(
            &mut self.evals,
            self.baseline.as_deref(),
            (model, trained_in_loop),
            call,
            data,
            &splits,
            ctx,
            alarms,
        );
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

impl nbsight_absint::Growth for LeakGrowth {
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
                if !t.monitored.is_empty() {
                    self.monitor(t.site, &t.monitored);
                }
            }
        }
        if !Rc::ptr_eq(&self.evals, &other.evals) {
            for (s, models) in other.evals.iter() {
                for &m in models {
                    record_evaluation(&mut self.evals, *s, m);
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
        nbsight_absint::join_result(self, &after, into, added);
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
        let (after, alarms) = nbsight_absint::run_cell(self, model, cell, true);
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
                other.trained(t.site).is_some_and(|o| {
                    t.data.leq(&o.data)
                        && (!t.in_loop || o.in_loop)
                        && t.monitored.iter().all(|s| o.monitored.contains(s))
                })
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
            let mut monitored = Val::default();
            let fit = call.has(Role::Fit);
            // `fit(X, y, **fit_params)` with `fit_params = {"eval_set":
            // [(X_val, y_val)], ...}` passes the set it monitors that way.
            let unpacks_monitored = fit
                && call.keywords.iter().any(|k| k == UNPACKED)
                && unpacked_entries(call, ctx.cell, ctx.model)
                    .iter()
                    .any(|(k, _)| names_monitored_set(k));
            for (i, arg) in call.args.iter().enumerate() {
                // `fit(X, y, eval_set=[(X_val, y_val)])` trains on `X`: the
                // set it monitors is not training data.
                if fit
                    && keyword(call, i).is_some_and(|k| {
                        names_monitored_set(k) || (k == UNPACKED && unpacks_monitored)
                    })
                {
                    self.join_value_of(arg, &results, stmt.calls.start, &mut monitored);
                    continue;
                }
                self.join_value_of(arg, &results, stmt.calls.start, &mut data);
            }
            if call.user {
                let here = ctx.model.sites.id(ctx.cell, index);
                let res = self.user_call(
                    call,
                    (here, data),
                    stmt,
                    (&results, stmt.calls.start),
                    ctx,
                    alarms,
                );
                results.push(res);
                continue;
            }
            let recv = if call.method {
                let mut recv = self.value_of(&call.receiver, &results, stmt.calls.start);
                if call.receiver_attribute {
                    // `search.best_estimator_.fit(X, y)` fits one estimator.
                    recv.kind = 0;
                } else if call.receiver_slice && recv.kind & kind::PIPELINE != 0 {
                    // `pipe[:-1].fit(X)`: some of the pipeline's steps (its
                    // preprocessing), which fit statistics and train no model.
                    recv.kind = kind::TRANSFORMER;
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
            if !monitored.is_empty() && stops_early(call, ctx.cell, ctx.model) {
                self.stopped_early_on(&res, &monitored);
            }
            results.push(res);
        }
        let mut value = Val::default();
        // What only selects rows (`data[mask]`, `df[df.x < high]`) brings
        // no statistic into the rows kept.
        let selection = self.row_selection(stmt, calls, &results, ctx);
        let selecting = |v: Var| {
            selection.as_ref().is_some_and(|s| {
                let name = ctx.model.vars.name(v);
                s.thresholds.iter().any(|n| n == name)
                    || (s.masks.iter().any(|n| n == name)
                        && row_filters::binds_only_masks(ctx.model, v))
            })
        };
        if calls.is_empty() {
            // Not `X_train.columns` (what the data looks like, not its rows).
            for &v in &stmt.free_reads {
                if let Some(x) = self.get(v) {
                    if selecting(v) {
                        value.join(&unfitted(x));
                    } else {
                        value.join(x);
                    }
                }
            }
            self.selected_columns(stmt, ctx, &mut value);
            // `best = search.best_estimator_`: what the search is (a CV
            // search) says nothing of the estimator it holds.
            if value.kind != 0
                && let Some(parsed) = parsed_cell(ctx)
                && syntax::assigns_attribute(parsed, stmt.line, stmt.column)
            {
                value.kind = 0;
            }
        } else {
            // A statistic compared with the rows (`df[df.x < df.x.quantile(.99)]`)
            // only decides which rows are kept: no value is filled or
            // rescaled with it.
            for (call, res) in calls.iter().zip(&results) {
                if call.consumed {
                    continue;
                }
                let filters_rows = selection
                    .as_ref()
                    .is_some_and(|s| s.calls.contains(&(call.line, call.column)));
                if filters_rows {
                    value.join(&unfitted(res));
                } else {
                    value.join(res);
                }
            }
            for &v in &stmt.free_reads {
                if let Some(x) = self.get(v) {
                    if selecting(v) {
                        value.join(&unfitted(x));
                    } else {
                        value.join(x);
                    }
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
        if !calls
            .iter()
            .any(|c| c.has(Role::Evaluate) || c.has(Role::Predict))
        {
            self.compared(stmt, ctx, alarms);
        }
        if split.is_none() && !value.is_split() {
            self.augmented(stmt, ctx, &mut value);
        }
        // `a, b = a.align(b, axis=1)`: each keeps its own rows.
        let aligned = self.aligned(stmt, ctx);
        // `X_train, X_test = train["text"], test["text"]`: each target
        // its own element's value, not the statement's.
        let elements = (calls.is_empty() && split.is_none() && aligned.is_none())
            .then(|| self.tuple_elements(stmt, ctx))
            .flatten();
        let mut position = 0;
        for &(v, kind) in &stmt.writes {
            match kind {
                WriteKind::Strong if aligned.is_some() => {
                    let own = aligned.as_ref().and_then(|a| a.get(position)).cloned();
                    position += 1;
                    self.set(v, own.flatten().unwrap_or_default());
                    self.bind(v);
                }
                WriteKind::Strong if elements.is_some() => {
                    let own = elements.as_ref().and_then(|e| e.get(position)).cloned();
                    position += 1;
                    self.set(v, own.unwrap_or_default());
                    self.bind(v);
                }
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

/// A statistic of the receiver's rows (`df.mean()`, `s.quantile(0.9)`):
/// a `fit-transform` method of the data itself (the knowledge base's
/// statistics), not a transformer's `fit_transform(X)`.
fn is_statistic(call: &Call) -> bool {
    call.method
        && call.has(Role::FitTransform)
        && call.roles.len() == 1
        && short(&call.callee) != "fit_transform"
}

/// Training at `call` (in cell `cell`) stops early on the sets it monitors:
/// `early_stopping_rounds=` passed, or an early-stopping callback among its
/// `callbacks=`, made there (`[lgb.early_stopping(10)]`) or bound to a name
/// passed there (`es = EarlyStopping(...)`, `callbacks=[es]`). A set
/// passed only to be logged (`callbacks=[lgb.log_evaluation()]`) chooses
/// nothing.
fn stops_early(call: &Call, cell: usize, model: &NotebookModel) -> bool {
    let asked = |k: &str| {
        matches!(
            k,
            "early_stopping_rounds" | "early_stopping" | "callbacks" | UNPACKED
        )
    };
    if !call.keywords.iter().any(|k| asked(k)) {
        return false;
    }
    let Some(mut keywords) = model
        .cells
        .get(cell)
        .and_then(|c| c.parsed.as_deref())
        .and_then(|p| syntax::keywords_at(p, call.line, call.column))
    else {
        return false;
    };
    // The entries of a `**fit_params` dict are keywords too.
    if call.keywords.iter().any(|k| k == UNPACKED) {
        keywords.extend(unpacked_entries(call, cell, model));
    }
    // `early_stopping_rounds=None` (or `False`, `0`) stops nothing.
    if keywords.iter().any(|(k, v)| {
        matches!(k.as_str(), "early_stopping_rounds" | "early_stopping")
            && !matches!(v.as_str(), "None" | "False" | "0")
    }) {
        return true;
    }
    let Some(callbacks) = keywords
        .into_iter()
        .find(|(k, _)| k == "callbacks")
        .map(|(_, text)| text)
    else {
        return false;
    };
    let names: Vec<&str> = callbacks
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    syntax::makes_early_stopping(&callbacks)
        || model
            .code_cells()
            .filter_map(|c| c.parsed.as_deref())
            .any(|p| syntax::binds_early_stopping(p, &names))
}

/// The keyword arguments of a `fit` that pass data it monitors, not data it
/// trains on (early stopping, validation curves, `xgb.train`'s watch
/// list `evals=`).
fn names_monitored_set(keyword: &str) -> bool {
    matches!(
        keyword,
        "eval_set" | "validation_data" | "valid_sets" | "eval_sample_weight" | "evals"
    )
}

/// The entries of the dicts `call` (in cell `cell`) unpacks with `**`.
fn unpacked_entries(call: &Call, cell: usize, model: &NotebookModel) -> Vec<(String, String)> {
    model
        .cells
        .get(cell)
        .and_then(|c| c.parsed.as_deref())
        .map(|p| syntax::unpacked_entries_at(model, p, call.line, call.column))
        .unwrap_or_default()
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

/// A user function's call seen as the evaluation its body makes: an
/// `Evaluate` call of the positional arguments in `tested` (bit `i` for the
/// `i`-th), which name the test data in messages.
fn evaluation_of(call: &Call, tested: u32) -> Call {
    let mut evaluation = call.clone();
    evaluation.roles = SmallVec::from_slice(&[Role::Evaluate]);
    evaluation.keywords.clear();
    evaluation.args = call.args[..positional(call)]
        .iter()
        .enumerate()
        .filter(|&(i, _)| i < 32 && tested & (1 << i) != 0)
        .map(|(_, arg)| arg.clone())
        .collect();
    evaluation.positional = evaluation.args.len() as u32;
    evaluation
}

/// The site of `stmt`'s call of the user function `f`, when the dataflow
/// recorded one (`X = prep(X)`; not a function passed as a value).
fn user_call_site(stmt: &Stmt, ctx: &StmtCtx<'_>, f: Var) -> Option<Site> {
    let name = ctx.model.vars.name(f);
    stmt.calls
        .clone()
        .find(|&i| {
            ctx.program
                .calls
                .get(i as usize)
                .is_some_and(|c| c.user && c.callee == name)
        })
        .map(|i| ctx.model.sites.id(ctx.cell, i))
        .filter(|&s| s != nbsight_model::NO_SITE)
}

/// The statements of cell `c` starting on line `l` change no column of
/// `frame` but `column`: they write nothing (a plot, a print), store into
/// `frame[column]` itself (an in-place rescaling of the dropped column), or
/// bind only names that no statement changing `frame` reads (`facet =
/// sns.FacetGrid(...)`; not `age = df["Age"]` when `df["Age_sq"] = age **
/// 2` follows: one step is followed).
fn leaves_other_columns(
    model: &NotebookModel,
    (c, l): (usize, OneIndexed),
    frame: &str,
    column: &str,
) -> bool {
    let (Some(program), Some(parsed)) = (
        model.cells.get(c).and_then(|x| x.program()),
        model.cells.get(c).and_then(|x| x.parsed.as_deref()),
    ) else {
        return false;
    };
    let Some(frame_var) = model.vars.get(frame) else {
        return false;
    };
    let feeds_frame = |v: Var| {
        model.code_cells().filter_map(|x| x.program()).any(|p| {
            p.stmts
                .iter()
                .any(|s| s.reads.contains(&v) && s.writes.iter().any(|&(w, _)| w == frame_var))
        })
    };
    program.stmts.iter().filter(|s| s.line == l).all(|s| {
        if syntax::stored_column_at(parsed, (s.line, s.column)).as_deref() == Some(column) {
            return true;
        }
        s.writes
            .iter()
            .all(|&(w, _)| w != frame_var && !feeds_frame(w))
    })
}

/// `x` without the statistics fitted into it (what a selection of rows by
/// it does not bring into the rows kept).
fn unfitted(x: &Val) -> Val {
    let mut out = x.clone();
    out.tags = out
        .tags
        .filtered(|t| !matches!(t, Tag::Fitted(_) | Tag::FittedSide(_)));
    out.fitted_by.clear();
    out
}

/// The parsed code of the cell `ctx` interprets.
fn parsed_cell<'m>(ctx: &StmtCtx<'m>) -> Option<&'m nbsight_notebook::ParsedCell> {
    ctx.model.cells.get(ctx.cell)?.parsed.as_deref()
}

/// The variable named `name` that `stmt` reads.
fn read_named(stmt: &Stmt, ctx: &StmtCtx<'_>, name: &str) -> Option<Var> {
    stmt.reads
        .iter()
        .copied()
        .find(|&v| ctx.model.vars.name(v) == name)
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
