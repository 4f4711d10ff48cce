//! The encodings of the bundle's wire types (see `bundle`), field by
//! field, over the primitives of `wire`; and the summary of a skill, the
//! front of its encoding that listings read.

use alloc::vec::Vec;

use crate::wire::bundle::{Bytes, Content, File, Signature, Skill, SkillFileName, ToolRule};
use crate::wire::postcard::{
    Decode, Encode, Reader, Sink, WireError, WireErrorKind, put_bytes, put_option_text, put_text,
    put_varint,
};

// The wire types, field by field in declaration order (the order is the
// format: see the bundle module's "Compatibility").

impl Encode for Bytes<'_> {
    fn encode(&self, out: &mut dyn Sink) {
        put_bytes(out, self.0);
    }
}

impl<'a> Decode<'a> for Bytes<'a> {
    fn decode(reader: &mut Reader<'a>) -> Result<Self, WireError> {
        reader.bytes().map(Bytes)
    }
}

/// A skill's own encoding (every field but the name), with nothing after
/// it.
pub(crate) fn decode_skill<'a>(name: &'a str, detail: &'a [u8]) -> Result<Skill<'a>, WireError> {
    let mut reader = Reader::new(detail);
    let mut skill = Skill::decode(&mut reader)?;
    if !reader.rest().is_empty() {
        return Err(reader.error(WireErrorKind::TrailingBytes));
    }
    skill.name = name;
    Ok(skill)
}

/// The fields of a skill the catalog's listings show, decoded from the
/// front of its encoding without the rest (instructions, files, digests).
#[derive(Debug, Clone, Default)]
#[cfg_attr(not(feature = "catalog"), allow(dead_code))]
pub(crate) struct Summary<'a> {
    pub(crate) description: &'a str,
    pub(crate) location: &'a str,
    pub(crate) version: Option<&'a str>,
    pub(crate) tags: Vec<&'a str>,
    pub(crate) when_to_use: Vec<&'a str>,
    pub(crate) when_not_to_use: Vec<&'a str>,
}

#[cfg_attr(not(feature = "catalog"), allow(dead_code))]
impl<'a> Summary<'a> {
    /// Reads the summary at the front of a skill's encoding; `frontmatter`
    /// is returned too, for [`Skill::decode`] to go on.
    fn read(reader: &mut Reader<'a>) -> Result<(&'a str, Self), WireError> {
        let frontmatter = reader.str()?;
        let summary = Summary {
            description: reader.text(frontmatter)?,
            location: reader.str()?,
            version: reader.option_text(frontmatter)?,
            tags: reader.seq()?,
            when_to_use: reader.seq()?,
            when_not_to_use: reader.seq()?,
        };
        Ok((frontmatter, summary))
    }

    /// The summary of a decoded skill.
    pub(crate) fn of(skill: &Skill<'a>) -> Self {
        Summary {
            description: skill.description,
            location: skill.location,
            version: skill.version,
            tags: skill.tags.clone(),
            when_to_use: skill.when_to_use.clone(),
            when_not_to_use: skill.when_not_to_use.clone(),
        }
    }

    /// The summary of the skill whose own encoding is `detail`.
    pub(crate) fn decode(detail: &'a [u8]) -> Result<Self, WireError> {
        Summary::read(&mut Reader::new(detail)).map(|(_, summary)| summary)
    }
}

impl Encode for Skill<'_> {
    /// The skill's own encoding. The bytes its digests already cover (the
    /// frontmatter, the instructions, the skill file when stored, every
    /// file's bytes) go through [`Sink::put_digested`] with their recorded
    /// SHA-256, and its signatures with an empty list, so a hashing sink
    /// computes the skill's digest (`trust::revision`) without hashing those
    /// bytes again.
    fn encode(&self, out: &mut dyn Sink) {
        let fm = self.frontmatter;
        // The summary first (see `Summary`), the frontmatter at its head
        // so the texts after it can refer to it.
        put_varint(out, fm.len() as u64);
        out.put_digested(fm.as_bytes(), &self.frontmatter_sha256);
        put_text(out, self.description, fm);
        self.location.encode(out);
        put_option_text(out, self.version, fm);
        self.tags.encode(out);
        self.when_to_use.encode(out);
        self.when_not_to_use.encode(out);
        put_option_text(out, self.license, fm);
        put_option_text(out, self.compatibility, fm);
        put_varint(out, self.metadata.len() as u64);
        for (key, value) in &self.metadata {
            put_text(out, key, fm);
            put_text(out, value, fm);
        }
        put_option_text(out, self.allowed_tools, fm);
        self.rules.encode(out);
        self.skill_file.encode(out);
        put_varint(out, self.body_len as u64);
        put_varint(out, self.instructions.len() as u64);
        out.put_digested(self.instructions.as_bytes(), &self.instructions_sha256);
        out.put(&self.instructions_sha256);
        out.put(&self.frontmatter_sha256);
        self.files.encode(out);
        match self.skill_file_bytes {
            None => out.put(&[0]),
            Some(bytes) => {
                out.put(&[1]);
                put_varint(out, bytes.len() as u64);
                out.put_digested(bytes.0, &self.skill_file_sha256);
            }
        }
        put_varint(out, self.skill_file_size);
        out.put(&self.skill_file_sha256);
        out.put(&self.revision);
        if self.signatures.is_empty() {
            out.put(&[0]);
        } else {
            // Signing adds signatures without changing the digest.
            out.put_digested(&crate::wire::postcard::to_vec(&self.signatures), &[0]);
        }
        self.frontmatter_json.encode(out);
        self.executables.encode(out);
    }
}

