//! The command line: `serve`, `check`, and the shared options. A thin face over the same
//! analysis the language server uses.

mod annotations;
mod check;
mod diff;
mod fmt;
mod merged;
mod plan;
mod sarif;
mod schema_json;
mod schemas;
mod text;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};

use crate::module::{Dialect, Module};
use crate::workspace::Workspace;

/// Strata: Terraform and OpenTofu analysis that understands override files.
#[derive(Debug, Parser)]
#[command(name = "strata", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the language server over standard input and output.
    #[command(
        after_help = "Example: an editor starts it as `strata serve` (or `strata serve --stdio`)."
    )]
    Serve {
        /// Accepted for editors that always pass it; stdio is the only transport.
        #[arg(long)]
        stdio: bool,
    },
    /// Report the configuration errors of every module under DIR.
    #[command(
        after_help = "Examples:\n  strata check\n  strata check infra --format sarif > strata.sarif\n  strata check --dialect opentofu --no-color"
    )]
    Check {
        /// The directory to check (default: the current one); sub-directories holding
        /// modules are checked too.
        dir: Option<PathBuf>,
        /// Output format: text like `terraform validate`, its `-json`, SARIF 2.1.0 for
        /// code scanning, or GitHub Actions workflow annotations.
        #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
        format: CheckFormat,
        /// Dialect rules to apply (default: opentofu if a module has .tofu files).
        #[arg(long, value_enum)]
        dialect: Option<DialectArg>,
        /// The Terraform (or OpenTofu) version to check `required_version` against where
        /// no .terraform-version, .opentofu-version or .tool-versions file says otherwise
        /// (default: the release Strata targets).
        #[arg(long, value_name = "VERSION", value_parser = parse_version)]
        terraform_version: Option<String>,
        /// A file of provider schemas in the format of `terraform providers schema
        /// -json` (repeatable): resource, data source and provider bodies are checked
        /// against it. Its providers win over the cache and provider binaries.
        #[arg(long = "provider-schemas", value_name = "FILE")]
        provider_schemas: Vec<PathBuf>,
        /// Never start a provider binary found inside the workspace (its .terraform
        /// directory); the cache, plugin cache and mirrors are still used.
        #[arg(long)]
        no_plugins: bool,
        /// Plain text without colour; without it the text format is coloured as
        /// Terraform colours it when standard output is a terminal and NO_COLOR is unset.
        #[arg(long)]
        no_color: bool,
    },
    /// Provider schemas: import a schema file into the cache, export what Strata finds,
    /// or show where each provider's schema comes from.
    #[command(
        after_help = "Examples:\n  terraform providers schema -json > schemas.json && strata schemas import schemas.json\n  strata schemas status"
    )]
    Schemas {
        /// What to do.
        #[command(subcommand)]
        command: schemas::SchemasCommand,
    },
    /// Preview what `terraform plan` would do for the module in DIR, from its
    /// configuration and prior state, without running Terraform or providers.
    #[command(
        after_help = "Examples:\n  strata plan\n  strata plan infra --var region=eu-west-1 --var-file prod.tfvars --format json"
    )]
    Plan {
        /// The module directory (default: the current one).
        dir: Option<PathBuf>,
        /// The prior state (default: terraform.tfstate in DIR; none means empty). A
        /// relative path is resolved against DIR, as `terraform -chdir=DIR` does; a
        /// file that does not exist is a warning and an empty state.
        #[arg(long)]
        state: Option<PathBuf>,
        /// Force replacement of this resource instance (repeatable).
        #[arg(long = "replace", value_name = "ADDR")]
        replace: Vec<String>,
        /// Plan only the refresh: no resource changes.
        #[arg(long)]
        refresh_only: bool,
        /// Plan to destroy every object in the state.
        #[arg(long, conflicts_with = "refresh_only")]
        destroy: bool,
        /// Set a root variable, NAME=VALUE (repeatable).
        #[arg(long = "var", value_name = "NAME=VALUE")]
        vars: Vec<String>,
        /// Read root variable values from this file (repeatable). A relative path is
        /// resolved against DIR, as for --state.
        #[arg(long = "var-file", value_name = "FILE")]
        var_files: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Dialect rules to apply (default: opentofu if the module has .tofu files).
        #[arg(long, value_enum)]
        dialect: Option<DialectArg>,
        /// A file of provider schemas in the format of `terraform providers schema
        /// -json` (repeatable): resources are planned with
        /// their types' schemas.
        #[arg(long = "provider-schemas", value_name = "FILE")]
        provider_schemas: Vec<PathBuf>,
    },
    /// Format files as `terraform fmt` does: rewrite those that change and list them.
    #[command(
        after_help = "Examples:\n  strata fmt --recursive\n  strata fmt --check --diff modules/"
    )]
    Fmt {
        /// Files or directories (default: the current directory); `-` reads standard
        /// input and writes the result to standard output.
        paths: Vec<PathBuf>,
        /// Write nothing: list the files that would change and exit with status 3 if any.
        #[arg(long)]
        check: bool,
        /// Print a unified diff of each change.
        #[arg(long)]
        diff: bool,
        /// Also format the files of sub-directories.
        #[arg(long)]
        recursive: bool,
    },
    /// Print the effective configuration of the module in DIR, overrides merged.
    #[command(after_help = "Examples:\n  strata merged\n  strata merged infra --format json")]
    Merged {
        /// The module directory (default: the current one).
        dir: Option<PathBuf>,
        /// Output format: HCL with origin comments, or JSON like `terraform show -json`.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Dialect rules to apply (default: opentofu if the module has .tofu files).
        #[arg(long, value_enum)]
        dialect: Option<DialectArg>,
        /// A file of provider schemas in the format of `terraform providers schema
        /// -json` (repeatable): overridden resource bodies are merged as their schemas
        /// say which names are blocks.
        #[arg(long = "provider-schemas", value_name = "FILE")]
        provider_schemas: Vec<PathBuf>,
    },
    /// Print the shell completion script for SHELL on standard output.
    #[command(
        after_help = "Example, for bash: strata completions bash > ~/.local/share/bash-completion/completions/strata"
    )]
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page strata(1), in roff, on standard output, or write it and a
    /// page for each subcommand (strata-check(1), strata-schemas-import(1), ...) into DIR.
    #[command(
        after_help = "Examples:\n  strata man | man -l -\n  strata man --out-dir ~/.local/share/man/man1"
    )]
    Man {
        /// Write strata.1 and the subcommands' pages into this directory instead.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
    },
}

