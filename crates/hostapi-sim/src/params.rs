//! Request validation, the way stripe-mock checks requests against its
//! specification: each interface declares the parameters of its operations
//! as the documents list them ([`Spec`]), and [`check`] runs before the
//! handler, so before any state changes: a form (or, where the documents
//! allow it, a JSON object) on a body operation, no unknown fields or query
//! parameters, required fields present, values of the documented type and
//! allowed values. A refusal is 400 with the interface's error body naming
//! the field. Rules beyond the type (a TTL's range, the `hdd…` partition
//! form, a DNS record's content) are the handlers'.

use serde_json::Value;

use crate::error::ApiError;
use crate::util::Req;

/// The type of a parameter's value.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Ty {
    /// Decimal digits.
    Int,
    /// Decimal digits, or empty.
    IntOrEmpty,
    /// Any text.
    Str,
    /// `0` or `1`.
    Bool01,
    /// One of the listed values.
    OneOf(&'static [&'static str]),
}

/// One parameter.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Field {
    pub(crate) name: &'static str,
    pub(crate) ty: Ty,
    pub(crate) required: bool,
}

pub(crate) const fn req(name: &'static str, ty: Ty) -> Field {
    Field {
        name,
        ty,
        required: true,
    }
}

pub(crate) const fn opt(name: &'static str, ty: Ty) -> Field {
    Field {
        name,
        ty,
        required: false,
    }
}

/// What one operation accepts.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Spec {
    /// Form fields (an empty list: the operation takes no body).
    pub(crate) form: &'static [Field],
    /// Form fields under this prefix are the handler's to check (`hdd[`).
    pub(crate) form_prefix: Option<&'static str>,
    /// At least one of these form fields must be present.
    pub(crate) one_of: &'static [&'static str],
    /// Query parameters.
    pub(crate) query: &'static [Field],
    /// The body may also be a JSON object of the form's fields.
    pub(crate) json: bool,
}

pub(crate) const NONE: Spec = Spec {
    form: &[],
    form_prefix: None,
    one_of: &[],
    query: &[],
    json: false,
};

pub(crate) const fn form(fields: &'static [Field]) -> Spec {
    Spec {
        form: fields,
        ..NONE
    }
}

pub(crate) const fn query(fields: &'static [Field]) -> Spec {
    Spec {
        query: fields,
        ..NONE
    }
}

fn check_value(f: &Field, v: &str) -> Result<(), ApiError> {
    let digits = |s: &str| !s.is_empty() && s.len() <= 18 && s.bytes().all(|b| b.is_ascii_digit());
    let ok = match f.ty {
        Ty::Int => digits(v.trim()),
        Ty::IntOrEmpty => v.trim().is_empty() || digits(v.trim()),
        Ty::Str => true,
        Ty::Bool01 => v == "0" || v == "1",
        Ty::OneOf(allowed) => allowed.contains(&v.trim()),
    };
    if ok {
        return Ok(());
    }
    let what = match f.ty {
        Ty::Int => "must be an integer".to_string(),
        Ty::IntOrEmpty => "must be an integer or empty".to_string(),
        Ty::Bool01 => "must be 0 or 1".to_string(),
        Ty::OneOf(allowed) => format!("must be one of {}", allowed.join(", ")),
        Ty::Str => String::new(),
    };
    Err(ApiError::bad_field(f.name, &what))
}

fn check_fields(
    given: &[(String, String)],
    fields: &[Field],
    prefix: Option<&str>,
    what: &str,
) -> Result<(), ApiError> {
    for f in fields.iter().filter(|f| f.required) {
        if !given.iter().any(|(k, _)| k == f.name) {
            return Err(ApiError::bad_field(f.name, "is required"));
        }
    }
    for (k, v) in given {
        if prefix.is_some_and(|p| k.starts_with(p)) {
            continue;
        }
        match fields.iter().find(|f| f.name == k) {
            Some(f) => check_value(f, v)?,
            None => {
                let known: Vec<&str> = fields.iter().map(|f| f.name).collect();
                let msg = if known.is_empty() {
                    format!("unknown {what}: this operation takes none")
                } else {
                    format!("unknown {what}: this operation takes {}", known.join(", "))
                };
                return Err(ApiError::bad_field(k, &msg));
            }
        }
    }
    Ok(())
}

/// The fields of a JSON object body, as text (strings as they are, other
/// values as JSON), for the checks a form gets; None when the body is not
/// JSON. A body that is not a JSON object is refused naming `first` (the
/// operation's first field, as its handler would).
fn json_fields(r: &Req, first: &str) -> Result<Option<Vec<(String, String)>>, ApiError> {
    let looks_json = r.body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    if !r.is_json() && !looks_json {
        return Ok(None);
    }
    let v: Value = serde_json::from_slice(&r.body)
        .map_err(|_| ApiError::bad_field(first, "the body is not valid JSON"))?;
    let Value::Object(m) = v else {
        return Err(ApiError::bad_field(first, "the body must be a JSON object"));
    };
    Ok(Some(
        m.into_iter()
            .map(|(k, v)| match v {
                Value::String(s) => (k, s),
                other => (k, other.to_string()),
            })
            .collect(),
    ))
}

/// Check a request against the parameters `specs` gives operation `name`
/// (an operation without an entry takes none).
pub(crate) fn check(specs: &[(&[&str], Spec)], name: &str, r: &Req) -> Result<(), ApiError> {
    let spec = specs
        .iter()
        .find(|(names, _)| names.contains(&name))
        .map_or(NONE, |(_, spec)| *spec);
    check_fields(&r.query, spec.query, None, "query parameter")?;
    let fields = match spec.json {
        true => {
            let first = spec.form.first().map_or("body", |f| f.name);
            match json_fields(r, first)? {
                Some(fields) => fields,
                None => r.form()?.0,
            }
        }
        false => r.form()?.0,
    };
    check_fields(&fields, spec.form, spec.form_prefix, "form field")?;
    let present = |n: &&str| fields.iter().any(|(k, _)| k == n);
    if !spec.one_of.is_empty() && !spec.one_of.iter().any(present) {
        return Err(ApiError::bad_field(
            spec.one_of[0],
            &format!("give one of {}", spec.one_of.join(", ")),
        ));
    }
    Ok(())
}
