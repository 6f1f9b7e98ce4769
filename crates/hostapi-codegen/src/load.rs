use std::path::{Path, PathBuf};

use crate::error::{CodegenError, escape_segment};

/// A parsed spec: the document as plain JSON (for checks that report JSON pointers)
/// and as a typed OpenAPI document (for the generator).
#[derive(Debug, Clone)]
pub struct Spec {
    /// The file it was read from.
    pub path: PathBuf,
    /// The document as JSON.
    pub json: serde_json::Value,
    /// The document as OpenAPI 3.0.
    pub document: openapiv3::OpenAPI,
}

impl Spec {
    /// Reads and parses a YAML (or JSON) OpenAPI 3.0 document.
    pub fn load(path: &Path) -> Result<Self, CodegenError> {
        let text = std::fs::read_to_string(path).map_err(|source| CodegenError::Read {
            spec: path.to_owned(),
            source,
        })?;
        Self::parse(path, &text)
    }

    /// Parses a document already read from `path`.
    pub fn parse(path: &Path, text: &str) -> Result<Self, CodegenError> {
        let json: serde_json::Value =
            serde_yaml_ng::from_str(text).map_err(|e| CodegenError::Yaml {
                spec: path.to_owned(),
                message: e.to_string(),
            })?;
        let document = serde_path_to_error::deserialize(&json).map_err(|e| {
            let (pointer, message) = match pointer_of(e.path()).as_str() {
                // openapiv3 reads `paths` through a flattened map, which hides the
                // position: find the path item that fails on its own.
                "/paths" => {
                    locate_in_paths(&json).unwrap_or(("/paths".to_owned(), e.inner().to_string()))
                }
                pointer => (pointer.to_owned(), e.inner().to_string()),
            };
            CodegenError::Invalid {
                spec: path.to_owned(),
                pointer,
                message: format!("not an OpenAPI 3.0 document: {message}"),
            }
        })?;
        Ok(Self {
            path: path.to_owned(),
            json,
            document,
        })
    }

    /// An error about the node at `pointer`.
    pub(crate) fn invalid(
        &self,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> CodegenError {
        CodegenError::Invalid {
            spec: self.path.clone(),
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

/// The pointer and message of the first operation (or else path item) that does not
/// parse on its own.
fn locate_in_paths(json: &serde_json::Value) -> Option<(String, String)> {
    const METHODS: [&str; 8] = [
        "get", "put", "post", "delete", "patch", "head", "options", "trace",
    ];
    let items = json.get("paths")?.as_object()?;
    items.iter().find_map(|(name, item)| {
        let at = format!("/paths/{}", escape_segment(name));
        let operation = METHODS.iter().find_map(|method| {
            let error =
                serde_path_to_error::deserialize::<_, openapiv3::Operation>(item.get(*method)?)
                    .err()?;
            Some((
                format!("{at}/{method}{}", pointer_of(error.path())),
                error.inner().to_string(),
            ))
        });
        operation.or_else(|| {
            let error = serde_path_to_error::deserialize::<_, openapiv3::PathItem>(item).err()?;
            Some((
                format!("{at}{}", pointer_of(error.path())),
                error.inner().to_string(),
            ))
        })
    })
}

/// Turns serde_path_to_error's path (`paths./v1/x.get.responses`) into a JSON pointer.
fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    path.iter()
        .filter_map(|segment| match segment {
            Segment::Seq { index } => Some(index.to_string()),
            Segment::Map { key } => Some(escape_segment(key)),
            Segment::Enum { variant } => Some(escape_segment(variant)),
            Segment::Unknown => None,
        })
        .fold(String::new(), |mut pointer, segment| {
            pointer.push('/');
            pointer.push_str(&segment);
            pointer
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_errors_name_the_file() {
        let err = Spec::parse(Path::new("spec/x.yaml"), "openapi: [").unwrap_err();
        assert!(
            err.to_string().starts_with("spec/x.yaml: not valid YAML"),
            "{err}"
        );
    }

    #[test]
    fn structural_errors_carry_a_pointer() {
        let text = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses: 7\n";
        let err = Spec::parse(Path::new("s.yaml"), text).unwrap_err();
        match err {
            CodegenError::Invalid { pointer, .. } => {
                assert_eq!(pointer, "/paths/~1a/get/responses")
            }
            other => panic!("unexpected {other}"),
        }
    }
}
