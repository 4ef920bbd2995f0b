//! Where and how to ask: endpoint, model, key, concurrency, timeout and cache
//! directory, from command-line flags and the environment (flags win).

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use thiserror::Error;

/// Requests in flight at once unless configured otherwise.
pub const DEFAULT_CONCURRENCY: usize = 4;
/// How long one request may take unless configured otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Environment variable naming the endpoint's base URL.
pub const ENV_ENDPOINT: &str = "NBSIGHT_LLM_ENDPOINT";
/// Environment variable naming the model.
pub const ENV_MODEL: &str = "NBSIGHT_LLM_MODEL";
/// Environment variable holding the API key.
pub const ENV_API_KEY: &str = "NBSIGHT_LLM_API_KEY";
/// Fallback for the endpoint, as OpenAI's clients read it.
pub const ENV_OPENAI_BASE_URL: &str = "OPENAI_BASE_URL";
/// Fallback for the API key, as OpenAI's clients read it.
pub const ENV_OPENAI_API_KEY: &str = "OPENAI_API_KEY";

/// How to reach an OpenAI-compatible chat-completions endpoint, and where to cache.
#[derive(Clone, PartialEq, Eq)]
pub struct LlmConfig {
    /// Base URL, e.g. `https://api.openai.com/v1`; requests go to
    /// `{endpoint}/chat/completions`.
    pub endpoint: String,
    pub model: String,
    /// Sent as `Authorization: Bearer KEY` when set.
    pub api_key: Option<String>,
    /// Requests in flight at once (0 is taken as 1).
    pub concurrency: usize,
    /// Time allowed for one request, connection to last byte of the response.
    pub timeout: Duration,
    /// Where answers are cached; `None` turns the cache off.
    pub cache_dir: Option<PathBuf>,
}

/// The configuration is incomplete or malformed; nothing was sent.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConfigError {
    #[error(
        "no LLM endpoint configured: give one on the command line or set {ENV_ENDPOINT} \
         (or {ENV_OPENAI_BASE_URL}); nothing is sent anywhere without it"
    )]
    MissingEndpoint,
    #[error("no LLM model configured: give one on the command line or set {ENV_MODEL}")]
    MissingModel,
    #[error("LLM endpoint `{0}` is not an http:// or https:// URL")]
    BadEndpoint(String),
}

impl LlmConfig {
    /// A configuration with the defaults: no key, [`DEFAULT_CONCURRENCY`],
    /// [`DEFAULT_TIMEOUT`], no cache. The endpoint is normalised as in
    /// [`LlmConfig::from_env_and_flags`].
    pub fn new(endpoint: &str, model: &str) -> Result<Self, ConfigError> {
        let model = model.trim();
        if model.is_empty() {
            return Err(ConfigError::MissingModel);
        }
        Ok(LlmConfig {
            endpoint: normalize_endpoint(endpoint)?,
            model: model.to_owned(),
            api_key: None,
            concurrency: DEFAULT_CONCURRENCY,
            timeout: DEFAULT_TIMEOUT,
            cache_dir: None,
        })
    }

    /// The configuration from flags (`None` when not given) and the process
    /// environment: [`ENV_ENDPOINT`] (else [`ENV_OPENAI_BASE_URL`]), [`ENV_MODEL`],
    /// [`ENV_API_KEY`] (else [`ENV_OPENAI_API_KEY`]). A flag wins over the
    /// environment; empty values count as unset. The cache goes to
    /// [`default_cache_dir`].
    pub fn from_env_and_flags(
        endpoint: Option<String>,
        model: Option<String>,
        key: Option<String>,
    ) -> Result<Self, ConfigError> {
        Self::from_lookup(endpoint, model, key, |name| std::env::var(name).ok())
    }

    /// [`LlmConfig::from_env_and_flags`] with the environment read through `env`.
    pub fn from_lookup(
        endpoint: Option<String>,
        model: Option<String>,
        key: Option<String>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        let pick = |flag: Option<String>, names: &[&str]| {
            non_empty(flag).or_else(|| names.iter().find_map(|name| non_empty(env(name))))
        };
        let endpoint = pick(endpoint, &[ENV_ENDPOINT, ENV_OPENAI_BASE_URL])
            .ok_or(ConfigError::MissingEndpoint)?;
        let model = pick(model, &[ENV_MODEL]).ok_or(ConfigError::MissingModel)?;
        let api_key = pick(key, &[ENV_API_KEY, ENV_OPENAI_API_KEY]);
        Ok(LlmConfig {
            api_key,
            cache_dir: default_cache_dir(&env),
            ..LlmConfig::new(&endpoint, &model)?
        })
    }

