//! Tests of the effects knowledge base: the embedded file, lookups, merging
//! user files, error messages, and a sample of entries from each library.

use std::path::PathBuf;

use super::{
    BUILTIN_ORIGIN, BUILTIN_TOML, Effect, Effects, EffectsError, Location, Returns, Role, Target,
    paths_from_env_value,
};

/// A line and column in an effects file.
fn location(line: usize, column: usize) -> Location {
    let one = |n| nbsight_notebook::OneIndexed::new(n).expect("counts from 1");
    Location {
        line: one(line),
        column: one(column),
    }
}

fn builtin() -> Effects {
    Effects::shared_builtin().clone()
}

fn method<'a>(effects: &'a Effects, name: &str) -> &'a Effect {
    effects
        .method(name)
        .unwrap_or_else(|| panic!("no built-in entry for method `{name}`"))
}

fn function<'a>(effects: &'a Effects, name: &str) -> &'a Effect {
    effects
        .function(name)
        .unwrap_or_else(|| panic!("no built-in entry for function `{name}`"))
}

/// The error `text` gives when merged under the origin `user.toml`.
fn merge_error(text: &str) -> EffectsError {
    match Effects::empty().merge_toml(text, "user.toml") {
        Ok(()) => panic!("expected an error for:\n{text}"),
        Err(err) => err,
    }
}

/// Checks the error of `text` names the origin, the line and the column, and
/// contains `expected`.
fn assert_error(text: &str, line: usize, column: usize, expected: &str) {
    let err = merge_error(text);
    let message = err.to_string();
    let prefix = format!("user.toml:{line}:{column}: ");
    assert!(
        message.starts_with(&prefix),
        "error `{message}` does not start with `{prefix}`"
    );
    assert!(
        message.contains(expected),
        "error `{message}` does not mention `{expected}`"
    );
}

// ---- the embedded file ---------------------------------------------------------

#[test]
fn builtin_file_parses() {
    let mut effects = Effects::empty();
    if let Err(err) = effects.merge_toml(BUILTIN_TOML, BUILTIN_ORIGIN) {
        panic!("the built-in effects file is invalid: {err}");
    }
    let counts = effects.counts();
    assert_eq!(counts, Effects::builtin().counts());
    assert_eq!(counts, Effects::shared_builtin().counts());
    assert!(counts.functions > 400, "{counts:?}");
    assert!(counts.wildcards > 50, "{counts:?}");
    assert!(counts.methods > 500, "{counts:?}");
    assert!(counts.aliases >= 10, "{counts:?}");
}

#[test]
fn builtin_entries_are_consistent() {
    let effects = builtin();
    let all = effects
        .functions
        .iter()
        .chain(effects.wildcards.iter())
        .chain(effects.methods.iter());
    for (name, effect) in all {
        // An `inplace` switch is for calls that return a new object by default.
        if effect.returns == Returns::Nothing {
            assert!(
                effect.inplace.is_none(),
                "`{name}`: inplace with returns none"
            );
        }
        // Methods are keyed by bare name; `self` targets only make sense there.
        if effects.functions.contains_key(name) || effects.wildcards.contains_key(name) {
            assert!(
                !effect.mutates.contains(&Target::Receiver),
                "function `{name}` mutates `self`"
            );
        }
        assert!(
            !(effect.has_role(Role::GlobalRandom) && effect.has_role(Role::SeedRandom)),
            "`{name}` both seeds and draws"
        );
        // Roles describing the object a constructor builds are on pure
        // function entries only.
        if [
            Role::Transformer,
            Role::Sampler,
            Role::Pipeline,
            Role::Stateless,
        ]
        .into_iter()
        .any(|role| effect.has_role(role))
        {
            assert!(
                !effects.methods.contains_key(name),
                "method `{name}` has a constructor role"
            );
            assert!(effect.is_pure(), "constructor `{name}` mutates");
        }
    }
}

// ---- lookups -------------------------------------------------------------------

#[test]
fn function_lookup_prefers_exact_then_longest_wildcard() {
    let effects = builtin();
    // exact
    let shuffle = function(&effects, "numpy.random.shuffle");
    assert_eq!(shuffle.mutates, vec![Target::Arg(0)]);
    // numpy.random.* beats numpy.*
    let normal = function(&effects, "numpy.random.normal");
    assert!(normal.has_role(Role::GlobalRandom));
    assert!(normal.is_pure());
    // numpy.* for the rest
    let zeros = function(&effects, "numpy.zeros");
    assert!(zeros.is_pure());
    assert!(zeros.roles.is_empty());
    assert_eq!(zeros.returns, Returns::Fresh);
    // a partial-name wildcard
    assert!(function(&effects, "pandas.read_csv").has_role(Role::ReadFile));
    assert!(function(&effects, "pandas.read_parquet").has_role(Role::ReadFile));
    assert!(!function(&effects, "pandas.concat").has_role(Role::ReadFile));
    // a wildcard does not match its own prefix or other modules
    assert!(effects.function("numpy.").is_none());
    assert!(effects.function("numpy").is_none());
    assert!(effects.function("numpyx.zeros").is_none());
    assert!(effects.function("my_module.helper").is_none());
    assert!(effects.function("").is_none());
}

#[test]
fn function_lookup_handles_non_ascii_names() {
    let mut effects = Effects::empty();
    let merged = effects.merge_toml("[functions]\n\"é.*\" = {}\n\"ab.*\" = {}\n", "t");
    assert!(merged.is_ok(), "{merged:?}");
    assert!(effects.function("é.f").is_some());
    // Both prefixes are 3 bytes: probing 3 bytes into "éé.f" would split a character.
    assert!(effects.function("éé.f").is_none());
}