impl<'a> Decode<'a> for Skill<'a> {
    fn decode(reader: &mut Reader<'a>) -> Result<Self, WireError> {
        let (frontmatter, summary) = Summary::read(reader)?;
        let license = reader.option_text(frontmatter)?;
        let compatibility = reader.option_text(frontmatter)?;
        let count = reader.usize()?;
        let mut metadata = Vec::with_capacity(count.min(reader.rest().len()));
        for _ in 0..count {
            metadata.push((reader.text(frontmatter)?, reader.text(frontmatter)?));
        }
        Ok(Skill {
            name: "",
            location: summary.location,
            description: summary.description,
            license,
            compatibility,
            metadata,
            allowed_tools: reader.option_text(frontmatter)?,
            rules: reader.seq()?,
            skill_file: SkillFileName::decode(reader)?,
            body_len: reader.usize()?,
            instructions: reader.str()?,
            instructions_sha256: reader.array32()?,
            frontmatter_sha256: reader.array32()?,
            files: reader.seq()?,
            version: summary.version,
            frontmatter,
            skill_file_bytes: reader.option()?,
            skill_file_size: reader.varint(64)?,
            skill_file_sha256: reader.array32()?,
            revision: reader.array32()?,
            signatures: reader.seq()?,
            when_to_use: summary.when_to_use,
            when_not_to_use: summary.when_not_to_use,
            tags: summary.tags,
            frontmatter_json: reader.option()?,
            // Format 8 ends here; format 9 always writes the option.
            executables: match reader.rest().is_empty() {
                true => None,
                false => match reader.some()? {
                    true => Some(reader.seq()?),
                    false => None,
                },
            },
        })
    }
}

impl Encode for Signature<'_> {
    fn encode(&self, out: &mut dyn Sink) {
        self.key_id.encode(out);
        self.origin.encode(out);
        self.signature.encode(out);
    }
}

impl<'a> Decode<'a> for Signature<'a> {
    fn decode(reader: &mut Reader<'a>) -> Result<Self, WireError> {
        Ok(Signature {
            key_id: reader.str()?,
            origin: reader.str()?,
            signature: Bytes::decode(reader)?,
        })
    }
}

impl Encode for SkillFileName {
    fn encode(&self, out: &mut dyn Sink) {
        put_varint(out, *self as u64);
    }
}

impl<'a> Decode<'a> for SkillFileName {
    fn decode(reader: &mut Reader<'a>) -> Result<Self, WireError> {
        Ok(match reader.variant(2)? {
            0 => SkillFileName::Upper,
            _ => SkillFileName::Lower,
        })
    }
}

impl Encode for ToolRule<'_> {
    fn encode(&self, out: &mut dyn Sink) {
        self.tool.encode(out);
        self.spec.encode(out);
    }
}

impl<'a> Decode<'a> for ToolRule<'a> {
    fn decode(reader: &mut Reader<'a>) -> Result<Self, WireError> {
        Ok(ToolRule {
            tool: reader.str()?,
            spec: reader.option()?,
        })
    }
}

impl Encode for File<'_> {
    fn encode(&self, out: &mut dyn Sink) {
        self.path.encode(out);
        out.put(&self.sha256);
        let (variant, media_type) = match self.content {
            Content::Text(_) => (0, None),
            Content::Image { media_type, .. } => (1, Some(media_type)),
            Content::Binary { media_type, .. } => (2, Some(media_type)),
        };
        put_varint(out, variant);
        if let Some(media_type) = media_type {
            media_type.encode(out);
        }
        let bytes = self.bytes();
        put_varint(out, bytes.len() as u64);
        out.put_digested(bytes, &self.sha256);
    }
}

impl<'a> Decode<'a> for File<'a> {
    fn decode(reader: &mut Reader<'a>) -> Result<Self, WireError> {
        Ok(File {
            path: reader.str()?,
            sha256: reader.array32()?,
            content: Content::decode(reader)?,
        })
    }
}

impl<'a> Decode<'a> for Content<'a> {
    fn decode(reader: &mut Reader<'a>) -> Result<Self, WireError> {
        Ok(match reader.variant(3)? {
            0 => Content::Text(reader.str()?),
            1 => Content::Image {
                media_type: reader.str()?,
                bytes: Bytes::decode(reader)?,
            },
            _ => Content::Binary {
                media_type: reader.str()?,
                bytes: Bytes::decode(reader)?,
            },
        })
    }
}

impl<'a> crate::wire::bundle::SkillEntry<'a> {
    /// Decodes the skill, borrowing from the detail's bytes; bytes after
    /// the skill's encoding are an error. Does not check the skill's rules
    /// (see [`Bundle::check`](crate::wire::bundle::Bundle::check)).
    pub fn decode(&self) -> Result<Skill<'a>, crate::wire::postcard::WireError> {
        decode_skill(self.name, self.detail.0)
    }
}
