//! The resolver against a local server that speaks chat-completions.

#![allow(clippy::print_stdout, clippy::print_stderr)] // a test says what it compared or skipped

mod support;

use std::net::TcpListener;
use std::time::Duration;

use nbsight_llm::{LlmConfig, Question, QuestionKind, Resolution, Resolver, cache_key};
use support::{Reply, Server};

fn question(kind: QuestionKind, symbol: &str) -> Question {
    Question {
        kind,
        symbol: symbol.into(),
        cell_source: format!("print({symbol})\n"),
        context: None,
        cell_label: "cell 2".into(),
    }
}

fn input(symbol: &str) -> Question {
    question(QuestionKind::Input, symbol)
}

/// `yes_*` symbols are answered Yes, the others No.
fn yes_no(request: &support::Recorded) -> Reply {
    let user = request.message("user").unwrap_or_default();
    if user.contains("Question: is `yes_") {
        Reply::Content("It reads the value first.\nAnswer: Yes".into())
    } else {
        Reply::Content("It assigns before reading.\nAnswer: No.".into())
    }
}

fn config(server_endpoint: &str, cache: Option<&std::path::Path>) -> LlmConfig {
    let mut c = LlmConfig::new(server_endpoint, "test-model").unwrap();
    c.cache_dir = cache.map(|p| p.to_path_buf());
    c
}

fn resolve(config: LlmConfig, questions: &[Question]) -> Vec<Resolution> {
    Resolver::new(config).unwrap().resolve(questions)
}

fn failure(r: &Resolution) -> &str {
    match r {
        Resolution::Failed { error } => {
            eprintln!("failure: {error}");
            error
        }
        other => panic!("expected a failure, got {other:?}"),
    }
}

fn fresh(answer: bool) -> Resolution {
    Resolution::Answered {
        answer,
        cached: false,
    }
}

#[test]
fn yes_and_no_answers_are_parsed() {
    let server = Server::start(yes_no);
    let got = resolve(
        config(&server.endpoint(), None),
        &[
            input("yes_df"),
            question(QuestionKind::OutputCandidate, "no_df"),
        ],
    );
    assert_eq!(got, [fresh(true), fresh(false)]);
    assert_eq!(server.request_count(), 2);
}

#[test]
fn request_carries_model_temperature_and_prompt() {
    let server = Server::start(yes_no);
    let q = Question {
        kind: QuestionKind::Input,
        symbol: "frame".into(),
        cell_source: "frame.dropna(inplace=True)\n".into(),
        context: Some("frame = raw\n".into()),
        cell_label: "cell 7".into(),
    };
    resolve(config(&server.endpoint(), None), &[q]);
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let r = &requests[0];
    assert_eq!(r.method, "POST");
    assert_eq!(r.path, "/v1/chat/completions");
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.body["model"], "test-model");
    assert_eq!(r.body["temperature"].as_f64(), Some(0.0));
    let roles: Vec<_> = r.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["system", "user"]);
    assert!(r.message("system").unwrap().contains("`Answer: Yes`"));
    let user = r.message("user").unwrap();
    assert!(user.contains("`frame`"), "{user}");
    assert!(user.contains("frame.dropna(inplace=True)"), "{user}");
    assert!(user.contains("frame = raw"), "{user}");
    assert!(user.contains("cell 7"), "{user}");
    assert!(user.contains("an input of cell 7"), "{user}");
}

#[test]
fn authorization_header_only_with_a_key() {
    let server = Server::start(yes_no);
    resolve(config(&server.endpoint(), None), &[input("a")]);
    let mut keyed = config(&server.endpoint(), None);
    keyed.api_key = Some("sk-test".into());
    resolve(keyed, &[input("b")]);
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let by_symbol = |s: &str| {
        requests
            .iter()
            .find(|r| r.message("user").unwrap().contains(&format!("`{s}`")))
            .unwrap()
    };
    assert_eq!(by_symbol("a").header("authorization"), None);
    assert_eq!(
        by_symbol("b").header("authorization"),
        Some("Bearer sk-test")
    );
}

