//! End-to-end: the AWS provider 5.100.0 found in a filesystem mirror (as the CLI
//! configuration would name it), started over the plugin protocol, and its schema
//! compared with `terraform providers schema -json`'s recording of the same provider
//! (`fixtures/providers/schemas.json`). Without the binary the test says SKIPPED, unless
//! `STRATA_REQUIRE_PROVIDERS=1` makes that a failure.

mod support;

use std::path::PathBuf;

use strata::providers::{
    self, locate, plugin, read_schema_file, CliConfig, FilesystemMirror, ProcessEnvironment,
    ProviderAddress,
};
use strata::schema::{Dialect, ProviderSchema};

const AWS: &str = "registry.terraform.io/hashicorp/aws";

/// The mirror directory: `TF_PLUGIN_MIRROR` (what `shared/tools/tf-plugin-mirror`
/// prints), else the machines' usual place.
fn mirror() -> PathBuf {
    std::env::var_os("TF_PLUGIN_MIRROR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/opt/tf-plugins"))
}

/// The AWS provider as `terraform providers schema -json` recorded it in
/// `fixtures/providers/<file>`.
fn recorded_in(file: &str) -> ProviderSchema {
    let path = format!(
        "{}/../fixtures/providers/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("fixture");
    read_schema_file(&text)
        .expect("fixture reads")
        .remove(AWS)
        .expect("aws")
}

fn recorded() -> ProviderSchema {
    recorded_in("schemas.json")
}

/// What the JSON format cannot say is dropped, so that the two sources compare.
fn comparable(mut schema: ProviderSchema) -> ProviderSchema {
    for f in schema.functions.values_mut() {
        f.description_kind = Default::default();
        for p in f.parameters.iter_mut().chain(f.variadic.as_mut()) {
            p.description_kind = Default::default();
            p.allow_unknown = false;
        }
    }
    schema
}

/// The AWS provider's binary in the mirror, or `None` (said SKIPPED for `test`) when it
/// is absent and `STRATA_REQUIRE_PROVIDERS=1` does not make that a failure.
fn aws_binary(test: &str) -> Option<PathBuf> {
    let config = CliConfig {
        provider_installation: true,
        filesystem_mirrors: vec![FilesystemMirror {
            path: mirror(),
            include: Vec::new(),
            exclude: Vec::new(),
        }],
        ..CliConfig::default()
    };
    let aws = ProviderAddress::parse("hashicorp/aws", Dialect::Terraform).unwrap();
    let root = std::env::temp_dir();
    let env = ProcessEnvironment;
    match locate(
        &aws,
        Some("5.100.0"),
        &root,
        &config,
        &env,
        Dialect::Terraform,
    ) {
        Ok(found) => {
            assert_eq!(found.origin, providers::Origin::Mirror);
            Some(found.package.path().to_path_buf())
        }
        Err(why) if std::env::var("STRATA_REQUIRE_PROVIDERS").as_deref() == Ok("1") => {
            panic!("STRATA_REQUIRE_PROVIDERS=1 but {why}")
        }
        Err(why) => {
            support::skip(test, &why.to_string());
            None
        }
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn the_aws_provider_gives_the_schema_terraform_records() {
    let Some(binary) = aws_binary("the_aws_provider_gives_the_schema_terraform_records") else {
        return;
    };
    let aws = ProviderAddress::parse("hashicorp/aws", Dialect::Terraform).unwrap();
    let loaded = runtime()
        .block_on(plugin::load_schema(&binary))
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "first schema load of {aws} 5.100.0 (protocol {}): {:?}, {} resource types",
        loaded.protocol_version,
        loaded.elapsed,
        loaded.schema.resources.len()
    );
    assert_eq!(loaded.protocol_version, 5);
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let got = comparable(loaded.schema);
    let want = recorded();
    assert_eq!(got.provider, want.provider);
    for (kind, got_all, want_all) in [
        ("resource", &got.resources, &want.resources),
        ("data source", &got.data_sources, &want.data_sources),
        (
            "ephemeral",
            &got.ephemeral_resources,
            &want.ephemeral_resources,
        ),
    ] {
        for (name, schema) in want_all {
            assert_eq!(got_all.get(name), Some(schema), "{kind} {name}");
        }
    }
    assert_eq!(got.resources.len(), 1526);
    assert_eq!(got.data_sources.len(), 608);
    assert_eq!(got.ephemeral_resources.len(), 7);
    assert_eq!(got.functions, want.functions);
}

#[test]
fn the_aws_provider_offers_the_functions_terraform_records() {
    let test = "the_aws_provider_offers_the_functions_terraform_records";
    let Some(binary) = aws_binary(test) else {
        return;
    };
    // Recorded by scripts/record-provider-functions.py.
    let want = recorded_in("functions.json").functions;
    assert_eq!(
        want.keys().map(|k| &**k).collect::<Vec<_>>(),
        ["arn_build", "arn_parse", "trim_iam_role_path"]
    );
    let runtime = runtime();
    // In the schema's response, where Terraform reads them.
    let schema = runtime.block_on(plugin::load_schema(&binary)).unwrap();
    assert_eq!(comparable(schema.schema).functions, want);
    // GetFunctions gives the same, alone.
    let functions = runtime
        .block_on(plugin::load_functions(&binary))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(functions.warnings.is_empty(), "{:?}", functions.warnings);
    assert_eq!(functions.protocol_version, 5);
    assert!(functions.schema.resources.is_empty());
    assert_eq!(comparable(functions.schema).functions, want);
}
