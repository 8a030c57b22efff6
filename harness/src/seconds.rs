//! Durations from the command line and manifests: a number of seconds, checked and clamped, so
//! that no value can overflow a deadline (`--max-time 1e20` once panicked).

use anyhow::{bail, Result};
use std::time::Duration;

/// The longest duration taken: a century, which is no limit for a run. Longer values are
/// clamped to it.
pub const MAX_SECONDS: f64 = 100.0 * 365.25 * 24.0 * 3600.0;

/// `value` seconds for the option `what`: a finite number, positive (or zero when
/// `zero_allowed`), clamped to [`MAX_SECONDS`].
pub fn seconds(what: &str, value: f64, zero_allowed: bool) -> Result<Duration> {
    let least = if zero_allowed { "a number of seconds (0 or more)" } else { "a positive number of seconds" };
    if !value.is_finite() || value < 0.0 || (value == 0.0 && !zero_allowed) {
        bail!("{what} expects {least}, got {value}");
    }
    Ok(Duration::from_secs_f64(value.min(MAX_SECONDS)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_values_are_clamped_and_bad_ones_refused() {
        assert_eq!(seconds("--max-time", 2.5, false).unwrap(), Duration::from_millis(2500));
        assert_eq!(seconds("--max-time", 1e20, false).unwrap(), Duration::from_secs_f64(MAX_SECONDS));
        assert_eq!(seconds("--bse-budget", 0.0, true).unwrap(), Duration::ZERO);
        for bad in [f64::NAN, f64::INFINITY, -1.0, 0.0] {
            let e = seconds("--max-time", bad, false).unwrap_err().to_string();
            assert!(e.starts_with("--max-time expects a positive number of seconds"), "{e}");
        }
    }
}
