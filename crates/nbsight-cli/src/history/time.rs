//! Unix seconds as UTC dates for the history's reports (no time-zone data:
//! a history is read on other machines than the one that wrote it).

/// The civil date of day `days` since 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The parts of `seconds`: date, time of day and milliseconds; `None` for
/// a value no clock gives (not finite, before 1970 or after 9999).
fn parts(seconds: f64) -> Option<(i64, u32, u32, u32, u32, u32, u32)> {
    if !seconds.is_finite() || !(0.0..253_402_300_800.0).contains(&seconds) {
        return None;
    }
    let millis = (seconds * 1000.0).round() as i64;
    let (secs, ms) = (millis.div_euclid(1000), millis.rem_euclid(1000) as u32);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (year, month, day) = civil(days);
    let (h, m, s) = (rest / 3600, rest % 3600 / 60, rest % 60);
    Some((year, month, day, h as u32, m as u32, s as u32, ms))
}

/// `2026-01-01 12:30:05` (UTC), `?` for a value no clock gives.
pub fn utc(seconds: f64) -> String {
    match parts(seconds) {
        Some((y, mo, d, h, mi, s, _)) => format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}"),
        None => "?".to_string(),
    }
}

/// `2026-01-01T12:30:05.250Z` (RFC 3339), `None` for a value no clock
/// gives.
pub fn rfc3339(seconds: f64) -> Option<String> {
    parts(seconds).map(|(y, mo, d, h, mi, s, ms)| {
        format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{ms:03}Z")
    })
}

#[cfg(test)]
mod tests {
    use super::{rfc3339, utc};

    #[test]
    fn dates_are_utc() {
        assert_eq!(utc(0.0), "1970-01-01 00:00:00");
        assert_eq!(utc(1_767_225_600.0), "2026-01-01 00:00:00");
        assert_eq!(utc(951_782_400.0), "2000-02-29 00:00:00");
        assert_eq!(utc(1_709_164_799.0), "2024-02-28 23:59:59");
        assert_eq!(
            rfc3339(1_767_225_630.25).as_deref(),
            Some("2026-01-01T00:00:30.250Z")
        );
        assert_eq!(utc(f64::NAN), "?");
        assert_eq!(utc(-5.0), "?");
        assert_eq!(rfc3339(1e300), None);
    }
}
