//! Strict parsing of the model's reply: its last non-empty line must be
//! `Answer: Yes` or `Answer: No`.

use thiserror::Error;

use crate::excerpt::excerpt;

/// How much of an offending line an error message quotes.
const QUOTED_CHARS: usize = 80;

/// The reply does not end with the required answer line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    #[error("the model's reply is empty; expected `Answer: Yes` or `Answer: No`")]
    Empty,
    #[error(
        "the model's reply does not end with `Answer: Yes` or `Answer: No` (last line: \"{0}\")"
    )]
    NoVerdict(String),
}

/// The verdict in a model's reply. Accepted: a last non-empty line `Answer: Yes` or
/// `Answer: No`, with `yes`/`no` in any case, surrounding whitespace and an optional
/// trailing period. Anything else is a [`ParseError`] quoting the (truncated) line.
pub fn parse_answer(text: &str) -> Result<bool, ParseError> {
    let Some(line) = text.lines().map(str::trim).rfind(|l| !l.is_empty()) else {
        return Err(ParseError::Empty);
    };
    let verdict = line
        .strip_prefix("Answer:")
        .map(|rest| rest.trim())
        .map(|rest| rest.strip_suffix('.').unwrap_or(rest).trim_end());
    match verdict {
        Some(v) if v.eq_ignore_ascii_case("yes") => Ok(true),
        Some(v) if v.eq_ignore_ascii_case("no") => Ok(false),
        _ => Err(ParseError::NoVerdict(excerpt(line, QUOTED_CHARS))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_fixed_form() {
        assert_eq!(parse_answer("Answer: Yes"), Ok(true));
        assert_eq!(parse_answer("Answer: No"), Ok(false));
        assert_eq!(parse_answer("Answer: yes."), Ok(true));
        assert_eq!(parse_answer("Answer: NO."), Ok(false));
        assert_eq!(parse_answer("  Answer:   No  \n\n  "), Ok(false));
        assert_eq!(parse_answer("Answer:Yes"), Ok(true));
        assert_eq!(parse_answer("Answer: Yes\r\n"), Ok(true));
        assert_eq!(
            parse_answer("The cell reads df first.\nSo it is an input.\nAnswer: Yes"),
            Ok(true)
        );
    }

    #[test]
    fn only_the_last_line_counts() {
        assert_eq!(parse_answer("Answer: Yes\nAnswer: No"), Ok(false));
        assert!(parse_answer("Answer: Yes\nI hope this helps.").is_err());
    }

    #[test]
    fn rejects_everything_else() {
        for text in [
            "Yes",
            "answer: yes",
            "Answer: Maybe",
            "Answer: Yes, because df is read",
            "**Answer: Yes**",
            "Answer: Yes..",
            "Answer: Y",
            "Final Answer: Yes",
            "Answer:",
        ] {
            assert!(
                matches!(parse_answer(text), Err(ParseError::NoVerdict(_))),
                "{text:?} was accepted"
            );
        }
        assert_eq!(parse_answer(""), Err(ParseError::Empty));
        assert_eq!(parse_answer(" \n\t\n"), Err(ParseError::Empty));
    }

    #[test]
    fn error_quotes_the_truncated_line() {
        let long = format!("The answer is {}", "very ".repeat(50));
        let message = parse_answer(&long).unwrap_err().to_string();
        assert!(message.contains("does not end with `Answer: Yes` or `Answer: No`"));
        assert!(message.contains("The answer is very very"));
        assert!(message.contains('…'));
        assert!(message.len() < 250, "{message}");
        assert!(!message.contains('\n'));
    }
}
