//! Makes every generated builder an `OperationBuilder` (the trait of the
//! `hostapi-raw-operation` crate): it names its operation (operationId, HTTP method and
//! path template, from the spec) and makes its request unsent. The crate also lists its
//! operations in one table (`OPERATIONS`, sorted by operationId). The facade takes a
//! call's operation from its builder's type, and checks each request against that
//! operation's template before it is sent: an id can then never make a request go to a
//! path that is not its operation's.

use crate::load::Spec;
use crate::request_builders::request_of;

/// One operation of the spec.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Operation {
    id: String,
    method: String,
    path: String,
}

/// Implements `OperationBuilder` for every builder with a `send()` (beside its inherent
/// impl), re-exports the trait and its types, and adds the `OPERATIONS` table. Errors
/// name the builders whose `send()` does not build its request as expected, the
/// builders no operation of the spec matches, and the operations no builder was
/// generated for.
pub(crate) fn add_builders(spec: &Spec, file: &mut syn::File) -> Result<(), String> {
    let operations = operations_of(spec);
    let mut adder = Adder {
        operations: &operations,
        matched: vec![false; operations.len()],
        unknown: Vec::new(),
        missed: Vec::new(),
    };
    adder.items(&mut file.items);
    if !adder.missed.is_empty() {
        return Err(format!(
            "no request() could be made for {}: their send() does not build the request as \
             expected",
            adder.missed.join(", ")
        ));
    }
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
        pub use ::hostapi_raw_operation::{BuiltRequest, Operation, OperationBuilder};
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
    missed: Vec<String>,
}

impl Adder<'_> {
    /// Adds the trait impl after each builder's inherent impl in `items`, and in the
    /// modules among them.
    fn items(&mut self, items: &mut Vec<syn::Item>) {
        let mut with_impls = Vec::with_capacity(items.len());
        for mut item in items.drain(..) {
            let added = match &mut item {
                syn::Item::Mod(module) => {
                    if let Some((_, inner)) = &mut module.content {
                        self.items(inner);
                    }
                    None
                }
                syn::Item::Impl(inherent) => self.builder_impl(inherent),
                _ => None,
            };
            with_impls.push(item);
            with_impls.extend(added);
        }
        *items = with_impls;
    }

    /// `impl OperationBuilder` for the builder `inherent` is the impl of, if it is one
    /// (an inherent impl with a `send()`).
    fn builder_impl(&mut self, inherent: &syn::ItemImpl) -> Option<syn::Item> {
        if inherent.trait_.is_some() {
            return None;
        }
        let send = inherent.items.iter().find_map(|member| match member {
            syn::ImplItem::Fn(function) if function.sig.ident == "send" => Some(function),
            _ => None,
        })?;
        let name = match &*inherent.self_ty {
            syn::Type::Path(path) => path
                .path
                .segments
                .last()
                .map(|segment| segment.ident.to_string())
                .unwrap_or_default(),
            _ => String::new(),
        };
        let Some(index) = self
            .operations
            .iter()
            .position(|operation| same_name(&name, &operation.id))
        else {
            self.unknown.push(name);
            return None;
        };
        self.matched[index] = true;
        let Some(request) = request_of(send) else {
            self.missed.push(name);
            return None;
        };
        let row = literal(&self.operations[index]);
        let builder = &inherent.self_ty;
        let (generics, _, where_clause) = inherent.generics.split_for_impl();
        Some(syn::parse_quote! {
            impl #generics crate::OperationBuilder for #builder #where_clause {
                const OPERATION: crate::Operation = #row;
                #request
            }
        })
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