#[test]
fn second_run_is_served_from_the_cache() {
    let server = Server::start(yes_no);
    let dir = tempfile::tempdir().unwrap();
    let questions = [input("yes_a"), input("no_b"), input("yes_c")];
    let first = resolve(config(&server.endpoint(), Some(dir.path())), &questions);
    assert_eq!(first, [fresh(true), fresh(false), fresh(true)]);
    assert_eq!(server.request_count(), 3);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);

    let second = resolve(config(&server.endpoint(), Some(dir.path())), &questions);
    let cached = |answer| Resolution::Answered {
        answer,
        cached: true,
    };
    assert_eq!(second, [cached(true), cached(false), cached(true)]);
    assert_eq!(server.request_count(), 3, "no new request");
}

#[test]
fn cache_is_keyed_by_model() {
    let server = Server::start(yes_no);
    let dir = tempfile::tempdir().unwrap();
    resolve(
        config(&server.endpoint(), Some(dir.path())),
        &[input("yes_a")],
    );
    let mut other = config(&server.endpoint(), Some(dir.path()));
    other.model = "other-model".into();
    assert_eq!(resolve(other, &[input("yes_a")]), [fresh(true)]);
    assert_eq!(server.request_count(), 2);
}

#[test]
fn cache_file_holds_raw_text_and_answer() {
    let server = Server::start(yes_no);
    let dir = tempfile::tempdir().unwrap();
    let q = input("yes_a");
    resolve(
        config(&server.endpoint(), Some(dir.path())),
        std::slice::from_ref(&q),
    );
    let key = cache_key(
        "test-model",
        nbsight_llm::SYSTEM_PROMPT,
        &nbsight_llm::prompt(&q),
    );
    let text = std::fs::read_to_string(dir.path().join(format!("{key}.json"))).unwrap();
    let entry: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(entry["answer"], true);
    assert_eq!(entry["model"], "test-model");
    assert_eq!(entry["raw"], "It reads the value first.\nAnswer: Yes");
}

#[test]
fn corrupt_cache_file_is_ignored_and_overwritten() {
    let server = Server::start(yes_no);
    let dir = tempfile::tempdir().unwrap();
    let q = input("yes_a");
    let key = cache_key(
        "test-model",
        nbsight_llm::SYSTEM_PROMPT,
        &nbsight_llm::prompt(&q),
    );
    let path = dir.path().join(format!("{key}.json"));
    std::fs::write(&path, "{ truncated").unwrap();
    let c = || config(&server.endpoint(), Some(dir.path()));
    assert_eq!(resolve(c(), std::slice::from_ref(&q)), [fresh(true)]);
    assert_eq!(server.request_count(), 1);
    let entry: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(entry["answer"], true);
    assert_eq!(
        resolve(c(), &[q]),
        [Resolution::Answered {
            answer: true,
            cached: true
        }]
    );
    assert_eq!(server.request_count(), 1);
}

#[test]
fn identical_questions_are_asked_once() {
    let server = Server::start(yes_no);
    let got = resolve(
        config(&server.endpoint(), None),
        &[input("yes_a"), input("no_b"), input("yes_a")],
    );
    assert_eq!(got, [fresh(true), fresh(false), fresh(true)]);
    assert_eq!(server.request_count(), 2);
}

#[test]
fn no_questions_no_requests() {
    let server = Server::start(yes_no);
    assert!(resolve(config(&server.endpoint(), None), &[]).is_empty());
    assert_eq!(server.request_count(), 0);
}

