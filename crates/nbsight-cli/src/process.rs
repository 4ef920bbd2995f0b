//! Process set-up shared by the binaries that run nbsight's engines (the
//! `nbsight` binary and `nbsight-bench`, which must measure what it runs):
//! each calls [`no_huge_pages_before_main!`](crate::no_huge_pages_before_main)
//! once. Never called by the library itself: the Python module links it
//! into the user's process.

/// Turns transparent huge pages off for this process. A run is short and
/// touches little of each 2 MiB huge page mimalloc's arenas would get: the
/// kernel zeroing whole huge pages cost about a fifth of `nbsight check`'s
/// time on a corpus, and a what-if query that reaches a fresh arena page
/// waited milliseconds for it. Plain pages are zeroed only when touched.
#[cfg(target_os = "linux")]
pub fn no_transparent_huge_pages() {
    // SAFETY: `prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0)` only sets a flag of
    // this process; it reads no memory. Failure (an old kernel) is harmless.
    unsafe {
        let (on, zero): (libc::c_ulong, libc::c_ulong) = (1, 0);
        libc::prctl(libc::PR_SET_THP_DISABLE, on, zero, zero, zero);
    }
}

/// Turns transparent huge pages off for this process (Linux only).
#[cfg(not(target_os = "linux"))]
pub fn no_transparent_huge_pages() {}

/// Turns transparent huge pages off in a constructor of the binary that
/// invokes it, before the runtime's first allocation (which comes before
/// `main`: at the start of `main`, mimalloc's first arena was already a
/// huge page). Invoke it once, in a binary's `main.rs`.
#[macro_export]
macro_rules! no_huge_pages_before_main {
    () => {
        #[cfg(target_os = "linux")]
        #[used]
        #[unsafe(link_section = ".init_array")]
        static NO_HUGE_PAGES: extern "C" fn() = {
            extern "C" fn before_main() {
                $crate::process::no_transparent_huge_pages();
            }
            before_main
        };
    };
}
