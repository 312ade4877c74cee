//! The effective configuration as HCL text, every piece that came from another file than
//! the declaration marked `# from <file>:<line>`. Text is copied from the source spans
//! (never printed from the tree, which would not be byte-identical) and re-indented,
//! except heredoc bodies, whose text is their value and is copied untouched.

use super::{Attr, FileIndex, Lifecycle, MergedModule, Nested, ObjectRef, Origin};
use crate::syntax::{heredoc_bodies, Syntax};

/// The effective block of one object, as HCL.
pub fn render_object(m: &MergedModule, object: ObjectRef<'_>) -> String {
    let mut w = Writer::new(m, object.provenance().decl.file);
    w.object(object);
    w.out
}

/// The whole effective module, as HCL: `strata merged --format text`.
pub fn render_module(m: &MergedModule) -> String {
    let mut out = String::new();
    let t = &m.terraform;
    if !t.blocks.is_empty() {
        let mut w = Writer::new(m, t.blocks[0].file);
        w.line(0, "terraform {");
        for v in &t.required_version {
            w.attr(1, v);
        }
        if !t.required_providers.is_empty() {
            w.line(1, "required_providers {");
            for entry in t.required_providers.values() {
                w.attr(2, entry);
            }
            w.line(1, "}");
        }
        for b in t.backend.iter().chain(t.cloud.iter()) {
            w.block(1, b);
        }
        w.line(0, "}");
        out.push_str(&w.out);
    }
    for object in m.objects() {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&render_object(m, object));
    }
    out
}

struct Writer<'a> {
    m: &'a MergedModule,
    base: FileIndex,
    out: String,
    /// Column at which the text last taken from a source started.
    last_column: usize,
}

impl<'a> Writer<'a> {
    fn new(m: &'a MergedModule, base: FileIndex) -> Self {
        Self {
            m,
            base,
            out: String::new(),
            last_column: 0,
        }
    }

    fn line(&mut self, indent: usize, text: &str) {
        for _ in 0..indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn origin_comment(&mut self, indent: usize, origin: Origin) {
        if origin.file != self.base {
            let text = format!("# from {}", self.m.describe(origin));
            self.line(indent, &text);
        }
    }

    fn attr(&mut self, indent: usize, a: &Attr) {
        self.origin_comment(indent, a.origin());
        if self.m.file(a.file).syntax.syntax == Syntax::Json {
            // `"name": value` reads as HCL once written `name = value`.
            let value = self.source(Origin {
                file: a.file,
                span: a.attr.expr.span,
            });
            self.text(indent, &format!("{} = {value}", a.attr.name.name));
        } else {
            let text = self.source(a.origin());
            self.text(indent, &text);
        }
    }

    fn block(&mut self, indent: usize, n: &Nested) {
        self.origin_comment(indent, n.header_origin());
        let text = self.source(Origin {
            file: n.file,
            span: n.block.span,
        });
        if self.m.file(n.file).syntax.syntax == Syntax::Json {
            // The span of a JSON block starts at its innermost label; say what it is.
            self.text(indent, &format!("{} = {}", n.block.header(), text));
        } else {
            self.text(indent, &text);
        }
    }

    /// Source text re-indented: its first line at `indent`, later lines keeping their
    /// indentation relative to the first. Heredoc body lines are copied as they are:
    /// their spaces are part of the value.
    fn text(&mut self, indent: usize, text: &str) {
        let bodies = heredoc_bodies(text);
        let column = self.last_column;
        let mut offset = 0;
        for (i, raw) in text.split_inclusive('\n').enumerate() {
            let start = offset;
            offset += raw.len();
            let line = raw.trim_end_matches(['\n', '\r']);
            if bodies.iter().any(|b| b.contains(&start)) {
                self.out.push_str(line);
                self.out.push('\n');
            } else if i == 0 {
                self.line(indent, line.trim_start());
            } else {
                let strip = line
                    .bytes()
                    .take(column)
                    .take_while(|b| *b == b' ' || *b == b'\t')
                    .count();
                self.line(indent, line[strip..].trim_end());
            }
        }
    }

    /// Text of the span, and remembers the column it started at for re-indenting.
    fn source(&mut self, origin: Origin) -> String {
        let file = self.m.file(origin.file);
        let text = &file.text;
        let start = (origin.span.start as usize).min(text.len());
        let end = (origin.span.end as usize).clamp(start, text.len());
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        self.last_column = start - line_start;
        text[start..end].to_string()
    }

    fn object(&mut self, object: ObjectRef<'_>) {
        match object {
            ObjectRef::Local(l) => {
                self.line(0, "locals {");
                self.attr(1, &l.value);
                self.line(0, "}");
                return;
            }
            _ => {
                let header = header_text(object);
                self.line(0, &format!("{header} {{"));
            }
        }
        match object {
            ObjectRef::Variable(v) => {
                for a in v.settings() {
                    self.attr(1, a);
                }
                for b in &v.validations {
                    self.block(1, b);
                }
            }
            ObjectRef::Output(o) => {
                for a in o.settings() {
                    self.attr(1, a);
                }
                for b in &o.preconditions {
                    self.block(1, b);
                }
            }
            ObjectRef::ModuleCall(c) => {
                for a in c.settings() {
                    self.attr(1, a);
                }
                self.body(&c.arguments);
                if let Some(d) = &c.depends_on {
                    self.attr(1, d);
                }
            }
            ObjectRef::Provider(p) => {
                for a in p.alias_attr.iter().chain(p.version.iter()) {
                    self.attr(1, a);
                }
                self.body(&p.config);
            }
            ObjectRef::Resource(r) => {
                for a in [&r.count, &r.for_each, &r.provider].into_iter().flatten() {
                    self.attr(1, a);
                }
                self.body(&r.config);
                self.lifecycle(&r.lifecycle);
                for b in r.connection.iter().chain(r.provisioners.iter()) {
                    self.block(1, b);
                }
                if let Some(d) = &r.depends_on {
                    self.attr(1, d);
                }
            }
            ObjectRef::Local(_) => {}
        }
        self.line(0, "}");
    }

    fn body(&mut self, body: &super::MergedBody) {
        for a in &body.attributes {
            self.attr(1, a);
        }
        for b in &body.blocks {
            self.block(1, b);
        }
    }

    fn lifecycle(&mut self, lc: &Lifecycle) {
        if lc.is_empty() {
            return;
        }
        self.line(1, "lifecycle {");
        for a in lc.settings() {
            self.attr(2, a);
        }
        for b in lc.preconditions.iter().chain(lc.postconditions.iter()) {
            self.block(2, b);
        }
        self.line(1, "}");
    }
}

/// `resource "t" "n"`, `variable "x"`, ...: the header of an object's declaring block.
fn header_text(object: ObjectRef<'_>) -> String {
    match object {
        ObjectRef::Variable(v) => format!("variable \"{}\"", v.name),
        ObjectRef::Local(_) => "locals".into(),
        ObjectRef::Output(o) => format!("output \"{}\"", o.name),
        ObjectRef::ModuleCall(c) => format!("module \"{}\"", c.name),
        ObjectRef::Resource(r) => format!(
            "{} \"{}\" \"{}\"",
            r.key.mode.keyword(),
            r.key.type_name,
            r.key.name
        ),
        ObjectRef::Provider(p) => format!("provider \"{}\"", p.name),
    }
}
