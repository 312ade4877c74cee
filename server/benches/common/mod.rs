//! Measurement helpers shared by the benchmark binaries that are not criterion's.

#![allow(dead_code)]

pub mod plan_module;

/// Resident memory of a process (`"self"` or a pid), in bytes, from `/proc`.
pub fn rss_bytes(process: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{process}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// The median and the 99th percentile of `samples`.
pub fn median_p99(mut samples: Vec<f64>) -> (f64, f64) {
    samples.sort_by(f64::total_cmp);
    let median = samples[samples.len() / 2];
    let p99 = samples[((samples.len() as f64 * 0.99).ceil() as usize).clamp(1, samples.len()) - 1];
    (median, p99)
}
