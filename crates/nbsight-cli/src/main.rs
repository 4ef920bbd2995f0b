//! The `nbsight` binary: a shell over [`nbsight_cli::main_with_args`].

/// nbsight allocates many small objects (AST nodes, symbols, CFG nodes);
/// mimalloc serves them faster than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    nbsight_cli::process::no_transparent_huge_pages();
    nbsight_cli::main_with_args(std::env::args_os()).into()
}
