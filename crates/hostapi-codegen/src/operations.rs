//! Names every generated builder's operation: its operationId, HTTP method and path
//! template, as an inherent `OPERATION` const on the builder and in one table of the
//! crate (`OPERATIONS`, sorted by operationId). The facade checks each request it is
//! about to send against its operation's template: an id can then never make a request
//! go to a path that is not its operation's.

use syn::visit_mut::VisitMut;

use crate::load::Spec;

/// One operation of the spec.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Operation {
    id: String,
    method: String,
    path: String,
}

/// Adds `OPERATION` to every builder with a `send()`, and the `Operation` type and the
/// `OPERATIONS` table to the file. Errors name the builders no operation of the spec
/// matches, and the operations no builder was generated for.
pub(crate) fn add_operations(spec: &Spec, file: &mut syn::File) -> Result<(), String> {
    let operations = operations_of(spec);
    let mut adder = Adder {
        operations: &operations,
        matched: vec![false; operations.len()],
        unknown: Vec::new(),
    };
    adder.visit_file_mut(file);
    let unbuilt: Vec<&str> = operations
        .iter()
        .zip(&adder.matched)
        .filter(|(_, matched)| !**matched)
        .map(|(operation, _)| operation.id.as_str())
        .collect();
    if !adder.unknown.is_empty() || !unbuilt.is_empty() {
        return Err(format!(
            "builders without an operation of the spec: [{}]; operations without a builder: [{}]",
            adder.unknown.join(", "),
            unbuilt.join(", ")
        ));
    }
    let mut sorted = operations.clone();
    sorted.sort_by(|a, b| a.id.cmp(&b.id));
    let rows = sorted.iter().map(literal);
    file.items.push(syn::parse_quote! {
        /// One operation of this interface, as its spec names it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub struct Operation {
            /// The operationId (`getBareMetal`).
            pub id: &'static str,
            /// The HTTP method, in capitals (`GET`).
            pub method: &'static str,
            /// The path template, parameters in braces (`/v1/bareMetals/{bareMetalId}`).
            pub path: &'static str,
        }
    });
    file.items.push(syn::parse_quote! {
        /// Every operation of this interface, sorted by operationId.
        pub const OPERATIONS: &[Operation] = &[#(#rows),*];
    });
    Ok(())
}

/// The operations of the spec, in the order of its paths and methods.
fn operations_of(spec: &Spec) -> Vec<Operation> {
    const METHODS: [&str; 8] = [
        "get", "put", "post", "delete", "options", "head", "patch", "trace",
    ];
    let mut operations = Vec::new();
    let Some(paths) = spec.json.get("paths").and_then(|p| p.as_object()) else {
        return operations;
    };
    for (path, item) in paths {
        for method in METHODS {
            if let Some(id) = item
                .get(method)
                .and_then(|operation| operation.get("operationId"))
                .and_then(|id| id.as_str())
            {
                operations.push(Operation {
                    id: id.to_owned(),
                    method: method.to_ascii_uppercase(),
                    path: path.clone(),
                });
            }
        }
    }
    operations
}

fn literal(operation: &Operation) -> syn::Expr {
    let Operation { id, method, path } = operation;
    syn::parse_quote! {
        crate::Operation { id: #id, method: #method, path: #path }
    }
}

/// The builder's name for an operationId, as the generator makes it: the id in
/// UpperCamelCase, compared without letter case or separators.
fn same_name(builder: &str, operation_id: &str) -> bool {
    let plain = |text: &str| -> String {
        text.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    plain(builder) == plain(operation_id)
}

struct Adder<'a> {
    operations: &'a [Operation],
    matched: Vec<bool>,
    unknown: Vec<String>,
}

impl VisitMut for Adder<'_> {
    fn visit_item_impl_mut(&mut self, item: &mut syn::ItemImpl) {
        let sends = item.items.iter().any(
            |member| matches!(member, syn::ImplItem::Fn(function) if function.sig.ident == "send"),
        );
        if sends && item.trait_.is_none() {
            let name = match &*item.self_ty {
                syn::Type::Path(path) => path
                    .path
                    .segments
                    .last()
                    .map(|segment| segment.ident.to_string())
                    .unwrap_or_default(),
                _ => String::new(),
            };
            match self
                .operations
                .iter()
                .position(|operation| same_name(&name, &operation.id))
            {
                Some(index) => {
                    self.matched[index] = true;
                    let row = literal(&self.operations[index]);
                    item.items.insert(
                        0,
                        syn::parse_quote! {
                            /// This builder's operation: its operationId, method and path
                            /// template.
                            pub const OPERATION: crate::Operation = #row;
                        },
                    );
                }
                None => self.unknown.push(name),
            }
        }
        syn::visit_mut::visit_item_impl_mut(self, item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_names_match_operation_ids() {
        assert!(same_name("GetBareMetal", "getBareMetal"));
        assert!(same_name("ListVirtualServers", "list_virtual_servers"));
        assert!(!same_name("GetBareMetals", "getBareMetal"));
    }
}
