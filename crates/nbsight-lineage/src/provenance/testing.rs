//! The provenance thesis's `sumUpMultiples` (seed 002, listing 2.8, in
//! Python 3) and the events the recorder logs when it runs over a list of
//! numbers, for the tests of the crates that replay or store provenance.

use super::events::{Event, What, code_key};

/// The function, as a cell defines it.
pub const SUM_UP_MULTIPLES: &str = "\
def sumUpMultiples(numbers, factor):
    sum = 0
    i = 0
    numRows = len(numbers)
    while i < numRows:
        n = numbers[i]
        if n % factor == 0:
            sum += n
        i = i + 1
    return sum
";

/// The events a recorded call logs over `1, 2, ..., len` with `factor`, the
/// function defined by cell `defined_in`: the call's start, each loop test and each filter
/// decision, then the test that ends the loop (the key `numbers[i]` is
/// known to the replay: `i` counts from the literal 0).
pub fn sum_up_multiples_events(defined_in: &str, len: usize, factor: usize) -> Vec<Event> {
    let code = code_key(defined_in, 1);
    let mut events = vec![Event::new(code, (0, 0), What::Enter)];
    for i in 0..len {
        events.push(Event::new(code, (5, 10), What::Decision(true)));
        events.push(Event::new(
            code,
            (7, 11),
            What::Decision((i + 1) % factor == 0),
        ));
    }
    events.push(Event::new(code, (5, 10), What::Decision(false)));
    events
}
