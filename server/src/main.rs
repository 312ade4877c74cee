//! The `strata` binary: parses the command line and turns errors into one clear line on
//! stderr with exit status 2.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = strata::cli::Cli::parse();
    init_logging();
    match strata::cli::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("strata: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// Logs go to stderr only (stdout carries LSP messages in serve mode); `STRATA_LOG`
/// sets the filter, e.g. `STRATA_LOG=strata=debug`.
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("STRATA_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .init();
}