    /// The URL requests are posted to: `{endpoint}/chat/completions`.
    pub fn chat_completions_url(&self) -> String {
        format!("{}/chat/completions", self.endpoint)
    }
}

/// The key is never printed.
impl fmt::Debug for LlmConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LlmConfig")
            .field("endpoint", &self.endpoint)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("concurrency", &self.concurrency)
            .field("timeout", &self.timeout)
            .field("cache_dir", &self.cache_dir)
            .finish()
    }
}

/// `$XDG_CACHE_HOME/nbsight/llm`, else `$HOME/.cache/nbsight/llm` (`%USERPROFILE%`
/// where there is no `HOME`); `None` when neither is known. Relative
/// `XDG_CACHE_HOME` values are ignored, as the XDG specification asks.
pub fn default_cache_dir(env: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let xdg = non_empty(env("XDG_CACHE_HOME"))
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    let base = xdg.or_else(|| {
        non_empty(env("HOME"))
            .or_else(|| non_empty(env("USERPROFILE")))
            .map(|home| PathBuf::from(home).join(".cache"))
    })?;
    Some(base.join("nbsight").join("llm"))
}

fn non_empty(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

/// Checks the scheme and drops trailing slashes, and a trailing
/// `/chat/completions` for users who give the full URL.
fn normalize_endpoint(endpoint: &str) -> Result<String, ConfigError> {
    let trimmed = endpoint.trim();
    let lower = trimmed.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("http://")
        .or_else(|| lower.strip_prefix("https://"))
        .ok_or_else(|| ConfigError::BadEndpoint(trimmed.to_owned()))?;
    if rest.trim_start_matches('/').is_empty() {
        return Err(ConfigError::BadEndpoint(trimmed.to_owned()));
    }
    let base = trimmed.trim_end_matches('/');
    let base = base.strip_suffix("/chat/completions").unwrap_or(base);
    Ok(base.trim_end_matches('/').to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| map.get(name).cloned()
    }

    fn some(s: &str) -> Option<String> {
        Some(s.to_owned())
    }

    #[test]
    fn flags_win_over_environment() {
        let e = env(&[
            (ENV_ENDPOINT, "http://env/v1"),
            (ENV_MODEL, "env-model"),
            (ENV_API_KEY, "env-key"),
        ]);
        let c = LlmConfig::from_lookup(
            some("http://flag/v1"),
            some("flag-model"),
            some("flag-key"),
            e,
        )
        .unwrap();
        assert_eq!(c.endpoint, "http://flag/v1");
        assert_eq!(c.model, "flag-model");
        assert_eq!(c.api_key.as_deref(), Some("flag-key"));
    }

    #[test]
    fn environment_fills_missing_flags() {
        let e = env(&[
            (ENV_ENDPOINT, "http://env/v1"),
            (ENV_MODEL, "env-model"),
            (ENV_API_KEY, "env-key"),
        ]);
        let c = LlmConfig::from_lookup(None, None, None, e).unwrap();
        assert_eq!(c.endpoint, "http://env/v1");
        assert_eq!(c.model, "env-model");
        assert_eq!(c.api_key.as_deref(), Some("env-key"));
        assert_eq!(c.concurrency, DEFAULT_CONCURRENCY);
        assert_eq!(c.timeout, DEFAULT_TIMEOUT);
    }

    #[test]
    fn nbsight_variables_win_over_openai_ones() {
        let e = env(&[
            (ENV_ENDPOINT, "http://nbsight/v1"),
            (ENV_OPENAI_BASE_URL, "http://openai/v1"),
            (ENV_MODEL, "m"),
            (ENV_API_KEY, "nbsight-key"),
            (ENV_OPENAI_API_KEY, "openai-key"),
        ]);
        let c = LlmConfig::from_lookup(None, None, None, e).unwrap();
        assert_eq!(c.endpoint, "http://nbsight/v1");
        assert_eq!(c.api_key.as_deref(), Some("nbsight-key"));
    }

    #[test]
    fn openai_variables_are_the_fallback() {
        let e = env(&[
            (ENV_OPENAI_BASE_URL, "https://api.example/v1/"),
            (ENV_MODEL, "m"),
            (ENV_OPENAI_API_KEY, "openai-key"),
        ]);
        let c = LlmConfig::from_lookup(None, None, None, e).unwrap();
        assert_eq!(c.endpoint, "https://api.example/v1");
        assert_eq!(c.api_key.as_deref(), Some("openai-key"));
    }

    #[test]
    fn missing_endpoint_or_model_is_an_error() {
        let e = env(&[(ENV_MODEL, "m"), (ENV_OPENAI_API_KEY, "k")]);
        let err = LlmConfig::from_lookup(None, None, None, e).unwrap_err();
        assert_eq!(err, ConfigError::MissingEndpoint);
        assert!(err.to_string().contains(ENV_ENDPOINT));
        assert!(err.to_string().contains("nothing is sent"));

        let e = env(&[(ENV_ENDPOINT, "http://h/v1")]);
        let err = LlmConfig::from_lookup(None, None, None, e).unwrap_err();
        assert_eq!(err, ConfigError::MissingModel);
        assert!(err.to_string().contains(ENV_MODEL));
    }

    #[test]
    fn empty_values_count_as_unset() {
        let e = env(&[
            (ENV_ENDPOINT, ""),
            (ENV_OPENAI_BASE_URL, "http://fallback/v1"),
            (ENV_MODEL, "m"),
            (ENV_API_KEY, " "),
        ]);
        let c = LlmConfig::from_lookup(some(""), None, some(""), e).unwrap();
        assert_eq!(c.endpoint, "http://fallback/v1");
        assert_eq!(c.api_key, None);
    }

    #[test]
    fn no_key_is_fine() {
        let c = LlmConfig::from_lookup(some("http://h/v1"), some("m"), None, env(&[])).unwrap();
        assert_eq!(c.api_key, None);
    }

    #[test]
    fn endpoint_is_checked_and_normalised() {
        let url = |e: &str| LlmConfig::new(e, "m").map(|c| c.chat_completions_url());
        assert_eq!(
            url("http://h:8080/v1"),
            Ok("http://h:8080/v1/chat/completions".into())
        );
        assert_eq!(
            url("https://h/v1//"),
            Ok("https://h/v1/chat/completions".into())
        );
        assert_eq!(
            url("https://h/v1/chat/completions/"),
            Ok("https://h/v1/chat/completions".into())
        );
        assert_eq!(url("HTTP://h"), Ok("HTTP://h/chat/completions".into()));
        for bad in ["h/v1", "ftp://h", "http://", "https:///", ""] {
            assert!(
                matches!(url(bad), Err(ConfigError::BadEndpoint(_))),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn default_cache_dir_follows_xdg_then_home() {
        let p = |pairs: &[(&str, &str)]| default_cache_dir(env(pairs));
        assert_eq!(
            p(&[("XDG_CACHE_HOME", "/xdg"), ("HOME", "/home/u")]),
            Some(PathBuf::from("/xdg/nbsight/llm"))
        );
        assert_eq!(
            p(&[("XDG_CACHE_HOME", "relative"), ("HOME", "/home/u")]),
            Some(PathBuf::from("/home/u/.cache/nbsight/llm"))
        );
        assert_eq!(
            p(&[("HOME", "/home/u")]),
            Some(PathBuf::from("/home/u/.cache/nbsight/llm"))
        );
        assert_eq!(p(&[]), None);
    }

    #[test]
    fn from_lookup_uses_the_default_cache_dir() {
        let e = env(&[(ENV_MODEL, "m"), ("XDG_CACHE_HOME", "/xdg")]);
        let c = LlmConfig::from_lookup(some("http://h"), None, None, e).unwrap();
        assert_eq!(c.cache_dir, Some(PathBuf::from("/xdg/nbsight/llm")));
    }

    #[test]
    fn debug_hides_the_key() {
        let mut c = LlmConfig::new("http://h", "m").unwrap();
        c.api_key = Some("sk-secret".into());
        let shown = format!("{c:?}");
        assert!(!shown.contains("sk-secret"));
        assert!(shown.contains("<redacted>"));
    }
}
