//! One schema per provider address and version: each root module's modules see the
//! version that root locks, and a reload resolves only the roots that changed.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use crate::providers::store::tests::{aws, env, fixture_aws, module, states, AWS};
use crate::providers::store::{
    import_schema_file, Cache, LoadedFrom, SchemaState, SchemaStore, StoreOptions,
};
use crate::providers::tests::scratch;
use crate::schema::{ProviderBody, ProviderSchemaSource, SchemaLookup};

/// Imports the recorded AWS schema as `version` into `cache`, without `aws_instance`
/// unless `with_instance`.
fn import(dir: &Path, cache: &Cache, version: &str, with_instance: bool) {
    let mut schema = fixture_aws();
    if !with_instance {
        schema["resource_schemas"]
            .as_object_mut()
            .unwrap()
            .remove("aws_instance");
    }
    let file = dir.join(format!("aws-{version}.json"));
    let json = serde_json::json!({"format_version": "1.0", "provider_schemas": {AWS: schema}});
    std::fs::write(&file, json.to_string()).unwrap();
    import_schema_file(cache, &file, &|_| Some(version.to_string())).unwrap();
}

fn instance(source: &dyn ProviderSchemaSource) -> SchemaLookup {
    match source.lookup(&aws(), ProviderBody::Resource, "aws_instance") {
        SchemaLookup::Found(_) => SchemaLookup::Found(Default::default()),
        other => other,
    }
}

fn view(store: &SchemaStore, dir: &Path) -> Arc<dyn ProviderSchemaSource> {
    store.for_module(dir).expect("the module has a root")
}

#[test]
fn each_root_sees_the_version_its_lock_file_pins() {
    let dir = scratch("view-versions");
    let cache = Cache::at(dir.join("cache"));
    import(&dir, &cache, "5.1.0", true);
    import(&dir, &cache, "5.2.0", false);
    let options = StoreOptions {
        files: Vec::new(),
        run_plugins: false,
        cache: Some(cache.clone()),
    };
    let mut old = module(
        &dir.join("old"),
        &["hashicorp/aws"],
        Some(&[(AWS, "5.1.0")]),
    );
    let new = module(
        &dir.join("new"),
        &["hashicorp/aws"],
        Some(&[(AWS, "5.2.0")]),
    );
    let shared = module(&dir.join("shared"), &["hashicorp/aws"], None);
    old.children.push(shared.dir.clone());
    let modules = [old.clone(), new.clone(), shared.clone()];
    let store = SchemaStore::load(&options, &modules, &env(&dir));

    let found = SchemaLookup::Found(Default::default());
    assert_eq!(instance(&*view(&store, &old.dir)), found);
    assert_eq!(instance(&*view(&store, &shared.dir)), found, "old's child");
    assert_eq!(instance(&*view(&store, &new.dir)), SchemaLookup::NoSuchType);
    let version = |d: &Path| view(&store, d).origin(&aws()).and_then(|o| o.version);
    assert_eq!(version(&old.dir).as_deref(), Some("5.1.0"));
    assert_eq!(version(&new.dir).as_deref(), Some("5.2.0"));
    let loaded = |v: &str| SchemaState::Loaded {
        version: Some(v.into()),
        from: LoadedFrom::Cache(cache.dir().join(format!(
            "schemas-2/registry.terraform.io/hashicorp/aws/{v}/imported.schema"
        ))),
    };
    assert_eq!(
        states(&store),
        [
            ("aws".into(), loaded("5.2.0")),
            ("aws".into(), loaded("5.1.0"))
        ]
    );

    // A reload keeps the schemas of the roots that need the same, and resolves again
    // the ones whose lock file or installed providers changed.
    let same = |a: &Arc<dyn ProviderSchemaSource>, b: &Arc<dyn ProviderSchemaSource>| {
        std::ptr::addr_eq(Arc::as_ptr(a), Arc::as_ptr(b))
    };
    let unchanged = BTreeSet::new();
    let again = SchemaStore::load_changed(Some(&store), &options, &modules, &env(&dir), &unchanged);
    assert!(same(&view(&again, &old.dir), &view(&store, &old.dir)));
    assert!(same(&view(&again, &new.dir), &view(&store, &new.dir)));
    let installed = BTreeSet::from([new.dir.clone()]);
    let again = SchemaStore::load_changed(Some(&store), &options, &modules, &env(&dir), &installed);
    assert!(same(&view(&again, &old.dir), &view(&store, &old.dir)));
    assert!(!same(&view(&again, &new.dir), &view(&store, &new.dir)));
    // `terraform init -upgrade` in `new` moved it to 5.1.0.
    let relocked = module(
        &dir.join("new"),
        &["hashicorp/aws"],
        Some(&[(AWS, "5.1.0")]),
    );
    let modules = [old.clone(), relocked, shared];
    let again = SchemaStore::load_changed(Some(&store), &options, &modules, &env(&dir), &unchanged);
    assert!(same(&view(&again, &old.dir), &view(&store, &old.dir)));
    assert_eq!(instance(&*view(&again, &new.dir)), found);
}
