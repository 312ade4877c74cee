//! The few plugin protocol messages Strata sends and reads, declared by hand with their
//! field numbers (protocol facts of tfplugin5 and tfplugin6), so that building Strata
//! needs no `protoc`. Fields Strata does not read are left out: protobuf skips unknown
//! fields. Enumerations are read as their wire form, `int32`.

/// The empty message (`GetProviderSchema.Request`, go-plugin's `Empty`).
#[derive(Clone, PartialEq, prost::Message)]
pub struct Empty {}

/// A provider's diagnostic.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Diagnostic {
    /// 1 error, 2 warning.
    #[prost(int32, tag = "1")]
    pub severity: i32,
    /// The summary.
    #[prost(string, tag = "2")]
    pub summary: String,
    /// The detail.
    #[prost(string, tag = "3")]
    pub detail: String,
}

/// `Diagnostic.Severity.ERROR`.
pub const SEVERITY_ERROR: i32 = 1;

/// `StringKind.MARKDOWN` (`PLAIN` is 0).
pub const MARKDOWN: i32 = 1;

/// A provider-defined function.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Function {
    /// Fixed parameters.
    #[prost(message, repeated, tag = "1")]
    pub parameters: Vec<Parameter>,
    /// The parameter taking further arguments.
    #[prost(message, optional, tag = "2")]
    pub variadic_parameter: Option<Parameter>,
    /// The result.
    #[prost(message, optional, tag = "3")]
    pub r#return: Option<Return>,
    /// One line.
    #[prost(string, tag = "4")]
    pub summary: String,
    /// What it does.
    #[prost(string, tag = "5")]
    pub description: String,
    /// Plain or markdown.
    #[prost(int32, tag = "6")]
    pub description_kind: i32,
    /// Why not to use it.
    #[prost(string, tag = "7")]
    pub deprecation_message: String,
}

/// A function parameter.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Parameter {
    /// Its name.
    #[prost(string, tag = "1")]
    pub name: String,
    /// Its cty type, JSON-encoded.
    #[prost(bytes = "vec", tag = "2")]
    pub r#type: Vec<u8>,
    /// Null accepted.
    #[prost(bool, tag = "3")]
    pub allow_null_value: bool,
    /// Unknown values passed through.
    #[prost(bool, tag = "4")]
    pub allow_unknown_values: bool,
    /// What it is for.
    #[prost(string, tag = "5")]
    pub description: String,
    /// Plain or markdown.
    #[prost(int32, tag = "6")]
    pub description_kind: i32,
}

/// A function's result.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Return {
    /// Its cty type, JSON-encoded.
    #[prost(bytes = "vec", tag = "1")]
    pub r#type: Vec<u8>,
}

/// `GetFunctions.Response`, the same in both protocols (5.5 and 6.5 on).
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetFunctionsResponse {
    /// The functions, by name.
    #[prost(map = "string, message", tag = "1")]
    pub functions: std::collections::HashMap<String, Function>,
    /// Problems.
    #[prost(message, repeated, tag = "2")]
    pub diagnostics: Vec<Diagnostic>,
}

