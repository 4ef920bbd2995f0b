//! Optional LLM resolution of the ambiguities nbsight's flow analysis leaves open.
//!
//! The static analysis gives every cell a lower and an upper estimate of its inputs
//! and outputs; each difference is a [`Question`] ("is `df` an input of cell 7?").
//! A [`Resolver`] asks an OpenAI-compatible chat-completions endpoint one question per
//! ambiguity, at temperature 0, with a bounded number of requests in flight, and
//! parses the reply strictly ([`parse_answer`]: the last line must be `Answer: Yes`
//! or `Answer: No`). Answers are cached on disk by model and prompt hash, so a re-run
//! sends nothing. Every failure (unreachable endpoint, timeout, HTTP error, wrong
//! JSON, unparseable reply) is a [`Resolution::Failed`] with a one-line message, and
//! the caller keeps its deterministic result.
//!
//! Nothing is sent anywhere unless an endpoint is configured explicitly
//! ([`LlmConfig::from_env_and_flags`] fails without one).
//!
//! This is a leaf crate: only the CLI depends on it.
//!
//! Invariants: in ARCHITECTURE.md (section `nbsight-llm`), the one place
//! they are written; each names the test that holds it, where one does.

mod answer;
mod cache;
mod client;
mod config;
mod excerpt;
mod prompt;
mod question;
mod resolver;

pub use answer::{ParseError, parse_answer};
pub use cache::{Cache, CachedAnswer, cache_key};
pub use client::{ChatClient, RequestError};
pub use config::{
    ConfigError, DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT, ENV_API_KEY, ENV_ENDPOINT, ENV_MODEL,
    ENV_OPENAI_API_KEY, ENV_OPENAI_BASE_URL, LlmConfig, default_cache_dir,
};
pub use prompt::{SYSTEM_PROMPT, prompt};
pub use question::{Question, QuestionKind};
pub use resolver::{Resolution, Resolver};
