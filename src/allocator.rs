//! The allocator of `kessel` (and of the campaign benchmark, which includes this file so that it
//! measures what `kessel simulate` pays).
//!
//! Lua's tables and strings, the engine's searches and the AI allocate a great deal: mimalloc
//! makes a simulated campaign game about 8% cheaper in CPU than the system allocator (measured).

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (the same place in the option list of its v2 and v3; a
/// test in `main.rs` reads it back).
pub const PURGE_DELAY: i32 = 15;

unsafe extern "C" {
    // in the mimalloc library that the `mimalloc` crate links (its Rust bindings declare these
    // only with a feature whose dependency is not at hand)
    fn mi_option_set(option: i32, value: std::ffi::c_long);
}

/// Keeps freed memory for reuse instead of handing it back to the system after a second
/// (mimalloc's default). A simulated game frees and allocates tables all the time; giving pages back and
/// faulting them in again, zeroed, cost 2-3% of a campaign game's CPU (measured: page faults fell
/// from about 3,000 to 400 a run). The price is a process that keeps its peak memory until it
/// ends, which suits a command that runs and exits.
pub fn keep_freed_memory() {
    // SAFETY: setting an option is allowed at any time; `PURGE_DELAY` is an option of this
    // library version (see the test in `main.rs`) and -1 is one of its documented values (never purge).
    unsafe { mi_option_set(PURGE_DELAY, -1) }
}