/// A `--terraform-version` value: an exact version such as `1.9.8`.
fn parse_version(text: &str) -> Result<String, String> {
    let version = text.trim_start_matches('v');
    if crate::module::is_exact_version(version) {
        Ok(version.to_string())
    } else {
        Err(format!("{text:?} is not a version like 1.9.8"))
    }
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Human-readable, like Terraform's own output.
    Text,
    /// Machine-readable, in the shape of Terraform's `-json` output.
    Json,
}

/// `strata check --format` values: the common formats and those CI systems read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// Human-readable, like `terraform validate`.
    Text,
    /// `terraform validate -json`.
    Json,
    /// SARIF 2.1.0, for code scanning (one rule per diagnostic code and summary).
    Sarif,
    /// GitHub Actions workflow commands: one `::error` or `::warning` annotation a line.
    Github,
}

/// `--dialect` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DialectArg {
    /// HashiCorp Terraform.
    Terraform,
    /// OpenTofu.
    Opentofu,
}

impl From<DialectArg> for Dialect {
    fn from(d: DialectArg) -> Self {
        match d {
            DialectArg::Terraform => Dialect::Terraform,
            DialectArg::Opentofu => Dialect::OpenTofu,
        }
    }
}

/// A workspace holding the one module in `dir` (made canonical), for the commands that
/// read a single module; an error when `dir` cannot be read or holds no configuration.
fn load_module(
    dir: &Path,
    dialect: Option<Dialect>,
    schema_files: &[PathBuf],
) -> Result<(PathBuf, Workspace, Arc<Module>)> {
    let dir = check::readable_dir(dir)?;
    let ws = Workspace::new();
    ws.set_dialect(dialect);
    if !schema_files.is_empty() {
        let loaded = crate::providers::load_schema_files(schema_files)?;
        ws.set_provider_schemas(Arc::new(loaded));
    }
    let module = ws.index_dir(&dir);
    if module.sources.is_empty() {
        bail!("{} holds no Terraform configuration files", dir.display());
    }
    Ok((dir, ws, module))
}

