//! The HTTP client: one blocking chat-completions request per call, with every
//! failure turned into a one-line [`RequestError`].

use std::io;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::config::LlmConfig;
use crate::excerpt::excerpt;

/// How much of an unexpected response body an error message quotes.
const QUOTED_CHARS: usize = 200;

/// A request that brought no reply text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RequestError {
    /// The endpoint could not be reached at all (refused, unknown host, TLS...).
    #[error("cannot reach the LLM endpoint {url}: {detail}")]
    Unreachable { url: String, detail: String },
    #[error("no reply from the LLM endpoint {url} within {}", seconds(*.timeout))]
    Timeout { url: String, timeout: Duration },
    #[error("the LLM endpoint {url} answered HTTP {status}: {body}")]
    Status {
        url: String,
        status: u16,
        /// An excerpt of the response body.
        body: String,
    },
    /// The response is not chat-completions JSON with `choices[0].message.content`.
    #[error("unexpected reply from the LLM endpoint {url}: {detail}")]
    Shape { url: String, detail: String },
    #[error("request to the LLM endpoint {url} failed: {detail}")]
    Other { url: String, detail: String },
}

impl RequestError {
    /// Whether every later request to the same endpoint would fail the same way: it
    /// cannot be reached, or it refuses the key, the path or the model.
    pub fn is_systematic(&self) -> bool {
        match self {
            RequestError::Unreachable { .. } => true,
            RequestError::Status { status, .. } => matches!(status, 401 | 403 | 404),
            _ => false,
        }
    }
}

/// The key is never printed.
impl std::fmt::Debug for ChatClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChatClient")
            .field("url", &self.url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

#[derive(Serialize)]
struct ChatRequest<'a> {
    model: &'a str,
    messages: [Message<'a>; 2],
    temperature: u8,
}

#[derive(Serialize)]
struct Message<'a> {
    role: &'a str,
    content: &'a str,
}

#[derive(Deserialize)]
struct ChatResponse {
    choices: Vec<Choice>,
}

#[derive(Deserialize)]
struct Choice {
    message: ReplyMessage,
}

#[derive(Deserialize)]
struct ReplyMessage {
    content: Option<String>,
}

/// A blocking client for `{endpoint}/chat/completions`; shareable between threads.
/// Proxies named by the usual environment variables (`HTTPS_PROXY`, `ALL_PROXY`,
/// `NO_PROXY`...) are honoured.
pub struct ChatClient {
    agent: ureq::Agent,
    url: String,
    model: String,
    api_key: Option<String>,
    timeout: Duration,
}

impl ChatClient {
    pub fn new(config: &LlmConfig) -> Self {
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(config.timeout))
            .http_status_as_error(false)
            .user_agent(concat!("nbsight/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        ChatClient {
            agent,
            url: config.chat_completions_url(),
            model: config.model.clone(),
            api_key: config.api_key.clone(),
            timeout: config.timeout,
        }
    }

    /// The URL requests go to.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Sends the two messages at temperature 0 and returns `choices[0].message.content`.
    pub fn complete(&self, system: &str, user: &str) -> Result<String, RequestError> {
        let body = ChatRequest {
            model: &self.model,
            messages: [
                Message {
                    role: "system",
                    content: system,
                },
                Message {
                    role: "user",
                    content: user,
                },
            ],
            temperature: 0,
        };
        let body = serde_json::to_string(&body).map_err(|e| self.other(e))?;
        let mut request = self
            .agent
            .post(&self.url)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json");
        if let Some(key) = &self.api_key {
            request = request.header("Authorization", format!("Bearer {key}"));
        }
        let mut response = request.send(body).map_err(|e| self.classify(e))?;
        let status = response.status().as_u16();
        let text = response
            .body_mut()
            .read_to_string()
            .map_err(|e| self.classify(e))?;
        if status != 200 {
            return Err(RequestError::Status {
                url: self.url.clone(),
                status,
                body: excerpt(&text, QUOTED_CHARS),
            });
        }
        self.content(&text)
    }

