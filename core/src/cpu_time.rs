//! The CPU time a thread has run: what the balance lab charges a game, and what the Lua profile
//! ([`crate::script::profile`]) charges a line. Unlike wall time it does not grow while other
//! programs hold the cores, so two runs on a busy machine measure alike.

/// Nanoseconds of CPU this thread has run, where the system says (Unix); `None` elsewhere.
pub fn thread_cpu_ns() -> Option<u128> {
    #[cfg(unix)]
    {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        let secs = u128::try_from(t.tv_sec).ok()?;
        let nanos = u128::try_from(t.tv_nsec).ok()?;
        Some(secs * 1_000_000_000 + nanos)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Seconds of CPU this thread has run, where the system says.
pub fn thread_cpu_seconds() -> Option<f64> {
    thread_cpu_ns().map(|ns| ns as f64 / 1e9)
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(unix)]
    fn a_busy_thread_s_cpu_time_grows_and_a_sleeping_one_s_hardly() {
        let start = super::thread_cpu_ns().expect("a CPU clock on Unix");
        // busy: some work the optimiser cannot drop
        let mut x = 0u64;
        let t0 = std::time::Instant::now();
        while t0.elapsed() < std::time::Duration::from_millis(30) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let busy = super::thread_cpu_ns().expect("a CPU clock") - start;
        assert!(busy >= 5_000_000, "30 ms of work ran {busy} ns of CPU");
        let before = super::thread_cpu_ns().expect("a CPU clock");
        std::thread::sleep(std::time::Duration::from_millis(50));
        let slept = super::thread_cpu_ns().expect("a CPU clock") - before;
        assert!(slept < 25_000_000, "a 50 ms sleep ran {slept} ns of CPU");
    }
}
