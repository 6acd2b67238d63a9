//! The `backoff-lab` command line. It is native only: on wasm32 the binary is empty, so that
//! `wasm-pack test` can build every target of the package.

#[cfg(not(target_arch = "wasm32"))]
mod cli;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {}