#[test]
fn method_and_alias_lookup() {
    let effects = builtin();
    assert!(effects.method("append").is_some());
    assert!(effects.method("no_such_method_xyz").is_none());
    assert_eq!(effects.alias("np"), Some("numpy"));
    assert_eq!(effects.alias("pd"), Some("pandas"));
    assert_eq!(effects.alias("plt"), Some("matplotlib.pyplot"));
    assert_eq!(effects.alias("sns"), Some("seaborn"));
    assert_eq!(effects.alias("tf"), Some("tensorflow"));
    assert_eq!(effects.alias("sk"), Some("sklearn"));
    assert_eq!(effects.alias("mpl"), Some("matplotlib"));
    assert_eq!(effects.alias("sp"), Some("scipy"));
    assert_eq!(effects.alias("sm"), Some("statsmodels.api"));
    assert_eq!(effects.alias("xgb"), Some("xgboost"));
    assert_eq!(effects.alias("lgb"), Some("lightgbm"));
    assert_eq!(effects.alias("numpy"), None);
    assert_eq!(
        effects.expand_alias("np.random.seed").as_deref(),
        Some("numpy.random.seed")
    );
    assert_eq!(
        effects.expand_alias("plt").as_deref(),
        Some("matplotlib.pyplot")
    );
    assert_eq!(effects.expand_alias("numpy.random.seed"), None);
    let expanded = effects.expand_alias("plt.plot").unwrap_or_default();
    assert!(function(&effects, &expanded).has_role(Role::Plot));
}

// ---- merging user files ---------------------------------------------------------

#[test]
fn user_entries_override_builtin_ones() {
    let mut effects = builtin();
    assert!(method(&effects, "head").is_pure());
    let user = r#"
[aliases]
np = "jax.numpy"
jnp = "jax.numpy"

[functions]
"numpy.zeros" = { roles = ["read-file"] }
"mylib.*" = { mutates = ["args"] }
"mylib.pure" = {}

[methods]
head = { mutates = ["self"], note = "my head eats its receiver" }
frobnicate = { mutates = ["arg1", "kw:into"], returns = "unknown" }
"#;
    let merged = effects.merge_toml(user, "user.toml");
    assert!(merged.is_ok(), "{merged:?}");
    assert_eq!(effects.alias("np"), Some("jax.numpy"));
    assert_eq!(effects.alias("jnp"), Some("jax.numpy"));
    assert_eq!(effects.alias("pd"), Some("pandas"));
    assert!(function(&effects, "numpy.zeros").has_role(Role::ReadFile));
    assert!(!function(&effects, "numpy.ones").has_role(Role::ReadFile));
    assert_eq!(
        function(&effects, "mylib.x.y").mutates,
        vec![Target::AllArgs]
    );
    assert!(function(&effects, "mylib.pure").is_pure());
    let head = method(&effects, "head");
    assert!(head.mutates_receiver());
    assert_eq!(head.note.as_deref(), Some("my head eats its receiver"));
    let frob = method(&effects, "frobnicate");
    assert_eq!(
        frob.mutates,
        vec![Target::Arg(1), Target::Keyword("into".to_owned())]
    );
    assert_eq!(frob.returns, Returns::Unknown);
    // untouched entries survive
    assert!(method(&effects, "append").mutates_receiver());
}

#[test]
fn wildcard_added_later_is_found() {
    let mut effects = builtin();
    assert!(
        effects
            .merge_toml(
                "[functions]\n\"numpy.linalg.x*\" = { roles = [\"plot\"] }\n",
                "u"
            )
            .is_ok()
    );
    assert!(function(&effects, "numpy.linalg.xyz").has_role(Role::Plot));
    assert!(!function(&effects, "numpy.linalg.inv").has_role(Role::Plot));
}

#[test]
fn failed_merge_changes_nothing() {
    let mut effects = builtin();
    let before = effects.counts();
    let bad = "[methods]\nzzz_new = {}\nhead = { mutates = [\"selff\"] }\n";
    assert!(effects.merge_toml(bad, "bad.toml").is_err());
    assert_eq!(effects.counts(), before);
    assert!(effects.method("zzz_new").is_none());
    assert!(method(&effects, "head").is_pure());
}

