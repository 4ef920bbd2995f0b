//! The log a replay follows, indexed by code object: the next event of
//! one code from any position is found by a binary search over that
//! code's own events, never by a walk over the others'. (A function whose
//! calls stopped being logged has no event after some point: without the
//! index each of its later calls walked to the log's end, a loop of 10^5
//! calls took seconds.) The replay mostly moves forward: each code keeps
//! where its last search ended, and a search from there looks at the next
//! few events before it bisects.

use std::cell::Cell;

use rustc_hash::FxHashMap;

use super::super::events::Event;

pub(super) struct Log<'s> {
    events: &'s [Event],
    /// Per code (as events name it), the positions of its events in
    /// `events`, ascending, and where in them the last search ended.
    by_code: FxHashMap<u32, (Vec<usize>, Cell<usize>)>,
}

/// How many positions past the last search's end are looked at one by one
/// before bisecting.
const NEAR: usize = 8;

impl<'s> Log<'s> {
    pub(super) fn new(events: &'s [Event]) -> Log<'s> {
        let mut by_code: FxHashMap<u32, (Vec<usize>, Cell<usize>)> = FxHashMap::default();
        for (i, e) in events.iter().enumerate() {
            by_code.entry(e.code).or_default().0.push(i);
        }
        Log { events, by_code }
    }

    pub(super) fn events(&self) -> &'s [Event] {
        self.events
    }

    /// The events of `code` at or after position `from`, in order, with
    /// their positions.
    pub(super) fn of(
        &self,
        code: u32,
        from: usize,
    ) -> impl Iterator<Item = (usize, &'s Event)> + '_ {
        let (positions, start) = match self.by_code.get(&code) {
            Some((positions, last)) => {
                let start = first_at_or_after(positions, last.get(), from);
                last.set(start);
                (positions.as_slice(), start)
            }
            None => (&[][..], 0),
        };
        let events = self.events;
        positions[start..].iter().map(move |&i| (i, &events[i]))
    }
}

/// The index of the first of `positions` (ascending) that is at least
/// `from`, looked for from `hint` on when `hint` is not past it.
fn first_at_or_after(positions: &[usize], hint: usize, from: usize) -> usize {
    let hint = hint.min(positions.len());
    if hint == 0 || positions[hint - 1] < from {
        let near = positions[hint..].iter().take(NEAR).position(|&i| i >= from);
        match near {
            Some(k) => hint + k,
            None => hint + positions[hint..].partition_point(|&i| i < from),
        }
    } else {
        positions[..hint].partition_point(|&i| i < from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provenance::events::What;

    #[test]
    fn the_events_of_one_code_from_any_position() {
        let events = vec![
            Event::new(1, (1, 0), What::Iteration),
            Event::new(2, (1, 0), What::Enter),
            Event::new(1, (1, 0), What::Iteration),
            Event::new(1, (1, 0), What::Exhausted),
        ];
        let log = Log::new(&events);
        let at = |code, from| log.of(code, from).map(|(i, _)| i).collect::<Vec<_>>();
        assert_eq!(at(1, 0), [0, 2, 3]);
        assert_eq!(at(1, 1), [2, 3]);
        assert_eq!(at(1, 3), [3]);
        assert_eq!(at(1, 4), Vec::<usize>::new());
        assert_eq!(at(2, 0), [1]);
        assert_eq!(at(2, 2), Vec::<usize>::new());
        assert_eq!(at(9, 0), Vec::<usize>::new());
        assert_eq!(
            log.of(1, 1).next().map(|(_, e)| &e.what),
            Some(&What::Iteration)
        );
    }

    #[test]
    fn a_search_from_any_hint_finds_the_first_at_or_after() {
        let positions: Vec<usize> = (0..40).map(|i| i * 3).collect();
        for hint in 0..=45 {
            for from in 0..=125 {
                let expected = positions.partition_point(|&i| i < from);
                assert_eq!(
                    first_at_or_after(&positions, hint, from),
                    expected,
                    "{hint} {from}"
                );
            }
        }
    }
}
