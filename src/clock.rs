//! The one clock for speed reports.

/// Seconds on a clock that only goes forward, for speed reports (moves/s): std's `Instant`
/// natively, `Date.now()` in the browser (std has no clock on `wasm32-unknown-unknown`).
pub fn seconds() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now() / 1000.0
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        START
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_secs_f64()
    }
}
