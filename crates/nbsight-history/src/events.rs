//! The provenance events of a recorded run as one text column
//! (`recordings.events`, docs/history.md): one event a line,
//! `KIND@CODE LINE COLUMN [PAYLOAD]` with kind `d` (a decision, payload `1`
//! or `0`), `n` (a `None` test, payload `1` when the value was `None`), `i`
//! (an iteration), `x` (exhausted), `r` (an exception raised or passed
//! through), `e` (a call of the function starts), `s` (its calls are no
//! longer logged in this run), `u` (the calls in the rest of the cell's
//! running statement are not logged), `o` (the positions of the elements
//! a `max`/`min`/`sorted`/`list.sort` call's result holds, payload `3,0,2`),
//! `a` (the ranks of the keys a `key=` function gave, payload `1,0,1`)
//! or `k` (a subscript key
//! of older logs,
//! payload its `repr` with `\`, newline and carriage return escaped, absent
//! when the key was not an int or a str), and `CODE` the code object's key
//! (`nbsight_lineage::code_key`). Lines without `@CODE` (histories written
//! before the recorder read the interpreter) decode with code 0, which no
//! code has: their runs replay as not followed.

use nbsight_lineage::ProvenanceEvent as Event;
use nbsight_lineage::ProvenanceWhat as What;

/// The events a run recorded, encoded as the history stores them (compact:
/// a kernel keeps them until they are written).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordedEvents(String);

impl RecordedEvents {
    /// Encodes `events`.
    pub fn encode(events: &[Event]) -> RecordedEvents {
        // About 12 bytes an event; no allocation per event.
        let mut out = String::with_capacity(events.len() * 12);
        let mut number = itoa::Buffer::new();
        for event in events {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(match &event.what {
                What::Decision(_) => "d",
                What::NoneTest(_) => "n",
                What::Iteration => "i",
                What::Exhausted => "x",
                What::Raised => "r",
                What::Enter => "e",
                What::Saturated => "s",
                What::Unlogged => "u",
                What::Order(_) => "o",
                What::Ranks(_) => "a",
                What::Key(_) => "k",
            });
            out.push('@');
            out.push_str(number.format(event.code));
            out.push(' ');
            out.push_str(number.format(event.at.0));
            out.push(' ');
            out.push_str(number.format(event.at.1));
            match &event.what {
                What::Decision(t) | What::NoneTest(t) => out.push_str(if *t { " 1" } else { " 0" }),
                What::Order(positions) | What::Ranks(positions) => {
                    out.push(' ');
                    join(&mut out, positions);
                }
                What::Key(Some(key)) => {
                    out.push(' ');
                    escape(&mut out, key);
                }
                _ => {}
            }
        }
        RecordedEvents(out)
    }

    /// The text as stored.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Text read from a history (checked by [`RecordedEvents::decode`]).
    pub(crate) fn from_stored(text: String) -> RecordedEvents {
        RecordedEvents(text)
    }

    /// The events; the reason when the text is not an encoding of events.
    pub fn decode(&self) -> Result<Vec<Event>, String> {
        if self.0.is_empty() {
            return Ok(Vec::new());
        }
        self.0
            .split('\n')
            .enumerate()
            .map(|(i, line)| decode_line(line).ok_or_else(|| format!("event {i} `{line}`")))
            .collect()
    }
}

fn decode_line(line: &str) -> Option<Event> {
    let mut parts = line.splitn(4, ' ');
    let token = parts.next()?;
    let (kind, code) = match token.split_once('@') {
        Some((kind, code)) => (kind, code.parse().ok()?),
        None => (token, 0),
    };
    let at = (parts.next()?.parse().ok()?, parts.next()?.parse().ok()?);
    let payload = parts.next();
    let what = match (kind, payload) {
        ("d", Some("1")) => What::Decision(true),
        ("d", Some("0")) => What::Decision(false),
        ("n", Some("1")) => What::NoneTest(true),
        ("n", Some("0")) => What::NoneTest(false),
        ("i", None) => What::Iteration,
        ("x", None) => What::Exhausted,
        ("r", None) => What::Raised,
        ("e", None) => What::Enter,
        ("s", None) => What::Saturated,
        ("u", None) => What::Unlogged,
        ("o", Some(order)) => What::Order(split(order)?),
        ("a", Some(ranks)) => What::Ranks(split(ranks)?),
        ("k", None) => What::Key(None),
        ("k", Some(key)) => What::Key(Some(unescape(key)?)),
        _ => return None,
    };
    Some(Event::new(code, at, what))
}

/// Positions as `3,0,2`.
fn join(out: &mut String, order: &[u32]) {
    let mut number = itoa::Buffer::new();
    for (i, p) in order.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(number.format(*p));
    }
}

fn split(text: &str) -> Option<Vec<u32>> {
    text.split(',').map(|p| p.parse().ok()).collect()
}

fn escape(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
}

fn unescape(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next()? {
                '\\' => out.push('\\'),
                'n' => out.push('\n'),
                'r' => out.push('\r'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_round_trip() {
        let events = vec![
            Event::new(7, (5, 10), What::Decision(true)),
            Event::new(7, (5, 10), What::Decision(false)),
            Event::new(8, (3, 4), What::NoneTest(true)),
            Event::new(7, (2, 9), What::Iteration),
            Event::new(7, (2, 9), What::Exhausted),
            Event::new(7, (4, 0), What::Raised),
            Event::new(9, (0, 0), What::Enter),
            Event::new(9, (0, 0), What::Saturated),
            Event::new(3, (0, 0), What::Unlogged),
            Event::new(3, (4, 2), What::Order(vec![2])),
            Event::new(3, (4, 2), What::Order(vec![1, 0, 2])),
            Event::new(3, (4, 2), What::Ranks(vec![1, 0, 1])),
            Event::new(7, (6, 20), What::Key(None)),
            Event::new(7, (6, 20), What::Key(Some("'a b\\n\n\r'".into()))),
            Event::new(0, (7, 0), What::Key(Some("3".into()))),
        ];
        let encoded = RecordedEvents::encode(&events);
        assert_eq!(encoded.decode(), Ok(events));
        assert_eq!(RecordedEvents::encode(&[]).decode(), Ok(Vec::new()));
        assert_eq!(
            encoded.as_str().lines().next(),
            Some("d@7 5 10 1"),
            "one event a line"
        );
    }

    #[test]
    fn lines_of_older_histories_decode_with_no_code() {
        let old = RecordedEvents::from_stored("d 5 10 1\ni 2 9".into());
        assert_eq!(
            old.decode(),
            Ok(vec![
                Event::new(0, (5, 10), What::Decision(true)),
                Event::new(0, (2, 9), What::Iteration),
            ])
        );
    }

    #[test]
    fn damaged_text_is_refused() {
        for bad in [
            "q 1 2",
            "d 1",
            "d 1 2 7",
            "i 1 2 3",
            "k 1 2 \\z",
            "d x 2 1",
            "d@x 1 2 1",
            "o@1 1 2",
            "o@1 1 2 1,,2",
        ] {
            assert!(
                RecordedEvents::from_stored(bad.into()).decode().is_err(),
                "{bad}"
            );
        }
    }
}
