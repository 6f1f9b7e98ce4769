//! Small helpers: seeded randomness per record, formatting of the wire's
//! date and size styles, IP numbering, request parsing and responses.

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use bytes::Bytes;
use chrono::{DateTime, FixedOffset, NaiveDate, Offset, TimeZone, Utc};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde_json::Value;

use crate::error::ApiError;

/// Record kinds, mixed into the per-record seed so two kinds with the same
/// index get unrelated values.
pub(crate) mod kind {
    pub(crate) const SECRET: u64 = 1;
    pub(crate) const V1_VS: u64 = 2;
    pub(crate) const DOMAIN: u64 = 3;
    pub(crate) const BARE_METAL: u64 = 5;
    pub(crate) const RACK: u64 = 6;
    pub(crate) const CLOUD: u64 = 7;
    pub(crate) const PRIVATE_CLOUD: u64 = 8;
    pub(crate) const USAGE: u64 = 9;
    pub(crate) const METRICS: u64 = 10;
    pub(crate) const PASSWORD: u64 = 11;
    pub(crate) const CDN: u64 = 12;
    pub(crate) const FAULTS: u64 = 13;
    pub(crate) const JOB: u64 = 14;
}

/// SplitMix64 finaliser: a good 64-bit mixing function.
pub(crate) fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Hash of (seed, kind, index): the same triple always gives the same value.
pub(crate) fn hash3(seed: u64, kind: u64, idx: u64) -> u64 {
    mix(seed ^ mix(kind.wrapping_mul(0xA076_1D64_78BD_642F) ^ mix(idx)))
}

/// The PRNG of one record: records are generated lazily from (seed, index).
pub(crate) fn rng(seed: u64, kind: u64, idx: u64) -> Pcg64Mcg {
    Pcg64Mcg::seed_from_u64(hash3(seed, kind, idx))
}

/// One element of a non-empty slice, chosen by the PRNG.
pub(crate) fn pick<'a, T>(r: &mut Pcg64Mcg, xs: &'a [T]) -> &'a T {
    &xs[r.random_range(0..xs.len())]
}

/// One of static strings, chosen by the PRNG.
pub(crate) fn pick_s(r: &mut Pcg64Mcg, xs: &[&'static str]) -> &'static str {
    xs[r.random_range(0..xs.len())]
}

/// `n` lowercase hex digits from the PRNG.
pub(crate) fn hex_digits(r: &mut Pcg64Mcg, n: usize) -> String {
    const H: &[u8] = b"0123456789abcdef";
    (0..n).map(|_| H[r.random_range(0..16)] as char).collect()
}

/// A password-like string from the PRNG.
pub(crate) fn password(r: &mut Pcg64Mcg, n: usize) -> String {
    const A: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    (0..n)
        .map(|_| A[r.random_range(0..A.len())] as char)
        .collect()
}

/// The dataset's reference epoch (2015-01-01T00:00:00Z); historical dates
/// of the generated records are offsets from it, independent of the clock.
pub(crate) const EPOCH: i64 = 1_420_070_400;

fn utc(secs: i64) -> DateTime<Utc> {
    DateTime::<Utc>::from_timestamp(secs, 0).unwrap_or_default()
}

/// Local ISO without offset: `YYYY-MM-DDThh:mm:ss`.
pub(crate) fn fmt_local(secs: i64) -> String {
    utc(secs).format("%Y-%m-%dT%H:%M:%S").to_string()
}

/// ISO with a `+hhmm` offset (no colon), in the data centre's offset.
pub(crate) fn fmt_offset(secs: i64, offset_hours: i32) -> String {
    let off = FixedOffset::east_opt(offset_hours * 3600).unwrap_or_else(|| Utc.fix());
    off.timestamp_opt(secs, 0)
        .single()
        .map(|d| d.format("%Y-%m-%dT%H:%M:%S%z").to_string())
        .unwrap_or_default()
}

/// `Mon d, yyyy`.
pub(crate) fn fmt_mon_d_yyyy(secs: i64) -> String {
    utc(secs).format("%b %-d, %Y").to_string()
}

/// `DD-MM-YYYY`.
pub(crate) fn fmt_dmy(d: NaiveDate) -> String {
    d.format("%d-%m-%Y").to_string()
}

/// RFC 3339 with `+00:00`.
pub(crate) fn fmt_rfc3339(secs: i64) -> String {
    utc(secs).to_rfc3339()
}

/// Parse `DD-MM-YYYY`.
pub(crate) fn parse_dmy(s: &str) -> Option<NaiveDate> {
    if s.len() != 10 {
        return None;
    }
    NaiveDate::parse_from_str(s, "%d-%m-%Y").ok()
}

/// Parse an RFC 3339 timestamp into Unix seconds.
pub(crate) fn parse_rfc3339(s: &str) -> Option<i64> {
    DateTime::parse_from_rfc3339(s).ok().map(|d| d.timestamp())
}

/// Unix seconds to a civil date (UTC).
pub(crate) fn date_of(secs: i64) -> NaiveDate {
    utc(secs).date_naive()
}

/// A MAC address from 6 bytes; `style` 0 = upper case, 1 = lower, 2 = mixed.
pub(crate) fn mac(bytes: [u8; 6], style: usize) -> String {
    let s = bytes
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(":");
    match style % 3 {
        0 => s,
        1 => s.to_lowercase(),
        _ => s
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if i % 2 == 0 {
                    c.to_ascii_lowercase()
                } else {
                    c
                }
            })
            .collect(),
    }
}