#[test]
fn with_user_files_merges_in_order_and_reports_io_errors() {
    let dir = std::env::temp_dir().join(format!("nbsight-effects-test-{}", std::process::id()));
    let created = std::fs::create_dir_all(&dir);
    assert!(created.is_ok(), "{created:?}");
    let first = dir.join("first.toml");
    let second = dir.join("second.toml");
    let writes = [
        std::fs::write(&first, "[methods]\nmine = { mutates = [\"self\"] }\n"),
        std::fs::write(
            &second,
            "[methods]\nmine = {}\n[aliases]\nfoo = \"foo.bar\"\n",
        ),
    ];
    assert!(writes.iter().all(Result::is_ok), "{writes:?}");

    let loaded = Effects::with_user_files(&[first.clone(), second.clone()]);
    let effects = match loaded {
        Ok(effects) => effects,
        Err(err) => panic!("{err}"),
    };
    assert!(method(&effects, "mine").is_pure(), "the later file wins");
    assert_eq!(effects.alias("foo"), Some("foo.bar"));
    assert!(
        method(&effects, "append").mutates_receiver(),
        "built-ins stay"
    );

    let reversed = Effects::with_user_files(&[second.clone(), first.clone()]);
    assert!(
        reversed.is_ok_and(|effects| effects.method("mine").is_some_and(Effect::mutates_receiver))
    );

    let missing = dir.join("missing.toml");
    match Effects::with_user_files(&[first.clone(), missing.clone()]) {
        Err(EffectsError::Read { path, .. }) => assert_eq!(path, missing),
        other => panic!("expected a read error, got {other:?}"),
    }

    let bad = dir.join("bad.toml");
    assert!(std::fs::write(&bad, "[methods]\nx = { returns = \"maybe\" }\n").is_ok());
    match Effects::with_user_files(std::slice::from_ref(&bad)) {
        Err(err) => {
            let message = err.to_string();
            assert!(
                message.starts_with(&format!("{}:2:17: ", bad.display())),
                "{message}"
            );
        }
        Ok(_) => panic!("expected an error"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn env_value_is_split_into_paths() {
    let paths = paths_from_env_value(std::ffi::OsStr::new("a.toml:/x/b.toml::"));
    if cfg!(unix) {
        assert_eq!(
            paths,
            vec![PathBuf::from("a.toml"), PathBuf::from("/x/b.toml")]
        );
    }
    assert!(paths_from_env_value(std::ffi::OsStr::new("")).is_empty());
}

// ---- errors -------------------------------------------------------------------------

#[test]
fn error_unknown_target() {
    assert_error(
        "[methods]\nfoo = { mutates = [\"self\", \"receiver\"] }\n",
        2,
        28,
        "unknown target `receiver`",
    );
    assert_error(
        "[methods]\nfoo = { mutates = [\"arg\"] }\n",
        2,
        20,
        "unknown target `arg`",
    );
    assert_error(
        "[methods]\nfoo = { mutates = [\"kw:1x\"] }\n",
        2,
        20,
        "Python identifier",
    );
}

#[test]
fn error_unknown_role() {
    assert_error(
        "\n[functions]\n\"a.b\" = { roles = [\"fit\", \"fitt\"] }\n",
        3,
        27,
        "unknown role `fitt`, expected one of: \"fit\", \"fit-transform\"",
    );
}

#[test]
fn error_unknown_returns() {
    assert_error(
        "[methods]\nfoo = { returns = \"receiver\" }\n",
        2,
        19,
        "unknown returns value `receiver`",
    );
}

#[test]
fn error_unknown_keys() {
    assert_error(
        "[methods]\nfoo = { mutate = [\"self\"] }\n",
        2,
        9,
        "unknown field `mutate`",
    );
    assert_error("[method]\nfoo = {}\n", 1, 2, "unknown field `method`");
}

#[test]
fn error_bad_types_and_syntax() {
    assert_error("[methods]\nfoo = { mutates = \"self\" }\n", 2, 19, "");
    assert_error("[methods]\nfoo = { inplace = true }\n", 2, 19, "");
    assert_error("[methods]\nfoo = {\n", 2, 8, "inline table");
    assert_error("[methods]\nfoo = {}\nfoo = {}\n", 3, 1, "duplicate key");
}

#[test]
fn error_bad_names() {
    assert_error("[functions]\nlen = {}\n", 2, 1, "qualified with its module");
    assert_error("[functions]\n\"*\" = {}\n", 2, 1, "wildcard `*`");
    assert_error(
        "[functions]\n\"a.*.b\" = {}\n",
        2,
        1,
        "qualified with its module",
    );
    assert_error("[functions]\n\"a.*b*\" = {}\n", 2, 1, "wildcard `a.*b*`");
    assert_error(
        "[functions]\n\"a..b\" = {}\n",
        2,
        1,
        "qualified with its module",
    );
    assert_error("[methods]\n\"df.head\" = {}\n", 2, 1, "bare method name");
    assert_error(
        "[aliases]\n\"n p\" = \"numpy\"\n",
        2,
        1,
        "Python identifier",
    );
    assert_error("[aliases]\nnp = \"numpy.*\"\n", 2, 6, "dotted name");
    assert_error(
        "[methods]\nfoo = { inplace = \"in place\" }\n",
        2,
        19,
        "keyword argument",
    );
}

#[test]
fn error_reports_the_first_problem_in_the_file() {
    let text = "[methods]\nzzz = { inplace = \"a b\" }\naaa = { inplace = \"c d\" }\n";
    assert_error(text, 2, 19, "`a b`");
    let text = "[methods]\n\"bad name\" = {}\n[functions]\nbad = {}\n";
    assert_error(text, 2, 1, "`bad name`");
}

#[test]
fn error_without_location_for_io() {
    let err = EffectsError::Read {
        path: PathBuf::from("/nope.toml"),
        source: std::io::Error::new(std::io::ErrorKind::NotFound, "not found"),
    };
    assert_eq!(
        err.to_string(),
        "cannot read effects file /nope.toml: not found"
    );
    let err = EffectsError::Invalid {
        origin: "o".to_owned(),
        location: None,
        message: "m".to_owned(),
    };
    assert_eq!(err.to_string(), "o: m");
}

#[test]
fn location_counts_characters() {
    let text = "ab\néé x";
    assert_eq!(Location::of_offset(text, 0), location(1, 1));
    assert_eq!(Location::of_offset(text, 3), location(2, 1));
    // byte 8 is `x`, after two 2-byte characters and a space
    assert_eq!(Location::of_offset(text, 8), location(2, 4));
    // inside a character, and past the end
    assert_eq!(Location::of_offset(text, 4), location(2, 1));
    assert_eq!(Location::of_offset(text, 99), location(2, 5));
}

#[test]
fn enums_round_trip_through_their_toml_spelling() {
    for role in Role::ALL {
        assert_eq!(role.as_str().parse::<Role>(), Ok(role));
    }
    for returns in Returns::ALL {
        assert_eq!(returns.as_str().parse::<Returns>(), Ok(returns));
    }
    for target in [
        Target::Receiver,
        Target::Arg(0),
        Target::Arg(12),
        Target::Keyword("out".to_owned()),
        Target::AllArgs,
    ] {
        assert_eq!(target.to_string().parse::<Target>(), Ok(target));
    }
    assert!("arg99999999999999999999999".parse::<Target>().is_err());
    assert!("arg-1".parse::<Target>().is_err());
    assert!("arg+1".parse::<Target>().is_err());
}

#[test]
fn duplicates_in_lists_are_dropped() {
    let mut effects = Effects::empty();
    let text = "[methods]\nfoo = { mutates = [\"self\", \"self\"], roles = [\"fit\", \"fit\"] }\n";
    assert!(effects.merge_toml(text, "t").is_ok());
    let foo = method(&effects, "foo");
    assert_eq!(foo.mutates, vec![Target::Receiver]);
    assert_eq!(foo.roles, vec![Role::Fit]);
}

// ---- a sample of built-in entries, per library --------------------------------------

#[test]
fn python_builtins_and_containers() {
    let e = builtin();
    let append = method(&e, "append");
    assert_eq!(append.mutates, vec![Target::Receiver]);
    assert_eq!(append.returns, Returns::Nothing);
    for name in [
        "extend",
        "insert",
        "pop",
        "remove",
        "clear",
        "sort",
        "reverse",
        "update",
        "setdefault",
        "add",
        "discard",
        "popitem",
        "difference_update",
        "appendleft",
        "popleft",
    ] {
        assert!(method(&e, name).mutates_receiver(), "{name}");
    }
    for name in [
        "copy",
        "count",
        "index",
        "keys",
        "values",
        "items",
        "get",
        "split",
        "join",
        "strip",
        "lower",
        "replace",
        "format",
        "startswith",
        "union",
        "difference",
    ] {
        assert!(!method(&e, name).mutates_receiver(), "{name}");
    }
    assert_eq!(method(&e, "get").returns, Returns::View);
    assert!(function(&e, "builtins.len").is_pure());
    assert!(function(&e, "builtins.sorted").is_pure());
    assert_eq!(function(&e, "builtins.next").mutates, vec![Target::Arg(0)]);
    assert_eq!(
        function(&e, "builtins.setattr").mutates,
        vec![Target::Arg(0)]
    );
    assert_eq!(
        function(&e, "builtins.delattr").mutates,
        vec![Target::Arg(0)]
    );
    let open = function(&e, "builtins.open");
    assert!(open.has_role(Role::ReadFile));
    assert!(open.note.is_some());
    let print = function(&e, "builtins.print");
    assert_eq!(print.returns, Returns::Nothing);
    assert_eq!(print.mutates, vec![Target::Keyword("file".to_owned())]);
}

#[test]
fn stdlib_functions() {
    let e = builtin();
    let shuffle = function(&e, "random.shuffle");
    assert_eq!(shuffle.mutates, vec![Target::Arg(0)]);
    assert!(shuffle.has_role(Role::GlobalRandom));
    assert!(function(&e, "random.seed").has_role(Role::SeedRandom));
    assert!(function(&e, "random.randint").has_role(Role::GlobalRandom));
    assert!(function(&e, "os.remove").has_role(Role::DeleteFile));
    assert!(function(&e, "os.makedirs").has_role(Role::WriteFile));
    assert!(function(&e, "os.rename").has_role(Role::WriteFile));
    assert!(function(&e, "shutil.rmtree").has_role(Role::DeleteFile));
    assert!(function(&e, "os.path.join").is_pure());
    let dump = function(&e, "json.dump");
    assert_eq!(dump.mutates, vec![Target::Arg(1)]);
    assert!(dump.has_role(Role::WriteFile));
    assert!(function(&e, "pickle.load").has_role(Role::ReadFile));
    assert!(function(&e, "json.loads").is_pure());
    assert!(function(&e, "copy.deepcopy").is_pure());
    assert!(function(&e, "math.sqrt").is_pure());
    assert!(function(&e, "itertools.product").is_pure());
    assert!(function(&e, "collections.Counter").is_pure());
    assert!(function(&e, "time.time").is_pure());
    assert!(function(&e, "re.sub").is_pure());
    assert_eq!(function(&e, "heapq.heappush").mutates, vec![Target::Arg(0)]);
    assert!(method(&e, "write").has_role(Role::WriteFile));
    assert!(method(&e, "read").mutates_receiver());
}

#[test]
fn pandas_entries() {
    let e = builtin();
    for name in [
        "drop",
        "dropna",
        "fillna",
        "rename",
        "reset_index",
        "set_index",
        "replace",
        "sort_values",
        "sort_index",
        "query",
        "eval",
        "interpolate",
        "where",
        "mask",
        "clip",
        "drop_duplicates",
    ] {
        let effect = method(&e, name);
        assert_eq!(effect.inplace.as_deref(), Some("inplace"), "{name}");
        assert!(!effect.mutates_receiver(), "{name}");
        assert!(!effect.is_pure(), "{name}");
    }
    for name in [
        "head",
        "tail",
        "describe",
        "groupby",
        "agg",
        "merge",
        "astype",
        "apply",
        "map",
        "value_counts",
        "isnull",
        "notnull",
        "sum",
        "mean",
        "corr",
        "pivot_table",
        "melt",
        "copy",
        "plot",
        "hist",
    ] {
        assert!(method(&e, name).is_pure(), "{name}");
    }
    assert!(method(&e, "head").is_pure());
    assert!(method(&e, "to_csv").has_role(Role::WriteFile));
    assert!(method(&e, "to_parquet").has_role(Role::WriteFile));
    assert!(method(&e, "update").mutates_receiver());
    assert!(method(&e, "insert").mutates_receiver());
    assert!(function(&e, "pandas.read_csv").has_role(Role::ReadFile));
    assert!(function(&e, "pandas.read_excel").has_role(Role::ReadFile));
    assert!(function(&e, "pandas.concat").is_pure());
    assert!(function(&e, "pandas.DataFrame").is_pure());
}

#[test]
fn numpy_entries() {
    let e = builtin();
    assert!(function(&e, "numpy.mean").is_pure());
    assert_eq!(function(&e, "numpy.reshape").returns, Returns::View);
    assert_eq!(function(&e, "numpy.copyto").mutates, vec![Target::Arg(0)]);
    let shuffle = function(&e, "numpy.random.shuffle");
    assert_eq!(shuffle.mutates, vec![Target::Arg(0)]);
    assert!(shuffle.has_role(Role::GlobalRandom));
    assert!(function(&e, "numpy.random.seed").has_role(Role::SeedRandom));
    assert!(function(&e, "numpy.random.randn").has_role(Role::GlobalRandom));
    assert!(!function(&e, "numpy.random.default_rng").has_role(Role::GlobalRandom));
    assert!(function(&e, "numpy.save").has_role(Role::WriteFile));
    assert!(function(&e, "numpy.loadtxt").has_role(Role::ReadFile));
    assert!(
        function(&e, "numpy.add")
            .mutates
            .contains(&Target::Keyword("out".to_owned()))
    );
    for name in ["sort", "fill", "resize", "put", "itemset", "setflags"] {
        assert!(method(&e, name).mutates_receiver(), "{name}");
    }
    for name in ["reshape", "ravel", "transpose", "view"] {
        let effect = method(&e, name);
        assert_eq!(effect.returns, Returns::View, "{name}");
        assert!(effect.is_pure(), "{name}");
    }
    for name in [
        "sum", "mean", "max", "argmax", "astype", "copy", "tolist", "flatten",
    ] {
        let effect = method(&e, name);
        assert!(effect.is_pure(), "{name}");
        assert_eq!(effect.returns, Returns::Fresh, "{name}");
    }
    assert!(method(&e, "integers").mutates_receiver());
}

#[test]
fn sklearn_entries() {
    let e = builtin();
    let fit = method(&e, "fit");
    assert!(fit.mutates_receiver());
    assert_eq!(fit.returns, Returns::Receiver);
    assert_eq!(fit.roles, vec![Role::Fit]);
    let partial = method(&e, "partial_fit");
    assert!(partial.mutates_receiver() && partial.has_role(Role::Fit));
    let fit_transform = method(&e, "fit_transform");
    assert!(fit_transform.mutates_receiver());
    assert_eq!(fit_transform.roles, vec![Role::FitTransform]);
    assert_eq!(fit_transform.returns, Returns::Fresh);
    let fit_predict = method(&e, "fit_predict");
    assert!(fit_predict.mutates_receiver());
    assert!(fit_predict.has_role(Role::Fit) && fit_predict.has_role(Role::Predict));
    let transform = method(&e, "transform");
    assert!(transform.is_pure() && transform.has_role(Role::Transform));
    assert!(method(&e, "inverse_transform").is_pure());
    for name in ["predict", "predict_proba", "decision_function"] {
        let effect = method(&e, name);
        assert!(effect.is_pure() && effect.has_role(Role::Predict), "{name}");
    }
    assert!(method(&e, "score").has_role(Role::Evaluate));
    assert!(method(&e, "get_params").is_pure());
    assert!(method(&e, "set_params").mutates_receiver());
    let split = method(&e, "split");
    assert!(split.is_pure() && split.roles.is_empty() && split.note.is_some());
    assert!(method(&e, "fit_resample").has_role(Role::Resample));
    assert!(function(&e, "sklearn.model_selection.train_test_split").has_role(Role::Split));
    assert!(function(&e, "sklearn.model_selection.KFold").has_role(Role::Split));
    assert!(function(&e, "sklearn.model_selection.cross_val_score").is_pure());
    assert!(function(&e, "sklearn.model_selection.GridSearchCV").is_pure());
    assert!(function(&e, "sklearn.preprocessing.StandardScaler").is_pure());
    assert_eq!(
        function(&e, "sklearn.decomposition.PCA").roles,
        vec![Role::Transformer]
    );
    // models and other constructors keep the pure `sklearn.*` entry
    assert!(
        function(&e, "sklearn.linear_model.LogisticRegression")
            .roles
            .is_empty()
    );
    assert!(
        function(&e, "sklearn.ensemble.RandomForestClassifier")
            .roles
            .is_empty()
    );
    assert!(function(&e, "sklearn.metrics.accuracy_score").has_role(Role::Evaluate));
    assert!(!function(&e, "sklearn.metrics.pairwise.rbf_kernel").has_role(Role::Evaluate));
    assert!(function(&e, "sklearn.utils.resample").has_role(Role::Resample));
    assert!(function(&e, "sklearn.preprocessing.scale").has_role(Role::FitTransform));
    assert!(function(&e, "sklearn.datasets.load_iris").has_role(Role::ReadFile));
    assert!(function(&e, "sklearn.datasets.make_blobs").has_role(Role::GlobalRandom));
}

#[test]
fn plotting_entries() {
    let e = builtin();
    for name in ["plot", "show", "figure", "xlabel", "scatter", "subplots"] {
        let effect = function(&e, &format!("matplotlib.pyplot.{name}"));
        assert!(
            effect.is_pure() && effect.has_role(Role::Plot),
            "plt.{name}"
        );
    }
    assert!(function(&e, "matplotlib.pyplot.plot").note.is_some());
    assert!(function(&e, "matplotlib.pyplot.savefig").has_role(Role::WriteFile));
    assert!(function(&e, "seaborn.heatmap").has_role(Role::Plot));
    assert!(function(&e, "seaborn.load_dataset").has_role(Role::ReadFile));
    for name in ["plot", "hist", "scatter", "bar"] {
        let effect = method(&e, name);
        assert!(effect.is_pure() && effect.has_role(Role::Plot), "{name}");
    }
    for name in [
        "set_title",
        "set_xlabel",
        "set_ylabel",
        "set_xlim",
        "legend",
        "grid",
        "axis",
        "imshow",
        "text",
        "annotate",
    ] {
        assert!(method(&e, name).mutates_receiver(), "{name}");
    }
    assert!(method(&e, "savefig").has_role(Role::WriteFile));
    assert!(method(&e, "show").is_pure());
}

#[test]
fn deep_learning_entries() {
    let e = builtin();
    assert!(function(&e, "tensorflow.random.set_seed").has_role(Role::SeedRandom));
    assert!(function(&e, "torch.manual_seed").has_role(Role::SeedRandom));
    assert!(function(&e, "torch.randn").has_role(Role::GlobalRandom));
    assert_eq!(
        function(&e, "torch.nn.init.xavier_uniform_").mutates,
        vec![Target::Arg(0)]
    );
    assert!(function(&e, "keras.layers.Dense").is_pure());
    assert!(method(&e, "compile").mutates_receiver());
    assert!(method(&e, "add").mutates_receiver());
    assert!(method(&e, "evaluate").has_role(Role::Evaluate));
    assert!(method(&e, "zero_").mutates_receiver());
}

// ---- ML roles of constructors and cross-validation -------------------------------

/// The entry of `name` is its own exact entry, not a wildcard's, and it is a
/// pure constructor or function (no mutation, no `inplace` switch).
fn exact_pure_function<'a>(effects: &'a Effects, name: &str) -> &'a Effect {
    let found = function(effects, name);
    let exact = effects
        .functions
        .get(name)
        .unwrap_or_else(|| panic!("no exact entry for `{name}`"));
    assert!(
        std::ptr::eq(found, exact),
        "`{name}` resolves to a wildcard"
    );
    assert!(found.is_pure(), "`{name}` is not pure");
    found
}

#[test]
fn new_roles_parse_and_print() {
    for (text, role) in [
        ("transformer", Role::Transformer),
        ("cross-validate", Role::CrossValidate),
        ("sampler", Role::Sampler),
        ("pipeline", Role::Pipeline),
        ("stateless", Role::Stateless),
    ] {
        assert_eq!(text.parse::<Role>(), Ok(role));
        assert_eq!(role.to_string(), text);
        assert!(Role::ALL.contains(&role));
    }
    let mut effects = Effects::empty();
    let text = "[functions]\n\"a.B\" = { roles = [\"transformer\", \"cross-validate\", \"sampler\", \"pipeline\"] }\n";
    assert!(effects.merge_toml(text, "t").is_ok());
    assert_eq!(function(&effects, "a.B").roles.len(), 4);
}

#[test]
fn transformer_constructors() {
    let e = builtin();
    for name in [
        "sklearn.preprocessing.StandardScaler",
        "sklearn.preprocessing.MinMaxScaler",
        "sklearn.preprocessing.MaxAbsScaler",
        "sklearn.preprocessing.RobustScaler",
        "sklearn.preprocessing.Normalizer",
        "sklearn.preprocessing.QuantileTransformer",
        "sklearn.preprocessing.PowerTransformer",
        "sklearn.preprocessing.OneHotEncoder",
        "sklearn.preprocessing.OrdinalEncoder",
        "sklearn.preprocessing.LabelEncoder",
        "sklearn.preprocessing.LabelBinarizer",
        "sklearn.preprocessing.MultiLabelBinarizer",
        "sklearn.preprocessing.PolynomialFeatures",
        "sklearn.preprocessing.KBinsDiscretizer",
        "sklearn.preprocessing.Binarizer",
        "sklearn.preprocessing.FunctionTransformer",
        "sklearn.preprocessing.SplineTransformer",
        "sklearn.preprocessing.TargetEncoder",
        "sklearn.impute.SimpleImputer",
        "sklearn.impute.KNNImputer",
        "sklearn.impute.IterativeImputer",
        "sklearn.impute.MissingIndicator",
        "sklearn.feature_selection.SelectKBest",
        "sklearn.feature_selection.SelectPercentile",
        "sklearn.feature_selection.VarianceThreshold",
        "sklearn.feature_selection.RFE",
        "sklearn.feature_selection.RFECV",
        "sklearn.feature_selection.SelectFromModel",
        "sklearn.feature_selection.SequentialFeatureSelector",
        "sklearn.feature_selection.GenericUnivariateSelect",
        "sklearn.feature_selection.SelectFpr",
        "sklearn.feature_selection.SelectFdr",
        "sklearn.feature_selection.SelectFwe",
        "sklearn.decomposition.PCA",
        "sklearn.decomposition.TruncatedSVD",
        "sklearn.decomposition.KernelPCA",
        "sklearn.decomposition.IncrementalPCA",
        "sklearn.decomposition.NMF",
        "sklearn.decomposition.FastICA",
        "sklearn.decomposition.FactorAnalysis",
        "sklearn.decomposition.LatentDirichletAllocation",
        "sklearn.decomposition.SparsePCA",
        "sklearn.decomposition.DictionaryLearning",
        "sklearn.feature_extraction.text.CountVectorizer",
        "sklearn.feature_extraction.text.TfidfVectorizer",
        "sklearn.feature_extraction.text.TfidfTransformer",
        "sklearn.feature_extraction.text.HashingVectorizer",
        "sklearn.feature_extraction.DictVectorizer",
        "sklearn.manifold.TSNE",
        "sklearn.manifold.Isomap",
        "sklearn.manifold.LocallyLinearEmbedding",
        "sklearn.manifold.MDS",
        "sklearn.manifold.SpectralEmbedding",
        "sklearn.random_projection.GaussianRandomProjection",
        "sklearn.random_projection.SparseRandomProjection",
        "sklearn.compose.ColumnTransformer",
        "umap.UMAP",
        "tensorflow.keras.preprocessing.text.Tokenizer",
        "keras.preprocessing.text.Tokenizer",
    ] {
        let effect = exact_pure_function(&e, name);
        assert!(effect.has_role(Role::Transformer), "{name}");
        assert!(
            !effect.has_role(Role::Fit),
            "{name}: a constructor fits nothing"
        );
    }
    // a wildcard for a package of transformers
    let encoder = function(&e, "category_encoders.TargetEncoder");
    assert!(encoder.is_pure() && encoder.has_role(Role::Transformer));
    // functions of the same modules are not constructors
    assert!(!function(&e, "sklearn.preprocessing.scale").has_role(Role::Transformer));
    assert!(!function(&e, "sklearn.preprocessing.normalize").has_role(Role::Transformer));
    assert!(!function(&e, "sklearn.preprocessing.label_binarize").has_role(Role::Transformer));
    // stateless transformers say so
    assert!(
        function(&e, "sklearn.feature_extraction.text.HashingVectorizer")
            .note
            .as_deref()
            .is_some_and(|note| note.contains("stateless"))
    );
}

#[test]
fn cross_validate_replaces_evaluate_and_predict() {
    let e = builtin();
    for name in [
        "sklearn.model_selection.cross_val_score",
        "sklearn.model_selection.cross_validate",
        "sklearn.model_selection.cross_val_predict",
        "sklearn.model_selection.learning_curve",
        "sklearn.model_selection.validation_curve",
        "sklearn.model_selection.permutation_test_score",
        "sklearn.cross_validation.cross_val_score",
        "sklearn.cross_validation.cross_val_predict",
        "sklearn.cross_validation.permutation_test_score",
        "sklearn.learning_curve.learning_curve",
        "sklearn.learning_curve.validation_curve",
        "xgboost.cv",
        "lightgbm.cv",
        "catboost.cv",
    ] {
        let effect = exact_pure_function(&e, name);
        assert_eq!(effect.roles, vec![Role::CrossValidate], "{name}");
        assert!(!effect.has_role(Role::Evaluate), "{name}");
        assert!(!effect.has_role(Role::Predict), "{name}");
    }
    for name in [
        "sklearn.model_selection.GridSearchCV",
        "sklearn.model_selection.RandomizedSearchCV",
        "sklearn.model_selection.HalvingGridSearchCV",
        "sklearn.model_selection.HalvingRandomSearchCV",
        "sklearn.grid_search.GridSearchCV",
        "sklearn.grid_search.RandomizedSearchCV",
        "sklearn.linear_model.LogisticRegressionCV",
        "sklearn.linear_model.RidgeCV",
        "sklearn.linear_model.LassoCV",
        "sklearn.linear_model.ElasticNetCV",
        "sklearn.linear_model.LarsCV",
        "sklearn.linear_model.LassoLarsCV",
        "sklearn.linear_model.RidgeClassifierCV",
    ] {
        let effect = exact_pure_function(&e, name);
        assert_eq!(effect.roles, vec![Role::CrossValidate], "{name}");
    }
    let rfecv = function(&e, "sklearn.feature_selection.RFECV");
    assert!(rfecv.has_role(Role::CrossValidate) && rfecv.has_role(Role::Transformer));
    // the metrics keep `evaluate`; the splitters keep `split`
    assert!(!function(&e, "sklearn.metrics.f1_score").has_role(Role::CrossValidate));
    assert!(!function(&e, "sklearn.model_selection.KFold").has_role(Role::CrossValidate));
}

#[test]
fn samplers_and_resampling() {
    let e = builtin();
    for name in [
        "imblearn.over_sampling.SMOTE",
        "imblearn.over_sampling.ADASYN",
        "imblearn.over_sampling.RandomOverSampler",
        "imblearn.over_sampling.BorderlineSMOTE",
        "imblearn.over_sampling.SVMSMOTE",
        "imblearn.under_sampling.RandomUnderSampler",
        "imblearn.under_sampling.NearMiss",
        "imblearn.under_sampling.TomekLinks",
        "imblearn.combine.SMOTEENN",
        "imblearn.combine.SMOTETomek",
        "imblearn.FunctionSampler",
    ] {
        let effect = function(&e, name);
        assert!(effect.is_pure(), "{name}");
        assert_eq!(effect.roles, vec![Role::Sampler], "{name}");
    }
    // models of imblearn.ensemble are not samplers
    assert!(
        function(&e, "imblearn.ensemble.BalancedRandomForestClassifier")
            .roles
            .is_empty()
    );
    let fit_resample = method(&e, "fit_resample");
    assert!(fit_resample.has_role(Role::Resample) && fit_resample.mutates_receiver());
    let resample = function(&e, "sklearn.utils.resample");
    assert!(resample.has_role(Role::Resample) && resample.is_pure());
    assert!(function(&e, "imblearn.datasets.make_imbalance").has_role(Role::Resample));
    // pandas' time resampling is not the ML role
    assert!(method(&e, "resample").roles.is_empty());
    for name in ["flow", "flow_from_directory", "flow_from_dataframe"] {
        let effect = method(&e, name);
        assert!(
            effect.has_role(Role::Resample) && effect.is_pure(),
            "{name}"
        );
    }
    assert!(method(&e, "flow_from_directory").has_role(Role::ReadFile));
}

#[test]
fn pipeline_constructors() {
    let e = builtin();
    for name in [
        "sklearn.pipeline.Pipeline",
        "sklearn.pipeline.make_pipeline",
        "imblearn.pipeline.Pipeline",
        "imblearn.pipeline.make_pipeline",
    ] {
        let effect = exact_pure_function(&e, name);
        assert_eq!(effect.roles, vec![Role::Pipeline], "{name}");
    }
    for name in [
        "sklearn.compose.ColumnTransformer",
        "sklearn.compose.make_column_transformer",
        "sklearn.pipeline.FeatureUnion",
        "sklearn.pipeline.make_union",
    ] {
        let effect = exact_pure_function(&e, name);
        assert!(effect.has_role(Role::Pipeline), "{name}");
        assert!(effect.has_role(Role::Transformer), "{name}");
    }
    assert!(
        function(&e, "sklearn.compose.make_column_selector")
            .roles
            .is_empty()
    );
}

// ---- in-place operations, views, files and random state --------------------------

#[test]
fn inplace_and_always_mutating_methods() {
    let e = builtin();
    for name in [
        "dropna",
        "fillna",
        "drop",
        "rename",
        "reset_index",
        "set_index",
        "sort_values",
        "sort_index",
        "replace",
        "drop_duplicates",
        "interpolate",
        "where",
        "mask",
        "clip",
        "query",
        "eval",
        "set_axis",
        "rename_axis",
        "bfill",
        "ffill",
    ] {
        let effect = method(&e, name);
        assert_eq!(effect.inplace.as_deref(), Some("inplace"), "{name}");
        assert!(!effect.mutates_receiver(), "{name}");
        assert_eq!(effect.returns, Returns::Fresh, "{name}");
    }
    let astype = method(&e, "astype");
    assert!(astype.is_pure() && astype.returns == Returns::Fresh);
    for name in [
        "update",
        "insert",
        "pop",
        "append",
        "extend",
        "clear",
        "sort",
        "shuffle",
        "fill",
        "resize",
        "put",
        "itemset",
        "setflags",
        "setdefault",
        "add",
        "discard",
        "remove",
        "__setitem__",
    ] {
        let effect = method(&e, name);
        assert!(effect.mutates_receiver(), "{name}");
        assert!(effect.inplace.is_none(), "{name}");
    }
    assert!(method(&e, "append").note.is_some());
    assert!(method(&e, "shuffle").mutates.contains(&Target::Arg(0)));
    // pandas' `.at` indexer shares the name of ufunc.at: no method entry
    assert!(e.method("at").is_none());
}

#[test]
fn numpy_in_place_functions_and_views() {
    let e = builtin();
    for name in [
        "numpy.copyto",
        "numpy.put",
        "numpy.place",
        "numpy.putmask",
        "numpy.fill_diagonal",
        "numpy.random.shuffle",
    ] {
        let effect = function(&e, name);
        assert_eq!(effect.mutates, vec![Target::Arg(0)], "{name}");
        assert_eq!(effect.returns, Returns::Nothing, "{name}");
    }
    assert!(function(&e, "numpy.random.shuffle").has_role(Role::GlobalRandom));
    for name in [
        "numpy.reshape",
        "numpy.ravel",
        "numpy.transpose",
        "numpy.swapaxes",
        "numpy.squeeze",
        "numpy.expand_dims",
    ] {
        let effect = function(&e, name);
        assert_eq!(effect.returns, Returns::View, "{name}");
        assert!(effect.is_pure(), "{name}");
    }
    for name in [
        "reshape",
        "ravel",
        "transpose",
        "swapaxes",
        "squeeze",
        "view",
        "to_numpy",
    ] {
        let effect = method(&e, name);
        assert_eq!(effect.returns, Returns::View, "{name}");
        assert!(effect.is_pure(), "{name}");
    }
    assert!(method(&e, "to_numpy").note.is_some());
}

#[test]
fn file_roles() {
    let e = builtin();
    let read = [
        "builtins.open",
        "pandas.read_csv",
        "pandas.read_json",
        "numpy.load",
        "numpy.loadtxt",
        "numpy.genfromtxt",
        "pickle.load",
        "joblib.load",
        "json.load",
    ];
    let write = [
        "numpy.save",
        "numpy.savez",
        "numpy.savetxt",
        "os.makedirs",
        "os.mkdir",
        "shutil.copy",
        "shutil.copyfile",
        "pickle.dump",
        "joblib.dump",
        "json.dump",
        "matplotlib.pyplot.savefig",
    ];
    let delete = ["os.remove", "os.unlink", "os.rmdir", "shutil.rmtree"];
    let write_and_delete = ["os.rename", "os.replace", "shutil.move"];
    for name in read {
        assert!(function(&e, name).has_role(Role::ReadFile), "{name}");
    }
    for name in write {
        assert!(function(&e, name).has_role(Role::WriteFile), "{name}");
    }
    for name in delete {
        assert!(function(&e, name).has_role(Role::DeleteFile), "{name}");
    }
    for name in write_and_delete {
        let effect = function(&e, name);
        assert!(
            effect.has_role(Role::WriteFile) && effect.has_role(Role::DeleteFile),
            "{name}"
        );
    }
    assert!(
        function(&e, "builtins.open")
            .note
            .as_deref()
            .is_some_and(|note| note.contains("mode"))
    );
    for name in ["read_text", "read_bytes"] {
        assert!(method(&e, name).has_role(Role::ReadFile), "{name}");
    }
    for name in [
        "write_text",
        "write_bytes",
        "mkdir",
        "savefig",
        "to_csv",
        "to_excel",
        "to_parquet",
        "to_pickle",
        "to_json",
        "to_feather",
        "to_hdf",
        "to_orc",
    ] {
        assert!(method(&e, name).has_role(Role::WriteFile), "{name}");
    }
    for name in ["to_excel", "to_pickle", "to_feather", "to_hdf", "savefig"] {
        assert_eq!(method(&e, name).returns, Returns::Nothing, "{name}");
    }
    assert!(method(&e, "unlink").has_role(Role::DeleteFile));
    // `rename` follows pandas (df.rename(columns=...)); Path.rename is in the note
    let rename = method(&e, "rename");
    assert!(rename.roles.is_empty());
    assert!(
        rename
            .note
            .as_deref()
            .is_some_and(|note| note.contains("pathlib"))
    );
}

#[test]
fn random_state_roles() {
    let e = builtin();
    for name in [
        "numpy.random.seed",
        "random.seed",
        "tensorflow.random.set_seed",
        "torch.manual_seed",
        "torch.random.manual_seed",
    ] {
        let effect = function(&e, name);
        assert!(effect.has_role(Role::SeedRandom), "{name}");
        assert!(!effect.has_role(Role::GlobalRandom), "{name}");
    }
    for name in [
        "numpy.random.rand",
        "numpy.random.randint",
        "numpy.random.choice",
        "numpy.random.permutation",
        "random.random",
        "random.choice",
        "random.sample",
    ] {
        assert!(function(&e, name).has_role(Role::GlobalRandom), "{name}");
    }
}

#[test]
fn stateless_transformers_are_marked() {
    let effects = Effects::builtin();
    for name in [
        "sklearn.preprocessing.PolynomialFeatures",
        "sklearn.feature_extraction.text.HashingVectorizer",
    ] {
        let effect = effects.function(name).expect("entry");
        assert!(effect.has_role(Role::Transformer) && effect.has_role(Role::Stateless));
    }
    let scaler = effects
        .function("sklearn.preprocessing.StandardScaler")
        .expect("entry");
    assert!(!scaler.has_role(Role::Stateless));
}

#[test]
fn stateful_with_names_the_keywords_that_make_a_stateless_entry_learn() {
    let effects = Effects::builtin();
    let vectorizer = function(&effects, "sklearn.feature_extraction.text.CountVectorizer");
    assert!(vectorizer.has_role(Role::Stateless));
    assert_eq!(
        vectorizer.stateful_with,
        ["min_df", "max_df", "max_features"]
    );
    let encoder = function(&effects, "sklearn.preprocessing.OneHotEncoder");
    assert_eq!(encoder.stateful_with, ["min_frequency", "max_categories"]);
    assert!(
        function(&effects, "sklearn.preprocessing.StandardScaler")
            .stateful_with
            .is_empty()
    );

    let mut user = Effects::empty();
    let ok = "[functions]\n\"m.Vec\" = { roles = [\"transformer\", \"stateless\"], stateful_with = [\"min_count\"] }\n";
    user.merge_toml(ok, "ok.toml").expect("valid");
    let without_stateless =
        "[functions]\n\"m.Vec\" = { roles = [\"transformer\"], stateful_with = [\"min_count\"] }\n";
    let error = Effects::empty()
        .merge_toml(without_stateless, "bad.toml")
        .expect_err("stateful_with needs stateless");
    assert!(
        error.to_string().contains("needs the `stateless` role"),
        "{error}"
    );
    let not_a_keyword = "[functions]\n\"m.Vec\" = { roles = [\"transformer\", \"stateless\"], stateful_with = [\"min-count\"] }\n";
    let error = Effects::empty()
        .merge_toml(not_a_keyword, "bad.toml")
        .expect_err("not an identifier");
    assert!(error.to_string().contains("Python identifiers"), "{error}");
}

/// Another library's class named like a stateless transformer of the
/// knowledge base is taken for what it is; the library's other classes keep
/// its wildcard entry.
#[test]
fn stateless_classes_by_name() {
    let effects = Effects::shared_builtin();
    let onehot = effects
        .function("category_encoders.OneHotEncoder")
        .expect("an entry");
    assert!(onehot.has_role(Role::Stateless) && onehot.has_role(Role::Transformer));
    let target = effects
        .function("category_encoders.TargetEncoder")
        .expect("the wildcard entry");
    assert!(target.has_role(Role::Transformer) && !target.has_role(Role::Stateless));
    assert!(effects.function("mylib.StandardScaler").is_none());
    // Other libraries' classes of these names can learn from the rows.
    let ordinal = effects.function("feature_engine.encoding.OrdinalEncoder");
    assert!(ordinal.is_none_or(|e| !e.has_role(Role::Stateless)));
}
