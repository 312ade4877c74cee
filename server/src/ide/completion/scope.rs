//! What completion reads besides the cursor's context: the file and its module's merged
//! model, the provider schemas the module is analysed with, and the schemas of the body
//! the cursor is in (the language's part and the provider's part), found by following
//! the blocks around the cursor down both schemas.

use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};

use super::context::BlockFrame;
use super::Options;
use crate::merge::{implied_local_name, FileIndex, MergedModule, Mode, ResourceKey};
use crate::module::SourceFile;
use crate::schema::{
    file_schema, provisioner_schema, BlockRole, BlockSchema, Dialect, ProviderAddress,
    ProviderBody, ProviderSchemaSource, Rest,
};
use crate::syntax::Body;
use crate::workspace::{local_child_dir, Workspace};

/// The file's schema as a shared value, so that every body's schema is an `Arc`.
static FILE_SCHEMA: LazyLock<Arc<BlockSchema>> = LazyLock::new(|| Arc::new(file_schema().clone()));

/// The workspace around one completion.
pub struct Scope<'w> {
    /// The workspace.
    pub ws: &'w Workspace,
    /// The file's directory.
    pub dir: PathBuf,
    /// The file.
    pub file: Arc<SourceFile>,
    /// Its module's merged model, when the file belongs to a module.
    pub merged: Option<Arc<MergedModule>>,
    /// The file's index in it.
    pub file_index: Option<FileIndex>,
    /// The provider schemas the module is analysed with.
    pub schemas: Arc<dyn ProviderSchemaSource>,
    /// The module's dialect.
    pub dialect: Dialect,
    /// Where the cursor is.
    pub offset: usize,
    /// What the client takes.
    pub options: Options,
}

/// The schemas of a body: what the language defines in it and what its provider does.
#[derive(Default)]
pub struct BodySchemas {
    /// The language's part: meta-arguments and the language's nested blocks.
    pub language: Option<Arc<BlockSchema>>,
    /// The provider-defined part (a resource type's, a provider's, a provisioner's).
    pub provider: Option<Arc<BlockSchema>>,
}

impl<'w> Scope<'w> {
    /// The scope of `file` at `path`.
    pub fn new(
        ws: &'w Workspace,
        path: &Path,
        file: &Arc<SourceFile>,
        offset: usize,
        options: Options,
    ) -> Self {
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let merged = ws.merged(&dir);
        let file_index = merged.as_ref().and_then(|m| m.file_index(path));
        Scope {
            ws,
            schemas: ws.provider_schemas_for(&dir),
            dialect: merged.as_ref().map(|m| m.dialect).unwrap_or_default(),
            dir,
            file: file.clone(),
            merged,
            file_index,
            offset,
            options,
        }
    }

    /// Whether the file is an override file.
    pub fn is_override(&self) -> bool {
        match (&self.merged, self.file_index) {
            (Some(m), Some(fi)) => m.is_override_file(fi),
            _ => false,
        }
    }

    /// The schemas of the body inside `blocks` (the file's top level when empty).
    pub fn body_schemas(&self, blocks: &[BlockFrame]) -> BodySchemas {
        let mut body = BodySchemas {
            language: Some(FILE_SCHEMA.clone()),
            provider: None,
        };
        // The provider-defined body a `dynamic` block's `content` holds.
        let mut dynamic_target = None;
        for (depth, frame) in blocks.iter().enumerate() {
            let language = body
                .language
                .as_ref()
                .and_then(|l| l.block(&frame.kind, self.dialect))
                .filter(|b| b.role != BlockRole::Reserved)
                .map(|b| b.schema.clone());
            let parent_provider = body.provider.take();
            if frame.kind == "dynamic" {
                dynamic_target = parent_provider
                    .as_ref()
                    .zip(frame.labels.first())
                    .and_then(|(p, name)| p.block(name, self.dialect))
                    .map(|b| b.schema.clone());
            }
            body = match language {
                Some(language) => {
                    let provider = match language.rest {
                        Rest::Provider(kind) => match &*frame.kind {
                            "content" => dynamic_target.take(),
                            "_" => parent_provider,
                            _ if depth == 0 || kind == ProviderBody::Provisioner => {
                                self.provider_body(kind, frame)
                            }
                            _ => None,
                        },
                        _ => None,
                    };
                    BodySchemas {
                        language: Some(language),
                        provider,
                    }
                }
                None => BodySchemas {
                    language: None,
                    provider: parent_provider
                        .and_then(|p| p.block(&frame.kind, self.dialect).map(|b| b.schema.clone())),
                },
            };
        }
        body
    }

    /// The provider-defined schema of body `kind` that the block `frame` opens.
    fn provider_body(&self, kind: ProviderBody, frame: &BlockFrame) -> Option<Arc<BlockSchema>> {
        let first = frame.labels.first()?;
        match kind {
            ProviderBody::Provisioner => provisioner_schema(first),
            ProviderBody::Provider => {
                let provider = self.local_provider(first);
                Some(self.schemas.lookup(&provider, kind, "").found()?.block)
            }
            ProviderBody::Resource | ProviderBody::DataSource | ProviderBody::EphemeralResource => {
                let provider = self.resource_provider(&frame.kind, first, frame.labels.get(1));
                Some(self.schemas.lookup(&provider, kind, first).found()?.block)
            }
            ProviderBody::Backend => None,
        }
    }

    /// The provider a resource of block type `keyword`, type `type_name` and name `name`
    /// uses: the merged resource's (an override's `provider` counts), else the one its
    /// type implies.
    pub fn resource_provider(
        &self,
        keyword: &str,
        type_name: &str,
        name: Option<&String>,
    ) -> ProviderAddress {
        let mode = Mode::from_keyword(keyword).unwrap_or(Mode::Managed);
        if let (Some(m), Some(name)) = (&self.merged, name) {
            let key = ResourceKey {
                mode,
                type_name: type_name.to_string(),
                name: name.clone(),
            };
            if let Some(resource) = m.resources.get(&key) {
                return m.resource_provider(resource);
            }
        }
        self.local_provider(implied_local_name(type_name))
    }

    /// The merged module of the local child module that module call `call` calls.
    pub fn child_module(&self, call: &str) -> Option<Arc<MergedModule>> {
        let m = self.merged.as_ref()?;
        let source = m.module_calls.get(call)?.source.as_ref()?;
        let source = crate::merge::literal_string(source.expr())?;
        self.ws.merged(&local_child_dir(&self.dir, source)?)
    }

    /// The provider address a local name stands for in the module.
    pub fn local_provider(&self, local: &str) -> ProviderAddress {
        match &self.merged {
            Some(m) => m.local_provider(local),
            None => ProviderAddress::implied(local, self.dialect),
        }
    }

    /// The argument names and block types written in the body inside `blocks` in the
    /// file's parse (the cursor's block found by position).
    pub fn written(&self, blocks: &[BlockFrame]) -> Vec<String> {
        let mut body: &Body = &self.file.syntax.body;
        for frame in blocks {
            let Some(block) = body
                .blocks
                .iter()
                .find(|b| b.span.contains(self.offset) && *b.kind.name == *frame.kind)
            else {
                return Vec::new();
            };
            body = &block.body;
        }
        let attributes = body.attributes.iter().map(|a| a.name.name.to_string());
        attributes
            .chain(body.blocks.iter().map(|b| b.kind.name.to_string()))
            .collect()
    }
}