/// Six MAC bytes from a hash: a fixed vendor prefix plus three hash bytes.
/// The prefix has letters at odd and even places, so each letter-case style
/// of [`mac`] shows in every address.
pub(crate) fn mac_bytes(h: u64) -> [u8; 6] {
    [0xAC, 0x1F, 0x6B, (h >> 16) as u8, (h >> 8) as u8, h as u8]
}

/// Normalise a MAC for comparison (upper case, `:` separators).
pub(crate) fn norm_mac(s: &str) -> String {
    s.to_ascii_uppercase().replace('-', ":")
}

/// IPv4 number `n` of a block starting at `a.b0.0.0` (offset by 10 so no
/// address ends in .0 for small n).
pub(crate) fn ip_of(a: u8, b0: u8, n: u64) -> String {
    let n = n + 10;
    format!(
        "{}.{}.{}.{}",
        a,
        u64::from(b0) + (n >> 16),
        (n >> 8) & 255,
        n & 255
    )
}

/// Inverse of [`ip_of`].
pub(crate) fn ip_index(ip: &str, a: u8, b0: u8) -> Option<u64> {
    let o: Vec<u64> = ip
        .split('.')
        .map(|p| p.parse::<u64>().ok())
        .collect::<Option<Vec<_>>>()?;
    if o.len() != 4 || o[0] != u64::from(a) || o[1] < u64::from(b0) || o[1] > 255 {
        return None;
    }
    let n = ((o[1] - u64::from(b0)) << 16) | (o[2] << 8) | o[3];
    n.checked_sub(10)
}

/// Whether `s` is a dotted IPv4 address.
pub(crate) fn is_ipv4(s: &str) -> bool {
    s.parse::<std::net::Ipv4Addr>().is_ok()
}

/// Whether `s` is an IPv6 address.
pub(crate) fn is_ipv6(s: &str) -> bool {
    s.parse::<std::net::Ipv6Addr>().is_ok()
}

/// Whether `s` looks like a DNS name (letters, digits, `-`, `.`, `_`, `*`).
pub(crate) fn is_hostname(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '*' | '@'))
}

/// A request, parsed once: method, raw and decoded path, query, headers, body.
pub(crate) struct Req {
    pub(crate) method: Method,
    pub(crate) segs: Vec<String>,
    pub(crate) raw_path: String,
    pub(crate) query: Vec<(String, String)>,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Bytes,
}

impl Req {
    /// The last value of query parameter `name`.
    pub(crate) fn q(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether the client asked for a PNG image.
    pub(crate) fn wants_png(&self) -> bool {
        self.headers
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .map(|v| {
                let v = v.to_ascii_lowercase();
                v.contains("image/png") && !v.contains("application/json")
            })
            .unwrap_or(false)
    }

    fn content_type(&self) -> String {
        self.headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase()
    }

    /// Whether the body is declared as JSON.
    pub(crate) fn is_json(&self) -> bool {
        self.content_type().contains("json")
    }

    /// The body as form fields. A non-empty body declared as something other
    /// than a form is refused with 415.
    pub(crate) fn form(&self) -> Result<Form, ApiError> {
        if !self.body.is_empty() {
            let ct = self.content_type();
            if !ct.is_empty() && !ct.starts_with("application/x-www-form-urlencoded") {
                return Err(ApiError::unsupported_media(
                    "this operation takes form fields (application/x-www-form-urlencoded)",
                ));
            }
        }
        Ok(Form(
            form_urlencoded::parse(&self.body)
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
        ))
    }
}

/// Decoded form fields, in order.
pub(crate) struct Form(pub(crate) Vec<(String, String)>);

impl Form {
    /// The last value of field `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// A required, non-empty field.
    pub(crate) fn required(&self, name: &str) -> Result<&str, ApiError> {
        match self.get(name) {
            Some(v) if !v.trim().is_empty() => Ok(v),
            _ => Err(ApiError::bad_field(name, "is required")),
        }
    }

