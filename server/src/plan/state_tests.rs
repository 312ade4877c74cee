use super::*;

const STATE: &str = r#"{
  "version": 4,
  "terraform_version": "1.11.4",
  "serial": 7,
  "lineage": "l",
  "outputs": { "name": { "value": "demo", "type": "string" } },
  "resources": [
    {
      "mode": "managed", "type": "terraform_data", "name": "app",
      "provider": "provider[\"terraform.io/builtin/terraform\"]",
      "instances": [ { "schema_version": 0, "attributes": { "id": "1" } } ]
    },
    {
      "module": "module.net[\"a\"]",
      "mode": "managed", "type": "aws_instance", "name": "web",
      "provider": "module.net.provider[\"registry.terraform.io/hashicorp/aws\"]",
      "instances": [
        { "index_key": 0, "status": "tainted", "attributes": { "id": "i-0" },
          "dependencies": ["module.net[\"a\"].aws_vpc.this[0]"], "create_before_destroy": true },
        { "index_key": 0, "deposed": "00000001", "attributes": { "id": "i-old" } },
        { "index_key": 1, "attributes": { "id": "i-1" } }
      ]
    },
    {
      "mode": "data", "type": "aws_ami", "name": "ubuntu",
      "instances": [ { "index_key": "x", "attributes_flat": { "id": "ami-1" } } ]
    }
  ],
  "check_results": null
}"#;

#[test]
fn reads_resources_instances_keys_and_statuses() {
    let state = parse_state(STATE, "terraform.tfstate").unwrap();
    assert_eq!(state.serial, 7);
    assert_eq!(state.outputs["name"].value, serde_json::json!("demo"));
    assert_eq!(state.resources.len(), 3);
    let web = &state.resources[1];
    assert_eq!(web.address(), "module.net[\"a\"].aws_instance.web");
    assert_eq!(web.instances[0].key, InstanceKey::Int(0));
    assert_eq!(web.instances[0].status, InstanceStatus::Tainted);
    assert!(web.instances[0].create_before_destroy);
    assert_eq!(
        web.instances[0].dependencies,
        vec!["module.net.aws_vpc.this"]
    );
    assert_eq!(web.instances[1].deposed.as_deref(), Some("00000001"));
    let ami = &state.resources[2];
    assert_eq!(ami.mode, ResourceMode::Data);
    assert_eq!(ami.address(), "data.aws_ami.ubuntu");
    assert_eq!(ami.instances[0].key, InstanceKey::String("x".into()));
    assert_eq!(ami.instances[0].attributes["id"], "ami-1");
    assert_eq!(state.resources[0].instances[0].key, InstanceKey::None);
}

#[test]
fn malformed_states_are_clear_errors() {
    let err = parse_state("{\n  \"version\": 4,\n  oops\n}", "s.tfstate").unwrap_err();
    assert!(
        matches!(err, StateError::Malformed { line: 3, .. }),
        "{err}"
    );
    assert!(err
        .to_string()
        .starts_with("state file s.tfstate is not valid JSON state (line 3"));
    let v3 = parse_state(r#"{"version": 3}"#, "s.tfstate").unwrap_err();
    assert_eq!(v3.to_string(), "state file s.tfstate has format version 3; Strata reads version 4 (Terraform 0.12 and later)");
    let bad_mode = STATE.replace("\"mode\": \"data\"", "\"mode\": \"ephemeral\"");
    assert!(parse_state(&bad_mode, "s")
        .unwrap_err()
        .to_string()
        .contains("invalid resource mode \"ephemeral\""));
    let bad_status = STATE.replace("\"tainted\"", "\"broken\"");
    assert!(parse_state(&bad_status, "s")
        .unwrap_err()
        .to_string()
        .contains("invalid instance status"));
    let bad_key = STATE.replace("\"index_key\": 1,", "\"index_key\": true,");
    assert!(parse_state(&bad_key, "s")
        .unwrap_err()
        .to_string()
        .contains("invalid instance key true"));
    let duplicate = STATE.replace("\"index_key\": 1,", "\"index_key\": 0,");
    assert!(parse_state(&duplicate, "s")
        .unwrap_err()
        .to_string()
        .contains("duplicate current object"));
}

#[test]
fn a_missing_state_file_is_an_empty_state() {
    let missing = std::env::temp_dir().join("strata-no-such-state.tfstate");
    assert_eq!(read_state(&missing), Ok(None));
}

#[test]
fn the_demo_state_reads() {
    let demo =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/demo/terraform.tfstate");
    let state = read_state(&demo).unwrap().unwrap();
    let addresses: Vec<String> = state.resources.iter().map(StateResource::address).collect();
    assert_eq!(addresses, vec!["terraform_data.app", "null_resource.web"]);
}

#[test]
fn versions_that_are_not_whole_numbers_are_named() {
    let err = |text: &str| parse_state(text, "s.tfstate").unwrap_err().to_string();
    let prefix = "state file s.tfstate: Unsupported state file format: ";
    for (version, shown) in [
        ("4.0", "number 4.0"),
        ("\"4\"", "string"),
        ("-1", "number -1"),
        // (Terraform shows the literal as written; serde_json rewrites exponents, so
        // `1e30` is shown as `1e+30`.)
        ("1e30", "number 1e+30"),
        ("true", "bool"),
    ] {
        assert_eq!(
            err(&format!("{{\"version\": {version}}}")),
            format!("{prefix}The version in the state file is {shown}. A positive whole number is required.")
        );
    }
    for text in [r#"{"version": null}"#, r#"{"serial": 1}"#] {
        assert_eq!(
            err(text),
            format!("{prefix}The state file does not have a \"version\" attribute, which is required to identify the format version.")
        );
    }
    assert!(err(r#"{"version": 99}"#).contains("has format version 99"));
}

#[cfg(unix)]
#[test]
fn special_and_huge_state_files_are_refused() {
    let dir = std::env::temp_dir().join(format!("strata-state-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo.tfstate");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let err = read_state(&fifo).unwrap_err().to_string();
    assert!(
        err.ends_with("it is a FIFO (named pipe), not a regular file"),
        "{err}"
    );
    let sparse = dir.join("sparse.tfstate");
    std::fs::File::create(&sparse)
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    let err = read_state(&sparse).unwrap_err().to_string();
    assert!(
        err.ends_with("it is 2147483648 bytes, larger than the 268435456 bytes Strata reads"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
