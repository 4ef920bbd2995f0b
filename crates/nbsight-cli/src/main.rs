//! The `nbsight` binary: a shell over [`nbsight_cli::main_with_args`].

/// nbsight allocates many small objects (AST nodes, symbols, CFG nodes);
/// mimalloc serves them faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    no_transparent_huge_pages();
    nbsight_cli::main_with_args(std::env::args_os()).into()
}

/// A run is short and touches little of each 2 MiB huge page mimalloc's
/// arenas would get: the kernel zeroing whole huge pages cost about a fifth
/// of `nbsight check`'s time on a corpus. Plain pages are zeroed only when
/// touched.
#[cfg(target_os = "linux")]
fn no_transparent_huge_pages() {
    // SAFETY: `prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0)` only sets a flag of
    // this process; it reads no memory. Failure (an old kernel) is harmless.
    unsafe {
        let (on, zero): (libc::c_ulong, libc::c_ulong) = (1, 0);
        libc::prctl(libc::PR_SET_THP_DISABLE, on, zero, zero, zero);
    }
}

#[cfg(not(target_os = "linux"))]
fn no_transparent_huge_pages() {}
