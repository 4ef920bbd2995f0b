//! Order statistics used by the benchmark: the median of a set of samples and the
//! nearest-rank percentile of a set of values. Both are deterministic and take the
//! values in any order.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// The median time of `iterations` runs (at least one) of `workload`, after
/// `warmup` untimed runs.
pub fn median_time<T>(
    warmup: usize,
    iterations: usize,
    mut workload: impl FnMut() -> T,
) -> Duration {
    for _ in 0..warmup {
        black_box(workload());
    }
    let mut times = Vec::with_capacity(iterations.max(1));
    for _ in 0..iterations.max(1) {
        let start = Instant::now();
        black_box(workload());
        times.push(start.elapsed());
    }
    median(&times).unwrap_or_default()
}

/// The median of `samples`: the middle value, or the mean of the two middle values
/// when the count is even. `None` for an empty slice.
pub fn median(samples: &[Duration]) -> Option<Duration> {
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    let mid = n / 2;
    if n % 2 == 1 {
        Some(sorted[mid])
    } else {
        Some((sorted[mid - 1] + sorted[mid]) / 2)
    }
}

/// The nearest-rank `p`-th percentile (`0 < p <= 100`) of `values`: the value at
/// rank `ceil(p / 100 * n)` (1-based, at least 1) of the sorted values. `p` is
/// clamped to `[0, 100]`; `None` for an empty slice.
pub fn percentile(values: &[Duration], p: f64) -> Option<Duration> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    let p = if p.is_nan() {
        100.0
    } else {
        p.clamp(0.0, 100.0)
    };
    // `p / 100 * n` is at most `n`, so the conversion cannot overflow.
    let rank = ((p / 100.0) * n as f64).ceil() as usize;
    let index = rank.clamp(1, n) - 1;
    Some(sorted[index])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn us(values: &[u64]) -> Vec<Duration> {
        values.iter().copied().map(Duration::from_micros).collect()
    }

    #[test]
    fn median_of_odd_count_is_middle_value() {
        assert_eq!(median(&us(&[5, 1, 3])), Some(Duration::from_micros(3)));
        assert_eq!(median(&us(&[7])), Some(Duration::from_micros(7)));
    }

    #[test]
    fn median_of_even_count_averages_middle_values() {
        assert_eq!(median(&us(&[4, 1, 2, 10])), Some(Duration::from_micros(3)));
        assert_eq!(median(&us(&[1, 2])), Some(Duration::from_nanos(1500)));
    }

    #[test]
    fn median_of_empty_is_none() {
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn nearest_rank_percentiles() {
        // The classic example: 15, 20, 35, 40, 50.
        let v = us(&[50, 15, 40, 20, 35]);
        assert_eq!(percentile(&v, 5.0), Some(Duration::from_micros(15)));
        assert_eq!(percentile(&v, 30.0), Some(Duration::from_micros(20)));
        assert_eq!(percentile(&v, 40.0), Some(Duration::from_micros(20)));
        assert_eq!(percentile(&v, 50.0), Some(Duration::from_micros(35)));
        assert_eq!(percentile(&v, 100.0), Some(Duration::from_micros(50)));
    }

    #[test]
    fn p99_of_hundred_values_is_the_99th() {
        let v: Vec<Duration> = (1..=100).rev().map(Duration::from_micros).collect();
        assert_eq!(percentile(&v, 99.0), Some(Duration::from_micros(99)));
        let v: Vec<Duration> = (1..=283).map(Duration::from_micros).collect();
        // ceil(0.99 * 283) = 281.
        assert_eq!(percentile(&v, 99.0), Some(Duration::from_micros(281)));
    }

    #[test]
    fn percentile_edges() {
        let v = us(&[3, 1, 2]);
        assert_eq!(percentile(&v, 0.0), Some(Duration::from_micros(1)));
        assert_eq!(percentile(&v, -5.0), Some(Duration::from_micros(1)));
        assert_eq!(percentile(&v, 250.0), Some(Duration::from_micros(3)));
        assert_eq!(percentile(&[], 50.0), None);
    }
}
