//! The `nbsight` binary: a shell over [`nbsight_cli::main_with_args`].

/// nbsight allocates many small objects (AST nodes, symbols, CFG nodes);
/// mimalloc serves them faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    nbsight_cli::main_with_args(std::env::args_os()).into()
}

/// Transparent huge pages off before the runtime's first allocation, which
/// comes before `main` (a constructor of the binary, not of the library:
/// the Python module links the library into the user's process).
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static NO_HUGE_PAGES: extern "C" fn() = {
    extern "C" fn before_main() {
        nbsight_cli::process::no_transparent_huge_pages();
    }
    before_main
};
