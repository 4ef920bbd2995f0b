//! The provenance events of a recorded run as one text column
//! (`recordings.events`, docs/history.md): one event a line,
//! `KIND LINE COLUMN [PAYLOAD]` with kind `d` (a decision, payload `1` or
//! `0`), `i` (an iteration), `x` (exhausted) or `k` (a subscript key,
//! payload its `repr` with `\`, newline and carriage return escaped, absent
//! when the key was not an int or a str).

use std::fmt::Write as _;

use nbsight_lineage::ProvenanceEvent as Event;

/// The events a run recorded, encoded as the history stores them (compact:
/// a kernel keeps them until they are written).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordedEvents(String);

impl RecordedEvents {
    /// Encodes `events`.
    pub fn encode(events: &[Event]) -> RecordedEvents {
        let mut out = String::new();
        for event in events {
            if !out.is_empty() {
                out.push('\n');
            }
            let _ = match event {
                Event::Decision { at, taken } => {
                    write!(out, "d {} {} {}", at.0, at.1, u8::from(*taken))
                }
                Event::Iteration { at } => write!(out, "i {} {}", at.0, at.1),
                Event::Exhausted { at } => write!(out, "x {} {}", at.0, at.1),
                Event::Key { at, key: None } => write!(out, "k {} {}", at.0, at.1),
                Event::Key { at, key: Some(key) } => {
                    write!(out, "k {} {} {}", at.0, at.1, escape(key))
                }
            };
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
    let kind = parts.next()?;
    let at = (parts.next()?.parse().ok()?, parts.next()?.parse().ok()?);
    let payload = parts.next();
    Some(match (kind, payload) {
        ("d", Some("1")) => Event::Decision { at, taken: true },
        ("d", Some("0")) => Event::Decision { at, taken: false },
        ("i", None) => Event::Iteration { at },
        ("x", None) => Event::Exhausted { at },
        ("k", None) => Event::Key { at, key: None },
        ("k", Some(key)) => Event::Key {
            at,
            key: Some(unescape(key)?),
        },
        _ => return None,
    })
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
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
            Event::Decision {
                at: (5, 10),
                taken: true,
            },
            Event::Decision {
                at: (5, 10),
                taken: false,
            },
            Event::Iteration { at: (2, 9) },
            Event::Exhausted { at: (2, 9) },
            Event::Key {
                at: (6, 20),
                key: None,
            },
            Event::Key {
                at: (6, 20),
                key: Some("'a b\\n\n\r'".into()),
            },
            Event::Key {
                at: (7, 0),
                key: Some("3".into()),
            },
        ];
        let encoded = RecordedEvents::encode(&events);
        assert_eq!(encoded.decode(), Ok(events));
        assert_eq!(RecordedEvents::encode(&[]).decode(), Ok(Vec::new()));
        assert_eq!(
            encoded.as_str().lines().next(),
            Some("d 5 10 1"),
            "one event a line"
        );
    }

    #[test]
    fn damaged_text_is_refused() {
        for bad in ["q 1 2", "d 1", "d 1 2 7", "i 1 2 3", "k 1 2 \\z", "d x 2 1"] {
            assert!(
                RecordedEvents::from_stored(bad.into()).decode().is_err(),
                "{bad}"
            );
        }
    }
}