#[test]
fn unparseable_answer_fails_and_is_not_cached() {
    let server = Server::start(|_| Reply::Content("I think so, probably yes.".into()));
    let dir = tempfile::tempdir().unwrap();
    let got = resolve(config(&server.endpoint(), Some(dir.path())), &[input("a")]);
    let error = failure(&got[0]);
    assert!(error.contains("`Answer: Yes` or `Answer: No`"), "{error}");
    assert!(error.contains("I think so, probably yes."), "{error}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);

    resolve(config(&server.endpoint(), Some(dir.path())), &[input("a")]);
    assert_eq!(server.request_count(), 2, "a failure is asked again");
}

#[test]
fn garbage_body_fails() {
    let server = Server::start(|_| Reply::Raw(200, "<html>gateway</html>".into()));
    let got = resolve(config(&server.endpoint(), None), &[input("a")]);
    let error = failure(&got[0]);
    assert!(error.contains("not chat-completions JSON"), "{error}");
    assert!(error.contains("<html>gateway</html>"), "{error}");
}

#[test]
fn wrong_json_shape_fails() {
    let server = Server::start(|_| Reply::Raw(200, r#"{"choices":[]}"#.into()));
    let got = resolve(config(&server.endpoint(), None), &[input("a")]);
    assert!(failure(&got[0]).contains("no choices"));
}

#[test]
fn http_500_fails_with_the_status_and_body() {
    let server = Server::start(|_| Reply::Raw(500, r#"{"error":"model overloaded"}"#.into()));
    let got = resolve(config(&server.endpoint(), None), &[input("a"), input("b")]);
    for r in &got {
        let error = failure(r);
        assert!(error.contains("HTTP 500"), "{error}");
        assert!(error.contains("model overloaded"), "{error}");
    }
    assert_eq!(server.request_count(), 2, "a 500 does not stop the others");
}

#[test]
fn refused_key_stops_further_requests() {
    let server = Server::start(|_| Reply::Raw(401, r#"{"error":"invalid api key"}"#.into()));
    let mut c = config(&server.endpoint(), None);
    c.concurrency = 1;
    let got = resolve(c, &[input("a"), input("b"), input("c")]);
    for r in &got {
        let error = failure(r);
        assert!(error.contains("HTTP 401"), "{error}");
    }
    assert_eq!(server.request_count(), 1);
}

#[test]
fn timeout_fails_with_a_timeout_message() {
    let server = Server::start(|_| {
        Reply::After(
            Duration::from_secs(2),
            Box::new(Reply::Content("Answer: Yes".into())),
        )
    });
    let mut c = config(&server.endpoint(), None);
    c.timeout = Duration::from_millis(200);
    let got = resolve(c, &[input("a")]);
    let error = failure(&got[0]);
    assert!(error.contains("no reply"), "{error}");
    assert!(error.contains("within 0.2 s"), "{error}");
}

#[test]
fn unreachable_endpoint_fails() {
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let c = config(&format!("http://127.0.0.1:{port}/v1"), None);
    let got = resolve(c, &[input("a"), input("b")]);
    for r in &got {
        let error = failure(r);
        assert!(error.contains("cannot reach the LLM endpoint"), "{error}");
        assert!(error.contains(&format!("127.0.0.1:{port}")), "{error}");
    }
}

#[test]
fn concurrency_bound_is_respected() {
    let server = Server::start(|r| Reply::After(Duration::from_millis(30), Box::new(yes_no(r))));
    let mut c = config(&server.endpoint(), None);
    c.concurrency = 3;
    let questions: Vec<_> = (0..12).map(|i| input(&format!("yes_{i}"))).collect();
    let got = resolve(c, &questions);
    assert!(got.iter().all(|r| *r == fresh(true)));
    assert_eq!(server.request_count(), 12);
    assert!(server.max_in_flight() <= 3, "{}", server.max_in_flight());
    assert!(server.max_in_flight() >= 1);
}

#[test]
fn concurrency_one_is_sequential() {
    let server = Server::start(|r| Reply::After(Duration::from_millis(10), Box::new(yes_no(r))));
    let mut c = config(&server.endpoint(), None);
    c.concurrency = 1;
    let questions: Vec<_> = (0..5).map(|i| input(&format!("no_{i}"))).collect();
    assert!(resolve(c, &questions).iter().all(|r| *r == fresh(false)));
    assert_eq!(server.max_in_flight(), 1);
}

#[test]
fn unwritable_cache_still_answers_with_a_warning() {
    let server = Server::start(yes_no);
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "not a directory").unwrap();
    let resolver = Resolver::new(config(&server.endpoint(), Some(&blocker.join("llm")))).unwrap();
    assert_eq!(resolver.resolve(&[input("yes_a")]), [fresh(true)]);
    let warnings = resolver.take_warnings();
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].contains("cannot write the LLM answer cache"),
        "{warnings:?}"
    );
    assert!(resolver.take_warnings().is_empty());
}