/// Runs the command line; errors here are usage or input errors (exit status 2).
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Serve { stdio: _ } => {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .thread_stack_size(crate::limits::THREAD_STACK_BYTES)
                .build()
                .context("cannot start the async runtime")?;
            let clean = runtime.block_on(crate::lsp::serve_stdio());
            // The thread blocked reading stdin would hold a normal runtime drop forever
            // when the client sends `exit` but keeps stdin open.
            runtime.shutdown_background();
            // LSP: exit status 0 after `shutdown`, 1 when `exit` came without it.
            Ok(if clean {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Check {
            dir,
            format,
            dialect,
            terraform_version,
            provider_schemas,
            no_plugins,
            no_color,
        } => check::run(
            &dir.unwrap_or_else(|| PathBuf::from(".")),
            format,
            dialect.map(Dialect::from),
            terraform_version,
            (&provider_schemas, no_plugins),
            check::Colour::wanted(no_color),
        ),
        Command::Schemas { command } => schemas::run(command),
        Command::Plan {
            dir,
            state,
            replace,
            refresh_only,
            destroy,
            vars,
            var_files,
            format,
            dialect,
            provider_schemas,
        } => {
            let mut parsed = Vec::new();
            for v in vars {
                let Some((name, value)) = v.split_once('=') else {
                    anyhow::bail!("--var {v:?}: expected NAME=VALUE");
                };
                parsed.push((name.to_string(), value.to_string()));
            }
            let options = crate::plan::PlanOptions {
                mode: if destroy {
                    crate::plan::PlanMode::Destroy
                } else if refresh_only {
                    crate::plan::PlanMode::RefreshOnly
                } else {
                    crate::plan::PlanMode::Normal
                },
                replace,
                inputs: crate::plan::VariableInputs {
                    files: var_files,
                    vars: parsed,
                    env: crate::plan::VariableInputs::from_environment(),
                },
            };
            plan::run(
                &dir.unwrap_or_else(|| PathBuf::from(".")),
                state.as_deref(),
                &options,
                format,
                dialect.map(Dialect::from),
                &provider_schemas,
            )
        }
        Command::Fmt {
            paths,
            check,
            diff,
            recursive,
        } => fmt::run(
            &paths,
            fmt::Options {
                check,
                diff,
                recursive,
            },
        ),
        Command::Merged {
            dir,
            format,
            dialect,
            provider_schemas,
        } => merged::run(
            &dir.unwrap_or_else(|| PathBuf::from(".")),
            format,
            dialect.map(Dialect::from),
            &provider_schemas,
        ),
        Command::Completions { shell } => {
            let mut command = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut command, "strata", &mut std::io::stdout());
            Ok(ExitCode::SUCCESS)
        }
        Command::Man { out_dir } => {
            // The pages name each other; `help` is no page of its own.
            let command = <Cli as clap::CommandFactory>::command().disable_help_subcommand(true);
            match out_dir {
                Some(dir) => clap_mangen::generate_to(command, &dir)
                    .with_context(|| format!("writing manual pages into {}", dir.display()))?,
                None => clap_mangen::Man::new(command)
                    .render(&mut std::io::stdout().lock())
                    .context("writing the manual page")?,
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