    /// An optional integer field (absent or empty gives None).
    pub(crate) fn opt_int(&self, name: &str) -> Result<Option<i64>, ApiError> {
        match self.get(name) {
            None => Ok(None),
            Some(v) if v.trim().is_empty() => Ok(None),
            Some(v) => v
                .trim()
                .parse::<i64>()
                .map(Some)
                .map_err(|_| ApiError::bad_field(name, "must be an integer")),
        }
    }

    /// An optional 0/1 field.
    pub(crate) fn opt_bit(&self, name: &str) -> Result<Option<bool>, ApiError> {
        match self.get(name) {
            None => Ok(None),
            Some("0") => Ok(Some(false)),
            Some("1") => Ok(Some(true)),
            Some(_) => Err(ApiError::bad_field(name, "must be 0 or 1")),
        }
    }
}

/// A JSON answer.
pub(crate) fn json(status: StatusCode, v: &Value) -> Response {
    let body = serde_json::to_vec(v).unwrap_or_default();
    let mut r = Response::new(Body::from(body));
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

/// A 200 JSON answer holding a list, serialised record by record (no
/// tree of the whole list is built): `prefix`, the items joined by commas,
/// then `suffix`. `prefix` must open the array, e.g. `{"domains":[`.
pub(crate) fn ok_list(prefix: &str, items: impl Iterator<Item = Value>, suffix: &str) -> Response {
    let mut buf = Vec::with_capacity(4096);
    buf.extend_from_slice(prefix.as_bytes());
    for (k, v) in items.enumerate() {
        if k > 0 {
            buf.push(b',');
        }
        if serde_json::to_writer(&mut buf, &v).is_err() {
            buf.extend_from_slice(b"null");
        }
    }
    buf.extend_from_slice(suffix.as_bytes());
    let mut r = Response::new(Body::from(buf));
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

/// A 200 JSON answer.
pub(crate) fn ok(v: &Value) -> Response {
    json(StatusCode::OK, v)
}

/// An answer without a body.
pub(crate) fn empty(status: StatusCode) -> Response {
    let mut r = Response::new(Body::empty());
    *r.status_mut() = status;
    r
}

/// A PNG answer.
pub(crate) fn png(bytes: Vec<u8>) -> Response {
    let mut r = Response::new(Body::from(bytes));
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("image/png"));
    r
}

/// Limit and offset of a paginated list: default [`crate::DEFAULT_PAGE_LIMIT`],
/// capped at [`crate::MAX_PAGE_LIMIT`]; non-integers and negatives are 400.
pub(crate) fn page(req: &Req) -> Result<(usize, usize), ApiError> {
    let limit = match req.q("limit") {
        None | Some("") => crate::DEFAULT_PAGE_LIMIT,
        Some(v) => {
            let n: i64 = v
                .parse()
                .map_err(|_| ApiError::bad_field("limit", "must be an integer"))?;
            if n < 1 {
                return Err(ApiError::bad_field("limit", "must be at least 1"));
            }
            (n as u64).min(crate::MAX_PAGE_LIMIT as u64) as usize
        }
    };
    let offset = match req.q("offset") {
        None | Some("") => 0,
        Some(v) => {
            let n: i64 = v
                .parse()
                .map_err(|_| ApiError::bad_field("offset", "must be an integer"))?;
            if n < 0 {
                return Err(ApiError::bad_field("offset", "must not be negative"));
            }
            n as usize
        }
    };
    Ok((limit, offset))
}

/// The `_metadata` object of a list.
pub(crate) fn metadata(total: usize, limit: usize, offset: usize) -> Value {
    serde_json::json!({"totalCount": total, "limit": limit, "offset": offset})
}

/// A size in GB with two decimals and its unit ("1100.50 GB").
pub(crate) fn gb(x: f64) -> String {
    format!("{x:.2} GB")
}

/// A rate in Mbps ("11 Mbps").
pub(crate) fn mbps(x: f64) -> String {
    format!("{} Mbps", x.round() as i64)
}
