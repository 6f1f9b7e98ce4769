//! Adds `request()` beside every generated builder's `send()`: the same request, built
//! and handed back unsent. The facade sends it itself (credentials, retries, reading
//! the answer); `send()` stays for anyone using a raw crate alone.

use syn::visit_mut::VisitMut;

/// Adds the `request()` functions; the builders it could not add one to are listed in
/// `missed` (the generator's output changed shape: the caller fails).
#[derive(Default)]
pub(crate) struct RequestBuilders {
    pub(crate) missed: Vec<String>,
}

impl VisitMut for RequestBuilders {
    fn visit_item_impl_mut(&mut self, item: &mut syn::ItemImpl) {
        let send = item.items.iter().find_map(|member| match member {
            syn::ImplItem::Fn(function) if function.sig.ident == "send" => Some(function),
            _ => None,
        });
        if let Some(send) = send {
            match request_of(send) {
                Some(request) => item.items.push(syn::ImplItem::Fn(request)),
                None => self.missed.push(tokens(&item.self_ty)),
            }
        }
        syn::visit_mut::visit_item_impl_mut(self, item);
    }
}

/// `send()`'s statements up to the one that builds `request` (the ones after it run
/// the hooks, send, and sort the answer), returning that request. `None` when `send()`
/// has no such statement, awaits before it, or does not return progenitor's `Error`.
fn request_of(send: &syn::ImplItemFn) -> Option<syn::ImplItemFn> {
    let statements = &send.block.stmts;
    let built = statements.iter().position(|statement| {
        matches!(statement, syn::Stmt::Local(local)
            if matches!(&local.pat, syn::Pat::Ident(binding) if binding.ident == "request"))
    })?;
    let before = &statements[..=built];
    if before
        .iter()
        .any(|statement| tokens(statement).contains(". await"))
    {
        return None;
    }
    let error = error_type(&send.sig.output)?;
    // The error is boxed: progenitor's is large (it can hold a whole answer), and this
    // one is only ever an argument that could not be converted or a request reqwest
    // could not build.
    Some(syn::parse_quote! {
        /// Builds the request [`send`](Self::send) makes, before the client's hooks,
        /// without sending it.
        pub fn request(self) -> Result<::reqwest::Request, Box<#error>> {
            let build = move || -> Result<::reqwest::Request, #error> {
                #(#before)*
                Ok(request)
            };
            build().map_err(Box::new)
        }
    })
}

/// `E` of a `-> Result<T, E>`.
fn error_type(output: &syn::ReturnType) -> Option<syn::Type> {
    let syn::ReturnType::Type(_, returned) = output else {
        return None;
    };
    let syn::Type::Path(path) = &**returned else {
        return None;
    };
    let last = path.path.segments.last()?;
    let syn::PathArguments::AngleBracketed(arguments) = &last.arguments else {
        return None;
    };
    match (last.ident == "Result", arguments.args.iter().nth(1)) {
        (true, Some(syn::GenericArgument::Type(error))) => Some(error.clone()),
        _ => None,
    }
}

fn tokens(node: &impl quote::ToTokens) -> String {
    node.to_token_stream().to_string()
}
