//! State outside the notebook's variables that a cell may change for the
//! cells after it: library configuration (`pd.set_option`, `plt.style.use`,
//! `sns.set()`, `warnings.filterwarnings`), global random seeds
//! (`np.random.seed`), the interpreter's environment (`sys.path.append`,
//! `os.chdir`), imports made for what importing does (`from mpl_toolkits
//! import mplot3d` registers the 3d projection) and magics that configure
//! the kernel (`%matplotlib inline`). A cell doing one of these is linked to
//! the cells that rely on it even when no variable says so.

/// Functions of a module (after the last `.`) whose call changes library or
/// interpreter state, whatever module they belong to.
const CONFIGURING_FUNCTIONS: &[&str] = &[
    "basicConfig",
    "chdir",
    "clear_session",
    "download",
    "extension",
    "filterwarnings",
    "go_offline",
    "init",
    "init_notebook_mode",
    "initialize",
    "ioff",
    "ion",
    "manual_seed",
    "manual_seed_all",
    "output_notebook",
    "putenv",
    "rc",
    "rcdefaults",
    "register_matplotlib_converters",
    "reset_default_graph",
    "resetwarnings",
    "seed",
    "set",
    "setlocale",
    "setrecursionlimit",
    "simplefilter",
    "switch_backend",
    "xkcd",
];

/// Prefixes of such functions (`pd.set_option`, `np.set_printoptions`,
/// `sns.set_style`, `tf.compat.v1.disable_eager_execution`).
const CONFIGURING_PREFIXES: &[&str] = &["set_", "reset_", "enable_", "disable_"];

/// Module attributes that are global mutable state: a method changing them
/// in place (`sys.path.append`, `plt.rcParams.update`) changes it.
const GLOBAL_OBJECTS: &[&str] = &["sys.path", "sys.modules", "os.environ", "rcParams"];

/// Methods that change a container in place.
const CHANGING_METHODS: &[&str] = &[
    "append",
    "clear",
    "extend",
    "insert",
    "pop",
    "remove",
    "setdefault",
    "update",
];

/// Modules imported for what importing them does: registering a plot
/// projection, pandas accessors or an experimental estimator, setting a
/// style (seaborn before 0.8).
const EFFECT_IMPORTS: &[&str] = &[
    "cufflinks",
    "hvplot",
    "janitor",
    "mpl_toolkits.mplot3d",
    "pandas_profiling",
    "seaborn",
    "sklearn.experimental",
    "swifter",
    "ydata_profiling",
];

/// Line magics that configure the kernel for the cells after them.
const CONFIGURING_MAGICS: &[&str] = &[
    "%aimport",
    "%alias",
    "%autoreload",
    "%cd",
    "%conda",
    "%config",
    "%env",
    "%load_ext",
    "%matplotlib",
    "%pip",
    "%popd",
    "%precision",
    "%pushd",
    "%pylab",
    "%reload_ext",
    "%xmode",
];

/// A call of the library function `qualified` (`pandas.set_option`,
/// `matplotlib.pyplot.style.use`, `sys.path.append`) changes library or
/// interpreter state later cells rely on.
pub fn changes_global_state(qualified: &str) -> bool {
    let Some((module, name)) = qualified.rsplit_once('.') else {
        return false;
    };
    if module == "builtins" {
        return false;
    }
    if qualified == "tqdm.pandas" || qualified.starts_with("tqdm.") && name == "pandas" {
        return true;
    }
    if name == "use" {
        // `matplotlib.use(backend)`, `plt.style.use(name)`.
        return module == "matplotlib" || module.ends_with(".style") || module == "style";
    }
    if CHANGING_METHODS.contains(&name) {
        return GLOBAL_OBJECTS.iter().any(|g| {
            module
                .strip_suffix(g)
                .is_some_and(|m| m.is_empty() || m.ends_with('.'))
        });
    }
    CONFIGURING_FUNCTIONS.contains(&name)
        || CONFIGURING_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Importing `qualified` (a module or an object of one, as an import binds
/// it) is done for its effect rather than for the name it binds.
pub fn imported_for_effect(qualified: &str) -> bool {
    EFFECT_IMPORTS.iter().any(|m| {
        qualified == *m
            || (qualified.starts_with(m)
                && qualified.as_bytes().get(m.len()) == Some(&b'.')
                && *m != "seaborn")
    })
}

/// The magic `magic` (`%matplotlib`, with its `%`) configures the kernel.
pub fn magic_changes_global_state(magic: &str) -> bool {
    CONFIGURING_MAGICS.contains(&magic)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configuration_calls_are_seen() {
        for q in [
            "pandas.set_option",
            "numpy.random.seed",
            "seaborn.set",
            "seaborn.set_style",
            "matplotlib.pyplot.style.use",
            "matplotlib.use",
            "matplotlib.rc",
            "warnings.filterwarnings",
            "warnings.simplefilter",
            "sys.path.append",
            "os.environ.update",
            "matplotlib.pyplot.rcParams.update",
            "torch.manual_seed",
            "tensorflow.random.set_seed",
            "plotly.offline.init_notebook_mode",
            "tqdm.auto.tqdm.pandas",
            "nltk.download",
        ] {
            assert!(changes_global_state(q), "{q}");
        }
        for q in [
            "numpy.append",
            "numpy.insert",
            "pandas.read_csv",
            "numpy.setdiff1d",
            "builtins.set",
            "collections.OrderedDict.update",
            "pandas.DataFrame",
            "seaborn.use",
        ] {
            assert!(!changes_global_state(q), "{q}");
        }
    }

    #[test]
    fn effect_imports_are_seen() {
        assert!(imported_for_effect("mpl_toolkits.mplot3d"));
        assert!(imported_for_effect("mpl_toolkits.mplot3d.Axes3D"));
        assert!(imported_for_effect("seaborn"));
        assert!(imported_for_effect(
            "sklearn.experimental.enable_iterative_imputer"
        ));
        assert!(!imported_for_effect("seaborn.load_dataset"));
        assert!(!imported_for_effect("mpl_toolkits.axes_grid1"));
        assert!(!imported_for_effect("seabornx"));
        assert!(magic_changes_global_state("%matplotlib"));
        assert!(!magic_changes_global_state("%time"));
    }
}
