//! What every request builder of the raw crates (`hostapi-raw-infra`, `-cloud`, `-cdn`)
//! is, in one place the three crates and the facade share.
//!
//! `hostapi-codegen` implements [`OperationBuilder`] for each builder it generates: the
//! builder names its operation ([`OperationBuilder::OPERATION`]: operationId, method,
//! path template, from the spec) and makes its request without sending it
//! ([`OperationBuilder::request`]). The facade's calls take the operation from the
//! builder's type, so the name a call is logged, reported and checked under cannot
//! differ from the request it sends.

/// One operation of an interface, as its spec names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Operation {
    /// The operationId (`getBareMetal`).
    pub id: &'static str,
    /// The HTTP method, in capitals (`GET`).
    pub method: &'static str,
    /// The path template, parameters in braces (`/v1/bareMetals/{bareMetalId}`).
    pub path: &'static str,
}

/// A request, as a builder makes it, or why it could not: an argument that did not
/// convert to the spec's type, or a request reqwest could not build. Boxed: progenitor's
/// error is large (it can hold a whole answer), and this one never does.
pub type BuiltRequest = Result<reqwest::Request, Box<progenitor_client::Error<()>>>;

/// A generated request builder: the operation it is for, and its request.
pub trait OperationBuilder: Sized {
    /// The builder's operation.
    const OPERATION: Operation;

    /// Builds the request the builder's `send()` would send (before the client's
    /// hooks), without sending it.
    fn request(self) -> BuiltRequest;
}