    /// `choices[0].message.content` of a response body.
    fn content(&self, text: &str) -> Result<String, RequestError> {
        let shape = |detail: String| RequestError::Shape {
            url: self.url.clone(),
            detail,
        };
        let response: ChatResponse = serde_json::from_str(text).map_err(|e| {
            shape(format!(
                "not chat-completions JSON ({e}): {}",
                excerpt(text, QUOTED_CHARS)
            ))
        })?;
        let choice = response
            .choices
            .into_iter()
            .next()
            .ok_or_else(|| shape("no choices in the reply".to_owned()))?;
        choice
            .message
            .content
            .ok_or_else(|| shape("choices[0].message.content is missing".to_owned()))
    }

    fn classify(&self, error: ureq::Error) -> RequestError {
        let url = self.url.clone();
        let unreachable = |detail: String| RequestError::Unreachable {
            url: self.url.clone(),
            detail,
        };
        match error {
            ureq::Error::Timeout(ureq::Timeout::Resolve | ureq::Timeout::Connect) => unreachable(
                format!("timed out connecting after {}", seconds(self.timeout)),
            ),
            ureq::Error::Timeout(_) => RequestError::Timeout {
                url,
                timeout: self.timeout,
            },
            ureq::Error::HostNotFound => unreachable("host not found".to_owned()),
            ureq::Error::ConnectionFailed => unreachable("connection failed".to_owned()),
            ureq::Error::Io(e) => match e.kind() {
                io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => RequestError::Timeout {
                    url,
                    timeout: self.timeout,
                },
                io::ErrorKind::ConnectionRefused => unreachable("connection refused".to_owned()),
                io::ErrorKind::NotFound
                | io::ErrorKind::HostUnreachable
                | io::ErrorKind::NetworkUnreachable
                | io::ErrorKind::AddrNotAvailable => unreachable(e.to_string()),
                _ => RequestError::Other {
                    url,
                    detail: one_line(&e.to_string()),
                },
            },
            e @ (ureq::Error::Tls(_)
            | ureq::Error::Rustls(_)
            | ureq::Error::TlsRequired
            | ureq::Error::ConnectProxyFailed(_)) => unreachable(one_line(&e.to_string())),
            e => RequestError::Other {
                url,
                detail: one_line(&e.to_string()),
            },
        }
    }

    fn other(&self, error: impl std::fmt::Display) -> RequestError {
        RequestError::Other {
            url: self.url.clone(),
            detail: one_line(&error.to_string()),
        }
    }
}

fn one_line(s: &str) -> String {
    excerpt(s, QUOTED_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client() -> ChatClient {
        ChatClient::new(&LlmConfig::new("http://127.0.0.1:9/v1", "m").unwrap())
    }

    #[test]
    fn content_is_read_from_the_first_choice() {
        let c = client();
        let body = r#"{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"Answer: Yes"}},{"message":{"content":"Answer: No"}}]}"#;
        assert_eq!(c.content(body), Ok("Answer: Yes".to_owned()));
    }

    #[test]
    fn wrong_shapes_are_errors() {
        let c = client();
        for (body, needle) in [
            ("<html>oops</html>", "not chat-completions JSON"),
            (r#"{"choices":[]}"#, "no choices"),
            (
                r#"{"choices":[{"message":{"content":null}}]}"#,
                "content is missing",
            ),
            (
                r#"{"error":{"message":"bad"}}"#,
                "not chat-completions JSON",
            ),
        ] {
            let err = c.content(body).unwrap_err();
            assert!(matches!(err, RequestError::Shape { .. }), "{body}");
            assert!(err.to_string().contains(needle), "{err}");
        }
    }

    #[test]
    fn debug_hides_the_key() {
        let mut config = LlmConfig::new("http://127.0.0.1:9/v1", "m").unwrap();
        config.api_key = Some("sk-secret".into());
        let shown = format!("{:?}", ChatClient::new(&config));
        assert!(!shown.contains("sk-secret"), "{shown}");
    }

    #[test]
    fn timeout_message_gives_seconds() {
        let err = RequestError::Timeout {
            url: "http://h/chat/completions".into(),
            timeout: Duration::from_millis(200),
        };
        assert_eq!(
            err.to_string(),
            "no reply from the LLM endpoint http://h/chat/completions within 0.2 s"
        );
    }
}
