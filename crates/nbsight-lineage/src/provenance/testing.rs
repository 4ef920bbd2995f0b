//! The provenance thesis's `sumUpMultiples` (seed 002, listing 2.8, in
//! Python 3) and the events the recorder logs when it runs over a list of
//! numbers, for the tests of the crates that replay or store provenance.

use super::Event;

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

/// The events a recorded call logs over `1, 2, ..., len` with `factor`: each
/// loop test, each element's key and each filter decision, then the test
/// that ends the loop.
pub fn sum_up_multiples_events(len: usize, factor: usize) -> Vec<Event> {
    let mut events = Vec::new();
    for i in 0..len {
        events.push(Event::Decision {
            at: (5, 10),
            taken: true,
        });
        events.push(Event::Key {
            at: (6, 20),
            key: Some(i.to_string()),
        });
        events.push(Event::Decision {
            at: (7, 11),
            taken: (i + 1) % factor == 0,
        });
    }
    events.push(Event::Decision {
        at: (5, 10),
        taken: false,
    });
    events
}
