//! Provider schemas from outside the configuration: schema files in the format of
//! `terraform providers schema -json` (`schema_file.rs`). This is the layer that will
//! find installed provider binaries and speak the plugin protocol; it is the only layer
//! allowed to start a process.

mod schema_file;

pub use schema_file::{
    read_schema_file, write_schema_file, ProviderSchemas, SchemaFileError, FORMAT_VERSION,
};
