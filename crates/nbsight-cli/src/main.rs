//! The `nbsight` binary: a shell over [`nbsight_cli::main_with_args`].

/// nbsight allocates many small objects (AST nodes, symbols, CFG nodes);
/// mimalloc serves them faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    nbsight_cli::main_with_args(std::env::args_os()).into()
}

// Transparent huge pages off before the runtime's first allocation (a
// constructor of the binary, not of the library: the Python module links
// the library into the user's process).
nbsight_cli::no_huge_pages_before_main!();
