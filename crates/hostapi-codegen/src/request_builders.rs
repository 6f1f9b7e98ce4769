//! Makes a generated builder's `request()` from its `send()`: the same request, built
//! and handed back unsent. The facade sends it itself (credentials, retries, reading
//! the answer); `send()` stays for anyone using a raw crate alone.

/// `send()`'s statements up to the one that builds `request` (the ones after it run
/// the hooks, send, and sort the answer), returning that request. `None` when `send()`
/// has no such statement, awaits before it, or does not return progenitor's `Error`.
pub(crate) fn request_of(send: &syn::ImplItemFn) -> Option<syn::ImplItemFn> {
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
        fn request(self) -> crate::BuiltRequest {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_send_of_another_shape_makes_no_request() {
        let awaits_first: syn::ImplItemFn = syn::parse_quote! {
            pub async fn send(self) -> Result<ResponseValue<ByteStream>, Error<()>> {
                let url = self.client.url().await;
                let request = self.client.client.get(url).build()?;
                client.exec(request).await
            }
        };
        assert!(request_of(&awaits_first).is_none());
        let no_request: syn::ImplItemFn = syn::parse_quote! {
            pub async fn send(self) -> Result<ResponseValue<ByteStream>, Error<()>> {
                client.client.get(url).send().await
            }
        };
        assert!(request_of(&no_request).is_none());
        let expected: syn::ImplItemFn = syn::parse_quote! {
            pub async fn send(self) -> Result<ResponseValue<ByteStream>, Error<()>> {
                let url = format!("{}/a", self.client.baseurl);
                let request = self.client.client.get(url).build()?;
                client.exec(request).await
            }
        };
        let request = tokens(&request_of(&expected).expect("made"));
        assert!(
            request.contains("fn request (self) -> crate :: BuiltRequest"),
            "{request}"
        );
        assert!(!request.contains("exec"), "{request}");
    }
}