/// The schema messages, the same in both protocols except for `Attribute`.
macro_rules! schema_messages {
    ($attribute:ty) => {
        /// A versioned block schema.
        #[derive(Clone, PartialEq, prost::Message)]
        pub struct Schema {
            /// The version.
            #[prost(int64, tag = "1")]
            pub version: i64,
            /// The body.
            #[prost(message, optional, tag = "2")]
            pub block: Option<Block>,
        }

        /// A block's body.
        #[derive(Clone, PartialEq, prost::Message)]
        pub struct Block {
            /// Its attributes.
            #[prost(message, repeated, tag = "2")]
            pub attributes: Vec<$attribute>,
            /// Its nested block types.
            #[prost(message, repeated, tag = "3")]
            pub block_types: Vec<NestedBlock>,
            /// What it is.
            #[prost(string, tag = "4")]
            pub description: String,
            /// Plain or markdown.
            #[prost(int32, tag = "5")]
            pub description_kind: i32,
            /// Deprecated.
            #[prost(bool, tag = "6")]
            pub deprecated: bool,
        }

        /// A nested block type.
        #[derive(Clone, PartialEq, prost::Message)]
        pub struct NestedBlock {
            /// Its name.
            #[prost(string, tag = "1")]
            pub type_name: String,
            /// Its body.
            #[prost(message, optional, tag = "2")]
            pub block: Option<Block>,
            /// 1 single, 2 list, 3 set, 4 map, 5 group.
            #[prost(int32, tag = "3")]
            pub nesting: i32,
            /// The fewest blocks.
            #[prost(int64, tag = "4")]
            pub min_items: i64,
            /// The most blocks.
            #[prost(int64, tag = "5")]
            pub max_items: i64,
        }

        /// `GetProviderSchema.Response` (`GetSchema` in protocol 5).
        #[derive(Clone, PartialEq, prost::Message)]
        pub struct GetProviderSchemaResponse {
            /// The provider block.
            #[prost(message, optional, tag = "1")]
            pub provider: Option<Schema>,
            /// Managed resource types.
            #[prost(map = "string, message", tag = "2")]
            pub resource_schemas: HashMap<String, Schema>,
            /// Data sources.
            #[prost(map = "string, message", tag = "3")]
            pub data_source_schemas: HashMap<String, Schema>,
            /// Problems.
            #[prost(message, repeated, tag = "4")]
            pub diagnostics: Vec<super::Diagnostic>,
            /// Functions.
            #[prost(map = "string, message", tag = "7")]
            pub functions: HashMap<String, super::Function>,
            /// Ephemeral resource types.
            #[prost(map = "string, message", tag = "8")]
            pub ephemeral_resource_schemas: HashMap<String, Schema>,
        }
    };
}

/// The `Attribute` message: fields 1 to 9 are the same in both protocols, `write_only`
/// has another number, and protocol 6 adds fields.
macro_rules! attribute_message {
    ($write_only:tt $(, $(#[$meta:meta])* $field:ident: $ty:ty)*) => {
        /// An attribute.
        #[derive(Clone, PartialEq, prost::Message)]
        pub struct Attribute {
            /// Its name.
            #[prost(string, tag = "1")]
            pub name: String,
            /// Its cty type, JSON-encoded (empty for nested attributes).
            #[prost(bytes = "vec", tag = "2")]
            pub r#type: Vec<u8>,
            /// What it is.
            #[prost(string, tag = "3")]
            pub description: String,
            /// Must be set.
            #[prost(bool, tag = "4")]
            pub required: bool,
            /// May be set.
            #[prost(bool, tag = "5")]
            pub optional: bool,
            /// The provider may decide it.
            #[prost(bool, tag = "6")]
            pub computed: bool,
            /// Hidden in output.
            #[prost(bool, tag = "7")]
            pub sensitive: bool,
            /// Plain or markdown.
            #[prost(int32, tag = "8")]
            pub description_kind: i32,
            /// Deprecated.
            #[prost(bool, tag = "9")]
            pub deprecated: bool,
            /// Never stored.
            #[prost(bool, tag = $write_only)]
            pub write_only: bool,
            $($(#[$meta])* pub $field: $ty,)*
        }
    };
}

/// Protocol 5 (`tfplugin5`).
pub mod v5 {
    use std::collections::HashMap;

    schema_messages!(Attribute);
    attribute_message!("10");
}

/// Protocol 6 (`tfplugin6`): attributes may have nested attributes.
pub mod v6 {
    use std::collections::HashMap;

    schema_messages!(Attribute);
    attribute_message!(
        "11",
        /// Its nested attributes.
        #[prost(message, optional, tag = "10")]
        nested_type: Option<Object>
    );

    /// Nested attributes.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Object {
        /// The attributes.
        #[prost(message, repeated, tag = "1")]
        pub attributes: Vec<Attribute>,
        /// 1 single, 2 list, 3 set, 4 map.
        #[prost(int32, tag = "3")]
        pub nesting: i32,
    }
}
